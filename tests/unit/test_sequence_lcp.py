"""One equilibrium of two-player trees of any sum by Lemke's algorithm on the sequence form: every result is
checked again in the strategic form (independent code: pure strategies, expected payoffs over the leaves)."""
from fractions import Fraction
from itertools import product
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symgame.engine.sequence_lcp import sequence_game, sequence_lcp_solve
from symgame.errors import InputError
from symgame.model.gambit import infoset_keys, read_efg, tree_to_strategic


def random_tree(seed: int, depth: int = 4) -> str:
    """A random two-player tree with perfect recall (each player's sets keyed by their own history and by a
    hidden chance draw or the other's last move, so some sets hold several nodes), chance moves and general-sum
    payoffs, written as a Gambit .efg."""
    rng = Random(seed)
    lines: list[str] = []
    infosets: dict[tuple, tuple[int, int]] = {}
    counters = {0: 0, 1: 0, 2: 0}
    outcomes = [0]

    def node(level: int, history: tuple, seen: tuple) -> None:
        if level == depth or (level > 1 and rng.random() < 0.25):
            outcomes[0] += 1
            lines.append(f't "" {outcomes[0]} "" {{ {rng.randint(-5, 5)}, {rng.randint(-5, 5)} }}')
            return
        if level == 0 and rng.random() < 0.6:
            counters[0] += 1
            lines.append(f'c "" {counters[0]} "" {{ "a" 1/3 "b" 2/3 }} 0')
            for draw in "ab":
                node(level + 1, history, seen + (("chance", draw),))
            return
        player = 1 + level % 2
        own = tuple(m for m in history if m[0] == player)
        view = own + seen if player == 1 else own          # player 2 does not see chance
        key = (player, view)
        if key not in infosets:
            counters[player] += 1
            infosets[key] = (counters[player], rng.choice([2, 2, 3]))
        number, width = infosets[key]
        names = " ".join(f'"{chr(97 + k)}"' for k in range(width))
        lines.append(f'p "" {player} {number} "" {{ {names} }} 0')
        for k in range(width):
            node(level + 1, history + ((player, number, k),), seen)

    node(0, (), ())
    return 'EFG 2 R "random" { "1" "2" } ""\n' + "\n".join(lines) + "\n"


def strategic_regrets(tree, behaviour) -> tuple[Fraction, Fraction]:
    """Each player's gain from the best pure strategy of the strategic form against the other's behaviour
    strategy turned into a mixed strategy (product of the action probabilities; unreached sets uniform)."""
    form = tree_to_strategic(tree)
    keys = {p: sorted(k for k in tree.infosets if k[0] == p) for p in (1, 2)}
    names = infoset_keys(tree)
    mixed = []
    for p in (1, 2):
        probs = []
        for choice in product(*(range(len(tree.infosets[k].actions)) for k in keys[p])):
            weight = Fraction(1)
            for key, a in zip(keys[p], choice):
                info = tree.infosets[key]
                beh = behaviour[p - 1][names[key]]
                weight *= Fraction(1, len(info.actions)) if beh is None else beh[info.actions[a]]
            probs.append(weight)
        mixed.append(probs)
    rows, cols = form.shape
    u = [[form.payoff((i, j)) for j in range(cols)] for i in range(rows)]
    row_values = [sum(u[i][j][0] * mixed[1][j] for j in range(cols)) for i in range(rows)]
    col_values = [sum(u[i][j][1] * mixed[0][i] for i in range(rows)) for j in range(cols)]
    value = (sum(v * x for v, x in zip(row_values, mixed[0])), sum(v * y for v, y in zip(col_values, mixed[1])))
    return max(row_values) - value[0], max(col_values) - value[1]


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.integers(0, 10 ** 6))
def test_random_trees_get_an_equilibrium_checked_in_the_strategic_form(seed):
    tree = read_efg(random_tree(seed))
    if tree.imperfect_recall() is not None:                # pragma: no cover - the generator keeps recall
        return
    eq = sequence_lcp_solve(tree)
    assert eq.verified
    assert strategic_regrets(tree, eq.behaviour) == (0, 0)


