"""``outputs/kuhn3/``: three-player Kuhn poker's derived families, rendered from the cached study."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any, Callable

from derivations.szafron2013.kuhn3 import CACHE_FILE, study
from symgame.references import cite

TEXT_FILES = ("families.json", "summary.md")
SOURCE = cite("szafron2013", "section 2")
CONTINUATION = cite("billingham2018")


def families_json(data: dict[str, Any]) -> str:
    return json.dumps({"source": SOURCE, **data}, indent=1, sort_keys=True) + "\n"


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


def summary_markdown(data: dict[str, Any]) -> str:
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
        "case search is out of reach (benchmarks/RESULTS.md), so the cases come from a numeric search and each "
        "is derived exactly for every P.",
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
        lines.append("- undecided by z3 within its budget (left free): " + ", ".join(dom["undecided"]))
    lines += [
        "",
        "## Discovery",
        "",
        f"Logit homotopy from {disc['starts']} priors at P = " + ", ".join(f"{p:g}" for p in disc["pots"])
        + f": {disc['numeric_equilibria']} numeric equilibria, {len(disc['cases'])} distinct cases (of "
        f"{disc['raw_cases']:.3g} raw cases). Each case solved exactly within {disc['case_seconds']} s: "
        + ", ".join(f"{n} {stage}" for stage, n in sorted(stages.items())) + ".",
    ]
    timeouts = sorted(c for c, s in disc["cases"].items() if s == "timeout")
    if timeouts:
        lines.append(f"Cases not solved within the limit (open): {', '.join(f'`{c}`' for c in timeouts)}.")
    lines += [
        "",
        "## Families",
        "",
        f"{len(data['families'])} families, {len(members)} members; exact regret 0 at {exact} of "
        f"{len(witnesses)} rational witness points (below). Each member's formulas are exact for every P in its "
        "range; the whole-interval certificate is left (see the module docstring for its measured cost).",
        "",
        "| family | case | free frequencies | range of P | exact checks |",
        "|---|---|---:|---|---|",
    ]
    for family, m in members:
        ranges = "; ".join(_range_text(r) for r in m["ranges"])
        lines.append(f"| {family['id']} | `{m['case']}` | {len(m['free'])} | {ranges} | {_checked(family['id'], m, witnesses)} |")
    lines += ["", "## The members' formulas", "",
              "Frequencies not listed are 0 (or fixed by dominance, above); a free frequency ranges over the set "
              "cut out by the member's conditions (in `families.json`).", ""]
    for family, m in members:
        lines.append(f"### {family['id']}: case `{m['case']}`, " + "; ".join(_range_text(r) for r in m["ranges"]))
        lines.append("")
        if m["free"]:
            lines.append("- free: " + ", ".join(m["free"]))
        for x, formula in m["values"].items():
            if formula != "0" and x not in m["free"]:
                lines.append(f"- {x} = {formula}")
        lines.append("")
    lines += ["## Exact witnesses", "",
              "At a rational P inside each interval, one profile of the member (free frequencies chosen by z3) "
              "checked by exact regret against every vertex deviation of each player:", ""]
    for w in witnesses:
        verdict = {True: "regret 0", False: "REGRET > 0", None: "no witness found"}[w["exact_regret_zero"]]
        profits = "" if w["profits"] is None else "; profits " + ", ".join(
            f"{k}: {v}" for k, v in w["profits"].items())
        lines.append(f"- {w['family']} at P = {w['P']}: {verdict}{profits}")
    lines += ["", "## Standard pot P = 3", ""]
    at3 = [(f, m) for f, m in members if any(_contains(r, 3) for r in m["ranges"])]
    lines.append(f"Families valid at P = 3: {', '.join(sorted({f['id'] for f, _ in at3})) or 'none found'}. "
                 "Szafron, Gibson and Sturtevant give a parameterized family at P = 3 without claiming it is every "
                 "equilibrium; whether theirs is all of it stays open here too.")
    lines += ["", "## Independent numeric search", "",
              f"A second logit search, other priors, at P = {', '.join(sorted({c['P'] for c in cross}, key=_num))}: "
              f"{len(cross)} numeric equilibria, {len(cross) - len(outside)} lie in a derived family "
              f"valid there; {len(outside)} do not"
              + (" (at P = " + ", ".join(sorted({c['P'] for c in outside}, key=_num)) + ")." if outside else ".")]
    lines += ["", f"Compare: {CONTINUATION} follows equilibrium curves in P numerically (no exact ranges)."]
    return "\n".join(lines).rstrip() + "\n"


def _num(text: str) -> float:
    a, _, b = text.partition("/")
    return float(a) / float(b or 1)


def _contains(r: dict[str, Any], value: int) -> bool:
    """Whether the range holds the integer ``value`` (an endpoint equals it only when its exact text is it)."""
    lo, hi = r["lower"], r["upper"]
    above = lo["approx"] < value if lo["value"] != str(value) else r["lower_closed"]
    below = hi is None or (value < hi["approx"] if hi["value"] != str(value) else r["upper_closed"])
    return above and below


def write_kuhn3_outputs(directory: Path, recompute: bool = False,
                        progress: Callable[[str, float], None] | None = None) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    data = study(directory, recompute=recompute, progress=progress)
    paths = [directory / name for name in TEXT_FILES]
    paths[0].write_text(families_json(data), encoding="utf-8")
    paths[1].write_text(summary_markdown(data), encoding="utf-8")
    return paths + [directory / CACHE_FILE]
