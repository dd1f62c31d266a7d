"""Checking equilibria of polynomial games: exact regret and whole-range certificates.

This is the checker beside the case-splitting solver (cf. SymPy's
``checkodesol``).  It uses only the payoffs of the game, never the sign
conditions the solver derived:

* :func:`exact_regret` evaluates, at one exact parameter value, every
  player's gain from moving to each vertex of her own strategy box (for
  payoffs that are multilinear in a player's own variables the best
  deviation is at a vertex, so zero gain everywhere means a Nash
  equilibrium);
* :func:`certify_profile_set` proves with z3 that *every* profile of a
  family is an equilibrium for *every* parameter value of an interval:
  the formula "parameter in the interval, profile in the family, and some
  frequency outside ``[0, 1]`` or some vertex deviation gains" must be
  unsatisfiable.  A denominator of a formula that vanishes inside the
  interval is a separate failure.  :func:`certify_nonempty` proves that the
  family has a member at every parameter value of the interval.

Intervals have exact algebraic endpoints (a defining polynomial and an
isolating rational interval), encoded as such: no rounding anywhere.
"""
from __future__ import annotations

import itertools
import time
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Mapping, Sequence

import sympy as sp

from ..engine.parametric import CaseBranch
from ..engine.ranges import Endpoint, ParamInterval, branch_range, compare_endpoints
from ..engine.z3terms import Z3Encoder, monomials_term, polynomial_term
from ..errors import InputError
from ..model.decide import Decision
from ..model.polygame import PolynomialGame
from ..model.z3env import z3

if TYPE_CHECKING:
    from ..engine.algebraic import NumberField

CERTIFY_TIMEOUT_MS = 60_000
QUANTIFIED_TIMEOUT_MS = 5_000


class NotMultilinear(InputError):
    """A payoff is not multilinear in its owner's variables (vertex checks would be unsound)."""


@dataclass(frozen=True)
class ProfileSet:
    """A set of profiles over a parameter interval.

    Attributes
    ----------
    values : tuple of (name, expr)
        Every variable of the game: a number, a formula in the parameter
        (possibly with square roots) and the free variables.
    free : tuple of str
        Variables that range over the set.
    constraints : tuple of (expr, rel)
        ``expr rel 0`` (``rel`` in ``>``, ``>=``, ``==``) defining the set.
    """

    values: tuple[tuple[str, sp.Expr], ...]
    free: tuple[str, ...]
    constraints: tuple[tuple[sp.Expr, str], ...]

    @classmethod
    def from_branch(cls, branch: CaseBranch) -> "ProfileSet":
        return cls(branch.values, branch.free, branch.conditions)


@dataclass(frozen=True)
class ExactRegret:
    """Largest gain of each player over the vertices of her own box, exactly."""

    gains: tuple[sp.Expr, ...]
    in_box: bool
    #: the exact signs of ``gains`` when they were decided in a number field (:func:`exact_regret_in_field`)
    signs: tuple[int, ...] | None = None

    @property
    def is_nash(self) -> bool:
        if self.signs is not None:
            return self.in_box and all(s <= 0 for s in self.signs)
        return self.in_box and all(sign_of(g) <= 0 for g in self.gains)


@dataclass(frozen=True)
class FamilyCertificate:
    """Outcome of one z3 proof attempt.

    ``decision`` is TRUE when the claim is proved, FALSE when it is refuted
    (``counterexample`` then holds a parameter value and profile), and
    UNDECIDED when z3 gave up within its budget.
    """

    claim: str
    decision: Decision
    counterexample: dict[str, str] | None
    seconds: float
    method: str = "z3"


# --------------------------------------------------------------------------- exact regret

def check_multilinear(game: PolynomialGame) -> None:
    """Raise :class:`NotMultilinear` unless each payoff has degree <= 1 in every own variable."""
    for k, player in enumerate(game.players):
        poly = game.payoff_poly(k)
        for v in player.variables:
            if poly.degree(game.symbol(v)) > 1:
                raise NotMultilinear(f"payoff of player {player.name!r} is not linear in its own "
                                     f"variable {v!r}; vertex deviations would not be the best ones")


