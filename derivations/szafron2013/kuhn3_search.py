"""The exhaustive case search of the kuhn3 study's game for every P >= 2, measured step by step (issue 41 item 2).

The study (:mod:`derivations.szafron2013.kuhn3`) derives the families that a numeric search proposes; a proved
complete atlas would need the exhaustive search of the atlas engine (:func:`symgame.engine.atlas.build_atlas`)
over the 3^26 cases of the game left by the dominance, on every piece of P the engine searches. This part measures
how large that search is and what each pruning lever makes of it, with no wall-clock limit deciding anything:

0. **The search as it is**: Knuth's estimate of the surviving nodes and cases on each piece
   (:meth:`symgame.engine.casesplit.CaseSearch.estimate`; D. E. Knuth, "Estimating the efficiency of backtrack
   programs", Mathematics of Computation 29(129), 121-136, 1975), :data:`PROBES` seeded probes per piece.
1. **Dominance proved piece by piece** (:func:`symgame.engine.polydominance.weakly_dominated` with P in the
   piece, no time limit, iterated, every free frequency tried): what it fixes beyond the dominance for all P.
2. **Nogoods in advance**: every single choice and pair of choices of two information sets that bisection
   refutes with the other frequencies free (:meth:`~symgame.engine.casesplit.CaseSearch.learn_nogoods`); the
   estimate again with them.
3. **Cores learned from refuted cases** (:meth:`~symgame.engine.casesplit.CaseSearch.learn_from_case`), on
   :data:`SUBTREES` subtrees per piece below :data:`PREFIX` choices drawn by a seeded walk: the subtree's
   survivors, how many the cores of the piece's earlier subtrees cut, and of the first :data:`LEARN` others how
   many bisection refutes (each giving a core) and how many it does not.

The frequencies the study's dominance pass does not try (declared open: z3 ran past 20 s on them in the larger
games of its first rounds) are decided here in the game it ends with: z3 finds an exact point where each one's
derivative is positive and one where it is negative (:func:`symgame.engine.polydominance.sign_witnesses`), so
neither is dominated, in that game or in any larger one of the pass (whose boxes contain its box as a face), and
the dominance pass is complete.

The symmetry of the deal is no lever: the players act in a fixed order with different information sets and the
showdown depends on the order of the cards, so the game has no nontrivial automorphism.
"""
from __future__ import annotations

import dataclasses
import json
import math
import random
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any

from .kuhn3 import CACHE_FILE, reduced_game

PART = "kuhn3/search"
PROBES = 2000
SEED = 17
SUBTREES = 2
PREFIX = 14
LEARN = 300
#: Bumped when what the part records changes.
METHOD_VERSION = 1


def _key(data: dict[str, Any]):
    from symgame.export.cache import content_key

    return content_key(PART, {"fixed": data["dominance"]["fixed"], "probes": PROBES, "seed": SEED,
                              "subtrees": SUBTREES, "prefix": PREFIX, "learn": LEARN},
                       [__name__], version=METHOD_VERSION)


def _walk(search, piece: int, depth: int, seed: int) -> str:
    """A prefix of ``depth`` choices drawn through surviving children (seeded; a walk that dies is drawn again)."""
    from symgame.engine.casesplit import _value_range

    rng = random.Random(seed)
    while True:
        lo, hi = search.box(search.pieces[piece])
        choice: list[str] = []
        for d in range(depth):
            alive = []
            for c in search.choices(search.structure.order[d]):
                trial_lo, trial_hi = lo[:], hi[:]
                value = _value_range(c)
                trial_lo[d], trial_hi[d] = max(trial_lo[d], value[0]), min(trial_hi[d], value[1])
                if trial_lo[d] <= trial_hi[d] and search.propagate(piece, "".join(choice + [c]), trial_lo, trial_hi):
                    alive.append((c, trial_lo, trial_hi))
            if not alive:
                break
            c, lo, hi = rng.choice(alive)
            choice.append(c)
        if len(choice) == depth:
            return "".join(choice)


