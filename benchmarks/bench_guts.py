"""Continuous Guts coalitions: the paper's method against symgame's, and Table 1.

Run: python3 benchmarks/bench_guts.py

1. The 1 v 2 pseudo-bloc game at M = 101.  The paper solves each one-shot
   game A + B V with 10,000 iterations of fictitious play (nashpy) inside
   the plain value iteration V_{n+1} = T(V_n) from V_0 = -1.  One such round
   is timed here and multiplied by the number of rounds plain iteration needs
   to reach 1e-4 (counted with exact LP values); symgame's Newton/column
   generation solve (both sides) is timed in the same process.
2. Table 1: N = 2..15 at M = 101 (solve and exact certificates).
3. The Weenie guarantee: z3 (n = 3) against the ball-arithmetic branch and
   bound (n = 3, 4, 5), and the full 1 v 4 game at M = 41 stored against
   lazily priced.
"""
import sys
import time

import nashpy

from derivations.buck2022 import coalitions, weenie
from symgame.numeric.recursive import RecursiveGame, forced_value


def rounds_to_converge(game: RecursiveGame, tol: float = 1e-4) -> int:
    target = forced_value(game, 1.0, "row").value
    V, rounds = -1.0, 0
    while target - V > tol:
        V = game.value_map(V).value
        rounds += 1
    return rounds


def main():
    g = coalitions.pseudo_bloc_game(2, 101)
    game = RecursiveGame(g.A, g.B)
    t0 = time.perf_counter()
    forced_value(game, 1.0, "row")
    forced_value(game, 1.0, "col")
    ours = time.perf_counter() - t0
    rounds = rounds_to_converge(game)
    t0 = time.perf_counter()
    play = nashpy.Game(g.A - 1.0 * g.B)
    for _ in play.fictitious_play(iterations=10_000):
        pass
    fp_round = time.perf_counter() - t0
    print(f"1 v 2 pseudo-bloc, M = 101 ({g.A.shape[0]} x {g.A.shape[1]}): symgame {ours:.2f} s (both fixed points); "
          f"one fictitious-play round (10,000 iterations) {fp_round:.1f} s x {rounds} rounds to 1e-4 = "
          f"{fp_round * rounds:.0f} s estimated; ratio {fp_round * rounds / ours:.0f}x")
    t0 = time.perf_counter()
    for n in range(2, 16):
        coalitions.solve_coalition(n, 101, certify=False)
    print(f"Table 1 (N = 2..15, M = 101), numeric solve only: {time.perf_counter() - t0:.1f} s")
    t0 = time.perf_counter()
    for n in range(2, 16):
        coalitions.solve_coalition(n, 101)
    print(f"Table 1 (N = 2..15, M = 101) with exact certificates: {time.perf_counter() - t0:.1f} s")
    t0 = time.perf_counter()
    weenie.weenie_guarantee(3)
    z3_time = time.perf_counter() - t0
    t0 = time.perf_counter()
    proved = weenie.weenie_guarantee_boxes(3).proved
    bb_time = time.perf_counter() - t0
    print(f"Weenie n = 3: z3 {z3_time:.2f} s, branch and bound {bb_time:.3f} s (proved: {proved}); "
          f"ratio {z3_time / bb_time:.0f}x")
    for n in (4, 5):
        t0 = time.perf_counter()
        proof = weenie.weenie_guarantee_boxes(n)
        print(f"Weenie n = {n}: branch and bound {time.perf_counter() - t0:.2f} s, proved: {proof.proved} "
              f"({proof.certificate.bounded_boxes} boxes)" + ("; z3 leaves 3 of 4 regions undecided here" if n == 4 else ""))
    t0 = time.perf_counter()
    coalitions.solve_coalition(4, 41, pseudo_bloc=False, certify=False)
    stored = time.perf_counter() - t0
    t0 = time.perf_counter()
    coalitions.solve_lazy(coalitions.LazyFullCoalitionGame(4, 41), certify_coalition=False)
    lazy = time.perf_counter() - t0
    print(f"full 1 v 4 game, M = 41 (135,751 columns): stored {stored:.1f} s, lazy {lazy:.1f} s")
    if "--quick" in sys.argv:
        return
    # M = 1001: 10^6 coalition columns per N, lazily priced; the dense game at M = 201 as the in-process baseline
    t0 = time.perf_counter()
    coalitions.solve_coalition(5, 201, certify=False)
    dense_201 = time.perf_counter() - t0
    t0 = time.perf_counter()
    coalitions.solve_fine_pseudo_bloc(5, 201)
    lazy_201 = time.perf_counter() - t0
    print(f"N = 5, M = 201: dense matrices {dense_201:.1f} s, lazy pricing {lazy_201:.1f} s")
    t0 = time.perf_counter()
    for n in range(2, 16):
        coalitions.solve_fine_pseudo_bloc(n, 1001)
    print(f"Table 1 (N = 2..15) at M = 1001, lazy pricing, both fixed points: {time.perf_counter() - t0:.1f} s "
          "(target: under 600 s)")


if __name__ == "__main__":
    main()
