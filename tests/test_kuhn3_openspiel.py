"""symgame's three-player Kuhn poker (built from the rules, :mod:`symgame.games.kuhn3`) against an independent
implementation: OpenSpiel's ``kuhn_poker(players=3)``, exported by OpenSpiel 2.0.2's ``export_gambit``
(``tests/data/openspiel/kuhn3_poker.efg``). The same 24 deals with the same probabilities, the same information
sets, the same payoff at every one of the leaves (pot P = 3: three antes of 1, bets of 1)."""
import itertools
from fractions import Fraction
from pathlib import Path

import pytest
import sympy as sp

from symgame.games import kuhn3
from symgame.model.extensive import DecisionNode
from symgame.model.gambit import load_efg
from symgame.model.parameters import parameter_symbol

EFG = Path(__file__).parent / "data" / "openspiel" / "kuhn3_poker.efg"
CARDS = "JQKA"          # OpenSpiel's cards 0 < 1 < 2 < 3


def openspiel_side():
    """``{(deal, history): (probability, payoffs)}`` (history: p pass, b bet, as OpenSpiel names the actions)
    and ``{(player, card, history): (player, infoset number)}`` for every decision node."""
    tree = load_efg(EFG)
    leaves, infosets = {}, {}
    for leaf in tree.leaves():
        deal, history = [], ""
        for player, number, action in leaf.path:
            info = tree.infosets[(player, number)]
            if player == 0:
                deal.append(CARDS[int(info.actions[action].split(":")[1])])
            else:
                infosets[(player, deal[player - 1], history)] = (player, number)
                history += {"Pass": "p", "Bet": "b"}[info.actions[action]]
        leaves[(tuple(deal), history)] = (leaf.chance, leaf.payoffs)
    return leaves, infosets


def symgame_side(pot: int):
    """The same from symgame's tree at pot ``pot`` (bet and call are b, check and fold p), with each decision
    node's variable name."""
    tree = kuhn3.build_tree(4)
    P = parameter_symbol("P")
    leaves, infosets = {}, {}
    for deal, (probability, opening) in zip(itertools.permutations(kuhn3.card_names(4), 3), tree.root.outcomes):
        stack = [(opening, "")]
        while stack:
            node, history = stack.pop()
            if isinstance(node, DecisionNode):
                player = node.player + 1
                assert node.infoset.startswith(f"{deal[player - 1]}{player}_"), (deal, node.infoset)
                infosets[(player, deal[player - 1], history)] = node.infoset
                for action, child in node.actions:
                    stack.append((child, history + ("b" if action in ("bet", "call") else "p")))
            else:
                leaves[(deal, history)] = (probability, tuple(Fraction(str(sp.sympify(p).subs(P, pot)))
                                                              for p in node.payoffs))
    return leaves, infosets


@pytest.fixture(scope="module")
def sides():
    return openspiel_side(), symgame_side(3)


def test_every_leaf_has_the_same_probability_and_payoffs(sides):
    (theirs, _), (ours, _) = sides
    assert len(ours) == 24 * 13 and set(ours) == set(theirs)
    differ = [key for key in ours if ours[key] != theirs[key]]
    assert differ == [], differ[:3]


def test_the_information_sets_are_the_same_partition(sides):
    (_, theirs), (_, ours) = sides
    assert set(ours) == set(theirs)
    pairs = {(ours[key], theirs[key]) for key in ours}
    assert len(pairs) == len({name for name, _ in pairs}) == len({number for _, number in pairs}) == 48
