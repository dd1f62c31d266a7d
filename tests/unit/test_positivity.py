"""Ball-arithmetic branch and bound and the local quadratic lemma on small polynomials with known answers."""
from fractions import Fraction

import sympy as sp
from flint import arb

from symgame.verify.positivity import (
    arb_polynomial,
    certify_nonnegative,
    quadratic_zero_lemma,
    taylor_at_algebraic_point,
    to_arb,
)

C, X, Y = sp.symbols("c x y", real=True)
SQRT_HALF = sp.Poly(2 * C ** 2 - 1, C, domain=sp.QQ)       # c = 1/sqrt(2)
UNIT = tuple((Fraction(0), Fraction(1)) for _ in range(2))


def _prove(expr, orthants=((1, 1),), min_width=Fraction(1, 2 ** 10)):
    poly = sp.Poly(expr, C, X, Y, domain=sp.QQ)
    c = arb(2) ** (arb(-1) / 2)
    lemma = quadratic_zero_lemma(taylor_at_algebraic_point(poly, C, SQRT_HALF), 2, c, orthants[0])
    r = to_arb(lemma.radius)

    def zone(box):
        return lemma.holds and all(to_arb(lo) >= c - r and to_arb(hi) <= c + r for lo, hi in box)

    cert = certify_nonnegative(lambda box: [0], [arb_polynomial(poly, C, c)], zone, UNIT, min_width)
    return lemma, cert


def test_a_positive_definite_double_zero_is_proved():
    lemma, cert = _prove((X - C) ** 2 + (Y - C) ** 2 + (X - C) * (Y - C) + (X - C) ** 3)
    assert lemma.holds and cert.proved and cert.local_boxes > 0


def test_a_function_that_dips_below_zero_is_not_proved():
    lemma, cert = _prove((X - C) ** 2 + (Y - C) ** 2 - sp.Rational(1, 1000))
    assert not lemma.holds                      # the value at the point is not 0
    assert not cert.proved and cert.undecided_box is not None


def test_a_nonzero_slope_at_the_point_defeats_the_lemma():
    lemma, _ = _prove((X - C) ** 2 + (Y - C) ** 2 + (X - C) / 100)
    assert not lemma.vanishes_to_second_order and not lemma.holds


def test_an_indefinite_form_is_copositive_only_on_the_right_orthant():
    expr = (X - C) ** 2 + (Y - C) ** 2 + 3 * (X - C) * (Y - C)
    good, _ = _prove(expr, orthants=((1, 1),))
    bad, _ = _prove(expr, orthants=((1, -1),))
    assert good.holds and not bad.holds
