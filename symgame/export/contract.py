"""One result contract for every engine: the JSON that :meth:`symgame.Solution.to_json` writes and
:meth:`symgame.Solution.from_json` reads back, and the text and Markdown that render it.

Every engine answers in its own terms (a decision list, families over a parameter interval, a tree's value,
the extreme equilibria of a strategic form); the functions ``from_*`` here restate each engine's own record
in the same fields, and keep that record whole under ``detail``. They are pure functions of data already
computed: nothing here solves, proves or samples.

The contract (schema ``solution.schema.json`` beside this module, :data:`SCHEMA_ID`, version
:data:`SCHEMA_VERSION`):

``game``, ``kind``
    The game's name; ``"normal form"``, ``"game tree"`` or ``"polynomial game"``.
``engine``
    ``{"name", "method"}``: which of symgame's engines answered, and how.
``players``, ``parameters``
    Each player's ``name`` with her ``actions`` (normal form), ``information_sets`` (``{"name", "actions"}``,
    trees) or ``variables`` (polynomial games); each parameter's ``name`` and ``domain``.
``equilibria``
    Every equilibrium or family found: ``id`` (``E1``, ... or the atlas's ``F1``, ...), ``where`` (the
    conditions on the parameters under which it is one; ``[]``: wherever the game is defined), exact
    ``strategies`` (per player and action), ``behaviour`` (per player, information set and action; ``null``
    at a set the player's own moves never reach) or ``variables`` (per variable), ``payoffs`` per player
    (``null`` where the engine gives none), ``free`` (a family's free variables) and ``status``.
``pieces``
    The parameter domain in first-match order: ``when`` (conditions), ``readable``, ``equilibria`` (the ids
    valid there, or ``null`` when the engine did not partition them by piece), ``selected`` (the id the
    selection picks there, or ``null``) and, for zero-sum games, ``value``.
``selection``
    ``{"method", "why"}``: how ``selected`` was chosen.
``complete``
    ``{"status", "why"}``: ``"complete"`` (every equilibrium is listed), ``"generic"`` (every equilibrium
    where the game is nondegenerate) or ``"not complete"``, and why.
``certificate``
    ``{"status", "method"}``: ``"proved"``, ``"refuted"`` or ``"undecided"``, and how it was checked.
``notes``, ``detail``
    Sentences the reader should see; the engine's own record (its fields are documented with the engine).

Examples
--------
>>> data = from_strategic({"game": "g", "players": ["A", "B", "C"], "strategies": {"A": ["x"], "B": ["y"],
...     "C": ["z"]}, "equilibria": [{"profile": {"A": {"x": "1"}, "B": {"y": "1"}, "C": {"z": "1"}},
...     "payoffs": {"A": "0", "B": "0", "C": "0"}, "verified": True}], "families": [], "undecided": [],
...     "complete": True, "engine": "enumpoly", "method": "support enumeration"})
>>> print(render_text(data))
g: 1 equilibrium (complete; certificate proved)
  E1: A plays x; B plays y; C plays z  (payoffs 0, 0, 0)
>>> check_contract(data) == data
True
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from .._version import __version__
from ..errors import StoreError

SCHEMA_ID = "https://symgame.invalid/solution.schema.json"
SCHEMA_VERSION = 1
KINDS = ("normal form", "game tree", "polynomial game")
COMPLETE = ("complete", "generic", "not complete")
CERTIFICATE = ("proved", "refuted", "undecided")
VARIABLES = ("", "variables")          # the key of the variables' order in :func:`_orders`
ACTIONS = "\x00actions"                  # (player, ACTIONS): her actions when she moves once (an unusable set name)


def _head(game: str, kind: str, engine: str, method: str, players: list, parameters: list) -> dict[str, Any]:
    return {"schema": SCHEMA_ID, "schema_version": SCHEMA_VERSION, "symgame_version": __version__,
            "game": game, "kind": kind, "engine": {"name": engine, "method": method},
            "players": players, "parameters": parameters}


def _tail(out: dict[str, Any], equilibria: list, pieces: list, selection: tuple[str, str],
          complete: tuple[str, str], certificate: tuple[str, str], detail: Mapping[str, Any],
          notes: Sequence[str] = ()) -> dict[str, Any]:
    out.update({"equilibria": equilibria, "pieces": pieces,
                "selection": {"method": selection[0], "why": selection[1]},
                "complete": {"status": complete[0], "why": complete[1]},
                "certificate": {"status": certificate[0], "method": certificate[1]},
                "notes": list(notes), "detail": dict(detail)})
    return out


def _unique(conditions: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(conditions))


def _nonzero(probs: Mapping[str, str]) -> dict[str, str]:
    return {a: p for a, p in probs.items() if p != "0"}


# --------------------------------------------------------------------------- builders, one per engine

def from_normal_form(data: Mapping[str, Any], payoffs: Sequence[Mapping[str, str]]) -> dict[str, Any]:
    """The contract of the parametric normal-form engine from its own record (``derivation_json`` or the
    fuller ``analysis_json`` of :mod:`symgame.export.documents`); ``payoffs[k]`` is branch ``k``'s exact
    expected payoff per player."""
    players = [{"name": p["name"], "actions": list(p["actions"])} for p in data["players"]]
    equilibria: list[dict[str, Any]] = []
    ident: dict[tuple, str] = {}
    seen: set = set()
    for k, b in enumerate(data["branches"]):
        key = _key(b["profile"])
        where = _unique(b["region"])
        if (key, tuple(where)) in seen:       # the same profile from another support pair (a degenerate game)
            continue
        seen.add((key, tuple(where)))
        name = f"E{len(equilibria) + 1}"
        ident.setdefault(key, name)
        equilibria.append({"id": name, "where": where, "strategies": b["profile"], "payoffs": dict(payoffs[k]),
                           "status": "verified" if b.get("nonempty") == "proved" else "undecided"})
    method = data["selection"]["method"]
    if data.get("all_equilibria") is not None:
        pieces = [{"when": _unique(r["when"]), "readable": r.get("readable", ""),
                   "equilibria": list(dict.fromkeys(ident[_key(p)] for p in r["profiles"])), "selected": None}
                  for r in data["all_equilibria"]]
        selection = ("all", "every equilibrium valid in each piece is listed; none is singled out")
    else:
        pieces = []
        for rule in data["pdl"]:
            piece: dict[str, Any] = {"when": _unique(rule["when"]), "readable": rule.get("readable", ""),
                                     "equilibria": None, "selected": ident.get(_key(rule["profile"]))}
            if "value" in rule:
                piece["value"] = rule["value"]
            pieces.append(piece)
        selection = (method, data["selection"]["description"])
    verification = data.get("verification")
    if verification is not None:
        status = verification["certificate"]["status"]
        points = verification["sample_points"]
        how = (f"z3 proof that every rule is an equilibrium wherever it applies; exact regret 0 at "
               f"{points['exact_nash']} of {points['count']} rational sample points, an independent numeric "
               f"solver agreeing at {points['numeric_agree']}")
    else:
        status, how = "undecided", "not certified (derivation only)"
    notes = []
    if data.get("coverage") != "proved":
        notes.append(f"the cover of the parameter domain by the branches is {data.get('coverage')}")
    complete = ("generic", "support enumeration over every pair of equal-size supports: every equilibrium "
                "where the game is nondegenerate; at degenerate parameter values (boundaries of the pieces) "
                "equilibria with supports of unequal size or continua may be missing")
    return _tail(_head(data["game"], "normal form", "parametric support enumeration", data["engine"]["method"],
                       players, list(data["parameters"])),
                 equilibria, pieces, selection, complete, (status, how), data, notes)


def _key(profile: Mapping[str, Mapping[str, str]]) -> tuple:
    return tuple((name, tuple(sorted(_nonzero(probs).items()))) for name, probs in sorted(profile.items()))


def from_vertices(data: Mapping[str, Any], players: Sequence[Mapping[str, Any]],
                  parameters: Sequence[Mapping[str, str]], notes: Sequence[str] = ()) -> dict[str, Any]:
    """The contract of vertex enumeration at a point (:func:`symgame.api.equilibria_json`)."""
    equilibria: list[dict[str, Any]] = [{"id": f"E{k + 1}", "where": [], "strategies": _profile(e["profile"]),
                   "payoffs": dict(e["payoffs"]), "status": "verified" if e["verified"] else "undecided"}
                  for k, e in enumerate(data["equilibria"])]
    return _point_tail(_head(data["game"], "normal form", "vertex enumeration",
                             "every extreme equilibrium of the bimatrix game (exact vertex enumeration)",
                             [dict(p) for p in players], list(parameters)),
                       equilibria, data["complete"],
                       "every extreme equilibrium and the maximal convex sets they span (under detail.components)",
                       "vertex enumeration stopped at its limit", data, notes)


def from_strategic(data: Mapping[str, Any]) -> dict[str, Any]:
    """The contract of support enumeration on polynomial systems (:func:`symgame.api.strategic_equilibria_json`),
    for a normal form of any number of players or a tree through its strategic form."""
    tree = data.get("perfect_recall") is not None
    equilibria = [_equilibrium(f"E{k + 1}", e) for k, e in enumerate(data["equilibria"])]
    for k, f in enumerate(data.get("families", [])):
        entry: dict[str, Any] = {"id": f"C{k + 1}", "where": [], "family": {"support": f["support"], "equations": f["equations"],
                                                           "inequalities": f["inequalities"]},
                 "payoffs": None, "status": "undecided"}
        if f.get("witness") is not None:
            witness = _equilibrium(f"C{k + 1}", f["witness"])
            entry.update({key: witness[key] for key in ("strategies", "behaviour", "payoffs") if key in witness})
            entry["status"] = witness["status"]
            entry["note"] = "a family of equilibria; the strategies shown are one exact member"
        equilibria.append(entry)
    undecided = len(data.get("undecided", []))
    why_not = f"{undecided} supports undecided" if undecided else "enumeration stopped at a limit"
    return _point_tail(_head(data["game"], "game tree" if tree else "normal form", data["engine"], data["method"],
                             _strategy_players(data), []),
                       equilibria, data["complete"], "every isolated equilibrium and every family of positive "
                       "dimension (by support)", why_not, data)


def _strategy_players(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    names = data["players"]
    strategies = data.get("strategies") or {}
    return [{"name": n, "actions": list(strategies.get(n, []))} for n in names]


def _profile(profile: Mapping[str, Mapping[str, str]]) -> dict[str, dict[str, str]]:
    return {name: _nonzero(probs) for name, probs in profile.items()}


def _equilibrium(ident: str, e: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"id": ident, "where": []}
    if e.get("behaviour") is not None:
        out["behaviour"] = e["behaviour"]
    if e.get("profile") is not None:
        out["strategies"] = _profile(e["profile"])
    out["payoffs"] = dict(e["payoffs"]) if e.get("payoffs") is not None else None
    out["status"] = "verified" if e.get("verified") else "undecided"
    return out


def _point_tail(out: dict[str, Any], equilibria: list, complete: bool, why: str, why_not: str,
                data: Mapping[str, Any], notes: Sequence[str] = ()) -> dict[str, Any]:
    """One piece (no parameters) holding every equilibrium; the first is the one shown."""
    ids = [e["id"] for e in equilibria]
    pieces = [{"when": [], "readable": "", "equilibria": ids, "selected": ids[0] if ids else None}]
    verified = all(e["status"] == "verified" for e in equilibria if "family" not in e)
    notes = list(notes)
    if data.get("chance_from_decimals"):
        notes.append(decimal_note(data["chance_from_decimals"]))
    return _tail(out, equilibria, pieces, ("first", "the first equilibrium found is the one shown; every one is "
                                                    "listed"),
                 ("complete", why) if complete else ("not complete", why_not),
                 ("proved" if verified and equilibria else "undecided",
                  "exact regret 0 of every listed equilibrium (exact arithmetic)"), data, notes)


def decimal_note(count: int) -> str:
    """The sentence saying that chance probabilities were read from floating-point decimals."""
    return (f"chance probabilities of {count} information set{'s' if count > 1 else ''} were floating-point "
            "decimals that do not sum to 1; read as the fractions they stand for (strict reading refuses them)")


def from_tree_equilibria(data: Mapping[str, Any], infosets: Mapping[str, list]) -> dict[str, Any]:
    """The contract of a tree's equilibria (:func:`symgame.api.tree_equilibria_json`: the strategic form's
    vertices, Lemke–Howson, Lemke on the sequence form, or a rounded logit path); ``infosets[player]`` lists
    ``{"name", "actions"}``."""
    if "families" in data:
        out = from_strategic(data)
        out["players"] = [{"name": n, "information_sets": list(infosets.get(n, []))} for n in data["players"]]
        return out
    equilibria = [_equilibrium(f"E{k + 1}", e) for k, e in enumerate(data["equilibria"])]
    return _point_tail(_head(data["game"], "game tree", data["engine"], data["method"],
                             [{"name": n, "information_sets": list(infosets.get(n, []))} for n in data["players"]],
                             []),
                       equilibria, data["complete"], "every extreme equilibrium of the strategic form",
                       "not every equilibrium is searched for by this method", data)


def from_tree_value(data: Mapping[str, Any], infosets: Mapping[str, list]) -> dict[str, Any]:
    """The contract of a two-player zero-sum tree's certified value and optimal behaviour strategies (the
    sequence-form LP, made exact)."""
    certified = data["certified"]
    equilibria = [{"id": "E1", "where": [], "behaviour": data["strategies"],
                   "payoffs": data.get("payoffs"), "status": "verified" if certified else "undecided"}]
    piece = {"when": [], "readable": "", "equilibria": ["E1"], "selected": "E1", "value": data["value"]}
    notes = [decimal_note(data["chance_from_decimals"])] if data.get("chance_from_decimals") else []
    return _tail(_head(data["game"], "game tree", "sequence-form LP",
                       "the zero-sum sequence-form LP, its solution made exact and certified by exact best responses",
                       [{"name": n, "information_sets": list(infosets.get(n, []))} for n in data["players"]], []),
                 equilibria, [piece], ("optimal", "an optimal strategy pair (the value is the same for every one)"),
                 ("not complete", "one optimal strategy pair; other optimal strategies may exist (the value is unique)"),
                 ("proved" if certified else "undecided",
                  "exact best-response bounds on the value" + ("" if certified else f" (they differ: {data['bounds']})")),
                 data, notes)


def from_tree_pieces(data: Mapping[str, Any], parameters: Sequence[Mapping[str, str]],
                     payoffs: Sequence[Mapping[str, str]]) -> dict[str, Any]:
    """The contract of a two-player zero-sum tree solved as exact functions of its parameters (the parametric
    sequence form: ``pieces`` of one parameter or ``regions`` of two); ``payoffs[k]`` per player of piece ``k``."""
    players = list(data["players"])
    equilibria, pieces = [], []
    rows = data["pieces"] if "pieces" in data else data["regions"]
    for k, row in enumerate(rows):
        if "pieces" in data:
            name = data["parameter"]
            low = f"{row['from']} {'<=' if row['from_closed'] else '<'} {name}" if row["from"] != "-oo" else None
            high = f"{name} {'<=' if row['to_closed'] else '<'} {row['to']}" if row["to"] != "oo" else None
            when = [c for c in (low, high) if c]
        else:
            when = _unique(row["when"])
        ident = f"E{k + 1}"
        equilibria.append({"id": ident, "where": when, "behaviour": row["behaviour"],
                           "payoffs": dict(payoffs[k]), "status": "verified"})
        pieces.append({"when": when, "readable": row.get("readable") or " and ".join(when), "equilibria": [ident],
                       "selected": ident,
                       "value": row["value"]})
    checks = data.get("checks", [])
    sets = {who: [{"name": i, "actions": list(probs)} for i, probs in rows[0]["behaviour"][who].items()]
            for who in players} if rows else {}
    return _tail(_head(data["game"], "game tree", "parametric sequence-form LP",
                       "optimal bases of the sequence-form LP followed across the parameter domain, each piece "
                       "certified on its whole stretch by LP duality",
                       [{"name": n, "information_sets": sets.get(n, [])} for n in players],
                       list(parameters)),
                 equilibria, pieces, ("optimal", "an optimal strategy pair per piece (the value is unique)"),
                 ("not complete", "one optimal strategy pair per piece; other optimal strategies may exist"),
                 ("proved", f"LP duality on every piece, the cover of the domain proved; {len(checks)} rational "
                            "points checked by an independent LP"), data)


def from_atlas(data: Mapping[str, Any], unsolved: int, all_proved: bool, numeric_agrees: bool) -> dict[str, Any]:
    """The contract of the atlas (every equilibrium family of a polynomial game with exact ranges of its
    parameter; :func:`symgame.export.atlas_outputs.atlas_json`)."""
    name = data["parameter"]["name"]
    equilibria = []
    for f in data["families"]:
        member = f["members"][0]
        free = sorted({x for m in f["members"] for x in m.get("free", [])})
        equilibria.append({"id": f["id"], "where": [_range_text(r, name) for r in f["ranges"]],
                           "variables": dict(member["values"]), "payoffs": dict(f["profits"]),
                           **({"free": free} if free else {}),
                           "status": "proved" if all(c.get("every_profile_is_equilibrium") == "proved"
                                                     for m in f["members"] for c in m["certificates"])
                           else "undecided"})
    spans: list[list[Any]] = []            # [lower, lower closed, upper, upper closed, families], in order
    domain = data["parameter"]["domain"]
    open_ends = {domain[1:-1].split(",")[0].strip() if domain.startswith("(") else None,
                 domain[1:-1].split(",")[-1].strip() if domain.endswith(")") else None} - {None}
    for c in data["coexistence"]:
        low = _endpoint_text(c["lower"])
        if c["point"] and not c["families"] and low in open_ends:
            continue                          # an open end of the domain: not part of the game
        span = [low, True, low, True, list(c["families"])] if c["point"] else \
            [low, False, _endpoint_text(c["upper"]) if c["upper"] else None, False, list(c["families"])]
        if spans and spans[-1][4] == span[4] and spans[-1][2] == span[0]:   # the same families on both sides
            spans[-1][2:4] = span[2:4]
        else:
            spans.append(span)
    pieces = []
    for low, low_closed, high, high_closed, families in spans:
        if low == high:
            when = [f"{name} == {low}"]
        else:
            when = [f"{low} {'<=' if low_closed else '<'} {name}"] + \
                ([f"{name} {'<=' if high_closed else '<'} {high}"] if high is not None else [])
        pieces.append({"when": when, "readable": " and ".join(when), "equilibria": families, "selected": None})
    meanings = data.get("variables") or {}     # chain variables: P(action | not the earlier ones)
    complete = ("complete", "the case split covers every support of every player; each case solved or refuted "
                "exactly") if not unsolved else ("not complete", f"{unsolved} cases unsolved")
    return _tail(_head(data["game"], "polynomial game", "atlas",
                       "case split over the players' best-response conditions, each case solved exactly, "
                       "families with exact ranges of the parameter",
                       [{"name": p["name"], "variables": list(p["variables"]),
                         **({"meanings": {x: meanings[x] for x in p["variables"] if x in meanings}}
                            if meanings else {})} for p in data["players"]],
                       [dict(data["parameter"])]),
                 equilibria, pieces, ("none", "the atlas lists every family valid in each piece; none is singled "
                                              "out"),
                 complete, ("proved" if all_proved and numeric_agrees else "undecided",
                            "z3 proof that every member of a family is an equilibrium on its range; an "
                            "independent numeric search at sample values of the parameter"), data)


def _endpoint_text(e: Mapping[str, Any] | None) -> str:
    if e is None:
        return "oo"
    if e.get("value") is not None:
        return str(e["value"])
    low, high = e["isolating_interval"]
    return f"root of {e['polynomial']} in [{low}, {high}]"


def _range_text(r: Mapping[str, Any], name: str) -> str:
    low = "" if r["lower"] is None else f"{_endpoint_text(r['lower'])} {'<=' if r['lower_closed'] else '<'} "
    high = "" if r["upper"] is None else f" {'<=' if r['upper_closed'] else '<'} {_endpoint_text(r['upper'])}"
    return f"{low}{name}{high}"


# --------------------------------------------------------------------------- reading back

_REQUIRED = {"schema": str, "schema_version": int, "game": str, "kind": str, "engine": dict, "players": list,
             "parameters": list, "equilibria": list, "pieces": list, "selection": dict, "complete": dict,
             "certificate": dict, "notes": list, "detail": dict}


def check_contract(data: Any, source: str = "<json>") -> dict[str, Any]:
    """``data`` if it is a result of this contract (its schema, version and fields, each of the right type),
    else a :class:`~symgame.errors.StoreError` in one line naming the place. Values stay text: exact numbers
    are read by symgame's restricted parser when used, never evaluated here."""
    def bad(where: str, problem: str) -> StoreError:
        return StoreError(f"{source}: {where}: {problem}")

    if not isinstance(data, dict):
        raise bad("top level", "not a symgame result (expected an object)")
    for key, kind in _REQUIRED.items():
        if key not in data:
            raise bad(key, "missing (not a symgame result of schema version 1)")
        if not isinstance(data[key], kind) or isinstance(data[key], bool):
            raise bad(key, f"expected {kind.__name__}")
    if data["schema"] != SCHEMA_ID or data["schema_version"] != SCHEMA_VERSION:
        raise bad("schema", f"{data['schema']} version {data['schema_version']} is not {SCHEMA_ID} version "
                            f"{SCHEMA_VERSION}")
    if data["kind"] not in KINDS:
        raise bad("kind", f"{data['kind']!r} is not one of {', '.join(KINDS)}")
    if data["complete"].get("status") not in COMPLETE:
        raise bad("complete.status", f"expected one of {', '.join(COMPLETE)}")
    if data["certificate"].get("status") not in CERTIFICATE:
        raise bad("certificate.status", f"expected one of {', '.join(CERTIFICATE)}")
    ids = set()
    for k, e in enumerate(data["equilibria"]):
        if not isinstance(e, dict) or not isinstance(e.get("id"), str) or not _texts(e.get("where")):
            raise bad(f"equilibria[{k}]", "expected an object with an id and a list of conditions")
        if not any(isinstance(e.get(key), dict) for key in ("strategies", "behaviour", "variables", "family")):
            raise bad(f"equilibria[{k}]", "no strategies, behaviour, variables or family")
        ids.add(e["id"])
    for k, p in enumerate(data["pieces"]):
        if not isinstance(p, dict) or not _texts(p.get("when")):
            raise bad(f"pieces[{k}]", "expected an object with a list of conditions")
        listed = p.get("equilibria")
        if listed is not None and (not _texts(listed) or not set(listed) <= ids):
            raise bad(f"pieces[{k}].equilibria", "names an equilibrium that is not listed")
        if p.get("selected") is not None and p["selected"] not in ids:
            raise bad(f"pieces[{k}].selected", f"{p['selected']!r} is not a listed equilibrium")
    return data


