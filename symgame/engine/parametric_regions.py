"""The value and optimal strategies of a two-player zero-sum game tree as exact functions of two parameters.

The two-parameter analogue of :mod:`symgame.engine.parametric_lp`. At a rational point the sequence-form LPs
(HiGHS) name an optimal basis; the basis is solved again exactly over QQ(a, b), which gives both realization
plans and the value as rational functions. By LP duality the pair is optimal exactly on the region where every
plan entry on the support and every slack is nonnegative (the two guarantees meet by construction): a region
``{N_k D_k >= 0, D_k != 0}`` of polynomial sign conditions. The plane is covered region by region: the
cylindrical algebraic decomposition of :mod:`symgame.model.cad` either proves that the regions found so far
cover the domain, or returns a point of the domain outside all of them (a simple rational point of an open
cell when there is one), where the next LP is solved. The result is a decision list over the parameter plane,
each region certified by construction and the cover proved.

Examples
--------
>>> from symgame.model.treefile import tree_from_data
>>> data = {"game": "bluff", "parameters": {"a": "[1, 3]", "b": "[1, 3]"}, "players": ["A", "B"],
...         "root": {"chance": [
...     {"prob": "1/2", "node": {"player": "A", "infoset": "high", "actions": {
...         "bet": {"player": "B", "infoset": "b", "actions": {"call": {"payoffs": ["a + b", "-a - b"]},
...                                                             "fold": {"payoffs": ["a", "-a"]}}},
...         "check": {"payoffs": ["a", "-a"]}}}},
...     {"prob": "1/2", "node": {"player": "A", "infoset": "low", "actions": {
...         "bet": {"player": "B", "infoset": "b", "actions": {"call": {"payoffs": ["-a - b", "a + b"]},
...                                                             "fold": {"payoffs": ["a", "-a"]}}},
...         "check": {"payoffs": ["-a", "a"]}}}}]}}
>>> result = parametric_regions_solve(tree_from_data(data))
>>> [str(r.value) for r in result.regions]
['a*b/(2*a + b)']
>>> result.regions[0].behaviour[1]["b"]["call"]
2*a/(2*a + b)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy as sp

from ..errors import InputError, NoResultError
from ..model.decide import DEFAULT_TIMEOUT_MS, Decision, Z3Context, drop_implied_atoms, satisfiable
from ..model.region import Domain, Region, normalise_atoms
from .conditions import SignOracle, polynomial_condition
from .parametric_lp import ParametricSequenceForm, _Solver, sequence_form_walk
from .pdl_builder import tighten_atoms

MAX_REGIONS = 60


@dataclass
class RegionPiece:
    """A region of the parameter plane on which one pair of strategies is optimal, with the value."""

    region: Region
    value: sp.Expr
    plans: tuple[list[sp.Expr], list[sp.Expr]]
    behaviour: tuple[dict[str, dict[str, sp.Expr]], dict[str, dict[str, sp.Expr]]]
    found_at: dict[str, Fraction]               # the LP point that named the basis (inside the region)


@dataclass
class ParametricRegions:
    """Regions that together cover the parameter domain (proved), each with certified optimal strategies."""

    name: str
    players: tuple[str, str]
    domain: Domain
    constant: sp.Expr
    regions: list[RegionPiece] = field(default_factory=list)
    cover: Decision = Decision.UNDECIDED
    checks: list[dict[str, Any]] = field(default_factory=list)

    def region_index(self, point: dict[str, Fraction]) -> int:
        """The first region containing a rational point of the domain (the decision list's rule)."""
        if not self.domain.contains(point):
            raise InputError(f"{point} is outside the domain")
        for k, piece in enumerate(self.regions):
            if piece.region.contains(point):
                return k
        raise NoResultError(f"{point} is in no region (the cover is {self.cover.value})")

    def value_at(self, point: dict[str, Fraction]) -> Fraction:
        """The exact value for player 0 at a rational point."""
        piece = self.regions[self.region_index(point)]
        v = piece.value.subs({sp.Symbol(k, real=True): sp.Rational(x.numerator, x.denominator)
                              for k, x in point.items()})
        return Fraction(int(sp.numer(v)), int(sp.denom(v)))

    def render_text(self) -> str:
        names = ", ".join(self.domain.names)
        lines = [f"{self.name}: value for {self.players[0]} and optimal behaviour strategies by ({names}); "
                 f"cover of the domain: {self.cover.value}"]
        for k, piece in enumerate(self.regions):
            where = " and ".join(a.pretty for a in piece.region.atoms)
            head = ("always" if len(self.regions) == 1 else "otherwise") if not where else \
                f"{'if' if k == 0 else 'else if'} {where}"
            lines.append(f"{head}: value {piece.value}")
            for who, beh in zip(self.players, piece.behaviour):
                for infoset, probs in beh.items():
                    lines.append(f"  {who} at {infoset}: " + ", ".join(f"{a}: {p}" for a, p in probs.items()))
        return "\n".join(lines)

    def to_data(self) -> dict:
        return {"game": self.name, "players": list(self.players), "parameters": self.domain.names,
                "constant_sum": str(self.constant), "cover": self.cover.value,
                "regions": [{"when": piece.region.texts, "readable": " and ".join(a.pretty for a in piece.region.atoms),
                             "value": str(piece.value),
                             "found_at": {k: str(v) for k, v in piece.found_at.items()},
                             "behaviour": {who: {i: {a: str(v) for a, v in probs.items()} for i, probs in beh.items()}
                                           for who, beh in zip(self.players, piece.behaviour)}}
                            for piece in self.regions],
                "checks": self.checks}


def parametric_regions_solve(tree, max_regions: int = MAX_REGIONS) -> ParametricRegions:
    """Cover a two-parameter domain with certified regions (see the module docstring).

    Raises
    ------
    InputError
        Not two players, not constant-sum, no perfect recall, or not exactly two parameters.
    NoResultError
        More than ``max_regions`` regions, or an uncovered point of the domain that is not rational (the LP
        cannot be asked there) or whose basis does not contain it.
    """
    game = tree.game
    if len(game.players) != 2:
        raise InputError(f"{game.name}: the parametric sequence form takes two-player trees")
    if len(tree.parameters) != 2:
        raise InputError(f"{game.name}: parametric_regions_solve takes exactly two parameters "
                         f"({len(tree.parameters)} here)")
    sequences, payoff, constant = sequence_form_walk(game)
    first = tree.parameters[0]
    form = ParametricSequenceForm(game.name, (game.players[0], game.players[1]), first.symbol, first.lower,
                                  first.upper, sequences, payoff, constant)
    symbols = tuple(p.symbol for p in tree.parameters)
    solver = _Solver(form, symbols)
    domain = Domain(tuple(tree.parameters))
    ctx = Z3Context(domain)
    oracle = SignOracle(ctx)
    result = ParametricRegions(game.name, form.players, domain, constant)
    point = _start(domain)
    while True:
        if len(result.regions) >= max_regions:
            raise NoResultError(f"{game.name}: more than {max_regions} regions")
        piece = _region_at(solver, symbols, point, oracle)
        if not piece.region.contains(point):
            raise NoResultError(f"{game.name}: the basis found at {point} is not valid there (a degenerate point)")
        result.regions.append(piece)
        gap = satisfiable(ctx, [_z3_not(ctx, p.region) for p in result.regions])
        if gap.satisfiable is Decision.FALSE:
            result.cover = Decision.TRUE
            _simplify(ctx, result)
            result.checks = check_regions(result, solver)
            return result
        if gap.satisfiable is Decision.UNDECIDED or gap.point is None:
            result.cover = Decision.UNDECIDED
            raise NoResultError(f"{game.name}: the cover could not be decided")
        if not all(v.is_Rational for v in gap.point.values()):
            raise NoResultError(f"{game.name}: only irrational points remain uncovered, e.g. {gap.point}")
        point = {k: Fraction(int(v.p), int(v.q)) for k, v in gap.point.items()}


def _simplify(ctx: Z3Context, result: ParametricRegions) -> None:
    """Read as a decision list: drop every condition implied by the domain, the failure of the earlier regions
    and the region's other conditions (each drop proved), and make the last region the ``else`` rule."""
    context: list = []
    for k, piece in enumerate(result.regions):
        original = piece.region
        if k == len(result.regions) - 1:
            piece.region = Region(())
        else:
            kept = drop_implied_atoms(ctx, context, list(original.atoms), DEFAULT_TIMEOUT_MS)
            piece.region = Region(tuple(tighten_atoms(ctx, context, kept, DEFAULT_TIMEOUT_MS)))
        context.append(_z3_not(ctx, original))


def _z3_not(ctx: Z3Context, region: Region):
    from ..model.z3env import z3

    return z3.Not(ctx.region(region))


def _start(domain: Domain) -> dict[str, Fraction]:
    """A simple interior point of the domain's box."""
    point = {}
    for p in domain.parameters:
        lo = Fraction(str(p.lower)) if p.lower.is_finite else None
        hi = Fraction(str(p.upper)) if p.upper.is_finite else None
        if lo is not None and hi is not None:
            point[p.name] = (lo + hi) / 2
        elif lo is not None:
            point[p.name] = lo + 1
        elif hi is not None:
            point[p.name] = hi - 1
        else:
            point[p.name] = Fraction(0)
    return point


def _region_at(solver: _Solver, symbols: tuple[sp.Symbol, ...], point: dict[str, Fraction],
               oracle: SignOracle) -> RegionPiece:
    xs, ys, value, conditions = solver.basis_at({s: point[s.name] for s in symbols})
    atoms = [a for c in conditions for a in polynomial_condition(c.numer, c.denom, oracle)]
    shown_value, plans, behaviour = solver.strategies(xs, ys, value)
    return RegionPiece(Region(normalise_atoms(atoms)), shown_value, plans, behaviour, dict(point))


def check_regions(result: ParametricRegions, solver: _Solver, count: int = 12, seed: int = 7) -> list[dict[str, Any]]:
    """The exact value of the decision list against an independent floating-point LP (HiGHS) at each region's
    LP point and at ``count`` seeded random rational points of the domain's box."""
    import random

    rng = random.Random(seed)
    points = [piece.found_at for piece in result.regions]
    box = _start(result.domain)
    for _ in range(count):
        point = {}
        for p in result.domain.parameters:
            lo = Fraction(str(p.lower)) if p.lower.is_finite else box[p.name] - 10
            hi = Fraction(str(p.upper)) if p.upper.is_finite else box[p.name] + 10
            point[p.name] = lo + (hi - lo) * Fraction(rng.randint(1, 99), 100)
        if result.domain.contains(point):
            points.append(point)
    checks = []
    for point in points:
        exact = result.value_at(point)
        _, z0, _ = solver.numeric({sp.Symbol(k, real=True): v for k, v in point.items()})
        numeric = float(z0[solver.n0])
        checks.append({"at": {k: str(v) for k, v in point.items()}, "region": result.region_index(point),
                       "value": str(exact), "lp": f"{numeric + 0.0:.12g}",
                       "passed": abs(float(exact) - numeric) <= 1e-7 * max(1.0, abs(float(exact)))})
    return checks
