"""Billingham's atlas from the raw case space, against the paper's hand-pruned space.

Run: python3 benchmarks/bench_atlas.py [--serial] [--compare] [--compare-search]

With --compare-search: the interval search (and bisection refutation) in Python against the same search compiled
by Numba (issue 40 item 1), alternated twice in this process on every core; the families must be the same.

With --compare: the previous way (one pool per checkpointed chunk, z3 with 300 ms first on every surviving
case) against the current one (one pool kept for the run, z3 with 20 ms first, then interval bisection, then
z3 with 300 ms), alternated twice in this process; the families must be the same.

Both runs use the same engine in this process, on every core (or serially
with --serial): first the raw 3^11 = 177,147 face/sign combinations with
no hand pruning, then only the cases that survive Billingham's hand lemmas
of section 3 (no player always bluffs with Q; a_i = b_i = 0 or both
positive), which in this per-frequency formulation leave 18 * 3^6 = 13,122
cases (his Table 1 regroups the conditions further, into 2 * 3^7 = 4374).
Reported: cases explored, pruned and solved, and the time split between
the interval search, z3/bisection refutation, exact solving and range
derivation (CPU seconds summed over workers), plus the certificates.
"""
import sys
import time

from symgame.engine import atlas as atlas_module
from symgame.engine.atlas import ProcessMapper, build_atlas, process_map, serial_map
from symgame.games.billingham import build_game
from symgame.verify.atlascheck import certify_atlas


def hand_lemmas(structure, case):
    """Billingham's section 3 lemmas as a filter on (a1, b1), (a2, b2), b3 faces."""
    face = dict(zip(structure.order, case))
    for a, b in (("a1", "b1"), ("a2", "b2")):
        if (face[a], face[b]) not in (("L", "L"), ("I", "I"), ("U", "I")):
            return False
    return face["b3"] in ("L", "I")


def run(label, mapper, case_filter=None):
    start = time.perf_counter()
    atlas = build_atlas(build_game(), mapper, case_filter=case_filter)
    wall = time.perf_counter() - start
    t0 = time.perf_counter()
    certs = certify_atlas(atlas)
    t_cert = time.perf_counter() - t0
    s = atlas.stats
    print(f"{label}: {s.raw_cases} raw cases; search {s.search_nodes} nodes, {s.search_pruned} pruned, "
          f"{s.survivors} survivors; refuted {s.refuted_z3} by z3 and {s.refuted_bisection} by bisection; "
          f"{s.solved} cases with solutions; {len(atlas.families)} families")
    print(f"  wall {wall:.1f} s = search {s.seconds['search']:.1f} s + cases {s.seconds['cases']:.1f} s; "
          f"CPU in cases: refute {s.seconds['refute_cpu']:.1f} s, solve {s.seconds['solve_cpu']:.1f} s, "
          f"ranges {s.seconds['range_cpu']:.1f} s")
    print(f"  certificates: {sum(c.proved for c in certs)}/{len(certs)} proved in {t_cert:.1f} s")
    return atlas, wall


def _alternate(ways: dict) -> None:
    """Run each way (a name and a function building the atlas) twice, alternated; print each run, the best of two
    per way, the ratio of the first way to the second, and whether the families agree."""
    walls: dict = {way: [] for way in ways}
    leaders = {}
    for _ in range(2):
        for way, build in ways.items():
            start = time.perf_counter()
            atlas = build()
            walls[way].append(time.perf_counter() - start)
            leaders[way] = [f.leaders for f in atlas.families]
            s = atlas.stats.seconds
            print(f"{way}: {walls[way][-1]:.2f} s (search {s['search']:.2f} s, cases {s['cases']:.2f} s; CPU refute "
                  f"{s['refute_cpu']:.2f} s, solve {s['solve_cpu']:.2f} s, ranges {s['range_cpu']:.2f} s), "
                  f"{len(atlas.families)} families, {atlas.stats.survivors} survivors")
    (a, b), best = list(ways), {way: min(w) for way, w in walls.items()}
    print(f"best of two: {a} {best[a]:.2f} s, {b} {best[b]:.2f} s, ratio {best[a] / best[b]:.2f}; "
          f"same families: {leaders[a] == leaders[b]}")


def _kept_pool():
    with ProcessMapper() as mapper:
        return build_atlas(build_game(), mapper)


def compare():
    quick = atlas_module.Z3_QUICK_MS

    def previous():
        atlas_module.Z3_QUICK_MS = atlas_module.Z3_FILTER_MS
        return build_atlas(build_game(), process_map)

    def current():
        atlas_module.Z3_QUICK_MS = quick
        return _kept_pool()

    _alternate({"previous": previous, "current": current})
    atlas_module.Z3_QUICK_MS = quick


def compare_search():
    from symgame.engine.casesplit import CaseSearch

    def way(compiled: bool):
        def build():
            CaseSearch.use_compiled = compiled             # workers are forked after this
            return _kept_pool()
        return build

    _kept_pool()                                  # Numba's cache loaded (or compiled) once before timing
    _alternate({"python": way(False), "compiled": way(True)})
    CaseSearch.use_compiled = True


def main():
    if "--compare-search" in sys.argv:
        compare_search()
        return
    if "--compare" in sys.argv:
        compare()
        return
    mapper = serial_map if "--serial" in sys.argv else process_map
    full, t_full = run("raw case space", mapper)
    hand, t_hand = run("Billingham's hand-pruned space", mapper, hand_lemmas)
    same = [f.leaders for f in full.families] == [f.leaders for f in hand.families]
    print(f"ratio raw / hand-pruned wall time: {t_full / t_hand:.2f}; same families: {same}")
    print("paper: 25 minutes of Mathematica on one core for the 4374 hand-pruned combinations")


if __name__ == "__main__":
    main()
