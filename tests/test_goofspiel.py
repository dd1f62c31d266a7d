"""Goofspiel by dynamic programming over canonical subgames, checked against the whole game tree's LP."""
import json
from fractions import Fraction
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from symgame.cli import main
from symgame.errors import InputError
from symgame.games.goofspiel import _Solver, build_tree, canonical, solve
from symgame.model.sequence_form import build_sequence_form
from symgame.numeric.sequence_lp import solve_sequence_form
from symgame.verify.best_response import certify_value

ROOT = Path(__file__).resolve().parents[1]


def tree_value(v, y, p) -> Fraction:
    form = build_sequence_form(build_tree(v, y, p))
    cert = certify_value(form, solve_sequence_form(form).plans)
    assert cert.certified
    return cert.lower


@settings(max_examples=25, deadline=None, derandomize=True)
@given(st.integers(1, 3), st.data())
def test_the_reduced_dp_equals_the_lp_of_the_whole_tree_on_random_subgames(k, data):
    cards = st.lists(st.integers(1, 7), min_size=k, max_size=k, unique=True)
    v, y, p = (tuple(sorted(data.draw(cards))) for _ in range(3))
    assert _Solver(exact=True).value(v, y, p) == tree_value(v, y, p)


def test_the_comparison_pattern_and_antisymmetry_reductions():
    solver = _Solver(exact=True)
    p = (1, 4, 6)
    assert canonical((2, 5, 9), (1, 5, 7)) == ((2, 3, 5), (1, 3, 4))
    assert solver.value((2, 5, 9), (1, 5, 7), p) == tree_value((2, 5, 9), (1, 5, 7), p)
    assert solver.value((1, 5, 7), (2, 5, 9), p) == -solver.value((2, 5, 9), (1, 5, 7), p)
    assert solver.value((1, 2, 3), (1, 2, 3), p) == 0


def test_table_1_is_reproduced():
    printed = yaml.safe_load((ROOT / "derivations" / "rhoads2012" / "printed" / "table1.yaml").read_text())
    exact = solve(5, exact=True)
    for bet, row in printed["bets"].items():
        for upcard, text in enumerate(row, start=1):
            digits = len(text.split(".")[1]) if "." in text else 4
            assert abs(float(exact.first_move[upcard][bet]) - float(text)) <= 0.5 * 10 ** -digits, (bet, upcard)
    floats = solve(5)
    assert all(abs(floats.first_move[c][b] - float(exact.first_move[c][b])) < 1e-7 for c in range(1, 6) for b in range(1, 6))


def test_exact_first_moves_are_probability_vectors_and_the_value_is_zero():
    result = solve(4, exact=True)
    assert result.value == 0
    assert all(sum(row.values()) == 1 and min(row.values()) >= 0 for row in result.first_move.values())


def test_the_cli_prints_the_json_contract(capsys):
    assert main(["goofspiel", "--cards", "3", "--exact", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["cards"] == 3 and data["objective"] == "amount" and data["value"] == "0"
    assert data["first_move"]["3"] == {"1": "0", "2": "0", "3": "1"}


@pytest.mark.parametrize("args", [["--cards", "0"], ["--cards", "40"], ["--cards", "9", "--exact"]])
def test_bad_card_counts_are_one_line_exit_2(args, capsys):
    assert main(["goofspiel", *args]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
    with pytest.raises(InputError):
        solve(int(args[1]), exact="--exact" in args)


def test_committed_goofspiel_outputs_are_fresh(tmp_path):
    from derivations.rhoads2012.outputs import write_goofspiel_outputs

    committed = ROOT / "outputs" / "goofspiel"
    written = write_goofspiel_outputs(tmp_path)
    assert sorted(p.name for p in written) == sorted(p.name for p in committed.iterdir())
    for path in written:
        assert path.read_bytes() == (committed / path.name).read_bytes(), f"outputs/goofspiel/{path.name} is stale"
    assert "25 of 25" in (committed / "summary.md").read_text()