@lru_cache(maxsize=32)
def _vertex_payoffs(game: PolynomialGame) -> tuple[tuple[sp.Expr, ...], ...]:
    """For each player, her payoff with her own variables at each vertex of her box."""
    check_multilinear(game)
    out = []
    for player in game.players:
        own = [game.symbol(v) for v in player.variables]
        out.append(tuple(sp.expand(player.payoff.subs(dict(zip(own, vertex))))
                         for vertex in itertools.product((0, 1), repeat=len(own))))
    return tuple(out)


def sign_of(value: sp.Expr) -> int:
    """Exact sign of a real number given by radicals (expanded to a canonical form first)."""
    v = sp.radsimp(sp.expand(value))
    if v == 0:
        return 0
    if v.is_Rational:
        return int(sp.sign(v))
    # a nonzero algebraic number: its sign is that of a numerical value with enough digits
    return int(sp.sign(sp.N(v, 50)))


@lru_cache(maxsize=32)
def _payoff_terms(game: PolynomialGame) -> tuple[tuple[tuple[tuple[int, ...], Fraction], ...], ...]:
    """Each player's payoff as ``((exponents over game.generators), coefficient)`` terms, exact."""
    check_multilinear(game)
    out = []
    for k in range(len(game.players)):
        poly = game.payoff_poly(k)
        out.append(tuple((monomial, Fraction(int(c.numerator), int(c.denominator)))
                         for monomial, c in poly.terms()))
    return tuple(out)


def _own_payoffs(game: PolynomialGame, point: Sequence, one, multiply):
    """For each player, her payoff at ``point`` and at every vertex of her own box: the payoff restricted to her
    own variables (the others' values multiplied in), then summed per vertex. ``point`` holds the values of
    ``game.variables`` then ``game.parameter_names``; ``one(coefficient)`` makes a coefficient a value and
    ``multiply(value, i, e)`` multiplies a value by the ``e``-th power of ``point[i]`` (in any exact arithmetic
    with ``+``: rationals, or polynomials reduced modulo a minimal polynomial)."""
    names = list(game.variables) + list(game.parameter_names)
    zero = one(Fraction(0))
    for player, terms in zip(game.players, _payoff_terms(game)):
        own = [names.index(v) for v in player.variables]
        own_set = set(own)
        restricted: dict = {}                          # monomials in own variables -> coefficient
        base = zero
        for monomial, coefficient in terms:
            value = one(coefficient)
            for i, e in enumerate(monomial):
                if e and i not in own_set:
                    value = multiply(value, i, e)
            if value == zero:
                continue
            key = tuple(monomial[i] for i in own)
            restricted[key] = restricted.get(key, zero) + value
            own_value = value
            for i in own:
                if monomial[i]:
                    own_value = multiply(own_value, i, monomial[i])
            base = base + own_value
        vertices = []
        for vertex in itertools.product((0, 1), repeat=len(own)):
            total = zero
            for key, c in restricted.items():
                if all(v or not e for v, e in zip(vertex, key)):
                    total = total + c
            vertices.append(total)
        yield base, vertices


def _rational_regret(game: PolynomialGame, values: Mapping[str, Fraction]) -> ExactRegret:
    """:func:`exact_regret` when every value is rational: the payoffs are restricted to each player's own
    variables in exact rational arithmetic and evaluated at every vertex of her box (same gains, ~100x faster
    than substituting into sympy expressions)."""
    import flint

    names = list(game.variables) + list(game.parameter_names)
    # python-flint's rationals (exact, as Fraction, about 5 times faster here)
    point = [flint.fmpq(values[n].numerator, values[n].denominator) for n in names]
    in_box = all(0 <= values[x] <= 1 for x in game.variables)
    gains = []
    for base, vertices in _own_payoffs(game, point, lambda c: flint.fmpq(c.numerator, c.denominator),
                                       lambda value, i, e: value * point[i] ** e):
        gain = max(vertices) - base
        gains.append(sp.Rational(int(gain.p), int(gain.q)))
    return ExactRegret(tuple(gains), in_box)


