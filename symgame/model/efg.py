"""Reading and writing Gambit ``.efg`` files (extensive-form games, format version 2).

The writer writes symgame's two-player zero-sum trees; the reader accepts any valid file
(:mod:`symgame.model.gambit`) and gives the sequence form what it takes: two players, constant-sum
payoffs, perfect recall, each refused otherwise in one line that names the file and the problem.
"""
from __future__ import annotations

import re
from pathlib import Path

from . import gambit
from .extensive import Chance, DecisionNode, ExtensiveGame, Node, Terminal

#: The one error of Gambit files (kept under this name for the .efg functions of this module).
EfgError = gambit.GambitError


# ---------------------------------------------------------------------------
# writing
# ---------------------------------------------------------------------------
def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_efg(game: ExtensiveGame) -> str:
    """The game as Gambit .efg text (pre-order nodes, one outcome per leaf)."""
    lines = [f"EFG 2 R {_quote(game.name)} {{ {_quote(game.players[0])} {_quote(game.players[1])} }}",
             _quote(game.description), ""]
    infoset_numbers: dict[tuple[int, str], int] = {}
    counters = {0: 0, 1: 0, 2: 0}
    outcome = 0
    stack: list[Node] = [game.root]
    while stack:
        node = stack.pop()
        if isinstance(node, Terminal):
            outcome += 1
            lines.append(f't "" {outcome} "" {{ {node.payoff + game.offset}, {-node.payoff + game.offset} }}')
            continue
        if isinstance(node, Chance):
            counters[0] += 1
            actions = " ".join(f'"{k + 1}" {p}' for k, (p, _) in enumerate(node.outcomes))
            lines.append(f'c "" {counters[0]} "" {{ {actions} }} 0')
            stack.extend(child for _, child in reversed(node.outcomes))
            continue
        assert isinstance(node, DecisionNode), "the sequence-form writer takes Terminal, Chance and decision nodes"
        key = (node.player + 1, node.infoset)
        if key not in infoset_numbers:
            counters[key[0]] += 1
            infoset_numbers[key] = counters[key[0]]
        actions = " ".join(_quote(label) for label, _ in node.actions)
        lines.append(f'p "" {key[0]} {infoset_numbers[key]} {_quote(node.infoset)} {{ {actions} }} 0')
        stack.extend(child for _, child in reversed(node.actions))
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------
# reading: the general reader of symgame.model.gambit, then the zero-sum tree the sequence form takes
# ---------------------------------------------------------------------------
def read_efg(text: str, source: str = "<efg>") -> ExtensiveGame:
    """Parse Gambit .efg text into a two-player zero-sum :class:`ExtensiveGame` (sequence form, LP).

    Any valid file is read (:func:`symgame.model.gambit.read_efg`); a game with other than two players,
    leaf totals that differ (not constant-sum) or imperfect recall is refused in one line. A
    constant-sum game is solved as the zero-sum game with payoffs shifted by half the total
    (:attr:`ExtensiveGame.offset` holds the shift, so values are reported in the file's units).
    """
    return zero_sum_tree(gambit.read_efg(text, source), source)


def zero_sum_tree(tree: gambit.GambitTree, source: str) -> ExtensiveGame:
    """The two-player constant-sum, perfect-recall ``tree`` as a tree of :class:`Terminal` leaves."""
    if len(tree.players) != 2:
        raise EfgError(f"{source}: the sequence-form solver takes two-player games; this one has "
                       f"{len(tree.players)} players")
    total = tree.constant_sum()
    if total is None:
        raise EfgError(f"{source}: the sequence-form solver takes zero-sum (or constant-sum) games; the payoff "
                       "totals of the leaves differ")
    bad = tree.imperfect_recall()
    if bad is not None:
        player, info = bad
        named = f" {info.name!r}" if info.name else ""
        raise EfgError(f"{source}: imperfect recall at information set {info.number}{named} of player {player} "
                       "(its nodes follow different own earlier moves); the sequence form needs perfect recall")
    keys = gambit.infoset_keys(tree)
    shift = total / 2
    payoff = {leaf.node: leaf.payoffs[0] - shift for leaf in tree.leaves()}
    built: dict[int, Node] = {}
    for index in reversed(range(len(tree.nodes))):        # children come after their parent in pre-order
        node = tree.nodes[index]
        if node.kind == "t":
            built[index] = Terminal(payoff[index])
            continue
        info = tree.infosets[(node.player, node.infoset)]
        children = [built.pop(c) for c in node.children]
        if node.kind == "c":
            built[index] = Chance(tuple(zip(info.probs, children)))
        else:
            built[index] = DecisionNode(node.player - 1, keys[(node.player, node.infoset)],
                                        tuple(zip(info.actions, children)))
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", tree.title).strip("_") or "efg_game"
    return ExtensiveGame(name, (tree.players[0], tree.players[1]), built[0], tree.comment, offset=shift,
                         decimal_chance=tree.decimal_chance)


def load_efg(path: str | Path, strict: bool = False) -> ExtensiveGame:
    """Read a .efg file into a two-player zero-sum tree (see :func:`read_efg`; ``strict`` as in
    :func:`symgame.model.gambit.read_efg`)."""
    tree = gambit.load_efg(path, strict)
    return zero_sum_tree(tree, str(path))
