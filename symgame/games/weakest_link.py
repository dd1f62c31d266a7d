"""The final vote of Weakest Link (Ganzfried 2022, section 6.3 and Appendix D).

Three contestants remain: you and opponents 1 and 2.  You beat opponent k
head to head with probability ``p_k`` (opponent 2 is the stronger one,
``p1 > p2``); the winner takes the bank ``W``.  Opponent 1 votes for you with
probability ``y1`` (otherwise for opponent 2), opponent 2 for you with
probability ``y2`` (otherwise for opponent 1).  The contestant with most
votes leaves; a three-way tie removes each with probability 1/3.

The expected payoff of each of your two votes is computed here from these
rules by enumerating all four vote combinations of the opponents — the
paper keeps only two of them.
"""
from __future__ import annotations

from fractions import Fraction
from itertools import product

import sympy as sp

from ..model.game import NormalFormGame, Player
from ..model.parameters import parse_domain
from ..model.region import Atom, Domain
from ..references import cite

SOURCE = cite("ganzfried2022", "section 6.3 and Appendix D")
YOU, OPP1, OPP2 = "you", "opponent 1", "opponent 2"
CONTESTANTS = (YOU, OPP1, OPP2)


def symbols() -> dict[str, sp.Symbol]:
    return {n: sp.Symbol(n, real=True) for n in ("W", "p1", "p2", "y1", "y2")}


def elimination_probabilities(votes: dict[str, str]) -> dict[str, sp.Rational]:
    """Who leaves, given each contestant's vote: most votes, ties split evenly."""
    counts = {c: sum(1 for target in votes.values() if target == c) for c in CONTESTANTS}
    top = max(counts.values())
    leaving = [c for c in CONTESTANTS if counts[c] == top]
    return {c: sp.Rational(1, len(leaving)) if c in leaving else sp.Integer(0) for c in CONTESTANTS}


def expected_winnings(your_vote: str) -> sp.Expr:
    """Your expected prize for ``your_vote`` over all four opponent vote pairs."""
    s = symbols()
    win_against = {OPP1: s["p1"], OPP2: s["p2"]}
    opp1_choices = {YOU: s["y1"], OPP2: 1 - s["y1"]}
    opp2_choices = {YOU: s["y2"], OPP1: 1 - s["y2"]}
    total = sp.Integer(0)
    for (v1, q1), (v2, q2) in product(opp1_choices.items(), opp2_choices.items()):
        leaves = elimination_probabilities({YOU: your_vote, OPP1: v1, OPP2: v2})
        for gone, chance in leaves.items():
            if gone == YOU or chance == 0:
                continue
            finalist = OPP2 if gone == OPP1 else OPP1
            total += q1 * q2 * chance * win_against[finalist] * s["W"]
    return sp.expand(total)


def build_game() -> NormalFormGame:
    """Your vote as a one-player decision problem with parameters W, p1, p2, y1, y2."""
    s = symbols()
    domain = Domain(
        (parse_domain("W", "(0, oo)"), parse_domain("p1", "[0, 1]"), parse_domain("p2", "[0, 1]"),
         parse_domain("y1", "[0, 1]"), parse_domain("y2", "[0, 1]")),
        (Atom(s["p1"] - s["p2"], ">"),),
    )
    player = Player("You", ("vote opponent 1", "vote opponent 2"))
    return NormalFormGame.decision(
        "weakest_link", domain, player, [expected_winnings(OPP1), expected_winnings(OPP2)],
        description="Final vote of Weakest Link with opponents voting independently ("
        + SOURCE + ").")


def counterexample_grid() -> list[dict[str, Fraction]]:
    """Simple rational points to search for readable counterexamples."""
    values = [Fraction(k, 10) for k in range(11)]
    return [{"W": Fraction(1), "p1": a, "p2": b, "y1": c, "y2": d}
            for a, b, c, d in product(values, repeat=4) if a > b]