def exact_regret(game: PolynomialGame, profile: Mapping[str, sp.Expr],
                 params: Mapping[str, sp.Expr]) -> ExactRegret:
    """Every player's best vertex-deviation gain at ``profile`` and ``params`` (exact)."""
    subs = {game.symbol(k): sp.sympify(v) for k, v in params.items()}
    subs.update({game.symbol(x): sp.sympify(profile[x]) for x in game.variables})
    complete = all(game.symbol(n) in subs for n in game.parameter_names)
    if all(isinstance(v, sp.Rational) for v in subs.values()) and complete:
        return _rational_regret(game, {str(k): Fraction(int(v.p), int(v.q)) for k, v in subs.items()})
    if complete and any(v.has(sp.CRootOf) for v in subs.values()):
        found = field_of(list(subs.values()))
        if found is not None:
            field, polys = found
            values = dict(zip((str(k) for k in subs), polys))
            return exact_regret_in_field(game, field, {x: values[x] for x in game.variables},
                                         {n: values[n] for n in game.parameter_names})
    in_box = all(sign_of(subs[game.symbol(x)]) >= 0 and sign_of(1 - subs[game.symbol(x)]) >= 0
                 for x in game.variables)
    gains = []
    for player, vertices in zip(game.players, _vertex_payoffs(game)):
        base = player.payoff.subs(subs)
        best = max((sp.radsimp(sp.expand(v.subs(subs) - base)) for v in vertices),
                   key=lambda g: (sign_of(g), float(sp.N(g, 30))))
        gains.append(best)
    return ExactRegret(tuple(gains), in_box)


def field_of(values: Sequence[sp.Expr]) -> "tuple[NumberField, list[sp.Poly]] | None":
    """One number field holding every value, with each value as a polynomial in its generator, or ``None``.

    Handles values that are polynomials with rational coefficients in a single real ``CRootOf`` (the
    witnesses of an algebraic family: a root of a cubic and the other frequencies polynomials in it); anything
    else (several roots, square roots beside a root) gives ``None``.

    Parameters
    ----------
    values : sequence of sympy.Expr
        Exact real numbers.

    Returns
    -------
    tuple of (NumberField, list of sympy.Poly) or None
        The field ``Q(alpha)`` (``alpha`` the root, its minimal polynomial and an isolating interval) and
        each value reduced modulo the minimal polynomial, in the generator ``_T`` of
        :mod:`symgame.engine.algebraic`.

    Examples
    --------
    >>> import sympy as sp
    >>> r = sp.CRootOf(sp.Symbol("x")**3 - 3*sp.Symbol("x") + 1, 2)
    >>> field, polys = field_of([r**3, sp.Rational(1, 2)])
    >>> field.degree, [p.as_expr() for p in polys]
    (3, [3*_T - 1, 1/2])
    """
    from sympy.polys.polyerrors import CoercionFailed

    from ..engine.algebraic import _T, NumberField

    roots = set().union(*(v.atoms(sp.CRootOf) for v in values))
    if len(roots) != 1:
        return None
    root = roots.pop()
    if not root.is_real:
        return None
    minpoly = sp.Poly(root.poly.as_expr(), *root.poly.gens).monic()
    minpoly = sp.Poly(minpoly.as_expr().subs(minpoly.gens[0], _T), _T, domain=sp.QQ)
    if not minpoly.is_irreducible:
        return None
    # the isolating interval computed afresh from the polynomial (a CRootOf's own interval depends on how far
    # sympy's shared cache has refined it: the text written would depend on the process's history)
    real = minpoly.intervals()
    if not 0 <= root.index < len(real):
        return None
    low, high = (Fraction(int(sp.Rational(e).p), int(sp.Rational(e).q)) for e in real[root.index][0])
    if minpoly.eval(sp.Rational(low)) == 0 or minpoly.eval(sp.Rational(high)) == 0 or \
            minpoly.count_roots(sp.Rational(low), sp.Rational(high)) != 1:
        return None
    field = NumberField(minpoly, low, high)
    polys = []
    for v in values:
        try:
            poly = sp.Poly(sp.expand(v.subs(root, _T)), _T, domain=sp.QQ)   # (expand may rebuild the root)
        except (sp.PolynomialError, CoercionFailed):
            return None
        if poly.free_symbols - {_T}:
            return None
        polys.append(poly.rem(minpoly))
    return field, polys


