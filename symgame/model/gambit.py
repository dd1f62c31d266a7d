"""Gambit's file formats, complete: ``.nfg`` (strategic games, payoff and outcome versions) and ``.efg``
(game trees, format version 2), read and written exactly.

The formats are those of the Gambit project (McKelvey, McLennan and Turocy, "Gambit: Software Tools
for Game Theory", gambit-project.org; the file-format chapter of its manual). Everything a real file
may contain is accepted: numbers written ``.80``, ``1e-3`` or ``2/3`` (all read exactly), payoffs
separated by commas or spaces, outcomes at inner and chance nodes (a player receives the payoffs of
every outcome on the path), information sets referred to again without their name and actions
(``p "" 1 1 0``), leaves with no outcome (``t "" 0``), per-player information-set numbers, chance
probabilities that are decimals, any number of players.

The reader is a tokenizer and an iterative pre-order parser (no recursion, so no depth limit to hit),
with bounded sizes; nothing in a file is evaluated. Every problem is one :class:`GambitError` line
naming the file, the line and the problem.

Examples
--------
>>> game = read_nfg('NFG 1 R "pennies" { "1" "2" } { 2 2 } 1 -1 -1 1 -1 1 1 -1')
>>> game.strategies, game.payoff((1, 0))
((('1', '2'), ('1', '2')), (Fraction(-1, 1), Fraction(1, 1)))
>>> print(write_nfg(game), end="")
NFG 1 R "pennies" { "1" "2" }
{ { "1" "2" } { "1" "2" } }
""
<BLANKLINE>
1 -1 -1 1 -1 1 1 -1
>>> tree = read_efg('EFG 2 R "t" { "A" "B" } "" p "" 1 1 "x" { "l" "r" } 0 t "" 1 "o" { 1 -1 } t "" 0')
>>> [leaf.payoffs for leaf in tree.leaves()]
[(Fraction(1, 1), Fraction(-1, 1)), (Fraction(0, 1), Fraction(0, 1))]
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product
from math import prod
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

from ..errors import InputError, LimitError

MAX_BYTES = 50_000_000
MAX_NODES = 2_000_000
MAX_PLAYERS = 64
MAX_PROFILES = 5_000_000
MAX_NUMBER_CHARS = 400
MAX_EXPONENT = 1000          # |e| in 1.5e-3: beyond it a number is refused (10**999999 would take minutes)
MAX_DEPTH = 10_000           # nested moves; deeper trees are refused (reach probabilities of 2**-depth)
_TOKEN = re.compile(r'"((?:[^"\\]|\\.)*)"|([{},])|([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?(?:/\d+)?)|([A-Za-z]+)')


class GambitError(InputError):
    """A Gambit file that cannot be read (or a game that cannot be written); one line for the user."""


class GambitLimitError(GambitError, LimitError):
    """A Gambit game beyond a documented size (for instance a strategic form with too many pure profiles)."""


# --------------------------------------------------------------------------- tokens

@dataclass(frozen=True)
class _Token:
    kind: str       # "str", "punct", "num", "word"
    text: str
    line: int


def _tokenize(text: str, source: str) -> Iterator[_Token]:
    """The tokens of ``text``, made as the reader asks for them (a file refused by its header is not scanned
    to its end)."""
    if len(text) > MAX_BYTES:
        raise GambitError(f"{source}: file larger than {MAX_BYTES} bytes")
    pos, line, end = 0, 1, len(text)
    while pos < end:
        ch = text[pos]
        if ch.isspace():
            line += ch == "\n"
            pos += 1
            continue
        match = _TOKEN.match(text, pos)
        if match is None:
            snippet = text[pos:pos + 12].split("\n")[0]
            raise GambitError(f"{source}: line {line}: unexpected text {snippet!r}")
        groups = match.groups()
        kind = ("str", "punct", "num", "word")[next(k for k, g in enumerate(groups) if g is not None)]
        value = next(g for g in groups if g is not None)
        if kind == "str":
            value = re.sub(r"\\(.)", r"\1", value)
        elif kind == "num" and len(value) > MAX_NUMBER_CHARS:
            raise GambitError(f"{source}: line {line}: number longer than {MAX_NUMBER_CHARS} characters")
        yield _Token(kind, value, line)
        line += match.group(0).count("\n")
        pos = match.end()


class _Reader:
    def __init__(self, tokens: Iterable[_Token], source: str):
        self._stream = iter(tokens)
        self.tokens: list[_Token] = []
        self.pos, self.source = 0, source
        self.strict = False

    def _fill(self) -> None:
        while len(self.tokens) <= self.pos:
            token = next(self._stream, None)
            if token is None:
                return
            self.tokens.append(token)

    def fail(self, problem: str, token: _Token | None = None) -> GambitError:
        self._fill()
        if token is None and self.tokens:
            token = self.tokens[min(self.pos, len(self.tokens) - 1)]
        return GambitError(f"{self.source}: line {token.line if token else 1}: {problem}")

    def peek(self) -> _Token | None:
        self._fill()
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def at(self, kind: str, text: str | None = None) -> bool:
        tok = self.peek()
        return tok is not None and tok.kind == kind and (text is None or tok.text == text)

    def take(self, kind: str, text: str | None = None, what: str | None = None) -> _Token:
        tok = self.peek()
        if tok is None:
            raise self.fail(f"unexpected end of file (expected {what or text or kind})")
        if tok.kind != kind or (text is not None and tok.text != text):
            raise self.fail(f"expected {what or text or kind}, found {tok.text!r}")
        self.pos += 1
        return tok

    def number(self, what: str = "a number") -> Fraction:
        tok = self.take("num", what=what)
        exponent = re.search(r"[eE]([-+]?\d+)$", tok.text)
        if exponent and abs(int(exponent.group(1))) > MAX_EXPONENT:
            raise self.fail(f"number {tok.text!r} out of range (exponents up to {MAX_EXPONENT} in size)", tok)
        try:
            return Fraction(tok.text)
        except (ValueError, ZeroDivisionError):
            raise self.fail(f"bad number {tok.text!r}", tok) from None

    def integer(self, what: str) -> int:
        tok = self.take("num", what=what)
        if not re.fullmatch(r"\+?\d+", tok.text):
            raise self.fail(f"{what} must be a non-negative integer, found {tok.text!r}", tok)
        return int(tok.text)

    def strings(self, what: str = "name") -> list[str]:
        self.take("punct", "{")
        out = []
        while not self.at("punct", "}"):
            out.append(self.label(self.take("str", what="a quoted name or '}'"), what))
        self.take("punct", "}")
        return out

    def label(self, token: _Token, what: str) -> str:
        """The text of a quoted name that reaches the outputs (player, strategy, action, information set),
        refused at its line when :func:`symgame.model.store.check_label` refuses it."""
        from ..errors import InputError
        from .store import check_label

        try:
            return check_label(token.text, what)
        except InputError as exc:
            raise self.fail(str(exc), token) from None

    def numbers(self) -> list[Fraction]:
        """``{ a, b c }``: numbers separated by commas and/or spaces."""
        self.take("punct", "{")
        out = []
        while not self.at("punct", "}"):
            if self.at("punct", ","):
                self.pos += 1
                continue
            out.append(self.number("a payoff or '}'"))
        self.take("punct", "}")
        return out

    def optional_string(self) -> str:
        return self.take("str").text if self.at("str") else ""


def _header(text: str, source: str, word: str, version: str) -> tuple[_Reader, str, tuple[str, ...]]:
    """The common start of both formats: ``NFG 1 R "title" { players }`` or ``EFG 2 R ...``."""
    reader = _Reader(_tokenize(text, source), source)
    reader.take("word", word, what=f"'{word}' at the start of the file")
    found = reader.take("num", what="the format version").text
    if found != version:
        raise reader.fail(f"unknown .{word.lower()} format version {found} (expected {version})")
    if reader.take("word", what="R or D").text not in ("R", "D"):
        raise reader.fail("expected R or D after the version")
    title = reader.take("str", what="the game's title").text
    players = tuple(reader.strings("player name"))
    if not 1 <= len(players) <= MAX_PLAYERS:
        raise reader.fail(f"a game needs 1 to {MAX_PLAYERS} players, this one lists {len(players)}")
    return reader, title, players


def _read_text(path: str | Path) -> tuple[str, str]:
    from .store import read_capped

    path = Path(path)
    try:
        raw = read_capped(path, MAX_BYTES)
    except OSError as exc:
        raise GambitError(f"{path}: cannot read file ({exc.strerror or exc})") from None
    if raw is None:
        raise GambitError(f"{path}: file larger than {MAX_BYTES} bytes")
    return raw.decode("utf-8", errors="replace"), str(path)


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _num(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


# --------------------------------------------------------------------------- strategic games (.nfg)

@dataclass(frozen=True)
class StrategicGame:
    """A finite game in strategic form with exact payoffs (any number of players).

    ``payoffs`` lists, for every pure profile in Gambit's order (the first player's strategy changes
    fastest), one payoff per player.
    """

    title: str
    players: tuple[str, ...]
    strategies: tuple[tuple[str, ...], ...]
    payoffs: tuple[tuple[Fraction, ...], ...]
    comment: str = ""

    def __post_init__(self) -> None:
        from .store import check_label

        for name, names in zip(self.players, self.strategies):
            check_label(name, "player name")
            for strategy in names:
                check_label(strategy, f"strategy of {name}")

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(len(s) for s in self.strategies)

    def index(self, profile: tuple[int, ...]) -> int:
        """Position of a pure profile in :attr:`payoffs` (first player fastest)."""
        k, stride = 0, 1
        for choice, size in zip(profile, self.shape):
            k += choice * stride
            stride *= size
        return k

    def payoff(self, profile: tuple[int, ...]) -> tuple[Fraction, ...]:
        return self.payoffs[self.index(profile)]

    def profiles(self):
        """Pure profiles in Gambit's order."""
        for reversed_profile in product(*(range(n) for n in reversed(self.shape))):
            yield tuple(reversed(reversed_profile))

    def constant_sum(self) -> Fraction | None:
        """The common total of the payoffs if every profile has the same one, else ``None``."""
        totals = {sum(p, Fraction(0)) for p in self.payoffs}
        return totals.pop() if len(totals) == 1 else None


