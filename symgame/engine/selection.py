"""Equilibrium selection: which branch each rule of a decision list shows.

Where several equilibria exist, a decision list must choose one per parameter point. The
selections (``symgame solve --select``, ``symgame.solve(select=...)``):

``default``
    Branches in order of support size, pure equilibria first (the order of Ganzfried's 2×2 PDL,
    Ganzfried 2022, section 5), except that a branch valid on the whole domain comes first: the
    list is then a single rule.
``symmetric``
    For a symmetric game (both players have the same actions and ``B = Aᵀ``): wherever a
    symmetric equilibrium exists the list shows it (Hawk–Dove below V = C: Hawk with probability
    V/C), otherwise the default order.
``welfare``
    The equilibrium with the largest sum of the players' expected payoffs at each point (the
    domain is split by the signs of the welfare differences of branches that coexist; ties go to
    the default order). A game with one player ranks by its payoff.
``all``
    Every equilibrium branch valid at the point: rules whose ``profiles`` list all of them
    (:func:`all_by_region`), computed beside the default list.

Every selected list is certified like the default one: z3 proves each rule an equilibrium
wherever it fires, and :func:`welfare_violations` checks the welfare choice exactly at points.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import combinations
from typing import Mapping, Sequence

import sympy as sp

from ..errors import InputError
from ..model.decide import Decision, Z3Context, satisfiable
from ..model.game import NormalFormGame
from ..model.pdl import PDL
from ..model.readable import Readable, readable_region
from ..model.region import Atom, Region, normalise_atoms
from ..model.z3env import z3
from .support_enumeration import Branch

SELECTIONS = ("default", "symmetric", "welfare", "all")
MAX_WELFARE_CELLS = 4096


@dataclass(frozen=True)
class RegionEquilibria:
    """Where exactly the branches ``branches`` (indices) are the equilibria found (first match)."""

    region: Region
    branches: tuple[int, ...]
    readable: Readable | None = None


def is_symmetric(game: NormalFormGame) -> bool:
    """Two players with the same number of actions and ``B = Aᵀ`` identically."""
    if len(game.players) != 2 or game.shape[0] != game.shape[1]:
        return False
    a, b = game.payoffs
    return all(sp.expand(b[i, j] - a[j, i]) == 0 for i in range(a.shape[0]) for j in range(a.shape[1]))


def order_branches(game: NormalFormGame, branches: Sequence[Branch], select: str,
                   timeout_ms: int = 30_000) -> list[Branch]:
    """The branches in the order the decision list takes them (first match) for ``select``."""
    if select not in SELECTIONS:
        raise InputError(f"unknown selection {select!r} (choose from {', '.join(SELECTIONS)})")
    ctx = Z3Context(game.domain)
    branches = list(branches)
    if select == "symmetric":
        if not is_symmetric(game):
            raise InputError("--select symmetric needs a symmetric game (two players, the same number of "
                             "actions, column payoffs the transpose of the row payoffs)")
        symmetric = [b for b in branches if _is_symmetric_profile(b)]
        rest = [b for b in branches if not _is_symmetric_profile(b)]
        return _whole_domain_first(ctx, symmetric, timeout_ms) + rest
    if select == "welfare":
        return welfare_branches(game, ctx, branches, timeout_ms)
    return _whole_domain_first(ctx, branches, timeout_ms)


def _is_symmetric_profile(branch: Branch) -> bool:
    x, y = branch.profile.strategies
    return all(sp.simplify(p - q) == 0 for p, q in zip(x, y))


def _whole_domain_first(ctx: Z3Context, branches: list[Branch], timeout_ms: int) -> list[Branch]:
    """The first branch (in the given order) valid on the whole domain, moved to the front; the first one itself
    when it is (a later whole-domain branch is not moved ahead of it)."""
    for k, branch in enumerate(branches):
        if satisfiable(ctx, [z3.Not(ctx.region(branch.region))], timeout_ms).satisfiable is Decision.FALSE:
            return [branch] + branches[:k] + branches[k + 1:]
    return branches


def welfare(game: NormalFormGame, branch: Branch) -> sp.Expr:
    """The sum of the players' expected payoffs (the stated payoffs) under a branch's profile."""
    total = sp.Integer(0)
    strategies = branch.profile.strategies
    payoffs = game.stated_payoffs
    if len(game.players) == 1:
        return sp.cancel(sum(p * payoffs[0][i, 0] for i, p in enumerate(strategies[0]) if p != 0))
    x, y = strategies
    for m in payoffs:
        total += sum(x[i] * m[i, j] * y[j] for i in range(m.shape[0]) for j in range(m.shape[1])
                     if x[i] != 0 and y[j] != 0)
    return sp.cancel(sp.together(total))


def welfare_branches(game: NormalFormGame, ctx: Z3Context, branches: Sequence[Branch],
                     timeout_ms: int = 30_000) -> list[Branch]:
    """Branches restricted to cells of the domain on which the welfare order of coexisting branches is fixed.

    Each cell is a conjunction of sign conditions on the welfare differences (numerator times
    denominator, so the sign is right wherever both profiles are defined); within a cell the
    branches come best first, so the first that is valid at a point is the best valid one.
    """
    values = [welfare(game, b) for b in branches]
    tests: list[tuple[int, int, sp.Expr]] = []
    for i, j in combinations(range(len(branches)), 2):
        both = satisfiable(ctx, [ctx.region(branches[i].region), ctx.region(branches[j].region)], timeout_ms)
        if both.satisfiable is Decision.FALSE:
            continue
        num, den = sp.fraction(sp.cancel(sp.together(values[i] - values[j])))
        difference = sp.expand(num * den)
        if difference != 0:
            tests.append((i, j, difference))
    polys = sorted({sp.sstr(t[2]): t[2] for t in tests}.items())
    cells = _sign_cells(ctx, [p for _, p in polys], timeout_ms)
    ordered: list[Branch] = []
    for cell in cells:
        signs = dict(zip((name for name, _ in polys), cell))
        better = {}
        for i, j, difference in tests:
            relation = signs[sp.sstr(difference)]
            better[i, j] = relation == ">="         # W_i >= W_j on the cell
            better[j, i] = relation == "<"
        order = _best_first(len(branches), better)
        region_atoms = tuple(Atom(p, ">=") if rel == ">=" else Atom(-p, ">")
                             for (_, p), rel in zip(polys, cell))
        for k in order:
            b = branches[k]
            ordered.append(replace(b, region=Region(b.region.atoms + region_atoms)))
    return ordered


def _sign_cells(ctx: Z3Context, polys: list[sp.Expr], timeout_ms: int) -> list[tuple[str, ...]]:
    """Non-empty sign patterns (``>=`` or ``<``) of ``polys`` on the domain, depth first."""
    cells: list[tuple[str, ...]] = []
    stack: list[tuple[str, ...]] = [()]
    while stack:
        prefix = stack.pop()
        if len(prefix) == len(polys):
            cells.append(prefix)
            if len(cells) > MAX_WELFARE_CELLS:
                raise InputError(f"welfare selection needs more than {MAX_WELFARE_CELLS} cells of the domain")
            continue
        for rel in ("<", ">="):
            pattern = prefix + (rel,)
            formulas = [ctx.term(p) >= 0 if r == ">=" else ctx.term(p) < 0 for p, r in zip(polys, pattern)]
            if satisfiable(ctx, formulas, timeout_ms).satisfiable is not Decision.FALSE:
                stack.append(pattern)
    return sorted(cells, reverse=True)


def _best_first(count: int, better: Mapping[tuple[int, int], bool]) -> list[int]:
    """A topological order of 'is at least as good as' over coexisting branches (ties: the given order)."""
    remaining = list(range(count))
    order: list[int] = []
    while remaining:
        for k in remaining:
            if not any(better.get((other, k), False) and not better.get((k, other), False)
                       for other in remaining if other != k):
                break
        else:
            k = remaining[0]         # a cycle cannot happen where the branches coexist; keep the given order
        order.append(k)
        remaining.remove(k)
    return order


def all_by_region(game: NormalFormGame, branches: Sequence[Branch], timeout_ms: int = 30_000) -> list[RegionEquilibria]:
    """Rules listing every branch valid at a point (first match).

    The rules are the non-empty intersections of branch regions, largest sets first, so the first rule
    that holds at a point lists exactly the branches valid there.
    """
    ctx = Z3Context(game.domain)
    found: list[tuple[int, ...]] = []
    frontier: list[tuple[int, ...]] = [(k,) for k in range(len(branches))]
    while frontier:
        nxt: list[tuple[int, ...]] = []
        for subset in frontier:
            formulas = [ctx.region(branches[k].region) for k in subset]
            if satisfiable(ctx, formulas, timeout_ms).satisfiable is Decision.FALSE:
                continue
            found.append(subset)
            nxt.extend(subset + (k,) for k in range(subset[-1] + 1, len(branches)))
        frontier = nxt
    found.sort(key=lambda s: (-len(s), s))
    out = []
    for subset in found:
        others = [z3.Not(ctx.region(branches[k].region)) for k in range(len(branches)) if k not in subset]
        exact = satisfiable(ctx, [ctx.region(branches[k].region) for k in subset] + others, timeout_ms)
        if exact.satisfiable is Decision.FALSE:
            continue           # nowhere are these exactly the valid branches: the rule would never fire
        region = Region(normalise_atoms([a for k in subset for a in branches[k].region.atoms]))
        out.append(RegionEquilibria(region, subset, readable_region(game.domain, region, timeout_ms)))
    return out


def welfare_violations(game: NormalFormGame, branches: Sequence[Branch], pdl: PDL,
                       points: Sequence[Mapping[str, Fraction]]) -> list[Mapping[str, Fraction]]:
    """Points where a valid branch has strictly more welfare than the profile ``pdl`` selects (exact)."""
    bad = []
    for point in points:
        chosen = _welfare_at(game, pdl.evaluate(point).strategies, point)
        if any(b.region.contains(point) and _welfare_at(game, b.profile.at(point), point) > chosen for b in branches):
            bad.append(point)
    return bad


def _welfare_at(game: NormalFormGame, strategies: Sequence[Sequence[Fraction]], point: Mapping[str, Fraction]) -> Fraction:
    symbols = game.domain.symbols
    subs = {symbols[n]: sp.Rational(v.numerator, v.denominator) for n, v in point.items()}
    total = Fraction(0)
    for k, matrix in enumerate(game.payoffs_at(point)):
        scale = Fraction(str(game.scales[k].subs(subs))) if game.scales else Fraction(1)
        if len(game.players) == 1:
            total += sum((p * matrix[i][0] for i, p in enumerate(strategies[0])), Fraction(0)) / scale
            continue
        x, y = strategies
        total += sum((x[i] * matrix[i][j] * y[j] for i in range(len(x)) for j in range(len(y))), Fraction(0)) / scale
    return total
