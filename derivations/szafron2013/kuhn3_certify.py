"""Whole-interval certificates of the three-player Kuhn poker families, checked from the study's output.

The checker reads each member back from the study's JSON (formulas and conditions through the restricted
expression parser, range ends as exact algebraic numbers) and, on each interval of its range, proves

* **soundness**: every profile of the member is an equilibrium of the game (after the dominance reduction) at
  every ``P`` of the interval -- :func:`symgame.verify.separable.certify_best_response`, one z3 query per
  distinct vertex deviation of each group of a player's frequencies that share no monomial of her payoff
  (50 queries here, instead of the 1,280 whole-box vertices whose terms alone took minutes to build); for
  the algebraic members with one free frequency, whose z3 queries do not finish, the same checks decided
  exactly in the plane of ``P`` and that frequency (:func:`plane_soundness`, its own cached part);
* **nonemptiness**: the member has a profile at every ``P`` of the interval -- at a single pot by the study's
  exact witness profile; on an interval by :func:`symgame.verify.polycert.certify_nonempty` (z3's quantified
  solver, then exact cells of ``P``) under a budget far above any measured time, whose expiry is an error,
  so that no record depends on the machine's speed.

It also re-solves the study's solved cases and reports the branches whose range came out empty although the
range derivation flagged it incomplete (:func:`recover_unranged`): a family the atlas would otherwise drop.

Cached beside the study (part ``kuhn3/certificates``), keyed by this code and a digest of the study's data.
"""
from __future__ import annotations

import hashlib
import json
import time
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable

from derivations.szafron2013.kuhn3 import CACHE_FILE, _interval_json, reduced_game
from symgame.engine.ranges import ParamInterval

PART = "kuhn3/certificates"
TIMEOUT_MS = 60_000
#: z3's quantified nonemptiness queries on the members' intervals: alone the slowest takes 4.4 s; a query that
#: runs past this budget stops the part with an error instead of recording another method (issue 37).
QUANTIFIED_MS = 300_000
#: Members (case, number of free frequencies) whose quantified nonemptiness query is not attempted: each ran past
#: QUANTIFIED_MS in a fresh process in a measurement of 2026-11-27 (the first took 11 s after the study in one
#: process: z3's time depends on the process's history). Their nonemptiness comes from linear sub-families.
QUANTIFIED_OPEN = (("IIILLIILLLLLLIIIIIIIIL---0", 10), ("LLILIIIIILULLIIIILLIIL---0", 6),
                   ("LLILIIIIILULLIIIILLIIL---0", 5))
#: The same for the families solved from held-out points (:mod:`derivations.szafron2013.kuhn3_heldout`): the
#: first's query ran past QUANTIFIED_MS in a run of 2026-11-28, the second's (solved from a discovery point) in a
#: later one.
HELDOUT_QUANTIFIED_OPEN = (("LLILIIIIILILLIIIILLLIL---0", 5), ("LLIILIIIILILIIIIILLIIL---0", 5))
#: Members (case, number of free frequencies) whose soundness is not attempted: one of its vertex-deviation
#: queries ran past TIMEOUT_MS in the measurement of 2026-11-27 (recorded "not attempted" rather than an
#: "undecided" that a faster machine could turn into "true").
SOUNDNESS_OPEN = (("LLILIIIIILULLIIIILLIIL---0", 6),)
#: Bumped when what the part records changes: 2 = points proved by their exact witnesses first, intervals by z3
#: under a budget that is an error, unranged branches' nonemptiness not attempted; 3 = nonemptiness by linear
#: sub-families where z3 gives up or is declared out of reach (QUANTIFIED_OPEN); 4 = algebraic families (a free
#: frequency tied by an equation of degree >= 2): soundness not attempted, nonemptiness by sub-families only
#: (z3 over the two free frequencies and P with the cubic tie ran past minutes in a measurement of 2026-11-27).
METHOD_VERSION = 4


def is_algebraic(pset) -> bool:
    """Whether a member is an algebraic family: one of its conditions is an equation of degree >= 2 in a free
    frequency (its primitive unknown, a root of that polynomial)."""
    import sympy as sp

    free = {sp.Symbol(z, real=True) for z in pset.free}
    return any(rel == "==" and any(sp.Poly(e, z).degree() >= 2 for z in e.free_symbols & free)
               for e, rel in pset.constraints)


