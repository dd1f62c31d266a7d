"""Command-line interface: ``symgame list | derive | solve | convert | atlas | goofspiel | stability | dynamics``.

Heavy modules (sympy, scipy, z3) are imported inside the command that uses them, so that
``symgame --help`` and the refusal of a bad command start quickly.
"""
from __future__ import annotations

import argparse
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any, Sequence

from ._studies import StudiesNotFound
from .errors import InputError, SymgameError

EXIT_INPUT = 2
EXIT_OUTPUT = 4             # an output that cannot be written (a folder that is a file, read-only, a full disk)
SELECTIONS = ("default", "symmetric", "welfare", "all")   # symgame.engine.selection.SELECTIONS (a test checks)
EXIT_NO_RESULT = 3
DEFAULT_OUT = Path("outputs")
#: ``symgame.engine.atlas.DEFAULT_BUDGET`` (a test checks they agree; the engine is not imported for --help).
DEFAULT_BUDGET = 3 ** 14


def build_parser() -> argparse.ArgumentParser:
    from ._version import __version__

    parser = argparse.ArgumentParser(prog="symgame", description="Symbolic equilibria of parametrized games.")
    parser.add_argument("--version", action="version", version=f"symgame {__version__}")
    add_talk_options(parser)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="list the example games and the paper studies").set_defaults(func=cmd_list)
    add_derive_parser(sub)
    solve = sub.add_parser("solve", help="solve any game file (.nfg, .efg, YAML, JSON): the engine follows from "
                                         "the game (symgame.solve)")
    solve.set_defaults(func=cmd_solve, limited=True)
    solve.add_argument("file", type=Path, help="the game file, or - for standard input (Gambit .nfg/.efg by their "
                                               "first word, else YAML or JSON)")
    fmt = solve.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="print the JSON result")
    fmt.add_argument("--latex", action="store_true", help="print a LaTeX cheat sheet")
    fmt.add_argument("--markdown", action="store_true", help="print a Markdown summary")
    _timeout_option(solve)
    solve.add_argument("--strict", action="store_true",
                       help=".efg: refuse chance probabilities that do not sum to 1 exactly as written (default: "
                            "floating-point decimals such as 0.3333333333333333 are read as the fractions they "
                            "stand for, and the output says so)")
    solve.add_argument("--all", action="store_true",
                       help="every equilibrium: vertex enumeration of a normal form without parameters, every "
                            "equilibrium of a tree instead of one")
    solve.add_argument("--workers", type=int, default=1, metavar="N",
                       help="processes for the atlas (games solved by the case split; default 1)")
    solve.add_argument("--certify", action="store_true",
                       help="games of three or more players: prove each answer of msolve afterwards, checked "
                            "exactly: no equilibrium by a linear certificate, the others by membership certificates "
                            "(needs Singular: pip install --no-deps passagemath-singular; can take far longer than "
                            "the enumeration)")
    solve.add_argument("--select", choices=SELECTIONS, default="default",
                       help="which equilibrium each rule shows: default (pure first; a rule valid everywhere "
                            "first), symmetric, welfare (largest sum of payoffs), all (every equilibrium by region)")
    conv = sub.add_parser("convert", help="convert a game file: .nfg, .efg, .yaml, .json (by extension)")
    conv.set_defaults(func=cmd_convert)
    conv.add_argument("source", type=Path)
    conv.add_argument("target", type=Path)
    goof = sub.add_parser("goofspiel", help="N-card Goofspiel (the game of pure strategy): value and first move")
    goof.set_defaults(func=cmd_goofspiel, limited=True)
    goof.add_argument("--cards", type=int, required=True, metavar="N")
    goof.add_argument("--exact", action="store_true", help="rational arithmetic, every matrix game certified")
    goof.add_argument("--objective", choices=("amount", "win"), default="amount",
                      help="amount won (the paper's zero-sum scoring, default) or win: P(win) - P(loss)")
    goof.add_argument("--json", action="store_true", help="print JSON")
    goof.add_argument("--workers", type=int, default=1, metavar="N",
                      help="local processes per level (default 1: serial)")
    goof.add_argument("--scheduler", metavar="ADDRESS", help="run the levels on a Dask distributed scheduler")
    goof.add_argument("--checkpoint", type=Path, metavar="FOLDER",
                      help="save each finished level in FOLDER and resume from it")
    goof.add_argument("--progress", action="store_true", help="report each level on stderr")
    _timeout_option(goof)
    atlas = sub.add_parser("atlas", help="every equilibrium of a one-parameter polynomial game file")
    atlas.set_defaults(func=cmd_atlas, limited=True)
    atlas.add_argument("file", type=Path)
    atlas.add_argument("--json", action="store_true", help="print JSON")
    _timeout_option(atlas)
    atlas.add_argument("--at", metavar="P=VALUE", help="families valid at one parameter value, with witnesses")
    atlas.add_argument("--budget", type=int, default=DEFAULT_BUDGET, metavar="N",
                       help=f"largest raw case space to enumerate (default {DEFAULT_BUDGET} = 3^14)")
    atlas.add_argument("--workers", type=int, default=None, metavar="N",
                       help="local processes (default: every core; 1 runs serially)")
    atlas.add_argument("--scheduler", metavar="ADDRESS", help="run on a Dask distributed scheduler "
                       "(needs the extra symgame[dask])")
    atlas.add_argument("--checkpoint", type=Path, metavar="FILE",
                       help="record finished work in FILE and resume from it")
    atlas.add_argument("--progress", action="store_true", help="report progress on stderr")
    dyn = sub.add_parser("dynamics", help="a trajectory of the gradient dynamics of a polynomial game file, or of "
                         "the replicator dynamics of a normal-form game (.nfg, YAML)")
    dyn.set_defaults(func=cmd_dynamics, limited=True)
    dyn.add_argument("file", type=Path)
    dyn.add_argument("--at", metavar="P=VALUE", help="the parameter value (required when the game has one)")
    dyn.add_argument("--from", dest="start", metavar="x1=V,x2=V", help="initial frequencies in (0, 1) "
                     "(default 1/2 for every variable not given)")
    dyn.add_argument("--until", type=float, default=2000.0, metavar="T", help="integrate to t = T (default 2000)")
    dyn.add_argument("--rate", action="append", default=[], metavar="x=K", help="rate k_x of one variable "
                     "(default 1; repeatable)")
    dyn.add_argument("--scale", default="1", metavar="S", help="common factor of the vector field (Billingham: 24)")
    dyn.add_argument("--single-population", action="store_true", help="normal-form games: one population "
                     "playing a symmetric game against itself (default: one population per player)")
    dyn.add_argument("--json", action="store_true", help="print JSON")
    _timeout_option(dyn)
    stab = sub.add_parser("stability", help="stability of every equilibrium family under the gradient dynamics, "
                          "with the parameter symbolic")
    stab.set_defaults(func=cmd_stability, limited=True)
    stab.add_argument("file", type=Path)
    stab.add_argument("--rate", action="append", default=[], metavar="x=K", help="rate k_x of one variable")
    stab.add_argument("--scale", default="1", metavar="S", help="common factor of the vector field")
    stab.add_argument("--workers", type=int, default=None, metavar="N",
                      help="local processes for the atlas (default: every core; 1 runs serially)")
    stab.add_argument("--scheduler", metavar="ADDRESS", help=argparse.SUPPRESS)
    stab.add_argument("--json", action="store_true", help="print JSON")
    _timeout_option(stab)
    return parser


