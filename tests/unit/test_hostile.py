"""A fuzzing suite for every reader: hostile files get exit 2 and one line naming the file, fast.

Hand-written hostile files (normal-form YAML and JSON, polynomial games, game trees, Gambit ``.efg``
and ``.nfg``) run through the command line in process; hypothesis (fixed seed) generates hostile
payload cells and token soups for the readers, and small valid games whose result is checked
exactly. A few of the largest inputs also run in a subprocess under a memory limit.
"""
from __future__ import annotations

import json
import resource
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_gamefile import GOOD as NORMAL

from symgame.cli import main
from symgame.errors import InputError, SymgameError

ROOT = Path(__file__).resolve().parents[2]
POLY = (ROOT / "examples" / "pennies.yaml").read_text()
TREE = (ROOT / "examples" / "one_card_poker.yaml").read_text()
EFG = """\
EFG 2 R "g" { "A" "B" }
""

p "" 1 1 "" { "l" "r" } 0
t "" 1 "o1" { 1, -1 }
t "" 2 "o2" { -1, 1 }
"""
NFG = """\
NFG 1 R "g" { "A" "B" } { 2 2 }

1 -1 -1 1 -1 1 1 -1
"""


def _sub(base: str, old: str, new: str) -> str:
    assert old in base, old
    return base.replace(old, new, 1)


def _nest(depth: int) -> str:
    return "a: " + "[" * depth + "]" * depth + "\n"


# (suffix, text, fragment of the one line, command)
CASES: dict[str, tuple[str, str, str, str]] = {}


def case(name: str, suffix: str, text: str, fragment: str = "", command: str = "solve") -> None:
    assert name not in CASES
    CASES[name] = (suffix, text, fragment, command)


