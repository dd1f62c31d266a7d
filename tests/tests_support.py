"""Shared cached derivations for property tests (hypothesis cannot use fixtures), and readers of symgame's JSON."""
from fractions import Fraction
from functools import lru_cache

import numpy as np
from scipy.optimize import linprog

from symgame.model.expr import parse_expression, parse_relation


@lru_cache(maxsize=None)
def derived_two_by_two():
    from symgame.engine.derive import derive_equilibria
    from symgame.games.two_by_two import build_game

    return derive_equilibria(build_game()).pdl


@lru_cache(maxsize=None)
def derived_weakest_link():
    from symgame.engine.derive import derive_equilibria
    from symgame.games.weakest_link import build_game

    return derive_equilibria(build_game()).pdl


# ---- helpers that read symgame's JSON as an outside tool would (used by unit and study tests)

def evaluate_pdl(result, point):
    """Walk the JSON PDL like an outside tool would: first rule whose conditions hold."""
    import sympy as sp

    names = {p["name"]: sp.Symbol(p["name"], real=True) for p in result["parameters"]}
    subs = {names[k]: sp.Rational(v.numerator, v.denominator) for k, v in point.items()}
    for rule in result["pdl"]:
        ok = True
        for cond in rule["when"]:
            expr, rel = parse_relation(cond, names)
            value = expr.subs(subs)
            ok &= {">": value > 0, ">=": value >= 0, "==": value == 0, "!=": value != 0}[rel]
        if ok:
            return {player: {a: Fraction(str(parse_expression(p, names).subs(subs))) for a, p in mix.items()}
                    for player, mix in rule["profile"].items()}
    raise AssertionError("no rule fired")


def zero_sum_regret(matrix, x, y):
    """max_i (A y)_i - x A y and x A y - min_j (x A)_j, exactly."""
    rows, cols = len(matrix), len(matrix[0])
    ay = [sum(matrix[i][j] * y[j] for j in range(cols)) for i in range(rows)]
    xa = [sum(matrix[i][j] * x[i] for i in range(rows)) for j in range(cols)]
    value = sum(x[i] * ay[i] for i in range(rows))
    return max(ay) - value, value - min(xa), value


def lp_value(matrix):
    """The row player's value of a matrix game by HiGHS (floats: an independent check)."""
    a = np.array(matrix, dtype=float)
    m, n = a.shape
    res = linprog(np.r_[np.zeros(m), -1], A_ub=np.c_[-a.T, np.ones(n)], b_ub=np.zeros(n),
                  A_eq=np.r_[np.ones(m), 0][None, :], b_eq=[1], bounds=[(0, None)] * m + [(None, None)],
                  method="highs")
    return -res.fun