def add_talk_options(parser: argparse.ArgumentParser) -> None:
    """``-q/--quiet`` and ``-v/--verbose`` (also used by ``python -m derivations``)."""
    talk = parser.add_mutually_exclusive_group()
    talk.add_argument("-q", "--quiet", action="store_true",
                      help="no progress or file lists on the terminal (results and errors only)")
    talk.add_argument("-v", "--verbose", action="store_true",
                      help="also say on standard error which engine answered, how it was checked, and how long it took")


def add_derive_parser(sub: Any) -> argparse.ArgumentParser:
    """The ``derive`` subcommand (the paper studies' catalogue; also ``python -m derivations derive``)."""
    derive = sub.add_parser("derive", help="derive, verify and export a paper study (see 'symgame list')")
    derive.add_argument("game", nargs="?", help="study name (see 'symgame list')")
    derive.add_argument("--all", action="store_true", help="regenerate the outputs of every study")
    derive.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output root (default: outputs)")
    derive.add_argument("--no-pdf", action="store_true", help="write the .tex without running pdflatex")
    derive.add_argument("--recompute", action="store_true",
                        help="recompute long study parts even when their content-hashed cache is current")
    derive.add_argument("--status", action="store_true",
                        help="list the cached study parts whose code changed since they were computed (no computing)")
    derive.set_defaults(func=cmd_derive)
    return derive


def _timeout_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-o", "--output", type=Path, default=None, metavar="FILE",
                        help="write what would go to standard output to FILE instead (atomically, never through a "
                             "symbolic link; nothing is written when the command prints nothing)")
    parser.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                        help="stop with exit 3 and one line when no result is reached within SECONDS of wall time "
                             "(nothing is written; a checkpoint keeps what was finished)")