def read_nfg(text: str, source: str = "<nfg>",
             check_shape: Callable[[tuple[int, ...]], str | None] | None = None) -> StrategicGame:
    """Parse ``.nfg`` text (payoff or outcome version).

    ``check_shape``, given the number of strategies of each player as soon as the header is read, returns why
    the caller cannot take such a game (raised as a :class:`GambitError` before the payoffs are read), or
    ``None``.
    """
    reader, title, players = _header(text, source, "NFG", "1")
    reader.take("punct", "{", what="the strategies: '{ { \"a\" \"b\" } ... }' or '{ 2 2 }'")
    strategies: list[tuple[str, ...]] = []
    while not reader.at("punct", "}"):
        if reader.at("punct", "{"):
            names = reader.strings("strategy")
            if not names:
                raise reader.fail(f"player {len(strategies) + 1} has no strategies")
            strategies.append(tuple(names))
        else:
            count = reader.integer("a number of strategies")
            if count < 1:
                raise reader.fail(f"player {len(strategies) + 1} has no strategies")
            strategies.append(tuple(str(k + 1) for k in range(count)))
    reader.take("punct", "}")
    if len(strategies) != len(players):
        raise reader.fail(f"{len(players)} players but strategies for {len(strategies)}")
    profiles = prod(len(s) for s in strategies)
    if profiles > MAX_PROFILES:
        raise reader.fail(f"{profiles} pure profiles (more than {MAX_PROFILES})")
    problem = check_shape(tuple(len(s) for s in strategies)) if check_shape is not None else None
    if problem:
        raise reader.fail(problem)
    comment = reader.optional_string()
    n = len(players)
    if reader.at("punct", "{"):                                   # outcome version
        reader.take("punct", "{")
        outcomes: list[tuple[Fraction, ...]] = []
        while not reader.at("punct", "}"):
            reader.take("punct", "{", what="an outcome '{ \"name\" payoffs }'")
            reader.optional_string()
            values = []
            while not reader.at("punct", "}"):
                if reader.at("punct", ","):
                    reader.pos += 1
                    continue
                values.append(reader.number("a payoff or '}'"))
            reader.take("punct", "}")
            if len(values) != n:
                raise reader.fail(f"outcome {len(outcomes) + 1} has {len(values)} payoffs for {n} players")
            outcomes.append(tuple(values))
        reader.take("punct", "}")
        payoffs = []
        zero = tuple(Fraction(0) for _ in range(n))
        for k in range(profiles):
            number = reader.integer(f"the outcome of profile {k + 1} of {profiles}")
            if number > len(outcomes):
                raise reader.fail(f"outcome {number} does not exist (the file defines {len(outcomes)})")
            payoffs.append(outcomes[number - 1] if number else zero)
    else:                                                         # payoff version
        flat = []
        for k in range(profiles * n):
            flat.append(reader.number(f"payoff {k + 1} of {profiles * n}"))
        payoffs = [tuple(flat[k * n:(k + 1) * n]) for k in range(profiles)]
    if reader.peek() is not None:
        raise reader.fail(f"unexpected {reader.peek().text!r} after the payoffs")   # type: ignore[union-attr]
    try:
        return StrategicGame(title, players, tuple(strategies), tuple(payoffs), comment)
    except InputError as exc:
        raise GambitError(f"{reader.source}: {exc}") from None


