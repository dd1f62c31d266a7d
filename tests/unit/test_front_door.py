"""One front door (symgame.solve for every game) and one result contract (symgame.export.contract)."""
from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import symgame
from symgame import InputError, Solution, SymgameError
from symgame.cli import main
from symgame.errors import StoreError

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "symgame" / "export" / "solution.schema.json").read_text())

RING = """NFG 1 R "ring" { "A" "B" "C" } { { "x" "y" } { "x" "y" } { "x" "y" } }
1 1 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 1 1
"""
ENTRY = """EFG 2 R "entry" { "Entrant" "Incumbent" } ""
p "" 1 1 "" { "out" "in" } 0
t "" 1 "stay out" { 0, 2 }
p "" 2 1 "" { "fight" "share" } 0
t "" 2 "war" { -1, -1 }
t "" 3 "peace" { 1, 1 }
"""
MATCH = """EFG 2 R "match" { "A" "B" } ""
c "" 1 "" { "h" 0.3333333333333333 "t" 0.6666666666666666 } 0
p "" 1 1 "" { "H" "T" } 0
p "" 2 1 "" { "H" "T" } 0
t "" 1 "" { 1, -1 }
t "" 2 "" { -1, 1 }
p "" 2 1 "" { "H" "T" } 0
t "" 3 "" { -1, 1 }
t "" 4 "" { 1, -1 }
p "" 1 2 "" { "H" "T" } 0
p "" 2 2 "" { "H" "T" } 0
t "" 5 "" { 2, -2 }
t "" 6 "" { -2, 2 }
p "" 2 2 "" { "H" "T" } 0
t "" 7 "" { -2, 2 }
t "" 8 "" { 2, -2 }
"""

# file -> the engine the front door must pick
ENGINES = {
    "examples/rps_variant.yaml": "parametric support enumeration",
    "examples/battle_weight.yaml": "parametric support enumeration",
    "examples/pennies.yaml": "atlas",
    "examples/three_player.yaml": "atlas",
    "examples/volunteers_dilemma.yaml": "atlas",
    "examples/kuhn_bet.yaml": "parametric sequence-form LP",
    "examples/kuhn_ante_bet.yaml": "parametric sequence-form LP",
    "examples/one_card_poker.yaml": "parametric sequence-form LP",
    "tests/data/openspiel/kuhn_poker.efg": "sequence-form LP",
    "ring.nfg": "enumpoly",
    "entry.efg": "sequence-form Lemke",
    "match.efg": "sequence-form LP",
}


class _Solved(dict):
    """Each game of ENGINES solved when a test first asks for it (the two test workers each solve only the games
    their tests use, instead of all twelve)."""

    def __init__(self, folder: Path):
        super().__init__()
        self.folder = folder

    def __missing__(self, name: str) -> Solution:
        if name not in ENGINES:
            raise KeyError(name)
        self[name] = symgame.solve(self.folder / name if "/" not in name else ROOT / name)
        return self[name]


@pytest.fixture(scope="session")     # see conftest.py: built once per worker
def solutions(tmp_path_factory) -> dict[str, Solution]:
    folder = tmp_path_factory.mktemp("games")
    for name, text in (("ring.nfg", RING), ("entry.efg", ENTRY), ("match.efg", MATCH)):
        (folder / name).write_text(text)
    return _Solved(folder)


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_every_kind_of_game_through_one_door_in_one_contract(solutions, name):
    solution = solutions[name]
    data = json.loads(solution.to_json())
    jsonschema.validate(data, SCHEMA)
    assert solution.engine == ENGINES[name] == data["engine"]["name"]
    assert solution.certified and data["certificate"]["status"] == "proved"
    ids = [e["id"] for e in data["equilibria"]]
    assert ids and len(set(ids)) == len(ids)
    for piece in data["pieces"]:
        assert len(piece["when"]) == len(set(piece["when"]))                 # no repeated condition
        assert piece["selected"] is None or piece["selected"] in ids
        assert piece["equilibria"] is None or set(piece["equilibria"]) <= set(ids)
    back = Solution.from_json(solution.to_json())
    assert back.to_json() == solution.to_json() and back.render_text() == _contract_text(solution)
    text = back.render_text()
    assert text.splitlines()[0].startswith(f"{data['game']}: {len(ids)} ")
    assert all(f"{i}" in text for i in ids if any(i in (p["equilibria"] or [p["selected"]]) for p in data["pieces"]))
    assert back.to_latex().startswith("\\documentclass") and back.to_markdown().startswith("**")