def _key(data: dict[str, Any]) -> str:
    from symgame.export.cache import content_key

    digest = hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()
    return content_key(PART, {"study": digest, "timeout_ms": TIMEOUT_MS, "quantified_ms": QUANTIFIED_MS,
                              "quantified_open": [list(m) for m in QUANTIFIED_OPEN],
                              "soundness_open": [list(m) for m in SOUNDNESS_OPEN]},
                       [__name__], version=METHOD_VERSION)


def member_sets(data: dict[str, Any]):
    """``(game, [(family id, case, ProfileSet, [ParamInterval, ...]), ...])`` read back from the study's data."""
    from symgame.engine.ranges import algebraic_endpoint, rational_endpoint, root_endpoint
    from symgame.model.expr import parse_expression

    game = reduced_game(data["dominance"]["fixed"])
    names = {str(g): g for g in game.generators}
    P = game.symbol(game.parameter_names[0])

    def parse(text: str):
        return parse_expression(text, names, sqrt=True, stored=True)

    def endpoint(end: dict[str, Any]):
        if "polynomial" in end:
            lower, upper = (Fraction(v) for v in end["isolating_interval"])
            return root_endpoint(parse(end["polynomial"]), lower, upper, P)
        value = parse(end["value"])
        return rational_endpoint(value, P) if value.is_Rational else algebraic_endpoint(value, P)

    out = []
    for f in data["families"]:
        for m in f["members"]:
            pset = profile_set(game, m)
            intervals = [ParamInterval(endpoint(r["lower"]), r["lower_closed"],
                                       None if r["upper"] is None else endpoint(r["upper"]), r["upper_closed"])
                         for r in m["ranges"]]
            out.append((f["id"], m["case"], pset, intervals))
    return game, out


def profile_set(game, record: dict[str, Any]):
    """A family member (or an unranged branch) of the study's JSON as a
    :class:`~symgame.verify.polycert.ProfileSet` (formulas read by the restricted parser)."""
    from symgame.model.expr import parse_expression
    from symgame.verify.polycert import ProfileSet

    names = {str(g): g for g in game.generators}

    def parse(text: str):
        return parse_expression(text, names, sqrt=True, stored=True)

    values = tuple((x, parse(record["values"].get(x, "0"))) for x in game.variables)
    return ProfileSet(values, tuple(record["free"]), tuple((parse(e), rel) for e, rel in record["conditions"]))


def compute_certificates(data: dict[str, Any], progress: Callable[[str, float], None] | None = None,
                         quantified_open: tuple[tuple[str, int], ...] = QUANTIFIED_OPEN) -> list[dict[str, Any]]:
    from symgame.export.atlas_outputs import interval_text
    from symgame.model.decide import Decision
    from symgame.verify.polycert import certify_covered, certify_nonempty, interval_within
    from symgame.verify.separable import certify_best_response

    game, members = member_sets(data)
    out, sets = [], []
    for ident, case, pset, intervals in members:
        for iv in intervals:
            start = time.perf_counter()
            algebraic = is_algebraic(pset)
            if (case, len(pset.free)) in SOUNDNESS_OPEN or algebraic:
                sound_verdict, counterexample = "not attempted", None
            else:
                sound = certify_best_response(game, pset, iv, TIMEOUT_MS)
                sound_verdict, counterexample = sound.decision.name.lower(), sound.counterexample
            if iv.is_point and iv.lower.is_rational and any(
                    _witness_in(game, pset, iv.lower.lower, w) for w in data["witnesses"]
                    if (w["family"], w["case"]) == (ident, case) and w["profile"] is not None):
                verdict, method = "true", "witness"         # exact, and no z3 budget decides it
            elif iv.is_point:
                # a single algebraic pot: nonempty is an existential question there (no quantifier alternation)
                from symgame.engine.parametric import CaseBranch
                from symgame.engine.ranges import decide_at

                branch = CaseBranch(case, None, pset.values, pset.free, pset.constraints)
                at = decide_at(branch, game.symbol(game.parameter_names[0]), None, iv.lower, TIMEOUT_MS)
                verdict, method = at.name.lower(), "z3 at the point"
            elif (case, len(pset.free)) in quantified_open or algebraic:
                verdict, method = "undecided", "not attempted"
            else:
                nonempty = certify_nonempty(game, pset, iv, TIMEOUT_MS, quantified_ms=QUANTIFIED_MS,
                                            budget_is_error=True)
                verdict, method = nonempty.decision.name.lower(), nonempty.method
            inner: list[str] = []
            if verdict == "undecided":
                verdict, method, inner = _nonempty_by_subfamilies(game, case, pset, iv)
            out.append({"family": ident, "case": case, "interval": interval_text(iv),
                        "sound": sound_verdict, "sound_counterexample": counterexample,
                        "nonempty": verdict, "nonempty_method": method, **({"nonempty_on": inner} if inner else {})})
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
                record["nonempty"], record["nonempty_method"] = "true", f"contains {other['family']}"
                break
    return out


