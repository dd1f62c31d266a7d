"""Reading user game files (YAML or JSON) into :class:`NormalFormGame`.

Every problem is reported as a :class:`GameFileError` whose message names the
file, the place in it (``payoffs[1][2]``, ``parameters.t``) and what is
wrong.  Expressions go through the restricted parser of
:mod:`symgame.model.expr` only.  The format is documented in docs/formats.md.
"""
from __future__ import annotations

import json
import re
from math import comb
from pathlib import Path
from typing import Any

import sympy as sp
import yaml

from ..errors import InputError
from .expr import ExpressionError, parse_expression, parse_relation
from .game import NormalFormGame, Player
from .parameters import Parameter, parse_domain
from .rational import PoleError, clear_denominators
from .region import Atom, Domain

MAX_FILE_BYTES = 1_000_000
MAX_ACTIONS = 12
MAX_SUPPORT_PAIRS = 50_000
_NAME = re.compile(r"^[A-Za-z_][A-Za-z_0-9]*$")
_RESERVED = {"oo"}
_TOP_KEYS = {"game", "description", "parameters", "assumptions", "players", "zero_sum", "payoffs"}


class GameFileError(InputError):
    """A game file that cannot be read; the message is one line for the user."""

    def __init__(self, source: str, place: str, problem: str):
        self.source, self.place, self.problem = source, place, problem
        where = f"{source}: {place}: " if place else f"{source}: "
        super().__init__(where + problem)


def load_game_file(path: str | Path) -> NormalFormGame:
    """Read and validate a game file; raise :class:`GameFileError` on any problem."""
    data, source = read_document(path)
    return game_from_data(data, source)


