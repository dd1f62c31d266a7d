"""Exports of an equilibrium atlas: JSON, Markdown summary and errata, LaTeX cheat sheet, plots.

The JSON schema is ``symgame/export/atlas.schema.json`` (documented in
docs/formats.md, "Polynomial game files").  Everything written is deterministic: no timings, no floats
except rounded approximations of exact endpoints.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Sequence

import sympy as sp

from .._version import __version__
from ..engine.atlas import Atlas, Family, canonical_expr
from ..engine.parametric import CaseBranch, has_sqrt
from ..engine.ranges import Endpoint, ParamInterval, denominator_zeros
from ..model.store import write_atomic
from ..verify.atlascheck import AtlasPoint
from ..verify.atlasreport import AtlasAnalysis, decision_word
from ..verify.printed import family_point_value
from .documents import dumps, markdown_text
from .latex import PdfResult, _env, compile_pdf, escape
from .plots import pyplot, save_png

APPROX_DIGITS = 6
_LE = r"\le"


# --------------------------------------------------------------------------- readable formulas

@dataclass(frozen=True)
class Bound:
    """``lower <= combination <= upper`` (either side may be missing; ``strict`` flags per side)."""

    combination: sp.Expr
    lower: sp.Expr | None
    upper: sp.Expr | None
    strict_lower: bool
    strict_upper: bool


def readable_bounds(branch: CaseBranch, P: sp.Symbol, domain_lower: sp.Expr, at: sp.Expr | None = None
                    ) -> list[Bound]:
    """The constraints on a family's free frequencies as bounds on linear combinations.

    A constraint ``k(P)·L(z) + b(P) rel 0`` whose coefficients of the free
    frequencies ``z`` share the factor ``k`` (of constant sign for ``P`` in
    the domain) becomes ``L(z) rel -b/k``; box constraints ``0 <= z <= 1``
    are left out; others are kept as ``expr rel 0``.  ``at``: the parameter
    value of a family that exists at one value only (substituted first).
    """
    free = [sp.Symbol(z, real=True) for z in branch.free]
    sides: dict[sp.Expr, dict[str, list]] = {}
    raw: list[Bound] = []
    for expr, rel in branch.conditions:
        e = sp.expand(expr if at is None else expr.subs(P, at))
        used = [z for z in free if e.has(z)]
        if not used or (rel == ">=" and _is_box(e, used)):
            continue
        split = _linear_split(e, used, P, domain_lower)
        if split is None:
            zero = sp.Integer(0)
            raw.append(Bound(sp.factor(e), zero, zero if rel == "==" else None, rel == ">", False))
            continue
        comb, rhs, sign = split
        entry = sides.setdefault(comb, {"lower": [], "upper": []})
        rhs = _tidy(rhs)
        if rel == "==" or sign > 0:
            entry["lower"].append((rhs, rel == ">"))
        if rel == "==" or sign < 0:
            entry["upper"].append((rhs, rel == ">"))
    out = []
    for comb, entry in sides.items():
        lowers = _tightest(entry["lower"], max)
        uppers = _tightest(entry["upper"], min)
        for k in range(max(len(lowers), len(uppers))):
            lo = lowers[k] if k < len(lowers) else (None, False)
            hi = uppers[k] if k < len(uppers) else (None, False)
            out.append(Bound(comb, lo[0], hi[0], lo[1], hi[1]))
    return sorted(out, key=lambda b: sp.default_sort_key(b.combination)) + raw


def _tightest(bounds: list, pick) -> list:
    """The tightest of numeric bounds (strict wins a tie); bounds depending on the parameter all kept."""
    numbers = [b for b in bounds if b[0].is_number]
    others = list(dict.fromkeys(b for b in bounds if not b[0].is_number))
    if not numbers:
        return others
    best = pick(b[0] for b in numbers)
    strict = any(b[1] for b in numbers if b[0] == best)
    return [(best, strict)] + others


def _is_box(e: sp.Expr, used: list) -> bool:
    return len(used) == 1 and (e == used[0] or sp.expand(e - (1 - used[0])) == 0)


def _linear_split(e: sp.Expr, used: list, P: sp.Symbol, domain_lower: sp.Expr):
    poly = sp.Poly(e, *used)
    if poly.total_degree() != 1:
        return None
    coeffs = [sp.cancel(poly.coeff_monomial(z)) for z in used]
    k = coeffs[0]
    ratios = [sp.cancel(c / k) for c in coeffs]
    if any(not r.is_Rational for r in ratios):
        return None
    sign = _constant_sign(k, P, domain_lower)
    if sign == 0:
        return None
    comb = sum(r * z for r, z in zip(ratios, used))
    rhs = -sp.cancel(poly.coeff_monomial(1) / k)
    return comb, rhs, sign


def _constant_sign(k: sp.Expr, P: sp.Symbol, domain_lower: sp.Expr) -> int:
    """Sign of ``k`` if it is the same for every parameter value of the domain, else 0."""
    if k.is_number:
        return int(sp.sign(k))
    num, den = sp.fraction(sp.together(k))
    sign = 1
    for part in (num, den):
        if not part.has(P):
            sign *= int(sp.sign(part))
            continue
        if part.free_symbols - {P}:
            return 0
        poly = sp.Poly(part, P)
        if poly.count_roots(domain_lower, sp.oo):
            return 0
        sign *= int(sp.sign(poly.eval(domain_lower)))
    return sign


def _tidy(expr: sp.Expr) -> sp.Expr:
    return sp.simplify(sp.radsimp(expr)) if has_sqrt(expr) else sp.factor(expr)


def bound_text(b: Bound) -> str:
    return _bound(b, _text, "<=")


def bound_latex(b: Bound) -> str:
    return _bound(b, sp.latex, _LE)


def _bound(b: Bound, show, le: str) -> str:
    comb = show(b.combination)
    if b.lower is not None and b.upper is not None and b.lower == b.upper:
        return f"{comb} = {show(b.lower)}"
    parts = []
    if b.lower is not None:
        parts.append(f"{show(b.lower)} {'<' if b.strict_lower else le} ")
    parts.append(comb)
    if b.upper is not None:
        parts.append(f" {'<' if b.strict_upper else le} {show(b.upper)}")
    return "".join(parts)


def _text(expr: sp.Expr) -> str:
    return sp.sstr(expr, order="lex")


# --------------------------------------------------------------------------- endpoints and ranges

def endpoint_json(e: Endpoint | None) -> dict[str, Any] | None:
    if e is None:
        return None
    return {"value": _text(e.value), "polynomial": _text(sp.expand(e.poly)),
            "isolating_interval": [str(e.lower), str(e.upper)], "approx": round(float(e), APPROX_DIGITS)}


def interval_json(iv: ParamInterval) -> dict[str, Any]:
    return {"lower": endpoint_json(iv.lower), "lower_closed": iv.lower_closed,
            "upper": endpoint_json(iv.upper), "upper_closed": iv.upper_closed}


def interval_text(iv: ParamInterval, name: str = "P") -> str:
    return iv.text(name, _text, "<=")


def interval_latex(iv: ParamInterval, name: str = "P") -> str:
    return iv.text(name, sp.latex, _LE)


# --------------------------------------------------------------------------- JSON

def family_json(analysis: AtlasAnalysis, family: Family) -> dict[str, Any]:
    game = analysis.atlas.game
    P = game.symbol(game.parameter_names[0])
    lower = game.parameters[0].lower
    members = []
    first = analysis.profits(family)
    for k, m in enumerate(family.members):
        certs = [c for c in analysis.certificates if c.family == family.ident and c.case == m.branch.case]
        own = first if k == 0 else analysis.profits(family, k)
        members.append({
            "case": m.branch.case,
            "values": {x: _text(v) for x, v in m.branch.values},
            "free": list(m.branch.free),
            "constraints": [f"{_text(e)} {r} 0" for e, r in m.branch.conditions],
            "readable_constraints": [bound_text(b) for b in readable_bounds(m.branch, P, lower,
                                                                            family_point_value(family))],
            "ranges": [interval_json(iv) for iv in m.range.intervals],
            "range_complete": m.range.complete,
            "denominator_zeros": [_text(z) for z in denominator_zeros(m.branch, game.parameters[0])],
            "certificates": [{"range": interval_text(c.interval), "every_profile_is_equilibrium":
                              decision_word(c.sound.decision), "nonempty": decision_word(c.nonempty.decision)}
                             for c in certs],
            **({"profits": {p.name: _text(v) for p, v in zip(game.players, own)}}
               if any(sp.simplify(a - b) != 0 for a, b in zip(own, first)) else {}),
        })
    subsumed = next((s.within for s in analysis.subsumed if s.family == family.ident), None)
    return {
        "id": family.ident,
        "printed_as": [f"Solution {label}" for label in analysis.printed_labels(family)],
        "continuum": family.continuum,
        "ranges": [interval_json(iv) for iv in family.intervals],
        "leaders": {x: _text(v) for x, v in family.leaders},
        "profits": {p.name: _text(v) for p, v in zip(game.players, first)},
        "contained_in": subsumed,
        "members": members,
    }


def atlas_json(analysis: AtlasAnalysis, source: str, printed_profits_agree: bool | None = None) -> dict[str, Any]:
    atlas = analysis.atlas
    game = atlas.game
    st = atlas.stats
    return {
        "symgame_version": __version__,
        "game": game.name,
        "description": game.description,
        "source": source,
        "parameter": {"name": game.parameter_names[0], "domain": game.parameters[0].domain_text},
        "players": [{"name": p.name, "variables": list(p.variables), "payoff": _text(p.payoff)}
                    for p in game.players],
        "structure": {"leaders": list(atlas.structure.leaders), "responders": list(atlas.structure.responders)},
        "search": {"raw_cases": st.raw_cases, "search_nodes": st.search_nodes, "pruned_nodes": st.search_pruned,
                   "survivors": st.survivors, "refuted_exactly": st.survivors - st.solved,
                   "cases_with_solutions": st.solved,
                   "unsolved": atlas.unsolved},
        "families": [family_json(analysis, f) for f in atlas.families],
        "coexistence": [{"lower": endpoint_json(c.lower), "upper": endpoint_json(c.upper), "point": c.is_point,
                         "families": list(c.families), "count": len(c.families)} for c in analysis.cells],
        "printed_solutions": [{
            "label": v.solution.label, "equation": v.solution.equation,
            "range": interval_text(v.solution.interval(game.symbol(game.parameter_names[0]))),
            "families": list(v.families),
            "every_profile_is_equilibrium": decision_word(v.sound.decision),
            "nonempty_on_range": decision_word(v.nonempty.decision),
            "counterexample": v.sound.counterexample or v.nonempty.counterexample,
        } for v in analysis.printed],
        "paper_lists_every_equilibrium": [{
            "family": c.family, "range": interval_text(c.interval), "decision": decision_word(c.covered.decision),
            "missing_profile": c.covered.counterexample} for c in analysis.coverage],
        "statements": [{"text": v.statement.text, "where": v.statement.where, "decision": decision_word(v.holds),
                        "family": v.family, "counterexample": v.counterexample} for v in analysis.statements],
        "printed_profit_equations_agree": printed_profits_agree,
        "numeric_crosscheck": numeric_json(analysis),
        **({"variables": dict(meanings)} if (meanings := getattr(game, "meanings", ())) else {}),
    }


def numeric_json(analysis: AtlasAnalysis) -> list[dict[str, Any]]:
    by_value: dict[Fraction, list] = {}
    for m in analysis.numeric:
        by_value.setdefault(m.parameter, []).append(m)
    return [{"value": str(v), "equilibria_found": len(ms), "in_atlas": sum(m.family is not None for m in ms),
             "families": sorted({m.family for m in ms if m.family}, key=_family_key)}
            for v, ms in sorted(by_value.items())]


def _family_key(ident: str) -> int:
    return int(ident[1:]) if ident[1:].isdigit() else 0


# --------------------------------------------------------------------------- witnesses (--at)

def witnesses_json(points: Sequence[AtlasPoint], name: str, value: Fraction) -> dict[str, Any]:
    """The families valid at ``value`` (:func:`symgame.verify.atlascheck.equilibria_at`) as JSON."""
    out = []
    for point in points:
        entry: dict[str, Any] = {"family": point.family, "case": point.case, "continuum": point.continuum}
        if point.profile is None or point.profits is None or point.largest_gain is None:
            entry["profile"] = None
            entry["note"] = "z3 found no witness within its budget"
        else:
            entry["profile"] = {x: _text(v) for x, v in point.profile.items()}
            entry["profits"] = {p: _text(v) for p, v in point.profits.items()}
            entry["verified"] = point.verified
            entry["largest_gain"] = _text(point.largest_gain)
        out.append(entry)
    return {"parameters": {name: str(value)}, "equilibria": out}


# --------------------------------------------------------------------------- Markdown

def summary_markdown(analysis: AtlasAnalysis, data: dict[str, Any], title: str) -> str:
    atlas = analysis.atlas
    s = data["search"]
    name = data["parameter"]["name"]
    lines = [f"# {markdown_text(title)}: the equilibrium atlas", "",
             f"Source: {markdown_text(data['source'])}.", "",
             f"Derived by symgame {__version__} from the payoff polynomials (in `atlas.json`), with no hand pruning: "
             f"{s['raw_cases']} raw best-response cases; the pruned search visited {s['search_nodes']} nodes and cut "
             f"{s['pruned_nodes']}; {s['survivors']} cases survived, {s['refuted_exactly']} of them were refuted (z3, "
             f"interval bisection or the exact solver), {s['cases_with_solutions']} have solutions.",
             ""]
    proved = sum(c.proved for c in analysis.certificates)
    lead = ("Every family is certified on its whole range by z3" if proved == len(analysis.certificates) else
            "Not every family is certified on its whole range")
    lines += [f"{lead} ({proved} of {len(analysis.certificates)} "
              "member ranges: every profile is an equilibrium, checked against vertex deviations of the payoffs, "
              "and the family is nonempty at every P).", ""]
    if data.get("variables"):
        lines += ["Information sets with three or more actions are chains of two-action choices; their variables "
                  "are conditional probabilities:", ""]
        lines += [f"- `{x}`: the probability of {markdown_text(text)}" for x, text in data["variables"].items()] + [""]
    players = ", ".join(markdown_text(p["name"]) for p in data["players"])
    lines += ["## Families", "", f"| family | printed as | range of {name} | leaders | profits ({players}) |",
              "|---|---|---|---|---|"]
    for f in atlas.families:
        fj = next(x for x in data["families"] if x["id"] == f.ident)
        ranges = "; ".join(interval_text(iv, name) + _approx_range(iv) for iv in f.intervals)
        leaders = ", ".join(f"{x} free" if x == v else f"{x} = {v}" for x, v in fj["leaders"].items())
        others = "; ".join(f"{', '.join(mj['profits'].values())} on "
                           f"{', '.join(interval_text(iv, name) for iv in m.range.intervals)}"
                           for m, mj in zip(f.members, fj["members"]) if "profits" in mj)
        profits = ", ".join(fj["profits"].values())
        if others:
            first = ", ".join(interval_text(iv, name) for iv in f.members[0].range.intervals)
            profits = f"{profits} on {first}; {others}"
        lines.append(f"| {f.ident}{' (continuum)' if f.continuum else ''} | {', '.join(fj['printed_as']) or '—'} | "
                     f"{ranges} | {leaders} | {profits} |")
    lines += ["", "## How many equilibrium families coexist", "", f"| {name} | families | count |", "|---|---|---|"]
    for c in data["coexistence"]:
        where = (f"{name} = {c['lower']['value']}" if c["point"] else
                 f"{c['lower']['value']} < {name}" + (f" < {c['upper']['value']}" if c["upper"] else ""))
        lines.append(f"| {where} | {', '.join(c['families'])} | {c['count']} |")
    if analysis.subsumed:
        lines += [""] + [f"{s.family} lies inside {s.within} and is not counted separately." for s in analysis.subsumed]
    lines += ["", "## Numeric cross-check", "",
              f"An independent logit-homotopy search (not the engine) at random {name}; every equilibrium it finds "
              f"must lie in a family of the atlas valid at that {name}.", "",
              f"| {name} | found | in the atlas | families |",
              "|---|---|---|---|"]
    for row in data["numeric_crosscheck"]:
        lines.append(f"| {row['value']} | {row['equilibria_found']} | {row['in_atlas']} | {', '.join(row['families'])} |")
    return "\n".join(lines) + "\n"


def _approx_range(iv: ParamInterval) -> str:
    parts = [p for p in (iv.lower, iv.upper) if p is not None and not p.is_rational]
    return f" (≈ {', '.join(f'{float(p):.4f}' for p in parts)})" if parts else ""


def errata_markdown(analysis: AtlasAnalysis, data: dict[str, Any], title: str) -> str:
    lines = [f"# {markdown_text(title)}: errata and checks of the printed results", "",
             f"Source: {markdown_text(data['source'])}. Every verdict below is an exact decision (z3 nonlinear real arithmetic "
             "over the whole range, algebraic endpoints encoded by their polynomials); a refutation comes with an "
             "exact counterexample.", ""]
    agree = data.get("printed_profit_equations_agree")
    if agree is not None:
        lines += ["## Expected profits", "",
                  "The profits derived from the rules of the game " +
                  ("agree exactly with the printed equations (1)-(3)." if agree else
                   "DIFFER from the printed equations (1)-(3); see atlas.json for both."), ""]
    lines += ["## Printed solutions", "", "| solution | printed range | every printed profile an equilibrium | "
              "nonempty on the range | atlas families |", "|---|---|---|---|---|"]
    errors = []
    for v in data["printed_solutions"]:
        lines.append(f"| {v['label']} {v['equation']} | {v['range']} | {v['every_profile_is_equilibrium']} | "
                     f"{v['nonempty_on_range']} | {', '.join(v['families']) or '—'} |")
        if v["counterexample"]:
            errors.append(f"- Solution {v['label']} {v['equation']}: counterexample {example_text(v['counterexample'])}")
    missing = [c for c in data["paper_lists_every_equilibrium"] if c["decision"] != "proved"]
    lines += ["", "## Does the paper list every equilibrium?", ""]
    if not missing:
        lines.append("Yes: for every family of the atlas and every interval of its range, z3 proves that each of "
                     "its profiles belongs to one of the printed solution sets valid at that P.")
    for c in missing:
        errors.append(f"- Family {c['family']} on {c['range']}: {c['decision']}; an equilibrium the paper does not "
                      f"list: {example_text(c['missing_profile'])}")
    lines += ["", "## Ranges: printed against derived", ""]
    lines += range_notes(analysis)
    lines += ["", "## Statements in the text", ""]
    for v in data["statements"]:
        line = f"- \"{v['text']}\" ({v['where']}): **{v['decision']}**"
        if v["counterexample"]:
            line += f"; counterexample in family {v['family']}: {example_text(v['counterexample'])}"
            errors.append(f"- \"{v['text']}\" ({v['where']}) is false: the equilibrium "
                          f"{example_text(v['counterexample'])} of family {v['family']}")
        lines.append(line)
    lines += ["", "## Errata", ""]
    lines += errors or ["No printed formula or range is wrong."]
    return "\n".join(lines) + "\n"


def example_text(example: dict[str, str] | None) -> str:
    """``P = 6: a1 = 1, ...`` (and the violated condition, if any)."""
    if not example:
        return ""
    items = [(k, v) for k, v in example.items() if k != "reason"]
    head = ", ".join(f"{k} = {v}" for k, v in items[1:])
    text = f"at {items[0][0]} = {items[0][1]}" + (f": {head}" if head else "")
    return text + (f" ({example['reason']})" if "reason" in example else "")


def range_notes(analysis: AtlasAnalysis) -> list[str]:
    """Printed ranges against the derived ones; at an endpoint a family's own case excludes, which
    family the printed profile belongs to there."""
    game = analysis.atlas.game
    P = game.symbol(game.parameter_names[0])
    families = {f.ident: f for f in analysis.atlas.families}
    out = []
    for v in analysis.printed:
        derived = [iv for ident in v.families for iv in families[ident].intervals]
        if not derived:
            continue
        printed = interval_text(v.solution.interval(P))
        got = "; ".join(dict.fromkeys(interval_text(iv) for iv in derived))
        name = f"Solution {v.solution.label} {v.solution.equation}"
        if printed == got:
            out.append(f"- {name}: {printed}, as derived.")
            continue
        line = f"- {name}: printed {printed}; the derived family gives {got}."
        for owner in v.endpoints:
            holders = ", ".join(owner.families)
            line += (f" At P = {_text(owner.endpoint.value)} every printed profile belongs to {holders} "
                     "(proved), so the closed end is right." if holders else
                     f" At P = {_text(owner.endpoint.value)} no family contains the printed profiles.")
        out.append(line)
    return out


# --------------------------------------------------------------------------- LaTeX

def cheatsheet_tex(analysis: AtlasAnalysis, title: str, source: str) -> str:
    atlas = analysis.atlas
    game = atlas.game
    P = game.symbol(game.parameter_names[0])
    lower = game.parameters[0].lower
    families = []
    for f in atlas.families:
        m = f.members[0].branch
        at = family_point_value(f)
        values = [f"${sp.latex(game.symbol(x))} = {sp.latex(v if at is None else canonical_expr(v.subs(P, at)))}$"
                  for x, v in m.values if x not in m.free]
        bounds = [f"${bound_latex(b)}$" for b in readable_bounds(m, P, lower, at)]
        free = ", ".join(f"${sp.latex(game.symbol(z))}$" for z in m.free)
        families.append({
            "ident": f.ident, "printed": escape(", ".join(analysis.printed_labels(f))),
            "ranges": "; ".join(f"${interval_latex(iv)}$" for iv in f.intervals),
            "formulas": ", ".join(values), "free": free, "bounds": "; ".join(bounds),
            "profits": ", ".join(f"$E_{{{p.name}}} = {sp.latex(v)}$" for p, v in zip(game.players,
                                                                                     analysis.profits(f))),
            "members": len(f.members),
        })
    rules = []
    for c in analysis.cells:
        if c.is_point:
            cond = f"{sp.latex(P)} = {sp.latex(c.lower.value)}"
        elif c.upper is None:
            cond = f"{sp.latex(P)} > {sp.latex(c.lower.value)}"
        else:
            cond = f"{sp.latex(c.lower.value)} < {sp.latex(P)} < {sp.latex(c.upper.value)}"
        rules.append({"condition": cond, "families": ", ".join(c.families)})
    proved = sum(c.proved for c in analysis.certificates)
    return _env().get_template("atlas_cheatsheet.tex.j2").render(
        title=escape(title), source=escape(source), version=__version__, rules=rules, families=families,
        parameter=sp.latex(P), verification=escape(
            f"every family certified by z3 on its whole range ({proved}/{len(analysis.certificates)} member "
            f"ranges); the printed solutions checked exactly; an independent numeric search at "
            f"{len({m.parameter for m in analysis.numeric})} values of P found only equilibria of the atlas."))


# --------------------------------------------------------------------------- plots

_COLOURS = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1",
            "#ff9da7", "#9c755f", "#bab0ac", "#1f77b4", "#8c564b", "#17becf", "#bcbd22", "#7f7f7f"]


def _plot_range(atlas: Atlas) -> tuple[float, float]:
    ends = [float(e) for f in atlas.families for iv in f.intervals for e in (iv.lower, iv.upper) if e is not None]
    return min(ends), max(ends) + 1.0


def plot_ranges(analysis: AtlasAnalysis, path: Path) -> Path:
    """Figure 1 of the paper: the range of P of every family (points as dots)."""
    plt = pyplot()
    atlas = analysis.atlas
    lo, hi = _plot_range(atlas)
    fig, ax = plt.subplots(figsize=(7.5, 0.35 * len(atlas.families) + 1.2), dpi=100)
    for k, f in enumerate(atlas.families):
        colour = _COLOURS[k % len(_COLOURS)]
        for iv in f.intervals:
            a = float(iv.lower)
            b = hi if iv.upper is None else float(iv.upper)
            if iv.is_point:
                ax.plot([a], [k], "o", color=colour, ms=5)
            else:
                ax.plot([a, b], [k, k], "-", color=colour, lw=5, solid_capstyle="butt")
        labels = analysis.printed_labels(f)
        ax.text(hi + 0.05, k, ", ".join(labels), va="center", fontsize=7)
    ax.set_yticks(range(len(atlas.families)), [f.ident for f in atlas.families], fontsize=8)
    ax.set_xlim(lo - 0.1, hi + 0.6)
    ax.invert_yaxis()
    ax.set_xlabel(atlas.game.parameter_names[0])
    ax.set_title("Ranges of validity of the equilibrium families (printed solution at right)", fontsize=9)
    return _save(plt, fig, path)


def plot_frequencies(analysis: AtlasAnalysis, path: Path, variables: Sequence[str]) -> Path:
    """Figure 2-4 of the paper: leader frequencies against P on every non-point family."""
    plt = pyplot()
    atlas = analysis.atlas
    game = atlas.game
    P = game.symbol(game.parameter_names[0])
    lo, hi = _plot_range(atlas)
    fig, axes = plt.subplots(len(variables), 1, figsize=(7.0, 1.7 * len(variables)), dpi=100, sharex=True)
    for ax, x in zip(axes, variables):
        for k, f in enumerate(atlas.families):
            expr = dict(f.leaders).get(x)
            if expr is None or expr.free_symbols - {P}:
                continue
            fn = sp.lambdify(P, expr, "numpy")
            for iv in f.intervals:
                if iv.is_point:
                    continue
                xs = _grid(iv, hi)
                ax.plot(xs, [float(fn(v)) for v in xs], color=_COLOURS[k % len(_COLOURS)], lw=1.4,
                        label=f.ident)
        ax.set_ylabel(x)
        ax.set_ylim(-0.05, 1.05)
    handles, labels = axes[0].get_legend_handles_labels()
    seen = dict(zip(labels, handles))
    fig.legend(seen.values(), seen.keys(), loc="upper right", fontsize=7, ncol=2)
    axes[-1].set_xlabel(str(P))
    axes[-1].set_xlim(lo, hi)
    return _save(plt, fig, path)


def plot_profits(analysis: AtlasAnalysis, path: Path) -> Path:
    """Figure 5 of the paper: each player's expected profit against P on every family."""
    plt = pyplot()
    atlas = analysis.atlas
    game = atlas.game
    P = game.symbol(game.parameter_names[0])
    lo, hi = _plot_range(atlas)
    fig, axes = plt.subplots(len(game.players), 1, figsize=(7.0, 2.0 * len(game.players)), dpi=100, sharex=True)
    for k, f in enumerate(atlas.families):
        profits = analysis.profits(f)
        for ax, expr in zip(axes, profits):
            if expr.free_symbols - {P}:
                continue
            fn = sp.lambdify(P, expr, "numpy")
            for iv in f.intervals:
                if iv.is_point:
                    ax.plot([float(iv.lower)], [float(fn(float(iv.lower)))], "o", ms=3,
                            color=_COLOURS[k % len(_COLOURS)])
                    continue
                xs = _grid(iv, hi)
                ax.plot(xs, [float(fn(v)) for v in xs], color=_COLOURS[k % len(_COLOURS)], lw=1.4, label=f.ident)
    for ax, p in zip(axes, game.players):
        ax.set_ylabel(f"E{p.name}")
        ax.axhline(0.0, color="#999999", lw=0.6)
    axes[-1].set_xlabel(str(P))
    axes[-1].set_xlim(lo, hi)
    handles, labels = axes[0].get_legend_handles_labels()
    seen = dict(zip(labels, handles))
    fig.legend(seen.values(), seen.keys(), loc="upper right", fontsize=7, ncol=2)
    return _save(plt, fig, path)


