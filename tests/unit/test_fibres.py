"""Families from fibres (symgame.engine.fibres): interpolation, the identity proof, and ranges of products."""
import random
from fractions import Fraction

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


@needs_msolve
def test_a_component_at_one_pot_only_is_solved_there_with_the_pot_fixed():
    """x on its upper face needs B indifferent, -2(2x - t) = 0: at t = 2 only, where y is free. The generic fibre
    is empty; through a numeric point at t = 2 the case is solved with t fixed, a member at t = 2 alone whose
    conditions (y > 1/2 for A's corner) are decided exactly there."""
    from fractions import Fraction

    from symgame.engine.atlas import fibre_verdict

    game = pennies()
    structure = detect_structure(game)
    family = fibre_family(game, structure, "I+", ("y",), at=Fraction(2))
    assert family.point == 2 and family.values == {}
    found = fibre_verdict(game, structure, "I+", [(2.0, {"x": 1.0, "y": 0.75})])
    assert found.stage == "fibres" and len(found.branches) == 1
    member = found.branches[0]
    assert member.branch.point == 2 and member.branch.free == ("y",)
    assert [(iv.lower.value, iv.upper.value) for iv in member.range.intervals] == [(2, 2)]
    assert [(str(e), rel) for e, rel in member.branch.conditions if e.has(sp.Symbol("y", real=True))] == \
        [("y", ">"), ("1 - y", ">"), ("2*t*(2*y - 1)", ">")]


@needs_msolve
def test_a_system_with_nothing_to_solve_for_has_one_point_or_none():
    from symgame.engine.msolve import parametrize

    assert parametrize([sp.Integer(0)], []).eliminant.degree() == 1
    assert parametrize([sp.Integer(0), sp.Rational(1, 3)], []) is None


def test_an_underived_range_is_widened_only_by_proved_sub_branches():
    """a^2 b^2 > p on [0, 1]^2 holds exactly for p < 1; the range is not derived (both enter non-linearly).
    Numeric points seed sub-branches with a fixed (exact ranges): their union is an inner bound, flagged
    incomplete; a complete range is returned unchanged; a point whose sub-branch is empty adds nothing."""
    from symgame.engine.atlas import widen_range
    from symgame.engine.ranges import BranchRange

    domain = parse_domain("p", "[0, 2]")
    branch = CaseBranch("I", None, (("a", a), ("b", b)), ("a", "b"),
                        ((a ** 2 * b ** 2 - p, ">"), (a, ">="), (1 - a, ">="), (b, ">="), (1 - b, ">=")))
    assert not branch_range(branch, domain).complete
    points = [(0.5, {"a": 0.9, "b": 0.95}), (0.9, {"a": 0.97, "b": 0.99}), (0.1, {"a": 0.0, "b": 0.5})]
    widened = widen_range(branch, BranchRange((), False, 0), domain, points)
    assert not widened.complete
    # a = 0.9 gives p < 81/100; at p = 0.9, a = 0.97 rounds to 1 (denominator 10 first): p < 1; merged
    assert [iv.text("p") for iv in widened.intervals] == ["0 <= p < 1"]
    assert [iv.text("p") for iv in widen_range(branch, BranchRange((), False, 0), domain, points[:1]).intervals] \
        == ["0 <= p < 81/100"]
    exact = BranchRange(widened.intervals, True, 0)
    assert widen_range(branch, exact, domain, points) is exact
    assert widen_range(branch, BranchRange((), False, 0), domain, [(0.1, {"a": 0.0, "b": 0.5})]).intervals == ()


def roots_game():
    """A's first-order condition x^2 = P/4 (two roots, one in [0, 1]); B answers y = (x + 1)/2."""
    x, y, P = (sp.Symbol(n, real=True) for n in "xyP")
    return PolynomialGame("roots", (parse_domain("P", "[1, 4]"),),
                          (PolyPlayer("A", ("x",), sp.expand(P * x / 4 - x ** 3 / 3)),
                           PolyPlayer("B", ("y",), sp.expand(-(2 * y - x - 1) ** 2 / 4))))


@needs_msolve
def test_an_algebraic_family_is_proved_and_gets_an_exact_range_through_its_point():
    """The generic fibre of x^2 = P/4, y = (x + 1)/2 has two points: an algebraic family (x primitive, minimal
    polynomial 4x^2 - P, y = x/2 + 1/2), proved modulo the minimal polynomial; through a numeric point it is a
    member with x free and tied by 4x^2 - P = 0, whose range is exact: x = sqrt(P)/2 is interior for 1 <= P < 4
    (at P = 4 it reaches the face x = 1)."""
    from symgame.engine.atlas import fibre_verdict
    from symgame.engine.fibres import algebraic_family

    game = roots_game()
    structure = detect_structure(game)
    with pytest.raises(UnsolvedCase, match="2 points"):
        fibre_family(game, structure, "II", ())
    family = algebraic_family(game, structure, "II", ())
    x, P = sp.Symbol("x", real=True), sp.Symbol("P", real=True)
    assert family.primitive == "x" and sp.expand(family.minimal - (4 * x ** 2 - P)) == 0
    assert sp.expand(family.values["y"] - (x + 1) / 2) == 0
    found = fibre_verdict(game, structure, "II", [(2.0, {"x": 2 ** 0.5 / 2, "y": (1 + 2 ** 0.5 / 2) / 2})])
    assert len(found.branches) == 1, found.unsolved
    member = found.branches[0]
    assert member.branch.free == ("x",) and (sp.expand(family.minimal), "==") in member.branch.conditions
    assert member.range.complete
    assert [(iv.lower.value, iv.lower_closed, iv.upper.value, iv.upper_closed) for iv in member.range.intervals] \
        == [(1, True, 4, False)]


