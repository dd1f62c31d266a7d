"""Exact optimal realization plans from a floating-point solution of the sequence-form LP.

Rounding each behaviour probability to a simple fraction (:func:`symgame.verify.best_response.certify_value`)
certifies small trees such as Kuhn poker, but not trees whose optimal strategies have large denominators:
on Leduc hold'em the rounded plans leave a gap of about 2e-11 between the exact best-response bounds. The
optimal plans are instead recovered exactly from the structure the float solution shows (Koller, Megiddo and
von Stengel, "Efficient computation of equilibria for extensive two-person games", Games and Economic
Behavior 14 (1996), section 4: the sequence-form LP and its complementary slackness):

* the support ``S`` of the plan ``x`` (entries above a tolerance; the others are 0), and
* the opponent's sequences that are best responses to ``x`` (their float value within a tolerance of the
  best at their information set): for them the LP's constraint ``(F^T q)_j <= (A^T x)_j`` is tight.

Those equalities with ``E x = e`` form a sparse linear system over the rationals in ``x`` and the opponent's
information-set values ``q``, solved exactly (sympy's sparse reduced row echelon form over QQ). When the
solution is unique and non-negative it is a candidate; the exact best response of the opponent then gives a
bound, and when both players' bounds are equal the two plans are optimal and the value is certified -- the
check never trusts the float solution, only uses it as a guide.

Examples
--------
>>> from symgame.games.kuhn import build_game
>>> from symgame.model.sequence_form import build_sequence_form
>>> from symgame.numeric.sequence_lp import solve_sequence_form
>>> form = build_sequence_form(build_game(3))
>>> plans = solve_sequence_form(form).plans
>>> x = exact_face_plan(form, 0, plans[0])
>>> from symgame.verify.best_response import best_response_value
>>> best_response_value(form, x, responder=1)
Fraction(-1, 18)
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Sequence

import numpy as np

__all__ = ["exact_face_plan"]

#: Realization probabilities at or below this count as zero.
SUPPORT_TOLERANCE = 1e-9
#: A reply whose float value is within this much (times the largest payoff) of the best is taken as tight.
TIGHT_TOLERANCE = 1e-9


def exact_face_plan(form, player: int, plan: Sequence[float] | np.ndarray) -> list[Fraction] | None:
    """An exact realization plan of ``player`` on the face the float ``plan`` lies on, or ``None``.

    Parameters
    ----------
    form : SequenceForm
        The zero-sum sequence form (:func:`symgame.model.sequence_form.build_sequence_form`).
    player : int
        0 or 1.
    plan : sequence of float
        A floating-point (near-)optimal realization plan of ``player``.

    Returns
    -------
    list of Fraction or None
        The plan solving the support and tightness equations exactly, when they have one solution and it is
        a non-negative realization plan; ``None`` otherwise. Optimality is for the caller to check (exact best
        responses, :func:`symgame.verify.best_response.best_response_value`).
    """
    from sympy import QQ
    from sympy.polys.matrices import DomainMatrix
    from sympy.polys.matrices.sdm import SDM

    own, other = form.players[player], form.players[1 - player]
    sign = 1 if player == 0 else -1                   # payoffs to ``player``
    scale = max([abs(float(u)) for u in form.payoff.values()] + [1.0])
    support = [i for i, v in enumerate(plan) if v > SUPPORT_TOLERANCE]
    values = np.zeros(len(other.sequences))           # the opponent's sequences: ``player``'s payoff, float
    for (s0, s1), u in form.payoff.items():
        mine, theirs = (s0, s1) if player == 0 else (s1, s0)
        values[theirs] += sign * float(u) * float(plan[mine])
    tight = {0}
    for infoset in reversed(other.infosets):          # children before parents: the opponent minimises
        children = other.children(infoset)
        best = min(values[c] for c in children)
        tight.update(c for c in children if values[c] - best <= TIGHT_TOLERANCE * scale)
        values[other.parent[infoset]] += best
    # unknowns: q (the root and each opponent information set), then x on the support
    m = len(other.infosets) + 1
    column = {i: m + k for k, i in enumerate(support)}
    width = m + len(support)
    rows: list[dict[int, Any]] = [{column[0]: QQ(1), width: QQ(1)}] if 0 in column else []
    if not rows:
        return None
    for infoset in own.infosets:                      # E x = e: each information set's children sum to its parent
        row: dict[int, Any] = {}
        parent = own.parent[infoset]
        if parent in column:
            row[column[parent]] = QQ(-1)
        for child in own.children(infoset):
            if child in column:
                row[column[child]] = QQ(1)
        if row:
            rows.append(row)
    f_columns: dict[int, list[tuple[int, int]]] = {0: [(0, 1)]}
    for k, infoset in enumerate(other.infosets, start=1):
        f_columns.setdefault(other.parent[infoset], []).append((k, -1))
        for child in other.children(infoset):
            f_columns.setdefault(child, []).append((k, 1))
    payoff_rows: dict[int, dict[int, Any]] = {j: {} for j in tight}
    for (s0, s1), u in form.payoff.items():
        mine, theirs = (s0, s1) if player == 0 else (s1, s0)
        if theirs in payoff_rows and mine in column:
            row = payoff_rows[theirs]
            row[column[mine]] = row.get(column[mine], QQ(0)) + sign * QQ(u.numerator, u.denominator)
    for j in sorted(tight):                           # (A^T x)_j - (F^T q)_j = 0
        row = dict(payoff_rows[j])
        for k, coefficient in f_columns.get(j, []):
            row[k] = row.get(k, QQ(0)) - coefficient
        row = {c: v for c, v in row.items() if v}
        if row:
            rows.append(row)
    matrix = DomainMatrix.from_rep(SDM(dict(enumerate(rows)), (len(rows), width + 1), QQ))
    reduced, pivots = matrix.rref()
    if width in pivots or len(pivots) != width:
        return None                                   # inconsistent, or not one solution
    entries = reduced.rep.to_sdm()
    out = [Fraction(0)] * len(own.sequences)
    for r, c in enumerate(pivots):
        if c >= m:
            value = entries.get(r, {}).get(width, QQ(0))
            out[support[c - m]] = Fraction(int(value.numerator), int(value.denominator))
    if any(v < 0 for v in out):
        return None
    return out
