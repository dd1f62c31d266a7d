"""Exact regret at profiles whose coordinates lie in a number field (roots of cubics, the witnesses of algebraic
families): zero gains found exactly, signs against the radical path and against 60-digit numerics."""
from __future__ import annotations

from fractions import Fraction

import sympy as sp
from hypothesis import given, seed, settings
from hypothesis import strategies as st

from symgame.engine.algebraic import _T, NumberField
from symgame.model.parameters import parse_domain
from symgame.model.polygame import PolynomialGame, PolyPlayer
from symgame.verify.polycert import exact_regret, exact_regret_in_field, field_of

a, b, c, t = (sp.Symbol(n, real=True) for n in "abct")
X = sp.Symbol("x")
CUBIC = X**3 - 3 * X + 1                     # three real roots: -1.879, 0.347, 1.532


def _game(pa: sp.Expr, pb: sp.Expr) -> PolynomialGame:
    return PolynomialGame("g", (parse_domain("t", "[0, 4]"),),
                          (PolyPlayer("A", ("a",), sp.expand(pa)), PolyPlayer("B", ("b", "c"), sp.expand(pb))))


def test_an_indifference_at_a_root_of_a_cubic_is_an_exact_zero_gain():
    # B's b is indifferent exactly when a is a root of the cubic; A is indifferent when c = 0
    root = sp.CRootOf(CUBIC, 1)
    game = _game(a * t * c, b * CUBIC.subs(X, a) + c * (a - sp.Rational(1, 3)))
    report = exact_regret(game, {"a": root, "b": sp.Rational(1, 2), "c": sp.Integer(0)}, {"t": 1})
    assert report.signs == (0, 1) and report.gains[0] == 0     # c = 1 gains a - 1/3 = 0.0139 > 0
    assert not report.is_nash
    # the same with c's incentive removed: an equilibrium, decided without numerics
    game = _game(a * t * c, b * CUBIC.subs(X, a) - c)
    report = exact_regret(game, {"a": root, "b": sp.Rational(1, 2), "c": sp.Integer(0)}, {"t": 1})
    assert report.is_nash and report.signs == (0, 0)
    # a rational point close to the root is not: the gain is tiny but positive
    near = sp.Rational(Fraction(float(root.evalf(30))).limit_denominator(10**12))
    assert not exact_regret(game, {"a": near, "b": sp.Rational(1, 2), "c": sp.Integer(0)}, {"t": 1}).is_nash


def test_field_of_refuses_what_is_not_one_field():
    r1, r2 = sp.CRootOf(CUBIC, 0), sp.CRootOf(X**3 - 2, 0)
    assert field_of([r1, r2]) is None
    assert field_of([r1 + sp.sqrt(2)]) is None
    field, polys = field_of([r1**4, sp.Rational(2)])
    # r^3 = 3r - 1, so r^4 = 3r^2 - r; the isolating interval holds the smallest root
    assert field.degree == 3 and polys == [sp.Poly(3 * _T**2 - _T, _T, domain=sp.QQ), sp.Poly(2, _T, domain=sp.QQ)]
    assert field.low < -1.879 < field.high and field.high < 0.347


coefficient = st.integers(-3, 3)


@seed(20261127)
@settings(max_examples=40, deadline=None)
@given(st.lists(coefficient, min_size=8, max_size=8), st.lists(coefficient, min_size=12, max_size=12),
       st.lists(st.tuples(st.integers(0, 4), st.integers(-3, 3)), min_size=3, max_size=3),
       st.integers(2, 7), st.sampled_from(("quadratic", "cubic")))
def test_signs_agree_with_the_radical_path_and_with_numerics(ca, cb, coords, d, kind):
    # payoffs multilinear in the owner's variables, of any degree in the others'
    pa = a * (ca[0] + ca[1] * b + ca[2] * c + ca[3] * b * c + ca[4] * t * b + ca[5] * c**2) + ca[6] * b + ca[7]
    pb = (b * (cb[0] + cb[1] * a + cb[2] * a**2 + cb[3] * t * a) + c * (cb[4] + cb[5] * a + cb[6] * t)
          + b * c * (cb[7] + cb[8] * a**3 + cb[9] * t) + cb[10] * a + cb[11])
    game = _game(pa, pb)
    if kind == "quadratic":
        minpoly, alpha = _T**2 - d, sp.sqrt(d)
        low, high = Fraction(1), Fraction(3)
    else:
        minpoly, alpha = _T**3 - d, sp.CRootOf(X**3 - d, 0)
        low, high = Fraction(1), Fraction(2)
    field = NumberField(sp.Poly(minpoly, _T, domain=sp.QQ), low, high)
    # coordinates p + q * alpha scaled into [0, 1]
    exprs = [sp.Rational(p, 4) + sp.Rational(q, 16) * _T for p, q in coords]
    polys = [sp.Poly(e, _T, domain=sp.QQ) for e in exprs]
    profile = dict(zip("abc", polys))
    tpoly = sp.Poly(sp.Rational(3, 2), _T, domain=sp.QQ)
    report = exact_regret_in_field(game, field, profile, {"t": tpoly})
    values = {game.symbol(n): e.subs(_T, alpha) for n, e in zip("abc", exprs)}
    values[t] = sp.Rational(3, 2)
    for k, player in enumerate(game.players):
        own = [game.symbol(v) for v in player.variables]
        base = player.payoff.subs(values)
        best = max(sp.N(player.payoff.subs({**values, **dict(zip(own, vertex))}) - base, 60)
                   for vertex in [(0,) * len(own), (1,) * len(own), *([(0, 1), (1, 0)] if len(own) == 2 else [])])
        assert abs(sp.N(report.gains[k], 60) - best) < sp.Float(10) ** -40
        assert report.signs[k] == (0 if abs(best) < sp.Float(10) ** -50 else (1 if best > 0 else -1))
    if kind == "quadratic":
        radical = exact_regret(game, {n: e.subs(_T, alpha) for n, e in zip("abc", exprs)}, {"t": sp.Rational(3, 2)})
        assert radical.is_nash == report.is_nash
        assert [sp.radsimp(g) for g in radical.gains] == [sp.radsimp(g) for g in report.gains]


