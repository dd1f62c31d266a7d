"""symgame on trees exported by OpenSpiel, beside OpenSpiel's own solvers, on the same machine, one run each.

    python3 benchmarks/bench_openspiel.py DIR [--openspiel-python PYTHON] [--timeout SECONDS] [--cfr-target E]

DIR holds ``.efg`` files written as ``open_spiel.python.algorithms.gambit.export_gambit`` writes them
(``benchmarks/openspiel_export.py`` writes the same bytes in linear time; their title is the game string
OpenSpiel loads). For each file: ``symgame solve FILE --json`` in a fresh process (wall time and peak memory
of the whole process, the engine, the exact payoffs of the equilibrium, whether its certificate is proved).
With ``--openspiel-python`` (an interpreter with ``open_spiel``, ``cvxpy`` and ``ecos``; OpenSpiel is not a
dependency of symgame), for two-player zero-sum games: OpenSpiel's ``sequence_form_lp.solve_zero_sum_game``
(the LP's own time and float value) and its C++ CFR+ (``pyspiel.CFRPlusSolver``) until the exploitability of
the average policy is at most ``--cfr-target`` (checked at doubling iteration counts; the time includes the
checks), each in its own process (wall time and peak memory). OpenSpiel has no solver with an equilibrium
guarantee for general-sum or three-player trees; those rows say so. Then, in this process, the rounding
certificate against the optimal-face certificate (:mod:`symgame.verify.sequence_face`) on symgame's own Leduc
tree: the rounding is the baseline.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
from fractions import Fraction
from pathlib import Path

OPENSPIEL_LP = """
import sys, time
import pyspiel
from open_spiel.python.algorithms import sequence_form_lp
game = pyspiel.load_game(sys.argv[1])
start = time.perf_counter()
value = sequence_form_lp.solve_zero_sum_game(game)[0]
print(repr(float(value)), time.perf_counter() - start)
"""

OPENSPIEL_CFR = """
import sys, time
import pyspiel
game, target = pyspiel.load_game(sys.argv[1]), float(sys.argv[2])
solver, done, check = pyspiel.CFRPlusSolver(game), 0, 8
start = time.perf_counter()
while True:
    while done < check:
        solver.evaluate_and_update_policy()
        done += 1
    gap = pyspiel.exploitability(game, solver.average_policy())
    if gap <= target or time.perf_counter() - start > float(sys.argv[3]):
        break
    check *= 2
