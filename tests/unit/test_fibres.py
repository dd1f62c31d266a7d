"""Families from fibres (symgame.engine.fibres): interpolation, the identity proof, and ranges of products."""
import random

import pytest
import sympy as sp
from hypothesis import given, seed, settings
from hypothesis import strategies as st

from symgame.engine.casesplit import detect_structure
from symgame.engine.fibres import fibre_branch, fibre_family, free_from_jacobian, interpolate_rational, prove_formulas
from symgame.engine.msolve import msolve_program
from symgame.engine.parametric import CaseBranch, UnsolvedCase
from symgame.engine.ranges import branch_range
from symgame.model.parameters import parse_domain
from symgame.model.polygame import PolynomialGame, PolyPlayer

needs_msolve = pytest.mark.skipif(msolve_program() is None, reason="msolve is not installed (.ci/install installs it)")
p, a, b = (sp.Symbol(n, real=True) for n in "pab")


def polynomial(coefficients):
    """A polynomial in p, a of total degree <= 2 from six integer coefficients."""
    monomials = [sp.Integer(1), p, a, p * p, p * a, a * a]
    return sum(c * m for c, m in zip(coefficients, monomials))


@seed(20261127)
@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-4, 4), min_size=6, max_size=6), st.lists(st.integers(-4, 4), min_size=6, max_size=6))
def test_interpolation_recovers_a_rational_function_of_two_variables(top, bottom):
    num, den = polynomial(top), polynomial(bottom)
    if den == 0:
        return
    target = sp.cancel(num / den)
    rng = random.Random(5)                      # points in general position (not on one curve)
    points, values = [], []
    while len(points) < 60:
        q = (sp.Rational(rng.randint(1, 400), rng.randint(1, 60)), sp.Rational(rng.randint(1, 99), 100))
        d = den.subs({p: q[0], a: q[1]})
        if d != 0:
            points.append(q)
            values.append(target.subs({p: q[0], a: q[1]}))
    found = interpolate_rational(points, values, [p, a])
    assert found is not None and sp.cancel(found - target) == 0


def test_interpolation_gives_nothing_without_enough_points():
    points = [(sp.Integer(k), sp.Rational(1, k + 1)) for k in range(5)]
    values = [q[0] ** 3 / (1 + q[1]) for q in points]
    assert interpolate_rational(points, values, [p, a]) is None


def test_the_proof_rejects_formulas_that_do_not_satisfy_the_equations():
    x, y = sp.symbols("x y")
    equations = [x * (p + 1) - a, y - x * p]
    prove_formulas(equations, {x: a / (p + 1), y: a * p / (p + 1)}, [p, a])
    with pytest.raises(UnsolvedCase, match="equation 2"):
        prove_formulas(equations, {x: a / (p + 1), y: a / (p + 1)}, [p, a])


def pennies():
    x, y, t = (sp.Symbol(n, real=True) for n in "xyt")
    return PolynomialGame("pennies", (parse_domain("t", "[1, 2]"),),
                          (PolyPlayer("A", ("x",), sp.expand(t * (2 * x - 1) * (2 * y - 1))),
                           PolyPlayer("B", ("y",), sp.expand(-(2 * x - t) * (2 * y - 1)))))


@needs_msolve
def test_a_fibre_family_of_a_small_game_and_its_range():
    game = pennies()
    structure = detect_structure(game)
    assert free_from_jacobian(game, structure, "I0", 1.5, {"x": 0.75, "y": 0.5}) == ()
    family = fibre_family(game, structure, "I0", ())
    t = sp.Symbol("t", real=True)
    assert family.values == {"y": sp.Rational(1, 2), "x": t / 2}
    r = branch_range(fibre_branch(game, structure, family), game.parameters[0])
    # x = t/2 is a probability on the whole domain [1, 2]; at t = 2 it is 1, still allowed for a responder
    assert r.complete and [(iv.lower.value, iv.upper.value) for iv in r.intervals] == [(1, 2)]


@needs_msolve
def test_an_empty_generic_fibre_is_reported_not_guessed():
    game = pennies()
    structure = detect_structure(game)
    # x on its upper face: y's indifference -2(2x - t) = 0 holds only at t = 2, so a generic fibre is empty
    with pytest.raises(UnsolvedCase, match="generic fibre is empty"):
        fibre_family(game, structure, "I+", ())


def test_a_product_of_linear_conditions_gets_a_complete_exact_range():
    """(a - 1/2)(b - p) > 0 and (a - 1/2)(p - 2 + b) > 0 with a, b in [0, 1]: a > 1/2 needs b > max(p, 2 - p),
    impossible; a < 1/2 needs b < min(p, 2 - p): exactly 0 < p < 2. Before the factors were split the range
    was flagged incomplete (the second stage of the elimination is quadratic)."""
    half = sp.Rational(1, 2)
    branch = CaseBranch("II", None, (("a", a), ("b", b)), ("a", "b"),
                        (((a - half) * (b - p), ">"), ((a - half) * (p - 2 + b), ">"),
                         (a, ">="), (1 - a, ">="), (b, ">="), (1 - b, ">=")))
    r = branch_range(branch, parse_domain("p", "[0, 3]"))
    assert r.complete
    assert [(iv.lower.value, iv.lower_closed, iv.upper.value, iv.upper_closed) for iv in r.intervals] == \
        [(0, False, 2, False)]


def test_one_free_variable_of_higher_degree_is_projected_completely():
    """(z - 1/2)^2 + p - 1 <= 0 for some z in [0, 1] exactly when p <= 1: the discriminant gives the border,
    and the range is complete (it was flagged incomplete before the plane projection)."""
    half = sp.Rational(1, 2)
    branch = CaseBranch("I", None, (("a", a),), ("a",),
                        ((-((a - half) ** 2 + p - 1), ">="), (a, ">="), (1 - a, ">=")))
    r = branch_range(branch, parse_domain("p", "[0, 3]"))
    assert r.complete
    assert [(iv.lower.value, iv.lower_closed, iv.upper.value, iv.upper_closed) for iv in r.intervals] == \
        [(0, True, 1, True)]


def test_a_numeric_point_off_a_member_along_a_flat_direction_is_located_by_fitting_its_free_frequency():
    from fractions import Fraction

    from symgame.engine.atlas import SolvedBranch
    from symgame.engine.ranges import BranchRange
    from symgame.verify.atlascheck import lies_in

    class Game:                                   # lies_in needs the parameter's name and symbols only
        parameter_names = ("p",)

        @staticmethod
        def symbol(name):
            return sp.Symbol(name, real=True)

    member = SolvedBranch(CaseBranch("I", None, (("a", a), ("b", p * a)), ("a",), ((a, ">="), (1 - a, ">="))),
                          BranchRange((), True, 0))
    # b = 5 a at p = 5: an error of 3e-5 in a moves b by 1.5e-4, beyond the tolerance 1e-4 at the point's own a
    near = {"a": 0.1 + 3e-5, "b": 0.5}
    assert lies_in(Game, member, Fraction(5), near)
    assert not lies_in(Game, member, Fraction(5), {"a": 0.1, "b": 0.51})
