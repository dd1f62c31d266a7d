"""Simplified two-player Final Jeopardy (Ganzfried 2022, section 6.1 and Appendix B).

Players hold integer scores ``X1 > X2 >= 0`` and wager integers
``0 <= w_i <= X_i``.  Player ``i`` answers correctly with probability ``p_i``
(independently) and ends with ``X_i + w_i`` or ``X_i - w_i``.  The higher final
score wins: payoff ``+1/2`` to the winner, ``-1/2`` to the loser, ``0`` each on a
tie (the zero-sum form of the paper: win 1, tie 1/2, loss 0, minus 1/2).
"""
from __future__ import annotations

from fractions import Fraction
from itertools import product

import sympy as sp

from ..model.game import NormalFormGame, Player
from ..model.parameters import parse_domain
from ..model.pdl import PDL, Profile, Rule
from ..model.region import Atom, Domain, Region
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
    total = sp.Integer(0)
    for right1, right2 in product((True, False), repeat=2):
        chance = (P1 if right1 else 1 - P1) * (P2 if right2 else 1 - P2)
        final1 = score1 + wager1 if right1 else score1 - wager1
        final2 = score2 + wager2 if right2 else score2 - wager2
        total += chance * outcome_payoff(final1, final2)
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


def printed_matrix_5_3() -> list[list[sp.Expr]]:
    """Player 1's payoffs as printed in Appendix B for scores (5, 3).

    Transcribed from the per-cell derivations (the matrix itself lost its
    layout in extraction; both agree).  The entry for wagers (1, 2) is
    printed as ``1/2 - p2``.
    """
    h = HALF
    a = h - P2 + P1 * P2       # printed as 0.5 - p2 + p1 p2
    b = h * P1 * P2 + h * P1 - h * P2
    return [
        [h, h, h - h * P2, h - P2],
        [h, h * P1 * P2 - h * P2 + h, h - P2, h + h * P1 * P2 - P2],
        [h * P1, a, a, a],
        [P1 - h, b, a, a],
        [P1 - h, P1 - h, b, a],
        [P1 - h, P1 - h, P1 - h, b],
    ]


def printed_game_5_3() -> NormalFormGame:
    """The game with the matrix exactly as printed in the paper."""
    game = build_game(5, 3)
    return NormalFormGame.two_player("jeopardy_5_3_as_printed", game.domain, game.players,
                                     printed_matrix_5_3(), description="Appendix B matrix as printed.")


def published_pdl(game: NormalFormGame) -> PDL:
    """Appendix B's joint PDL for scores (5, 3), with lost symbols reconstructed.

    Read as: (0,0) if p2 = 0; else (0,3) if p1 = 0; else (2,0) if p1 = 1; else
    (2,2) if p1 >= 1/2 and p2 >= 1/2; else (2,3) if p1 < 1/2 and p2 >= 1/2;
    else player 1 wagers 1 with probability x = (1-p1)(1-2p2)/(1-p1+p1 p2)
    and 2 otherwise, player 2 wagers 0 with probability
    y = p1 p2/(1+p1 p2-p1) and 3 otherwise.  The section 6.1 per-player
    lists are the two projections of this list.
    """
    def pure(w1: int, w2: int) -> Profile:
        return Profile((tuple(sp.Integer(int(i == w1)) for i in range(6)),
                        tuple(sp.Integer(int(j == w2)) for j in range(4))))

    x = (1 - P1) * (1 - 2 * P2) / (1 - P1 + P1 * P2)
    y = P1 * P2 / (1 + P1 * P2 - P1)
    zero = sp.Integer(0)
    mixed = Profile(((zero, x, 1 - x, zero, zero, zero), (y, zero, zero, 1 - y)))
    rules = (
        Rule(Region((Atom(P2, "=="),)), pure(0, 0), "(0,0)"),
        Rule(Region((Atom(P1, "=="),)), pure(0, 3), "(0,3)"),
        Rule(Region((Atom(P1 - 1, "=="),)), pure(2, 0), "(2,0)"),
        Rule(Region((Atom(P1 - HALF, ">="), Atom(P2 - HALF, ">="))), pure(2, 2), "(2,2)"),
        Rule(Region((Atom(HALF - P1, ">"), Atom(P2 - HALF, ">="))), pure(2, 3), "(2,3)"),
        Rule(Region(()), mixed, "mixed"),
    )
    return PDL(game.players, game.domain, rules)


def grid_points(steps: int) -> list[dict[str, Fraction]]:
    """The rational grid {0, 1/steps, ..., 1}^2."""
    values = [Fraction(k, steps) for k in range(steps + 1)]
    return [{"p1": a, "p2": b} for a in values for b in values]
