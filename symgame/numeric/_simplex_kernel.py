"""The batched simplex of :mod:`symgame.numeric.matrix_batch` compiled by Numba, one game at a time.

Every floating-point operation is the one the NumPy implementation (``matrix_batch._simplex``) performs on
the same game, in the same order (Dantzig's rule, then Bland's after ``2 (m + n)`` pivots; the ratio test's
ties to the smallest basic variable; ``t - f * row`` without fused multiply-adds, as Numba compiles without
``fastmath``), so both give bit-identical values, strategies and bases; ``tests/test_matrix_batch.py``
compares them bit for bit. Only the final normalisation of the strategies (a sum over each strategy) is left
to NumPy, whose pairwise summation a scalar loop would not reproduce.
"""
from __future__ import annotations

import numpy as np
from numba import njit

EPS = 1e-11


@njit(cache=True, nogil=True)
def workspace(m, n):  # pragma: no cover - compiled
    """Scratch arrays for :func:`solve_one` on ``m x n`` games: tableau, pivot row, ratios, basis."""
    return np.empty((m + 1, n + m + 1)), np.empty(n + m + 1), np.empty(m), np.empty(m, dtype=np.int64)


@njit(cache=True, nogil=True)
def solve_one(a, max_iterations, t, pivot_row, ratio, bas, row, column, basis):  # pragma: no cover - compiled
    """Solve the zero-sum game ``a`` (``m x n``, to the row player). ``row`` and ``column`` (zeroed by the
    caller) receive the unnormalised strategies, ``basis`` the final basis (``-1`` for a saddle point).
    Returns ``(optimal, value, saddle)``; ``optimal`` is false when ``max_iterations`` pivots did not reach
    an optimal basis."""
    m, n = a.shape
    width = n + m + 1
    switch = 2 * (m + n)
    largest = np.iinfo(np.int64).max
    lower = -np.inf                      # saddle point: max of the row minima against min of the column maxima
    best_i = 0
    for i in range(m):
        r = a[i, 0]
        for j in range(1, n):
            if a[i, j] < r:
                r = a[i, j]
        if r > lower:
            lower = r
            best_i = i
    upper = np.inf
    best_j = 0
    for j in range(n):
        c = a[0, j]
        for i in range(1, m):
            if a[i, j] > c:
                c = a[i, j]
        if c < upper:
            upper = c
            best_j = j
    if abs(upper - lower) <= EPS * max(1.0, abs(lower)):
        row[best_i] = 1.0
        column[best_j] = 1.0
        for i in range(m):
            basis[i] = -1
        return True, a[best_i, best_j], True
    low = a[0, 0]
    for i in range(m):
        for j in range(n):
            if a[i, j] < low:
                low = a[i, j]
    shift = low - 1.0
    for i in range(m):
        for j in range(n):
            t[i, j] = a[i, j] - shift
        for k in range(m):
            t[i, n + k] = 1.0 if k == i else 0.0
        t[i, width - 1] = 1.0
    for j in range(n):
        t[m, j] = -1.0
    for k in range(n, width):
        t[m, k] = 0.0
    for i in range(m):
        bas[i] = n + i
    for iteration in range(max_iterations):
        enter = -1
        least = 0.0
        for k in range(n + m):
            c = t[m, k]
            if c < -EPS:
                if iteration >= switch:          # Bland: the first improving column
                    enter = k
                    break
                if enter < 0 or c < least:       # Dantzig: the first most negative cost
                    enter = k
                    least = c
        if enter < 0:
            z = t[m, width - 1]
            for i in range(m):
                basis[i] = bas[i]
                if bas[i] < n:
                    v = t[i, width - 1]
                    column[bas[i]] = (v if v > 0.0 else 0.0) / z
                v = t[m, n + i]
                row[i] = (v if v > 0.0 else 0.0) / z
            return True, 1.0 / z + shift, False
        best = np.inf
        for i in range(m):
            col = t[i, enter]
            ratio[i] = t[i, width - 1] / col if col > EPS else np.inf
            if ratio[i] < best:
                best = ratio[i]
        bound = best + EPS * max(1.0, best)
        leave = 0
        smallest = largest
        for i in range(m):                       # ties: the smallest basic variable leaves (Bland)
            if ratio[i] <= bound and bas[i] < smallest:
                smallest = bas[i]
                leave = i
        pivot = t[leave, enter]
        for k in range(width):
            pivot_row[k] = t[leave, k] / pivot
        for i in range(m + 1):
            f = t[i, enter]
            for k in range(width):
                t[i, k] -= f * pivot_row[k]
        for k in range(width):
            t[leave, k] = pivot_row[k]
        bas[leave] = enter
    return False, 0.0, False


@njit(cache=True, nogil=True)
def solve_games(a, max_iterations, values, row, column, basis, saddle, failed):  # pragma: no cover - compiled
    """Solve ``a[g]`` for every ``g`` (see ``matrix_batch.solve_batch``); ``row`` and ``column`` (zeroed by
    the caller) receive the unnormalised strategies. A game that reaches no optimal basis in
    ``max_iterations`` pivots is marked in ``failed`` (its other outputs are left for the caller to fill).
    Returns the number of such games."""
    count, m, n = a.shape
    t, pivot_row, ratio, bas = workspace(m, n)
    failures = 0
    for g in range(count):
        optimal, value, is_saddle = solve_one(a[g], max_iterations, t, pivot_row, ratio, bas, row[g], column[g],
                                              basis[g])
        failed[g] = not optimal
        saddle[g] = is_saddle
        if optimal:
            values[g] = value
        else:
            failures += 1
    return failures