# --- normal-form YAML -------------------------------------------------------------------------
for i, (old, new, fragment) in enumerate([
    ('"t", "-1"', '"t/(t-1)", "-1"', "has a pole at t = 1"),
    ('"t", "-1"', '"1/(t - 3/2)^2", "-1"', "has a pole at t = 3/2"),
    ('"t", "-1"', '"t +", "-1"', "payoffs[0][0]"),
    ('"t", "-1"', '"((t)", "-1"', "payoffs[0][0]"),
    ('"t", "-1"', '"t))", "-1"', "payoffs[0][0]"),
    ('"t", "-1"', '"", "-1"', "payoffs[0][0]"),
    ('"t", "-1"', '"   ", "-1"', "payoffs[0][0]"),
    ('"t", "-1"', '"t ^ 65", "-1"', "exponent"),
    ('"t", "-1"', '"t ** -1", "-1"', "payoffs[0][0]"),
    ('"t", "-1"', '"t^(1/2)", "-1"', "exponent"),
    ('"t", "-1"', '"sqrt(t)", "-1"', "unknown name 'sqrt'"),
    ('"t", "-1"', '"1e999999999", "-1"', "payoffs[0][0]"),
    ('"t", "-1"', '"' + "9" * 5000 + '", "-1"', "payoffs[0][0]"),
    ('"t", "-1"', '"' + "(" * 3000 + "t" + ")" * 3000 + '", "-1"', "payoffs[0][0]"),
    ('"t", "-1"', '"t" , "-1", "2"', "payoffs[0]"),
    ('"t", "-1"', '.nan, "-1"', "payoffs[0][0]"),
    ('"t", "-1"', '.inf, "-1"', "payoffs[0][0]"),
    ('"t", "-1"', 'null, "-1"', "payoffs[0][0]"),
    ('"t", "-1"', '{a: 1}, "-1"', "payoffs[0][0]"),
    ('"t", "-1"', '"lambda x: x", "-1"', "payoffs[0][0]"),
    ('"t", "-1"', '"t; import os", "-1"', "payoffs[0][0]"),
    ('"t", "-1"', '"t\\u0000", "-1"', "payoffs[0][0]"),
    ('"t", "-1"', '"E", "-1"', "unknown name 'E'"),
    ('"t", "-1"', '"I*t", "-1"', "unknown name 'I'"),
    ('"t", "-1"', '"oo", "-1"', "payoffs[0][0]"),
    ('"t", "-1"', '"t == 1", "-1"', "payoffs[0][0]"),
    ('"t", "-1"', '"1/(t-t)", "-1"', "payoffs[0][0]"),
    ('"t", "-1"', '"0x10", "-1"', "payoffs[0][0]"),
    ('"t", "-1"', '"1_000", "-1"', "payoffs[0][0]"),
    ('"t", "-1"', '"t!", "-1"', "payoffs[0][0]"),
    ('t: "[0, 3]"', 't: "[0, 3]"\n  t: "[0, 5]"', "key 't' given twice"),
    ("game: g", "game: g\ngame: h", "key 'game' given twice"),
    ("zero_sum: true", "zero_sum: true\nzero_sum: false", "key 'zero_sum' given twice"),
    ('t: "[0, 3]"', 't: "[a, b]"', "parameters.t"),
    ('t: "[0, 3]"', 't: "[0, 3"', "parameters.t"),
    ('t: "[0, 3]"', 't: "[1/0, 3]"', "parameters.t"),
    ('t: "[0, 3]"', 't: 7', "parameters.t"),
    ('t: "[0, 3]"', 't: {domain: "[0, 3]", integer: maybe}', "parameters.t.integer"),
    ('t: "[0, 3]"', 't: {domain: "[0, 3]", step: 1}', "parameters.t.step"),
    ('t: "[0, 3]"', 'oo: "[0, 3]"', "parameters.oo"),
    ('t: "[0, 3]"', '"t t": "[0, 3]"', "parameters.t t"),
    ("game: g", "game: " + "g" * 100, "game:"),
    ("game: g", "game: [g]", "game:"),
    ("game: g", "game: 'a/b'", "game:"),
    ("  - name: Row", "  - name: ''", "players[0].name"),
    ("  - name: Col", "  - name: Row", "players[1].name"),
    ("    actions: [a, b]\n  - name: Col", "    actions: []\n  - name: Col", "players[0].actions"),
    ("    actions: [a, b]\n  - name: Col", "    actions: a\n  - name: Col", "players[0].actions"),
    ("    actions: [a, b]\n  - name: Col", "    actions: [a, 1]\n  - name: Col", "players[0].actions"),
    ("  - name: Row\n", "  - name: Row\n    colour: red\n", "players[0]"),
    ("payoffs:\n", "payoffs: 7\n", "payoffs"),
    ("zero_sum: true", "zero_sum: 1", "zero_sum"),
]):
    case(f"yaml_{i:02d}", ".yaml", _sub(NORMAL, old, new), fragment)
case("yaml_empty", ".yaml", "", "must contain a mapping")
case("yaml_list", ".yaml", "- 1\n- 2\n", "must contain a mapping")
case("yaml_deep", ".yaml", _nest(5000), "")
case("yaml_binary", ".yaml", "\x00\x01\x02game", "")
case("yaml_alias_bomb", ".yaml", "a: &a [x, x]\nb: &b [*a, *a]\nc: &c [*b, *b]\nd: [*c, *c]\n", "unknown key")
case("yaml_tab", ".yaml", "game:\tg\n\tplayers: 1\n", "")
case("yaml_description_list", ".yaml", NORMAL + "description: [1]\n", "description")
case("yaml_assumption_relation", ".yaml", NORMAL + 'assumptions: ["t >> 1"]\n', "assumptions[0]")
case("yaml_assumption_empty_domain", ".yaml", NORMAL + 'assumptions: ["t > 5"]\n', "no parameter values")
case("yaml_general_sum_triple", ".yaml", _sub(_sub(NORMAL, "zero_sum: true", "zero_sum: false"), '["t", "-1"]',
                                             '[["t", "1", "2"], ["1", "1"]]'), "payoffs[0][0]")
