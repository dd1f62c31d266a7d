"""Unit tests of the engine modules on games small enough to solve by hand."""
import math
from fractions import Fraction

import pytest
import sympy as sp
import z3
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import symgame
from symgame.engine import casesplit, dominance, parametric, z3terms
from symgame.engine.derive import derive_by_discovery, derive_equilibria
from symgame.engine.discovery import discover_branches, unit_grid
from symgame.model.decide import Decision
from symgame.model.polyfile import polynomial_game_from_data
from symgame.numeric.kernels import game_kernels

# u1 = P x y + 3 x y - 2 x - 2 y + 1 (a parametrized matching pennies); u2 = -u1.
# By hand: dE1/dx = (P + 3) y - 2, dE2/dy = 2 - (P + 3) x, unique equilibrium x = y = 2/(P + 3).
PENNIES = {"game": "pennies", "parameters": {"P": "[1, oo)"},
           "players": [{"name": "1", "variables": ["x"], "payoff": "P*x*y + 3*x*y - 2*x - 2*y + 1"},
                       {"name": "2", "variables": ["y"], "payoff": "-(P*x*y + 3*x*y - 2*x - 2*y + 1)"}]}


@pytest.fixture(scope="session")     # see conftest.py: built once per worker
def pennies():
    return polynomial_game_from_data(PENNIES, "<test>")


def test_structure_takes_the_largest_independent_responder_set(pennies):
    structure = casesplit.detect_structure(pennies)
    # g_x depends on y and g_y on x: only one of them can be a responder; ties go to the first variable
    assert structure.responders == ("x",) and structure.leaders == ("y",)
    assert casesplit.total_cases(structure) == 9


def test_the_interior_case_is_solved_exactly_with_p_symbolic(pennies):
    structure = casesplit.detect_structure(pennies)
    P = pennies.symbol("P")
    solution = parametric.solve_case(pennies, structure, "I0")
    assert len(solution.branches) == 1 and not solution.unsolved
    values = solution.branches[0].value_map
    assert sp.simplify(values["x"] - 2 / (P + 3)) == 0 and sp.simplify(values["y"] - 2 / (P + 3)) == 0
    assert parametric.fixed_values(structure, "U+") == {"y": 1, "x": 1}
    # a pure case: y = 1 needs dE2/dy = 2 - (P + 3) x >= 0 and x = 1 needs dE1/dx = (P + 3) y - 2 > 0,
    # impossible together for P >= 1 (2 - (P + 3) < 0); the case has no branch with satisfiable conditions
    pure = parametric.solve_case(pennies, structure, "U+")
    at_one = [all(_holds(e.subs(P, 1), rel) for e, rel in b.conditions) for b in pure.branches]
    assert not any(at_one)


def test_the_atlas_finds_exactly_the_hand_solution(pennies):
    atlas = symgame.atlas(pennies)
    assert len(atlas.families) == 1
    member = atlas.families[0].members[0]
    P = pennies.symbol("P")
    assert sp.simplify(dict(member.branch.values)["x"].subs(P, 1) - sp.Rational(1, 2)) == 0


def test_z3_encoder_handles_square_roots_and_algebraic_models():
    encoder = z3terms.Z3Encoder()
    x = sp.Symbol("x", real=True)
    formula = encoder.condition(x - sp.sqrt(2), "==")
    assert z3terms.decide([formula], encoder) is Decision.TRUE
    assert z3terms.decide([formula, encoder.var("x") < 1], encoder) is Decision.FALSE      # sqrt(2) >= 1
    value = z3terms.model_values([encoder.var("x") * encoder.var("x") == 2, encoder.var("x") > 0], encoder, ["x"])
    assert value is not None and sp.simplify(value["x"] - sp.sqrt(2)) == 0
    with pytest.raises(ValueError, match="cannot translate"):
        encoder.term(sp.sin(x))


def test_polynomial_term_matches_the_polynomial():
    a, b = sp.symbols("a b")
    poly = sp.Poly(3 * a ** 2 * b - sp.Rational(1, 2) * b + 7, a, b)
    va, vb = z3.Reals("va vb")
    term = z3terms.polynomial_term(poly, [va, vb])
    solver = z3.Solver()
    solver.add(va == 2, vb == 3, term != 3 * 4 * 3 - sp.Rational(3, 2) + 7)
    assert solver.check() == z3.unsat


