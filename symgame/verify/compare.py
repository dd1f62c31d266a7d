"""Comparing two PDLs and searching for readable counterexamples."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Mapping

import sympy as sp

from ..model.decide import Decision, Z3Context, satisfiable
from ..model.game import NormalFormGame
from ..model.pdl import PDL
from ..model.region import Atom
from ..model.z3env import z3
from .regret import RegretReport, exact_regret, expected_payoffs


@dataclass(frozen=True)
class Agreement:
    """Whether two PDLs prescribe the same profile at every point of the domain."""

    status: Decision
    witness: Mapping[str, sp.Expr] | None = None


def pdls_agree(first: PDL, second: PDL, timeout_ms: int = 30_000) -> Agreement:
    """Decide exactly whether ``first`` and ``second`` give identical profiles everywhere."""
    ctx = Z3Context(first.domain)
    undecided = False
    for fires_a, rule_a in _firing(ctx, first):
        for fires_b, rule_b in _firing(ctx, second):
            differs = _profiles_differ(ctx, rule_a.profile.strategies, rule_b.profile.strategies)
            if differs is None:
                continue
            answer = satisfiable(ctx, fires_a + fires_b + [differs], timeout_ms)
            if answer.satisfiable is Decision.TRUE:
                return Agreement(Decision.FALSE, answer.point)
            undecided |= answer.satisfiable is Decision.UNDECIDED
    return Agreement(Decision.UNDECIDED if undecided else Decision.TRUE)


def _firing(ctx: Z3Context, pdl: PDL):
    earlier: list[z3.BoolRef] = []
    for rule in pdl.rules:
        yield earlier + [ctx.region(rule.region)], rule
        earlier = earlier + [z3.Not(ctx.region(rule.region))]


def _profiles_differ(ctx: Z3Context, first, second) -> z3.BoolRef | None:
    clauses = []
    for s, t in zip(first, second):
        for p, q in zip(s, t):
            numer, denom = sp.fraction(sp.cancel(sp.together(p - q)))
            if numer == 0:
                continue
            clauses.append(z3.And(ctx.term(numer) != 0, ctx.term(denom) != 0))
    return z3.Or(clauses) if clauses else None


@dataclass(frozen=True)
class Counterexample:
    """A rational point where a PDL's profile is not an equilibrium."""

    point: Mapping[str, Fraction]
    rule_index: int
    strategies: tuple[tuple[Fraction, ...], ...]
    regret: RegretReport
    action_payoffs: tuple[tuple[Fraction, ...], ...]  # each pure action's payoff, per player


def first_counterexample(game: NormalFormGame, pdl: PDL,
                         points: Iterable[Mapping[str, Fraction]],
                         strict_rules_only: bool = False) -> Counterexample | None:
    """The first point (in the given order) where ``pdl`` has positive regret.

    With ``strict_rules_only`` only points where every atom of the firing
    rule holds strictly are accepted, so that the counterexample does not
    depend on how a lost relation symbol (``>`` or ``>=``) is read.
    """
    for point in points:
        if not pdl.domain.contains(point):
            continue
        choice = pdl.evaluate(point)
        if strict_rules_only and not _strictly_inside(pdl, choice.rule_index, point):
            continue
        report = exact_regret(game, point, choice.strategies)
        if not report.is_nash:
            values = tuple(tuple(v) for v in expected_payoffs(game, point, choice.strategies))
            return Counterexample(dict(point), choice.rule_index, choice.strategies, report, values)
    return None


def _strictly_inside(pdl: PDL, rule_index: int, point: Mapping[str, Fraction]) -> bool:
    """No condition consulted up to ``rule_index`` is on its boundary at ``point``."""
    return all(Atom(atom.expr, "!=").holds_at(point)
               for rule in pdl.rules[: rule_index + 1] for atom in rule.region.atoms)