def exact_regret_in_field(game: PolynomialGame, field: "NumberField", profile: Mapping[str, sp.Poly],
                          params: Mapping[str, sp.Poly]) -> ExactRegret:
    """:func:`exact_regret` at a profile whose coordinates lie in a number field ``Q(alpha)``.

    Each payoff is restricted to its player's own variables in ``Q(alpha)`` (FLINT polynomials reduced modulo
    the minimal polynomial), evaluated at every vertex of her box, and the best vertex is chosen by exact sign
    decisions (:meth:`~symgame.engine.algebraic.NumberField.sign`: zero tested exactly, nonzero signs by
    certified ball arithmetic and bisection). So a gain is 0 exactly when it is 0, never "small".

    Parameters
    ----------
    game : PolynomialGame
        Payoffs multilinear in each player's own variables.
    field : NumberField
        ``Q(alpha)``.
    profile, params : mapping of str to sympy.Poly
        Every variable and every parameter as a polynomial in the field's generator ``_T``.

    Returns
    -------
    ExactRegret
        Gains as exact sympy numbers, with their exact signs in ``signs``.

    Raises
    ------
    NotMultilinear
        When a payoff is not multilinear in its owner's variables.

    Examples
    --------
    Matching pennies scaled by the root ``alpha`` of ``x^3 - 3x + 1`` in (0, 1): every profile at 1/2 is an
    equilibrium, and a player at ``alpha`` (not 1/2) leaves her opponent a positive gain:

    >>> import sympy as sp
    >>> from fractions import Fraction
    >>> from symgame.engine.algebraic import NumberField, _T
    >>> from symgame.model.parameters import parse_domain
    >>> from symgame.model.polygame import PolynomialGame, PolyPlayer
    >>> a, b, t = (sp.Symbol(n, real=True) for n in "abt")
    >>> pay = t * (2*a - 1) * (2*b - 1)
    >>> game = PolynomialGame("pennies", (parse_domain("t", "[1, 2]"),),
    ...                       (PolyPlayer("A", ("a",), sp.expand(pay)), PolyPlayer("B", ("b",), sp.expand(-pay))))
    >>> field = NumberField(sp.Poly(_T**3 - 3*_T + 1, _T, domain=sp.QQ), Fraction(0), Fraction(1))
    >>> def q(e): return sp.Poly(e, _T, domain=sp.QQ)
    >>> exact_regret_in_field(game, field, {"a": q(sp.Rational(1, 2)), "b": q(sp.Rational(1, 2))},
    ...                       {"t": q(_T + 1)}).is_nash
    True
    >>> exact_regret_in_field(game, field, {"a": q(_T), "b": q(sp.Rational(1, 2))}, {"t": q(_T + 1)}).signs
    (0, 1)
    """
    import flint

    from ..engine.algebraic import Algebraic

    modulus = flint.fmpq_poly([int(c) if c.is_Integer else flint.fmpq(int(c.p), int(c.q))
                               for c in reversed(field.minpoly.all_coeffs())])

    def to_flint(poly: sp.Poly) -> "flint.fmpq_poly":
        coeffs = [sp.Rational(c) for c in reversed(poly.all_coeffs())] if not poly.is_zero else [sp.Rational(0)]
        return flint.fmpq_poly([flint.fmpq(int(c.p), int(c.q)) for c in coeffs]) % modulus

    def to_sympy(element: "flint.fmpq_poly") -> sp.Poly:
        coeffs = [Fraction(int(c.p), int(c.q)) for c in element.coeffs()]
        return sp.Poly(sum((sp.Rational(c) * _T ** k for k, c in enumerate(coeffs)), sp.Integer(0)), _T,
                       domain=sp.QQ)

    from ..engine.algebraic import _T

    names = list(game.variables) + list(game.parameter_names)
    point = [to_flint(profile[n]) if n in profile else to_flint(params[n]) for n in names]
    in_box = all(field.sign(to_sympy(point[names.index(x)])) >= 0 and
                 field.sign(to_sympy(flint.fmpq_poly([1]) - point[names.index(x)])) >= 0 for x in game.variables)
    powers: dict[tuple[int, int], "flint.fmpq_poly"] = {}

    def multiply(value: "flint.fmpq_poly", i: int, e: int) -> "flint.fmpq_poly":
        if (i, e) not in powers:
            powers[(i, e)] = (point[i] ** e) % modulus
        return (value * powers[(i, e)]) % modulus

    def one(c: Fraction) -> "flint.fmpq_poly":
        return flint.fmpq_poly([flint.fmpq(c.numerator, c.denominator)])

    gains, signs = [], []
    for base, vertices in _own_payoffs(game, point, one, multiply):
        best = vertices[0]
        for total in vertices[1:]:
            if total != best and field.sign(to_sympy(total - best)) > 0:
                best = total
        gain = to_sympy(best - base)
        gains.append(Algebraic(field, gain).expr())
        signs.append(field.sign(gain))
    return ExactRegret(tuple(gains), in_box, tuple(signs))


