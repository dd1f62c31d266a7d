"""The complete equilibrium set of the Jacob game II (Buck et al., arXiv:2208.02788, 2022, Appendix C.3,
(C.5)-(C.7)).

``outputs/guts/jacob2.md`` lists what the printed equilibria, an exact check of every pure profile and a seeded
search find. Here exact support enumeration on the polynomial systems (:func:`symgame.engine.enumpoly.enumpoly_solve`:
every support profile decided exactly by dominance, a linear relaxation, z3 and Gröbner bases, isolated points
and families) proves which equilibria exist *at all*: (C.5) without symmetry, (C.6) and (C.7) with the players'
symmetry (cached by :mod:`derivations.buck2022.jacob2_schedules`).
"""
from __future__ import annotations

import itertools
import time
from dataclasses import dataclass
from fractions import Fraction

from derivations.buck2022.jacob2 import regret, tensors
from derivations.buck2022.jacob2_outputs import _printed
from derivations.buck2022.jacob2_schedules import (
    CERTIFY_FEW_SOLUTIONS,
    CERTIFY_SOLUTIONS,
    CERTIFY_UNKNOWNS,
    WORKERS,
    strategic,
)
from symgame.engine.enumpoly import MAX_CHARTS, EnumPolyResult, enumpoly_solve
from symgame.model.store import write_atomic
from symgame.references import cite

SOURCE = cite("buck2022", "Appendix C.3, (C.5)-(C.7)")
FILE = "jacob2_complete.md"
#: The schedules solved with the players' symmetry and cached.
CACHED = ("C.6", "C.7")


@dataclass(frozen=True)
class CompleteSet:
    name: str
    result: EnumPolyResult
    profiles: tuple[tuple[tuple[Fraction, ...], ...], ...]   # the isolated equilibria, exact (all rational here)
    payoffs: tuple[tuple[Fraction, ...], ...]
    regret_checked: bool                                      # jacob2.regret (independent code) is 0 at each
    seconds: float


def complete_set(name: str = "C.5") -> CompleteSet:
    game = strategic(name)
    t0 = time.perf_counter()
    result = enumpoly_solve(game)
    seconds = time.perf_counter() - t0
    profiles = tuple(tuple(tuple(p.value_fraction() for p in probs) for probs in eq.profile)
                     for eq in result.equilibria)
    payoffs = tuple(tuple(u.value_fraction() for u in eq.payoffs) for eq in result.equilibria)
    ts = tensors(name)
    checked = all(regret(ts, profile) == 0 for profile in profiles)
    order = sorted(range(len(profiles)), key=lambda k: profiles[k])
    return CompleteSet(name, result, tuple(profiles[k] for k in order), tuple(payoffs[k] for k in order), checked,
                       seconds)


def _text(profile) -> str:
    return " / ".join("(" + ", ".join(str(p) for p in probs) + ")" for probs in profile)


def _paper(name: str, profiles: list[tuple], complete: bool = True) -> str:
    """Which listed equilibria the paper prints, which are their images under the players' permutations, and
    which are new."""
    m = len(profiles[0][0])
    claims = [(label, profile) for label, profile in _printed(name, m) if profile in profiles]
    orbit = {tuple(profile[k] for k in perm) for _, profile in claims for perm in itertools.permutations(range(3))}
    new = [p for p in profiles if p not in orbit]
    missing = [label for label, profile in _printed(name, m) if profile not in profiles]
    return (f"The paper prints {len(claims)} of them ({'; '.join(label for label, _ in claims)}); "
            f"{len(orbit & set(profiles)) - len(claims)} more are these with the players permuted, and "
            f"{len(new)} are not in the paper" + (": " + "; ".join(_text(p) for p in new) if new else "")
            + "." + (f" Printed but not an equilibrium: {'; '.join(missing)}." if missing else "")
            + (" Every equilibrium the seeded search of `jacob2.md` finds is in this table (a test checks it)."
               if complete else " Every equilibrium the seeded search of `jacob2.md` finds is in this table or has a "
               "support listed above as positive-dimensional or undecided (a test checks it)."))