def main(argv: Sequence[str] | None = None, parser: argparse.ArgumentParser | None = None) -> int:
    """Parse ``argv`` (``sys.argv[1:]`` by default) with ``parser`` (symgame's own by default; the paper studies
    pass theirs) and run the subcommand: one line and an exit status for every error (2 input, 3 no result,
    4 output, 130 interrupted)."""
    import os

    args = (parser or build_parser()).parse_args(argv)
    seconds = getattr(args, "timeout", None)
    if seconds is not None and seconds > 0 and hasattr(os, "fork") and _real_streams():
        # the command runs in a child and this process watches the clock: a native call that holds the
        # interpreter cannot make the limit late (the in-process limit of _limited still gives the usual line)
        from .model.isolated import run_with_deadline

        # the child runs without an in-process alarm (one that fires while the command forks its workers
        # ends inside the fork's handlers as an "Exception ignored" traceback): the watch here is the limit
        child = argparse.Namespace(**{**vars(args), "timeout": None})
        status = run_with_deadline(lambda: _run(child), seconds)
        if status is None:
            print(f"{_where(args)}: no result within the time limit of {seconds:g} s", file=sys.stderr)
            return EXIT_NO_RESULT
        return status
    return _run(args)


def _real_streams() -> bool:
    """Whether standard output and error are files a child process shares (not an in-memory capture)."""
    try:
        sys.stdout.fileno()
        sys.stderr.fileno()
    except (AttributeError, OSError, ValueError):
        return False
    return True


def _run(args: argparse.Namespace) -> int:
    import signal

    from .model.isolated import interruptible

    exits = {int(signal.SIGINT): (130, "symgame: interrupted"),
             int(signal.SIGALRM): (EXIT_NO_RESULT, f"symgame {args.command}: no result within the time limit")}
    try:
        with interruptible(exits):          # Ctrl-C also stops a z3 check running in the main process
            return _dispatch(args)
    except KeyboardInterrupt:               # one that surfaced wrapped in a native call's error
        print("symgame: interrupted", file=sys.stderr)
        return 130


