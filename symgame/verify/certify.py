"""Whole-domain certificates that a PDL prescribes a Nash equilibrium.

For every rule ``k`` the set where it fires is ``D ∧ ¬R_1 ∧ … ∧ ¬R_{k-1} ∧ R_k``.
On that set each probability must be ``>= 0`` and defined, the
probabilities of each player must sum to 1, and no pure deviation may pay
more than the profile.  Each requirement ``N/D >= 0`` is refuted by z3 as
``fires ∧ (N·D < 0 ∨ D = 0)``; unsatisfiability of all of them is a proof,
independent of how the PDL was obtained (engine or paper).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

import sympy as sp
import z3

from ..model.decide import Decision, Z3Context, satisfiable
from ..model.game import NormalFormGame
from ..model.pdl import PDL, Profile


@dataclass(frozen=True)
class Violation:
    """A point where a rule's profile is not an equilibrium, and why."""

    rule_index: int
    requirement: str
    point: Mapping[str, sp.Expr] | None


@dataclass(frozen=True)
class Certificate:
    """Outcome of :func:`certify_pdl`: TRUE = proved on the whole domain."""

    status: Decision
    checked_requirements: int
    violations: tuple[Violation, ...] = field(default_factory=tuple)


def equilibrium_requirements(game: NormalFormGame, profile: Profile) -> list[tuple[str, sp.Expr, str]]:
    """``(description, expression, rel)`` meaning ``expression rel 0`` is required."""
    reqs: list[tuple[str, sp.Expr, str]] = []
    strategies = [list(s) for s in profile.strategies]
    for player, s in zip(game.players, strategies):
        reqs.append((f"{player.name}'s probabilities sum to 1", sp.Add(*s) - 1, "=="))
        for action, p in zip(player.actions, s):
            reqs.append((f"P({player.name} plays {action}) >= 0", p, ">="))
    x = strategies[0]
    y = strategies[1] if len(strategies) == 2 else [sp.Integer(1)]
    a = game.payoffs[0]
    rows, cols = game.shape
    row_payoffs = [sum(a[i, j] * y[j] for j in range(cols)) for i in range(rows)]
    achieved = sum(x[i] * row_payoffs[i] for i in range(rows))
    for i, action in enumerate(game.players[0].actions):
        reqs.append((f"{game.players[0].name} gains nothing by deviating to {action}",
                     achieved - row_payoffs[i], ">="))
    if len(game.players) == 2:
        b = game.payoffs[1]
        col_payoffs = [sum(b[i, j] * x[i] for i in range(rows)) for j in range(cols)]
        achieved_col = sum(y[j] * col_payoffs[j] for j in range(cols))
        for j, action in enumerate(game.players[1].actions):
            reqs.append((f"{game.players[1].name} gains nothing by deviating to {action}",
                         achieved_col - col_payoffs[j], ">="))
    return reqs


def violation_formula(ctx: Z3Context, expr: sp.Expr, rel: str) -> z3.BoolRef | None:
    """z3 formula for 'requirement ``expr rel 0`` fails'; ``None`` if it cannot fail."""
    numer, denom = sp.fraction(sp.cancel(sp.together(expr)))
    if numer == 0 and denom.is_Number:
        return None
    n, d = ctx.term(numer), ctx.term(denom)
    undefined = d == 0
    if rel == "==":
        return z3.Or(n != 0, undefined)
    return z3.Or(n * d < 0, undefined)


def certify_pdl(game: NormalFormGame, pdl: PDL, timeout_ms: int = 30_000,
                stop_at_first: bool = False) -> Certificate:
    """Prove (or refute with a witness) that ``pdl`` gives an equilibrium everywhere."""
    ctx = Z3Context(pdl.domain)
    earlier: list[z3.BoolRef] = []
    violations: list[Violation] = []
    undecided = False
    checked = 0
    for index, rule in enumerate(pdl.rules):
        fires = earlier + [ctx.region(rule.region)]
        for text, expr, rel in equilibrium_requirements(game, rule.profile):
            failure = violation_formula(ctx, expr, rel)
            if failure is None:
                continue
            checked += 1
            answer = satisfiable(ctx, fires + [failure], timeout_ms)
            if answer.satisfiable is Decision.TRUE:
                violations.append(Violation(index, text, answer.point))
                if stop_at_first:
                    return Certificate(Decision.FALSE, checked, tuple(violations))
            elif answer.satisfiable is Decision.UNDECIDED:
                undecided = True
        earlier.append(z3.Not(ctx.region(rule.region)))
    status = Decision.FALSE if violations else (Decision.UNDECIDED if undecided else Decision.TRUE)
    return Certificate(status, checked, tuple(violations))
