"""Many small zero-sum matrix games at once: a batched simplex method in NumPy.

Dynamic programmes over subgames (Goofspiel, recursive games) solve millions of k x k matrix games whose
size is small (k <= 13). One HiGHS call per game costs far more than the game itself; here every game of a
batch runs the same simplex iteration in vectorised array operations, each with its own pivots.

For a payoff matrix ``A`` (to the row player, who maximises), ``B = A - min(A) + 1 > 0`` and the column
player's LP ``max 1'y  s.t.  B y <= 1, y >= 0`` starts feasible at the slack basis (no phase 1). At the
optimum ``z = 1'y``, the value of ``A`` is ``1/z + min(A) - 1``, the column player's strategy is ``y / z``
and the row player's is the dual ``pi / z`` read off the objective row under the slack columns (von
Neumann's reduction of a matrix game to a linear programme; see e.g. Ferguson, *Game Theory*, part II,
section 4). Pivots follow Dantzig's rule, then Bland's rule after ``2 (m + n)`` iterations so that degenerate
games cannot cycle in exact arithmetic. Games with a saddle point are answered without pivoting. In floating
point a very degenerate game can still fail to reach an optimal basis (one in about 10^8 of Goofspiel's
13-card round games did within 800 pivots); such a game is solved by HiGHS instead and flagged in
``BatchSolution.fallback``.

The final basis is returned, so that an exact solver can re-solve a game on it in rational arithmetic
(:func:`exact_from_basis`) and certify it.

Two implementations give bit-identical answers: one compiled by Numba (the default when Numba imports; one
game at a time, about 10-20 times faster on 4x4 to 12x12 games, ``benchmarks/bench_goofspiel.py``) and one in
vectorised NumPy (``backend="numpy"``, every game of a batch pivoting in the same array operations), which
is the fallback without Numba and the reference the compiled one is tested against.

Examples
--------
>>> import numpy as np
>>> games = np.array([[[1.0, -1.0], [-1.0, 1.0]], [[3.0, 1.0], [2.0, 0.0]]])
>>> result = solve_batch(games)
>>> np.round(result.values, 6).tolist(), np.round(result.row, 6).tolist()
([0.0, 1.0], [[0.5, 0.5], [1.0, 0.0]])
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Sequence

import numpy as np

EPS = 1e-11


@dataclass(frozen=True)
class BatchSolution:
    """Values ``(G,)``, row strategies ``(G, m)``, column strategies ``(G, n)`` and, per game, the final basis
    ``(G, m)`` as column indices of ``[B | I]`` (``-1`` for games answered as saddle points or by the
    fallback), whether it has a saddle point ``(G,)`` and whether HiGHS solved it after the simplex reached
    no optimal basis ``(G,)``."""

    values: np.ndarray
    row: np.ndarray
    column: np.ndarray
    basis: np.ndarray
    saddle: np.ndarray
    fallback: np.ndarray


def solve_batch(games: np.ndarray, max_iterations: int | None = None, backend: str = "auto") -> BatchSolution:
    """Solve every ``games[g]`` (shape ``(G, m, n)``, payoffs to the row player) as a zero-sum matrix game.

    Parameters
    ----------
    games : array of shape (G, m, n)
        Payoffs to the row player, who maximises.
    max_iterations : int, optional
        Pivots per game at most (default ``50 (m + n)``).
    backend : {"auto", "numba", "numpy"}
        ``"auto"``: compiled by Numba when it imports, else NumPy; both give bit-identical results.

    Returns
    -------
    BatchSolution

    Raises
    ------
    NumericSolverError
        If some game has not reached an optimal basis after ``max_iterations`` pivots (Bland's rule makes
        this impossible in exact arithmetic; it guards against floating-point trouble) and HiGHS fails on it
        too.
    ValueError
        For an unknown backend.
    ImportError
        For ``backend="numba"`` without Numba.

    Examples
    --------
    >>> games = np.array([[[0.0, 2.0], [3.0, -1.0]]])
    >>> r = solve_batch(games, backend="numpy")
    >>> round(float(r.values[0]), 12), np.round(r.row[0], 12).tolist(), np.round(r.column[0], 12).tolist()
    (1.0, [0.666666666667, 0.333333333333], [0.5, 0.5])
    >>> s = solve_batch(games)
    >>> bool((s.values == r.values).all() and (s.row == r.row).all() and (s.column == r.column).all())
    True
    """
    if backend not in ("auto", "numba", "numpy"):
        raise ValueError(f"unknown backend {backend!r}: 'auto', 'numba' or 'numpy'")
    a = np.asarray(games, dtype=float)
    count, m, n = a.shape
    kernel = _compiled() if backend != "numpy" else None
    if backend == "numba" and kernel is None:
        raise ImportError("backend='numba' needs Numba (pip install numba)")
    if kernel is not None:
        return _solve_compiled(kernel, np.ascontiguousarray(a), max_iterations or 50 * (m + n))
    values = np.empty(count)
    row = np.zeros((count, m))
    column = np.zeros((count, n))
    basis = np.full((count, m), -1, dtype=np.int64)
    row_min = a.min(axis=2)
    col_max = a.max(axis=1)
    lower = row_min.max(axis=1)
    upper = col_max.min(axis=1)
    saddle = np.abs(upper - lower) <= EPS * np.maximum(1.0, np.abs(lower))
    if saddle.any():
        idx = np.nonzero(saddle)[0]
        i = row_min[idx].argmax(axis=1)
        j = col_max[idx].argmin(axis=1)
        values[idx] = a[idx, i, j]
        row[idx, i] = 1.0
        column[idx, j] = 1.0
    rest = np.nonzero(~saddle)[0]
    failed = np.zeros(count, dtype=np.bool_)
    if rest.size:
        v, p, q, b, stuck = _simplex(a[rest], max_iterations or 50 * (m + n))
        values[rest], row[rest], column[rest], basis[rest] = v, p, q, b
        failed[rest[stuck]] = True
    _fall_back(a, failed, values, row, column, basis)
    return BatchSolution(values, row, column, basis, saddle, failed)


def _fall_back(a: np.ndarray, failed: np.ndarray, values: np.ndarray, row: np.ndarray, column: np.ndarray,
               basis: np.ndarray) -> None:
    """The games the simplex left without an optimal basis, solved by HiGHS (deterministic: both
    implementations fail on the same games and so give the same answers)."""
    from .solvers import solve_zero_sum_lp

    for g in np.flatnonzero(failed):
        lp = solve_zero_sum_lp(a[g])
        values[g], row[g], column[g], basis[g] = lp.value, lp.row_strategy, lp.col_strategy, -1


def _compiled() -> Any:
    """Numba's compiled kernel, or ``None`` when Numba does not import."""
    from ..errors import optional_module

    kernel = optional_module("symgame.numeric._simplex_kernel")
    return kernel.solve_games if kernel is not None else None


