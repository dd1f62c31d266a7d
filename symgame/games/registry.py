"""The library of seed games known to ``symgame derive``."""
from __future__ import annotations

from fractions import Fraction

import sympy as sp

from ..model.pdl import Profile
from ..model.region import Atom
from . import two_by_two, weakest_link
from .analysis import Claim, GameSpec


def _weakest_link_claims(game):
    s = weakest_link.symbols()
    vote_stronger = Profile(((sp.Integer(0), sp.Integer(1)),))
    return (
        Claim("If p2 <= p1/2, always vote for the stronger player (opponent 2)",
              Atom(s["p1"] / 2 - s["p2"], ">="), vote_stronger),
        Claim("Converse: if p2 > p1/2, always voting for the stronger player is optimal",
              Atom(s["p2"] - s["p1"] / 2, ">"), vote_stronger),
    )


GAMES: dict[str, GameSpec] = {
    "two_by_two": GameSpec(
        name="two_by_two",
        title="General-sum 2x2 games",
        source=two_by_two.SOURCE,
        build=two_by_two.build_game,
        published=two_by_two.published_pdl,
        exhaustive_values=(Fraction(-1), Fraction(0), Fraction(1)),
        random_games=100_000,
    ),
    "weakest_link": GameSpec(
        name="weakest_link",
        title="Weakest Link: the final vote",
        source=weakest_link.SOURCE,
        build=weakest_link.build_game,
        published=weakest_link.published_pdl,
        claims=_weakest_link_claims,
        counterexample_points=weakest_link.counterexample_grid,
        notes=("The paper argues that only two opponent vote combinations matter (opponent 1 votes "
               "for you and opponent 2 for opponent 1, or the reverse) and drops the combination "
               "in which the two opponents vote for each other, which has probability "
               "(1 - y1)(1 - y2). There your vote decides who leaves: voting for opponent 1 leaves "
               "you against opponent 2 (win probability p2), voting for opponent 2 leaves you "
               "against opponent 1 (p1 > p2). symgame derives the payoffs from all four "
               "combinations."),
    ),
}
