"""Whole-interval certificates of the three-player Kuhn poker families, checked from the study's output.

The checker reads each member back from the study's JSON (formulas and conditions through the restricted
expression parser, range ends as exact algebraic numbers) and, on each interval of its range, proves

* **soundness**: every profile of the member is an equilibrium of the game (after the dominance reduction) at
  every ``P`` of the interval -- :func:`symgame.verify.separable.certify_best_response`, one z3 query per
  distinct vertex deviation of each group of a player's frequencies that share no monomial of her payoff
  (50 queries here, instead of the 1,280 whole-box vertices whose terms alone took minutes to build);
* **nonemptiness**: the member has a profile at every ``P`` of the interval --
  :func:`symgame.verify.polycert.certify_nonempty` (z3's quantified solver, then exact cells of ``P``).

Cached beside the study (part ``kuhn3/certificates``), keyed by this code and a digest of the study's data.
"""
from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path
from typing import Any, Callable

from derivations.szafron2013.kuhn3 import CACHE_FILE, reduced_game

PART = "kuhn3/certificates"
TIMEOUT_MS = 60_000


def _key(data: dict[str, Any]) -> str:
    from symgame.export.cache import content_key

    digest = hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()
    return content_key(PART, {"study": digest, "timeout_ms": TIMEOUT_MS}, [__name__])


def member_sets(data: dict[str, Any]):
    """``(game, [(family id, case, ProfileSet, [ParamInterval, ...]), ...])`` read back from the study's data."""
    from symgame.engine.ranges import ParamInterval, algebraic_endpoint, rational_endpoint
    from symgame.model.expr import parse_expression
    from symgame.verify.polycert import ProfileSet

    game = reduced_game(data["dominance"]["fixed"])
    names = {str(g): g for g in game.generators}
    P = game.symbol(game.parameter_names[0])

    def parse(text: str):
        return parse_expression(text, names, sqrt=True)

    def endpoint(end: dict[str, Any]):
        value = parse(end["value"])
        return rational_endpoint(value, P) if value.is_Rational else algebraic_endpoint(value, P)

    out = []
    for f in data["families"]:
        for m in f["members"]:
            values = tuple((x, parse(m["values"].get(x, "0"))) for x in game.variables)
            pset = ProfileSet(values, tuple(m["free"]), tuple((parse(e), rel) for e, rel in m["conditions"]))
            intervals = [ParamInterval(endpoint(r["lower"]), r["lower_closed"],
                                       None if r["upper"] is None else endpoint(r["upper"]), r["upper_closed"])
                         for r in m["ranges"]]
            out.append((f["id"], m["case"], pset, intervals))
    return game, out


def compute_certificates(data: dict[str, Any], progress: Callable[[str, float], None] | None = None
                         ) -> list[dict[str, Any]]:
    from symgame.export.atlas_outputs import interval_text
    from symgame.model.decide import Decision
    from symgame.verify.polycert import certify_covered, certify_nonempty, interval_within
    from symgame.verify.separable import certify_best_response

    game, members = member_sets(data)
    out, sets = [], []
    for ident, case, pset, intervals in members:
        for iv in intervals:
            start = time.perf_counter()
            sound = certify_best_response(game, pset, iv, TIMEOUT_MS)
            nonempty = certify_nonempty(game, pset, iv, TIMEOUT_MS)
            verdict, method = nonempty.decision.name.lower(), nonempty.method
            if verdict == "undecided" and iv.is_point and iv.lower.is_rational and any(
                    _witness_in(game, pset, iv.lower.lower, w) for w in data["witnesses"]
                    if (w["family"], w["case"]) == (ident, case) and w["profile"] is not None):
                verdict, method = "true", "witness"
            out.append({"family": ident, "case": case, "interval": interval_text(iv),
                        "sound": sound.decision.name.lower(), "sound_counterexample": sound.counterexample,
                        "nonempty": verdict, "nonempty_method": method})
            sets.append((pset, iv))
            if progress is not None:
                progress(f"certificate {ident} on {interval_text(iv)}: sound {out[-1]['sound']}, "
                         f"nonempty {verdict} ({method})", time.perf_counter() - start)
    # nonempty because a nonempty member on a wider interval has all its profiles in this one
    for record, (pset, iv) in zip(out, sets):
        if record["nonempty"] != "undecided":
            continue
        for other, (oset, oiv) in zip(out, sets):
            if other["nonempty"] == "true" and other is not record and interval_within(iv, oiv) and \
                    certify_covered(game, oset, iv, [(pset, iv)], TIMEOUT_MS).decision is Decision.TRUE:
                record["nonempty"], record["nonempty_method"] = "true", f"holds {other['family']}"
                break
    return out


def _witness_in(game, pset, value, witness: dict[str, Any]) -> bool:
    """Whether the study's witness at the single pot ``value`` satisfies every condition of the member
    exactly (its free frequencies in [0, 1], the member's formulas giving its other frequencies)."""
    import sympy as sp

    from symgame.model.expr import parse_expression
    from symgame.verify.polycert import sign_of

    if parse_expression(witness["P"], {}) != value:
        return False
    point = {game.symbol(game.parameter_names[0]): sp.Rational(value.numerator, value.denominator)}
    point.update({game.symbol(z): parse_expression(witness["profile"][z], {}, sqrt=True) for z in pset.free})
    if any(not 0 <= point[game.symbol(z)] <= 1 for z in pset.free):
        return False
    for x, expr in pset.values:
        if sign_of(expr.subs(point) - parse_expression(witness["profile"][x], {}, sqrt=True)) != 0:
            return False
    signs = {">": lambda s: s > 0, ">=": lambda s: s >= 0, "==": lambda s: s == 0}
    return all(signs[rel](sign_of(sp.together(e.subs(point)))) for e, rel in pset.constraints)


def certificates(directory: Path | None, data: dict[str, Any], recompute: bool = False,
                 progress: Callable[[str, float], None] | None = None) -> list[dict[str, Any]]:
    """The cached certificates of the study ``data``, computed when the cache has none under this code."""
    from symgame.export.cache import StudyCache

    key = _key(data)
    cache = StudyCache(directory / CACHE_FILE) if directory is not None else None
    found = None if cache is None or recompute else cache.get(PART, key)
    if found is None:
        found = compute_certificates(data, progress)
        if cache is not None:
            cache.put(PART, key, found)
            cache.save()
    return found
