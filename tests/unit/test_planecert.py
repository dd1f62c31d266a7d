"""symgame.verify.planecert: exact soundness in the plane (P, z) agrees with z3 and decides borders exactly."""
import pytest
import sympy as sp
from hypothesis import given, seed, settings
from hypothesis import strategies as st

from symgame.engine.ranges import ParamInterval, algebraic_endpoint, rational_endpoint
from symgame.errors import InputError
from symgame.model.decide import Decision
from symgame.model.parameters import parse_domain
from symgame.model.polygame import PolynomialGame, PolyPlayer
from symgame.verify.planecert import certify_best_response_plane
from symgame.verify.polycert import ProfileSet
from symgame.verify.separable import certify_best_response

P, z, c = sp.symbols("P z c", real=True)
HALF = sp.Rational(1, 2)


def toy(payoff1, payoff2) -> PolynomialGame:
    return PolynomialGame("toy", (parse_domain("P", "[0, 8]"),), (PolyPlayer("1", ("z",), payoff1),
                                                                  PolyPlayer("2", ("c",), payoff2)))


def interval(low, high, closed=(True, True)) -> ParamInterval:
    def end(v):
        return rational_endpoint(sp.nsimplify(v), P) if sp.nsimplify(v).is_Rational else algebraic_endpoint(v, P)
    return ParamInterval(end(low), closed[0], end(high), closed[1])


def test_an_algebraic_end_is_decided_exactly_at_the_border():
    """z = P / (2 sqrt 2) (a root of 8 z^2 = P^2), player 2 plays c = 1, which is a best response while
    z <= 1/2, that is up to P = sqrt 2 exactly: sound on [1, sqrt 2], not on [1, sqrt 2 + 1/10^6] nor on
    (sqrt 2, 3/2]."""
    game = toy(z * (c - 1), c * (HALF - z))
    family = ProfileSet((("z", z), ("c", sp.Integer(1))), ("z",), ((8 * z**2 - P**2, "=="),))
    assert certify_best_response_plane(game, family, interval(1, sp.sqrt(2))).decision is Decision.TRUE
    beyond = certify_best_response_plane(game, family, interval(1, sp.sqrt(2) + sp.Rational(1, 10**6)))
    assert beyond.decision is Decision.FALSE and beyond.counterexample["reason"] == "player 2 deviates to c=0"
    above = certify_best_response_plane(game, family, interval(sp.sqrt(2), sp.Rational(3, 2), (False, True)))
    assert above.decision is Decision.FALSE


def test_a_condition_that_excludes_a_root_is_used():
    """The tie has two roots, z = 1/2 and z = 3/4; the family's condition z < 5/8 keeps the first, where
    player 2 is indifferent.  Without the condition the second root is a counterexample: the check must add
    the condition rather than report it."""
    game = toy(z * (c - HALF), c * (HALF - z))
    tie = (z - HALF) * (z - sp.Rational(3, 4))
    kept = ProfileSet((("z", z), ("c", HALF)), ("z",), ((tie, "=="), (sp.Rational(5, 8) - z, ">")))
    both = ProfileSet((("z", z), ("c", HALF)), ("z",), ((tie, "=="),))
    assert certify_best_response_plane(game, kept, interval(1, 2)).decision is Decision.TRUE
    wrong = certify_best_response_plane(game, both, interval(1, 2))
    assert wrong.decision is Decision.FALSE and wrong.counterexample["z"] == "3/4"


def test_frequencies_outside_the_box_and_denominators_are_failures():
    game = toy(z * (c - HALF), c * (HALF - z))
    outside = ProfileSet((("z", z), ("c", P / 2)), ("z",), ((2 * z - 1, "=="),))
    result = certify_best_response_plane(game, outside, interval(1, 3))
    assert result.decision is Decision.FALSE and result.counterexample["reason"] == "c > 1"
    pole = ProfileSet((("z", z), ("c", 1 / (2 * P - 3) ** 2 / 4)), ("z",), ((2 * z - 1, "=="),))
    result = certify_best_response_plane(game, pole, interval(1, 2))
    assert result.decision is Decision.FALSE and "denominator" in result.counterexample["reason"]