#: Samples of an interval for :func:`_nonempty_by_subfamilies`: eighths, then towards each end by halving.
SUBFAMILY_HALVINGS = 10


def _nonempty_by_subfamilies(game, case: str, pset, iv) -> tuple[str, str, list[str]]:
    """Nonemptiness on ``iv`` through sub-families with every condition linear
    (:func:`symgame.engine.ranges.inner_range`, exact ranges): ``("true", method, [])`` when their ranges cover
    the interval, ``("partly", method, [intervals proved])`` when they cover part of it, else undecided."""
    from symgame.engine.atlas import SolvedBranch, branch_witness
    from symgame.engine.parametric import CaseBranch
    from symgame.engine.ranges import BranchRange, inner_range
    from symgame.export.atlas_outputs import interval_text
    from symgame.verify.polycert import interval_within

    branch = CaseBranch(case, None, pset.values, pset.free, pset.constraints)
    low = iv.lower.lower if iv.lower.is_rational else iv.lower.upper
    high = (iv.upper.upper if iv.upper.is_rational else iv.upper.lower) if iv.upper is not None else low + 4
    samples = [low + (high - low) * Fraction(j, 8) for j in (4, 2, 6, 1, 3, 5, 7)]
    samples += [v for k in range(4, SUBFAMILY_HALVINGS + 1)
                for v in (low + (high - low) / 2 ** k, high - (high - low) / 2 ** k)]
    member = SolvedBranch(branch, BranchRange((), False, 0))
    found = inner_range(branch, game.parameters[0], [v for v in samples if iv.contains(v)],
                        lambda v: branch_witness(game, member, v, TIMEOUT_MS), TIMEOUT_MS)
    inside = [i for i in found.intervals if _overlaps(i, iv)]
    if not inside:
        return "undecided", "linear sub-families", []
    if any(interval_within(iv, i) for i in inside):
        return "true", "linear sub-families", []
    return "partly", "linear sub-families", [interval_text(i) for i in inside]


def _overlaps(a, b) -> bool:
    from symgame.engine.ranges import compare_endpoints

    def before(x, y) -> bool:        # x ends before y starts
        if x.upper is None:
            return False
        c = compare_endpoints(x.upper, y.lower)
        return c < 0 or (c == 0 and not (x.upper_closed and y.lower_closed))
    return not before(a, b) and not before(b, a)


