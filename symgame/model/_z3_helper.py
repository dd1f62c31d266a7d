"""The program behind :mod:`symgame.model.second_opinion`: z3 checks read from stdin, verdicts written to stdout.

Each request is one header line ``<job> <timeout_ms> <bytes> <tactic>`` followed by that many bytes of SMT-LIB 2 text
(what ``z3.Solver.to_smt2`` writes); each answer is one line ``<job> sat|unsat|unknown``. An empty read or the
line ``quit`` ends the program. Ctrl-C is left to the parent (the terminal sends it to the whole process group).
Run as ``python -m symgame.model._z3_helper``; it imports nothing from symgame but the z3 setup.
"""
from __future__ import annotations

import signal
import sys

MAX_REQUEST = 200_000_000  # bytes of one request's SMT-LIB text


def main() -> int:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from .z3env import z3

    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    while True:
        line = stdin.readline()
        if not line or line.strip() == b"quit":
            return 0
        job, timeout_ms, size, tactic = line.split()
        if int(size) > MAX_REQUEST:
            return 2
        text = stdin.read(int(size)).decode()
        try:
            solver = z3.Tactic(tactic.decode()).solver()
            solver.set("timeout", int(timeout_ms))
            solver.from_string(text)
            verdict = str(solver.check())
        except z3.Z3Exception:
            verdict = "unknown"
        stdout.write(job + b" " + verdict.encode() + b"\n")
        stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