def write_nfg(game: StrategicGame) -> str:
    """``.nfg`` text, payoff version; reading it back gives an equal game."""
    players = " ".join(_quote(p) for p in game.players)
    strategies = " ".join("{ " + " ".join(_quote(s) for s in names) + " }" for names in game.strategies)
    values = " ".join(_num(v) for payoff in game.payoffs for v in payoff)
    return (f"NFG 1 R {_quote(game.title)} {{ {players} }}\n{{ {strategies} }}\n{_quote(game.comment)}\n\n"
            f"{values}\n")


def load_nfg(path: str | Path,
             check_shape: Callable[[tuple[int, ...]], str | None] | None = None) -> StrategicGame:
    """Read a ``.nfg`` file (``check_shape`` as in :func:`read_nfg`)."""
    text, source = _read_text(path)
    return read_nfg(text, source, check_shape)


# --------------------------------------------------------------------------- game trees (.efg)

@dataclass
class TreeNode:
    """One node of a Gambit tree: ``kind`` is ``"c"`` (chance), ``"p"`` (a player's move) or ``"t"`` (leaf).

    ``player`` is 0 for chance and 1..n for players; ``outcome`` is the payoff vector received on
    reaching the node (``None``: no outcome); ``children`` are node indices, one per action.
    """

    kind: str
    label: str
    player: int = 0
    infoset: int = 0
    outcome: int = 0
    children: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class Infoset:
    """An information set: its player (0 = chance), number, name, actions and chance probabilities."""

    player: int
    number: int
    name: str
    actions: tuple[str, ...]
    probs: tuple[Fraction, ...] = ()


@dataclass(frozen=True)
class Leaf:
    """A leaf with the path from the root (``(player, infoset number, action index)`` moves, chance included),
    its probability under chance, and the payoffs accumulated along the path."""

    node: int
    path: tuple[tuple[int, int, int], ...]
    chance: Fraction
    payoffs: tuple[Fraction, ...]


