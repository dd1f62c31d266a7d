"""Fictitious play for n-player normal-form games (../shared/seeds/000, Appendix C).

Each player owns a payoff tensor indexed by every player's action.  At step
``t`` all players best-respond, simultaneously, to the empirical mixtures
of the others' past plays (Brown's method).  The duality gap of eq. (C.4),
``g = Σ_j max_z φ_j(z, p_{-j}(t))``, is zero exactly at a Nash equilibrium
of a zero-sum game; the paper observes ``g(t) ~ 1/t`` for 3-player Guts.
"""
from __future__ import annotations

import string
from dataclasses import dataclass
from typing import Sequence

import numpy as np


@dataclass(frozen=True)
class FictitiousPlayTrace:
    """Gap after each step, each player's play at each step, and the final empirical mixtures."""

    gaps: np.ndarray
    plays: np.ndarray          # shape (steps, players)
    mixtures: tuple[np.ndarray, ...]


def _against_others(tensor: np.ndarray, player: int, mixtures: Sequence[np.ndarray]) -> np.ndarray:
    """Expected payoff of each action of ``player`` against the others' mixtures."""
    letters = string.ascii_lowercase[:tensor.ndim]
    operands = [tensor] + [m for k, m in enumerate(mixtures) if k != player]
    spec = letters + "," + ",".join(letters[k] for k in range(tensor.ndim) if k != player) + "->" + letters[player]
    return np.einsum(spec, *operands, optimize=True)


def fictitious_play(payoffs: Sequence[np.ndarray], steps: int, start: Sequence[int] | None = None
                    ) -> FictitiousPlayTrace:
    """Simultaneous fictitious play from the pure profile ``start`` (default: every player's first action)."""
    n = len(payoffs)
    sizes = payoffs[0].shape
    counts = [np.zeros(sizes[k]) for k in range(n)]
    current = list(start) if start is not None else [0] * n
    gaps, plays = np.empty(steps), np.empty((steps, n), dtype=int)
    for t in range(steps):
        for k in range(n):
            counts[k][current[k]] += 1
        mixtures = [c / (t + 1) for c in counts]
        values = [_against_others(payoffs[k], k, mixtures) for k in range(n)]
        gaps[t] = sum(float(v.max()) for v in values)
        current = [int(np.argmax(v)) for v in values]
        plays[t] = current
    return FictitiousPlayTrace(gaps, plays, tuple(c / steps for c in counts))
