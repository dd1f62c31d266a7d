"""symgame's three-player Kuhn poker (built from the rules, :mod:`symgame.games.kuhn3`) against an independent
implementation: OpenSpiel's ``kuhn_poker(players=3)``, exported by OpenSpiel 2.0.2's ``export_gambit``
(``derivations/szafron2013/openspiel_kuhn3.efg``). The same 24 deals with the same probabilities, the same information
sets, the same payoff at every one of the leaves (pot P = 3: three antes of 1, bets of 1)."""
from pathlib import Path

import pytest

from derivations.szafron2013.openspiel import openspiel_side, symgame_side

EFG = Path(__file__).resolve().parents[2] / "derivations" / "szafron2013" / "openspiel_kuhn3.efg"


@pytest.fixture(scope="session")     # see conftest.py: built once per worker
def sides():
    return openspiel_side(EFG), symgame_side(3)


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
