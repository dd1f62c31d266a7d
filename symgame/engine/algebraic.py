"""Exact real algebraic points: the solutions of zero-dimensional polynomial systems.

A point whose coordinates are real algebraic numbers is stored in one number field
:math:`\\mathbb Q(\\alpha)`: ``alpha`` is the real root of an irreducible polynomial :math:`p` isolated by a
rational interval, and every coordinate is a polynomial :math:`g_k(\\alpha)` of degree below
:math:`\\deg p`. Zero tests are exact (an element is zero iff its reduced polynomial is), signs come from
interval evaluation on a shrinking isolating interval (which terminates because the value is not zero).

:func:`real_solutions` finds every real solution of a zero-dimensional system through the shape lemma: a
generic linear form :math:`T = \\sum c_k x_k` separates the points, and a lexicographic Gröbner basis of the
radical ideal with :math:`T` last reads :math:`x_k = g_k(T),\\ f(T) = 0` (Gianni and Mora, "Algebraic solution
of systems of polynomial equations using Gröbner bases", AAECC-5, LNCS 356, 1989, Section 2; the radical by
Seidenberg's lemma, Kreuzer and Robbiano, *Computational Commutative Algebra 1*, Springer 2000, Prop. 3.7.15).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, Sequence

import flint
import sympy as sp

from ..errors import LimitError

_T = sp.Symbol("_T")


def _frac(q) -> Fraction:
    return Fraction(int(q.numerator), int(q.denominator))


@dataclass(frozen=True)
class NumberField:
    """The field :math:`\\mathbb Q(\\alpha)` of one real algebraic number ``alpha``.

    Attributes
    ----------
    minpoly : sympy.Poly
        Irreducible over the rationals, in the generator ``_T``; degree 1 for a rational ``alpha``.
    low, high : Fraction
        ``alpha`` is the only root of ``minpoly`` in the open interval (``low``, ``high``) (for degree 1 the
        interval is ``[alpha, alpha]``).
    """

    minpoly: sp.Poly
    low: Fraction
    high: Fraction

    @property
    def degree(self) -> int:
        return int(self.minpoly.degree())

    def element(self, poly: sp.Poly) -> "Algebraic":
        return Algebraic(self, poly.rem(self.minpoly) if self.degree > 0 else poly)

    def rational(self, value: Fraction | int) -> "Algebraic":
        return Algebraic(self, sp.Poly(sp.Rational(value), _T, domain=sp.QQ))

    def alpha_expr(self) -> sp.Expr:
        """``alpha`` as a sympy number: rational, a square root, or ``CRootOf``."""
        coeffs = [sp.Rational(c) for c in self.minpoly.all_coeffs()]
        if self.degree == 1:
            return -coeffs[1] / coeffs[0]
        if self.degree == 2:
            a, b, c = coeffs
            vertex = _frac(-b / (2 * a))
            low, high = self.low, self.high
            while low < vertex < high:
                low, high = self._halve(low, high)
            sign = 1 if low >= vertex else -1
            return sp.expand((-b + sign * sp.sqrt(b * b - 4 * a * c)) / (2 * a))
        below = self.minpoly.count_roots(None, sp.Rational(self.low))
        return sp.CRootOf(self.minpoly.as_expr().subs(_T, sp.Symbol("t")), int(below))

    def _halve(self, low: Fraction, high: Fraction) -> tuple[Fraction, Fraction]:
        mid = (low + high) / 2
        at_low = self.minpoly.eval(sp.Rational(low))
        at_mid = self.minpoly.eval(sp.Rational(mid))
        return (low, mid) if at_low * at_mid < 0 else (mid, high)

    def sign(self, poly: sp.Poly) -> int:
        """The sign of ``poly(alpha)`` (``poly`` already reduced modulo the minimal polynomial)."""
        if poly.is_zero:
            return 0
        raw = poly.all_coeffs()
        if self.degree > 1 and len(raw) > 1:
            settled = _ball_sign(self.minpoly, self.low, self.high, raw)
            if settled is not None:
                return settled
        coeffs = [_frac(c) for c in raw]
        if self.degree == 1 or len(coeffs) == 1:
            value = _horner(coeffs, self.low) if self.degree == 1 else coeffs[0]
            return (value > 0) - (value < 0)
        low, high = self.low, self.high
        for _ in range(2000):
            lo, hi = _interval_horner(coeffs, low, high)
            if lo > 0:
                return 1
            if hi < 0:
                return -1
            low, high = self._halve(low, high)
        raise LimitError("sign of an algebraic number not settled after 2000 bisections")   # pragma: no cover

    def approx(self, poly: sp.Poly) -> float:
        low, high = self.low, self.high
        if self.degree > 1:
            value = _ball_value(self.minpoly, low, high, poly.all_coeffs(), 128)
            if value is not None:
                return float(value.mid())
        coeffs = [_frac(c) for c in poly.all_coeffs()]
        if self.degree > 1:
            for _ in range(60):
                low, high = self._halve(low, high)
        return float(_horner(coeffs, (low + high) / 2))


#: Working precisions (bits) of the ball evaluation of :meth:`NumberField.sign`, tried in turn.
BALL_PRECISIONS = (128, 512, 2048, 8192, 32768)


def _ball_sign(minpoly: sp.Poly, low: Fraction, high: Fraction, coeffs: Sequence[Any]) -> int | None:
    """The sign of ``coeffs(alpha)`` by ball arithmetic (FLINT's certified complex root isolation and arb
    evaluation), or ``None`` when no precision of :data:`BALL_PRECISIONS` settles it (the caller bisects)."""
    for prec in BALL_PRECISIONS:
        value = _ball_value(minpoly, low, high, coeffs, prec)
        if value is not None and value > 0:
            return 1
        if value is not None and value < 0:
            return -1
    return None


def _ball_value(minpoly: sp.Poly, low: Fraction, high: Fraction, coeffs: Sequence[Any], prec: int):
    """``coeffs(alpha)`` (rationals with ``numerator`` and ``denominator``, highest degree first) as a ball
    (``flint.arb``) at ``prec`` bits, or ``None``."""
    root = _root_ball(_coefficients(minpoly), low, high, prec)
    if root is None:
        return None
    old = flint.ctx.prec
    flint.ctx.prec = prec
    try:
        value = flint.arb(0)
        for c in coeffs:
            value = value * root + flint.arb(flint.fmpq(int(c.numerator), int(c.denominator)))
        return value
    finally:
        flint.ctx.prec = old


@lru_cache(maxsize=512)
def _coefficients(poly: sp.Poly) -> tuple[Fraction, ...]:
    return tuple(_frac(c) for c in poly.all_coeffs())


@lru_cache(maxsize=512)
def _root_ball(key: tuple[Fraction, ...], low: Fraction, high: Fraction, prec: int):
    """A ball (``flint.arb``) around the only root of the polynomial ``key`` (coefficients, highest first) in
    ``(low, high)``, computed at ``prec`` bits; ``None`` when the balls at this precision do not single it out."""
    old = flint.ctx.prec
    flint.ctx.prec = prec
    try:
        poly = flint.fmpq_poly([flint.fmpq(c.numerator, c.denominator) for c in reversed(key)])
        lo = flint.arb(flint.fmpq(low.numerator, low.denominator))
        hi = flint.arb(flint.fmpq(high.numerator, high.denominator))
        roots: Any = poly.complex_roots()               # (ball, multiplicity) pairs; real roots have imag 0
        candidates = [r.real for r, _ in roots if r.imag.is_zero() and not (r.real < lo) and not (r.real > hi)]
    finally:
        flint.ctx.prec = old
    return candidates[0] if len(candidates) == 1 else None


def _horner(coeffs: Sequence[Fraction], x: Fraction) -> Fraction:
    value = Fraction(0)
    for c in coeffs:
        value = value * x + c
    return value


def _interval_horner(coeffs: Sequence[Fraction], low: Fraction, high: Fraction) -> tuple[Fraction, Fraction]:
    lo = hi = Fraction(0)
    for c in coeffs:
        products = (lo * low, lo * high, hi * low, hi * high)
        lo, hi = min(products) + c, max(products) + c
    return lo, hi


@dataclass(frozen=True, eq=False)
class Algebraic:
    """An element of a :class:`NumberField`, exact.

    Arithmetic with other elements of the same field, fractions and integers; ``==`` compares values (an
    element equals the fraction it is), so rational elements hash like the fraction.
    """

    field: NumberField
    poly: sp.Poly

    def _same(self, other: "Algebraic | Fraction | int") -> "Algebraic":
        if isinstance(other, Algebraic):
            if other.field != self.field:
                raise ValueError("elements of different number fields")
            return other
        return self.field.rational(other)

    def __add__(self, other: "Algebraic | Fraction | int") -> "Algebraic":
        return Algebraic(self.field, self.poly + self._same(other).poly)

    __radd__ = __add__

    def __sub__(self, other: "Algebraic | Fraction | int") -> "Algebraic":
        return Algebraic(self.field, self.poly - self._same(other).poly)

    def __rsub__(self, other: Fraction | int) -> "Algebraic":
        return self._same(other) - self

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (Algebraic, Fraction, int)):
            try:
                return (self - other).poly.is_zero
            except ValueError:
                return False
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.value_fraction()) if self.is_rational() else hash((self.field, self.poly))

    def __neg__(self) -> "Algebraic":
        return Algebraic(self.field, -self.poly)

    def __mul__(self, other: "Algebraic | Fraction | int") -> "Algebraic":
        return self.field.element(self.poly * self._same(other).poly)

    __rmul__ = __mul__

    def inverse(self) -> "Algebraic":
        if self.poly.is_zero:
            raise ZeroDivisionError("inverse of zero")
        if self.field.degree == 1:
            return self.field.rational(1 / self.value_fraction())
        return self.field.element(self.poly.invert(self.field.minpoly))

    def __truediv__(self, other: "Algebraic | Fraction | int") -> "Algebraic":
        return self * self._same(other).inverse()

    def __rtruediv__(self, other: Fraction | int) -> "Algebraic":
        return self._same(other) * self.inverse()

    def sign(self) -> int:
        return self.field.sign(self.poly)

    def is_rational(self) -> bool:
        return self.poly.degree() <= 0

    def value_fraction(self) -> Fraction:
        """The value as a fraction (rational elements only)."""
        if self.field.degree == 1:
            return _horner([_frac(c) for c in self.poly.all_coeffs()], self.field.low)
        if not self.is_rational():
            raise ValueError("not a rational number")
        return _frac(self.poly.all_coeffs()[-1]) if not self.poly.is_zero else Fraction(0)

    def minimal_polynomial(self) -> sp.Poly:
        r"""The monic minimal polynomial of this element over the rationals (in ``_T``), by the first linear
        dependence among its powers in the basis :math:`1, \alpha, \ldots` of the field."""
        d = max(self.field.degree, 1)
        vectors: list[list[sp.Rational]] = []
        power = self.field.rational(1)
        for k in range(d + 1):
            coeffs = [sp.Rational(c) for c in reversed(power.poly.all_coeffs())] if not power.poly.is_zero else []
            vectors.append(coeffs + [sp.Rational(0)] * (d - len(coeffs)))
            kernel = sp.Matrix(vectors).T.nullspace()
            if kernel:
                relation = kernel[0] / kernel[0][k]
                return sp.Poly(sum(relation[j] * _T ** j for j in range(k + 1)), _T, domain=sp.QQ)
            power = power * self
        raise AssertionError("powers of an element of a field of degree d are dependent")   # pragma: no cover

    def expr(self) -> sp.Expr:
        """The exact value as a sympy number: rational, with one square root, or ``CRootOf(m, k)`` with
        ``m`` its own minimal polynomial (the k-th real root, from 0, in increasing order)."""
        if self.field.degree == 1 or self.is_rational():
            return sp.Rational(self.value_fraction())
        minimal = self.minimal_polynomial()
        if minimal.degree() == 1:
            return -sp.Rational(minimal.all_coeffs()[1])
        for (low, high), _m in minimal.intervals():
            if (self - _frac(sp.Rational(low))).sign() >= 0 and (self - _frac(sp.Rational(high))).sign() <= 0:
                own = NumberField(minimal, _frac(sp.Rational(low)), _frac(sp.Rational(high)))
                return own.alpha_expr()
        raise AssertionError("a real element lies in an isolating interval of its minimal polynomial")  # pragma: no cover

    def __float__(self) -> float:
        return float(self.value_fraction()) if self.is_rational() or self.field.degree == 1 \
            else self.field.approx(self.poly)

    def __str__(self) -> str:
        return str(self.expr())


#: The name of the field's generator in stored texts (:func:`field_json`, :func:`element_text`).
GENERATOR = "alpha"


def field_json(field: NumberField) -> dict[str, Any]:
    """A number field as JSON-ready text: its minimal polynomial in ``alpha`` and the isolating interval.

    Read back by :func:`field_from_json`, which re-checks both.

    Parameters
    ----------
    field : NumberField
        The field.

    Returns
    -------
    dict
        ``{"polynomial": str, "isolating_interval": [str, str], "approx": float}``.

    Examples
    --------
    >>> f = NumberField(sp.Poly(_T**3 - 3*_T + 1, _T, domain=sp.QQ), Fraction(0), Fraction(1))
    >>> field_json(f)
    {'polynomial': 'alpha**3 - 3*alpha + 1', 'isolating_interval': ['0', '1'], 'approx': 0.347296}
    """
    return {"polynomial": element_text(field.minpoly), "isolating_interval": [str(field.low), str(field.high)],
            "approx": float(f"{field.approx(sp.Poly(_T, _T, domain=sp.QQ)):.6g}")}


def element_text(poly: sp.Poly) -> str:
    """An element of a number field (a polynomial in ``_T``) as text in ``alpha``.

    Parameters
    ----------
    poly : sympy.Poly
        The element, a polynomial in the generator ``_T``.

    Returns
    -------
    str
        Read back by :func:`element_from_text`.

    Examples
    --------
    >>> element_text(sp.Poly(3*_T**2 - _T + sp.Rational(1, 2), _T, domain=sp.QQ))
    '3*alpha**2 - alpha + 1/2'
    """
    return str(poly.as_expr().subs(_T, sp.Symbol(GENERATOR)))


def field_from_json(record: Any, parse: Any) -> NumberField:
    """The number field of a stored record (:func:`field_json`), checked: the polynomial is irreducible over
    the rationals of degree at least 2, and the interval's rational ends isolate exactly one of its roots.

    Parameters
    ----------
    record : dict
        As written by :func:`field_json` (``approx`` is not read).
    parse : callable
        ``parse(text, names)``: the restricted parser to read the polynomial with (``names`` maps ``alpha``).

    Returns
    -------
    NumberField

    Raises
    ------
    InputError
        When the record does not define one real algebraic number.

    Examples
    --------
    >>> from symgame.model.expr import parse_expression
    >>> f = field_from_json({"polynomial": "alpha^3 - 3*alpha + 1", "isolating_interval": ["0", "1"]},
    ...                     parse_expression)
    >>> f.degree, f.low, f.high
    (3, Fraction(0, 1), Fraction(1, 1))
    >>> field_from_json({"polynomial": "alpha^3 - 3*alpha + 1", "isolating_interval": ["-2", "1"]},
    ...                 parse_expression)
    Traceback (most recent call last):
    ...
    symgame.errors.InputError: the interval (-2, 1) holds 2 roots of alpha**3 - 3*alpha + 1, not one
    """
    from ..errors import InputError

    alpha = sp.Symbol(GENERATOR)
    try:
        expr = parse(record["polynomial"], {GENERATOR: alpha})
        low, high = (Fraction(str(v)) for v in record["isolating_interval"])
        poly = sp.Poly(expr, alpha, domain=sp.QQ)
    except (KeyError, TypeError, ValueError, ZeroDivisionError, sp.PolynomialError) as exc:
        raise InputError(f"not a number field: {type(exc).__name__}: {exc}") from None
    if poly.degree() < 2 or not poly.is_irreducible:
        raise InputError(f"{poly.as_expr()} is not irreducible of degree at least 2")
    poly = sp.Poly(poly.monic().as_expr().subs(alpha, _T), _T, domain=sp.QQ)
    lo, hi = sp.Rational(low), sp.Rational(high)
    count = poly.count_roots(lo, hi) if low < high else 0
    if count != 1:         # (an irreducible polynomial of degree >= 2 has no rational root: no root at the ends)
        raise InputError(f"the interval ({low}, {high}) holds {count} roots of {expr}, not one")
    return NumberField(poly, low, high)


def element_from_text(text: str, field: NumberField, parse: Any) -> sp.Poly:
    """An element of ``field`` read from its text in ``alpha`` (:func:`element_text`), reduced.

    Parameters
    ----------
    text : str
        A polynomial in ``alpha`` with rational coefficients.
    field : NumberField
        The field it belongs to.
    parse : callable
        ``parse(text, names)``: the restricted parser.

    Returns
    -------
    sympy.Poly
        In ``_T``, reduced modulo the minimal polynomial.

    Raises
    ------
    InputError
        When the text is not a polynomial in ``alpha`` with rational coefficients.

    Examples
    --------
    >>> from symgame.model.expr import parse_expression
    >>> f = NumberField(sp.Poly(_T**3 - 3*_T + 1, _T, domain=sp.QQ), Fraction(0), Fraction(1))
    >>> element_from_text("alpha^4", f, parse_expression).as_expr()
    3*_T**2 - _T
    """
    from ..errors import InputError

    alpha = sp.Symbol(GENERATOR)
    try:
        poly = sp.Poly(parse(text, {GENERATOR: alpha}), alpha, domain=sp.QQ)
    except (sp.PolynomialError, sp.polys.polyerrors.CoercionFailed) as exc:
        raise InputError(f"not an element of Q(alpha): {exc}") from None
    return sp.Poly(poly.as_expr().subs(alpha, _T), _T, domain=sp.QQ).rem(field.minpoly)


def rational_field(value: Fraction) -> NumberField:
    """The field of a rational point (``alpha`` = ``value``)."""
    return NumberField(sp.Poly(_T - sp.Rational(value), _T, domain=sp.QQ), value, value)


def _is_shape(basis: Sequence[sp.Poly], symbols: Sequence[sp.Symbol]) -> bool:
    """Whether a lex basis (``_T`` last) reads ``x_k - g_k(_T)`` for every ``x_k``, then ``f(_T)``."""
    if len(basis) != len(symbols) + 1:
        return False
    for poly, x in zip(basis, symbols):
        others = poly - sp.Poly(x, *symbols, _T, domain=sp.QQ)
        if others.degree(x) > 0 or any(others.degree(y) > 0 for y in symbols):
            return False
    last = basis[-1]
    return all(last.degree(y) <= 0 for y in symbols)


def real_solutions(equations: Sequence[sp.Expr], symbols: Sequence[sp.Symbol],
                   max_degree: int = 400) -> list[tuple[NumberField, tuple[Algebraic, ...]]] | None:
    """Every real solution of a polynomial system with rational coefficients, exactly.

    Returns a list of ``(field, coordinates)``, one per real solution, or ``None`` when the system has
    infinitely many complex solutions (positive-dimensional). An inconsistent system gives ``[]``.

    Examples
    --------
    >>> x, y = sp.symbols("x y")
    >>> sols = real_solutions([x**2 + y**2 - 1, x - y], [x, y])
    >>> sorted(str(c) for _, point in sols for c in point[:1])
    ['-sqrt(2)/2', 'sqrt(2)/2']
    >>> real_solutions([x * y], [x, y]) is None
    True
    """
    symbols = list(symbols)
    if not symbols:
        return [] if any(sp.Rational(e) != 0 for e in equations) else [(rational_field(Fraction(0)), ())]
    grevlex = _grevlex(list(equations), symbols)
    if list(grevlex.exprs) == [1]:
        return []
    if not grevlex.is_zero_dimensional:
        return None
    system = list(grevlex.exprs)
    for form in _separating_forms(symbols):
        if form is None:                                 # Seidenberg: add the square-free eliminants
            system = system + [_squarefree_eliminant(system, symbols, x) for x in symbols]
            continue
        extra: list[sp.Expr] = []
        for _ in range(2):
            basis = _lex(system + [form] + extra, [*symbols, _T])
            polys = list(basis.polys)
            if not _is_shape(polys, symbols):
                break
            f = sp.Poly(polys[-1].as_expr(), _T, domain=sp.QQ)
            if f.degree() > max_degree:
                raise LimitError(f"a system with {f.degree()} solutions (more than {max_degree})")
            squarefree = sp.quo(f, sp.gcd(f, f.diff(_T)))
            if squarefree.degree() != f.degree():
                extra = [squarefree.as_expr()]
                continue
            coords = [sp.Poly(-(poly - sp.Poly(x, *symbols, _T, domain=sp.QQ)).as_expr(), _T, domain=sp.QQ)
                      for poly, x in zip(polys, symbols)]
            return _points(f, coords)
    raise LimitError("no separating linear form found for a zero-dimensional system")


def _separating_forms(symbols: list[sp.Symbol]):
    """Each variable itself (the nicest field generators), small integer combinations, then (``None``: make
    the ideal radical) the combinations again."""
    n = len(symbols)
    forms = [_T - x for x in symbols]
    for attempt in range(4):
        forms.append(_T - sum((1 + (attempt * 7 + 3 * k) % 11) * x for k, x in enumerate(symbols)))
    yield from forms
    yield None
    yield from forms[n:] if n > 1 else forms


def _lex(system: list, gens: list[sp.Symbol]) -> sp.GroebnerBasis:
    """A lexicographic Gröbner basis of a zero-dimensional ideal: degree-reverse-lexicographic first, then
    converted by FGLM (Faugère, Gianni, Lazard, Mora, J. Symbolic Computation 16, 1993), much faster than a
    direct lexicographic Buchberger run."""
    return _grevlex(system, gens).fglm("lex")


#: Bounds on flint's Buchberger run: basis length, terms per polynomial, bits per coefficient.
BUCHBERGER_LIMITS = (5_000, 50_000, 200_000)


def _grevlex(system: Sequence[sp.Expr], gens: Sequence[sp.Symbol]) -> sp.GroebnerBasis:
    """The reduced degree-reverse-lexicographic Gröbner basis over the rationals, computed by FLINT's
    Buchberger implementation on integer polynomials (python-flint ``fmpz_mpoly_vec``; for the 3 x 3 x 3
    full-support system 0.2 s against 60 s for sympy's F5B) and wrapped as sympy's ``GroebnerBasis`` (for
    ``is_zero_dimensional`` and ``fglm``). Raises :class:`LimitError` past :data:`BUCHBERGER_LIMITS`."""
    names = tuple(str(g) for g in gens)
    context = flint.fmpz_mpoly_ctx.get(names, "degrevlex")
    polys = []
    for expr in system:
        poly = sp.Poly(expr, *gens, domain=sp.QQ)
        if poly.is_zero:
            continue
        terms = [(m, sp.Rational(c)) for m, c in poly.terms()]
        scale = math.lcm(*(int(c.q) for _, c in terms))
        polys.append(context.from_dict({m: int(c * scale) for m, c in terms}))
    options = sp.polys.polyoptions.build_options(list(gens), {"domain": sp.QQ, "order": "grevlex"})
    if not polys:
        return sp.GroebnerBasis._new([], options)
    run: Any = flint.fmpz_mpoly_vec(polys, context).buchberger_naive(limits=BUCHBERGER_LIMITS)
    basis, finished = run
    if not finished:
        raise LimitError("a Groebner basis past the size limits (" + ", ".join(map(str, BUCHBERGER_LIMITS)) + ")")
    out = []
    for g in basis.autoreduction():
        poly = sp.Poly.from_dict({tuple(m): int(c) for m, c in zip(g.monoms(), g.coeffs())}, *gens, domain=sp.QQ)
        leading = max(poly.terms(), key=lambda term: sp.polys.orderings.grevlex(term[0]))
        out.append(poly.quo_ground(leading[1]))
    out.sort(key=lambda q: max(sp.polys.orderings.grevlex(m) for m in q.monoms()), reverse=True)
    return sp.GroebnerBasis._new(out, options)


def _squarefree_eliminant(system: list, symbols: list, x: sp.Symbol) -> sp.Expr:
    others = [y for y in symbols if y != x]
    basis = _lex(system, [*others, x])
    last = sp.Poly(basis.exprs[-1], x, domain=sp.QQ)
    return sp.quo(last, sp.gcd(last, last.diff(x))).as_expr()


def real_parametrized_points(f: sp.Poly, coords: list[sp.Poly]) -> list[tuple[NumberField, tuple[Algebraic, ...]]]:
    """The real points ``(g_1(t), ..., g_n(t))`` for the real roots ``t`` of ``f`` (polynomials in one
    variable over Q), exactly: one number field per irreducible factor's real root."""
    gen = f.gens[0]
    return _points(sp.Poly(f.as_expr().subs(gen, _T), _T, domain=sp.QQ),
                   [sp.Poly(g.as_expr().subs(gen, _T), _T, domain=sp.QQ) for g in coords])


def _points(f: sp.Poly, coords: list[sp.Poly]) -> list[tuple[NumberField, tuple[Algebraic, ...]]]:
    points = []
    _, factors = f.factor_list()
    for factor, _mult in factors:
        factor = sp.Poly(factor.monic().as_expr(), _T, domain=sp.QQ)
        if factor.degree() == 1:
            root = _frac(-factor.all_coeffs()[1])
            field = rational_field(root)
            points.append((field, tuple(field.rational(_horner([_frac(c) for c in g.all_coeffs()], root))
                                        for g in coords)))
            continue
        for (low, high), _m in factor.intervals():
            field = NumberField(factor, _frac(sp.Rational(low)), _frac(sp.Rational(high)))
            points.append((field, tuple(field.element(g) for g in coords)))
    points.sort(key=lambda item: tuple(float(c) for c in item[1]))
    return points
