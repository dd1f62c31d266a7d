"""Held-out rounds of the three-player Kuhn poker study: what the held-out search finds outside the families.

The study (:mod:`derivations.szafron2013.kuhn3`) derives families from the cases of a logit search at its
discovery pots, then runs a second logit search (other priors) at held-out pots and locates each equilibrium it
finds in a family valid there. This part first locates the discovery's own points (recomputed from their seeds) in
the study's families, then takes those and the held-out equilibria that lie in *no* family and solves their
cases from fibres through their own points (:func:`symgame.engine.atlas.fibre_verdict`: the component through
each point, its formulas proved on the case's equations, its range exact), so that their components join the
atlas as new families with exact witnesses; then another held-out search, at pots no earlier search used, checks
the enlarged atlas again, and so on (:data:`ROUNDS`). The last search's equilibria are located, never solved, so it
stays an independent check of everything before it.

The held-out points are recomputed (the logit search is seeded) and their locations are compared with the ones
the study recorded before anything is solved from them; the new families are read back through the study's own
check (:func:`derivations.szafron2013.kuhn3.check_study`: every witness exact regret 0 and on its member's
formulas) before they are used. Cached beside the study (part ``kuhn3/heldout``), keyed by this code, a digest
of the study's data and the rounds' pots, starts and seeds.
"""
from __future__ import annotations

import hashlib
import json
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable

from derivations.szafron2013.kuhn3 import (
    CACHE_FILE,
    CROSSCHECK_POTS,
    CROSSCHECK_STARTS,
    DISCOVERY_POTS,
    STARTS,
    _family_json,
    _only,
    check_study,
    witness_pots,
    witness_record,
)

PART = "kuhn3/heldout"
#: The held-out searches in turn: (pots, logit starts per pot, seed of the first pot). The first is the study's
#: own (recomputed and compared with its record); the equilibria of every search but the last that lie in no
#: family are solved from fibres through their points; the last search's are only located. Each search's pots
#: are neither discovery pots nor an earlier search's, across the domain and beyond the discovery's largest
#: pot (10).
ROUNDS = ((CROSSCHECK_POTS, CROSSCHECK_STARTS, 100),
          ((Fraction(11, 5), Fraction(29, 10), Fraction(39, 10), Fraction(51, 10), Fraction(61, 10),
            Fraction(71, 10), Fraction(83, 10), Fraction(12)), 6, 300),
          ((Fraction(23, 10), Fraction(31, 10), Fraction(19, 5), Fraction(22, 5), Fraction(27, 5),
            Fraction(67, 10), Fraction(79, 10), Fraction(11)), 6, 500),
          ((Fraction(12, 5), Fraction(16, 5), Fraction(43, 10), Fraction(49, 10), Fraction(57, 10),
            Fraction(69, 10), Fraction(87, 10), Fraction(14)), 6, 700),
          ((Fraction(13, 5), Fraction(17, 5), Fraction(21, 5), Fraction(23, 5), Fraction(59, 10),
            Fraction(73, 10), Fraction(93, 10), Fraction(15)), 6, 900))
#: Bumped when what the part records changes (2: points in no family located again after refinement onto their
#: case's equations; members the atlas already holds dropped; 3: a component whose algebraic family has formulas
#: of too high a degree to interpolate is solved through each point instead, its free frequencies fixed near the
#: point's values, ``fibre_verdict(..., through_points=True)``; points located on an equation by the first-order
#: distance to its zeros, :func:`symgame.verify.atlascheck.lies_in`; 4: `refine_point` takes singular values below
#: :data:`~symgame.verify.atlascheck.REFINE_RCOND` of the largest as zero; 5: the discovery's own points,
#: recomputed from their seeds, located first, and those in no family solved through their points like a search's).
METHOD_VERSION = 5


def _key(data: dict[str, Any]) -> str:
    from symgame.export.cache import content_key

    digest = hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()
    return content_key(PART, {"study": digest, "rounds": [[[str(p) for p in pots], starts, seed]
                                                          for pots, starts, seed in ROUNDS]},
                       [__name__], version=METHOD_VERSION)


