"""Single-state recursive games with increasing stakes (../shared/seeds/001, section 1).

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

import numpy as np
from scipy.optimize import linprog

MAX_ITERATIONS = 200
TOLERANCE = 1e-12


@dataclass(frozen=True)
class MatrixSolution:
    value: float
    row: np.ndarray
    col: np.ndarray


def solve_matrix_game(payoff: np.ndarray) -> MatrixSolution:
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
    return MatrixSolution(1.0 / total + shift - 1.0, row, col)


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

    def stakes(self, x: np.ndarray, cols: np.ndarray, y: np.ndarray) -> float:
        """``x^T B y`` for a column strategy supported on ``cols``."""
        return float(x @ np.asarray(self.B)[:, cols] @ y)

    def value_map(self, V: float) -> "GameValue":
        """``T(V) = Value(A + B V)`` with optimal strategies (eq. 1.6), by column generation."""
        return solve_by_columns(self, V)


@dataclass(frozen=True)
class GameValue:
    """Value of ``A + B V``, the row strategy, and the column strategy on the columns it uses."""

    value: float
    row: np.ndarray
    cols: np.ndarray
    col: np.ndarray

    def dense_col(self, n: int) -> np.ndarray:
        out = np.zeros(n)
        out[self.cols] = self.col
        return out


def solve_by_columns(game, V: float, start: int = 8, batch: int = 16, tol: float = 1e-11) -> GameValue:
    """Column generation: solve on a few columns, add the columns the row strategy does worst on, repeat.

    Stops when no column is better for player 2 than the restricted value,
    so the restricted solution is optimal for the whole game; only the
    columns ever added are built (``game.columns``), every other column is
    priced through ``game.row_mix``.
    """
    m, n = game.shape
    uniform = np.full(m, 1.0 / m)
    active = list(np.argsort(game.row_mix(V, uniform))[:start])
    for _ in range(10_000):
        cols = np.array(sorted(set(int(c) for c in active)))
        sol = solve_matrix_game(game.columns(V, cols))
        prices = game.row_mix(V, sol.row)
        worst = np.argsort(prices)[:batch]
        new = [int(c) for c in worst if prices[c] < sol.value - tol * max(1.0, abs(sol.value))
               and int(c) not in set(cols.tolist())]
        if not new:
            keep = sol.col > 0
            return GameValue(sol.value, sol.row, cols[keep], sol.col[keep])
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


def forced_value(game: RecursiveGame, fee: float = 1.0, side: str = "row", tol: float = TOLERANCE) -> FixedPoint:
    """The value forcible by player 1 (``side="row"``, from ``-fee`` upward) or player 2 (from ``+fee`` down).

    Each step tries Newton on ``g(V) = T(V) - V`` with slope ``x^T B y - 1``;
    the step is kept only if ``g`` keeps its sign there, otherwise the plain
    iterate ``T(V)`` is taken, which never passes the least fixed point
    because ``T`` is monotone.
    """
    sign = 1.0 if side == "row" else -1.0
    V = -sign * fee
    sol = game.value_map(V)
    iterates = [V]
    if sign * (sol.value - V) <= 0:
        return FixedPoint(V, sol.row, sol.cols, sol.col, tuple(iterates))   # better not to play
    for _ in range(MAX_ITERATIONS):
        g = sol.value - V
        if abs(g) <= tol * max(1.0, abs(V)):
            return FixedPoint(V, sol.row, sol.cols, sol.col, tuple(iterates))
        slope = game.stakes(sol.row, sol.cols, sol.col) - 1.0
        candidate = V - g / slope if slope < -1e-12 else None
        accepted = None
        if candidate is not None and sign * (candidate - sol.value) > 0:
            trial = game.value_map(candidate)
            if sign * (trial.value - candidate) >= -tol:
                accepted = (candidate, trial)
        if accepted is None:
            V = sol.value
            sol = game.value_map(V)
        else:
            V, sol = accepted
        iterates.append(V)
    return FixedPoint(V, sol.row, sol.cols, sol.col, tuple(iterates), converged=False)


def plain_iteration(game: RecursiveGame, fee: float = 1.0, steps: int = 50) -> list[float]:
    """``V_0 = -fee, V_{n+1} = T(V_n)`` (eq. 1.4), for comparison with :func:`forced_value`."""
    V = -fee
    out = [V]
    for _ in range(steps):
        V = game.value_map(V).value
        out.append(V)
    return out
