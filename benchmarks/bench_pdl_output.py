"""Writing and checking a derived decision list: rule values and exact evaluators, old against new.

Run: PYTHONPATH=. python3 benchmarks/bench_pdl_output.py [X1,X2 ...]   (default 8,7 10,9)

Final Jeopardy with the scores X1, X2 is derived once; then, in this process, on its decision list:

* each rule's value ``x^T A y`` (``symgame.export.documents.rule_value``): the baseline sums sympy
  expressions and calls ``factor(cancel(together(...)))``; the new code sums in QQ(p1, p2) with FLINT
  (``symgame.verify.certify.RationalFunctions``) and factors only the reduced quotient. The printed values
  must be identical;
* the exact evaluators of the rules' probabilities (``symgame.model.pdl.Profile``, used by every point
  check): the baseline expands each probability before compiling it, the new code compiles it as it
  stands. Both are evaluated at 50 seeded rational points per probability and must agree.
"""
import random
import sys
import time
from fractions import Fraction

import sympy as sp

from symgame.engine.derive import derive_by_discovery
from symgame.export.documents import rule_value
from symgame.games.jeopardy import build_game
from symgame.model.expr import compile_exact
from symgame.numeric.kernels import game_kernels


def baseline_value(game, profile):
    x, y = profile.strategies
    a = game.stated_payoffs[0]
    total = sum(x[i] * a[i, j] * y[j] for i in range(a.shape[0]) for j in range(a.shape[1])
                if x[i] != 0 and y[j] != 0)
    return sp.factor(sp.cancel(sp.together(total)))


def _value_or_pole(function, point):
    try:
        return function(point)
    except ZeroDivisionError:
        return "pole"


def run(scores) -> None:
    game = build_game(*scores)
    pdl = derive_by_discovery(game, game_kernels).pdl
    profiles = [rule.profile for rule in pdl.rules]

    start = time.perf_counter()
    old = [sp.sstr(baseline_value(game, p)) for p in profiles]
    t_old = time.perf_counter() - start
    start = time.perf_counter()
    new = [sp.sstr(rule_value(game, p)) for p in profiles]
    t_new = time.perf_counter() - start
    assert old == new, "rule values differ"
    print(f"{scores}: {len(profiles)} rule values: sympy {t_old:.2f} s, FLINT {t_new:.2f} s "
          f"({t_old / t_new:.0f}x), identical text", flush=True)

    probabilities = [p for profile in profiles for s in profile.strategies for p in s]
    start = time.perf_counter()
    expanded = [compile_exact(sp.expand(p)) for p in probabilities]
    t_old = time.perf_counter() - start
    start = time.perf_counter()
    direct = [compile_exact(p) for p in probabilities]
    t_new = time.perf_counter() - start
    rng = random.Random(sum(scores))
    points = [{"p1": Fraction(rng.randint(0, 1000), 1000), "p2": Fraction(rng.randint(0, 1000), 1000)}
              for _ in range(50)]
    start = time.perf_counter()
    old_values = [[_value_or_pole(f, q) for q in points] for f in expanded]
    e_old = time.perf_counter() - start
    start = time.perf_counter()
    new_values = [[_value_or_pole(f, q) for q in points] for f in direct]
    e_new = time.perf_counter() - start
    assert old_values == new_values, "evaluators differ"
    print(f"{scores}: {len(probabilities)} evaluators compiled: expanded {t_old:.2f} s, as they stand "
          f"{t_new:.2f} s ({t_old / max(t_new, 1e-9):.0f}x); {len(points)} points each: {e_old:.2f} s against "
          f"{e_new:.2f} s, equal values", flush=True)


if __name__ == "__main__":
    for arg in sys.argv[1:] or ["8,7", "10,9"]:
        run(tuple(int(v) for v in arg.split(",")))
