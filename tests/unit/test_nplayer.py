"""Normal-form games of three or more players from YAML/JSON: every equilibrium without parameters, the
atlas with a parameter, one-line errors."""
import json
from fractions import Fraction
from pathlib import Path

import pytest

from symgame.api import load
from symgame.cli import main
from symgame.engine.enumpoly import enumpoly_solve
from symgame.model.gamefile import GameFileError
from symgame.model.nplayer import strategic_game, tree_data

ROOT = Path(__file__).resolve().parents[2]


def _game(payoff, names="ABC"):
    """Three players with two actions each; ``payoff(a, b, c)`` gives the three payoffs as strings."""
    return {"game": "g", "players": [{"name": n, "actions": ["x", "y"]} for n in names],
            "payoffs": [[[payoff(a, b, c) for c in range(2)] for b in range(2)] for a in range(2)]}


def test_the_table_is_read_in_gambits_order_and_every_equilibrium_is_found(tmp_path, capsys):
    # everybody wants to match player A; A wants to match B: pure equilibria xxx and yyy, and mixed ones
    def payoff(a, b, c):
        return [str(int(a == b)), str(int(b == a)), str(int(c == a))]
    data = _game(payoff)
    game = strategic_game(data)
    assert game.payoffs[game.index((1, 1, 1))] == (1, 1, 1) and game.payoffs[game.index((0, 1, 0))] == (0, 0, 1)
    path = tmp_path / "g.json"
    path.write_text(json.dumps(data))
    assert main(["solve", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)["detail"]
    profiles = [e["profile"] for e in out.get("equilibria", [])]
    pure = [p for p in profiles if all(v in ("0", "1") for probs in p.values() for v in probs.values())]
    assert {"x": "1", "y": "0"} in [p["A"] for p in pure] and {"x": "0", "y": "1"} in [p["A"] for p in pure]
    assert all(e["verified"] for e in out["equilibria"])
    # the same equilibria as the enumeration on the game read by the API
    assert len(enumpoly_solve(load(path)).equilibria) >= 2


def test_with_a_parameter_the_atlas_solves_the_example(capsys):
    example = ROOT / "examples" / "three_player.yaml"
    assert main(["atlas", str(example), "--workers", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    members = [m["values"] for f in data["families"] for m in f["members"]]
    assert any(m.get("Bob") == "0" and m.get("Cat") == "0" for m in members)      # all play right
    assert any(m.get("Bob") == "1" and m.get("Cat") == "1" for m in members)
    assert main(["solve", str(example), "--json"]) == 0          # the front door picks the atlas itself
    solved = json.loads(capsys.readouterr().out)
    assert solved["engine"]["name"] == "atlas" and solved["complete"]["status"] == "complete"
    assert [e["variables"] for e in solved["equilibria"]] == [f["members"][0]["values"] for f in data["families"]]


@pytest.mark.parametrize("mutate, place", [
    (lambda d: d["payoffs"][1].pop(), "payoffs[1]"),
    (lambda d: d["payoffs"][0][1][0].append("1"), "payoffs[0][1][0]"),
    (lambda d: d["payoffs"][1][1][1].__setitem__(2, "__import__('os')"), "payoffs[1][1][1][2]"),
    (lambda d: d["players"][2].__setitem__("actions", ["x", "x"]), "players[2].actions"),
])
def test_bad_tables_are_one_line_errors_naming_the_place(mutate, place):
    data = _game(lambda a, b, c: ["1", "2", "3"])
    mutate(data)
    with pytest.raises(GameFileError, match=place.replace("[", r"\[").replace("]", r"\]")):
        strategic_game(data)
    with pytest.raises(GameFileError):
        tree_data(data)


def test_payoffs_are_exact():
    game = strategic_game(_game(lambda a, b, c: ["1/3", "-2/7", "10**30"]))
    assert game.payoffs[0] == (Fraction(1, 3), Fraction(-2, 7), Fraction(10 ** 30))
