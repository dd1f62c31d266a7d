"""The Jacob game (Buck et al., arXiv:2208.02788, 2022, Appendix C.2).

Three players each name 1 or 2.  If two name the same number and the third
the other, each of the two pays the third the number it named.  ``s_k`` is
player k's probability of naming 1.  The game has no parameter; as a
polynomial game for the atlas engine it gets a dummy parameter ``t`` on
[0, 1] that no payoff uses, so every family is valid for all ``t``.
"""
from __future__ import annotations

import itertools

import numpy as np
import sympy as sp

from symgame.model.parameters import parameter_symbol, parse_domain
from symgame.model.polygame import PolynomialGame, PolyPlayer


def pure_payoff(player: int, choices: tuple[int, int, int]) -> int:
    """Payoff to ``player`` (0, 1, 2) when the players name ``choices`` (each 1 or 2)."""
    if len(set(choices)) == 1:
        return 0
    others = [choices[k] for k in range(3) if k != player]
    if others[0] == others[1]:
        return 2 * others[0]          # the odd one receives each other player's number
    return -choices[player]


def build_game() -> PolynomialGame:
    s = [parameter_symbol(f"s{k}") for k in (1, 2, 3)]
    payoffs = []
    for player in range(3):
        total = sp.Integer(0)
        for choices in itertools.product((1, 2), repeat=3):
            prob = sp.Integer(1)
            for k in range(3):
                prob *= s[k] if choices[k] == 1 else 1 - s[k]
            total += prob * pure_payoff(player, choices)
        payoffs.append(sp.expand(total))
    return PolynomialGame("jacob", (parse_domain("t", "[0, 1]"),),
                          tuple(PolyPlayer(str(k + 1), (f"s{k + 1}",), payoffs[k]) for k in range(3)),
                          "The Jacob game (Appendix C.2); t is a dummy parameter")


def tensors() -> list[np.ndarray]:
    """Each player's payoff indexed by the three choices (index 0: names 1, index 1: names 2)."""
    out = []
    for player in range(3):
        t = np.zeros((2, 2, 2), dtype=np.int64)
        for a, b, c in itertools.product(range(2), repeat=3):
            t[a, b, c] = pure_payoff(player, (a + 1, b + 1, c + 1))
        out.append(t)
    return out
