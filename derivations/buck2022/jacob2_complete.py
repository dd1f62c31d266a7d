"""The complete equilibrium set of the Jacob game II (Buck et al., arXiv:2208.02788, 2022, Appendix C.3, (C.5)).

``outputs/guts/jacob2.md`` lists what the printed equilibria, an exact check of every pure profile and a seeded
search find. Here exact support enumeration on the polynomial systems (:func:`symgame.engine.enumpoly.enumpoly_solve`:
every support profile decided by z3 and solved exactly, isolated points and families) proves which equilibria
exist *at all*: for (C.5) the list is complete, and for (C.6) (3,375 support profiles, 680 orbits under the
players' symmetry; cached by :mod:`derivations.buck2022.jacob2_c6`) it is complete given msolve's answer for the
totally mixed support. (C.7) (250,047 support profiles) is reported as a measurement.
"""
from __future__ import annotations

import itertools
import time
from dataclasses import dataclass
from fractions import Fraction
from math import prod

from derivations.buck2022.jacob2 import regret, tensors
from derivations.buck2022.jacob2_c6 import strategic
from derivations.buck2022.jacob2_outputs import _printed
from symgame.engine.enumpoly import EnumPolyResult, enumpoly_solve
from symgame.references import cite

SOURCE = cite("buck2022", "Appendix C.3, (C.5)-(C.7)")
FILE = "jacob2_complete.md"
#: measured on the project's 2-core machine (2026-11-25, `benchmarks/bench_jacob2_symmetry.py --c6`, beside
#: other jobs): with the players' symmetry 678 of 680 orbits are decided.
C6_MEASURED = ("with the players' symmetry (one support profile per orbit of the permutations of the players: 680 "
               "orbits, 858 s beside other jobs) 14 isolated equilibria are found and verified and 678 orbits are "
               "decided; 2 are left undecided. {1,2,3} x {1,2,3,4} x {2,3,4} has 7 unknowns and a "
               "positive-dimensional complex solution set, on which z3 found no answer in the enumerator's 10 s "
               "(given 60 s alone it proves that no equilibrium has this support, in 24 s); {1,2,3,4}^3 has 9 unknowns, "
               "above the Groebner limit of 8, and FLINT's Buchberger runs past its size limits in 33 s, also after "
               "the two linear eliminations (players 1 and 2 solved in terms of player 3: three equations of degree 6 "
               "in 3 unknowns); z3 gives no answer in 60 s (measured by `benchmarks/bench_jacob2_symmetry.py --c6` and "
               "by hand, not recomputed here), so the list is not yet proved complete")
C7_MEASURED = ("about 43,700 orbits under the players' symmetry, hours at the (C.6) rate; without symmetry "
               "refused by the enumerator's limit of 200,000 support profiles")
CLOSE = {"C.6": "a longer z3 limit for the first undecided support and, for the totally mixed one, a faster "
                "Groebner basis (F4, as in msolve) or a bound on totally mixed equilibria",
         "C.7": "the schedule's block structure as a further symmetry, then the enumeration spread over processes "
                "(at (C.6)'s 0.6 s per orbit about 7 hours on one core, more with larger supports)"}


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


