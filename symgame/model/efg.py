"""Reading and writing Gambit ``.efg`` files (extensive-form games, format version 2).

Only what symgame's trees hold is supported: two players, exact chance
probabilities and zero-sum payoffs.  The reader is a small tokenizer and a
pre-order node parser; nothing in the file is evaluated.  Errors name the
file, the line and the problem.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from ..errors import InputError
from .extensive import Chance, DecisionNode, ExtensiveGame, Node, Terminal

_TOKEN = re.compile(r'\s*(?:"((?:[^"\\]|\\.)*)"|([{},])|([-+]?\d+(?:/\d+|\.\d+)?(?:[eE][-+]?\d+)?)|([A-Za-z]+))')
MAX_EFG_BYTES = 20_000_000
MAX_DEPTH = 500


class EfgError(InputError):
    """A .efg file symgame cannot read; the message names file, line and problem."""


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
            lines.append(f't "" {outcome} "" {{ {node.payoff}, {-node.payoff} }}')
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
# reading
# ---------------------------------------------------------------------------
@dataclass
class _Token:
    kind: str  # "str", "punct", "num", "word"
    text: str
    line: int


def _tokenize(text: str, source: str) -> list[_Token]:
    tokens: list[_Token] = []
    pos, line = 0, 1
    while pos < len(text):
        if text[pos].isspace():
            line += text[pos] == "\n"
            pos += 1
            continue
        match = _TOKEN.match(text, pos)
        if match is None:
            raise EfgError(f"{source}: line {line}: unexpected character {text[pos]!r}")
        kind = ("str", "punct", "num", "word")[[g is not None for g in match.groups()].index(True)]
        value = next(g for g in match.groups() if g is not None)
        if kind == "str":                       # Gambit escapes quotes and backslashes inside strings
            value = re.sub(r"\\(.)", r"\1", value)
        tokens.append(_Token(kind, value, line))
        line += match.group(0).count("\n")
        pos = match.end()
    return tokens


class _Reader:
    def __init__(self, tokens: list[_Token], source: str):
        self.tokens, self.pos, self.source = tokens, 0, source
        self.infosets: dict[str, tuple[int, int]] = {}

    def fail(self, problem: str) -> EfgError:
        line = self.tokens[min(self.pos, len(self.tokens) - 1)].line if self.tokens else 1
        return EfgError(f"{self.source}: line {line}: {problem}")

    def take(self, kind: str | None = None, text: str | None = None) -> _Token:
        if self.pos >= len(self.tokens):
            raise self.fail("unexpected end of file")
        tok = self.tokens[self.pos]
        if (kind and tok.kind != kind) or (text and tok.text != text):
            raise self.fail(f"expected {text or kind}, found {tok.text!r}")
        self.pos += 1
        return tok

    def number(self) -> Fraction:
        tok = self.take("num")
        try:
            return Fraction(tok.text)
        except (ValueError, ZeroDivisionError):
            raise self.fail(f"bad number {tok.text!r}") from None

    def strings_in_braces(self, with_numbers: bool) -> list[tuple[str, Fraction | None]]:
        self.take("punct", "{")
        items = []
        while self.tokens[self.pos].text != "}" if self.pos < len(self.tokens) else False:
            label = self.take("str").text
            items.append((label, self.number() if with_numbers else None))
        self.take("punct", "}")
        return items

    def payoffs(self) -> list[Fraction]:
        self.take("punct", "{")
        values = []
        while self.pos < len(self.tokens) and self.tokens[self.pos].text != "}":
            if self.tokens[self.pos].text == ",":
                self.pos += 1
                continue
            values.append(self.number())
        self.take("punct", "}")
        return values


def read_efg(text: str, source: str = "<efg>") -> ExtensiveGame:
    """Parse Gambit .efg text into a two-player zero-sum :class:`ExtensiveGame`."""
    if len(text) > MAX_EFG_BYTES:
        raise EfgError(f"{source}: file larger than {MAX_EFG_BYTES} bytes")
    reader = _Reader(_tokenize(text, source), source)
    reader.take("word", "EFG")
    if reader.take("num").text != "2":
        raise reader.fail("only .efg format version 2 is supported")
    if reader.take("word").text not in ("R", "D"):
        raise reader.fail("expected R or D after the version")
    title = reader.take("str").text
    players = [label for label, _ in reader.strings_in_braces(False)]
    if len(players) != 2:
        raise reader.fail(f"symgame reads two-player games; this one has {len(players)} players")
    description = reader.take("str").text if reader.pos < len(reader.tokens) and reader.tokens[reader.pos].kind == "str" else ""
    outcomes: dict[int, list[Fraction]] = {}
    root = _read_node(reader, outcomes, 0)
    if reader.pos != len(reader.tokens):
        raise reader.fail("extra nodes after the end of the tree")
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", title).strip("_") or "efg_game"
    return ExtensiveGame(name, (players[0], players[1]), root, description)


def _read_node(reader: _Reader, outcomes: dict[int, list[Fraction]], depth: int) -> Node:
    if depth > MAX_DEPTH:
        raise reader.fail(f"tree deeper than {MAX_DEPTH}")
    kind = reader.take("word").text
    reader.take("str")  # node name
    if kind == "t":
        return Terminal(_outcome(reader, outcomes, required=True))
    if kind == "c":
        reader.number()  # information set number
        if reader.tokens[reader.pos].kind == "str":
            reader.take("str")
        actions = [(label, p) for label, p in reader.strings_in_braces(True) if p is not None]
        if any(p < 0 for _, p in actions) or sum(p for _, p in actions) != 1:
            raise reader.fail("chance probabilities must be non-negative and sum to 1 exactly")
        if _outcome(reader, outcomes, required=False):
            raise reader.fail("payoffs at chance nodes are not supported")
        return Chance(tuple((p, _read_node(reader, outcomes, depth + 1)) for _, p in actions))
    if kind == "p":
        player = int(reader.number())
        if player not in (1, 2):
            raise reader.fail(f"player number {player} is not 1 or 2")
        infoset = int(reader.number())
        label = reader.take("str").text if reader.tokens[reader.pos].kind == "str" else ""
        names = [name for name, _ in reader.strings_in_braces(False)]
        if not names:
            raise reader.fail("a decision node needs at least one action")
        if _outcome(reader, outcomes, required=False):
            raise reader.fail("payoffs at decision nodes are not supported")
        key = label or f"P{player}:{infoset}"
        if reader.infosets.setdefault(key, (player, infoset)) != (player, infoset):
            raise reader.fail(f"information set name {key!r} used for two different information sets")
        children = tuple((name, _read_node(reader, outcomes, depth + 1)) for name in names)
        return DecisionNode(player - 1, key, children)
    raise reader.fail(f"unknown node type {kind!r} (expected c, p or t)")


def _outcome(reader: _Reader, outcomes: dict[int, list[Fraction]], required: bool) -> Fraction:
    number = int(reader.number())
    if reader.pos < len(reader.tokens) and reader.tokens[reader.pos].kind == "str":
        reader.take("str")
    if reader.pos < len(reader.tokens) and reader.tokens[reader.pos].text == "{":
        values = reader.payoffs()
        if len(values) != 2:
            raise reader.fail("an outcome needs one payoff per player")
        if values[0] + values[1] != 0:
            raise reader.fail("symgame reads zero-sum games only (payoffs must sum to 0)")
        outcomes[number] = values
    if number == 0:
        if required:
            raise reader.fail("a terminal node needs an outcome")
        return Fraction(0)
    if number not in outcomes:
        raise reader.fail(f"outcome {number} used before its payoffs are given")
    return outcomes[number][0]


def load_efg(path: str | Path) -> ExtensiveGame:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise EfgError(f"{path}: cannot read file ({exc})") from None
    return read_efg(text, str(path))
