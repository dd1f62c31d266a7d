"""n-card Kuhn poker benchmarks: sequence-form LP against the normal-form LP, and all n <= 200.

Run: python3 benchmarks/bench_kuhn.py [--quick]
"""
import sys
import time
from fractions import Fraction
from itertools import product

import numpy as np

from symgame.games.kuhn import build_game, deck_report
from symgame.model.sequence_form import build_sequence_form
from symgame.numeric.sequence_lp import solve_sequence_form
from symgame.numeric.solvers import solve_zero_sum_lp


def normal_form_matrix(n: int) -> np.ndarray:
    """A's expected payoff for every pair of pure strategies (4^n x 4^n)."""
    deals = [(x, y) for x in range(1, n + 1) for y in range(1, n + 1) if x != y]
    a_pures = list(product(product(("bet", "check"), ("call", "fold")), repeat=n))
    b_pures = list(product(product(("call", "fold"), ("bet", "check")), repeat=n))
    m = np.zeros((len(a_pures), len(b_pures)))
    for i, a in enumerate(a_pures):
        for j, b in enumerate(b_pures):
            total = 0
            for x, y in deals:
                sign = 1 if x > y else -1
                (a_open, a_call), (b_call, b_bet) = a[x - 1], b[y - 1]
                if a_open == "bet":
                    total += 2 * sign if b_call == "call" else 1
                elif b_bet == "check":
                    total += sign
                else:
                    total += 2 * sign if a_call == "call" else -1
            m[i, j] = total / len(deals)
    return m


def main(quick: bool) -> None:
    for n in (3, 4):
        start = time.perf_counter()
        form = build_sequence_form(build_game(n))
        seq_value = solve_sequence_form(form).value
        t_seq = time.perf_counter() - start
        start = time.perf_counter()
        nf_value = solve_zero_sum_lp(normal_form_matrix(n)).value
        t_nf = time.perf_counter() - start
        print(f"n = {n}: sequence form {t_seq:.3f} s (value {seq_value:.6f}), normal form 4^{n} x 4^{n} "
              f"{t_nf:.3f} s (value {nf_value:.6f}); ratio {t_nf / t_seq:.0f}x")
    top = 60 if quick else 200
    start = time.perf_counter()
    values = [deck_report(n).solution.value for n in range(3, top + 1)]
    elapsed = time.perf_counter() - start
    assert values[0] == Fraction(-1, 18)
    print(f"certified values and both PDL checks for n = 3..{top}, one process: {elapsed:.1f} s")


if __name__ == "__main__":
    main("--quick" in sys.argv)
