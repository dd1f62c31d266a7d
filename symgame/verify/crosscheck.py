"""Checks of a PDL at parameter points: exact regret and a numeric solver.

At each rational point the PDL's exact profile must have regret 0
(:mod:`symgame.verify.regret`), and an independent numeric solver
(:mod:`symgame.numeric.solvers`) must agree: the LP value for zero-sum
games, one of nashpy's equilibria for general-sum games, the numerically
best action for decision problems.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Mapping, Sequence

import numpy as np

from ..errors import NumericSolverError
from ..model.decide import Decision, Z3Context, satisfiable
from ..model.expr import raw_point
from ..model.game import NormalFormGame
from ..model.parameters import finite_window
from ..model.pdl import PDL
from ..model.region import Domain
from ..model.z3env import z3
from ..numeric import solvers
from .regret import exact_regret, is_nash_raw

Point = Mapping[str, Fraction]


@dataclass(frozen=True)
class PointCheck:
    """The verdicts at one parameter point."""

    point: Mapping[str, Fraction]
    rule_index: int
    exact_nash: bool
    numeric_agrees: bool
    numeric_note: str
    numeric_skipped: bool = False


@dataclass(frozen=True)
class CrossCheckReport:
    """Summary of :func:`check_points`."""

    checks: tuple[PointCheck, ...]

    @property
    def all_exact_nash(self) -> bool:
        return all(c.exact_nash for c in self.checks)

    @property
    def all_numeric_agree(self) -> bool:
        return all(c.numeric_agrees or c.numeric_skipped for c in self.checks)

    @property
    def numeric_skipped(self) -> int:
        """Points where no float solver could be run or answer (payoffs beyond floating point)."""
        return sum(c.numeric_skipped for c in self.checks)

    def rules_hit(self) -> list[int]:
        return sorted({c.rule_index for c in self.checks})


def random_domain_points(domain: Domain, count: int, seed: int, max_denominator: int = 12) -> list[dict[str, Fraction]]:
    """Deterministic random rational points of ``domain`` (rejection sampling)."""
    rng = np.random.default_rng(seed)
    points: list[dict[str, Fraction]] = []
    attempts = 0
    while len(points) < count and attempts < 200 * count:
        attempts += 1
        point = {}
        for param in domain.parameters:
            lo, hi = finite_window(param)
            if param.integer:
                value = Fraction(int(rng.integers(math.ceil(lo), math.floor(hi) + 1)))
            else:
                den = int(rng.integers(1, max_denominator + 1))
                span = int((hi - lo) * den)
                value = lo + Fraction(int(rng.integers(0, span + 1)), den)
            point[param.name] = value
        if domain.contains(point):
            points.append(point)
    return points


def rule_witness_points(pdl: PDL, timeout_ms: int = 10_000) -> list[dict[str, Fraction]]:
    """One rational point where each rule fires (when z3 finds a rational one)."""
    ctx = Z3Context(pdl.domain)
    earlier: list[z3.BoolRef] = []
    points = []
    for rule in pdl.rules:
        answer = satisfiable(ctx, earlier + [ctx.region(rule.region)], timeout_ms)
        point = answer.rational_point() if answer.satisfiable is Decision.TRUE else None
        if point is not None:
            points.append(point)
        earlier.append(z3.Not(ctx.region(rule.region)))
    return points


def check_points(game: NormalFormGame, pdl: PDL, points: Iterable[Point]) -> CrossCheckReport:
    """Exact regret and numeric agreement of ``pdl`` at each point."""
    checks = []
    for point in points:
        choice = pdl.evaluate(point)
        report = exact_regret(game, point, choice.strategies)
        agrees, note = numeric_agreement(game, point, choice.strategies)
        checks.append(PointCheck(dict(point), choice.rule_index, report.is_nash, bool(agrees), note, agrees is None))
    return CrossCheckReport(tuple(checks))


SKIPPED = "cross-check skipped: payoffs beyond floating point"


def numeric_agreement(game: NormalFormGame, point: Point,
                      strategies: Sequence[Sequence[Fraction]]) -> tuple[bool | None, str]:
    """Compare an exact profile with an independent floating-point solver.

    The solver sees the exact payoffs at ``point``, each player's scaled by a power of two (no
    overflow); when they span more than floating point can compare, the answer is ``None`` with the
    note :data:`SKIPPED` (the exact checks stand on their own); likewise when HiGHS reports no
    solution within its tolerance (the note says so).
    """
    matrices = solvers.float_matrices(game.payoffs_at(point), common=game.zero_sum)
    if matrices is None:
        return None, SKIPPED
    x = np.array([float(p) for p in strategies[0]])
    if len(game.players) == 1:
        best = solvers.best_actions(matrices[0])
        return bool(all(i in best for i in np.flatnonzero(x > 0))), "best action by direct comparison"
    y = np.array([float(p) for p in strategies[1]])
    a, b = matrices
    if game.zero_sum:
        try:
            lp = solvers.solve_zero_sum_lp(a)
        except NumericSolverError as exc:
            return None, f"cross-check skipped: {exc}"
        return abs(float(x @ a @ y) - lp.value) <= 1e-7 * max(1.0, abs(lp.value)), "HiGHS LP value"
    found = solvers.bimatrix_equilibria(a, b)
    if any(np.allclose(x, fx, atol=1e-7) and np.allclose(y, fy, atol=1e-7) for fx, fy in found):
        return True, "one of nashpy's equilibria"
    row, col = solvers.numeric_regrets(a, b, x, y)
    if not found or (row <= 1e-9 and col <= 1e-9):
        note = "nashpy found no equilibrium here (degenerate point)" if not found else \
            "not among nashpy's equilibria (degenerate point); float regret 0"
        return row <= 1e-9 and col <= 1e-9, note
    return False, "disagrees with nashpy"


@dataclass(frozen=True)
class GridCheck:
    """Exact check of a PDL at every point of a finite grid."""

    values: tuple[Fraction, ...]
    points: int
    failures: int
    first_failure: Mapping[str, Fraction] | None


def exhaustive_grid_check(game: NormalFormGame, pdl: PDL, values: Sequence[Fraction]) -> GridCheck:
    """Exact Nash check at every point of ``values ** n_parameters`` in the domain."""
    from itertools import product

    domain = game.domain
    names = domain.names
    # each parameter's own bounds decided once per value (the points in the same order as the full product)
    allowed = [[v for v in values if p.contains(v)] for p in domain.parameters]
    total = failures = 0
    first = None
    for combo in product(*allowed):
        point = dict(zip(names, combo))
        if domain.assumptions and not all(a.holds_at(point) for a in domain.assumptions):
            continue
        total += 1
        raw = raw_point(point)
        rule = pdl.rules[pdl.select_raw(raw)]
        if not is_nash_raw(game, raw, rule.profile.at_raw(raw)):   # exact regret, in fmpq throughout
            failures += 1
            first = first or point
    return GridCheck(tuple(values), total, failures, first)


@dataclass(frozen=True)
class RandomNumericCheck:
    """Vectorised floating-point check of a PDL on random parameter points."""

    samples: int
    seed: int
    low: float
    high: float
    max_regret: float
    failures: int
    tolerance: float


def random_numeric_check(game: NormalFormGame, pdl: PDL, samples: int, seed: int,
                         low: float = -1.0, high: float = 1.0, tolerance: float = 1e-9) -> RandomNumericCheck:
    """Regret of the PDL's profile on ``samples`` uniform random games (two players).

    Parameters are drawn uniformly from ``[low, high]`` (Ganzfried's section 5
    uses ``[-1, 1]``); rule selection and regrets are computed in floating
    point with numpy, independently of the symbolic engine.
    """
    import sympy as sp

    rng = np.random.default_rng(seed)
    columns = {n: rng.uniform(low, high, samples) for n in game.domain.names}
    strategies = pdl.profiles_numeric(columns)
    symbols = [sp.Symbol(n, real=True) for n in game.domain.names]
    args = [columns[n] for n in game.domain.names]
    mats = [[[np.broadcast_to(sp.lambdify(symbols, m[i, j], "numpy")(*args), (samples,))
              for j in range(m.shape[1])] for i in range(m.shape[0])] for m in game.payoffs]
    a = np.stack([np.stack(r, axis=-1) for r in mats[0]], axis=-2)  # (samples, rows, cols)
    b = np.stack([np.stack(r, axis=-1) for r in mats[1]], axis=-2)
    x, y = strategies
    row_values = np.einsum("sij,sj->si", a, y)
    col_values = np.einsum("sij,si->sj", b, x)
    row_regret = row_values.max(axis=1) - np.einsum("si,si->s", x, row_values)
    col_regret = col_values.max(axis=1) - np.einsum("sj,sj->s", y, col_values)
    bad_prob = (x < -tolerance).any(axis=1) | (y < -tolerance).any(axis=1)
    regret = np.maximum(row_regret, col_regret)
    regret = np.where(np.isfinite(regret), regret, np.inf)
    failures = int(((regret > tolerance) | bad_prob).sum())
    return RandomNumericCheck(samples, seed, low, high, float(regret.max()), failures, tolerance)
