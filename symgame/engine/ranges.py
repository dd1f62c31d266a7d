"""Exact parameter ranges of a solution branch.

A branch holds where all its conditions hold for some value of its free
variables.  The truth of that statement can only change at a real root of a
*border polynomial* in the parameter: numerators and denominators of the
conditions; for free variables entering linearly, their coefficients and
the Fourier–Motzkin eliminants of every pair of conditions, stage by stage
(exact projection of a polytope whose data depend on ``P``); for a square
root ``s = sqrt(D)``, the resultant with ``s**2 - D``.  The roots split the
domain into cells (points and open intervals); each cell is decided exactly
by z3 at one point (a rational sample, or the algebraic root itself given by
its polynomial and an isolating interval).  True cells are merged into
intervals whose endpoints are exact algebraic numbers.

When a free variable enters non-linearly the border set may be incomplete;
the range is then flagged (``complete=False``) and reported as such.
"""
from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Sequence

import sympy as sp

from ..model.decide import Decision
from ..model.parameters import Parameter
from ..model.z3env import z3
from .parametric import CaseBranch, has_sqrt, in_domain, radical_norm
from .z3terms import Z3Encoder, decide

MAX_BORDER_POLYS = 400


@dataclass(frozen=True)
class Endpoint:
    """An exact real algebraic number: ``value`` (radical, rational or CRootOf),
    its squarefree defining polynomial in the parameter, and an isolating interval."""

    value: sp.Expr
    poly: sp.Expr
    lower: Fraction
    upper: Fraction

    @property
    def is_rational(self) -> bool:
        return self.lower == self.upper

    def __float__(self) -> float:
        return float(self.lower) if self.is_rational else float(sp.N(self.value, 30))


@dataclass(frozen=True)
class ParamInterval:
    """An interval of parameter values; ``upper`` None means unbounded."""

    lower: Endpoint
    lower_closed: bool
    upper: Endpoint | None
    upper_closed: bool

    @property
    def is_point(self) -> bool:
        return self.upper is not None and self.upper == self.lower

    def text(self, name: str = "P", show: Callable[[sp.Expr], str] | None = None, le: str = "<=") -> str:
        """``2 < P <= 3/2 + sqrt(23)/2``, ``P = 3`` or ``1 <= P`` (``show`` writes an end; default: sympy's
        ``sstr`` in lexicographic order; ``le`` is the sign for a closed end)."""
        shown = show or (lambda e: sp.sstr(e, order="lex"))
        if self.is_point:
            return f"{name} = {shown(self.lower.value)}"
        lo = f"{shown(self.lower.value)} {le if self.lower_closed else '<'} {name}"
        if self.upper is None:
            return lo
        return f"{lo} {le if self.upper_closed else '<'} {shown(self.upper.value)}"

    def contains(self, value: Fraction) -> bool:
        lo = _compare(value, self.lower)
        if lo < 0 or (lo == 0 and not self.lower_closed):
            return False
        if self.upper is None:
            return True
        hi = _compare(value, self.upper)
        return hi < 0 or (hi == 0 and self.upper_closed)


def _compare(value: Fraction, point: Endpoint) -> int:
    """Exact sign of ``value - point``."""
    if point.is_rational:
        return (value > point.lower) - (value < point.lower)
    if value <= point.lower:
        return -1
    if value >= point.upper:
        return 1
    diff = sp.Rational(value.numerator, value.denominator) - point.value
    return int(sp.sign(diff))


@dataclass(frozen=True)
class BranchRange:
    """The exact range of one branch and how it was obtained."""

    intervals: tuple[ParamInterval, ...]
    complete: bool
    undecided_cells: int


def branch_range(branch: CaseBranch, param: Parameter, timeout_ms: int = 20_000) -> BranchRange:
    """The set of parameter values where ``branch`` has a solution (see module doc)."""
    P = param.symbol
    if branch.point is not None:
        ok = decide_at(branch, P, sp.Rational(branch.point), None, timeout_ms)
        if ok is Decision.TRUE:
            e = rational_endpoint(branch.point, P)
            return BranchRange((ParamInterval(e, True, e, True),), True, 0)
        return BranchRange((), True, int(ok is Decision.UNDECIDED))
    polys, complete = border_polynomials(branch, P)
    cells = parameter_cells(polys, param)
    truth = []
    undecided = 0
    for cell in cells:
        answer = decide_cell(branch, P, cell, timeout_ms)
        undecided += answer is Decision.UNDECIDED
        truth.append(answer is Decision.TRUE)
    return BranchRange(tuple(_merge(cells, truth)), complete, undecided)


# --------------------------------------------------------------------------- border polynomials

def realness_conditions(branch: CaseBranch) -> list[tuple[sp.Expr, str]]:
    """``radicand >= 0`` for every square root in the branch's formulas and conditions: a closed form such as
    ``(1 + sqrt(1 - 2c))/2`` is a profile only where it is real, so its range ends where a radicand changes
    sign (the radicands are also border polynomials)."""
    found: dict[sp.Expr, None] = {}
    for expr in [v for _, v in branch.values] + [e for e, _ in branch.conditions]:
        for a in sp.preorder_traversal(sp.sympify(expr)):
            if a.is_Pow and a.exp.is_Rational and a.exp.q == 2:
                found.setdefault(a.base, None)
    return [(base, ">=") for base in sorted(found, key=sp.default_sort_key)]


