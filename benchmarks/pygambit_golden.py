"""Record Gambit's answers (pygambit ``enumpoly_solve`` and ``gnm_solve``) for small games of our own, as golden
data for ``tests/unit/test_enumpoly.py`` (which compares symgame's exact equilibria with them without needing Gambit).

Usage: ``PYTHONPATH=<pygambit> python3 benchmarks/pygambit_golden.py [OUT]`` (default
``tests/data/pygambit_enumpoly.json``). pygambit is not a dependency of symgame; it was built from its sdist
(version recorded in the output). The games are seeded random integer games written here (not Gambit's files).
"""
from __future__ import annotations

import json
import random
import sys
import tempfile
from pathlib import Path

import pygambit as gbt


def _games() -> list[tuple[str, str]]:
    games = [("sqrt7", 'NFG 1 R "sqrt7" { "1" "2" "3" } { 2 2 2 } 3 1 3 0 0 3 0 3 3 3 1 1 2 3 1 2 1 0 3 1 3 1 1 2')]
    rng = random.Random(20261124)
    for k, shape in enumerate([(2, 2, 2)] * 3 + [(3, 2, 2), (2, 3, 2), (2, 2, 2, 2), (3, 3, 2)]):
        count = 1
        for n in shape:
            count *= n
        cells = " ".join(str(rng.randint(-9, 9)) for _ in range(count * len(shape)))
        players = " ".join(f'"{j + 1}"' for j in range(len(shape)))
        games.append((f"random{k + 1}", f'NFG 1 R "random{k + 1}" {{ {players} }} {{ {" ".join(map(str, shape))} }} '
                                        + cells))
    return games


def _profiles(game, result) -> list[list[list[float]]]:
    return [[[round(float(e[s]), 9) for s in p.strategies] for p in game.players] for e in result.equilibria]


def main(out: Path) -> None:
    data = {"pygambit": gbt.__version__, "games": []}
    for name, text in _games():
        with tempfile.NamedTemporaryFile("w", suffix=".nfg", delete=False) as handle:
            handle.write(text + "\n")
        game = gbt.read_nfg(handle.name)
        Path(handle.name).unlink()
        data["games"].append({"name": name, "nfg": text,
                              "enumpoly": _profiles(game, gbt.nash.enumpoly_solve(game)),
                              "gnm": _profiles(game, gbt.nash.gnm_solve(game))})
        print(name, len(data["games"][-1]["enumpoly"]), len(data["games"][-1]["gnm"]))
    out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("tests/data/pygambit_enumpoly.json"))