def _contract_text(solution: Solution) -> str:
    from symgame.export.contract import render_text

    return render_text(solution.to_data())


def test_point_games_payoffs_are_the_expected_payoffs_of_the_strategies(solutions):
    """The contract's payoffs of the three-player ring game are the exact expected payoffs of its strategies."""
    from symgame.model.gambit import read_nfg

    game = read_nfg(RING)
    data = solutions["ring.nfg"].to_data()
    assert [e["strategies"]["C"] for e in data["equilibria"]] == [{"x": "1"}, {"y": "1"}, {"x": "1/2", "y": "1/2"}]
    for e in data["equilibria"]:
        mix = [[Fraction(e["strategies"][p].get(s, "0")) for s in ("x", "y")] for p in ("A", "B", "C")]
        expected = [sum(mix[0][i] * mix[1][j] * mix[2][k] * game.payoff((i, j, k))[n]
                        for i in range(2) for j in range(2) for k in range(2)) for n in range(3)]
        assert [Fraction(e["payoffs"][p]) for p in ("A", "B", "C")] == expected


def test_tree_value_payoffs_and_names(solutions):
    data = solutions["match.efg"].to_data()
    assert data["pieces"][0]["value"] == data["equilibria"][0]["payoffs"]["A"]
    assert Fraction(data["equilibria"][0]["payoffs"]["A"]) + Fraction(data["equilibria"][0]["payoffs"]["B"]) == 0
    assert data["notes"] and "floating-point decimals" in data["notes"][0]          # 1/3, 2/3 read from decimals
    sets = {p["name"]: [i["name"] for i in p["information_sets"]] for p in data["players"]}
    assert sets == {"A": ["P1:1", "P1:2"], "B": ["P2:1", "P2:2"]}                  # unnamed sets get stable names
    assert set(data["equilibria"][0]["behaviour"]["A"]) == {"P1:1", "P1:2"}


def test_the_atlas_contract_lists_the_atlas_families(solutions):
    solution = solutions["examples/three_player.yaml"]
    atlas = solution.native.atlas
    assert [e["id"] for e in solution.equilibria] == [f.ident for f in atlas.families]
    detail = solution.to_data()["detail"]
    assert [e["variables"] for e in solution.equilibria] == [f["members"][0]["values"] for f in detail["families"]]
    assert [set(e["variables"]) for e in solution.equilibria] == [{x for x, _ in f.members[0].branch.values}
                                                                   for f in atlas.families]
    assert solution.complete == "complete"
    # every stretch of the domain where the atlas says a set of families coexists is one piece (neighbours with
    # the same families merged), in order
    cells = [c["families"] for c in detail["coexistence"] if c["families"] or not c["point"]]
    merged = [f for k, f in enumerate(cells) if k == 0 or f != cells[k - 1]]
    assert [p["equilibria"] for p in solution.pieces] == merged
    assert [p["when"] for p in solution.pieces][:2] == [["1/2 <= t", "t < 1"], ["t == 1"]]


def test_normal_form_pieces_select_a_listed_branch_and_select_all_lists_each_piece():
    stag = symgame.normal_form(([[4, 0], [3, 3]], [[4, 3], [0, 3]]),
                               players=[("Ann", ["Stag", "Hare"]), ("Bob", ["Stag", "Hare"])])
    data = symgame.solve(stag).to_data()
    assert len(data["equilibria"]) == 3 and data["complete"]["status"] == "generic"
    chosen = data["equilibria"][int(data["pieces"][0]["selected"][1:]) - 1]
    assert chosen["strategies"] == {"Ann": {"Stag": "1"}, "Bob": {"Stag": "1"}}    # the first pure one
    assert {e["payoffs"]["Ann"] for e in data["equilibria"]} == {"4", "3", "3"}
    every = symgame.solve(stag, select="all").to_data()
    assert every["selection"]["method"] == "all" and sorted(every["pieces"][0]["equilibria"]) == ["E1", "E2", "E3"]