def complete_markdown(found: CompleteSet, cached: dict[str, dict], certified: dict[str, dict] | None = None) -> str:
    r = found.result
    pure = [p for p in found.profiles if all(max(probs) == 1 for probs in p)]
    lines = [
        "# The Jacob game II: every equilibrium", "",
        f"Source: {SOURCE}.", "",
        f"## Schedule ({found.name}), {'proved complete' if r.complete else 'not proved complete'}", "",
        f"Exact support enumeration (`symgame.engine.enumpoly`): {r.supports} support profiles after removing "
        f"dominated strategies, {r.pruned} skipped by conditional dominance, {r.relaxed} ruled out by the linear "
        f"relaxation, every other one decided by z3 and solved exactly; undecided supports: {len(r.undecided)}; "
        f"families of positive dimension: {len(r.families)}. Complete: {'yes' if r.complete else 'no'}.", "",
        f"{len(found.profiles)} equilibria, all isolated and rational ({len(pure)} pure, "
        f"{len(found.profiles) - len(pure)} mixed); each has exact regret 0, checked again by the Jacob-game "
        f"code's own regret function: {'yes' if found.regret_checked else 'NO'}.", "",
        "| equilibrium (players 1 / 2 / 3, probabilities of actions 1, 2, 3) | payoffs |", "|---|---|",
    ]
    lines += [f"| {_text(p)} | {', '.join(str(u) for u in pay)} |" for p, pay in zip(found.profiles, found.payoffs)]
    lines += ["", _paper(found.name, list(found.profiles)), ""]
    for name in CACHED:
        lines += schedule_markdown(name, cached[name], certified.get(name) if certified else None)
    return "\n".join(lines) + "\n"


def _rational(profile: list[list[str]]) -> bool:
    return all("sqrt" not in p and "Root" not in p and "I" not in p for mix in profile for p in mix)


def regret_checked(name: str, data: dict) -> bool:
    """Each rational equilibrium of a cached schedule has regret 0 by the Jacob-game code's own function (the
    others are checked by :func:`symgame.engine.enumpoly.verify` in their number fields)."""
    ts = tensors(name)
    return all(regret(ts, tuple(tuple(Fraction(p) for p in mix) for mix in eq["profile"])) == 0
               for eq in data["equilibria"] if _rational(eq["profile"]))


def _supports_text(supports: list) -> str:
    return "; ".join(" x ".join("{" + ",".join(map(str, s)) + "}" for s in sup) for sup in supports)


def _certified_text(rows: list[dict]) -> str:
    """What the membership certificates prove (computed fields only)."""
    empty = [r for r in rows if r["kind"] == "empty"]
    para = [r for r in rows if r["kind"] == "parametrized"]
    lifted = [r for r in rows if r["kind"] == "no equilibrium"]
    rest = [r["support"] for r in rows if r["kind"] == "not certified"]
    text = (f" Of these {len(rows)} supports, {len(empty) + len(para)} are proved without trusting msolve, by "
            "identities checked exactly with FLINT (cofactors found by Singular's `lift`: Decker, Greuel, Pfister and "
            "Schönemann, Singular 4-4-1, 2025; `symgame.engine.enumpoly.certify_support`): for "
            f"{len(empty)}, 1 is a combination of the equations and the `u p - 1` (no complex solution with every "
            f"support probability nonzero: Hilbert's Nullstellensatz); for {len(para)}, msolve's eliminating "
            "polynomial and each coordinate of its parametrization are, so every such solution is a listed point "
            f"({sum(r['solutions'] for r in para)} complex solutions in all, "
            f"{sum(len(r['equilibria']) for r in para)} of them equilibria, each in the table below); the "
            f"certificates have {sum(r['terms'] for r in empty + para):,} terms in all.")
    if lifted or rest:
        text += (f" The other {len(lifted) + len(rest)} (parametrized, with more than {CERTIFY_SOLUTIONS} complex "
                 f"solutions, or more than {CERTIFY_FEW_SOLUTIONS} and more than {CERTIFY_UNKNOWNS} unknowns, and not "
                 "among those measured to certify within 300 s here, `jacob2_schedules.CERTIFY_MEASURED`) get no "
                 "membership certificate here (Singular's `lift` too large).")
    if lifted:
        text += (f" Of those, {len(lifted)} are proved to hold no equilibrium at all, without msolve, by a linear "
                 "relaxation lifted by the products of the mixtures with one more probability (a Sherali-Adams "
                 "style lift of the correlated-equilibrium conditions that keeps the symmetry of each player's "
                 "squared mixture; `symgame.engine.supportlift`): it has no solution, and Farkas multipliers (from "
                 "HiGHS's dual simplex, solved again exactly over the rationals with FLINT) prove it, checked in "
                 f"exact arithmetic ({sum(r['multipliers'] for r in lifted):,} multipliers in all, derived again "
                 "and checked whenever the record is read).")
    if rest:
        text += (f" {len(rest)} still rest{'s' if len(rest) == 1 else ''} on msolve (the lifted relaxation has a "
                 f"solution there): {_supports_text(rest)}.")
    return text


