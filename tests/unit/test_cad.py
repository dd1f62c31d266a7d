"""The plane CAD (symgame.model.cad) against z3 and against hand-checked answers."""

import flint
import pytest
import z3
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from symgame.model.cad import Plane, RealRoot, Z3Translator, isolate, simplest_between
from symgame.model.decide import Decision, Z3Context, satisfiable
from symgame.model.parameters import parse_domain
from symgame.model.region import Domain

X, Y = z3.Reals("x y")


def cad_answer(formula):
    plane = Plane(["x", "y"])
    return plane.satisfiable(Z3Translator(plane).formula(formula))


def check_witness(formula, point):
    """Substitute the exact witness back: rational coordinates exactly, algebraic ones through z3's
    own root objects (a point on a curve must satisfy the equation exactly)."""
    subs = []
    for var, root in zip((X, Y), point):
        if root.rational:
            subs.append((var, z3.RealVal(f"{root.value.p}/{root.value.q}")))
        else:
            coeffs = [int(c) for c in root.poly.coeffs()]
            poly = sum(c * var**k for k, c in enumerate(coeffs))
            solver = z3.Solver()
            solver.add(poly == 0, var > z3.RealVal(f"{root.low.p}/{root.low.q}"),
                       var < z3.RealVal(f"{root.high.p}/{root.high.q}"))
            assert solver.check() == z3.sat
            subs.append((var, solver.model().eval(var)))
    value = z3.simplify(z3.substitute(formula, *subs))
    assert z3.is_true(value), (formula, subs, value)


@pytest.mark.parametrize("formula, expected", [
    (z3.And(X * X + Y * Y < 1, X > 0.5, Y > 0.5, X + Y > 1.5), False),
    (z3.And(X * X + Y * Y < 1, X + Y > 1.4), True),
    (z3.And(X * X + Y * Y == 2, X == Y, X > 0), True),   # only (1, 1)
    (z3.And(X * X + Y * Y == 2, X == Y, X > 1), False),
    (z3.And(X * X == 2, Y * Y * Y == X, Y > 1), True),    # algebraic x, algebraic y above it
    (z3.And(X * X == 2, Y * Y == X, Y * Y * Y * Y != 2), False),
    (z3.And(X * X * X - 2 == 0, Y * Y - X == 0), True),
    (z3.And(X >= 0, X <= 1, Y >= 0, Y <= 1, z3.Not(z3.Or(X * Y >= 0.25, X + Y <= 1.0))), True),
    # tangency: the parabola y = x^2 touches y = 2x - 1 at (1, 1) only
    (z3.And(Y == X * X, Y == 2 * X - 1, X != 1), False),
    (z3.And(Y - X * X >= 0, 2 * X - 1 - Y >= 0), True),
    (z3.And(Y - X * X >= 0, 2 * X - 1 - Y > 0), False),
    # a vertical line where the curve x*y - 1 vanishes identically in y? (x - 1)*y: nullified at x = 1
    (z3.And((X - 1) * Y == 0, Y > 0, X * X != 1), False),
    (z3.And((X - 1) * Y == 0, Y > 0), True),
    # above x = sqrt 2 the curve y^2 = x^2 - 2 is the double root y = 0 (its discriminant vanishes)
    (z3.And(X * X == 2, Y * Y == X * X - 2), True),
    (z3.And(X * X == 2, Y * Y == X * X - 2, Y != 0), False),
    (z3.And(X * X == 2, Y * Y == X * X - 2, X * Y * Y + Y - 1 > 0), False),
])
def test_known_answers(formula, expected):
    ok, point = cad_answer(formula)
    assert ok is expected
    if ok:
        check_witness(formula, point)


def test_isolation_and_simple_samples():
    roots = isolate(flint.fmpz_poly([-2, 0, 1]))
    assert len(roots) == 2 and roots[0].compare_rational(flint.fmpq(-1)) < 0
    assert roots[1].compare(RealRoot(flint.fmpz_poly([-3, 2]), 0, 0)) < 0  # sqrt 2 < 3/2
    assert simplest_between(flint.fmpq(1, 3), flint.fmpq(2, 3)) == flint.fmpq(1, 2)
    assert roots[1].index() == 1


