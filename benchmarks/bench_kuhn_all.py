"""Every equilibrium of 3-card Kuhn poker at a point: symgame's case-splitting engine against Gambit's solvers.

symgame: :func:`derivations.ganzfried2022.kuhn_family.derive_three_card_family` (3^12 best-response cases of the
compiled tree, vertex-deviation refinement to Nash equilibria, z3 certificates, LP cross-check) on 2 processes.
Gambit (pygambit, optional; ``--pygambit SITE`` puts it on the path of its runs only): ``enummixed_solve`` (every
extreme equilibrium of the reduced strategic form, 27 x 64), ``enumpoly_solve`` (behaviour strategies) and, for
scale, ``lcp_solve`` (one equilibrium), each in its own process with a time limit.

Run from the repository root: PYTHONPATH=. python3 benchmarks/bench_kuhn_all.py [--pygambit SITE] [--timeout S]
"""
import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

EFG = Path(__file__).resolve().parents[1] / "outputs" / "kuhn" / "kuhn_3.efg"
SNIPPET = """
import sys, pygambit as gbt
game = gbt.read_efg(sys.argv[1])
method = sys.argv[2]
solver = {"enummixed": lambda: gbt.nash.enummixed_solve(game, rational=True), "enumpoly": lambda: gbt.nash.enumpoly_solve(game),
          "lcp": lambda: gbt.nash.lcp_solve(game, rational=True)}[method]
print(len(solver().equilibria))
"""


def gambit(method: str, site: str, timeout: float) -> str:
    start = time.perf_counter()
    try:
        run = subprocess.run([sys.executable, "-c", SNIPPET, str(EFG), method], capture_output=True, text=True,
                             timeout=timeout, env=dict(os.environ, PYTHONPATH=site))
    except subprocess.TimeoutExpired:
        return f"no result in {timeout:g} s"
    if run.returncode:
        return "error: " + (run.stderr.strip().splitlines() or ["?"])[-1]
    return f"{run.stdout.strip()} equilibria in {time.perf_counter() - start:.2f} s"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pygambit", metavar="SITE")
    parser.add_argument("--timeout", type=float, default=120.0)
    args = parser.parse_args()
    from derivations.ganzfried2022.kuhn_family import derive_three_card_family
    from symgame.engine.atlas import process_map

    t0 = time.perf_counter()
    report = derive_three_card_family(process_map)
    seconds = time.perf_counter() - t0
    print("| method | result |")
    print("|---|---|")
    print(f"| symgame: case-splitting engine, every equilibrium (2 processes) | {len(report.families)} Nash families "
          f"after refinement, in {seconds:.0f} s |")
    if args.pygambit:
        for method in ("enummixed", "enumpoly", "lcp"):
            print(f"| Gambit {method} | {gambit(method, args.pygambit, args.timeout)} |")


if __name__ == "__main__":
    main()
