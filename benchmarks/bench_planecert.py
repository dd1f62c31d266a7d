"""Soundness of a family with one free frequency: z3 query by query against the plane CAD.

Run: PYTHONPATH=. python3 benchmarks/bench_planecert.py [--algebraic] [--z3-ms MS]

Both checkers decide the same claim (every profile of a family member is an equilibrium for every P of an
interval; the same group-vertex deviations, frequency bounds and denominators) in this process:

- baseline :func:`symgame.verify.separable.certify_best_response`: one z3 query per check, under a per-query
  budget (``--z3-ms``, default 60 s; an expired budget is "undecided");
- :func:`symgame.verify.planecert.certify_best_response_plane`: the plane CAD in P and the free frequency,
  polynomials reduced modulo the frequency's tie, conditions added on demand; no budget.

On the members of three-player Kuhn poker with all four cards (`outputs/kuhn3/`) that have exactly one free
frequency: the linear ones (z3 answers them) and, with ``--algebraic``, the nine whose free frequency is a root
of a quadratic or cubic (z3 run on the first of each degree only: each of its queries may take the whole budget).
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _tie_degree(pset) -> int:
    import sympy as sp

    z = sp.Symbol(pset.free[0], real=True)
    return max(sp.Poly(sp.fraction(sp.together(e))[0], z).degree() for e, rel in pset.constraints if rel == "==")


def main(argv: list[str]) -> None:
    from derivations.szafron2013.kuhn3_certify import is_algebraic, member_sets
    from symgame.verify.planecert import certify_best_response_plane
    from symgame.verify.separable import certify_best_response

    z3_ms = int(argv[argv.index("--z3-ms") + 1]) if "--z3-ms" in argv else 60_000
    data = json.loads((ROOT / "outputs" / "kuhn3" / "families.json").read_text())
    game, members = member_sets(data)
    one = [(ident, pset, iv) for ident, _, pset, intervals in members if len(pset.free) == 1 for iv in intervals]
    linear = [m for m in one if not is_algebraic(m[1])]
    algebraic = [m for m in one if is_algebraic(m[1])]
    rows = [(m, True) for m in linear]
    if "--algebraic" in argv:
        firsts = {}
        for m in algebraic:      # z3 on the first member of each degree of the tie only
            firsts.setdefault(_tie_degree(m[1]), m[0])
        rows += [(m, m[0] in firsts.values()) for m in algebraic]
    print(f"kuhn3: {len(linear)} linear and {len(algebraic)} algebraic member intervals with one free frequency; "
          f"z3 budget {z3_ms} ms per query")
    print("| family | free | z3: verdict, s | plane CAD: verdict, s | ratio |")
    print("|---|---|---|---|---:|")
    for (ident, pset, iv), with_z3 in rows:
        start = time.perf_counter()
        plane = certify_best_response_plane(game, pset, iv)
        t_plane = time.perf_counter() - start
        z3_text, ratio = "not run", ""
        if with_z3:
            start = time.perf_counter()
            z3 = certify_best_response(game, pset, iv, z3_ms)
            t_z3 = time.perf_counter() - start
            z3_text = f"{z3.decision.value}, {t_z3:.1f}"
            ratio = f"{t_z3 / t_plane:.2f}"
        print(f"| {ident} | {pset.free[0]} | {z3_text} | {plane.decision.value}, {t_plane:.1f} | {ratio} |",
              flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
