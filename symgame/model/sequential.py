"""Behaviour strategies of a perfect-recall tree, in the form the case-splitting engine decides exactly.

The case-splitting engine (:mod:`symgame.engine.casesplit`) works on a unit box: one variable in
``[0, 1]`` per two-action information set, with the first-order condition of each variable read from
``g_x = dE/dx``. Two things make that box description of a tree differ from Nash equilibrium, and this
module removes both.

**More than two actions.** The probabilities of ``k >= 3`` actions form a simplex, not a box. Writing them
as ``k - 1`` free variables with the last action's probability ``1 - sum`` lets the box reach points
that are not strategies (``heads = tails = 1`` gives ``quit`` the probability ``-1``), and the box
conditions miss mixtures that leave the last action out. :func:`binarize` replaces each such information
set by a chain of two-action choices of the same player: choose ``a1`` or go on; then ``a2`` or go on;
...; then ``a(k-1)`` or ``ak``. The chain's variable ``y_j`` is the probability of ``a_j`` given that
none of ``a1 .. a(j-1)`` was chosen (Kuhn's behaviour strategies of the refined tree), so
``P(a_j) = y_j (1 - y_1) ... (1 - y_(j-1))``: every point of the box is a strategy and every strategy is
reached (the stick-breaking map).

**A player's own unreached choices.** ``g_x`` carries the factor ``r_x``, the probability that the
owner's *own* earlier choices lead to ``x``'s information set. Where ``r_x = 0`` every value of ``x``
satisfies its condition, and the condition of the earlier choice compares it with the continuation the
profile happens to contain, not the best one: such a box solution need not be a Nash equilibrium
(``stop`` worth 1 against ``go`` then ``left`` worth ``t > 1`` passes if ``left`` is given probability
0). :class:`SequentialGame` uses ``G_x = g_x / r_x`` instead (an exact division under perfect recall):
each choice is then optimal given that its information set is reached, so by backward induction over
the owner's information sets every solution is a best response (a Nash equilibrium), and every Nash
equilibrium is one of these solutions except at information sets its owner's own play excludes, where
any play is also an equilibrium (it changes no one's payoff).

Examples
--------
>>> from symgame.model.extensive import DecisionNode, ExtensiveGame, Outcome
>>> game = ExtensiveGame("rps", ("A",), DecisionNode(0, "A", (
...     ("rock", Outcome((0,))), ("paper", Outcome((1,))), ("scissors", Outcome((2,))))))
>>> chain = binarize(game)
>>> chain.root.infoset, [a for a, _ in chain.root.actions], chain.root.actions[1][1].infoset
('A', ['rock', 'paper | scissors'], 'A / paper | scissors')
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import sympy as sp

from ..errors import InputError
from .extensive import Chance, DecisionNode, ExtensiveGame, Node
from .parameters import parameter_symbol
from .polygame import PolynomialGame

#: Separator of the names of a chain's information sets and actions (``A / paper | scissors``).
CHAIN = " / "


def chain_meaning(infoset: str, labels: tuple[str, ...], step: int) -> str:
    """What the variable of chain step ``step`` (0-based) of ``infoset`` (actions ``labels``) is the probability
    of, in words."""
    earlier = labels[:step]
    text = f"{labels[step]} at {infoset!r}"
    if earlier:
        text += ", given that " + " and ".join(repr(a) for a in earlier) + (" is" if len(earlier) == 1 else " are")
        text += " not chosen"
    return text


def chain_infoset(infoset: str, rest: tuple[str, ...]) -> str:
    """The name of the chain step of ``infoset`` that chooses among the actions ``rest`` (the first step keeps
    the information set's own name)."""
    return f"{infoset}{CHAIN}{' | '.join(rest)}"


def binarize(game: ExtensiveGame) -> ExtensiveGame:
    """The same game with every information set of three or more actions replaced by a chain of two-action
    choices of the same player (see the module text). Trees without such sets come back unchanged.
    Iterative (no recursion); shared subtrees stay shared."""
    done: dict[int, Node] = {}
    stack: list[tuple[Node, bool]] = [(game.root, False)]
    while stack:
        node, expanded = stack.pop()
        if id(node) in done:
            continue
        kids = ([child for _, child in node.actions] if isinstance(node, DecisionNode)
                else [child for _, child in node.outcomes] if isinstance(node, Chance) else [])
        if not expanded and kids:
            stack.append((node, True))
            stack.extend((child, False) for child in kids if id(child) not in done)
            continue
        if isinstance(node, Chance):
            done[id(node)] = Chance(tuple((p, done[id(child)]) for p, child in node.outcomes))
        elif isinstance(node, DecisionNode):
            actions = [(label, done[id(child)]) for label, child in node.actions]
            done[id(node)] = _chain(node.player, node.infoset, actions)
        else:
            done[id(node)] = node
    root = done[id(game.root)]
    if root == game.root:
        return game
    return ExtensiveGame(game.name, game.players, root, game.description, game.offset)


def _chain(player: int, infoset: str, actions: list[tuple[str, Node]]) -> DecisionNode:
    if len(actions) <= 2:
        return DecisionNode(player, infoset, tuple(actions))
    labels = tuple(label for label, _ in actions)
    tail = DecisionNode(player, chain_infoset(infoset, labels[-2:]), tuple(actions[-2:]))
    for j in range(len(actions) - 3, -1, -1):
        rest = labels[j + 1:]
        name = infoset if j == 0 else chain_infoset(infoset, labels[j:])
        tail = DecisionNode(player, name, ((labels[j], actions[j][1]), (" | ".join(rest), tail)))
    return tail


def chain_steps(game: ExtensiveGame) -> dict[str, tuple[str, tuple[str, ...], int]]:
    """For each two-action step :func:`binarize` makes of ``game`` (the original, three or more actions): the
    step's information set -> (original information set, its actions, the step's index). Iterative."""
    out: dict[str, tuple[str, tuple[str, ...], int]] = {}
    stack: list[Node] = [game.root]
    seen: set[int] = set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, Chance):
            stack.extend(child for _, child in node.outcomes)
        elif isinstance(node, DecisionNode):
            stack.extend(child for _, child in node.actions)
            labels = tuple(a for a, _ in node.actions)
            if len(labels) >= 3 and node.infoset not in out:
                for j in range(len(labels) - 1):
                    name = node.infoset if j == 0 else chain_infoset(node.infoset, labels[j:])
                    out[name] = (node.infoset, labels, j)
    return out