def test_a_member_tied_by_a_cubic_gets_an_exact_witness_on_the_grid():
    # u is a root of u^3 - 3u + 2z (one free frequency tied by a cubic), z free, t < 4z < 4: the simplest grid
    # value of z with a root of the cubic in [0, 1] that satisfies every condition, found exactly
    from symgame.engine.atlas import SolvedBranch, branch_witness
    from symgame.engine.parametric import CaseBranch
    from symgame.engine.ranges import BranchRange

    u, z = sp.Symbol("a", real=True), sp.Symbol("b", real=True)
    game = PolynomialGame("g", (parse_domain("t", "[0, 4]"),),
                          (PolyPlayer("A", ("a",), sp.expand(a * t)), PolyPlayer("B", ("b",), sp.expand(b * a))))
    conditions = ((u**3 - 3 * u + 2 * z, "=="), (u, ">="), (1 - u, ">="), (z, ">="), (1 - z, ">"),
                  (4 * z - t, ">"), (u - sp.Rational(1, 10), ">"))
    # (the primitive unknown comes last among the free variables, as fibre_branch orders them)
    member = SolvedBranch(CaseBranch("c", None, (("a", u), ("b", z)), ("b", "a"), conditions),
                          BranchRange((), False, 0))
    for value, expected_z in ((Fraction(1), sp.Rational(1, 2)), (Fraction(3), sp.Rational(4, 5))):
        witness = branch_witness(game, member, value)
        assert witness["b"] == expected_z          # 1/2 is the simplest z with 4z > 1; 4/5 with 4z > 3 (grid order)
        field, polys = field_of([witness["a"], witness["b"]])
        # the tied frequency is exactly a root of the cubic at that z, inside the box and above 1/10
        assert (polys[0] ** 3 - 3 * polys[0] + 2 * expected_z).rem(field.minpoly).is_zero
        assert 0.1 < float(witness["a"]) < 1
    # no grid value works when the conditions cannot hold: no witness (z3 agrees)
    impossible = SolvedBranch(CaseBranch("c", None, (("a", u), ("b", z)), ("b", "a"),
                                         conditions + ((u - 1, ">"),)), BranchRange((), False, 0))
    assert branch_witness(game, impossible, Fraction(1), timeout_ms=2000) is None


@settings(max_examples=40, derandomize=True)
@given(coefficients=st.lists(st.integers(-4, 4), min_size=16, max_size=16),
       point=st.lists(st.fractions(0, 1, max_denominator=9), min_size=3, max_size=3),
       value=st.fractions(0, 4, max_denominator=5))
def test_rational_regret_equals_the_gains_by_substitution(coefficients, point, value):
    """At a rational point the regret is computed in python-flint's rationals from the payoffs' monomials; it must
    equal each player's best vertex payoff minus her payoff, both by substitution into the expressions."""
    monomials = [m * tp for m in (1, a, b, c, a * b, a * c, b * c, a * b * c) for tp in (1, t)]
    pa = sum(k * m for k, m in zip(coefficients, monomials))
    pb = sum(k * m for k, m in zip(reversed(coefficients), monomials))
    game = _game(pa, pb)
    at = dict(zip((a, b, c), (sp.Rational(q.numerator, q.denominator) for q in point)))
    at[t] = sp.Rational(value.numerator, value.denominator)
    report = exact_regret(game, {str(s): at[s] for s in (a, b, c)}, {"t": at[t]})
    expected = []
    for payoff, own in ((pa, (a,)), (pb, (b, c))):
        here = payoff.subs(at)
        vertices = ([0], [1]) if len(own) == 1 else ([0, 0], [0, 1], [1, 0], [1, 1])
        best = max(payoff.subs({**at, **dict(zip(own, v))}) for v in vertices)
        expected.append(best - here)
    assert list(report.gains) == expected and report.in_box
