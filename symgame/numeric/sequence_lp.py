"""Sequence-form linear programme of a zero-sum game tree, solved by HiGHS."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.optimize import linprog
from scipy.sparse import coo_matrix, hstack, vstack

from ..model.sequence_form import PlayerSequences, SequenceForm
from .solvers import power_of_two_scale, scaled_float


@dataclass(frozen=True)
class SequenceSolution:
    """Floating-point optimal realization plans and the value (player 0's)."""

    value: float
    plans: tuple[np.ndarray, np.ndarray]


def constraint_matrix(own: PlayerSequences):
    """``E`` with ``E x = e``: root row, then one row per information set."""
    rows, cols, vals = [0], [0], [1.0]
    for r, infoset in enumerate(own.infosets, start=1):
        rows.append(r)
        cols.append(own.parent[infoset])
        vals.append(-1.0)
        for c in own.children(infoset):
            rows.append(r)
            cols.append(c)
            vals.append(1.0)
    return coo_matrix((vals, (rows, cols)), shape=(len(own.infosets) + 1, len(own.sequences))).tocsr()


def payoff_matrix(form: SequenceForm, shift: int = 0):
    """The sequence-form payoff matrix as floats, every entry multiplied by ``2**-shift``."""
    n0, n1 = form.sizes
    if not form.payoff:
        return coo_matrix((n0, n1)).tocsr()
    keys = list(form.payoff)
    return coo_matrix(([scaled_float(form.payoff[k], shift) for k in keys], ([k[0] for k in keys], [k[1] for k in keys])),
                      shape=(n0, n1)).tocsr()


def _maximin_plan(a, own_e, other_f) -> tuple[np.ndarray, float]:
    """max_x min_y x^T a y over realization plans: the LP with dual variables q."""
    n_own, m_other = a.shape[0], other_f.shape[0]
    cost = np.zeros(n_own + m_other)
    cost[n_own] = -1.0  # maximise q_0
    a_ub = hstack([-a.T, other_f.T]).tocsr()
    a_eq = hstack([own_e, coo_matrix((own_e.shape[0], m_other))]).tocsr()
    b_eq = np.zeros(own_e.shape[0])
    b_eq[0] = 1.0
    bounds = [(0, None)] * n_own + [(None, None)] * m_other
    res = linprog(cost, A_ub=a_ub, b_ub=np.zeros(a.shape[1]), A_eq=a_eq, b_eq=b_eq, bounds=bounds,
                  method="highs")
    if not res.success:
        raise RuntimeError(f"HiGHS failed on the sequence-form LP: {res.message}")
    return res.x[:n_own], -float(res.fun)


def solve_sequence_form(form: SequenceForm) -> SequenceSolution:
    """Optimal realization plans for both players (two LPs, one per side).

    Payoffs are scaled by a power of two so that the largest is about 1 (payoffs such as ``1e400`` do
    not overflow); ``value`` is scaled back (``inf`` beyond floating point).
    """
    shift = power_of_two_scale(form.payoff.values())
    a = payoff_matrix(form, shift)
    e, f = constraint_matrix(form.players[0]), constraint_matrix(form.players[1])
    x, value = _maximin_plan(a, e, f)
    y, neg_value = _maximin_plan(-a.T.tocsr(), f, e)
    if abs(value + neg_value) > 1e-7 * max(1.0, abs(value)):
        raise RuntimeError(f"sequence-form LPs disagree: {value} vs {-neg_value}")
    try:
        value = math.ldexp(value, shift)
    except OverflowError:
        value = math.copysign(math.inf, value)
    return SequenceSolution(value, (x, y))


def optimal_face_point(form: SequenceForm, player: int, direction: np.ndarray, value: float,
                       slack: float = 1e-9) -> np.ndarray:
    """A vertex of ``player``'s set of optimal realization plans: the one that maximises ``direction · x``.

    Optimal plans guarantee ``value`` (player 0's) against every reply; the
    LP keeps that guarantee (within ``slack``) and pushes in ``direction``,
    so random directions visit the vertices of the optimal face.
    """
    shift = power_of_two_scale(form.payoff.values())
    a = payoff_matrix(form, shift) if player == 0 else -payoff_matrix(form, shift).T.tocsr()
    guaranteed = math.ldexp(value if player == 0 else -value, -shift)
    own_e = constraint_matrix(form.players[player])
    other_f = constraint_matrix(form.players[1 - player])
    n_own, m_other = a.shape[0], other_f.shape[0]
    cost = np.concatenate([-np.asarray(direction, dtype=float), np.zeros(m_other)])
    guarantee_row = coo_matrix(([-1.0], ([0], [n_own])), shape=(1, n_own + m_other))
    a_ub = vstack([hstack([-a.T, other_f.T]), guarantee_row]).tocsr()
    b_ub = np.concatenate([np.zeros(a.shape[1]), [-(guaranteed - slack)]])
    a_eq = hstack([own_e, coo_matrix((own_e.shape[0], m_other))]).tocsr()
    b_eq = np.zeros(own_e.shape[0])
    b_eq[0] = 1.0
    bounds = [(0, None)] * n_own + [(None, None)] * m_other
    res = linprog(cost, A_ub=a_ub, b_ub=b_ub, A_eq=a_eq, b_eq=b_eq, bounds=bounds, method="highs")
    if not res.success:
        raise RuntimeError(f"HiGHS failed on the optimal-face LP: {res.message}")
    return res.x[:n_own]