print(done, gap, time.perf_counter() - start)
"""


def _run(command: list[str], timeout: float) -> tuple[subprocess.CompletedProcess | None, float, float]:
    """Run ``command``; its wall time and its own peak memory (``wait4``'s resource usage, MB); ``None`` past
    ``timeout`` seconds (the process is killed)."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    timer = threading.Timer(timeout, process.kill)
    timer.start()
    streams: dict[str, str] = {}
    readers = [threading.Thread(target=lambda name=name, stream=stream: streams.__setitem__(name, stream.read()))
               for name, stream in (("out", process.stdout), ("err", process.stderr))]
    for reader in readers:
        reader.start()
    for reader in readers:
        reader.join()
    _, status, usage = os.wait4(process.pid, 0)
    fired = not timer.is_alive() and timer.finished.is_set()
    timer.cancel()
    seconds = time.perf_counter() - start
    if fired and os.WIFSIGNALED(status):
        return None, seconds, usage.ru_maxrss / 1024
    process.returncode = os.waitstatus_to_exitcode(status)
    return (subprocess.CompletedProcess(command, process.returncode, streams["out"], streams["err"]), seconds,
            usage.ru_maxrss / 1024)


def _failure(done: subprocess.CompletedProcess, mb: float) -> str:
    """A failed run in a table cell: its last error line, or how it ended."""
    lines = done.stderr.strip().splitlines()
    if lines:
        return lines[-1][:60]
    how = f"killed by signal {-done.returncode}" if done.returncode < 0 else f"exit status {done.returncode}"
    return f"{how}, no message (peak {mb:.0f} MB)"


def _short(text: str) -> str:
    return text if len(text) < 24 else f"{float(Fraction(text)):.14f} (exact, {len(text)} chars)"


def symgame_row(path: Path, timeout: float) -> tuple[str, str, str, str]:
    """Engine, payoffs, certificate status and (seconds, MB) of ``symgame solve FILE --json``."""
    done, seconds, mb = _run([sys.executable, "-m", "symgame", "solve", str(path), "--json"], timeout)
    if done is None:
        return "-", f"stopped at {timeout:.0f} s", "-", f"{seconds:.1f}, -"
    if done.returncode != 0:
        return "-", done.stderr.strip().split(": ", 2)[-1][:80], "-", f"{seconds:.2f}, {mb:.0f}"
    data = json.loads(done.stdout)
    payoffs = data["equilibria"][0]["payoffs"]
    shown = ", ".join(_short(v) for v in payoffs.values())
    return data["engine"]["name"], shown, data["certificate"]["status"], f"{seconds:.2f}, {mb:.0f}"


def openspiel_rows(python: str, title: str, timeout: float, target: float) -> tuple[str, str]:
    """OpenSpiel's LP (value, LP seconds, process seconds and MB) and CFR+ (iterations, exploitability,
    seconds, process seconds and MB) on the game ``title`` names."""
    lp, lp_seconds, lp_mb = _run([python, "-c", OPENSPIEL_LP, title], timeout)
    if lp is None:
        lp_cell = f"stopped at {timeout:.0f} s"
    elif lp.returncode != 0:
        lp_cell = _failure(lp, lp_mb)
    else:
        value, own = lp.stdout.split()
        lp_cell = f"{value} ({float(own):.2f} s; process {lp_seconds:.2f} s, {lp_mb:.0f} MB)"
    cfr, cfr_seconds, cfr_mb = _run([python, "-c", OPENSPIEL_CFR, title, str(target), str(timeout)], timeout + 60)
    if cfr is None or cfr.returncode != 0:
        cfr_cell = "-" if cfr is None else _failure(cfr, cfr_mb)
    else:
        iterations, gap, own = cfr.stdout.split()
        cfr_cell = (f"{iterations} iterations, exploitability {float(gap):.1e} ({float(own):.2f} s; "
                    f"process {cfr_seconds:.2f} s, {cfr_mb:.0f} MB)")
    return lp_cell, cfr_cell


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("directory", type=Path)
    parser.add_argument("--openspiel-python")
    parser.add_argument("--timeout", type=float, default=600.0)
    parser.add_argument("--cfr-target", type=float, default=1e-3)
    args = parser.parse_args()
    print("| file | symgame engine | symgame payoffs (exact) | certificate | symgame process (s, MB) | "
          f"OpenSpiel LP | OpenSpiel CFR+ to exploitability {args.cfr_target:g} |")
    print("|---|---|---|---|---|---|---|")
    for path in sorted(args.directory.glob("*.efg")):
        engine, shown, status, process = symgame_row(path, args.timeout)
        theirs = ("-", "-")
        if args.openspiel_python:
            title = path.read_text().split('"')[1]
            header = path.read_text().split("\n", 1)[0]
            if header.count('"Pl') == 2 and engine in ("sequence-form LP", "-"):
                theirs = openspiel_rows(args.openspiel_python, title, args.timeout, args.cfr_target)
            else:
                theirs = ("no solver with an equilibrium guarantee for this kind of game",) * 2
        print(f"| {path.name} | {engine} | {shown} | {status} | {process} | {theirs[0]} | {theirs[1]} |",
              flush=True)
    leduc_certificates()


def leduc_certificates() -> None:
    from symgame.games.leduc import build_game
    from symgame.model.sequence_form import build_sequence_form
    from symgame.numeric.sequence_lp import solve_sequence_form
    from symgame.verify.best_response import certify_value

    form = build_sequence_form(build_game())
    plans = solve_sequence_form(form).plans
    start = time.perf_counter()
    rounded = certify_value(form, plans, denominators=(12, 100, 1000, 10**4, 10**5, 10**6, 10**8))
    total = time.perf_counter() - start
    start = time.perf_counter()
    baseline_only = [certify_value(form, plans, denominators=(d,), face=False) for d in (10**6, 10**8)]
    baseline = time.perf_counter() - start
    gaps = ", ".join(f"{float(c.upper - c.lower):.2e}" for c in baseline_only)
    print(f"\nLeduc (symgame's tree): rounding the behaviour probabilities to denominators 10^6 and 10^8 leaves "
          f"gaps of {gaps} between the exact bounds ({baseline:.2f} s for both); with the optimal face: "
          f"certified={rounded.certified} ({rounded.method}) in {total:.2f} s for the whole certificate")


if __name__ == "__main__":
    main()
