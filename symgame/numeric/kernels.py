"""Numeric proposals of equilibrium support pairs ("kernels") at one parameter point.

Used by :mod:`symgame.engine.discovery` to decide which support pairs are
worth deriving exactly.  A wrong proposal costs time, never correctness:
every proposed pair is derived exactly and the final cover is proved.
"""
from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from typing import Mapping

import numpy as np

from ..errors import NumericSolverError
from .solvers import bimatrix_equilibria, solve_zero_sum_lp

Kernel = tuple[tuple[int, ...], tuple[int, ...]]

#: candidate support pairs examined per call at most (a degenerate point's tight sets can admit 10^5 and more;
#: measured: Final Jeopardy (20,19) spent over 40 minutes in one call without this bound)
MAX_CANDIDATES = 20_000
MAX_EXACT_CANDIDATES = 2_000


def zero_sum_kernels(a: np.ndarray, tol: float = 1e-7, limit: int = 40) -> list[Kernel]:
    """Square support pairs consistent with the LP solution of ``a``.

    A kernel ``(I, J)`` must satisfy ``supp(x) ⊆ I ⊆ {rows optimal against y}``
    and ``supp(y) ⊆ J ⊆ {columns optimal against x}``; at a nondegenerate
    point there is exactly one.  Candidates are checked numerically (the
    bordered system is solved and must give an equilibrium) before being
    returned, smallest first, at most ``limit`` of them, after examining at most
    :data:`MAX_CANDIDATES`.  When HiGHS cannot solve the LP there are no
    proposals (a proposal only steers the search).
    """
    return list(_lp_candidates(a, tol, 1.0, limit, MAX_CANDIDATES,
                               lambda rows, cols: _kernel_is_equilibrium(a, -a, rows, cols, tol)))


def exact_zero_sum_kernels(exact: list[list], a: np.ndarray, limit: int = 40,
                           tol: float = 1e-6) -> list[Kernel]:
    """Kernels of a zero-sum game that are exact equilibria at a rational point.

    The candidates are those of :func:`zero_sum_kernels` with the looser tolerance ``tol``
    (a degenerate point has optimal rows and columns that HiGHS reports only approximately);
    each is kept only if its bordered system, solved in rationals, gives an exact equilibrium
    of ``exact`` (the payoffs at the point, ``fmpq`` or :class:`~fractions.Fraction`).  By
    Shapley and Snow ("Basic solutions of discrete games", Contributions to the Theory of
    Games I, Annals of Mathematics Studies 24, 1950, Theorem 1) every extreme optimal pair is
    the solution of such a square nonsingular system, so an exact kernel exists at every point.
    """
    import flint

    rows_all = [[flint.fmpq(v.numerator, v.denominator) if isinstance(v, Fraction) else flint.fmpq(v)
                 for v in row] for row in exact]
    scale = max(1.0, float(np.abs(a).max()))
    found = list(_lp_candidates(a, tol, scale, limit, MAX_EXACT_CANDIDATES,
                                lambda rows, cols: _exact_kernel(rows_all, rows, cols)))
    return found or _lemke_howson_kernels(rows_all, limit)


def _lemke_howson_kernels(a: list[list], limit: int) -> list[Kernel]:
    """Kernels around the exact extreme equilibrium that Lemke and Howson's pivoting reaches (exact rationals,
    lexicographic ratio test): supports and tight sets exact, so a point where the payoffs differ by less than
    the floating-point LP's tolerance (Final Jeopardy (22,21) at p1 = 1/16: differences near 1e-9) still gets
    its kernel (Shapley and Snow, Theorem 1: one exists for every extreme optimal pair). Smallest first, at
    most ``limit``, after examining at most :data:`MAX_EXACT_CANDIDATES`."""
    from ..engine.lemke_howson import lemke_howson_solve

    fractions = [[Fraction(int(v.p), int(v.q)) for v in row] for row in a]
    eq = lemke_howson_solve(fractions, [[-v for v in row] for row in fractions])
    x, y = eq.row, eq.column
    n_rows, n_cols = len(a), len(a[0])
    value = sum((fractions[i][j] * x[i] * y[j] for i in range(n_rows) for j in range(n_cols)), Fraction(0))
    rows_tight = np.array([i for i in range(n_rows)
                           if sum((fractions[i][j] * y[j] for j in range(n_cols)), Fraction(0)) == value])
    cols_tight = np.array([j for j in range(n_cols)
                           if sum((fractions[i][j] * x[i] for i in range(n_rows)), Fraction(0)) == value])
    rows_used = {i for i in range(n_rows) if x[i] > 0}
    cols_used = {j for j in range(n_cols) if y[j] > 0}
    return list(_square_candidates(rows_used, cols_used, rows_tight, cols_tight, limit, MAX_EXACT_CANDIDATES,
                                   lambda rows, cols: _exact_kernel(a, rows, cols)))