def _dispatch(args: argparse.Namespace) -> int:
    """Run the subcommand's ``func`` (set by its parser), under ``--timeout``/``-o`` where the parser says
    ``limited``, and map what it raises to one line and an exit status by the exception's type."""
    try:
        if getattr(args, "limited", False):
            return _limited(args, args.func)
        return args.func(args)
    except StudiesNotFound as exc:
        print(f"symgame {args.command}: {exc}", file=sys.stderr)
        return EXIT_INPUT
    except KeyboardInterrupt:
        print("symgame: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        raise
    except OSError as exc:                  # an output folder that is a file, read-only, a full disk, a closed stream
        where = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
        print(f"symgame {args.command}: {where}{exc.strerror or exc}", file=sys.stderr)
        return EXIT_OUTPUT
    except SymgameError as exc:             # anything symgame raises on purpose that a command did not map itself
        from .errors import NoResultError

        file = getattr(args, "file", None)
        named = file is None or str(file) in str(exc)
        print(f"symgame {args.command}: {'' if named else f'{file}: '}{exc}", file=sys.stderr)
        return EXIT_NO_RESULT if isinstance(exc, NoResultError) else EXIT_INPUT


def _limited(args: argparse.Namespace, command: Any) -> int:
    """Run ``command(args)`` under the ``--timeout`` of the command line (exit 3 and one line when it expires)."""
    from .errors import TimeLimitError
    from .model.isolated import time_limit

    seconds = getattr(args, "timeout", None)
    if seconds is not None and not seconds > 0:
        print(f"symgame {args.command}: --timeout must be a positive number of seconds", file=sys.stderr)
        return EXIT_INPUT
    try:
        with time_limit(seconds):
            if getattr(args, "output", None) is None:
                return command(args)
            return _to_file(args, command)
    except TimeLimitError as exc:
        print(f"{_where(args)}: {exc}", file=sys.stderr)
        return EXIT_NO_RESULT


def _to_file(args: argparse.Namespace, command: Any) -> int:
    """``command(args)`` with its standard output collected and written to ``--output`` (atomically) when it ends;
    a run stopped by an error or an interrupt writes nothing."""
    import contextlib
    import io

    from .model.store import write_atomic

    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        status = command(args)
    if buffer.getvalue():
        write_atomic(args.output, buffer.getvalue())
    return status


def _where(args: argparse.Namespace) -> str:
    """``symgame COMMAND: FILE`` (the file only for commands that read one)."""
    file = getattr(args, "file", None)
    return f"symgame {args.command}" + (f": {file}" if file is not None else "")


def cmd_list(args: argparse.Namespace | None = None) -> int:
    """``symgame list``: the example games shipped with the package, then the paper studies when the source
    repository is there."""
    from ._studies import StudiesNotFound, load
    from .api import examples

    print("example games (symgame solve PATH):")
    for name, path in examples().items():
        print(f"  {name:20s} {path}")
    try:
        catalogue = load().CATALOGUE
    except StudiesNotFound:
        print("paper studies (symgame derive GAME): in the source repository's derivations/ folder")
        return 0
    print("paper studies (symgame derive GAME):")
    for name, (title, source, outputs) in catalogue.items():
        print(f"  {name:14s} {title}  [{source}]  outputs: {', '.join(outputs)}")
    return 0


def cmd_derive(args: argparse.Namespace) -> int:
    from ._studies import load

    catalogue = load().CATALOGUE
    if args.status:
        return derive_status(args.out)
    if args.all == bool(args.game):
        print("symgame derive: give one GAME or --all", file=sys.stderr)
        return EXIT_INPUT
    names = list(catalogue) if args.all else [args.game]
    unknown = [n for n in names if n not in catalogue]
    if unknown:
        print(f"symgame derive: unknown game {unknown[0]!r} (known: {', '.join(catalogue)})", file=sys.stderr)
        return EXIT_INPUT
    from .errors import StoreError

    run = load("run")
    status = 0
    for name in names:
        try:
            for written in run.derive(name, args.out, pdf=not args.no_pdf, recompute=args.recompute,
                                      progress=None if args.quiet else _progress(name)):
                pdf = f"; pdf: {written.pdf}" if written.pdf is not None else ""
                if not args.quiet:
                    print(f"{written.directory}: wrote {written.files} files{pdf}")
                if written.pdf_failed:
                    status = EXIT_NO_RESULT
        except StoreError as exc:
            print(f"symgame derive {name}: {exc} (`--recompute` computes the part again)", file=sys.stderr)
            return EXIT_INPUT
    return status


def derive_status(root: Path) -> int:
    """``symgame derive --status``: each study cache, its parts, and those whose code changed since computed."""
    from .errors import StoreError
    from .export.cache import cache_status

    try:
        found = cache_status(root)
    except StoreError as exc:
        print(f"symgame derive --status: {exc}", file=sys.stderr)
        return EXIT_INPUT
    if not found:
        print(f"{root}: no study caches")
    for path, parts, changed in found:
        text = "code unchanged" if not changed else f"code changed since computed: {', '.join(changed)}"
        print(f"{path}: {parts} parts, {text}")
    return 0


def _progress(game: str):
    def report(part: str, seconds: float) -> None:
        print(f"{game}: part {part} done ({seconds:.0f} s)", file=sys.stderr, flush=True)
    return report


def cmd_goofspiel(args: argparse.Namespace) -> int:
    """``symgame goofspiel --cards N [--objective amount|win] [--exact] [--json]``: value and first moves."""
    from .api import executor
    from .export.documents import dumps
    from .games.goofspiel import solve

    if args.workers < 1:
        print("symgame goofspiel: --workers must be positive", file=sys.stderr)
        return EXIT_INPUT
    progress = (lambda line: print(line, file=sys.stderr, flush=True)) if args.progress else None
    try:
        with executor(args.workers, args.scheduler) as mapper:
            result = solve(args.cards, exact=args.exact, objective=args.objective, mapper=mapper,
                           checkpoint=args.checkpoint, progress=progress)
    except (InputError, ValueError) as exc:
        print(f"symgame goofspiel: {exc}", file=sys.stderr)
        return EXIT_INPUT
    if args.exact and hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(0)        # exact probabilities have thousands of digits from N = 6

    def show(p) -> Any:
        return str(p) if args.exact else round(float(p), 12)

    if args.json:
        sys.stdout.write(dumps({
            "cards": result.cards, "objective": result.objective, "exact": result.exact, "value": show(result.value),
            "first_move": {str(c): {str(b): show(p) for b, p in row.items()} for c, row in result.first_move.items()},
            "states": result.states, "matrix_games": result.matrix_games, "saddle_points": result.saddle_points}))
        return 0
    what = "amount won" if result.objective == "amount" else "P(win) - P(loss)"
    print(f"{result.cards}-card Goofspiel ({what}): value {show(result.value)} ({result.states} stored subgames, "
          f"{result.matrix_games} matrix games, {result.saddle_points} with a saddle point)")
    print("first move (rows: bets, columns: upcards):")
    print("bet " + "".join(f"{c:>9d}" for c in result.first_move))
    for bet in range(1, result.cards + 1):
        print(f"{bet:3d} " + "".join(f"{float(result.first_move[c][bet]):9.4f}" for c in result.first_move))
    return 0


def cmd_convert(args: argparse.Namespace) -> int:
    """``symgame convert IN OUT``: Gambit .nfg/.efg and symgame's YAML/JSON game files, by extension.

    .efg to .efg (normalised), .efg or .nfg or a game file without parameters to .nfg (a tree through its
    strategic form), .efg to a YAML/JSON game tree (the tree kept: information sets, chance, payoffs), .nfg (one
    or two players) to a YAML/JSON game file.
    """
    import json

    import yaml

    from .model import gambit
    from .model.gamefile import GameFileError, load_game_file

    src, dst = args.source, args.target
    kinds = {".nfg": "nfg", ".efg": "efg", ".yaml": "yaml", ".yml": "yaml", ".json": "json"}
    a, b = kinds.get(src.suffix.lower()), kinds.get(dst.suffix.lower())
    if a is None or b is None:
        print(f"symgame convert: extensions must be .nfg, .efg, .yaml or .json (got {src.suffix or src.name} -> "
              f"{dst.suffix or dst.name})", file=sys.stderr)
        return EXIT_INPUT
    try:
        if b == "efg":
            if a == "efg":
                tree = gambit.load_efg(src)
            else:                                          # a YAML/JSON game tree (without parameters)
                from .model.gamefile import read_document
                from .model.treefile import is_tree_data

                data, where = read_document(src)
                if not is_tree_data(data):
                    raise gambit.GambitError(f"{src}: only a game tree (.efg, or a YAML/JSON tree) can be written "
                                             "as .efg")
                tree = gambit.tree_from_tree_data(data, where)
            text = gambit.write_efg(tree)
        elif a == "efg" and b in ("yaml", "json"):        # the tree itself, in symgame's tree format
            data = gambit.tree_to_data(gambit.load_efg(src))
            text = (json.dumps(data, indent=2) + "\n" if b == "json"
                    else yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100))
        else:
            if a == "efg":
                game = gambit.tree_to_strategic(gambit.load_efg(src), source=str(src))
            elif a == "nfg":
                game = gambit.load_nfg(src)
            else:
                game = gambit.from_normal_form(load_game_file(src))
            if b == "nfg":
                text = gambit.write_nfg(game)
            else:
                data = gambit.strategic_to_data(game)
                text = (json.dumps(data, indent=2) + "\n" if b == "json"
                        else yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100))
    except (gambit.GambitError, GameFileError) as exc:
        print(f"symgame convert: {exc}", file=sys.stderr)
        return EXIT_INPUT
    from .errors import StoreError
    from .model.store import write_atomic

    try:
        write_atomic(dst, text)
    except StoreError as exc:
        print(f"symgame convert: {exc}", file=sys.stderr)
        return EXIT_INPUT
    print(f"wrote {dst}")
    return 0


