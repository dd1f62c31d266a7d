"""Normal-form games of three or more players in YAML/JSON, with or without parameters.

The file lists the players with their actions and the payoffs as nested lists, one level per player
(``payoffs[a1][a2][a3]`` is the list of every player's payoff when player 1 plays action ``a1``, ...)::

    game: volunteers
    parameters: {c: "(0, 1)"}               # optional
    players:
      - {name: Ann, actions: [volunteer, wait]}
      - {name: Bob, actions: [volunteer, wait]}
      - {name: Cat, actions: [volunteer, wait]}
    payoffs:
      - - - ["1 - c", "1 - c", "1 - c"]     # Ann, Bob and Cat volunteer
          - ["1 - c", "1 - c", "1"]         # ... Cat waits
        - ...

With parameters the game becomes a tree in which nobody sees the others' moves
(:func:`tree_data`), whose behaviour polynomials ``symgame atlas`` solves; without parameters it is a
:class:`~symgame.model.gambit.StrategicGame` whose every equilibrium ``symgame solve`` finds
(:func:`strategic_game`). The payoff table is read iteratively with bounded size, expressions through
the restricted parser, and each problem is one :class:`~symgame.model.gamefile.GameFileError` line
naming the place (``payoffs[1][0][1][2]``).

Examples
--------
>>> data = {"game": "g", "players": [{"name": n, "actions": ["x", "y"]} for n in "ABC"],
...         "payoffs": [[[["1", "0", "0"], ["0", "0", "0"]], [["0", "0", "0"], ["0", "0", "0"]]],
...                     [[["0", "0", "0"], ["0", "0", "0"]], [["0", "0", "0"], ["0", "1", "1"]]]]}
>>> is_nplayer_data(data)
True
>>> game = strategic_game(data)
>>> game.shape, game.payoffs[0], game.payoffs[-1]
((2, 2, 2), (Fraction(1, 1), Fraction(0, 1), Fraction(0, 1)), (Fraction(0, 1), Fraction(1, 1), Fraction(1, 1)))
"""
from __future__ import annotations

from fractions import Fraction
from itertools import product
from typing import Any

from .expr import ExpressionError, parse_expression
from .gamefile import GameFileError, check_keys

TOP_KEYS = {"game", "description", "parameters", "players", "payoffs"}
MAX_PLAYERS = 10
MAX_CELLS = 100_000


def is_nplayer_data(data: Any) -> bool:
    """A normal-form game file of three or more players (a mapping with at least three ``players``)."""
    return (isinstance(data, dict) and "root" not in data and isinstance(data.get("players"), list)
            and len(data["players"]) >= 3 and "payoffs" in data)


def _players(data: Any, source: str) -> list[tuple[str, tuple[str, ...]]]:
    players = data["players"]
    if not 3 <= len(players) <= MAX_PLAYERS:
        raise GameFileError(source, "players", f"must list 3 to {MAX_PLAYERS} players")
    out = []
    cells = 1
    for k, spec in enumerate(players):
        place = f"players[{k}]"
        if not isinstance(spec, dict) or set(spec) - {"name", "actions"} or "name" not in spec or "actions" not in spec:
            raise GameFileError(source, place, "must be a mapping {name, actions}")
        name, actions = spec["name"], spec["actions"]
        if not isinstance(name, str) or not name:
            raise GameFileError(source, f"{place}.name", "must be a non-empty string")
        if (not isinstance(actions, list) or not actions
                or not all(isinstance(a, (str, int)) and not isinstance(a, bool) for a in actions)
                or len({str(a) for a in actions}) != len(actions)):
            raise GameFileError(source, f"{place}.actions", "must list distinct action names")
        cells *= len(actions)
        if cells > MAX_CELLS:
            raise GameFileError(source, "players", f"more than {MAX_CELLS} action profiles")
        out.append((name, tuple(str(a) for a in actions)))
    if len({n for n, _ in out}) != len(out):
        raise GameFileError(source, "players", "the players need distinct names")
    return out


def _table(data: Any, source: str, players, names: dict) -> dict[tuple[int, ...], tuple]:
    """Every profile's payoffs (parsed expressions), read level by level without recursion."""
    n = len(players)
    cells: dict[tuple[int, ...], tuple] = {}
    stack: list[tuple[Any, tuple[int, ...]]] = [(data["payoffs"], ())]
    while stack:
        value, profile = stack.pop()
        place = "payoffs" + "".join(f"[{k}]" for k in profile)
        depth = len(profile)
        if depth < n:
            size = len(players[depth][1])
            if not isinstance(value, list) or len(value) != size:
                raise GameFileError(source, place, f"must be a list of {size} entr{'y' if size == 1 else 'ies'}, one "
                                                   f"per action of {players[depth][0]}")
            stack.extend((value[k], profile + (k,)) for k in reversed(range(size)))
            continue
        if not isinstance(value, list) or len(value) != n:
            raise GameFileError(source, place, f"must list {n} payoffs, one per player")
        parsed = []
        for k, entry in enumerate(value):
            if isinstance(entry, bool) or not isinstance(entry, (int, str)):
                raise GameFileError(source, f"{place}[{k}]", "must be an integer or an expression in quotes")
            try:
                parsed.append(parse_expression(str(entry), names))
            except ExpressionError as exc:
                raise GameFileError(source, f"{place}[{k}]", str(exc)) from None
        cells[profile] = tuple(parsed)
    return cells


def strategic_game(data: Any, source: str = "<game>"):
    """The game without parameters as a :class:`~symgame.model.gambit.StrategicGame` (exact payoffs)."""
    from .gambit import StrategicGame

    check_keys(data, source, TOP_KEYS, ("game", "players", "payoffs"))
    if data.get("parameters"):
        raise GameFileError(source, "parameters", "a game with parameters goes to symgame atlas")
    players = _players(data, source)
    cells = _table(data, source, players, {})
    shape = [len(a) for _, a in players]
    ordered = []
    for reversed_profile in product(*(range(s) for s in reversed(shape))):     # first player fastest
        profile = tuple(reversed(reversed_profile))
        ordered.append(tuple(Fraction(int(v.p), int(v.q)) for v in cells[profile]))
    title = str(data["game"])
    return StrategicGame(title, tuple(n for n, _ in players), tuple(a for _, a in players), tuple(ordered),
                         str(data.get("description", "")))


def tree_data(data: Any, source: str = "<game>") -> dict:
    """The game as tree-file data (:mod:`symgame.model.treefile`): the players move in order, each with one
    information set (nobody sees an earlier move), the leaves carry the payoff table's entries."""
    check_keys(data, source, TOP_KEYS, ("game", "players", "payoffs"))
    players = _players(data, source)
    # validate the table (with the declared parameters) before building anything
    from .gamefile import _parameters

    parameters = _parameters(data.get("parameters") or {}, source)
    _table(data, source, players, {p.name: p.symbol for p in parameters})
    n = len(players)
    root: dict = {}
    stack: list[tuple[dict, tuple[int, ...], Any]] = [(root, (), data["payoffs"])]
    while stack:
        node, profile, value = stack.pop()
        depth = len(profile)
        name, actions = players[depth]
        node.update({"player": name, "infoset": name, "actions": {}})
        for k, action in enumerate(actions):
            if depth == n - 1:
                node["actions"][action] = {"payoffs": [str(v) for v in value[k]]}
            else:
                child: dict = {}
                node["actions"][action] = child
                stack.append((child, profile + (k,), value[k]))
    out = {"game": data["game"], "players": [name for name, _ in players], "root": root}
    for key in ("description", "parameters"):
        if key in data:
            out[key] = data[key]
    return out
