"""The paper studies' command line: ``python -m derivations COMMAND``.

Commands that belong to one paper rather than to symgame's library (the library's command line is ``symgame``):

* ``derive GAME|--all`` (also ``python -m derivations GAME``): the catalogue, as ``symgame derive``;
* ``jeopardy-scores --scores X1 X2``: Final Jeopardy for any scores (Ganzfried, "Human strategic decision making in
  parametrized games", Mathematics 10(7), 1147, 2022, section 6.1);
* ``kuhn-cards --cards N``: n-card Kuhn poker from the corrected closed form (the same paper, section 6.2);
* ``guts-coalition``, ``guts-team``: continuous Guts coalitions (Buck, Ganzfried, "Continuous Guts poker...", 2022);
* ``play guts|goofspiel``: play against the derived strategies.

Errors are one line with the exit statuses of ``symgame`` (2 input, 3 no result, 4 output, 130 interrupted).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Sequence

from symgame.cli import DEFAULT_OUT, EXIT_INPUT, EXIT_NO_RESULT, add_derive_parser, add_talk_options
from symgame.cli import main as run_main
from symgame.errors import InputError

COMMANDS = ("derive", "jeopardy-scores", "kuhn-cards", "guts-coalition", "guts-team", "play")


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``python -m derivations``."""
    parser = argparse.ArgumentParser(prog="python -m derivations", description="The paper studies of symgame.")
    add_talk_options(parser)
    sub = parser.add_subparsers(dest="command", required=True)
    add_derive_parser(sub)
    jeop = sub.add_parser("jeopardy-scores", help="Final Jeopardy for any scores X1 > X2 >= 0")
    jeop.add_argument("--scores", nargs=2, type=int, metavar=("X1", "X2"), required=True,
                      help="the two players' scores (X1 > X2 >= 0)")
    jeop.add_argument("--grid", type=int, default=20, metavar="N",
                      help="exact check on the grid {0, 1/N, ..., 1}^2 (default 20)")
    jeop.add_argument("--json", action="store_true", help="print the result JSON instead of writing files")
    jeop.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output root (default: outputs)")
    jeop.add_argument("--no-pdf", action="store_true", help="write the .tex without running pdflatex")
    jeop.set_defaults(func=cmd_jeopardy)
    kuhn = sub.add_parser("kuhn-cards", help="n-card Kuhn poker: certified value and an optimal strategy")
    kuhn.add_argument("--cards", type=int, required=True, metavar="N")
    kuhn.add_argument("--json", action="store_true", help="print JSON")
    kuhn.set_defaults(func=cmd_kuhn)
    coal = sub.add_parser("guts-coalition", help="continuous Guts: player 1 against N opponents acting as one")
    coal.add_argument("--opponents", type=int, required=True, metavar="N")
    coal.add_argument("--mesh", type=int, default=101, metavar="M", help="thresholds 0, 1/(M-1), ..., 1 (default 101)")
    coal.add_argument("--pseudo-bloc", action="store_true",
                      help="restrict the coalition to bloc and pseudo-bloc strategies (default: every multiset)")
    coal.add_argument("--weenie", action="store_true", help="the Weenie rule (Appendix B)")
    coal.add_argument("--json", action="store_true", help="print JSON")
    coal.set_defaults(func=cmd_guts_coalition)
    team = sub.add_parser("guts-team", help="continuous Guts: a team of m players against a team of k (section 5, e.g. 2 v 2)")
    team.add_argument("--team", type=int, default=2, metavar="m", help="size of the row team (default 2)")
    team.add_argument("--opponents", type=int, default=2, metavar="k", help="size of the column team (default 2)")
    team.add_argument("--mesh", type=int, default=21, metavar="M", help="thresholds 0, 1/(M-1), ..., 1 (default 21)")
    team.add_argument("--weenie", action="store_true", help="the Weenie rule (Appendix B)")
    team.add_argument("--json", action="store_true", help="print JSON")
    team.set_defaults(func=cmd_guts_team)
    play_cmd = sub.add_parser("play", help="play a game against symgame")
    play_sub = play_cmd.add_subparsers(dest="play_game", required=True)
    bot = play_sub.add_parser("guts", help="continuous Guts against an optimal coalition (reads h/d from stdin)")
    bot.add_argument("--opponents", type=int, default=2, metavar="N")
    bot.add_argument("--seed", type=int, default=0, metavar="S")
    bot.add_argument("--games", type=int, default=5, metavar="G")
    bot.set_defaults(func=cmd_play_guts)
    gbot = play_sub.add_parser("goofspiel", help="N-card Goofspiel against the optimal strategy (bids from stdin)")
    gbot.add_argument("--cards", type=int, default=5, metavar="N")
    gbot.add_argument("--objective", choices=("amount", "win"), default="amount")
    gbot.add_argument("--seed", type=int, default=0, metavar="S")
    gbot.add_argument("--games", type=int, default=1, metavar="G")
    gbot.set_defaults(func=cmd_play_goofspiel)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m derivations ...``; a first argument that is not a command is a study to derive (``python -m
    derivations kuhn3`` is ``python -m derivations derive kuhn3``, as before)."""
    args = list(sys.argv[1:] if argv is None else argv)
    first = next((a for a in args if a not in ("-q", "--quiet", "-v", "--verbose")), None)
    if first is not None and first not in COMMANDS and first not in ("-h", "--help"):
        at = args.index(first)
        args = [*args[:at], "derive", *args[at:]]
    return run_main(args, build_parser())


MAX_JEOPARDY_SCORE = 40



def cmd_jeopardy(args: argparse.Namespace) -> int:
    """``python -m derivations jeopardy-scores --scores X1 X2 [--json]``: Final Jeopardy for any scores."""
    from symgame.engine.pdl_builder import CoverageError
    from symgame.export.documents import analysis_json, dumps
    from symgame.export.pipeline import write_outputs
    from symgame.games.analysis import analyse

    from .ganzfried2022.seeds import jeopardy_spec

    score1, score2 = args.scores
    if not score1 > score2 >= 0:
        print(f"jeopardy: scores must satisfy X1 > X2 >= 0 (got {score1} {score2})", file=sys.stderr)
        return EXIT_INPUT
    if score1 > MAX_JEOPARDY_SCORE:
        print(f"jeopardy: X1 = {score1} is beyond the measured range (X1 <= {MAX_JEOPARDY_SCORE}); "
              "express the scores in larger units", file=sys.stderr)
        return EXIT_INPUT
    spec = jeopardy_spec(score1, score2, grid_steps=args.grid)
    try:
        analysis = analyse(spec)
    except CoverageError as exc:
        print(f"jeopardy: jeopardy {score1} {score2}: {exc}", file=sys.stderr)
        return EXIT_NO_RESULT
    if args.json:
        sys.stdout.write(dumps(analysis_json(analysis)))
        return 0
    result = write_outputs(analysis, args.out / spec.directory, pdf=not args.no_pdf)
    print(f"{result.directory}: wrote {len(result.files)} files; pdf: {result.pdf.message}")
    return 0



MAX_KUHN_CARDS = 100_000


def cmd_kuhn(args: argparse.Namespace) -> int:
    """``python -m derivations kuhn-cards --cards N [--json]``: the corrected closed form at N, certified exactly."""
    from symgame.export.documents import dumps
    from symgame.games import kuhn

    from .ganzfried2022 import kuhn_pdl

    if not 2 <= args.cards <= MAX_KUHN_CARDS:
        print(f"kuhn: --cards must be between 2 and {MAX_KUHN_CARDS} (got {args.cards})", file=sys.stderr)
        return EXIT_INPUT
    if args.cards == 2:   # the closed form starts at 3 cards; 2 cards: the LP, certified
        solution = kuhn.solve_exactly(2)
        value, behaviours, source = solution.value, solution.behaviours, "certified sequence-form LP solution"
        thresholds = None
    else:
        pdl = kuhn_pdl.corrected_pdl(args.cards)
        behaviours = kuhn_pdl.behaviours(pdl)
        bounds = kuhn_pdl.exact_bounds(args.cards, *behaviours)
        if not bounds.certified:   # never seen for n <= 100,000; reported rather than hidden
            print(f"kuhn: the closed form is not optimal at n = {args.cards} "
                  f"(bounds {bounds.lower} < {bounds.upper})", file=sys.stderr)
            return EXIT_NO_RESULT
        value, source = bounds.lower, ("corrected closed-form PDL (outputs/kuhn/cheatsheet.tex) evaluated at N; "
                                       "exact best responses on both sides give equal bounds")
        thresholds = {name: str(getattr(pdl, name)) for name in kuhn_pdl.THRESHOLDS}
    table = kuhn.strategy_table(args.cards, behaviours)
    if args.json:
        data = {"cards": args.cards, "value": str(value), "strategy": table, "strategy_source": source,
                "certified": True}
        if thresholds is not None:
            data["thresholds"] = thresholds
            formula = kuhn_pdl.value_formula()
            data["value_formula"] = str(formula.cases()[args.cards % formula.modulus][1])
        sys.stdout.write(dumps(data))
    else:
        print(f"{args.cards}-card Kuhn poker: value for A = {value} (certified; {source})")
        for player, rules in table.items():
            for action, probs in rules.items():
                shown = {c: p for c, p in probs.items() if p != "0"}
                print(f"  {player} {action}: " + (", ".join(f"{c}: {p}" for c, p in shown.items()) or "never"))
    return 0



def cmd_play_goofspiel(args: argparse.Namespace) -> int:
    """``python -m derivations play goofspiel --cards N``: play against the optimal strategy, bids read from stdin."""
    from symgame.errors import InputError
    from symgame.games.goofspiel import play, solve

    if args.games < 1:
        print("play goofspiel: --games must be positive", file=sys.stderr)
        return EXIT_INPUT
    try:
        solution = solve(args.cards, objective=args.objective)
    except InputError as exc:
        print(f"play goofspiel: {exc}", file=sys.stderr)
        return EXIT_INPUT

    if sys.stdin is None:
        print("play goofspiel: standard input is closed (the game reads your bets from it)", file=sys.stderr)
        return EXIT_INPUT
    play(solution, sys.stdin, lambda text: print(text, flush=True), seed=args.seed, games=args.games)
    return 0



MAX_GUTS_MESH = 1001
MAX_GUTS_OPPONENTS = 60


def cmd_guts_coalition(args: argparse.Namespace) -> int:
    """``python -m derivations guts-coalition --opponents N --mesh M [--pseudo-bloc] [--weenie] [--json]``."""
    from symgame.export.documents import dumps

    from .buck2022 import coalitions

    if not 1 <= args.opponents <= MAX_GUTS_OPPONENTS or not 2 <= args.mesh <= MAX_GUTS_MESH:
        print(f"guts: need 1 <= --opponents <= {MAX_GUTS_OPPONENTS} and 2 <= --mesh <= {MAX_GUTS_MESH} "
              f"(got {args.opponents}, {args.mesh})", file=sys.stderr)
        return EXIT_INPUT
    lazy = args.pseudo_bloc and args.opponents > 1 and args.mesh > coalitions.DENSE_PSEUDO_BLOC_MESH
    try:
        r = (coalitions.solve_fine_pseudo_bloc(args.opponents, args.mesh, args.weenie) if lazy else
             coalitions.solve_coalition(args.opponents, args.mesh, args.weenie, pseudo_bloc=args.pseudo_bloc))
    except InputError as exc:
        print(f"guts: {exc}", file=sys.stderr)
        return EXIT_INPUT
    data = {
        "opponents": r.opponents, "mesh": r.mesh, "weenie": r.weenie, "pseudo_bloc": r.pseudo_bloc,
        "player1_value": r.player1_value, "coalition_holds_player1_to": r.coalition_side_value,
        "player1_certified_bounds": ([str(r.certified_lower.bound), str(r.certified_upper.bound)]
                                     if r.certified_lower is not None else None),
        "player1_certified_at_most": str(r.certified_upper.bound) if r.certified_upper is not None else None,
        "player1_strategy": {f"{p:.6g}": w for p, w in sorted(r.player1_strategy.items())},
        "coalition_strategy": [{"thresholds": list(c), "prob": w} for c, w in r.coalition_strategy],
        "newton_steps": r.newton_steps,
    }
    if args.json:
        sys.stdout.write(dumps(data))
    else:
        bounds = (f"certified in [{float(r.certified_lower.bound):.10f}, {float(r.certified_upper.bound):.10f}]"
                  if r.certified_lower is not None else
                  f"coalition side {r.coalition_side_value:.10f}, certified <= {float(r.certified_upper.bound):.10f}; "
                  "lazily priced, player 1's side not certified")
        print(f"1 v {r.opponents} continuous Guts{' (Weenie rule)' if r.weenie else ''}, mesh {r.mesh}: "
              f"player 1 forces {r.player1_value:.6f} ({bounds})")
        print("  player 1: " + ", ".join(f"{p:.3f} w.p. {w:.3f}" for p, w in sorted(r.player1_strategy.items())))
        for c, w in r.coalition_strategy:
            print(f"  coalition w.p. {w:.3f}: " + ", ".join(f"{t:.3f}" for t in c))
    return 0


def cmd_guts_team(args: argparse.Namespace) -> int:
    """``python -m derivations guts-team --team m --opponents k --mesh M [--weenie] [--json]``: certified m v k team game."""
    from symgame.export.documents import dumps

    from .buck2022 import coalitions

    if not (1 <= args.team and 1 <= args.opponents and args.team + args.opponents <= MAX_GUTS_OPPONENTS + 1
            and 2 <= args.mesh <= MAX_GUTS_MESH):
        print(f"guts team: need team sizes >= 1 with at most {MAX_GUTS_OPPONENTS + 1} players and "
              f"2 <= --mesh <= {MAX_GUTS_MESH} (got {args.team}, {args.opponents}, {args.mesh})", file=sys.stderr)
        return EXIT_INPUT
    try:
        r = coalitions.solve_team_game(args.team, args.opponents, args.mesh, args.weenie)
    except InputError as exc:
        print(f"guts team: {exc}", file=sys.stderr)
        return EXIT_INPUT
    data = {
        "team": r.team, "opponents": r.opponents, "mesh": r.mesh, "weenie": r.weenie,
        "team_value": r.lower_value, "opponents_hold_team_to": r.upper_value,
        "team_certified_bounds": [str(r.certified_lower.bound), str(r.certified_upper.bound)],
        "team_strategy": [{"thresholds": list(c), "prob": w} for c, w in r.row_strategy],
        "opponents_strategy": [{"thresholds": list(c), "prob": w} for c, w in r.column_strategy],
    }
    if args.json:
        sys.stdout.write(dumps(data))
        return 0
    print(f"{r.team} v {r.opponents} continuous Guts{' (Weenie rule)' if r.weenie else ''}, mesh {r.mesh}: the team "
          f"forces {r.lower_value:.6f} (certified in [{float(r.certified_lower.bound):.10f}, "
          f"{float(r.certified_upper.bound):.10f}])")
    for name, mix in (("team", r.row_strategy), ("opponents", r.column_strategy)):
        for c, w in mix:
            print(f"  {name} w.p. {w:.3f}: " + ", ".join(f"{t:.3f}" for t in c))
    return 0


def cmd_play_guts(args: argparse.Namespace) -> int:
    """``python -m derivations play guts --opponents N [--seed S] [--games G]``: the interactive Guts bot."""
    from .buck2022 import bot

    if not 1 <= args.opponents <= 15 or args.games < 1:
        print("play guts: need 1 <= --opponents <= 15 and --games >= 1", file=sys.stderr)
        return EXIT_INPUT
    if sys.stdin is None:
        print("play guts: standard input is closed (the game reads your moves from it)", file=sys.stderr)
        return EXIT_INPUT
    bot.play(args.opponents, args.seed, bot.lines_from(sys.stdin), lambda text: print(text, flush=True), args.games)
    return 0
