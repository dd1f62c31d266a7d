"""Parametric support enumeration for one- and two-player normal-form games.

For every pair of equal-size supports ``(I, J)`` the indifference equations

.. math::  A_{IJ}\\, y_J = u\\,\\mathbf 1,\\quad \\mathbf 1^\\top y_J = 1,\\qquad
           B_{IJ}^\\top x_I = v\\,\\mathbf 1,\\quad \\mathbf 1^\\top x_I = 1

are solved symbolically (Cramer's rule on the bordered matrix), and the
branch is valid where the probabilities are non-negative and no pure
strategy outside the support pays more (the equilibrium conditions used in
Ganzfried 2022, Appendix A).  Equal-size supports suffice for every
zero-sum game (Shapley and Snow's kernel theorem) and for every game that is
nondegenerate at the parameter point; whether the branches cover the whole
domain is decided exactly afterwards (:mod:`symgame.engine.pdl_builder`).
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Iterator

import sympy as sp

from ..model.decide import Decision, Z3Context, region_is_empty
from ..model.game import NormalFormGame
from ..model.pdl import Profile
from ..model.region import Atom, Region, normalise_atoms
from .conditions import SignOracle, rational_condition


@dataclass(frozen=True)
class Branch:
    """One support pair with its exact profile and validity region.

    Attributes
    ----------
    supports : tuple[tuple[int, ...], ...]
        Action indices in each player's support.
    profile : Profile
        Exact strategies as functions of the parameters.
    region : Region
        Where the profile is a Nash equilibrium.
    emptiness : Decision
        ``FALSE`` when the region is proved non-empty on the domain,
        ``UNDECIDED`` when z3 gave up.  Proved-empty branches are dropped.
    """

    supports: tuple[tuple[int, ...], ...]
    profile: Profile
    region: Region
    emptiness: Decision

    def label(self, game: NormalFormGame) -> str:
        names = []
        for player, support in zip(game.players, self.supports):
            names.append("{" + ", ".join(player.actions[i] for i in support) + "}")
        return " x ".join(names)


@dataclass(frozen=True)
class IndifferenceSolution:
    """Probabilities over a support and the common payoff, from Cramer's rule."""

    probabilities: tuple[sp.Expr, ...]
    value: sp.Expr


def solve_indifference(matrix: sp.Matrix) -> IndifferenceSolution | None:
    """Solve ``matrix @ z = w * 1`` with ``sum(z) = 1``.

    Returns ``None`` when the bordered matrix is singular for all parameter
    values (the support pair never determines a unique strategy).
    """
    k = matrix.shape[1]
    bordered = sp.Matrix.zeros(k + 1, k + 1)
    bordered[:k, :k] = matrix
    bordered[:k, k] = -sp.ones(k, 1)
    bordered[k, :k] = sp.ones(1, k)
    det = sp.factor(bordered.det(method="berkowitz"))
    if det == 0:
        return None
    adj_column = bordered.adjugate(method="berkowitz")[:, k]
    solution = [sp.factor(sp.cancel(entry / det)) for entry in adj_column]
    return IndifferenceSolution(tuple(solution[:k]), solution[k])


def square_support_pairs(rows: int, cols: int) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    """All support pairs of equal size, smallest first, in lexicographic order."""
    for size in range(1, min(rows, cols) + 1):
        for rows_support in combinations(range(rows), size):
            for cols_support in combinations(range(cols), size):
                yield rows_support, cols_support


def enumerate_branches(game: NormalFormGame, timeout_ms: int = 20_000) -> list[Branch]:
    """Every support-pair branch of ``game`` whose region is not provably empty."""
    ctx = Z3Context(game.domain)
    oracle = SignOracle(ctx)
    a = sp.Matrix(game.payoffs[0])
    b = sp.Matrix(game.payoffs[1]) if len(game.payoffs) == 2 else sp.zeros(*a.shape)
    branches = []
    for rows_support, cols_support in square_support_pairs(*a.shape):
        branch = support_branch(game, a, b, rows_support, cols_support, oracle, timeout_ms)
        if branch is not None:
            branches.append(branch)
    return branches


def support_branch(game: NormalFormGame, a: sp.Matrix, b: sp.Matrix,
                   rows_support: tuple[int, ...], cols_support: tuple[int, ...],
                   oracle: SignOracle, timeout_ms: int) -> Branch | None:
    """Solve one support pair; ``None`` if singular or its region is empty."""
    col_solution = solve_indifference(a.extract(list(rows_support), list(cols_support)))
    row_solution = solve_indifference(b.extract(list(rows_support), list(cols_support)).T)
    if col_solution is None or row_solution is None:
        return None
    x = _full_strategy(a.shape[0], rows_support, row_solution.probabilities)
    y = _full_strategy(a.shape[1], cols_support, col_solution.probabilities)
    conditions = equilibrium_conditions(a, b, x, y, col_solution.value, row_solution.value,
                                        rows_support, cols_support)
    atoms: list[Atom] = []
    for expr in conditions:
        atoms.extend(rational_condition(expr, ">=", oracle))
    region = Region(normalise_atoms(atoms))
    emptiness = region_is_empty(game.domain, region, timeout_ms)
    if emptiness is Decision.TRUE:
        return None
    strategies = (tuple(x),) if len(game.players) == 1 else (tuple(x), tuple(y))
    return Branch((rows_support, cols_support)[: len(game.players)], Profile(strategies),
                  region, emptiness)


def equilibrium_conditions(a: sp.Matrix, b: sp.Matrix, x: list[sp.Expr], y: list[sp.Expr],
                           row_value: sp.Expr, col_value: sp.Expr,
                           rows_support: tuple[int, ...], cols_support: tuple[int, ...]) -> list[sp.Expr]:
    """Expressions that must be ``>= 0``: probabilities and no profitable deviation."""
    conditions = [x[i] for i in rows_support] + [y[j] for j in cols_support]
    for i in range(a.shape[0]):
        if i not in rows_support:
            deviation = sum(a[i, j] * y[j] for j in cols_support)
            conditions.append(row_value - deviation)
    for j in range(a.shape[1]):
        if j not in cols_support:
            deviation = sum(b[i, j] * x[i] for i in rows_support)
            conditions.append(col_value - deviation)
    return [c for c in conditions if not (c.is_Number and c >= 0)]


def _full_strategy(size: int, support: tuple[int, ...], probabilities: tuple[sp.Expr, ...]) -> list[sp.Expr]:
    strategy = [sp.Integer(0)] * size
    for index, p in zip(support, probabilities):
        strategy[index] = p
    return strategy
