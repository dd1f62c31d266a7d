"""``outputs/kuhn3/``: three-player Kuhn poker's derived families, rendered from the cached study."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any, Callable

import sympy as sp

from derivations.szafron2013.kuhn3 import CACHE_FILE, study
from derivations.szafron2013.kuhn3_certify import certificates, search_points_certified
from derivations.szafron2013.kuhn3_heldout import discovery_located, heldout, with_heldout, with_located
from derivations.szafron2013.kuhn3_search import search_measurement
from symgame.export.atlas_outputs import _save
from symgame.export.plots import (
    pyplot,  # the package's matplotlib set-up
    save_png,
)
from symgame.model.store import write_atomic
from symgame.references import cite

TEXT_FILES = ("families.json", "summary.md", "cheatsheet.tex")
PLOTS = ("ranges.png", "frequencies.png")
SOURCE = cite("szafron2013", "section 2")
CONTINUATION = cite("billingham2018")


def families_json(data: dict[str, Any], checks: dict[str, list[dict[str, Any]]]) -> str:
    return json.dumps({"source": SOURCE, **data, "certificates": checks["members"],
                       "pot_certificates": checks.get("pots", []), "unranged": checks["unranged"],
                       "search_points_certified": checks.get("searches", [])},
                      indent=1, sort_keys=True) + "\n"


def _range_text(r: dict[str, Any]) -> str:
    lo, hi = r["lower"], r["upper"]
    if hi is not None and lo["value"] == hi["value"]:
        return f"P = {lo['value']}"
    left = "[" if r["lower_closed"] else "("
    right = "]" if r["upper_closed"] else ")"
    upper = "oo" if hi is None else f"{hi['value']} (≈ {hi['approx']})"
    return f"{left}{lo['value']} (≈ {lo['approx']}), {upper}{right}"


def _checked(family: str, member: dict[str, Any], witnesses: list[dict[str, Any]]) -> str:
    mine = [w for w in witnesses if w["case"] == member["case"] and w["family"] == family]
    if not mine:
        return "no rational pot checked"
    ok = [w["P"] for w in mine if w["exact_regret_zero"]]
    bad = [w["P"] for w in mine if not w["exact_regret_zero"]]
    return f"regret 0 at P = {', '.join(ok)}" + (f"; NOT at {', '.join(bad)}" if bad else "")


def _certified(certs: list[dict[str, Any]]) -> int:
    return sum(c["sound"] == "true" and c["nonempty"] == "true" for c in certs)


def summary_markdown(data: dict[str, Any], checks: dict[str, list[dict[str, Any]]],
                     search: dict[str, Any]) -> str:
    certs = checks["members"]
    dom, disc = data["dominance"], data["discovery"]
    stages = Counter(disc["cases"].values())
    members = [(f, m) for f in data["families"] for m in f["members"]]
    witnesses = data["witnesses"]
    exact = sum(bool(w["exact_regret_zero"]) for w in witnesses)
    cross = data["crosscheck"]
    outside = [c for c in cross if c["family"] is None]
    lines = [
        "# Three-player Kuhn poker (four cards, pot P >= 2): equilibrium families derived exactly",
        "",
        f"The game from the rules: {SOURCE}; {data['game']['information_sets']} information sets, one bet of 1, "
        "the pot P a parameter (P = 3 is the standard game). Not the complete equilibrium set: the exhaustive "
        "case search is out of reach (measured in the last section), so the cases come from a numeric search and "
        "each is derived exactly for every P.",
        "",
        "## Dominance, proved for every P >= 2",
        "",
        f"{len(dom['fixed'])} frequencies have a derivative of constant sign on the whole strategy box (z3), "
        f"fixed in turn; {len(dom['free'])} stay free. Every equilibrium of the smaller game is an equilibrium of "
        "the whole game (weak dominance: equilibria that play a fixed action otherwise may be missed).",
        "",
        "- fixed to 0 (never): " + ", ".join(x for x, v in dom["fixed"].items() if v == 0),
        "- fixed to 1 (always): " + ", ".join(x for x, v in dom["fixed"].items() if v == 1),
    ]
    if dom["undecided"]:
        lines.append("- not tried in the pass, declared open (z3 decided neither sign within 20 s in a measurement on "
                     "the larger games of its first rounds; left free): " + ", ".join(dom["undecided"]))
        decided = [x for x in dom["undecided"] if all(search["not_dominated"].get(x, {}).get(s) for s in "+-")]
        if decided:
            lines.append(f"- decided since, in the game the pass ends with: {', '.join(decided)} not dominated (z3 "
                         "finds exact points where each derivative is positive and where it is negative, re-checked "
                         "exactly when the study is read; so no round of the pass could have fixed them, and the "
                         "pass is complete). " + "; ".join(
                             f"{x}: > 0 at {_witness_text(search['not_dominated'][x]['+'])}, < 0 at "
                             f"{_witness_text(search['not_dominated'][x]['-'])}" for x in decided))
    lines += [
        "",
        "## Discovery",
        "",
        f"Logit homotopy from {disc['starts']} priors at P = " + ", ".join(f"{p:g}" for p in disc["pots"])
        + f": {disc['numeric_equilibria']} numeric equilibria; with the case `{disc['openspiel_case']}` of an exact "
        "equilibrium of OpenSpiel's own implementation of the game at P = 3 (kuhn_poker(players=3), read from its "
        "Gambit export, rounded to exact regret 0 and projected onto the frequencies fixed above), "
        f"{len(disc['cases'])} distinct cases (of {disc['raw_cases']:.3g} raw cases), each solved exactly with no "
        "time limit except those declared open: " + ", ".join(f"{n} {stage}" for stage, n in sorted(stages.items()))
        + ".",
    ]
    fibres = disc.get("fibres", {})
    if fibres:
        lines += ["", "Cases declared beyond the lex Gröbner basis (each ran past 150 s in a measurement on the 2-core "
                  "machine) are solved from fibres instead (`symgame.engine.fibres`): at each numeric equilibrium of "
                  "the case, the free frequencies of the component through it (Jacobian rank, checked by an exact "
                  "fibre near the point); msolve solves the case at rational values of P and those frequencies; "
                  "each other frequency is interpolated as a rational function of them and proved on every equation "
                  "identically, and the component is kept with its exact range. A case the lex basis solves and "
                  "finds empty, yet with numeric equilibria in it, is solved the same way through them (the basis "
                  "over Q(P) does not split off components that exist at special pots only); where the generic fibre "
                  "is empty, at the points' own pots with P fixed (a member holding at that pot alone). A component "
                  "whose range cannot be derived in full is kept on the exact ranges of its sub-families through the "
                  "discovery's points (free frequencies fixed at their values so that the rest is linear). Where the "
                  "fibres have several points, the component is derived and proved as an algebraic family "
                  "(`algebraic_family`: a primitive frequency a root of its minimal polynomial, every other one a "
                  "polynomial in it, proved modulo that polynomial) and reported, not kept: in a measurement the "
                  "range of one of its sub-families took z3 410 s on 88 cells and left 19 of them undecided, and its "
                  "certificates would be z3 queries in two free frequencies and P. Below each case, what was not kept "
                  "and why:", ""]
        for case, record in sorted(fibres.items()):
            found = "; ".join("free " + (", ".join(c) or "none") for c in record["components"]) or "no component kept"
            lines.append(f"- `{case}`: {found}")
            lines += [f"  - {reason.split(': ', 1)[1]}" for reason in record["not_solved"]]
        lines.append("")
    open_cases = sorted(c for c, s in disc["cases"].items() if s == "open")
    if open_cases and not fibres:
        lines.append("Cases declared open, not attempted (each ran past 150 s in a measurement on the 2-core machine): "
                     f"{', '.join(f'`{c}`' for c in open_cases)}.")
    lines += [
        "",
        "## Families",
        "",
        f"{len(data['families'])} families, {len(members)} members; exact regret 0 at {exact} of "
        f"{len(witnesses)} rational witness points (below); {_certified(certs)} of {len(certs)} member ranges "
        "certified on the whole interval (next section).",
        "",
        "| family | case | free frequencies | range of P | exact checks |",
        "|---|---|---:|---|---|",
    ]
    for family, m in members:
        ranges = "; ".join(_range_text(r) for r in m["ranges"]) + ("" if m["range_complete"] else " †")
        lines.append(f"| {family['id']} | `{m['case']}` | {len(m['free'])} | {ranges} | {_checked(family['id'], m, witnesses)} |")
    if not all(m["range_complete"] for _, m in members):
        lines += ["", "† Range not derived in full (two or more free frequencies enter the conditions non-linearly): "
                  "the intervals are where the member was shown to hold (cells decided at a sample pot, and the exact "
                  "ranges of sub-families with some free frequencies fixed at a discovery point's values); it may "
                  "hold beyond them. Each interval is certified below."]
    lines += ["", "## The members' formulas", "",
              "Frequencies not listed are 0 (or fixed by dominance, above); a free frequency ranges over the set "
              "cut out by the member's conditions (in `families.json`).", ""]
    for family, m in members:
        lines.append(f"### {family['id']}: case `{m['case']}`, " + "; ".join(_range_text(r) for r in m["ranges"]))
        lines.append("")
        if m["free"]:
            lines.append("- free: " + ", ".join(m["free"]))
        tie = _algebraic_tie(m)
        if tie is not None:
            lines.append(f"- {tie[0]} is a root of a polynomial of degree {tie[1]} in it (the member's equation, "
                         f"{tie[2]:,} characters, in `families.json`; coefficients polynomials in P and the other "
                         "free frequencies); the frequencies below are polynomials in it")
        for x, formula in m["values"].items():
            if formula != "0" and x not in m["free"]:
                lines.append(f"- {x} = {formula}" if len(formula) <= FORMULA_SHOWN else
                             f"- {x}: a formula of {len(formula):,} characters (in `families.json`)")
        lines.append("")
    lines += ["## Whole-interval certificates", "",
              "Read back from `families.json` and proved for every P of each interval (z3): *sound* -- every profile "
              "of the member is an equilibrium (one query per vertex deviation of each group of a player's "
              "frequencies that share no monomial of her payoff, `symgame.verify.separable`; for an algebraic "
              "member with one free frequency, the same deviations decided exactly in the plane of P and that "
              "frequency by cylindrical algebraic decomposition, *plane CAD*, `symgame.verify.planecert`, with no "
              "time limit); *nonempty* -- the "
              "member has a profile at every P (z3, exact cells of P, the exact witness at a single pot, a "
              "nonempty member whose profiles all lie in this one, or sub-families with some free frequencies "
              "fixed so that every condition is linear and their ranges exact: *partly* names the part of the "
              "interval they cover).", "",
              "| family | case | interval | sound | nonempty | how |", "|---|---|---|---|---|---|"]
    for c in certs:
        proved_on = f" on {'; '.join(c['nonempty_on'])}" if c.get("nonempty_on") else ""
        sound = c["sound"] + (" (plane CAD)" if c.get("sound_method", "").startswith("plane CAD") else "")
        lines.append(f"| {c['family']} | `{c['case']}` | {c['interval']} | {sound} | {c['nonempty']}{proved_on} | "
                     f"{c['nonempty_method']} |")
        if c["sound_counterexample"]:
            lines.append(f"|  | counterexample: {c['sound_counterexample']} | | | | |")
    if checks.get("pots"):
        lines += ["", "Soundness at single pots, for the algebraic members with two free frequencies (whose soundness on "
                  "an interval is not attempted), at the rational pots of the searches' points located in them (the "
                  "discovery's, the cross-check's and the held-out searches'): the same checks decided exactly in the plane of the two free "
                  "frequencies at that pot (`symgame.verify.planecert`): "
                  + "; ".join(f"{c['family']} at {c['interval']}: sound {c['sound']}" for c in checks["pots"]) + "."]
    lines += ["", "## Coexistence", "",
              "The line of P cut at every range end (exact algebraic comparisons); the derived families valid on "
              "each cell (a family contained in another, such as one whose nonemptiness is proved through it, is "
              "still listed):", "", "| P | families | count |", "|---|---|---:|"]
    lines += [f"| {c['cell']} | {', '.join(c['families']) or 'none derived'} | {len(c['families'])} |"
              for c in checks["coexistence"]]
    lines += [""]
    lines += _unranged_lines(checks["unranged"])
    lines += ["## Exact witnesses", "",
              "At a rational P inside each interval, one profile of the member (free frequencies chosen by z3) "
              "checked by exact regret against every vertex deviation of each player:", ""]
    for w in witnesses:
        verdict = {True: "regret 0", False: "REGRET > 0", None: "no witness found"}[w["exact_regret_zero"]]
        profits = "" if w["profits"] is None else "; profits " + ", ".join(
            f"{k}: {v}" for k, v in w["profits"].items())
        if "field" in w:
            profits += (f" (alpha the root of {w['field']['polynomial']} in ({', '.join(w['field']['isolating_interval'])}),"
                        f" about {w['field']['approx']}: the profile lies in Q(alpha), its regret is decided there)")
        lines.append(f"- {w['family']} at P = {w['P']}: {verdict}{profits}")
    lines += ["", "## Standard pot P = 3", ""]
    at3 = [(f, m) for f, m in members if any(_contains(r, 3) for r in m["ranges"])]
    lines.append(f"Families valid at P = 3: {', '.join(sorted({f['id'] for f, _ in at3})) or 'none found'}. "
                 "Szafron, Gibson and Sturtevant give a parameterized family at P = 3 without claiming it is every "
                 "equilibrium; whether theirs is all of it stays open here too.")
    lines += ["", "## Independent numeric search", "",
              f"A second logit search, other priors, at P = {', '.join(sorted({c['P'] for c in cross}, key=_num))}: "
              f"{len(cross)} numeric equilibria, {len(cross) - len(outside)} lie in a derived family "
              f"valid there; {len(outside)} {'does' if len(outside) == 1 else 'do'} not"
              + (" (at P = " + ", ".join(sorted({c['P'] for c in outside}, key=_num)) + ")." if outside else ".")]
    timed_out = sum(s == "open" for s in disc["cases"].values())
    unranged_pots = sorted({c["P"] for c in outside if any(c["P"] in u["holds_at"]
                                                            for u in checks["unranged"])}, key=_num)
    if unranged_pots:
        lines.append(f"At P = {', '.join(unranged_pots)} a solved branch without a derived range holds (section "
                     "above); the profiles of the numeric search are not kept here (the test suite re-runs the search "
                     "there and locates each equilibrium in a family or in that branch).")
    others = sorted({c["P"] for c in outside} - set(unranged_pots), key=_num)
    if others:
        lines.append(f"No family of the discovery holds the equilibria found at P = {', '.join(others)}; {timed_out} "
                     "cases stay open (section Discovery).")
    lines += _discovery_points_lines(data.get("heldout_discovery"))
    lines += _heldout_lines(data.get("heldout"), disc["cases"])
    lines += _certified_points_lines(checks.get("searches"))
    lines += ["", f"Compare: {CONTINUATION} follows equilibrium curves in P numerically (no exact ranges)."]
    lines += _search_lines(search)
    return "\n".join(lines).rstrip() + "\n"


def _discovery_points_lines(found: dict[str, Any] | None) -> list[str]:
    """The discovery's own points located in the families (part ``kuhn3/heldout``), those in none solved."""
    if found is None:
        return []
    outside = found["outside"]
    lines = ["", f"The discovery's own {found['equilibria']} numeric equilibria, recomputed from their seeds, located in "
             f"the families: {found['equilibria'] - len(outside)} lie in one valid at their pot; {len(outside)} "
             + ("does" if len(outside) == 1 else "do") + " not"
             + (" (cases " + ", ".join(f"`{c}`" for c in sorted({c["case"] for c in outside})) + ")." if outside
                else ".")]
    if "outside_after" in found:
        lines[-1] += (" Each is solved from fibres through its own point, like a held-out search's below: "
                      + _homes(found["outside_after"])
                      + "." + (" From the fibres: " + "; ".join(n for v in found["solved"] for n in v["notes"]) + "."
                               if any(v["notes"] for v in found["solved"]) else ""))
    return lines