def border_polynomials(branch: CaseBranch, P: sp.Symbol) -> tuple[list[sp.Poly], bool]:
    """Squarefree polynomials in ``P`` whose roots bound the branch's range, and whether the set is complete.

    Every condition contributes its numerator and denominator, split into irreducible factors when it is not
    linear in the free variables (the truth of a condition is fixed by the signs of its factors). The free
    variables are then eliminated one at a time, a variable linear in every polynomial that holds it first:
    Fourier-Motzkin (each polynomial's coefficient of the variable, which may hold later variables and then
    stays for their elimination, and the eliminant of every pair). When one free variable is left and enters
    with a higher degree, its projection is the classical one of a cylindrical algebraic decomposition of the
    plane (every coefficient, every discriminant, every pairwise resultant: on an interval of ``P`` where none
    vanishes the real roots in the variable are continuous and never meet, so the truth is constant; Collins,
    "Quantifier elimination for real closed fields by cylindrical algebraic decomposition", LNCS 33, 1975); when
    the branch's one free variable is tied by an equation (an algebraic family's primitive unknown), only the
    equation's coefficients, discriminant and resultants with the others (:func:`_equational_projection`). Only
    when two or more free variables are left and none enters linearly is the set flagged incomplete.
    """
    free = [sp.Symbol(z, real=True) for z in branch.free]
    free_set = set(free)
    stage: list[sp.Expr] = []
    borders: list[sp.Expr] = [base for base, _ in realness_conditions(branch)]
    for expr, _ in branch.conditions:
        num, den = sp.fraction(sp.together(expr))
        borders.append(den)
        if den.free_symbols & free_set:
            parts = _free_factors(sp.expand(num), free) + _free_factors(sp.expand(den), free)
        else:
            whole = sp.expand(num * den)
            linear = not whole.free_symbols & free_set or sp.Poly(whole, *free).total_degree() <= 1
            parts = [whole] if linear else _free_factors(whole, free)
        for f in parts:
            (stage if f.free_symbols & free_set else borders).append(f)
    complete = True
    remaining = list(free)
    while remaining:
        linear = [z for z in remaining if all(sp.degree(p, z) <= 1 for p in stage if p.has(z))]
        if linear:
            z = min(linear, key=lambda v: (sum(p.has(v) for p in stage), remaining.index(v)))
            with_z = [p for p in stage if p.has(z)]
            without = [p for p in stage if not p.has(z)]
            coeff = {p: sp.expand(sp.diff(p, z)) for p in with_z}
            later = [c for c in coeff.values() if c.free_symbols & free_set]
            borders += [c for c in coeff.values() if not c.free_symbols & free_set]
            eliminants = [sp.expand(coeff[q] * p - coeff[p] * q) for p, q in itertools.combinations(with_z, 2)]
            stage = _dedupe(without + later + [e for e in eliminants if e != 0])
            if len(stage) > MAX_BORDER_POLYS:
                complete = False
                stage = stage[:MAX_BORDER_POLYS]
        elif len(remaining) == 1:
            z = remaining[0]
            tied = [sp.fraction(sp.together(e))[0] for e, rel in branch.conditions if rel == "==" and e.has(z)]
            if len(free) == 1 and tied:
                borders += _equational_projection(sp.expand(sp.Mul(*tied)), stage, z)
            else:
                borders += _plane_projection(stage, z)
            stage = []
        else:
            complete = False
            z = remaining[0]
            with_z = [p for p in stage if p.has(z)]
            borders += [c for p in with_z for c in sp.Poly(p, z).all_coeffs()]
            stage = [p for p in stage if not p.has(z)]
        remaining.remove(z)
    borders += stage
    out: dict[sp.Expr, sp.Poly] = {}
    for b in borders:
        for f in _parameter_factors(b, P):
            out.setdefault(f.as_expr(), f)
    return [out[k] for k in sorted(out, key=sp.default_sort_key)], complete


def _plane_projection(polys: Sequence[sp.Expr], z: sp.Symbol) -> list[sp.Expr]:
    """Coefficients in ``z``, discriminants and pairwise resultants of the irreducible factors of ``polys``."""
    factors: dict[sp.Expr, None] = {}
    for p in polys:
        for f in _free_factors(p, [z]):
            if f.has(z):
                factors.setdefault(f, None)
    out: list[sp.Expr] = []
    items = list(factors)
    for f in items:
        poly = sp.Poly(f, z)
        out += poly.all_coeffs()
        if poly.degree() > 1:
            out.append(sp.discriminant(poly))
    for f, g in itertools.combinations(items, 2):
        out.append(sp.resultant(f, g, z))
    return out


