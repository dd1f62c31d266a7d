"""The compiled interval search (symgame.engine._search_kernel) against the Python one it replaces: the same
surviving cases, nodes and cuts for every task, and the same refutations, on random and seed games."""
import random

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from symgame.engine.casesplit import CaseSearch, detect_structure, parameter_pieces
from symgame.games import billingham
from symgame.model.parameters import parse_domain
from symgame.model.polygame import PolynomialGame, PolyPlayer

pytest.importorskip("numba")


def _random_game(seed: int, domain: str) -> PolynomialGame:
    """Three players with two frequencies each; payoffs with products of others' frequencies and powers of the
    parameter (so contraction, squares and the tail piece all occur)."""
    rng = random.Random(seed)
    names = (("x1", "x2"), ("y1", "y2"), ("z1", "z2"))
    t = sp.Symbol("t", real=True)
    variables = [sp.Symbol(v, real=True) for group in names for v in group]
    players = []
    for k, own in enumerate(names):
        others = [v for v in variables if str(v) not in own]
        payoff = 0
        for v in own:
            s = sp.Symbol(v, real=True)
            for o in rng.sample(others, 3):
                payoff += rng.randint(-3, 3) * s * o * rng.choice([1, t, t ** 2, others[0]])
            payoff += (rng.randint(-2, 2) + rng.randint(-2, 2) * t) * s
        players.append(PolyPlayer(str(k + 1), own, sp.expand(payoff)))
    return PolynomialGame("random", (parse_domain("t", domain),), tuple(players))


def _both_ways(game: PolynomialGame, refutations: int = 40) -> int:
    search = CaseSearch(game, detect_structure(game), parameter_pieces(game))
    tasks = search.tasks()
    search.use_compiled = False
    python = [search.run(t) for t in tasks]
    search.use_compiled = True
    compiled = [search.run(t) for t in tasks]
    assert compiled == python
    cases = sorted({c for r in python for c in r.survivors})
    sample = random.Random(0).sample(cases, min(refutations, len(cases)))
    for k in range(len(search.pieces)):
        search.use_compiled = False
        expected = [search.refute(k, c, 300) for c in sample]
        search.use_compiled = True
        assert [search.refute(k, c, 300) for c in sample] == expected
    return len(cases)


@settings(max_examples=12)
@given(st.integers(0, 10 ** 6), st.sampled_from(["[0, 3]", "[-1, 2]", "[2, oo)"]))
def test_the_compiled_search_visits_and_cuts_exactly_as_the_python_one(seed, domain):
    _both_ways(_random_game(seed, domain))


def test_billinghams_search_is_the_same_compiled():
    assert _both_ways(billingham.build_game(), refutations=25) == 1889      # the survivors of benchmarks/RESULTS.md