def _certified_points_lines(searches: list[dict[str, Any]] | None) -> list[str]:
    """Each search's points against the families' certificates (``search_points_certified``)."""
    if not searches:
        return []
    total = sum(r["points"] for r in searches)
    good = sum(r["on_interval"] + r["at_pot"] for r in searches)
    lines = ["", "Every search's points against the certificates (the discovery's own located in the final atlas, "
             "the held-out ones where they lie after their cases were solved): "
             + "; ".join(f"{r['search']}: {r['on_interval'] + r['at_pot']} of {r['points']}"
                         + (f" ({r['at_pot']} of them at their own pot)" if r["at_pot"] else "") for r in searches)
             + f". In all, {good} of {total} numeric equilibria lie in a family proved sound on an interval "
             "holding their pot (whole-interval certificates) or at their pot itself (the algebraic members with "
             "two free frequencies, section Whole-interval certificates)"
             + (", the others not: " + "; ".join(f"P = {p['P']} ({p['family'] or 'no family'})"
                                                 for r in searches for p in r["not_certified"]) + "."
                if good < total else "; every one of them is in a certified family.")]
    return lines


def _homes(records: list[dict[str, Any]]) -> str:
    """Where each point solved through lies afterwards, grouped."""
    homes = Counter((c["P"], c["case"], c["family"]) for c in records)
    return "; ".join((f"{n} at " if n > 1 else "") + f"P = {p} (`{case}`): " + (f"now in {fam}" if fam else
                     "still outside") for (p, case, fam), n in homes.items())