case("yaml_rational_sign_change", ".yaml", _sub(_sub(NORMAL, '"t", "-1"', '"1/(t - 1)", "-1"'), 't: "[0, 3]"',
                                               't: "[0, 3]"\nassumptions: ["t != 1"]'), "takes both signs")

# --- normal-form JSON -------------------------------------------------------------------------
NORMAL_JSON = json.dumps({"game": "g", "parameters": {"t": "[0, 3]"},
                          "players": [{"name": "Row", "actions": ["a", "b"]}, {"name": "Col", "actions": ["a", "b"]}],
                          "zero_sum": True, "payoffs": [["t", "-1"], ["-1", "1"]]}, indent=1)
for i, (old, new, fragment) in enumerate([
    ('"game": "g"', '"game": "g", "game": "h"', "key 'game' given twice"),
    ('"t": "[0, 3]"', '"t": "[0, 3]", "t": "[0, 1]"', "key 't' given twice"),
    ('"zero_sum": true', '"zero_sum": True', "not valid JSON"),
    ('"zero_sum": true', '"zero_sum": NaN', "zero_sum"),
    ('"t",', "'t',", "not valid JSON"),
    ('"t",', '"t" ,,', "not valid JSON"),
    ('"t",', '1e999999,', "payoffs[0][0]"),
    ('"t",', '"t/(t-2)",', "has a pole at t = 2"),
    ('"t",', '[1, 2],', "payoffs[0][0]"),
    ('"t",', '{"a": 1},', "payoffs[0][0]"),
    ('"t",', '"t", /* comment */', "not valid JSON"),
    ('"game": "g"', '"game": "g",', "not valid JSON"),
]):
    case(f"json_{i:02d}", ".json", _sub(NORMAL_JSON, old, new), fragment)
case("json_deep", ".json", "[" * 100_000 + "]" * 100_000, "")
case("json_empty", ".json", "", "not valid JSON")
case("json_trailing", ".json", NORMAL_JSON + "{}", "not valid JSON")

# --- polynomial game files (symgame atlas) ----------------------------------------------------
for i, (old, new, fragment) in enumerate([
    ("payoff: \"P*x*y", "payoff: \"Q*x*y", "'Q'"),
    ("payoff: \"P*x*y", "payoff: \"P*x/y", "payoff"),
    ("payoff: \"P*x*y", "payoff: \"P*x^70*y", "exponent"),
    ("payoff: \"P*x*y", "payoff: \"(P*x*y", "payoff"),
    ("variables: [x]", "variables: [x, x]", "x"),
    ("variables: [y]", "variables: [x]", "x"),
    ("variables: [x]", "variables: []", "variables"),
    ("variables: [x]", "variables: x", "variables"),
    ('P: "[1, oo)"', 'P: "[1, oo)"\n  Q: "[0, 1]"', "parameter"),
    ('P: "[1, oo)"', 'P: "[1, 0]"', "parameters.P"),
    ('P: "[1, oo)"', 'P: "[1, oo)"\n  P: "[2, oo)"', "key 'P' given twice"),
    ("game: pennies", "game: pennies\nzero_sum: true", "unknown key"),
    ("  - name: \"1\"\n", "  - name: \"1\"\n    extra: 1\n", "players[0]"),
    ("payoff: \"P*x*y", "payoff: \"P*x*y + \"", "not valid YAML"),
    ("payoff: \"P*x*y", "payoff: \"sin(P)*x*y", "sin"),
]):
    case(f"poly_{i:02d}", ".yaml", _sub(POLY, old, new), fragment, "atlas")