@seed(20261126)
@settings(max_examples=120, deadline=None)
@given(st.lists(st.integers(-40, 40), min_size=3, max_size=14), st.integers(-6, 6))
def test_descartes_isolation_agrees_with_arb(coeffs, shift):
    """Exact isolation (Descartes' rule with bisection) finds as many real roots as arb's certified
    complex root finder, in disjoint intervals with a sign change each, enclosing arb's roots."""
    from symgame.model.cad import _descartes, irreducible_factors

    poly = flint.fmpz_poly(coeffs) * flint.fmpz_poly([-shift, 3]) ** 2 + 1
    for factor in irreducible_factors(poly):
        if factor.degree() < 2:
            continue
        intervals = _descartes(factor)
        real = sorted((ball.real for ball, _ in factor.complex_roots() if ball.imag.is_zero()),
                      key=lambda b: float(b.mid()))
        assert len(intervals) == len(real)
        for (low, high), ball in zip(intervals, real):
            assert factor(low) * factor(high) < 0
            assert flint.arb(low) < ball and ball < flint.arb(high)
        assert all(h < l for (_, h), (l, _) in zip(intervals, intervals[1:]))


@seed(20261126)
@settings(max_examples=100, deadline=None)
@given(st.dictionaries(st.tuples(st.integers(0, 3), st.integers(0, 3)), st.fractions(max_denominator=9),
                       max_size=5),
       st.dictionaries(st.tuples(st.integers(0, 3), st.integers(0, 3)), st.fractions(max_denominator=9),
                       max_size=5))
def test_poly_text_names_a_polynomial(a, b):
    """The CAD's key of a polynomial (in place of python-flint's leaking ``str``) is equal exactly for equal
    polynomials, whatever order the terms were given in."""
    from symgame.model.cad import poly_text

    ctx = flint.fmpq_mpoly_ctx.get(("x", "y"), "lex")

    def make(terms, order):
        return ctx.from_dict({m: flint.fmpq(c.numerator, c.denominator) for m, c in sorted(terms.items(), reverse=order)})

    f, g = make(a, False), make(b, True)
    assert poly_text(f) == poly_text(make(a, True))
    assert (poly_text(f) == poly_text(g)) == (f == g)


SQUARE_FREE_FORMULAS = [z3.And(X * X == 2, Y * Y == X * X - 2, Y != 0),
                        z3.And(X * X * X == 2, Y * Y * Y - X * Y + 1 == 0, Y < 0),
                        z3.And(X * X == 3, (Y * Y - X) * (Y - 1) == 0, Y > 1),
                        z3.And(X * X - X - 1 == 0, Y * Y - 2 * X * Y + X * X == 0, Y != X),
                        # y^3 - 3y + x has a double root above x^2 = 4 (x = 2: y = 1 double, y = -2 simple)
                        z3.And(X * X == 4, Y * Y * Y - 3 * Y + X == 0, Y > 0),
                        # y^3 - 3y + x^2 has the double root y = 1 above x = sqrt(2) (an irrational x)
                        z3.And(X * X == 2, Y * Y * Y - 3 * Y + X * X == 0, Y > 0, Y < 2),
                        z3.And(X * X == 2, Y * Y * Y - 3 * Y + X * X == 0, Y > 1)]


def _euclid_everywhere(field, over, *args):
    return [field.squarefree(over) if len(over) > 2 else over]


def test_square_free_shortcuts_agree_with_euclid(monkeypatch):
    """Above an irrational x, f(alpha, y) is taken as square-free when the discriminant does not
    vanish at alpha, and a double root is found through a subresultant; Euclid's gcd over Q(alpha)
    everywhere gives the same answers."""
    import symgame.model.cad as cad

    fast = [cad_answer(f)[0] for f in SQUARE_FREE_FORMULAS]
    monkeypatch.setattr(cad, "root_tests", _euclid_everywhere)
    slow = [cad_answer(f)[0] for f in SQUARE_FREE_FORMULAS]
    assert fast == slow == [False, True, True, False, True, True, False]   # 3^(1/4) > 1