@needs_msolve
def test_an_algebraic_family_with_a_wrong_formula_fails_its_proof():
    from symgame.engine.fibres import prove_modulo

    x, y, p = sp.symbols("x y p")
    prove_modulo([y - x * x], {y: p}, x ** 2 - p, x, [p])
    with pytest.raises(UnsolvedCase, match="modulo"):
        prove_modulo([y - x * x], {y: p + 1}, x ** 2 - p, x, [p])


@needs_msolve
def test_an_algebraic_family_with_a_free_frequency_is_widened_through_its_point():
    """C is indifferent (z free); A's condition x^2 = P z/4 ties x to z: an algebraic family with z free and x
    primitive. Its range is not derived as a whole; through the point (P, z) = (2, 1/2) the sub-branch z = 1/2
    has x = sqrt(P/8), interior on the whole domain [1, 4]: the member is kept there, flagged incomplete."""
    from symgame.engine.atlas import fibre_verdict

    x, y, z, P = (sp.Symbol(n, real=True) for n in "xyzP")
    game = PolynomialGame("roots3", (parse_domain("P", "[1, 4]"),),
                          (PolyPlayer("A", ("x",), sp.expand(P * z * x / 4 - x ** 3 / 3)),
                           PolyPlayer("B", ("y",), sp.expand(-(2 * y - x - 1) ** 2 / 4)),
                           PolyPlayer("C", ("z",), sp.Integer(0))))
    structure = detect_structure(game)
    point = [(2.0, {"x": 0.5, "y": 0.75, "z": 0.5})]
    assert fibre_verdict(game, structure, "III", point).branches == ()        # not widened: not kept
    found = fibre_verdict(game, structure, "III", point, widen=True)
    assert len(found.branches) == 1
    member = found.branches[0]
    assert member.branch.free == ("z", "x") and (4 * x ** 2 - P * z, "==") in member.branch.conditions
    assert not member.range.complete and [iv.text("P") for iv in member.range.intervals] == ["1 <= P <= 4"]
    reported = fibre_verdict(game, structure, "III", point, widen=True, algebraic=False)
    assert reported.branches == () and any("proved as an algebraic family" in u for u in reported.unsolved)


def roots3_game():
    x, y, z, P = (sp.Symbol(n, real=True) for n in "xyzP")
    return PolynomialGame("roots3", (parse_domain("P", "[1, 4]"),),
                          (PolyPlayer("A", ("x",), sp.expand(P * z * x / 4 - x ** 3 / 3)),
                           PolyPlayer("B", ("y",), sp.expand(-(2 * y - x - 1) ** 2 / 4)),
                           PolyPlayer("C", ("z",), sp.Integer(0))))


@needs_msolve
def test_a_component_too_large_to_interpolate_is_solved_through_its_points(monkeypatch):
    """With the interpolation budget cut to 14 fibres, the algebraic family of roots3 (z free, x^2 = P z / 4) cannot
    be derived; with ``through_points`` each numeric point gives the sub-family with z fixed at the nearest simple
    fraction to its value (z = 1/3 from 0.33333), x over P alone tied by 12 x^2 = P: x = sqrt(P/12) is interior
    on the whole domain, so the range is exact, [1, 4]; the point lies in it, a point 1e-2 off does not."""
    import symgame.engine.fibres as F
    from symgame.engine.atlas import fibre_verdict
    from symgame.verify.atlascheck import lies_in

    game = roots3_game()
    structure = detect_structure(game)
    x, P = sp.Symbol("x", real=True), sp.Symbol("P", real=True)
    monkeypatch.setattr(F, "MAX_FIBRES", 14)        # the sub-family needs 10 fibres, the whole family 18
    point = {"x": (2 / 12) ** 0.5, "y": (1 + (2 / 12) ** 0.5) / 2, "z": 0.33333}
    assert fibre_verdict(game, structure, "III", [(2.0, point)], widen=True).branches == ()
    found = fibre_verdict(game, structure, "III", [(2.0, point)], widen=True, through_points=True)
    assert len(found.branches) == 1, found.unsolved
    member = found.branches[0]
    assert member.branch.free == ("x",) and dict(member.branch.values)["z"] == sp.Rational(1, 3)
    tie = next(e for e, rel in member.branch.conditions if rel == "==")
    assert sp.expand(tie - tie.coeff(x, 2) / 12 * (12 * x ** 2 - P)) == 0
    assert member.range.complete and [iv.text("P") for iv in member.range.intervals] == ["1 <= P <= 4"]
    assert any("sub-family through a numeric point" in u and "z = 1/3" in u for u in found.unsolved)
    assert lies_in(game, member, Fraction(2), point)
    assert not lies_in(game, member, Fraction(2), {**point, "x": point["x"] + 1e-2})
    # the equation's scale does not matter: its distance is |f| / |grad f|
    from dataclasses import replace
    scaled = replace(member.branch, conditions=tuple((e * 10 ** 6 if rel == "==" else e, rel)
                                                      for e, rel in member.branch.conditions))
    near = {**point, "x": point["x"] + 1e-5}
    assert lies_in(game, replace(member, branch=scaled), Fraction(2), near)
    assert not lies_in(game, replace(member, branch=scaled), Fraction(2), {**point, "x": point["x"] + 1e-2})