def _heldout_lines(rounds: list[dict[str, Any]] | None, discovered: dict[str, str]) -> list[str]:
    """The held-out rounds (:mod:`derivations.szafron2013.kuhn3_heldout`): after each search, its points outside
    every family solved from fibres; then the next search, at pots no earlier search used."""
    from symgame.engine.atlas import POINT_DENOMINATOR

    if rounds is None:
        return []
    lines: list[str] = []
    names = ("second", "third", "fourth", "fifth", "sixth")
    for number, r in enumerate(rounds):
        found = r["equilibria"]
        outside = [c for c in found if c["family"] is None]
        refined = [c["refined"] for c in found if "refined" in c]
        if number > 0:
            last = number == len(rounds) - 1
            lines += ["", f"A {names[number]} logit search, other priors again, at P = "
                      f"{', '.join(r['pots'])} (pots no earlier search used"
                      + ("; its points are located, never solved" if last else "") + f"): {len(found)} numeric "
                      f"equilibria, {len(found) - len(outside)} lie in a family valid there (the discovery's or one "
                      f"solved from an earlier search's points); {len(outside)} {'does' if len(outside) == 1 else 'do'}"
                      " not" + (" (at P = " + ", ".join(sorted({c['P'] for c in outside}, key=_num)) + "; cases "
                                + ", ".join(f"`{case}` ({_case_origin(case, discovered, rounds[:number])})"
                                            for case in sorted({c["case"] for c in outside})) + ")."
                                if outside else ".")]
        if refined:
            lines.append(f"Of the {len(found) - len(outside)} located, {len(refined)} only after its end point was moved "
                         "onto its case's equations (`symgame.verify.atlascheck.refine_point`: least-norm Newton steps; "
                         f"moved at most {max(refined):.2g} in any coordinate).")
        if "outside_after" in r:
            moved = [c["refined"] for c in r["outside_after"] if "refined" in c]
            notes = [n for v in r["solved"] for n in v["notes"]]
            lines += ["", "Each equilibrium of this search outside every family is then solved from fibres through its "
                      "own point (the component of its case through it, formulas proved on the case's equations, "
                      "range exact; where the component's formulas over P and its free frequencies are of too high a "
                      "degree to interpolate, the sub-family through the point, its free frequencies fixed at the "
                      f"nearest fractions of denominator at most {POINT_DENOMINATOR} to the point's values, over P "
                      "alone; new families numbered after the earlier ones, witnessed and certified like them): "
                      + _homes(r["outside_after"]) + "." + (f" ({len(moved)} of them located after `refine_point`, moved at most {max(moved):.2g}.)"
                               if moved else "") + (" From the fibres: " + "; ".join(notes) + "." if notes else "")]
    return lines


