"""Three-player Kuhn poker (4 cards, every card active): how far the case search reaches (issue 17).

Run: python3 benchmarks/bench_kuhn3.py [--budget SECONDS] [--probes N] [--compiled-rate] [--dominance]
     python3 benchmarks/bench_kuhn3.py --pruning

The game is built from the rules (:mod:`symgame.games.kuhn3`, 48 information sets).  Billingham's
simplified game (arXiv:1707.01392) is this game with 37 of them fixed; the levels below free them
group by group, up to the whole game with only the two trivial choices fixed (an ace always calls, a
jack always folds when facing a bet).  For each level, at the standard pot P = 3:

- the number of free frequencies, the leaders/responders split the engine detects, the raw cases 3^n;
- the depth-first case search of :class:`symgame.engine.casesplit.CaseSearch` (interval pruning)
  run for at most ``--budget`` seconds in its own process: nodes, cuts and survivors if it finishes;
- Knuth's estimator of the size of the search tree (D. E. Knuth, "Estimating the efficiency of
  backtrack programs", Mathematics of Computation 29(129), 121-136, 1975): random root-to-leaf probes
  through the surviving children, the estimate being the sum over depths of the products of the
  branching numbers met; with the measured cost per node this projects the search time on one core
  and on a Dask cluster of 64 cores (the search splits into independent prefix tasks).

The projection covers the search only; each surviving case is then solved exactly
(:func:`symgame.engine.atlas.analyse_case`), at the per-case cost measured on Billingham's level.

``--dominance``: the lever "dominated actions proved once for all P", measured on the whole game: for every
free frequency ``x`` of player ``i``, z3 decides whether ``g_x = dE_i/dx`` keeps one sign (``<= 0`` or ``>= 0``)
on the whole strategy box, at P = 3 and for all P >= 2, iterated until nothing more is fixed.  Such an ``x`` is
weakly dominated: fixing it keeps every equilibrium up to play at information sets that are then never
reached (``g_x`` vanishes there) -- Billingham's restrictions are of this kind.  Check: freeing the trivial
"an ace calls" frequencies, this finds them again.

``--pruning`` (issue 41 item 2): the exhaustive search of the study's game for every P >= 2 after each pruning step,
the counts of the study's part :mod:`derivations.szafron2013.kuhn3_search` (its docstring lists the steps), timed,
and projected with the cost per child tried of the compiled search.
"""
from __future__ import annotations

import multiprocessing as mp
import random
import statistics
import sys
import time
from fractions import Fraction

from symgame.engine.casesplit import CaseSearch, ParameterPiece, _value_range, detect_structure
from symgame.games import kuhn3

STANDARD = ParameterPiece(Fraction(3), Fraction(3))
CLUSTER = 64


def billingham_fixed(variables) -> dict[str, int]:
    """Billingham's restrictions in the names of the full game (section 2 of arXiv:1707.01392)."""
    fixed: dict[str, int] = {}
    for v in variables:
        card, hist = v[0], v[3:]
        opening = hist in ("o", "x", "xx")
        if card == "J" or (card == "K" and opening):
            fixed[v] = 0
        elif not opening and card == "A":
            fixed[v] = 1
        elif not opening and card in ("Q",):
            fixed[v] = 0
        elif not opening and card == "K" and hist.endswith("c"):
            fixed[v] = 0
    fixed["A3_xx"] = 1
    return fixed


def levels(variables) -> list[tuple[str, dict[str, int]]]:
    """From Billingham's 11 free frequencies to the whole game, freeing one group at a time."""
    base = billingham_fixed(variables)

    def free(fixed: dict[str, int], test) -> dict[str, int]:
        return {v: x for v, x in fixed.items() if not test(v)}

    steps = [("Billingham's simplified game", base)]
    steps.append(("+ player 3 may check an ace", free(steps[-1][1], lambda v: v == "A3_xx")))
    steps.append(("+ kings may bet", free(steps[-1][1], lambda v: v[0] == "K" and v[3:] in ("o", "x", "xx"))))
    steps.append(("+ jacks may bet (bluff)", free(steps[-1][1], lambda v: v[0] == "J" and v[3:] in ("o", "x", "xx"))))
    steps.append(("+ kings may call after a call", free(steps[-1][1], lambda v: v[0] == "K")))
    trivial = {v: (1 if v[0] == "A" else 0) for v in variables
               if v[0] in ("A", "J") and v[3:] not in ("o", "x", "xx")}
    steps.append(("+ queens may call (whole game but the trivial choices)", trivial))
    return steps