@dataclass
class GambitTree:
    """A Gambit game tree with exact payoffs and chance probabilities (any number of players)."""

    title: str
    players: tuple[str, ...]
    nodes: list[TreeNode]
    infosets: dict[tuple[int, int], Infoset]
    outcomes: dict[int, tuple[str, tuple[Fraction, ...]]]
    comment: str = ""
    #: Chance information sets whose probabilities were written as floating-point decimals that do not sum to
    #: 1 (OpenSpiel's exporter writes 1/3 as 0.3333333333333333) and were read as the simplest fractions the
    #: floats stand for (:func:`float_fraction`); 0 when every probability was read as written.
    decimal_chance: int = 0

    def leaves(self) -> list[Leaf]:
        """Every leaf in pre-order with its path, chance probability and accumulated payoffs (iterative)."""
        n = len(self.players)
        zero = tuple(Fraction(0) for _ in range(n))
        out = []
        stack: list[tuple[int, tuple, Fraction, tuple[Fraction, ...]]] = [(0, (), Fraction(1), zero)]
        while stack:
            index, path, chance, acc = stack.pop()
            node = self.nodes[index]
            if node.outcome:
                acc = tuple(a + b for a, b in zip(acc, self.outcomes[node.outcome][1]))
            if node.kind == "t":
                out.append(Leaf(index, path, chance, acc))
                continue
            info = self.infosets[(node.player, node.infoset)]
            for k in reversed(range(len(node.children))):
                p = chance * info.probs[k] if node.kind == "c" else chance
                stack.append((node.children[k], path + ((node.player, node.infoset, k),), p, acc))
        return out

    def constant_sum(self) -> Fraction | None:
        """The common payoff total of every leaf (outcomes along the path summed), else ``None``."""
        totals = {sum(leaf.payoffs, Fraction(0)) for leaf in self.leaves()}
        return totals.pop() if len(totals) == 1 else None

    def imperfect_recall(self) -> tuple[int, Infoset] | None:
        """The first information set (in pre-order) whose nodes are reached by different sequences of its
        player's own earlier moves, with that player; ``None`` when the game has perfect recall."""
        seen: dict[tuple[int, int], tuple] = {}
        for key, mine in _own_moves(self):
            if seen.setdefault(key, mine) != mine:
                return key[0], self.infosets[key]
        return None


def _own_moves(tree: GambitTree):
    """``((player, infoset), the player's own earlier moves)`` for every decision node, in pre-order."""
    stack: list[tuple[int, tuple]] = [(0, ())]
    while stack:
        index, path = stack.pop()
        node = tree.nodes[index]
        if node.kind == "p":
            yield (node.player, node.infoset), tuple(m for m in path if m[0] == node.player)
        for k in reversed(range(len(node.children))):
            stack.append((node.children[k], path + ((node.player, node.infoset, k),)))


#: How many units in the last place of a double a decimal probability may be off the fraction it stands for.
ULPS = 4


def float_fraction(text: str) -> Fraction:
    """The simplest fraction (least denominator) that rounds to the same double as the decimal ``text``.

    Exporters that write probabilities with ``repr(float)`` turn 1/3 into ``0.3333333333333333``; the
    fraction meant is the simplest one within :data:`ULPS` units in the last place of that double on each side
    (a float computed as ``1 - 0.3`` is one unit off 7/10), found by the continued-fraction (Stern-Brocot)
    descent. The caller checks that the fractions of a chance node sum to exactly 1.

    Parameters
    ----------
    text : str
        A decimal as written in the file.

    Returns
    -------
    Fraction

    Examples
    --------
    >>> float_fraction("0.3333333333333333"), float_fraction("0.1"), float_fraction("0.7000000000000001")
    (Fraction(1, 3), Fraction(1, 10), Fraction(7, 10))
    >>> float_fraction("0.019230769230769232")
    Fraction(1, 52)
    """
    import math

    value = float(text)
    if not math.isfinite(value) or value == 0:
        return Fraction(value) if math.isfinite(value) else Fraction(text)
    width = Fraction(math.ulp(value)) * ULPS
    centre = Fraction(value)
    return _simplest_between(max(Fraction(0), centre - width), centre + width)


