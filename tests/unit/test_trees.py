"""Game trees compiled to polynomials in behaviour probabilities (Billingham's E_i, Kuhn poker)."""
from fractions import Fraction

import pytest
import sympy as sp

from derivations.billingham2017 import printed as billingham_printed
from derivations.ganzfried2022 import kuhn_pdl
from symgame.games import billingham, kuhn
from symgame.model.behaviour_poly import TreeCompileError, compile_payoffs
from symgame.model.extensive import Chance, DecisionNode, ExtensiveGame, Outcome
from symgame.model.parameters import parameter_symbol


def test_billingham_profits_come_out_of_the_tree_and_equal_equations_1_to_3():
    compiled = compile_payoffs(billingham.build_tree(), billingham.FREQUENCY_NAMES)
    assert compiled.variables == (("a1", "b1", "c1", "d1"), ("a2", "b2", "c2", "d2"), ("a3", "b3", "c3", "d3"))
    printed = billingham_printed.printed_profits()
    a3 = parameter_symbol("a3")
    for i in (1, 2, 3):
        assert sp.expand(compiled.payoffs[i - 1].subs(a3, 1) - printed[i]) == 0
    # the three profits sum to zero for every strategy (the pot shares are netted out)
    assert sp.expand(sum(compiled.payoffs)) == 0
    # a3 is not irrelevant: keeping it free changes Player 3's profit
    assert sp.expand(compiled.payoffs[2] - printed[3]) != 0


def test_a_wrong_tree_is_caught_by_the_comparison(monkeypatch):
    """A slip in the rules (the pot shared wrongly at a showdown: Q beats K) changes the compiled profits."""
    monkeypatch.setitem(billingham.RANK, "Q", 3.5)
    wrong = billingham.profits_from_rules()
    printed = billingham_printed.printed_profits()
    assert any(sp.expand(wrong[i] - printed[i]) != 0 for i in (1, 2, 3))


@pytest.mark.parametrize("n", [3, 4, 6])
def test_kuhn_tree_polynomial_gives_the_certified_value(n):
    compiled = compile_payoffs(kuhn.build_game(n))
    a, b = kuhn_pdl.behaviours(kuhn_pdl.corrected_pdl(n))
    point = {}
    for behaviour in (a, b):
        for infoset, probs in behaviour.items():
            first = next(iter(probs))
            point[parameter_symbol(infoset.replace(":", "_"))] = sp.Rational(str(probs[first]))
    value = compiled.payoffs[0].subs(point)
    assert value == sp.Rational(str(kuhn_pdl.value_formula()(n)))
    assert sp.expand(compiled.payoffs[0] + compiled.payoffs[1]) == 0
    assert len(compiled.variables[0]) == 2 * n and len(compiled.variables[1]) == 2 * n


def test_bad_trees_are_refused():
    leaf = Outcome((Fraction(1), Fraction(-1)))
    clash = Chance(((Fraction(1, 2), DecisionNode(0, "I", (("x", leaf), ("y", leaf)))),
                    (Fraction(1, 2), DecisionNode(0, "I", (("x", leaf), ("z", leaf))))))
    with pytest.raises(TreeCompileError, match="inconsistent"):
        compile_payoffs(ExtensiveGame("clash", ("1", "2"), clash))
    with pytest.raises(TreeCompileError, match="payoffs for 3 players"):
        compile_payoffs(ExtensiveGame("short", ("1", "2", "3"), leaf))
    with pytest.raises(TreeCompileError, match="not in the tree"):
        compile_payoffs(ExtensiveGame("named", ("1", "2"), leaf), names={"nowhere": "q"})


def test_three_action_information_set_gets_two_variables():
    leaves = [Outcome((sp.Integer(k), -sp.Integer(k))) for k in range(3)]
    game = ExtensiveGame("three", ("1", "2"), DecisionNode(0, "I", tuple(zip("abc", leaves))))
    compiled = compile_payoffs(game, names={"I": "p"})
    pa, pb = parameter_symbol("p_a"), parameter_symbol("p_b")
    assert compiled.variables[0] == ("p_a", "p_b")
    assert sp.expand(compiled.payoffs[0] - (pb + 2 * (1 - pa - pb))) == 0
