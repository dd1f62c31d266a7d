"""Dynamics of repeated play (Billingham, arXiv:1707.01392, section 4) and the sampling experiment (Ganzfried,
section 5, Figure 1): the issue's three targets, each as a ratio against a baseline run in this process.

1. Exact stability of every Billingham family over all P >= 2, against building the atlas itself
   (target: under a minute on 2 cores);
2. one trajectory to t = 10^4 (DOP853, rtol 1e-10), against the same run with scipy's default RK45 tolerances
   (target: seconds);
3. the sampling experiment at the paper's full size (100,000 training and 10,000 test games), with the
   derived decision list's lookup time per game as a ratio to nearest-sample lookup.

Run: python3 benchmarks/bench_dynamics.py
"""
import time

import numpy as np

from symgame.engine.atlas import build_atlas, process_map
from symgame.engine.stability import stability_analysis
from symgame.games import billingham
from symgame.numeric.dynamics import compile_dynamics, trajectory


def main() -> None:
    game = billingham.build_game()
    t0 = time.perf_counter()
    atlas = build_atlas(game, process_map)
    t_atlas = time.perf_counter() - t0
    t0 = time.perf_counter()
    result = stability_analysis(atlas, scale=24)
    t_stab = time.perf_counter() - t0
    cells = sum(len(f.ranges) for f in result.families)
    print("| task | seconds | baseline | ratio |")
    print("|---|---|---|---|")
    print(f"| exact stability, {len(result.families)} families, {cells} cells | {t_stab:.1f} | atlas {t_atlas:.1f} s "
          f"| {t_stab / t_atlas:.2f} |")
    dyn = compile_dynamics(game, 3.1, scale=24)
    start = np.random.default_rng(17).uniform(0.1, 0.9, len(game.variables))
    t0 = time.perf_counter()
    tight = trajectory(dyn, start, 1e4, points=10001)
    t_tight = time.perf_counter() - t0
    t0 = time.perf_counter()
    trajectory(dyn, start, 1e4, points=10001, method="RK45", rtol=1e-3, atol=1e-6)
    t_loose = time.perf_counter() - t0
    print(f"| trajectory to t = 1e4 at P = 3.1 (DOP853, {tight.steps} evaluations) | {t_tight:.1f} | "
          f"RK45 default tolerances {t_loose:.1f} s | {t_tight / t_loose:.2f} |")
    import symgame
    from derivations.ganzfried2022 import sampling
    from symgame.games import two_by_two

    pdl = symgame.solve(two_by_two.build_game()).pdl
    t0 = time.perf_counter()
    curve = sampling.figure1_curve()
    t_curve = time.perf_counter() - t0
    methods = sampling.compare_methods(pdl)
    pdl_us = methods[0].microseconds_per_game
    near = next(m.microseconds_per_game for m in methods if m.name == "nearest sample" and m.k == 100_000)
    print(f"| Figure 1 curve, {len(curve)} values of k, 100,000 training / 10,000 test games | {t_curve:.1f} | - | - |")
    print(f"| decision-list lookup per game (vectorised) | {pdl_us:.2f} us | nearest sample (k = 100,000) "
          f"{near:.2f} us | {pdl_us / near:.2f} |")


if __name__ == "__main__":
    main()