def test_out_of_scope_families_are_refused_in_one_line():
    game = toy(z * (c - HALF), c * (HALF - z))
    with pytest.raises(InputError, match="at most one free frequency"):
        certify_best_response_plane(game, ProfileSet((("z", z), ("c", c)), ("z", "c"), ()), interval(1, 2))
    with pytest.raises(InputError, match="square roots"):
        certify_best_response_plane(game, ProfileSet((("z", sp.sqrt(P) / 4), ("c", HALF)), (), ()), interval(1, 2))


@st.composite
def families(draw):
    """Two players with one frequency each, payoffs linear in both (and in P); the family: z a root of a
    quadratic or cubic in z with coefficients in P, c a constant or a polynomial in z, maybe one more
    inequality condition."""
    k = st.integers(-3, 3)
    payoff1 = z * (draw(k) * c + draw(k) + draw(k) * P / 4)
    payoff2 = c * (draw(k) * z + draw(k) + draw(k) * P / 4)
    degree = draw(st.sampled_from((2, 3)))
    tie = z**degree + draw(k) * z + draw(st.integers(-4, 0)) * P / 8 + draw(st.integers(-2, 2)) / sp.Integer(8)
    value = draw(st.sampled_from((sp.Integer(0), sp.Integer(1), HALF, z / 2, (1 - z) / 2)))
    conditions = [(tie, "==")]
    if draw(st.booleans()):
        conditions.append((z - sp.Rational(draw(st.integers(0, 4)), 8), ">="))
    low = sp.Rational(draw(st.integers(1, 6)), 2)
    return toy(payoff1, payoff2), ProfileSet((("z", z), ("c", value)), ("z",), tuple(conditions)), \
        interval(low, low + sp.Rational(draw(st.integers(0, 4)), 2))


@seed(20261128)
@settings(max_examples=100, deadline=None)
@given(families())
def test_the_plane_verdict_agrees_with_z3(case):
    """Independent solvers: z3's nonlinear arithmetic (``certify_best_response``) and the CAD decide the same
    claim; on these small families z3 answers every time."""
    game, family, iv = case
    plane = certify_best_response_plane(game, family, iv)
    other = certify_best_response(game, family, iv, 20_000)
    assert other.decision is not Decision.UNDECIDED
    assert plane.decision is other.decision, (family, iv, plane, other)


def test_an_algebraic_end_whose_polynomial_vanishes_at_a_rational_end_of_its_interval():
    """The end sqrt 2 given by the reducible (P - 1)(P^2 - 2) on (1, 3/2): the factor that changes sign there is
    used, not the whole polynomial (which is 0 at P = 1)."""
    from fractions import Fraction

    from symgame.engine.ranges import Endpoint

    game = toy(z * (c - 1), c * (HALF - z))
    family = ProfileSet((("z", z), ("c", sp.Integer(1))), ("z",), ((8 * z**2 - P**2, "=="),))
    end = Endpoint(sp.sqrt(2), sp.expand((P - 1) * (P**2 - 2)), Fraction(1), Fraction(3, 2))
    low = rational_endpoint(sp.Integer(1), P)
    assert certify_best_response_plane(game, family, ParamInterval(low, True, end, True)).decision is Decision.TRUE
    assert certify_best_response_plane(game, family, ParamInterval(end, False, rational_endpoint(sp.Integer(2), P),
                                                                   True)).decision is Decision.FALSE


def test_two_free_frequencies_at_a_rational_pot():
    """At one rational pot the plane is the two free frequencies': on the circle 4 z^2 + 4 c^2 = P both players
    are indifferent at P = 2 (sound) and at P = 3 player 1 gains by z = 1 (no point of the circle has z = 1);
    z3 agrees on both. On an interval two free frequencies are refused."""
    game = toy(z * (P - 2), c * (P - 2))
    family = ProfileSet((("z", z), ("c", c)), ("z", "c"), ((4 * z**2 + 4 * c**2 - P, "=="),))
    for pot, expected in ((2, Decision.TRUE), (3, Decision.FALSE)):
        at = interval(pot, pot)
        result = certify_best_response_plane(game, family, at)
        assert result.decision is expected is certify_best_response(game, family, at, 20_000).decision
    assert result.counterexample["P"] == "3" and result.counterexample["reason"] == "player 1 deviates to z=1"
    with pytest.raises(InputError, match="two at a rational pot"):
        certify_best_response_plane(game, family, interval(2, 3))