def _equational_projection(tie: sp.Expr, polys: Sequence[sp.Expr], z: sp.Symbol) -> list[sp.Expr]:
    """Borders of ``exists z: tie(P, z) = 0 and conditions on polys``: ``tie``'s coefficients and discriminant,
    and its resultant with each polynomial. On an interval of ``P`` where none vanishes, ``tie``'s real roots
    in ``z`` are continuous and distinct and no polynomial changes sign at any of them (it would vanish there,
    and with it the resultant), so the truth is constant: the pairwise resultants of the plane projection are
    not needed (McCallum, "On projection in CAD-based quantifier elimination with equational constraints",
    ISSAC 1999)."""
    out: list[sp.Expr] = []
    for f in _free_factors(tie, [z]):
        if not f.has(z):
            out.append(f)
            continue
        poly = sp.Poly(f, z)
        out += poly.all_coeffs()
        if poly.degree() > 1:
            out.append(sp.discriminant(poly))
    factors = [f for f in _free_factors(tie, [z]) if f.has(z)]
    for p in polys:
        for g in _free_factors(p, [z]):
            if g.has(z):
                out += [sp.resultant(f, g, z) for f in factors]
    return out


def _free_factors(expr: sp.Expr, free: Sequence[sp.Symbol]) -> list[sp.Expr]:
    """The distinct irreducible factors of ``expr`` over Q (or ``expr`` itself when it has square roots)."""
    if has_sqrt(expr):
        return [expr]
    return [sp.expand(f) for f, _ in sp.factor_list(expr)[1]]


def _dedupe(polys: Sequence[sp.Expr]) -> list[sp.Expr]:
    seen, out = set(), []
    for p in polys:
        key = sp.factor_terms(p)
        if key not in seen and -key not in seen:
            seen.add(key)
            out.append(p)
    return out


def _parameter_factors(expr: sp.Expr, P: sp.Symbol) -> list[sp.Poly]:
    """Irreducible factors in ``P`` of ``expr`` after removing square roots."""
    expr = sp.expand(expr)
    if has_sqrt(expr):
        expr = radical_norm(expr)
    if expr.free_symbols - {P} or not expr.has(P):
        return []
    poly = sp.Poly(expr, P, domain="QQ")
    return [f for f, _ in poly.factor_list()[1] if f.degree() > 0]


# --------------------------------------------------------------------------- cells

@dataclass(frozen=True)
class Cell:
    """A point (``point`` set) or an open interval ``(left, right)`` of the domain."""

    point: Endpoint | None
    left: Endpoint | None
    right: Endpoint | None
    sample: Fraction | None


def rational_endpoint(value, P: sp.Symbol) -> Endpoint:
    v = Fraction(str(value)) if not isinstance(value, Fraction) else value
    return Endpoint(sp.Rational(v.numerator, v.denominator), P - sp.Rational(v.numerator, v.denominator), v, v)


def parameter_cells(polys: Sequence[sp.Poly], param: Parameter) -> list[Cell]:
    """Cells of the domain cut by the real roots of ``polys`` (bounded or unbounded above)."""
    P = param.symbol
    lower = Fraction(str(param.lower))
    upper = Fraction(str(param.upper)) if param.upper.is_finite else None
    roots: list[Endpoint] = []
    for f in polys:
        for (a, b), _ in f.intervals(eps=Fraction(1, 10**12)):
            a, b = Fraction(int(a.p), int(a.q)), Fraction(int(b.p), int(b.q))
            clipped = _clip_root(f, a, b, lower, upper)
            if clipped is not None:
                roots.append(_endpoint(f, clipped[0], clipped[1], P))
    roots = _sorted_distinct(roots)
    cells = [Cell(rational_endpoint(lower, P), None, None, None)]
    left = cells[0].point
    assert left is not None
    for r in roots:
        cells.append(Cell(None, left, r, _between(left, r)))
        cells.append(Cell(r, None, None, None))
        left = r
    if upper is None:
        cells.append(Cell(None, left, None, left.upper + 1))
    else:
        top = rational_endpoint(upper, P)
        cells.append(Cell(None, left, top, _between(left, top)))
        if param.upper_closed:
            cells.append(Cell(top, None, None, None))
    if not param.lower_closed:
        cells = cells[1:]
    return cells


def _clip_root(f: sp.Poly, a: Fraction, b: Fraction, lower: Fraction, upper: Fraction | None
               ) -> tuple[Fraction, Fraction] | None:
    """The isolating interval ``[a, b]`` of a root strictly inside the domain, or None.

    Roots at the domain's bounds are dropped (the bounds are cells of their
    own); an interval straddling a bound is cut there by a sign test.
    """
    def value(x: Fraction) -> sp.Expr:
        return f.eval(sp.Rational(x.numerator, x.denominator))

    if b < lower or (a == b and a == lower):
        return None
    if upper is not None and (a > upper or (a == b and a == upper)):
        return None
    if a < lower < b:
        if value(lower) == 0 or sp.sign(value(a)) != sp.sign(value(lower)):
            return None  # the root is the bound itself or lies below the domain
        a = lower
    if upper is not None and a < upper < b:
        if value(upper) == 0 or sp.sign(value(upper)) == sp.sign(value(a)):
            return None  # the root is the bound itself or lies above the domain
        b = upper
    return a, b


