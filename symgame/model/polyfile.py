"""Reading polynomial game files (YAML or JSON) into :class:`PolynomialGame`.

Format (documented in docs/formats.md, "Polynomial game files")::

    game: billingham
    description: ...            # optional
    parameters:
      P: "[2, oo)"              # exactly one parameter for the atlas
    constants:                  # optional: variables fixed to a number, substituted
      a3: 1
    players:
      - name: "1"
        variables: [a1, b1, c1, d1]      # frequencies, each in [0, 1]
        payoff: "(...)/24"               # polynomial in all variables and parameters

Every problem is a :class:`~symgame.model.gamefile.GameFileError` naming the
file, the place and what is wrong.  Expressions go through the restricted
parser of :mod:`symgame.model.expr` only.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import sympy as sp

from .expr import ExpressionError, parse_expression, tokenize
from .gamefile import _NAME, _RESERVED, GameFileError, _game_name, _parameters, check_keys, read_document
from .parameters import parameter_symbol
from .polygame import PolynomialGame, PolynomialGameError, PolyPlayer

TOP_KEYS = {"game", "description", "parameters", "constants", "players"}
MAX_VARIABLES = 40


def load_polynomial_game(path: str | Path) -> PolynomialGame:
    """Read and validate a polynomial game file; raise :class:`GameFileError` on any problem."""
    data, source = read_document(path)
    return polynomial_game_from_data(data, source)


def polynomial_game_from_data(data: Any, source: str = "<game>") -> PolynomialGame:
    """Validate parsed file content and build the polynomial game.

    A game tree (a mapping with ``root``, :mod:`symgame.model.treefile`) is compiled to its behaviour
    polynomials.
    """
    from .nplayer import is_nplayer_data, tree_data
    from .treefile import is_tree_data, polynomial_game_from_tree, tree_from_data

    if is_tree_data(data):
        return polynomial_game_from_tree(tree_from_data(data, source), source)
    if is_nplayer_data(data):                  # three or more players: the table as a tree of simultaneous moves
        return polynomial_game_from_tree(tree_from_data(tree_data(data, source), source), source)
    if _is_normal_form(data):                  # one or two players: a table of simultaneous moves
        return polynomial_game_from_tree(_two_player_tree(data, source), source)
    check_keys(data, source, TOP_KEYS, ("game", "players"))
    name = _game_name(data["game"], source)
    parameters = _parameters(data.get("parameters") or {}, source)
    constants = _constants(data.get("constants") or {}, source)
    owned = _owned_variables(data["players"], source)
    clash = sorted(set(owned) & ({p.name for p in parameters} | set(constants)))
    if clash:
        raise GameFileError(source, f"players[{owned[clash[0]]}].variables",
                            f"{clash[0]!r} is also declared as a parameter or constant")
    names = {n: parameter_symbol(n) for n in list(owned) + [p.name for p in parameters]}
    names.update(constants)
    players = []
    for k, entry in enumerate(data["players"]):
        payoff = _payoff(entry.get("payoff"), names, owned, constants, [p.name for p in parameters],
                         source, f"players[{k}].payoff")
        players.append(PolyPlayer(str(entry["name"]), tuple(entry["variables"]), payoff))
    description = data.get("description", "")
    if not isinstance(description, str):
        raise GameFileError(source, "description", "must be a string")
    try:
        return PolynomialGame(name, tuple(parameters), tuple(players), description)
    except PolynomialGameError as exc:
        raise GameFileError(source, "players", str(exc)) from None


def _constants(spec: Any, source: str) -> dict[str, sp.Expr]:
    if not isinstance(spec, dict):
        raise GameFileError(source, "constants", "must map variable names to numbers")
    out = {}
    for name, value in spec.items():
        place = f"constants.{name}"
        if not isinstance(name, str) or not _NAME.match(name) or name in _RESERVED:
            raise GameFileError(source, place, "names must be identifiers (letters, digits, _)")
        try:
            parsed = parse_expression(value if isinstance(value, str) else str(value), {})
        except ExpressionError as exc:
            raise GameFileError(source, place, str(exc)) from None
        if not parsed.is_Rational:
            raise GameFileError(source, place, "must be a rational number")
        out[name] = parsed
    return out


def _owned_variables(spec: Any, source: str) -> dict[str, int]:
    if not isinstance(spec, list) or not spec:
        raise GameFileError(source, "players", "must be a non-empty list of players")
    owned: dict[str, int] = {}
    for k, entry in enumerate(spec):
        place = f"players[{k}]"
        if not isinstance(entry, dict) or set(entry) != {"name", "variables", "payoff"}:
            raise GameFileError(source, place, "each player needs exactly the keys name, variables and payoff")
        if not isinstance(entry["name"], (str, int)) or isinstance(entry["name"], bool) or not str(entry["name"]).strip():
            raise GameFileError(source, f"{place}.name", "must be a non-empty string")
        variables = entry["variables"]
        if not isinstance(variables, list) or not variables:
            raise GameFileError(source, f"{place}.variables", "must be a non-empty list of names")
        for j, v in enumerate(variables):
            if not isinstance(v, str) or not _NAME.match(v) or v in _RESERVED:
                raise GameFileError(source, f"{place}.variables[{j}]", "must be an identifier (letters, digits, _)")
            if v in owned:
                raise GameFileError(source, f"{place}.variables[{j}]",
                                    f"{v!r} is already owned by players[{owned[v]}]; each variable has one owner")
            owned[v] = k
    if len(owned) > MAX_VARIABLES:
        raise GameFileError(source, "players", f"{len(owned)} variables exceed the limit of {MAX_VARIABLES}")
    names = [str(e["name"]) for e in spec]
    if len(set(names)) != len(names):
        raise GameFileError(source, "players", "player names must be distinct")
    return owned


def _payoff(text: Any, names: dict, owned: dict, constants: dict, parameters: list, source: str,
            place: str) -> sp.Expr:
    if isinstance(text, bool) or not isinstance(text, (str, int)):
        raise GameFileError(source, place, "expected an expression string")
    text = str(text)
    try:
        for tok in tokenize(text):
            if tok.kind == "name" and tok.text not in names:
                raise GameFileError(source, place, f"{tok.text!r} (column {tok.column}) is not a variable owned "
                                    "by a player, a constant or a parameter; add it to some player's variables")
        expr = parse_expression(text, names)
    except ExpressionError as exc:
        raise GameFileError(source, place, str(exc)) from None
    gens = [parameter_symbol(n) for n in list(owned) + parameters]
    try:
        sp.Poly(expr, *gens, domain="QQ")
    except (sp.PolynomialError, sp.GeneratorsNeeded, sp.CoercionFailed):
        raise GameFileError(source, place, "is not a polynomial in the variables and parameters (division by "
                            "a variable or parameter, or a non-integer power)") from None
    return sp.expand(expr)


def _is_normal_form(data: Any) -> bool:
    """A normal-form game file (:mod:`symgame.model.gamefile`): a payoff table and players with actions, not
    with the polynomial format's variables and payoffs."""
    if not isinstance(data, dict):
        return False
    players = data.get("players")
    return ("payoffs" in data and isinstance(players, list) and bool(players)
            and all(isinstance(p, dict) and "actions" in p and not {"variables", "payoff"} & set(p) for p in players))


