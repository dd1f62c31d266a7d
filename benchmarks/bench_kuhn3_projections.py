"""kuhn3: the component of a case through held-out points, by the coordinate projection with the smallest fibres.

Run: PYTHONPATH=. python3 benchmarks/bench_kuhn3_projections.py [--scan] [--derive FREE] [--max-fibres N]

The case ``LLIIIIIIILILLIIIILLIIL-0-0`` of the kuhn3 study holds held-out equilibria that no family holds; the study's
fibre verdict took the free frequencies the Jacobian proposed at them, whose generic fibre has 3 points and whose
algebraic family would need formulas of degree 14 (about 23,000 fibres to interpolate), so it was not derived.

- ``--scan``: the generic fibre's number of points (``symgame.engine.fibres.fibre_points``, one msolve call each)
  for every set of four free frequencies among the case's unknowns that its equations do not fix, tallied;
  the sets with 1 or 2 points are listed.
- ``--derive FREE`` (comma-separated): ``algebraic_family`` with those free frequencies, ``MAX_FIBRES`` raised to
  ``--max-fibres`` (default 3000) for the run; the time, the primitive unknown, the formulas' degrees and the
  number of fibres are printed, and the held-out points of the third and fourth searches at P = 31/10 and 16/5
  that no family holds (recomputed from their seeds) are located on the family: for each, the largest coordinate
  difference to the family at its own free values (the root of the primitive's polynomial nearest the point).

Measured (2026-11-28, benchmarks/RESULTS.md): the scan 190 s (657 empty, 14 sets with 2 points, none with 1);
``--derive Q1_xxb,K3_bc,Q3_bf,K3_bf`` 1,085 s on an idle core (1,508 s on a shared one; degree 8, 2,580
fibres; proved), the two held-out points of this case 3.2e-5 and 4.3e-5 from it.
"""
from __future__ import annotations

import itertools
import json
import sys
import time
from collections import Counter
from fractions import Fraction
from pathlib import Path

import sympy as sp

from derivations.szafron2013.kuhn3_heldout import ROUNDS, study_atlas, with_heldout
from symgame.engine import fibres
from symgame.engine.parametric import case_system

CASE = "LLIIIIIIILILLIIIILLIIL-0-0"
#: Unknowns that the case's equations fix (A1_o = 0, Q1_o = 0, K1_xbf = 2(P - 2)/(P + 1)): never free.
FIXED = ("A1_o", "Q1_o", "K1_xbf")
#: The held-out points outside every family: (search, pot).
POINTS = ((2, Fraction(31, 10)), (3, Fraction(16, 5)))


def _atlas():
    raw = json.loads((Path(__file__).resolve().parents[1] / "outputs" / "kuhn3" / "study_cache.json").read_text())
    return study_atlas(with_heldout(raw["kuhn3"]["data"], raw["kuhn3/heldout"]["data"]))


def scan(atlas) -> None:
    unknowns, _ = case_system(atlas.game, atlas.structure, CASE)
    candidates = [u for u in unknowns if u not in FIXED]
    start = time.perf_counter()
    tally: Counter = Counter()
    for free in itertools.combinations(candidates, 4):
        points = fibres.fibre_points(atlas.game, atlas.structure, CASE, free)
        tally[points] += 1
        if points in (1, 2):
            print(f"{points} points: free {', '.join(free)}", flush=True)
    print(f"{sum(tally.values())} sets in {time.perf_counter() - start:.0f} s: {dict(tally)}")


def derive(atlas, free: tuple[str, ...], max_fibres: int) -> None:
    fibres.MAX_FIBRES = max_fibres
    start = time.perf_counter()
    family = fibres.algebraic_family(atlas.game, atlas.structure, CASE, free)
    print(f"derived and proved in {time.perf_counter() - start:.0f} s: primitive {family.primitive}, "
          f"{family.fibres} fibres, degrees {family.degrees}", flush=True)
    locate(atlas, family)


def locate(atlas, family: fibres.FibreFamily) -> None:
    """The held-out points of :data:`POINTS` outside every family, recomputed, located on ``family``."""
    from symgame.engine.atlas import seed_case
    from symgame.verify.atlascheck import numeric_crosscheck

    P, u = atlas.game.symbol("P"), atlas.game.symbol(family.primitive)
    for search, value in POINTS:
        pots, starts, seed = ROUNDS[search]
        found = numeric_crosscheck(atlas, [value], starts=starts, seed=seed + pots.index(value), refine=True)
        for match in (m for m in found if m.family is None):
            point = match.profile
            if seed_case(atlas.game, atlas.structure, float(value), point) != CASE:
                print(f"P = {value}: a point in another case")
                continue
            at = {P: sp.Rational(value.numerator, value.denominator)}
            at.update({atlas.game.symbol(z): sp.nsimplify(point[z]) for z in family.free})
            distances = []
            for root in sp.Poly(family.minimal.subs(at), u).nroots():
                if abs(sp.im(root)) > 1e-9:
                    continue
                here = {**at, u: sp.re(root)}
                distances.append(max([abs(float(sp.re(root)) - point[family.primitive])] +
                                     [abs(float(e.subs(here)) - point[x]) for x, e in family.values.items()]))
            print(f"P = {value}: {min(distances):.2e} from the family")


def main() -> None:
    atlas = _atlas()
    if "--scan" in sys.argv:
        scan(atlas)
    if "--derive" in sys.argv:
        free = tuple(sys.argv[sys.argv.index("--derive") + 1].split(","))
        limit = int(sys.argv[sys.argv.index("--max-fibres") + 1]) if "--max-fibres" in sys.argv else 3000
        derive(atlas, free, limit)


if __name__ == "__main__":
    main()
