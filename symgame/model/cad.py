"""Exact decisions in one or two real variables by cylindrical algebraic decomposition.

z3's nonlinear arithmetic (:mod:`symgame.model.decide`) is complete in principle but can time out on
the high-degree conditions of two-parameter games (Final Jeopardy with close scores).  In the plane a
cylindrical algebraic decomposition (CAD) decides every quantifier-free formula with polynomial sign
conditions in a bounded amount of exact work (Collins, "Quantifier elimination for real closed
fields by cylindrical algebraic decomposition", LNCS 33, 1975, sections 2-4; the two-variable case
as in Basu, Pollack and Roy, *Algorithms in Real Algebraic Geometry*, Springer 2006, section 11.1):

1. every polynomial is factored into irreducible factors over the rationals (python-flint);
2. **projection** on the first variable ``x``: the leading coefficient in ``y`` and the discriminant
   of every factor, and the resultant of every pair.  Between consecutive real roots of these
   univariate polynomials the real roots in ``y`` of every factor are distinct, continuous and
   never meet (delineability), so every factor has a constant sign on every cell of the cylinder;
3. **lifting**: above one sample of each interval (a rational) and each root (an exact algebraic
   number ``alpha``, the root of an irreducible polynomial isolated by a rational interval) the
   real roots in ``y`` are isolated exactly (Descartes' rule of signs with bisection) and one sample
   is taken per cell.  Above an irrational ``alpha`` the computation runs in the number field
   Q(alpha): candidate roots come from the norm ``Res_x(u, f)``, a candidate is a root of the
   square-free part of ``f(alpha, y)`` exactly when that part changes sign on its isolating interval
   (signs of nonzero elements of Q(alpha) come from interval evaluation on a shrinking interval of
   ``alpha``, which terminates because they are nonzero).  ``f(alpha, y)`` is its own square-free
   part unless ``alpha`` is a root of the discriminant or of the leading coefficient of ``f``, so
   Euclid's algorithm over Q(alpha) runs only above those;
4. the formula is evaluated on the sign vector of every cell.

Every step is exact; there is no timeout and no floating-point decision.  :class:`LimitError` is
raised when a query has more than :data:`MAX_FACTORS` irreducible factors or a projection polynomial
exceeds :data:`MAX_DEGREE`, so the caller can fall back to z3.

Formulas are nested tuples: ``("atom", poly, rel)`` with ``poly`` an ``fmpq_mpoly`` in the
variables of a :class:`Plane` and ``rel`` one of ``>``, ``>=``, ``==``, ``!=``; ``("and", [..])``,
``("or", [..])``, ``("not", f)``, ``("const", bool)``.
"""
from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Iterable, Iterator, Sequence

import flint

from ..errors import LimitError
from .region import _compare

MAX_DEGREE = 4000  # degree limit of one projection polynomial (resultants grow as products of degrees)
MAX_FACTORS = 80  # limit on the irreducible factors of one query (the projection has one resultant per pair)
MAX_TABLES = 16  # sign tables kept per plane (least recently used dropped first)
MAX_TABLE_CELLS = 400_000  # cells kept in all of a plane's sign tables together
Formula = tuple

# --------------------------------------------------------------------------------------------------
# Real algebraic numbers of degree d: an irreducible integer polynomial and an isolating interval.
# --------------------------------------------------------------------------------------------------


def _key(poly: flint.fmpz_poly) -> tuple[int, ...]:
    return tuple(int(c) for c in poly.coeffs())


