"""``outputs/jeopardy/sweep/``: Final Jeopardy for every score pair up to ``MAX_SCORE`` and the near ties of
``NEAR_TIES_BEYOND``, rendered from the cached sweep.

The computation (:mod:`derivations.ganzfried2022.jeopardy_sweep`) is cached per pair in
``study_cache.json``; this module only renders ``sweep.json`` and ``summary.md`` from it.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

from derivations.ganzfried2022.jeopardy_sweep import (
    CACHE_FILE,
    RANDOM_POINTS,
    check_pair,
    compute_pair,
    pair_key,
    part_name,
    score_pairs,
)
from symgame.export.documents import unique_conditions
from symgame.model.store import write_atomic
from symgame.references import cite

#: The largest score of the committed sweep (every pair X1 > X2 >= 0 with X1 <= MAX_SCORE). 20 until 2026-11-28,
#: then 25 with the near ties (26, 25) to (29, 28); 30 since. The pairs from 21 to 30 that are not near ties took
#: about 10 minutes together on 2 cores, (23, 21) the longest (274 s); the near ties beyond 25: (26, 25) 716 s,
#: (27, 26) 107 s, (28, 27) 1,715 s, (29, 28) 101 s (2 workers), (30, 29) 3,384 s (one process at the lowest
#: priority beside other jobs). (22, 21) had joined once the exact kernel finder fell back on Lemke and Howson's
#: exact equilibrium: its discovery had stopped at the uncovered rational point p1 = 1/16, p2 = 1/4, where the
#: floating-point LP's candidates hold no exact kernel (``benchmarks/bench_jeopardy.py --kernels-at 22,21 1/16
#: 1/4``; benchmarks/RESULTS.md).
MAX_SCORE = 30
#: Near ties (X1, X1 - 1) beyond MAX_SCORE that the committed sweep also holds (none since MAX_SCORE = 30).
NEAR_TIES_BEYOND: tuple[tuple[int, int], ...] = ()

TEXT_FILES = ("sweep.json", "summary.md")
SOURCE = cite("ganzfried2022", "section 6.1 and Appendix B")


def _ordered(results: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(results.values(), key=lambda r: tuple(r["scores"]))


def committed_pairs(max_score: int = MAX_SCORE,
                    beyond: tuple[tuple[int, int], ...] = NEAR_TIES_BEYOND) -> list[tuple[int, int]]:
    """Every pair the committed sweep holds: all with ``X1 <= max_score`` (far scores first), then ``beyond``."""
    pairs = score_pairs(max_score)
    within = set(pairs)
    return pairs + [p for p in beyond if p not in within]


def compute_sweep(directory: Path | None, pairs: list[tuple[int, int]], recompute: bool = False,
                  workers: int = 2, progress: Callable[[str, float], None] | None = None
                  ) -> dict[str, dict[str, Any]]:
    """Every pair's result: from the cache (``directory/study_cache.json``) where it holds one under the current
    code, otherwise computed by :func:`~derivations.ganzfried2022.jeopardy_sweep.compute_pair`, each pair in its
    own process (:func:`symgame.export.isolated.run_isolated`: a pair whose process crashes is run again, then
    reported and not cached, and the other pairs go on) and saved as it finishes, so an interrupted sweep
    resumes where it stopped.  ``progress(part, seconds)`` is called after each computed pair."""
    from symgame.export.cache import StudyCache
    from symgame.model.isolated import run_isolated

    cache = StudyCache(directory / CACHE_FILE) if directory is not None else None
    results: dict[str, dict[str, Any]] = {}
    todo = []
    for pair in pairs:
        found = None if cache is None or recompute else cache.get(part_name(pair), pair_key(pair))
        if found is None:
            todo.append(pair)
        else:
            check_pair(found)                  # re-verified before it is rendered (about 50 ms a pair)
            results[part_name(pair)] = found
    for outcome in run_isolated(compute_pair, todo, workers=workers):
        pair = outcome.item
        # in the form the cache gives it back (keys sorted), so a fresh pair renders like a cached one
        data = json.loads(json.dumps(outcome.value, sort_keys=True)) if outcome.ok else \
            {"scores": list(pair), "error": f"crashed: {outcome.error}", "crashed": True}
        results[part_name(pair)] = data
        if progress is not None:
            status = data["error"] if "crashed" in data else f"certificate: {data.get('certificate', 'no result')}"
            retried = f", {outcome.attempts} attempts: " + "; ".join(outcome.crashes) if outcome.crashes else ""
            progress(f"{part_name(pair)} ({status}{retried})", outcome.seconds)
        if cache is not None and "crashed" not in data:
            cache.put(part_name(pair), pair_key(pair), data)
            cache.save()
    return {part_name(p): results[part_name(p)] for p in pairs}


def sweep_json(results: dict[str, dict[str, Any]], max_score: int,
               beyond: tuple[tuple[int, int], ...] = NEAR_TIES_BEYOND) -> str:
    """Every pair's result; the rules keep their conditions and strategies as text (the expression trees of the
    ``machine`` form are in ``study_cache.json``)."""
    pairs = [{**r, "pdl": [{k: v for k, v in unique_conditions(rule).items() if k != "machine"} for rule in r["pdl"]]}
             if "pdl" in r else r for r in _ordered(results)]
    data = {"source": SOURCE, "max_score": max_score, "beyond": [list(p) for p in beyond],
            "random_points_per_pair": RANDOM_POINTS, "pairs": pairs}
    return json.dumps(data, indent=1, sort_keys=True) + "\n"


def _cell(r: dict[str, Any]) -> str:
    if "error" in r:
        return "no result"
    mark = {"true": "", "undecided": "?", "false": " refuted"}[r["certificate"]]
    return f"{len(r['pdl'])}{mark}"


def _profile_text(profile: dict[str, dict[str, str]]) -> str:
    return "; ".join(f"{player}: " + ", ".join(f"{action} {p}" for action, p in actions.items())
                     for player, actions in profile.items())


def summary_markdown(results: dict[str, dict[str, Any]], max_score: int,
                     beyond: tuple[tuple[int, int], ...] = NEAR_TIES_BEYOND) -> str:
    rows = _ordered(results)
    certified = sum(1 for r in rows if r.get("certificate") == "true")
    undecided = [r["scores"] for r in rows if r.get("certificate") == "undecided"]
    refuted = [r["scores"] for r in rows if r.get("certificate") == "false"]
    failed = [r["scores"] for r in rows if "error" in r]
    checked = [r for r in rows if "error" not in r]
    lines = [
        f"# Final Jeopardy for every pair of scores X1 > X2 >= 0, X1 <= {max_score}"
        + (", and " + ", ".join(f"({a}, {b})" for a, b in beyond) if beyond else ""),
        "",
        f"Source of the game: {SOURCE} (the paper derives the scores (5, 3) only).",
        "",
        "Each pair: the (X1+1) x (X2+1) zero-sum wager game built from the rules, dominance reduction, "
        "sample-guided exact derivation with a proved cover, the decision list (PDL) in (p1, p2) on the "
        "unit square, and its certificate on the whole square. Two-parameter questions are decided by the "
        "plane cylindrical algebraic decomposition (no timeout), z3 giving a second opinion. Checks at "
        f"each rule's witness point and at {RANDOM_POINTS} seeded random rational points: exact regret 0 "
        "and the value of an independent LP (HiGHS).",
        "",
        f"- pairs: {len(rows)}; certified on the whole square: **{certified}**; undecided: {len(undecided)}; "
        f"refuted: {len(refuted)}; no result: {len(failed)}",
        f"- exact regret 0 at every checked point: {all(r['exact_nash_at_points'] for r in checked)}; "
        f"LP value agrees at every checked point: {all(r['lp_agrees_at_points'] for r in checked)} "
        f"({sum(r['points_checked'] for r in checked)} points)",
    ]
    for label, group in (("undecided", undecided), ("refuted", refuted), ("no result", failed)):
        if group:
            lines.append(f"- {label}: " + ", ".join(f"({a}, {b})" for a, b in group))
    lines += ["", "## Rules in the certified decision list (row X1, column X2; `?` undecided)", ""]
    header = "| X1 \\ X2 | " + " | ".join(str(b) for b in range(max_score)) + " |"
    lines += [header, "|---:|" + "---:|" * max_score]
    by_pair = {tuple(r["scores"]): r for r in rows}
    for a in range(1, max_score + 1):
        cells = [_cell(by_pair[(a, b)]) if (a, b) in by_pair else "" for b in range(max_score)]
        lines.append(f"| {a} | " + " | ".join(cells) + " |")
    lines += ["", "## Actions left after dominance (player 1 x player 2)", "", header,
              "|---:|" + "---:|" * max_score]
    for a in range(1, max_score + 1):
        cells = []
        for b in range(max_score):
            r = by_pair.get((a, b))
            cells.append("" if r is None or "error" in r else f"{len(r['kept'][0])}x{len(r['kept'][1])}")
        lines.append(f"| {a} | " + " | ".join(cells) + " |")
    lines += ["", "## Near ties (X2 = X1 - 1): the decision lists", ""]
    for a in range(2, max([max_score] + [p[0] for p in beyond]) + 1):
        r = by_pair.get((a, a - 1))
        if r is None:
            continue
        lines += [f"### Scores ({a}, {a - 1})", ""]
        if "error" in r:
            lines += [f"No result: {r['error']}", ""]
            continue
        lines.append(f"Certificate: {r['certificate']} ({r['checked_requirements']} requirements).")
        lines.append("")
        for k, rule in enumerate(map(unique_conditions, r["pdl"]), 1):
            when = rule.get("readable") or " and ".join(rule["when"])
            condition = f"if {when}" if rule["when"] else "otherwise"
            lines.append(f"{k}. {condition}: {_profile_text(rule['profile'])}; value {rule.get('value', '?')}")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def write_sweep_outputs(directory: Path, recompute: bool = False, max_score: int = MAX_SCORE,
                        progress: Callable[[str, float], None] | None = None,
                        beyond: tuple[tuple[int, int], ...] = NEAR_TIES_BEYOND) -> list[Path]:
    """Compute what the cache lacks, then write ``sweep.json`` and ``summary.md``."""
    directory.mkdir(parents=True, exist_ok=True)
    results = compute_sweep(directory, committed_pairs(max_score, beyond), recompute=recompute, progress=progress)
    paths = [directory / "sweep.json", directory / "summary.md"]
    write_atomic(paths[0], sweep_json(results, max_score, beyond))
    write_atomic(paths[1], summary_markdown(results, max_score, beyond))
    return paths + [directory / CACHE_FILE]
