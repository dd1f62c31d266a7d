"""Game files the library has never seen, solved through the CLI and checked independently."""
import json
import subprocess
import sys
from fractions import Fraction

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests_support import evaluate_pdl, lp_value, zero_sum_regret

from symgame.cli import main
from symgame.model.expr import parse_expression


def solve_json(tmp_path, capsys, data):
    path = tmp_path / "game.yaml"
    path.write_text(yaml.safe_dump(data))
    assert main(["solve", str(path), "--json"]) == 0
    return json.loads(capsys.readouterr().out)["detail"]


GAME = {
    "game": "unseen-3x3",
    "parameters": {"s": "[-2, 2]"},
    "players": [{"name": "P", "actions": ["u", "m", "d"]}, {"name": "Q", "actions": ["l", "c", "r"]}],
    "zero_sum": True,
    "payoffs": [["s", "-1", "2"], ["0", "1", "-s"], ["1 - s", "0", "s^2 - 1"]],
}


def matrix_at(data, s):
    import sympy as sp

    sym = sp.Symbol("s", real=True)
    value = sp.Rational(s.numerator, s.denominator)
    return [[Fraction(str(parse_expression(cell, {"s": sym}).subs(sym, value))) for cell in row]
            for row in data["payoffs"]]


@pytest.fixture(scope="session")     # see conftest.py: built once per worker
def unseen_result(tmp_path_factory):
    path = tmp_path_factory.mktemp("g") / "game.yaml"
    path.write_text(yaml.safe_dump(GAME))
    proc = subprocess.run([sys.executable, "-m", "symgame.cli", "solve", str(path), "--json"],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)["detail"]


@settings(max_examples=60)
@given(st.fractions(min_value=-2, max_value=2, max_denominator=50))
def test_unseen_zero_sum_game_zero_regret(unseen_result, s):
    profile = evaluate_pdl(unseen_result, {"s": s})
    x = [profile["P"].get(a, Fraction(0)) for a in ["u", "m", "d"]]
    y = [profile["Q"].get(a, Fraction(0)) for a in ["l", "c", "r"]]
    assert sum(x) == 1 and sum(y) == 1 and min(x + y) >= 0
    matrix = matrix_at(GAME, s)
    row_regret, col_regret, value = zero_sum_regret(matrix, x, y)
    assert row_regret == 0 and col_regret == 0
    assert abs(float(value) - lp_value(matrix)) < 1e-9


def test_unseen_result_reports_proofs(unseen_result):
    assert unseen_result["coverage"] == "proved"
    assert unseen_result["verification"]["certificate"]["status"] == "proved"
    assert unseen_result["pdl"][-1]["when"] == []


entries = st.integers(-3, 3)


@settings(max_examples=6, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(entries, min_size=9, max_size=9), st.lists(entries, min_size=9, max_size=9),
       st.fractions(min_value=0, max_value=1, max_denominator=9))
def test_random_linear_zero_sum_games(tmp_path_factory, capsys, base, slope, t):
    cells = [[f"{base[3 * i + j]} + ({slope[3 * i + j]})*t" for j in range(3)] for i in range(3)]
    data = {"game": "random", "parameters": {"t": "[0, 1]"}, "zero_sum": True, "payoffs": cells,
            "players": [{"name": "R", "actions": ["1", "2", "3"]}, {"name": "C", "actions": ["1", "2", "3"]}]}
    result = solve_json(tmp_path_factory.mktemp("r"), capsys, data)
    profile = evaluate_pdl(result, {"t": t})
    x = [profile["R"].get(a, Fraction(0)) for a in "123"]
    y = [profile["C"].get(a, Fraction(0)) for a in "123"]
    matrix = [[base[3 * i + j] + slope[3 * i + j] * t for j in range(3)] for i in range(3)]
    row_regret, col_regret, value = zero_sum_regret(matrix, x, y)
    assert row_regret == 0 and col_regret == 0
    assert abs(float(value) - lp_value(matrix)) < 1e-9
