"""Start-up of a small solve: `symgame solve` on a 2x2 game with a parameter, against the interpreter alone.

Run: python3 benchmarks/bench_startup.py [REPEATS]

Both are timed in this process as child processes, alternated, best of REPEATS (default 5): the bare
interpreter (`python3 -c pass`), `symgame --help` (argument parsing only), and the solve (examples/battle_weight.yaml,
battle of the sexes with a weight p in (0, 1): every branch, the decision list, the z3 certificate, 40 sample points checked
exactly and against nashpy's support enumeration). Also listed: which heavy libraries the solve imported.
Target (issue 39): the solve under 1 s of wall time on the project's 2-core machine.
"""
import subprocess
import sys
import time
from pathlib import Path

GAME = Path(__file__).resolve().parents[1] / "examples" / "battle_weight.yaml"


def wall(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    game = GAME
    commands = {
        "python3 -c pass": [sys.executable, "-c", "pass"],
        "symgame --help": [sys.executable, "-m", "symgame", "--help"],
        "symgame solve battle_weight.yaml": [sys.executable, "-m", "symgame", "solve", str(game)],
    }
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(repeats):
        for name, command in commands.items():
            times[name].append(wall(command))
    probe = ("import sys\nfrom symgame.cli import main\nmain(['solve', sys.argv[1]])\n"
             "print(sorted(m for m in ('sympy', 'z3', 'numpy', 'scipy.optimize', 'nashpy', 'networkx', "
             "'matplotlib', 'jinja2') if m in sys.modules))")
    imported = subprocess.run([sys.executable, "-c", probe, str(game)], capture_output=True, text=True,
                              check=True).stdout.splitlines()[-1]
    base = min(times["python3 -c pass"])
    for name, values in times.items():
        print(f"{name}: best {min(values):.2f} s, median {sorted(values)[len(values) // 2]:.2f} s, "
              f"{min(values) / base:.1f}x the bare interpreter")
    print(f"heavy libraries the solve imports: {imported}")


if __name__ == "__main__":
    main()
