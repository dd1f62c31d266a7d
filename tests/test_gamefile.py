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
    "three_players": (variant("players:\n", "players:\n  - name: Z\n    actions: [z]\n"), "players: must be a list of one or two"),
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
    from_yaml = json.loads(capsys.readouterr().out)
    assert main(["solve", str(json_path), "--json"]) == 0
    from_json = json.loads(capsys.readouterr().out)
    assert from_yaml["pdl"] == from_json["pdl"]