def _simplest_between(lo: Fraction, hi: Fraction) -> Fraction:
    """The fraction of least denominator in the closed interval ``[lo, hi]`` (``0 <= lo <= hi``): an integer if
    one lies inside, else ``floor + 1/y`` with ``y`` the simplest in the reciprocal interval (iterative)."""
    terms: list[int] = []
    while True:
        ceil = -((-lo.numerator) // lo.denominator)
        if ceil <= hi:
            value = Fraction(ceil)
            break
        floor = ceil - 1
        terms.append(floor)
        lo, hi = 1 / (hi - floor), 1 / (lo - floor)
    for floor in reversed(terms):
        value = floor + 1 / value
    return value


def read_efg(text: str, source: str = "<efg>", strict: bool = False) -> GambitTree:
    """Parse ``.efg`` text (format version 2).

    Chance probabilities must be non-negative and sum to 1 exactly. Unless ``strict``, probabilities written
    as floating-point decimals that miss 1 by rounding are read as the fractions the floats stand for
    (:func:`float_fraction`), when those sum to exactly 1; :attr:`GambitTree.decimal_chance` counts the
    information sets read so.
    """
    reader, title, players = _header(text, source, "EFG", "2")
    comment = reader.optional_string()
    tree = GambitTree(title, players, [], {}, {}, comment)
    reader.strict = strict
    # pre-order: a stack of (parent index) with the number of children still to read
    pending: list[list[int]] = []          # [node index, children still expected]
    while True:
        if len(tree.nodes) >= MAX_NODES:
            raise reader.fail(f"more than {MAX_NODES} nodes")
        start = reader.peek()
        if start is None:
            raise reader.fail("unexpected end of file: the tree is incomplete" if pending or not tree.nodes
                              else "unexpected end of file")
        node = _read_node(reader, tree)
        index = len(tree.nodes)
        tree.nodes.append(node)
        if pending:
            tree.nodes[pending[-1][0]].children.append(index)
            pending[-1][1] -= 1
        if node.kind != "t":
            if len(pending) >= MAX_DEPTH:
                raise reader.fail(f"the tree is deeper than {MAX_DEPTH} moves")
            pending.append([index, len(tree.infosets[(node.player, node.infoset)].actions)])
        while pending and pending[-1][1] == 0:
            pending.pop()
        if not pending:
            break
    if reader.peek() is not None:
        raise reader.fail("text after the end of the tree")
    return tree


def _read_node(reader: _Reader, tree: GambitTree) -> TreeNode:
    kind_token = reader.take("word", what="a node (c, p or t)")
    kind = kind_token.text
    if kind not in ("c", "p", "t"):
        raise reader.fail(f"unknown node type {kind!r} (expected c, p or t)", kind_token)
    label = reader.take("str", what="the node's name").text
    node = TreeNode(kind, label)
    if kind in ("c", "p"):
        if kind == "p":
            node.player = reader.integer("a player number")
            if not 1 <= node.player <= len(tree.players):
                raise reader.fail(f"player {node.player} does not exist (players 1 to {len(tree.players)})")
        node.infoset = reader.integer("an information set number")
        key = (node.player, node.infoset)
        if reader.at("str") or reader.at("punct", "{"):
            name = reader.label(reader.take("str"), "information set name") if reader.at("str") else ""
            reader.take("punct", "{", what="the actions")
            actions: list[str] = []
            probs: list[Fraction] = []
            written: list[str] = []
            while not reader.at("punct", "}"):
                actions.append(reader.label(reader.take("str", what="a quoted action or '}'"), "action"))
                if kind == "c":
                    written.append(reader.peek().text if reader.at("num") else "")   # type: ignore[union-attr]
                    probs.append(reader.number("the action's probability"))
            reader.take("punct", "}")
            if not actions:
                raise reader.fail("a move needs at least one action")
            if kind == "c" and not any(p < 0 for p in probs) and sum(probs) != 1 and not reader.strict:
                meant = [float_fraction(w) if re.search(r"[.eE]", w) else p for w, p in zip(written, probs)]
                if sum(meant) == 1:
                    probs = meant
                    tree.decimal_chance += 1
            if kind == "c" and (any(p < 0 for p in probs) or sum(probs) != 1):
                hint = "" if reader.strict else \
                    "; read as the fractions their floating-point values stand for, they do not sum to 1 either"
                raise reader.fail(f"chance probabilities of information set {node.infoset} must be non-negative "
                                  f"and sum to 1 exactly (they sum to {sum(probs)}{hint})")
            info = Infoset(node.player, node.infoset, name, tuple(actions), tuple(probs))
            known = tree.infosets.get(key)
            if known is not None and (known.actions != info.actions or known.probs != info.probs):
                who = "chance" if node.player == 0 else f"player {node.player}"
                raise reader.fail(f"information set {node.infoset} of {who} is given two different action lists")
            tree.infosets.setdefault(key, info)
        elif key not in tree.infosets:
            who = "chance" if node.player == 0 else f"player {node.player}"
            raise reader.fail(f"information set {node.infoset} of {who} is used before its actions are given")
    node.outcome = _read_outcome(reader, tree)
    return node


def _read_outcome(reader: _Reader, tree: GambitTree) -> int:
    number = reader.integer("an outcome number")
    name = reader.optional_string() if reader.at("str") else None
    if reader.at("punct", "{"):
        values = reader.numbers()
        if len(values) != len(tree.players):
            raise reader.fail(f"outcome {number} has {len(values)} payoffs for {len(tree.players)} players")
        if number == 0:
            raise reader.fail("outcome 0 means 'no outcome' and cannot have payoffs")
        known = tree.outcomes.get(number)
        if known is not None and known[1] != tuple(values):
            raise reader.fail(f"outcome {number} is given two different payoff vectors")
        tree.outcomes.setdefault(number, (name or "", tuple(values)))
    elif number and number not in tree.outcomes:
        raise reader.fail(f"outcome {number} is used before its payoffs are given")
    return number


def write_efg(tree: GambitTree) -> str:
    """``.efg`` text (version 2); reading it back gives an equal tree."""
    lines = [f"EFG 2 R {_quote(tree.title)} {{ {' '.join(_quote(p) for p in tree.players)} }}",
             _quote(tree.comment), ""]
    defined_sets: set[tuple[int, int]] = set()
    defined_outcomes: set[int] = set()
    stack = [0]
    while stack:
        index = stack.pop()
        node = tree.nodes[index]
        parts = [node.kind, _quote(node.label)]
        if node.kind in ("c", "p"):
            if node.kind == "p":
                parts.append(str(node.player))
            parts.append(str(node.infoset))
            key = (node.player, node.infoset)
            if key not in defined_sets:
                defined_sets.add(key)
                info = tree.infosets[key]
                if node.kind == "c":
                    acts = " ".join(f"{_quote(a)} {_num(p)}" for a, p in zip(info.actions, info.probs))
                else:
                    acts = " ".join(_quote(a) for a in info.actions)
                parts += [_quote(info.name), f"{{ {acts} }}"]
        parts.append(str(node.outcome))
        if node.outcome and node.outcome not in defined_outcomes:
            defined_outcomes.add(node.outcome)
            name, values = tree.outcomes[node.outcome]
            parts += [_quote(name), "{ " + ", ".join(_num(v) for v in values) + " }"]
        lines.append(" ".join(parts))
        stack.extend(reversed(node.children))
    return "\n".join(lines) + "\n"


def load_efg(path: str | Path, strict: bool = False) -> GambitTree:
    """Read a ``.efg`` file (``strict`` as in :func:`read_efg`)."""
    text, source = _read_text(path)
    return read_efg(text, source, strict)


def load_gambit(path: str | Path) -> StrategicGame | GambitTree:
    """Read a ``.nfg`` or ``.efg`` file, by its first word."""
    text, source = _read_text(path)
    head = text.lstrip()[:3]
    if head == "NFG":
        return read_nfg(text, source)
    if head == "EFG":
        return read_efg(text, source)
    raise GambitError(f"{source}: line 1: not a Gambit file (it should start with NFG or EFG)")


def infoset_keys(tree: GambitTree, label: Callable[[int], str] = lambda player: f"P{player}"
                 ) -> dict[tuple[int, int], str]:
    """Each player information set's name where it is unique in the file, else ``{label(player)}:{number}``
    (``P<player>:<number>`` by default).

    Parameters
    ----------
    tree : GambitTree
    label : callable
        The prefix of an unnamed or ambiguously named set, from the player's number (1, 2, ...).

    Returns
    -------
    dict
        ``(player, number)`` -> key, chance excluded.
    """
    counts: dict[str, int] = {}
    for (player, _), info in tree.infosets.items():
        if player:
            counts[info.name] = counts.get(info.name, 0) + 1
    return {key: info.name if info.name and counts[info.name] == 1 else f"{label(key[0])}:{key[1]}"
            for key, info in tree.infosets.items() if key[0]}


def tree_to_data(tree: GambitTree) -> dict:
    """The tree in symgame's YAML/JSON tree format (:mod:`symgame.model.treefile`): payoffs accumulated to the
    leaves, exact chance probabilities, information sets by their name where it is unique in the file and
    ``{player}:{number}`` otherwise (iterative).

    Parameters
    ----------
    tree : GambitTree

    Returns
    -------
    dict
        ``{"game", "players", "root"}``, ready for :func:`symgame.model.treefile.tree_from_data`.

    Examples
    --------
    >>> t = read_efg('EFG 2 R "t" { "A" "B" } "" p "" 1 1 "" { "l" "r" } 0 t "" 1 "" { 1, -1 } t "" 2 "" { 0, 0 }')
    >>> tree_to_data(t)["root"]["actions"]["l"]
    {'payoffs': ['1', '-1']}
    """
    names = [p if p and tree.players.count(p) == 1 else f"Player {k + 1}" for k, p in enumerate(tree.players)]
    keys = infoset_keys(tree, lambda player: names[player - 1])

    zero = tuple(Fraction(0) for _ in tree.players)
    order: list[tuple[int, tuple[Fraction, ...]]] = []
    stack = [(0, zero)]
    while stack:
        index, acc = stack.pop()
        node = tree.nodes[index]
        if node.outcome:
            acc = tuple(a + b for a, b in zip(acc, tree.outcomes[node.outcome][1]))
        order.append((index, acc))
        stack.extend((child, acc) for child in node.children)
    built: dict[int, dict] = {}
    for index, acc in reversed(order):
        node = tree.nodes[index]
        if node.kind == "t":
            built[index] = {"payoffs": [_num(v) for v in acc]}
        elif node.kind == "c":
            info = tree.infosets[(0, node.infoset)]
            built[index] = {"chance": [{"prob": _num(p), "label": a, "node": built.pop(c)}
                                       for a, p, c in zip(info.actions, info.probs, node.children)]}
        else:
            info = tree.infosets[(node.player, node.infoset)]
            built[index] = {"player": names[node.player - 1], "infoset": keys[(node.player, node.infoset)],
                            "actions": {a: built.pop(c) for a, c in zip(unique_names(info.actions), node.children)}}
    return {"game": re.sub(r"[^A-Za-z0-9_.-]+", "_", tree.title)[:64].strip("_") or "efg_game",
            "players": names, "root": built[0]}


def tree_from_tree_data(data: Any, source: str = "<tree>") -> GambitTree:
    """A game tree in symgame's YAML/JSON tree format (:mod:`symgame.model.treefile`) as a Gambit tree, the inverse
    of :func:`tree_to_data`: ``.efg -> .yaml -> .efg`` gives the same tree (information sets by name, chance labels,
    exact payoffs at the leaves). Iterative.

    Parameters
    ----------
    data : mapping
        The parsed tree file (checked by :func:`symgame.model.treefile.tree_from_data` first).
    source : str
        For messages.

    Returns
    -------
    GambitTree

    Raises
    ------
    GambitError
        A tree with parameters (Gambit's format holds numbers only), or a tree file that is not well formed.

    Examples
    --------
    >>> t = read_efg('EFG 2 R "t" { "A" "B" } "" p "" 1 1 "" { "l" "r" } 0 t "" 1 "" { 1, -1 } t "" 2 "" { 0, 0 }')
    >>> back = tree_from_tree_data(tree_to_data(t))
    >>> [leaf.payoffs for leaf in back.leaves()] == [leaf.payoffs for leaf in t.leaves()]
    True
    """
    from .gamefile import GameFileError
    from .treefile import tree_from_data

    try:
        shape = tree_from_data(data, source)
    except GameFileError as exc:
        raise GambitError(str(exc)) from None
    if shape.parameters:
        raise GambitError(f"{source}: a tree with parameters cannot be written as .efg (Gambit's format holds "
                          f"numbers only; fix {', '.join(p.name for p in shape.parameters)} in the file first)")

    def exact(value: Any) -> Fraction:
        return Fraction(int(value.p), int(value.q)) if hasattr(value, "q") else Fraction(value)

    players = tuple(str(p) for p in data["players"])
    index = {name: k + 1 for k, name in enumerate(players)}
    nodes: list[TreeNode] = []
    infosets: dict[tuple[int, int], Infoset] = {}
    numbers: dict[tuple[int, str], int] = {}
    outcomes: dict[int, tuple[str, tuple[Fraction, ...]]] = {}
    chance_sets = 0
    stack: list[tuple[Any, Any, int]] = [(data["root"], shape.game.root, -1)]
    while stack:
        spec, node, parent = stack.pop()
        here = len(nodes)
        if parent >= 0:
            nodes[parent].children.append(here)
        if "payoffs" in spec:
            number = len(outcomes) + 1
            outcomes[number] = ("", tuple(exact(v) for v in node.payoffs))
            nodes.append(TreeNode("t", "", outcome=number))
            continue
        if "chance" in spec:
            chance_sets += 1
            labels = tuple(str(b.get("label", k + 1)) for k, b in enumerate(spec["chance"]))
            infosets[(0, chance_sets)] = Infoset(0, chance_sets, "", labels, tuple(exact(p) for p, _ in node.outcomes))
            nodes.append(TreeNode("c", "", 0, chance_sets))
            stack.extend(reversed([(b["node"], child, here) for b, (_, child) in zip(spec["chance"], node.outcomes)]))
            continue
        player = index[str(spec["player"])]
        key = (player, str(spec["infoset"]))
        if key not in numbers:
            numbers[key] = sum(1 for p, _ in numbers if p == player) + 1
            infosets[(player, numbers[key])] = Infoset(player, numbers[key], key[1],
                                                        tuple(label for label, _ in node.actions))
        nodes.append(TreeNode("p", "", player, numbers[key]))
        stack.extend(reversed([(child_spec, child, here)
                               for child_spec, (_, child) in zip(spec["actions"].values(), node.actions)]))
    return GambitTree(str(data.get("game", "tree")), players, nodes, infosets, outcomes)


def unique_names(names: Sequence[str]) -> list[str]:
    """Strategy names made distinct: a duplicate or empty name gets its position (from 1) appended."""
    return [s if s and list(names).count(s) == 1 else f"{s or 's'}{j + 1}" for j, s in enumerate(names)]


def to_normal_form(game: StrategicGame, source: str = "<nfg>"):
    """A one- or two-player strategic game as a :class:`~symgame.model.game.NormalFormGame` without parameters.

    Duplicate or empty strategy names get their position appended, so that every action has its own
    name. A game whose payoffs sum to 0 in every profile is marked zero-sum.
    """
    import sympy as sp

    from .game import NormalFormGame, Player
    from .region import Domain

    if len(game.players) not in (1, 2):
        raise GambitError(f"{source}: symgame solves strategic games of one or two players so far; this one has "
                          f"{len(game.players)}")
    players = []
    for k, (name, names) in enumerate(zip(game.players, game.strategies)):
        players.append(Player(name or f"Player {k + 1}", tuple(unique_names(names))))
    if len(players) == 2 and players[0].name == players[1].name:
        players[1] = Player(players[1].name + " (2)", players[1].actions)
    title = re.sub(r"[^A-Za-z0-9_.-]+", "_", game.title).strip("_")[:64] or "nfg_game"
    description = (game.title + (f" -- {game.comment}" if game.comment else "")).strip()
    if len(players) == 1:
        return NormalFormGame.decision(title, Domain(()), players[0],
                                       [sp.Rational(game.payoff((i,))[0]) for i in range(game.shape[0])], description)
    rows, cols = game.shape
    a = [[sp.Rational(game.payoff((i, j))[0]) for j in range(cols)] for i in range(rows)]
    b = [[sp.Rational(game.payoff((i, j))[1]) for j in range(cols)] for i in range(rows)]
    zero_sum = game.constant_sum() == 0
    return NormalFormGame.two_player(title, Domain(()), players, a, None if zero_sum else b, description)


def from_normal_form(game) -> StrategicGame:
    """A one- or two-player :class:`~symgame.model.game.NormalFormGame` without parameters as a strategic game."""
    from .expr import compile_exact

    if game.domain.names:
        raise GambitError(f"{game.name}: a Gambit file holds numbers; fix the parameters "
                          f"({', '.join(game.domain.names)}) first")
    matrices = [[[compile_exact(m[i, j])({}) for j in range(m.shape[1])] for i in range(m.shape[0])]
                for m in game.payoffs]
    players = tuple(p.name for p in game.players)
    strategies = tuple(p.actions for p in game.players)
    out = StrategicGame(game.name, players, strategies, (), game.description)
    payoffs = []
    for profile in out.profiles():
        i, j = (profile[0], profile[1]) if len(profile) == 2 else (profile[0], 0)
        payoffs.append(tuple(m[i][j] for m in matrices))
    return StrategicGame(game.name, players, strategies, tuple(payoffs), game.description)


def tree_to_strategic(tree: GambitTree, max_profiles: int = 100_000, source: str = "<efg>") -> StrategicGame:
    """The strategic form of a tree: a pure strategy names one action at each of the player's information sets
    (in the order of their numbers), and a profile's payoffs are expected over chance.

    Raises :class:`GambitLimitError` when the number of pure profiles exceeds ``max_profiles``.
    """
    sets = {p: sorted(k for k in tree.infosets if k[0] == p) for p in range(1, len(tree.players) + 1)}
    counts = {p: [len(tree.infosets[k].actions) for k in keys] for p, keys in sets.items()}
    sizes = [prod(c) for c in counts.values()]
    if prod(sizes) > max_profiles:
        raise GambitLimitError(f"{source}: the strategic form has {prod(sizes)} pure profiles (more than {max_profiles})")
    strategies = []
    for p, keys in sets.items():
        names = []
        for choice in product(*(range(c) for c in counts[p])):
            names.append("".join(str(k + 1) for k in choice) if keys else "*")
        strategies.append(tuple(names))
    leaves = tree.leaves()
    shell = StrategicGame(tree.title, tree.players, tuple(strategies), (), tree.comment)
    plans = {p: list(product(*(range(c) for c in counts[p]))) for p in sets}
    position = {p: {key: k for k, key in enumerate(keys)} for p, keys in sets.items()}
    payoffs = []
    n = len(tree.players)
    for profile in shell.profiles():
        total = [Fraction(0)] * n
        for leaf in leaves:
            if all(player == 0 or plans[player][profile[player - 1]][position[player][(player, number)]] == action
                   for player, number, action in leaf.path):
                total = [t + leaf.chance * v for t, v in zip(total, leaf.payoffs)]
        payoffs.append(tuple(total))
    return StrategicGame(tree.title, tree.players, tuple(strategies), tuple(payoffs), tree.comment)


def own_paths(tree: GambitTree) -> dict[tuple[int, int], tuple[tuple[int, int, int], ...]]:
    """For each player information set, the player's own earlier moves on the way to it (perfect recall:
    the same from every node of the set; the first node in pre-order is used)."""
    out: dict[tuple[int, int], tuple] = {}
    for key, mine in _own_moves(tree):
        out.setdefault(key, mine)
    return out


def behaviour_from_mixed(tree: GambitTree, player: int, mixed: Sequence[Fraction]
                         ) -> dict[tuple[int, int], tuple[Fraction, ...] | None]:
    """The behaviour strategy (Kuhn's theorem, perfect recall) of a mixed strategy over the pure strategies of
    :func:`tree_to_strategic`: at each information set, the probability of each action given that the
    player's own earlier moves lead there; ``None`` where the mixed strategy never leads there."""
    keys = sorted(k for k in tree.infosets if k[0] == player)
    position = {key: k for k, key in enumerate(keys)}
    plans = list(product(*(range(len(tree.infosets[k].actions)) for k in keys)))
    paths = own_paths(tree)
    out: dict[tuple[int, int], tuple[Fraction, ...] | None] = {}
    for key in keys:
        path = paths.get(key, ())
        reach = [w for w, plan in zip(mixed, plans)
                 if all(plan[position[(player, number)]] == action for _, number, action in path)]
        total = sum(reach, Fraction(0))
        if total == 0:
            out[key] = None
            continue
        acts = len(tree.infosets[key].actions)
        mass = [Fraction(0)] * acts
        for w, plan in zip(mixed, plans):
            if all(plan[position[(player, number)]] == action for _, number, action in path):
                mass[plan[position[key]]] += w
        out[key] = tuple(v / total for v in mass)
    return out


def strategic_to_data(game: StrategicGame) -> dict:
    """A one- or two-player strategic game as the content of a symgame game file (YAML/JSON, no parameters)."""
    if len(game.players) not in (1, 2):
        raise GambitError(f"{game.title}: symgame game files hold one or two players; this game has "
                          f"{len(game.players)}")
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", game.title).strip("_")[:64] or "game"
    players = [{"name": p or f"Player {k + 1}", "actions": list(s)}
               for k, (p, s) in enumerate(zip(game.players, game.strategies))]
    if len(game.players) == 1:
        payoffs: list = [_num(game.payoff((i,))[0]) for i in range(game.shape[0])]
        zero_sum = False
    else:
        zero_sum = game.constant_sum() == 0
        rows, cols = game.shape
        payoffs = [[_num(game.payoff((i, j))[0]) if zero_sum else [_num(v) for v in game.payoff((i, j))]
                    for j in range(cols)] for i in range(rows)]
    data: dict = {"game": name, "description": (game.title + (f" -- {game.comment}" if game.comment else "")).strip(),
                  "players": players, "zero_sum": zero_sum, "payoffs": payoffs}
    return data
