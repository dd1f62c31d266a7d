"""General-sum 2x2 games with payoff parameters a..h (Ganzfried 2022, eq. (1)).

The payoff matrix is ``M = [[(a, b), (c, d)], [(e, f), (g, h)]]``: the row
player's payoffs are ``a, c, e, g`` and the column player's ``b, d, f, h``.
"""
from __future__ import annotations

import sympy as sp

from ..model.game import NormalFormGame, Player
from ..model.parameters import parse_domain
from ..model.region import Domain
from ..references import cite

NAMES = "abcdefgh"
SOURCE = cite("ganzfried2022", "section 5 and Appendix A")


def build_game() -> NormalFormGame:
    """The 2x2 game with all eight payoffs as unrestricted real parameters."""
    domain = Domain(tuple(parse_domain(n, "(-oo, oo)") for n in NAMES))
    a, b, c, d, e, f, g, h = (sp.Symbol(n, real=True) for n in NAMES)
    players = [Player("Row", ("T", "B")), Player("Col", ("L", "R"))]
    return NormalFormGame.two_player(
        "two_by_two", domain, players, [[a, c], [e, g]], [[b, d], [f, h]],
        description="General-sum 2x2 game M = [[(a,b),(c,d)],[(e,f),(g,h)]] ("
        + SOURCE + ").")


