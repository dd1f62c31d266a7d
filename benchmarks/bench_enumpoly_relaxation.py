"""What the linear relaxation and msolve-first do for ``enumpoly_solve``, against the enumeration without them,
in the same process.

Usage: ``PYTHONPATH=. python3 benchmarks/bench_enumpoly_relaxation.py [--baseline] [--jacob] [FILE.nfg|FILE.efg ...]``.
Without files, seeded random 4 x 3 x 3 games with integer payoffs (built here); ``--jacob`` adds the Jacob game
II schedules (C.5) and (C.6) (with the players' symmetry). For each game: seconds as shipped, supports ruled out
by conditional dominance and by the relaxation (conditioned on each player's own strategy), supports left to
msolve; then the same with the relaxation by the others' marginal alone; with ``--baseline`` also the old route
(no relaxation, z3 screen of 1 s, FLINT's Gröbner bases up to MAX_VARIABLES unknowns) and the ratio. Every route
that finishes complete must list the same equilibria and families (checked). Results are recorded in
benchmarks/RESULTS.md.
"""
from __future__ import annotations

import random
import sys
import time
from itertools import product

from symgame.engine import enumpoly
from symgame.model.gambit import StrategicGame, load_gambit, read_nfg, tree_to_strategic


def seeded_game(seed: int, shape: tuple[int, ...] = (4, 3, 3)) -> StrategicGame:
    rng = random.Random(seed)
    profiles = [tuple(reversed(p)) for p in product(*(range(n) for n in reversed(shape)))]
    cells = " ".join(" ".join(str(rng.randint(-9, 9)) for _ in shape) for _ in profiles)
    names = " ".join(f'"P{k + 1}"' for k in range(len(shape)))
    return read_nfg(f'NFG 1 R "seed {seed}" {{ {names} }} {{ {" ".join(map(str, shape))} }} {cells}')


def _answer(result: enumpoly.EnumPolyResult) -> tuple:
    return (sorted(str([[str(p) for p in mix] for mix in e.profile]) for e in result.equilibria),
            sorted((f.support, f.equations) for f in result.families), result.complete)


def _marginal(game: StrategicGame, symmetry: bool) -> enumpoly.EnumPolyResult:
    saved = enumpoly._relaxation_excludes
    enumpoly._relaxation_excludes = lambda t, alive, support: saved(t, alive, support, conditioned=False)
    try:
        return enumpoly.enumpoly_solve(game, symmetry=symmetry)
    finally:
        enumpoly._relaxation_excludes = saved


def _old(game: StrategicGame, symmetry: bool) -> enumpoly.EnumPolyResult:
    saved = (enumpoly._relaxation_excludes, enumpoly.SCREEN_MS, enumpoly.FLINT_VARIABLES)
    enumpoly._relaxation_excludes = lambda *args: False
    enumpoly.SCREEN_MS, enumpoly.FLINT_VARIABLES = enumpoly.QUICK_MS, enumpoly.MAX_VARIABLES
    try:
        return enumpoly.enumpoly_solve(game, symmetry=symmetry)
    finally:
        enumpoly._relaxation_excludes, enumpoly.SCREEN_MS, enumpoly.FLINT_VARIABLES = saved


def main(argv: list[str]) -> None:
    baseline = "--baseline" in argv
    paths = [a for a in argv if not a.startswith("--")]
    games: list[tuple[str, StrategicGame]] = []
    symmetric: set[str] = set()
    for path in paths:
        game = load_gambit(path)
        games.append((path.rsplit("/", 1)[-1], game if isinstance(game, StrategicGame) else tree_to_strategic(game)))
    if not paths:
        games = [(f"random 4x3x3, seed {seed}", seeded_game(seed)) for seed in (1, 2, 3)]
    if "--jacob" in argv:
        from derivations.buck2022.jacob2_schedules import strategic

        games += [("Jacob II (C.5)", strategic("C.5")), ("Jacob II (C.6), symmetry", strategic("C.6"))]
        symmetric.add("Jacob II (C.6), symmetry")
    print("game | supports | dominance | relaxation | msolve | equilibria (families) | complete | s"
          " | marginal relaxation: ruled out, s, ratio" + (" | baseline: s, ratio" if baseline else ""))
    for name, game in games:
        sym = name in symmetric
        start = time.perf_counter()
        result = enumpoly.enumpoly_solve(game, symmetry=sym)
        mine = time.perf_counter() - start
        row = (f"{name} | {result.supports} | {result.pruned} | {result.relaxed} | {len(result.msolve_supports)} | "
               f"{len(result.equilibria)} ({len(result.families)}) | {result.complete} | {mine:.1f}")
        for route in (_marginal, _old) if baseline else (_marginal,):
            start = time.perf_counter()
            other = route(game, sym)
            seconds = time.perf_counter() - start
            if other.complete and result.complete:
                assert _answer(other) == _answer(result), (name, route.__name__)
            row += (f" | {other.relaxed}, " if route is _marginal else " | ") + f"{seconds:.1f}, {seconds / mine:.1f}"
        print(row, flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
