"""One exact equilibrium of a polynomial game at a point: logit homotopy, then rounding, then exact regret.

For games where no exact enumeration is within reach -- game trees of three or more players whose strategic
form is astronomically large (three-player Kuhn poker: 2.8e14 pure profiles) -- a floating-point equilibrium
is found by tracing the logit response in behaviour strategies (McKelvey and Palfrey, "Quantal response
equilibria for extensive form games", Experimental Economics 1 (1998); :mod:`symgame.numeric.polygame`), and
each coordinate is rounded to the simplest fraction with a bounded denominator
(``Fraction.limit_denominator``), with growing bounds. A rounded profile is accepted only when its exact
regret is 0: no player gains by any pure behaviour deviation (:func:`symgame.verify.polycert.exact_regret`,
exact for payoffs multilinear in each player's own variables, which perfect recall gives). The float path
only proposes; the certificate is exact. Equilibria with irrational coordinates are not found this way.

Examples
--------
>>> from symgame.api import load
>>> pennies = load("examples/pennies.yaml")                # x = y = 2/(P + 3)
>>> found = rounded_equilibrium(pennies, {"P": 1})
>>> found.profile, found.payoffs
({'x': Fraction(1, 2), 'y': Fraction(1, 2)}, (Fraction(0, 1), Fraction(0, 1)))
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Mapping, Sequence

import numpy as np
import sympy as sp

from ..model.polygame import PolynomialGame
from ..numeric.polygame import compile_game, float_regret, logit_path_end
from .polycert import exact_regret

__all__ = ["RoundedEquilibrium", "rounded_equilibrium"]

DENOMINATORS = (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 100, 120, 240, 360, 720, 1000, 10**4)


@dataclass(frozen=True)
class RoundedEquilibrium:
    """An exact equilibrium found by rounding a logit end point.

    Attributes
    ----------
    profile : dict
        Variable -> exact probability.
    payoffs : tuple of Fraction
        Each player's exact expected payoff.
    denominator : int
        The denominator bound of the rounding that gave exact regret 0.
    start : int
        Which logit start (0: the centre of the box, then random priors) led to it.
    numeric_regret : float
        The float regret of the logit end point before rounding.
    """

    profile: dict[str, Fraction]
    payoffs: tuple[Fraction, ...]
    denominator: int
    start: int
    numeric_regret: float


def rounded_equilibrium(game: PolynomialGame, params: Mapping[str, object] | None = None, starts: int = 3,
                        seed: int = 0, denominators: Sequence[int] = DENOMINATORS) -> RoundedEquilibrium | None:
    """The first rounded logit end point with exact regret 0, or ``None`` after ``starts`` paths.

    Parameters
    ----------
    game : PolynomialGame
    params : mapping, optional
        Exact values of the game's parameters (every parameter must be given).
    starts : int
        Logit paths to follow: the first from the centre of the box, the others from random priors
        (``seed``).
    seed : int
    denominators : sequence of int
        The rounding bounds tried in order for each end point.

    Returns
    -------
    RoundedEquilibrium or None
    """
    exact = {k: Fraction(str(v)) for k, v in (params or {}).items()}
    compiled = compile_game(game, {k: float(v) for k, v in exact.items()})
    rng = np.random.default_rng(seed)
    subs = {k: sp.Rational(v.numerator, v.denominator) for k, v in exact.items()}
    for start in range(starts):
        prior = np.zeros(len(game.variables)) if start == 0 else rng.normal(0.0, 1.0, len(game.variables))
        end = logit_path_end(compiled, prior)
        if end is None:
            continue
        regret = float_regret(game, compiled, end)
        for bound in denominators:
            profile = {x: Fraction(float(v)).limit_denominator(bound) for x, v in zip(game.variables, end)}
            check = exact_regret(game, {x: sp.Rational(v.numerator, v.denominator) for x, v in profile.items()},
                                 subs)
            if check.is_nash:
                point = {game.symbol(x): sp.Rational(v.numerator, v.denominator) for x, v in profile.items()}
                point.update({game.symbol(k): v for k, v in subs.items()})
                values = [sp.Rational(p.payoff.xreplace(point)) for p in game.players]
                payoffs = tuple(Fraction(int(v.p), int(v.q)) for v in values)
                return RoundedEquilibrium(profile, payoffs, bound, start, float(regret))
    return None
