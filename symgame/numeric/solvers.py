"""Independent numeric solvers used to cross-check symbolic results.

* zero-sum games: the maximin linear programme solved by scipy's HiGHS, and the range of each row's
  probability over all optimal strategies (``optimal_strategy_ranges``);
* general-sum bimatrix games: all equilibria by nashpy's support enumeration;
* one-player decision problems: the best actions by direct comparison.

None of these import the symbolic engine.
"""
from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Iterable, Sequence

import numpy as np

from ..errors import NumericSolverError

#: HiGHS's feasibility tolerances, tighter than its defaults (1e-7): near a degenerate parameter point
#: the defaults leave duality gaps of about 1e-7 on Final Jeopardy's matrices (the (17,16) game at
#: p1 = 6/7, p2 = 3/5 gives 2.2e-8 with the defaults, 6e-16 with these)
HIGHS_OPTIONS = {"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}


def power_of_two_scale(values: Iterable[Fraction]) -> int:
    """``k`` such that the largest ``|v| * 2**-k`` lies in [1/2, 2): payoffs of any size fit a float exactly scaled.

    Entries far below the largest may underflow to 0 after scaling; the exact certificates that follow
    every LP decide whether its answer stands.
    """
    sizes = [Fraction(v).numerator.bit_length() - Fraction(v).denominator.bit_length() for v in values if v]
    return max(sizes, default=0)


def scaled_float(value: Fraction, shift: int) -> float:
    """``value * 2**-shift`` as a float (0.0 below the smallest float), exactly rounded."""
    scaled = Fraction(value) / (Fraction(2) ** shift) if shift >= 0 else Fraction(value) * 2 ** -shift
    try:
        return float(scaled)
    except OverflowError:            # cannot happen after scaling, kept as a guard
        return math.copysign(math.inf, scaled)


#: payoffs smaller than the largest by more than this factor do not survive a float LP's tolerances
FLOAT_RANGE = 2.0 ** 40


def float_matrices(matrices: Sequence[Sequence[Sequence[Fraction]]], common: bool = False) -> list[np.ndarray] | None:
    """Exact payoff matrices as floats, each scaled by a power of two so its largest entry is about 1.

    Scaling a player's payoffs by a positive constant changes no best response, so the equilibria of the
    scaled game are those of the exact one. ``common=True`` uses one scale for all (zero-sum games).
    Returns ``None`` when some nonzero entry is more than :data:`FLOAT_RANGE` times smaller than the
    largest of its matrix: such payoffs are beyond what a floating-point solver can compare.
    """
    shifts = [power_of_two_scale(v for row in m for v in row) for m in matrices]
    if common:
        shifts = [max(shifts)] * len(shifts)
    out = []
    for m, shift in zip(matrices, shifts):
        floats = np.array([[scaled_float(v, shift) for v in row] for row in m], dtype=float)
        exact_nonzero = [v for row in m for v in row if v]
        if exact_nonzero and min(abs(v) for v in exact_nonzero) * FLOAT_RANGE < 2 ** (shift - 1):
            return None
        out.append(floats)
    return out


@dataclass(frozen=True)
class MatrixGameSolution:
    """Value and one optimal strategy per player of a zero-sum matrix game."""

    value: float
    row_strategy: np.ndarray
    col_strategy: np.ndarray


def solve_zero_sum_lp(payoff: np.ndarray) -> MatrixGameSolution:
    """Solve ``max_x min_j (x^T A)_j`` and its dual with HiGHS.

    Parameters
    ----------
    payoff : ndarray, shape (m, n)
        Row player's payoffs.
    """
    a = np.asarray(payoff, dtype=float)
    row, value = _maximin(a)
    col, neg_value = _maximin(-a.T)
    if abs(value + neg_value) > 1e-7 * max(1.0, abs(value)):
        raise NumericSolverError(f"HiGHS: LP duality gap {value + neg_value:.3g} on a {a.shape[0]}x{a.shape[1]} game")
    return MatrixGameSolution(value, row, col)


def _maximin(a: np.ndarray) -> tuple[np.ndarray, float]:
    from scipy.optimize import linprog  # imported where used: about 0.4 s of every run's start-up
    m, n = a.shape
    # variables: x_1..x_m, v ; maximise v  s.t.  v - (x^T A)_j <= 0, sum x = 1
    cost = np.zeros(m + 1)
    cost[-1] = -1.0
    a_ub = np.hstack([-a.T, np.ones((n, 1))])
    a_eq = np.hstack([np.ones((1, m)), np.zeros((1, 1))])
    bounds = [(0, None)] * m + [(None, None)]
    result = linprog(cost, A_ub=a_ub, b_ub=np.zeros(n), A_eq=a_eq, b_eq=[1.0],
                     bounds=bounds, method="highs", options=HIGHS_OPTIONS)
    if not result.success:
        raise NumericSolverError(f"HiGHS failed: {result.message}")
    return result.x[:m], float(result.x[-1])


def optimal_strategy_ranges(payoff: np.ndarray, tol: float = 1e-9) -> np.ndarray:
    """For each row, the least and the greatest probability it has in a maximin strategy of the row player
    within ``tol`` of optimal (``tol`` relative to the largest payoff): ``2m`` linear programmes by HiGHS.

    A range ``[0, 0]`` means no optimal strategy uses the row; ranges of zero width everywhere mean the
    optimal strategy is unique (to the tolerance).

    Parameters
    ----------
    payoff : ndarray, shape (m, n)
        Row player's payoffs.
    tol : float
        How far below the value a strategy may guarantee and still count.

    Returns
    -------
    ndarray, shape (m, 2)
        ``[low, high]`` per row.

    Raises
    ------
    NumericSolverError
        When HiGHS fails.

    Examples
    --------
    >>> np.round(optimal_strategy_ranges(np.array([[1.0, 1.0], [1.0, 1.0]])), 6).tolist()   # every mix is optimal
    [[0.0, 1.0], [0.0, 1.0]]
    >>> np.round(optimal_strategy_ranges(np.array([[1.0, -1.0], [-1.0, 1.0]])), 6).tolist()  # unique: (1/2, 1/2)
    [[0.5, 0.5], [0.5, 0.5]]
    """
    from scipy.optimize import linprog

    a = np.asarray(payoff, dtype=float)
    m, n = a.shape
    _, value = _maximin(a)
    slack = tol * max(1.0, float(np.abs(a).max()))
    # x >= 0, sum x = 1, (x^T A)_j >= value - slack for every column j
    a_ub, b_ub = -a.T, np.full(n, -(value - slack))
    out = np.empty((m, 2))
    for i in range(m):
        for side, sign in ((0, 1.0), (1, -1.0)):
            cost = np.zeros(m)
            cost[i] = sign
            result = linprog(cost, A_ub=a_ub, b_ub=b_ub, A_eq=np.ones((1, m)), b_eq=[1.0], bounds=[(0, None)] * m,
                             method="highs", options=HIGHS_OPTIONS)
            if not result.success:
                raise NumericSolverError(f"HiGHS failed on the range of row {i}: {result.message}")
            out[i, side] = min(max(float(result.x[i]), 0.0), 1.0)
    return out


def bimatrix_equilibria(a: np.ndarray, b: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """All equilibria nashpy's support enumeration finds (nondegenerate games)."""
    enumerate_supports = _nashpy_support_enumeration()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return [(np.asarray(x), np.asarray(y))
                for x, y in enumerate_supports(np.asarray(a, float), np.asarray(b, float))]


def _nashpy_support_enumeration() -> Callable:
    """nashpy's ``support_enumeration`` (the function ``nashpy.Game.support_enumeration`` calls), loaded from its
    own module without running ``nashpy/__init__.py``: the package's ``__init__`` imports all of nashpy (its
    evolutionary dynamics import networkx and scipy), 0.78 s of a 2x2 solve's start-up, while this module needs
    numpy only. Falls back to the package when the module is not where nashpy keeps it."""
    import importlib.util
    import sys
    from pathlib import Path

    name = "symgame.numeric._nashpy_support_enumeration"
    module = sys.modules.get(name)
    if module is None:
        spec = importlib.util.find_spec("nashpy")
        folders = list(spec.submodule_search_locations or []) if spec is not None else []
        path = Path(folders[0], "algorithms", "support_enumeration.py") if folders else None
        if path is None or not path.is_file():
            import nashpy

            return lambda a, b: nashpy.Game(a, b).support_enumeration()
        file_spec = importlib.util.spec_from_file_location(name, path)
        assert file_spec is not None and file_spec.loader is not None
        module = importlib.util.module_from_spec(file_spec)
        file_spec.loader.exec_module(module)
        sys.modules[name] = module
    return module.support_enumeration


def best_actions(payoffs: np.ndarray, tol: float = 1e-9) -> list[int]:
    """Indices of the optimal actions of a one-player decision problem."""
    values = np.asarray(payoffs, dtype=float).ravel()
    return [int(i) for i in np.flatnonzero(values >= values.max() - tol)]


def numeric_regrets(a: np.ndarray, b: np.ndarray, x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Floating-point regrets of a profile in a bimatrix game."""
    row = float(np.max(a @ y) - x @ a @ y)
    col = float(np.max(x @ b) - x @ b @ y)
    return row, col