def _search_job(fixed: dict[str, int], queue, compiled: bool = True) -> None:
    CaseSearch.use_compiled = compiled
    game = kuhn3.build_game(4, fixed)
    structure = detect_structure(game)
    search = CaseSearch(game, structure, [STANDARD])
    start = time.perf_counter()
    result = search.run(search.tasks(0)[0])
    queue.put((result.nodes, result.pruned, len(result.survivors), time.perf_counter() - start))


def run_search(fixed: dict[str, int], budget: float, compiled: bool = True):
    queue = mp.get_context("fork").Queue()
    proc = mp.get_context("fork").Process(target=_search_job, args=(fixed, queue, compiled))
    proc.start()
    proc.join(budget)
    if proc.is_alive():
        proc.terminate()
        proc.join()
        return None
    return queue.get()


def knuth_estimate(search: CaseSearch, probes: int, seed: int = 17) -> tuple[float, float, float]:
    """(estimated surviving nodes, estimated survivors, seconds per child tried) from ``probes`` random probes."""
    rng = random.Random(seed)
    order = search.structure.order
    node_estimates, leaf_estimates = [], []
    nodes_seen, seconds = 0, 0.0
    for _ in range(probes):
        lo, hi = search.box(search.pieces[0])
        choice: list[str] = []
        weight, total = 1.0, 1.0
        start = time.perf_counter()
        leaf = 0.0
        for depth, x in enumerate(order):
            alive = []
            for c in search.choices(x):
                trial_lo, trial_hi = lo[:], hi[:]
                value = _value_range(c)
                trial_lo[depth] = max(trial_lo[depth], value[0])
                trial_hi[depth] = min(trial_hi[depth], value[1])
                nodes_seen += 1
                if trial_lo[depth] <= trial_hi[depth] and search.propagate(0, "".join(choice + [c]), trial_lo, trial_hi):
                    alive.append((c, trial_lo, trial_hi))
            if not alive:
                break
            weight *= len(alive)
            total += weight
            c, lo, hi = rng.choice(alive)
            choice.append(c)
            if depth == len(order) - 1:
                leaf = weight
        seconds += time.perf_counter() - start
        node_estimates.append(total)
        leaf_estimates.append(leaf)
    return statistics.fmean(node_estimates), statistics.fmean(leaf_estimates), seconds / max(nodes_seen, 1)


def main(budget: float, probes: int) -> None:
    variables = kuhn3.build_game(4).variables
    print(f"three-player Kuhn poker, 4 cards: {len(variables)} information sets; standard pot P = 3")
    print(f"search budget {budget:.0f} s per level; Knuth estimate from {probes} probes; cluster = {CLUSTER} cores")
    print("level | free | leaders/responders | raw cases | search (nodes, cut, survivors, s) | "
          "estimated surviving nodes | estimated survivors | projected 1 core | projected cluster")
    for label, fixed in levels(variables):
        game = kuhn3.build_game(4, fixed)
        structure = detect_structure(game)
        search = CaseSearch(game, structure, [STANDARD])
        n = len(game.variables)
        measured = run_search(fixed, budget)
        nodes, survivors, per_node = knuth_estimate(search, probes)
        done = (f"{measured[0]:,}, {measured[1]:,}, {measured[2]:,}, {measured[3]:.1f}" if measured
                else f"over {budget:.0f} s")
        projected = nodes * 3 * per_node   # every surviving node tries its three children
        print(f"{label} | {n} | {len(structure.leaders)}/{len(structure.responders)} | 3^{n} = {3**n:.2e} | {done} | "
              f"{nodes:.2e} | {survivors:.2e} | {_duration(projected)} | {_duration(projected / CLUSTER)}",
              flush=True)