def read_document(path: str | Path) -> tuple[Any, str]:
    """The parsed content of a YAML or JSON file and the name to report it by."""
    path = Path(path)
    source = str(path)
    from .store import read_capped

    try:
        raw = read_capped(path, MAX_FILE_BYTES)
    except OSError as exc:
        raise GameFileError(source, "", f"cannot read file ({exc.strerror or exc})") from None
    if raw is None:
        raise GameFileError(source, "", f"file larger than {MAX_FILE_BYTES} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise GameFileError(source, "", "file is not UTF-8 text") from None
    return parse_document(source, text, json_only=path.suffix.lower() == ".json"), source


class _StrictLoader(yaml.SafeLoader):
    """The safe loader (no tags, no code) that refuses a key given twice in one mapping."""

    def construct_mapping(self, node, deep=False):
        if isinstance(node, yaml.MappingNode):
            seen: dict[Any, int] = {}
            for key_node, _ in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    continue
                key = self.construct_object(key_node, deep=True)
                line = key_node.start_mark.line + 1
                try:
                    if key in seen:
                        raise DuplicateKey(key, seen[key], line)
                    seen[key] = line
                except TypeError:          # an unhashable key: the base class reports it
                    continue
        return super().construct_mapping(node, deep=deep)


class DuplicateKey(Exception):
    """Raised inside the loader; turned into a :class:`GameFileError` by :func:`parse_document`."""

    def __init__(self, key: Any, first: int, second: int):
        super().__init__(key)
        self.key, self.first, self.second = key, first, second


def _duplicate_error(source: str, dup: DuplicateKey) -> GameFileError:
    where = (f"lines {dup.first} and {dup.second}" if dup.first != dup.second else f"both on line {dup.first}")
    return GameFileError(source, f"line {dup.second}", f"key {dup.key!r} given twice in one mapping ({where})")


def _json_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise DuplicateKey(key, 0, 0)
        out[key] = value
    return out


def parse_document(source: str, text: str, json_only: bool = False) -> Any:
    """YAML (safe loader: no tags, no code) or strict JSON into Python data; a key given twice is an error."""
    if json_only:
        try:
            return json.loads(text, object_pairs_hook=_json_pairs)
        except json.JSONDecodeError as exc:
            raise GameFileError(source, f"line {exc.lineno} column {exc.colno}",
                                f"not valid JSON ({exc.msg})") from None
        except DuplicateKey as dup:
            try:                           # JSON is YAML: the YAML reader knows the lines
                yaml.load(text, Loader=_StrictLoader)  # noqa: S506 - a SafeLoader subclass
            except DuplicateKey as located:
                raise _duplicate_error(source, located) from None
            except (yaml.YAMLError, RecursionError):
                pass
            raise GameFileError(source, "", f"key {dup.key!r} given twice in one object") from None
        except RecursionError:
            raise GameFileError(source, "", "JSON nested too deeply") from None
    try:
        return yaml.load(text, Loader=_StrictLoader)  # noqa: S506 - a SafeLoader subclass
    except DuplicateKey as dup:
        raise _duplicate_error(source, dup) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        place = f"line {mark.line + 1} column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise GameFileError(source, place, f"not valid YAML ({problem})") from None
    except RecursionError:
        raise GameFileError(source, "", "YAML nested too deeply") from None


def game_from_data(data: Any, source: str = "<game>") -> NormalFormGame:
    """Validate parsed file content and build the game."""
    check_keys(data, source, _TOP_KEYS, ("game", "players", "payoffs"))
    name = _game_name(data["game"], source)
    parameters = _parameters(data.get("parameters") or {}, source)
    symbols = {p.name: p.symbol for p in parameters}
    assumptions = _assumptions(data.get("assumptions") or [], symbols, source)
    players = _players(data["players"], source)
    zero_sum = data.get("zero_sum", False)
    if not isinstance(zero_sum, bool):
        raise GameFileError(source, "zero_sum", "must be true or false")
    domain = Domain(tuple(parameters), tuple(assumptions))
    check_nonempty(domain, source)
    description = data.get("description", "")
    if not isinstance(description, str):
        raise GameFileError(source, "description", "must be a string")
    return _build_game(name, domain, players, data["payoffs"], zero_sum, symbols, source, description)


def check_nonempty(domain: Domain, source: str) -> None:
    """Refuse assumptions that no parameter values satisfy (z3, exact); undecided domains pass."""
    if not domain.assumptions:
        return
    from .decide import Decision, Z3Context, satisfiable

    if satisfiable(Z3Context(domain), [], 10_000).satisfiable is Decision.FALSE:
        raise GameFileError(source, "assumptions", "no parameter values satisfy the domain and the assumptions")


def check_keys(data: Any, source: str, allowed: set[str], required: tuple[str, ...]) -> None:
    """The top level of a game file: a mapping with only ``allowed`` keys and every ``required`` one."""
    if not isinstance(data, dict):
        raise GameFileError(source, "", f"the file must contain a mapping with keys {', '.join(required)}")
    unknown = sorted(str(k) for k in data if k not in allowed)
    if unknown:
        raise GameFileError(source, unknown[0], f"unknown key (allowed: {', '.join(sorted(allowed))})")
    for key in required:
        if key not in data:
            raise GameFileError(source, key, "missing required key")


def _game_name(value: Any, source: str) -> str:
    if not isinstance(value, str) or not re.match(r"^[A-Za-z0-9_.-]{1,64}$", value):
        raise GameFileError(source, "game", "must be a name of 1-64 letters, digits, '_', '-', '.'")
    return value


def _parameters(spec: Any, source: str) -> list[Parameter]:
    if not isinstance(spec, dict):
        raise GameFileError(source, "parameters", "must map parameter names to domains")
    params = []
    for name, value in spec.items():
        place = f"parameters.{name}"
        if not isinstance(name, str) or not _NAME.match(name) or name in _RESERVED:
            raise GameFileError(source, place, "parameter names must be identifiers (letters, digits, _)")
        integer = False
        if isinstance(value, dict):
            extra = sorted(set(value) - {"domain", "integer"})
            if extra:
                raise GameFileError(source, f"{place}.{extra[0]}", "unknown key (allowed: domain, integer)")
            integer = value.get("integer", False)
            if not isinstance(integer, bool):
                raise GameFileError(source, f"{place}.integer", "must be true or false")
            value = value.get("domain")
        try:
            params.append(parse_domain(name, value, integer))
        except ExpressionError as exc:
            raise GameFileError(source, place, str(exc)) from None
    return params


def _assumptions(spec: Any, symbols: dict[str, sp.Symbol], source: str) -> list[Atom]:
    if not isinstance(spec, list):
        raise GameFileError(source, "assumptions", "must be a list of conditions such as \"p1 > p2\"")
    atoms = []
    for k, text in enumerate(spec):
        try:
            expr, rel = parse_relation(text, symbols)
        except ExpressionError as exc:
            raise GameFileError(source, f"assumptions[{k}]", str(exc)) from None
        atoms.append(Atom(expr, rel))
    return atoms


def _players(spec: Any, source: str) -> list[Player]:
    if not isinstance(spec, list) or len(spec) not in (1, 2):
        raise GameFileError(source, "players", "must be a list of one or two players")
    players = []
    for k, entry in enumerate(spec):
        place = f"players[{k}]"
        if not isinstance(entry, dict) or set(entry) != {"name", "actions"}:
            raise GameFileError(source, place, "each player needs exactly the keys name and actions")
        name, actions = entry["name"], entry["actions"]
        if not isinstance(name, str) or not name.strip():
            raise GameFileError(source, f"{place}.name", "must be a non-empty string")
        if not isinstance(actions, list) or not actions:
            raise GameFileError(source, f"{place}.actions", "must be a non-empty list of names")
        if len(actions) > MAX_ACTIONS:
            raise GameFileError(source, f"{place}.actions",
                                f"{len(actions)} actions exceed the limit of {MAX_ACTIONS}")
        if not all(isinstance(a, str) and a.strip() for a in actions):
            raise GameFileError(source, f"{place}.actions", "action names must be non-empty strings")
        if len(set(actions)) != len(actions):
            raise GameFileError(source, f"{place}.actions", "action names must be distinct")
        try:
            players.append(Player(name, tuple(actions)))
        except InputError as exc:
            raise GameFileError(source, place, str(exc)) from None
    if len(players) == 2 and players[0].name == players[1].name:
        raise GameFileError(source, "players[1].name", "the two players need different names")
    return players


def support_pairs(rows: int, cols: int) -> int:
    """Equal-size support pairs of a ``rows`` x ``cols`` game: what the parametric engine enumerates.

    The sum over sizes k of C(rows, k) C(cols, k) is C(rows + cols, rows) - 1 (Vandermonde's identity).
    """
    return comb(rows + cols, rows) - 1


def support_budget_problem(rows: int, cols: int) -> str | None:
    """Why a ``rows`` x ``cols`` game is beyond the parametric engine's budget (:data:`MAX_SUPPORT_PAIRS`), or
    ``None`` when it is within it; the count is written as a power of ten when it is huge.

    Examples
    --------
    >>> support_budget_problem(3, 3) is None
    True
    >>> support_budget_problem(1000, 1000)
    "a 1000x1000 game has about 10^600 support pairs, more than the parametric engine's budget of 50000"
    """
    pairs = support_pairs(rows, cols)
    if pairs <= MAX_SUPPORT_PAIRS:
        return None
    count = str(pairs) if pairs < 10 ** 12 else f"about 10^{int((pairs.bit_length() - 1) * 0.30103)}"
    return f"a {rows}x{cols} game has {count} support pairs, more than the parametric engine's budget of " \
           f"{MAX_SUPPORT_PAIRS}"


def _build_game(name: str, domain: Domain, players: list[Player], payoffs: Any, zero_sum: bool,
                symbols: dict[str, sp.Symbol], source: str, description: str) -> NormalFormGame:
    rows = len(players[0].actions)
    cols = len(players[1].actions) if len(players) == 2 else 1
    pairs = support_pairs(rows, cols)
    if pairs > MAX_SUPPORT_PAIRS:
        raise GameFileError(source, "players", f"{pairs} support pairs exceed the budget {MAX_SUPPORT_PAIRS}")
    if len(players) == 1 and zero_sum:
        raise GameFileError(source, "zero_sum", "a one-player decision problem cannot be zero-sum")
    if not isinstance(payoffs, list) or len(payoffs) != rows:
        raise GameFileError(source, "payoffs", f"must be a list of {rows} rows, one per action of "
                            f"{players[0].name}")
    cells_per_entry = 1 if (zero_sum or len(players) == 1) else 2
    row_matrix, col_matrix = [], []
    for i, row in enumerate(payoffs):
        if len(players) == 1 and not isinstance(row, list):
            row = [row]
        if not isinstance(row, list) or len(row) != cols:
            raise GameFileError(source, f"payoffs[{i}]", f"must be a list of {cols} entries")
        parsed = [_entry(cell, cells_per_entry, symbols, source, f"payoffs[{i}][{j}]")
                  for j, cell in enumerate(row)]
        row_matrix.append([p[0] for p in parsed])
        col_matrix.append([p[1] if cells_per_entry == 2 else -p[0] for p in parsed])
    if len(players) == 1:
        game = NormalFormGame.decision(name, domain, players[0], [r[0] for r in row_matrix], description)
    else:
        game = NormalFormGame.two_player(name, domain, players, row_matrix,
                                         None if zero_sum else col_matrix, description)
    try:
        return clear_denominators(game)
    except PoleError as exc:
        if exc.row < 0:
            place = "payoffs" if cells_per_entry == 1 else f"payoffs (player {players[exc.player].name})"
            problem = (exc.problem if cells_per_entry == 1
                       else f"{players[exc.player].name}'s payoffs: {exc.problem}")
        else:
            place = f"payoffs[{exc.row}]" + ("" if len(players) == 1 else f"[{exc.column}]")
            place += f"[{exc.player}]" if cells_per_entry == 2 else ""
            problem = exc.problem
        raise GameFileError(source, place, problem) from None


def _entry(cell: Any, size: int, symbols: dict[str, sp.Symbol], source: str, place: str) -> list[sp.Expr]:
    if size == 2:
        if not isinstance(cell, list) or len(cell) != 2:
            raise GameFileError(source, place, "with zero_sum: false each entry must be a pair "
                                "[\"row payoff\", \"column payoff\"]")
        return [_expression(c, symbols, source, f"{place}[{k}]") for k, c in enumerate(cell)]
    if isinstance(cell, list):
        raise GameFileError(source, place, "with zero_sum: true each entry is one expression "
                            "(the row player's payoff)")
    return [_expression(cell, symbols, source, place)]


def _expression(cell: Any, symbols: dict[str, sp.Symbol], source: str, place: str) -> sp.Expr:
    if isinstance(cell, bool) or not isinstance(cell, (str, int, float)):
        raise GameFileError(source, place, f"expected an expression string, got {type(cell).__name__}")
    text = repr(cell) if isinstance(cell, float) else str(cell)
    try:
        return parse_expression(text, symbols)
    except ExpressionError as exc:
        raise GameFileError(source, place, str(exc)) from None