def test_dominance_removes_only_proved_dominated_actions():
    # row a3 is dominated by a1 for every t in [0, 1]; nothing else is
    game = symgame.normal_form([["1", "0"], ["0", "1"], ["t - 1", "-1"]], parameters={"t": "[0, 1]"},
                               zero_sum=True)
    reduction = dominance.reduce_by_dominance(game, [{"t": 0.5}])
    assert reduction.kept == ((0, 1), (0, 1))
    # the reduced game's PDL, lifted, still gives a3 probability 0 and solves the full game
    full = derive_equilibria(game)
    reduced = derive_by_discovery(game, game_kernels)
    assert all(rule.profile.strategies[0][2] == 0 for rule in reduced.pdl.rules)
    assert full.pdl.evaluate({"t": Fraction(1, 3)}).strategies == reduced.pdl.evaluate({"t": Fraction(1, 3)}).strategies


def test_discovery_proves_its_cover_from_few_samples():
    game = symgame.normal_form([["a", "0"], ["0", "1 - a"]], parameters={"a": "[0, 1]"}, zero_sum=True)
    discovery = discover_branches(game, unit_grid(["a"], 4), game_kernels)
    assert discovery.coverage.proved
    supports = {b.supports for b in discovery.branches}
    assert ((0, 1), (0, 1)) in supports             # the mixed branch for 0 < a < 1


def _holds(value, rel):
    value = sp.nsimplify(value)
    return {">": value > 0, ">=": value >= 0, "==": value == 0}[rel]


def test_sign_conditions_drop_factors_of_proved_constant_sign():
    from symgame.engine.conditions import SignOracle, polynomial_condition
    from symgame.model.decide import Z3Context

    # W > 0 on the domain (as the Weakest Link's bank): (W (p - 1/2)) / (W^2 + 1) >= 0 must become p - 1/2 >= 0
    game = symgame.normal_form([["W", "p"]], parameters={"W": "(0, 10]", "p": "[0, 1]"}, zero_sum=True)
    oracle = SignOracle(Z3Context(game.domain))
    ring = sp.QQ[sp.Symbol("W", real=True), sp.Symbol("p", real=True)]
    W, p = ring.gens
    atoms = polynomial_condition(W * (2 * p - 1), W ** 2 + 1, oracle)
    assert len(atoms) == 1 and atoms[0].rel == ">="
    assert sp.expand(atoms[0].expr - (2 * sp.Symbol("p", real=True) - 1)) == 0
    # a factor of unknown sign stays, and a denominator of unknown sign is required nonzero
    atoms = polynomial_condition(2 * p - 1, W - 5, oracle)
    rels = sorted(a.rel for a in atoms)
    assert rels == ["!=", ">="]
    assert oracle.sign(sp.Symbol("W", real=True)) == 1 and oracle.sign(sp.Symbol("p", real=True) - 2) == -1


_P1, _P2 = sp.symbols("p1 p2", real=True)
_QQ_P = sp.QQ[_P1, _P2]


@st.composite
def _polynomial_blocks(draw):
    """A k x k block over QQ[p1, p2]: small rational coefficients, low degree, sometimes a repeated column."""
    k = draw(st.integers(1, 5))
    coefficient = st.fractions(min_value=-3, max_value=3, max_denominator=4)

    def entry():
        terms = draw(st.lists(st.tuples(coefficient, st.integers(0, 2), st.integers(0, 1)), max_size=3))
        return sum((_QQ_P(sp.Rational(c.numerator, c.denominator)) * _QQ_P.gens[0] ** a * _QQ_P.gens[1] ** b
                    for c, a, b in terms), _QQ_P.zero)

    block = [[entry() for _ in range(k)] for _ in range(k)]
    if k >= 2 and draw(st.booleans()):
        for row in block:
            row[1] = row[0]                      # equal columns: the bordered matrix is singular
    return block


