"""Gambit .efg export and import: round trips, solving through the CLI, clear errors."""
import json
from fractions import Fraction

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
    data = json.loads(capsys.readouterr().out)["detail"]
    assert data["certified"] and data["value"] == "-1/18"


HEADER = 'EFG 2 R "g" { "a" "b" }\n""\n'


@pytest.mark.parametrize("body, fragment", [
    ('c "" 1 "" { "x" 1/2 "y" 1/3 } 0\nt "" 1 "" { 1, -1 }\nt "" 2 "" { 0, 0 }\n', "sum to 1"),
    ('p "" 3 1 "" { "x" } 0\nt "" 1 "" { 1, -1 }\n', "player 3 does not exist"),
    ('q "" 1\n', "unknown node type"),
    ('p "" 1 1 "" { "x" "y" } 0\nt "" 1 "" { 1, -1 }\n', "unexpected end"),
    ('t "" 1 "" { 1, -1 }\nt "" 2 "" { 1, -1 }\n', "after the end of the tree"),
    ('t "" 7 ""\n', "used before its payoffs"),
    ('t "" 1 "" { 1, -1 } @\n', "unexpected text '@'"),
])
def test_bad_efg_files(body, fragment, tmp_path, capsys):
    path = tmp_path / "bad.efg"
    path.write_text(HEADER + body)
    assert main(["solve", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"symgame: {path}: ") and fragment in err and len(err.strip().splitlines()) == 1, err


def test_three_players_rejected():
    with pytest.raises(EfgError, match="two-player"):
        read_efg('EFG 2 R "g" { "a" "b" "c" }\n""\nt "" 1 "" { 1, -1, 0 }\n', "mem")


@pytest.mark.pinned
@pytest.mark.parametrize("n", [3, 4, 5])
def test_committed_efg_files_are_fresh(n):
    from pathlib import Path

    committed = Path(__file__).resolve().parents[2] / "outputs" / "kuhn" / f"kuhn_{n}.efg"
    assert committed.read_text() == write_efg(build_game(n))


# --------------------------------------------------------------------------- the whole Gambit format family

VARIANTS = """EFG 2 R "variants" { "P1" "P2" }
"numbers like .5, outcomes at inner nodes, repeated information sets, a leaf without outcome"

c "" 1 "deal" { "lo" .5 "hi" 0.50 } 1 "ante" { -1, 1 }
p "" 1 1 "I" { "a" "b" } 0
t "" 2 "win" { 3, -3 }
p "" 2 1 "I" { "c" "d" } 0
t "" 0
t "" 3 "lose" { -2, 2 }
p "" 1 2 "J" { "a" "b" } 0
p "" 2 1 0
t "" 2
t "" 0
t "" 3
"""


def test_every_variant_of_valid_syntax_is_read_and_written_back():
    from symgame.model.gambit import read_efg as read_tree
    from symgame.model.gambit import write_efg as write_tree

    tree = read_tree(VARIANTS, "mem")
    payoffs = [leaf.payoffs for leaf in tree.leaves()]
    assert payoffs[0] == (2, -2)                               # the ante at the chance node is added to the leaf
    assert payoffs[1] == (-1, 1)                               # 't "" 0' keeps only the ante
    assert tree.constant_sum() == 0 and tree.imperfect_recall() is None
    assert tree.infosets[(1, 1)].name == tree.infosets[(2, 1)].name == "I"    # two players' sets share a name
    again = read_tree(write_tree(tree), "mem")
    assert [leaf.payoffs for leaf in again.leaves()] == payoffs and write_tree(again) == write_tree(tree)


def test_a_zero_sum_file_with_inner_outcomes_solves_with_the_leaf_totals(tmp_path, capsys):
    path = tmp_path / "variants.efg"
    path.write_text(VARIANTS)
    assert main(["solve", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)["detail"]
    # lo: P1 plays a (2) rather than let P2 choose between -1 and -3; hi: P2 at "I" must mix with lo's set
    assert data["certified"]


def test_constant_sum_values_are_in_the_files_units(tmp_path, capsys):
    path = tmp_path / "const.efg"
    path.write_text('EFG 2 R "c" { "A" "B" } ""\np "" 1 1 "x" { "l" "r" } 0\nt "" 1 "" { 5, 1 }\n'
                    't "" 2 "" { 2, 4 }\n')
    assert main(["solve", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["detail"]["value"] == "5"


def test_imperfect_recall_is_refused_naming_the_information_set(tmp_path, capsys):
    path = tmp_path / "forget.efg"
    path.write_text('EFG 2 R "f" { "A" "B" } ""\np "" 1 1 "first" { "l" "r" } 0\n'
                    'p "" 1 2 "second" { "x" "y" } 0\nt "" 1 "" { 1, -1 }\nt "" 2 "" { -1, 1 }\n'
                    'p "" 1 2 0\nt "" 2\nt "" 1\n')
    assert main(["solve", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert "imperfect recall at information set 2 'second' of player 1" in err and len(err.splitlines()) == 1


def test_huge_payoffs_are_exact():
    from symgame.model.gambit import read_efg as read_tree

    tree = read_tree('EFG 2 R "h" { "A" "B" } ""\np "" 1 1 "" { "l" "r" } 0\nt "" 1 "" { 10000000000000000000, '
                     '-10000000000000000000 }\nt "" 2 "" { -1, 1 }\n', "mem")
    assert tree.leaves()[0].payoffs[0] == 10 ** 19


@pytest.mark.parametrize("text", [
    'NFG 1 R "p" { "1" "2" } { 2 2 } 1 -1 -1 1 -1 1 1 -1',
    'NFG 1 R "p" { "1" "2" }\n{ { "H" "T" } { "H" "T" } }\n""\n{ { "" 1, -1 } { "" -1 1 } }\n1 2 2 1',
])
def test_both_nfg_versions_read_the_same_payoffs(text):
    from symgame.model.gambit import read_nfg, write_nfg

    game = read_nfg(text, "mem")
    assert [game.payoff(p) for p in game.profiles()] == [(1, -1), (-1, 1), (-1, 1), (1, -1)]
    assert read_nfg(write_nfg(game), "mem").payoffs == game.payoffs and game.constant_sum() == 0


@pytest.mark.parametrize("text, fragment", [
    ('NFG 1 R "p" { "1" "2" } { 2 2 } 1 -1 -1 1 -1 1 1', "unexpected end of file (expected payoff 8 of 8)"),
    ('NFG 1 R "p" { "1" "2" } { 2 } 1 -1', "2 players but strategies for 1"),
    ('NFG 1 R "p" { "1" } { 2 } { { "" 1 } } 1 3', "outcome 3 does not exist"),
    ('NFG 2 R "p" { "1" } { 1 } 0', "unknown .nfg format version 2"),
    ('EFG 2 R "e" { "A" } "" t "" 1 "" { 1, 2 }', "outcome 1 has 2 payoffs for 1 players"),
    ('EFG 2 R "e" { "A" } "" p "" 1 1 0 t "" 0', "information set 1 of player 1 is used before its actions"),
])
def test_bad_gambit_files_are_one_line(text, fragment):
    from symgame.model.gambit import GambitError, read_efg, read_nfg

    with pytest.raises(GambitError) as info:
        (read_nfg if text.startswith("NFG") else read_efg)(text, "mem")
    assert fragment in str(info.value) and "\n" not in str(info.value) and str(info.value).startswith("mem: line ")


def test_all_equilibria_of_a_tree_without_behaviour_solution(tmp_path, capsys):
    # Myerson's game: imperfect recall, so the mixed equilibrium has no behaviour-strategy equivalent
    path = tmp_path / "myerson.efg"
    path.write_text('EFG 2 R "m" { "A" "B" } ""\np "" 1 1 "a" { "1" "2" } 0\np "" 2 1 "b" { "1" "2" } 0\n'
                    't "" 1 "" { -1, 1 }\np "" 1 2 "c" { "1" "2" } 0\nt "" 2 "" { 1, -1 }\nt "" 1\n'
                    'p "" 2 1 0\np "" 1 2 0\nt "" 1\nt "" 2\nt "" 1\n')
    assert main(["solve", str(path), "--all", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)["detail"]
    assert data["perfect_recall"] is False and data["complete"]
    assert [e["profile"]["A"] for e in data["equilibria"]] == [{"11": "1/2", "12": "0", "21": "0", "22": "1/2"}]
    assert "behaviour" not in data["equilibria"][0]


def test_all_equilibria_of_a_general_sum_tree_with_behaviour(tmp_path, capsys):
    # entry deterrence: the entrant stays out or enters; the incumbent fights or accommodates
    path = tmp_path / "entry.efg"
    path.write_text('EFG 2 R "entry" { "E" "I" } ""\np "" 1 1 "enter?" { "out" "in" } 0\nt "" 1 "" { 0, 2 }\n'
                    'p "" 2 1 "fight?" { "fight" "yield" } 0\nt "" 2 "" { -1, -1 }\nt "" 3 "" { 1, 1 }\n')
    assert main(["solve", str(path), "--all", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)["detail"]
    extremes = [(e["behaviour"]["E"]["enter?"]["in"], e["behaviour"]["I"]["fight?"]["fight"])
                for e in data["equilibria"]]
    # (in, yield) and the set {out} x {fight with probability >= 1/2}: extremes fight = 1/2 and fight = 1
    assert sorted(extremes) == [("0", "1"), ("0", "1/2"), ("1", "0")]
    assert sorted(len(c["equilibria"]) for c in data["components"]) == [1, 2]
    assert all(e["verified"] for e in data["equilibria"])


def test_convert_between_the_formats_keeps_the_payoffs(tmp_path):
    from symgame.model.gambit import load_nfg, read_nfg

    nfg = tmp_path / "g.nfg"
    nfg.write_text('NFG 1 R "bos" { "r" "c" } { { "O" "F" } { "O" "F" } } "" 2 0 0 0 0 0 1 1 0 2 1 1\n'.replace(
        '2 0 0 0 0 0 1 1 0 2 1 1', '3 2 0 0 0 0 2 3'))
    assert main(["convert", str(nfg), str(tmp_path / "g.yaml")]) == 0
    assert main(["convert", str(tmp_path / "g.yaml"), str(tmp_path / "back.nfg")]) == 0
    assert load_nfg(tmp_path / "back.nfg").payoffs == read_nfg(nfg.read_text()).payoffs
    efg = tmp_path / "t.efg"
    efg.write_text(VARIANTS)
    assert main(["convert", str(efg), str(tmp_path / "t.nfg")]) == 0
    assert load_nfg(tmp_path / "t.nfg").shape == (4, 2)
    assert main(["convert", str(tmp_path / "g.yaml"), str(tmp_path / "x.efg")]) == 2


GENERAL_SUM_TREE = """\
EFG 2 R "entry" { "Entrant" "Incumbent" } ""
p "" 1 1 "" { "out" "in" } 0
t "" 1 "" { 0, 2 }
p "" 2 1 "" { "fight" "share" } 0
t "" 2 "" { -1, -1 }
t "" 3 "" { 1, 1 }
"""


def test_general_sum_tree_gets_one_verified_equilibrium(tmp_path, capsys):
    """Not constant-sum: `symgame solve` gives one equilibrium by Lemke's algorithm on the sequence form (entry
    deterrence: the entrant enters and the incumbent shares, the subgame-perfect outcome); `--all` enumerates
    the strategic form's extreme equilibria instead."""
    import json as _json

    from symgame.cli import main as cli

    path = tmp_path / "entry.efg"
    path.write_text(GENERAL_SUM_TREE)
    assert cli(["solve", str(path), "--json"]) == 0
    data = _json.loads(capsys.readouterr().out)["detail"]
    assert data["complete"] is False and "sequence form" in data["method"]
    [eq] = data["equilibria"]
    assert eq["verified"] and eq["payoffs"] == {"Entrant": "1", "Incumbent": "1"}
    assert eq["behaviour"] == {"Entrant": {"P1:1": {"out": "0", "in": "1"}}, "Incumbent": {"P2:1": {"fight": "0", "share": "1"}}}
    assert cli(["solve", str(path), "--all", "--json"]) == 0
    every = _json.loads(capsys.readouterr().out)["detail"]
    # also "out" against fighting with probability 1 or 1/2 (the ends of a segment; not subgame perfect)
    assert every["complete"] is True and len(every["equilibria"]) == 3


def test_a_tree_too_large_for_its_strategic_form_is_solved_on_its_sequence_form(tmp_path):
    from symgame.api import tree_equilibria_json
    from symgame.errors import LimitError
    from symgame.model.gambit import GambitLimitError, load_efg, tree_to_strategic

    # player 2 picks one of 17 doors, player 1 then guesses left or right at each: 17 * 2**17 pure profiles
    lines = ['EFG 2 R "doors" { "P1" "P2" }', '""',
             'p "" 2 1 "" { ' + " ".join(f'"d{k}"' for k in range(17)) + ' } 0']
    outcome = 0
    for k in range(17):
        lines.append(f'p "" 1 {k + 1} "" {{ "L" "R" }} 0')
        for guess in range(2):
            outcome += 1
            win = 1 if guess == k % 2 else -1
            lines.append(f't "" {outcome} "" {{ {win}, {-win} }}')
    path = tmp_path / "doors.efg"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(LimitError):
        tree_to_strategic(load_efg(path))
    assert issubclass(GambitLimitError, LimitError)
    found = tree_equilibria_json(path, every=True)
    assert found["method"].startswith("sequence form") and found["complete"] is False
    # player 1 guesses every door's parity right: value 1 to player 1
    (eq,) = found["equilibria"]
    assert eq["verified"] and eq["payoffs"] == {"P1": "1", "P2": "-1"}
    # door k (information set 1:k+1) hides a win on "L" when k is even: player 1 always guesses right
    assert eq["behaviour"]["P1"] == {f"P1:{k + 1}": {"L": "1" if k % 2 == 0 else "0", "R": "0" if k % 2 == 0 else "1"}
                                     for k in range(17)}


def _openspiel_style_kuhn(tmp_path):
    """3-card Kuhn poker as OpenSpiel's exporter writes it: chance probabilities as repr(float) decimals that
    do not sum to 1 (1/6 as 0.16666666666666666) and every information set left unnamed."""
    import re

    from symgame.games.kuhn import build_game
    from symgame.model.efg import write_efg

    text = write_efg(build_game(3)).replace(" 1/6", " " + repr(1 / 6))
    text = re.sub(r'^p "" (\d+) (\d+) "[^"]*" \{', r'p "" \1 \2 "" {', text, flags=re.M)
    path = tmp_path / "kuhn_poker.efg"
    path.write_text(text)
    return path


def test_openspiel_decimal_chance_probabilities_are_read_as_fractions_and_said(tmp_path, capsys):
    from symgame.cli import main

    path = _openspiel_style_kuhn(tmp_path)
    assert sum([Fraction(repr(1 / 6))] * 6) != 1
    assert main(["solve", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)["detail"]
    assert data["value"] == "-1/18" and data["certified"] and data["chance_from_decimals"] == 1
    assert main(["solve", str(path)]) == 0
    assert "read as the fractions they stand for" in capsys.readouterr().out
    assert main(["solve", str(path), "--strict"]) == 2
    err = capsys.readouterr().err
    assert "sum to 1 exactly" in err and len(err.strip().splitlines()) == 1


def test_decimals_that_stand_for_no_distribution_are_refused(tmp_path, capsys):
    from symgame.cli import main

    path = tmp_path / "bad.efg"
    path.write_text('EFG 2 R "g" { "A" "B" } ""\nc "" 1 "" { "x" 0.3 "y" 0.3 "z" 0.3 } 0\n'
                    't "" 1 "" { 1, -1 }\nt "" 2 "" { -1, 1 }\nt "" 3 "" { 0, 0 }\n')
    assert main(["solve", str(path)]) == 2
    err = capsys.readouterr().err
    assert "they do not sum to 1 either" in err and "line 2" in err


def _openspiel_text(game) -> str:
    """A tree written the way OpenSpiel's ``export_gambit`` writes one (checked against its Kuhn and Leduc
    exports): chance probabilities with 16 decimals (1/6 as 0.1666666666666667), chance actions named
    ``Chance outcome:k``, every information set unnamed, one information-set number per distinct name."""
    from symgame.model.extensive import Chance, DecisionNode

    numbers: dict[tuple[int, str], int] = {}
    chance_count = [0]
    outcome = [0]
    lines = [f'EFG 2 R "{game.name}" {{ "Pl0" "Pl1" }} ']
    stack = [(game.root, 0)]
    while stack:
        node, depth = stack.pop()
        pad = " " * depth
        if isinstance(node, Chance):
            chance_count[0] += 1
            acts = " ".join(f'"Chance outcome:{k}" {float(p):.16f}' for k, (p, _) in enumerate(node.outcomes))
            lines.append(f'{pad}c "" {chance_count[0]} "" {{ {acts}  }} 0')
            stack.extend((child, depth + 1) for _, child in reversed(node.outcomes))
        elif isinstance(node, DecisionNode):
            key = (node.player, node.infoset)
            number = numbers.setdefault(key, sum(1 for k in numbers if k[0] == node.player) + 1)
            acts = " ".join(f'"{a}"' for a, _ in node.actions)
            lines.append(f'{pad}p "" {node.player + 1} {number} "" {{ {acts}  }} 0')
            stack.extend((child, depth + 1) for _, child in reversed(node.actions))
        else:
            outcome[0] += 1
            lines.append(f'{pad}t "" {outcome[0]} "" {{ {float(node.payoff)}, {float(-node.payoff)} }}')
    return "\n".join(lines) + "\n"


def test_openspiel_export_of_kuhn_poker_is_read_as_written_and_certified(capsys):
    """tests/data/openspiel/kuhn_poker.efg was written by OpenSpiel 2.0.2's export_gambit (its chance node's
    decimals sum to 0.9999999999999999...)."""
    from pathlib import Path

    from symgame.cli import main

    path = Path(__file__).parent.parent / "data" / "openspiel" / "kuhn_poker.efg"
    assert main(["solve", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)["detail"]
    assert data["value"] == "-1/18" and data["certified"] and data["chance_from_decimals"] == 1


def test_leduc_gets_an_exact_certified_value_on_the_optimal_face(tmp_path, capsys):
    """Leduc hold'em (468 + 468 information sets), written as OpenSpiel writes it: rounding the LP's
    behaviour probabilities leaves a gap between the exact best-response bounds; the plans solved exactly on
    the float solution's face close it. The same exact value came from OpenSpiel 2.0.2's own export (whose
    LP, ECOS at 1e-7, reports -0.08560642405145363)."""
    from symgame.cli import main
    from symgame.games.leduc import build_game
    from symgame.model.sequence_form import build_sequence_form
    from symgame.numeric.sequence_lp import solve_sequence_form
    from symgame.verify.best_response import best_response_value, certify_value, realization_plan

    game = build_game()
    form = build_sequence_form(game)
    assert [len(p.infosets) for p in form.players] == [468, 468]
    plans = solve_sequence_form(form).plans
    rounded = certify_value(form, plans, denominators=(12, 100, 1000, 10**4, 10**5, 10**6))
    assert rounded.method == "optimal face" and rounded.certified
    exact = Fraction(-1454920850547486749701863871533, 16995463438839962469905132501930)
    assert rounded.value == exact and abs(float(exact) - (-0.08560642405145363)) < 1e-10
    # both behaviour strategies are exact and optimal: each player's best response gives the value
    plan0 = realization_plan(form.players[0], rounded.behaviours[0])
    plan1 = realization_plan(form.players[1], rounded.behaviours[1])
    assert best_response_value(form, plan0, responder=1) == exact == best_response_value(form, plan1, responder=0)
    path = tmp_path / "leduc_poker.efg"
    path.write_text(_openspiel_text(game))
    assert main(["solve", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)["detail"]
    assert data["certified"] and Fraction(data["value"]) == exact and data["chance_from_decimals"] >= 1


JORDAN = """EFG 2 R "cyclic pennies" { "A" "B" "C" }
""
p "" 1 1 "A" { "H" "T" } 0
p "" 2 1 "B" { "H" "T" } 0
p "" 3 1 "C" { "H" "T" } 0
t "" 1 "" { 1, 1, -1 }
t "" 2 "" { 1, -1, 1 }
p "" 3 1 "C" { "H" "T" } 0
t "" 3 "" { -1, -1, -1 }
t "" 4 "" { -1, 1, 1 }
p "" 2 1 "B" { "H" "T" } 0
p "" 3 1 "C" { "H" "T" } 0
t "" 5 "" { -1, 1, 1 }
t "" 6 "" { -1, -1, -1 }
p "" 3 1 "C" { "H" "T" } 0
t "" 7 "" { 1, -1, 1 }
t "" 8 "" { 1, 1, -1 }
"""


def test_a_three_player_tree_gets_an_exact_equilibrium_in_behaviour_strategies():
    """Jordan's cyclic matching pennies as a tree (A wants to match B, B to match C, C to mismatch A): its only
    equilibrium mixes 1/2 everywhere; the logit path, rounded, has exact regret 0. (Trees whose strategic form
    is small enough are enumerated instead; this path is what three-player Kuhn poker's 2.8e14 profiles take:
    OpenSpiel's export gets one exact equilibrium in about a minute, payoffs -1/32, -1/48, 5/96.)"""
    from symgame.api import behaviour_point_json
    from symgame.model.gambit import read_efg

    tree = read_efg(JORDAN, "jordan.efg")
    data = behaviour_point_json(tree, "jordan.efg")
    (eq,) = data["equilibria"]
    assert eq["verified"] and data["complete"] is False
    assert eq["behaviour"] == {"A": {"A": {"H": "1/2", "T": "1/2"}}, "B": {"B": {"H": "1/2", "T": "1/2"}},
                               "C": {"C": {"H": "1/2", "T": "1/2"}}}
    assert eq["payoffs"] == {"A": "0", "B": "0", "C": "0"}


def test_a_tree_converted_to_yaml_stays_a_tree(tmp_path, capsys):
    """`symgame convert game.efg game.yaml` writes the tree (information sets, chance, payoffs), not its
    strategic form: OpenSpiel's Kuhn poker read back from YAML solves to the same value."""
    from pathlib import Path

    from symgame.api import tree_solve
    from symgame.cli import main

    source = Path(__file__).parent.parent / "data" / "openspiel" / "kuhn_poker.efg"
    target = tmp_path / "kuhn.yaml"
    assert main(["convert", str(source), str(target)]) == 0
    text = target.read_text()
    assert "chance:" in text and "infoset: Pl0:1" in text
    result = tree_solve(target)
    assert [str(piece.value) for piece in result.pieces] == ["-1/18"]


def test_openspiel_goofspiel_with_imperfect_information_is_read_as_written_and_certified():
    """tests/data/openspiel/goofspiel3_imp.efg: OpenSpiel 2.0.2's goofspiel(num_cards=3, imp_info=True,
    points_order=descending), made turn-based, as its exporter writes it (unnamed information sets, the second
    bidder not seeing the first bid): zero-sum, value 0, certified; every set named P<player>:<number>."""
    from pathlib import Path

    import symgame

    solution = symgame.solve(Path(__file__).parent.parent / "data" / "openspiel" / "goofspiel3_imp.efg")
    data = solution.to_data()
    assert data["engine"]["name"] == "sequence-form LP" and data["certificate"]["status"] == "proved"
    assert list(data["equilibria"][0]["payoffs"].values()) == ["0", "0"]
    sets = [name for player in data["equilibria"][0]["behaviour"].values() for name in player]
    assert sets and all(name.startswith(("P1:", "P2:")) for name in sets)


@pytest.mark.parametrize("exact", [True, False])
def test_openspiel_trade_comm_gets_one_verified_equilibrium_by_either_pivoting(exact, monkeypatch):
    """tests/data/openspiel/trade_comm.efg: OpenSpiel's general-sum trade_comm(num_items=2) (102 LCP rows).
    Exact pivoting and, with the dense limit lowered below its size, floating-point pivoting whose basis is
    solved exactly: both give an equilibrium with exact regret 0 (checked by exact best responses)."""
    from pathlib import Path

    from symgame.engine import sequence_lcp
    from symgame.engine.sequence_lcp import sequence_game, sequence_regrets
    from symgame.model.gambit import read_efg as read_gambit
    from symgame.numeric.sequence_lemke import two_player_tree_equilibrium

    if not exact:
        monkeypatch.setattr(sequence_lcp, "MAX_ROWS", 50)
    path = Path(__file__).parent.parent / "data" / "openspiel" / "trade_comm.efg"
    tree = read_gambit(path.read_text())
    eq = two_player_tree_equilibrium(tree)
    assert eq.method.startswith("exact" if exact else "floating-point")
    assert sequence_regrets(sequence_game(tree), eq.plans)[1] == (0, 0)
    assert eq.payoffs[0] == eq.payoffs[1]                       # a team game: both players are paid the same