def _case_origin(case: str, discovered: dict[str, str], earlier: list[dict[str, Any]]) -> str:
    """Where a case stands before a held-out search: the discovery's verdict, solved after an earlier search, or
    never proposed."""
    if case in discovered:
        return f"a discovery case, {discovered[case]}"
    if any(case == v["case"] for r in earlier for v in r.get("solved", [])):
        return "solved after an earlier search"
    return "proposed by no earlier search"


def _witness_text(point: dict[str, str]) -> str:
    """A sign witness: the parameter, then the frequencies that are not 0."""
    shown = [f"P = {point['P']}"] + [f"{x} = {v}" for x, v in sorted(point.items()) if x != "P" and v != "0"]
    return "(" + ", ".join(shown) + ")"


def _search_lines(search: dict[str, Any]) -> list[str]:
    """The measured size of the exhaustive search (``derivations.szafron2013.kuhn3_search``)."""
    total = search["total"]
    fixed = sum(len(p["dominance_fixed"]) for p in search["pieces"])
    pairs = sorted({p["nogoods_pairs"] for p in search["pieces"]})
    lines = ["", "## The exhaustive search, measured", "",
             f"A proved complete atlas needs the atlas engine's exhaustive case search over the {search['free']} free "
             f"frequencies ({search['raw_cases_per_piece']:.3g} raw cases) on every piece of P it searches. Its size "
             f"by Knuth's estimate ({search['probes']:,} seeded random probes per piece, "
             "`CaseSearch.estimate`), and what each pruning lever makes of it:", "",
             "| piece of P | surviving nodes | surviving cases | fixed by dominance on the piece | nogoods in "
             "advance (single, pairs) | surviving cases with them |", "|---|---:|---:|---:|---|---:|"]
    for p in search["pieces"]:
        lines.append(f"| {p['piece']} | {p['nodes']:.2e} | {p['cases']:.2e} | {len(p['dominance_fixed'])} | "
                     f"{p['nogoods_single']}, {p['nogoods_pairs']} | {p['cases_with_nogoods']:.2e} |")
    lines.append(f"| all | {total['nodes']:.2e} | {total['cases']:.2e} | {fixed} | | "
                 f"{total['cases_with_nogoods']:.2e} |")
    lines += ["", f"- Dominance proved on each piece (z3, iterated, every free frequency tried) fixes {fixed} more "
              "frequencies" + (": on every piece each derivative takes both signs." if fixed == 0 else "."),
              f"- Nogoods in advance (single choices and pairs of choices of two information sets refuted by "
              f"bisection with the rest free): {' or '.join(str(n) for n in pairs)} pairs per piece.",
              f"- Cores learned from refuted cases, on two subtrees per piece below {search['prefix']} drawn choices: "
              f"of {total['tried']:,} survivors tried, {total['tried'] - total['not_refuted']:,} are refuted by "
              f"bisection, each shrunk to a core of {total['core_choices'][0]} to {total['core_choices'][1]} of the "
              f"{search['free']} choices that cuts the subtree's other cases containing it, and "
              f"{total['not_refuted']:,} are not; the cores of a piece's first subtree cut "
              f"{total['cut_by_other_subtrees']:,} survivors of its second (a core holds most of its subtree's own "
              "choices).",
              "- Symmetry: none (the players act in a fixed order with different information sets, and the "
              "showdown depends on the order of the cards).", "",
              f"What remains: about {total['nodes_with_nogoods']:.1e} surviving nodes to search and "
              f"{total['cases_left']:.1e} surviving cases that no bisection refutes, each for z3 or exact solving "
              "(the time this projects to on 2 cores, and on a cluster, is in the benchmarks). The complete atlas "
              "is not derived."]
    return lines


