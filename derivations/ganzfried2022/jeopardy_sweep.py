"""Final Jeopardy for every pair of scores X1 > X2 >= 0 up to a largest score, derived and certified.

Ganzfried, "Human strategic decision making in parametrized games", Mathematics 10(7), 1147 (2022),
section 6.1 and Appendix B, derives the wagering PDL for the scores (5, 3) only.  Here every
pair up to a largest score (``MAX_SCORE`` of :mod:`derivations.ganzfried2022.jeopardy_sweep_outputs`) goes
through the same pipeline: dominance reduction, sample-guided exact
derivation with a proved cover, the whole-square certificate, and checks at the rules' witness points
and at seeded random rational points (exact regret 0 and HiGHS's LP value).  Near ties (X2 = X1 - 1)
are where nothing is dominated and every decision is hardest; they are decided by the plane CAD
(:mod:`symgame.model.cad`), with z3 as a second opinion.

Each pair is one cached part (``study_cache.json``, keyed by the code it runs), computed in its own process
by :func:`derivations.ganzfried2022.jeopardy_sweep_outputs.compute_sweep`, so an interrupted sweep resumes where
it stopped.  Timings are not stored (the cache is committed and deterministic);
``benchmarks/bench_jeopardy.py`` measures them.
"""
from __future__ import annotations

from typing import Any

CACHE_FILE = "study_cache.json"
RANDOM_POINTS = 12


def score_pairs(max_score: int) -> list[tuple[int, int]]:
    """Every ``(X1, X2)`` with ``max_score >= X1 > X2 >= 0``: far scores first (dominance leaves a small
    game), then the close ones by increasing ``X1``, so an interrupted sweep is complete up to some score."""
    pairs = [(a, b) for a in range(1, max_score + 1) for b in range(a)]
    return sorted(pairs, key=lambda p: (3 * p[1] > 2 * p[0], p[0] if 3 * p[1] > 2 * p[0] else 0, p))


def part_name(pair: tuple[int, int]) -> str:
    return f"pair_{pair[0]}_{pair[1]}"


def pair_key(pair: tuple[int, int]) -> str:
    from symgame.export.cache import content_key

    return content_key(part_name(pair), {"scores": list(pair), "random_points": RANDOM_POINTS}, [__name__])


def compute_pair(pair: tuple[int, int]) -> dict[str, Any]:
    """Derive, certify and check one pair of scores (JSON-ready, deterministic)."""
    from symgame.model import second_opinion

    score1, score2 = pair
    with second_opinion.background():   # one helper for the whole pair: derivation, certificate, JSON
        return _compute_pair(score1, score2)


def _compute_pair(score1: int, score2: int) -> dict[str, Any]:
    from symgame.engine.derive import derive_by_discovery
    from symgame.errors import NoResultError
    from symgame.export.documents import pdl_json
    from symgame.games import jeopardy
    from symgame.numeric.kernels import game_kernels
    from symgame.verify.certify import certify_pdl
    from symgame.verify.crosscheck import check_points, random_domain_points, rule_witness_points

    game = jeopardy.build_game(score1, score2)
    try:
        derivation = derive_by_discovery(game, game_kernels)
    except NoResultError as exc:
        return {"scores": [score1, score2], "error": str(exc)}
    pdl = derivation.pdl
    certificate = certify_pdl(game, pdl)
    points = rule_witness_points(pdl) + random_domain_points(game.domain, RANDOM_POINTS, 1000 * score1 + score2)
    report = check_points(game, pdl, points)
    return {
        "scores": [score1, score2],
        "kept": [list(k) for k in derivation.kept],
        "pdl": pdl_json(pdl, game),
        "certificate": certificate.status.value,
        "checked_requirements": certificate.checked_requirements,
        "violations": len(certificate.violations),
        "points_checked": len(points),
        "exact_nash_at_points": report.all_exact_nash,
        "lp_agrees_at_points": report.all_numeric_agree,
    }


#: Seeded rational points per pair at which a cached decision list is re-verified before it is used.
RECHECK_POINTS = 16


