"""Regenerate derivations under different conditions and compare the outputs byte for byte.

    python3 benchmarks/determinism.py guts kuhn billingham two_by_two weakest_link jeopardy
    python3 benchmarks/determinism.py guts --sequential      # one condition at a time (no extra load)
    python3 benchmarks/determinism.py all                    # `symgame derive --all`: the whole regeneration

Each game is derived twice with ``symgame derive GAME --out DIR --no-pdf --recompute``: condition
``a`` (PYTHONHASHSEED=0, one BLAS/OpenMP thread) and condition ``b`` (PYTHONHASHSEED=4242, two
threads). By default the two run at the same time, so each also runs on a loaded machine. The
peak memory of each run's whole process tree (the CLI and its worker processes, sampled every
0.2 s from /proc) and its wall time are reported; every file is compared byte for byte (PNG
included). Exit status 1 if any file differs.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

CONDITIONS = {
    "a": {"PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"},
    "b": {"PYTHONHASHSEED": "4242", "OPENBLAS_NUM_THREADS": "2", "OMP_NUM_THREADS": "2", "MKL_NUM_THREADS": "2"},
}


def tree_rss(process: psutil.Process) -> int:
    total = 0
    for p in [process] + process.children(recursive=True):
        try:
            total += p.memory_info().rss
        except psutil.Error:
            pass
    return total


def start(game: str, out: Path, condition: str) -> tuple[subprocess.Popen, psutil.Process]:
    env = dict(os.environ, **CONDITIONS[condition])
    out.mkdir(parents=True, exist_ok=True)
    log = open(out.parent / f"{condition}.log", "w")
    target = ["--all"] if game == "all" else [game]
    proc = subprocess.Popen(["symgame", "derive", *target, "--out", str(out), "--no-pdf", "--recompute"], env=env,
                            stdout=log, stderr=subprocess.STDOUT, text=True)
    return proc, psutil.Process(proc.pid)


def watch(runs: dict) -> dict:
    """Wait for every run; return {condition: (seconds, peak bytes, return code, stderr tail)}."""
    began = time.perf_counter()
    peak = {c: 0 for c in runs}
    finished: dict = {}
    while len(finished) < len(runs):
        for c, (proc, ps) in runs.items():
            if c in finished:
                continue
            if proc.poll() is None:
                peak[c] = max(peak[c], tree_rss(ps))
            else:
                finished[c] = (time.perf_counter() - began, peak[c], proc.returncode, "see the log beside the outputs")
        time.sleep(0.2)
    return finished


def compare(a: Path, b: Path) -> list[str]:
    names = sorted({p.relative_to(a) for p in a.rglob("*") if p.is_file()}
                   | {p.relative_to(b) for p in b.rglob("*") if p.is_file()})
    out = []
    for name in names:
        x, y = a / name, b / name
        if not x.exists() or not y.exists():
            out.append(f"{name}: only in {'b' if not x.exists() else 'a'}")
        elif x.read_bytes() != y.read_bytes():
            xb, yb = x.read_bytes(), y.read_bytes()
            first = next((k for k in range(min(len(xb), len(yb))) if xb[k] != yb[k]), min(len(xb), len(yb)))
            out.append(f"{name}: differs at byte {first}")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="+")
    parser.add_argument("--sequential", action="store_true", help="run the two conditions one after the other")
    parser.add_argument("--keep", type=Path, help="keep the outputs under this directory")
    parser.add_argument("--only", choices=sorted(CONDITIONS), help="one condition only: measure, do not compare")
    args = parser.parse_args()
    root = args.keep or Path(tempfile.mkdtemp(prefix="symgame-determinism-"))
    failures = 0
    print("| game | condition | wall time (s) | peak memory of the process tree (MB) | exit |")
    print("|---|---|---:|---:|---:|")
    for game in args.games:
        results = {}
        conditions = [args.only] if args.only else list(CONDITIONS)
        if args.sequential or args.only:
            for c in conditions:
                results.update(watch({c: start(game, root / game / c, c)}))
        else:
            results = watch({c: start(game, root / game / c, c) for c in CONDITIONS})
        for c, (seconds, peak, code, err) in sorted(results.items()):
            print(f"| {game} | {c} | {seconds:.0f} | {peak / 2**20:.0f} | {code} |", flush=True)
            if code != 0:
                print(f"  {game} ({c}) failed: {err}", file=sys.stderr)
                failures += 1
        differences = [] if args.only else compare(root / game / "a", root / game / "b")
        for line in differences:
            print(f"  DIFFERENT {line}", flush=True)
        failures += len(differences)
    print(f"\noutputs under {root}; {'no difference' if not failures else f'{failures} problem(s)'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
