"""msolve as the solver of large supports (symgame.engine.msolve), and ball-arithmetic signs in number fields."""
from fractions import Fraction

import pytest
import sympy as sp
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from symgame.engine import enumpoly
from symgame.engine.algebraic import (
    NumberField,
    _ball_sign,
    _interval_horner,
    real_parametrized_points,
    real_solutions,
)
from symgame.engine.msolve import MsolveError, _parse, msolve_program, parametrize
from symgame.model.gambit import read_nfg

needs_msolve = pytest.mark.skipif(msolve_program() is None, reason="msolve is not installed (.ci/install installs it)")
x, y, z = sp.symbols("x y z")


def same_points(found, expected, tol=1e-9):
    """Point lists equal within ``tol`` coordinate by coordinate (pytest.approx takes no nested sequences since
    pytest 9.1, so the points are compared pairwise)."""
    assert len(found) == len(expected), (found, expected)
    for a, b in zip(found, expected):
        assert len(a) == len(b) and all(abs(u - v) <= tol for u, v in zip(a, b)), (found, expected)
    return True


def real_points(equations, symbols):
    found = parametrize(equations, symbols)
    assert not isinstance(found, str) and found is not None
    return sorted(tuple(float(c) for c in point) for _, point in real_parametrized_points(found.eliminant,
                                                                                          list(found.coordinates)))


@needs_msolve
def test_parametrization_small_systems():
    assert same_points(real_points([x ** 2 - 2, 2 * y - x - 3], [x, y]),
                       [(-2 ** 0.5, 1.5 - 2 ** 0.5 / 2), (2 ** 0.5, 1.5 + 2 ** 0.5 / 2)])
    assert real_points([x ** 2 + y ** 2 - 5, x * y - 2], [x, y]) == [(-2, -1), (-1, -2), (1, 2), (2, 1)]
    assert real_points([x ** 2 + 1, y], [x, y]) == []
    assert parametrize([x - 1, x - 2], [x, y]) is None
    assert parametrize([x ** 2 - 1, (x - 1) * y], [x, y]) == "positive-dimensional"


def test_parser_reads_nothing_but_lists_of_integers_and_names():
    assert _parse("[0, [1, 'x'], [-12, [3]]]:") == [0, [1, "x"], [-12, [3]]]
    for bad in ("[1, 2, x]", "[1, [2]", "]", "[__import__('os')]", "[1] ; rm"):
        with pytest.raises(MsolveError):
            _parse(bad)


coefficient = st.integers(-3, 3)


@needs_msolve
@seed(20261125)
@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(coefficient, min_size=18, max_size=18))
def test_msolve_and_flint_groebner_find_the_same_real_solutions(c):
    """Random systems of three quadrics in three unknowns: msolve's parametrization and FLINT's Buchberger with
    sympy's FGLM (two independent routes) give the same real points."""
    monomials = [x * x, y * y, z * z, x * y, x * z, y * z]
    equations = [sum(k * m for k, m in zip(c[6 * i:6 * i + 6], monomials)) + (x, y, z)[i] - 1 for i in range(3)]
    mine = real_solutions(equations, [x, y, z])
    theirs = parametrize(equations, [x, y, z])
    if mine is None or isinstance(theirs, str):
        assert mine is None and theirs == "positive-dimensional"
        return
    expected = sorted(tuple(float(v) for v in point) for _, point in mine)
    found = [] if theirs is None else sorted(tuple(float(v) for v in point) for _, point in
                                             real_parametrized_points(theirs.eliminant, list(theirs.coordinates)))
    assert same_points(found, expected)


RING = read_nfg('NFG 1 R "ring" { "1" "2" "3" } { 2 2 2 } 1 1 1 0 1 0 0 0 1 1 0 0 1 0 0 0 0 1 0 1 0 1 1 1')


@needs_msolve
def test_enumpoly_solves_supports_past_its_groebner_limit_with_msolve(monkeypatch):
    plain = enumpoly.enumpoly_solve(RING)
    assert plain.complete and not plain.msolve_supports
    monkeypatch.setattr(enumpoly, "FLINT_VARIABLES", 1)
    through = enumpoly.enumpoly_solve(RING)
    assert through.msolve_supports and through.complete
    assert {e.profile for e in through.equilibria} == {e.profile for e in plain.equilibria}
    assert all(e.verified for e in through.equilibria)


def test_without_msolve_large_supports_stay_undecided(monkeypatch):
    monkeypatch.setattr(enumpoly, "MAX_VARIABLES", 1)
    monkeypatch.setattr("symgame.engine.msolve.msolve_program", lambda: None)
    result = enumpoly.enumpoly_solve(RING)
    assert not result.complete and result.undecided and not result.msolve_supports


@seed(20261125)
@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.lists(st.integers(-50, 50), min_size=1, max_size=6), st.integers(0, 2))
def test_ball_signs_agree_with_bisection(coeffs, which):
    """The sign of g(alpha) for alpha a root of t^3 - 3t + 1 (three real roots): FLINT's balls against exact
    interval bisection over the rationals."""
    t = sp.Symbol("_T")
    minpoly = sp.Poly(t ** 3 - 3 * t + 1, t, domain=sp.QQ)
    low, high = [(Fraction(-2), Fraction(-1)), (Fraction(0), Fraction(1)), (Fraction(1), Fraction(2))][which]
    field = NumberField(minpoly, low, high)
    g = sp.Poly(list(coeffs), t, domain=sp.QQ).rem(minpoly)
    if g.is_zero:
        return
    raw = g.all_coeffs()
    ball = _ball_sign(minpoly, low, high, raw)
    exact = [Fraction(int(c.p), int(c.q)) for c in raw]
    lo, hi = low, high
    while True:
        a, b = _interval_horner(exact, lo, hi)
        if a > 0 or b < 0:
            break
        lo, hi = field._halve(lo, hi)
    assert ball == (1 if a > 0 else -1)