def coexistence_cells(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The parameter line cut at every range end (exact algebraic comparisons) and the distinct families valid
    on each cell (:func:`symgame.verify.atlascheck.coexistence` on the families read back from the study)."""
    from symgame.engine.atlas import Atlas, AtlasStats, Family, SolvedBranch
    from symgame.engine.casesplit import detect_structure
    from symgame.engine.parametric import CaseBranch
    from symgame.engine.ranges import BranchRange
    from symgame.export.atlas_outputs import interval_text
    from symgame.verify.atlascheck import coexistence

    game, members = member_sets(data)
    families: dict[str, list] = {}
    for ident, case, pset, intervals in members:
        branch = CaseBranch(case, None, pset.values, pset.free, pset.constraints)
        families.setdefault(ident, []).append(SolvedBranch(branch, BranchRange(tuple(intervals), False, 0)))
    atlas = Atlas(game, detect_structure(game), tuple(Family(k, (), None, tuple(v)) for k, v in families.items()),
                  (), AtlasStats(), complete=False)
    out = []
    for cell in coexistence(atlas):
        iv = ParamInterval(cell.lower, cell.is_point, cell.upper, cell.is_point)
        out.append({"cell": interval_text(iv), "range": _interval_json(iv), "families": list(cell.families)})
    return out


def _witness_in(game, pset, value, witness: dict[str, Any]) -> bool:
    """Whether the study's witness at the single pot ``value`` satisfies every condition of the member
    exactly (its free frequencies in [0, 1], the member's formulas giving its other frequencies)."""
    import sympy as sp

    from symgame.model.expr import parse_expression
    from symgame.verify.polycert import sign_of

    if parse_expression(witness["P"], {}) != value or "field" in witness:
        return False        # (a witness in a number field belongs to an algebraic family, ranged on intervals)
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
                 progress: Callable[[str, float], None] | None = None) -> dict[str, list[dict[str, Any]]]:
    """The cached checks of the study ``data`` (``"members"``: :func:`compute_certificates`, with the plane part's
    verdicts where z3's soundness was not attempted; ``"coexistence"``; ``"unranged"``: :func:`recover_unranged`;
    ``"pots"``: soundness at single pots, :func:`plane_soundness`), computed when the cache has none under this
    code.

    With the held-out rounds added (:func:`derivations.szafron2013.kuhn3_heldout.with_heldout`), the study's own
    families keep their part (keyed by the study alone: a change of the rounds never recomputes them) and the
    families solved from held-out points get theirs (``kuhn3/heldout/certificates``, with the coexistence cells of
    every family); the members are returned together."""
    from symgame.export.cache import StudyCache, cached

    from .kuhn3_heldout import split_heldout

    study_data, new_ids = split_heldout(data)
    cache = StudyCache(directory / CACHE_FILE) if directory is not None else None
    found = cached(cache, PART, _key(study_data), lambda: {"members": compute_certificates(study_data, progress),
                                                            "coexistence": coexistence_cells(study_data),
                                                            "unranged": recover_unranged(study_data, progress)},
                   recompute=recompute)
    plane = cached(cache, PLANE_PART, _plane_key(data), lambda: {"members": plane_soundness(data, progress)},
                   recompute=recompute, check=lambda stored: _check_plane(data, stored))
    if not new_ids:
        return {**found, "members": _with_plane(found["members"], plane["members"]),
                "pots": _pot_records(found["members"], plane["members"])}
    added = dict(data, families=[f for f in data["families"] if f["id"] in new_ids])
    extra = cached(cache, HELDOUT_PART, _heldout_key(data), lambda: {
        "members": compute_certificates(added, progress, QUANTIFIED_OPEN + HELDOUT_QUANTIFIED_OPEN),
        "coexistence": coexistence_cells(data)}, recompute=recompute)
    members = found["members"] + extra["members"]
    return {"members": _with_plane(members, plane["members"]), "coexistence": extra["coexistence"],
            "unranged": found["unranged"], "pots": _pot_records(members, plane["members"])}


# --------------------------------------------------------------------------- soundness in the plane (P, z)

PLANE_PART = "kuhn3/plane-soundness"
#: Bumped when what the plane part records changes (1: every algebraic member with one free frequency, each
#: interval decided by :func:`symgame.verify.planecert.certify_best_response_plane`; 2: also each algebraic
#: member with two free frequencies at the rational pots of the cross-check's and held-out searches' points
#: located in it, in the plane of its two free frequencies; 3: also at the pots of the discovery's own points
#: located in it).
PLANE_VERSION = 3


def _plane_key(data: dict[str, Any]) -> str:
    from symgame.export.cache import content_key

    digest = hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()
    return content_key(PLANE_PART, {"data": digest}, [__name__], version=PLANE_VERSION)


def _plane_members(data: dict[str, Any]) -> list[tuple[str, str, Any, ParamInterval, str]]:
    """``(family, case, ProfileSet, interval, interval text)`` of every interval of an algebraic member with one
    free frequency (the members whose soundness z3 does not decide), then of each algebraic member with two at the
    pots of the points located in it (:func:`_located_pots`, inside its intervals)."""
    import sympy as sp

    from symgame.engine.ranges import rational_endpoint
    from symgame.export.atlas_outputs import interval_text

    game, members = member_sets(data)
    out = [(ident, case, pset, iv, interval_text(iv)) for ident, case, pset, intervals in members
           if len(pset.free) == 1 and is_algebraic(pset) for iv in intervals]
    P = game.symbol(game.parameter_names[0])
    for ident, case, pset, intervals in members:
        if len(pset.free) != 2 or not is_algebraic(pset):
            continue
        for pot in _located_pots(data, ident):
            end = rational_endpoint(sp.Rational(pot.numerator, pot.denominator), P)
            if any(iv.contains(pot) for iv in intervals):
                iv = ParamInterval(end, True, end, True)
                out.append((ident, case, pset, iv, interval_text(iv)))
    return out


def _located_pots(data: dict[str, Any], ident: str) -> list[Fraction]:
    """The rational pots of the searches' points located in family ``ident``: the cross-check's and the held-out
    searches' (a held-out point outside every family when its search ran counts where it was located after its
    case was solved, ``outside_after``) and the discovery's own, located in the enlarged atlas
    (``discovery_located``, :func:`derivations.szafron2013.kuhn3_heldout.discovery_located`)."""
    from symgame.model.expr import parse_expression

    points = list(data.get("crosscheck", [])) + [p for r in data.get("heldout", [])
                                                 for p in r["equilibria"] + r.get("outside_after", [])]
    points += data.get("discovery_located", [])
    pots = {parse_expression(p["P"], {}) for p in points if p.get("family") == ident}
    return sorted(Fraction(int(v.p), int(v.q)) for v in pots if v.is_Rational)


def plane_soundness(data: dict[str, Any], progress: Callable[[str, float], None] | None = None
                    ) -> list[dict[str, Any]]:
    """Soundness of each interval of the algebraic members with one free frequency, exact: the plane of P and
    that frequency decided by cylindrical algebraic decomposition
    (:func:`symgame.verify.planecert.certify_best_response_plane`; no time limit, so no verdict depends on the
    machine); and of each algebraic member with two free frequencies at the pots of the searches' points located
    in it (the plane of its two free frequencies there).  Records ``family``, ``case``, ``interval``, ``sound``,
    ``sound_counterexample``, ``sound_method``."""
    from symgame.verify.planecert import certify_best_response_plane

    game = reduced_game(data["dominance"]["fixed"])
    out = []
    for ident, case, pset, iv, text in _plane_members(data):
        start = time.perf_counter()
        cert = certify_best_response_plane(game, pset, iv)
        out.append({"family": ident, "case": case, "interval": text, "sound": cert.decision.name.lower(),
                    "sound_counterexample": cert.counterexample, "sound_method": cert.method})
        if progress is not None:
            progress(f"plane soundness {ident} on {text}: {out[-1]['sound']}", time.perf_counter() - start)
    return out


def _check_plane(data: dict[str, Any], stored: dict[str, Any]) -> None:
    """A stored plane part must hold one record per entry of :func:`_plane_members` (the intervals of the
    algebraic one-free members, then the two-free members' pots), in order, each with a verdict of the three
    (:class:`~symgame.errors.StoreError` otherwise)."""
    from symgame.errors import StoreError

    expected = [(ident, case, text) for ident, case, _, _, text in _plane_members(data)]
    records = stored.get("members") if isinstance(stored, dict) else None
    if not isinstance(records, list) or [(r.get("family"), r.get("case"), r.get("interval")) for r in records
                                         if isinstance(r, dict)] != expected:
        raise StoreError(f"{PLANE_PART}: the stored records are not those of the study's algebraic members")
    if any(r.get("sound") not in ("true", "false", "undecided") for r in records):
        raise StoreError(f"{PLANE_PART}: a stored record has no verdict")


def search_points_certified(data: dict[str, Any], checks: dict[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """The issue's first criterion, search by search: whether each numeric equilibrium lies in a family proved
    sound where it lies.

    Parameters
    ----------
    data : dict
        The study with the held-out rounds (:func:`derivations.szafron2013.kuhn3_heldout.with_heldout`) and the
        discovery's points located (:func:`derivations.szafron2013.kuhn3_heldout.with_located`).
    checks : dict
        :func:`certificates` of ``data``.

    Returns
    -------
    list of dict
        One per search (the discovery's, then the held-out rounds': the first is the cross-check): ``search``,
        ``points``, ``located`` (in a family valid at its pot, where it lies after its case was solved when it lay
        in none when its search ran), ``on_interval`` (of those, in a family whose every member valid at that pot
        is proved sound on an interval holding it), ``at_pot`` (the others proved sound at that pot itself) and
        ``not_certified`` (``P`` and ``family`` of the rest, located or not).
    """
    from symgame.export.atlas_outputs import interval_text

    _, members = member_sets(data)
    intervals: dict[str, list[tuple[str, Any]]] = {}
    for ident, case, _, ivs in members:
        intervals.setdefault(ident, []).extend((case, iv) for iv in ivs)
    sound = {(c["family"], c["case"], c["interval"]) for c in checks["members"] if c["sound"] == "true"}
    at_pots = {(c["family"], c["case"], c["interval"]) for c in checks.get("pots", []) if c["sound"] == "true"}

    def verdict(point: dict[str, Any]) -> str | None:
        family, pot = point.get("family"), Fraction(point["P"])
        holding = [(case, iv) for case, iv in intervals.get(family, []) if iv.contains(pot)] if family else []
        if not holding:
            return None
        if all((family, case, interval_text(iv)) in sound for case, iv in holding):
            return "on_interval"
        if all((family, case, interval_text(iv)) in sound or (family, case, f"P = {point['P']}") in at_pots
               for case, iv in holding):
            return "at_pot"
        return None

    searches = [("discovery", list(data.get("discovery_located", [])))]
    for number, r in enumerate(data.get("heldout", [])):
        after = list(r.get("outside_after", []))
        outside = [p for p in r["equilibria"] if p["family"] is None]
        points = [p for p in r["equilibria"] if p["family"] is not None] + (after if after else outside)
        searches.append(("cross-check" if number == 0 else f"held-out {number + 1}", points))
    out = []
    for name, points in searches:
        verdicts = [verdict(p) for p in points]
        out.append({"search": name, "points": len(points),
                    "located": sum(p.get("family") is not None for p in points),
                    "on_interval": verdicts.count("on_interval"), "at_pot": verdicts.count("at_pot"),
                    "not_certified": [{"P": p["P"], "family": p.get("family")}
                                      for p, v in zip(points, verdicts) if v is None]})
    return out


def _pot_records(members: list[dict[str, Any]], plane: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The plane part's records at single pots of members whose intervals are wider (soundness there only)."""
    keys = {(r["family"], r["case"], r["interval"]) for r in members}
    return [r for r in plane if (r["family"], r["case"], r["interval"]) not in keys]


def _with_plane(members: list[dict[str, Any]], plane: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The certificate records with the plane part's verdicts where z3's soundness was not attempted."""
    by = {(r["family"], r["case"], r["interval"]): r for r in plane}
    out = []
    for record in members:
        exact = by.get((record["family"], record["case"], record["interval"]))
        if exact is not None and record["sound"] == "not attempted":
            record = {**record, "sound": exact["sound"], "sound_counterexample": exact["sound_counterexample"],
                      "sound_method": exact["sound_method"]}
        out.append(record)
    return out


HELDOUT_PART = "kuhn3/heldout/certificates"


def _heldout_key(data: dict[str, Any]) -> str:
    from symgame.export.cache import content_key

    from .kuhn3_heldout import _without_located

    # where the discovery's points lie does not enter these certificates
    digest = hashlib.sha256(json.dumps(_without_located(data), sort_keys=True).encode()).hexdigest()
    return content_key(HELDOUT_PART, {"data": digest, "timeout_ms": TIMEOUT_MS, "quantified_ms": QUANTIFIED_MS,
                                      "quantified_open": [list(m) for m in QUANTIFIED_OPEN + HELDOUT_QUANTIFIED_OPEN],
                                      "soundness_open": [list(m) for m in SOUNDNESS_OPEN]},
                       [__name__], version=METHOD_VERSION)


# --------------------------------------------------------------------------- branches without a derived range

GRID = tuple(Fraction(k, 8) for k in range(17, 65))  # 17/8 .. 8, the discovery's span of pots
BISECTIONS = 24
MAX_DENOMINATOR = 64


def _simplest(lo: Fraction, hi: Fraction) -> Fraction | None:
    """The rational of least denominator (at most :data:`MAX_DENOMINATOR`) in ``[lo, hi]``, if any."""
    for den in range(1, MAX_DENOMINATOR + 1):
        k = -((-lo.numerator * den) // lo.denominator)  # ceil(lo * den)
        if Fraction(k, den) <= hi:
            return Fraction(k, den)
    return None


def recover_unranged(data: dict[str, Any], progress: Callable[[str, float], None] | None = None
                     ) -> list[dict[str, Any]]:
    """Branches of the study's solved cases whose range came out empty although it is flagged incomplete
    (a free frequency enters non-linearly, so the border polynomials may miss a border).

    Each is decided exactly on the grid :data:`GRID` of pots; around each run of pots where it holds the two
    transitions are bracketed by exact bisection, the simplest rational in each bracket is taken as a
    candidate end, and the open interval between the candidates is then *certified* (sound and nonempty,
    as for the families).  A certified interval is a proved part of the branch's range; that the range
    stops there is not proved.
    """
    import sympy as sp

    from symgame.engine.atlas import analyse_case, parameter_pieces
    from symgame.engine.casesplit import detect_structure
    from symgame.engine.ranges import ParamInterval, decide_at, rational_endpoint
    from symgame.export.atlas_outputs import interval_text
    from symgame.model.decide import Decision
    from symgame.verify.polycert import ProfileSet
    from symgame.verify.separable import certify_best_response

    game = reduced_game(data["dominance"]["fixed"])
    structure = detect_structure(game)
    P = game.symbol(game.parameter_names[0])
    pieces = tuple(range(len(parameter_pieces(game))))
    low = Fraction(str(game.parameters[0].lower))

    def holds(branch, value: Fraction) -> bool:
        return decide_at(branch, P, sp.Rational(value.numerator, value.denominator), None, TIMEOUT_MS) \
            is Decision.TRUE

    def transition(branch, false_at: Fraction, true_at: Fraction) -> Fraction | None:
        for _ in range(BISECTIONS):
            mid = (false_at + true_at) / 2
            if holds(branch, mid):
                true_at = mid
            else:
                false_at = mid
        return _simplest(min(false_at, true_at), max(false_at, true_at))

    out = []
    for case, stage in sorted(data["discovery"]["cases"].items()):
        if stage != "solved":
            continue
        start = time.perf_counter()
        verdict = analyse_case(game, structure, case, pieces)
        for k, solved in enumerate(verdict.branches):
            branch = solved.branch
            if solved.range.intervals or solved.range.complete:
                continue
            truth = [holds(branch, v) for v in GRID]
            record: dict[str, Any] = {
                "case": case, "branch": k, "free": list(branch.free),
                "values": {x: str(e) for x, e in branch.values},
                "conditions": [[str(e), rel] for e, rel in branch.conditions],
                "holds_at": [str(v) for v, t in zip(GRID, truth) if t], "intervals": []}
            runs, j = [], 0
            while j < len(GRID):
                if truth[j]:
                    first = j
                    while j + 1 < len(GRID) and truth[j + 1]:
                        j += 1
                    runs.append((first, j))
                j += 1
            for first, last in runs:
                lo = transition(branch, GRID[first - 1] if first else low, GRID[first])
                hi = transition(branch, GRID[last + 1], GRID[last]) if last + 1 < len(GRID) else None
                entry: dict[str, Any] = {"grid": [str(GRID[first]), str(GRID[last])]}
                if lo is None or (hi is None and last + 1 < len(GRID)):
                    entry["certified"] = "no simple candidate end"
                    record["intervals"].append(entry)
                    continue
                iv = ParamInterval(rational_endpoint(lo, P), False, None if hi is None else rational_endpoint(hi, P),
                                   False)
                pset = ProfileSet(branch.values, branch.free, branch.conditions)
                sound = certify_best_response(game, pset, iv, TIMEOUT_MS).decision
                # nonemptiness is not attempted: z3's quantified query on these branches does not finish (it ran
                # past 5 s alone, and past minutes with other budgets), so any budget would decide the record
                entry.update({"interval": interval_text(iv), "sound": sound.name.lower(), "nonempty": "undecided"})
                record["intervals"].append(entry)
            out.append(record)
            if progress is not None:
                progress(f"unranged branch {k} of {case}: holds at {len(record['holds_at'])} grid pots, "
                         + "; ".join(f"{e.get('interval', e['grid'])} sound {e.get('sound')} nonempty "
                                     f"{e.get('nonempty')}" for e in record["intervals"]),
                         time.perf_counter() - start)
    return out