def study_atlas(data: dict[str, Any]):
    """The families of ``data`` (the study's, or with the held-out rounds' added) read back as an
    :class:`~symgame.engine.atlas.Atlas` (formulas through the restricted parser, range ends exact), for
    locating numeric points and finding witnesses."""
    from symgame.engine.atlas import Atlas, AtlasStats, Family, SolvedBranch
    from symgame.engine.casesplit import detect_structure
    from symgame.engine.parametric import CaseBranch
    from symgame.engine.ranges import BranchRange

    from .kuhn3_certify import member_sets

    game, members = member_sets(data)
    complete = {(f["id"], m["case"]): m["range_complete"] for f in data["families"] for m in f["members"]}
    grouped: dict[str, list] = {}
    for ident, case, pset, intervals in members:
        branch = CaseBranch(case, None, pset.values, pset.free, pset.constraints)
        grouped.setdefault(ident, []).append(
            SolvedBranch(branch, BranchRange(tuple(intervals), complete[(ident, case)], 0)))
    families = tuple(Family(ident, (), None, tuple(ms)) for ident, ms in grouped.items())
    return Atlas(game, detect_structure(game), families, (), AtlasStats(raw_cases=0), complete=False)


def _record(game, structure, match) -> dict[str, Any]:
    from symgame.engine.atlas import seed_case

    out = {"P": str(match.parameter), "regret": float(f"{match.regret:.3g}"), "family": match.family,
           "case": seed_case(game, structure, float(match.parameter), match.profile)}
    if match.refined:
        out["refined"] = float(f"{match.refined:.3g}")
    return out


def _locate(atlas, match):
    """``match`` located again in ``atlas`` (after :func:`~symgame.verify.atlascheck.refine_point` when the
    point itself lies in no family)."""
    from dataclasses import replace

    from symgame.verify.atlascheck import locate

    family, moved = locate(atlas, match.parameter, match.profile, refine=True)
    return replace(match, family=family, refined=moved)


def _new_families(atlas, verdicts, known: set) -> list:
    """The families of the solved ``verdicts`` (canonical formulas), without the members the atlas already
    holds (same case, free frequencies and formulas), numbered after the atlas's families."""
    from dataclasses import replace

    from symgame.engine.atlas import canonical_verdict, merge_families

    solved = [canonical_verdict(v) for v in verdicts if v.stage == "fibres"]
    families = []
    for family in merge_families(atlas.game, atlas.structure, solved):
        members = tuple(m for m in family.members if _branch_signature(m.branch) not in known)
        if members:
            families.append(replace(family, ident=f"F{len(atlas.families) + 1 + len(families)}", members=members))
    return families


def _signature(case: str, free, values: dict[str, str]) -> tuple:
    return case, tuple(free), tuple(sorted(values.items()))


def _branch_signature(branch) -> tuple:
    """:func:`_signature` of a derived branch (its formulas printed as the study's JSON prints them)."""
    return _signature(branch.case, branch.free, {x: str(e) for x, e in branch.values})


