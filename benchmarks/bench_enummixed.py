"""All equilibria of two-player games: symgame's exact vertex enumeration against nashpy's float one.

Reports, for random integer games of several sizes (seeded), the time of ``symgame.engine.enummixed`` (exact,
extreme equilibria and maximal convex sets) and of ``nashpy.Game.vertex_enumeration`` (floats) in the same
process, their ratio, and whether the two found the same equilibria.
Run: python3 benchmarks/bench_enummixed.py [GAMES_PER_SIZE]
"""
import sys
import time

import nashpy
import numpy as np

from symgame.engine.enummixed import enummixed_solve


def main(games: int = 5) -> None:
    rng = np.random.default_rng(2026)
    print("| size | games | symgame exact (s) | nashpy float (s) | ratio | same equilibria |")
    print("|---|---|---|---|---|---|")
    for m, n in ((3, 3), (4, 4), (5, 5), (6, 6), (7, 7)):
        ours = theirs = 0.0
        agree = 0
        for _ in range(games):
            a, b = rng.integers(-50, 51, (m, n)), rng.integers(-50, 51, (m, n))
            t0 = time.perf_counter()
            found = enummixed_solve(a.tolist(), b.tolist())
            ours += time.perf_counter() - t0
            t0 = time.perf_counter()
            floats = list(nashpy.Game(a, b).vertex_enumeration())
            theirs += time.perf_counter() - t0
            exact = sorted(tuple(round(float(v), 9) for v in (*e.row, *e.column)) for e in found.equilibria)
            approx = sorted(tuple(round(float(v), 9) + 0.0 for v in (*x, *y)) for x, y in floats)
            agree += exact == approx
        print(f"| {m}x{n} | {games} | {ours:.3f} | {theirs:.3f} | {ours / theirs:.1f} | {agree}/{games} |")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
