"""Exact a-posteriori certificates for recursive games (Buck, Lee, Platnick, Wheeler, Zumbrun,
"Continuous guts poker and numerical optimization of generalized recursive games", arXiv:2208.02788, 2022,
Theorems 1.2-1.3).

For a fixed player-1 strategy ``x`` each column ``j`` gives an affine map
``f_j(V) = α_j + (β_j - 1) V`` with ``α_j = (xA)_j``, ``β_j = (xB)_j``.  If
``f_j(v_*) > 0`` for every column (Theorem 1.2 at the termination fee
``v_* = -t``), repeated play of ``x`` forces at least

    v^* = min over columns with β_j < 1 of α_j / (1 - β_j),

and the iterates approach it at the geometric rate of Theorem 1.3 with
``ε = min_j f_j(v_*)``.  Symmetrically a column strategy ``y`` with
``α_i + (β_i - 1) t < 0`` for every row caps player 1 at
``max over rows with β_i < 1 of α_i / (1 - β_i)``.  Strategies found in
floating point are rounded to rationals and every quantity is exact
(``fractions.Fraction``), so ``lower <= forced value <= upper`` is proved.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Iterable, Mapping

import numpy as np

Entry = Callable[[int, int], tuple[Fraction, Fraction]]


@dataclass(frozen=True)
class ForcingBound:
    """A bound on the value forced by one side's repeated strategy, proved exactly."""

    side: str                      # "lower" (player 1's strategy) or "upper" (player 2's)
    strategy: dict[int, Fraction]
    start: Fraction
    bound: Fraction | None         # None: the condition at the start fails
    margin: Fraction               # Theorem 1.3's epsilon (player 1) or its mirror (player 2)

    @property
    def holds(self) -> bool:
        return self.bound is not None


def rational_strategy(weights: np.ndarray, denominator: int = 10**6) -> dict[int, Fraction]:
    """Round a float mixed strategy to an exact probability vector on its support."""
    support = [int(k) for k in np.nonzero(np.asarray(weights) > 1.0 / denominator)[0]]
    values = [Fraction(float(weights[k])).limit_denominator(denominator) for k in support]
    total = sum(values)
    return {k: v / total for k, v in zip(support, values)}


def certify_lower(x: Mapping[int, Fraction], columns: Iterable[int], entry: Entry, fee: Fraction) -> ForcingBound:
    """Theorem 1.2 for player 1's strategy ``x`` from ``v_* = -fee``."""
    def mixed(j: int) -> tuple[Fraction, Fraction]:
        return (sum((w * entry(i, j)[0] for i, w in x.items()), Fraction(0)),
                sum((w * entry(i, j)[1] for i, w in x.items()), Fraction(0)))
    return _forcing_bound("lower", x, columns, mixed, -Fraction(fee), 1, min)


def certify_upper(y: Mapping[int, Fraction], rows: Iterable[int], entry: Entry, fee: Fraction) -> ForcingBound:
    """The mirror of Theorem 1.2 for player 2's strategy ``y`` from ``+fee``."""
    def mixed(i: int) -> tuple[Fraction, Fraction]:
        return (sum((w * entry(i, j)[0] for j, w in y.items()), Fraction(0)),
                sum((w * entry(i, j)[1] for j, w in y.items()), Fraction(0)))
    return _forcing_bound("upper", y, rows, mixed, Fraction(fee), -1, max)


def _forcing_bound(side: str, strategy: Mapping[int, Fraction], replies: Iterable[int],
                   mixed: Callable[[int], tuple[Fraction, Fraction]], start: Fraction, sign: int,
                   pick: Callable) -> ForcingBound:
    """Margins ``sign (α + (β - 1) start)`` over the opponent's replies, and the tightest cap α / (1 - β)."""
    bound, margin = None, None
    for k in replies:
        alpha, beta = mixed(k)
        f = sign * (alpha + (beta - 1) * start)
        margin = f if margin is None else min(margin, f)
        if beta < 1:
            cap = alpha / (1 - beta)
            bound = cap if bound is None else pick(bound, cap)
    if margin is None or margin <= 0:
        return ForcingBound(side, dict(strategy), start, None, margin or Fraction(0))
    return ForcingBound(side, dict(strategy), start, bound, margin)


def geometric_rate(bound: ForcingBound, steps: int) -> Fraction:
    """Theorem 1.3: after ``steps`` rounds the gap ``v^* - V_n`` is at most ``(1 - ε)^n (v^* - v_*)``."""
    if bound.bound is None:
        raise ValueError("no forced bound to approach")
    return (1 - bound.margin) ** steps * abs(bound.bound - bound.start)