def compute_heldout(data: dict[str, Any], progress: Callable[[str, float], None] | None = None
                    ) -> dict[str, Any]:
    """The held-out rounds (JSON-ready): first the discovery's own points (recomputed from their seeds) located
    in the study's families, those in none solved from fibres through their points; then for each search of
    :data:`ROUNDS`, its equilibria and the families they lie in (a point in none located again after
    :func:`~symgame.verify.atlascheck.refine_point`); for each but the last, the cases of those still outside
    every family solved from fibres through them and where each of those points lies afterwards; the new
    families (members the atlas already holds dropped) and their witnesses.

    Raises
    ------
    RuntimeError
        When the first held-out search, recomputed, does not locate its equilibria as the study recorded.
    """
    import time

    from symgame.verify.atlascheck import numeric_crosscheck

    clock = [time.perf_counter()]

    def say(text: str) -> None:
        if progress is not None:
            progress(text, time.perf_counter() - clock[0])
        clock[0] = time.perf_counter()

    state = _Growing(study_atlas(data), {_signature(m["case"], m["free"], m["values"])
                                         for f in data["families"] for m in f["members"]})
    game, structure = state.atlas.game, state.atlas.structure
    # the discovery's own points (numeric_equilibria at the k-th discovery pot with seed k, as the study ran it)
    found = numeric_crosscheck(state.atlas, [Fraction(p) for p in DISCOVERY_POTS], starts=STARTS, seed=0,
                               refine=True)
    outside = [m for m in found if m.family is None]
    say(f"the discovery's points ({len(found)} equilibria, {len(outside)} outside every family)")
    discovery: dict[str, Any] = {"equilibria": len(found),
                                 "outside": [_record(game, structure, m) for m in outside]}
    if outside:
        state.solve(outside, discovery["outside"], discovery)
        say(f"their cases from fibres ({len(state.families)} new families, {len(state.witnesses)} witnesses)")
    rounds = []
    for number, (pots, starts, seed) in enumerate(ROUNDS):
        found = numeric_crosscheck(state.atlas, list(pots), starts=starts, seed=seed, refine=True)
        if number == 0 and _as_study(data, [(str(m.parameter), None if m.refined else m.family) for m in found]) != \
                [(c["P"], c["family"]) for c in data["crosscheck"]]:
            raise RuntimeError("the held-out search, recomputed, does not locate its equilibria as the study "
                               "recorded")
        outside = [m for m in found if m.family is None]
        say(f"held-out search {number + 1} ({len(found)} equilibria, {len(outside)} outside every family)")
        records = [_record(game, structure, m) for m in found]
        record: dict[str, Any] = {"pots": [str(p) for p in pots], "starts": starts, "seed": seed,
                                  "equilibria": records}
        rounds.append(record)
        if number == len(ROUNDS) - 1 or not outside:
            continue
        state.solve(outside, [r for m, r in zip(found, records) if m.family is None], record)
        say(f"their cases from fibres ({len(state.families)} new families, {len(state.witnesses)} witnesses)")
    return {"discovery": discovery, "rounds": rounds, "families": [_family_json(f) for f in state.families],
            "witnesses": state.witnesses}


def _as_study(data: dict[str, Any], located: list[tuple[str, str | None]]) -> list[tuple[str, str | None]]:
    """Locations with the families the study does not hold (solved from the discovery's points since) read as
    none: what the study's own record of its first held-out search can be compared with."""
    ids = {f["id"] for f in data["families"]}
    return [(p, f if f in ids else None) for p, f in located]


class _Growing:
    """The atlas as the held-out part enlarges it: points outside every family solved from fibres through them
    (:func:`~symgame.engine.atlas.fibre_verdict`, sub-families through the points where a component's formulas
    are too large to interpolate), the new families witnessed."""

    def __init__(self, atlas, known: set) -> None:
        self.atlas, self.known = atlas, known
        self.families: list = []
        self.witnesses: list[dict[str, Any]] = []

    def solve(self, outside: list, records: list[dict[str, Any]], record: dict[str, Any]) -> None:
        """Solve the cases of ``outside`` (numeric matches, with their ``records``) through their points; the
        verdicts' notes and where each point lies afterwards go into ``record``."""
        from dataclasses import replace

        from symgame.engine.atlas import fibre_verdict
        from symgame.verify.atlascheck import equilibria_at

        game, structure = self.atlas.game, self.atlas.structure
        points: dict[str, list] = {}
        for m, r in zip(outside, records):
            points.setdefault(r["case"], []).append((float(m.parameter), m.profile))
        verdicts = [fibre_verdict(game, structure, case, pts, widen=True, algebraic=True, through_points=True)
                    for case, pts in sorted(points.items())]
        new = _new_families(self.atlas, verdicts, self.known)
        self.atlas = replace(self.atlas, families=self.atlas.families + tuple(new))
        for family in new:
            for member in family.members:
                self.known.add(_branch_signature(member.branch))
                for iv in member.range.intervals:
                    for value in witness_pots(iv):
                        point = next((p for p in equilibria_at(_only(self.atlas, family, member), value)), None)
                        self.witnesses.append(witness_record(family.ident, member.branch.case, value, point))
        self.families += new
        record["solved"] = [{"case": v.case, "stage": v.stage, "notes": list(v.unsolved)} for v in verdicts]
        record["outside_after"] = [_record(game, structure, _locate(self.atlas, m)) for m in outside]


def with_heldout(data: dict[str, Any], heldout: dict[str, Any]) -> dict[str, Any]:
    """The study's data with the held-out rounds' families and witnesses added and their searches under
    ``"heldout"`` (what the certificates, the summary and the cheat sheet read)."""
    merged = dict(data)
    merged["families"] = list(data["families"]) + list(heldout["families"])
    merged["witnesses"] = list(data["witnesses"]) + list(heldout["witnesses"])
    merged["heldout"] = heldout["rounds"]
    merged["heldout_discovery"] = heldout["discovery"]
    merged["heldout_families"] = [f["id"] for f in heldout["families"]]
    return merged


