"""Numeric proposals of equilibrium support pairs ("kernels") at one parameter point.

Used by :mod:`symgame.engine.discovery` to decide which support pairs are
worth deriving exactly.  A wrong proposal costs time, never correctness:
every proposed pair is derived exactly and the final cover is proved.
"""
from __future__ import annotations

from itertools import combinations

import numpy as np

from .solvers import bimatrix_equilibria, solve_zero_sum_lp

Kernel = tuple[tuple[int, ...], tuple[int, ...]]


def zero_sum_kernels(a: np.ndarray, tol: float = 1e-7, limit: int = 40) -> list[Kernel]:
    """Square support pairs consistent with the LP solution of ``a``.

    A kernel ``(I, J)`` must satisfy ``supp(x) ⊆ I ⊆ {rows optimal against y}``
    and ``supp(y) ⊆ J ⊆ {columns optimal against x}``; at a nondegenerate
    point there is exactly one.  Candidates are checked numerically (the
    bordered system is solved and must give an equilibrium) before being
    returned, smallest first, at most ``limit`` of them.
    """
    sol = solve_zero_sum_lp(a)
    x, y, v = sol.row_strategy, sol.col_strategy, sol.value
    rows_tight = np.flatnonzero(a @ y >= v - tol)
    cols_tight = np.flatnonzero(x @ a <= v + tol)
    rows_used = set(np.flatnonzero(x > tol).tolist())
    cols_used = set(np.flatnonzero(y > tol).tolist())
    kernels: list[Kernel] = []
    for size in range(1, min(len(rows_tight), len(cols_tight)) + 1):
        for rows in _supersets(rows_used, rows_tight, size):
            for cols in _supersets(cols_used, cols_tight, size):
                if _kernel_is_equilibrium(a, -a, rows, cols, tol):
                    kernels.append((rows, cols))
                    if len(kernels) >= limit:
                        return kernels
    return kernels


def bimatrix_kernels(a: np.ndarray, b: np.ndarray, tol: float = 1e-7) -> list[Kernel]:
    """Square supports of the equilibria nashpy finds at this point."""
    kernels = []
    for x, y in bimatrix_equilibria(a, b):
        rows = tuple(np.flatnonzero(x > tol).tolist())
        cols = tuple(np.flatnonzero(y > tol).tolist())
        if len(rows) == len(cols):
            kernels.append((rows, cols))
    return kernels


def _supersets(required: set[int], allowed: np.ndarray, size: int):
    extra = [int(i) for i in allowed if int(i) not in required]
    need = size - len(required)
    if need < 0 or not required <= set(int(i) for i in allowed):
        return
    for chosen in combinations(extra, need):
        yield tuple(sorted(required | set(chosen)))


def _solve_bordered(block: np.ndarray) -> np.ndarray | None:
    k = block.shape[1]
    m = np.zeros((k + 1, k + 1))
    m[:k, :k] = block
    m[:k, k] = -1.0
    m[k, :k] = 1.0
    rhs = np.zeros(k + 1)
    rhs[k] = 1.0
    try:
        if abs(np.linalg.det(m)) < 1e-12:
            return None
        return np.linalg.solve(m, rhs)
    except np.linalg.LinAlgError:
        return None


def _kernel_is_equilibrium(a: np.ndarray, b: np.ndarray, rows: tuple[int, ...], cols: tuple[int, ...],
                           tol: float) -> bool:
    col = _solve_bordered(a[np.ix_(rows, cols)])
    row = _solve_bordered(b[np.ix_(rows, cols)].T)
    if col is None or row is None:
        return False
    y = np.zeros(a.shape[1])
    y[list(cols)] = col[:-1]
    x = np.zeros(a.shape[0])
    x[list(rows)] = row[:-1]
    if (x < -1e-6).any() or (y < -1e-6).any():
        return False
    return bool((a @ y).max() <= col[-1] + 1e-6 and (x @ b).max() <= row[-1] + 1e-6)


def game_kernels(game, point, limit: int = 1) -> list[Kernel]:
    """Numeric kernel proposals for a :class:`NormalFormGame` at ``point``.

    ``limit`` bounds the number of zero-sum proposals (smallest first).
    """
    matrices = game.payoffs_numeric(point)
    if len(matrices) == 1:
        values = matrices[0].ravel()
        return [((int(i),), (0,)) for i in np.flatnonzero(values >= values.max() - 1e-9)]
    if game.zero_sum:
        return zero_sum_kernels(matrices[0], limit=limit)
    return bimatrix_kernels(matrices[0], matrices[1])