# --------------------------------------------------------------------------- z3 encodings

def interval_membership(enc: Z3Encoder, P: z3.ArithRef, interval: ParamInterval) -> list[z3.BoolRef]:
    """``P`` in ``interval``; algebraic endpoints enter through their polynomial and isolating box."""
    out = []
    lo = endpoint_term(enc, interval.lower, "lo")
    out += [P >= lo if interval.lower_closed else P > lo]
    if interval.upper is not None:
        hi = endpoint_term(enc, interval.upper, "hi")
        out += [P <= hi if interval.upper_closed else P < hi]
    return out


def endpoint_term(enc: Z3Encoder, point: Endpoint, tag: str) -> z3.ArithRef:
    if point.is_rational:
        return z3.RealVal(f"{point.lower.numerator}/{point.lower.denominator}")
    e = z3.Real(f"endpoint_{tag}_{len(enc.side)}")
    x = sp.Symbol("_endpoint_x")
    poly = sp.Poly(point.poly.subs(next(iter(point.poly.free_symbols)), x), x)
    enc.side.extend([
        polynomial_term(poly, [e]) == 0,
        e > z3.RealVal(f"{point.lower.numerator}/{point.lower.denominator}"),
        e < z3.RealVal(f"{point.upper.numerator}/{point.upper.denominator}"),
    ])
    return e


def _profile_terms(game: PolynomialGame, pset: ProfileSet, enc: Z3Encoder) -> tuple[dict, list]:
    """z3 variables for every frequency, tied to the family's formulas."""
    terms, ties = {}, []
    for x, expr in pset.values:
        if x in pset.free:
            terms[x] = enc.var(x)
            continue
        var = enc.var(f"value_{x}")
        terms[x] = var
        ties.append(enc.condition(sp.Symbol(f"value_{x}", real=True) - expr, "=="))
    return terms, ties


@dataclass
class FamilyEncoding:
    """z3 encoding of "the parameter lies in the intervals and the profile is in the family"."""

    enc: Z3Encoder
    P: z3.ArithRef
    base: list
    terms: dict
    ties: list


def encode_family(game: PolynomialGame, pset: ProfileSet, *intervals: ParamInterval) -> FamilyEncoding:
    enc = Z3Encoder()
    P = enc.var(game.parameter_names[0])
    base = [f for iv in intervals for f in interval_membership(enc, P, iv)]
    base += [enc.condition(e, r) for e, r in pset.constraints]
    terms, ties = _profile_terms(game, pset, enc)
    for x in pset.free:
        base += [terms[x] >= 0, terms[x] <= 1]
    return FamilyEncoding(enc, P, base, terms, ties)


def deviation_gains(game: PolynomialGame, terms: Mapping[str, z3.ArithRef], P: Mapping[str, z3.ArithRef]
                    ) -> list[tuple[str, z3.ArithRef]]:
    """``(label, E_i(vertex, others) - E_i(profile))`` for every player and vertex of her box."""
    check_multilinear(game)
    gens = game.generators
    position = {str(g): i for i, g in enumerate(gens)}
    out = []
    for k, player in enumerate(game.players):
        poly = game.payoff_poly(k)
        base_vars = [terms[str(g)] if str(g) in terms else P[str(g)] for g in gens]
        base = polynomial_term(poly, base_vars)
        for vertex in itertools.product((0, 1), repeat=len(player.variables)):
            pinned = dict(zip(player.variables, vertex))
            label = f"player {player.name} deviates to " + ", ".join(f"{x}={v}" for x, v in pinned.items())
            at_vertex = _pinned_monomials(poly, tuple((position[x], v) for x, v in pinned.items()))
            out.append((label, monomials_term(at_vertex, base_vars) - base))
    return out


