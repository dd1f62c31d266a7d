"""Rational payoffs, float-safe cross-checks, equilibrium selection, readable lists, JSON expression trees."""
from __future__ import annotations

import json
from fractions import Fraction

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from symgame import normal_form, solve
from symgame.cli import SELECTIONS as CLI_SELECTIONS
from symgame.cli import main
from symgame.engine.selection import SELECTIONS, welfare_violations
from symgame.errors import InputError
from symgame.model.exprtree import from_tree, to_tree
from symgame.model.parameters import parse_domain
from symgame.model.readable import pretty, readable_region
from symgame.model.region import Atom, Domain, Region
from symgame.verify.regret import exact_regret

HAWK_DOVE = dict(payoffs=[[["(V - C)/2", "(V - C)/2"], ["V", 0]], [[0, "V"], ["V/2", "V/2"]]],
                 parameters={"V": "(0, oo)", "C": "(0, oo)"},
                 players=[("Row", ["Hawk", "Dove"]), ("Col", ["Hawk", "Dove"])])


def hawk_dove():
    return normal_form(HAWK_DOVE["payoffs"], parameters=HAWK_DOVE["parameters"], players=HAWK_DOVE["players"])


# --- rational payoffs -------------------------------------------------------------------------------
def test_rational_payoffs_solved_in_the_users_units():
    game = normal_form([["t/(t + 1)", -1], [-1, "(t^2 + 1)/(2 - t/3)"]], parameters={"t": "[0, 2]"}, zero_sum=True)
    assert game.scales and all(s.free_symbols for s in game.scales)
    sol = solve(game)
    assert sol.certified and sol.crosscheck.all_exact_nash
    # by hand at t = 1: A = [[1/2, -1], [-1, 6/5]]; Row's mix makes Col indifferent
    row, col = sol.evaluate(t=1).strategies
    assert row == (Fraction(22, 37), Fraction(15, 37))
    data = json.loads(sol.to_json())["detail"]
    assert data["payoffs"]["Row"][0][0] == "t/(t + 1)"            # as stated, not scaled
    t = sp.Symbol("t", real=True)
    value = sp.parse_expr(data["pdl"][0]["value"], local_dict={"t": t})
    a = [[Fraction(1, 2), Fraction(-1)], [Fraction(-1), Fraction(6, 5)]]
    expected = sum(row[i] * a[i][j] * col[j] for i in range(2) for j in range(2))
    assert value.subs(t, 1) == sp.Rational(expected.numerator, expected.denominator)


def test_negative_denominator_flips_the_sign_and_keeps_the_equilibrium():
    game = normal_form([["1/(t - 5)", 0], [0, "1/(t - 5)"]], parameters={"t": "[0, 2]"}, zero_sum=True)
    sol = solve(game)
    assert sol.certified
    assert sol.evaluate(t=1).strategies == ((Fraction(1, 2), Fraction(1, 2)),) * 2


@pytest.mark.parametrize("cell, domain, fragment", [
    ("1/(t - 1)", "[0, 2]", "payoffs[0][0]: 1/(t - 1) has a pole at t = 1"),
    ("1/(t^2 - 2)", "[0, 2]", "has a pole at t = "),
    ("t/(t*(t - 3))", "[0, 4]", "has a pole at t = 3"),
])
def test_pole_in_the_domain_refused(cell, domain, fragment):
    with pytest.raises(InputError, match=None) as info:
        normal_form([[cell, -1], [-1, 1]], parameters={"t": domain}, zero_sum=True)
    assert fragment in str(info.value) and "\n" not in str(info.value)


def test_pole_outside_the_domain_is_fine():
    game = normal_form([["1/(t - 1)", -1], [-1, 1]], parameters={"t": "(1, 2]"}, zero_sum=True)
    assert solve(game).certified


# --- numeric cross-checks that cannot crash -------------------------------------------------------------
def test_payoffs_beyond_floating_point_skip_the_numeric_check():
    game = normal_form([["(t + 1)^64", -1], [-1, "10^40*t"]], parameters={"t": "[0, 2]"}, zero_sum=True)
    sol = solve(game, sample_points=6)
    assert sol.certified and sol.crosscheck.all_exact_nash
    assert sol.crosscheck.numeric_skipped > 0
    data = json.loads(sol.to_json())["detail"]
    assert data["verification"]["sample_points"]["numeric_skipped"] == sol.crosscheck.numeric_skipped
    assert "cross-check skipped: payoffs beyond floating point" in data["verification"]["sample_points"]["numeric_solvers"]


