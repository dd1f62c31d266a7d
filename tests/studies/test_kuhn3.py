"""Three-player Kuhn poker from the rules (symgame.games.kuhn3)."""
import pytest
import sympy as sp

from symgame.games import billingham, kuhn3
from symgame.model.parameters import parameter_symbol

# Billingham's names (arXiv:1707.01392, section 2) for the eleven frequencies of his simplified game
BILLINGHAM_NAMES = {"A1_o": "a1", "Q1_o": "b1", "A2_x": "a2", "Q2_x": "b2", "Q3_xx": "b3",
                    "K1_xxb": "c1", "K2_b": "c2", "K3_xb": "c3", "K1_xbf": "d1", "K2_xxbf": "d2", "K3_bf": "d3"}


def billingham_restrictions(variables):
    fixed = {}
    for v in variables:
        card, hist = v[0], v[3:]
        opening = hist in ("o", "x", "xx")
        if card == "J" or (card == "K" and opening):
            fixed[v] = 0            # a jack checks and folds; a king never bets
        elif not opening and card == "A":
            fixed[v] = 1            # an ace calls
        elif not opening and card == "Q":
            fixed[v] = 0            # a queen folds
        elif not opening and card == "K" and hist.endswith("c"):
            fixed[v] = 0            # after a bet and a call only an ace calls
    fixed["A3_xx"] = 1              # player 3 bets an ace when checked to
    return fixed


@pytest.fixture(scope="session")     # see conftest.py: built once per worker
def full_game():
    return kuhn3.build_game(4)


def test_the_whole_game_has_48_information_sets_and_is_zero_sum(full_game):
    assert [len(p.variables) for p in full_game.players] == [16, 16, 16]
    assert sp.expand(sum(p.payoff for p in full_game.players)) == 0
    # player 1 acts first with each card, and answers a bet in three situations
    assert {v[3:] for v in full_game.players[0].variables} == {"o", "xbc", "xbf", "xxb"}
    assert {v[3:] for v in full_game.players[1].variables} == {"x", "b", "xxbc", "xxbf"}
    assert {v[3:] for v in full_game.players[2].variables} == {"xx", "bc", "bf", "xb"}


def test_restricted_to_billinghams_rules_it_is_billinghams_game(full_game):
    """Two independent builders of the tree (this one and symgame.games.billingham) agree exactly."""
    fixed = billingham_restrictions(full_game.variables)
    game = kuhn3.build_game(4, fixed)
    assert sorted(game.variables) == sorted(BILLINGHAM_NAMES)
    rename = {parameter_symbol(k): parameter_symbol(v) for k, v in BILLINGHAM_NAMES.items()}
    reference = billingham.profits_from_rules()
    for k, player in enumerate(game.players):
        assert sp.expand(player.payoff.xreplace(rename) - reference[k + 1]) == 0


def test_payouts_by_hand(full_game):
    """Everyone checks: the best card wins the pot, each player's expected profit is 0 by symmetry.
    Player 1 always bets and the others always fold: player 1 takes the pot every time."""
    P = parameter_symbol("P")
    zero = {parameter_symbol(v): 0 for v in full_game.variables}
    assert [sp.expand(p.payoff.xreplace(zero)) for p in full_game.players] == [0, 0, 0]
    steal = {parameter_symbol(v): int(v[1] == "1" and v[3:] == "o") for v in full_game.variables}
    assert [sp.expand(p.payoff.xreplace(steal)) for p in full_game.players] == [2 * P / 3, -P / 3, -P / 3]


def test_card_names_and_bad_sizes():
    assert kuhn3.card_names(4) == ("J", "Q", "K", "A")
    assert kuhn3.card_names(5) == ("T", "J", "Q", "K", "A")
    with pytest.raises(ValueError):
        kuhn3.card_names(2)
    with pytest.raises(ValueError):
        kuhn3.build_game(4, {"Z9_o": 1})