def _grid(iv: ParamInterval, hi: float) -> list[float]:
    a = float(iv.lower)
    b = hi if iv.upper is None else float(iv.upper)
    n = 60
    return [a + (b - a) * k / n for k in range(n + 1)]


def _save(plt, fig, path: Path) -> Path:
    fig.tight_layout()
    save_png(fig, path)
    plt.close(fig)
    return Path(path)


# --------------------------------------------------------------------------- writing

TEXT_FILES = ("atlas.json", "summary.md", "errata.md", "cheatsheet.tex")


@dataclass(frozen=True)
class AtlasExport:
    directory: Path
    files: tuple[Path, ...]
    pdf: PdfResult


def write_atlas_outputs(analysis: AtlasAnalysis, directory: Path, title: str, source: str,
                        printed_profits_agree: bool | None = None, plot_variables: Sequence[str] = (),
                        pdf: bool = True, plots: bool = True) -> AtlasExport:
    directory.mkdir(parents=True, exist_ok=True)
    data = atlas_json(analysis, source, printed_profits_agree)
    texts = {"atlas.json": dumps(data), "summary.md": summary_markdown(analysis, data, title),
             "errata.md": errata_markdown(analysis, data, title),
             "cheatsheet.tex": cheatsheet_tex(analysis, title, source)}
    files = []
    for name in TEXT_FILES:
        files.append(write_atomic(directory / name, texts[name]))
    if plots:
        files.append(plot_ranges(analysis, directory / "ranges.png"))
        if plot_variables:
            files.append(plot_frequencies(analysis, directory / "frequencies.png", plot_variables))
        files.append(plot_profits(analysis, directory / "profits.png"))
    result = compile_pdf(directory / "cheatsheet.tex") if pdf else PdfResult(None, "skipped")
    return AtlasExport(directory, tuple(files), result)

