"""Billingham's simplified three-player Kuhn poker (../shared/seeds/002).

The expected profits are computed from the rules (section 2), deal by deal
and action by action, not copied from the paper: four cards A > K > Q > J,
one to each of three players, pot ``P >= 2``, bets of 1; J must
check/fold; K never bets; after a bet and a call the last player calls only
with A; Player 3 always bets A when checked to (``a3 = 1``).  Frequencies:
``a_i`` bet with A, ``b_i`` bet (bluff) with Q, ``c_i`` call with K as the
first player after a bet, ``d_i`` call with K after a bet and a fold.
Profits are measured net of each player's share ``P/3`` of the pot.
:func:`printed_profits` holds the paper's equations (1)-(3) for comparison.
"""
from __future__ import annotations

import itertools

import sympy as sp

from ..model.parameters import parameter_symbol, parse_domain
from ..model.polygame import PolynomialGame, PolyPlayer

RANK = {"A": 4, "K": 3, "Q": 2, "J": 1}
VARIABLES = {1: ("a1", "b1", "c1", "d1"), 2: ("a2", "b2", "c2", "d2"), 3: ("b3", "c3", "d3")}


def _v(name: str) -> sp.Symbol:
    return parameter_symbol(name)


def _bet(player: int, card: str) -> sp.Expr:
    if card == "A":
        return sp.Integer(1) if player == 3 else _v(f"a{player}")
    return _v(f"b{player}") if card == "Q" else sp.Integer(0)


def _call(player: int, card: str, first: bool, called: bool) -> sp.Expr:
    if card == "A":
        return sp.Integer(1)
    if card == "K" and not called:
        return _v(f"c{player}") if first else _v(f"d{player}")
    return sp.Integer(0)


def _showdown(cards: dict, live: list, stakes: dict, P: sp.Expr) -> dict:
    winner = max(live, key=lambda i: RANK[cards[i]])
    pay = {i: -stakes[i] - P / 3 for i in (1, 2, 3)}
    pay[winner] += P + sum(stakes.values())
    return pay


def _after_bet(cards: dict, bettor: int, P: sp.Expr) -> dict:
    first, second = bettor % 3 + 1, (bettor + 1) % 3 + 1
    out = {i: sp.Integer(0) for i in (1, 2, 3)}
    q1 = _call(first, cards[first], True, False)
    for call1 in (True, False):
        q2 = _call(second, cards[second], False, call1)
        for call2 in (True, False):
            prob = (q1 if call1 else 1 - q1) * (q2 if call2 else 1 - q2)
            stakes = {i: 0 for i in (1, 2, 3)}
            stakes[bettor] = 1
            live = [bettor]
            for player, called in ((first, call1), (second, call2)):
                if called:
                    stakes[player] = 1
                    live.append(player)
            pay = _showdown(cards, live, stakes, P)
            for i in out:
                out[i] += prob * pay[i]
    return out


def profits_from_rules() -> dict[int, sp.Expr]:
    """``E_1, E_2, E_3`` by enumerating the 24 deals and the betting tree."""
    P = _v("P")
    total = {i: sp.Integer(0) for i in (1, 2, 3)}
    for deal in itertools.permutations("AKQJ", 3):
        cards = dict(zip((1, 2, 3), deal))
        reach = sp.Integer(1)
        for actor in (1, 2, 3):
            q = _bet(actor, cards[actor])
            sub = _after_bet(cards, actor, P)
            for i in total:
                total[i] += reach * q * sub[i]
            reach *= 1 - q
        pay = _showdown(cards, [1, 2, 3], {1: 0, 2: 0, 3: 0}, P)
        for i in total:
            total[i] += reach * pay[i]
    return {i: sp.expand(total[i] / 24) for i in total}


