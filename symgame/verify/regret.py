"""Exact regret of a strategy profile at a rational parameter point.

This is the test oracle of the project (cf. QuantEcon's ``is_nash``): it
uses only the game's payoffs and exact rational arithmetic, never the
engine that produced the profile.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Mapping, Sequence

from ..model.expr import raw_point, to_fmpq, to_fraction
from ..model.game import NormalFormGame, weighted_sum

if TYPE_CHECKING:
    from flint import fmpq


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
    raw = _action_payoffs_raw(game, raw_point(point), [[to_fmpq(p) for p in s] for s in strategies])
    return [[to_fraction(v) for v in values] for values in raw]


def _action_payoffs_raw(game: NormalFormGame, point, strategies) -> list[list]:
    return game.action_values_raw(point, strategies)


def exact_regret(game: NormalFormGame, point: Mapping[str, Fraction],
                 strategies: Sequence[Sequence[Fraction]]) -> RegretReport:
    """Regret of every player at ``point`` (0 for all players iff Nash).

    Arithmetic is exact (python-flint rationals); results are Fractions.
    """
    valid, regrets, payoffs = _regrets_raw(game, raw_point(point), [[to_fmpq(p) for p in s] for s in strategies])
    return RegretReport(tuple(map(to_fraction, regrets)), tuple(map(to_fraction, payoffs)), valid)


def _regrets_raw(game: NormalFormGame, point: Mapping[str, "fmpq"], strategies: Sequence[Sequence["fmpq"]]
                 ) -> tuple[bool, list, list]:
    """Whether every strategy is a probability vector, each player's regret and payoff (python-flint values)."""
    from flint import fmpq

    valid = all(sum(s, fmpq(0)) == 1 and min(s) >= 0 for s in strategies)
    regrets, payoffs = [], []
    for values, strategy in zip(_action_payoffs_raw(game, point, strategies), strategies):
        achieved = weighted_sum(values, strategy)
        payoffs.append(achieved)
        regrets.append(max(values) - achieved)
    return valid, regrets, payoffs


def is_nash_raw(game: NormalFormGame, point: Mapping[str, "fmpq"], strategies: Sequence[Sequence["fmpq"]]) -> bool:
    """``exact_regret(game, point, strategies).is_nash`` on python-flint ``fmpq`` values throughout (for checks at
    many points: no conversion to ``Fraction`` and back).

    Parameters
    ----------
    game : NormalFormGame
    point : mapping of str to fmpq
        The parameter values.
    strategies : sequence of sequences of fmpq
        One mixed strategy per player.

    Returns
    -------
    bool
        True iff every strategy is a probability vector and no player gains by a pure deviation.

    Examples
    --------
    Matching pennies: the uniform profile is the equilibrium, heads against heads is not.

    >>> from flint import fmpq
    >>> from symgame.model.game import Player
    >>> from symgame.model.region import Domain
    >>> game = NormalFormGame.two_player("pennies", Domain(()), [Player("Row", ("H", "T")),
    ...                                  Player("Col", ("H", "T"))], [[1, -1], [-1, 1]])
    >>> half, heads = [fmpq(1, 2), fmpq(1, 2)], [fmpq(1), fmpq(0)]
    >>> is_nash_raw(game, {}, [half, half]), is_nash_raw(game, {}, [heads, heads])
    (True, False)
    """
    valid, regrets, _ = _regrets_raw(game, point, strategies)
    return valid and all(r == 0 for r in regrets)


def is_nash(game: NormalFormGame, point: Mapping[str, Fraction],
            strategies: Sequence[Sequence[Fraction]]) -> bool:
    """True iff ``strategies`` is an exact Nash equilibrium at ``point``."""
    return exact_regret(game, point, strategies).is_nash