class ImperfectRecall(InputError):
    """The owner's own choices leading to an information set differ between its nodes."""


def own_reach(game: ExtensiveGame, variables: dict[str, str]) -> dict[str, sp.Expr]:
    """For each two-action information set (named by ``variables``: information set -> variable), the
    probability that its owner's own earlier choices lead to it, as a product of ``y`` and ``1 - y`` factors.

    Raises :class:`ImperfectRecall` when two nodes of a set are reached by different own choices."""
    reach: dict[str, sp.Expr] = {}
    stack: list[tuple[Node, tuple[sp.Expr, ...]]] = [(game.root, (sp.Integer(1),) * len(game.players))]
    while stack:
        node, mine = stack.pop()
        if isinstance(node, Chance):
            stack.extend((child, mine) for _, child in node.outcomes)
        elif isinstance(node, DecisionNode):
            here = mine[node.player]
            known = reach.setdefault(node.infoset, here)
            if sp.expand(known - here) != 0:
                raise ImperfectRecall(f"information set {node.infoset!r} is reached by different own choices "
                                      "of its player (imperfect recall)")
            name = variables.get(node.infoset)
            for k, (_, child) in enumerate(node.actions):
                if len(node.actions) == 1:
                    factor: sp.Expr = sp.Integer(1)
                elif name is None:
                    raise ImperfectRecall(f"information set {node.infoset!r} has no variable")
                else:
                    y = parameter_symbol(name)
                    factor = y if k == 0 else 1 - y
                after = list(mine)
                after[node.player] = here * factor
                stack.append((child, tuple(after)))
    return {variables[s]: r for s, r in reach.items() if s in variables}


@dataclass(frozen=True)
class SequentialGame(PolynomialGame):
    """A :class:`~symgame.model.polygame.PolynomialGame` of a perfect-recall tree whose first-order conditions
    are conditional on reaching each information set: ``derivatives[x]`` is ``dE/dx`` divided by the owner's
    own reach probability ``reach[x]`` (see the module text). Payoffs, and so every certificate, are those of
    the tree."""

    reach: tuple[tuple[str, sp.Expr], ...] = ()
    #: For the variables of chains (information sets of three or more actions): what the variable is the
    #: probability of, in words (``"paper at 'Row', given that 'rock' is not chosen"``).
    meanings: tuple[tuple[str, str], ...] = ()

    @cached_property
    def derivatives(self) -> dict[str, sp.Poly]:
        gens = self.generators
        factors = dict(self.reach)
        out = {}
        for x in self.variables:
            g = sp.Poly(sp.diff(self.players[self.owner(x)].payoff, self.symbol(x)), *gens, domain="QQ")
            r = sp.Poly(factors.get(x, 1), *gens, domain="QQ")
            if not g.is_zero and not r.is_one:
                q, rem = sp.div(g, r)
                if not rem.is_zero:        # pragma: no cover - excluded by perfect recall (own_reach checks it)
                    raise ImperfectRecall(f"dE/d{x} is not a multiple of the own reach probability of {x}")
                g = q
            out[x] = g
        return out
