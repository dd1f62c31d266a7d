"""The paths the test suite spends its time in, the previous way against the current one (issue 40 item 4).

Each pair runs in this one process, alternated (previous, current, previous, current), and its answers are compared
equal; the best of two is printed with the ratio:

1. exact regret on the grid check of the four Final Jeopardy seed games (``exhaustive_grid_check``, 10,000 points
   each): every payoff entry compiled and evaluated at the point, then weighted sums (previous), against each
   player's matrix as constant python-flint matrices times monomials of the parameters (current);
2. Billingham's analysis on one atlas (certificates, printed solutions, coverage): z3 encodings of the same 380
   conditions built 7,000 times (previous) against shared per expression (current);
3. the Final Jeopardy sweep's re-check of its 215 stored decision lists: every formula read into sympy and compiled
   (previous) against formulas compiled from their JSON trees, profiles only where their rule fires (current);
4. kuhn3's committed outputs rendered after the study was read (as the suite's fixture and freshness test do): the
   stored study re-verified again (previous) against once per process (current);
5. Guts' fictitious play (1,000 steps on the 101 x 101 x 101 mesh game, the study's "recursive" part, computed by
   the suite three times): every action value recomputed from all counts at every step (previous) against kept up
   to date one count at a time (current);
6. the sweep's cache read (13.5 MB of JSON) and its 213 stored decision lists re-checked, with Python's garbage
   collector running throughout (previous) against paused while the JSON is parsed and while each pair's formulas
   are compiled and checked (current, :func:`symgame.model.store.gc_paused`): those blocks build millions of
   containers and no cycles, and each collection traversed every live one.

    PYTHONPATH=. python3 benchmarks/bench_suite_paths.py [--only 1,2,3,4,5,6]
"""
from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _best(label: str, previous, current) -> None:
    times: dict[str, list[float]] = {"previous": [], "current": []}
    answers = {}
    for _ in range(2):
        for name, run in (("previous", previous), ("current", current)):
            started = time.perf_counter()
            answers[name] = run()
            times[name].append(time.perf_counter() - started)
    assert answers["previous"] == answers["current"], f"{label}: the two ways disagree"
    old, new = min(times["previous"]), min(times["current"])
    print(f"{label}: previous {old:.2f} s, current {new:.2f} s, ratio {old / new:.2f} (answers equal)", flush=True)


def grid_regret() -> None:
    from derivations.ganzfried2022.seeds import FAMILIES
    from symgame.model.game import NormalFormGame
    from symgame.verify.crosscheck import exhaustive_grid_check

    specs = list(FAMILIES["jeopardy"])
    games = {spec.name: spec.build() for spec in specs}
    pdls = {name: spec.derive(games[name]).pdl for name, spec in zip(games, specs)}

    def run():
        return [repr(exhaustive_grid_check(games[spec.name], pdls[spec.name], spec.exhaustive_values))
                for spec in specs]

    def previous():
        fast = NormalFormGame.action_values_raw
        NormalFormGame.action_values_raw = NormalFormGame.entry_values_raw     # type: ignore[method-assign]
        try:
            return run()
        finally:
            NormalFormGame.action_values_raw = fast                          # type: ignore[method-assign]

    _best("1. grid check of the 4 Jeopardy seeds (exact regret)", previous, run)


def billingham_encodings() -> None:
    import sympy as sp

    from derivations.billingham2017.outputs import analyse_billingham
    from symgame.engine import z3terms
    from symgame.engine.atlas import ProcessMapper, build_atlas
    from symgame.games import billingham

    with ProcessMapper() as mapper:
        atlas = build_atlas(billingham.build_game(), mapper)

    def summary(analysis):
        return ([c.proved for c in analysis.certificates], [v.correct for v in analysis.printed],
                [c.complete for c in analysis.coverage], [str(v.holds) for v in analysis.statements])

    def previous():
        saved = z3terms._cleared, z3terms._expanded, z3terms._plain_term

        def cleared(expr):
            num, den = sp.fraction(sp.together(expr))
            return sp.expand(num), sp.expand(den)

        z3terms._cleared, z3terms._expanded, z3terms._plain_term = cleared, sp.expand, lambda expr: None
        try:
            return summary(analyse_billingham(atlas=atlas))
        finally:
            z3terms._cleared, z3terms._expanded, z3terms._plain_term = saved

    def current():
        for cache in (z3terms._cleared, z3terms._expanded, z3terms._plain_term):
            cache.cache_clear()
        return summary(analyse_billingham(atlas=atlas))

    _best("2. Billingham's analysis on one atlas (z3 encodings)", previous, current)


