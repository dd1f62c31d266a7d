"""The sequence form of a two-player zero-sum game tree (Koller, Megiddo, von Stengel).

A sequence of player ``p`` is an information set of ``p`` with one of its
actions (plus the empty sequence, index 0).  The payoff ``A[s0, s1]`` sums
chance probability times player 0's payoff over the leaves reached by the
two sequences.  A realization plan ``x`` satisfies ``x[0] = 1`` and, for every
information set ``I``, ``sum_a x[(I, a)] = x[parent(I)]``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Mapping

from flint import fmpq

from .expr import to_fmpq, to_fraction
from .extensive import Chance, DecisionNode, ExtensiveGame, Terminal


@dataclass
class PlayerSequences:
    """Sequences and information sets of one player, parents before children."""

    sequences: list[tuple[str, str]] = field(default_factory=lambda: [("", "")])
    index: dict[tuple[str, str], int] = field(default_factory=dict)
    infosets: list[str] = field(default_factory=list)
    parent: dict[str, int] = field(default_factory=dict)
    actions: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def children(self, infoset: str) -> list[int]:
        return [self.index[(infoset, a)] for a in self.actions[infoset]]

    def register(self, node: DecisionNode, parent_sequence: int) -> None:
        name = node.infoset
        labels = tuple(a for a, _ in node.actions)
        if name in self.parent:
            if self.parent[name] != parent_sequence or self.actions[name] != labels:
                raise ValueError(f"information set {name!r} violates perfect recall or has varying actions")
            return
        self.infosets.append(name)
        self.parent[name] = parent_sequence
        self.actions[name] = labels
        for label in labels:
            self.index[(name, label)] = len(self.sequences)
            self.sequences.append((name, label))


@dataclass
class SequenceForm:
    """Sequence-form data of a game: both players' sequences and the sparse payoff."""

    game_name: str
    players: tuple[PlayerSequences, PlayerSequences]
    payoff: dict[tuple[int, int], Fraction]
    _entries: list | None = field(default=None, repr=False, compare=False)

    @property
    def sizes(self) -> tuple[int, int]:
        return len(self.players[0].sequences), len(self.players[1].sequences)

    def payoff_entries(self) -> list[tuple[int, int, fmpq]]:
        """``(s0, s1, payoff)`` triples with python-flint rationals (cached)."""
        if self._entries is None:
            self._entries = [(s0, s1, to_fmpq(u)) for (s0, s1), u in self.payoff.items()]
        return self._entries


def build_sequence_form(game: ExtensiveGame) -> SequenceForm:
    """Walk the tree once and collect sequences, information sets and payoffs."""
    players = (PlayerSequences(), PlayerSequences())
    raw: dict[tuple[int, int], fmpq] = {}
    leaf_values: dict[int, fmpq] = {}
    stack = [(game.root, fmpq(1), 0, 0)]
    while stack:
        node, chance, s0, s1 = stack.pop()
        if isinstance(node, Terminal):
            if node.payoff:
                value = leaf_values.get(id(node))
                if value is None:
                    value = leaf_values[id(node)] = to_fmpq(node.payoff)
                key = (s0, s1)
                raw[key] = raw[key] + chance * value if key in raw else chance * value
        elif isinstance(node, Chance):
            for p, child in node.outcomes:
                stack.append((child, chance * to_fmpq(p), s0, s1))
        elif isinstance(node, DecisionNode):
            own = players[node.player]
            own.register(node, s0 if node.player == 0 else s1)
            for label, child in reversed(node.actions):
                seq = own.index[(node.infoset, label)]
                stack.append((child, chance, seq, s1) if node.player == 0 else (child, chance, s0, seq))
        else:  # pragma: no cover - defensive
            raise TypeError(f"unknown node {node!r}")
    _order_by_parents(players)
    payoff = {key: to_fraction(v) for key, v in raw.items() if v != 0}
    return SequenceForm(game.name, players, payoff)


def _order_by_parents(players: tuple[PlayerSequences, PlayerSequences]) -> None:
    """Depth-first discovery already lists parents first; check it."""
    for own in players:
        seen = {0}
        for infoset in own.infosets:
            if own.parent[infoset] not in seen:
                raise ValueError(f"information set {infoset!r} reached before its parent sequence")
            seen.update(own.children(infoset))


def realization_plan(own: PlayerSequences, behaviour: Mapping[str, Mapping[str, Fraction]]) -> list[Fraction]:
    """The realization plan of a behaviour strategy (probabilities per infoset)."""
    plan = [Fraction(0)] * len(own.sequences)
    plan[0] = Fraction(1)
    for infoset in own.infosets:
        reach = plan[own.parent[infoset]]
        for action in own.actions[infoset]:
            plan[own.index[(infoset, action)]] = reach * Fraction(behaviour[infoset][action])
    return plan
