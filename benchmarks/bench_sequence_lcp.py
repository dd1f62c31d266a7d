"""One equilibrium of two-player game trees: Lemke's algorithm on the sequence form against Lemke-Howson on the
strategic form (the previous route), in the same process.

Usage: ``python3 benchmarks/bench_sequence_lcp.py [DIR]``: every two-player ``.efg`` with perfect recall in DIR
(for the closing notes, Gambit's ``contrib/games``, not in this repository); without DIR, seeded random trees of
growing depth (built by the tests' generator). Per tree: sequence-form rows, pivots, seconds, verified; the
strategic form's size and Lemke-Howson's seconds (or "refused" above 10^5 pure profiles) and the ratio.
Results are recorded in benchmarks/RESULTS.md.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

from symgame.engine.lemke_howson import lemke_howson_solve
from symgame.engine.sequence_lcp import sequence_game, sequence_lcp_solve
from symgame.model.gambit import GambitError, load_efg, read_efg, tree_to_strategic


def trees(argv: list[str]):
    if argv:
        for path in sorted(Path(argv[0]).glob("*.efg")):
            tree = load_efg(path)
            if len(tree.players) == 2 and tree.imperfect_recall() is None:
                yield path.name, tree
        return
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from test_sequence_lcp import random_tree

    for depth in (4, 6, 8):
        for seed in (1, 2):
            yield f"random depth {depth}, seed {seed}", read_efg(random_tree(seed, depth))


def main(argv: list[str]) -> None:
    print("tree | sequences | pivots | sequence form s | verified | strategic form | Lemke-Howson s | ratio")
    for name, tree in trees(argv):
        start = time.perf_counter()
        eq = sequence_lcp_solve(tree)
        mine = time.perf_counter() - start
        sizes = tuple(len(s) for s in sequence_game(tree).sequences)
        row = f"{name} | {sizes[0]} + {sizes[1]} | {eq.pivots} | {mine:.3f} | {eq.verified}"
        start = time.perf_counter()
        try:
            form = tree_to_strategic(tree)
        except GambitError:
            print(row + " | refused (over 10^5 pure profiles) | - | -", flush=True)
            continue
        rows, cols = form.shape
        a = [[form.payoff((i, j))[0] for j in range(cols)] for i in range(rows)]
        b = [[form.payoff((i, j))[1] for j in range(cols)] for i in range(rows)]
        lemke_howson_solve(a, b, 0)
        theirs = time.perf_counter() - start
        print(row + f" | {rows} x {cols} | {theirs:.3f} | {theirs / max(mine, 1e-9):.1f}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