def _solve_compiled(kernel: Any, a: np.ndarray, max_iterations: int) -> BatchSolution:
    count, m, n = a.shape
    values = np.empty(count)
    row = np.zeros((count, m))
    column = np.zeros((count, n))
    basis = np.empty((count, m), dtype=np.int64)
    saddle = np.empty(count, dtype=np.bool_)
    failed = np.zeros(count, dtype=np.bool_)
    if count and kernel(a, max_iterations, values, row, column, basis, saddle, failed):
        row[failed] = 1.0                       # placeholders, replaced by the fallback below
        column[failed] = 1.0
    # the NumPy implementation's normalisation, so that the sums round alike (a saddle point's strategies
    # sum to exactly 1 and are left unchanged)
    row /= row.sum(axis=1, keepdims=True)
    column /= column.sum(axis=1, keepdims=True)
    _fall_back(a, failed, values, row, column, basis)
    return BatchSolution(values, row, column, basis, saddle, failed)


def _simplex(a: np.ndarray, max_iterations: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                                          np.ndarray]:
    count, m, n = a.shape
    shift = a.min(axis=(1, 2)) - 1.0
    width = n + m + 1
    t = np.zeros((count, m + 1, width))
    t[:, :m, :n] = a - shift[:, None, None]
    t[:, :m, n:n + m] = np.eye(m)
    t[:, :m, -1] = 1.0
    t[:, m, :n] = -1.0
    basis = np.tile(np.arange(n, n + m), (count, 1))
    live = np.arange(count)
    switch = 2 * (m + n)
    stuck = np.zeros(count, dtype=np.bool_)
    for iteration in range(max_iterations):
        costs = t[live, m, :n + m]
        negative = costs < -EPS
        active = negative.any(axis=1)
        live = live[active]
        if live.size == 0:
            break
        costs, negative = costs[active], negative[active]
        enter = costs.argmin(axis=1) if iteration < switch else negative.argmax(axis=1)
        col = t[live, :m, enter]
        rhs = t[live, :m, -1]
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(col > EPS, rhs / col, np.inf)
        best = ratio.min(axis=1, keepdims=True)
        # ties in the ratio test: the smallest basic variable leaves (Bland)
        tied = ratio <= best + EPS * np.maximum(1.0, best)
        leave = np.where(tied, basis[live], np.iinfo(np.int64).max).argmin(axis=1)
        pivot_rows = t[live, leave, :] / col[np.arange(live.size), leave][:, None]
        factors = t[live, :, enter]                                     # (L, m + 1)
        t[live] -= factors[:, :, None] * pivot_rows[:, None, :]
        t[live, leave, :] = pivot_rows
        basis[live, leave] = enter
    else:
        stuck[live] = True                  # still pivoting after the last pivot allowed
        t[live, :m, -1] = 1.0               # placeholders (replaced by the fallback), so that nothing divides by 0
        t[live, m, :] = 1.0
    z = t[:, m, -1]
    y = np.zeros((count, n + m))
    np.put_along_axis(y, basis, t[:, :m, -1], axis=1)
    column = np.clip(y[:, :n], 0.0, None) / z[:, None]
    row = np.clip(t[:, m, n:n + m], 0.0, None) / z[:, None]
    column /= column.sum(axis=1, keepdims=True)
    row /= row.sum(axis=1, keepdims=True)
    return 1.0 / z + shift, row, column, basis, stuck


