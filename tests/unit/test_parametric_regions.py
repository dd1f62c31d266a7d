"""Two-parameter zero-sum trees: regions of the plane with a proved cover (symgame.engine.parametric_regions)."""
from fractions import Fraction

import pytest
from hypothesis import given, seed, settings
from hypothesis import strategies as st

from symgame.api import tree_solve
from symgame.cli import main
from symgame.engine.parametric_regions import parametric_regions_solve
from symgame.errors import InputError
from symgame.model.decide import Decision
from symgame.model.treefile import load_tree_file


@pytest.fixture(scope="session")     # see conftest.py: built once per worker
def regions():
    return tree_solve("examples/kuhn_ante_bet.yaml")


@pytest.fixture(scope="session")     # see conftest.py: built once per worker
def one_parameter():
    return tree_solve("examples/kuhn_bet.yaml")


def test_kuhn_with_ante_and_bet_has_three_regions_and_a_proved_cover(regions):
    assert regions.cover is Decision.TRUE
    assert [str(r.value) for r in regions.regions] == ["-b*(2*a - b)/(6*(2*a + b))", "-b**2/(6*(2*a + b))", "0"]
    assert [a.pretty for a in regions.regions[0].region.atoms] == ["b >= a", "2*a >= b"]
    assert regions.regions[-1].region.atoms == ()
    assert all(c["passed"] for c in regions.checks) and len(regions.checks) >= 10


@seed(20261125)
@settings(max_examples=60, deadline=None)
@given(st.integers(1, 8), st.integers(1, 16))
def test_value_is_homogeneous_and_equals_the_one_parameter_solver(regions, one_parameter, a8, b8):
    """Scaling the ante and the bet by the same factor scales the value: v(a, b) = a v(1, b/a), where the
    right side comes from the one-parameter solver on the bet (an independent exact computation)."""
    a, b = Fraction(a8, 4) if a8 >= 2 else Fraction(1, 2), Fraction(b8, 4)
    ratio = b / a
    if not Fraction(1, 4) <= ratio <= 4:
        return
    assert regions.value_at({"a": a, "b": b}) == a * one_parameter.value_at(ratio)


def test_the_decision_list_reads_in_order(regions):
    assert regions.region_index({"a": Fraction(1), "b": Fraction(1)}) == 0     # on the line b = a: first rule
    assert regions.region_index({"a": Fraction(1), "b": Fraction(1, 2)}) == 1
    assert regions.region_index({"a": Fraction(1, 2), "b": Fraction(3)}) == 2
    with pytest.raises(InputError):
        regions.value_at({"a": Fraction(3), "b": Fraction(1)})


def test_exactly_two_parameters():
    with pytest.raises(InputError, match="exactly two parameters"):
        parametric_regions_solve(load_tree_file("examples/kuhn_bet.yaml"))


def test_cli(capsys):
    assert main(["solve", "examples/kuhn_ante_bet.yaml"]) == 0
    out = capsys.readouterr().out
    assert "\nIf b >= a and 2*a >= b (value -b*(2*a - b)/(6*(2*a + b))):\n" in out
    assert out.startswith("kuhn-poker-ante-a-bet-b: 3 equilibria (not complete; certificate proved)\n")
    assert out.count("\nElse if ") == 1 and "\nElse (value 0):\n" in out