def _endpoint(f: sp.Poly, a: Fraction, b: Fraction, P: sp.Symbol) -> Endpoint:
    if a == b:
        return rational_endpoint(a, P)
    if f.degree() <= 2:
        for r in sp.roots(f, P, filter="R"):
            if a <= sp.Rational(a.numerator, a.denominator) <= r <= sp.Rational(b.numerator, b.denominator):
                return Endpoint(sp.radsimp(r), f.as_expr(), a, b)
    for k in range(f.degree()):
        r = sp.CRootOf(f, k)
        if r.is_real and sp.Rational(a.numerator, a.denominator) < r < sp.Rational(b.numerator, b.denominator):
            return Endpoint(r, f.as_expr(), a, b)
    raise AssertionError("isolating interval without a root")  # pragma: no cover


def root_endpoint(poly: sp.Expr, lower: Fraction, upper: Fraction, P: sp.Symbol) -> Endpoint:
    """The :class:`Endpoint` of the root of the square-free ``poly`` (in ``P``) isolated by ``[lower, upper]``
    (for ends stored as a polynomial and an isolating interval).

    Raises
    ------
    ValueError
        When the interval does not isolate exactly one root of a square-free ``poly``.
    """
    f = sp.Poly(poly, P, domain="QQ")
    if f.degree() < 1 or sp.degree(sp.gcd(f, f.diff(P)), P) > 0:
        raise ValueError("an endpoint's polynomial must be square-free of positive degree")
    if lower == upper:
        if f.eval(sp.Rational(lower.numerator, lower.denominator)) != 0:
            raise ValueError("a rational endpoint is not a root of its polynomial")
        return rational_endpoint(lower, P)
    if f.count_roots(sp.Rational(lower.numerator, lower.denominator), sp.Rational(upper.numerator, upper.denominator)) != 1:
        raise ValueError("an isolating interval holds no root or more than one")
    return _endpoint(f, lower, upper, P)


def _sorted_distinct(roots: list[Endpoint]) -> list[Endpoint]:
    out: list[Endpoint] = []
    for r in sorted(roots, key=lambda e: (e.lower, e.upper)):
        if out and _same(out[-1], r):
            continue
        out.append(r)
    return out


def _same(x: Endpoint, y: Endpoint) -> bool:
    if x.upper < y.lower or y.upper < x.lower:
        return False
    if x.is_rational and y.is_rational:
        return x.lower == y.lower
    return sp.simplify(x.value - y.value) == 0


def _between(x: Endpoint, y: Endpoint) -> Fraction:
    """A simple rational strictly between two distinct ordered roots."""
    lo, hi = x.upper, y.lower
    if lo >= hi:  # overlapping intervals of distinct roots: use the numeric values
        lo, hi = Fraction(float(x)).limit_denominator(10**9), Fraction(float(y)).limit_denominator(10**9)
    return _simple_between(lo, hi)


def _simple_between(lo: Fraction, hi: Fraction) -> Fraction:
    for den in (1, 2, 4, 8, 10, 16, 20, 50, 100, 1000, 10**4, 10**6, 10**9, 10**12):
        k = (lo * den).__floor__() + 1
        cand = Fraction(k, den)
        if lo < cand < hi:
            return cand
    return (lo + hi) / 2


# --------------------------------------------------------------------------- decisions

def decide_cell(branch: CaseBranch, P: sp.Symbol, cell: Cell, timeout_ms: int) -> Decision:
    if cell.point is None:
        assert cell.sample is not None
        return decide_at(branch, P, sp.Rational(cell.sample.numerator, cell.sample.denominator), None,
                         timeout_ms)
    if cell.point.is_rational:
        return decide_at(branch, P, sp.Rational(cell.point.lower.numerator, cell.point.lower.denominator),
                         None, timeout_ms)
    return decide_at(branch, P, None, cell.point, timeout_ms)