LOCATED_PART = "kuhn3/discovery-located"
#: Bumped when what the part records changes (1: each of the discovery's points, recomputed from its seed, and
#: the first family of the enlarged atlas valid at its pot that holds it).
LOCATED_VERSION = 1


def _located_key(data: dict[str, Any]) -> str:
    from symgame.export.cache import content_key

    digest = hashlib.sha256(json.dumps(_without_located(data), sort_keys=True).encode()).hexdigest()
    return content_key(LOCATED_PART, {"data": digest, "pots": [str(p) for p in DISCOVERY_POTS], "starts": STARTS,
                                      "seed": 0}, [__name__], version=LOCATED_VERSION)


def _without_located(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "discovery_located"}


def compute_discovery_located(data: dict[str, Any], progress: Callable[[str, float], None] | None = None
                              ) -> list[dict[str, Any]]:
    """The discovery's own points, recomputed from their seeds (the logit search at each discovery pot as the study
    ran it), each located in the atlas the held-out rounds enlarged (``data`` from :func:`with_heldout`): the
    records of :func:`_record` (``P``, ``regret``, ``family``, ``case``, ``refined`` when located only after
    :func:`~symgame.verify.atlascheck.refine_point`). The held-out part located them in the study's atlas only
    (the six in none were solved through them); this says where every one of them lies in the final atlas, so
    that each can be checked against the families' certificates."""
    import time

    from symgame.verify.atlascheck import numeric_crosscheck

    start = time.perf_counter()
    atlas = study_atlas(data)
    found = numeric_crosscheck(atlas, [Fraction(p) for p in DISCOVERY_POTS], starts=STARTS, seed=0, refine=True)
    records = [_record(atlas.game, atlas.structure, m) for m in found]
    if progress is not None:
        progress(f"the discovery's {len(records)} points located in the enlarged atlas "
                 f"({sum(r['family'] is None for r in records)} in no family)", time.perf_counter() - start)
    return records


def check_discovery_located(data: dict[str, Any], stored: Any) -> None:
    """Check the cached locations before they are used: one record per numeric equilibrium of the discovery, each
    at a discovery pot, naming none or a family of ``data`` valid at that pot.

    Raises
    ------
    StoreError
        Naming what does not hold.
    """
    from symgame.errors import StoreError

    where = f"{CACHE_FILE}: {LOCATED_PART}"
    ids = {f["id"] for f in data["families"]}
    pots = {str(Fraction(p)) for p in DISCOVERY_POTS}
    records = stored.get("points") if isinstance(stored, dict) else None
    if not isinstance(records, list) or len(records) != data["discovery"]["numeric_equilibria"]:
        raise StoreError(f"{where}: not one record per point of the discovery")
    for r in records:
        if not isinstance(r, dict) or r.get("P") not in pots or not isinstance(r.get("case"), str) or \
                (r.get("family") is not None and r.get("family") not in ids):
            raise StoreError(f"{where}: a record is not a discovery point located in a family of the study")
    # each family named is valid at the point's pot (exact interval ends)
    valid = {f.ident: [iv for m in f.members for iv in m.range.intervals] for f in study_atlas(data).families}
    for r in records:
        if r["family"] is not None and not any(iv.contains(Fraction(r["P"])) for iv in valid[r["family"]]):
            raise StoreError(f"{where}: a point at P = {r['P']} is located in {r['family']}, not valid there")


def discovery_located(directory: Path | None, data: dict[str, Any], recompute: bool = False,
                      progress: Callable[[str, float], None] | None = None) -> list[dict[str, Any]]:
    """The cached locations of :func:`compute_discovery_located` (computed when missing or stale)."""
    from symgame.export.cache import StudyCache, cached

    cache = StudyCache(directory / CACHE_FILE) if directory is not None else None
    data = _without_located(data)
    return cached(cache, LOCATED_PART, _located_key(data),
                  lambda: {"points": compute_discovery_located(data, progress)}, recompute=recompute,
                  check=lambda stored: check_discovery_located(data, stored))["points"]


