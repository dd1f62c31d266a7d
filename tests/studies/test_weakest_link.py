"""Weakest Link: payoffs from the rules, corrected rule, errata and the p2 <= p1/2 claim."""
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from symgame.model.decide import Decision
from symgame.verify.regret import exact_regret, expected_payoffs, is_nash

unit = st.fractions(min_value=0, max_value=1, max_denominator=12)


def hand_payoffs(W, p1, p2, y1, y2):
    """The four opponent vote combinations worked out by hand (independent oracle)."""
    tie = W * (p1 + p2) / 3
    o1_you_o2_o1 = y1 * (1 - y2)        # you vs opponent 1 one vote each after your vote
    o1_o2_o2_you = (1 - y1) * y2
    each_other = (1 - y1) * (1 - y2)    # the case the paper leaves out
    vote_1 = o1_you_o2_o1 * W * p2 + o1_o2_o2_you * tie + each_other * W * p2
    vote_2 = o1_you_o2_o1 * tie + o1_o2_o2_you * W * p1 + each_other * W * p1
    return [vote_1, vote_2]


@settings(max_examples=200)
@given(st.fractions(min_value=Fraction(1, 10), max_value=100, max_denominator=10), unit, unit, unit, unit)
def test_payoffs_and_rule_exact(W, p1, p2, y1, y2):
    from tests_support import derived_weakest_link

    from symgame.games.weakest_link import build_game

    if not p1 > p2:
        p1, p2 = max(p1, p2) + Fraction(1, 100), min(p1, p2)
        if p1 > 1:
            return
    game = build_game()
    point = {"W": W, "p1": p1, "p2": p2, "y1": y1, "y2": y2}
    assert expected_payoffs(game, point, [[Fraction(1), Fraction(0)]])[0] == hand_payoffs(W, p1, p2, y1, y2)
    choice = derived_weakest_link().evaluate(point)
    assert is_nash(game, point, choice.strategies)
    best = max(hand_payoffs(W, p1, p2, y1, y2))
    assert sum(p * v for p, v in zip(choice.strategies[0], hand_payoffs(W, p1, p2, y1, y2))) == best


def test_corrected_rule_certified(weakest_link_analysis):
    assert weakest_link_analysis.certificate.status is Decision.TRUE
    assert weakest_link_analysis.derivation.coverage.proved
    assert weakest_link_analysis.crosscheck.all_exact_nash
    assert weakest_link_analysis.crosscheck.all_numeric_agree


def test_printed_rule_refuted_with_exact_counterexample(weakest_link_analysis):
    pub = weakest_link_analysis.published
    assert pub.certificate.status is Decision.FALSE
    assert pub.agreement.status is Decision.FALSE
    cx = pub.counterexample
    game = weakest_link_analysis.derivation.game
    report = exact_regret(game, cx.point, cx.strategies)
    assert report.regrets[0] > 0
    # the counterexample holds for either reading of the lost relation symbol (> or >=)
    printed = pub.pdl.rules[0].region.atoms[0]
    from symgame.model.region import Atom
    assert Atom(printed.expr, ">").holds_at(cx.point)


def test_printed_rule_wrong_when_opponents_vote_for_each_other(weakest_link_analysis):
    pub = weakest_link_analysis.published
    game = weakest_link_analysis.derivation.game
    point = {"W": Fraction(1), "p1": Fraction(3, 4), "p2": Fraction(1, 2), "y1": Fraction(0), "y2": Fraction(0)}
    choice = pub.pdl.evaluate(point)  # printed inequality reads 0 >= 0: vote for opponent 1
    assert choice.strategies == ((1, 0),)
    assert exact_regret(game, point, choice.strategies).regrets[0] == Fraction(1, 4)


def test_claim_p2_at_most_half_p1(weakest_link_analysis):
    first, converse = weakest_link_analysis.claims
    assert first.certificate.status is Decision.TRUE
    assert converse.certificate.status is Decision.FALSE
    cx = converse.counterexample
    assert cx.point["p2"] > cx.point["p1"] / 2
    assert exact_regret(weakest_link_analysis.derivation.game, cx.point, cx.strategies).regrets[0] > 0