def cmd_solve(args: argparse.Namespace) -> int:
    """``symgame solve FILE``: :func:`symgame.solve` on the file (the engine follows from the game) and one of
    :class:`symgame.Solution`'s renderers. Exit 3 when the result is not certified."""
    import tempfile
    import time

    from .api import solve
    from .errors import NoResultError

    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="symgame-stdin-") as folder:
        file, shown = args.file, str(args.file)
        try:
            if shown == "-":
                file, shown = _stdin_file(Path(folder)), "<stdin>"
            solution = solve(file, source=shown, select=args.select, every=args.all, strict=args.strict,
                             certify=getattr(args, "certify", False),
                             workers=getattr(args, "workers", 1))
        except NoResultError as exc:
            print(f"symgame: {_located(exc, file, shown)}", file=sys.stderr)
            return EXIT_NO_RESULT
        except InputError as exc:
            print(f"symgame: {_located(exc, file, shown)}", file=sys.stderr)
            return EXIT_INPUT
    if args.json:
        sys.stdout.write(solution.to_json())
    elif args.latex:
        sys.stdout.write(solution.to_latex())
    elif args.markdown:
        sys.stdout.write(solution.to_markdown())
    elif args.select == "all":
        print(solution.render_all())
    else:
        print(solution.render_text())
    if getattr(args, "verbose", False):
        data = solution.to_data()
        print(f"symgame solve: {shown}: engine {data['engine']['name']} ({data['engine']['method']}); "
              f"{data['complete']['status']}; certificate {data['certificate']['status']} "
              f"({data['certificate']['method']}); {time.perf_counter() - start:.2f} s", file=sys.stderr)
    return 0 if solution.certified else EXIT_NO_RESULT