@lru_cache(maxsize=1024)
def _pinned_monomials(poly: sp.Poly, pinned: tuple[tuple[int, int], ...]) -> tuple[tuple[tuple[int, ...], sp.Rational],
                                                                                    ...]:
    """The monomials of ``poly`` with the generators at the ``pinned`` positions set to 0 or 1, like ones merged
    (the same polynomial for every family of a game: computed once per player and vertex)."""
    merged: dict[tuple[int, ...], sp.Rational] = {}
    for monom, coeff in poly.terms():
        if any(value == 0 and monom[i] for i, value in pinned):
            continue
        reduced = list(monom)
        for i, _ in pinned:
            reduced[i] = 0
        key = tuple(reduced)
        merged[key] = merged.get(key, sp.Integer(0)) + sp.Rational(coeff)
    return tuple((m, c) for m, c in merged.items() if c != 0)


# --------------------------------------------------------------------------- certificates

def certify_profile_set(game: PolynomialGame, pset: ProfileSet, interval: ParamInterval,
                        timeout_ms: int = CERTIFY_TIMEOUT_MS) -> FamilyCertificate:
    """Prove that every profile of ``pset`` is an equilibrium at every parameter value of ``interval``.

    On failure the counterexample names a parameter value (rational when
    one exists near the one z3 found), the profile and the violated
    condition with its exact amount.
    """
    t0 = time.perf_counter()
    name = game.parameter_names[0]
    claim = "every profile of the family is an equilibrium on the interval"
    fam = encode_family(game, pset, interval)
    enc, P, base, terms, ties = fam.enc, fam.P, fam.base, fam.terms, fam.ties
    violations = [(f"{x} < 0", -terms[x]) for x in game.variables]
    violations += [(f"{x} > 1", terms[x] - 1) for x in game.variables]
    violations += deviation_gains(game, terms, {name: P})
    shown = [name] + list(pset.free) + [f"value_{x}" for x in game.variables if x not in pset.free]
    # 1. a denominator of a formula vanishing somewhere on the interval
    for x, expr in pset.values:
        den = sp.fraction(sp.together(expr))[1]
        if den.free_symbols - {game.symbol(name)} or den.is_number:
            continue
        vanish = [enc.condition(den, "==")]
        answer = _check(base + vanish + enc.side, timeout_ms)
        if answer[0] != z3.unsat:
            return _certificate(claim, answer, t0, enc, [name], f"the denominator {den} of {x} vanishes")
    # 2. a profile of the family out of the box or with a profitable deviation, one violation per
    #    query (nlsat is much faster on the pieces than on their disjunction)
    formulas = [z3.And(*base, *ties, *enc.side)]    # once: each query below then converts one assertion, not ~40
    undecided = None
    for label, amount in violations:
        answer = _check(formulas + [amount > 0], timeout_ms)
        if answer[0] == z3.sat:
            answer = _rational_parameter(formulas, [(label, amount)], P, answer, timeout_ms)
            value = answer[1].eval(amount, model_completion=True)
            return _certificate(claim, answer, t0, enc, shown, f"{label} (by {_show(value)})")
        if answer[0] != z3.unsat:
            undecided = answer
    return _certificate(claim, undecided or (z3.unsat, None), t0, enc, shown)


def _rational_parameter(formulas: list, violations: list, P: z3.ArithRef, answer, timeout_ms: int):
    """Prefer a counterexample at a simple rational parameter value near the one found."""
    value = answer[1].eval(P, model_completion=True)
    if z3.is_rational_value(value):
        return answer
    approx = Fraction(str(value.approx(20)).rstrip("?"))
    for den in (1, 2, 4, 10, 100, 10**4, 10**6):
        for cand in {approx.limit_denominator(den), Fraction(round(approx * den), den)}:
            pinned = _check(formulas + [P == z3.RealVal(f"{cand.numerator}/{cand.denominator}"),
                                        z3.Or([v > 0 for _, v in violations])], timeout_ms)
            if pinned[0] == z3.sat:
                return pinned
    return answer