def decide_at(branch: CaseBranch, P: sp.Symbol, value: sp.Rational | None, root: Endpoint | None,
              timeout_ms: int) -> Decision:
    """Whether the branch's conditions hold at one parameter value (exact).

    Each condition's numerator and denominator are formed once (:func:`_fraction`) and the value substituted
    into both: the same sign condition as forming them after the substitution (which cost sympy's ``together``
    once per cell), wherever the condition's denominator does not vanish, and required nonzero.

    At an irrational value with at most one free variable, and at a rational value with one or two, the plane CAD
    decides exactly first (:func:`exact_at_root`, :func:`exact_at_value`), so that the answer does not depend on
    whether z3 finishes within ``timeout_ms`` on a loaded machine; otherwise z3 decides."""
    if root is not None and value is None and len(branch.free) <= 1:
        exact = exact_at_root(branch, P, root)
        if exact is not None:
            return exact
    if value is not None and 1 <= len(branch.free) <= 2:
        exact = exact_at_value(branch, P, value)
        if exact is not None:
            return exact
    enc = Z3Encoder()
    formulas: list[z3.BoolRef] = []
    for expr, rel in realness_conditions(branch) + list(branch.conditions):
        e = expr.subs(P, value) if value is not None else expr
        if e.is_number and value is not None:
            if not _number_holds(e, rel):
                return Decision.FALSE
            continue
        num, den = _fraction(expr)
        if value is not None:
            num, den = num.subs(P, value), den.subs(P, value)
        formulas.append(enc.fraction_condition(num, den, rel))
    for z in branch.free:
        enc.var(z)
    if root is not None:
        p = enc.var(str(P))
        formulas += [enc.condition(root.poly, "=="),
                     p > z3.RealVal(f"{root.lower.numerator}/{root.lower.denominator}"),
                     p < z3.RealVal(f"{root.upper.numerator}/{root.upper.denominator}")]
    return decide(formulas, enc, timeout_ms)


def exact_at_root(branch: CaseBranch, P: sp.Symbol, root: Endpoint) -> Decision | None:
    """The branch's conditions at an irrational parameter value, decided in exact arithmetic at that algebraic
    number when the branch has at most one free variable: the value is the root of an irreducible factor of
    ``root.poly`` in its isolating interval, and the plane CAD lifts over it alone
    (:meth:`symgame.model.cad.Plane.satisfiable_above`: the roots in the free variable of every condition's
    factors above that value, and a sample in each cell; no timeout). ``None`` when the branch has more free
    variables or square roots, or the CAD's size limits are reached: the caller decides otherwise.

    Parameters
    ----------
    branch : CaseBranch
        The branch.
    P : sympy symbol
        The parameter.
    root : Endpoint
        An irrational value of the parameter.

    Returns
    -------
    Decision or None

    Examples
    --------
    At ``P = sqrt(2)``, ``P z > 1`` for some ``z <= 1``; ``P z = 1`` and ``2 z^2 = 1`` at ``z = 1/sqrt(2)``
    (a point, which a rational grid would miss); ``P^2 > 2`` nowhere:

    >>> import sympy as sp
    >>> P, z = sp.Symbol("P", real=True), sp.Symbol("z", real=True)
    >>> at = algebraic_endpoint(sp.sqrt(2), P)
    >>> exact_at_root(CaseBranch("I", None, (("z", z),), ("z",), ((P * z - 1, ">"), (1 - z, ">="))), P, at)
    <Decision.TRUE: 'true'>
    >>> exact_at_root(CaseBranch("I", None, (("z", z),), ("z",), ((P * z - 1, "=="), (2 * z**2 - 1, "=="))), P, at)
    <Decision.TRUE: 'true'>
    >>> exact_at_root(CaseBranch("I", None, (), (), ((P**2 - 2, ">"),)), P, at)
    <Decision.FALSE: 'false'>
    """
    import flint

    from ..errors import LimitError
    from ..model.cad import Plane, isolate

    conditions = realness_conditions(branch) + list(branch.conditions)
    if len(branch.free) > 1 or any(has_sqrt(e) for e, _ in conditions) or root.is_rational:
        return None
    base = sp.Poly(root.poly, P, domain=sp.QQ).clear_denoms()[1]
    low = flint.fmpq(root.lower.numerator, root.lower.denominator)
    high = flint.fmpq(root.upper.numerator, root.upper.denominator)
    x = next((r for factor, _ in flint.fmpz_poly([int(c) for c in reversed(base.all_coeffs())]).factor()[1]
              for r in isolate(factor) if r.compare_rational(low) > 0 and r.compare_rational(high) < 0), None)
    if x is None:
        return None
    gens = [P] + [sp.Symbol(z, real=True) for z in branch.free]
    plane = Plane(tuple(str(g) for g in gens))
    atoms = [a for expr, rel in conditions for a in _plane_atoms(plane, gens, *_fraction(expr), rel)]
    try:
        return Decision.TRUE if plane.satisfiable_above(("and", atoms), x) else Decision.FALSE
    except (LimitError, OverflowError):   # OverflowError: python-flint's multivariate factoring of large coefficients
        return None


#: the largest total degree of a condition :func:`exact_at_value` hands to the plane CAD (a size, not a time: the
#: projection's resultants grow as products of degrees)
EXACT_VALUE_MAX_DEGREE = 16


