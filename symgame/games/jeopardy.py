"""Simplified two-player Final Jeopardy (Ganzfried 2022, section 6.1 and Appendix B).

Players hold integer scores ``X1 > X2 >= 0`` and wager integers
``0 <= w_i <= X_i``.  Player ``i`` answers correctly with probability ``p_i``
(independently) and ends with ``X_i + w_i`` or ``X_i - w_i``.  The higher final
score wins: payoff ``+1/2`` to the winner, ``-1/2`` to the loser, ``0`` each on a
tie (the zero-sum form of the paper: win 1, tie 1/2, loss 0, minus 1/2).
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import product

import sympy as sp

from ..model.game import NormalFormGame, Player
from ..model.parameters import parse_domain
from ..model.region import Domain
from ..references import cite

SOURCE = cite("ganzfried2022", "section 6.1 and Appendix B")
P1, P2 = sp.Symbol("p1", real=True), sp.Symbol("p2", real=True)
HALF = sp.Rational(1, 2)


def outcome_payoff(final1: int, final2: int) -> sp.Rational:
    """Player 1's payoff for final scores: +1/2 win, 0 tie, -1/2 loss."""
    if final1 > final2:
        return HALF
    if final1 < final2:
        return -HALF
    return sp.Integer(0)


def wager_payoff(score1: int, score2: int, wager1: int, wager2: int) -> sp.Expr:
    """Player 1's expected payoff for one pair of wagers, over the four answer outcomes."""
    outcomes = []
    for right1, right2 in product((True, False), repeat=2):
        final1 = score1 + wager1 if right1 else score1 - wager1
        final2 = score2 + wager2 if right2 else score2 - wager2
        outcomes.append(outcome_payoff(final1, final2))
    return _expected_payoff(tuple(outcomes))


@lru_cache(maxsize=None)
def _expected_payoff(outcomes: tuple[sp.Rational, ...]) -> sp.Expr:
    """The payoffs of the four answer outcomes (both right, 1 right, 2 right, neither) weighted by their chances
    and expanded: at most 3^4 distinct ones, shared by every pair of wagers and scores."""
    total = sp.Integer(0)
    for (right1, right2), payoff in zip(product((True, False), repeat=2), outcomes):
        chance = (P1 if right1 else 1 - P1) * (P2 if right2 else 1 - P2)
        total += chance * payoff
    return sp.expand(total)


def validate_scores(score1: int, score2: int) -> None:
    if not (isinstance(score1, int) and isinstance(score2, int)):
        raise ValueError("scores must be integers")
    if not score1 > score2 >= 0:
        raise ValueError(f"scores must satisfy X1 > X2 >= 0, got X1 = {score1}, X2 = {score2}")


def unit_square() -> Domain:
    return Domain((parse_domain("p1", "[0, 1]"), parse_domain("p2", "[0, 1]")))


def build_game(score1: int = 5, score2: int = 3) -> NormalFormGame:
    """The (X1+1) x (X2+1) zero-sum wager game built from the rules."""
    validate_scores(score1, score2)
    players = [Player("Player 1", tuple(f"wager {w}" for w in range(score1 + 1))),
               Player("Player 2", tuple(f"wager {w}" for w in range(score2 + 1)))]
    matrix = [[wager_payoff(score1, score2, w1, w2) for w2 in range(score2 + 1)] for w1 in range(score1 + 1)]
    return NormalFormGame.two_player(
        f"jeopardy_{score1}_{score2}", unit_square(), players, matrix,
        description=f"Final Jeopardy with scores X1 = {score1}, X2 = {score2}; wagers are integers; "
        f"p1, p2 are the probabilities of a correct answer ({SOURCE}).")


def grid_points(steps: int) -> list[dict[str, Fraction]]:
    """The rational grid {0, 1/steps, ..., 1}^2."""
    values = [Fraction(k, steps) for k in range(steps + 1)]
    return [{"p1": a, "p2": b} for a in values for b in values]
