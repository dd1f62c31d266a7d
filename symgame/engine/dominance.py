"""Parametric iterated elimination of weakly dominated strategies.

A pure strategy is removed when another one of the same player pays at least
as much against every opponent action at *every* point of the domain, proved
exactly by z3.  Every equilibrium of the reduced game is an equilibrium of the
full game (a deviation to a removed strategy pays no more than to the one that
dominates it), so a PDL derived on the reduced game, padded with zeros, is a
PDL of the full game; it is certified on the full game afterwards anyway.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np
import sympy as sp

from ..model.decide import Decision, Z3Context, satisfiable
from ..model.game import NormalFormGame, Player
from ..model.pdl import PDL, Profile, Rule
from ..model.z3env import z3
from .support_enumeration import Branch


@dataclass(frozen=True)
class Reduction:
    """The reduced game and which original actions it kept."""

    game: NormalFormGame
    kept: tuple[tuple[int, ...], ...]

    def lift_profile(self, original: NormalFormGame, profile: Profile) -> Profile:
        """A reduced-game profile with zero probability on removed actions."""
        strategies = []
        for player, kept, strategy in zip(original.players, self.kept, profile.strategies):
            full = [sp.Integer(0)] * len(player.actions)
            for index, p in zip(kept, strategy):
                full[index] = p
            strategies.append(tuple(full))
        return Profile(tuple(strategies))

    def lift_pdl(self, original: NormalFormGame, pdl: PDL) -> PDL:
        """The reduced game's PDL as a PDL of the original game."""
        rules = tuple(Rule(r.region, self.lift_profile(original, r.profile), r.label, r.readable) for r in pdl.rules)
        return PDL(original.players, original.domain, rules)

    def lift_branch(self, original: NormalFormGame, branch: Branch) -> Branch:
        supports = tuple(tuple(kept[i] for i in s) for kept, s in zip(self.kept, branch.supports))
        return Branch(supports, self.lift_profile(original, branch.profile), branch.region, branch.emptiness)


def reduce_by_dominance(game: NormalFormGame, probe_points: Sequence[dict[str, float]],
                        timeout_ms: int = 10_000) -> Reduction:
    """Iteratively remove strategies weakly dominated on the whole domain.

    ``probe_points`` are used only to refute dominance quickly; every removal
    is proved by z3.  One-player games are returned unchanged.
    """
    if len(game.players) != 2:
        return Reduction(game, (tuple(range(len(game.players[0].actions))),))
    ctx = Z3Context(game.domain)
    a, b = sp.Matrix(game.payoffs[0]), sp.Matrix(game.payoffs[1])
    numeric = [game.payoffs_numeric(p) for p in probe_points]
    rows, cols = list(range(a.shape[0])), list(range(a.shape[1]))
    changed = True
    while changed:
        changed = False
        for i in list(rows):
            if _dominated(ctx, i, rows, cols, lambda k, j: a[k, j], [m[0] for m in numeric], timeout_ms):
                rows.remove(i)
                changed = True
        for j in list(cols):
            if _dominated(ctx, j, cols, rows, lambda l, i: b[i, l], [m[1].T for m in numeric], timeout_ms):
                cols.remove(j)
                changed = True
    players = (Player(game.players[0].name, tuple(game.players[0].actions[i] for i in rows)),
               Player(game.players[1].name, tuple(game.players[1].actions[j] for j in cols)))
    reduced = NormalFormGame(game.name, game.domain, players,
                             (sp.ImmutableMatrix(a.extract(rows, cols)), sp.ImmutableMatrix(b.extract(rows, cols))),
                             game.zero_sum, game.description)
    return Reduction(reduced, (tuple(rows), tuple(cols)))


def _dominated(ctx: Z3Context, own: int, mine: list[int], theirs: list[int], payoff,
               numeric: list[np.ndarray], timeout_ms: int) -> bool:
    """Is strategy ``own`` weakly dominated by another of ``mine`` everywhere?

    Ties (identical strategies) are broken towards keeping the lower index.
    """
    for other in mine:
        if other == own:
            continue
        if any((m[other, theirs] < m[own, theirs] - 1e-12).any() for m in numeric):
            continue
        diffs = [sp.expand(payoff(other, t) - payoff(own, t)) for t in theirs]
        if all(d == 0 for d in diffs) and other > own:
            continue  # identical: remove the later copy only
        worse = z3.Or([ctx.term(d) < 0 for d in diffs if d != 0]) if any(d != 0 for d in diffs) else z3.BoolVal(False)
        if satisfiable(ctx, [worse], timeout_ms).satisfiable is Decision.FALSE:
            return True
    return False