def _normalise(poly: flint.fmpz_poly) -> flint.fmpz_poly:
    """Primitive with a positive leading coefficient."""
    content = poly.content()
    if content != 1 and content != 0:
        poly = flint.fmpz_poly([c // content for c in poly.coeffs()])
    if poly.leading_coefficient() < 0:
        poly = -poly
    return poly


class RealRoot:
    """The real root of an irreducible ``poly`` in ``(low, high)`` (degree 1: the rational itself).

    Intervals only shrink (:meth:`refine`); the value never changes.
    """

    __slots__ = ("poly", "key", "low", "high", "value", "ordinal")

    def __init__(self, poly: flint.fmpz_poly, low: flint.fmpq, high: flint.fmpq, ordinal: int | None = None):
        self.poly = poly
        self.key = _key(poly)
        self.ordinal = ordinal  # the index among the real roots of ``poly``, when known
        if poly.degree() == 1:
            c0, c1 = poly.coeffs()
            self.value: flint.fmpq | None = flint.fmpq(-c0, c1)
            self.low = self.high = self.value
        else:
            self.value = None
            self.low, self.high = low, high

    @property
    def rational(self) -> bool:
        return self.value is not None

    def refine(self) -> None:
        """Halve the isolating interval (exact signs at the midpoint)."""
        if self.value is not None:
            return
        self.low, self.high = _halve(self.poly, self.low, self.high)

    def ball(self) -> flint.arb:
        if self.value is not None:
            return flint.arb(self.value)
        return flint.arb(self.low).union(flint.arb(self.high))

    def compare_rational(self, q: flint.fmpq) -> int:
        """Sign of ``self - q``."""
        if self.value is not None:
            return (self.value > q) - (self.value < q)
        while self.low <= q <= self.high:
            self.refine()
        return 1 if q < self.low else -1

    def identity(self) -> tuple:
        """A hashable name of the number: its polynomial and the index of the root."""
        if self.value is not None:
            return (self.key, 0)
        return (self.key, self.index())

    def index(self) -> int:
        """The number of real roots of ``poly`` below this one."""
        if self.ordinal is not None:
            return self.ordinal
        roots = isolate(self.poly)
        for k, other in enumerate(roots):
            if other.compare(self) == 0:
                return k
        raise AssertionError("a root of its own polynomial")

    def compare(self, other: "RealRoot") -> int:
        """Sign of ``self - other``, exact."""
        if self.key == other.key:
            # same irreducible polynomial: distinct roots have disjoint isolating intervals
            # after refinement unless they are the same root
            return _compare_same(self, other)
        if other.value is not None:
            return self.compare_rational(other.value)
        if self.value is not None:
            return -other.compare_rational(self.value)
        while not (self.high < other.low or other.high < self.low):
            self.refine()
            other.refine()
        return -1 if self.high < other.low else 1

    def __float__(self) -> float:
        if self.value is not None:
            return float(self.value.p) / float(self.value.q)
        return float((self.low + self.high) / 2)

    def exact(self) -> flint.fmpq:
        """The value of a rational root."""
        if self.value is None:
            raise ValueError("not a rational root")
        return self.value

    def fraction(self) -> Fraction:
        value = self.exact()
        return Fraction(int(value.p), int(value.q))


def _compare_same(a: RealRoot, b: RealRoot) -> int:
    if a.value is not None and b.value is not None:
        return (a.value > b.value) - (a.value < b.value)
    # Roots from one isolation never overlap; roots from two isolations of the same polynomial
    # overlap only when they are the same root (each interval holds exactly one root).
    while True:
        if a.high < b.low:
            return -1
        if b.high < a.low:
            return 1
        if a.low >= b.low and a.high <= b.high or b.low >= a.low and b.high <= a.high:
            return 0
        a.refine()
        b.refine()


_ROOTS: dict[tuple[int, ...], list[tuple[flint.fmpq, flint.fmpq]]] = {}


def isolate(poly: flint.fmpz_poly) -> list[RealRoot]:
    """The real roots of an irreducible integer polynomial, in increasing order."""
    key = _key(poly)
    cached = _ROOTS.get(key)
    if cached is None:
        if poly.degree() < 1:
            cached = []
        elif poly.degree() == 1:
            cached = [(flint.fmpq(0), flint.fmpq(0))]
        else:
            cached = _descartes(poly)
            _check_isolated(poly, cached)
        if len(_ROOTS) > 20_000:
            _ROOTS.clear()
        _ROOTS[key] = cached
    return [RealRoot(poly, low, high, k) for k, (low, high) in enumerate(cached)]


_SHIFT = flint.fmpz_poly([1, 1])


def _sign_variations(coeffs: Sequence[Any]) -> int:
    count, last = 0, 0
    for c in coeffs:
        if c != 0:
            sign = 1 if c > 0 else -1
            count += last == -sign
            last = sign
    return count


def _positive_roots(poly: flint.fmpz_poly) -> list[tuple[flint.fmpq, flint.fmpq]]:
    """Isolating intervals of the positive roots of a square-free ``poly`` with no dyadic root, by
    Descartes' rule of signs with bisection (Collins and Akritas, "Polynomial real root isolation
    using Descartes' rule of signs", SYMSAC 1976): the roots of ``q`` in (0, 1) are bounded by the sign
    variations of ``(x + 1)^n q(1 / (x + 1))``, exactly when that bound is 0 or 1."""
    coeffs = [int(c) for c in poly.coeffs()]
    n, lead = len(coeffs) - 1, coeffs[-1]
    # Kioustelidis' bound: every positive root is below 2 max (|a_i| / |a_n|)^(1 / (n - i)) over
    # the coefficients a_i of the sign opposite to a_n's, and |a_i| / |a_n| < 2^(bits(a_i) - bits(a_n) + 1)
    exponents = [-(-(abs(c).bit_length() - abs(lead).bit_length() + 1) // (n - i))
                 for i, c in enumerate(coeffs[:-1]) if c * lead < 0]
    if not exponents:
        return []
    shift = max(0, 1 + max(exponents))                          # 2**shift bounds the positive roots
    out: list[tuple[flint.fmpq, flint.fmpq]] = []
    # q(x) = poly(2**shift x) has its positive roots in (0, 1); an entry (q, c, d) stands for the
    # roots of poly in (c 2**shift / 2**d, (c + 1) 2**shift / 2**d)
    stack = [(flint.fmpz_poly([c << (shift * i) for i, c in enumerate(coeffs)]), 0, 0)]
    while stack:
        q, c, d = stack.pop()
        reverse = flint.fmpz_poly(list(reversed(q.coeffs())))
        variations = _sign_variations(reverse(_SHIFT).coeffs())
        if variations == 1:
            out.append((flint.fmpq(c << shift, 1 << d), flint.fmpq((c + 1) << shift, 1 << d)))
        elif variations > 1:
            qc = [int(a) for a in q.coeffs()]
            half = flint.fmpz_poly([a << (len(qc) - 1 - i) for i, a in enumerate(qc)])  # 2^n q(x / 2)
            stack.append((half(_SHIFT), 2 * c + 1, d + 1))                              # 2^n q((x + 1) / 2)
            stack.append((half, 2 * c, d + 1))
    return out


def _descartes(poly: flint.fmpz_poly) -> list[tuple[flint.fmpq, flint.fmpq]]:
    """Disjoint isolating intervals of the real roots of an irreducible ``poly`` of degree >= 2 (no
    rational root, so no interval end is a root), increasing."""
    coeffs = [int(c) for c in poly.coeffs()]
    mirror = flint.fmpz_poly([-c if i % 2 else c for i, c in enumerate(coeffs)])
    intervals = [(-high, -low) for low, high in reversed(_positive_roots(mirror))] + _positive_roots(poly)
    intervals.sort(key=lambda iv: iv[0])
    # neighbours may share an end (never a root): halve both until they are apart
    for k in range(len(intervals) - 1):
        while not intervals[k][1] < intervals[k + 1][0]:
            intervals[k] = _halve(poly, *intervals[k])
            intervals[k + 1] = _halve(poly, *intervals[k + 1])
    return intervals


def _halve(poly: flint.fmpz_poly, low: flint.fmpq, high: flint.fmpq) -> tuple[flint.fmpq, flint.fmpq]:
    mid = (low + high) / 2
    return (mid, high) if (poly(low) > 0) == (poly(mid) > 0) else (low, mid)


def _square_free_by_discriminant(field: "AlgebraicExtension", over: list[flint.fmpq_poly], length: int,
                                 discriminant: flint.fmpq_poly) -> bool:
    """Whether ``f(alpha, y)`` is known square-free without a gcd: degree at most 1, or the leading coefficient
    nonzero at alpha (no coefficient trimmed) and the discriminant nonzero there."""
    return len(over) <= 2 or (len(over) == length and not field.reduce(discriminant).is_zero())


def squarefree_above(field: "AlgebraicExtension", over: list[flint.fmpq_poly], length: int,
                     discriminant: flint.fmpq_poly) -> list[flint.fmpq_poly]:
    """The square-free part of ``f(alpha, y)``, whose coefficients in Q(alpha) are ``over`` (``f`` has ``length``
    coefficients in ``y`` and the discriminant ``discriminant`` in ``x``).

    When ``f``'s leading coefficient does not vanish at alpha (no coefficient was trimmed), ``f(alpha, y)`` is
    square-free exactly when the discriminant does not vanish at alpha: one remainder in Q[x] instead of
    Euclid's algorithm over Q(alpha).
    """
    if _square_free_by_discriminant(field, over, length, discriminant):
        return over
    return field.squarefree(over)


def root_tests(field: "AlgebraicExtension", over: list[flint.fmpq_poly], length: int,
               discriminant: flint.fmpq_poly,
               subresultant: Callable[[int], list[flint.fmpz_poly]]) -> list[list[flint.fmpq_poly]]:
    """Polynomials over Q(alpha) whose sign changes find the real roots of ``f(alpha, y)``: on an interval that
    isolates a number among the roots of ``f(alpha, y)``, the number is a root exactly when one of them changes
    sign there (their roots are roots of ``f(alpha, y)``, and each root has odd multiplicity in one of them).

    ``over`` are ``f(alpha, y)``'s coefficients (``f`` has ``length`` coefficients in ``y``, the discriminant
    ``discriminant`` in ``x`` and the subresultants ``subresultant(j)`` with ``df/dy``, coefficients in Z[x]).
    ``[f(alpha, y)]`` itself when it is square-free (:func:`squarefree_above`'s discriminant test). Otherwise, with
    ``f``'s leading coefficient nonzero at alpha, ``gcd(f(alpha, y), df/dy(alpha, y))`` is the first subresultant
    whose leading coefficient does not vanish at alpha: the degree of a gcd is the index of the first nonzero
    principal subresultant coefficient and that subresultant is a gcd (G. E. Collins, "Subresultants and reduced
    polynomial remainder sequences", J. ACM 14(1), 128-142, 1967; Basu, Pollack, Roy, *Algorithms in Real
    Algebraic Geometry*, 2nd ed., Springer 2006, chapter 4), and subresultants, as determinants with the formal
    degrees, commute with the evaluation at alpha when the leading coefficient stays nonzero there; when it
    is linear, ``f(alpha, y)`` has one double root and ``[f(alpha, y), gcd]`` are the tests: no arithmetic in
    Q(alpha) beyond remainders by alpha's polynomial. Euclid's algorithm over Q(alpha), whose inverses make the
    coefficients grow without bound (the near tie (18, 17) of Final Jeopardy spent half its time in them),
    remains for the rest: a trimmed leading coefficient or a greatest common divisor of degree 2 or more.
    """
    if _square_free_by_discriminant(field, over, length, discriminant):
        return [over]
    if len(over) == length:
        for j in range(1, length - 1):   # j = deg f - 1: the derivative itself
            coefficients = subresultant(j)
            if not field.reduce(flint.fmpq_poly(coefficients[-1].coeffs())).is_zero():
                if j == 1:
                    return [over, field.trim([flint.fmpq_poly(c.coeffs()) for c in coefficients])]
                break
    return [field.squarefree(over)]


def subresultant_coefficients(f: Sequence[flint.fmpz_poly], g: Sequence[flint.fmpz_poly],
                              j: int) -> list[flint.fmpz_poly]:
    """The ``j``-th subresultant of ``f`` and ``g`` in ``y`` (coefficient lists in Z[x], lowest degree first, formal
    degrees ``len(f) - 1 >= len(g) - 1 > j``), as the coefficients of ``y^0 .. y^j`` (the last is the principal
    subresultant coefficient): determinants of Sylvester submatrices (Collins 1967, as in :func:`root_tests`),
    each by Bareiss's fraction-free elimination over Z[x]."""
    n, m = len(f) - 1, len(g) - 1
    size = n + m - 2 * j
    top = n + m - j - 1          # the highest power of y in the rows
    rows = []
    for shift in range(m - j - 1, -1, -1):
        rows.append({shift + i: c for i, c in enumerate(f)})
    for shift in range(n - j - 1, -1, -1):
        rows.append({shift + i: c for i, c in enumerate(g)})
    zero = flint.fmpz_poly(0)
    leading = [[row.get(top - col, zero) for col in range(size - 1)] for row in rows]
    return [_bareiss_determinant([r + [row.get(k, zero)] for r, row in zip(leading, rows)]) for k in range(j + 1)]


def _bareiss_determinant(matrix: list[list[flint.fmpz_poly]]) -> flint.fmpz_poly:
    """The determinant of a square matrix over Z[x] by Bareiss's fraction-free elimination (exact divisions)."""
    a = [list(row) for row in matrix]
    size = len(a)
    sign, previous = 1, flint.fmpz_poly(1)
    for k in range(size - 1):
        if a[k][k].is_zero():
            swap = next((i for i in range(k + 1, size) if not a[i][k].is_zero()), None)
            if swap is None:
                return flint.fmpz_poly(0)
            a[k], a[swap] = a[swap], a[k]
            sign = -sign
        for i in range(k + 1, size):
            for col in range(k + 1, size):
                value, remainder = divmod(a[i][col] * a[k][k] - a[i][k] * a[k][col], previous)
                assert remainder.is_zero(), "Bareiss division not exact"
                a[i][col] = value
        previous = a[k][k]
    return a[size - 1][size - 1] * sign


def _check_isolated(poly: flint.fmpz_poly, intervals: list[tuple[flint.fmpq, flint.fmpq]]) -> None:
    """Check each interval's exact sign change and their order (an irreducible polynomial of degree
    >= 2 has simple, irrational roots)."""
    for low, high in intervals:
        if poly(low) * poly(high) >= 0:
            raise ArithmeticError(f"root isolation of {poly} failed on [{low}, {high}]")
    for (_, h1), (l2, _) in zip(intervals, intervals[1:]):
        if not h1 < l2:
            raise ArithmeticError(f"overlapping root intervals for {poly}")


def irreducible_factors(poly: flint.fmpz_poly) -> list[flint.fmpz_poly]:
    """Distinct non-constant irreducible factors, normalised."""
    if poly.degree() < 1:
        return []
    _, factors = poly.factor()
    return [_normalise(f) for f, _ in factors if f.degree() >= 1]


def sorted_roots(polys: Iterable[flint.fmpz_poly]) -> list[RealRoot]:
    """All real roots of distinct irreducible polynomials, sorted (distinct polynomials have no
    common root)."""
    seen: dict[tuple[int, ...], flint.fmpz_poly] = {}
    for p in polys:
        seen.setdefault(_key(p), p)
    roots = [r for key in sorted(seen) for r in isolate(seen[key])]
    return _merge_sort(roots)


def _merge_sort(roots: list[RealRoot]) -> list[RealRoot]:
    if len(roots) <= 1:
        return roots
    mid = len(roots) // 2
    left, right = _merge_sort(roots[:mid]), _merge_sort(roots[mid:])
    out: list[RealRoot] = []
    i = j = 0
    while i < len(left) and j < len(right):
        if left[i].compare(right[j]) < 0:
            out.append(left[i])
            i += 1
        else:
            out.append(right[j])
            j += 1
    return out + left[i:] + right[j:]


def simplest_between(low: flint.fmpq, high: flint.fmpq) -> flint.fmpq:
    """A rational with a small denominator strictly between ``low < high`` (the midpoint at worst)."""
    for den in (1, 2, 4, 5, 8, 10, 16, 20, 32, 50, 64, 100, 1000, 10**4, 10**6, 10**9, 10**12):
        k = _floor(low * den) + 1
        candidate = flint.fmpq(k, den)
        if low < candidate < high:
            return candidate
    return (low + high) / 2


def between(left: RealRoot | None, right: RealRoot | None) -> flint.fmpq:
    """A simple rational strictly between two roots (``None`` is minus or plus infinity)."""
    if left is None and right is None:
        return flint.fmpq(0)
    if left is None:
        assert right is not None
        return flint.fmpq(_floor(right.low) - 1)
    if right is None:
        return flint.fmpq(_floor(left.high) + 1)
    while not left.high < right.low:
        left.refine()
        right.refine()
    return simplest_between(left.high, right.low)


def _floor(q: flint.fmpq) -> int:
    return int(q.p) // int(q.q)


# --------------------------------------------------------------------------------------------------
# Arithmetic in Q(alpha) and Q(alpha)[y]
# --------------------------------------------------------------------------------------------------


class AlgebraicExtension:
    """Q(alpha) for a real root ``alpha`` of an irreducible polynomial of degree >= 2, with
    polynomials in ``y`` over it (lists of coefficients, lowest degree first).

    (:class:`symgame.engine.algebraic.NumberField` stores points of zero-dimensional systems; this
    class does the line arithmetic the CAD needs above an irrational ``x``.)
    """

    def __init__(self, root: RealRoot):
        self.root = root
        self.modulus = flint.fmpq_poly(root.poly.coeffs())

    def reduce(self, element: flint.fmpq_poly) -> flint.fmpq_poly:
        return element % self.modulus

    def inverse(self, element: flint.fmpq_poly) -> flint.fmpq_poly:
        g, s, _ = element.xgcd(self.modulus)
        if g.degree() != 0:
            raise ZeroDivisionError("not invertible in Q(alpha)")
        return self.reduce(s / g)

    def sign(self, element: flint.fmpq_poly) -> int:
        """Exact sign of ``element(alpha)`` (zero test exact, nonzero signs by refinement)."""
        element = self.reduce(element)
        if element.is_zero():
            return 0
        if element.degree() == 0:
            return 1 if element[0] > 0 else -1
        prec = flint.ctx.prec
        try:
            for attempt in range(400):
                flint.ctx.prec = 64 + 16 * (attempt // 20)
                value = _eval_poly_arb(element, self.root.ball())
                if value > 0:
                    return 1
                if value < 0:
                    return -1
                self.root.refine()
            # a value tiny beside its coefficients (near a double root, or with coefficients of thousands of
            # bits): the working precision and alpha's interval go on shrinking together, without a cap
            size = max(int(c.p).bit_length() + int(c.q).bit_length() for c in element.coeffs())
            for doubling in range(9, 24):
                bits = 1 << doubling
                flint.ctx.prec = bits + size
                width = flint.fmpq(1, 1 << bits)
                while self.root.high - self.root.low > width and self.root.value is None:
                    self.root.refine()
                value = _eval_poly_arb(element, self.root.ball())
                if value > 0:
                    return 1
                if value < 0:
                    return -1
        finally:
            flint.ctx.prec = prec
        raise ArithmeticError("sign of a nonzero algebraic number not found")

    # polynomials in y over Q(alpha): lists of coefficients, lowest degree first, no trailing zero
    def trim(self, poly: list[flint.fmpq_poly]) -> list[flint.fmpq_poly]:
        poly = [self.reduce(c) for c in poly]
        while poly and poly[-1].is_zero():
            poly.pop()
        return poly

    def rem(self, a: list[flint.fmpq_poly], b: list[flint.fmpq_poly]) -> list[flint.fmpq_poly]:
        a = list(a)
        inv = self.inverse(b[-1])
        while len(a) >= len(b):
            factor = self.reduce(a[-1] * inv)
            shift = len(a) - len(b)
            for k, c in enumerate(b):
                a[shift + k] = self.reduce(a[shift + k] - factor * c)
            a = self.trim(a)
        return a

    def quo(self, a: list[flint.fmpq_poly], b: list[flint.fmpq_poly]) -> list[flint.fmpq_poly]:
        a = list(a)
        inv = self.inverse(b[-1])
        quotient = [flint.fmpq_poly(0)] * max(len(a) - len(b) + 1, 0)
        while len(a) >= len(b):
            factor = self.reduce(a[-1] * inv)
            shift = len(a) - len(b)
            quotient[shift] = factor
            for k, c in enumerate(b):
                a[shift + k] = self.reduce(a[shift + k] - factor * c)
            a = self.trim(a)
        return quotient

    def monic(self, a: list[flint.fmpq_poly]) -> list[flint.fmpq_poly]:
        inv = self.inverse(a[-1])
        return [self.reduce(c * inv) for c in a]

    def gcd(self, a: list[flint.fmpq_poly], b: list[flint.fmpq_poly]) -> list[flint.fmpq_poly]:
        while b:
            a, b = b, self.rem(a, b)
        return self.monic(a) if a else a

    def derivative(self, a: list[flint.fmpq_poly]) -> list[flint.fmpq_poly]:
        return self.trim([c * k for k, c in enumerate(a)][1:])

    def squarefree(self, a: list[flint.fmpq_poly]) -> list[flint.fmpq_poly]:
        if len(a) <= 2:
            return a
        g = self.gcd(a, self.derivative(a))
        return a if len(g) <= 1 else self.trim(self.quo(a, g))

    def evaluate(self, a: list[flint.fmpq_poly], y: flint.fmpq) -> flint.fmpq_poly:
        total = flint.fmpq_poly(0)
        for c in reversed(a):
            total = total * y + c
        return self.reduce(total)


def _eval_poly_arb(poly, ball: flint.arb) -> flint.arb:
    total = flint.arb(0)
    for c in reversed(poly.coeffs()):
        total = total * ball + flint.arb(c)
    return total


# --------------------------------------------------------------------------------------------------
# Polynomials and formulas
# --------------------------------------------------------------------------------------------------


@dataclass
class Factor:
    """An irreducible factor in the plane: coefficients in ``y`` as integer polynomials in ``x``."""

    name: str
    coeffs: list[flint.fmpz_poly]  # coefficient of y^j, lowest j first
    mpoly: Any

    @property
    def degree_y(self) -> int:
        return len(self.coeffs) - 1

    def at_rational_x(self, q: flint.fmpq) -> flint.fmpq_poly:
        return flint.fmpq_poly([c(q) for c in self.coeffs])

    def ball(self, xb: flint.arb, yb: flint.arb) -> flint.arb:
        total = flint.arb(0)
        for c in reversed(self.coeffs):
            total = total * yb + _eval_poly_arb(c, xb)
        return total


class Plane:
    """Polynomials in the variables ``(x, y)`` (or ``(x,)``) and the decisions about them.

    One ``Plane`` caches factorizations and projections across queries, so deciding many formulas
    over the same polynomials (building a decision list) repeats no algebra.
    """

    def __init__(self, names: Sequence[str]):
        if not 1 <= len(names) <= 2:
            raise ValueError("a Plane has one or two variables")
        self.names = tuple(names)
        self.ctx = flint.fmpq_mpoly_ctx.get(self.names, "lex")
        self.zctx = flint.fmpz_mpoly_ctx.get(self.names, "lex")
        self._factorizations: dict[str, tuple[int, list[tuple[str, int]]]] = {}
        self.factors: dict[str, Factor] = {}
        self._projection: dict[Any, list[flint.fmpz_poly]] = {}
        self._discriminants: dict[str, flint.fmpz_poly] = {}
        self._discriminants_q: dict[str, flint.fmpq_poly] = {}
        self._lines: dict[tuple, Any] = {}
        self._signs: dict[tuple, int] = {}
        self._tables: OrderedDict[tuple[str, ...], SignTable] = OrderedDict()
        self._asked: dict[tuple[str, ...], int] = {}

    @property
    def cached(self) -> int:
        """How much algebra is cached (factors, projections, lifted lines): a size for callers that bound it."""
        return len(self.factors) + len(self._projection) + len(self._lines)

    # ---- factorization -------------------------------------------------------------------------
    def factorize(self, poly, text: str | None = None) -> tuple[int, list[tuple[str, int]]]:
        """``poly = c * prod f_k^e_k`` with ``sign(c)`` and the factors' keys (``text``: ``poly``'s
        :func:`poly_text`, when the caller has it)."""
        text = poly_text(poly) if text is None else text
        cached = self._factorizations.get(text)
        if cached is not None:
            return cached
        if poly.is_zero():
            result: tuple[int, list[tuple[str, int]]] = (0, [])
        else:
            numer = self._integral(poly)
            constant, factors = numer.factor()
            sign = 1 if constant > 0 else -1
            keys = []
            for f, e in factors:
                f, flip = self._normalise2(f)
                if flip and e % 2:
                    sign = -sign
                keys.append((self._register(f), int(e)))
            result = (sign, keys)
        self._factorizations[text] = result
        return result

    def _integral(self, poly):
        den = 1
        for c in poly.coeffs():
            den = den * int(c.q) // _gcd(den, int(c.q))
        return self.zctx.from_dict({m: int(c * den) for m, c in zip(poly.monoms(), poly.coeffs())})

    def _normalise2(self, f):
        lead = f.leading_coefficient()
        return (-f, True) if lead < 0 else (f, False)

    def _register(self, f) -> str:
        key = poly_text(f)
        if key not in self.factors:
            coeffs: dict[int, dict[int, int]] = {}
            for monom, c in zip(f.monoms(), f.coeffs()):
                i = monom[0]
                j = monom[1] if len(monom) > 1 else 0
                coeffs.setdefault(j, {})[i] = int(c)
            top = max(coeffs)
            polys = []
            for j in range(top + 1):
                row = coeffs.get(j, {})
                polys.append(flint.fmpz_poly([row.get(i, 0) for i in range(max(row, default=-1) + 1)]))
            total = sum(f.degrees())
            if total > MAX_DEGREE:
                raise LimitError(f"a polynomial of degree {total} is above the CAD limit {MAX_DEGREE}")
            self.factors[key] = Factor(key, polys, f)
        return key

    # ---- projection ----------------------------------------------------------------------------
    def _univariate_x(self, f) -> flint.fmpz_poly:
        """An element of Z[x] given as an mpoly."""
        out: dict[int, int] = {}
        for monom, c in zip(f.monoms(), f.coeffs()):
            out[monom[0]] = int(c)
        return flint.fmpz_poly([out.get(i, 0) for i in range(max(out, default=-1) + 1)])

    def projection(self, keys: Sequence[str]) -> list[flint.fmpz_poly]:
        """Irreducible univariate polynomials in ``x`` whose roots delineate the factors ``keys``."""
        out: dict[tuple[int, ...], flint.fmpz_poly] = {}

        def add(polys: Iterable[flint.fmpz_poly]) -> None:
            for p in polys:
                if p.degree() > MAX_DEGREE:
                    raise LimitError(f"a projection polynomial of degree {p.degree()} is above the CAD "
                                     f"limit {MAX_DEGREE}")
                out.setdefault(_key(p), p)

        keys = sorted(set(keys))
        for k in keys:
            add(self._single(k))
        if len(self.names) == 2:
            with_y = [k for k in keys if self.factors[k].degree_y >= 1]
            for i, a in enumerate(with_y):
                for b in with_y[i + 1:]:
                    add(self._pair(a, b))
        return list(out.values())

    def _single(self, key: str) -> list[flint.fmpz_poly]:
        cached = self._projection.get(key)
        if cached is None:
            f = self.factors[key]
            if f.degree_y == 0:
                cached = irreducible_factors(f.coeffs[0])
            else:
                cached = irreducible_factors(f.coeffs[-1])
                if f.degree_y >= 2:
                    cached += irreducible_factors(self._discriminant(key))
            self._projection[key] = cached
        return cached

    def _discriminant(self, key: str) -> flint.fmpz_poly:
        """The discriminant in ``y`` of a factor of degree >= 2 in ``y``, a polynomial in ``x``."""
        cached = self._discriminants.get(key)
        if cached is None:
            cached = self._univariate_x(self.factors[key].mpoly.discriminant(self.names[1]))
            self._discriminants[key] = cached
        return cached

    def _discriminant_q(self, key: str) -> flint.fmpq_poly:
        """:meth:`_discriminant` as an ``fmpq_poly`` (converted once per factor, not once per line)."""
        cached = self._discriminants_q.get(key)
        if cached is None:
            cached = flint.fmpq_poly(self._discriminant(key).coeffs())
            self._discriminants_q[key] = cached
        return cached

    def _subresultant(self, key: str, j: int) -> list[flint.fmpz_poly]:
        """The ``j``-th subresultant of a factor and its derivative in ``y`` (:func:`subresultant_coefficients`),
        computed once per factor."""
        cached = self._projection.get(("sres", key, j))
        if cached is None:
            coeffs = self.factors[key].coeffs
            derivative = [c * k for k, c in enumerate(coeffs)][1:]
            cached = subresultant_coefficients(coeffs, derivative, j)
            self._projection[("sres", key, j)] = cached
        return cached

    def _pair(self, a: str, b: str) -> list[flint.fmpz_poly]:
        cached = self._projection.get((a, b))
        if cached is None:
            res = self.factors[a].mpoly.resultant(self.factors[b].mpoly, self.names[1])
            cached = irreducible_factors(self._univariate_x(res))
            self._projection[(a, b)] = cached
        return cached

    # ---- decisions -----------------------------------------------------------------------------
    def atoms_of(self, formula: Formula, out: dict[str, Any] | None = None) -> dict[str, Any]:
        """The polynomials of ``formula``'s atoms, by their :func:`poly_text`."""
        out = {} if out is None else out
        _keyed(formula, out)
        return out

    def satisfiable(self, formula: Formula) -> tuple[bool, tuple[RealRoot, ...] | None]:
        """Is there a real point where ``formula`` holds?  Returns ``(True, point)`` or ``(False, None)``;
        the point's coordinates are :class:`RealRoot` values (exact)."""
        polys: dict[str, Any] = {}
        formula = _keyed(formula, polys)  # atoms name their polynomial by its text from here on
        factorization = {text: self.factorize(p, text) for text, p in polys.items()}
        keys = sorted({k for _, ks in factorization.values() for k, _ in ks})
        if len(keys) > MAX_FACTORS:
            raise LimitError(f"{len(keys)} irreducible factors are above the CAD limit {MAX_FACTORS}")
        table = self._table(tuple(keys))
        if table is not None:
            return table.search(formula, factorization)
        keyset = frozenset(keys)
        for larger in reversed(self._tables.values()):
            # a CAD of more factors is sign-invariant for these too: no sample point satisfying the formula
            # there proves it unsatisfiable; a satisfiable answer gets its witness from the search below (the
            # first cell of these factors' own CAD, so that witnesses do not depend on what was asked before)
            if keyset <= larger.keys:
                if not larger.search(formula, factorization)[0]:
                    return False, None
                break
        x_keys = [k for k in keys if self.factors[k].degree_y == 0]
        y_keys = [k for k in keys if self.factors[k].degree_y >= 1]

        def lifted(x: RealRoot, x_signs: dict[str, int]) -> Iterator[tuple[RealRoot, dict[str, int]]]:
            rows = self._lift_rational(x.exact(), y_keys) if x.rational else self._lift_algebraic(x, y_keys)
            return ((y, {**signs, **x_signs}) for y, signs in rows)

        return _search_cells(self.names, self._cells(keys), lambda index, x: {k: self._sign_x(k, x) for k in x_keys},
                             lambda index, x, x_signs: lifted(x, x_signs), formula, factorization)

    def satisfiable_above(self, formula: Formula, x: RealRoot) -> bool:
        """Is there a real ``y`` with ``formula`` holding at ``(x, y)`` (or at ``x`` on a line)?  The lifting
        of :meth:`satisfiable` over the single sample ``x`` (exact; no projection is needed, only the roots in
        ``y`` of the factors above ``x``)."""
        polys: dict[str, Any] = {}
        formula = _keyed(formula, polys)
        factorization = {text: self.factorize(p, text) for text, p in polys.items()}
        keys = sorted({k for _, ks in factorization.values() for k, _ in ks})
        x_keys = [k for k in keys if self.factors[k].degree_y == 0]
        y_keys = [k for k in keys if self.factors[k].degree_y >= 1]

        def lifted(index: int, at: RealRoot, x_signs: dict[str, int]) -> Iterator[tuple[RealRoot, dict[str, int]]]:
            rows = self._lift_rational(at.exact(), y_keys) if at.rational else self._lift_algebraic(at, y_keys)
            return ((y, {**signs, **x_signs}) for y, signs in rows)

        return _search_cells(self.names, [x], lambda index, at: {k: self._sign_x(k, at) for k in x_keys}, lifted,
                             formula, factorization)[0]

    def _cells(self, keys: Sequence[str]) -> list[RealRoot]:
        """The sample points in ``x``: a simple rational in each open interval, each critical root between."""
        critical = sorted_roots(self.projection(keys))
        cells: list[RealRoot] = []
        for index in range(len(critical) + 1):
            left = critical[index - 1] if index > 0 else None
            right = critical[index] if index < len(critical) else None
            cells.append(_rational_root(between(left, right)))
            if right is not None:
                cells.append(right)
        return cells

    def _table(self, keys: tuple[str, ...]) -> "SignTable | None":
        """The sign table of the factors ``keys`` when the same factors are asked about a second time.

        :meth:`satisfiable` lifts lazily and stops at the first cell where the formula holds; a formula that holds
        nowhere visits every cell, and the callers ask about the same polynomials again and again with other
        sign conditions (whether each condition of a region is implied by the others: one question per
        condition, all over the same factors). From the second question on, the cells and every factor's sign
        on them are kept and each question is answered by a scan: the same cells in the same order, so the
        same answer and the same witness as the lazy search."""
        table = self._tables.get(keys)
        if table is not None:
            self._tables.move_to_end(keys)
            return table
        asked = self._asked.get(keys, 0) + 1
        if len(self._asked) > 100_000:
            self._asked.clear()
        self._asked[keys] = asked
        if asked < 2:
            return None
        table = self._tables[keys] = SignTable.build(self, keys)
        while len(self._tables) > MAX_TABLES or sum(t.size for t in self._tables.values()) > MAX_TABLE_CELLS:
            if len(self._tables) == 1:
                break
            self._tables.popitem(last=False)
        return table

    def _sign_x(self, key: str, x: RealRoot) -> int:
        poly = self.factors[key].coeffs[0]
        if x.rational:
            value = poly(x.exact())
            return (value > 0) - (value < 0)
        return AlgebraicExtension(x).sign(flint.fmpq_poly(poly.coeffs()))

    def _cached_sign(self, key: tuple, compute: Callable[[], int]) -> int:
        value = self._signs.get(key)
        if value is None:
            if len(self._signs) > 500_000:
                self._signs.clear()
            value = self._signs[key] = compute()
        return value

    def _rational_line(self, q: flint.fmpq, k: str) -> tuple[flint.fmpq_poly, list[flint.fmpz_poly], frozenset]:
        cache_key = ("q", int(q.p), int(q.q), k)
        data = self._lines.get(cache_key)
        if data is None:
            p = self.factors[k].at_rational_x(q)
            factors = irreducible_factors(p.numer()) if p.degree() >= 1 else []
            data = (p, factors, frozenset(_key(f) for f in factors))
            self._remember(cache_key, data)
        return data

    def _remember(self, key: tuple, data: Any) -> None:
        if len(self._lines) > 100_000:
            self._lines.clear()
        self._lines[key] = data

    def _lift_rational(self, q: flint.fmpq, keys: Sequence[str]):
        line = {k: self._rational_line(q, k) for k in keys}
        roots = sorted_roots(f for _, fs, _ in line.values() for f in fs)
        where = ("q", int(q.p), int(q.q))

        def sign_rational(k: str, y: flint.fmpq) -> int:
            value = line[k][0](y)
            return (value > 0) - (value < 0)

        def sign_root(k: str, root: RealRoot) -> int:
            p, _, factor_keys = line[k]
            if p.is_zero() or root.key in factor_keys:
                return 0
            if root.rational:
                return sign_rational(k, root.exact())
            return self._cached_sign((where, k, root.identity()), lambda: _sign_univariate(p, root))

        for index in range(len(roots) + 1):
            left = roots[index - 1] if index > 0 else None
            right = roots[index] if index < len(roots) else None
            y = between(left, right)
            yield _rational_root(y), {key: sign_rational(key, y) for key in keys}
            if right is not None:
                yield right, {key: sign_root(key, right) for key in keys}

    def _algebraic_line(self, x: RealRoot, field: AlgebraicExtension, k: str):
        """``f(alpha, y)`` over Q(alpha), the polynomials that test its roots (:func:`root_tests`) and the
        irreducible factors of its norm."""
        cache_key = ("a", x.identity(), k)
        data = self._lines.get(cache_key)
        if data is None:
            f = self.factors[k]
            over = field.trim([flint.fmpq_poly(c.coeffs()) for c in f.coeffs])
            if len(over) <= 1:
                data = (over, [over], [], frozenset())
            else:
                modulus = self.zctx.from_dict({(i, 0): int(c) for i, c in enumerate(x.poly.coeffs()) if c != 0})
                norm = modulus.resultant(f.mpoly, self.names[0])
                # with its leading coefficient nonzero at alpha, f(alpha, y) is square-free exactly when
                # the discriminant does not vanish at alpha (one remainder in Q[x], no Euclid over Q(alpha))
                tests = root_tests(field, over, len(f.coeffs), self._discriminant_q(k),
                                   lambda j: self._subresultant(k, j))
                factors = irreducible_factors(_univariate_in(norm, 1))
                data = (over, tests, factors, frozenset(_key(f) for f in factors))
            self._remember(cache_key, data)
        return data

    def _lift_algebraic(self, x: RealRoot, keys: Sequence[str]):
        field = AlgebraicExtension(x)
        line = {k: self._algebraic_line(x, field, k) for k in keys}
        candidates = sorted_roots(f for _, _, fs, _ in line.values() for f in fs)
        where = ("a", x.identity())

        def changes_sign(g: list[flint.fmpq_poly], root: RealRoot) -> bool:
            return field.sign(field.evaluate(g, root.low)) * field.sign(field.evaluate(g, root.high)) < 0

        def is_root(k: str, root: RealRoot) -> bool:
            over, tests, _, norm_keys = line[k]
            if len(over) <= 1 or root.key not in norm_keys:
                return False
            if root.rational:
                return field.evaluate(over, root.exact()).is_zero()
            # the interval isolates root among the real roots of the norm, which contain every real
            # root of f(alpha, y); each of its roots has odd multiplicity in one test (root_tests)
            return self._cached_sign(
                (where, k, root.identity(), "root"),
                lambda: int(any(changes_sign(g, root) for g in reversed(tests)))   # the gcd (a double root) first
            ) == 1

        # candidate intervals pairwise disjoint, closed intervals included (already sorted)
        for a, b in zip(candidates, candidates[1:]):
            while not a.high < b.low:
                a.refine()
                b.refine()
        membership = [{k: is_root(k, r) for k in keys} for r in candidates]
        roots = [(r, m) for r, m in zip(candidates, membership) if any(m.values())]

        def sign_rational(k: str, y: flint.fmpq) -> int:
            over = line[k][0]
            return field.sign(field.evaluate(over, y)) if over else 0

        def sign_root(k: str, root: RealRoot, member: dict[str, bool]) -> int:
            if not line[k][0] or member[k]:
                return 0
            if root.rational:
                return sign_rational(k, root.exact())
            return self._cached_sign((where, k, root.identity()),
                                     lambda: _sign_bivariate(self.factors[k], x, root))

        for idx in range(len(roots) + 1):
            left = roots[idx - 1][0] if idx > 0 else None
            right = roots[idx][0] if idx < len(roots) else None
            y = between(left, right)
            yield _rational_root(y), {k: sign_rational(k, y) for k in keys}
            if right is not None:
                yield right, {k: sign_root(k, right, roots[idx][1]) for k in keys}


class SignTable:
    """Every cell of the plane CAD of some factors, in :meth:`Plane.satisfiable`'s order, with the factors' signs.

    ``keys`` are the factors; ``cells`` the sample points in ``x``; ``x_signs[i]`` the signs of the factors free of ``y`` at cell ``i``;
    ``lifted[i]`` the sample points above it with the signs of every factor (``None`` in one variable).
    """

    def __init__(self, names: tuple[str, ...], keys: frozenset[str], cells: list[RealRoot],
                 x_signs: list[dict[str, int]], lifted: list[list[tuple[RealRoot, dict[str, int]]] | None]):
        self.names = names
        self.keys = keys
        self.cells = cells
        self.x_signs = x_signs
        self.lifted = lifted
        self.size = len(cells) + sum(len(rows) for rows in lifted if rows)

    @classmethod
    def build(cls, plane: "Plane", keys: Sequence[str]) -> "SignTable":
        x_keys = [k for k in keys if plane.factors[k].degree_y == 0]
        y_keys = [k for k in keys if plane.factors[k].degree_y >= 1]
        cells = plane._cells(keys)
        x_signs: list[dict[str, int]] = []
        lifted: list[list[tuple[RealRoot, dict[str, int]]] | None] = []
        for x in cells:
            signs_x = {k: plane._sign_x(k, x) for k in x_keys}
            x_signs.append(signs_x)
            if len(plane.names) == 1:
                lifted.append(None)
                continue
            rows = plane._lift_rational(x.exact(), y_keys) if x.rational else plane._lift_algebraic(x, y_keys)
            lifted.append([(y, {**signs, **signs_x}) for y, signs in rows])
        return cls(plane.names, frozenset(keys), cells, x_signs, lifted)

    def search(self, formula: Formula, factorization: dict[str, tuple[int, list[tuple[str, int]]]]
               ) -> tuple[bool, tuple[RealRoot, ...] | None]:
        """:meth:`Plane.satisfiable`'s answer and witness, from the table (the same cells, the same search)."""
        return _search_cells(self.names, self.cells, lambda index, x: self.x_signs[index],
                             lambda index, x, x_signs: self.lifted[index] or (), formula, factorization)


def _search_cells(names: tuple[str, ...], cells: Sequence[RealRoot],
                  x_signs_at: Callable[[int, RealRoot], dict[str, int]],
                  lifted_at: Callable[[int, RealRoot, dict[str, int]], Iterable[tuple[RealRoot, dict[str, int]]]],
                  formula: Formula, factorization: dict[str, tuple[int, list[tuple[str, int]]]]
                  ) -> tuple[bool, tuple[RealRoot, ...] | None]:
    """The first cell where ``formula`` holds, over the sample points ``cells`` in ``x`` with the signs
    ``x_signs_at(i, x)`` of the factors free of ``y`` and the points above ``x`` with every factor's signs
    ``lifted_at(i, x, x_signs)``, asked for only when the signs at ``x`` leave the formula open (the lazy search
    of :meth:`Plane.satisfiable` and the scan of a :class:`SignTable` are this one search).

    The witness is the first full-dimensional cell (a simple rational point) when there is one, else the first
    cell of lower dimension: deterministic, and as simple as the CAD allows."""
    fallback: tuple[RealRoot, ...] | None = None
    for index, x in enumerate(cells):
        open_x = index % 2 == 0
        if not open_x and fallback is not None:
            continue
        x_signs = x_signs_at(index, x)
        residual = _residual(formula, _polysign(factorization, x_signs, partial=True))
        if residual == FALSE:
            continue
        if residual == TRUE:   # every point above x: take y = 0
            point = (x,) if len(names) == 1 else (x, _rational_root(flint.fmpq(0)))
            if open_x:
                return True, point
            fallback = fallback or point
            continue
        assert len(names) == 2, "with one variable every atom is decided at x"
        for position, (y, signs) in enumerate(lifted_at(index, x, x_signs)):
            open_y = position % 2 == 0
            if fallback is not None and not (open_x and open_y):
                continue
            if _evaluate(residual, _polysign(factorization, signs)):
                if open_x and open_y:
                    return True, (x, y)
                fallback = fallback or (x, y)
    return fallback is not None, fallback


def _rational_root(q: flint.fmpq) -> RealRoot:
    return RealRoot(flint.fmpz_poly([-q.p, q.q]), q, q)


def _univariate_in(poly, var: int) -> flint.fmpz_poly:
    out: dict[int, int] = {}
    for monom, c in zip(poly.monoms(), poly.coeffs()):
        out[monom[var]] = out.get(monom[var], 0) + int(c)
    return flint.fmpz_poly([out.get(i, 0) for i in range(max(out, default=-1) + 1)])


def _sign_univariate(p: flint.fmpq_poly, root: RealRoot) -> int:
    prec = flint.ctx.prec
    try:
        for attempt in range(400):
            flint.ctx.prec = 64 + 16 * (attempt // 20)
            value = _eval_poly_arb(p, root.ball())
            if value > 0:
                return 1
            if value < 0:
                return -1
            root.refine()
    finally:
        flint.ctx.prec = prec
    raise ArithmeticError("sign at an algebraic point not found")


def _sign_bivariate(f: Factor, x: RealRoot, y: RealRoot) -> int:
    prec = flint.ctx.prec
    try:
        for attempt in range(600):
            flint.ctx.prec = 64 + 16 * (attempt // 20)
            value = f.ball(x.ball(), y.ball())
            if value > 0:
                return 1
            if value < 0:
                return -1
            x.refine()
            y.refine()
    finally:
        flint.ctx.prec = prec
    raise ArithmeticError("sign at an algebraic point not found")


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


def _polysign(factorization: dict[str, tuple[int, list[tuple[str, int]]]], signs: dict[str, int],
              partial: bool = False) -> Callable[[str], int | None]:
    def sign(text: str) -> int | None:
        constant, keys = factorization[text]
        if constant == 0:
            return 0
        total = constant
        unknown = False
        for k, e in keys:
            s = signs.get(k)
            if s is None:
                unknown = True
                continue
            if s == 0:
                return 0
            if e % 2:
                total *= s
        if unknown:
            if partial:
                return None
            raise KeyError(text)
        return total
    return sign


TRUE: Formula = ("const", True)
FALSE: Formula = ("const", False)


def poly_text(poly) -> str:
    """A canonical text of an ``fmpq_mpoly`` or ``fmpz_mpoly`` (its terms in the context's order), the
    CAD's key for it.  Not ``str(poly)``: python-flint 0.9.0's ``str`` of a multivariate polynomial does
    not free FLINT's string buffer, which leaked gigabytes in the Final Jeopardy near ties."""
    return " ".join(f"{c}*{m}" for m, c in zip(poly.monoms(), poly.coeffs()))


def _keyed(formula: Formula, polys: dict[str, Any]) -> Formula:
    """``formula`` with every atom's polynomial replaced by its :func:`poly_text`, collected in ``polys``."""
    kind = formula[0]
    if kind == "atom":
        text = poly_text(formula[1])
        polys.setdefault(text, formula[1])
        return ("atom", text, formula[2])
    if kind in ("and", "or"):
        return (kind, [_keyed(part, polys) for part in formula[1]])
    if kind == "not":
        return ("not", _keyed(formula[1], polys))
    return formula


def _residual(formula: Formula, sign: Callable[[str], int | None]) -> Formula:
    """``formula`` with every atom whose sign is known replaced by its truth value, simplified."""
    kind = formula[0]
    if kind == "const":
        return TRUE if formula[1] else FALSE
    if kind == "atom":
        s = sign(formula[1])
        return formula if s is None else (TRUE if _compare(Fraction(s), formula[2]) else FALSE)
    if kind == "not":
        inner = _residual(formula[1], sign)
        return FALSE if inner == TRUE else TRUE if inner == FALSE else ("not", inner)
    if kind not in ("and", "or"):
        raise ValueError(f"unknown formula node {kind!r}")
    decisive = TRUE if kind == "or" else FALSE
    parts = []
    for part in formula[1]:
        value = _residual(part, sign)
        if value == decisive:
            return decisive
        if value[0] != "const":
            parts.append(value)
    if not parts:
        return FALSE if kind == "or" else TRUE
    return parts[0] if len(parts) == 1 else (kind, parts)


def _evaluate(formula: Formula, sign: Callable[[str], int | None]) -> bool | None:
    """Three-valued evaluation (``None``: not determined by the known signs)."""
    kind = formula[0]
    if kind == "const":
        return bool(formula[1])
    if kind == "atom":
        s = sign(formula[1])
        return None if s is None else _compare(Fraction(s), formula[2])
    if kind == "not":
        inner = _evaluate(formula[1], sign)
        return None if inner is None else not inner
    if kind not in ("and", "or"):
        raise ValueError(f"unknown formula node {kind!r}")
    decisive = kind == "or"  # the value of one part that decides the whole
    result: bool | None = not decisive
    for part in formula[1]:
        value = _evaluate(part, sign)
        if value is decisive:
            return decisive
        if value is None:
            result = None
    return result


# --------------------------------------------------------------------------------------------------
# From z3 terms (the form every region takes in :mod:`symgame.model.decide`)
# --------------------------------------------------------------------------------------------------


class Z3Translator:
    """Translate z3 real polynomial terms and quantifier-free formulas into :class:`Plane` formulas.

    Traversal is iterative and memoised by z3 AST id (the memo keeps every AST it has seen alive, so
    an id is never reused for another term while memoised); anything that is not a polynomial sign
    condition (integers, divisions, quantifiers) raises :class:`ValueError`.
    """

    def __init__(self, plane: Plane):
        from .z3env import z3

        self.z3 = z3
        self.plane = plane
        self.vars = {name: plane.ctx.gens()[k] for k, name in enumerate(plane.names)}
        self._memo: dict[int, Any] = {}
        self._formulas: dict[int, Formula] = {}
        self._alive: list[Any] = []
        self._pinned: dict[int, Any] = {}
        self._pinned_alive: list[Any] = []

    @property
    def pinned(self) -> int:
        """How many terms carry a polynomial declared by :meth:`pin`."""
        return len(self._pinned)

    def pin(self, term, poly) -> None:
        """Declare ``poly`` (an element of the plane's ``fmpq_mpoly`` ring) the value of the z3 term ``term``,
        so that :meth:`term` never walks it (kept for the translator's lifetime, unlike the memo)."""
        self._pinned[term.get_id()] = poly
        self._pinned_alive.append(term)

    def formula(self, expr) -> Formula:
        z3 = self.z3
        if len(self._alive) > 200_000:
            self._memo.clear()
            self._formulas.clear()
            self._alive.clear()
        done = self._formulas
        stack = [(expr, False)]
        while stack:
            node, expanded = stack.pop()
            key = node.get_id()
            if key in done:
                continue
            if not expanded:
                self._alive.append(node)
            if z3.is_true(node) or z3.is_false(node):
                done[key] = ("const", z3.is_true(node))
                continue
            kind = node.decl().kind()
            if kind in (z3.Z3_OP_AND, z3.Z3_OP_OR, z3.Z3_OP_NOT, z3.Z3_OP_IMPLIES):
                if not expanded:
                    stack.append((node, True))
                    stack.extend((c, False) for c in node.children())
                    continue
                parts = [done[c.get_id()] for c in node.children()]
                if kind == z3.Z3_OP_AND:
                    done[key] = ("and", parts)
                elif kind == z3.Z3_OP_OR:
                    done[key] = ("or", parts)
                elif kind == z3.Z3_OP_NOT:
                    done[key] = ("not", parts[0])
                else:
                    done[key] = ("or", [("not", parts[0]), parts[1]])
                continue
            done[key] = self._comparison(node, kind)
        return done[expr.get_id()]

    def _comparison(self, node, kind) -> Formula:
        z3 = self.z3
        children = node.children()
        if kind == z3.Z3_OP_DISTINCT and len(children) == 2:
            return ("atom", self.term(children[0]) - self.term(children[1]), "!=")
        if kind == z3.Z3_OP_EQ and len(children) == 2 and z3.is_arith(children[0]):
            return ("atom", self.term(children[0]) - self.term(children[1]), "==")
        table = {z3.Z3_OP_GT: (0, 1, ">"), z3.Z3_OP_GE: (0, 1, ">="),
                 z3.Z3_OP_LT: (1, 0, ">"), z3.Z3_OP_LE: (1, 0, ">=")}
        if kind not in table:
            raise ValueError(f"not a polynomial sign condition: {node.decl().name()}")
        a, b, rel = table[kind]
        return ("atom", self.term(children[a]) - self.term(children[b]), rel)

    def term(self, expr):
        z3 = self.z3
        ctx = self.plane.ctx
        memo = self._memo
        pinned = self._pinned
        stack = [(expr, False)]
        while stack:
            node, expanded = stack.pop()
            key = node.get_id()
            if key in memo:
                continue
            if key in pinned:
                memo[key] = pinned[key]
                continue
            if not expanded:
                self._alive.append(node)
            if z3.is_rational_value(node):
                memo[key] = ctx.from_dict({}) + flint.fmpq(node.numerator_as_long(), node.denominator_as_long())
                continue
            if z3.is_int_value(node):
                memo[key] = ctx.from_dict({}) + node.as_long()
                continue
            if z3.is_const(node) and node.decl().kind() == z3.Z3_OP_UNINTERPRETED:
                name = node.decl().name()
                if name not in self.vars:
                    raise ValueError(f"unknown variable {name}")
                memo[key] = self.vars[name]
                continue
            kind = node.decl().kind()
            children = node.children()
            if kind == z3.Z3_OP_POWER:
                exponent = children[1]
                if not (z3.is_rational_value(exponent) and exponent.denominator_as_long() == 1
                        and exponent.numerator_as_long() >= 0):
                    raise ValueError("non-integer power")
                children = children[:1]
            elif kind == z3.Z3_OP_DIV:
                divisor = z3.simplify(children[1])
                if not (z3.is_rational_value(divisor) or z3.is_int_value(divisor)) or \
                        (z3.is_int_value(divisor) and divisor.as_long() == 0) or \
                        (z3.is_rational_value(divisor) and divisor.numerator_as_long() == 0):
                    raise ValueError("division by a non-constant")
                children = children[:1]
            elif kind not in (z3.Z3_OP_ADD, z3.Z3_OP_MUL, z3.Z3_OP_SUB, z3.Z3_OP_UMINUS,
                              z3.Z3_OP_TO_REAL):
                raise ValueError(f"not a polynomial: {node.decl().name()}")
            if not expanded:
                stack.append((node, True))
                stack.extend((c, False) for c in children)
                continue
            values = [memo[c.get_id()] for c in children]
            if kind == z3.Z3_OP_ADD:
                total = values[0]
                for v in values[1:]:
                    total = total + v
            elif kind == z3.Z3_OP_MUL:
                total = values[0]
                for v in values[1:]:
                    total = total * v
            elif kind == z3.Z3_OP_SUB:
                total = values[0]
                for v in values[1:]:
                    total = total - v
            elif kind == z3.Z3_OP_UMINUS:
                total = -values[0]
            elif kind == z3.Z3_OP_TO_REAL:
                total = values[0]
            elif kind == z3.Z3_OP_DIV:
                divisor = z3.simplify(node.children()[1])
                if z3.is_int_value(divisor):
                    total = values[0] / flint.fmpq(divisor.as_long())
                else:
                    total = values[0] / flint.fmpq(divisor.numerator_as_long(), divisor.denominator_as_long())
            else:
                total = values[0] ** node.children()[1].numerator_as_long()
            memo[key] = total
        return memo[expr.get_id()]