def with_located(data: dict[str, Any], located: list[dict[str, Any]]) -> dict[str, Any]:
    """``data`` (from :func:`with_heldout`) with the discovery's points located in its families under
    ``"discovery_located"`` (read by the plane certificates and the summary; the study's and the held-out
    families' certificates are keyed without it)."""
    return dict(data, discovery_located=located)


def split_heldout(data: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The study's own data out of :func:`with_heldout`'s (the same dict when no rounds were added) and the names
    of the families the rounds added."""
    if "heldout_families" not in data:
        return data, []
    added = list(data["heldout_families"])
    study = {k: v for k, v in data.items() if k not in ("heldout", "heldout_discovery", "heldout_families",
                                                         "discovery_located")}
    study["families"] = [f for f in data["families"] if f["id"] not in added]
    study["witnesses"] = [w for w in data["witnesses"] if w["family"] not in added]
    return study, added


def check_heldout(data: dict[str, Any], heldout: Any) -> None:
    """Check the cached held-out rounds before they are used: new family names that do not collide with the
    study's, the first search's locations the study's own record, the discovery's points solved exactly its points
    outside the study's families, no search naming a family derived after it,
    the points solved after a search exactly its points outside the families before it, and every new witness
    exact regret 0 and on its member's formulas (the study's own check, on the new families and witnesses).

    Raises
    ------
    StoreError
        Naming what does not hold.
    """
    from symgame.errors import StoreError

    where = f"{CACHE_FILE}: {PART}"
    try:
        ids = [f["id"] for f in data["families"]]
        new = [f["id"] for f in heldout["families"]]
        if set(ids) & set(new) or len(set(new)) != len(new):
            raise StoreError(f"{where}: its family names collide with the study's")
        if any(w["family"] not in new for w in heldout["witnesses"]):
            raise StoreError(f"{where}: a witness of a family it does not hold")
        rounds = heldout["rounds"]
        first = [(c["P"], None if "refined" in c else c["family"]) for c in rounds[0]["equilibria"]]
        if len(rounds) != len(ROUNDS) or _as_study(data, first) != [(c["P"], c["family"]) for c in data["crosscheck"]]:
            raise StoreError(f"{where}: the first search is not the study's")
        known = set(ids)
        discovery = heldout["discovery"]
        if sorted(c["P"] for c in discovery.get("outside_after", [])) != \
                sorted(c["P"] for c in discovery["outside"] if "outside_after" in discovery) or \
                any(c["family"] is not None and c["family"] not in new for c in discovery.get("outside_after", [])):
            raise StoreError(f"{where}: the discovery's points solved are not its points outside the families")
        known |= {f["id"] for f in heldout["families"]
                  if any(m["case"] in {v["case"] for v in discovery.get("solved", [])} for m in f["members"])}
        for number, r in enumerate(rounds):
            if any(c["family"] is not None and c["family"] not in known for c in r["equilibria"]):
                raise StoreError(f"{where}: search {number + 1} names a family not derived before it")
            known |= {f["id"] for f in heldout["families"]
                      if any(m["case"] in {v["case"] for v in r.get("solved", [])} for m in f["members"])}
            if "outside_after" in r:
                before = sorted(c["P"] for c in r["equilibria"] if c["family"] is None)
                if sorted(c["P"] for c in r["outside_after"]) != before or \
                        any(c["family"] is not None and c["family"] not in new for c in r["outside_after"]):
                    raise StoreError(f"{where}: search {number + 1}: the points outside the families before it "
                                     "are not the ones it solved, or one is located in an earlier family")
    except StoreError:
        raise
    except (KeyError, TypeError) as exc:
        raise StoreError(f"{where}: the stored rounds cannot be read back ({type(exc).__name__})") from None
    # the new witnesses against the new members (the study's own were checked when the study was read)
    check_study(dict(data, families=heldout["families"], witnesses=heldout["witnesses"]))


def heldout(directory: Path | None, data: dict[str, Any], recompute: bool = False,
            progress: Callable[[str, float], None] | None = None) -> dict[str, Any]:
    """The cached held-out rounds of the study ``data`` (computed when missing or stale)."""
    from symgame.export.cache import StudyCache, cached

    cache = StudyCache(directory / CACHE_FILE) if directory is not None else None
    return cached(cache, PART, _key(data), lambda: compute_heldout(data, progress), recompute=recompute,
                  check=lambda stored: check_heldout(data, stored))
