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


# --------------------------------------------------------------------------- trees compiled without sympy

_X, _Y = sp.Symbol("x"), sp.Symbol("y")
_leaves = st.one_of(st.sampled_from([_X, _Y]),
                    st.fractions(min_value=-50, max_value=50, max_denominator=12).map(
                        lambda q: sp.Rational(q.numerator, q.denominator)))
_rational_functions = st.recursive(
    _leaves, lambda inner: st.one_of(st.tuples(inner, inner).map(lambda t: t[0] + t[1]),
                                     st.tuples(inner, inner).map(lambda t: t[0] * t[1]),
                                     st.tuples(inner, st.integers(-3, 4)).map(lambda t: t[0] ** t[1]
                                                                               if t[0] != 0 or t[1] >= 0 else t[0])),
    max_leaves=12)


@given(_rational_functions, st.fractions(min_value=-9, max_value=9, max_denominator=7),
       st.fractions(min_value=-9, max_value=9, max_denominator=7))
def test_compile_tree_equals_the_sympy_reading_at_rational_points(expr, x, y):
    """The sympy-free evaluator of a stored tree gives the value of the expression the tree was written from (and
    a pole is a ZeroDivisionError for both, unless sympy cancelled a factor when it built the expression)."""
    from symgame.model.exprtree import compile_tree, from_tree, to_tree

    tree = to_tree(expr)
    point = {"x": x, "y": y}
    try:
        expected = compile_exact(from_tree(tree, {"x": _X, "y": _Y}))(point)
    except ZeroDivisionError:
        return
    assert compile_tree(tree, {"x", "y"})(point) == expected


@pytest.mark.parametrize("tree, fragment", [
    (["num", "1e3"], "bad number"),
    (["num", " 3"], "bad number"),
    (["num", "3/0"], "bad number"),
    (["num", "+3"], "bad number"),
    (["param", "z"], "unknown parameter"),
    (["pow", ["param", "x"], ["num", "1/2"]], "exponents must be integers"),
    (["pow", ["param", "x"], ["num", "100001"]], "exponent beyond"),
    (["add"], "needs arguments"),
    (["div", ["num", "1"]], "unknown operation"),
    ("x", "expected \\[op"),
])
def test_compile_tree_refuses_malformed_trees_in_one_line(tree, fragment):
    from symgame.errors import InputError
    from symgame.model.exprtree import compile_tree

    with pytest.raises(InputError, match=fragment):
        compile_tree(tree, {"x"})


def test_compile_tree_bounds_nesting_instead_of_reaching_the_recursion_limit():
    from symgame.errors import InputError
    from symgame.model.exprtree import MAX_TREE_DEPTH, compile_tree

    tree: list = ["param", "x"]
    for _ in range(MAX_TREE_DEPTH - 1):
        tree = ["add", tree, ["num", "1"]]
    assert compile_tree(tree, {"x"})({"x": Fraction(1, 2)}) == Fraction(2 * MAX_TREE_DEPTH - 1, 2)
    with pytest.raises(InputError, match="nested deeper"):
        compile_tree(["add", tree, ["num", "1"]], {"x"})
