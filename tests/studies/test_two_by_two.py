"""The 2x2 PDL: derived from the game, equal to the paper's, Nash everywhere."""
from fractions import Fraction
from itertools import product

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from derivations.ganzfried2022.seeds import printed_pdl
from symgame.games import two_by_two
from symgame.model.decide import Decision
from symgame.numeric.solvers import bimatrix_equilibria
from symgame.verify.compare import pdls_agree
from symgame.verify.regret import is_nash

NAMES = two_by_two.NAMES


def test_certificate_and_coverage(two_by_two_analysis):
    d = two_by_two_analysis.derivation
    assert d.coverage.proved
    assert two_by_two_analysis.certificate.status is Decision.TRUE
    assert len(d.pdl.rules) == 5


def test_equivalent_to_published_pdl(two_by_two_analysis):
    d = two_by_two_analysis.derivation
    printed = printed_pdl("two_by_two")(d.game)
    assert pdls_agree(d.pdl, printed).status is Decision.TRUE


def test_all_3_pow_8_games_exactly(two_by_two_analysis):
    d = two_by_two_analysis.derivation
    values = [Fraction(-1), Fraction(0), Fraction(1)]
    count = 0
    for combo in product(values, repeat=8):
        point = dict(zip(NAMES, combo))
        assert is_nash(d.game, point, d.pdl.evaluate(point).strategies), point
        count += 1
    assert count == 3**8


def test_100000_random_games(two_by_two_analysis):
    r = two_by_two_analysis.random
    assert r.samples == 100_000 and r.failures == 0 and r.max_regret < 1e-12


def test_pure_rules_give_pure_profiles(two_by_two_analysis):
    pdl = two_by_two_analysis.derivation.pdl
    # a game with a strictly dominant strategy for both: (T, L)
    point = dict(zip(NAMES, map(Fraction, [3, 3, 1, 0, 0, 1, -1, -1])))
    assert pdl.evaluate(point).strategies == ((1, 0), (1, 0))


rationals = st.fractions(min_value=-3, max_value=3, max_denominator=7)


@settings(max_examples=150)
@given(st.lists(rationals, min_size=8, max_size=8))
def test_random_rational_games_exact_and_numeric(values):
    from tests_support import derived_two_by_two

    from symgame.games.two_by_two import build_game

    pdl = derived_two_by_two()
    game = build_game()
    point = dict(zip(NAMES, values))
    choice = pdl.evaluate(point)
    assert is_nash(game, point, choice.strategies)
    a = np.array([[float(point["a"]), float(point["c"])], [float(point["e"]), float(point["g"])]])
    b = np.array([[float(point["b"]), float(point["d"])], [float(point["f"]), float(point["h"])]])
    x = np.array([float(p) for p in choice.strategies[0]])
    y = np.array([float(p) for p in choice.strategies[1]])
    found = bimatrix_equilibria(a, b)
    row_regret = np.max(a @ y) - x @ a @ y
    col_regret = np.max(x @ b) - x @ b @ y
    assert row_regret < 1e-9 and col_regret < 1e-9
    if found and len(set(map(float, values))) == 8:  # generic game: nashpy lists all equilibria
        assert any(np.allclose(x, fx, atol=1e-7) and np.allclose(y, fy, atol=1e-7) for fx, fy in found)