def _located(exc: Exception, file: Path, shown: str) -> str:
    """The error's line, naming the file as the user gave it (``<stdin>`` for ``-``) in front unless the message
    already names it."""
    text = str(exc).replace(str(file), shown)
    return text if shown in text else f"{shown}: {text}"


def _stdin_file(folder: Path) -> Path:
    """Standard input (at most the game files' size cap) as a file in ``folder`` named by its format: a Gambit
    ``.nfg``/``.efg`` by its first word, anything else YAML (which reads JSON too)."""
    from .model.gamefile import MAX_FILE_BYTES
    from .model.store import write_atomic

    if sys.stdin is None:
        raise InputError("standard input is closed (give a file, or pipe the game into symgame solve -)")
    raw = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
    if len(raw) > MAX_FILE_BYTES:
        raise InputError(f"standard input larger than {MAX_FILE_BYTES} bytes")
    head = raw.lstrip()[:3].upper()
    suffix = {b"NFG": ".nfg", b"EFG": ".efg"}.get(head, ".yaml")
    return write_atomic(folder / f"stdin{suffix}", raw)


def cmd_atlas(args: argparse.Namespace) -> int:
    """``symgame atlas FILE [--json] [--at P=VALUE]``: the equilibrium atlas of a polynomial game file."""
    from .api import atlas as api_atlas
    from .export.atlas_outputs import atlas_json, witnesses_json
    from .export.atlas_outputs import summary_markdown as summary_markdown_atlas
    from .export.documents import dumps
    from .model.gamefile import GameFileError
    from .model.polyfile import load_polynomial_game
    from .verify.atlascheck import equilibria_at, sample_parameters
    from .verify.atlasreport import analyse_atlas

    try:
        game = load_polynomial_game(args.file)
        value = parse_at(args.at, game) if args.at else None
    except GameFileError as exc:
        print(f"symgame: {exc}", file=sys.stderr)
        return EXIT_INPUT
    try:
        atlas = api_atlas(game, workers=args.workers, budget=args.budget, checkpoint=args.checkpoint,
                          scheduler=args.scheduler, progress=args.progress)
    except KeyboardInterrupt:
        where = f"; finished work is kept in {args.checkpoint}: run the same command to resume" \
            if args.checkpoint else "; use --checkpoint FILE to keep finished work"
        print(f"symgame: interrupted{where}", file=sys.stderr)
        return 130
    if value is not None:
        data = witnesses_json(equilibria_at(atlas, value), atlas.game.parameter_names[0], value)
        if args.json:
            sys.stdout.write(dumps(data))
        else:
            print(witnesses_text(data))
        return 0 if all(e.get("verified") for e in data["equilibria"]) else EXIT_NO_RESULT
    analysis = analyse_atlas(atlas, numeric_values=sample_parameters(atlas, 4, seed=0))
    data = atlas_json(analysis, str(args.file))
    if args.json:
        sys.stdout.write(dumps(data))
    else:
        sys.stdout.write(summary_markdown_atlas(analysis, data, game.name))
    return 0 if analysis.all_proved and analysis.numeric_agrees and not atlas.unsolved else EXIT_NO_RESULT


def _assignments(texts: Sequence[str], what: str, names: Sequence[str], positive: bool = False,
                 unit: bool = False) -> dict[str, Fraction]:
    """``x=V`` items (comma- or option-separated) with rational values, checked against ``names``."""
    from .model.expr import ExpressionError, parse_expression
    from .model.gamefile import GameFileError

    out: dict[str, Fraction] = {}
    for text in texts:
        for item in filter(None, (t.strip() for t in text.split(","))):
            left, sep, right = item.partition("=")
            name = left.strip()
            if not sep or name not in names:
                raise GameFileError(what, "", f"expected VARIABLE=VALUE with a variable of the game "
                                    f"({', '.join(names)}), got {item!r}")
            try:
                value = parse_expression(right.strip(), {})
            except ExpressionError as exc:
                raise GameFileError(what, name, str(exc)) from None
            if not value.is_Rational:
                raise GameFileError(what, name, f"{right.strip()!r} is not a rational number")
            v = Fraction(int(value.p), int(value.q))
            if (positive and v <= 0) or (unit and not 0 < v < 1):
                raise GameFileError(what, name, f"{v} must be {'positive' if positive else 'strictly between 0 and 1'}")
            out[name] = v
    return out


