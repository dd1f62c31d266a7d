"""Two-player zero-sum extensive-form games with exact chance probabilities.

The tree is made of :class:`Chance`, :class:`Decision` and :class:`Terminal`
nodes.  Decision nodes name their information set; all nodes of one
information set must offer the same actions (perfect recall is assumed and
checked when the sequence form is built).  Payoffs are player 0's and are
exact rationals (parametrized payoffs enter with the polynomial compilation
of a later issue).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Iterator, Union

Node = Union["Chance", "Decision", "Terminal"]


@dataclass(frozen=True)
class Terminal:
    """A leaf with player 0's payoff (player 1 receives the negative)."""

    payoff: Fraction


@dataclass(frozen=True)
class Decision:
    """A move of ``player`` (0 or 1) at information set ``infoset``."""

    player: int
    infoset: str
    actions: tuple[tuple[str, Node], ...]


@dataclass(frozen=True)
class Chance:
    """A chance move; probabilities are exact and sum to 1."""

    outcomes: tuple[tuple[Fraction, Node], ...]


@dataclass(frozen=True)
class ExtensiveGame:
    """A two-player zero-sum game tree."""

    name: str
    players: tuple[str, str]
    root: Node
    description: str = ""
    infoset_actions: dict[str, tuple[str, ...]] = field(default_factory=dict, compare=False)

    def decisions(self) -> Iterator[tuple[Decision, Fraction]]:
        """Every decision node with its chance reach probability (depth first)."""
        stack: list[tuple[Node, Fraction]] = [(self.root, Fraction(1))]
        while stack:
            node, chance = stack.pop()
            if isinstance(node, Chance):
                stack.extend((child, chance * p) for p, child in node.outcomes)
            elif isinstance(node, Decision):
                yield node, chance
                stack.extend((child, chance) for _, child in node.actions)
