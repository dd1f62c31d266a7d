"""From the engine's best-response cases to Nash equilibria: vertex-deviation refinement.

The case-splitting engine decides every frequency by the sign of its own
derivative (Billingham, section 3).  For payoffs without products of a
player's own variables that is exactly the Nash condition.  Payoffs compiled
from a game tree have such products — in Kuhn poker A's expected payoff
contains ``b_x·c_x`` (bet with card x, call after check-bet) — and then the
per-variable conditions describe *agent-form* equilibria: ``b_x = 1`` may be
"optimal" only because the unreached ``c_x`` is bad, although betting loses
to checking and calling.  A family of the engine is therefore refined here:
every vertex deviation of every player (a pure strategy; the payoffs are
multilinear in each player's own variables, so the best deviation is a
vertex) that z3 finds profitable somewhere on the family becomes an extra
constraint ``E_i(profile) - E_i(vertex, others) >= 0``; constraints implied
by the others are dropped; a family whose refined set is empty was an
agent-form artefact and is dropped.  The result is certified afterwards
with :func:`symgame.verify.polycert.certify_profile_set` like any family.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction

import sympy as sp

from ..engine.ranges import ParamInterval
from ..engine.z3terms import Z3Encoder
from ..errors import NoResultError
from ..model.polygame import PolynomialGame
from ..model.z3env import z3
from .polycert import ProfileSet, check_multilinear, encode_family

REFINE_TIMEOUT_MS = 20_000


class RefinementUndecided(NoResultError):
    """z3 could not decide whether a deviation is profitable within the budget."""


@dataclass(frozen=True)
class RefinedFamily:
    """A family restricted to its Nash equilibria.

    ``pset`` carries the original constraints plus ``added`` deviation
    constraints (each ``expr >= 0`` in the free variables and the parameter).
    """

    pset: ProfileSet
    added: tuple[sp.Expr, ...]
    dropped_profitable: int     # deviations that were profitable somewhere on the unrefined family


def deviation_expressions(game: PolynomialGame, pset: ProfileSet) -> list[tuple[str, sp.Expr]]:
    """``(label, E_i(profile) - E_i(vertex, others))`` in the family's free variables, per player and vertex."""
    check_multilinear(game)
    values = {game.symbol(x): expr for x, expr in pset.values if x not in pset.free}
    out = []
    for player in game.players:
        own = [game.symbol(v) for v in player.variables]
        # symbols replaced by xreplace (the same expansion as a simultaneous subs, without its pattern matching)
        here = sp.expand(player.payoff.xreplace(values))
        others = {s: e for s, e in values.items() if s not in set(own)}
        # the others' values substituted once, the player's own variables kept as the generators of a
        # polynomial that each vertex only evaluates (substituting per vertex took 6 times longer)
        reduced = sp.expand(player.payoff.xreplace(others))
        poly = sp.Poly(reduced, *own) if own else None
        for vertex in itertools.product((0, 1), repeat=len(own)):
            there = sp.sympify(poly.eval(dict(zip(own, vertex)))) if poly is not None else reduced
            label = f"player {player.name} plays " + ", ".join(f"{v}={b}" for v, b in zip(player.variables, vertex))
            gain = sp.expand(here - there)
            if gain != 0 and not gain.is_polynomial() and sp.cancel(gain) == 0:
                gain = sp.Integer(0)          # equal rational functions in different expanded forms
            if gain != 0:
                out.append((label, gain))
    return out


def _sat(formulas: list, enc: Z3Encoder) -> z3.CheckSatResult:
    solver = z3.Solver()
    solver.set("timeout", REFINE_TIMEOUT_MS)
    solver.add(*formulas, *enc.side)
    return solver.check()


