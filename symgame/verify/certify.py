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

import flint
import sympy as sp

from ..model import second_opinion
from ..model.decide import Decision, Z3Context, satisfiable
from ..model.flintpoly import integer_polynomials
from ..model.game import NormalFormGame
from ..model.pdl import PDL, Profile
from ..model.z3env import z3


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


class RationalFunction:
    """An element of QQ(parameters): ``numer/denom`` over ZZ[parameters] (FLINT's ``fmpz_mpoly``), in lowest
    terms with a positive leading coefficient of ``denom``."""

    __slots__ = ("numer", "denom")

    def __init__(self, numer: flint.fmpz_mpoly, denom: flint.fmpz_mpoly, reduced: bool = False):
        if not reduced:
            if numer.is_zero():
                denom = denom.context().from_dict({(0,) * denom.context().nvars(): 1})
            else:
                common = numer.gcd(denom)
                if denom.leading_coefficient() < 0:
                    common = -common
                numer, denom = numer / common, denom / common
        self.numer, self.denom = numer, denom

    def __add__(self, other: "RationalFunction") -> "RationalFunction":
        if self.numer.is_zero():
            return other
        if other.numer.is_zero():
            return self
        if self.denom == other.denom:
            return RationalFunction(self.numer + other.numer, self.denom)
        common = self.denom.gcd(other.denom)
        left, right = self.denom / common, other.denom / common
        return RationalFunction(self.numer * right + other.numer * left, left * other.denom)

    def __neg__(self) -> "RationalFunction":
        return RationalFunction(-self.numer, self.denom, reduced=True)

    def __sub__(self, other: "RationalFunction") -> "RationalFunction":
        return self + (-other)

    def __mul__(self, other: "RationalFunction") -> "RationalFunction":
        if self.numer.is_zero() or other.numer.is_zero():
            return RationalFunction(self.numer * 0, self.denom * 0 + 1, reduced=True)
        a, b = self.numer.gcd(other.denom), other.numer.gcd(self.denom)
        numer = (self.numer / a) * (other.numer / b)
        denom = (self.denom / b) * (other.denom / a)
        if denom.leading_coefficient() < 0:
            numer, denom = -numer, -denom
        return RationalFunction(numer, denom, reduced=True)

    def __bool__(self) -> bool:
        return not self.numer.is_zero()


class RationalFunctions:
    """Exact arithmetic in the field QQ(parameters), with FLINT's multivariate polynomials.

    Requirements are assembled here instead of with sympy expressions: the field cancels common factors as it
    goes and never expands a factored product symbolically (measured: certification of Final Jeopardy (6, 5)
    spent 95% of its time in ``cancel``/``expand`` before; then sympy's sparse fraction field took 10 s of the
    23 s certificate of (10, 9), FLINT's gcd makes that negligible).
    """

    def __init__(self, names: list[str]):
        self.symbols = [sp.Symbol(n, real=True) for n in names] or [sp.Symbol("_unused", real=True)]
        self.field = sp.QQ.frac_field(*self.symbols)
        self.context = flint.fmpz_mpoly_ctx.get(tuple(str(g) for g in self.symbols), "lex")
        self.zero = RationalFunction(self.context.from_dict({}), self.context.from_dict({(0,) * len(self.symbols): 1}), True)
        self.one = RationalFunction(self.zero.denom, self.zero.denom, True)
        self._cache: dict[sp.Expr, RationalFunction] = {}

    def __call__(self, expr: sp.Expr) -> RationalFunction:
        if expr not in self._cache:
            element = self.field.from_sympy(expr)
            numer, denom = integer_polynomials(self.context, [dict(element.numer), dict(element.denom)])
            self._cache[expr] = RationalFunction(numer, denom)
        return self._cache[expr]

    def to_sympy(self, poly: flint.fmpz_mpoly) -> sp.Expr:
        """``poly`` as a sympy expression in the parameters."""
        return sp.Add(*(sp.Integer(int(c)) * sp.Mul(*(s ** e for s, e in zip(self.symbols, m)))
                        for m, c in sorted(poly.to_dict().items())))


def equilibrium_requirements(game: NormalFormGame, profile: Profile,
                             functions: RationalFunctions) -> list[tuple[str, RationalFunction, str]]:
    """``(description, f, rel)`` meaning ``f rel 0`` is required, ``f`` in QQ(parameters)."""
    reqs: list[tuple[str, RationalFunction, str]] = []
    zero, one = functions.zero, functions.one
    strategies = [[functions(p) for p in s] for s in profile.strategies]
    for player, s in zip(game.players, strategies):
        reqs.append((f"{player.name}'s probabilities sum to 1", sum(s, zero) - one, "=="))
        for action, p in zip(player.actions, s):
            reqs.append((f"P({player.name} plays {action}) >= 0", p, ">="))
    x = strategies[0]
    y = strategies[1] if len(strategies) == 2 else [one]
    a = game.payoffs[0]
    rows, cols = game.shape
    row_payoffs = [sum((functions(a[i, j]) * y[j] for j in range(cols) if y[j]), zero) for i in range(rows)]
    achieved = sum((x[i] * row_payoffs[i] for i in range(rows) if x[i]), zero)
    for i, action in enumerate(game.players[0].actions):
        reqs.append((f"{game.players[0].name} gains nothing by deviating to {action}",
                     achieved - row_payoffs[i], ">="))
    if len(game.players) == 2:
        b = game.payoffs[1]
        col_payoffs = [sum((functions(b[i, j]) * x[i] for i in range(rows) if x[i]), zero) for j in range(cols)]
        achieved_col = sum((y[j] * col_payoffs[j] for j in range(cols) if y[j]), zero)
        for j, action in enumerate(game.players[1].actions):
            reqs.append((f"{game.players[1].name} gains nothing by deviating to {action}",
                         achieved_col - col_payoffs[j], ">="))
    return reqs


def violation_formula(ctx: Z3Context, value: RationalFunction, rel: str,
                      functions: RationalFunctions) -> z3.BoolRef | None:
    """z3 formula for 'requirement ``value rel 0`` fails'; ``None`` if it cannot fail."""
    numer, denom = value.numer, value.denom
    if numer.is_zero():
        return None
    if numer.is_constant() and denom.is_constant():
        holds = int(numer.leading_coefficient()) * int(denom.leading_coefficient()) > 0 if rel == ">=" else False
        return None if holds else z3.BoolVal(True)
    n, d = ctx.term(functions.to_sympy(numer)), ctx.term(functions.to_sympy(denom))
    undefined = d == 0
    if rel == "==":
        return z3.Or(n != 0, undefined)
    return z3.Or(n * d < 0, undefined)


def certify_pdl(game: NormalFormGame, pdl: PDL, timeout_ms: int = 30_000,
                stop_at_first: bool = False) -> Certificate:
    """Prove (or refute with a witness) that ``pdl`` gives an equilibrium everywhere."""
    with second_opinion.background():
        return _certify_pdl(game, pdl, timeout_ms, stop_at_first)


def _certify_pdl(game: NormalFormGame, pdl: PDL, timeout_ms: int, stop_at_first: bool) -> Certificate:
    ctx = Z3Context(pdl.domain)
    functions = RationalFunctions(pdl.domain.names)
    earlier: list[z3.BoolRef] = []
    violations: list[Violation] = []
    undecided = False
    checked = 0
    for index, rule in enumerate(pdl.rules):
        fires = earlier + [ctx.region(rule.region)]
        for text, expr, rel in equilibrium_requirements(game, rule.profile, functions):
            failure = violation_formula(ctx, expr, rel, functions)
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
