"""Render a :class:`~symgame.engine.stability.StabilityAnalysis` as JSON and Markdown (no computation here)."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..engine.ranges import ParamInterval
from ..engine.stability import FamilyStability, StabilityAnalysis, StabilityRange
from .atlas_outputs import endpoint_json, interval_text


def range_json(r: StabilityRange) -> dict[str, Any]:
    conf = r.configuration
    return {"from": endpoint_json(r.lower), "from_closed": r.lower_closed,
            "to": endpoint_json(r.upper), "to_closed": r.upper_closed,
            "stability": r.stability,
            "oscillatory_dimensions": None if conf is None else conf.imaginary,
            "eigenvalues": None if conf is None else {"positive_real_part": conf.positive,
                                                      "imaginary_nonzero": conf.imaginary,
                                                      "zero": conf.zero, "negative_real_part": conf.negative},
            "proved": r.proved, "uniform_on_continuum": r.uniform, "note": r.note}


def stability_json(analysis: StabilityAnalysis, printed: Mapping[str, Sequence[str]] | None = None
                   ) -> dict[str, Any]:
    """The JSON contract of ``symgame stability``: families x parameter ranges."""
    printed = printed or {}
    return {
        "game": analysis.game,
        "parameter": analysis.parameter,
        "dynamics": "dx/dt = scale * k_x * x * (1 - x) * dE_owner/dx",
        "scale": str(analysis.scale),
        "rates": {x: str(k) for x, k in analysis.rates},
        "families": [{
            "family": f.family,
            "printed_as": ", ".join(printed.get(f.family, ())) or None,
            "cases": list(f.cases),
            "rest_point": f.rest_point,
            "characteristic_factors": [{"factor": text, "multiplicity": m} for text, m in f.factors],
            "ranges": [range_json(r) for r in f.ranges],
        } for f in analysis.families],
    }


def compact_ranges(family: FamilyStability) -> list[tuple[str, str, int | None, bool, int]]:
    """Rows ``(range, stability, oscillatory dims, proved, undecided points)``: neighbouring open cells of the
    same kind separated only by undecided points are shown as one row that counts those points."""
    rows: list[list] = []
    pending: list[StabilityRange] = []
    for r in family.ranges:
        if r.stability == "undecided" and r.lower == r.upper and rows:
            pending.append(r)
            continue
        last = rows[-1] if rows else None
        if (last is not None and pending and last[1].stability == r.stability and last[1].oscillatory_dimensions
                == r.oscillatory_dimensions and last[1].proved == r.proved):
            last[2] = r
            last[3] += len(pending)
        else:
            for p in pending:
                rows.append([p, p, p, 0])
            rows.append([r, r, r, 0])
        pending = []
    for p in pending:
        rows.append([p, p, p, 0])
    out = []
    for first, kind, last, skipped in rows:
        iv = ParamInterval(first.lower, first.lower_closed, last.upper, last.upper_closed)
        out.append((interval_text(iv), kind.stability, kind.oscillatory_dimensions, kind.proved, skipped))
    return out


def stability_markdown(analysis: StabilityAnalysis, printed: Mapping[str, Sequence[str]] | None = None) -> str:
    printed = printed or {}
    lines = ["| family | printed as | range of P | stability | oscillatory dims | proved |", "|---|---|---|---|---|---|"]
    for f in analysis.families:
        label = ", ".join(printed.get(f.family, ())) or "-"
        for text, stability, dims, proved, skipped in compact_ranges(f):
            extra = f" (except {skipped} point{'s' if skipped > 1 else ''}: undecided)" if skipped else ""
            lines.append(f"| {f.family} | {label} | {text}{extra} | {stability} | "
                         f"{'-' if dims is None else dims} | {'yes' if proved else 'no'} |")
    return "\n".join(lines) + "\n"


def factors_markdown(analysis: StabilityAnalysis) -> str:
    lines = []
    for f in analysis.families:
        lines.append(f"- **{f.family}** ({', '.join(f.cases)}): " + "; ".join(
            f"`{_short(text)}`" + (f"^{m}" if m > 1 else "") for text, m in f.factors))
    return "\n".join(lines) + "\n"


def _short(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[:limit] + " ..."