def complete_markdown(found: CompleteSet, c6: dict | None = None) -> str:
    r = found.result
    pure = [p for p in found.profiles if all(max(probs) == 1 for probs in p)]
    lines = [
        "# The Jacob game II: every equilibrium", "",
        f"Source: {SOURCE}.", "",
        f"## Schedule ({found.name}), proved complete", "",
        f"Exact support enumeration (`symgame.engine.enumpoly`): {r.supports} support profiles after removing "
        f"dominated strategies, {r.pruned} skipped by conditional dominance, every other one decided by z3 and "
        f"solved exactly; undecided supports: {len(r.undecided)}; families of positive dimension: "
        f"{len(r.families)}. Complete: {'yes' if r.complete else 'no'}.", "",
        f"{len(found.profiles)} equilibria, all isolated and rational ({len(pure)} pure, "
        f"{len(found.profiles) - len(pure)} mixed); each has exact regret 0, checked again by the Jacob-game "
        f"code's own regret function: {'yes' if found.regret_checked else 'NO'}.", "",
        "| equilibrium (players 1 / 2 / 3, probabilities of actions 1, 2, 3) | payoffs |", "|---|---|",
    ]
    lines += [f"| {_text(p)} | {', '.join(str(u) for u in pay)} |" for p, pay in zip(found.profiles, found.payoffs)]
    sizes = {"C.6": 4, "C.7": 6}
    claims = [(label, profile) for label, profile in _printed(found.name, len(found.profiles[0][0]))
              if profile in found.profiles]
    orbit = {tuple(profile[k] for k in perm) for _, profile in claims for perm in itertools.permutations(range(3))}
    new = [p for p in found.profiles if p not in orbit]
    lines += ["", f"The paper prints {len(claims)} of them ({'; '.join(label for label, _ in claims)}); "
              f"{len(orbit & set(found.profiles)) - len(claims)} more are these with the players permuted, and "
              f"{len(new)} are not in the paper: " + "; ".join(_text(p) for p in new) + ". Every equilibrium the "
              "seeded search of `jacob2.md` finds is in this table (a test checks it).", ""]
    done = c6 is not None and c6["complete"]
    if done:
        lines += c6_markdown(c6)
    lines += ["## Schedules (C.6) and (C.7): not finished" if not done else "## Schedule (C.7): not finished", ""]
    for name, m in sizes.items():
        if name == "C.6" and done:
            continue
        supports = prod(2 ** m - 1 for _ in range(3))
        note = C6_MEASURED if name == "C.6" else C7_MEASURED
        lines.append(f"- ({name}): {m} actions per player, {supports:,} support profiles; {note}. What would "
                     f"close it: {CLOSE[name]}.")
    return "\n".join(lines) + "\n"


def c6_regret_checked(c6: dict) -> bool:
    """Each (C.6) equilibrium of the cache has regret 0 by the Jacob-game code's own function (rationals only)."""
    ts = tensors("C.6")
    return all(regret(ts, tuple(tuple(Fraction(p) for p in mix) for mix in eq["profile"])) == 0
               for eq in c6["equilibria"])


def c6_markdown(c6: dict) -> list[str]:
    eqs = c6["equilibria"]
    pure = [e for e in eqs if all("1" in mix for mix in e["profile"])]
    relied = "; ".join(" x ".join("{" + ",".join(map(str, s)) + "}" for s in sup) for sup in c6["msolve_supports"])
    lines = [
        "## Schedule (C.6), complete given msolve", "",
        f"The same enumeration with the players' symmetry (one support profile per orbit of the permutations of "
        f"the players): {c6['supports']:,} support profiles after removing dominated strategies, {c6['orbits']} "
        f"orbits solved, {c6['pruned']} skipped by conditional dominance, every one decided; families of positive "
        f"dimension: {len(c6['families'])}. The supports too large for the Groebner bases here ({relied or 'none'}) "
        "were solved by msolve (Berthomieu, Eder and Safey El Din, ISSAC 2021): each solution it lists is checked "
        "exactly and the equilibria among them are in the table below; that its list holds every solution rests "
        "on msolve's multi-modular algorithm (very likely, not a proof).", "",
        f"{len(eqs)} isolated equilibria ({len(pure)} pure, {len(eqs) - len(pure)} mixed); each has exact "
        f"regret 0, checked again by the Jacob-game code's own regret function: "
        f"{'yes' if c6_regret_checked(c6) else 'NO'}.", "",
        "| equilibrium (players 1 / 2 / 3, probabilities of actions 1, 2, 3, 4) | payoffs |", "|---|---|",
    ]
    lines += [f"| {' / '.join('(' + ', '.join(mix) + ')' for mix in e['profile'])} | {', '.join(e['payoffs'])} |"
              for e in eqs]
    return lines + [""]


def write_complete(directory) -> list:
    from pathlib import Path

    from derivations.buck2022.jacob2_c6 import c6_study

    path = Path(directory) / FILE
    path.write_text(complete_markdown(complete_set("C.5"), c6_study(Path(directory))), encoding="utf-8")
    return [path]