def test_huge_but_comparable_payoffs_are_scaled_not_skipped():
    big = "(10^50)^4"
    game = normal_form([[f"{big}*t", f"-{big}"], [f"-{big}", big]], parameters={"t": "[1, 2]"}, zero_sum=True)
    sol = solve(game, sample_points=4)
    assert sol.crosscheck.numeric_skipped == 0 and sol.crosscheck.all_numeric_agree


def test_efg_payoffs_beyond_floats_solved_exactly(tmp_path, capsys):
    path = tmp_path / "big.efg"
    path.write_text('EFG 2 R "big" { "A" "B" }\n""\np "" 1 1 "" { "a" "b" } 0\n'
                    't "" 1 "" { 1e400, -1e400 }\nt "" 2 "" { -1, 1 }\n')
    assert main(["solve", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)["detail"]
    assert data["certified"] and data["value"] == str(10**400)


# --- equilibrium selection ---------------------------------------------------------------------------------
def test_selection_names_agree():
    assert CLI_SELECTIONS == SELECTIONS


def test_hawk_dove_symmetric_selection_gives_v_over_c():
    sol = solve(hawk_dove(), select="symmetric")
    assert sol.certified and sol.selection == "symmetric"
    row, col = sol.evaluate(V=1, C=3).strategies
    assert row == col == (Fraction(1, 3), Fraction(2, 3))
    default = solve(hawk_dove())
    assert default.evaluate(V=1, C=3).strategies[0] != default.evaluate(V=1, C=3).strategies[1]


def test_symmetric_selection_refuses_an_asymmetric_game(tmp_path, capsys):
    path = tmp_path / "g.yaml"
    path.write_text('game: g\nplayers:\n  - {name: R, actions: [a, b]}\n  - {name: C, actions: [a, b]}\n'
                    'zero_sum: false\npayoffs:\n  - [["1", "0"], ["0", "2"]]\n  - [["0", "0"], ["2", "1"]]\n')
    assert main(["solve", str(path), "--select", "symmetric"]) == 2
    assert "needs a symmetric game" in capsys.readouterr().err


def coordination():
    """Both players get a on (1, 1) and 1 on (2, 2): the better pure equilibrium switches at a = 1."""
    return normal_form(([["a", 0], [0, 1]], [["a", 0], [0, 1]]), parameters={"a": "(0, 2)"})


def test_welfare_selection_picks_the_better_equilibrium_and_the_check_can_fail():
    points = [{"a": Fraction(k, 4)} for k in range(1, 8)]
    chosen = solve(coordination(), select="welfare")
    assert chosen.certified and chosen.analysis.welfare_violations == ()
    assert chosen.evaluate(a="1/2").strategies[0] == (0, 1) and chosen.evaluate(a="3/2").strategies[0] == (1, 0)
    default = solve(coordination())
    bad = welfare_violations(default.game, default.branches, default.pdl, points)
    assert bad and all(p["a"] != 1 for p in bad)


def test_all_selection_lists_every_equilibrium_region_by_region(capsys):
    sol = solve(hawk_dove(), select="all")
    regions = sol.all_equilibria
    assert [len(r.branches) for r in regions] == [4, 3, 1]
    assert [r.readable.text for r in regions] == ["V == C", "C >= V", "V >= C"]
    for point in ({"V": Fraction(1), "C": Fraction(1)}, {"V": Fraction(1), "C": Fraction(2)},
                  {"V": Fraction(3), "C": Fraction(2)}):
        first = next(r for r in regions if r.region.contains(point))
        for k in first.branches:
            assert exact_regret(sol.game, point, sol.branches[k].profile.at(point)).is_nash
        others = [b for k, b in enumerate(sol.branches) if k not in first.branches]
        assert not any(b.region.contains(point) for b in others)
    assert "4 equilibria" in sol.render_all()


# --- readable decision lists ----------------------------------------------------------------------------------
def unit_domain():
    return Domain((parse_domain("p1", "[0, 1]"), parse_domain("p2", "[0, 1]")))


def test_readable_jeopardy_condition():
    domain = unit_domain()
    p1, p2 = domain.symbols["p1"], domain.symbols["p2"]
    readable = readable_region(domain, Region((Atom(-(p1 - 1) * (2 * p2 - 1), ">="),)))
    assert readable.text == "p1 == 1 or p2 >= 1/2" and readable.proved.value == "true"


def test_repeated_conditions_removed():
    domain = unit_domain()
    p1 = domain.symbols["p1"]
    assert readable_region(domain, Region((Atom(p1, "=="), Atom(3 * p1, "==")))).text == "p1 == 0"


ATOMS = st.sampled_from([">", ">=", "==", "!="])
COEFF = st.integers(-3, 3)


@settings(max_examples=40, derandomize=True, deadline=None)
@given(st.lists(st.tuples(COEFF, COEFF, COEFF, COEFF, ATOMS), min_size=1, max_size=2),
       st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=8, max_size=8))