# --- game trees with parameters (symgame atlas) ---------------------------------------------------
for i, (old, new, fragment) in enumerate([
    ('- prob: "1/2"\n      label: high', '- prob: "2/3"\n      label: high', "prob"),
    ('- prob: "1/2"\n      label: high', '- prob: "-1/2"\n      label: high', "prob"),
    ('call: {payoffs: ["a + 1", "-a - 1"]}', 'call: {payoffs: ["a + 1"]}', "payoffs"),
    ('call: {payoffs: ["a + 1", "-a - 1"]}', 'call: {payoffs: ["b + 1", "-a - 1"]}', "'b'"),
    ('call: {payoffs: ["a + 1", "-a - 1"]}', 'call: {}', ""),
    ("player: Bob", "player: Carol", "must be one of the players"),
    ("infoset: Alice high", "infoset: Bob facing a bet", "Bob facing a bet"),
    ("infoset: Alice high", 'infoset: "Alice\\u202ehigh"', "U+202E is not allowed"),
    ('call: {payoffs: ["a + 1", "-a - 1"]}', '"call\\0": {payoffs: ["a + 1", "-a - 1"]}', "U+0000 is not allowed"),
    ('a: "[1/2, oo)"', 'a: "[1/2, oo)"\n  a: "[1, 2]"', "key 'a' given twice"),
    ("root:", "roots:", ""),
    ('check: {payoffs: ["a", "-a"]}', 'check: {payoffs: ["a", "-a"], extra: 1}', ""),
]):
    case(f"tree_{i:02d}", ".yaml", _sub(TREE, old, new), fragment, "atlas")
deep_tree = "game: deep\nparameters: {a: \"[0, 1]\"}\nplayers: [A, B]\nroot: " + (
    '{chance: [{prob: "1", node: ' * 3000) + '{payoffs: ["a", "-a"]}' + "}]}" * 3000 + "\n"
case("tree_deep", ".yaml", deep_tree, "", "atlas")

# --- Gambit .efg ------------------------------------------------------------------------------------
for i, (old, new, fragment) in enumerate([
    ('{ 1, -1 }', '{ 1e999999, -1 }', "out of range"),
    ('{ 1, -1 }', '{ 1e99999999, -1 }', "out of range"),
    ('{ 1, -1 }', '{ 1/0, -1 }', "bad number"),
    ('{ 1, -1 }', '{ 1, }', "1 payoffs for 2 players"),
    ('{ 1, -1 }', '{ x, -1 }', "found 'x'"),
    ('{ 1, -1 }', '{ ' + "9" * 500 + ', -1 }', "longer than"),
    ('p "" 1 1', 'p "" 3 1', "player 3 does not exist"),
    ('p "" 1 1', 'p "" -1 1', "line 4"),
    ('p "" 1 1', 'q "" 1 1', "unknown node type"),
    ('t "" 2 "o2" { -1, 1 }\n', "", "unexpected end of file"),
    ('t "" 2 "o2" { -1, 1 }\n', 't "" 2 "o2" { -1, 1 }\nt "" 3 "" { 0, 0 }\n', "text after the end"),
    ('EFG 2 R', 'EFG 3 R', "line 1"),
    ('EFG 2 R', 'NFG 1 R', "line 1"),
    ('"g" { "A" "B" }', '"g" { }', "players"),
    ('"g" { "A" "B" }', '"g { "A" "B" }', "line"),
    ('{ "l" "r" }', '{ }', "at least one action"),
    ('{ "l" "r" } 0', '{ "l" "r" } 9', "outcome"),
    ('p "" 1 1 "" { "l" "r" } 0', 'c "" 1 "" { "l" 1/3 "r" 1/3 } 0', "sum to 1"),
    ('p "" 1 1 "" { "l" "r" } 0', 'c "" 1 "" { "l" -1 "r" 2 } 0', "non-negative"),
    ('p "" 1 1 "" { "l" "r" } 0', 'p "" 1 1 0', "used before its actions"),
    ('t "" 1 "o1" { 1, -1 }', 't "" 1 "o1" { 1, -1, 3 }', "3 payoffs for 2 players"),
    ('t "" 2 "o2" { -1, 1 }', 't "" 1 "o2" { -1, 2 }', "outcome 1"),
    ('""\n', '"\n', "line"),
    ('t "" 1 "o1" { 1, -1 }', 't "" 1 "o1" { "1", -1 }', "expected a payoff"),
    ('"g" { "A" "B" }', '"g" { "A\u202e" "B" }', "U+202E is not allowed"),
    ('{ "l" "r" }', '{ "l\x00" "r" }', "U+0000 is not allowed"),
    ('{ "l" "r" }', '{ "l\u2028" "r" }', "U+2028 is not allowed"),
    ('p "" 1 1 "" {', 'p "" 1 1 "x\u200b" {', "information set name"),
]):
    case(f"efg_{i:02d}", ".efg", _sub(EFG, old, new), fragment)
