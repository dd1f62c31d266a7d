"""Odd man in / odd man out (Buck et al., arXiv:2208.02788, 2022,
Appendix D): synchronous against asynchronous coalitions.

Three players each name 1, 2 or 3.  If exactly two agree, each of the two
pays 1 to the third (odd man in: the odd player gets +2); odd man out is the
same game with payoffs negated.  Players 2-3 as a coalition:

* *synchronous* play mixes over joint choices (b, c): a matrix game, solved
  by LP and certified exactly (both sides' strategies in rationals);
* *asynchronous* play uses independent mixtures y, z: the value
  ``min_{y,z} max_j Ψ_j(y, z)`` is a nonconvex bilinear min-max, found by
  multi-start local optimisation and then proved exactly: a rational witness
  attains it, and z3 shows that no pair (y, z) does better.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from scipy.optimize import minimize

from symgame.model.decide import Decision
from symgame.model.z3env import z3
from symgame.numeric.recursive import solve_matrix_game


def payoff(a: int, b: int, c: int, reverse: bool = False) -> int:
    """Player 1's payoff when the three players name a, b, c."""
    if a == b == c or len({a, b, c}) == 3:
        return 0
    value = 2 if (b == c) else -1
    return -value if reverse else value


@dataclass(frozen=True)
class CoalitionValues:
    reverse: bool
    synchronous: Fraction
    synchronous_proved: bool
    asynchronous: Fraction
    witness: tuple[tuple[Fraction, ...], tuple[Fraction, ...]]
    asynchronous_proved: Decision


def synchronous_value(reverse: bool) -> tuple[Fraction, bool]:
    """Value of player 1 against joint (b, c) choices: LP, then an exact check of both strategies."""
    columns = list(itertools.product(range(3), repeat=2))
    matrix = np.array([[payoff(a, b, c, reverse) for b, c in columns] for a in range(3)], dtype=float)
    sol = solve_matrix_game(matrix)
    value = Fraction(sol.value).limit_denominator(1000)
    x = [Fraction(v).limit_denominator(1000) for v in sol.row_strategy]
    y = [Fraction(v).limit_denominator(1000) for v in sol.col_strategy]
    x = [v / sum(x) for v in x]
    y = [v / sum(y) for v in y]
    rows_ok = all(sum(x[a] * payoff(a, b, c, reverse) for a in range(3)) >= value for b, c in columns)
    cols_ok = all(sum(y[k] * payoff(a, b, c, reverse) for k, (b, c) in enumerate(columns)) <= value
                  for a in range(3))
    return value, rows_ok and cols_ok


def _psi(y: np.ndarray, z: np.ndarray, reverse: bool) -> np.ndarray:
    return np.array([sum(payoff(a, b, c, reverse) * y[b] * z[c] for b in range(3) for c in range(3))
                     for a in range(3)])


def asynchronous_value(reverse: bool, starts: int = 40, seed: int = 0) -> CoalitionValues:
    """min over independent y, z of max_j Ψ_j(y, z), found numerically and proved with z3.

    Every local optimum is rounded to rationals and valued exactly; the smallest exact value is
    kept, and the witness is chosen canonically among the exact optima found: each is replaced by
    the lexicographically smallest member of its orbit under the game's symmetries (renaming the
    numbers 1, 2, 3, and exchanging players 2 and 3), and the smallest of those is reported. So the
    reported witness does not depend on which symmetric copy the optimiser's path happened to reach.
    """
    rng = np.random.default_rng(seed)
    cons = [{"type": "eq", "fun": lambda w: w[0:3].sum() - 1}, {"type": "eq", "fun": lambda w: w[3:6].sum() - 1}]
    for k in range(3):
        cons.append({"type": "ineq", "fun": lambda w, k=k: w[6] - _psi(w[0:3], w[3:6], reverse)[k]})
    found: dict[tuple, Fraction] = {}
    for _ in range(starts):
        y, z = rng.dirichlet(np.ones(3)), rng.dirichlet(np.ones(3))
        w0 = np.concatenate([y, z, [_psi(y, z, reverse).max()]])
        res = minimize(lambda w: w[6], w0, constraints=cons, bounds=[(0, 1)] * 6 + [(None, None)], method="SLSQP")
        if not res.success:
            continue
        witness = (_round_simplex(res.x[0:3]), _round_simplex(res.x[3:6]))
        found[_canonical(witness)] = _exact_value(witness, reverse)
    if not found:
        raise RuntimeError("no local optimisation of the asynchronous coalition succeeded")
    value = min(found.values())
    witness = min(w for w, v in found.items() if v == value)
    return CoalitionValues(reverse, *synchronous_value(reverse), value, witness, _nothing_better(value, reverse))


def _round_simplex(x: np.ndarray) -> tuple[Fraction, ...]:
    q = [Fraction(float(v)).limit_denominator(12) for v in x]
    return tuple(v / sum(q) for v in q)


def _exact_value(witness: tuple, reverse: bool) -> Fraction:
    y, z = witness
    return max(sum(payoff(a, b, c, reverse) * y[b] * z[c] for b in range(3) for c in range(3)) for a in range(3))


def _canonical(witness: tuple) -> tuple:
    """The lexicographically smallest image of (y, z) under renamings of 1, 2, 3 and the swap y <-> z."""
    y, z = witness
    images = []
    for perm in itertools.permutations(range(3)):
        py, pz = tuple(y[perm[k]] for k in range(3)), tuple(z[perm[k]] for k in range(3))
        images += [(py, pz), (pz, py)]
    return min(images)


def _nothing_better(value: Fraction, reverse: bool) -> Decision:
    """z3: no independent mixtures y, z hold player 1 strictly below ``value``."""
    y = [z3.Real(f"y{k}") for k in range(3)]
    z = [z3.Real(f"z{k}") for k in range(3)]
    solver = z3.SolverFor("QF_NRA")
    solver.set("timeout", 60_000)
    solver.add(*[v >= 0 for v in y + z], z3.Sum(y) == 1, z3.Sum(z) == 1)
    bound = z3.RealVal(f"{value.numerator}/{value.denominator}")
    for a in range(3):
        solver.add(z3.Sum([payoff(a, b, c, reverse) * y[b] * z[c] for b in range(3) for c in range(3)]) < bound)
    answer = solver.check()
    return Decision.TRUE if answer == z3.unsat else Decision.FALSE if answer == z3.sat else Decision.UNDECIDED
