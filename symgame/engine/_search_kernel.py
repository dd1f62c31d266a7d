"""The interval pruning of :class:`symgame.engine.casesplit.CaseSearch` compiled by Numba.

The same computation as the Python methods ``CaseSearch.propagate``, ``run`` and ``refute``, operation for
operation (outward-rounded monomial bounds summed in the same order, the same HC4 contraction, the same
depth-first order), on the polynomials flattened into arrays (:func:`flatten`): the search visits the same
nodes, cuts the same branches and returns the same surviving cases (``tests/unit/test_engine_units.py``
compares both on random games and on Billingham's). Powers use ``math.pow`` (the C library's ``pow``, as
Python's ``float ** int``); Numba compiles without ``fastmath``, so no multiply-add is fused.

Choice codes: ``L U I - + 0`` are ``0 1 2 3 4 5``.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

ROUND = 1e-9
ROUNDS = 4
GAIN = 1e-3
CODES = {"L": 0, "U": 1, "I": 2, "-": 3, "+": 4, "0": 5}
LETTERS = "LUI-+0"


def flatten(polys: list, conditions: list, linear: list) -> tuple:
    """Arrays for the kernels: every :class:`~symgame.engine.casesplit.IntervalPoly` used (the conditions'
    and their linear parts'), with for each condition its polynomial and its ``(slot, A, B)`` parts."""
    coef, slot_start, slots, factor_start, factor_index, factor_exp = [], [0], [], [0], [], []
    poly_start = [0]
    for poly in polys:
        for (c, factors), (_, flat) in zip(poly.terms, poly.flat):
            coef.append(c)
            slots.extend(flat)
            slot_start.append(len(slots))
            for i, e in factors:
                factor_index.append(i)
                factor_exp.append(e)
            factor_start.append(len(factor_index))
        poly_start.append(len(coef))
    linear_start, linear_slot, linear_a, linear_b = [0], [], [], []
    for parts in linear:
        for slot, a, b in parts:
            linear_slot.append(slot)
            linear_a.append(a)
            linear_b.append(b)
        linear_start.append(len(linear_slot))

    def ints(values):
        return np.array(values, dtype=np.int64)

    return (np.array(coef, dtype=np.float64), ints(poly_start), ints(slot_start), ints(slots), ints(factor_start),
            ints(factor_index), ints(factor_exp), ints(conditions), ints(linear_start), ints(linear_slot),
            ints(linear_a), ints(linear_b))


@njit(cache=True, nogil=True)
def _bounds(p, lo, hi, coef, poly_start, slot_start, slots, factor_start, factor_index,
            factor_exp):  # pragma: no cover - compiled
    nonnegative = True
    for i in range(lo.shape[0]):
        if lo[i] < 0.0:
            nonnegative = False
            break
    low = 0.0
    high = 0.0
    scale = 0.0
    if nonnegative:
        for t in range(poly_start[p], poly_start[p + 1]):
            a = 1.0
            b = 1.0
            for k in range(slot_start[t], slot_start[t + 1]):
                a *= lo[slots[k]]
                b *= hi[slots[k]]
            c = coef[t]
            if c >= 0.0:
                low += c * a
                high += c * b
                scale += c * (a + b)
            else:
                low += c * b
                high += c * a
                scale -= c * (a + b)
    else:
        for t in range(poly_start[p], poly_start[p + 1]):
            a = coef[t]
            b = coef[t]
            for k in range(factor_start[t], factor_start[t + 1]):
                i = factor_index[k]
                e = factor_exp[k]
                if e == 1:
                    p_ = lo[i]
                    q_ = hi[i]
                else:
                    u = math.pow(lo[i], float(e))
                    v = math.pow(hi[i], float(e))
                    if e % 2 == 0 and lo[i] < 0.0 < hi[i]:
                        p_ = 0.0
                        q_ = u if u >= v else v
                    else:
                        p_ = u if u <= v else v
                        q_ = u if u >= v else v
                c1 = a * p_
                c2 = a * q_
                c3 = b * p_
                c4 = b * q_
                a = min(min(min(c1, c2), c3), c4)
                b = max(max(max(c1, c2), c3), c4)
            low += a
            high += b
            scale += abs(a) + abs(b)
    pad = ROUND * (1.0 + scale)
    return low - pad, high + pad


@njit(cache=True, nogil=True)
def _sign_possible(code, low, high):  # pragma: no cover - compiled
    if code == 0:
        return low <= 0.0
    if code == 1:
        return high >= 0.0
    if code == 2 or code == 5:
        return low <= 0.0 <= high
    if code == 3:
        return low < 0.0
    return high > 0.0


@njit(cache=True, nogil=True)
def propagate(sel, codes, depth, lo, hi, data):  # pragma: no cover - compiled
    """``CaseSearch.propagate`` for the conditions ``sel[:depth]`` with the choices ``codes[:depth]`` (``sel`` is
    ``0, 1, 2, ...`` for a prefix of the search order): False for a sound cut, else the box ``lo``/``hi``
    contracted in place."""
    (coef, poly_start, slot_start, slots, factor_start, factor_index, factor_exp, conditions, linear_start,
     linear_slot, linear_a, linear_b) = data
    for _ in range(ROUNDS):
        changed = False
        for j in range(depth):
            y = sel[j]
            code = codes[j]
            low, high = _bounds(conditions[y], lo, hi, coef, poly_start, slot_start, slots, factor_start,
                                factor_index, factor_exp)
            if not _sign_possible(code, low, high):
                return False
            for k in range(linear_start[y], linear_start[y + 1]):
                a_lo, a_hi = _bounds(linear_a[k], lo, hi, coef, poly_start, slot_start, slots, factor_start,
                                     factor_index, factor_exp)
                if a_lo <= 0.0 <= a_hi:
                    continue
                b_lo, b_hi = _bounds(linear_b[k], lo, hi, coef, poly_start, slot_start, slots, factor_start,
                                     factor_index, factor_exp)
                q1 = -b_lo / a_lo
                q2 = -b_hi / a_lo
                q3 = -b_lo / a_hi
                q4 = -b_hi / a_hi
                q_lo = min(min(min(q1, q2), q3), q4)
                q_hi = max(max(max(q1, q2), q3), q4)
                pad = ROUND * (1.0 + abs(q_lo) + abs(q_hi))
                q_lo, q_hi = q_lo - pad, q_hi + pad
                positive = a_lo > 0.0
                if code == 2 or code == 5:
                    n_lo, n_hi = q_lo, q_hi
                elif code == 1 or code == 4:
                    if positive:
                        n_lo, n_hi = q_lo, math.inf
                    else:
                        n_lo, n_hi = -math.inf, q_hi
                else:
                    if positive:
                        n_lo, n_hi = -math.inf, q_hi
                    else:
                        n_lo, n_hi = q_lo, math.inf
                slot = linear_slot[k]
                new_lo = lo[slot] if lo[slot] >= n_lo else n_lo
                new_hi = hi[slot] if hi[slot] <= n_hi else n_hi
                if new_lo > new_hi:
                    return False
                if new_lo > lo[slot] + GAIN or new_hi < hi[slot] - GAIN:
                    changed = True
                lo[slot] = new_lo
                hi[slot] = new_hi
        if not changed:
            break
    return True


@njit(cache=True, nogil=True)
def _value_range(code):  # pragma: no cover - compiled
    if code == 0 or code == 3:
        return 0.0, 0.0
    if code == 1 or code == 4:
        return 1.0, 1.0
    return 0.0, 1.0


@njit(cache=True, nogil=True)
def _excluded(depth, code, codes, cuts):  # pragma: no cover - compiled
    """Whether choosing ``code`` at ``depth`` after ``codes[:depth]`` completes a learned nogood. ``cuts`` =
    ``(start, item_start, item_depth, item_code)``: the nogoods ending at ``(depth, code)`` are
    ``start[6 * depth + code]`` up to ``start[6 * depth + code + 1]``; nogood ``g``'s other choices are the
    items ``item_start[g]`` up to ``item_start[g + 1]``."""
    start, item_start, item_depth, item_code = cuts
    for g in range(start[6 * depth + code], start[6 * depth + code + 1]):
        hit = True
        for i in range(item_start[g], item_start[g + 1]):
            if codes[item_depth[i]] != item_code[i]:
                hit = False
                break
        if hit:
            return True
    return False


@njit(cache=True, nogil=True)
def run(lo0, hi0, leaders, n, prefix, data, cuts):  # pragma: no cover - compiled
    """``CaseSearch.run``: the surviving cases (rows of choice codes, depth-first order), nodes and cuts.
    ``cuts``: the learned nogoods (:func:`_excluded`)."""
    slots = lo0.shape[0]
    sel = np.arange(n)
    lo_at = np.empty((n + 1, slots))
    hi_at = np.empty((n + 1, slots))
    lo_at[0] = lo0
    hi_at[0] = hi0
    codes = np.zeros(n, dtype=np.int64)
    next_choice = np.zeros(n + 1, dtype=np.int64)
    found = np.empty((16, n), dtype=np.int8)
    count = 0
    nodes = 0
    pruned = 0
    lo = np.empty(slots)
    hi = np.empty(slots)
    depth = 0
    while depth >= 0:
        if depth == n:
            if count == found.shape[0]:
                bigger = np.empty((2 * count, n), dtype=np.int8)
                bigger[:count] = found
                found = bigger
            for k in range(n):
                found[count, k] = codes[k]
            count += 1
            depth -= 1
            continue
        k = next_choice[depth]
        if k == 3:
            depth -= 1
            continue
        next_choice[depth] = k + 1
        code = k if depth < leaders else 3 + k
        if depth < prefix.shape[0] and prefix[depth] != code:
            continue
        nodes += 1
        lo[:] = lo_at[depth]
        hi[:] = hi_at[depth]
        v_lo, v_hi = _value_range(code)
        lo[depth] = lo[depth] if lo[depth] >= v_lo else v_lo
        hi[depth] = hi[depth] if hi[depth] <= v_hi else v_hi
        if _excluded(depth, code, codes, cuts):
            pruned += 1
            continue
        codes[depth] = code
        if lo[depth] <= hi[depth] and propagate(sel, codes, depth + 1, lo, hi, data):
            lo_at[depth + 1] = lo
            hi_at[depth + 1] = hi
            next_choice[depth + 1] = 0
            depth += 1
        else:
            pruned += 1
    return found[:count], nodes, pruned


@njit(cache=True, nogil=True)
def refute(lo0, hi0, sel, codes, max_boxes, data):  # pragma: no cover - compiled
    """``CaseSearch.refute``: True when bisection cuts every sub-box of the conditions ``sel`` with the choices
    ``codes`` (the box already fixed to their values)."""
    slots = lo0.shape[0]
    depth = codes.shape[0]
    capacity = 64
    stack_lo = np.empty((capacity, slots))
    stack_hi = np.empty((capacity, slots))
    stack_lo[0] = lo0
    stack_hi[0] = hi0
    top = 1
    boxes = 0
    lo = np.empty(slots)
    hi = np.empty(slots)
    while top > 0:
        top -= 1
        lo[:] = stack_lo[top]
        hi[:] = stack_hi[top]
        boxes += 1
        if boxes > max_boxes:
            return False
        if not propagate(sel, codes, depth, lo, hi, data):
            continue
        k = 0
        widest = hi[0] - lo[0]
        for i in range(1, slots):
            w = hi[i] - lo[i]
            if w > widest:
                widest = w
                k = i
        if widest < 1e-6:
            return False
        mid = (lo[k] + hi[k]) / 2
        if top + 2 > capacity:
            capacity *= 2
            grown_lo = np.empty((capacity, slots))
            grown_hi = np.empty((capacity, slots))
            grown_lo[:top] = stack_lo[:top]
            grown_hi[:top] = stack_hi[:top]
            stack_lo, stack_hi = grown_lo, grown_hi
        stack_lo[top] = lo                     # the right half, then the left (popped first), as in Python
        stack_hi[top] = hi
        stack_lo[top, k] = mid
        stack_lo[top + 1] = lo
        stack_hi[top + 1] = hi
        stack_hi[top + 1, k] = mid
        top += 2
    return True


@njit(cache=True, nogil=True)
def knuth(lo0, hi0, leaders, n, data, cuts, probes, seed):  # pragma: no cover - compiled
    """Knuth's estimator of the search tree of :func:`run`: ``probes`` random root-to-leaf walks through the
    surviving children (seeded). Returns per probe the estimated surviving nodes and surviving cases, and the
    number of children tried in all."""
    np.random.seed(seed)
    slots = lo0.shape[0]
    sel = np.arange(n)
    node_estimates = np.zeros(probes)
    leaf_estimates = np.zeros(probes)
    codes = np.zeros(n, dtype=np.int64)
    alive = np.zeros(3, dtype=np.int64)
    alive_lo = np.empty((3, slots))
    alive_hi = np.empty((3, slots))
    lo = np.empty(slots)
    hi = np.empty(slots)
    cur_lo = np.empty(slots)
    cur_hi = np.empty(slots)
    tried = 0
    for probe in range(probes):
        cur_lo[:] = lo0
        cur_hi[:] = hi0
        weight = 1.0
        total = 1.0
        for depth in range(n):
            count = 0
            for k in range(3):
                code = k if depth < leaders else 3 + k
                tried += 1
                if _excluded(depth, code, codes, cuts):
                    continue
                lo[:] = cur_lo
                hi[:] = cur_hi
                v_lo, v_hi = _value_range(code)
                lo[depth] = lo[depth] if lo[depth] >= v_lo else v_lo
                hi[depth] = hi[depth] if hi[depth] <= v_hi else v_hi
                codes[depth] = code
                if lo[depth] <= hi[depth] and propagate(sel, codes, depth + 1, lo, hi, data):
                    alive[count] = code
                    alive_lo[count] = lo
                    alive_hi[count] = hi
                    count += 1
            if count == 0:
                break
            weight *= count
            total += weight
            pick = np.random.randint(0, count)
            codes[depth] = alive[pick]
            cur_lo[:] = alive_lo[pick]
            cur_hi[:] = alive_hi[pick]
            if depth == n - 1:
                leaf_estimates[probe] = weight
        node_estimates[probe] = total
    return node_estimates, leaf_estimates, tried
