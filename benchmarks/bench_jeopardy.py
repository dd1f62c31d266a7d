"""Final Jeopardy benchmarks (issue: derivation time, growth with scores, PDL vs LP, near ties).

Run: python3 benchmarks/bench_jeopardy.py [--quick | --near-ties [X1,X2 ...] [--limit S] [--z3-limit S]]
All timings are measured in this process; ratios compare methods run side by side.
``--near-ties``: (8,7), (10,9), (12,11), (20,19) derived and certified with the plane CAD (z3 as a second
opinion), then with z3 alone (the path before the CAD), each in its own process with a time limit.
``--linear-algebra [X1,X2]``: the indifference systems of random support pairs of that game solved by FLINT's
fraction-free elimination (``symgame.engine.support_enumeration.solve_indifference``) against the sympy
``DomainMatrix.solve_den`` baseline it replaced, same process, same systems, answers compared.
``--compare-near-ties [X1,X2 ...] [--repeats R]``: the sweep's whole job for each pair the previous way (second
opinions in the process, 100 ms each; Euclid over Q(alpha); no sign tables; a plane per context) and the current
way, each in its own process, alternating; the JSON compared equal.
``--kernels-at X1,X2 P1 P2``: the kernel proposals at one rational point (P1, P2 fractions such as 501/1000) of
the dominance-reduced game, floating-point ones and exact ones (checked in rationals), each derived exactly, and
whether its exact region contains the point (the diagnosis of (20,19)'s uncovered point in benchmarks/RESULTS.md).
"""
import sys
import time

import numpy as np

from symgame.engine.derive import derive_by_discovery, derive_equilibria
from symgame.engine.pdl_builder import CoverageError
from symgame.games.jeopardy import build_game
from symgame.model.isolated import run_isolated
from symgame.numeric.kernels import game_kernels
from symgame.numeric.solvers import solve_zero_sum_lp
from symgame.verify.certify import certify_pdl


def timed(func, *args):
    start = time.perf_counter()
    result = func(*args)
    return result, time.perf_counter() - start


def derive_and_certify(scores, z3_alone=False):
    if z3_alone:
        from symgame.model.decide import z3_only

        with z3_only():
            return derive_and_certify(scores)
    game = build_game(*scores)
    try:
        derivation, t_derive = timed(derive_by_discovery, game, game_kernels)
    except CoverageError as exc:
        return str(exc)
    certificate, t_cert = timed(certify_pdl, game, derivation.pdl)
    return t_derive, t_cert, len(derivation.pdl.rules), derivation.kept, certificate.status.value


def with_timeout(scores, seconds, z3_alone=False):
    """``derive_and_certify`` in its own process: ``None`` past ``seconds``, the crash's text if the process
    dies (run once: a benchmark reports crashes, it does not hide them by retrying)."""
    [outcome] = run_isolated(lambda s: derive_and_certify(s, z3_alone), [scores], workers=1, retries=0,
                             timeout=seconds)
    if outcome.ok:
        return outcome.value
    return None if outcome.error.startswith("timed out") else outcome.error


def main(quick: bool) -> None:
    game = build_game(5, 3)
    fast, t_fast = timed(derive_by_discovery, game, game_kernels)
    print(f"(5,3) derivation, dominance + discovery + proved cover: {t_fast:.2f} s")
    if not quick:
        _, t_naive = timed(derive_equilibria, game)
        print(f"(5,3) derivation, naive enumeration of all 209 support pairs: {t_naive:.2f} s "
              f"(ratio {t_naive / t_fast:.1f}x)")

    print("\ngrowth (derivation / certificate, seconds; timeout 240 s per pair)")
    print("X1 X2  derive  certify  rules  kept actions          certificate")
    pairs = [(3, 1), (5, 3), (6, 5), (8, 5), (10, 6), (12, 8)] if quick else \
        [(3, 1), (4, 2), (5, 3), (6, 2), (6, 5), (8, 4), (8, 5), (8, 7), (10, 6), (10, 9), (12, 8),
         (12, 4), (12, 11)]
    for scores in pairs:
        row = with_timeout(scores, 240)
        if row is None:
            print(f"{scores[0]:2d} {scores[1]:2d}  > 240 s (stopped)")
            continue
        if isinstance(row, str):
            print(f"{scores[0]:2d} {scores[1]:2d}  no result: {row}")
            continue
        t_derive, t_cert, rules, kept, status = row
        kept_text = f"{len(kept[0])}x{len(kept[1])} of {scores[0] + 1}x{scores[1] + 1}"
        print(f"{scores[0]:2d} {scores[1]:2d}  {t_derive:6.2f}  {t_cert:7.2f}  {rules:5d}  {kept_text:20s}  {status}")

    pdl = fast.pdl
    rng = np.random.default_rng(3)
    n = 100_000
    columns = {"p1": rng.uniform(0, 1, n), "p2": rng.uniform(0, 1, n)}
    pdl.profiles_numeric({k: v[:10] for k, v in columns.items()})
    _, t_pdl = timed(pdl.profiles_numeric, columns)
    m = 2000
    start = time.perf_counter()
    for k in range(m):
        matrices = game.payoffs_numeric({"p1": columns["p1"][k], "p2": columns["p2"][k]})
        solve_zero_sum_lp(matrices[0])
    t_lp = (time.perf_counter() - start) * n / m
    print(f"\n(5,3): PDL at {n} points (vectorised) {t_pdl:.3f} s; LP at each point "
          f"{t_lp:.1f} s (measured on {m}, scaled); ratio {t_lp / t_pdl:.0f}x")


