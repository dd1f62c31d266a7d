"""Single-state recursive games with increasing stakes (Buck et al., arXiv:2208.02788, 2022,
section 1).

Player 1 (rows, maximiser) and player 2 (columns) play the one-shot game
``A + B·V``: ``A`` is the immediate return, ``B >= 0`` the multiplier of
the stakes when play continues, and ``V`` the value of continuing.  The
value forcible by player 1 from the termination fee ``-t`` is the limit of
``V_{n+1} = T(V_n)``, ``T(V) = Value(A + B V)`` (eq. 1.4), the least fixed
point of ``T`` above ``-t``; player 2's is the greatest fixed point below
``+t``.  :func:`forced_value` reaches it with safeguarded Newton steps on
``T(V) - V`` whose slope is ``x^T B y`` at the optimal strategies, falling
back to plain iteration when a step would change the sign of ``T(V) - V``
(a step across a fixed point: the overshoot of section 2.2).  Floating
point results are then certified exactly with Theorem 1.2
(:mod:`symgame.verify.recursive`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np
from scipy.optimize import linprog

from .solvers import MatrixGameSolution

MAX_ITERATIONS = 200
TOLERANCE = 1e-12


def solve_matrix_game(payoff: np.ndarray) -> MatrixGameSolution:
    """Value and optimal strategies of a zero-sum matrix game with one HiGHS LP (column strategy from duals)."""
    a = np.asarray(payoff, dtype=float)
    m, n = a.shape
    shift = a.min()
    b = a - shift + 1.0                      # positive matrix: value = 1/sum(z) with z >= 0, z^T B >= 1
    result = linprog(np.ones(m), A_ub=-b.T, b_ub=-np.ones(n), bounds=[(0, None)] * m, method="highs")
    if not result.success:
        raise RuntimeError(f"HiGHS failed: {result.message}")
    total = result.x.sum()
    row = result.x / total
    col = -np.asarray(result.ineqlin.marginals, dtype=float)
    col = np.clip(col, 0.0, None)
    col = col / col.sum()
    return MatrixGameSolution(1.0 / total + shift - 1.0, row, col)


@dataclass(frozen=True)
class RecursiveGame:
    """``A`` (immediate return to player 1) and ``B`` (stakes multiplier, >= 0), both m x n."""

    A: np.ndarray
    B: np.ndarray

    def __post_init__(self) -> None:
        if np.shape(self.A) != np.shape(self.B):
            raise ValueError("A and B must have the same shape")
        if np.min(self.B) < 0:
            raise ValueError("the stakes multiplier B must be nonnegative")

    @property
    def shape(self) -> tuple[int, int]:
        return np.shape(self.A)

    def columns(self, V: float, cols: np.ndarray) -> np.ndarray:
        """The columns ``cols`` of ``A + B V``."""
        return np.asarray(self.A)[:, cols] + np.asarray(self.B)[:, cols] * V

    def row_mix(self, V: float, x: np.ndarray) -> np.ndarray:
        """``x^T (A + B V)`` for every column (the pricing step of column generation)."""
        support = np.nonzero(x > 0)[0]
        return x[support] @ (np.asarray(self.A)[support] + np.asarray(self.B)[support] * V)

    def initial_columns(self, V: float, count: int) -> np.ndarray:
        """Where column generation starts: the columns that do best against a uniform row strategy."""
        uniform = np.full(self.shape[0], 1.0 / self.shape[0])
        return np.argsort(self.row_mix(V, uniform))[:count]

    def stakes(self, x: np.ndarray, cols: np.ndarray, y: np.ndarray) -> float:
        """``x^T B y`` for a column strategy supported on ``cols``."""
        return float(x @ np.asarray(self.B)[:, cols] @ y)

    def value_map(self, V: float, warm: Sequence[int] = ()) -> "GameValue":
        """``T(V) = Value(A + B V)`` with optimal strategies (eq. 1.6), by column generation.

        ``warm``: columns to start from (those optimal at a nearby ``V``).
        """
        return solve_by_columns(self, V, warm=warm)


@dataclass(frozen=True)
class GameValue:
    """Value of ``A + B V``, the row strategy, and the column strategy on the columns it uses."""

    value: float
    row: np.ndarray
    cols: np.ndarray
    col: np.ndarray


def solve_by_columns(game, V: float, start: int = 8, batch: int = 16, tol: float = 1e-11,
                     warm: Sequence[int] = ()) -> GameValue:
    """Column generation: solve on a few columns, add the columns the row strategy does worst on, repeat.

    Stops when no column is better for player 2 than the restricted value,
    so the restricted solution is optimal for the whole game; only the
    columns ever added are built (``game.columns``), every other column is
    priced through ``game.row_mix``; the game names its starting columns
    (``game.initial_columns``).
    """
    active = [int(c) for c in game.initial_columns(V, start)] + [int(c) for c in warm]
    for _ in range(10_000):
        cols = np.array(sorted(set(int(c) for c in active)))
        sol = solve_matrix_game(game.columns(V, cols))
        prices = game.row_mix(V, sol.row_strategy)
        worst = np.argsort(prices)[:batch]
        present = set(cols.tolist())
        new = [int(c) for c in worst if prices[c] < sol.value - tol * max(1.0, abs(sol.value))
               and int(c) not in present]
        if not new:
            keep = sol.col_strategy > 0
            return GameValue(sol.value, sol.row_strategy, cols[keep], sol.col_strategy[keep])
        active = list(cols) + new
    raise RuntimeError("column generation did not converge")


@dataclass(frozen=True)
class FixedPoint:
    """The value forced from a termination fee, the optimal strategies there, and the iterates."""

    value: float
    row: np.ndarray
    cols: np.ndarray
    col: np.ndarray
    iterates: tuple[float, ...] = field(default=())
    converged: bool = True

    def dense_col(self, n: int) -> np.ndarray:
        """Player 2's strategy over all ``n`` columns (zero outside the columns kept)."""
        out = np.zeros(n)
        out[self.cols] = self.col
        return out