def exact_at_value(branch: CaseBranch, P: sp.Symbol, value: sp.Rational) -> Decision | None:
    """The branch's conditions at a rational parameter value, decided in exact arithmetic when one or two variables
    are free: the conditions become polynomials in the free variables and the plane CAD decides whether some point
    satisfies them all (:meth:`symgame.model.cad.Plane.satisfiable`; no timeout). ``None`` when more variables
    are free, a condition has a square root or a total degree above :data:`EXACT_VALUE_MAX_DEGREE`, or the CAD's
    size limits are reached: the caller decides otherwise.

    Parameters
    ----------
    branch : CaseBranch
        The branch.
    P : sympy symbol
        The parameter.
    value : sympy Rational
        A rational value of the parameter.

    Returns
    -------
    Decision or None

    Examples
    --------
    At ``P = 2`` the circle ``x^2 + y^2 = P`` meets the line ``x = y`` (at ``(1, 1)`` and ``(-1, -1)``), and
    ``x + y`` is at most 2 on it, so never above:

    >>> import sympy as sp
    >>> P, x, y = sp.symbols("P x y", real=True)
    >>> circle = (x**2 + y**2 - P, "==")
    >>> branch = CaseBranch("II", None, (("x", x), ("y", y)), ("x", "y"), (circle, (x - y, "==")))
    >>> exact_at_value(branch, P, sp.Integer(2))
    <Decision.TRUE: 'true'>
    >>> exact_at_value(CaseBranch("II", None, (("x", x), ("y", y)), ("x", "y"), (circle, (x + y - 2, ">"))),
    ...                P, sp.Integer(2))
    <Decision.FALSE: 'false'>
    """

    from ..errors import LimitError
    from ..model.cad import Plane

    conditions = realness_conditions(branch) + list(branch.conditions)
    if not 1 <= len(branch.free) <= 2 or any(has_sqrt(e) for e, _ in conditions):
        return None
    gens = [sp.Symbol(z, real=True) for z in branch.free]
    plane = Plane(tuple(branch.free))
    atoms: list = []
    for expr, rel in conditions:
        num, den = _fraction(expr)
        num, den = sp.expand(num.subs(P, value)), sp.expand(den.subs(P, value))
        if den == 0:
            return Decision.FALSE          # the formula does not define a profile at this value
        if num.is_number and den.is_number:
            if not _number_holds(num / den, rel):
                return Decision.FALSE
            continue
        atoms += _plane_atoms(plane, gens, num, den, rel)
    if not atoms:
        return Decision.TRUE
    if any(a[1].total_degree() > EXACT_VALUE_MAX_DEGREE for a in atoms):
        return None
    try:
        return Decision.TRUE if plane.satisfiable(("and", atoms))[0] else Decision.FALSE
    except (LimitError, OverflowError):   # OverflowError: python-flint's multivariate factoring of large coefficients
        return None


def _plane_atoms(plane, gens: list, num: sp.Expr, den: sp.Expr, rel: str) -> list:
    """The plane CAD's atoms for ``num / den rel 0``: ``den != 0`` and ``num * den rel 0`` where the denominator
    has variables, else ``num * sign(den) rel 0``."""
    import flint

    def poly(expr: sp.Expr):
        q = sp.Poly(sp.expand(expr), *gens, domain=sp.QQ)
        return plane.ctx.from_dict({m: flint.fmpq(int(c.numerator), int(c.denominator)) for m, c in q.terms()})

    if den.free_symbols:
        return [("atom", poly(den), "!="), ("atom", poly(num * den), rel)]
    return [("atom", poly(num * sp.sign(den)), rel)]


