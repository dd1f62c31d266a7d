"""Kuhn poker with the bet b as a parameter: the parametric sequence-form LP (every b in [1/4, 4], exact)
against solving a grid of bet sizes one by one (HiGHS sequence-form LP, certified by exact best responses).

Run: python3 benchmarks/bench_parametric_lp.py [GRID]   (default 100 points)
"""
import sys
import time
from fractions import Fraction
from pathlib import Path

from symgame.api import tree_solve
from symgame.numeric.sequence_lp import solve_sequence_form
from symgame.verify.best_response import certify_value

KUHN = Path(__file__).resolve().parents[1] / "examples" / "kuhn_bet.yaml"


def main(grid: int = 100) -> None:
    t0 = time.perf_counter()
    result = tree_solve(KUHN)
    parametric = time.perf_counter() - t0
    form = result.form
    points = [Fraction(1, 4) + Fraction(15, 4) * Fraction(k, grid - 1) for k in range(grid)]
    t0 = time.perf_counter()
    agree = 0
    for b in points:
        numeric = form.at(b)
        cert = certify_value(numeric, solve_sequence_form(numeric).plans)
        agree += cert.certified and cert.lower == result.value_at(b)
    pointwise = time.perf_counter() - t0
    print("| method | values | seconds | per value |")
    print("|---|---|---|---|")
    print(f"| parametric LP (every b in [1/4, 4], {len(result.pieces)} pieces, exact) | all | {parametric:.2f} | - |")
    print(f"| one certified LP per grid point | {grid} | {pointwise:.2f} | {pointwise / grid * 1000:.1f} ms |")
    print(f"grid points where both agree exactly: {agree} of {grid}; the parametric solution costs as much as "
          f"{parametric / (pointwise / grid):.0f} point solves")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100)
