"""Goofspiel: canonical subgames against the paper's triples of subsets, and time per N.

For each N: the number of subgames the DP stores (comparison patterns, one orientation) against
``sum_k C(N, k)^3`` (every triple of subsets, the paper's state space), the matrix games solved, and
the time in floating point. Run: python3 benchmarks/bench_goofspiel.py [MAX_N]
"""
import sys
import time
from math import comb

from symgame.games.goofspiel import solve


def main(top: int = 6) -> None:
    print("| N | paper's subgames | canonical subgames | ratio | matrix games | saddle points | seconds |")
    print("|---|---|---|---|---|---|---|")
    for n in range(1, top + 1):
        t0 = time.perf_counter()
        result = solve(n)
        seconds = time.perf_counter() - t0
        paper = sum(comb(n, k) ** 3 for k in range(n + 1))
        print(f"| {n} | {paper} | {result.states} | {paper / max(result.states, 1):.1f} | {result.matrix_games} | "
              f"{result.saddle_points} | {seconds:.2f} |")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 6)