def compiled_rate(budget: float) -> None:
    """Nodes per second of the Python and the compiled search (issue 40 item 1) on the levels that finish, each in
    its own process (after one compiled run that loads or compiles the kernels), and the projection of the whole
    game's search (2.5 years on one core with the Python search, RESULTS.md) divided by the ratio."""
    variables = kuhn3.build_game(4).variables
    run_search(levels(variables)[0][1], budget, True)
    print("level | free | Python: nodes, s, nodes/s | compiled: nodes, s, nodes/s | ratio")
    ratios = []
    for label, fixed in levels(variables)[:3]:
        python = run_search(fixed, budget, False)
        compiled = run_search(fixed, budget, True)
        if python is None or compiled is None:
            print(f"{label} | over {budget:.0f} s")
            continue
        assert python[:3] == compiled[:3]                 # same nodes, cuts and survivors
        rates = python[0] / python[3], compiled[0] / compiled[3]
        ratios.append(rates[1] / rates[0])
        print(f"{label} | {len(variables) - len(fixed)} | {python[0]:,}, {python[3]:.2f}, {rates[0]:,.0f} | "
              f"{compiled[0]:,}, {compiled[3]:.2f}, {rates[1]:,.0f} | {ratios[-1]:.1f}", flush=True)
    if ratios:
        factor = ratios[-1]            # the largest level: the smaller ones are dominated by loading the kernels
        years = 2.5 * 3.15e7
        print(f"whole game (26 free after dominance): 2.5 years of search on 1 core with the Python search -> "
              f"{_duration(years / factor)} on 1 core and {_duration(years / factor / CLUSTER)} on {CLUSTER} "
              f"at the ratio of the largest level measured, {factor:.1f}")