@settings(max_examples=25, deadline=None, derandomize=True)
@given(st.lists(st.integers(-3, 3), min_size=8, max_size=8))
def test_the_parametric_engine_agrees_with_vertex_enumeration_through_the_same_door(values):
    """Every equilibrium the parametric engine lists for a 2x2 game without parameters is an extreme equilibrium
    vertex enumeration lists (both through symgame.solve); for a nondegenerate game the two lists are equal."""
    a = [values[0:2], values[2:4]]
    b = [values[4:6], values[6:8]]
    game = symgame.normal_form((a, b))
    try:
        parametric = symgame.solve(game, sample_points=0).to_data()
    except SymgameError:
        return                                              # a degenerate game the cover proof does not settle
    vertices = symgame.solve(game, every=True).to_data()
    assert vertices["engine"]["name"] == "vertex enumeration" and vertices["complete"]["status"] == "complete"

    def key(e):
        return tuple(sorted((p, tuple(sorted(m.items()))) for p, m in e["strategies"].items()))
    found, extreme = {key(e) for e in parametric["equilibria"]}, {key(e) for e in vertices["equilibria"]}
    assert found <= extreme
    degenerate = len(set(values[0:4:2])) < 2 or len(set(values[1:4:2])) < 2 or len(set(values[4:6])) < 2 \
        or len(set(values[6:8])) < 2
    if not degenerate and len(extreme) == len(vertices["detail"]["components"]):
        assert found == extreme


@pytest.mark.parametrize("text, message", [
    ("[1, 2]", "not a symgame result"),
    ('{"schema": "x"}', "schema_version: missing"),
    ("{", "not JSON"),
])
def test_from_json_refuses_what_is_not_a_result_in_one_line(text, message):
    with pytest.raises(InputError, match=message) as caught:
        Solution.from_json(text)
    assert "\n" not in str(caught.value)


def test_from_json_checks_references_and_reads_files_bounded(solutions, tmp_path):
    data = solutions["ring.nfg"].to_data()
    data["pieces"][0]["selected"] = "E9"
    with pytest.raises(StoreError, match=r"pieces\[0\].selected: 'E9' is not a listed equilibrium"):
        Solution.from_json(json.dumps(data))
    with pytest.raises(StoreError, match="not a regular file"):
        Solution.from_json("/dev/zero")
    path = tmp_path / "ring.json"
    path.write_text(solutions["ring.nfg"].to_json())
    assert Solution.from_json(path).to_json() == solutions["ring.nfg"].to_json()
    with pytest.raises(InputError, match="no decision list"):
        Solution.from_json(path).pdl


def test_a_combination_no_engine_takes_is_one_line(tmp_path):
    two = tmp_path / "two.yaml"
    two.write_text("game: g\nparameters: {a: '[0, 1]', b: '[0, 1]'}\nplayers:\n"
                   "  - {name: A, variables: [x], payoff: 'a*x - x*y'}\n  - {name: B, variables: [y], payoff: 'b*y - x*y'}\n")
    with pytest.raises(InputError, match="the atlas takes games with exactly one parameter \\(2 here\\)"):
        symgame.solve(two)
    with pytest.raises(InputError, match="expected a game or a file path, got int"):
        symgame.solve(3)


def test_the_command_line_is_the_api(tmp_path, capsys):
    """`symgame solve` prints what Solution renders: the atlas's game (refused before) and its JSON contract."""
    assert main(["solve", "examples/pennies.yaml"]) == 0
    assert capsys.readouterr().out == symgame.solve("examples/pennies.yaml").render_text() + "\n"
    assert main(["solve", "examples/pennies.yaml", "--json"]) == 0
    assert capsys.readouterr().out == symgame.solve("examples/pennies.yaml").to_json()
    out = tmp_path / "r.json"
    assert main(["solve", "examples/kuhn_bet.yaml", "--json", "-o", str(out)]) == 0
    assert Solution.from_json(out).engine == "parametric sequence-form LP"


