"""Renderers of ``outputs/billingham/dynamics/`` (text and plots from a computed study; no solving here)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from derivations.billingham2017.dynamics import GRID_UNTIL, SCALE, SOURCE, UNTIL, DynamicsStudy
from derivations.billingham2017.dynamics_numeric import unpack
from symgame.export.stability_outputs import factors_markdown, stability_json, stability_markdown

COLOURS = {"periodic": "tab:green", "quasi-periodic": "tab:blue", "chaotic transient": "lightgrey",
           "chaotic": "tab:red", "absorbed at the boundary": "black", "rest point": "tab:purple"}


def _labels(study: DynamicsStudy) -> dict[str, list[str]]:
    return {f: [f"Solution {x}" for x in ls] for f, ls in study.labels.items()}


def dumps(data: Any) -> str:
    return json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def dynamics_json(study: DynamicsStudy) -> dict[str, Any]:
    n = study.numeric
    return {
        "source": SOURCE,
        "dynamics": f"dF/dt = {SCALE} * dE_owner/df with F = log(f / (1 - f)) (k = 1)",
        "starts": n["starts"],
        "figures": [{"P": f["P"], "dop853_vs_radau_t100": f["dop853_vs_radau_t100"],
                     "runs": [{k: r[k] for k in ("start", "final", "profit_rates", "absorbed_at")}
                              for r in f["runs"]]} for f in n["figures"]],
        "grid": n["grid"],
        "perturbations": n["perturbations"],
        "claims": [{"claim": c.claim, "status": c.status, "detail": c.detail} for c in study.claims],
    }


def _grid_runs(grid: list[dict]) -> list[tuple[float, float, str, int]]:
    runs: list[list] = []
    for g in grid:
        if runs and runs[-1][2] == g["kind"]:
            runs[-1][1] = g["P"]
            runs[-1][3] += 1
        else:
            runs.append([g["P"], g["P"], g["kind"], 1])
    return [tuple(r) for r in runs]


def summary_markdown(study: DynamicsStudy) -> str:
    labels = _labels(study)
    n = study.numeric
    lines = [
        "# Simplified three-player Kuhn poker: dynamics of repeated play",
        "",
        f"Source: {SOURCE}.",
        "",
        f"Model (23): df/dt = {SCALE} k f (1 - f) dE_owner/df with k = 1, integrated in F = log(f/(1-f)) as (24). "
        "Stability is derived exactly with the pot P symbolic (symgame.engine.stability): the Jacobian at each "
        "atlas family, its characteristic polynomial factored exactly, the ranges of P cut at the real roots of "
        "exact critical polynomials, each open cell classified by certified root isolation at one rational "
        "sample. Trajectories are numerical (scipy DOP853, rtol 1e-10, atol 1e-12).",
        "",
        "## Claims of section 4",
        "",
        "| claim | status | detail |", "|---|---|---|",
    ]
    lines += [f"| {c.claim} | {c.status} | {c.detail} |" for c in study.claims]
    lines += ["", "## Stability of every family (exact ranges of P)", "",
              "A centre: no eigenvalue with positive real part, some on the imaginary axis (linearisation "
              "marginal; not asymptotically stable). Isolated points where a critical polynomial vanishes and "
              "root isolation fails are reported as undecided.", "",
              stability_markdown(study.stability, labels),
              "Characteristic polynomial factors (`_s` is the family's square root):", "",
              factors_markdown(study.stability),
              "## Long-run behaviour across P (the analogue of Figure 6)", "",
              f"One start ({', '.join(f'{v:g}' for v in n['starts'][0])}), t <= {GRID_UNTIL:g}, P = 2.05, 2.10, "
              "..., 6.00. Kinds: *absorbed* (every frequency within 1e-6 of 0 or 1), *chaotic transient* "
              "(absorbed after a positive finite-time Lyapunov exponent), *chaotic* (exponent > 0.01 over the last "
              "1000 time units, not absorbed), *periodic* (returns to a Poincare section repeat to 1e-3 of the "
              "amplitude), otherwise *quasi-periodic* (Billingham's 'close to periodic'); the dominant frequency of each "
              "oscillating variable is given where two or more are distinct.", "",
              "| P from | P to | kind | grid points |", "|---|---|---|---|"]
    lines += [f"| {a:g} | {b:g} | {k} | {c} |" for a, b, k, c in _grid_runs(n["grid"])]
    lines += ["", "| P | kind | largest Lyapunov exponent | dominant frequencies |", "|---|---|---|---|"]
    lines += [f"| {g['P']:g} | {g['kind']} | {g['lyapunov']:.4f} | "
              f"{', '.join(f'{f:.4f}' for f in g.get('frequencies') or []) or '-'} |" for g in n["grid"]]
    lines += ["", "## Trajectories at the paper's pots (Figures 7-14)", "",
              f"Three seeded starts per pot, t <= {UNTIL:g}; profit rates p_i(t)/t at the end; "
              "DOP853 against Radau on [0, 100] (largest difference in any frequency).", "",
              "| P | start | absorbed at t | profit rates (1, 2, 3) | DOP853 vs Radau |", "|---|---|---|---|---|"]
    for f in n["figures"]:
        for k, r in enumerate(f["runs"]):
            at = "-" if r["absorbed_at"] is None else f"{r['absorbed_at']:g}"
            rates = ", ".join(f"{v:.4f}" for v in r["profit_rates"])
            check = f"{f['dop853_vs_radau_t100']:.1e}" if k == 0 else ""
            lines.append(f"| {f['P']} | {k + 1} | {at} | {rates} | {check} |")
    lines += ["", "## Perturbations of the centre families", "",
              "| family | P | initial distance | largest distance | final distance |", "|---|---|---|---|---|"]
    lines += [f"| {p['family']} | {p['P']} | {p['initial_distance']:.1e} | {p['max_distance']:.2e} | "
              f"{p['final_distance']:.2e} |" for p in n["perturbations"]]
    return "\n".join(lines) + "\n"


def errata_markdown(study: DynamicsStudy) -> str:
    bad = [c for c in study.claims if c.status.startswith("refuted")]
    lines = ["# Errata: Billingham (2017), section 4", "", f"Source: {SOURCE}.", ""]
    if not bad:
        lines.append("Every claim of section 4 is proved or supported numerically; no erratum.")
    for c in bad:
        lines += [f"- **{c.claim}** {c.status}: {c.detail}."]
    undecided = [c for c in study.claims if c.status == "undecided"]
    if undecided:
        lines += ["", "Undecided (neither proved nor refuted):", ""]
        lines += [f"- {c.claim} {c.detail}" for c in undecided]
    return "\n".join(lines) + "\n"


def texts(study: DynamicsStudy) -> dict[str, str]:
    return {"stability.json": dumps(stability_json(study.stability, _labels(study))),
            "dynamics.json": dumps(dynamics_json(study)),
            "summary.md": summary_markdown(study), "errata.md": errata_markdown(study)}


def plots(study: DynamicsStudy, directory: Path) -> list[Path]:
    from symgame.export.atlas_outputs import _save
    from symgame.export.plots import pyplot

    plt = pyplot()
    out = []
    grid = study.numeric["grid"]
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(8, 4.5), sharex=True, gridspec_kw={"height_ratios": [1, 2]})
    for g in grid:
        ax1.axvspan(g["P"] - 0.025, g["P"] + 0.025, color=COLOURS[g["kind"]], lw=0)
    for kind, colour in COLOURS.items():
        ax1.plot([], [], color=colour, lw=6, label=kind)
    ax1.set_yticks([])
    ax1.legend(fontsize=6, ncol=3, loc="upper center", bbox_to_anchor=(0.5, 1.6))
    ax2.plot([g["P"] for g in grid], [g["lyapunov"] for g in grid], ".-", label="largest Lyapunov exponent")
    ax2.axhline(0.01, color="grey", ls=":", lw=0.8)
    ax2.set_xlabel("pot P")
    ax2.set_ylabel("exponent")
    ax2.legend(fontsize=7)
    out.append(_save(plt, fig, directory / "figure6.png"))
    for f in study.numeric["figures"]:
        fig, axes = plt.subplots(1, 2, figsize=(9, 3.6))
        for k, r in enumerate(f["runs"]):
            x, y = (unpack(v) for v in r["late"])
            axes[0].plot(x, y, lw=0.6, label=f"start {k + 1}: {r['late_pair'][0]} vs {r['late_pair'][1]}")
            axes[1].plot([UNTIL - len(x) + 1 + i for i in range(len(x))], x, lw=0.6,
                         label=f"{r['late_pair'][0]}, start {k + 1}")
        axes[0].set_title(f"P = {f['P']}: the last 400 time units", fontsize=8)
        axes[0].legend(fontsize=6)
        axes[1].set_title("the most variable frequency against t", fontsize=8)
        axes[1].set_xlabel("t")
        axes[1].legend(fontsize=6)
        out.append(_save(plt, fig, directory / f"trajectories_P{f['P']}.png"))
    fig, ax = plt.subplots(figsize=(6, 3.6))
    chosen = next(f for f in study.numeric["figures"] if f["P"] == 3.1)
    for k, r in enumerate(chosen["runs"]):
        for i, series in enumerate(r["profits_every_50"]):
            p = unpack(series)
            ax.plot([50 * j for j in range(len(p))], p, lw=0.7, color=f"C{i}", alpha=0.5 + 0.2 * k,
                    label=f"player {i + 1}" if k == 0 else None)
    ref = study.reference_profits.get(3.1)
    if ref is not None:
        for i, v in enumerate(ref[1]):
            ax.plot([0, 10_000], [0, v * 10_000], ls=":", color=f"C{i}", lw=1)
        ax.plot([], [], ls=":", color="grey", label=f"{ref[0]}'s profits x t")
    ax.legend(fontsize=6)
    ax.set_title("P = 3.1: profits p_i(t) of three starts (Figure 14)", fontsize=8)
    ax.set_xlabel("t")
    out.append(_save(plt, fig, directory / "profits_P3.1.png"))
    return out
