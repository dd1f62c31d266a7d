from fractions import Fraction

import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from symgame.model.expr import ExpressionError, compile_exact, parse_expression, parse_relation

T = sp.Symbol("t", real=True)
NAMES = {"t": T}


@pytest.mark.parametrize("text, expected", [
    ("1/2 - t^2", sp.Rational(1, 2) - T**2),
    ("0.25*t", T / 4),
    ("-(t - 1)**3", -(T - 1) ** 3),
    ("2^-1", sp.Rational(1, 2)),
    ("--t", T),
    ("(t)", T),
])
def test_accepts_arithmetic(text, expected):
    assert sp.expand(parse_expression(text, NAMES) - expected) == 0


@pytest.mark.parametrize("text, fragment", [
    ("__import__('os').system('true')", "unexpected character"),
    ("t.real", "unexpected character"),
    ("exp(t)", "unknown name 'exp'"),
    ("x + 1", "unknown name 'x'"),
    ("t^t", "integer constant"),
    ("2^1000", "exceeds the limit"),
    ("2^64^64", "exceeds the limit"),
    ("t^(1/2)", "integer constant"),
    ("1/0", "division by zero"),
    ("1/(t - t)", "division by zero"),
    ("0^-1", "division by zero"),
    ("(t + 1", "unbalanced parenthesis"),
    ("t +", "unexpected end"),
    ("", "empty expression"),
    ("1" * 100, "digits"),
    ("-" * 500 + "t", "nested deeper"),
    ("t" + " + t" * 2000, "longer than"),
    ("t >= 0", "unexpected '>='"),
    ("lambda: 0", "unexpected character"),
])
def test_rejects_bad_text(text, fragment):
    with pytest.raises(ExpressionError, match=fragment.replace("(", r"\(").replace(".", r"\.")):
        parse_expression(text, NAMES)


def test_relation_is_normalised():
    assert parse_relation("t <= 1/2", NAMES) == (sp.Rational(1, 2) - T, ">=")
    assert parse_relation("t = 2", NAMES) == (T - 2, "==")
    with pytest.raises(ExpressionError, match="needs a relation"):
        parse_relation("t", NAMES)


polynomials = st.lists(st.tuples(st.integers(-9, 9), st.integers(1, 9), st.integers(0, 5)),
                       min_size=1, max_size=6)


@given(polynomials, st.fractions(min_value=-5, max_value=5, max_denominator=20))
def test_round_trip_and_exact_evaluation(terms, value):
    expr = sum(sp.Rational(n, d) * T**k for n, d, k in terms)
    parsed = parse_expression(sp.sstr(expr), NAMES)
    assert sp.expand(parsed - expr) == 0
    exact = compile_exact(parsed)({"t": Fraction(value)})
    assert exact == Fraction(str(expr.subs(T, sp.Rational(value.numerator, value.denominator))))
