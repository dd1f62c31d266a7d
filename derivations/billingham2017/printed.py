"""Billingham (2017), "Full street simplified three player Kuhn poker", arXiv:1707.01392: what the paper prints.

Equations (1)-(3) (the profits: ``printed/profits.yaml``, a polynomial game file), Solutions 1a-10 (eqs.
(5)-(18)) and the sentences of section 3 (``printed/solutions.yaml``, read by
:func:`symgame.verify.printed.load_printed`), for comparison with what symgame derives from the rules; never an
input to the derivation.
"""
from __future__ import annotations

from pathlib import Path

import sympy as sp

from symgame.games.billingham import build_game, profits_from_rules
from symgame.model.polyfile import load_polynomial_game
from symgame.verify.printed import PrintedClaims, PrintedSolution, PrintedStatement, load_printed

PRINTED = Path(__file__).resolve().parent / "printed"


def printed_profits() -> dict[int, sp.Expr]:
    """Equations (1)-(3) of the paper, as printed (divided by 24)."""
    game = load_polynomial_game(PRINTED / "profits.yaml")
    return {int(player.name): sp.expand(player.payoff) for player in game.players}


def printed_profits_agree() -> bool:
    """Whether the profits from the rules equal the printed equations (1)-(3) identically."""
    derived, printed = profits_from_rules(), printed_profits()
    return all(sp.expand(derived[i] - printed[i]) == 0 for i in derived)


def printed_claims() -> PrintedClaims:
    """Solutions 1a-10 and the sentences of section 3, as printed."""
    return load_printed(PRINTED / "solutions.yaml", build_game())


def printed_solutions() -> list[PrintedSolution]:
    """Solutions 1a-10 of section 3, eqs. (5)-(18); Solution 10a's two cases are two entries."""
    return list(printed_claims().solutions)


def printed_statements() -> list[PrintedStatement]:
    """Sentences of section 3 (discussion of Figures 1 and 2) about all equilibria, as printed."""
    return list(printed_claims().statements)