@seed(20261127)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(st.integers(-4, 4), min_size=1, max_size=3), min_size=3, max_size=5))
def test_root_tests_find_the_roots_euclid_finds_above_discriminant_roots(rows):
    """Above every irrational root alpha of a factor's discriminant (where f(alpha, y) has a multiple root),
    the subresultant's gcd divides f(alpha, y) and its derivative, and the polynomials of root_tests have
    exactly the real roots of Euclid's square-free part."""
    import symgame.model.cad as cad

    plane = Plane(("x", "y"))
    gx, gy = plane.ctx.gens()
    f = sum(sum(c * gx**i for i, c in enumerate(row)) * gy**k for k, row in enumerate(rows))
    if f.is_zero():
        return
    for key, _ in plane.factorize(f)[1]:
        factor = plane.factors[key]
        if factor.degree_y < 2:
            continue
        for d in cad.irreducible_factors(plane._discriminant(key)):
            for alpha in (isolate(d) if d.degree() >= 2 else []):
                field = cad.AlgebraicExtension(alpha)
                over = field.trim([flint.fmpq_poly(c.coeffs()) for c in factor.coeffs])
                tests = cad.root_tests(field, over, len(factor.coeffs), plane._discriminant_q(key),
                                       lambda j: plane._subresultant(key, j))
                euclid = field.squarefree(over)
                if len(tests) == 2:
                    gcd = tests[1]
                    assert not field.rem(over, gcd) and not field.rem(field.derivative(over), gcd)
                    assert len(gcd) == 2 and len(euclid) == len(over) - 1
                else:
                    assert field.monic(tests[0]) == field.monic(euclid)


def test_subresultants_are_the_sylvester_determinants():
    """For f = y^3 - 3y + x and f' = 3y^2 - 3: S_0 is the resultant 27x^2 - 108 (zero at x = +-2, where f has a
    double root) and S_1 = 9x - 18y, whose root y = x/2 is that double root (x = 2: y = 1; x = -2: y = -1)."""
    import symgame.model.cad as cad

    f = [flint.fmpz_poly([0, 1]), flint.fmpz_poly([-3]), flint.fmpz_poly([0]), flint.fmpz_poly([1])]
    g = [flint.fmpz_poly([-3]), flint.fmpz_poly([0]), flint.fmpz_poly([3])]
    assert cad.subresultant_coefficients(f, g, 0) == [flint.fmpz_poly([-108, 0, 27])]
    assert cad.subresultant_coefficients(f, g, 1) == [flint.fmpz_poly([0, 9]), flint.fmpz_poly([-18])]


def _polynomial(draw_coeffs):
    return sum(c * X**i * Y**j for (i, j), c in draw_coeffs.items())


monomials = st.sampled_from([(0, 0), (1, 0), (0, 1), (2, 0), (1, 1), (0, 2), (2, 1), (1, 2), (3, 0)])
polys = st.dictionaries(monomials, st.integers(-3, 3), min_size=1, max_size=4)
relations = st.sampled_from([">", ">=", "==", "!="])


def _atom(coeffs, rel):
    p = _polynomial(coeffs)
    return {">": p > 0, ">=": p >= 0, "==": p == 0, "!=": p != 0}[rel]


@seed(20261125)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(polys, relations), min_size=1, max_size=3), st.booleans())
def test_agrees_with_z3(atoms, negate_last):
    parts = [_atom(c, r) for c, r in atoms]
    if negate_last and len(parts) > 1:
        parts[-1] = z3.Not(z3.And(parts[-1], parts[0]))
    formula = z3.And(parts)
    solver = z3.SolverFor("QF_NRA")
    solver.set("timeout", 20_000)
    solver.add(formula)
    expected = solver.check()
    ok, point = cad_answer(formula)
    if expected != z3.unknown:
        assert ok is (expected == z3.sat)
    if ok:
        check_witness(formula, point)


def test_satisfiable_uses_cad_on_two_parameter_domains():
    domain = Domain((parse_domain("p1", "[0, 1]"), parse_domain("p2", "[0, 1]")))
    ctx = Z3Context(domain)
    p1, p2 = ctx.vars["p1"], ctx.vars["p2"]
    answer = satisfiable(ctx, [p1 * p1 + p2 * p2 > 2])
    assert answer.satisfiable is Decision.FALSE
    answer = satisfiable(ctx, [p1 * p1 * 2 == 1, p2 == p1])
    assert answer.satisfiable is Decision.TRUE
    assert abs(float(answer.point["p1"]) - 0.5 ** 0.5) < 1e-12