def _duration(seconds: float) -> str:
    for unit, size in (("years", 3.15e7), ("days", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            return f"{seconds / size:.1f} {unit}"
    return f"{seconds:.1f} s"


def dominance(pot: str, timeout_ms: int = 20_000) -> dict[str, int]:
    """Frequencies of the whole game fixed by a derivative of constant sign on the box, iterated (exact: z3)."""
    import z3

    from symgame.engine.z3terms import polynomial_term

    fixed = dict(levels(kuhn3.build_game(4).variables)[-1][1])
    trivial = len(fixed)
    changed = True
    while changed:
        changed = False
        game = kuhn3.build_game(4, fixed)
        names = {n: z3.Real(n) for n in game.variables}
        names["P"] = z3.Real("P")
        box = [c for n in game.variables for c in (names[n] >= 0, names[n] <= 1)]
        box.append(names["P"] >= 2 if pot == "all" else names["P"] == z3.RealVal(pot))
        for x, g in game.derivatives.items():
            g_z3 = polynomial_term(g, [names[str(v)] for v in g.gens])
            verdicts = []
            for holds in (g_z3 > 0, g_z3 < 0):     # unsat: g <= 0 everywhere, resp. g >= 0 everywhere
                solver = z3.Solver()
                solver.set("timeout", timeout_ms)
                solver.add(*box, holds)
                verdicts.append(solver.check())
            if z3.unknown in verdicts:
                print(f"  {x}: undecided within {timeout_ms} ms")
            elif verdicts[0] == z3.unsat or verdicts[1] == z3.unsat:
                fixed[x] = 0 if verdicts[0] == z3.unsat else 1
                changed = True
                print(f"  {x} = {fixed[x]}: its derivative never has the other sign on the box")
    free = len(kuhn3.build_game(4, fixed).variables)
    label = "P >= 2" if pot == "all" else f"P = {pot}"
    print(f"{label}: {len(fixed) - trivial} frequencies fixed beyond the {trivial} trivial ones; {free} stay free")
    return fixed


def pruning() -> None:
    """The projection of the exhaustive search of the study's game after each pruning step (module docstring):
    the counts of the study's own part (:func:`derivations.szafron2013.kuhn3_search.compute_search`), timed, and
    the cost per child tried measured on the estimate of each piece."""
    import json
    from pathlib import Path

    from derivations.szafron2013.kuhn3_search import PROBES, SEED, _search, compute_search

    data = json.loads(Path("outputs/kuhn3/study_cache.json").read_text())["kuhn3"]["data"]
    game, search = _search(data)
    search.estimate(0, 1)                                      # load the kernels before timing
    start = time.perf_counter()
    tried = sum(search.estimate(k, PROBES, SEED).tried for k in range(len(search.pieces)))
    per_child = (time.perf_counter() - start) / tried
    start = time.perf_counter()
    measured = compute_search(data)
    seconds = time.perf_counter() - start
    print(f"study's game: {measured['free']} free, raw cases {measured['raw_cases_per_piece']:.2e} per piece; Knuth: "
          f"{PROBES} probes per piece; subtrees below {measured['prefix']} drawn choices ({seconds:.0f} s in all)")
    print("piece | nodes, cases | fixed by dominance on the piece | nogoods in advance (single, pairs) | "
          "per subtree: nodes, survivors, cut by earlier cores, tried, cores, not refuted, nodes and survivors after")
    for p in measured["pieces"]:
        subtrees = " / ".join(f"{s['prefix']}: {s['nodes']:,}, {s['survivors']:,}, {s['cut_by_earlier_cores']:,}, "
                              f"{s['tried']:,}, {s['cores']:,}, {s['not_refuted']:,}, {s['nodes_after']:,}, "
                              f"{s['survivors_after']:,}" for s in p["subtrees"])
        print(f"{p['piece']} | {p['nodes']:.2e}, {p['cases']:.2e} | {len(p['dominance_fixed'])} | "
              f"{p['nogoods_single']}, {p['nogoods_pairs']} | {subtrees}", flush=True)
    total = measured["total"]
    projected = total["nodes_with_nogoods"] * 3 * per_child
    print(f"all pieces: {total['nodes']:.2e} nodes, {total['cases']:.2e} cases; with the nogoods "
          f"{total['nodes_with_nogoods']:.2e}, {total['cases_with_nogoods']:.2e}; {total['not_refuted']:,} of "
          f"{total['tried']:,} survivors tried not refuted by bisection")
    print(f"projected: the search {_duration(projected)} on 1 core ({per_child * 1e6:.1f} us per child), "
          f"{_duration(projected / CLUSTER)} on {CLUSTER}; {total['cases_left']:.2e} cases left for the exact "
          f"treatment (z3, then solving)")


if __name__ == "__main__":
    args = sys.argv[1:]
    if "--pruning" in args:
        pruning()
        sys.exit(0)
    if "--dominance" in args:
        probes = int(args[args.index("--probes") + 1]) if "--probes" in args else 200
        for pot in ("3", "all"):
            reduced = dominance(pot)
        game = kuhn3.build_game(4, reduced)
        structure = detect_structure(game)
        nodes, survivors, per_node = knuth_estimate(CaseSearch(game, structure, [STANDARD]), probes)
        projected = nodes * 3 * per_node
        print(f"whole game after the dominance pass: {len(game.variables)} free, leaders/responders "
              f"{len(structure.leaders)}/{len(structure.responders)}, raw cases 3^{len(game.variables)} = "
              f"{3 ** len(game.variables):.2e}; Knuth ({probes} probes): {nodes:.2e} surviving nodes, "
              f"{survivors:.2e} surviving cases; projected {_duration(projected)} on 1 core, "
              f"{_duration(projected / CLUSTER)} on {CLUSTER}")
        sys.exit(0)
    budget = float(args[args.index("--budget") + 1]) if "--budget" in args else 120.0
    if "--compiled-rate" in args:
        compiled_rate(budget)
        sys.exit(0)
    probes = int(args[args.index("--probes") + 1]) if "--probes" in args else 200
    main(budget, probes)