def _unranged_lines(unranged: list[dict[str, Any]]) -> list[str]:
    found = [u for u in unranged if u["holds_at"]]
    lines = ["## Solved branches without a derived range", "",
             f"Re-solving the solved cases: {len(unranged)} branches have an empty range flagged incomplete (a free "
             "frequency enters their conditions non-linearly, so the border polynomials can miss a border of the "
             "range); decided exactly at every eighth from 17/8 to 8, "
             + (f"{len(found)} of them hold{'s' if len(found) == 1 else ''} somewhere (below); the others nowhere on that "
                "grid." if found else
                "none holds anywhere on that grid.")]
    for u in found:
        lines += ["", f"- case `{u['case']}`, branch {u['branch']} ({len(u['free'])} free frequencies): holds "
                  f"exactly at P = {', '.join(u['holds_at'])}."]
        for e in u["intervals"]:
            if "interval" in e:
                lines.append(f"  On {e['interval']} (candidate ends from exact bisection, then checked): sound {e['sound']}, "
                             f"nonempty {e['nonempty']}.")
            else:
                lines.append(f"  Between P = {e['grid'][0]} and {e['grid'][1]}: {e['certified']}.")
        lines.append("  Not in the family list above: its range is not proved (the derived families all come with "
                     "an exact range).")
    return lines + [""]