def refine_to_nash(game: PolynomialGame, pset: ProfileSet, interval: ParamInterval) -> RefinedFamily | None:
    """The Nash equilibria of one family (None when there are none), with a minimal set of added constraints."""
    fam = encode_family(game, pset, interval)
    free_syms = {game.symbol(x): sp.Symbol(str(fam.terms[x]), real=True) for x in pset.free}
    # the family's own conditions as one conjunction, built once: each of the thousands of solvers below then
    # takes one assertion instead of converting some forty through z3's Python layer (Kuhn's three-card family
    # 10.5 s -> 10.1 s, the same report)
    base = [z3.And(*fam.base, *fam.ties)] if fam.base or fam.ties else []
    needed: list[tuple[sp.Expr, z3.BoolRef]] = []
    for label, gain in deviation_expressions(game, pset):
        holds = fam.enc.condition(gain.xreplace(free_syms), ">=")
        answer = _sat(base + [z3.Not(holds)], fam.enc)
        if answer == z3.unknown:
            raise RefinementUndecided(f"is '{label}' profitable on the family? z3 gave up")
        if answer == z3.sat:
            needed.append((gain, holds))
    profitable = len(needed)
    if needed and _sat(base + [h for _, h in needed], fam.enc) != z3.sat:
        return None
    kept = list(needed)
    for item in list(needed):
        rest = [h for other, h in kept if other is not item[0]]
        if _sat(base + rest + [z3.Not(item[1])], fam.enc) == z3.unsat:
            kept = [k for k in kept if k[0] is not item[0]]
    added = tuple(sp.factor(g) for g, _ in kept)
    refined = ProfileSet(pset.values, pset.free, pset.constraints + tuple((g, ">=") for g, _ in kept))
    return RefinedFamily(refined, added, profitable)


@dataclass(frozen=True)
class FreeRange:
    """Exact infimum and supremum of one free variable over a family, and whether each is attained.

    ``low``/``high`` are None when z3 could not optimise (nonlinear constraints, time-out).
    """

    name: str
    low: Fraction | None
    high: Fraction | None
    low_attained: bool
    high_attained: bool

    @property
    def pinned(self) -> bool:
        return self.low is not None and self.low == self.high

    def text(self) -> str:
        if self.low is None or self.high is None:
            return f"{self.name}: range undecided"
        if self.pinned:
            return f"{self.name} = {self.low}"
        left = "[" if self.low_attained else "("
        right = "]" if self.high_attained else ")"
        return f"{self.name} in {left}{self.low}, {self.high}{right}"


def _as_fraction(value: z3.ExprRef) -> Fraction | None:
    if isinstance(value, z3.RatNumRef):
        f = value.as_fraction()
        return Fraction(f.numerator, f.denominator)
    if isinstance(value, z3.IntNumRef):
        return Fraction(value.as_long())
    return None


def _closure(pset: ProfileSet) -> ProfileSet:
    """The family with strict inequalities relaxed (its topological closure for polyhedral families)."""
    return ProfileSet(pset.values, pset.free, tuple((e, ">=" if r == ">" else r) for e, r in pset.constraints))


def _attains(game: PolynomialGame, pset: ProfileSet, interval: ParamInterval, x: str, bound: Fraction) -> bool:
    fam = encode_family(game, pset, interval)
    return _sat(fam.base + fam.ties + [fam.terms[x] == z3.RealVal(str(bound))], fam.enc) == z3.sat


def free_variable_ranges(game: PolynomialGame, pset: ProfileSet, interval: ParamInterval) -> tuple[FreeRange, ...]:
    """Infimum and supremum of each free variable over the family (z3 Optimize on the closure, exact)."""
    closed = _closure(pset)
    out = []
    for x in pset.free:
        bounds = []
        for sense in ("minimize", "maximize"):
            fam = encode_family(game, closed, interval)
            opt = z3.Optimize()
            opt.set("timeout", REFINE_TIMEOUT_MS)
            opt.add(*fam.base, *fam.ties, *fam.enc.side)
            handle = getattr(opt, sense)(fam.terms[x])
            ok = opt.check() == z3.sat
            bounds.append(_as_fraction(opt.lower(handle) if sense == "minimize" else opt.upper(handle)) if ok else None)
        low, high = bounds
        out.append(FreeRange(x, low, high,
                             low is not None and _attains(game, pset, interval, x, low),
                             high is not None and _attains(game, pset, interval, x, high)))
    return tuple(out)


def family_witness(game: PolynomialGame, pset: ProfileSet, interval: ParamInterval) -> dict[str, Fraction] | None:
    """One exact member of the family (free variables and parameter from a z3 model), or None."""
    fam = encode_family(game, pset, interval)
    solver = z3.Solver()
    solver.set("timeout", REFINE_TIMEOUT_MS)
    solver.add(*fam.base, *fam.ties, *fam.enc.side)
    if solver.check() != z3.sat:
        return None
    model = solver.model()
    point = {}
    for x in game.variables:
        value = _as_fraction(model.eval(fam.terms[x], model_completion=True))
        if value is None:
            return None
        point[x] = value
    return point
