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


# --------------------------------------------------------------------------- payoffs by matrix products

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_small = st.fractions(min_value=-4, max_value=4, max_denominator=5)


@settings(max_examples=30)
@given(st.integers(1, 4), st.integers(1, 4), st.booleans(), st.data())
def test_action_values_by_flint_matrix_products_equal_the_entries_one_by_one(rows, cols, one_player, data):
    """The fast path of exact regret (each player's matrix as constant matrices times monomials of the
    parameters, multiplied in python-flint) gives the sums of the entries evaluated one by one, exactly; a
    rational function entry falls back to the entries."""
    from flint import fmpq

    from symgame.model.expr import raw_point

    a, b = sp.Symbol("a", real=True), sp.Symbol("b", real=True)
    domain = Domain((parse_domain("a", "(0, 1)"), parse_domain("b", "(0, 1)")))
    cols = 1 if one_player else cols
    monomials = [sp.Integer(1), a, b, a * b, a**2, b**3]

    def entry():
        coefficients = data.draw(st.lists(_small, min_size=len(monomials), max_size=len(monomials)))
        return sum((sp.Rational(c.numerator, c.denominator) * m for c, m in zip(coefficients, monomials)),
                   sp.Integer(0))

    players = (Player("1", tuple(f"r{i}" for i in range(rows))),) + (
        () if one_player else (Player("2", tuple(f"c{j}" for j in range(cols))),))
    matrices = tuple(sp.ImmutableMatrix(rows, cols, lambda i, j: entry()) for _ in players)
    rational = data.draw(st.booleans())
    if rational:          # one entry a rational function: no monomial form, the entries' path
        matrices = (sp.ImmutableMatrix(rows, cols, lambda i, j: matrices[0][i, j] + (1 / (1 + a) if i == j == 0
                                                                                     else 0)),) + matrices[1:]
    game = NormalFormGame("random", domain, players, matrices)
    assert (game._payoff_terms is None) == rational
    point = raw_point({"a": data.draw(_small), "b": data.draw(_small)})
    strategies = [[fmpq(v.numerator, v.denominator) for v in data.draw(st.lists(_small, min_size=n, max_size=n))]
                  for n in ((rows, cols) if not one_player else (rows,))]
    assert game.action_values_raw(point, strategies) == game.entry_values_raw(point, strategies)


@settings(max_examples=40)
@given(st.lists(st.tuples(st.tuples(*[st.integers(0, 1)] * 3, st.integers(0, 2)), _small), min_size=1, max_size=12),
       st.tuples(st.integers(0, 1), st.integers(0, 1)))
def test_deviation_monomials_at_a_vertex_are_the_payoff_with_the_vertex_substituted(monomials, vertex):
    """The certificates' deviation gains read each player's payoff at a vertex of her box from its monomials with
    her frequencies pinned (merged once per player and vertex); that is the payoff with the vertex substituted."""
    from symgame.verify.polycert import _pinned_monomials

    x, y, z, p = sp.symbols("x y z P", real=True)
    gens = (x, y, z, p)
    expr = sum((sp.Rational(c.numerator, c.denominator) * x**a * y**b * z**d * p**e
                for (a, b, d, e), c in monomials), sp.Integer(0))
    poly = sp.Poly(expr, *gens, domain="QQ")
    pinned = ((0, vertex[0]), (2, vertex[1]))                 # x and z are the deviating player's
    substituted = sp.Poly(expr.subs({x: vertex[0], z: vertex[1]}), *gens, domain="QQ")
    assert dict(_pinned_monomials(poly, pinned)) == dict(substituted.terms()) if not substituted.is_zero \
        else _pinned_monomials(poly, pinned) == ()


@settings(max_examples=60)
@given(st.integers(1, 3), st.integers(1, 3), st.data())
def test_is_nash_raw_equals_exact_regret_on_equilibria_and_on_other_profiles(rows, cols, data):
    """The grid check's fast verdict (python-flint values throughout) against the Fraction report: on pure
    profiles of random games (some of them equilibria), random mixtures (rarely equilibria) and vectors that are
    not probability vectors."""
    from flint import fmpq

    from symgame.model.expr import raw_point
    from symgame.verify.regret import exact_regret, is_nash_raw

    a = sp.Symbol("a", real=True)
    domain = Domain((parse_domain("a", "(0, 1)"),))
    entries = st.integers(-2, 2)
    matrices = tuple(sp.ImmutableMatrix(rows, cols, lambda i, j: data.draw(entries) + data.draw(entries) * a)
                     for _ in range(2))
    game = NormalFormGame("random", domain, (Player("1", tuple(f"r{i}" for i in range(rows))),
                                             Player("2", tuple(f"c{j}" for j in range(cols)))), matrices)
    point = {"a": data.draw(st.fractions(0, 1, max_denominator=4))}
    kind = data.draw(st.sampled_from(["pure", "mixed", "invalid"]))
    strategies = []
    for n in (rows, cols):
        if kind == "pure":
            k = data.draw(st.integers(0, n - 1))
            strategies.append([Fraction(int(i == k)) for i in range(n)])
        else:
            weights = data.draw(st.lists(st.integers(0 if kind == "mixed" else -2, 3), min_size=n, max_size=n))
            total = sum(weights)
            strategies.append([Fraction(w, total) if kind == "mixed" and total else Fraction(w) for w in weights])
    expected = exact_regret(game, point, strategies).is_nash
    raw = [[fmpq(p.numerator, p.denominator) for p in s] for s in strategies]
    assert is_nash_raw(game, raw_point(point), raw) == expected


def test_is_nash_raw_refuses_a_vector_with_a_negative_weight_even_where_every_action_pays_the_same():
    from flint import fmpq

    from symgame.verify.regret import exact_regret, is_nash_raw

    game = NormalFormGame.two_player("flat", Domain(()), [Player("1", ("u", "d")), Player("2", ("l", "r"))],
                                     [[0, 0], [0, 0]])
    odd = [Fraction(2), Fraction(-1)]                      # sums to 1, not a probability vector
    assert not exact_regret(game, {}, [odd, odd]).is_nash
    assert not is_nash_raw(game, {}, [[fmpq(2), fmpq(-1)]] * 2)
    assert is_nash_raw(game, {}, [[fmpq(1), fmpq(0)]] * 2)
