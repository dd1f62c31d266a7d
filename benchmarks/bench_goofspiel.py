"""Goofspiel: the paper's method against symgame's DP, in one run.

Baseline (Rhoads and Bartholdi 2012, section 3): a DP over every triple of subsets (V, Y, P), memoised, one
LP per matrix game (scipy's HiGHS here). symgame: hands as comparison patterns stored once per exchange of
the players, level by level, every matrix game of a level in one batch (saddle points, vectorised simplex).
Both compute the same values (checked below on the root's first round). Ratios are time(baseline) /
time(symgame) and states(baseline) / states(symgame).

Run: python3 benchmarks/bench_goofspiel.py [BASELINE_MAX_N] [MAX_N]   (defaults 6 and 8)
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


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
