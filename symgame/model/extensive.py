"""Two-player zero-sum extensive-form games with exact chance probabilities.

The tree is made of :class:`Chance`, :class:`Decision` and :class:`Terminal`
nodes.  Decision nodes name their information set; all nodes of one
information set must offer the same actions (perfect recall is assumed and
checked when the sequence form is built).  Payoffs are player 0's and are
exact rationals (parametrized payoffs enter with the polynomial compilation
of a later issue).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Union

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
