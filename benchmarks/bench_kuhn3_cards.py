"""Three-player Kuhn poker with more cards: how far the kuhn3 pipeline runs (issue 17, "then five cards").

Run: PYTHONPATH=. python3 benchmarks/bench_kuhn3_cards.py [CARDS] [--case-seconds S] [--pots 3,4]

For a deck of CARDS cards (default 5), from the rules (:func:`symgame.games.kuhn3.build_game`): the number of
information sets; weak dominance proved by z3 for every P >= 2 (:func:`symgame.engine.polydominance.weakly_dominated`,
20 s per derivative) with its time; logit-homotopy equilibria at the given pots (6 priors each) and their
distinct cases; then, with ``--case-seconds``, each case solved exactly for every P within that limit
(:func:`symgame.engine.atlas.atlas_from_cases`): solved, empty and timed-out cases, families and their ranges.
"""
from __future__ import annotations

import sys
import time


def main() -> None:
    from symgame.engine.atlas import atlas_from_cases, seed_case
    from symgame.engine.casesplit import detect_structure
    from symgame.engine.polydominance import weakly_dominated
    from symgame.export.atlas_outputs import interval_text
    from symgame.games import kuhn3
    from symgame.numeric.polygame import numeric_equilibria

    args = sys.argv[1:]
    cards = int(args[0]) if args and args[0].isdigit() else 5
    case_seconds = float(args[args.index("--case-seconds") + 1]) if "--case-seconds" in args else None
    pots = [float(p) for p in args[args.index("--pots") + 1].split(",")] if "--pots" in args else [3.0]
    start = time.perf_counter()
    whole = kuhn3.build_game(cards)
    print(f"{cards} cards: {len(whole.variables)} information sets, built in {time.perf_counter() - start:.1f} s",
          flush=True)
    start = time.perf_counter()
    dominance = weakly_dominated(whole, 20_000)
    game = dominance.game
    print(f"dominance for every P >= 2: {len(dominance.fixed)} fixed, {len(game.variables)} free, "
          f"{len(dominance.undecided)} undecided, {dominance.rounds} rounds, {time.perf_counter() - start:.0f} s",
          flush=True)
    structure = detect_structure(game)
    print(f"structure: {len(structure.leaders)} leaders, {len(structure.responders)} responders; "
          f"raw cases {3 ** len(structure.order):.3g}", flush=True)
    seeds = []
    start = time.perf_counter()
    for k, pot in enumerate(pots):
        found = numeric_equilibria(game, {"P": pot}, starts=6, seed=k)
        seeds += [seed_case(game, structure, pot, eq.profile) for eq in found]
        print(f"P = {pot:g}: {len(found)} numeric equilibria", flush=True)
    print(f"discovery: {len(seeds)} equilibria, {len(set(seeds))} distinct cases, "
          f"{time.perf_counter() - start:.0f} s", flush=True)
    if case_seconds is None:
        return
    start = time.perf_counter()
    atlas = atlas_from_cases(game, seeds, case_seconds)
    stages = [v.stage for v in atlas.verdicts]
    print(f"cases within {case_seconds:g} s each: " + ", ".join(f"{stages.count(s)} {s}" for s in sorted(set(stages)))
          + f"; {len(atlas.families)} families, {time.perf_counter() - start:.0f} s", flush=True)
    for family in atlas.families:
        print(f"  {family.ident}: " + "; ".join(interval_text(iv) for iv in family.intervals), flush=True)


if __name__ == "__main__":
    main()