def test_realization_plans_satisfy_the_sequence_constraints():
    tree = read_efg(random_tree(7, depth=5))
    eq = sequence_lcp_solve(tree)
    game = sequence_game(tree)
    for p in (0, 1):
        plan = eq.plans[p]
        assert plan[0] == 1 and all(v >= 0 for v in plan)
        for key, parent in game.parent[p].items():
            children = [k for k, s in enumerate(game.sequences[p]) if s is not None and s[0] == key]
            assert sum(plan[k] for k in children) == plan[parent]


def test_a_regret_is_found_when_a_plan_is_not_an_equilibrium():
    """The checker is not vacuous: in the entry game, 'in' against 'fight' leaves the entrant a gain of 1 (stay
    out) and the incumbent a gain of 2 (share)."""
    from symgame.engine.sequence_lcp import sequence_regrets

    tree = read_efg('EFG 2 R "entry" { "E" "I" } ""\np "" 1 1 "" { "out" "in" } 0\nt "" 1 "" { 0, 2 }\n'
                    'p "" 2 1 "" { "fight" "share" } 0\nt "" 2 "" { -1, -1 }\nt "" 3 "" { 1, 1 }\n')
    game = sequence_game(tree)
    plans = ((Fraction(1), Fraction(0), Fraction(1)), (Fraction(1), Fraction(1), Fraction(0)))
    payoffs, regrets = sequence_regrets(game, plans)
    assert payoffs == (-1, -1) and regrets == (1, 2)


def test_imperfect_recall_and_three_players_are_refused_in_one_line():
    forgetful = read_efg('EFG 2 R "forget" { "1" "2" } ""\np "" 1 1 "" { "L" "R" } 0\np "" 1 2 "" { "l" "r" } 0\n'
                         't "" 1 "" { 1, 0 }\nt "" 2 "" { 0, 1 }\np "" 1 2 "" { "l" "r" } 0\nt "" 3 "" { 0, 1 }\n'
                         't "" 4 "" { 1, 0 }\n')
    with pytest.raises(InputError, match="perfect recall at information set 2"):
        sequence_lcp_solve(forgetful)
    three = read_efg('EFG 2 R "three" { "1" "2" "3" } ""\np "" 1 1 "" { "a" "b" } 0\nt "" 1 "" { 1, 0, 0 }\n'
                     't "" 2 "" { 0, 1, 0 }\n')
    with pytest.raises(InputError, match="two-player"):
        sequence_lcp_solve(three)