def certify_nonempty(game: PolynomialGame, pset: ProfileSet, interval: ParamInterval,
                     timeout_ms: int = CERTIFY_TIMEOUT_MS, quantified_ms: int | None = None,
                     budget_is_error: bool = False) -> FamilyCertificate:
    """Prove that the family has a member at every parameter value of ``interval``.

    Without free variables this is quantifier free; with them the negation
    ``exists P in I, forall z: not constraints`` goes to z3's quantified
    nonlinear solver, which may give up (undecided). ``quantified_ms`` replaces its default budget
    (:data:`QUANTIFIED_TIMEOUT_MS`); with ``budget_is_error`` a query stopped by its wall-clock budget raises
    :class:`~symgame.errors.TimeLimitError` instead of going on to the cell method, so what a caller records
    never depends on the machine's speed (z3's resource limit does not stop these queries: see
    ``benchmarks/RESULTS.md``).
    """
    t0 = time.perf_counter()
    name = game.parameter_names[0]
    enc = Z3Encoder()
    P = enc.var(name)
    inside = interval_membership(enc, P, interval)
    conds = [enc.condition(e, r) for e, r in pset.constraints]
    free = [enc.var(z) for z in pset.free]
    conds += [c for z in free for c in (z >= 0, z <= 1)]
    # square roots depend on the parameter only, so their side conditions stay outside
    body = z3.Not(z3.And(conds)) if conds else z3.BoolVal(False)
    negation = z3.ForAll(free, body) if free else body
    budget = (quantified_ms or min(timeout_ms, QUANTIFIED_TIMEOUT_MS)) if free else timeout_ms
    answer = _check(inside + enc.side + [negation], budget, quantified=bool(free),
                    budget_is_error=budget_is_error)
    claim = "the family has a member at every parameter value of the interval"
    if answer[0] == z3.unknown and free:
        return _nonempty_by_cells(game, pset, interval, claim, t0, timeout_ms)
    return _certificate(claim, answer, t0, enc, [name])


def _nonempty_by_cells(game: PolynomialGame, pset: ProfileSet, interval: ParamInterval, claim: str,
                       t0: float, timeout_ms: int) -> FamilyCertificate:
    """Nonemptiness decided cell by cell (quantifier free at each sample and algebraic border point).

    The parameter line is cut at the real roots of the border polynomials of
    the constraints (after eliminating the free frequencies); on each cell
    the existence of a member does not change, so one exact existential
    query per cell decides it (the method of :mod:`symgame.engine.ranges`).
    """
    branch = CaseBranch("printed", None, pset.values, pset.free, pset.constraints)
    found = branch_range(branch, game.parameters[0], timeout_ms)
    if not found.complete or found.undecided_cells:
        return FamilyCertificate(claim, Decision.UNDECIDED, None, time.perf_counter() - t0, "cells")
    ok = any(interval_within(interval, iv) for iv in found.intervals)
    return FamilyCertificate(claim, Decision.TRUE if ok else Decision.FALSE, None, time.perf_counter() - t0, "cells")


def interval_within(inner: ParamInterval, outer: ParamInterval) -> bool:
    lo = compare_endpoints(inner.lower, outer.lower)
    if lo < 0 or (lo == 0 and inner.lower_closed and not outer.lower_closed):
        return False
    if outer.upper is None:
        return True
    if inner.upper is None:
        return False
    hi = compare_endpoints(inner.upper, outer.upper)
    return hi < 0 or (hi == 0 and not (inner.upper_closed and not outer.upper_closed))


def _check(formulas: Sequence[z3.BoolRef], timeout_ms: int, quantified: bool = False,
           budget_is_error: bool = False):
    solver = z3.SolverFor("NRA") if quantified else z3.SolverFor("QF_NRA")
    solver.set("timeout", timeout_ms)
    solver.add(*formulas)
    answer = solver.check()
    if budget_is_error and answer == z3.unknown and solver.reason_unknown() in ("timeout", "canceled"):
        from ..errors import TimeLimitError

        raise TimeLimitError(f"a z3 query ran past its budget of {timeout_ms / 1000:g} s; a result that would "
                             "depend on the machine's speed is not recorded")
    return answer, (solver.model() if answer == z3.sat else None)


def _certificate(claim: str, answer, t0: float, enc: Z3Encoder, names: Sequence[str],
                 reason: str = "") -> FamilyCertificate:
    result, model = answer
    if result == z3.unsat:
        return FamilyCertificate(claim, Decision.TRUE, None, time.perf_counter() - t0)
    if result != z3.sat:
        return FamilyCertificate(claim, Decision.UNDECIDED, None, time.perf_counter() - t0)
    example = {n.removeprefix("value_"): _show(model.eval(enc.var(n), model_completion=True))
               for n in names if n in enc.names}
    if reason:
        example["reason"] = reason
    return FamilyCertificate(claim, Decision.FALSE, example, time.perf_counter() - t0)


