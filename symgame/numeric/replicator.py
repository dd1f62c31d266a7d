"""Replicator dynamics of a finite strategic game (any number of players and actions), integrated in floats.

``dx_ia/dt = x_ia (u_i(a, x_-i) - u_i(x))`` (Taylor and Jonker, Mathematical Biosciences 40, 1978), on the
product of the players' simplices. The exact counterpart (the vector field and the certified eigenvalue
configuration at an exact rest point) is :func:`symgame.engine.stability.replicator_configuration`. With two
actions per player the field is the gradient dynamics of :mod:`symgame.numeric.dynamics` with ``k = 1``.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import Sequence

import numpy as np
from scipy.integrate import solve_ivp

from ..errors import InputError
from .dynamics import _section_spread, dominant_frequencies

#: a probability below this at the end counts as extinct.
EXTINCT = 1e-6


@dataclass(frozen=True)
class ReplicatorRun:
    """A trajectory and its long run: ``kind`` is periodic, quasi-periodic, converging (to an interior or face
    rest point: the motion dies out) or absorbed at a face (some action extinct)."""

    times: np.ndarray
    states: list[np.ndarray]          # one (time, actions) array per player
    kind: str
    extinct: tuple[tuple[int, ...], ...]
    section_spread: float | None
    frequencies: tuple[float, ...]
    payoff_rates: tuple[float, ...]


def payoff_tensors(game) -> list[np.ndarray]:
    """Each player's payoff as a float array indexed by the pure profile."""
    out = [np.zeros(game.shape) for _ in game.shape]
    for profile in product(*(range(k) for k in game.shape)):
        for i, u in enumerate(game.payoff(profile)):
            out[i][profile] = float(u)
    return out


def _values(tensors: list[np.ndarray], xs: list[np.ndarray], i: int) -> np.ndarray:
    """``u_i(a, x_-i)`` for every action ``a`` of player ``i`` (contract the other players' axes)."""
    t = tensors[i]
    for j in reversed(range(len(xs))):
        if j != i:
            t = np.tensordot(t, xs[j], axes=([j], [0]))
    return t


def replicator(game, start: Sequence[Sequence[float]] | None = None, until: float = 500.0, points: int = 4001,
               rtol: float = 1e-10, atol: float = 1e-12, single_population: bool = False) -> ReplicatorRun:
    """Integrate the replicator dynamics from ``start`` (default: uniform) and classify the long run.

    ``single_population``: a symmetric two-player game played by one population against itself (``start``
    then holds one distribution).
    """
    tensors = payoff_tensors(game)
    sizes = list(game.shape)
    if single_population:
        from ..engine.stability import _check_symmetric

        _check_symmetric(game)
        sizes = sizes[:1]
    cuts = np.cumsum([0] + sizes)
    x0 = [np.full(k, 1.0 / k) for k in sizes] if start is None else [np.asarray(s, dtype=float) for s in start]
    for k, (s, size) in enumerate(zip(x0, sizes)):
        if s.shape != (size,) or np.any(s <= 0) or abs(s.sum() - 1) > 1e-9:
            raise InputError(f"start of player {k + 1}: {size} positive probabilities summing to 1 expected")

    def split(y):
        return [y[cuts[i]:cuts[i + 1]] for i in range(len(sizes))]

    def rhs(t, y):
        xs = split(y[:-len(sizes)])
        if single_population:
            xs = [xs[0], xs[0]]
        out = []
        rates = []
        for i in range(len(sizes)):
            u = _values(tensors, xs, i)  # player i's action values against the others (or the population)
            mean = float(xs[i] @ u)
            out.append(xs[i] * (u - mean))
            rates.append(mean)
        return np.concatenate(out + [np.array(rates)])

    y0 = np.concatenate(x0 + [np.zeros(len(sizes))])
    ts = np.linspace(0.0, until, points)
    sol = solve_ivp(rhs, (0.0, until), y0, method="DOP853", t_eval=ts, rtol=rtol, atol=atol)
    if not sol.success:
        raise RuntimeError(sol.message)
    states = [sol.y[cuts[i]:cuts[i + 1]].T for i in range(len(sizes))]
    payoff_rates = tuple(float(v) / until for v in sol.y[-len(sizes):, -1])
    late = np.hstack(states)[sol.t >= until / 2]
    extinct = tuple(tuple(int(a) for a in np.nonzero(s[-1] < EXTINCT)[0]) for s in states)
    amplitude = float(np.max(np.ptp(late, axis=0)))
    spread = None
    freqs: tuple[float, ...] = ()
    if amplitude < 1e-4:
        kind = "absorbed at a face" if any(extinct) else "converging"
    else:
        spread = _section_spread(late)
        freqs = dominant_frequencies(late, float(sol.t[1] - sol.t[0]))
        kind = "periodic" if spread is not None and spread < 1e-3 else "quasi-periodic"
    return ReplicatorRun(sol.t, states, kind, extinct, spread, freqs, payoff_rates)
