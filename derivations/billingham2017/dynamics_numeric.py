"""The numeric part of the Billingham dynamics study (cached): trajectories, the P grid, perturbations.

Kept apart from :mod:`derivations.billingham2017.dynamics` so that the cache key covers only the code that
computes these numbers (the float integrator and the game), not the exact stability engine.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from symgame.games import billingham
from symgame.numeric.dynamics import classify, compare_methods, compile_dynamics, trajectory

SCALE = 24
FIGURE_POTS = (2.5, 3.1, 3.35, 3.75, 4.15, 4.65)
GRID = tuple(round(2.05 + 0.05 * k, 2) for k in range(80))   # 2.05 .. 6.00
STARTS = 3
UNTIL = 10_000.0
GRID_UNTIL = 2000.0


def starts(seed: int = 17) -> list[list[float]]:
    """The initial frequencies (the paper does not print its own): seeded, uniform in [0.1, 0.9]."""
    rng = np.random.default_rng(seed)
    return [[round(float(v), 4) for v in rng.uniform(0.1, 0.9, len(billingham.build_game().variables))]
            for _ in range(STARTS)]


# --------------------------------------------------------------------------- numeric part (cached)

def _pack(values) -> str:
    """A series as one compact string (3 decimals), to keep the cache small."""
    return " ".join(f"{float(v):.3f}" for v in values)


def unpack(text: str) -> list[float]:
    return [float(v) for v in text.split()]


def _run_figure(P: float) -> dict[str, Any]:
    game = billingham.build_game()
    dyn = compile_dynamics(game, P, scale=SCALE)
    runs = []
    for x0 in starts():
        traj = trajectory(dyn, x0, UNTIL, points=int(UNTIL) + 1)
        absorbed = np.all(np.abs(traj.logits) > 13.8, axis=1)
        late = traj.frequencies[-401:]
        pair = sorted(dyn.variables, key=lambda x: -float(np.ptp(late[:, dyn.variables.index(x)])))[:2]
        runs.append({"start": x0, "final": [round(float(v), 6) for v in traj.frequencies[-1]],
                     "profit_rates": [round(float(v), 6) for v in traj.profit_rates],
                     "absorbed_at": float(traj.times[int(np.argmax(absorbed))]) if absorbed.any() else None,
                     "late_pair": pair,
                     "late": [_pack(traj.frequencies[-401:, dyn.variables.index(x)]) for x in pair],
                     "b3_every_50": _pack(traj.frequencies[::50, dyn.variables.index("b3")]),
                     "profits_every_50": [_pack(traj.profits[::50, i]) for i in range(3)]})
    check = compare_methods(dyn, starts()[0], 100.0)
    return {"P": P, "runs": runs, "dop853_vs_radau_t100": check}


def _run_grid(P: float) -> dict[str, Any]:
    dyn = compile_dynamics(billingham.build_game(), P, scale=SCALE)
    run = classify(dyn, starts()[0], until=GRID_UNTIL, window=1000.0, lyapunov_tol=0.01)
    return {"P": P, "kind": run.kind, "lyapunov": round(run.lyapunov, 5),
            "transient_lyapunov": None if run.transient_lyapunov != run.transient_lyapunov
            else round(run.transient_lyapunov, 5), "absorbed_at": run.absorbed_at,
            "section_spread": None if run.section_spread is None else round(run.section_spread, 5),
            "profit_rates": [round(v, 6) for v in run.profit_rates], "frequencies": list(run.frequencies)}


def _perturb(job: tuple[str, float, list[float]]) -> dict[str, Any]:
    family, P, point = job
    dyn = compile_dynamics(billingham.build_game(), P, scale=SCALE)
    rng = np.random.default_rng(3)
    x0 = np.clip(np.array(point) + rng.uniform(-1e-3, 1e-3, len(point)), 1e-3, 1 - 1e-3)
    traj = trajectory(dyn, x0, GRID_UNTIL, points=4001)
    dist = np.max(np.abs(traj.frequencies - np.array(point)), axis=1)
    return {"family": family, "P": P, "initial_distance": round(float(dist[0]), 6),
            "max_distance": round(float(dist.max()), 6), "final_distance": round(float(dist[-1]), 6)}


def numeric_part(jobs: list[tuple[str, float, list]], workers: int | None = 2) -> dict[str, Any]:
    """Every run, on ``workers`` processes (the results do not depend on their number)."""
    from symgame.engine.atlas import process_map  # workers end at once on Ctrl-C

    figures = process_map(_run_figure, [(P,) for P in FIGURE_POTS], workers)
    grid = process_map(_run_grid, [(P,) for P in GRID], workers)
    perturbed = process_map(_perturb, [(job,) for job in jobs], workers)
    return {"figures": figures, "grid": grid, "perturbations": perturbed, "starts": starts()}


#: Grid pots recomputed when a cached numeric part is re-verified (the first and a middle one).
RECHECK_POTS = (GRID[0], GRID[40])


def check_numeric(data: Any) -> None:
    """Re-verify the cached numeric part before it is used: the seeded starts and the long-run classification at
    :data:`RECHECK_POTS` are recomputed and must equal the stored ones exactly (about 4 s, against about
    10 minutes for the whole part on 2 cores).

    Raises
    ------
    StoreError
        When a recomputed entry differs from the stored one.
    """
    import json

    from symgame.errors import StoreError

    where = "study_cache.json: billingham/dynamics"
    if not isinstance(data, dict) or not isinstance(data.get("grid"), list):
        raise StoreError(f"{where}: not a numeric record")
    if data.get("starts") != starts():
        raise StoreError(f"{where}: the starts differ from their seeded recomputation")
    for P in RECHECK_POTS:
        stored = [g for g in data["grid"] if isinstance(g, dict) and g.get("P") == P]
        if len(stored) != 1 or not _same_run(stored[0], json.loads(json.dumps(_run_grid(P)))):
            raise StoreError(f"{where}: the long run at P = {P} differs from its recomputation")


#: How far a recomputed long run's measured numbers may lie from the stored ones. The classification, the
#: absorption time and the spectral peaks must be equal; the numbers measured along the orbit may not be: on
#: another processor NumPy's vectorized kernels round differently in the last bits, and a quasi-periodic orbit
#: followed for 10^4 time units carries that into the fourth decimal (measured 2026-11-27 on an AMD EPYC machine:
#: at P = 4.05 the section spread 0.80454 came out 0.80523 and one profit rate 0.001307 came out 0.001308).
RECHECK_TOLERANCE = {"lyapunov": 1e-3, "transient_lyapunov": 1e-3, "section_spread": 1e-2, "profit_rates": 1e-4}


def _same_run(stored: Any, new: dict[str, Any]) -> bool:
    """Whether a stored long run is the recomputed one: equal fields, the measured numbers within
    :data:`RECHECK_TOLERANCE`."""
    if not isinstance(stored, dict) or set(stored) != set(new):
        return False
    for field, value in new.items():
        tolerance = RECHECK_TOLERANCE.get(field)
        if tolerance is None or value is None or stored[field] is None:
            if stored[field] != value:
                return False
            continue
        pairs = zip(stored[field], value) if isinstance(value, list) else [(stored[field], value)]
        if isinstance(value, list) and len(stored[field]) != len(value):
            return False
        if any(not isinstance(a, (int, float)) or abs(a - b) > tolerance for a, b in pairs):
            return False
    return True


def numeric_key(jobs) -> str:
    from symgame.export.cache import content_key

    return content_key("billingham/dynamics", {"scale": SCALE, "figures": FIGURE_POTS, "grid": GRID,
                                               "until": UNTIL, "grid_until": GRID_UNTIL, "jobs": jobs},
                       ["derivations.billingham2017.dynamics_numeric"])