case("efg_deep", ".efg", 'EFG 2 R "d" { "A" "B" }\n""\n' + 'c "" 1 "" { "x" 1 } 0\n' * 20_000 + 't "" 1 "" { 1, -1 }\n',
     "deeper than")
case("efg_binary", ".efg", "\x00\xff\x00", "")
case("efg_empty", ".efg", "", "")
case("efg_imperfect_recall", ".efg", """\
EFG 2 R "forgetful" { "A" "B" }
""
p "" 1 1 "first" { "l" "r" } 0
p "" 1 2 "later" { "x" "y" } 0
t "" 1 "" { 1, -1 }
t "" 2 "" { -1, 1 }
p "" 1 2 "later" { "x" "y" } 0
t "" 3 "" { 0, 0 }
t "" 4 "" { 2, -2 }
""", "imperfect recall")

# --- Gambit .nfg ------------------------------------------------------------------------------------
for i, (old, new, fragment) in enumerate([
    ("{ 2 2 }", "{ 2 3 }", "line"),
    ("{ 2 2 }", "{ 2 0 }", "line"),
    ("{ 2 2 }", "{ 2 }", "line"),
    ("{ 2 2 }", "{ 100000 100000 }", "profiles"),
    ("1 -1 -1 1 -1 1 1 -1", "1 -1 -1 1 -1 1 1", "line"),
    ("1 -1 -1 1 -1 1 1 -1", "1 -1 -1 1 -1 1 1 -1 5", "line"),
    ("1 -1 -1 1 -1 1 1 -1", "1e99999 -1 -1 1 -1 1 1 -1", "out of range"),
    ("1 -1 -1 1 -1 1 1 -1", "a -1 -1 1 -1 1 1 -1", "line"),
    ("NFG 1 R", "NFG 2 R", "line 1"),
    ('{ "A" "B" }', '{ "A" "B" "C" }', "line"),
    ('{ "A" "B" }', "{ }", "players"),
    ('{ "A" "B" }', '{ "A" "B\x1b[31m" }', "U+001B is not allowed"),
    ("{ 2 2 }", '{ { "a" "b\x07" } { "c" "d" } }', "strategy 'b\\x07'"),
]):
    case(f"nfg_{i:02d}", ".nfg", _sub(NFG, old, new), fragment)


@pytest.mark.parametrize("name", sorted(CASES))
def test_hostile_file_one_line(name, tmp_path, capsys):
    suffix, text, fragment, command = CASES[name]
    path = tmp_path / f"{name}{suffix}"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    start = time.perf_counter()
    code = main([command, str(path)])
    elapsed = time.perf_counter() - start
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert code == 2, (code, err)
    assert len(lines) == 1, err
    assert str(path) in lines[0] and "Traceback" not in err
    assert fragment in lines[0], lines[0]
    assert elapsed < 5, f"{name}: {elapsed:.1f} s"


