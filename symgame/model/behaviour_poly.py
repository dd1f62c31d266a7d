"""Expected payoffs of a game tree as polynomials in behaviour probabilities.

Poker papers write each player's expected profit by hand from the game tree
(Billingham's equations (1)-(3)).  :func:`compile_payoffs` does it from the
tree: every information set with two actions gets one variable, the
probability of its *first* action (the other has one minus it); an
information set with one action is forced; larger information sets get one
variable per action but the last.  Variables can be named (Billingham's
``a1``, ``b1``, ...) or fixed to an expression (his ``a3 = 1``).  The result
feeds :class:`~symgame.model.polygame.PolynomialGame` and so the
case-splitting engine.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Mapping

import sympy as sp

from ..errors import InputError
from .extensive import Chance, DecisionNode, ExtensiveGame, Node, Outcome, Terminal
from .parameters import parameter_symbol


class TreeCompileError(InputError):
    """The tree cannot be compiled (inconsistent information sets, bad leaves)."""


@dataclass(frozen=True)
class CompiledPayoffs:
    """Each player's expected payoff and the variables each player controls."""

    players: tuple[str, ...]
    variables: tuple[tuple[str, ...], ...]        # per player: named ones in the order given, then by appearance
    payoffs: tuple[sp.Expr, ...]                  # expanded polynomials


def _exact(value) -> sp.Expr:
    if isinstance(value, Fraction):
        return sp.Rational(value.numerator, value.denominator)
    return sp.sympify(value) if isinstance(value, int) else value


class _Compiler:
    def __init__(self, game: ExtensiveGame, names: Mapping[str, str], fixed: Mapping[str, sp.Expr]):
        self.game, self.names, self.fixed = game, dict(names), dict(fixed)
        self.actions: dict[str, tuple[str, ...]] = {}
        self.owner: dict[str, int] = {}
        self.probs: dict[str, tuple[sp.Expr, ...]] = {}
        self.order: list[tuple[int, str]] = []
        self.memo: dict[int, tuple[sp.Expr, ...]] = {}

    def action_probabilities(self, node: DecisionNode) -> tuple[sp.Expr, ...]:
        labels = tuple(a for a, _ in node.actions)
        known = self.actions.setdefault(node.infoset, labels)
        if known != labels or self.owner.setdefault(node.infoset, node.player) != node.player:
            raise TreeCompileError(f"information set {node.infoset!r} has inconsistent actions or owners")
        if node.infoset in self.probs:
            return self.probs[node.infoset]
        if len(labels) == 1:
            probs: tuple[sp.Expr, ...] = (sp.Integer(1),)
        elif node.infoset in self.fixed:
            first = sp.sympify(self.fixed[node.infoset])
            if len(labels) != 2:
                raise TreeCompileError(f"only two-action information sets can be fixed ({node.infoset!r})")
            probs = (first, 1 - first)
        else:
            base = self.names.get(node.infoset, node.infoset.replace(":", "_"))
            if len(labels) == 2:
                symbols = [parameter_symbol(base)]
            else:
                symbols = [parameter_symbol(f"{base}_{a}") for a in labels[:-1]]
            self.order.extend((node.player, str(s)) for s in symbols)
            probs = tuple(symbols) + (1 - sum(symbols),)
        self.probs[node.infoset] = probs
        return probs

    def expected(self, node: Node) -> tuple[sp.Expr, ...]:
        key = id(node)
        if key in self.memo:
            return self.memo[key]
        count = len(self.game.players)
        if isinstance(node, Outcome):
            if len(node.payoffs) != count:
                raise TreeCompileError(f"a leaf has {len(node.payoffs)} payoffs for {count} players")
            value = tuple(_exact(u) for u in node.payoffs)
        elif isinstance(node, Terminal):
            if count != 2:
                raise TreeCompileError("zero-sum Terminal leaves need exactly two players")
            value = (_exact(node.payoff), -_exact(node.payoff))
        elif isinstance(node, Chance):
            value = self._mix((_exact(p), child) for p, child in node.outcomes)
        else:
            value = self._mix(zip(self.action_probabilities(node), (child for _, child in node.actions)))
        self.memo[key] = value
        return value

    def _mix(self, weighted) -> tuple[sp.Expr, ...]:
        total = [sp.Integer(0)] * len(self.game.players)
        for weight, child in weighted:
            if weight == 0:
                continue
            for i, u in enumerate(self.expected(child)):
                total[i] += weight * u
        return tuple(total)


def compile_payoffs(game: ExtensiveGame, names: Mapping[str, str] | None = None,
                    fixed: Mapping[str, sp.Expr] | None = None) -> CompiledPayoffs:
    """Every player's expected payoff as an expanded polynomial in behaviour probabilities.

    Parameters
    ----------
    game : ExtensiveGame
        Leaves are :class:`Outcome` (any number of players) or
        :class:`Terminal` (two-player zero-sum).
    names : mapping information set -> variable name
        Name of the probability of the set's first action (default: the
        information set's label with ``:`` replaced by ``_``).
    fixed : mapping information set -> expression
        Information sets whose first-action probability is given.
    """
    compiler = _Compiler(game, names or {}, fixed or {})
    payoffs = tuple(sp.expand(u) for u in compiler.expected(game.root))
    unknown = set(compiler.names) - set(compiler.probs)
    if unknown:
        raise TreeCompileError(f"named information sets not in the tree: {sorted(unknown)}")
    rank = {name: k for k, name in enumerate((names or {}).values())}
    order = sorted(compiler.order, key=lambda item: (rank.get(item[1], len(rank)), compiler.order.index(item)))
    variables = tuple(tuple(name for owner, name in order if owner == p) for p in range(len(game.players)))
    return CompiledPayoffs(tuple(game.players), variables, payoffs)
