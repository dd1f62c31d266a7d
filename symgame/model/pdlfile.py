"""Reading a parametric decision list from a YAML or JSON file: a claimed or printed PDL for a known game.

A PDL file lists rules in order; each rule has a condition (a list of relations, all of which must
hold; none means "otherwise") and the profile it prescribes: for each player, one probability per
action, as expressions in the game's parameters::

    pdl: matching-pennies-claim          # optional name
    source: "my notes, section 2"        # optional, free text
    rules:
      - label: pure                      # optional
        if: ["P >= 3"]
        play:
          "1": [1, 0]
          "2": [0, 1]
      - label: mixed
        play:
          "1": ["2/(P + 3)", "1 - 2/(P + 3)"]
          "2": ["2/(P + 3)", "1 - 2/(P + 3)"]

Expressions go through the restricted parser of :mod:`symgame.model.expr` with the game's
parameter names only; every problem is one :class:`~symgame.model.gamefile.GameFileError` line
naming the file and the place (``rules[2].play.Row[1]``).

Examples
--------
>>> import sympy as sp
>>> from symgame.model.game import NormalFormGame, Player
>>> from symgame.model.parameters import parse_domain
>>> from symgame.model.region import Domain
>>> P = sp.Symbol("P", real=True)
>>> game = NormalFormGame.two_player("g", Domain((parse_domain("P", "[0, oo)"),)),
...     [Player("Row", ("T", "B")), Player("Col", ("L", "R"))], [[P, 0], [0, 1]])
>>> pdl = pdl_from_data({"rules": [{"if": ["P >= 1"], "play": {"Row": [1, 0], "Col": [1, 0]}},
...                                {"play": {"Row": [0, 1], "Col": [0, 1]}}]}, game)
>>> [rule.label for rule in pdl.rules]
['rule 1', 'rule 2']
>>> pdl_from_data({"rules": [{"play": {"Row": ["1/q", 0], "Col": [1, 0]}}]}, game, "claim.yaml")
Traceback (most recent call last):
...
symgame.model.gamefile.GameFileError: claim.yaml: rules[0].play.Row[0]: unknown name 'q' at column 3 (known: P)
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import sympy as sp

from .expr import ExpressionError, parse_expression, parse_relation
from .game import NormalFormGame
from .gamefile import GameFileError, read_document
from .pdl import PDL, Profile, Rule
from .region import Atom, Region

MAX_RULES = 1_000
MAX_CONDITIONS = 100
_TOP_KEYS = {"pdl", "source", "notes", "rules"}
_RULE_KEYS = {"label", "if", "play"}


def load_pdl(path: str | Path, game: NormalFormGame) -> PDL:
    """Read a PDL for ``game`` from a YAML or JSON file (format in the module docstring).

    Raises
    ------
    GameFileError
        One line naming the file, the place and the problem.
    """
    data, source = read_document(path)
    return pdl_from_data(data, game, source)


def pdl_from_data(data: Any, game: NormalFormGame, source: str = "<pdl>") -> PDL:
    """Validate parsed content (a mapping with ``rules``) and build the :class:`~symgame.model.pdl.PDL`."""
    if not isinstance(data, dict):
        raise GameFileError(source, "", "a PDL file must contain a mapping with the key rules")
    unknown = sorted(str(k) for k in data if k not in _TOP_KEYS)
    if unknown:
        raise GameFileError(source, unknown[0], f"unknown key (allowed: {', '.join(sorted(_TOP_KEYS))})")
    rules = data.get("rules")
    if not isinstance(rules, list) or not rules:
        raise GameFileError(source, "rules", "must be a non-empty list of rules")
    if len(rules) > MAX_RULES:
        raise GameFileError(source, "rules", f"more than {MAX_RULES} rules")
    names = {p.name: p.symbol for p in game.domain.parameters}
    built = tuple(_rule(rule, k, game, names, source) for k, rule in enumerate(rules))
    if built[-1].region.atoms:
        raise GameFileError(source, f"rules[{len(built) - 1}].if", "the last rule is the otherwise rule: it takes no 'if'")
    _check_probabilities(built, game, source)
    return PDL(game.players, game.domain, built)


def _check_probabilities(rules: tuple[Rule, ...], game: NormalFormGame, source: str) -> None:
    """Numbers in [0, 1] summing to 1 per player (expressions are the claim's to answer for: the certificate
    checks them where each rule fires)."""
    for k, rule in enumerate(rules):
        for player, strategy in zip(game.players, rule.profile.strategies):
            where = f"rules[{k}].play.{player.name}"
            for j, p in enumerate(strategy):
                if p.is_number and not 0 <= p <= 1:
                    raise GameFileError(source, f"{where}[{j}]", f"probability {p} is not in [0, 1]")
            total = sp.cancel(sp.Add(*strategy))
            if total.is_number and total != 1:
                raise GameFileError(source, where, f"the probabilities sum to {total}, not 1")


def _rule(spec: Any, k: int, game: NormalFormGame, names: dict[str, sp.Expr], source: str) -> Rule:
    place = f"rules[{k}]"
    if not isinstance(spec, dict):
        raise GameFileError(source, place, "must be a mapping with keys if (optional), play, label (optional)")
    unknown = sorted(str(key) for key in spec if key not in _RULE_KEYS)
    if unknown:
        raise GameFileError(source, f"{place}.{unknown[0]}", f"unknown key (allowed: {', '.join(sorted(_RULE_KEYS))})")
    label = spec.get("label", f"rule {k + 1}")
    if not isinstance(label, (str, int)):
        raise GameFileError(source, f"{place}.label", "must be a string")
    conditions = spec.get("if") or []
    if isinstance(conditions, str):
        conditions = [conditions]
    if not isinstance(conditions, list) or len(conditions) > MAX_CONDITIONS:
        raise GameFileError(source, f"{place}.if", f"must be a list of at most {MAX_CONDITIONS} relations")
    atoms = tuple(_atom(text, names, source, f"{place}.if[{j}]") for j, text in enumerate(conditions))
    play = spec.get("play")
    if not isinstance(play, dict):
        raise GameFileError(source, f"{place}.play", "must map each player's name to a list of probabilities")
    players = [p.name for p in game.players]
    extra = sorted(str(name) for name in play if str(name) not in players)
    if extra:
        raise GameFileError(source, f"{place}.play.{extra[0]}", f"unknown player (players: {', '.join(players)})")
    strategies = []
    for player in game.players:
        key = next((name for name in play if str(name) == player.name), None)
        if key is None:
            raise GameFileError(source, f"{place}.play", f"missing player {player.name!r}")
        probs = play[key]
        where = f"{place}.play.{player.name}"
        if not isinstance(probs, list) or len(probs) != len(player.actions):
            raise GameFileError(source, where, f"must list {len(player.actions)} probabilities, one per action "
                                f"({', '.join(player.actions)})")
        strategies.append(tuple(_expression(v, names, source, f"{where}[{j}]") for j, v in enumerate(probs)))
    return Rule(Region(atoms), Profile(tuple(strategies)), str(label))


def _expression(value: Any, names: dict[str, sp.Expr], source: str, place: str) -> sp.Expr:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise GameFileError(source, place, "must be an integer or an expression in quotes (floats are inexact)")
    try:
        return parse_expression(str(value), names)
    except ExpressionError as exc:
        raise GameFileError(source, place, str(exc)) from None


def _atom(text: Any, names: dict[str, sp.Expr], source: str, place: str) -> Atom:
    if not isinstance(text, str):
        raise GameFileError(source, place, "must be a relation such as 'a >= e' in quotes")
    try:
        expr, relation = parse_relation(text, names)
    except ExpressionError as exc:
        raise GameFileError(source, place, str(exc)) from None
    return Atom(expr, relation)