def _num(text: str) -> float:
    a, _, b = text.partition("/")
    return float(a) / float(b or 1)


def _contains(r: dict[str, Any], value: int) -> bool:
    """Whether the range holds the integer ``value`` (an endpoint equals it only when its exact text is it)."""
    lo, hi = r["lower"], r["upper"]
    above = lo["approx"] < value if lo["value"] != str(value) else r["lower_closed"]
    below = hi is None or (value < hi["approx"] if hi["value"] != str(value) else r["upper_closed"])
    return above and below


# --------------------------------------------------------------------------- formulas, LaTeX, plots

_P = sp.Symbol("P", real=True)


def _names(data: dict[str, Any]) -> dict[str, sp.Expr]:
    names: dict[str, sp.Expr] = {x: sp.Symbol(x, real=True) for x in data["dominance"]["free"]}
    names["P"] = _P
    return names


def _formula(text: str, names: dict[str, sp.Expr]) -> sp.Expr:
    """A member's formula or range end, read back with the restricted parser (never ``sympify``)."""
    from symgame.model.expr import parse_expression

    return parse_expression(text, names, sqrt=True, stored=True)


#: Formulas longer than this are named, not printed, in the summary and the cheat sheet (an algebraic family's
#: coefficients are rational functions of high degree; `families.json` holds them whole).
FORMULA_SHOWN = 600


def _algebraic_tie(m: dict[str, Any]) -> tuple[str, int, int] | None:
    """``(frequency, degree, length of the equation's text)`` when a member's condition is an equation of degree
    >= 2 in one of its free frequencies (an algebraic family), else ``None``."""
    from symgame.errors import InputError

    names = {z: sp.Symbol(z, real=True) for z in m["free"]}
    for text, rel in m["conditions"]:
        if rel != "==" or not any(z in text for z in m["free"]):
            continue
        try:
            expr = _formula(text, {**names, "P": _P})
        except InputError:          # a condition over other names is no tie of the free frequencies
            continue
        # the primitive unknown is the last free frequency of the equation (symgame.engine.ranges.tied_free)
        z = next((z for z in reversed(m["free"]) if expr.has(names[z])), None)
        if z is not None and sp.Poly(expr, names[z]).degree() >= 2:
            return z, int(sp.Poly(expr, names[z]).degree()), len(text)
    return None


def _is_point(m: dict[str, Any]) -> bool:
    return all(r["upper"] is not None and r["lower"]["value"] == r["upper"]["value"] for r in m["ranges"])