def _search(data: dict[str, Any]):
    from symgame.engine.casesplit import CaseSearch, detect_structure, parameter_pieces

    game = reduced_game(data["dominance"]["fixed"])
    return game, CaseSearch(game, detect_structure(game), parameter_pieces(game))


def compute_search(data: dict[str, Any]) -> dict[str, Any]:
    """Measure the exhaustive search of the study ``data``'s game (module docstring); JSON-ready, deterministic."""
    from symgame.engine.casesplit import SearchTask
    from symgame.engine.polydominance import sign_witnesses, weakly_dominated
    from symgame.model.parameters import parse_domain

    game, search = _search(data)
    not_dominated = {}
    for x in data["dominance"]["undecided"]:
        found = sign_witnesses(game, x)
        not_dominated[x] = {sign: None if point is None else {n: str(v) for n, v in point.items()}
                            for sign, point in found.items()}
    pieces = []
    for k, piece in enumerate(search.pieces):
        base = search.estimate(k, PROBES, SEED)
        domain = parse_domain("P", f"[{piece.lower}, oo)" if piece.tail else f"[{piece.lower}, {piece.upper}]")
        dominated = weakly_dominated(dataclasses.replace(game, parameters=(domain,)), timeout_ms=None)
        learned = search.learn_nogoods(k)
        after = search.estimate(k, PROBES, SEED)
        subtrees = []
        for j in range(SUBTREES):
            task = SearchTask(k, _walk(search, k, PREFIX, seed=100 * j + k))
            with_earlier = search.run(task)
            saved = search.nogoods[k]
            search.set_nogoods(k, learned)
            plain = search.run(task)
            search.set_nogoods(k, saved)
            cores = not_refuted = 0
            sizes = []
            for case in with_earlier.survivors[:LEARN]:
                if search.contains_nogood(k, case):
                    continue
                core = search.learn_from_case(k, case)
                if core is None:
                    not_refuted += 1
                else:
                    cores += 1
                    sizes.append(len(core))
            again = search.run(task)
            subtrees.append({"prefix": task.prefix, "nodes": plain.nodes, "survivors": len(plain.survivors),
                             "cut_by_earlier_cores": len(plain.survivors) - len(with_earlier.survivors),
                             "tried": min(LEARN, len(with_earlier.survivors)), "cores": cores,
                             "core_choices": [min(sizes), max(sizes)] if sizes else None,
                             "not_refuted": not_refuted, "nodes_after": again.nodes,
                             "survivors_after": len(again.survivors)})
        pieces.append({"piece": piece.label, "nodes": base.nodes, "cases": base.cases,
                       "dominance_fixed": dict(sorted(dominated.fixed.items())),
                       "dominance_undecided": list(dominated.undecided),
                       "nogoods_single": sum(len(c) == 1 for c in learned.cuts),
                       "nogoods_pairs": sum(len(c) == 2 for c in learned.cuts),
                       "nodes_with_nogoods": after.nodes, "cases_with_nogoods": after.cases, "subtrees": subtrees})
    tried = sum(s["tried"] for p in pieces for s in p["subtrees"])
    left = sum(s["not_refuted"] for p in pieces for s in p["subtrees"])
    cases = math.fsum(p["cases_with_nogoods"] for p in pieces)
    return {"free": len(game.variables), "raw_cases_per_piece": 3 ** len(game.variables),
            "not_dominated": not_dominated,
            "probes": PROBES, "seed": SEED, "prefix": PREFIX, "learn": LEARN, "pieces": pieces,
            "total": {"nodes": math.fsum(p["nodes"] for p in pieces), "cases": math.fsum(p["cases"] for p in pieces),
                      "nodes_with_nogoods": math.fsum(p["nodes_with_nogoods"] for p in pieces),
                      "cases_with_nogoods": cases, "tried": tried, "not_refuted": left,
                      "cut_by_other_subtrees": sum(s["cut_by_earlier_cores"] for p in pieces for s in p["subtrees"]),
                      "core_choices": [min(s["core_choices"][0] for p in pieces for s in p["subtrees"] if s["cores"]),
                                       max(s["core_choices"][1] for p in pieces for s in p["subtrees"] if s["cores"])],
                      "cases_left": cases * left / tried if tried else cases}}