def test_readable_form_equivalent_at_rational_points(specs, grid):
    domain = unit_domain()
    p1, p2 = domain.symbols["p1"], domain.symbols["p2"]
    atoms = tuple(Atom((a * p1 + b) * (c * p2 + d), rel) for a, b, c, d, rel in specs if (a or b) and (c or d))
    if not atoms:
        return
    region = Region(atoms)
    readable = readable_region(domain, region)
    assert readable.proved.value == "true"
    compare = {">": lambda v: v > 0, ">=": lambda v: v >= 0, "<": lambda v: v < 0, "<=": lambda v: v <= 0,
               "==": lambda v: v == 0, "!=": lambda v: v != 0}
    for x, y in grid:
        point = {"p1": Fraction(x, 4), "p2": Fraction(y, 4)}
        subs = {p1: sp.Rational(x, 4), p2: sp.Rational(y, 4)}
        holds = all(any(bool(compare[c.rel]((c.lhs - c.rhs).subs(subs))) for c in clause)
                    for clause in readable.clauses)
        assert holds == region.contains(point), (readable.text, point)


@pytest.mark.parametrize("expr, text", [
    ("-(c - 1)", "1 - c"), ("(1/2)*1", "1/2"), ("2*((t - 1)/(3*t - 2))", "(2*t - 2)/(3*t - 2)"),
    ("(h - f)/(b - d - f + h)", "(h - f)/(b - d - f + h)"), ("-1/t**2", "-1/t**2"),
])
def test_pretty_probabilities(expr, text):
    names = {n: sp.Symbol(n) for n in "bcdfht"}
    parsed = sp.parse_expr(expr, local_dict=names, evaluate=False)
    assert pretty(parsed) == text
    assert sp.simplify(sp.parse_expr(text, local_dict=names) - parsed) == 0


def test_rule_valid_everywhere_comes_first():
    game = normal_form([["0", "-1", "t"], ["1", "0", "-1"], ["-t", "1", "0"]], parameters={"t": "[0, 3]"}, zero_sum=True)
    assert len(solve(game).pdl.rules) == 1


# --- JSON expression trees ---------------------------------------------------------------------------------------
NAMES = ["E", "I", "S", "N", "Q", "lambda"]


@settings(max_examples=60, derandomize=True, deadline=None)
@given(st.lists(st.tuples(st.integers(-5, 5), st.integers(1, 4), st.sampled_from(NAMES), st.integers(0, 3)),
                min_size=1, max_size=4), st.sampled_from(NAMES))
def test_expression_tree_round_trip(terms, den_name):
    symbols = {n: sp.Symbol(n, real=True) for n in NAMES}
    expr = sum(sp.Rational(a, b) * symbols[n] ** k for a, b, n, k in terms) / (1 + symbols[den_name] ** 2)
    tree = to_tree(expr)
    assert json.loads(json.dumps(tree)) == tree
    assert sp.simplify(from_tree(tree, symbols) - expr) == 0


def test_solution_json_trees_with_awkward_parameter_names():
    params = {n: "[1, 2]" for n in NAMES}
    game = normal_form([["lambda + E", "-I - N"], ["-S - Q", "N*E"]], parameters=params, zero_sum=True)
    data = json.loads(solve(game, sample_points=3).to_json())["detail"]
    assert data["symbols"] == NAMES
    symbols = {n: sp.Symbol(n, real=True) for n in data["symbols"]}
    point = {n: Fraction(3, 2) for n in NAMES}
    rule = data["pdl"][0]
    for player in ("Row", "Col"):
        for action, tree in rule["machine"]["profile"][player].items():
            value = from_tree(tree, symbols).subs({symbols[n]: sp.Rational(3, 2) for n in NAMES})
            k = 0 if player == "Row" else 1
            index = ["a1", "a2"].index(action)
            assert value == sp.Rational(*_pair(solve(game, sample_points=1).evaluate(point).strategies[k][index]))


def _pair(value: Fraction) -> tuple[int, int]:
    return value.numerator, value.denominator


@pytest.mark.parametrize("tree", [["num"], ["param", "zeta"], ["pow", ["param", "E"], ["param", "E"]], ["call", 1],
                                  "E", ["add"], ["num", "1/0"]])
def test_bad_trees_refused(tree):
    with pytest.raises(InputError):
        from_tree(tree, {"E": sp.Symbol("E")})
