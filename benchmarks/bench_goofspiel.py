"""Goofspiel: the paper's method against symgame's DP, in one run.

Baseline (Rhoads and Bartholdi 2012, section 3): a DP over every triple of subsets (V, Y, P), memoised, one
LP per matrix game (scipy's HiGHS here). symgame: hands as comparison patterns stored once per exchange of
the players, level by level, every matrix game of a level in one batch (saddle points, vectorised simplex).
Both compute the same values (checked below on the root's first round). Ratios are time(baseline) /
time(symgame) and states(baseline) / states(symgame).

Run: python3 benchmarks/bench_goofspiel.py [BASELINE_MAX_N] [MAX_N]   (defaults 6 and 8)

``--compare N [WORKERS]`` (issue 40 item 3): the previous floating-point DP (the vectorised NumPy simplex over each
chunk's games built as one array, the previous level's table pickled with every batch of work units) against the
current one (each round game built and solved in turn in code compiled by Numba, the previous level's table written
once and memory-mapped by the workers), both on WORKERS local processes (default 2), alternated twice in this
process; the tables must be bit-identical.
"""
import sys
import time
from functools import lru_cache
from math import comb

import numpy as np

from symgame.games.goofspiel import solve
from symgame.numeric.solvers import solve_zero_sum_lp


def baseline(n: int) -> tuple[float, int, int]:
    """The paper's DP: value of the whole game, states stored, LPs solved."""
    lps = [0]

    @lru_cache(maxsize=None)
    def f(v: frozenset, y: frozenset, p: frozenset) -> float:
        if not p:
            return 0.0
        total = 0.0
        for c in p:
            rest = p - {c}
            x = np.array([[c * ((a > b) - (a < b)) + f(v - {a}, y - {b}, rest) for b in sorted(y)] for a in sorted(v)])
            lps[0] += 1
            total += solve_zero_sum_lp(x).value
        return total / len(p)

    hand = frozenset(range(1, n + 1))
    value = f(hand, hand, hand)
    return value, f.cache_info().currsize, lps[0]


def main(baseline_top: int = 6, top: int = 8) -> None:
    print("| N | paper's states (all triples) | baseline stored | baseline s | symgame stored | symgame games | "
          "symgame s | state ratio | time ratio |")
    print("|---|---|---|---|---|---|---|---|---|")
    for n in range(4, top + 1):
        t0 = time.perf_counter()
        ours = solve(n)
        mine = time.perf_counter() - t0
        triples = sum(comb(n, k) ** 3 for k in range(n + 1))
        if n <= baseline_top:
            t0 = time.perf_counter()
            value, stored, _ = baseline(n)
            theirs = time.perf_counter() - t0
            assert abs(value - ours.value) < 1e-7
            print(f"| {n} | {triples} | {stored} | {theirs:.2f} | {ours.states} | {ours.matrix_games} | {mine:.3f} | "
                  f"{stored / ours.states:.1f} | {theirs / mine:.0f} |")
        else:
            print(f"| {n} | {triples} | - | - | {ours.states} | {ours.matrix_games} | {mine:.3f} | "
                  f"{triples / ours.states:.1f} (vs all triples) | - |")


def compare(n: int = 10, workers: int = 2) -> None:
    from symgame.engine.atlas import ProcessMapper, process_map

    def previous():
        return solve(n, backend="numpy", mapper=lambda fn, items: process_map(fn, items, workers))

    def current():
        with ProcessMapper(workers) as mapper:
            return solve(n, mapper=mapper)

    current()                                            # compiled once (Numba caches the machine code)
    best = {"previous": float("inf"), "current": float("inf")}
    results = {}
    for _ in range(2):
        for name, run in (("previous", previous), ("current", current)):
            t0 = time.perf_counter()
            results[name] = run()
            best[name] = min(best[name], time.perf_counter() - t0)
    a, b = results["previous"], results["current"]
    assert all(np.array_equal(x.view(np.int64), y.view(np.int64)) for x, y in zip(a.tables, b.tables))
    assert a.first_move == b.first_move and a.matrix_games == b.matrix_games
    games = b.matrix_games
    print("| N | workers | matrix games | previous s | current s | previous us/game | current us/game | ratio |")
    print("|---|---|---|---|---|---|---|---|")
    print(f"| {n} | {workers} | {games} | {best['previous']:.2f} | {best['current']:.2f} | "
          f"{best['previous'] / games * 1e6:.3f} | {best['current'] / games * 1e6:.3f} | "
          f"{best['previous'] / best['current']:.1f} |")
    print("tables bit-identical: yes")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--compare"]:
        compare(*(int(a) for a in sys.argv[2:4]))
    else:
        main(*(int(a) for a in sys.argv[1:3]))