def test_solving_needs_neither_matplotlib_nor_jinja2(tmp_path):
    """Plots and LaTeX are the extra `symgame[export]`: without them a game is solved, rendered as text, JSON and
    generic LaTeX; a cheat sheet asks for the extra in one line (exit 2 on the command line)."""
    import subprocess
    import sys

    script = """
import sys
sys.modules["jinja2"] = None
sys.modules["matplotlib"] = None
import symgame
from symgame.cli import main
game = symgame.normal_form([[1, -1], [-1, 1]], zero_sum=True)
solution = symgame.solve(game, sample_points=2)
print(solution.render_text())
assert symgame.Solution.from_json(solution.to_json()).to_latex().startswith("\\\\documentclass")
try:
    solution.to_latex()
except symgame.MissingDependencyError as exc:
    print("refused:", exc)
sys.exit(main(["solve", "examples/rps_variant.yaml", "--latex"]))
"""
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout.splitlines()[0] == "Always: Row plays {a1: 1/2, a2: 1/2}; Col plays {a1: 1/2, a2: 1/2}"
    assert "refused: LaTeX cheat sheets need jinja2: pip install 'symgame[export]'" in proc.stdout
    assert proc.stderr.strip() == ("symgame solve: examples/rps_variant.yaml: LaTeX cheat sheets need jinja2: "
                                   "pip install 'symgame[export]'")