@needs_msolve
def test_fixed_unknowns_must_be_unknowns_of_the_case_and_not_free():
    from symgame.engine.fibres import algebraic_family

    game = roots3_game()
    structure = detect_structure(game)
    with pytest.raises(ValueError, match="fixed"):
        fibre_family(game, structure, "III", ("z",), fixed={"z": Fraction(1, 2)})
    with pytest.raises(ValueError, match="fixed"):
        algebraic_family(game, structure, "III", (), fixed={"w": Fraction(1, 2)})
    family = algebraic_family(game, structure, "III", (), fixed={"z": Fraction(1, 2)})
    assert family.fixed == (("z", Fraction(1, 2)),) and family.free == () and family.primitive == "x"


def _by_z3_alone(exact: str, branch, P, value, root):
    """``decide_at`` with the plane CAD's shortcut ``exact`` switched off: z3's answer."""
    import symgame.engine.ranges as R

    original = getattr(R, exact)
    setattr(R, exact, lambda *args: None)
    try:
        return R.decide_at(branch, P, value, root, 30_000)
    finally:
        setattr(R, exact, original)


@seed(20261127)
@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.lists(st.integers(-3, 3), min_size=6, max_size=6), st.sampled_from([">", ">=", "=="])),
                min_size=1, max_size=3),
       st.sampled_from(["sqrt(2)", "1 + sqrt(3)", "CRootOf(P**3 - 3*P - 1, 2)"]))
def test_exact_decisions_at_an_algebraic_pot_agree_with_z3(conditions, where):
    """The plane CAD's exact decision at an irrational pot (one free variable) is the answer z3 gives when it
    decides: random conditions of degree 2 in (P, z) with z in [0, 1]."""
    from symgame.engine.ranges import algebraic_endpoint, exact_at_root, root_endpoint

    P, z = sp.Symbol("P", real=True), sp.Symbol("z", real=True)
    monomials = [sp.Integer(1), P, z, P * P, P * z, z * z]
    conds = tuple((sum(c * m for c, m in zip(cs, monomials)), rel) for cs, rel in conditions
                  if any(cs)) + ((z, ">="), (1 - z, ">="))
    branch = CaseBranch("I", None, (("z", z),), ("z",), conds)
    if where.startswith("CRootOf"):
        at = root_endpoint(P**3 - 3 * P - 1, Fraction(1), Fraction(2), P)
    else:
        at = algebraic_endpoint(sp.sympify(where, locals={"P": P}), P)
    exact = exact_at_root(branch, P, at)
    by_z3 = _by_z3_alone("exact_at_root", branch, P, None, at)
    assert exact is not None
    if by_z3.name != "UNDECIDED":
        assert exact == by_z3, (conds, where)


@seed(20261128)
@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.lists(st.integers(-3, 3), min_size=10, max_size=10), st.sampled_from([">", ">=", "=="])),
                min_size=1, max_size=3),
       st.sampled_from(["2", "7/3", "-1/2"]))
def test_exact_decisions_at_a_rational_pot_with_two_free_variables_agree_with_z3(conditions, where):
    """The plane CAD's exact decision at a rational pot (two free variables) is the answer z3 gives when it
    decides: random conditions of degree 2 in (P, y, z) with y, z in [0, 1]."""
    from symgame.engine.ranges import exact_at_value

    P, y, z = (sp.Symbol(n, real=True) for n in "Pyz")
    monomials = [sp.Integer(1), P, y, z, P * y, P * z, y * z, y * y, z * z, P * P]
    conds = tuple((sum(c * m for c, m in zip(cs, monomials)), rel) for cs, rel in conditions
                  if any(cs)) + ((y, ">="), (1 - y, ">="), (z, ">="), (1 - z, ">="))
    branch = CaseBranch("II", None, (("y", y), ("z", z)), ("y", "z"), conds)
    value = sp.Rational(where)
    exact = exact_at_value(branch, P, value)
    by_z3 = _by_z3_alone("exact_at_value", branch, P, value, None)
    assert exact is not None
    if by_z3.name != "UNDECIDED":
        assert exact == by_z3, (conds, where)