@functools.lru_cache(maxsize=4096)
def _fraction(expr: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """``expr`` as numerator and denominator (sympy's ``together``), computed once per expression."""
    return sp.fraction(sp.together(expr))


def _number_holds(value: sp.Expr, rel: str) -> bool:
    if value.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
        return False  # a denominator vanishes here: the formula does not define a profile
    if value.has(sp.I):
        real, imaginary = sp.expand(value).as_real_imag()
        if sp.radsimp(imaginary) != 0:
            return False  # a square root of a negative number here: the formula does not define a real profile
        value = real
    sign = int(sp.sign(sp.radsimp(value))) if not value.is_Rational else int(sp.sign(value))
    return {">": sign > 0, ">=": sign >= 0, "==": sign == 0, "!=": sign != 0}[rel]


def _merge(cells: Sequence[Cell], truth: Sequence[bool]) -> list[ParamInterval]:
    out: list[ParamInterval] = []
    start: tuple[Endpoint | None, bool] | None = None
    last: tuple[Endpoint | None, bool] = (None, False)
    for cell, ok in zip(cells, truth):
        if ok and start is None:
            start = (cell.point, True) if cell.point is not None else (cell.left, False)
        if ok:
            last = (cell.point, True) if cell.point is not None else (cell.right, False)
        if not ok and start is not None:
            assert start[0] is not None
            out.append(ParamInterval(start[0], start[1], last[0], last[1]))
            start = None
    if start is not None:
        assert start[0] is not None
        out.append(ParamInterval(start[0], start[1], last[0], last[1] if last[0] is not None else False))
    return out


# --------------------------------------------------------------------------- exact endpoints

def algebraic_endpoint(value: sp.Expr, P: sp.Symbol) -> Endpoint:
    """The :class:`Endpoint` of a real algebraic number given in closed form (e.g. ``(3+sqrt(97))/4``)."""
    value = sp.nsimplify(value) if isinstance(value, float) else sp.sympify(value)
    if value.is_Rational:
        return rational_endpoint(Fraction(int(value.p), int(value.q)), P)
    poly = sp.Poly(sp.minimal_polynomial(value, P), P, domain="QQ")
    approx = sp.N(value, 40)
    for (a, b), _ in poly.intervals(eps=Fraction(1, 10**12)):
        if sp.Rational(a) <= approx <= sp.Rational(b):
            return Endpoint(sp.radsimp(value), poly.as_expr(), Fraction(int(a.p), int(a.q)),
                            Fraction(int(b.p), int(b.q)))
    raise ValueError(f"{value} is not a real algebraic number")  # pragma: no cover


def compare_endpoints(x: Endpoint, y: Endpoint) -> int:
    """Exact sign of ``x - y``."""
    if x.upper < y.lower:
        return -1
    if y.upper < x.lower:
        return 1
    if _same(x, y):
        return 0
    return int(sp.sign(sp.N(x.value - y.value, 50)))  # distinct algebraic numbers: a nonzero sign


def denominator_zeros(branch: CaseBranch, param: Parameter) -> list[sp.Expr]:
    """Parameter values in the domain where a denominator of the branch's formulas vanishes.

    The branch gives no profile there; the range derivation excludes these
    values, and the atlas reports them so that they are not passed over.
    """
    P = param.symbol
    zeros: list[sp.Expr] = []
    for _, expr in branch.values:
        den = sp.fraction(sp.together(expr))[1]
        if den.free_symbols != {P}:
            continue
        for root in sp.Poly(den, P).real_roots():
            if root not in zeros and in_domain(param, root):
                zeros.append(root)
    return sorted(zeros, key=float)


# --------------------------------------------------------------------------- inner ranges

def linearizing_set(branch: CaseBranch) -> tuple[str, ...]:
    """Free variables whose fixing leaves every condition linear in the others (greedy cover of the monomials
    of degree two or more in the free variables: a square needs its variable, a product one of its two).

    Examples
    --------
    >>> import sympy as sp
    >>> a, b, c, p = (sp.Symbol(n, real=True) for n in "abcp")
    >>> branch = CaseBranch("I", None, (), ("a", "b", "c"), ((a * b - p, ">"), (b * c + a, ">="), (c, ">=")))
    >>> linearizing_set(branch)
    ('b',)
    """
    free = [sp.Symbol(z, real=True) for z in branch.free]
    products: list[frozenset] = []
    for expr, _ in branch.conditions:
        num, den = sp.fraction(sp.together(expr))
        whole = sp.expand(num * den)
        if whole.free_symbols & set(free):
            products += [frozenset(z for z, k in zip(free, m) if k) for m in sp.Poly(whole, *free).monoms()
                         if sum(m) >= 2]
    chosen: list[sp.Symbol] = []
    while products:
        counts: dict[sp.Symbol, int] = {}
        for s in products:
            for z in s:
                counts[z] = counts.get(z, 0) + (len(products) if len(s) == 1 else 1)   # squares first
        z = max(free, key=lambda v: (counts.get(v, 0), -free.index(v)))
        chosen.append(z)
        products = [s for s in products if z not in s]
    return tuple(str(z) for z in free if z in chosen)


def tied_free(branch: CaseBranch) -> tuple[str, ...]:
    """The free variable an equation among the conditions ties (empty when none): the last free variable that
    appears in an equation (an algebraic family's primitive unknown comes last,
    :func:`~symgame.engine.fibres.fibre_branch`). Fixing the other free variables leaves it a root of the
    equation.

    Parameters
    ----------
    branch : CaseBranch
        The branch.

    Returns
    -------
    tuple of str

    Examples
    --------
    >>> import sympy as sp
    >>> a, b, p = (sp.Symbol(n, real=True) for n in "abp")
    >>> tied_free(CaseBranch("I", None, (), ("a", "b"), ((a**2 - p, "=="), (b, ">="))))
    ('a',)
    >>> tied_free(CaseBranch("I", None, (), ("b", "a"), ((a**2 - p * b, "=="), (b, ">="))))
    ('a',)
    """
    tied = [z for z in branch.free if any(rel == "==" and sp.Symbol(z, real=True) in e.free_symbols
                                          for e, rel in branch.conditions)]
    return tuple(tied[-1:])


def sub_branch_fixing(branch: CaseBranch) -> tuple[str, ...]:
    """The free variables a sub-branch fixes: every one but the tied ones (:func:`tied_free`), whose range is then
    exact by the equational projection, or else :func:`linearizing_set`.

    Parameters
    ----------
    branch : CaseBranch
        The branch.

    Returns
    -------
    tuple of str

    Examples
    --------
    >>> import sympy as sp
    >>> a, b, p = (sp.Symbol(n, real=True) for n in "abp")
    >>> sub_branch_fixing(CaseBranch("I", None, (), ("b", "a"), ((a**2 - p * b, "=="), (b, ">="))))
    ('b',)
    >>> sub_branch_fixing(CaseBranch("I", None, (), ("a", "b"), ((a * b - p, ">"), (b, ">="))))
    ('a',)
    """
    tied = tied_free(branch)
    return tuple(z for z in branch.free if z not in tied) if tied else linearizing_set(branch)


def fix_free(branch: CaseBranch, values: dict[str, sp.Expr]) -> CaseBranch | None:
    """The sub-branch with some free variables fixed (``None`` when a condition then fails as a number)."""
    subs = {sp.Symbol(z, real=True): v for z, v in values.items()}
    conditions = []
    for expr, rel in branch.conditions:
        e = sp.factor(sp.cancel(sp.together(sp.sympify(expr).subs(subs))))
        if e.is_number:
            if e.has(sp.zoo, sp.nan) or not {">": e > 0, ">=": e >= 0, "==": e == 0}[rel]:
                return None
            continue
        conditions.append((e, rel))
    kept = tuple(z for z in branch.free if z not in values)
    return CaseBranch(branch.case, branch.point, tuple((x, sp.sympify(e).subs(subs)) for x, e in branch.values),
                      kept, tuple(conditions))


@dataclass(frozen=True)
class InnerRange:
    """Intervals where a branch is proved nonempty through sub-branches whose conditions are all linear in
    their free variables (so each sub-branch's range is exact), and the sub-branches' fixed values."""

    intervals: tuple[ParamInterval, ...]
    fixed: tuple[tuple[Fraction, dict[str, sp.Expr]], ...]


def inner_range(branch: CaseBranch, param: Parameter, samples: Sequence[Fraction],
                choose: Callable[[Fraction], dict[str, sp.Expr] | None], timeout_ms: int = 20_000,
                fixing: Sequence[str] | None = None) -> InnerRange:
    """Parameter intervals on which ``branch`` is proved nonempty, when its own range cannot be derived.

    At each sample value not yet covered, ``choose`` gives values of every free variable there (a point of the
    branch, e.g. z3's); the variables of :func:`sub_branch_fixing` are fixed at those values, the sub-branch is
    linear in the rest (or has one free variable tied by an equation), so its range is exact (:func:`branch_range`, complete), and every profile of it is a
    profile of the branch. The union of these ranges is where the branch is proved nonempty: an inner bound of
    its range, not its range.

    Parameters
    ----------
    branch : CaseBranch
        The branch.
    param : Parameter
        The parameter and its domain.
    samples : sequence of Fraction
        Parameter values to start sub-branches from, in order.
    choose : callable
        ``value -> {free variable: exact value}`` or ``None``.
    timeout_ms : int
        z3's budget per cell of a sub-branch's range.
    fixing : sequence of str, optional
        The free variables to fix (default :func:`sub_branch_fixing`); a sub-branch whose range is not complete
        adds nothing.

    Returns
    -------
    InnerRange

    Examples
    --------
    >>> import sympy as sp
    >>> a, b, p = (sp.Symbol(n, real=True) for n in "abp")
    >>> branch = CaseBranch("I", None, (("a", a), ("b", b)), ("a", "b"),
    ...                     ((a * b - p, ">"), (a, ">="), (1 - a, ">="), (b, ">="), (1 - b, ">=")))
    >>> from symgame.model.parameters import parse_domain
    >>> found = inner_range(branch, parse_domain("p", "[0, 2]"), [sp.Rational(1, 2)],
    ...                     lambda v: {"a": sp.Rational(3, 4), "b": sp.Rational(3, 4)})
    >>> [iv.text("p") for iv in found.intervals]
    ['0 <= p < 3/4']
    """
    fixing = sub_branch_fixing(branch) if fixing is None else tuple(fixing)
    intervals: list[ParamInterval] = []
    fixed = []
    for value in samples:
        if any(iv.contains(Fraction(value)) for iv in intervals):
            continue
        chosen = choose(Fraction(value))
        if chosen is None:
            continue
        sub = fix_free(branch, {z: chosen[z] for z in fixing})
        if sub is None:
            continue
        r = branch_range(sub, param, timeout_ms)
        if not r.complete or r.undecided_cells:
            continue
        intervals += r.intervals
        fixed.append((Fraction(value), {z: chosen[z] for z in fixing}))
    return InnerRange(tuple(_union(intervals)), tuple(fixed))


def _union(intervals: Sequence[ParamInterval]) -> list[ParamInterval]:
    """Overlapping or touching intervals merged (exact endpoint comparisons)."""
    out: list[ParamInterval] = []
    for iv in sorted(intervals, key=lambda i: (i.lower.lower, i.lower.upper)):
        if out:
            last = out[-1]
            c = -1 if last.upper is None else compare_endpoints(iv.lower, last.upper)
            if c < 0 or (c == 0 and (iv.lower_closed or last.upper_closed)):
                if last.upper is None or iv.upper is None:
                    upper, closed = None, False
                else:
                    d = compare_endpoints(iv.upper, last.upper)
                    upper, closed = (iv.upper, iv.upper_closed) if d > 0 else \
                        (last.upper, last.upper_closed or (d == 0 and iv.upper_closed))
                out[-1] = ParamInterval(last.lower, last.lower_closed, upper, closed)
                continue
        out.append(iv)
    return out