def _lp_candidates(a: np.ndarray, tol: float, scale: float, limit: int, examine: int, accept):
    """Candidates smallest first; at most ``limit`` accepted ones, after examining at most ``examine``."""
    try:
        sol = solve_zero_sum_lp(a)
    except NumericSolverError:
        return
    x, y, v = sol.row_strategy, sol.col_strategy, sol.value
    rows_tight = np.flatnonzero(a @ y >= v - tol * scale)
    cols_tight = np.flatnonzero(x @ a <= v + tol * scale)
    rows_used = set(np.flatnonzero(x > tol).tolist())
    cols_used = set(np.flatnonzero(y > tol).tolist())
    yield from _square_candidates(rows_used, cols_used, rows_tight, cols_tight, limit, examine, accept)


def _square_candidates(rows_used: set[int], cols_used: set[int], rows_tight, cols_tight, limit: int,
                       examine: int, accept):
    """Square pairs ``(I, J)`` with ``used <= I <= tight`` on each side, smallest first, that ``accept`` takes:
    at most ``limit`` of them, after examining at most ``examine`` pairs."""
    found = examined = 0
    for size in range(1, min(len(rows_tight), len(cols_tight)) + 1):
        for rows in _supersets(rows_used, rows_tight, size):
            for cols in _supersets(cols_used, cols_tight, size):
                examined += 1
                if examined > examine:
                    return
                if accept(rows, cols):
                    yield rows, cols
                    found += 1
                    if found >= limit:
                        return


def _exact_kernel(a: list[list], rows: tuple[int, ...], cols: tuple[int, ...]) -> bool:
    """Whether the bordered systems of ``(rows, cols)`` give an exact equilibrium of ``a``."""
    import flint

    k = len(rows)

    def solve(block):
        m = flint.fmpq_mat(k + 1, k + 1)
        for i in range(k):
            for j in range(k):
                m[i, j] = block[i][j]
            m[i, k] = -1
            m[k, i] = 1
        rhs = flint.fmpq_mat(k + 1, 1)
        rhs[k, 0] = 1
        try:
            z = m.solve(rhs)
        except ZeroDivisionError:
            return None
        return [z[i, 0] for i in range(k + 1)]

    col = solve([[a[i][j] for j in cols] for i in rows])
    row = solve([[-a[i][j] for i in rows] for j in cols])
    if col is None or row is None or any(p < 0 for p in col[:-1]) or any(p < 0 for p in row[:-1]):
        return False
    value = col[-1]
    if -row[-1] != value:
        return False
    y = dict(zip(cols, col[:-1]))
    x = dict(zip(rows, row[:-1]))
    n_rows, n_cols = len(a), len(a[0])
    if any(sum((a[i][j] * p for j, p in y.items()), flint.fmpq(0)) > value for i in range(n_rows)):
        return False
    return all(sum((a[i][j] * p for i, p in x.items()), flint.fmpq(0)) >= value for j in range(n_cols))


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


def game_kernels(game, point: Mapping[str, float | Fraction], limit: int = 1) -> list[Kernel]:
    """Kernel proposals for a :class:`NormalFormGame` at ``point``.

    ``limit`` bounds the number of zero-sum proposals (smallest first).  When every value of
    ``point`` is a :class:`~fractions.Fraction`, a zero-sum game's proposals are exact
    equilibria there (:func:`exact_zero_sum_kernels`); otherwise they are checked in floating point.
    """
    exact = all(isinstance(v, Fraction) for v in point.values())
    matrices = game.payoffs_numeric(point)
    if exact and game.zero_sum and len(matrices) == 2:
        return exact_zero_sum_kernels(game.payoffs_at(point)[0], matrices[0], limit=limit)
    if len(matrices) == 1:
        values = matrices[0].ravel()
        return [((int(i),), (0,)) for i in np.flatnonzero(values >= values.max() - 1e-9)]
    if game.zero_sum:
        return zero_sum_kernels(matrices[0], limit=limit)
    return bimatrix_kernels(matrices[0], matrices[1])