def exact_from_basis(x: Sequence[Sequence[Any]], basis: Sequence[int]) -> tuple[Any, list, list] | None:
    """The game ``x`` (exact entries: ``fmpq`` or ``Fraction``) re-solved on a simplex basis from
    :func:`solve_batch`, in python-flint's rational arithmetic: ``(value, row, column)`` or ``None`` when the
    basis is singular or not optimal in exact arithmetic. The answer is *not* yet certified: pass it to
    :func:`certified`.
    """
    from flint import fmpq, fmpq_mat

    m, n = len(x), len(x[0])
    entries = [[_q(e) for e in r] for r in x]
    low = min(min(r) for r in entries)
    shift = low - 1
    b = [[e - shift for e in r] for r in entries]

    def column_of(k: int) -> list:
        return [b[i][k] for i in range(m)] if k < n else [fmpq(1) if i == k - n else fmpq(0) for i in range(m)]

    cols = [column_of(int(k)) for k in basis]
    mat = fmpq_mat(m, m, [cols[k][i] for i in range(m) for k in range(m)])
    if mat.rank() < m:
        return None
    xb = mat.solve(fmpq_mat(m, 1, [fmpq(1)] * m))
    cost = fmpq_mat(m, 1, [fmpq(1) if int(k) < n else fmpq(0) for k in basis])
    pi = mat.transpose().solve(cost)
    y = [fmpq(0)] * n
    for r, k in enumerate(basis):
        if int(k) < n:
            y[int(k)] = xb[r, 0]
    duals = [pi[i, 0] for i in range(m)]
    if any(v < 0 for v in y) or any(v < 0 for v in duals) or any(xb[r, 0] < 0 for r in range(m)):
        return None
    z = sum(y, fmpq(0))
    if z == 0:
        return None
    return 1 / z + shift, [d / z for d in duals], [v / z for v in y]


def certified(x: Sequence[Sequence[Any]], value: Any, row: Sequence[Any], column: Sequence[Any]) -> bool:
    """Exact best responses: ``row`` guarantees ``value`` against every column and ``column`` holds the row
    player to ``value`` against every row (both strategies probability vectors). Products are python-flint
    matrix products (one common denominator per row or column)."""
    from flint import fmpq_mat

    m, n = len(x), len(x[0])
    p, q = [_q(t) for t in row], [_q(t) for t in column]
    if any(t < 0 for t in p) or any(t < 0 for t in q) or sum(p) != 1 or sum(q) != 1:
        return False
    mat = fmpq_mat(m, n, [_q(e) for r in x for e in r])
    against_columns = fmpq_mat(1, m, p) * mat                  # (1, n)
    against_rows = mat * fmpq_mat(n, 1, q)                     # (m, 1)
    worst = min(against_columns[0, j] for j in range(n))
    best = max(against_rows[i, 0] for i in range(m))
    v = _q(value)
    return bool(worst == v and best == v)


def _q(v: Any):
    from flint import fmpq

    if isinstance(v, fmpq):
        return v
    if isinstance(v, int):
        return fmpq(v)
    f = Fraction(v)
    return fmpq(f.numerator, f.denominator)
