"""Final Jeopardy: matrix from the rules, the paper's errata, unseen scores through the CLI."""
import json
from fractions import Fraction
from itertools import product

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from tests_support import evaluate_pdl, lp_value, zero_sum_regret

from derivations.cli import main as studies
from derivations.ganzfried2022.seeds import printed_jeopardy_5_3
from symgame.games import jeopardy
from symgame.model.decide import Decision
from symgame.verify.regret import exact_regret

P1, P2 = sp.symbols("p1 p2", real=True)


def simulated_entry(score1, score2, w1, w2, p1, p2):
    """Player 1's payoff by listing the four answer outcomes (independent of the library)."""
    total = Fraction(0)
    for right1, right2 in product((1, 0), repeat=2):
        chance = (p1 if right1 else 1 - p1) * (p2 if right2 else 1 - p2)
        f1 = score1 + w1 if right1 else score1 - w1
        f2 = score2 + w2 if right2 else score2 - w2
        total += chance * (Fraction(1, 2) if f1 > f2 else Fraction(-1, 2) if f1 < f2 else 0)
    return total


@settings(max_examples=30)
@given(st.integers(1, 9), st.data())
def test_matrix_follows_the_rules(score1, data):
    score2 = data.draw(st.integers(0, score1 - 1))
    p1 = data.draw(st.fractions(0, 1, max_denominator=9))
    p2 = data.draw(st.fractions(0, 1, max_denominator=9))
    game = jeopardy.build_game(score1, score2)
    matrix = game.payoffs_at({"p1": p1, "p2": p2})[0]
    for w1, w2 in product(range(score1 + 1), range(score2 + 1)):
        assert matrix[w1][w2] == simulated_entry(score1, score2, w1, w2, p1, p2)


def test_printed_matrix_differs_only_at_wagers_1_2():
    game = jeopardy.build_game(5, 3)
    printed = printed_jeopardy_5_3().payoffs[0].tolist()
    diffs = [(i, j) for i in range(6) for j in range(4) if sp.expand(game.payoffs[0][i, j] - printed[i][j]) != 0]
    assert diffs == [(1, 2)]
    assert sp.expand(game.payoffs[0][1, 2] - (sp.Rational(1, 2) - P2 + P1 * P2)) == 0


@pytest.fixture(scope="session")     # see conftest.py: built once per worker
def jeopardy_5_3():
    from derivations.ganzfried2022.seeds import jeopardy_spec
    from symgame.games.analysis import analyse

    return analyse(jeopardy_spec(5, 3))


def test_derived_pdl_certified_and_checked(jeopardy_5_3):
    a = jeopardy_5_3
    assert a.certificate.status is Decision.TRUE and a.derivation.coverage.proved
    assert a.grid.points == 101 * 101 and a.grid.failures == 0
    assert a.crosscheck.all_exact_nash and a.crosscheck.all_numeric_agree


def test_paper_pdl_right_for_rules_wrong_for_printed_matrix(jeopardy_5_3):
    pub = jeopardy_5_3.published
    assert pub.certificate.status is Decision.TRUE
    printed = pub.printed
    assert printed.certificate.status is Decision.FALSE
    cx = printed.counterexample
    regret = exact_regret(printed_jeopardy_5_3(), cx.point, cx.strategies)
    assert max(regret.regrets) > 0
    # the same profile is an equilibrium of the real game at that point
    assert exact_regret(jeopardy.build_game(5, 3), cx.point, cx.strategies).is_nash


@pytest.mark.parametrize("scores", [(7, 4), (9, 2), (4, 1)])
def test_unseen_scores_through_cli(scores, capsys):
    assert studies(["jeopardy-scores", "--scores", str(scores[0]), str(scores[1]), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["pdl"][-1]["when"] == [] and result["coverage"] == "proved"
    rng_points = [{"p1": Fraction(a, 13), "p2": Fraction(b, 17)} for a, b in [(0, 0), (13, 17), (1, 16), (7, 3),
                                                                             (12, 1), (5, 9), (6, 17), (13, 0)]]
    for point in rng_points:
        profile = evaluate_pdl(result, point)
        x = [profile["Player 1"].get(f"wager {w}", Fraction(0)) for w in range(scores[0] + 1)]
        y = [profile["Player 2"].get(f"wager {w}", Fraction(0)) for w in range(scores[1] + 1)]
        matrix = [[simulated_entry(*scores, w1, w2, point["p1"], point["p2"]) for w2 in range(scores[1] + 1)]
                  for w1 in range(scores[0] + 1)]
        row_regret, col_regret, value = zero_sum_regret(matrix, x, y)
        assert row_regret == 0 and col_regret == 0, point
        assert abs(float(value) - lp_value(matrix)) < 1e-9


@pytest.mark.parametrize("argv, fragment", [
    (["jeopardy-scores", "--scores", "3", "5", "--json"], "X1 > X2 >= 0"),
    (["jeopardy-scores", "--scores", "500", "5"], "beyond the measured range"),
])
def test_bad_scores(argv, fragment, capsys):
    assert studies(argv) == 2
    assert fragment in capsys.readouterr().err