@settings(max_examples=150, deadline=None, derandomize=True)
@given(_polynomial_blocks())
def test_indifference_solution_solves_the_bordered_system_in_lowest_terms(block):
    """FLINT's fraction-free elimination against the equations themselves and sympy's rank over QQ(p1, p2)."""
    from symgame.engine.support_enumeration import solve_indifference

    k = len(block)
    field = _QQ_P.get_field()
    from sympy.polys.matrices import DomainMatrix

    # the rank over the field QQ(p1, p2) by sympy's exact domain matrices (sp.Matrix.rank(simplify=True) took
    # minutes on some of the blocks hypothesis 6.170 draws, and decides zero by simplification)
    rows = [[field.convert(e) for e in row] + [field.convert(-1)] for row in block] + [[field.one] * k + [field.zero]]
    bordered = DomainMatrix(rows, (k + 1, k + 1), field)
    solution = solve_indifference(_QQ_P, block)
    if bordered.rank() < k + 1:
        assert solution is None
        return
    assert solution is not None
    den = field.convert(solution.denominator)
    z = [field.convert(n) / den for n in solution.numerators]
    w = field.convert(solution.value_numerator) / den
    for row in block:
        assert sum((field.convert(e) * zj for e, zj in zip(row, z)), field.zero) == w
    assert sum(z, field.zero) == field.one
    common = solution.denominator
    for n in solution.numerators + (solution.value_numerator,):
        common = _QQ_P.gcd(common, n)
    assert common.is_ground and solution.denominator.LC > 0
    coefficients = [c for n in solution.numerators + (solution.value_numerator, solution.denominator)
                    for c in n.coeffs()]
    assert all(c.denominator == 1 for c in coefficients)
    assert math.gcd(*(int(c.numerator) for c in coefficients)) == 1


@st.composite
def _rational_expressions(draw):
    """A quotient of two small polynomials in p1, p2 with rational coefficients (denominator not zero)."""
    coefficient = st.fractions(min_value=-3, max_value=3, max_denominator=3)

    def poly():
        terms = draw(st.lists(st.tuples(coefficient, st.integers(0, 2), st.integers(0, 2)), min_size=1, max_size=3))
        return sum((sp.Rational(c.numerator, c.denominator) * _P1 ** a * _P2 ** b for c, a, b in terms), sp.Integer(0))

    numer, denom = poly(), poly()
    if denom == 0:
        denom = sp.Integer(1)
    return numer / denom


@settings(max_examples=100, deadline=None, derandomize=True)
@given(_rational_expressions(), _rational_expressions(), _rational_expressions())
def test_certificate_rational_functions_agree_with_sympy(a, b, c):
    """The FLINT fraction field of the certificates against sympy's ``cancel`` on (a + b)·c − a, in lowest terms."""
    from symgame.verify.certify import RationalFunctions

    functions = RationalFunctions(["p1", "p2"])
    value = (functions(a) + functions(b)) * functions(c) - functions(a)
    expected = sp.cancel((a + b) * c - a)
    got = functions.to_sympy(value.numer) / functions.to_sympy(value.denom)
    assert sp.cancel(got - expected) == 0
    assert bool(value) == (expected != 0)
    common = value.numer.gcd(value.denom)
    assert common.is_constant() and int(common.leading_coefficient()) in (1, -1)
    assert int(value.denom.leading_coefficient()) > 0


@settings(max_examples=40, derandomize=True)
@given(coefficients=st.lists(st.integers(-3, 3), min_size=27, max_size=27), power=st.integers(1, 3))
def test_derivatives_and_linear_parts_read_off_the_monomials_equal_their_definitions(coefficients, power):
    """``PolynomialGame.derivatives`` (one polynomial per payoff, differentiated as a polynomial) and the case
    search's ``A*u + B`` parts (read off the monomials) against ``sympy.diff`` and substitution of expressions."""
    from symgame.model.parameters import parameter_symbol, parse_domain
    from symgame.model.polygame import PolynomialGame, PolyPlayer

    x, y, z, p = (parameter_symbol(n) for n in ("x", "y", "z", "P"))
    monomials = [x ** a * y ** b * z ** c for a in range(2) for b in range(2) for c in range(2)]
    payoffs = [sum(k * m for k, m in zip(coefficients[9 * i:9 * i + 8], monomials)) * (p ** power + 1)
               + coefficients[9 * i + 8] * p for i in range(3)]
    game = PolynomialGame("random", (parse_domain("P", "[1, 2]"),),
                          (PolyPlayer("1", ("x",), payoffs[0]), PolyPlayer("2", ("y",), payoffs[1]),
                           PolyPlayer("3", ("z",), payoffs[2])))
    gens = game.generators
    for name, player in (("x", 0), ("y", 1), ("z", 2)):
        expected = sp.Poly(sp.diff(payoffs[player], game.symbol(name)), *gens, domain="QQ")
        assert game.derivatives[name] == expected
    order = [game.symbol(v) for v in ("z", "x", "y")] + [game.symbol("P")]
    for name in ("x", "y", "z"):
        poly = casesplit._with_generators(game.derivatives[name], order)
        assert poly == sp.Poly(game.derivatives[name].as_expr(), *order, domain="QQ")
        parts = casesplit._linear_parts(poly)
        for slot, a, b in parts:
            gen = order[slot]
            assert a == casesplit.interval_poly(sp.Poly(poly.as_expr().diff(gen), *order, domain="QQ"))
            assert b == casesplit.interval_poly(sp.Poly(poly.as_expr().subs(gen, 0), *order, domain="QQ"))
        assert [slot for slot, _, _ in parts] == [k for k, g in enumerate(order) if poly.degree(g) == 1]


