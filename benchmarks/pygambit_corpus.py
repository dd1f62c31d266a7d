"""Gambit's own solvers (pygambit) beside symgame on a folder of .nfg/.efg files: solved, equilibria, time.

Usage: ``python3 benchmarks/pygambit_corpus.py DIR [--pygambit SITE] [--timeout S] [--workers N] [--json]``.
pygambit is not a dependency of symgame (it needs a C++ build from its sdist: ``pip wheel pygambit`` then
``pip install --target SITE`` the wheel); ``--pygambit SITE`` puts it on the path of Gambit's runs only. Each file is solved
in a fresh process by both sides with the same time limit:

* pygambit: two players, ``enummixed_solve`` (every extreme equilibrium, rational; on a tree, of its reduced
  strategic form) on the strategic form; three or more players, ``enumpoly_solve``; distinct equilibria counted
  (Gambit lists some several times);
* symgame: what ``benchmarks/gambit_corpus.py --solve`` runs (``symgame solve FILE --all --json`` or the
  certified value of a constant-sum tree), counting the equilibria it lists.

The corpus used for the closing notes is Gambit's ``contrib/games`` folder (not in this repository).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

GAMBIT_SNIPPET = r"""
import sys, pygambit as gbt
path = sys.argv[1]
game = gbt.read_nfg(path) if path.endswith(".nfg") else gbt.read_efg(path)
if len(game.players) == 2:
    result = gbt.nash.enummixed_solve(game, rational=True)
    method = "enummixed"
else:
    result = gbt.nash.enumpoly_solve(game, use_strategic=True)
    method = "enumpoly"
distinct = set()
for eq in result.equilibria:       # Gambit may list one equilibrium several times: count distinct ones
    key = []
    for player in game.players:
        for strategy in player.strategies:
            v = eq[strategy]
            key.append(str(v) if method == "enummixed" else round(float(v), 6))
    distinct.add(tuple(key))
print(method, len(distinct))
"""


def gambit(path: Path, timeout: float, site: str | None = None) -> dict:
    start = time.perf_counter()
    env = dict(os.environ, PYTHONPATH=site) if site else None
    try:
        run = subprocess.run([sys.executable, "-c", GAMBIT_SNIPPET, str(path)], capture_output=True, text=True,
                             timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return {"gambit": "timeout", "gambit_seconds": timeout}
    seconds = round(time.perf_counter() - start, 2)
    if run.returncode == 0 and run.stdout.split():
        method, count = run.stdout.split()[:2]
        return {"gambit": "solved", "gambit_method": method, "gambit_equilibria": int(count),
                "gambit_seconds": seconds}
    err = run.stderr.strip().splitlines()
    return {"gambit": "error", "gambit_reason": err[-1] if err else f"exit {run.returncode}", "gambit_seconds": seconds}


def symgame(path: Path, timeout: float) -> dict:
    start = time.perf_counter()
    try:
        run = subprocess.run([sys.executable, "-m", "symgame", "solve", str(path), "--all", "--json"],
                             capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"symgame": "timeout", "symgame_seconds": timeout}
    seconds = round(time.perf_counter() - start, 2)
    if run.returncode == 0:
        data = json.loads(run.stdout)
        count = len(data.get("equilibria", [])) + len(data.get("families", []))
        return {"symgame": "solved", "symgame_equilibria": count, "symgame_complete": data.get("complete"),
                "symgame_seconds": seconds}
    err = run.stderr.strip().splitlines()
    return {"symgame": "refused" if run.returncode == 2 else "no result" if run.returncode == 3 else "error",
            "symgame_reason": err[-1] if err else f"exit {run.returncode}", "symgame_seconds": seconds}


def row(path: Path, timeout: float, site: str | None = None) -> dict:
    return {"file": path.name, **gambit(path, timeout, site), **symgame(path, timeout)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", type=Path)
    parser.add_argument("--timeout", type=float, default=30.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--pygambit", metavar="SITE", help="a folder holding pygambit (added to its runs' path)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    files = sorted(p for p in args.directory.iterdir() if p.suffix in (".nfg", ".efg"))
    with ThreadPoolExecutor(max_workers=args.workers) as pool:
        rows = list(pool.map(lambda p: row(p, args.timeout, args.pygambit), files))
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        for r in rows:
            print(f"{r['file']:40s} gambit {r['gambit']:8s} {r.get('gambit_equilibria', ''):>4} "
                  f"{r['gambit_seconds']:7.2f}s | symgame {r['symgame']:9s} {r.get('symgame_equilibria', ''):>4} "
                  f"{r['symgame_seconds']:7.2f}s")
    for side in ("gambit", "symgame"):
        outcomes: dict[str, int] = {}
        for r in rows:
            outcomes[r[side]] = outcomes.get(r[side], 0) + 1
        total = sum(r[f"{side}_seconds"] for r in rows)
        print(f"{side}: " + ", ".join(f"{v} {k}" for k, v in sorted(outcomes.items())) + f"; {total:.0f} s in all",
              file=sys.stderr)
    both = [r for r in rows if r["gambit"] == r["symgame"] == "solved"]
    same = sum(r["gambit_equilibria"] == r["symgame_equilibria"] for r in both)
    print(f"solved by both: {len(both)}; same number of equilibria listed: {same}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
