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
    from symgame.engine.derive import derive_by_discovery
    from symgame.errors import NoResultError
    from symgame.export.documents import pdl_json
    from symgame.games import jeopardy
    from symgame.numeric.kernels import game_kernels
    from symgame.verify.certify import certify_pdl
    from symgame.verify.crosscheck import check_points, random_domain_points, rule_witness_points

    score1, score2 = pair
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