def _end_latex(end: dict[str, Any], names: dict[str, sp.Expr]) -> str:
    """A range end: a closed form, or (not a radical) the root of its polynomial in its isolating interval."""
    if "polynomial" in end:
        a, b = end["isolating_interval"]
        return (rf"\left(\text{{the root in }} [{a}, {b}] \text{{ of }} {sp.latex(_formula(end['polynomial'], names))}"
                rf" \approx {end['approx']}\right)")
    return sp.latex(_formula(end["value"], names))


def _range_latex(r: dict[str, Any], names: dict[str, sp.Expr]) -> str:
    lo = _end_latex(r["lower"], names)
    if r["upper"] is not None and r["lower"]["value"] == r["upper"]["value"]:
        return f"P = {lo}"
    hi = r"\infty" if r["upper"] is None else _end_latex(r["upper"], names)
    left = "[" if r["lower_closed"] else "("
    right = "]" if r["upper_closed"] else ")"
    return rf"P \in {left}{lo},\ {hi}{right}"


def cheatsheet_tex(data: dict[str, Any], checks: dict[str, list[dict[str, Any]]]) -> str:
    """A two-column LaTeX cheat sheet of the derived families (rendered from the study's data only)."""
    from jinja2 import FileSystemLoader

    from symgame.export.latex import _env, escape

    names = _names(data)
    fixed = data["dominance"]["fixed"]
    families = []
    for f in data["families"]:
        for m in f["members"]:
            formulas = [f"${sp.latex(names[x])} = {sp.latex(_formula(v, names))}$" if len(v) <= FORMULA_SHOWN
                        else f"${sp.latex(names[x])}$ (a formula of {len(v):,} characters)"
                        for x, v in m["values"].items() if v != "0" and x not in m["free"]]
            tie = _algebraic_tie(m)
            if tie is not None:
                formulas.insert(0, f"${sp.latex(names[tie[0]])}$ a root of a polynomial of degree {tie[1]} in it")
            families.append({
                "ident": f["id"], "case": escape(m["case"]),
                "ranges": "; ".join(f"${_range_latex(r, names)}$" for r in m["ranges"]),
                "free": ", ".join(f"${sp.latex(names[z])}$" for z in m["free"]) or "none",
                "formulas": ", ".join(formulas) or "every listed frequency 0",
            })
    env = _env().overlay(loader=FileSystemLoader(str(Path(__file__).parent)))  # the package's LaTeX delimiters
    exact = sum(bool(w["exact_regret_zero"]) for w in data["witnesses"])
    return env.get_template("kuhn3_cheatsheet.tex.j2").render(
        source=escape(SOURCE), continuation=escape(CONTINUATION), families=families,
        always=", ".join(f"${sp.latex(sp.Symbol(x))}$" for x, v in fixed.items() if v == 1),
        never=", ".join(f"${sp.latex(sp.Symbol(x))}$" for x, v in fixed.items() if v == 0),
        witnesses=f"{exact} of {len(data['witnesses'])}",
        certified=f"{_certified(checks['members'])} of {len(checks['members'])}",
        cells=[{"cell": _range_latex(c["range"], names), "families": ", ".join(c["families"]) or "none derived"}
               for c in checks["coexistence"]],
        open_cases=sum(s == "open" for s in data["discovery"]["cases"].values()),
        cases=len(data["discovery"]["cases"]))


def _plot_span(data: dict[str, Any]) -> tuple[float, float]:
    ends = [e["approx"] for f in data["families"] for m in f["members"] for r in m["ranges"]
            for e in (r["lower"], r["upper"]) if e is not None]
    return 2.0, max(ends) + 0.5


def plot_ranges(data: dict[str, Any], path: Path) -> Path:
    """Each member's range of P (a single pot as a dot)."""
    plt = pyplot()
    lo, hi = _plot_span(data)
    members = [(f["id"], m) for f in data["families"] for m in f["members"]]
    fig, ax = plt.subplots(figsize=(7.0, 0.32 * len(members) + 1.3), dpi=100)
    for k, (ident, m) in enumerate(members):
        colour = _COLOURS[k % len(_COLOURS)]
        for r in m["ranges"]:
            a = r["lower"]["approx"]
            b = hi if r["upper"] is None else r["upper"]["approx"]
            if a == b:
                ax.plot([a], [k], "o", color=colour, ms=5)
            else:
                ax.plot([a, b], [k, k], "-", color=colour, lw=5, solid_capstyle="butt")
        ax.text(hi + 0.03, k, f"{len(m['free'])} free", va="center", fontsize=7)
    ax.set_yticks(range(len(members)), [ident for ident, _ in members], fontsize=8)
    ax.set_xlim(lo, hi + 0.4)
    ax.axvline(3.0, color="#999999", lw=0.6, ls=":")
    ax.invert_yaxis()
    ax.set_xlabel("P")
    ax.set_title("Three-player Kuhn poker: range of P of each derived family", fontsize=9)
    return _save(plt, fig, path)