def check_pair(data: Any) -> None:
    """Re-verify one cached pair before it is rendered (the cheap half of its certificate).

    The stored decision list is read back from its machine form; at :data:`RECHECK_POINTS` seeded rational
    points of the square (other seeds than the derivation's), the first rule whose conditions hold must exist
    and its stored profile must have exact regret 0 in the game built from the rules. A changed probability,
    condition or payoff changes some regret at almost every point; a dropped rule leaves points uncovered.

    Raises
    ------
    StoreError
        Naming the pair and the point that fails.
    """
    from symgame.model.store import gc_paused

    with gc_paused():            # a pair's formulas: many containers, no cycles (6.2 s instead of 9.8 s for 213)
        _check_pair(data)


def _check_pair(data: Any) -> None:
    from symgame.errors import InputError, StoreError
    from symgame.games import jeopardy
    from symgame.model.expr import raw_point, to_fraction
    from symgame.model.exprtree import compile_tree
    from symgame.verify.crosscheck import random_domain_points
    from symgame.verify.regret import exact_regret, is_nash_raw

    scores = data.get("scores") if isinstance(data, dict) else None
    if not (isinstance(scores, list) and len(scores) == 2 and all(isinstance(s, int) for s in scores)):
        raise StoreError(f"{CACHE_FILE}: a sweep record without its scores")
    name = part_name((scores[0], scores[1]))
    if "error" in data:
        return                                   # a recorded failure carries no result to check
    game = jeopardy.build_game(scores[0], scores[1])
    names = {p.name for p in game.domain.parameters}
    relations = {">=": lambda v: v >= 0, ">": lambda v: v > 0, "==": lambda v: v == 0, "<=": lambda v: v <= 0,
                 "<": lambda v: v < 0, "!=": lambda v: v != 0}
    def read(what: str, compile_):
        try:
            return compile_()
        except (KeyError, TypeError, InputError) as exc:
            raise StoreError(f"{CACHE_FILE}: {name}: the stored decision list cannot be read back "
                             f"({what}: {exc})") from None

    def conditions(rule):
        return [(compile_tree(a["expr"], names), relations[a["rel"]]) for a in rule["machine"]["when"]]

    def profile(rule):
        mixes = []
        for player in game.players:
            given = rule["machine"]["profile"][player.name]
            if not set(given) <= set(player.actions):
                raise StoreError(f"{CACHE_FILE}: {name}: unknown action in a stored profile")
            mixes.append([compile_tree(given[a] if a in given else ["num", "0"], names) for a in player.actions])
        return mixes

    stored = data.get("pdl")
    if not isinstance(stored, list):
        raise StoreError(f"{CACHE_FILE}: {name}: the stored decision list cannot be read back (no rules)")
    # every rule's conditions are read back; a profile when its rule fires (they are most of the bytes)
    rules = [read("conditions", lambda rule=rule: conditions(rule)) for rule in stored]
    profiles: dict[int, list] = {}

    def holds(when, at) -> bool:
        try:
            return all(rel(f.raw(at)) for f, rel in when)      # exact rationals (compiled, FLINT)
        except ZeroDivisionError:
            return False

    for point in random_domain_points(game.domain, RECHECK_POINTS, 7919 * scores[0] + scores[1] + 1):
        at = raw_point(point)
        index = next((i for i, when in enumerate(rules) if holds(when, at)), None)
        if index is None:
            raise StoreError(f"{CACHE_FILE}: {name}: no stored rule fires at {dict(point)}")
        if index not in profiles:
            profiles[index] = read("profile", lambda: profile(stored[index]))
        fired = profiles[index]
        try:
            strategies = [[p.raw(at) for p in mix] for mix in fired]
        except ZeroDivisionError:
            raise StoreError(f"{CACHE_FILE}: {name}: a stored probability is undefined at {dict(point)}") from None
        if not is_nash_raw(game, at, strategies):
            report = exact_regret(game, point, [[to_fraction(p) for p in mix] for mix in strategies])
            raise StoreError(f"{CACHE_FILE}: {name}: the stored rule at {dict(point)} is not an equilibrium "
                             f"(regrets {[str(r) for r in report.regrets]})")