def sweep_recheck() -> None:
    from fractions import Fraction

    import sympy as sp

    from derivations.ganzfried2022.jeopardy_sweep import check_pair
    from symgame.games import jeopardy
    from symgame.model.expr import compile_exact
    from symgame.model.exprtree import from_tree
    from symgame.verify.crosscheck import random_domain_points
    from symgame.verify.regret import exact_regret

    sweep = json.loads((ROOT / "outputs" / "jeopardy" / "sweep" / "study_cache.json").read_text())
    records = [entry["data"] for entry in sweep.values() if "error" not in entry["data"]]

    def previous_pair(data):          # the re-check as it read the records before (its answer: the fired rules)
        game = jeopardy.build_game(*data["scores"])
        symbols = {p.name: sp.Symbol(p.name) for p in game.domain.parameters}
        relations = {">=": lambda v: v >= 0, ">": lambda v: v > 0, "==": lambda v: v == 0, "<=": lambda v: v <= 0,
                     "<": lambda v: v < 0, "!=": lambda v: v != 0}
        rules = []
        for rule in data["pdl"]:
            when = [(compile_exact(from_tree(a["expr"], symbols)), relations[a["rel"]])
                    for a in rule["machine"]["when"]]
            profile = [[compile_exact(from_tree(rule["machine"]["profile"][p.name][a], symbols)
                                      if a in rule["machine"]["profile"][p.name] else sp.Integer(0))
                        for a in p.actions] for p in game.players]
            rules.append((when, profile))

        def holds(when, point):
            try:
                return all(rel(f(point)) for f, rel in when)
            except ZeroDivisionError:
                return False

        scores = data["scores"]
        for point in random_domain_points(game.domain, 16, 7919 * scores[0] + scores[1] + 1):
            fired = next(profile for when, profile in rules if holds(when, point))
            strategies = [[Fraction(p(point)) for p in mix] for mix in fired]
            report = exact_regret(game, point, strategies)
            assert report.valid and all(r == 0 for r in report.regrets)
        return True

    _best(f"3. the sweep's re-check of {len(records)} stored decision lists",
          lambda: [previous_pair(d) for d in records], lambda: [check_pair(d) is None for d in records])


def kuhn3_render() -> None:
    import shutil

    from derivations.szafron2013.kuhn3 import CACHE_FILE, study
    from derivations.szafron2013.kuhn3_outputs import TEXT_FILES, write_kuhn3_outputs
    from symgame.export import cache

    committed = ROOT / "outputs" / "kuhn3"

    def render(remember: bool):
        cache._VERIFIED.clear()
        with tempfile.TemporaryDirectory() as tmp:
            shutil.copyfile(committed / CACHE_FILE, Path(tmp) / CACHE_FILE)
            study(Path(tmp))                                    # the fixture's read
            if not remember:
                cache._VERIFIED.clear()
            write_kuhn3_outputs(Path(tmp), pdf=False)
            return [(Path(tmp) / name).read_bytes() for name in TEXT_FILES]

    _best("4. kuhn3's study read, then its outputs rendered", lambda: render(False), lambda: render(True))


def fictitious_recursive() -> None:
    from derivations.buck2022.outputs import FP_MESH, FP_STEPS
    from symgame.games import guts
    from symgame.numeric import fictitious

    tensors = guts.three_player_tensors(FP_MESH)

    def run(incremental_from: float):
        # the recomputation from all counts is the library's path below INCREMENTAL_FROM entries: the previous way
        default, fictitious.INCREMENTAL_FROM = fictitious.INCREMENTAL_FROM, incremental_from
        try:
            trace = fictitious.fictitious_play(tensors, FP_STEPS)
        finally:
            fictitious.INCREMENTAL_FROM = default
        return trace.plays.tolist(), trace.gaps.tolist(), trace.mixtures

    _best("5. Guts' fictitious play, 1,000 steps on the mesh game", lambda: run(float("inf")),
          lambda: run(fictitious.INCREMENTAL_FROM))


def sweep_gc() -> None:
    import contextlib
    import gc

    from derivations.ganzfried2022.jeopardy_sweep import check_pair
    from symgame.model import store

    path = ROOT / "outputs" / "jeopardy" / "sweep" / "study_cache.json"

    def run():
        gc.collect()
        records = [entry["data"] for entry in store.load_json(path).values()]
        return [check_pair(d) for d in records if "error" not in d]

    def previous():
        paused = store.gc_paused
        store.gc_paused = contextlib.nullcontext          # type: ignore[assignment]
        try:
            return run()
        finally:
            store.gc_paused = paused

    _best("6. the sweep's cache read and re-checked", previous, run)


PAIRS = {"1": grid_regret, "2": billingham_encodings, "3": sweep_recheck, "4": kuhn3_render,
         "5": fictitious_recursive, "6": sweep_gc}


def main(argv: list[str]) -> int:
    chosen = argv[argv.index("--only") + 1].split(",") if "--only" in argv else list(PAIRS)
    for key in chosen:
        PAIRS[key]()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
