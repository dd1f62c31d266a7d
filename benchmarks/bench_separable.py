"""Whole-range certificates: one deviation per group of a player's frequencies against every vertex of her box.

Run: PYTHONPATH=. python3 benchmarks/bench_separable.py [--kuhn3-whole-box SECONDS]

Both checkers prove the same claim (every profile of a family member is an equilibrium for every P of an
interval) in this process:

- baseline :func:`symgame.verify.polycert.certify_profile_set`: one z3 query per vertex of each player's whole
  strategy box, the family's formulas tied to fresh variables;
- :func:`symgame.verify.separable.certify_best_response`: one query per distinct vertex of each *group* of a
  player's frequencies sharing no monomial of her payoff, formulas substituted into each gain.

On Billingham's simplified three-player Kuhn poker (the atlas built from the rules, every member, every
interval) and on the nine families of three-player Kuhn poker with all four cards (`outputs/kuhn3/`): the
number of deviation queries, the verdicts, the time of each and the ratio.  The whole-box baseline on the
four-card game is run only with ``--kuhn3-whole-box`` (in a child process cut after that many seconds).
"""
from __future__ import annotations

import json
import multiprocessing as mp
import sys
import time
from pathlib import Path


def billingham() -> None:
    from derivations.billingham2017.outputs import analyse_billingham
    from symgame.games import billingham as game_module
    from symgame.verify.polycert import ProfileSet, certify_profile_set
    from symgame.verify.separable import certify_best_response, group_deviations

    analysis = analyse_billingham()
    game = game_module.build_game()
    members = [(f.ident, ProfileSet.from_branch(m.branch), iv) for f in analysis.atlas.families
               for m in f.members for iv in m.range.intervals]
    whole = sum(2 ** len(p.variables) for p in game.players)
    print(f"Billingham's game: {len(members)} member intervals; deviation queries per member: whole box "
          f"{whole}, separable {len(group_deviations(game))}")
    times = {}
    for name, check in (("whole box", certify_profile_set), ("separable", certify_best_response)):
        start = time.perf_counter()
        verdicts = [check(game, pset, iv).decision.name for _, pset, iv in members]
        times[name] = time.perf_counter() - start
        print(f"  {name}: {times[name]:.1f} s, verdicts {dict((v, verdicts.count(v)) for v in sorted(set(verdicts)))}")
    print(f"  ratio whole box / separable: {times['whole box'] / times['separable']:.1f}")


def _whole_box(payload):
    from derivations.szafron2013.kuhn3_certify import member_sets
    from symgame.verify.polycert import certify_profile_set

    data, index = payload
    game, members = member_sets(data)
    ident, _, pset, intervals = members[index]
    return certify_profile_set(game, pset, intervals[0]).decision.name


def kuhn3(limit: float | None) -> None:
    from derivations.szafron2013.kuhn3_certify import member_sets
    from symgame.verify.separable import certify_best_response, group_deviations

    data = json.loads(Path("outputs/kuhn3/study_cache.json").read_text())["kuhn3"]["data"]
    game, members = member_sets(data)
    whole = sum(2 ** len(p.variables) for p in game.players)
    print(f"Three-player Kuhn poker, 4 cards: {len(members)} members; deviation queries per member: whole box "
          f"{whole}, separable {len(group_deviations(game))}")
    start = time.perf_counter()
    verdicts = [certify_best_response(game, pset, iv).decision.name for _, _, pset, ivs in members for iv in ivs]
    separable = time.perf_counter() - start
    print(f"  separable: {separable:.1f} s, verdicts {dict((v, verdicts.count(v)) for v in sorted(set(verdicts)))}")
    if limit is None:
        return
    index = min(range(len(members)), key=lambda k: len(members[k][2].free))  # the member with fewest free
    ident, _, pset, intervals = members[index]
    start = time.perf_counter()
    verdict = certify_best_response(game, pset, intervals[0]).decision.name
    separable = time.perf_counter() - start
    print(f"  separable, member {ident} alone: {verdict} in {separable:.1f} s")
    with mp.get_context("fork").Pool(1) as pool:
        start = time.perf_counter()
        pending = pool.apply_async(_whole_box, ((data, index),))
        try:
            verdict = pending.get(limit)
            whole_box = time.perf_counter() - start
            print(f"  whole box, member {ident} alone: {verdict} in {whole_box:.1f} s; ratio whole box / separable "
                  f"{whole_box / separable:.0f}")
        except mp.TimeoutError:
            print(f"  whole box, member {ident} alone: not finished after {limit:.0f} s")


def main() -> None:
    limit = float(sys.argv[sys.argv.index("--kuhn3-whole-box") + 1]) if "--kuhn3-whole-box" in sys.argv else None
    billingham()
    kuhn3(limit)


if __name__ == "__main__":
    main()