def _show(value: z3.ExprRef) -> str:
    if z3.is_rational_value(value):
        return str(sp.Rational(value.numerator_as_long(), value.denominator_as_long()))
    if z3.is_algebraic_value(value):
        return f"root of {value.poly()} near {value.approx(12)}"
    return str(value)


def membership(game: PolynomialGame, pset: ProfileSet, terms: Mapping[str, z3.ArithRef],
               enc: Z3Encoder) -> z3.BoolRef:
    """"The profile ``terms`` belongs to ``pset``" (``pset``'s free frequencies are the profile's own)."""
    rename = {game.symbol(x): sp.Symbol(str(terms[x]), real=True) for x in game.variables}
    key = tuple(rename.items())
    parts = []
    for x, expr in pset.values:
        if x not in pset.free:
            parts.append(enc.condition(rename[game.symbol(x)] - _renamed(expr, key), "=="))
    parts += [enc.condition(_renamed(e, key), r) for e, r in pset.constraints]
    return z3.And(parts) if parts else z3.BoolVal(True)


@lru_cache(maxsize=4096)
def _renamed(expr: sp.Expr, rename: tuple[tuple[sp.Symbol, sp.Symbol], ...]) -> sp.Expr:
    """``expr`` with the game's variables renamed to a family encoding's (the same few renamings recur for every
    family with the same free frequencies: a printed solution is checked against each of them). Symbols replaced
    all at once by ``xreplace`` (the encoding's names are not the game's)."""
    return expr.xreplace(dict(rename))


def certify_covered(game: PolynomialGame, pset: ProfileSet, interval: ParamInterval,
                    others: Sequence[tuple[ProfileSet, ParamInterval]],
                    timeout_ms: int = CERTIFY_TIMEOUT_MS) -> FamilyCertificate:
    """Prove that every profile of ``pset`` on ``interval`` lies in one of ``others`` (at the same parameter).

    Used to show that a paper lists every equilibrium of a family: a
    counterexample is a profile of the family the paper's sets miss.
    """
    t0 = time.perf_counter()
    name = game.parameter_names[0]
    fam = encode_family(game, pset, interval)
    enc, P, base, terms, ties = fam.enc, fam.P, fam.base, fam.terms, fam.ties
    outside = []
    for k, (other, iv) in enumerate(others):
        inside = interval_membership(enc, P, iv) if iv is not None else []
        outside.append(z3.Not(z3.And(inside + [membership(game, other, terms, enc)])))
    answer = _check(base + ties + outside + enc.side, timeout_ms)
    shown = [name] + list(pset.free) + [f"value_{x}" for x in game.variables if x not in pset.free]
    return _certificate("every profile of the family is among the given sets", answer, t0, enc, shown)


def certify_property(game: PolynomialGame, pset: ProfileSet, interval: ParamInterval, within: ParamInterval,
                     conditions: Sequence[tuple[sp.Expr, str]],
                     timeout_ms: int = CERTIFY_TIMEOUT_MS) -> FamilyCertificate:
    """Prove that every profile of ``pset`` on ``interval`` ∩ ``within`` satisfies ``conditions``.

    ``conditions`` are ``expr rel 0`` in the game's variables and parameter.
    """
    t0 = time.perf_counter()
    name = game.parameter_names[0]
    fam = encode_family(game, pset, interval, within)
    enc, P, base, terms, ties = fam.enc, fam.P, fam.base, fam.terms, fam.ties
    rename = {game.symbol(x): sp.Symbol(str(terms[x]), real=True) for x in game.variables}
    key = tuple(rename.items())
    wanted = [enc.condition(_renamed(e, key), r) for e, r in conditions]
    formulas = base + ties + enc.side
    answer = _check(formulas + [z3.Not(z3.And(wanted))], timeout_ms)
    if answer[0] == z3.sat:
        answer = _rational_parameter(formulas, [("", z3.If(z3.And(wanted), -1, 1))], P, answer, timeout_ms)
    shown = [name] + list(pset.free) + [f"value_{x}" for x in game.variables if x not in pset.free]
    return _certificate("every profile satisfies the stated conditions", answer, t0, enc, shown)
