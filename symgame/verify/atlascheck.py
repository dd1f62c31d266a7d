"""Checks of a derived atlas: certificates, subsumed families, coexistence, numeric cross-check.

* :func:`certify_atlas` proves each family member on each interval of its
  range (:func:`~symgame.verify.polycert.certify_profile_set` and
  :func:`~symgame.verify.polycert.certify_nonempty`).
* :func:`subsumed_families` finds families whose every profile belongs to
  another family (a boundary member found by a separate case, such as
  Billingham's Solution 1a with ``b3 = 0``).
* :func:`coexistence` counts the distinct families on every cell of the
  parameter line cut at all range endpoints.
* :func:`numeric_crosscheck` runs an independent numeric search (logit
  homotopy, :mod:`symgame.numeric.polygame`) at sample parameter values
  and checks that each equilibrium it finds lies in a family of the atlas
  valid there.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Mapping, Sequence

import numpy as np
import sympy as sp

from ..engine.atlas import Atlas, Family, SolvedBranch
from ..engine.ranges import Endpoint, ParamInterval, compare_endpoints
from ..model.decide import Decision
from ..numeric.polygame import numeric_equilibria
from .polycert import (
    FamilyCertificate,
    ProfileSet,
    certify_covered,
    certify_nonempty,
    certify_profile_set,
    interval_within,
)

NUMERIC_TOLERANCE = 1e-4


@dataclass(frozen=True)
class MemberCertificate:
    family: str
    case: str
    interval: ParamInterval
    sound: FamilyCertificate
    nonempty: FamilyCertificate

    @property
    def proved(self) -> bool:
        return self.sound.decision is Decision.TRUE and self.nonempty.decision is Decision.TRUE


def certify_atlas(atlas: Atlas) -> list[MemberCertificate]:
    """Whole-range z3 certificates for every member and interval of every family."""
    out = []
    for family in atlas.families:
        for member in family.members:
            pset = ProfileSet.from_branch(member.branch)
            for iv in member.range.intervals:
                out.append(MemberCertificate(family.ident, member.branch.case, iv,
                                             certify_profile_set(atlas.game, pset, iv),
                                             certify_nonempty(atlas.game, pset, iv)))
    return out


# --------------------------------------------------------------------------- subsumption

@dataclass(frozen=True)
class Subsumption:
    family: str
    within: str
    certificate: FamilyCertificate


def subsumed_families(atlas: Atlas) -> list[Subsumption]:
    """Families all of whose profiles (on all of their ranges) lie in one other family."""
    out: list[Subsumption] = []
    for a in atlas.families:
        for b in atlas.families:
            if a is b or b.ident in {s.family for s in out}:
                continue
            if not all(_inside_some(iv, b) for iv in a.intervals):
                continue
            others = [(ProfileSet.from_branch(m.branch), iv) for m in b.members for iv in m.range.intervals]
            proofs = [certify_covered(atlas.game, ProfileSet.from_branch(m.branch), iv, others)
                      for m in a.members for iv in m.range.intervals]
            if all(p.decision is Decision.TRUE for p in proofs):
                out.append(Subsumption(a.ident, b.ident, proofs[0]))
                break
    return out


def _inside_some(iv: ParamInterval, family: Family) -> bool:
    return any(interval_within(iv, other) for other in family.intervals)


# --------------------------------------------------------------------------- coexistence

@dataclass(frozen=True)
class CoexistenceCell:
    """A point or open interval of the parameter line and the families valid on all of it."""

    lower: Endpoint
    upper: Endpoint | None
    is_point: bool
    families: tuple[str, ...]


def coexistence(atlas: Atlas, hidden: Sequence[str] = ()) -> list[CoexistenceCell]:
    """Distinct families on every cell cut by the range endpoints (``hidden`` families skipped)."""
    families = [f for f in atlas.families if f.ident not in hidden]
    points: list[Endpoint] = []
    for f in families:
        for iv in f.intervals:
            for e in (iv.lower, iv.upper):
                if e is not None and not any(compare_endpoints(e, q) == 0 for q in points):
                    points.append(e)
    points.sort(key=lambda e: (float(e), e.lower))
    param = atlas.game.parameters[0]
    cells = []
    for k, p in enumerate(points):
        cells.append(CoexistenceCell(p, p, True, _valid_on(families, p, p, True)))
        nxt = points[k + 1] if k + 1 < len(points) else None
        if nxt is None and param.upper.is_finite:
            break  # the last endpoint is the end of the domain
        cells.append(CoexistenceCell(p, nxt, False, _valid_on(families, p, nxt, False)))
    return cells


def _valid_on(families: Sequence[Family], lo: Endpoint, hi: Endpoint | None, point: bool) -> tuple[str, ...]:
    cell = ParamInterval(lo, point, hi, point)
    return tuple(f.ident for f in families if any(interval_within(cell, iv) for iv in f.intervals))


# --------------------------------------------------------------------------- numeric cross-check

@dataclass(frozen=True)
class NumericMatch:
    """One numeric equilibrium at one parameter value and the atlas family it lies in (or None)."""

    parameter: Fraction
    profile: dict[str, float]
    regret: float
    family: str | None
    #: largest coordinate move of :func:`refine_point` when the point was located only after it (else 0)
    refined: float = 0.0


def numeric_crosscheck(atlas: Atlas, values: Sequence[Fraction], starts: int = 8,
                       seed: int = 0, refine: bool = False) -> list[NumericMatch]:
    """Numeric equilibria at each parameter value, each located in the atlas.

    Parameters
    ----------
    atlas : Atlas
    values : sequence of Fraction
        Parameter values; the ``k``-th is searched with seed ``seed + k``.
    starts : int
        Logit paths per value (:func:`~symgame.numeric.polygame.numeric_equilibria`).
    seed : int
    refine : bool
        Locate a point that lies in no family once more after :func:`refine_point` has moved it onto its case's
        equations (a logit end point near where components meet can be 1e-3 off all of them along flat
        directions while its regret is 1e-7).

    Returns
    -------
    list of NumericMatch
    """
    game = atlas.game
    name = game.parameter_names[0]
    out = []
    for k, value in enumerate(values):
        found = numeric_equilibria(game, {name: float(value)}, starts=starts, seed=seed + k)
        for eq in found:
            family, moved = locate(atlas, value, eq.profile, refine)
            out.append(NumericMatch(value, eq.profile, eq.regret, family, moved))
    return out


def locate(atlas: Atlas, value: Fraction, profile: Mapping[str, float], refine: bool = False
           ) -> tuple[str | None, float]:
    """The first family of ``atlas`` valid at ``value`` that holds a float profile (:func:`lies_in`).

    Parameters
    ----------
    atlas : Atlas
    value : Fraction
        The parameter value.
    profile : mapping
        Every variable's float value.
    refine : bool
        When no family holds the profile, try once more after :func:`refine_point`.

    Returns
    -------
    (str or None, float)
        The family's name (``None``: none holds it) and the largest coordinate move of :func:`refine_point` when
        the profile was located only after it (else 0).

    Examples
    --------
    Matching pennies with a pot ``P`` (one family, x = y = 2/(P + 3)): a point 3e-3 off it is located only once
    refined.

    >>> from symgame import load
    >>> from symgame.engine.atlas import build_atlas, serial_map
    >>> atlas = build_atlas(load("examples/pennies.yaml"), serial_map)
    >>> locate(atlas, Fraction(2), {"x": 0.403, "y": 0.4})
    (None, 0.0)
    >>> family, moved = locate(atlas, Fraction(2), {"x": 0.403, "y": 0.4}, refine=True)
    >>> family, round(moved, 9)
    ('F1', 0.003)
    """
    game = atlas.game
    members = atlas.members_at(value, every=True)
    family = next((f.ident for f, m in members if lies_in(game, m, value, profile)), None)
    if family is not None or not refine:
        return family, 0.0
    point = refine_point(game, atlas.structure, value, profile)
    family = None if point is None else next((f.ident for f, m in members if lies_in(game, m, value, point)), None)
    if family is None or point is None:
        return None, 0.0
    return family, max(abs(point[x] - float(profile[x])) for x in game.variables)


#: Gauss-Newton steps of :func:`refine_point`, the residual it must reach and the largest move it may make
#: (each coordinate).
REFINE_STEPS = 30
REFINE_RESIDUAL = 1e-12
REFINE_MOVE = 1e-2
#: Singular values of the Jacobian below this fraction of the largest count as zero in :func:`refine_point`'s
#: least-squares steps: near where two components of a case meet the Jacobian's rank drops numerically, and a
#: singular value of 1e-12 would send a step far along the other component (kuhn3, a point at P = 22/5: 0.1
#: instead of 1.4e-4).
REFINE_RCOND = 1e-10


def refine_point(game, structure, value: Fraction, profile: Mapping[str, float]) -> dict[str, float] | None:
    """A numeric equilibrium moved onto the equations of its own case (Newton's method with least-norm steps).

    The case is the point's (:func:`~symgame.engine.atlas.seed_case`): its pinned frequencies are set, and its
    equations (the derivatives that vanish) are solved by Gauss-Newton steps of least norm from the point
    (singular values below :data:`REFINE_RCOND` of the largest taken as zero), so that the point moves as little
    as it can onto their solution set. Accepted when every equation is within
    :data:`REFINE_RESIDUAL`, no coordinate moved more than :data:`REFINE_MOVE`, every frequency stays in
    [0, 1] and the float regret did not grow. A numeric step only (a better end point of the same search); what
    it finds is still located by :func:`lies_in` against exact families.

    Parameters
    ----------
    game : PolynomialGame
    structure : Structure
        The game's leader/responder structure (:func:`~symgame.engine.casesplit.detect_structure`).
    value : Fraction
        The parameter value.
    profile : mapping
        Every variable's float value.

    Returns
    -------
    dict or None
        The refined profile, or ``None`` when it is not accepted.

    Examples
    --------
    Matching pennies with a pot ``P``: a point 1e-5 off the mixed equilibrium (x = y = 2/(P + 3)) moves onto it.

    >>> from symgame import load
    >>> from symgame.engine.casesplit import detect_structure
    >>> game = load("examples/pennies.yaml")
    >>> point = refine_point(game, detect_structure(game), Fraction(2), {"x": 0.40001, "y": 0.39999})
    >>> round(point["x"], 12), round(point["y"], 12)
    (0.4, 0.4)
    """
    from ..engine.atlas import seed_case
    from ..engine.parametric import case_system, fixed_values
    from ..numeric.polygame import compile_game, float_regret

    case = seed_case(game, structure, float(value), profile)
    unknowns, equations = case_system(game, structure, case)
    point = {x: float(profile[x]) for x in game.variables}
    point.update({x: float(v) for x, v in fixed_values(structure, case).items()})
    if equations and unknowns:
        P = game.symbol(game.parameter_names[0])
        at = [e.subs(P, sp.Rational(value.numerator, value.denominator)) for e in equations]
        syms = [game.symbol(x) for x in unknowns]
        f = sp.lambdify(syms, at, "numpy")
        jac = sp.lambdify(syms, sp.Matrix(at).jacobian(syms), "numpy")
        z = np.array([point[x] for x in unknowns])
        try:
            with np.errstate(all="raise"):
                for _ in range(REFINE_STEPS):
                    step, *_ = np.linalg.lstsq(np.array(jac(*z), dtype=float).reshape(len(at), len(syms)),
                                               -np.array(f(*z), dtype=float), rcond=REFINE_RCOND)
                    z = z + step
                    if float(np.abs(step).max()) < 1e-15:
                        break
                residual = float(np.abs(np.array(f(*z), dtype=float)).max())
        except (FloatingPointError, ZeroDivisionError, np.linalg.LinAlgError):
            return None
        if not residual <= REFINE_RESIDUAL:
            return None
        point.update(zip(unknowns, (float(v) for v in z)))
    if max(abs(point[x] - float(profile[x])) for x in game.variables) > REFINE_MOVE or \
            any(not -1e-12 <= v <= 1 + 1e-12 for v in point.values()):
        return None
    compiled = compile_game(game, {game.parameter_names[0]: float(value)})
    before = float_regret(game, compiled, np.array([float(profile[x]) for x in game.variables]))
    after = float_regret(game, compiled, np.array([point[x] for x in game.variables]))
    return point if after <= max(before, 1e-12) else None


def lies_in(game, member: SolvedBranch, value: Fraction, point: Mapping[str, float],
            tol: float = NUMERIC_TOLERANCE) -> bool:
    """Whether a float profile satisfies a member's formulas and constraints at ``value`` (to ``tol``).

    The member's free frequencies are first taken from the point; when that misses, they are fitted to the
    point by least squares over all its frequencies (a numeric equilibrium in a continuum can be off the
    member along a flat direction, where a small error in a free frequency moves the others by more: the
    distance to the member is what is compared, not the error at the point's own free coordinates). An
    equation among the member's conditions (an algebraic family's minimal polynomial) is compared by the
    first-order distance to its zeros, ``|f| / |grad f|``, not by ``|f|``, whose scale is arbitrary.
    """
    free = {z: float(point[z]) for z in member.branch.free}
    if _lies_in_at(game, member, value, point, free, tol):
        return True
    fitted = _fit_free(game, member, value, point) if free else None
    return fitted is not None and _lies_in_at(game, member, value, point, fitted, tol)


#: Gauss-Newton steps of :func:`_fit_free`.
FIT_STEPS = 8


def _fit_free(game, member: SolvedBranch, value: Fraction, point: Mapping[str, float]) -> dict[str, float] | None:
    """Free frequencies of ``member`` whose profile is nearest to ``point`` (least squares, Gauss-Newton from the
    point's own values); ``None`` when the formulas cannot be evaluated there."""
    P = game.symbol(game.parameter_names[0])
    names = list(member.branch.free)
    syms = [game.symbol(z) for z in names]
    rows = [(x, sp.sympify(e).subs(P, sp.Rational(value.numerator, value.denominator)))
            for x, e in member.branch.values if x not in names]
    if not rows:
        return None
    f = sp.lambdify(syms, [e for _, e in rows], "numpy")
    jac = sp.lambdify(syms, sp.Matrix([e for _, e in rows]).jacobian(syms), "numpy")
    target = np.array([float(point[x]) for x, _ in rows])
    z = np.array([float(point[n]) for n in names])
    try:
        for _ in range(FIT_STEPS):
            residual = np.array(f(*z), dtype=float) - target
            J = np.array(jac(*z), dtype=float).reshape(len(rows), len(names))
            step, *_ = np.linalg.lstsq(np.vstack([J, np.eye(len(names))]),
                                       -np.concatenate([residual, z - [float(point[n]) for n in names]]),
                                       rcond=None)
            z = z + step
    except (ZeroDivisionError, FloatingPointError, TypeError, ValueError):
        return None
    if not np.all(np.isfinite(z)):
        return None
    return dict(zip(names, (float(v) for v in z)))


def _lies_in_at(game, member: SolvedBranch, value: Fraction, point: Mapping[str, float], free: Mapping[str, float],
                tol: float) -> bool:
    P = game.symbol(game.parameter_names[0])
    subs = {P: sp.Rational(value.numerator, value.denominator)}
    subs.update({game.symbol(z): v for z, v in free.items()})
    for z, v in free.items():
        if abs(v - float(point[z])) > tol:
            return False
    for x, expr in member.branch.values:
        if x in member.branch.free:
            continue
        if abs(float(sp.N(expr.subs(subs))) - point[x]) > tol:
            return False
    for expr, rel in member.branch.conditions:
        v = float(sp.N(expr.subs(subs)))
        if rel == "==":
            # an equation in the free frequencies (an algebraic family's minimal polynomial, its denominators
            # cleared, so its scale is arbitrary): the first-order distance to its zero set, |f| / |grad f|
            grad = [float(sp.N(sp.diff(expr, game.symbol(z)).subs(subs))) for z in free if expr.has(game.symbol(z))]
            norm = math.sqrt(sum(d * d for d in grad))
            if abs(v) > tol * (norm if norm > 0 else 1.0):
                return False
        elif rel in (">", ">=") and v < -tol:
            return False
    return True


def sample_parameters(atlas: Atlas, count: int, seed: int, width: Fraction = Fraction(6)) -> list[Fraction]:
    """``count`` reproducible rational parameter values inside the domain (at most ``width`` above its
    lower bound when it is unbounded)."""
    rng = np.random.default_rng(seed)
    param = atlas.game.parameters[0]
    lower = Fraction(str(param.lower))
    upper = Fraction(str(param.upper)) if param.upper.is_finite else lower + width
    return sorted({lower + Fraction(int(rng.integers(1, 1000)), 1000) * (upper - lower) for _ in range(count)})



@dataclass(frozen=True)
class AtlasPoint:
    """One family valid at a parameter value, with an exact witness profile checked by exact regret.

    ``profile`` is ``None`` when z3 found no witness within its budget; ``verified`` says whether the
    witness has exact regret 0, ``largest_gain`` is the largest gain of a deviation (0 when verified).
    """

    family: str
    case: str
    continuum: bool
    profile: dict[str, sp.Expr] | None
    profits: dict[str, sp.Expr] | None
    verified: bool | None
    largest_gain: sp.Expr | None


def equilibria_at(atlas: Atlas, value: Fraction) -> list[AtlasPoint]:
    """Every family of ``atlas`` valid at ``value``, each with one exact witness and the players' profits."""
    from ..engine.atlas import branch_witness
    from .polycert import exact_regret

    game = atlas.game
    name = game.parameter_names[0]
    out = []
    for family, member in atlas.members_at(value):
        continuum = bool(member.branch.free) or family.continuum
        profile = branch_witness(game, member, value)
        if profile is None:
            out.append(AtlasPoint(family.ident, member.branch.case, continuum, None, None, None, None))
            continue
        subs = {game.symbol(x): v for x, v in profile.items()}
        subs[game.symbol(name)] = sp.Rational(value.numerator, value.denominator)
        profits = {p.name: sp.radsimp(sp.expand(p.payoff.subs(subs))) for p in game.players}
        check = exact_regret(game, profile, {name: subs[game.symbol(name)]})
        out.append(AtlasPoint(family.ident, member.branch.case, continuum, {x: profile[x] for x in game.variables},
                              profits, check.is_nash,
                              max(check.gains, key=lambda g: float(sp.N(g, 30)))))
    return out