def test_a_disagreement_with_z3_raises(monkeypatch):
    import symgame.model.decide as decide

    domain = Domain((parse_domain("p1", "[0, 1]"), parse_domain("p2", "[0, 1]")))
    ctx = Z3Context(domain)
    p1 = ctx.vars["p1"]
    monkeypatch.setattr(decide, "_z3_satisfiable", lambda *args: decide.Witness(Decision.TRUE, {}))
    with pytest.raises(decide.DecisionConflict):
        satisfiable(ctx, [p1 > 2])


def test_a_rational_witness_is_checked_by_substitution_and_a_wrong_one_raises(monkeypatch):
    import sympy as sp

    import symgame.model.decide as decide

    domain = Domain((parse_domain("p1", "[0, 1]"), parse_domain("p2", "[0, 1]")))
    ctx = Z3Context(domain)
    p1, p2 = ctx.vars["p1"], ctx.vars["p2"]
    answer = satisfiable(ctx, [p1 + p2 > 1, p1 < p2])
    point = {k: sp.Rational(v) for k, v in answer.point.items()}
    assert answer.satisfiable is Decision.TRUE and point["p1"] + point["p2"] > 1 and point["p1"] < point["p2"]
    assert ctx.stats["witness_checked"] == 1 and ctx.stats["z3_agreed"] == 0
    wrong = decide.Witness(Decision.TRUE, {"p1": sp.Rational(1, 4), "p2": sp.Rational(1, 2)})
    monkeypatch.setattr(decide, "_cad_satisfiable", lambda *args: wrong)
    with pytest.raises(decide.DecisionConflict):
        satisfiable(ctx, [p1 + p2 > 1])


def test_z3_only_bypasses_the_cad_and_answers_the_same():
    from symgame.model.decide import z3_only

    domain = Domain((parse_domain("p1", "[0, 1]"), parse_domain("p2", "[0, 1]")))

    def formulas(ctx):   # p1 p2 > 1/4 and p1 + p2 < 1: empty (AM-GM)
        return [4 * ctx.vars["p1"] * ctx.vars["p2"] > 1, ctx.vars["p1"] + ctx.vars["p2"] < 1]

    ctx = Z3Context(domain)
    assert satisfiable(ctx, formulas(ctx)).satisfiable is Decision.FALSE
    assert ctx.stats["cad"] == 1
    plain = Z3Context(domain)
    with z3_only():
        assert satisfiable(plain, formulas(plain)).satisfiable is Decision.FALSE
    assert plain.stats["cad"] == 0 and plain.stats["z3"] == 1


def test_one_parameter_domains_are_decided_by_the_cad_with_algebraic_witnesses():
    import sympy as sp

    domain = Domain((parse_domain("t", "[0, 3]"),))
    ctx = Z3Context(domain)
    t = ctx.vars["t"]
    answer = satisfiable(ctx, [t * t == 2])
    assert answer.satisfiable is Decision.TRUE and ctx.stats["cad"] == 1
    assert sp.simplify(answer.point["t"] - sp.sqrt(2)) == 0
    assert satisfiable(ctx, [t * t == 2, t * t * t > 3]).satisfiable is Decision.FALSE   # 2 sqrt 2 < 3


def _point_value(point):
    return None if point is None else tuple((r.key, r.index()) if not r.rational else r.value for r in point)


@seed(20261127)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(polys, min_size=2, max_size=3), st.lists(st.lists(relations, min_size=3, max_size=3),
                                                          min_size=2, max_size=4))
def test_sign_tables_give_the_lazy_searchs_answers_and_witnesses(shapes, relation_rows):
    """Questions over the same polynomials: from the second on, a plane answers from its sign table; a fresh
    plane for each question searches lazily. Same answers, same witnesses."""
    shared = Plane(["x", "y"])
    translator = Z3Translator(shared)
    for row in relation_rows:
        formula = z3.And([_atom(c, r) for c, r in zip(shapes, row)])
        tabled = shared.satisfiable(translator.formula(formula))
        lazy = cad_answer(formula)
        assert tabled[0] == lazy[0] and _point_value(tabled[1]) == _point_value(lazy[1])
    assert len(relation_rows) < 2 or shared._tables   # the table was used
    for row in relation_rows:   # fewer polynomials: answered from the larger table when unsatisfiable
        formula = z3.And([_atom(c, r) for c, r in zip(shapes[1:], row)])
        tabled = shared.satisfiable(translator.formula(formula))
        lazy = cad_answer(formula)
        assert tabled[0] == lazy[0] and _point_value(tabled[1]) == _point_value(lazy[1])
