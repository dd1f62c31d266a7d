"""All equilibria of n-player games: symgame's exact enumpoly against Gambit's (pygambit ``enumpoly_solve``,
floating-point polynomial solving), in the same process.

Usage: ``PYTHONPATH=<pygambit> python3 benchmarks/bench_enumpoly.py FILE.nfg ...``. For each game: seconds for
each, the ratio symgame / Gambit, the numbers of isolated equilibria (and symgame's families), and whether
every equilibrium Gambit reports is among symgame's (to 1e-6). Results are recorded in benchmarks/RESULTS.md.
"""
from __future__ import annotations

import sys
import time

from symgame.engine.enumpoly import enumpoly_solve
from symgame.model.gambit import load_nfg


def main(paths: list[str]) -> None:
    import pygambit as gbt

    print("game | symgame s | Gambit s | ratio | symgame isolated (families, complete) | Gambit | Gambit's among ours")
    for path in paths:
        start = time.perf_counter()
        ours = enumpoly_solve(load_nfg(path))
        mine = time.perf_counter() - start
        game = gbt.read_nfg(path)
        start = time.perf_counter()
        theirs = gbt.nash.enumpoly_solve(game).equilibria
        gambit = time.perf_counter() - start
        points = [[list(mix) for mix in e.approx()] for e in ours.equilibria]
        found = all(any(all(abs(float(e[s]) - q[i][k]) < 1e-6 for i, p in enumerate(game.players)
                            for k, s in enumerate(p.strategies)) for q in points) for e in theirs)
        print(f"{path.rsplit('/', 1)[-1]} | {mine:.2f} | {gambit:.2f} | {mine / max(gambit, 1e-3):.1f} | "
              f"{len(ours.equilibria)} ({len(ours.families)}, {ours.complete}) | {len(theirs)} | {found}")


if __name__ == "__main__":
    main(sys.argv[1:])