def check_search(data: dict[str, Any], measured: dict[str, Any]) -> None:
    """Re-verify the stored measurement before it is used: every sign witness of a frequency not dominated (exact:
    in the box and the domain, the derivative of that sign there), the estimate of the first piece computed again
    (seeded: the same numbers), and the totals the sums of the pieces.

    Raises
    ------
    StoreError
        Naming what does not hold.
    """
    from symgame.errors import StoreError

    where = f"{CACHE_FILE}: {PART}"
    try:
        game = reduced_game(data["dominance"]["fixed"])
        for x, found in measured["not_dominated"].items():
            for sign, point in found.items():
                if point is None or not _witness_holds(game, x, sign, point):
                    raise StoreError(f"{where}: the witness of {x}'s derivative {sign} 0 does not hold")
        first = measured["pieces"][0]
        nodes, cases = _first_estimate(json.dumps(data["dominance"]["fixed"], sort_keys=True))
        if not (math.isclose(nodes, first["nodes"], rel_tol=1e-9) and math.isclose(cases, first["cases"], rel_tol=1e-9)):
            raise StoreError(f"{where}: the estimate of piece {first['piece']} is not the one computed again")
        if not math.isclose(math.fsum(p["nodes"] for p in measured["pieces"]), measured["total"]["nodes"],
                            rel_tol=1e-12):
            raise StoreError(f"{where}: the total of the nodes is not the sum of the pieces")
    except StoreError:
        raise
    except (KeyError, TypeError, IndexError, ValueError) as exc:
        raise StoreError(f"{where}: the stored measurement cannot be read back ({type(exc).__name__}: {exc})") \
            from None


@lru_cache(maxsize=4)
def _first_estimate(fixed: str) -> tuple[float, float]:
    """The first piece's seeded estimate (nodes, cases) of the game with the dominance fixes ``fixed`` (JSON),
    computed from the code, once per process (every re-check in a process compares with the same numbers)."""
    from symgame.engine.casesplit import CaseSearch, detect_structure, parameter_pieces

    game = reduced_game(json.loads(fixed))
    # the first piece alone: its estimate uses nothing of the others (building all nine took 26 of the 30 s)
    search = CaseSearch(game, detect_structure(game), parameter_pieces(game)[:1])
    again = search.estimate(0, PROBES, SEED)
    return again.nodes, again.cases


def _witness_holds(game, x: str, sign: str, point: dict[str, str]) -> bool:
    """Whether ``point`` (exact rationals, read by the restricted parser) lies in the box and the domain and the
    derivative of ``x`` has ``sign`` there."""
    import sympy as sp

    from symgame.model.expr import parse_expression

    values = {str(s): parse_expression(point[str(s)], {}, sqrt=False) for s in game.generators}
    if not all(v.is_Rational for v in values.values()) or not all(0 <= values[y] <= 1 for y in game.variables):
        return False
    if not all(p.contains(Fraction(int(values[p.name].p), int(values[p.name].q))) for p in game.parameters):
        return False
    value = sp.expand(game.derivatives[x].as_expr().subs({s: values[str(s)] for s in game.generators}))
    return bool(value > 0) if sign == "+" else bool(value < 0)


def search_measurement(directory: Path | None, data: dict[str, Any], recompute: bool = False) -> dict[str, Any]:
    """The cached measurement of the study ``data``'s exhaustive search, computed when the cache has none."""
    from symgame.export.cache import StudyCache, cached

    cache = StudyCache(directory / CACHE_FILE) if directory is not None else None
    return cached(cache, PART, _key(data), lambda: compute_search(data), recompute=recompute,
                  check=lambda stored: check_search(data, stored))