def _texts(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


# --------------------------------------------------------------------------- renderers

def _ordered(values: Mapping[str, Any], order: Sequence[str]) -> list[tuple[str, Any]]:
    """``values``' items in the order of ``order`` (JSON writes keys sorted; players keep the game's order)."""
    rank = {name: k for k, name in enumerate(order)}
    return sorted(values.items(), key=lambda item: (rank.get(item[0], len(rank)), item[0]))


def _strategies_text(e: Mapping[str, Any], order: Sequence[str] = (),
                     sets: Mapping[Any, Sequence[str]] | None = None) -> str:
    """One equilibrium as text: players in the game's order, information sets in the tree's order (``sets``),
    so a result read back from JSON (keys sorted) reads as the fresh one."""
    sets = sets or {}
    if e.get("strategies") is not None and e.get("behaviour") is None:
        return "; ".join(f"{name} plays " + _mix(probs, sets.get((name, ACTIONS), sets.get(name, ())))
                         for name, probs in _ordered(e["strategies"], order))
    if e.get("behaviour") is not None:
        return "; ".join(f"{name}: " + ", ".join(
            f"[{infoset}] " + (_mix(probs, sets.get((name, infoset), ())) if probs is not None else "unreached")
            for infoset, probs in _ordered(rules, sets.get(name, ())))
            for name, rules in _ordered(e["behaviour"], order))
    if e.get("variables") is not None:
        return ", ".join(f"{x} = {v}" for x, v in _ordered(e["variables"], sets.get(VARIABLES, ())))
    return "a family: " + "; ".join(e["family"]["equations"])


def _mix(probs: Mapping[str, str], actions: Sequence[str] = ()) -> str:
    if probs and all(p == "unreached" for p in probs.values()):
        return "unreached"
    shown = dict(_ordered(_nonzero(probs), actions))
    if len(shown) == 1 and next(iter(shown.values())) == "1":
        return next(iter(shown))
    return "{" + ", ".join(f"{a}: {p}" for a, p in shown.items()) + "}"


def _orders(data: Mapping[str, Any]) -> tuple[list[str], dict[Any, list[str]]]:
    """The players' order, and the game's order of each player's actions (normal form) or information sets
    (trees; key: the player) and of each set's actions (key: ``(player, set)``)."""
    players = [p["name"] for p in data["players"]]
    sets: dict[Any, list[str]] = {VARIABLES: [x for p in data["players"] for x in p.get("variables", [])]}
    for p in data["players"]:
        if "actions" in p:
            sets[p["name"]] = list(p["actions"])
        else:
            infosets = p.get("information_sets", [])
            sets[p["name"]] = [i["name"] for i in infosets]
            sets.update({(p["name"], i["name"]): list(i["actions"]) for i in infosets})
            if len(infosets) == 1:                    # one move: a strategy is over its actions
                sets[(p["name"], ACTIONS)] = list(infosets[0]["actions"])
    return players, sets


def _count(data: Mapping[str, Any]) -> str:
    count = len(data["equilibria"])
    if data["kind"] == "polynomial game":
        return f"{count} equilibrium famil{'y' if count == 1 else 'ies'}"
    return f"{count} equilibri{'um' if count == 1 else 'a'}"


def render_text(data: Mapping[str, Any]) -> str:
    """Plain text of any result: a header (how many equilibria, completeness, certificate), then each piece
    with the equilibria valid there, the selected one first."""
    status = data["complete"]["status"]
    head = (f"{data['game']}: {_count(data)}"
            + f" ({status}{'' if status != 'generic' else ' where nondegenerate'}; certificate "
            f"{data['certificate']['status']})")
    lines = [head]
    players, sets = _orders(data)
    by_id = {e["id"]: e for e in data["equilibria"]}
    several = len(data["pieces"]) > 1 or any(p["when"] for p in data["pieces"])
    for k, piece in enumerate(data["pieces"]):
        indent = "  "
        if several:
            cond = piece.get("readable") or " and ".join(piece["when"])
            value = f" (value {piece['value']})" if piece.get("value") is not None else ""
            label = (f"{'If' if k == 0 else 'Else if'} {cond}" if cond else ("Always" if k == 0 else "Else"))
            lines.append(f"{label}{value}:")
            indent = "    "
        listed = piece["equilibria"] if piece["equilibria"] is not None else [piece["selected"]]
        order = sorted(listed, key=lambda i: i != piece["selected"])
        for ident in order:
            if ident is None:
                continue
            e = by_id[ident]
            pay = f"  (payoffs {', '.join(v for _, v in _ordered(e['payoffs'], players))})" if e.get("payoffs") else ""
            mark = " [selected]" if ident == piece["selected"] and len(order) > 1 else ""
            lines.append(f"{indent}{ident}{mark}: {_strategies_text(e, players, sets)}{pay}")
        if piece["equilibria"] == []:
            lines.append(f"{indent}(no equilibrium)")
        if piece["equilibria"] is None and len(data["equilibria"]) > 1:
            lines.append(f"{indent}(the selected equilibrium; every equilibrium with its region is under "
                         "`equilibria`)")
        if not several and piece.get("value") is not None:
            lines.append(f"{indent}value {piece['value']}")
    lines.extend(f"({note})" for note in data["notes"])
    return "\n".join(lines)


def render_markdown(data: Mapping[str, Any]) -> str:
    """Markdown of any result: the same content as :func:`render_text`, names escaped."""
    from ..model.markup import markdown_text

    lines = [f"**{markdown_text(data['game'])}** ({markdown_text(data['engine']['name'])}): "
             f"{_count(data)}, {data['complete']['status']}, certificate "
             f"{data['certificate']['status']}", ""]
    by_id = {e["id"]: e for e in data["equilibria"]}
    players, sets = _orders(data)
    for piece in data["pieces"]:
        cond = piece.get("readable") or " and ".join(piece["when"]) or "always"
        listed = piece["equilibria"] if piece["equilibria"] is not None else [piece["selected"]]
        lines.append(f"- when `{cond}`:")
        for ident in listed:
            if ident is not None:
                lines.append(f"  - {ident}: {markdown_text(_strategies_text(by_id[ident], players, sets))}")
    lines.extend(f"\n_{markdown_text(note)}_" for note in data["notes"])
    return "\n".join(lines) + "\n"


def render_latex(data: Mapping[str, Any]) -> str:
    """A LaTeX document of any result: each piece's conditions and equilibria, every exact value read by
    symgame's restricted parser and typeset (a value it cannot read is shown verbatim), names escaped."""
    import sympy as sp

    from ..model.expr import parse_expression
    from .latex import escape

    names = {p["name"]: sp.Symbol(p["name"]) for p in data["parameters"]}
    players = [p["name"] for p in data["players"]]

    def math(text: str) -> str:
        try:
            return f"${sp.latex(parse_expression(text, names, sqrt=True))}$"
        except (ValueError, TypeError):
            return f"\\texttt{{{escape(text)}}}"

    def condition(text: str) -> str:
        for rel, shown in ((" <= ", r" \le "), (" >= ", r" \ge "), (" == ", " = "), (" != ", r" \ne "),
                           (" < ", " < "), (" > ", " > ")):
            if rel in text:
                left, right = (math(side) for side in text.split(rel, 1))
                if left.startswith("$") and right.startswith("$"):
                    return left[:-1] + shown + right[1:]
                break
        return f"\\texttt{{{escape(text)}}}"

    def strategies(e: Mapping[str, Any]) -> str:
        if e.get("behaviour") is not None:
            return "; ".join(f"\\textbf{{{escape(who)}}}: " + ", ".join(
                f"[{escape(i)}] " + ("unreached" if probs is None or _mix(probs) == "unreached" else
                                     ", ".join(f"{escape(a)} {math(p)}" for a, p in _nonzero(probs).items()))
                for i, probs in rules.items()) for who, rules in _ordered(e["behaviour"], players))
        if e.get("strategies") is not None:
            return "; ".join(f"\\textbf{{{escape(who)}}} plays " + ", ".join(
                f"{escape(a)} {math(p)}" for a, p in _nonzero(probs).items()) for who, probs in _ordered(e["strategies"], players))
        if e.get("variables") is not None:
            return ", ".join(f"{escape(x)} $=$ {math(v)}" for x, v in e["variables"].items())
        return "a family: " + "; ".join(condition(q) for q in e["family"]["equations"])

    by_id = {e["id"]: e for e in data["equilibria"]}
    lines = [r"\documentclass{article}", r"\usepackage{amsmath}", r"\begin{document}",
             f"\\section*{{{escape(data['game'])}}}",
             f"{escape(data['engine']['name'])}: {len(data['equilibria'])} equilibria, "
             f"{escape(data['complete']['status'])}; certificate {escape(data['certificate']['status'])} "
             f"({escape(data['certificate']['method'])}).", r"\begin{itemize}"]
    for piece in data["pieces"]:
        cond = ", ".join(condition(c) for c in piece["when"]) or "always"
        lines.append(f"\\item When {cond}" + (f" (value {math(piece['value'])})" if piece.get("value") else "") + ":")
        listed = piece["equilibria"] if piece["equilibria"] is not None else [piece["selected"]]
        lines.append(r"\begin{itemize}")
        lines.extend(f"\\item {escape(i)}: {strategies(by_id[i])}" for i in listed if i is not None)
        lines.append(r"\end{itemize}")
    lines += [r"\end{itemize}"] + [f"\\emph{{{escape(n)}}}\n" for n in data["notes"]] + [r"\end{document}", ""]
    return "\n".join(lines)
