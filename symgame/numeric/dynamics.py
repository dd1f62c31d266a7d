"""Trajectories of the gradient dynamics of a polynomial game, and a classification of their long run.

The dynamics are those of :mod:`symgame.engine.stability` (Billingham, arXiv:1707.01392, 2017, eq. (23)),
integrated, as in the paper (section 4.2, eq. (24)), in the logit variables ``F = log(x / (1 - x))``:
``dF/dt = scale * k_x * g_x(x)`` with ``g_x = dE_owner/dx``, so frequencies near 0 and 1 stay accurate.
Floats only: this is a numeric solver.  The default integrator is scipy's ``DOP853`` (an explicit
Runge-Kutta method of order 8 with adaptive steps) with tight tolerances; :func:`compare_methods` checks it
against ``Radau`` (implicit, order 5).

The long run is classified by measures, not by eye (:func:`classify`): the largest Lyapunov exponent
(Benettin's method on the variational equations), absorption at the faces of the box, and the spread of the
returns to a Poincare section.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np
import sympy as sp
from scipy.integrate import solve_ivp
from scipy.special import expit

from ..errors import InputError
from ..model.polygame import PolynomialGame

#: |logit| above this means the frequency is within 1e-6 of a face.
ABSORBED_LOGIT = 13.8
KINDS = ("periodic", "quasi-periodic", "chaotic transient", "chaotic", "absorbed at the boundary", "rest point")


@dataclass(frozen=True)
class Dynamics:
    """The compiled (float) gradient dynamics of ``game`` at one parameter value."""

    game: PolynomialGame
    parameter: float
    variables: tuple[str, ...]
    speeds: np.ndarray
    gradient: Callable
    hessian: Callable
    payoffs: Callable

    def rhs(self, t: float, F: np.ndarray) -> np.ndarray:
        return self.speeds * np.asarray(self.gradient(*expit(F)), dtype=float)


def compile_dynamics(game: PolynomialGame, parameter: float | None = None, rates: dict | None = None,
                     scale: float = 1.0) -> Dynamics:
    """Compile the vector field, its derivative and the payoffs of ``game`` at ``P = parameter``.

    >>> import symgame
    >>> dyn = compile_dynamics(symgame.load("examples/pennies.yaml"), 1.0)
    >>> dyn.rhs(0.0, np.zeros(2)).tolist()        # at x = y = 1/2 (logits 0)
    [0.0, 0.0]
    """
    names = game.variables
    X = [game.symbol(x) for x in names]
    subs = {}
    if game.parameter_names:
        if parameter is None:
            raise InputError(f"the game has a parameter {game.parameter_names[0]}: give its value")
        subs[game.symbol(game.parameter_names[0])] = sp.Float(parameter, 30)
    g = [game.derivatives[x].as_expr().subs(subs) for x in names]
    H = [[sp.diff(gi, xk) for xk in X] for gi in g]
    E = [p.payoff.subs(subs) for p in game.players]
    unknown = sorted(set(rates or {}) - set(names))
    if unknown:
        raise KeyError(f"no variable {unknown[0]!r} in the game")
    speeds = np.array([float(scale) * float((rates or {}).get(x, 1.0)) for x in names])
    return Dynamics(game, float(parameter) if parameter is not None else float("nan"), names, speeds,
                    sp.lambdify(X, g, "numpy"), sp.lambdify(X, H, "numpy"), sp.lambdify(X, E, "numpy"))


def logit(x: Sequence[float]) -> np.ndarray:
    """``log(x / (1 - x))``, with ``x`` clipped into the open interval (0, 1)."""
    f = np.clip(np.asarray(x, dtype=float), 1e-300, 1 - 1e-16)
    return np.log(f) - np.log1p(-f)


@dataclass(frozen=True)
class Trajectory:
    """A solution: times, frequencies (one row per time), profits accumulated ``p_i = int E_i dt``."""

    times: np.ndarray
    frequencies: np.ndarray
    logits: np.ndarray
    profits: np.ndarray
    method: str
    steps: int

    @property
    def profit_rates(self) -> np.ndarray:
        """Average profit per unit time of each player over the whole run."""
        return self.profits[-1] / self.times[-1]


def trajectory(dyn: Dynamics, start: Sequence[float], until: float, points: int = 2001, method: str = "DOP853",
               rtol: float = 1e-10, atol: float = 1e-12) -> Trajectory:
    """Integrate from the frequencies ``start`` (in (0, 1)) to ``t = until``; profits integrated alongside."""
    n = len(dyn.variables)
    y0 = np.concatenate([logit(start), np.zeros(len(dyn.game.players))])

    def rhs(t, y):
        f = expit(y[:n])
        return np.concatenate([dyn.speeds * np.asarray(dyn.gradient(*f), dtype=float),
                               np.asarray(dyn.payoffs(*f), dtype=float)])

    ts = np.linspace(0.0, until, points)
    sol = solve_ivp(rhs, (0.0, until), y0, method=method, t_eval=ts, rtol=rtol, atol=atol)
    if not sol.success:
        raise RuntimeError(f"{method} failed: {sol.message}")
    return Trajectory(sol.t, expit(sol.y[:n].T), sol.y[:n].T, sol.y[n:].T, method, int(sol.nfev))


def compare_methods(dyn: Dynamics, start: Sequence[float], until: float) -> float:
    """Largest difference in any frequency between DOP853 and Radau on ``[0, until]``."""
    a = trajectory(dyn, start, until, points=201)
    b = trajectory(dyn, start, until, points=201, method="Radau")
    return float(np.max(np.abs(a.frequencies - b.frequencies)))


def lyapunov_exponent(dyn: Dynamics, start: Sequence[float], until: float, renormalise: float = 20.0,
                      skip: float = 0.0) -> float:
    """The largest Lyapunov exponent over ``[skip, until]`` by Benettin's method (logit coordinates).

    The tangent vector follows ``dv/dt = J(F) v`` with ``J_ik = c_i dg_i/dx_k * x_k (1 - x_k)``, and is
    renormalised every ``renormalise`` time units; the exponent is the mean growth rate of its length.
    """
    n = len(dyn.variables)

    def rhs(t, y):
        F, v = y[:n], y[n:]
        f = expit(F)
        H = np.asarray(dyn.hessian(*f), dtype=float).reshape(n, n)
        J = dyn.speeds[:, None] * H * (f * (1 - f))[None, :]
        return np.concatenate([dyn.speeds * np.asarray(dyn.gradient(*f), dtype=float), J @ v])

    rng = np.random.default_rng(0)
    v = rng.standard_normal(n)
    y = np.concatenate([logit(start), v / np.linalg.norm(v)])
    t = 0.0
    total = 0.0
    counted = 0.0
    while t < until - 1e-12:
        step = min(renormalise, until - t)
        sol = solve_ivp(rhs, (t, t + step), y, method="DOP853", rtol=1e-9, atol=1e-11)
        y = sol.y[:, -1]
        norm = float(np.linalg.norm(y[n:]))
        if t >= skip:
            total += np.log(norm) if norm > 0 else -np.inf
            counted += step
        y[n:] /= norm if norm > 0 else 1.0
        t += step
    return total / counted if counted else float("nan")


@dataclass(frozen=True)
class LongRun:
    """The measured long-run behaviour of one trajectory."""

    kind: str
    lyapunov: float
    transient_lyapunov: float
    absorbed_at: float | None
    section_spread: float | None
    amplitude: float
    profit_rates: tuple[float, ...]
    final: tuple[float, ...] = field(default=())
    frequencies: tuple[float, ...] = field(default=())


def classify(dyn: Dynamics, start: Sequence[float], until: float = 2000.0, window: float = 500.0,
             lyapunov_tol: float = 2e-3) -> LongRun:
    """Classify the long run of the trajectory from ``start`` up to ``t = until``.

    * *absorbed at the boundary*: every frequency within 1e-6 of 0 or 1 at the end; if the finite-time
      Lyapunov exponent before that was above ``lyapunov_tol``, a *chaotic transient*;
    * *rest point*: no motion in the last ``window``;
    * *chaotic*: not absorbed, exponent over the last ``window`` above ``lyapunov_tol``;
    * otherwise an oscillation, *periodic* when successive returns to a Poincare section (upward crossings
      of the mean by the most variable frequency) repeat to 1e-3 of the amplitude, else *quasi-periodic*
      (Billingham's "close to periodic").
    """
    traj = trajectory(dyn, start, until, points=int(until * 4) + 1)
    final_logits = traj.logits[-1]
    absorbed = bool(np.all(np.abs(final_logits) > ABSORBED_LOGIT))
    absorbed_at = None
    if absorbed:
        inside = np.all(np.abs(traj.logits) > ABSORBED_LOGIT, axis=1)
        first = int(np.argmax(inside))
        absorbed_at = float(traj.times[first])
    late = traj.frequencies[traj.times >= until - window]
    amplitude = float(np.max(np.ptp(late, axis=0)))
    spread = None
    freqs: tuple[float, ...] = ()
    transient = float("nan")
    if absorbed:
        transient = lyapunov_exponent(dyn, start, absorbed_at) if absorbed_at and absorbed_at > 1 else 0.0
        kind = "chaotic transient" if transient > lyapunov_tol else "absorbed at the boundary"
        tail = transient
    elif amplitude < 1e-6:
        kind, tail = "rest point", 0.0
    else:
        tail = lyapunov_exponent(dyn, late[0], window)
        spread = _section_spread(late)
        freqs = dominant_frequencies(late, float(traj.times[1] - traj.times[0]))
        if spread is not None and spread < 1e-3:
            kind = "periodic"
        elif tail > lyapunov_tol:
            kind = "chaotic"
        else:
            kind = "quasi-periodic"
    return LongRun(kind, float(tail), float(transient), absorbed_at, spread, amplitude,
                   tuple(float(v) for v in traj.profit_rates), tuple(float(v) for v in traj.frequencies[-1]), freqs)


def dominant_frequencies(series: np.ndarray, dt: float, threshold: float = 1e-2) -> tuple[float, ...]:
    """The distinct dominant frequencies of the frequencies that oscillate (range above ``threshold``).

    One spectral peak per variable (Hann window); peaks closer than two frequency bins are one frequency.
    Two or more incommensurate frequencies mean a quasi-periodic orbit even when each variable looks periodic.
    """
    n = len(series)
    bins = np.fft.rfftfreq(n, d=dt)
    resolution = 2.0 / (n * dt)
    peaks: list[float] = []
    for j in range(series.shape[1]):
        x = series[:, j]
        if np.ptp(x) < threshold:
            continue
        spectrum = np.abs(np.fft.rfft((x - x.mean()) * np.hanning(n)))
        f = float(bins[1 + int(np.argmax(spectrum[1:]))])
        if all(abs(f - g) > resolution for g in peaks):
            peaks.append(f)
    return tuple(sorted(round(f, 5) for f in peaks))


def _section_spread(late: np.ndarray) -> float | None:
    """Spread of the returns to a Poincare section, relative to the amplitude (None: too few returns)."""
    j = int(np.argmax(np.ptp(late, axis=0)))
    x = late[:, j]
    mean = x.mean()
    ups = np.nonzero((x[:-1] < mean) & (x[1:] >= mean))[0]
    if len(ups) < 4:
        return None
    weights = (mean - x[ups]) / (x[ups + 1] - x[ups])
    points = late[ups] + weights[:, None] * (late[ups + 1] - late[ups])
    scale = float(np.max(np.ptp(late, axis=0)))
    # periodic: every return is close to one of the first few (a period of up to 4 returns)
    best = min(float(np.max(np.min(np.linalg.norm(points[m:, None, :] - points[None, :m, :], axis=2), axis=1)))
               for m in range(1, min(5, len(points) - 1)))
    return best / scale if scale > 0 else 0.0