def schedule_markdown(name: str, data: dict, certified: dict | None = None) -> list[str]:
    eqs = data["equilibria"]
    m = len(eqs[0]["profile"][0]) if eqs else len(tensors(name)[0])
    pure = [e for e in eqs if all("1" in mix for mix in e["profile"])]
    rows = certified["supports"] if certified else []
    trusted = [r for r in rows if r["kind"] == "not certified"] if certified else data["msolve_supports"]
    if not data["complete"]:
        status = "not proved complete"
    elif trusted:
        status = "complete given msolve" + (f" for {len(trusted)} of its supports" if certified else "")
    else:
        status = "proved complete"
    lines = [
        f"## Schedule ({name}), {status}", "",
        f"The same enumeration with the players' symmetry (one support profile per orbit of the permutations of "
        f"the players): {data['supports']:,} support profiles after removing dominated strategies, "
        f"{data['orbits']:,} orbits, {data['pruned']:,} skipped by conditional dominance, {data['relaxed']:,} ruled "
        f"out by the linear relaxation, the rest decided by z3 and solved exactly (on {WORKERS} processes; a "
        f"support whose equations have infinitely many complex solutions is solved again without the solutions "
        f"where one of its probabilities vanishes: the ideal saturated by the probabilities; what stays "
        f"positive-dimensional goes to z3 in charts, each player's weights unnormalized with one fixed to 1); "
        f"undecided orbits: {len(data['undecided'])}; supports with a positive-dimensional system that z3 proves to "
        f"hold an equilibrium: {len(data['families'])}.",
    ]
    if data["msolve_supports"] and certified:
        lines[-1] += (f" The {len(data['msolve_supports'])} supports too large for the Groebner bases here or "
                      "saturated were solved by msolve (Berthomieu, Eder and Safey El Din, ISSAC 2021): each solution "
                      "it lists is checked exactly." + _certified_text(rows))
    elif data["msolve_supports"]:
        lines[-1] += (f" The {len(data['msolve_supports'])} supports too large for the Groebner bases here or "
                      f"saturated ({_supports_text(data['msolve_supports'])})"
                      " were solved by msolve (Berthomieu, Eder and Safey El Din, ISSAC 2021): each solution it lists"
                      " is checked exactly; that its list holds every solution rests on msolve's multi-modular "
                      "algorithm (very likely, not a proof), and so does the answer that a saturated system has "
                      "no solution.")
    if data["undecided"]:
        lines[-1] += (" The list below is therefore not known to be complete: z3 found neither a solution nor a "
                      f"proof of none in its time limits (in up to {MAX_CHARTS} charts and in the sum-to-one form), "
                      "and msolve found infinitely many complex solutions even with every support probability "
                      "nonzero, on the undecided supports (actions numbered from 1): "
                      f"{_supports_text(data['undecided'])}.")
    if data["families"]:
        lines += ["", "Supports whose polynomial system has a positive-dimensional complex solution set, with the "
                  "equations that remain after dividing out factors that cannot vanish at positive probabilities "
                  "(a single point when they fix every unknown). z3 finds a point on each (so each holds an "
                  "equilibrium); an exact member is given where fixing coordinates at nearby rationals leaves a "
                  "finite system that has one, checked by exact regret:", "",
                  "| support (actions from 1) | equations | an exact member (players 1 / 2 / 3) |", "|---|---|---|"]
        lines += [f"| {_supports_text([f['support']])} | {'; '.join(f['equations'])} | "
                  + (" / ".join("(" + ", ".join(mix) + ")" for mix in f["member"])
                     + (", regret 0" if f["member_verified"] else ", NOT verified") if f["member"] else "not found")
                  + " |" for f in data["families"]]
    rational = [e for e in eqs if _rational(e["profile"])]
    lines += ["", f"{len(eqs)} isolated equilibria ({len(pure)} pure, {len(eqs) - len(pure)} mixed, "
              f"{len(eqs) - len(rational)} with irrational coordinates); each has exact regret 0 "
              f"({'all' if all(e['verified'] for e in eqs) else 'NOT all'} verified in their number fields), the "
              f"{len(rational)} rational ones checked again by the Jacob-game code's own regret function: "
              f"{'yes' if regret_checked(name, data) else 'NO'}.", "",
              f"| equilibrium (players 1 / 2 / 3, probabilities of actions {', '.join(map(str, range(1, m + 1)))}) "
              "| payoffs |", "|---|---|"]
    lines += [f"| {' / '.join('(' + ', '.join(mix) + ')' for mix in e['profile'])} | {', '.join(e['payoffs'])} |"
              for e in eqs]
    if rational:
        profiles = [tuple(tuple(Fraction(p) for p in mix) for mix in e["profile"]) for e in rational]
        lines += ["", _paper(name, profiles, data["complete"])]
    return lines + [""]


def write_complete(directory) -> list:
    from pathlib import Path

    from derivations.buck2022.jacob2_schedules import certificates_study, membership_available, schedule_study

    path = Path(directory) / FILE
    cached = {name: schedule_study(Path(directory), name) for name in CACHED}
    certified = {name: certificates_study(Path(directory), name, cached[name]) for name in CACHED
                 if cached[name]["msolve_supports"] and membership_available()}
    write_atomic(path, complete_markdown(complete_set("C.5"), cached, certified))
    return [path]
