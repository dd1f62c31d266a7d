"""Ganzfried (2022): the normal-form seed games (2x2 games, Weakest Link, Final Jeopardy) as analyses.

Each :class:`~symgame.games.analysis.GameSpec` builds the game from its rules (``symgame.games``), derives it
with the engine and compares the result with what the paper prints, read from the data files in
``printed/`` (PDL and game files in symgame's own formats).
"""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import sympy as sp

from symgame.engine.derive import derive_by_discovery
from symgame.export.pipeline import ExportResult, write_outputs
from symgame.games import jeopardy, two_by_two, weakest_link
from symgame.games.analysis import Claim, GameSpec, analyse
from symgame.model.game import NormalFormGame
from symgame.model.gamefile import load_game_file
from symgame.model.pdl import PDL, Profile
from symgame.model.pdlfile import load_pdl
from symgame.model.region import Atom
from symgame.numeric.kernels import game_kernels

PRINTED = Path(__file__).resolve().parent / "printed"


def printed_pdl(name: str):
    """The PDL printed in the paper for ``name`` (a file in ``printed/``), for the game it is read against."""
    def load(game: NormalFormGame) -> PDL:
        return load_pdl(PRINTED / f"{name}.pdl.yaml", game)
    return load


def printed_jeopardy_5_3() -> NormalFormGame:
    """Appendix B's matrix for scores (5, 3) as printed."""
    return load_game_file(PRINTED / "jeopardy_5_3.game.yaml")


def _weakest_link_claims(game):
    s = weakest_link.symbols()
    vote_stronger = Profile(((sp.Integer(0), sp.Integer(1)),))
    return (
        Claim("If p2 <= p1/2, always vote for the stronger player (opponent 2)",
              Atom(s["p1"] / 2 - s["p2"], ">="), vote_stronger),
        Claim("Converse: if p2 > p1/2, always voting for the stronger player is optimal",
              Atom(s["p2"] - s["p1"] / 2, ">"), vote_stronger),
    )


JEOPARDY_SCORES = ((5, 3), (8, 5), (10, 6), (12, 8))


def _jeopardy_derive(game):
    return derive_by_discovery(game, game_kernels)


def jeopardy_spec(score1: int, score2: int, grid_steps: int = 100) -> GameSpec:
    """Final Jeopardy for one pair of scores; the paper's result exists for (5, 3) only.

    ``grid_steps``: the exact check runs on the grid {0, 1/grid_steps, ..., 1}^2
    (101 x 101 points for the committed outputs).
    """
    jeopardy.validate_scores(score1, score2)
    paper = (score1, score2) == (5, 3)
    return GameSpec(
        name=f"jeopardy_{score1}_{score2}",
        title=f"Final Jeopardy, scores {score1} and {score2}",
        source=jeopardy.SOURCE,
        build=lambda: jeopardy.build_game(score1, score2),
        published=printed_pdl("jeopardy_5_3") if paper else None,
        printed_game=printed_jeopardy_5_3 if paper else None,
        counterexample_points=lambda: jeopardy.grid_points(10) + jeopardy.grid_points(20),
        exhaustive_values=tuple(Fraction(k, grid_steps) for k in range(grid_steps + 1)),
        derive=_jeopardy_derive,
        output_dir=f"jeopardy/{score1}_{score2}",
        notes=("Appendix B prints the entry for wagers (1, 2) as 1/2 - p2. From the rules: player 1 "
               "(5, wagers 1) ends with 6 or 4, player 2 (3, wagers 2) with 5 or 1; player 1 loses "
               "only when wrong while player 2 is right, so the entry is "
               "p1 + (1 - p1)(1 - p2) - 1/2 = 1/2 - p2 + p1 p2.") if paper else "",
    )


GAMES: dict[str, GameSpec] = {
    "two_by_two": GameSpec(
        name="two_by_two",
        title="General-sum 2x2 games",
        source=two_by_two.SOURCE,
        build=two_by_two.build_game,
        published=printed_pdl("two_by_two"),
        exhaustive_values=(Fraction(-1), Fraction(0), Fraction(1)),
        random_games=100_000,
    ),
    "weakest_link": GameSpec(
        name="weakest_link",
        title="Weakest Link: the final vote",
        source=weakest_link.SOURCE,
        build=weakest_link.build_game,
        published=printed_pdl("weakest_link"),
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

FAMILIES: dict[str, tuple[GameSpec, ...]] = {
    "two_by_two": (GAMES["two_by_two"],),
    "weakest_link": (GAMES["weakest_link"],),
    "jeopardy": tuple(jeopardy_spec(a, b) for a, b in JEOPARDY_SCORES),
}


def derive_game(name: str, out_root: Path, pdf: bool = True) -> ExportResult:
    """Analyse one seed game and write its outputs under ``out_root/<its folder>``."""
    spec = GAMES[name]
    return write_outputs(analyse(spec), out_root / spec.directory, pdf)


def derive_family(name: str, out_root: Path, pdf: bool = True) -> list[ExportResult]:
    """Every member of a game family (e.g. Final Jeopardy at several scores)."""
    return [write_outputs(analyse(spec), out_root / spec.directory, pdf) for spec in FAMILIES[name]]
