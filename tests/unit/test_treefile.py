"""Game trees with parameters from YAML: compiled to behaviour polynomials, the atlas derives them."""
import json
from pathlib import Path

import pytest
import sympy as sp
import yaml

from symgame.cli import main
from symgame.model.gamefile import GameFileError
from symgame.model.treefile import load_tree_file, polynomial_game_from_tree, tree_from_data

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "one_card_poker.yaml"


def test_one_card_poker_atlas_derives_the_closed_form_in_the_ante(capsys):
    assert main(["atlas", str(EXAMPLE), "--workers", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    (family,) = data["families"]
    (member,) = family["members"]
    a = sp.Symbol("a", real=True)
    values = {k: sp.sympify(v, locals={"a": a}) for k, v in member["values"].items()}   # our own output
    assert values["bet_high"] == 1
    assert sp.simplify(values["bluff"] - 1 / (2 * a + 1)) == 0
    assert sp.simplify(values["call"] - 2 * a / (2 * a + 1)) == 0


def test_the_compiled_payoff_is_the_hand_computed_one():
    game = polynomial_game_from_tree(load_tree_file(EXAMPLE))
    a, h, b, c = (sp.Symbol(n, real=True) for n in ("a", "bet_high", "bluff", "call"))
    high = h * (c * (a + 1) + (1 - c) * a) + (1 - h) * a
    low = b * (c * (-a - 1) + (1 - c) * a) + (1 - b) * (-a)
    assert sp.expand(game.players[0].payoff - (high + low) / 2) == 0
    assert sp.expand(game.players[0].payoff + game.players[1].payoff) == 0


def _example() -> dict:
    return yaml.safe_load(EXAMPLE.read_text())


@pytest.mark.parametrize("change, place", [
    (lambda d: d["root"]["chance"][0].update(prob="1/3"), "root.chance: the probabilities must sum to 1"),
    (lambda d: d["root"]["chance"][0]["node"].update(player="Carol"), "root.chance[0].node.player: must be one of"),
    (lambda d: d["root"]["chance"][0]["node"]["actions"].update(check={"payoffs": ["a"]}),
     "root.chance[0].node.actions.check.payoffs: must list 2 payoffs"),
    (lambda d: d["root"]["chance"][0]["node"]["actions"].update(check={"payoffs": ["q", "0"]}),
     "root.chance[0].node.actions.check.payoffs[0]: unknown name 'q'"),
    (lambda d: d["root"]["chance"][1]["node"]["actions"]["bet"]["actions"].pop("fold"),
     "root.chance[1].node.actions.bet.infoset: information set 'Bob facing a bet' appears with another"),
    (lambda d: d.update(variables={"nowhere": "x"}), "variables.nowhere: not an information set"),
    (lambda d: d["root"].update(extra=1), "root.extra: unknown key here"),
])
def test_a_bad_tree_is_one_line_naming_the_place(change, place):
    data = _example()
    change(data)
    with pytest.raises(GameFileError) as info:
        polynomial_game_from_tree(tree_from_data(data, "t.yaml"), "t.yaml")
    assert str(info.value).startswith(f"t.yaml: {place}") and "\n" not in str(info.value), str(info.value)


def test_a_very_deep_tree_is_refused_without_recursion():
    node = {"payoffs": ["0", "0"]}
    for k in range(1000):
        node = {"player": "A", "infoset": f"s{k}", "actions": {"go": node, "stop": {"payoffs": ["1", "-1"]}}}
    data = {"game": "deep", "players": ["A", "B"], "root": node}
    with pytest.raises(GameFileError, match="deeper than 400 levels"):
        tree_from_data(data, "deep")


def test_a_bad_tree_file_through_the_cli_is_one_line_exit_2(tmp_path, capsys):
    data = _example()
    data["root"]["chance"][0]["prob"] = "1/3"
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(data))
    assert main(["atlas", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "must sum to 1" in err


def test_a_three_player_normal_form_game_with_a_parameter_derives_the_algebraic_symmetric_equilibrium(capsys):
    """The volunteer's dilemma (three players, cost c): the atlas finds the symmetric equilibrium, volunteering
    with probability 1 - sqrt(c), among 7 families, each certified on 0 < c < 1."""
    example = Path(__file__).resolve().parents[2] / "examples" / "volunteers_dilemma.yaml"
    assert main(["atlas", str(example), "--workers", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    c = sp.Symbol("c", positive=True)
    symmetric = []
    for family in data["families"]:
        for member in family["members"]:
            values = {k: sp.sympify(v, locals={"c": c}) for k, v in member["values"].items()}   # our own output
            if all(sp.simplify(values[k] - (1 - sp.sqrt(c))) == 0 for k in ("bob_volunteers", "cat_volunteers")):
                symmetric.append(values)
    assert len(data["families"]) == 7 and len(symmetric) == 1
    assert sp.simplify(symmetric[0]["ann_volunteers"] - (1 - sp.sqrt(c))) == 0