def near_ties(pairs=((8, 7), (10, 9), (12, 11), (20, 19)), limit: float = 1800, z3_limit: float = 600) -> None:
    print(f"near ties: derive + certify, plane CAD (z3 second opinion, limit {limit:.0f} s) vs z3 alone "
          f"(limit {z3_limit:.0f} s), one process each")
    print("X1 X2  path     derive  certify  total   rules  certificate")
    for scores in pairs:
        for label, z3_alone, seconds in (("cad", False, limit), ("z3 only", True, z3_limit)):
            start = time.perf_counter()
            row = with_timeout(scores, seconds, z3_alone)
            wall = time.perf_counter() - start
            head = f"{scores[0]:2d} {scores[1]:2d}  {label:7s}"
            if row is None:
                print(f"{head}  stopped after {wall:.0f} s (limit)", flush=True)
            elif isinstance(row, str):
                print(f"{head}  no result after {wall:.0f} s: {row}", flush=True)
            else:
                t_derive, t_cert, rules, _, status = row
                print(f"{head}  {t_derive:6.1f}  {t_cert:7.1f}  {t_derive + t_cert:6.1f}  {rules:5d}  {status}",
                      flush=True)


def _previous_way() -> None:
    """Switch this (child) process to the near ties' previous implementation: second opinions in the process,
    100 ms of z3's default solver each; Euclid's algorithm over Q(alpha) for every multiple root; no sign tables;
    a plane CAD per context; the CAD's polynomials read back from z3's terms."""
    import symgame.model.cad as cad
    import symgame.model.decide as decide
    from symgame.model import second_opinion

    second_opinion._STATE["inline"] = True
    decide.SECOND_OPINION_MS, decide.SECOND_OPINION_TACTIC = 100, None
    cad.root_tests = lambda field, over, *args: [field.squarefree(over) if len(over) > 2 else over]
    cad.Plane._table = lambda self, keys: None
    decide._shared_plane = lambda names: (lambda plane: (plane, cad.Z3Translator(plane)))(cad.Plane(names))
    cad.Z3Translator.pin = lambda self, term, poly: None


def _pair_job(scores, way):
    """The sweep's whole job for one pair (derivation, certificate, point checks, JSON) the ``previous`` way or
    the ``current`` one; seconds and the JSON."""
    from derivations.ganzfried2022.jeopardy_sweep import compute_pair

    if way == "previous":
        _previous_way()
    start = time.perf_counter()
    data = compute_pair(scores)
    return time.perf_counter() - start, data


def compare_near_ties(pairs, repeats: int = 1) -> None:
    """Each pair's sweep job the previous way (:func:`_previous_way`) and the current way, each in a fresh
    process, alternating (best of ``repeats``); the JSON must be identical."""
    print(f"near ties, the sweep's whole job per pair: previous vs current implementation (best of {repeats}, "
          "alternating, one process per run)")
    print("X1 X2  previous (s)  current (s)  ratio  same JSON")
    for scores in pairs:
        best = {"previous": float("inf"), "current": float("inf")}
        data = {}
        for _ in range(repeats):
            for way in ("previous", "current"):
                [outcome] = run_isolated(lambda s, w=way: _pair_job(s, w), [scores], workers=1, retries=2)
                if not outcome.ok:
                    raise RuntimeError(f"{scores} {way}: {outcome.error}")
                seconds, data[way] = outcome.value
                best[way] = min(best[way], seconds)
        same = data["previous"] == data["current"]
        assert same, f"{scores}: the two ways wrote different results"
        print(f"{scores[0]:2d} {scores[1]:2d}  {best['previous']:12.1f}  {best['current']:11.1f}  "
              f"{best['previous'] / best['current']:5.2f}  {same}", flush=True)


def _sympy_solve(ring, block):
    """The baseline: sympy's fraction-free ``solve_den`` over QQ[p1, p2] (symgame's code before FLINT)."""
    from sympy.polys.matrices import DomainMatrix

    k = len(block[0])
    rows = [list(r) + [-ring.one] for r in block] + [[ring.one] * k + [ring.zero]]
    bordered = DomainMatrix(rows, (k + 1, k + 1), ring)
    if bordered.rank() < k + 1:
        return None
    rhs = DomainMatrix([[ring.zero]] * k + [[ring.one]], (k + 1, 1), ring)
    solution, det = bordered.solve_den(rhs)
    return [solution[i, 0].element for i in range(k + 1)], det


