"""General-sum 2x2 games with payoff parameters a..h (Ganzfried 2022, eq. (1)).

The payoff matrix is ``M = [[(a, b), (c, d)], [(e, f), (g, h)]]``: the row
player's payoffs are ``a, c, e, g`` and the column player's ``b, d, f, h``.
"""
from __future__ import annotations

import sympy as sp

from ..model.game import NormalFormGame, Player
from ..model.parameters import parse_domain
from ..model.pdl import PDL, Profile, Rule
from ..model.region import Atom, Domain, Region
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


def published_pdl(game: NormalFormGame) -> PDL:
    """The PDL printed in section 5 / Appendix A.

    The extracted text lost the relation symbols; we read ``a e and b d`` as
    ``a >= e and b >= d`` (Appendix A: "If the top-left cell is a
    pure-strategy equilibrium, then we must have a >= e and b >= d"), and the
    final rule as ``p = (h - f)/(b - f + h - d)``, ``q = (g - c)/(a - c + g - e)``.
    """
    a, b, c, d, e, f, g, h = (sp.Symbol(n, real=True) for n in NAMES)
    one, zero = sp.Integer(1), sp.Integer(0)

    def pure(row: int, col: int) -> Profile:
        x = (one, zero) if row == 0 else (zero, one)
        y = (one, zero) if col == 0 else (zero, one)
        return Profile((x, y))

    p = (h - f) / (b - f + h - d)
    q = (g - c) / (a - c + g - e)
    rules = (
        Rule(Region((Atom(a - e, ">="), Atom(b - d, ">="))), pure(0, 0), "(1,1)"),
        Rule(Region((Atom(c - g, ">="), Atom(d - b, ">="))), pure(0, 1), "(1,2)"),
        Rule(Region((Atom(e - a, ">="), Atom(f - h, ">="))), pure(1, 0), "(2,1)"),
        Rule(Region((Atom(g - c, ">="), Atom(h - f, ">="))), pure(1, 1), "(2,2)"),
        Rule(Region(()), Profile(((p, 1 - p), (q, 1 - q))), "mixed"),
    )
    return PDL(game.players, game.domain, rules)
