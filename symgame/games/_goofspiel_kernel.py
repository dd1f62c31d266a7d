"""Goofspiel's round games built and solved one at a time in compiled code (Numba), never materialised.

``amount_values`` computes, for one chunk of patterns, the value of every round game
``X_ij = c cmp_ij + sign_ij f(child_ij, prizes - c)`` with the same floating-point operations as the NumPy
path of :func:`symgame.games.goofspiel._amount_chunk` (which builds all of a chunk's games as one array and
solves them with :func:`symgame.numeric.matrix_batch.solve_batch`), so the two give bit-identical tables.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..numeric._simplex_kernel import solve_one, workspace


@njit(cache=True, nogil=True)
def amount_values(cp, cs, cm, sets, child_set, prev, max_iterations, values):  # pragma: no cover - compiled
    """``values[p, s, k]``: the round game of pattern ``p``, prize set ``s`` and upcard ``sets[s, k]``, or NaN
    where the simplex reached no optimal basis in ``max_iterations`` pivots (the caller solves those games
    otherwise). Returns ``(saddle points, such games)``."""
    b, m, _ = cp.shape
    count = sets.shape[0]
    x = np.empty((m, m))
    row = np.zeros(m)
    column = np.zeros(m)
    basis = np.empty(m, dtype=np.int64)
    t, pivot_row, ratio, bas = workspace(m, m)
    saddles = 0
    failures = 0
    for p in range(b):
        for s in range(count):
            for k in range(m):
                c = sets[s, k]
                rest = child_set[s, k]
                for i in range(m):
                    for j in range(m):
                        x[i, j] = float(c * cm[p, i, j]) + float(cs[p, i, j]) * prev[cp[p, i, j], rest]
                optimal, value, saddle = solve_one(x, max_iterations, t, pivot_row, ratio, bas, row, column,
                                                   basis)
                if optimal:
                    values[p, s, k] = value
                else:
                    values[p, s, k] = np.nan
                    failures += 1
                if saddle:
                    saddles += 1
                for i in range(m):
                    row[i] = 0.0
                    column[i] = 0.0
    return saddles, failures
