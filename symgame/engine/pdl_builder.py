"""Ordering equilibrium branches into a parametric decision list.

Steps (each decided exactly with z3, :mod:`symgame.model.decide`):

1. keep the branches in a fixed order (smaller supports first, the order of
   Ganzfried's 2x2 PDL, section 5);
2. drop a branch whose region is covered by the branches before it;
3. prove that the kept regions cover the whole domain; then the last rule
   may lose its conditions and become the ``else`` rule;
4. drop every condition of a rule that is implied by the domain, the
   failure of the earlier rules and the rule's other conditions.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

import sympy as sp

from ..errors import NoResultError
from ..model.decide import Decision, Z3Context, drop_implied_atoms, satisfiable, tighten_atom
from ..model.game import NormalFormGame
from ..model.pdl import PDL, Rule
from ..model.readable import readable_region
from ..model.region import Atom, Region
from ..model.z3env import z3
from .selection import order_branches
from .support_enumeration import Branch


class CoverageError(NoResultError):
    """The branches do not provably cover the parameter domain."""

    def __init__(self, decision: Decision, witness: Mapping[str, sp.Expr] | None):
        self.decision = decision
        self.witness = witness
        where = "" if witness is None else " e.g. at " + ", ".join(
            f"{k} = {v}" for k, v in sorted(witness.items()))
        verdict = ("are not covered by any support-enumeration branch (the game is degenerate there)"
                   if decision is Decision.FALSE else "could not be proved covered (z3 gave up)")
        super().__init__(f"some parameter points {verdict}{where}")

    def __reduce__(self):  # picklable across worker processes
        return (CoverageError, (self.decision, self.witness))


@dataclass(frozen=True)
class Coverage:
    """The outcome of the coverage proof."""

    status: Decision
    witness: Mapping[str, sp.Expr] | None = None

    @property
    def proved(self) -> bool:
        return self.status is Decision.TRUE


def build_pdl(game: NormalFormGame, branches: Sequence[Branch],
              timeout_ms: int = 30_000, select: str = "default") -> tuple[PDL, Coverage]:
    """Order ``branches`` into a PDL covering the domain of ``game``.

    ``select`` chooses the equilibrium each rule shows (:mod:`symgame.engine.selection`); every
    rule carries its readable condition (:func:`symgame.model.readable.readable_region`).

    Raises
    ------
    CoverageError
        If the union of the branch regions does not provably cover the
        domain; the error carries a witness point when one exists.
    """
    ctx = Z3Context(game.domain)
    ordered = order_branches(game, branches, "default" if select == "all" else select, timeout_ms)
    kept = drop_covered_branches(ctx, ordered, timeout_ms)
    coverage = prove_coverage(ctx, [b.region for b in kept], timeout_ms)
    if not coverage.proved:
        raise CoverageError(coverage.status, coverage.witness)
    rules = simplify_rules(ctx, kept, game, timeout_ms)
    return PDL(game.players, game.domain, tuple(rules)), coverage


def drop_covered_branches(ctx: Z3Context, branches: Sequence[Branch], timeout_ms: int) -> list[Branch]:
    """Keep each branch only if it adds points not covered by the ones before it."""
    kept: list[Branch] = []
    for branch in branches:
        earlier = [z3.Not(ctx.region(b.region)) for b in kept]
        answer = satisfiable(ctx, earlier + [ctx.region(branch.region)], timeout_ms)
        if answer.satisfiable is not Decision.FALSE:
            kept.append(branch)
    return kept


def prove_coverage(ctx: Z3Context, regions: Sequence[Region], timeout_ms: int) -> Coverage:
    """Decide whether the union of ``regions`` contains the whole domain."""
    answer = satisfiable(ctx, [z3.Not(ctx.region(r)) for r in regions], timeout_ms)
    if answer.satisfiable is Decision.FALSE:
        return Coverage(Decision.TRUE)
    if answer.satisfiable is Decision.TRUE:
        return Coverage(Decision.FALSE, answer.point)
    return Coverage(Decision.UNDECIDED)


def simplify_rules(ctx: Z3Context, kept: Sequence[Branch], game: NormalFormGame,
                   timeout_ms: int) -> list[Rule]:
    """Rules with every condition removed that the context already implies."""
    rules: list[Rule] = []
    context: list[z3.BoolRef] = []
    for index, branch in enumerate(kept):
        last = index == len(kept) - 1
        atoms = [] if last else drop_implied_atoms(ctx, context, list(branch.region.atoms), timeout_ms)
        atoms = tighten_atoms(ctx, context, atoms, timeout_ms)
        region = Region(tuple(atoms))
        rules.append(Rule(region, branch.profile, branch.label(game), readable_region(game.domain, region, timeout_ms)))
        context.append(z3.Not(ctx.region(branch.region)))
    return rules


def tighten_atoms(ctx: Z3Context, context: list[z3.BoolRef], atoms: list[Atom], timeout_ms: int) -> list[Atom]:
    """Tighten atoms one at a time, each against the context, the atoms already
    tightened and the atoms still to come, so the conjunction is unchanged."""
    done: list[Atom] = []
    for k, atom in enumerate(atoms):
        others = [ctx.atom(b) for b in done + atoms[k + 1:]]
        done.append(tighten_atom(ctx, context + others, atom, timeout_ms))
    return done


def player_pdl(pdl: PDL, player: int, timeout_ms: int = 30_000) -> PDL:
    """The decision list of one player: the joint PDL projected on ``player``.

    A rule is dropped when the next rule prescribes the same strategy and
    contains every point where the dropped rule fires (proved by z3), so the
    player's list can be shorter than the joint one.
    """
    from ..model.pdl import Profile

    rules = [Rule(r.region, Profile((r.profile.strategies[player],)), r.label, r.readable) for r in pdl.rules]
    ctx = Z3Context(pdl.domain)
    k = 0
    while k < len(rules) - 1:
        same = all(sp.expand(p - q) == 0 for p, q in
                   zip(rules[k].profile.strategies[0], rules[k + 1].profile.strategies[0]))
        if same and _falls_through(ctx, rules, k, timeout_ms):
            del rules[k]
            k = max(k - 1, 0)
        else:
            k += 1
    return PDL((pdl.players[player],), pdl.domain, tuple(rules))


def _falls_through(ctx: Z3Context, rules: Sequence[Rule], k: int, timeout_ms: int) -> bool:
    """Does every point where rule ``k`` fires also satisfy rule ``k + 1``?"""
    if not rules[k + 1].region.atoms:
        return True
    earlier = [z3.Not(ctx.region(r.region)) for r in rules[:k]]
    answer = satisfiable(ctx, earlier + [ctx.region(rules[k].region), z3.Not(ctx.region(rules[k + 1].region))],
                         timeout_ms)
    return answer.satisfiable is Decision.FALSE