def printed_profits() -> dict[int, sp.Expr]:
    """Equations (1)-(3) of the paper, as printed (divided by 24)."""
    a1, b1, c1, d1, a2, b2, c2, d2, b3, c3, d3, P = (_v(n) for n in
                                                     "a1 b1 c1 d1 a2 b2 c2 d2 b3 c3 d3 P".split())
    e1 = ((-2 * b2 + 2 * c2 - 2 * b3 + 2 * d3 - b2 * c3) * a1 + (2 * P - 4 - (P + 1) * (c2 + d3)) * b1
          + (b2 - 2 + (P + a2) * b3) * c1 + ((P + 1) * b2 - 2 * a2) * d1 + (2 - P) * b3 + (2 + c3 - P) * b2)
    e2 = ((2 * d1 + 2 * c3 - 2 * b3 - c1 * b3 - b1 * c3) * a2 + (2 * P - 4 + 2 * a1 - (P + 1) * (c3 + d1)) * b2
          + (P * b1 - 2 * a1) * c2 + ((P + 1) * b3 - 2 + b1) * d2 + (2 - P + c1) * b3 + (2 - P) * b1)
    e3 = ((2 * P - 4 + 2 * a1 + 2 * a2 - (P + 1) * (c1 + d2)) * b3 + ((P + a1) * b2 - (2 - b1) * a2) * c3
          + ((P + 1) * b1 - 2 * a1) * d3 + (2 - P - c1) * b2 + 2 * c1 + (2 - P + c2 - d2) * b1 + 2 * d2)
    return {1: sp.expand(e1 / 24), 2: sp.expand(e2 / 24), 3: sp.expand(e3 / 24)}


def build_game() -> PolynomialGame:
    """The polynomial game with payoffs from the rules and ``P in [2, oo)``."""
    profits = profits_from_rules()
    players = tuple(PolyPlayer(str(i), VARIABLES[i], profits[i]) for i in (1, 2, 3))
    return PolynomialGame("billingham", (parse_domain("P", "[2, oo)"),), players,
                          "Billingham's simplified three-player Kuhn poker (payoffs from the rules)")


# Published solutions (section 3, eqs. (5)-(18)): leader frequencies and range of P.
# Used only to compare with the derived atlas; never as input to it.
PUBLISHED = {
    "1a": ({"a1": "0", "b1": "0", "a2": "0", "b2": "0"}, ("2", "2")),
    "1": ({"a1": "0", "b1": "0", "a2": "0", "b2": "0", "b3": "2/(P+1)"}, ("2", "3")),
    "2a": ({"a1": "0", "b1": "0", "b3": "1/2"}, ("3", "3")),
    "2": ({"a1": "0", "b1": "0", "a2": "1/2", "b2": "1/(P+1)", "b3": "2/(P+1)"}, ("3", "P4")),
    "3": ({"a1": "0", "b1": "0"}, ("P3", "P4")),
    "4": ({"a1": "0", "b1": "0", "a2": "(5-P)/2", "b2": "(5-P)/(P+1)", "b3": "4*(P-2)/(3*(P+1))"},
          ("P3", "7/2")),
    "5a": ({"a1": "0", "b1": "0", "b3": "4/9"}, ("7/2", "7/2")),
    "5": ({"a1": "0", "b1": "0", "a2": "1", "b2": "2/(P+1)", "b3": "2/(P+1)"}, ("7/2", "4")),
    "6": ({"a1": "(4-P)*(P+1)", "b1": "2*(4-P)", "a2": "1", "b2": "2/(P+1)", "b3": "2*(P-3)/(P+1)"},
          ("P6", "4")),
    "7": ({"a1": "1/2", "b1": "1/(P+1)", "a2": "1", "b2": "2/(P+1)", "b3": "(2*P+1)/(P+1)^2"},
          ("P6", "P9")),
    "8": ({"a1": "(9-2*P)*(P+1)/2", "b1": "9-2*P", "a2": "1", "b2": "2/(P+1)", "b3": "(2*P-7)/(P+1)"},
          ("P8", "P9")),
    "9": ({"a1": "1", "b1": "2/(P+1)", "a2": "1", "b2": "2/(P+1)", "b3": "2*P/(P+1)^2"}, ("P8", "5")),
    "10a": ({"a1": "1", "a2": "1", "b2": "1/3", "b3": "5/18"}, ("5", "5")),
    "10": ({"a1": "1", "b1": "2/P", "a2": "1", "b2": "2/(P+1)", "b3": "2*P/(P+1)^2"}, ("5", "oo")),
}
# Named endpoints as printed: P3 = (3+sqrt(97))/4, P4 = (3+sqrt(15))/2, P6 = (3+sqrt(23))/2,
# P8 = (7+sqrt(105))/4, P9 = (7+sqrt(113))/4.
PUBLISHED_POINTS = {"P3": sp.Rational(3, 4) + sp.sqrt(97) / 4, "P4": sp.Rational(3, 2) + sp.sqrt(15) / 2,
                    "P6": sp.Rational(3, 2) + sp.sqrt(23) / 2, "P8": sp.Rational(7, 4) + sp.sqrt(105) / 4,
                    "P9": sp.Rational(7, 4) + sp.sqrt(113) / 4}
