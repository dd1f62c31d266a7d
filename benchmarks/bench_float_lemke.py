"""One equilibrium of large two-player trees: floating-point Lemke with an exact basis solve, per file.

    python3 benchmarks/bench_float_lemke.py FILE.efg [FILE.efg ...]

Each file in a fresh process (reading included): the path that ended first (covering vector of ones or the
uniform prior's), its pivots, how the exact equilibrium was obtained, the exact payoffs, the regrets (0), wall
time and the process's peak memory -- the table "Lemke's algorithm in floating point" of ``RESULTS.md``.
``symgame.numeric.sequence_lemke.float_guided_equilibrium`` is called directly, so trees below the dense limit
(2,000 LCP rows, where ``symgame solve`` pivots exactly) take the floating-point route too.
"""
from __future__ import annotations

import subprocess
import sys

CHILD = """
import resource, sys, time
from symgame.model.gambit import read_efg
from symgame.numeric.sequence_lemke import float_guided_equilibrium, lcp_size
start = time.perf_counter()
tree = read_efg(open(sys.argv[1]).read(), sys.argv[1])
eq = float_guided_equilibrium(tree)
payoffs = ", ".join(str(v) if len(str(v)) < 24 else f"{float(v):.12g} (exact)" for v in eq.payoffs)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"| {sys.argv[1].rsplit('/', 1)[-1]} | {lcp_size(tree):,} | {eq.method} | {payoffs} | "
      f"{eq.regrets[0]}, {eq.regrets[1]} | {time.perf_counter() - start:.1f} s, {peak:.0f} MB |")
"""


def main() -> None:
    print("| file | LCP rows | method | payoffs | regrets | whole run |")
    print("|---|---:|---|---|---|---|")
    for path in sys.argv[1:]:
        done = subprocess.run([sys.executable, "-c", CHILD, path], capture_output=True, text=True)
        print(done.stdout.strip() if done.returncode == 0 else f"| {path} | - | {done.stderr.strip()[-120:]} |",
              flush=True)


if __name__ == "__main__":
    main()
