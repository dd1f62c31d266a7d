"""Malformed and hostile game files: one clear line, exit code 2, nothing executed."""
import json
from pathlib import Path

import pytest

from symgame.cli import main

GOOD = """\
game: g
parameters:
  t: "[0, 3]"
players:
  - name: Row
    actions: [a, b]
  - name: Col
    actions: [a, b]
zero_sum: true
payoffs:
  - ["t", "-1"]
  - ["-1", "1"]
"""


def variant(old: str, new: str) -> str:
    assert old in GOOD
    return GOOD.replace(old, new)


CANARY = "/tmp/symgame-canary-should-not-exist"

BAD_FILES = {
    "not_yaml": ("game: [unclosed\n", "not valid YAML"),
    "scalar_document": ("just a string\n", "must contain a mapping"),
    "python_tag": (f"!!python/object/apply:os.system [\"touch {CANARY}\"]\n", "not valid YAML"),
    "python_tag_in_entry": (variant('["t", "-1"]', f'[!!python/object/apply:os.system ["touch {CANARY}"], "-1"]'),
                            "not valid YAML"),
    "unknown_top_key": (GOOD + "extra: 1\n", "extra: unknown key"),
    "missing_payoffs": (GOOD.split("payoffs:")[0], "payoffs: missing required key"),
    "unknown_name": (variant('"t", "-1"', '"t + x", "-1"'), "payoffs[0][0]: unknown name 'x'"),
    "code_in_expression": (variant('"t", "-1"', '"__import__(\'os\').system(\'true\')", "-1"'),
                           "payoffs[0][0]: unexpected character"),
    "function_call": (variant('"t", "-1"', '"exp(t)", "-1"'), "payoffs[0][0]: unknown name 'exp'"),
    "huge_exponent": (variant('"t", "-1"', '"9^9^9", "-1"'), "payoffs[0][0]: exponent"),
    "symbolic_exponent": (variant('"t", "-1"', '"2^t", "-1"'), "payoffs[0][0]: exponent"),
    "division_by_zero": (variant('"-1", "1"', '"1/0", "1"'), "payoffs[1][0]: division by zero"),
    "wrong_row_count": (GOOD.replace('  - ["-1", "1"]\n', ""), "payoffs: must be a list of 2 rows"),
    "wrong_column_count": (variant('["-1", "1"]', '["-1", "1", "0"]'), "payoffs[1]: must be a list of 2 entries"),
    "pair_in_zero_sum": (variant('["t", "-1"]', '[["t", "0"], "-1"]'), "payoffs[0][0]: with zero_sum: true"),
    "single_in_general_sum": (variant("zero_sum: true", "zero_sum: false"), "payoffs[0][0]: with zero_sum: false"),
    "empty_domain": (variant('"[0, 3]"', '"[3, 0]"'), "parameters.t: domain '[3, 0]' is empty"),
    "open_point_domain": (variant('"[0, 3]"', '"(1, 1)"'), "parameters.t: domain '(1, 1)' is empty"),
    "bad_domain": (variant('"[0, 3]"', '"between 0 and 3"'), "parameters.t: domain"),
    "bad_parameter_name": (variant('  t: "[0, 3]"', '  "t-1": "[0, 3]"'), "parameters.t-1: parameter names"),
    "duplicate_actions": (variant("actions: [a, b]\n  - name: Col", "actions: [a, a]\n  - name: Col"),
                          "players[0].actions: action names must be distinct"),
    "three_players": (variant("players:\n", "players:\n  - name: Z\n    actions: [z]\n"), "zero_sum: unknown key"),
    "zero_sum_not_bool": (variant("zero_sum: true", "zero_sum: maybe"), "zero_sum: must be true or false"),
    "boolean_entry": (variant('"t", "-1"', 'true, "-1"'), "payoffs[0][0]: expected an expression string"),
    "too_many_actions": (variant("actions: [a, b]\n  - name: Col", "actions: [" + ", ".join(f"a{i}" for i in range(20))
                                 + "]\n  - name: Col"), "players[0].actions: 20 actions exceed"),
    "bad_assumption": (GOOD + 'assumptions: ["t"]\n', "assumptions[0]: a condition needs a relation"),
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_bad_file_gives_one_clear_line(name, tmp_path, capsys):
    text, fragment = BAD_FILES[name]
    path = tmp_path / f"{name}.yaml"
    path.write_text(text)
    code = main(["solve", str(path)])
    captured = capsys.readouterr()
    assert code == 2
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith(f"symgame: {path}: ")
    assert fragment in lines[0], lines[0]
    assert "Traceback" not in captured.err
    assert not Path(CANARY).exists()


def test_bad_json_names_line_and_column(tmp_path, capsys):
    path = tmp_path / "g.json"
    path.write_text('{"game": "g",\n "players": [}')
    assert main(["solve", str(path)]) == 2
    assert "line 2 column" in capsys.readouterr().err


def test_missing_file(tmp_path, capsys):
    assert main(["solve", str(tmp_path / "nope.yaml")]) == 2
    assert "cannot read file" in capsys.readouterr().err


def test_json_file_same_as_yaml(tmp_path, capsys):
    import yaml

    yaml_path = tmp_path / "g.yaml"
    yaml_path.write_text(GOOD)
    json_path = tmp_path / "g.json"
    json_path.write_text(json.dumps(yaml.safe_load(GOOD)))
    assert main(["solve", str(yaml_path), "--json"]) == 0
    from_yaml = json.loads(capsys.readouterr().out)["detail"]
    assert main(["solve", str(json_path), "--json"]) == 0
    from_json = json.loads(capsys.readouterr().out)["detail"]
    assert from_yaml["pdl"] == from_json["pdl"]


# --------------------------------------------------------------------------- claimed PDLs and printed claims

PDL_GOOD = """\
rules:
  - label: high t
    if: ["t >= 2"]
    play: {Row: [1, 0], Col: [0, 1]}
  - play: {Row: ["1/2", "1/2"], Col: ["(t + 1)/(t + 3)", "2/(t + 3)"]}
"""


def test_a_pdl_file_reads_into_rules_that_evaluate_exactly(tmp_path):
    from fractions import Fraction

    from symgame.model.gamefile import load_game_file
    from symgame.model.pdlfile import load_pdl

    (tmp_path / "g.yaml").write_text(GOOD)
    (tmp_path / "p.yaml").write_text(PDL_GOOD)
    pdl = load_pdl(tmp_path / "p.yaml", load_game_file(tmp_path / "g.yaml"))
    assert [r.label for r in pdl.rules] == ["high t", "rule 2"]
    assert pdl.rules[1].profile.at({"t": Fraction(1)}) == ((Fraction(1, 2), Fraction(1, 2)),
                                                           (Fraction(1, 2), Fraction(1, 2)))
    assert pdl.rules[0].region.contains({"t": Fraction(2)}) and not pdl.rules[0].region.contains({"t": Fraction(1)})


@pytest.mark.parametrize("old,new,place", [
    ('Row: [1, 0], Col: [0, 1]', 'Row: [1, 0]', "rules[0].play: missing player 'Col'"),
    ('Row: [1, 0], Col', 'Row: [1, 0, 0], Col', "rules[0].play.Row: must list 2 probabilities"),
    ('"t >= 2"', '"s >= 2"', "rules[0].if[0]: unknown name 's'"),
    ('"1/2", "1/2"', '0.5, 0.5', "rules[1].play.Row[0]: must be an integer or an expression"),
    ('  - play:', '  - when: 1\n    play:', "rules[1].when: unknown key"),
    ('"t >= 2"', '"__import__(os) >= 2"', "rules[0].if[0]: unknown name '__import__'"),
])
def test_a_bad_pdl_file_is_one_line_naming_the_place(tmp_path, old, new, place):
    from symgame.model.gamefile import GameFileError, load_game_file
    from symgame.model.pdlfile import load_pdl

    (tmp_path / "g.yaml").write_text(GOOD)
    assert old in PDL_GOOD
    (tmp_path / "p.yaml").write_text(PDL_GOOD.replace(old, new, 1))
    with pytest.raises(GameFileError) as info:
        load_pdl(tmp_path / "p.yaml", load_game_file(tmp_path / "g.yaml"))
    message = str(info.value)
    assert "\n" not in message and message.startswith(f"{tmp_path / 'p.yaml'}: {place}"), message


def test_printed_claims_name_the_place_of_a_problem(tmp_path):
    from symgame.model.gamefile import GameFileError
    from symgame.model.polyfile import load_polynomial_game
    from symgame.verify.printed import load_printed

    game = load_polynomial_game(Path(__file__).resolve().parents[2] / "examples" / "pennies.yaml")
    good = ("constants: {r: '2/(P + 3)'}\nsolutions:\n  - {label: mixed, range: [1, null], values: {x: r, y: r}}\n"
            "statements:\n  - {text: 'x below 1/2', range: {lower: 1, upper: null}, conditions: ['x <= 1/2']}\n")
    (tmp_path / "c.yaml").write_text(good)
    claims = load_printed(tmp_path / "c.yaml", game)
    assert claims.solutions[0].values[0][1] == claims.solutions[0].values[1][1]
    assert claims.statements[0].conditions[0][1] == ">="
    (tmp_path / "c.yaml").write_text(good.replace("y: r", "z: r"))
    with pytest.raises(GameFileError, match=r"solutions\[0\]\.values\.z: not a variable"):
        load_printed(tmp_path / "c.yaml", game)
    (tmp_path / "c.yaml").write_text(good.replace("values: {x: r, y: r}", "values: {x: r}"))
    with pytest.raises(GameFileError, match=r"solutions\[0\]: variable 'y' is neither"):
        load_printed(tmp_path / "c.yaml", game)