def linear_algebra(scores=(12, 11), pairs_per_size: int = 6, seed: int = 7) -> None:
    import random

    from symgame.engine.support_enumeration import RingMatrices, solve_indifference

    game = build_game(*scores)
    poly = RingMatrices.from_game(game)
    field = poly.ring.get_field()
    rows, cols = game.shape
    rng = random.Random(seed)
    print(f"({scores[0]},{scores[1]}): indifference systems of random support pairs, FLINT against sympy")
    print(" k  systems  sympy (s)  FLINT (s)  ratio")
    for k in range(2, min(rows, cols) + 1):
        blocks = []
        for _ in range(pairs_per_size):
            r, c = sorted(rng.sample(range(rows), k)), sorted(rng.sample(range(cols), k))
            blocks.append([[poly.a[i][j] for j in c] for i in r])
        old, t_old = timed(lambda: [_sympy_solve(poly.ring, b) for b in blocks])
        new, t_new = timed(lambda: [solve_indifference(poly.ring, b) for b in blocks])
        for o, n in zip(old, new):      # the same solutions (as rational functions), or both singular
            assert (o is None) == (n is None)
            if o is not None:
                column, det = o
                assert all(field.convert(e) / field.convert(det) == field.convert(m) / field.convert(n.denominator)
                           for e, m in zip(column, n.numerators + (n.value_numerator,)))
        print(f"{k:2d}  {len(blocks):7d}  {t_old:9.3f}  {t_new:9.3f}  {t_old / t_new:5.1f}x", flush=True)


def kernels_at(scores, point: dict) -> None:
    """Floating-point kernel proposals at ``point`` against the exact ones (both derived exactly), with times."""
    from symgame.engine.derive import reduce_by_dominance
    from symgame.engine.discovery import GAP_KERNELS, unit_grid
    from symgame.engine.support_enumeration import BranchSolver
    from symgame.model.region import raw_point

    game = build_game(*scores)
    reduced = reduce_by_dominance(game, unit_grid(game.domain.names, 4), 30_000).game
    solver = BranchSolver(reduced, 30_000)
    print(f"({scores[0]},{scores[1]}) reduced to {reduced.shape[0]}x{reduced.shape[1]}; at "
          f"{', '.join(f'{k} = {v}' for k, v in point.items())}:")
    for label, at in (("floating point", {k: float(v) for k, v in point.items()}), ("exact", dict(point))):
        kernels, seconds = timed(game_kernels, reduced, at, GAP_KERNELS)
        print(f" {label}: {len(kernels)} kernel proposals in {seconds * 1000:.0f} ms")
        for rows, cols in kernels:
            branch = solver.branch(rows, cols)
            if branch is None:
                print(f"  {rows} x {cols}: singular or empty region")
                continue
            failing = [a for a in branch.region.atoms if not a.holds_at_raw(raw_point(point))]
            verdict = "contains the point" if not failing else \
                f"excludes the point: {len(failing)} atom(s) fail, e.g. {failing[0].text[:90]}..."
            print(f"  {rows} x {cols}: {verdict}", flush=True)


if __name__ == "__main__":
    if "--kernels-at" in sys.argv:
        from fractions import Fraction

        args = sys.argv[sys.argv.index("--kernels-at") + 1:]
        kernels_at(tuple(int(v) for v in args[0].split(",")), {"p1": Fraction(args[1]), "p2": Fraction(args[2])})
    elif "--linear-algebra" in sys.argv:
        args = sys.argv[sys.argv.index("--linear-algebra") + 1:]
        chosen = [tuple(int(v) for v in a.split(",")) for a in args if "," in a]
        linear_algebra(chosen[0] if chosen else (12, 11))
    elif "--compare-near-ties" in sys.argv:
        args = sys.argv[sys.argv.index("--compare-near-ties") + 1:]
        compare_near_ties([tuple(int(v) for v in a.split(",")) for a in args if "," in a] or [(10, 9), (12, 11)],
                          int(args[args.index("--repeats") + 1]) if "--repeats" in args else 1)
    elif "--near-ties" in sys.argv:
        # --near-ties [X1,X2 ...] [--limit S] [--z3-limit S]
        args = sys.argv[sys.argv.index("--near-ties") + 1:]
        chosen = tuple(tuple(int(v) for v in a.split(",")) for a in args if "," in a)
        limits = {k: float(args[args.index(k) + 1]) for k in ("--limit", "--z3-limit") if k in args}
        near_ties(chosen or ((8, 7), (10, 9), (12, 11), (20, 19)), limits.get("--limit", 1800),
                  limits.get("--z3-limit", 600))
    else:
        main("--quick" in sys.argv)
