"""One equilibrium by Lemke-Howson: symgame's exact pivoting against nashpy's float implementation.

For random integer games of several sizes (seeded), the time of ``symgame.engine.lemke_howson`` (exact
rationals, lexicographic rule, verified by exact regret) and of ``nashpy.Game.lemke_howson`` (floats) from
the same dropped label, in the same process, their ratio, and how often both end at the same equilibrium.
nashpy's float pivoting can cycle on these degenerate integer games (it did on a 20 x 20 one: no answer after
ten minutes), so each nashpy call gets ``NASHPY_LIMIT`` seconds; a call stopped there is counted in the last
column and its time is not added (the ratio is then over the games both finished).
Run: python3 benchmarks/bench_lemke_howson.py [GAMES_PER_SIZE]
"""
import signal
import sys
import time
import warnings

import nashpy
import numpy as np

from symgame.engine.lemke_howson import lemke_howson_solve

NASHPY_LIMIT = 20


class _Stopped(Exception):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise _Stopped


def _nashpy(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(NASHPY_LIMIT)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return nashpy.Game(a, b).lemke_howson(initial_dropped_label=0)
    except _Stopped:
        return None
    finally:
        signal.alarm(0)


def main(games: int = 5) -> None:
    rng = np.random.default_rng(2026)
    print("| size | games | symgame exact (s) | nashpy float (s) | ratio | same equilibrium | exact verified "
          f"| nashpy stopped at {NASHPY_LIMIT} s |")
    print("|---|---|---|---|---|---|---|---|")
    for m, n in ((5, 5), (10, 10), (20, 20), (40, 40), (80, 20)):
        ours = theirs = 0.0
        agree = verified = stopped = 0
        for _ in range(games):
            a, b = rng.integers(-50, 51, (m, n)), rng.integers(-50, 51, (m, n))
            t0 = time.perf_counter()
            eq = lemke_howson_solve(a.tolist(), b.tolist(), 0)
            mine = time.perf_counter() - t0
            verified += eq.verified
            t0 = time.perf_counter()
            found = _nashpy(a, b)
            if found is None:
                stopped += 1
                continue
            theirs += time.perf_counter() - t0
            ours += mine
            x, y = found
            exact = np.array([float(v) for v in (*eq.row, *eq.column)])
            agree += exact.shape == np.concatenate([x, y]).shape and np.allclose(exact, np.concatenate([x, y]), atol=1e-7)
        ratio = f"{ours / theirs:.1f}" if theirs else "-"
        print(f"| {m}x{n} | {games} | {ours:.3f} | {theirs:.3f} | {ratio} | {agree}/{games - stopped} | "
              f"{verified}/{games} | {stopped} |")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
