"""Extensive-form games with exact chance probabilities.

The tree is made of :class:`Chance`, :class:`DecisionNode` and leaves.  DecisionNode
nodes name their information set; all nodes of one information set must
offer the same actions.  Two kinds of leaves:

* :class:`Terminal` — player 0's exact payoff in a two-player zero-sum game
  (the sequence form, the LP and Gambit ``.efg`` files use these);
* :class:`Outcome` — one payoff per player, any number of players, payoffs
  and chance probabilities may be expressions in parameters such as a pot
  ``P`` (compiled to polynomials in behaviour probabilities by
  :mod:`symgame.model.behaviour_poly`).

Perfect recall is assumed and checked when the sequence form is built; the
polynomial compilation does not need it (an information set may merge
histories, as Billingham's frequencies do).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Union

Node = Union["Chance", "DecisionNode", "Terminal", "Outcome"]


@dataclass(frozen=True)
class Terminal:
    """A leaf with player 0's payoff (player 1 receives the negative)."""

    payoff: Fraction


@dataclass(frozen=True)
class Outcome:
    """A leaf with one payoff per player (exact numbers or sympy expressions in parameters)."""

    payoffs: tuple


@dataclass(frozen=True)
class DecisionNode:
    """A move of ``player`` (0, 1, ...) at information set ``infoset``."""

    player: int
    infoset: str
    actions: tuple[tuple[str, Node], ...]


@dataclass(frozen=True)
class Chance:
    """A chance move; probabilities are exact (or expressions) and sum to 1."""

    outcomes: tuple[tuple[Fraction, Node], ...]


@dataclass(frozen=True)
class ExtensiveGame:
    """A game tree (two-player zero-sum when its leaves are :class:`Terminal`)."""

    name: str
    players: tuple[str, ...]
    root: Node
    description: str = ""
    #: Added to player 0's :class:`Terminal` payoffs to get the game's own units (a constant-sum game read
    #: from a file is solved as the zero-sum game shifted by half its total).
    offset: Fraction = Fraction(0)
    #: Chance information sets whose floating-point decimals were read as fractions (see
    #: :func:`symgame.model.gambit.read_efg`); 0 for a tree built in Python or read as written.
    decimal_chance: int = 0


def payoff_total(game: ExtensiveGame):
    """The common total of the players' payoffs at every leaf (an exact number or an expression in the
    parameters), or ``None`` when the totals differ (a general-sum tree). Iterative: no recursion limit."""
    import sympy as sp

    total = None
    stack: list = [game.root]
    while stack:
        node = stack.pop()
        if isinstance(node, Terminal):
            here = sp.Integer(0)
        elif isinstance(node, Outcome):
            here = sp.cancel(sum((sp.Rational(v.numerator, v.denominator) if isinstance(v, Fraction) else v
                                 for v in node.payoffs), sp.Integer(0)))
        elif isinstance(node, Chance):
            stack.extend(child for _, child in node.outcomes)
            continue
        else:
            stack.extend(child for _, child in node.actions)
            continue
        if total is None:
            total = here
        elif sp.cancel(here - total) != 0:
            return None
    return total
