"""symgame on trees exported by OpenSpiel, beside OpenSpiel's own sequence-form LP, on the same machine.

    python3 benchmarks/bench_openspiel.py DIR [--openspiel-python PYTHON]

DIR holds ``.efg`` files written by ``open_spiel.python.algorithms.gambit.export_gambit`` (their title is
the game string OpenSpiel loads). For each file: ``symgame solve FILE --json`` in a fresh process (wall
time and peak memory of the whole process, the exact value, whether it is certified) and, with
``--openspiel-python`` (an interpreter with ``open_spiel``, ``cvxpy`` and ``ecos``; OpenSpiel is not a
dependency of symgame), OpenSpiel's ``sequence_form_lp.solve_zero_sum_game`` on the game the title names
(the LP's own time, the whole process's time and peak memory, the float value). Then, in this process, the
rounding certificate against the optimal-face certificate (:mod:`symgame.verify.sequence_face`) on
symgame's own Leduc tree: the rounding is the baseline.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

OPENSPIEL_SCRIPT = """
import resource, sys, time
import pyspiel
from open_spiel.python.algorithms import sequence_form_lp
game = pyspiel.load_game(sys.argv[1])
start = time.perf_counter()
value = sequence_form_lp.solve_zero_sum_game(game)[0]
print(repr(float(value)), time.perf_counter() - start)
"""


def _run(command: list[str]) -> tuple[subprocess.CompletedProcess, float, float]:
    """Run ``command``; its wall time and its own peak memory (``wait4``'s resource usage, MB)."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = process.stdout.read(), process.stderr.read()      # type: ignore[union-attr]
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - start
    return subprocess.CompletedProcess(command, process.returncode, out, err), seconds, usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("directory", type=Path)
    parser.add_argument("--openspiel-python")
    args = parser.parse_args()
    print("| file | symgame value | certified | symgame process (s, MB) | OpenSpiel LP value | OpenSpiel LP (s) | "
          "OpenSpiel process (s, MB) |")
    print("|---|---|---|---|---|---|---|")
    for path in sorted(args.directory.glob("*.efg")):
        done, seconds, mb = _run([sys.executable, "-m", "symgame", "solve", str(path), "--json"])
        if done.returncode == 0:
            data = json.loads(done.stdout)
            value, certified = data["value"] or "-", data["certified"]
            shown = value if len(value) < 24 else f"{float(Fraction(value)):.14f} (exact, {len(value)} chars)"
        else:
            shown, certified = done.stderr.strip().split(": ", 2)[-1][:70], "-"
        theirs = ("-", "-", "-")
        if args.openspiel_python:
            title = path.read_text().split('"')[1]
            other, other_seconds, other_mb = _run([args.openspiel_python, "-c", OPENSPIEL_SCRIPT, title])
            if other.returncode == 0:
                value_text, lp_seconds = other.stdout.split()
                theirs = (value_text, f"{float(lp_seconds):.2f}", f"{other_seconds:.2f}, {other_mb:.0f}")
            else:
                theirs = (other.stderr.strip().splitlines()[-1][:60], "-", "-")
        print(f"| {path.name} | {shown} | {certified} | {seconds:.2f}, {mb:.0f} | {theirs[0]} | {theirs[1]} | "
              f"{theirs[2]} |")
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