def _check_until(until: float) -> None:
    import math

    from .model.gamefile import GameFileError

    if not (math.isfinite(until) and 0 < until <= 1e6):
        raise GameFileError("--until", "", "T must be a number in (0, 10^6]")


def _scale(text: str) -> Fraction:
    from .model.expr import ExpressionError, parse_expression
    from .model.gamefile import GameFileError

    try:
        value = parse_expression(text, {})
    except ExpressionError as exc:
        raise GameFileError("--scale", "", str(exc)) from None
    if not value.is_Rational or value <= 0:
        raise GameFileError("--scale", "", f"{text!r} is not a positive rational number")
    return Fraction(int(value.p), int(value.q))


def cmd_dynamics(args: argparse.Namespace) -> int:
    """``symgame dynamics FILE [--at P=V] [--from ...] [--until T] [--json]``: one trajectory, classified
    (:func:`symgame.dynamics` for polynomial games, :func:`symgame.api.replicator_dynamics` for normal forms)."""
    from .api import dynamics, load, replicator_dynamics
    from .export.documents import dumps
    from .export.dynamics_outputs import long_run_json, long_run_text, replicator_json, replicator_text
    from .model.gambit import StrategicGame
    from .model.game import NormalFormGame
    from .model.gamefile import GameFileError
    from .model.polygame import PolynomialGame

    loaded = load(args.file)
    try:
        _check_until(args.until)
        if not isinstance(loaded, PolynomialGame):
            if args.rate or args.scale != "1":
                raise GameFileError("--rate/--scale", "", "rates and scale are options of the gradient dynamics only")
            if isinstance(loaded, StrategicGame):
                players, names = list(loaded.players), [list(s) for s in loaded.strategies]
            elif isinstance(loaded, NormalFormGame):
                players, names = [p.name for p in loaded.players], [list(p.actions) for p in loaded.players]
            else:
                raise GameFileError(str(args.file), "", "symgame dynamics takes a polynomial game or a normal-form "
                                    "game (a game tree: its strategic form, symgame convert GAME.efg GAME.nfg)")
            if args.single_population:
                players = players[:1]
            start = _distributions(args.start, players, names) if args.start else None
            at = None
            if isinstance(loaded, NormalFormGame) and len(loaded.domain.names) == 1 and args.at:
                at = parse_value_at(args.at, loaded.domain.names[0], loaded.domain.parameters[0])
            run = replicator_dynamics(loaded, start, at=at, until=args.until, single_population=args.single_population)
            data = replicator_json(loaded, run, args.until, args.single_population)
            sys.stdout.write(dumps(data) if args.json else replicator_text(data) + "\n")
            return 0
        if args.single_population:
            raise GameFileError("--single-population", "", "for normal-form games (replicator dynamics)")
        game = loaded
        if game.parameter_names and not args.at:
            raise GameFileError("--at", "", f"the game has a parameter: give --at {game.parameter_names[0]}=VALUE")
        value = parse_at(args.at, game) if game.parameter_names else None
        start_values = _assignments([args.start] if args.start else [], "--from", game.variables, unit=True)
        rates = _assignments(args.rate, "--rate", game.variables, positive=True)
        scale = _scale(args.scale)
    except GameFileError as exc:
        print(f"symgame: {exc}", file=sys.stderr)
        return EXIT_INPUT
    x0 = {x: float(start_values.get(x, Fraction(1, 2))) for x in game.variables}
    run = dynamics(game, x0, at=value, until=args.until, rates={x: float(k) for x, k in rates.items()},
                   scale=float(scale))
    data = long_run_json(game, run, value, list(x0.values()), args.until)
    sys.stdout.write(dumps(data) if args.json else long_run_text(data) + "\n")
    return 0