small = st.integers(-3, 3)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(small, st.integers(0, 2), st.integers(0, 2), st.integers(0, 3), st.integers(0, 3)),
                min_size=1, max_size=4),
       st.tuples(st.integers(1, 3), small, st.integers(1, 3)), st.tuples(small, st.integers(1, 3), st.integers(1, 3)),
       st.fractions(-3, 3, max_denominator=5), st.fractions(-3, 3, max_denominator=5))
def test_radical_norm_is_the_product_over_the_conjugates(terms, d1, d2, p0, c0):
    """``radical_norm`` of a polynomial F(P, c, sqrt(D1), sqrt(D2)) (A**2 - D*B**2 from the reduction modulo
    s**2 - D, per root) equals, at a rational point, the iterated resultant of F(P0, c0, s1, s2) with
    s1**2 - D1(P0, c0) and s2**2 - D2(P0, c0) over Q: the product of F over the four sign choices."""
    P, c, s1, s2 = sp.symbols("P c s1 s2")
    D1, D2 = d1[0] + d1[1] * P + d1[2] * c, d2[0] * c + d2[1] + d2[2] * P    # sums: sympy keeps sqrt(D) whole
    assume(sp.expand(D1 - D2) != 0 and math.gcd(*d1) == 1 and math.gcd(*d2) == 1)   # no sqrt(2)*sqrt(...) split
    F = sum(k * P ** i * c ** j * s1 ** a * s2 ** b for k, i, j, a, b in terms)
    expr = sp.expand(F.subs({s1: sp.sqrt(D1), s2: sp.sqrt(D2)}))
    at = {P: sp.Rational(p0.numerator, p0.denominator), c: sp.Rational(c0.numerator, c0.denominator)}
    reference = sp.expand(expr.subs({sp.sqrt(D1): s1, sp.sqrt(D2): s2}).subs(at))
    for s, D in ((s1, D1), (s2, D2)):
        if expr.has(sp.sqrt(D)):            # a root left only in even powers is no root of expr: no norm
            reference = sp.expand(sp.resultant(reference, s ** 2 - D.subs(at), s))
    assert parametric.radical_norm(expr).subs(at) == reference


def test_radical_norm_equals_sympys_resultant_on_a_quotient():
    P, c = sp.symbols("P c")
    r1, r2 = sp.sqrt(1 - 2 * c), sp.sqrt(P ** 2 + c)
    for expr in ((P * r1 + c * r2 - 1) / (1 + r1) + c, 1 / r2 + P * r1, (1 + r1) ** 3 - P):
        assert parametric.radical_norm(expr) == parametric._radical_norm_by_resultant(expr)
    # a root that sympy splits while expanding is multiplied out too: sqrt(2*c + 2) = sqrt(2)*sqrt(c + 1)
    split = sp.Add(sp.sqrt(c + 1), sp.Pow(2 * c + 2, sp.Rational(1, 2), evaluate=False), 1, evaluate=False)
    norm = parametric.radical_norm(split)
    s, t = sp.symbols("s t")                        # 1 + (1 + t)*s with s**2 = c + 1 and t**2 = 2
    reference = sp.resultant(sp.resultant(1 + (1 + t) * s, s ** 2 - c - 1, s), t ** 2 - 2, t)
    assert not parametric.has_sqrt(norm) and sp.sqf_part(norm) == sp.sqf_part(reference)     # the same roots


def test_a_residual_is_dropped_without_simplify_only_when_its_numerator_expands_to_zero():
    c, d = sp.symbols("c d", positive=True)
    r = sp.sqrt(1 - 2 * c)
    assert parametric._numerator_expands_to_zero(sp.together((1 + r) * (1 - r) / (c + 1) - 2 * c / (c + 1)))
    assert not parametric._numerator_expands_to_zero(sp.together(r - 1))
    assert not parametric._numerator_expands_to_zero(sp.sqrt(c + 1) * sp.sqrt(d) - sp.sqrt(c * d + d))