def test_a_tree_past_the_size_limit_is_refused_in_one_line(tmp_path, capsys, monkeypatch):
    from symgame.cli import main
    from symgame.engine import sequence_lcp
    from symgame.numeric import sequence_lemke

    monkeypatch.setattr(sequence_lcp, "MAX_ROWS", 5)
    monkeypatch.setattr(sequence_lemke, "MAX_FLOAT_ROWS", 5)
    path = tmp_path / "random.efg"
    path.write_text(random_tree(3))
    assert main(["solve", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "sequence-form LCP has" in err[0] and "more than 5" in err[0]


@settings(max_examples=25, deadline=None, derandomize=True)
@given(st.integers(0, 10 ** 6))
def test_the_floating_point_path_gives_exact_equilibria_checked_in_the_strategic_form(seed):
    """Past the dense limit, floating-point pivoting only chooses a basis; the equilibrium is solved exactly on it
    and checked here in the strategic form (independent of the sequence form's own check)."""
    from symgame.numeric.sequence_lemke import float_guided_equilibrium

    tree = read_efg(random_tree(seed))
    eq = float_guided_equilibrium(tree)
    assert eq.verified and eq.method.startswith("floating-point Lemke")
    assert strategic_regrets(tree, eq.behaviour) == (0, 0)


def _tie_tree(better_first: bool) -> str:
    """A team game whose two outcomes differ by 1e-17, below double precision (as OpenSpiel's exports write
    payoffs such as -14.999999999999996 beside -14.999999999999998)."""
    high, low = "1.00000000000000001", "1"
    first, second = (high, low) if better_first else (low, high)
    return ('EFG 2 R "ties" { "1" "2" } ""\np "" 2 1 "" { "c" "d" } 0\nt "" 1 "" { 0, 0 }\n'
            f'p "" 1 1 "" {{ "a" "b" }} 0\nt "" 2 "" {{ {first}, {first} }}\nt "" 3 "" {{ {second}, {second} }}\n')


@pytest.mark.parametrize("better_first", [True, False])
def test_a_difference_floats_cannot_see_is_decided_exactly(better_first):
    from symgame.engine.sequence_lcp import from_basis, lcp_system
    from symgame.numeric.sequence_lemke import float_guided_equilibrium, float_lemke_basis

    tree = read_efg(_tie_tree(better_first))
    eq = float_guided_equilibrium(tree)
    assert eq.verified and strategic_regrets(tree, eq.behaviour) == (0, 0)
    assert eq.behaviour[0]["P1:1"]["a" if better_first else "b"] == 1
    assert eq.payoffs == (Fraction(100000000000000001, 10 ** 17),) * 2
    system = lcp_system(tree)
    basic, _, pivots = float_lemke_basis(system)
    exact_on_basis = from_basis(tree, system, basic, pivots, "float")
    # the floats pick the same basis either way; where it is the worse action, the repair step is what decides
    assert (exact_on_basis is None) == ("best responses" in eq.method)
    assert exact_on_basis is None or exact_on_basis.verified


def test_the_front_door_takes_the_floating_point_path_past_the_dense_limit(tmp_path, capsys, monkeypatch):
    import json

    from symgame.cli import main
    from symgame.engine import sequence_lcp

    monkeypatch.setattr(sequence_lcp, "MAX_ROWS", 5)
    path = tmp_path / "random.efg"
    path.write_text(random_tree(3))
    assert main(["solve", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "floating-point Lemke" in json.dumps(data)
    assert data["equilibria"] and data["certificate"]


@settings(max_examples=15, deadline=None, derandomize=True)
@given(st.integers(0, 10 ** 6))
def test_zero_sum_trees_give_the_value_of_an_independent_float_lp(seed):
    """In a zero-sum tree every equilibrium pays the value: the exact LCP payoff equals the value of the
    sequence-form LP solved in floating point by HiGHS (symgame.numeric.sequence_lp, other code)."""
    import re

    from symgame.model.efg import read_efg as read_zero_sum
    from symgame.model.sequence_form import build_sequence_form
    from symgame.numeric.sequence_lp import solve_sequence_form

    text = re.sub(r"\{ (-?\d+), -?\d+ \}", lambda m: f"{{ {m.group(1)}, {-int(m.group(1))} }}", random_tree(seed))
    eq = sequence_lcp_solve(read_efg(text))
    assert eq.verified and eq.payoffs[0] == -eq.payoffs[1]
    game = read_zero_sum(text)
    value = solve_sequence_form(build_sequence_form(game)).value + float(game.offset)
    assert abs(float(eq.payoffs[0]) - value) < 1e-9


def test_a_floating_point_path_that_runs_out_ends_in_one_clear_error():
    """Both covering vectors past their pivot budget: one NoResultError naming each path, never a guess."""
    from symgame.engine.sequence_lcp import lcp_system
    from symgame.errors import NoResultError
    from symgame.numeric.sequence_lemke import float_guided_equilibrium, float_lemke_basis

    tree = read_efg(random_tree(11, depth=5))
    with pytest.raises(NoResultError, match="took more than 2 pivots"):
        float_lemke_basis(lcp_system(tree), max_pivots=2)
    with pytest.raises(NoResultError) as caught:
        float_guided_equilibrium(tree, max_pivots=2)
    message = str(caught.value)
    assert "covering vector of ones" in message and "uniform prior" in message and "\n" not in message
    assert float_guided_equilibrium(tree).verified                  # with the default budgets it ends


@pytest.mark.parametrize("seed", [3, 11, 29])
def test_tied_rows_compared_in_blocks_give_the_same_path(seed, monkeypatch):
    """The lexicographic comparison of tied rows in blocks of two rows (as past 2^25 entries) takes the same
    pivots to the same basis as in one block."""
    from symgame.engine.sequence_lcp import lcp_system
    from symgame.numeric import sequence_lemke

    system = lcp_system(read_efg(random_tree(seed, depth=5)))
    whole = sequence_lemke.float_lemke_basis(system, prior=True)
    monkeypatch.setattr(sequence_lemke, "TIE_ENTRIES", 1)
    blocks = sequence_lemke.float_lemke_basis(system, prior=True)
    assert (whole[0], whole[2]) == (blocks[0], blocks[2])