def _distributions(text: str, players, strategies) -> list[list[float]]:
    """``--from Row=1/2:1/3:1/6,Col=...``: one positive distribution per named player (default uniform)."""
    from .model.expr import ExpressionError, parse_expression
    from .model.gamefile import GameFileError

    given: dict[str, list[Fraction]] = {}
    for item in filter(None, (t.strip() for t in text.split(","))):
        name, sep, right = item.partition("=")
        name = name.strip()
        if not sep or name not in players:
            raise GameFileError("--from", "", f"expected PLAYER=p1:p2:... with a player of the game "
                                f"({', '.join(players)}), got {item!r}")
        values = []
        for part in right.split(":"):
            try:
                v = parse_expression(part.strip(), {})
            except ExpressionError as exc:
                raise GameFileError("--from", name, str(exc)) from None
            if not v.is_Rational or v <= 0:
                raise GameFileError("--from", name, f"{part.strip()!r} is not a positive rational number")
            values.append(Fraction(int(v.p), int(v.q)))
        k = len(strategies[players.index(name)])
        if len(values) != k or sum(values) != 1:
            raise GameFileError("--from", name, f"{k} probabilities summing to 1 expected")
        given[name] = values
    return [[float(v) for v in given.get(p, [Fraction(1, len(strategies[i]))] * len(strategies[i]))]
            for i, p in enumerate(players)]


def cmd_stability(args: argparse.Namespace) -> int:
    """``symgame stability FILE [--json]``: families x parameter ranges, exact (:func:`symgame.stability`)."""
    from .api import stability
    from .export.documents import dumps
    from .export.stability_outputs import stability_json, stability_markdown
    from .model.gamefile import GameFileError
    from .model.polyfile import load_polynomial_game

    try:
        game = load_polynomial_game(args.file)
        if len(game.parameters) != 1:
            raise GameFileError(str(args.file), "parameters", "symgame stability needs exactly one parameter")
        rates = _assignments(args.rate, "--rate", game.variables, positive=True)
        scale = _scale(args.scale)
    except GameFileError as exc:
        print(f"symgame: {exc}", file=sys.stderr)
        return EXIT_INPUT
    analysis = stability(game, rates={x: str(k) for x, k in rates.items()}, scale=str(scale), workers=args.workers,
                         scheduler=getattr(args, "scheduler", None))
    if args.json:
        sys.stdout.write(dumps(stability_json(analysis)))
    else:
        sys.stdout.write(stability_markdown(analysis))
    decided = all(r.stability != "undecided" for f in analysis.families for r in f.ranges)
    return 0 if decided and not analysis.unsolved_cases else EXIT_NO_RESULT


def parse_at(text: str, game) -> Fraction:
    """``P=VALUE`` with a rational VALUE inside the parameter's domain."""
    name = game.parameter_names[0] if len(game.parameters) == 1 else "?"
    return parse_value_at(text, name, game.parameters[0])


def parse_value_at(text: str, name: str, param) -> Fraction:
    """``NAME=VALUE`` with a rational VALUE inside the domain of ``param`` (restricted parser)."""
    from .model.expr import ExpressionError, parse_expression
    from .model.gamefile import GameFileError

    left, sep, right = text.partition("=")
    if not sep or left.strip() != name:
        raise GameFileError("--at", "", f"expected {name}=VALUE (e.g. {name}=9/2), got {text!r}")
    try:
        value = parse_expression(right.strip(), {})
    except ExpressionError as exc:
        raise GameFileError("--at", "", str(exc)) from None
    if not value.is_Rational:
        raise GameFileError("--at", "", f"{right.strip()!r} is not a rational number")
    fraction = Fraction(int(value.p), int(value.q))
    if not param.contains(fraction):
        raise GameFileError("--at", "", f"{name} = {value} is outside the domain {param.domain_text}")
    return fraction


def witnesses_text(data: dict) -> str:
    name, value = next(iter(data["parameters"].items()))
    lines = [f"{len(data['equilibria'])} equilibrium families at {name} = {value}:"]
    for e in data["equilibria"]:
        kind = "continuum, one witness" if e["continuum"] else "isolated"
        lines.append(f"  {e['family']} ({kind}): " + ", ".join(f"{x} = {v}" for x, v in (e["profile"] or {}).items()))
        if e.get("profits"):
            lines.append("      profits: " + ", ".join(f"E{k} = {v}" for k, v in e["profits"].items()))
    return "\n".join(lines)


def entry_point() -> None:  # pragma: no cover - console script wrapper
    import os

    if sys.stdout is None:                  # started with standard output closed (`symgame ... >&-`)
        if sys.stderr is not None:
            print("symgame: standard output is closed; nothing can be written", file=sys.stderr)
        sys.exit(EXIT_OUTPUT)
    try:
        status = main()
        sys.stdout.flush()                  # a full disk or a closed stream shows here, not at interpreter exit
    except BrokenPipeError:                 # output piped into `head`: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
    except OSError as exc:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        print(f"symgame: cannot write the output ({exc.strerror or exc})", file=sys.stderr)
        sys.exit(EXIT_OUTPUT)
    sys.exit(status)


if __name__ == "__main__":  # pragma: no cover
    entry_point()
