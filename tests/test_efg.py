"""Gambit .efg export and import: round trips, solving through the CLI, clear errors."""
import json

import pytest

from symgame.cli import main
from symgame.games.kuhn import build_game
from symgame.model.efg import EfgError, read_efg, write_efg
from symgame.model.sequence_form import build_sequence_form


@pytest.mark.parametrize("n", [3, 4])
def test_round_trip_preserves_the_game(n):
    game = build_game(n)
    text = write_efg(game)
    again = read_efg(text, "mem")
    assert write_efg(again).replace(again.name, game.name, 1) == text
    assert build_sequence_form(again).payoff == build_sequence_form(game).payoff


def test_solve_efg_through_cli(tmp_path, capsys):
    path = tmp_path / "kuhn3.efg"
    path.write_text(write_efg(build_game(3)))
    assert main(["solve", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["certified"] and data["value"] == "-1/18"


HEADER = 'EFG 2 R "g" { "a" "b" }\n""\n'


@pytest.mark.parametrize("body, fragment", [
    ('t "" 1 "" { 1, 2 }\n', "zero-sum"),
    ('c "" 1 "" { "x" 1/2 "y" 1/3 } 0\nt "" 1 "" { 1, -1 }\nt "" 2 "" { 0, 0 }\n', "sum to 1"),
    ('p "" 3 1 "" { "x" } 0\nt "" 1 "" { 1, -1 }\n', "player number 3"),
    ('q "" 1\n', "unknown node type"),
    ('p "" 1 1 "" { "x" "y" } 0\nt "" 1 "" { 1, -1 }\n', "unexpected end"),
    ('t "" 1 "" { 1, -1 }\nt "" 2 "" { 1, -1 }\n', "extra nodes"),
    ('t "" 7 ""\n', "used before its payoffs"),
    ('t "" 1 "" { 1, -1 } @\n', "unexpected character"),
])
def test_bad_efg_files(body, fragment, tmp_path, capsys):
    path = tmp_path / "bad.efg"
    path.write_text(HEADER + body)
    assert main(["solve", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"symgame: {path}: line ") and fragment in err, err


def test_three_players_rejected():
    with pytest.raises(EfgError, match="two-player"):
        read_efg('EFG 2 R "g" { "a" "b" "c" }\n""\nt "" 1 "" { 1, -1, 0 }\n', "mem")


@pytest.mark.parametrize("n", [3, 4, 5])
def test_committed_efg_files_are_fresh(n):
    from pathlib import Path

    committed = Path(__file__).resolve().parents[1] / "outputs" / "kuhn" / f"kuhn_{n}.efg"
    assert committed.read_text() == write_efg(build_game(n))
