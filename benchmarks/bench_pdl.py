"""Evaluating a derived PDL versus solving each game numerically (2x2 general-sum games).

Reports ratios measured in one process:
* exact PDL evaluation (Fractions) vs nashpy support enumeration per game;
* vectorised PDL evaluation (numpy) vs nashpy per game.
Run: python3 benchmarks/bench_pdl.py [N]
"""
import sys
import time
from fractions import Fraction

import numpy as np

from symgame.engine.derive import derive_equilibria
from symgame.games.two_by_two import NAMES, build_game
from symgame.numeric.solvers import bimatrix_equilibria


def main(n: int = 2000) -> None:
    t0 = time.perf_counter()
    pdl = derive_equilibria(build_game()).pdl
    derive_s = time.perf_counter() - t0
    rng = np.random.default_rng(7)
    values = rng.uniform(-1, 1, (n, 8))

    t0 = time.perf_counter()
    for row in values:
        a = np.array([[row[0], row[2]], [row[4], row[6]]])
        b = np.array([[row[1], row[3]], [row[5], row[7]]])
        bimatrix_equilibria(a, b)
    nashpy_s = time.perf_counter() - t0

    points = [{k: Fraction(float(v)) for k, v in zip(NAMES, row)} for row in values]
    t0 = time.perf_counter()
    for point in points:
        pdl.evaluate(point)
    exact_s = time.perf_counter() - t0

    columns = {k: values[:, i] for i, k in enumerate(NAMES)}
    pdl.profiles_numeric(columns)  # warm up lambdify
    t0 = time.perf_counter()
    pdl.profiles_numeric(columns)
    vector_s = time.perf_counter() - t0

    print(f"derivation of the 2x2 PDL: {derive_s:.2f} s (one-off)")
    print(f"{n} games: nashpy {nashpy_s:.3f} s, exact PDL {exact_s:.3f} s, vectorised PDL {vector_s:.4f} s")
    print(f"ratio nashpy / exact PDL      = {nashpy_s / exact_s:8.1f}")
    print(f"ratio nashpy / vectorised PDL = {nashpy_s / vector_s:8.1f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