def _two_player_tree(data: Any, source: str):
    from .gamefile import game_from_data

    return normal_form_tree(game_from_data(data, source), source)


def normal_form_tree(game, source: str = "<game>"):
    """A one- or two-player :class:`~symgame.model.game.NormalFormGame` as a tree file of simultaneous moves
    (the column player does not see the row), so that :func:`~symgame.model.treefile.polynomial_game_from_tree`
    makes it a polynomial game for the case-splitting engine. The parameter domain must be an interval
    (no extra assumptions) and the payoffs polynomials."""
    from .extensive import DecisionNode, ExtensiveGame, Outcome
    from .treefile import TreeFile, _variable_names

    if game.domain.assumptions:
        raise GameFileError(source, "assumptions", "the equilibrium atlas takes a parameter interval only; "
                            "drop the assumptions or use `symgame solve`")
    if game.scales:
        raise GameFileError(source, "payoffs", "the equilibrium atlas needs polynomial payoffs (a parameter "
                            "divides one); use `symgame solve`")
    players = game.players

    def leaf(i: int, j: int) -> Outcome:
        return Outcome(tuple(m[i, j] for m in game.payoffs))

    if len(players) == 1:
        root = DecisionNode(0, players[0].name, tuple((a, leaf(i, 0)) for i, a in enumerate(players[0].actions)))
    else:
        root = DecisionNode(0, players[0].name, tuple(
            (a, DecisionNode(1, players[1].name, tuple((b, leaf(i, j)) for j, b in enumerate(players[1].actions))))
            for i, a in enumerate(players[0].actions)))
    actions_of = {p.name: (k, p.actions) for k, p in enumerate(players)}
    names = {p.name: p.symbol for p in game.domain.parameters}
    variables = _variable_names({}, actions_of, names, source)
    tree = ExtensiveGame(game.name, tuple(p.name for p in players), root, game.description)
    return TreeFile(tree, tuple(game.domain.parameters), variables)