PDL_GOOD = """\
rules:
  - if: ["t >= 2"]
    play: {Row: [1, 0], Col: [0, 1]}
  - play: {Row: ["1/2", "1/2"], Col: ["1/2", "1/2"]}
"""
PDL_CASES = {
    "pdl_unknown_player": (_sub(PDL_GOOD, "Col: [0, 1]", "Bob: [0, 1]"), "rules[0].play"),
    "pdl_short_strategy": (_sub(PDL_GOOD, "Col: [0, 1]", "Col: [1]"), "rules[0].play.Col"),
    "pdl_bad_condition": (_sub(PDL_GOOD, '"t >= 2"', '"t >>= 2"'), "rules[0].if[0]"),
    "pdl_unknown_name": (_sub(PDL_GOOD, '"t >= 2"', '"s >= 2"'), "unknown name 's'"),
    "pdl_negative": (_sub(PDL_GOOD, "Row: [1, 0]", "Row: [2, -1]"), "rules[0].play.Row"),
    "pdl_no_rules": ("rules: []\n", "rules"),
    "pdl_not_mapping": ("- 1\n", "mapping"),
    "pdl_duplicate_key": (_sub(PDL_GOOD, "rules:", "rules: []\nrules:"), "key 'rules' given twice"),
    "pdl_extra_key": (PDL_GOOD + "extra: 1\n", "unknown key"),
    "pdl_code": (_sub(PDL_GOOD, '"t >= 2"', '"__import__(1) >= 2"'), "rules[0].if[0]"),
    "pdl_last_conditional": (PDL_GOOD.replace('  - play: {Row: ["1/2"', '  - if: ["t < 2"]\n    play: {Row: ["1/2"'),
                             "rules"),
    "pdl_sum": (_sub(PDL_GOOD, 'Row: ["1/2", "1/2"]', 'Row: ["1/2", "1/3"]'), "sum to 5/6"),
}


@pytest.mark.parametrize("name", sorted(PDL_CASES))
def test_hostile_pdl_file_one_line(name, tmp_path):
    from symgame.api import load, load_pdl

    game_path = tmp_path / "g.yaml"
    game_path.write_text(NORMAL)
    path = tmp_path / f"{name}.yaml"
    text, fragment = PDL_CASES[name]
    path.write_text(text)
    with pytest.raises(InputError) as info:
        load_pdl(path, load(game_path))
    message = str(info.value)
    assert "\n" not in message and message.startswith(str(path)) and fragment in message, message


def test_enough_hostile_cases():
    assert len(CASES) + len(PDL_CASES) >= 150


HEAVY = ["efg_deep", "json_deep", "yaml_deep", "tree_deep", "yaml_12", "efg_01", "nfg_03"]


@pytest.mark.parametrize("name", HEAVY)
def test_hostile_file_bounded_memory(name, tmp_path):
    """The largest hostile inputs in a fresh process limited to 1.5 GB of address space."""
    suffix, text, fragment, command = CASES[name]
    path = tmp_path / f"{name}{suffix}"
    path.write_text(text)

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (1_500_000_000, 1_500_000_000))

    done = subprocess.run([sys.executable, "-m", "symgame", command, str(path)], capture_output=True, text=True,
                          timeout=60, preexec_fn=limit, cwd=ROOT)
    assert done.returncode == 2, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


# --- hypothesis: hostile cells and token soups go through the readers --------------------------------
CELL_ALPHABET = "t0123456789+-*/^()., eEx_[]{}:'\"!@#$%&|<>=?\\\n\t"


@settings(max_examples=150, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=CELL_ALPHABET, max_size=30))
def test_random_cells_read_or_refused_in_one_line(cell):
    from symgame.api import normal_form

    try:
        game = normal_form([[cell, "-1"], ["-1", "1"]], parameters={"t": "[0, 3]"}, zero_sum=True)
    except InputError as exc:
        message = str(exc)
        assert "\n" not in message and message.startswith("<python>: payoffs[0][0]")
    else:
        assert game.payoffs[0].shape == (2, 2)


EFG_TOKENS = ['EFG', '2', 'R', '"g"', '{', '}', '"A"', '"B"', '""', 'p', 'c', 't', '1', '0', '-1', '1/2', ',',
              '"x"', '2', '1e5', '.5', '3']


@settings(max_examples=150, derandomize=True, deadline=None)
@given(st.lists(st.sampled_from(EFG_TOKENS), max_size=60))
def test_random_efg_token_soup(tokens):
    from symgame.model.gambit import GambitError, read_efg

    text = 'EFG 2 R "g" { "A" "B" } ""\n' + " ".join(tokens)
    try:
        read_efg(text, "soup.efg")
    except GambitError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("soup.efg: line ")


