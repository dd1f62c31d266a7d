"""n-card Kuhn poker benchmarks: sequence-form LP against the normal-form LP, and all n <= 200.

Run: python3 benchmarks/bench_kuhn.py [--quick]
"""
import sys
import time
from fractions import Fraction
from itertools import product

import numpy as np

from derivations.ganzfried2022.kuhn_family import derive_three_card_family
from derivations.ganzfried2022.kuhn_pdl import behaviours, check_corrected, corrected_pdl
from derivations.ganzfried2022.kuhn_printed import deck_report
from symgame.engine.atlas import process_map
from symgame.games.kuhn import build_game, check_behaviours
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
    # the corrected closed form: exact O(n) best responses for every n <= 1000, against the generic
    # sequence-form best responses on the same decks (ratio measured on n = 3..60)
    start = time.perf_counter()
    checks = [check_corrected(n) for n in range(3, 1001)]
    t_closed = time.perf_counter() - start
    assert all(c.exploitability_a == 0 == c.exploitability_b for c in checks)
    start = time.perf_counter()
    fast = [check_corrected(n) for n in range(3, 61)]
    t_fast = time.perf_counter() - start
    start = time.perf_counter()
    generic = [check_behaviours(n, fast[n - 3].value, *behaviours(corrected_pdl(n))) for n in range(3, 61)]
    t_generic = time.perf_counter() - start
    assert all(g.exploitability_a == 0 == g.exploitability_b for g in generic)
    print(f"closed form verified exactly for every n = 3..1000: {t_closed:.1f} s; on n = 3..60 the O(n) best "
          f"responses take {t_fast:.2f} s against {t_generic:.2f} s for the generic sequence form "
          f"(ratio {t_generic / t_fast:.0f}x)")
    start = time.perf_counter()
    report = derive_three_card_family(process_map)
    print(f"3-card equilibrium set from the engine (3^12 cases, refinement, certificates, LP cross-check): "
          f"{time.perf_counter() - start:.1f} s, {len(report.families)} Nash families, "
          f"{len(report.dropped)} agent-form families dropped")
    top = 60 if quick else 200
    start = time.perf_counter()
    values = [deck_report(n).solution.value for n in range(3, top + 1)]
    elapsed = time.perf_counter() - start
    assert values[0] == Fraction(-1, 18)
    print(f"certified values and both PDL checks for n = 3..{top}, one process: {elapsed:.1f} s")


if __name__ == "__main__":
    main("--quick" in sys.argv)