def plot_frequencies(data: dict[str, Any], path: Path) -> Path:
    """Frequencies against P on every family valid on an interval: a curve where the formula depends on P
    only, the exact witness profiles (hollow markers) where it involves a free frequency."""
    plt = pyplot()
    names = _names(data)
    lo, hi = _plot_span(data)
    members = [(k, f["id"], m) for k, (f, m) in enumerate((f, m) for f in data["families"] for m in f["members"])
               if not _is_point(m)]
    shown = sorted({x for _, _, m in members for x, v in m["values"].items() if v != "0"})
    cols = 4
    rows = -(-len(shown) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(10.0, 1.9 * rows + 0.6), dpi=100, sharex=True, squeeze=False)
    witnesses = data["witnesses"]
    for ax, x in zip(axes.ravel(), shown):
        for k, ident, m in members:
            colour = _COLOURS[k % len(_COLOURS)]
            expr = _formula(m["values"].get(x, "0"), names)
            if expr.free_symbols <= {_P}:
                fn = sp.lambdify(_P, expr, "math")
                for r in m["ranges"]:
                    a, b = r["lower"]["approx"], (hi if r["upper"] is None else r["upper"]["approx"])
                    xs = [a + (b - a) * j / 80 for j in range(81)]
                    ax.plot(xs, [float(fn(v)) for v in xs], color=colour, lw=1.3, label=ident)
            else:
                pts = [(_num(w["P"]), w["profile_approx"][x] if "field" in w else _num(w["profile"][x]))
                       for w in witnesses
                       if w["case"] == m["case"] and w["family"] == ident and w["profile"]]
                ax.plot([p for p, _ in pts], [v for _, v in pts], "o", mfc="none", color=colour, ms=4, label=ident)
        ax.set_title(x, fontsize=8)
        ax.set_ylim(-0.05, 1.05)
        ax.tick_params(labelsize=7)
    for ax in axes.ravel()[len(shown):]:
        ax.axis("off")
    for ax in axes[-1]:
        ax.set_xlabel("P", fontsize=8)
    axes[0][0].set_xlim(lo, hi)
    handles, labels = [], []
    for ax in axes.ravel():
        for h, lab in zip(*ax.get_legend_handles_labels()):
            if lab not in labels:
                handles.append(h)
                labels.append(lab)
    order = sorted(range(len(labels)), key=lambda j: int(labels[j][1:]))
    fig.legend([handles[j] for j in order], [labels[j] for j in order], loc="lower center", ncol=len(labels),
               fontsize=7, frameon=False)
    fig.suptitle("Frequencies against P (curves: formulas in P; circles: exact witness profiles where a "
                 "frequency is free)", fontsize=9)
    fig.tight_layout(rect=(0, 0.03, 1, 0.97))  # room for the legend below (not _save's default layout)
    save_png(fig, path)
    plt.close(fig)
    return path


_COLOURS = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#9c755f",
            "#bab0ac", "#1f77b4", "#8c564b"]


def write_kuhn3_outputs(directory: Path, recompute: bool = False,
                        progress: Callable[[str, float], None] | None = None, pdf: bool = True,
                        plots: bool = True) -> list[Path]:
    from symgame.export.latex import compile_pdf

    directory.mkdir(parents=True, exist_ok=True)
    data = study(directory, recompute=recompute, progress=progress)
    data = with_heldout(data, heldout(directory, data, recompute=recompute, progress=progress))
    data = with_located(data, discovery_located(directory, data, recompute=recompute, progress=progress))
    checks = certificates(directory, data, recompute=recompute, progress=progress)
    checks = dict(checks, searches=search_points_certified(data, checks))
    search = search_measurement(directory, data, recompute=recompute)
    # render what the cache holds (its keys sorted), so that a fresh computation and a rerun from the cache
    # write the same bytes
    data, checks, search = (json.loads(json.dumps(part, sort_keys=True)) for part in (data, checks, search))
    paths = [directory / name for name in TEXT_FILES]
    write_atomic(paths[0], families_json(data, checks))
    write_atomic(paths[1], summary_markdown(data, checks, search))
    write_atomic(paths[2], cheatsheet_tex(data, checks))
    if plots:
        paths.append(plot_ranges(data, directory / PLOTS[0]))
        paths.append(plot_frequencies(data, directory / PLOTS[1]))
    if pdf:
        made = compile_pdf(paths[2])
        if made.path is not None:
            paths.append(made.path)
        elif progress is not None:
            progress(f"cheat sheet PDF not made: {made.message}", 0.0)
    return paths + [directory / CACHE_FILE]
