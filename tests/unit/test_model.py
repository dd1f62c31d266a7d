"""Regions, domains, decisions and PDL construction on small examples."""
from fractions import Fraction

import pytest
import sympy as sp

from symgame.engine.pdl_builder import CoverageError, build_pdl
from symgame.engine.support_enumeration import enumerate_branches
from symgame.model.decide import Decision, region_is_empty
from symgame.model.game import NormalFormGame, Player
from symgame.model.parameters import parse_domain
from symgame.model.region import Atom, Domain, Region

t = sp.Symbol("t", real=True)
DOMAIN = Domain((parse_domain("t", "[0, 3]"),))


def test_membership_is_exact():
    region = Region((Atom(3 * t - 1, ">="),))
    assert region.contains({"t": Fraction(1, 3)})
    assert not region.contains({"t": Fraction(1, 3) - Fraction(1, 10**30)})


def test_emptiness_decisions():
    assert region_is_empty(DOMAIN, Region((Atom(t - 4, ">"),))) is Decision.TRUE
    assert region_is_empty(DOMAIN, Region((Atom(t**2 - 2, "=="),))) is Decision.FALSE  # t = sqrt(2)
    assert region_is_empty(DOMAIN, Region((Atom(t**2 + 1, "=="),))) is Decision.TRUE


def test_integer_domain_without_integers_is_rejected():
    from symgame.model.expr import ExpressionError

    with pytest.raises(ExpressionError, match="no integer"):
        parse_domain("n", "(1, 2)", integer=True)


def test_pretty_conditions():
    a, e = sp.symbols("a e", real=True)
    assert Atom(a - e, ">=").pretty == "a >= e"
    assert Atom(-t, ">=").pretty == "t <= 0"


def test_coverage_failure_is_reported_with_witness():
    game = NormalFormGame.decision("d", DOMAIN, Player("P", ("x", "y")), [t, 1 - t])
    branches = enumerate_branches(game)
    assert len(branches) == 2
    with pytest.raises(CoverageError) as info:
        build_pdl(game, branches[:1])  # 'x' alone is optimal only for t >= 1/2
    assert info.value.decision is Decision.FALSE
    assert info.value.witness["t"] < sp.Rational(1, 2)


def test_decision_problem_pdl():
    game = NormalFormGame.decision("d", DOMAIN, Player("P", ("x", "y")), [t, 1 - t])
    pdl, coverage = build_pdl(game, enumerate_branches(game))
    assert coverage.proved
    assert pdl.evaluate({"t": Fraction(1, 2)}).strategies == ((1, 0),)
    assert pdl.evaluate({"t": Fraction(1, 4)}).strategies == ((0, 1),)


def test_sample_points_are_exact_and_inside():
    from symgame.model.decide import region_sample_point

    region = Region((Atom(t**2 - 2, "=="),))
    witness = region_sample_point(DOMAIN, region)
    assert witness.satisfiable is Decision.TRUE
    assert sp.simplify(witness.point["t"] ** 2 - 2) == 0 and witness.rational_point() is None
    inside = region_sample_point(DOMAIN, Region((Atom(2 * t - 1, ">"), Atom(2 - t, ">"))))
    point = inside.rational_point()
    assert point is not None and Fraction(1, 2) < point["t"] < 2
    assert region_sample_point(DOMAIN, Region((Atom(t - 5, ">"),))).satisfiable is Decision.FALSE