def forced_value(game: RecursiveGame, fee: float = 1.0, side: str = "row", tol: float = TOLERANCE) -> FixedPoint:
    """The value forcible by player 1 (``side="row"``, from ``-fee`` upward) or player 2 (from ``+fee`` down).

    Safeguarded Newton on ``g(V) = T(V) - V`` (slope ``x^T B y - 1`` at the
    optimal strategies).  ``L`` is the best point with ``g`` of the starting
    sign (player 1: ``T(L) >= L``; never beyond the least fixed point, since
    until a bracket exists the step is at least the plain iterate ``T(L)``),
    ``U`` the nearest point found past a fixed point.  Newton steps are taken
    from the last point evaluated while they stay inside ``(L, U)``, bisection
    otherwise; on a linear piece of ``T`` Newton lands on the fixed point.
    """
    sign = 1.0 if side == "row" else -1.0
    L = -sign * fee
    best = game.value_map(L)
    iterates = [L]
    if sign * (best.value - L) <= 0:
        return FixedPoint(L, best.row, best.cols, best.col, tuple(iterates))   # better not to play
    U = None
    point, sol = L, best
    for _ in range(MAX_ITERATIONS):
        gL = best.value - L
        if abs(gL) <= tol * max(1.0, abs(L)) or (U is not None and abs(U - L) <= tol * max(1.0, abs(L))):
            return FixedPoint(L, best.row, best.cols, best.col, tuple(iterates))
        g = sol.value - point
        slope = game.stakes(sol.row, sol.cols, sol.col) - 1.0
        candidate = point - g / slope if abs(slope) > 1e-12 else None
        if U is None:
            if candidate is None or sign * (candidate - best.value) < 0:
                candidate = best.value                        # at least the plain iterate T(L)
        elif candidate is None or not (sign * (candidate - L) > 0 and sign * (U - candidate) > 0):
            candidate = (L + U) / 2
        trial = game.value_map(candidate, warm=[int(c) for c in np.union1d(sol.cols, best.cols)])
        iterates.append(candidate)
        point, sol = candidate, trial
        if sign * (trial.value - candidate) >= 0:
            L, best = candidate, trial
        else:
            U = candidate
    return FixedPoint(L, best.row, best.cols, best.col, tuple(iterates), converged=False)


def plain_iteration(game: RecursiveGame, fee: float = 1.0, steps: int = 50) -> list[float]:
    """``V_0 = -fee, V_{n+1} = T(V_n)`` (eq. 1.4), for comparison with :func:`forced_value`."""
    V = -fee
    out = [V]
    for _ in range(steps):
        V = game.value_map(V).value
        out.append(V)
    return out
