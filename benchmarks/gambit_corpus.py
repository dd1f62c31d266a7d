"""Run symgame's Gambit readers (and writers, by round trip) over a folder of .nfg/.efg files.

Usage: ``python3 benchmarks/gambit_corpus.py DIR [--solve] [--timeout S] [--jobs N] [--json]``. For each file: read OK
(players, size, constant sum, perfect recall) or refused with the one-line reason; a traceback is a bug and is
reported as FAILED. With ``--solve`` each file also goes through ``symgame solve`` in a fresh process (.nfg:
``--all``; .efg: the certified value, and ``--all`` where that is refused): solved (exit 0), refused with its
one-line reason (exit 2), no result (exit 3), timeout, or FAILED. ``--jobs N`` runs N files at a time.
The corpus used for the closing notes is Gambit's ``contrib/games`` folder (not in this repository).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
import traceback
from pathlib import Path

from symgame.errors import SymgameError
from symgame.model.gambit import GambitTree, StrategicGame, load_gambit, read_efg, read_nfg, write_efg, write_nfg


def survey(path: Path) -> dict:
    start = time.perf_counter()
    row: dict = {"file": path.name}
    try:
        game = load_gambit(path)
        if isinstance(game, StrategicGame):
            again = read_nfg(write_nfg(game))
            row.update(kind="nfg", players=len(game.players), shape="x".join(map(str, game.shape)),
                       constant_sum=None if game.constant_sum() is None else str(game.constant_sum()),
                       round_trip=again == game)
        else:
            assert isinstance(game, GambitTree)
            again_tree = read_efg(write_efg(game))
            bad = game.imperfect_recall()
            row.update(kind="efg", players=len(game.players), nodes=len(game.nodes),
                       constant_sum=None if game.constant_sum() is None else str(game.constant_sum()),
                       perfect_recall=bad is None,
                       imperfect_at=None if bad is None else f"player {bad[0]}, information set {bad[1].number}",
                       round_trip=[leaf.payoffs for leaf in again_tree.leaves()]
                       == [leaf.payoffs for leaf in game.leaves()] and len(again_tree.nodes) == len(game.nodes))
        row["status"] = "read"
    except SymgameError as exc:
        row.update(status="refused", reason=str(exc))
    except Exception:                                    # noqa: BLE001 - a traceback is what we look for
        row.update(status="FAILED", reason=traceback.format_exc().strip().splitlines()[-1])
    row["seconds"] = round(time.perf_counter() - start, 3)
    return row


def _run(path: Path, timeout: float, every: bool) -> dict:
    start = time.perf_counter()
    command = [sys.executable, "-m", "symgame", "solve", str(path), "--json"] + (["--all"] if every else [])
    try:
        run = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"solve": "timeout", "solve_seconds": timeout}
    seconds = round(time.perf_counter() - start, 2)
    err = run.stderr.strip().splitlines()
    method = "all equilibria" if every else "certified value"
    if run.returncode == 0:
        return {"solve": "solved", "method": method, "solve_seconds": seconds}
    if run.returncode in (2, 3) and len(err) == 1:
        return {"solve": "refused" if run.returncode == 2 else "no result", "solve_reason": err[0],
                "solve_seconds": seconds}
    return {"solve": "FAILED", "solve_reason": err[-1] if err else f"exit {run.returncode}", "solve_seconds": seconds}


def solve(path: Path, timeout: float) -> dict:
    """``.nfg``: every equilibrium (``--all``); ``.efg``: the certified value (constant-sum), else ``--all``."""
    if path.suffix == ".nfg":
        return _run(path, timeout, every=True)
    first = _run(path, timeout, every=False)
    if first["solve"] != "refused":
        return first
    second = _run(path, timeout, every=True)
    if second["solve"] == "refused":
        second["solve_reason"] = first["solve_reason"] + " | --all: " + second["solve_reason"]
    return second


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", type=Path)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--solve", action="store_true", help="also run symgame solve on each file")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per solve (default 60)")
    parser.add_argument("--jobs", type=int, default=1, help="files solved at a time (default 1)")
    args = parser.parse_args(argv)
    rows = [survey(p) for p in sorted(args.directory.iterdir()) if p.suffix in (".nfg", ".efg")]
    if args.solve:
        from concurrent.futures import ThreadPoolExecutor  # each solve is its own process

        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            for row, answer in zip(rows, pool.map(lambda r: solve(args.directory / r["file"], args.timeout), rows)):
                row.update(answer)
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        for r in rows:
            detail = r.get("reason") or ", ".join(f"{k}={v}" for k, v in r.items()
                                                  if k not in ("file", "status", "seconds"))
            print(f"{r['status']:8s} {r['file']:40s} {detail}")
    counts = {s: sum(r["status"] == s for r in rows) for s in ("read", "refused", "FAILED")}
    print(f"{len(rows)} files: " + ", ".join(f"{v} {k}" for k, v in counts.items()), file=sys.stderr)
    failed = counts["FAILED"]
    if args.solve:
        outcomes = ("solved", "refused", "no result", "timeout", "FAILED")
        solved = {s: sum(r.get("solve") == s for r in rows) for s in outcomes}
        print("symgame solve: " + ", ".join(f"{v} {k}" for k, v in solved.items()), file=sys.stderr)
        failed += solved["FAILED"]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
