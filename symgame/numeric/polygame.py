"""Numeric equilibria of polynomial games by logit homotopy (agent QRE tracing).

Independent of the case-splitting engine.  Each variable ``x`` of a player
is treated as one agent choosing its action with the logistic response
``x = σ(λ·g_x(x) + c_x)`` where ``g_x = ∂E_owner/∂x`` and ``c`` is a prior
(zero, or random for further starts).  At ``λ = 0`` the solution is
``σ(c)``; following it with Newton corrections as ``λ`` grows geometrically
(McKelvey and Palfrey's logit tracing, the method of Gambit's ``logit``)
ends near a Nash equilibrium of the agent form, which for payoffs that are
multilinear in each player's own variables is a Nash equilibrium of the
game.  Every end point is confirmed by its float regret against every
vertex deviation; different priors reach different equilibria.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Callable, Mapping

import numpy as np
import sympy as sp
from scipy.optimize import root

from ..model.polygame import PolynomialGame

LAMBDA_MAX = 1e7
LAMBDA_STEPS = 140


@dataclass(frozen=True)
class NumericEquilibrium:
    """An end point of a logit path and its float regret (largest gain of a deviation)."""

    profile: dict[str, float]
    regret: float
    prior_seed: int


@dataclass(frozen=True)
class CompiledGame:
    """Float callables for one parameter value."""

    derivatives: Callable[[np.ndarray], Any]
    jacobian: Callable[[np.ndarray], Any]
    payoffs: Callable[[np.ndarray], Any]


def compile_game(game: PolynomialGame, params: Mapping[str, float]) -> CompiledGame:
    """Derivatives, their Jacobian and the payoffs as numpy functions at ``params``."""
    xs = [game.symbol(x) for x in game.variables]
    subs = {game.symbol(k): float(v) for k, v in params.items()}
    grads = [game.derivatives[x].as_expr().subs(subs) for x in game.variables]
    return CompiledGame(sp.lambdify([xs], grads, "numpy"),
                        sp.lambdify([xs], sp.Matrix(grads).jacobian(xs), "numpy"),
                        sp.lambdify([xs], [p.payoff.subs(subs) for p in game.players], "numpy"))


def float_regret(game: PolynomialGame, compiled: CompiledGame, x: np.ndarray) -> float:
    """Largest gain of any player from a vertex of her own box (exact for multilinear payoffs)."""
    base = compiled.payoffs(x)
    worst = 0.0
    index = {v: k for k, v in enumerate(game.variables)}
    for i, player in enumerate(game.players):
        for vertex in itertools.product((0.0, 1.0), repeat=len(player.variables)):
            y = x.copy()
            for v, value in zip(player.variables, vertex):
                y[index[v]] = value
            worst = max(worst, compiled.payoffs(y)[i] - base[i])
    return worst


def _sigmoid(y: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * y))


def logit_path_end(compiled: CompiledGame, prior: np.ndarray) -> np.ndarray | None:
    """Follow ``y = λ g(σ(y)) + c`` from ``λ = 0`` to :data:`LAMBDA_MAX`; None if Newton fails."""
    n = len(prior)
    y = prior.copy()
    for lam in np.geomspace(1.0, LAMBDA_MAX, LAMBDA_STEPS):
        def h(y, lam=lam):
            return y - lam * np.asarray(compiled.derivatives(_sigmoid(y)), dtype=float) - prior

        def jac(y, lam=lam):
            s = _sigmoid(y)
            return np.eye(n) - lam * np.asarray(compiled.jacobian(s), dtype=float) * (s * (1 - s))[None, :]
        sol = root(h, y, jac=jac, method="hybr")
        if not sol.success:
            return None
        y = sol.x
    return _sigmoid(y)


def numeric_equilibria(game: PolynomialGame, params: Mapping[str, float], starts: int = 8,
                       seed: int = 0, tol: float = 1e-5) -> list[NumericEquilibrium]:
    """End points of ``starts`` logit paths (first prior zero, then random) with regret ``<= tol``."""
    compiled = compile_game(game, params)
    rng = np.random.default_rng(seed)
    found: list[NumericEquilibrium] = []
    n = len(game.variables)
    for k in range(starts):
        prior = np.zeros(n) if k == 0 else rng.normal(0.0, 1.0, n)
        x = logit_path_end(compiled, prior)
        if x is None:
            continue
        regret = float_regret(game, compiled, x)
        if regret <= tol:
            found.append(NumericEquilibrium(dict(zip(game.variables, map(float, x))), regret, k))
    return found