@pytest.mark.parametrize("text, first", [
    ('NFG 1 R "x" { "A" "B" } { 2 2 }\n1 -1 -1 1 -1 1 1 -1\n', "Always: A plays {1: 1/2, 2: 1/2}; B plays {1: 1/2, 2: 1/2}"),
    (ENTRY, "entry: 1 equilibrium (not complete; certificate proved)"),
    (json.dumps({"game": "j", "players": [{"name": "R", "actions": ["u", "d"]}, {"name": "C", "actions": ["l", "r"]}],
                 "zero_sum": True, "payoffs": [["1", "-1"], ["-1", "1"]]}),
     "Always: R plays {u: 1/2, d: 1/2}; C plays {l: 1/2, r: 1/2}"),
])
def test_standard_input_is_read_by_its_format(text, first, monkeypatch, capsys):
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    assert main(["solve", "-"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == first


def test_bad_standard_input_is_one_line_naming_stdin(monkeypatch, capsys):
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"game: [\n")))
    assert main(["solve", "-"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("symgame: <stdin>: line 2") and err.count("\n") == 1 and "symgame-stdin" not in err


def test_verbose_names_the_engine_on_standard_error_only(capsys):
    assert main(["-v", "solve", "examples/kuhn_bet.yaml"]) == 0
    captured = capsys.readouterr()
    assert captured.out == symgame.solve("examples/kuhn_bet.yaml").render_text() + "\n"
    assert captured.err.startswith("symgame solve: examples/kuhn_bet.yaml: engine parametric sequence-form LP (")
    assert captured.err.count("\n") == 1


def test_a_degenerate_game_lists_each_equilibrium_once_and_shows_the_first_pure_one():
    """Two support pairs give the same pure profile (Row is indifferent between a2 and a6 against a1): the
    contract lists it once, and the default choice is that pure equilibrium, not the mixed one found later."""
    a = [[-3, 3, -2, -5, -2, 3], [3, -2, 1, 3, 0, 4], [0, 2, -1, 5, 3, 4], [-5, 1, 3, -3, 3, 3],
         [-2, 1, -5, 2, 0, 4], [3, -2, 3, 1, 2, 0]]
    b = [[1, 0, -5, 3, 3, 4], [4, 0, 2, 4, -5, -2], [5, -3, 3, 4, -3, -4], [3, -1, -5, 5, -4, -4],
         [-5, 2, -5, -1, -2, -1], [-4, 4, -3, 0, -1, -4]]
    solution = symgame.solve(symgame.normal_form((a, b)), sample_points=4)
    assert len(solution.branches) == 3
    data = solution.to_data()
    assert [e["strategies"] for e in data["equilibria"]] == [{"Row": {"a2": "1"}, "Col": {"a1": "1"}},
                                                             {"Row": {"a2": "1"}, "Col": {"a1": "2/5", "a4": "3/5"}}]
    assert data["pieces"][0]["selected"] == "E1"
    assert solution.render_text().splitlines()[0] == "Always: Row plays a2; Col plays a1"
    vertices = symgame.solve(symgame.normal_form((a, b)), every=True).to_data()
    assert [e["strategies"] for e in vertices["equilibria"]] == [e["strategies"] for e in data["equilibria"]]


def test_a_large_game_without_parameters_goes_to_vertex_enumeration():
    """Past VERTEX_FIRST support pairs, a game without parameters is solved by vertex enumeration (complete) and
    the result says so; its equilibria have exact regret 0 (recomputed here from the matrices)."""
    from symgame.api import VERTEX_FIRST
    from symgame.model.gamefile import support_pairs

    n = 7
    assert support_pairs(n, n) > VERTEX_FIRST > support_pairs(5, 5)
    a = [[(3 * i + 5 * j) % 7 - 3 for j in range(n)] for i in range(n)]
    b = [[(2 * i * j + i + 1) % 5 - 2 for j in range(n)] for i in range(n)]
    data = symgame.solve(symgame.normal_form((a, b))).to_data()
    assert data["engine"]["name"] == "vertex enumeration" and data["complete"]["status"] == "complete"
    assert "support pairs: solved by vertex enumeration" in data["notes"][0]
    for e in data["equilibria"]:
        x = [Fraction(e["strategies"]["Row"].get(f"a{i + 1}", "0")) for i in range(n)]
        y = [Fraction(e["strategies"]["Col"].get(f"a{j + 1}", "0")) for j in range(n)]
        rows = [sum(a[i][j] * y[j] for j in range(n)) for i in range(n)]
        cols = [sum(x[i] * b[i][j] for i in range(n)) for j in range(n)]
        assert sum(p * r for p, r in zip(x, rows)) == max(rows) and sum(q * c for q, c in zip(y, cols)) == max(cols)


def test_the_atlas_answers_a_normal_form_in_action_terms(solutions):
    """Three players with a parameter: each family's strategies are per action (not the tree's variables), sum
    to 1 exactly, and the first action's probability is the family's variable."""
    import sympy as sp

    from symgame.model.expr import parse_expression

    data = solutions["examples/three_player.yaml"].to_data()
    t = {name: sp.Symbol(name) for name in ("t", "Ann", "Bob", "Cat")}      # a free variable stays a name
    for e in data["equilibria"]:
        assert set(e["strategies"]) == {"Ann", "Bob", "Cat"}
        for name, probs in e["strategies"].items():
            full = {a: probs.get(a, "0") for a in ("left", "right")}
            total = sum(parse_expression(v, t, sqrt=True) for v in full.values())
            assert sp.simplify(total - 1) == 0
            assert sp.simplify(parse_expression(full["left"], t, sqrt=True)
                               - parse_expression(e["variables"][name], t, sqrt=True)) == 0


def test_a_tree_round_trips_through_symgames_tree_format(tmp_path, capsys):
    """.efg -> .yaml -> .efg keeps the tree: every leaf's path (player, information set, action), chance
    probability and payoffs; the YAML tree is solved as the .efg is."""
    from symgame.model.gambit import load_efg

    efg = tmp_path / "match.efg"
    efg.write_text(MATCH)
    assert main(["convert", str(efg), str(tmp_path / "match.yaml")]) == 0
    assert main(["convert", str(tmp_path / "match.yaml"), str(tmp_path / "back.efg")]) == 0
    capsys.readouterr()
    before, after = load_efg(efg), load_efg(tmp_path / "back.efg")
    assert [(leaf.path, leaf.chance, leaf.payoffs) for leaf in before.leaves()] == \
        [(leaf.path, leaf.chance, leaf.payoffs) for leaf in after.leaves()]
    assert symgame.solve(tmp_path / "back.efg").to_data()["pieces"][0]["value"] == \
        symgame.solve(efg).to_data()["pieces"][0]["value"]
    with_parameter = tmp_path / "t.yaml"
    with_parameter.write_text("game: t\nparameters: {a: '[0, 1]'}\nplayers: [A, B]\nroot:\n  player: A\n  infoset: x\n"
                              "  actions:\n    l: {payoffs: ['a', '-a']}\n    r: {payoffs: ['0', '0']}\n")
    assert main(["convert", str(with_parameter), str(tmp_path / "t.efg")]) == 2
    assert "cannot be written as .efg" in capsys.readouterr().err
