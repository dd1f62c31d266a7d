"""Game trees with parameters, read from YAML or JSON: chance nodes whose probabilities may depend on
parameters, information sets, payoffs with parameters, any number of players.

A tree file compiles to a :class:`~symgame.model.polygame.PolynomialGame` in behaviour probabilities
(:func:`symgame.model.behaviour_poly.compile_payoffs`), so ``symgame atlas`` gives the whole
equilibrium atlas in one parameter::

    game: one-card-poker
    parameters:
      a: "[1/2, oo)"                       # the ante
    players: [Alice, Bob]
    variables: {"Alice high": bet_high}    # optional names of first-action probabilities
    root:
      chance:
        - prob: "1/2"
          node:
            player: Alice
            infoset: Alice high
            actions:
              bet: {...a node...}
              check: {payoffs: ["a", "-a"]}
        - prob: "1/2"
          node: {...}

A node is a leaf ``{payoffs: [one expression per player]}``, a chance node ``{chance: [{prob, node,
label (optional)}]}`` or a move ``{player, infoset, actions: {action: node}}``; every node of one
information set must list the same actions. Expressions go through the restricted parser of
:mod:`symgame.model.expr` with the declared parameters only. The file is read iteratively (no
recursion), sizes are bounded, and each problem is one :class:`~symgame.model.gamefile.GameFileError`
line naming the place (``root.chance[1].node.actions.bet.payoffs[0]``).

Examples
--------
>>> leaf = lambda u: {"payoffs": [u, "-(" + u + ")"]}
>>> data = {"game": "pennies", "parameters": {"t": "[0, 1]"}, "players": ["A", "B"],
...         "root": {"player": "A", "infoset": "A", "actions": {
...             "heads": {"player": "B", "infoset": "B", "actions": {"heads": leaf("1 + t"), "tails": leaf("-1")}},
...             "tails": {"player": "B", "infoset": "B", "actions": {"heads": leaf("-1"), "tails": leaf("1")}}}}}
>>> game = polynomial_game_from_tree(tree_from_data(data))
>>> [p.variables for p in game.players], game.players[0].payoff
([('A',), ('B',)], A*B*t + 4*A*B - 2*A - 2*B + 1)
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sympy as sp

from .expr import ExpressionError, parse_expression
from .extensive import Chance, DecisionNode, ExtensiveGame, Node, Outcome
from .gamefile import GameFileError, _game_name, _parameters, check_keys, read_document
from .parameters import Parameter

MAX_NODES = 200_000
MAX_DEPTH = 400
TOP_KEYS = {"game", "description", "parameters", "players", "variables", "root"}
_IDENT = re.compile(r"[^A-Za-z0-9_]+")


@dataclass(frozen=True)
class TreeFile:
    """A game tree read from a file, with its parameters and the names of its behaviour variables."""

    game: ExtensiveGame
    parameters: tuple[Parameter, ...]
    variables: dict[str, str]            # information set -> variable name (probability of its first action)


def is_tree_data(data: Any) -> bool:
    """Whether parsed file content is a game tree (it has a ``root``)."""
    return isinstance(data, dict) and "root" in data


def load_tree_file(path: str | Path) -> TreeFile:
    """Read a game-tree file (format in the module docstring)."""
    data, source = read_document(path)
    return tree_from_data(data, source)


def tree_from_data(data: Any, source: str = "<tree>") -> TreeFile:
    """Validate parsed content and build the tree (iteratively)."""
    check_keys(data, source, TOP_KEYS, ("game", "players", "root"))
    name = _game_name(data["game"], source)
    parameters = tuple(_parameters(data.get("parameters") or {}, source))
    names = {p.name: p.symbol for p in parameters}
    players = data["players"]
    if (not isinstance(players, list) or not 1 <= len(players) <= 16
            or not all(isinstance(p, str) and p for p in players) or len(set(players)) != len(players)):
        raise GameFileError(source, "players", "must list 1 to 16 distinct player names")
    index = {p: k for k, p in enumerate(players)}

    def expr(value: Any, place: str) -> sp.Expr:
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise GameFileError(source, place, "must be an integer or an expression in quotes")
        try:
            return parse_expression(str(value), names)
        except ExpressionError as exc:
            raise GameFileError(source, place, str(exc)) from None

    # top-down: give every node an id, remember its spec and children; then build bottom-up
    specs: list[tuple[Any, str]] = []
    children: list[list[tuple[Any, int]]] = []            # (label or probability, child id)
    kinds: list[str] = []
    stack: list[tuple[Any, str, int, int | None, Any]] = [(data["root"], "root", 0, None, None)]
    actions_of: dict[str, tuple[int, tuple[str, ...]]] = {}
    while stack:
        spec, place, depth, parent, edge = stack.pop()
        if len(specs) >= MAX_NODES:
            raise GameFileError(source, place, f"more than {MAX_NODES} nodes")
        if depth > MAX_DEPTH:
            raise GameFileError(source, place, f"deeper than {MAX_DEPTH} levels")
        node_id = len(specs)
        specs.append((spec, place))
        children.append([])
        if parent is not None:
            children[parent].append((edge, node_id))
        if not isinstance(spec, dict):
            raise GameFileError(source, place, "a node must be a mapping: {payoffs}, {chance} or {player, infoset, "
                                               "actions}")
        if "payoffs" in spec:
            kinds.append("leaf")
            _only(spec, {"payoffs"}, source, place)
            continue
        if "chance" in spec:
            kinds.append("chance")
            _only(spec, {"chance"}, source, place)
            branches = spec["chance"]
            if not isinstance(branches, list) or not branches:
                raise GameFileError(source, f"{place}.chance", "must be a non-empty list of {prob, node}")
            pending = []
            for k, branch in enumerate(branches):
                where = f"{place}.chance[{k}]"
                if not isinstance(branch, dict) or "prob" not in branch or "node" not in branch:
                    raise GameFileError(source, where, "must be a mapping with prob and node (label optional)")
                _only(branch, {"prob", "node", "label"}, source, where)
                pending.append((branch["node"], f"{where}.node", depth + 1, node_id, expr(branch["prob"], f"{where}.prob")))
            stack.extend(reversed(pending))
            continue
        kinds.append("move")
        _only(spec, {"player", "infoset", "actions"}, source, place)
        player, infoset, acts = spec.get("player"), spec.get("infoset"), spec.get("actions")
        if player not in index:
            raise GameFileError(source, f"{place}.player", f"must be one of the players ({', '.join(players)})")
        if not isinstance(infoset, (str, int)) or str(infoset) == "":
            raise GameFileError(source, f"{place}.infoset", "must name the information set")
        if not isinstance(acts, dict) or not acts:
            raise GameFileError(source, f"{place}.actions", "must map each action to a node")
        _label(str(infoset), source, f"{place}.infoset", "information set name")
        labels = tuple(_label(str(a), source, f"{place}.actions", "action") for a in acts)
        known = actions_of.setdefault(str(infoset), (index[player], labels))
        if known != (index[player], labels):
            raise GameFileError(source, f"{place}.infoset", f"information set {infoset!r} appears with another "
                                "player or other actions")
        stack.extend(reversed([(child, f"{place}.actions.{label}", depth + 1, node_id, str(label))
                               for label, child in acts.items()]))
    built: dict[int, Node] = {}
    for node_id in reversed(range(len(specs))):
        spec, place = specs[node_id]
        if kinds[node_id] == "leaf":
            values = spec["payoffs"]
            if not isinstance(values, list) or len(values) != len(players):
                raise GameFileError(source, f"{place}.payoffs", f"must list {len(players)} payoffs, one per player")
            built[node_id] = Outcome(tuple(expr(v, f"{place}.payoffs[{k}]") for k, v in enumerate(values)))
        elif kinds[node_id] == "chance":
            branches = [(p, built.pop(c)) for p, c in children[node_id]]
            total = sp.simplify(sum(p for p, _ in branches) - 1)
            if total != 0:
                raise GameFileError(source, f"{place}.chance", "the probabilities must sum to 1 for every parameter "
                                    "value")
            built[node_id] = Chance(tuple(branches))
        else:
            built[node_id] = DecisionNode(index[spec["player"]], str(spec["infoset"]),
                                          tuple((label, built.pop(c)) for label, c in children[node_id]))
    variables = _variable_names(data.get("variables") or {}, actions_of, names, source)
    description = data.get("description", "")
    if not isinstance(description, str):
        raise GameFileError(source, "description", "must be a string")
    game = ExtensiveGame(name, tuple(players), built[0], description)
    return TreeFile(game, parameters, variables)


def _only(spec: dict, allowed: set[str], source: str, place: str) -> None:
    extra = sorted(str(k) for k in spec if k not in allowed)
    if extra:
        raise GameFileError(source, f"{place}.{extra[0]}", f"unknown key here (allowed: {', '.join(sorted(allowed))})")


def _label(text: str, source: str, place: str, what: str) -> str:
    """A name that reaches the outputs, refused in one line when :func:`symgame.model.store.check_label`
    refuses it."""
    from ..errors import InputError
    from .store import check_label

    try:
        return check_label(text, what)
    except InputError as exc:
        raise GameFileError(source, place, str(exc)) from None


def _variable_names(given: Any, actions_of: dict[str, tuple[int, tuple[str, ...]]], parameters: dict[str, sp.Expr],
                    source: str) -> dict[str, str]:
    if not isinstance(given, dict):
        raise GameFileError(source, "variables", "must map information sets to variable names")
    for infoset, var in given.items():
        if str(infoset) not in actions_of:
            raise GameFileError(source, f"variables.{infoset}", "not an information set of the tree")
        if not isinstance(var, str) or not var.isidentifier():
            raise GameFileError(source, f"variables.{infoset}", "must be an identifier")
    out: dict[str, str] = {}
    taken = set(parameters)
    for infoset, (_, labels) in actions_of.items():
        if len(labels) != 2:
            continue                     # one action: forced; three or more: one variable per action but the last
        base, var = _fresh(str(given.get(infoset) or _IDENT.sub("_", infoset).strip("_") or "x"), taken)
        if infoset in given and var != base:
            raise GameFileError(source, f"variables.{infoset}", f"{base!r} is already a parameter or variable")
        out[infoset] = var
    return out


def _fresh(base: str, taken: set[str]) -> tuple[str, str]:
    """``base`` made an identifier, and the first of ``base``, ``base_2``, ... not in ``taken`` (then added)."""
    if not base[0].isalpha():
        base = "x_" + base
    var, k = base, 1
    while var in taken:
        k += 1
        var = f"{base}_{k}"
    taken.add(var)
    return base, var


def polynomial_game_from_tree(tree: TreeFile, source: str = "<tree>"):
    """The tree's expected payoffs as a polynomial game in behaviour probabilities, ready for the case-splitting
    engine (:mod:`symgame.model.sequential`): one variable per two-action information set (the probability of
    its first action); an information set of three or more actions becomes a chain of two-action choices whose
    variables ``{set}_{action}`` are the probability of that action given that none of the earlier ones is
    chosen. With perfect recall the result is a :class:`~symgame.model.sequential.SequentialGame`, whose
    conditions make every solution a Nash equilibrium; otherwise a plain
    :class:`~symgame.model.polygame.PolynomialGame` (the atlas's certificates then say which solutions are
    equilibria)."""
    from .behaviour_poly import compile_payoffs
    from .polygame import PolynomialGame, PolynomialGameError, PolyPlayer
    from .sequential import ImperfectRecall, SequentialGame, binarize, chain_meaning, chain_steps, own_reach

    game = binarize(tree.game)
    variables = dict(tree.variables)
    meanings: list[tuple[str, str]] = []
    if game is not tree.game:
        steps = chain_steps(tree.game)
        chained = _chain_names(game, variables, {p.name for p in tree.parameters}, steps)
        variables.update(chained)
        meanings = [(var, chain_meaning(*steps[infoset])) for infoset, var in chained.items()]
    compiled = compile_payoffs(game, variables)
    players = tuple(PolyPlayer(name, names, payoff)
                    for name, names, payoff in zip(compiled.players, compiled.variables, compiled.payoffs))
    try:
        reach = tuple(sorted((x, r) for x, r in own_reach(game, variables).items() if r != 1))
    except ImperfectRecall:
        reach = None
    try:
        if reach is None:
            return PolynomialGame(tree.game.name, tree.parameters, players, tree.game.description)
        order = [x for names in compiled.variables for x in names]
        return SequentialGame(tree.game.name, tree.parameters, players, tree.game.description, reach=reach,
                              meanings=tuple(sorted(meanings, key=lambda item: order.index(item[0]))))
    except PolynomialGameError as exc:
        raise GameFileError(source, "root", str(exc)) from None


def _chain_names(game: ExtensiveGame, variables: dict[str, str], parameters: set[str],
                 steps: dict[str, tuple[str, tuple[str, ...], int]]) -> dict[str, str]:
    """Names ``{set}_{action}`` for the two-action steps of the chains :func:`~symgame.model.sequential.binarize`
    made (``steps``: :func:`~symgame.model.sequential.chain_steps`; iteratively, in the order of the tree)."""
    taken = set(parameters) | set(variables.values())
    out: dict[str, str] = {}
    stack: list[Node] = [game.root]
    while stack:
        node = stack.pop()
        if isinstance(node, Chance):
            stack.extend(child for _, child in reversed(node.outcomes))
            continue
        if not isinstance(node, DecisionNode):
            continue
        stack.extend(child for _, child in reversed(node.actions))
        if len(node.actions) != 2 or node.infoset in variables or node.infoset in out:
            continue
        base, labels, step = steps[node.infoset]
        stem = (_IDENT.sub("_", base).strip("_") or "x") + "_" + (_IDENT.sub("_", labels[step]).strip("_") or "a")
        out[node.infoset] = _fresh(stem, taken)[1]
    return out