# --- hypothesis: valid random games are solved, and the result is checked exactly -------------------
@settings(max_examples=12, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(-3, 3), min_size=8, max_size=8), st.integers(0, 3), st.integers(1, 2))
def test_valid_random_game_solved_and_exactly_checked(tmp_path_factory, entries, cell, coefficient):
    from symgame.api import load, solve
    from symgame.verify.regret import exact_regret

    cells = [[f'["{entries[0]}", "{entries[1]}"]', f'["{entries[2]}", "{entries[3]}"]'],
             [f'["{entries[4]}", "{entries[5]}"]', f'["{entries[6]}", "{entries[7]}"]']]
    i, j = divmod(cell, 2)
    cells[i][j] = f'["{entries[2 * cell]} + {coefficient}*t", "{entries[2 * cell + 1]} - t"]'
    text = _sub(_sub(NORMAL, "zero_sum: true", "zero_sum: false"), '  - ["t", "-1"]\n  - ["-1", "1"]\n',
                "".join(f"  - [{', '.join(row)}]\n" for row in cells))
    path = tmp_path_factory.mktemp("valid") / "g.yaml"
    path.write_text(text)
    game = load(path)
    solution = solve(game, sample_points=3)
    assert solution.certified
    for t in (Fraction(0), Fraction(1, 3), Fraction(3, 2), Fraction(3)):
        choice = solution.evaluate(t=t)
        assert exact_regret(game, {"t": t}, choice.strategies).is_nash


# --- hypothesis: every reader on mutated valid files ------------------------------------------------
MUTATION_BYTES = [b"\x00", b"\xff", b"\xe2\x80\xae", b"\n", b"\t", b" ", b'"', b"'", b"{", b"}", b"[", b"]", b":",
                  b"-", b"1", b"9" * 30, b"1e999", b"1/0", b"t", b"&a", b"*a", b"!!python/object:os.system",
                  b"<script>", b"#", b",", b"sqrt(", b"**", b"oo"]
MUTATED_BASES = {
    "nfg": ("g.nfg", NFG.encode()),
    "efg": ("g.efg", EFG.encode()),
    "normal_form": ("g.yaml", (ROOT / "examples" / "rps_variant.yaml").read_bytes()),
    "tree": ("g.yaml", TREE.encode()),
    "polynomial": ("g.yaml", (ROOT / "examples" / "three_player.yaml").read_bytes()),
}


@st.composite
def _mutation(draw, base: bytes):
    data = bytearray(base)
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(data)))
        kind = draw(st.sampled_from(["insert", "delete", "replace", "truncate", "repeat"]))
        piece = draw(st.sampled_from(MUTATION_BYTES))
        span = draw(st.integers(1, 12))
        if kind == "insert":
            data[at:at] = piece
        elif kind == "delete":
            del data[at:at + span]
        elif kind == "replace":
            data[at:at + len(piece)] = piece
        elif kind == "truncate":
            del data[at:]
        else:
            data[at:at] = bytes(data[at:at + span]) * 3
    return bytes(data)


@pytest.mark.parametrize("kind", sorted(MUTATED_BASES))
def test_mutated_files_load_or_fail_in_one_line(kind, tmp_path):
    """Every reader (Gambit .nfg and .efg, YAML normal form, game tree, polynomial game) on hypothesis-mutated
    copies of a valid file: the game, or one SymgameError line naming the file, within a second each."""
    import time

    from symgame import load

    name, base = MUTATED_BASES[kind]
    path = tmp_path / name

    @settings(max_examples=60, derandomize=True, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
    @given(_mutation(base))
    def check(data):
        path.write_bytes(data)
        start = time.perf_counter()
        try:
            load(path)
        except SymgameError as exc:
            message = str(exc)
            assert "\n" not in message and str(path) in message, message
        assert time.perf_counter() - start < 1.0

    check()
