"""Atlases of three-player games whose equilibria solve quadratics: square roots the previous way and the current way.

Run: PYTHONPATH=. python3 benchmarks/bench_sqrt_atlas.py [GAMES] [SEED]

The games are those of ``tests/unit/test_atlas.py``'s property test (``quadratic_three_player_game``: each player's payoff is bilinear in the others'
frequencies with coefficients affine in a parameter ``c`` in (0, 1), integers in [-2, 2], drawn here by a seeded
``random.Random``). Each game's atlas is built serially, twice per way, alternated, in this process:

- previous: every residual of a lex basis after its formulas are substituted goes through ``sympy.simplify``, and
  square roots are multiplied out by sympy's resultant with ``s**2 - D`` (a subresultant sequence over the
  expression domain, ``parametric._radical_norm_by_resultant``);
- current: a residual whose numerator expands to 0 is dropped without ``simplify``
  (``parametric._numerator_expands_to_zero``), and the resultant is ``A**2 - D*B**2`` from the reduction
  ``A + B*s`` of the numerator modulo ``s**2 - D`` (``parametric.radical_norm``).

Printed: each way's best of two, the ratio, and whether every game's atlas (families, members, ranges, unsolved
cases) is the same.
"""
from __future__ import annotations

import random
import sys
import time

from symgame.engine import parametric, ranges
from symgame.engine.atlas import build_atlas, serial_map
from symgame.model.polygame import PolynomialGame
from tests.unit.test_atlas import quadratic_three_player_game


def random_game(rng: random.Random) -> PolynomialGame:
    return quadratic_three_player_game([(rng.randint(-2, 2), rng.randint(-2, 2)) for _ in range(6)])


def _ways():
    current_norm, current_zero = parametric.radical_norm, parametric._numerator_expands_to_zero

    def use(previous: bool) -> None:
        norm = parametric._radical_norm_by_resultant if previous else current_norm
        parametric.radical_norm = ranges.radical_norm = norm
        parametric._numerator_expands_to_zero = (lambda expr: False) if previous else current_zero
    return use


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 12
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 2026
    rng = random.Random(seed)
    games = [random_game(rng) for _ in range(count)]
    use = _ways()
    walls: dict[str, list[float]] = {"previous": [], "current": []}
    found: dict[str, list[str]] = {}
    for _ in range(2):
        for way in ("previous", "current"):
            use(way == "previous")
            start = time.perf_counter()
            atlases = [build_atlas(game, serial_map) for game in games]
            walls[way].append(time.perf_counter() - start)
            found[way] = [str((a.families, a.unsolved)) for a in atlases]
            print(f"{way}: {walls[way][-1]:.2f} s, {sum(len(a.families) for a in atlases)} families in {count} games",
                  flush=True)
    use(False)
    best = {way: min(w) for way, w in walls.items()}
    print(f"best of two: previous {best['previous']:.2f} s, current {best['current']:.2f} s, "
          f"ratio {best['previous'] / best['current']:.2f}; same atlases: {found['previous'] == found['current']}")


if __name__ == "__main__":
    main()
