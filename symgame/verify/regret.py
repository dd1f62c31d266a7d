"""Exact regret of a strategy profile at a rational parameter point.

This is the test oracle of the project (cf. QuantEcon's ``is_nash``): it
uses only the game's payoffs and exact rational arithmetic, never the
engine that produced the profile.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Mapping, Sequence

from ..model.game import NormalFormGame


@dataclass(frozen=True)
class RegretReport:
    """Exact regrets (best deviation payoff minus profile payoff) per player.

    ``valid`` is False when a strategy is not a probability vector.
    """

    regrets: tuple[Fraction, ...]
    payoffs: tuple[Fraction, ...]
    valid: bool

    @property
    def is_nash(self) -> bool:
        return self.valid and all(r == 0 for r in self.regrets)


def expected_payoffs(game: NormalFormGame, point: Mapping[str, Fraction],
                     strategies: Sequence[Sequence[Fraction]]) -> list[list[Fraction]]:
    """Payoff of each pure action of each player against the others' strategies."""
    matrices = game.payoffs_at(point)
    x = strategies[0]
    y = strategies[1] if len(strategies) == 2 else [Fraction(1)]
    rows, cols = game.shape
    out = [[sum((matrices[0][i][j] * y[j] for j in range(cols)), Fraction(0)) for i in range(rows)]]
    if len(game.players) == 2:
        out.append([sum((matrices[1][i][j] * x[i] for i in range(rows)), Fraction(0)) for j in range(cols)])
    return out


def exact_regret(game: NormalFormGame, point: Mapping[str, Fraction],
                 strategies: Sequence[Sequence[Fraction]]) -> RegretReport:
    """Regret of every player at ``point`` (0 for all players iff Nash)."""
    valid = all(sum(s, Fraction(0)) == 1 and min(s) >= 0 for s in strategies)
    per_action = expected_payoffs(game, point, strategies)
    regrets, payoffs = [], []
    for values, strategy in zip(per_action, strategies):
        achieved = sum((v * p for v, p in zip(values, strategy)), Fraction(0))
        payoffs.append(achieved)
        regrets.append(max(values) - achieved)
    return RegretReport(tuple(regrets), tuple(payoffs), valid)


def is_nash(game: NormalFormGame, point: Mapping[str, Fraction],
            strategies: Sequence[Sequence[Fraction]]) -> bool:
    """True iff ``strategies`` is an exact Nash equilibrium at ``point``."""
    return exact_regret(game, point, strategies).is_nash
