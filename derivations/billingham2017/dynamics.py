"""``outputs/billingham/dynamics/``: Billingham's ODE model of repeated play (section 4), analysed.

Exact part (recomputed every time, about 20 s): the stability of every atlas family under the dynamics (23)
with ``k = 1`` and the paper's factor 24, with the pot ``P`` symbolic (:mod:`symgame.engine.stability`).
Numeric part (cached in ``study_cache.json`` under a key of the code that computes it): trajectories at the
paper's pots (Figures 7-14), the long-run classification on a grid of ``P`` (the analogue of Figure 6),
perturbations of the centre families (Lyapunov stability, numerically) and the profit rates.
Every printed claim of section 4 (``printed/dynamics.yaml``) gets a status computed from these results.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import sympy as sp
import yaml

from derivations.billingham2017.dynamics_numeric import (
    GRID_UNTIL,
    SCALE,
    UNTIL,
    check_numeric,
    numeric_key,
    numeric_part,
)
from symgame.engine.atlas import Family, branch_witness
from symgame.engine.ranges import Endpoint, _simple_between, compare_endpoints, rational_endpoint
from symgame.engine.stability import StabilityAnalysis, StabilityRange, stability_analysis
from symgame.games import billingham
from symgame.model.polygame import PolynomialGame
from symgame.references import cite
from symgame.verify.atlasreport import AtlasAnalysis

SOURCE = cite("billingham2017full", "section 4, eqs. (22)-(24), Figures 6-14")
PRINTED = Path(__file__).resolve().parent / "printed" / "dynamics.yaml"
CACHE_FILE = "study_cache.json"


def printed_dynamics() -> dict[str, Any]:
    return yaml.safe_load(PRINTED.read_text(encoding="utf-8"))


def centre_points(stability: StabilityAnalysis, atlas_families: dict[str, Family]) -> list[tuple[str, float, list]]:
    """One rational point of each family that is a centre on an open range (sample P in that range)."""
    jobs = []
    game = billingham.build_game()
    for fam in stability.families:
        for r in fam.ranges:
            if r.stability == "centre" and r.lower != r.upper:
                hi = r.upper.lower if r.upper is not None else r.lower.upper + 2
                value = _simple_between(r.lower.upper, hi)
                member = atlas_families[fam.family].members[0]
                witness = branch_witness(game, member, value)
                if witness is not None:
                    jobs.append((fam.family, float(value), [float(witness[x]) for x in game.variables]))
                break
    return jobs


# --------------------------------------------------------------------------- claims

@dataclass(frozen=True)
class Claim:
    claim: str
    status: str           # "proved", "numerical evidence", "refuted", "refuted (numerically)", "undecided"
    detail: str


@dataclass(frozen=True)
class DynamicsStudy:
    stability: StabilityAnalysis
    labels: dict[str, tuple[str, ...]]
    numeric: dict[str, Any]
    claims: tuple[Claim, ...]
    own_affine: bool
    reference_profits: dict[float, tuple[str, list[float]]]


def own_affine(game: PolynomialGame) -> bool:
    """Whether every payoff is affine in each own variable with no product of two own variables.

    Then the sign conditions of the first-order conditions are exactly the best-response conditions, so a
    rest point that is not an equilibrium violates a sign strictly.
    """
    for player in game.players:
        poly = sp.Poly(player.payoff, *[game.symbol(x) for x in player.variables])
        if any(sum(m) > 1 for m in poly.monoms()):
            return False
    return True


def _families_of(labels: dict[str, tuple[str, ...]], solution: int) -> list[str]:
    return [f for f, ls in labels.items() if str(solution) in ls]


def _open_ranges(fam) -> list[StabilityRange]:
    return [r for r in fam.ranges if r.lower != r.upper]


def _endpoint_of(labels, stability: StabilityAnalysis, solution: int) -> Endpoint:
    fam = next(f for f in stability.families if f.family in _families_of(labels, solution))
    return min((r.lower for r in fam.ranges), key=lambda e: (e.lower, e.upper))


def evaluate_claims(stability: StabilityAnalysis, labels: dict[str, tuple[str, ...]], numeric: dict[str, Any],
                    game: PolynomialGame, family_profits: dict[str, list[sp.Expr]],
                    family_ranges: dict[str, list]) -> tuple[Claim, ...]:
    printed = printed_dynamics()
    fams = {f.family: f for f in stability.families}
    out = []
    rest = all(f.rest_point for f in stability.families)
    out.append(Claim("Every equilibrium of the game is a rest point of (23).", "proved" if rest else "refuted",
                     f"the vector field vanishes identically on all {len(fams)} atlas families (free variables and "
                     "square roots included)" if rest else "a family is not a rest point"))
    affine = own_affine(game)
    out.append(Claim("Rest points that violate a best-response sign condition are unstable.",
                     "proved" if affine else "undecided",
                     "block-triangular Jacobian: a face variable with the wrong sign of dE/df has the eigenvalue "
                     "(1 - 2f) dE/df > 0; every payoff is affine in each own frequency, so a rest point with "
                     "all signs right is an equilibrium" if affine else "payoffs not own-affine"))
    for k in printed["unstable"]:
        parts, status = [], "proved"
        for f in _families_of(labels, k):
            bad = [r for r in _open_ranges(fams[f]) if not (r.stability == "unstable" and r.proved)]
            pts = [r for r in fams[f].ranges if r.lower == r.upper and r.stability != "unstable"]
            if bad:
                status = "refuted"
                parts.append(f"{f}: " + ", ".join(f"{r.stability} on a cell near P = {float(r.lower):.4f}"
                                                  for r in bad))
                continue
            if pts and status == "proved":
                status = "proved except at isolated points"
            parts.append(f"{f}: unstable (proved) on every open cell of its range" + (
                "; at P = " + ", ".join(f"{float(p.lower):.6f} ({p.stability})" for p in pts) if pts else ""))
        out.append(Claim(f"Solution {k} is unstable.", status, "; ".join(parts)))
    dims = {int(k): v for k, v in printed["oscillatory_dimensions"].items()}
    for k in printed["centre"]:
        parts, status = [], "proved"
        for f in _families_of(labels, k):
            opens = _open_ranges(fams[f])
            stable = [r for r in opens if r.stability == "asymptotically stable"]
            kinds = sorted({(r.stability, r.oscillatory_dimensions) for r in opens})
            if stable or any(s != "centre" for s, _ in kinds):
                status = "refuted"
            elif any(d != dims[k] for _, d in kinds):
                status = "refuted"
            elif not all(r.proved for r in opens):
                status = "numerical evidence" if status == "proved" else status
            parts.append(f"{f}: " + ", ".join(f"{s} with {d} oscillatory dimensions" for s, d in kinds)
                         + ("" if all(r.proved for r in opens) else " (a factor with free variables only sampled)"))
        out.append(Claim(f"Solution {k} is not asymptotically stable: a centre whose oscillatory part has "
                         f"{dims[k]} dimensions.", status, "; ".join(parts)))
    nine = [r for f in _families_of(labels, 9) for r in _open_ranges(fams[f])]
    z = sorted({(r.configuration.imaginary, r.configuration.zero) for r in nine if r.configuration})
    out.append(Claim("Solution 9: six purely imaginary eigenvalues and one zero eigenvalue.",
                     ("proved" if all(r.proved for r in nine) else "numerical evidence") if z == [(6, 1)]
                     else "refuted", f"open cells: (imaginary, zero) = {z}"))
    P3, P8 = _endpoint_of(labels, stability, 3), _endpoint_of(labels, stability, 8)
    for lo, hi, name in ((rational_endpoint(3, sp.Symbol("P")), P3, "3 < P < P3"),
                         (rational_endpoint(4, sp.Symbol("P")), P8, "4 < P < P8")):
        bad, points = [], []
        for f in stability.families:
            for r in f.ranges:
                if _overlaps(r, lo, hi) and not (r.stability == "unstable" and r.proved):
                    (points if r.lower == r.upper and r.stability == "undecided" else bad).append(
                        f"{f.family} {r.stability} at P {'=' if r.lower == r.upper else '>'} {float(r.lower):.6f}")
        status = "refuted" if bad else ("proved except at isolated points" if points else "proved")
        out.append(Claim(f"For {name} (P3 = {sp.sstr(P3.value)}, P8 = {sp.sstr(P8.value)}) every equilibrium is "
                         "unstable.", status, "; ".join(bad + points) if bad or points else
                         "every family cell meeting the range is unstable (proved)"))
    for p in numeric["perturbations"]:
        ratio = p["max_distance"] / max(p["initial_distance"], 1e-12)
        out.append(Claim(f"{p['family']} is Lyapunov stable (at P = {p['P']}).",
                         "numerical evidence" if ratio < 100 else "refuted (numerically)",
                         f"perturbed by {p['initial_distance']:.1e}: largest distance up to t = {GRID_UNTIL:g} is "
                         f"{p['max_distance']:.2e} ({ratio:.0f} times the initial), final {p['final_distance']:.2e}"))
    grid = numeric["grid"]
    for case in printed["figure6"]:
        hi = case["to"]
        inside = [g for g in grid if case["from"] < g["P"] < hi]
        kinds: dict[str, int] = {}
        for g in inside:
            kinds[g["kind"]] = kinds.get(g["kind"], 0) + 1
        expected = {"periodic": {"periodic"}, "chaotic transient": {"chaotic transient", "chaotic"},
                    "close to periodic": {"quasi-periodic"},
                    "attracted to the centre manifold": {"periodic", "quasi-periodic"}}[case["behaviour"]]
        agree = sum(v for k, v in kinds.items() if k in expected)
        status = "numerical evidence" if agree * 2 > len(inside) else "refuted (numerically)"
        fig = next(f for f in numeric["figures"] if f["P"] == case["at"])
        absorbed = [r["absorbed_at"] for r in fig["runs"] if r["absorbed_at"] is not None]
        out.append(Claim(f"{case['from']} < P < {hi}: {case['behaviour']} (Figure {case['figure']}).", status,
                         f"{len(inside)} grid pots, one start, t <= {GRID_UNTIL:g}: " + ", ".join(
                             f"{k} {v}" for k, v in sorted(kinds.items()))
                         + _frequency_text(grid, case["at"])
                         + f"; at P = {case['at']}, {len(absorbed)} of {len(fig['runs'])} starts reach the "
                         f"boundary by t = {UNTIL:g}" + (" (at t = " + ", ".join(f"{a:g}" for a in absorbed) + ")"
                                                         if absorbed else "")))
    cases = {case["at"]: case for case in printed["figure6"]}
    for fig in numeric["figures"]:
        case = cases[fig["P"]]
        near = _families_of(labels, case["near"])
        P = sp.Rational(str(fig["P"]))
        valid = [f for f in near if any(iv.contains(Fraction(str(fig["P"]))) for iv in family_ranges[f])]
        if not valid:
            continue
        target = [float(e.subs(game.symbol("P"), P)) for e in family_profits[valid[0]]]
        diffs = [max(abs(a - b) for a, b in zip(run["profit_rates"], target)) for run in fig["runs"]]
        out.append(Claim(f"P = {fig['P']}: profit rates close to Solution {case['near']}'s profits.",
                         "numerical evidence" if max(diffs) < 0.01 else "refuted (numerically)",
                         f"Solution {case['near']} ({valid[0]}): ({', '.join(f'{t:.4f}' for t in target)}); largest "
                         f"difference over {len(diffs)} starts to t = {UNTIL:g}: {max(diffs):.4f}"))
    return tuple(out)


def _frequency_text(grid: list[dict], P: float) -> str:
    """The dominant frequencies at the grid pot ``P``, and whether two of them are in a small rational ratio
    (commensurate within the spectral resolution 2/1000 of the 1000-unit window)."""
    entry = next((g for g in grid if g["P"] == P), None)
    if entry is None or not entry.get("frequencies"):
        return ""
    freqs = entry["frequencies"]
    text = (f"; at P = {P} the oscillating variables show {len(freqs)} distinct dominant frequenc"
            f"{'y' if len(freqs) == 1 else 'ies'} ({', '.join(f'{f:.4f}' for f in freqs)} per unit time")
    pairs = []
    for i, f in enumerate(freqs):
        for g in freqs[i + 1:]:
            if f < 0.01 or g < 0.01:
                continue
            ratio = Fraction(g / f).limit_denominator(4)
            if abs(f * ratio - g) <= 0.002 * max(ratio.numerator, 1):
                pairs.append(f"{g:.4f}/{f:.4f} ~ {ratio}")
    return text + (", commensurate within resolution: " + ", ".join(pairs) if pairs else "") + ")"


def _overlaps(r: StabilityRange, lo: Endpoint, hi: Endpoint) -> bool:
    if r.upper is not None and compare_endpoints(r.upper, lo) <= 0:
        return False
    return compare_endpoints(r.lower, hi) < 0


# --------------------------------------------------------------------------- study and writing

def dynamics_study(analysis: AtlasAnalysis, directory: Path | None = None, recompute: bool = False,
                   workers: int | None = 2, stability=None) -> DynamicsStudy:
    """The dynamics study of the atlas (``stability``: its ``stability_analysis(atlas, scale=SCALE)`` when the
    caller has it already)."""
    from symgame.export.cache import StudyCache, cached

    atlas = analysis.atlas
    if stability is None:
        stability = stability_analysis(atlas, scale=SCALE)
    labels = {f.ident: analysis.printed_labels(f) for f in atlas.families}
    jobs = centre_points(stability, {f.ident: f for f in atlas.families})
    cache = StudyCache(directory / CACHE_FILE) if directory is not None else None
    numeric = cached(cache, "numeric", numeric_key(jobs), lambda: numeric_part(jobs, workers), recompute=recompute,
                     check=check_numeric)
    profits = {f.ident: list(analysis.profits(f)) for f in atlas.families}
    ranges = {f.ident: f.intervals for f in atlas.families}
    claims = evaluate_claims(stability, labels, numeric, atlas.game, profits, ranges)
    return DynamicsStudy(stability, labels, numeric, claims, own_affine(atlas.game),
                         reference_profits(labels, profits, ranges, atlas.game))


def reference_profits(labels, profits, ranges, game) -> dict[float, tuple[str, list[float]]]:
    """For each figure pot, the profits of the solution the paper compares with (section 4.7)."""
    out = {}
    for case in printed_dynamics()["figure6"]:
        for f in _families_of(labels, case["near"]):
            if any(iv.contains(Fraction(str(case["at"]))) for iv in ranges[f]):
                P = sp.Rational(str(case["at"]))
                out[case["at"]] = (f"Solution {case['near']}", [float(e.subs(game.symbol("P"), P)) for e in profits[f]])
                break
    return out
