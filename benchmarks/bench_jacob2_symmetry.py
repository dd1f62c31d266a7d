"""The Jacob game II (Buck et al., arXiv:2208.02788, Appendix C.3): exact support enumeration with and without the
players' symmetry.

Run: PYTHONPATH=. python3 benchmarks/bench_jacob2_symmetry.py [--c6]

(C.5): all 343 support profiles against one per orbit of the permutations of the three players (84), the same
equilibria, time ratio in one process. ``--c6``: (C.6) with symmetry (680 orbits of 3,375 support profiles),
listing every isolated equilibrium found, the orbits left undecided and those msolve solved.
"""
import sys
import time

from derivations.buck2022.jacob2_schedules import strategic
from symgame.engine.enumpoly import LONG_MS, enumpoly_solve


def timed(game, symmetry, long_ms=0):
    start = time.perf_counter()
    result = enumpoly_solve(game, symmetry=symmetry, long_ms=long_ms)
    return result, time.perf_counter() - start


def main(c6: bool) -> None:
    game = strategic("C.5")
    plain, t_plain = timed(game, False)
    reduced, t_reduced = timed(game, True)
    same = {e.profile for e in plain.equilibria} == {e.profile for e in reduced.equilibria}
    print(f"(C.5): {plain.supports} supports in {t_plain:.1f} s; {reduced.orbits} orbits in {t_reduced:.1f} s "
          f"(ratio {t_plain / t_reduced:.1f}x); equilibria {len(plain.equilibria)} and {len(reduced.equilibria)}, "
          f"same set: {same}")
    if not c6:
        return
    result, seconds = timed(strategic("C.6"), True, LONG_MS)
    print(f"(C.6): {result.supports} supports, {result.orbits} orbits, {result.pruned} skipped by conditional "
          f"dominance, {seconds:.0f} s; {len(result.equilibria)} isolated equilibria (all verified: "
          f"{all(e.verified for e in result.equilibria)}), {len(result.families)} families, "
          f"undecided orbits: {len(result.undecided)}; solved by msolve: {len(result.msolve_supports)}")
    for eq in sorted(result.equilibria, key=lambda e: e.approx()):
        print("  ", " / ".join("(" + ", ".join(str(p) for p in mix) + ")" for mix in eq.profile),
              "payoffs", ", ".join(str(u) for u in eq.payoffs))
    for support in result.undecided:
        print("   undecided support (actions numbered from 1):",
              " x ".join("{" + ",".join(str(a + 1) for a in s) + "}" for s in support))


if __name__ == "__main__":
    main("--c6" in sys.argv)
