"""Families from fibres against the lex Gröbner basis on three-player Kuhn poker's open cases (issue 41 item 1).

Run: PYTHONPATH=. python3 benchmarks/bench_fibres.py [--baseline SECONDS]

For each component that the committed kuhn3 study solved from fibres (``outputs/kuhn3/study_cache.json``:
case and free frequencies), in the same process:

- the fibre method (:func:`symgame.engine.fibres.fibre_family`): msolve at seeded rational points,
  interpolation, the identity proof; fibres solved, the interpolants' largest total degree, seconds;
- its exact range (:func:`symgame.engine.ranges.branch_range`): border polynomials, seconds, complete or not;
- the previous way, :func:`symgame.engine.parametric.solve_case` (sympy's lex Gröbner basis over Q(P)), in its
  own process stopped after ``--baseline`` seconds (default 150: the measurement that declared these cases
  open).

The formulas of the fibre method are also compared with the committed ones (same text); a member that holds at
one pot only is solved there with the pot fixed. Then the algebraic families the study proved and reported (not
kept): their derivation and proof time.
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _baseline(item):
    from symgame.engine.parametric import solve_case

    game, structure, case = item
    return len(solve_case(game, structure, case).branches)


def main() -> None:
    import sympy as sp

    from derivations.szafron2013.kuhn3 import reduced_game
    from symgame.engine.atlas import canonical_expr
    from symgame.engine.casesplit import detect_structure
    from symgame.engine.fibres import algebraic_family, fibre_branch, fibre_family
    from symgame.engine.ranges import border_polynomials, branch_range
    from symgame.model.isolated import run_isolated

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=float, default=150.0, help="seconds for the lex Groebner basis")
    args = parser.parse_args()
    data = json.loads((ROOT / "outputs" / "kuhn3" / "study_cache.json").read_text())["kuhn3"]["data"]
    game = reduced_game(data["dominance"]["fixed"])
    structure = detect_structure(game)
    members = {(m["case"], tuple(m["free"])): m for f in data["families"] for m in f["members"]}
    print("| case | free | fibres | degree | fibre method s | range: borders, complete, s | same formulas | "
          f"lex Groebner basis (limit {args.baseline:g} s) |")
    print("|---|---|---:|---:|---:|---|---|---|")
    seen_cases: dict[str, str] = {}
    for case, record in sorted(data["discovery"].get("fibres", {}).items()):
        for free in record["components"]:
            member = members.get((case, tuple(free)))
            t0 = time.perf_counter()
            family = fibre_family(game, structure, case, free, at=_single_pot(member))
            t1 = time.perf_counter()
            branch = fibre_branch(game, structure, family)
            borders, complete = border_polynomials(branch, game.symbol(game.parameter_names[0]))
            branch_range(branch, game.parameters[0])
            t2 = time.perf_counter()
            same = member is not None and all(str(canonical_expr(e)) == member["values"][x]
                                              for x, e in family.values.items())
            if case not in seen_cases:
                outcome = next(run_isolated(_baseline, [(game, structure, case)], workers=1, timeout=args.baseline))
                seen_cases[case] = (f"{outcome.value} branches in {outcome.seconds:.0f} s" if outcome.ok
                                    else f"not finished ({outcome.error})")
            where = "" if family.point is None else f" (at P = {family.point})"
            print(f"| `{case}`{where} | {', '.join(free)} | {family.fibres} | {max(family.degrees.values())} | "
                  f"{t1 - t0:.1f} | {len(borders)}, {complete}, {t2 - t1:.0f} | {same} | {seen_cases[case]} |",
                  flush=True)
    print()
    print("Algebraic families (reported by the study, not kept): `algebraic_family`, same process")
    print()
    print("| case | free | fibre points | primitive | fibres | degree | seconds |")
    print("|---|---|---:|---|---:|---:|---:|")
    for case, record in sorted(data["discovery"].get("fibres", {}).items()):
        for reason in record["not_solved"]:
            if "proved as an algebraic family" not in reason:
                continue
            free = reason.split(": ")[1].removeprefix("free ").split(", ")
            t0 = time.perf_counter()
            family = algebraic_family(game, structure, case, [] if free == ["none"] else free)
            t1 = time.perf_counter()
            points = sp.Poly(family.minimal, game.symbol(family.primitive)).degree()
            print(f"| `{case}` | {', '.join(free)} | {points} | {family.primitive} | {family.fibres} | "
                  f"{max(family.degrees.values())} | {t1 - t0:.1f} |", flush=True)


def _single_pot(member):
    """The pot of a member that holds at one rational pot only (solved there with the pot fixed), else None."""
    from fractions import Fraction

    if member is None or len(member["ranges"]) != 1:
        return None
    r = member["ranges"][0]
    if r["upper"] is None or r["lower"]["value"] != r["upper"]["value"]:
        return None
    try:
        return Fraction(r["lower"]["value"])
    except ValueError:
        return None


if __name__ == "__main__":
    main()
