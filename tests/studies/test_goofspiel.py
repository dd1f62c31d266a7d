"""Goofspiel by dynamic programming over canonical subgames, checked against the whole game tree's LP."""
import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from derivations.cli import main as studies
from symgame.cli import main
from symgame.errors import InputError
from symgame.games.goofspiel import (
    build_tree,
    evaluate,
    level_patterns,
    orient,
    pattern,
    play,
    solve,
    solve_matrix_exact,
)
from symgame.model.sequence_form import build_sequence_form
from symgame.numeric.sequence_lp import solve_sequence_form
from symgame.verify.best_response import certify_value

ROOT = Path(__file__).resolve().parents[2]


def tree_value(v, y, p, objective="amount") -> Fraction:
    form = build_sequence_form(build_tree(v, y, p, objective))
    cert = certify_value(form, solve_sequence_form(form).plans)
    assert cert.certified
    return cert.lower


SOLVED = {(n, objective): solve(n, exact=True, objective=objective) for n in (4, 5) for objective in ("amount", "win")}


@settings(max_examples=30, deadline=None, derandomize=True)
@given(st.integers(1, 3), st.sampled_from(["amount", "win"]), st.data())
def test_the_reduced_dp_equals_the_lp_of_the_whole_tree_on_random_subgames(k, objective, data):
    """Independent check: the sequence-form LP of the subgame's tree, certified by exact best responses."""
    cards = st.lists(st.integers(1, 5), min_size=k, max_size=k, unique=True)
    v, y, p = (tuple(sorted(data.draw(cards))) for _ in range(3))
    assert SOLVED[(5, objective)].subgame_value(v, y, p) == tree_value(v, y, p, objective)


def test_win_values_with_a_head_start_equal_a_direct_recursion():
    """g(V, Y, P, d) by a plain recursion over the hands (no patterns, no symmetry, no clipping)."""
    from functools import lru_cache

    @lru_cache(maxsize=None)
    def g(v, y, p, d):
        if not p:
            return Fraction((d > 0) - (d < 0))
        total = Fraction(0)
        for c in p:
            rest = tuple(t for t in p if t != c)
            x = [[g(tuple(t for t in v if t != a), tuple(t for t in y if t != b), rest, d + c * ((a > b) - (a < b)))
                  for b in y] for a in v]
            value, _, _ = solve_matrix_exact([[_q(e) for e in r] for r in x])
            total += Fraction(int(value.p), int(value.q))
        return total / len(p)

    solution = SOLVED[(4, "win")]
    for v, y, p, d in [((1, 3), (2, 4), (1, 4), 0), ((1, 3), (2, 4), (1, 4), 3), ((2, 3, 4), (1, 2, 4), (1, 2, 3), -2),
                       ((1, 4), (2, 3), (3, 4), -7), ((1, 2, 3), (2, 3, 4), (2, 3, 4), 1)]:
        assert solution.subgame_value(v, y, p, d) == g(v, y, p, d), (v, y, p, d)


def _q(x):
    from flint import fmpq

    return fmpq(x.numerator, x.denominator)


def test_patterns_and_the_exchange_symmetry():
    assert pattern((2, 5, 9), (1, 5, 7)) == (1, 0, 2, 1, 0)
    rep, sign = orient((1, 0, 2, 1, 0))
    assert (rep, sign) == ((0, 1, 2, 0, 1), -1)
    solution = SOLVED[(5, "amount")]
    p = (1, 4, 5)
    assert solution.subgame_value((2, 3, 5), (1, 3, 4), p) == tree_value((2, 3, 5), (1, 3, 4), p)
    assert solution.subgame_value((1, 3, 4), (2, 3, 5), p) == -solution.subgame_value((2, 3, 5), (1, 3, 4), p)
    assert solution.subgame_value((1, 2, 3), (1, 2, 3), p) == 0
    # reversing the card order is not a symmetry (player 1 stays the maximiser): a pattern and its reverse differ
    v, y = (1, 2), (1, 3)
    rv, ry = (3, 2), (3, 1)
    assert solution.subgame_value(v, y, (1, 3)) != -solution.subgame_value(tuple(sorted(rv)), tuple(sorted(ry)), (1, 3))
    # every pattern of two 2-card hands from 1..4, one per exchange orbit
    assert len(level_patterns(2, 4)) == 7


def test_float_and_exact_agree_and_the_value_is_zero():
    for objective in ("amount", "win"):
        exact, floats = SOLVED[(5, objective)], solve(5, objective=objective)
        assert exact.value == 0 and abs(floats.value) < 1e-12
        hand = (1, 2, 3, 4, 5)
        for p in [(1, 2), (2, 4, 5), (1, 3, 4, 5)]:
            for v, y in [((1, 5)[:len(p)] + (2, 3, 4)[:len(p) - 2], hand[:len(p)])]:
                v = tuple(sorted(v))[:len(p)]
                assert abs(floats.subgame_value(v, y, p) - float(exact.subgame_value(v, y, p))) < 1e-9


def test_table_1_is_reproduced():
    printed = yaml.safe_load((ROOT / "derivations" / "rhoads2012" / "printed" / "table1.yaml").read_text())
    exact = solve(5, exact=True)
    for bet, row in printed["bets"].items():
        for upcard, text in enumerate(row, start=1):
            digits = len(text.split(".")[1]) if "." in text else 4
            assert abs(float(exact.first_move[upcard][bet]) - float(text)) <= 0.5 * 10 ** -digits, (bet, upcard)
    floats = solve(5)
    assert all(abs(floats.first_move[c][b] - float(exact.first_move[c][b])) < 1e-7 for c in range(1, 6) for b in range(1, 6))


def test_exact_first_moves_are_certified_probability_vectors():
    for (n, objective), result in SOLVED.items():
        assert result.value == 0
        assert all(sum(row.values()) == 1 and min(row.values()) >= 0 for row in result.first_move.values())
        hand = tuple(range(1, n + 1))
        for c in hand:                          # the first move guarantees the round's value against every bid
            x = result.matrix(hand, hand, hand, c)
            value, _, _ = result.strategies(hand, hand, hand, c)
            row = [result.first_move[c][b] for b in hand]
            assert min(sum(row[i] * Fraction(int(x[i][j].p), int(x[i][j].q)) for i in range(n)) for j in range(n)) == value


def test_the_section_5_example_n9_upcard_9():
    """Rhoads and Bartholdi, section 5: with N = 9 and upcard 9 the optimal strategy bets 9 with p = 0.7475."""
    result = solve(9)
    assert round(result.first_move[9][9], 4) == 0.7475


def test_objectives_compared_exactly_at_n4():
    amount, win = SOLVED[(4, "amount")], SOLVED[(4, "win")]
    exploit = evaluate(amount, None, "win")
    assert exploit.win + exploit.tie + exploit.loss == 1
    assert exploit.win - exploit.loss < 0           # the amount-optimal strategy can be beaten on winning
    assert exploit.amount >= 0                      # ... but never on the amount (it is amount-optimal)
    guard = evaluate(win, None, "win")
    assert guard.win - guard.loss == 0              # the win-optimal strategy guarantees the value 0
    head = evaluate(amount, win)
    assert head.win + head.tie + head.loss == 1 and head.amount > 0 and head.win < head.loss


def test_checkpoints_resume_and_refuse_another_run(tmp_path):
    lines = []
    first = solve(6, checkpoint=tmp_path, progress=lines.append)
    assert len(lines) == 6
    again = []
    resumed = solve(6, checkpoint=tmp_path, progress=again.append)
    assert again == [] and resumed.first_move == first.first_move and resumed.matrix_games == first.matrix_games
    with pytest.raises(InputError, match="checkpoint of another run"):
        solve(5, checkpoint=tmp_path)
    with pytest.raises(InputError, match="checkpoint of another run"):
        solve(6, objective="win", checkpoint=tmp_path)
    assert main(["goofspiel", "--cards", "6", "--objective", "win", "--checkpoint", str(tmp_path)]) == 2


def test_processes_give_the_same_tables_as_serial():
    from symgame.engine.atlas import ProcessMapper, process_map

    serial = solve(6)
    parallel = solve(6, mapper=lambda fn, items: process_map(fn, items, 2))
    assert all((a == b).all() for a, b in zip(serial.tables, parallel.tables))
    with ProcessMapper(2) as mapper:                 # the previous level shared as a memory-mapped file
        shared = solve(6, mapper=mapper)
        folder = mapper._folder
        # only the last level's files: its previous table and its three transition arrays
        assert folder is not None and len(list(Path(folder).iterdir())) == 4
    assert not Path(folder).exists()                 # removed with the pool
    assert all(np.array_equal(a, b) for a, b in zip(serial.tables, shared.tables))


def test_a_dask_cluster_gives_the_same_tables_with_each_level_scattered_once():
    distributed = pytest.importorskip("distributed")
    from symgame.engine.atlas import DaskMapper

    serial = solve(7)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with DaskMapper(cluster) as mapper:
            scattered = []
            share = mapper.share
            mapper.share = lambda *values: scattered.extend(share(*values)) or scattered[-len(values):]  # type: ignore
            dask = solve(7, mapper=mapper)
    assert len(scattered) == 4 * 7 and all(type(f).__name__ == "Future" for f in scattered)
    assert all(np.array_equal(a.view(np.int64), b.view(np.int64)) for a, b in zip(serial.tables, dask.tables))


def test_round_games_without_an_optimal_basis_go_to_highs_alike_in_both_paths(monkeypatch):
    """Two pivots per game: many round games stop short; both paths hand the same ones to HiGHS and give the
    same bits, and the values are still the game's (the exact DP's, to 1e-9)."""
    pytest.importorskip("numba")
    import symgame.games.goofspiel as goofspiel

    monkeypatch.setattr(goofspiel, "PIVOTS", 0.25)        # 0.25 * 2 * 4 = 2 pivots for the 4 x 4 games
    exact = SOLVED[(5, "amount")]
    level = exact.levels[3]
    prev = np.array([[float(v) for v in row] for row in exact.tables[3]])
    args = (level.child_pattern, level.child_sign, level.compare, level.sets, level.child_set, prev)
    compiled = goofspiel._amount_chunk(*args, backend="numba")[0]
    reference = goofspiel._amount_chunk(*args, backend="numpy")[0]
    assert np.array_equal(compiled.view(np.int64), reference.view(np.int64))
    want = np.array([[float(v) for v in row] for row in exact.tables[4]])
    assert np.abs(compiled - want).max() < 1e-9
    values = np.empty((len(level.patterns), len(level.sets), 4))
    _, stopped = goofspiel._compiled_amount()(*args[:5], prev, 2, values)
    assert stopped > 10                                  # the limit does send games to HiGHS at this level


def test_compiled_round_games_give_the_numpy_tables_bit_for_bit():
    """The compiled kernel (each round game built and solved in turn) against the NumPy path (a level's games
    as one array, the vectorised simplex): the same IEEE bits in every table entry, at every level of N = 7."""
    pytest.importorskip("numba")
    from symgame.games.goofspiel import _amount_chunk

    reference = solve(7)
    for level, prev in zip(reference.levels, reference.tables):
        args = (level.child_pattern, level.child_sign, level.compare, level.sets, level.child_set, prev)
        compiled, games, saddles = _amount_chunk(*args, backend="numba")
        numpy_table, games2, saddles2 = _amount_chunk(*args, backend="numpy")
        assert np.array_equal(compiled.view(np.int64), numpy_table.view(np.int64))
        assert (games, saddles) == (games2, saddles2)


def test_play_against_the_optimal_strategy():
    said = []
    results = play(solve(3), iter(["x", "9", "1", "2", "3"]), said.append, seed=1)
    assert len(results) == 1 and -6 <= results[0] <= 6
    assert sum("not a card of your hand" in line for line in said) == 2
    assert studies(["play", "goofspiel", "--cards", "0"]) == 2


def test_the_cli_prints_the_json_contract(capsys):
    assert main(["goofspiel", "--cards", "3", "--exact", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["cards"] == 3 and data["objective"] == "amount" and data["value"] == "0"
    assert data["first_move"]["3"] == {"1": "0", "2": "0", "3": "1"}


@pytest.mark.parametrize("args", [["--cards", "0"], ["--cards", "40"], ["--cards", "9", "--exact"],
                                  ["--cards", "9", "--objective", "win"], ["--cards", "4", "--workers", "0"]])
def test_bad_card_counts_are_one_line_exit_2(args, capsys):
    assert main(["goofspiel", *args]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
    if "--workers" not in args:
        with pytest.raises(InputError):
            solve(int(args[1]), exact="--exact" in args, objective="win" if "win" in args else "amount")


@pytest.mark.pinned
def test_committed_goofspiel_outputs_are_fresh(tmp_path):
    """Keys current, every committed file rendered from the cache, the cheap parts recomputed for real."""
    from derivations.rhoads2012 import compute as study_compute
    from derivations.rhoads2012 import outputs as study_outputs

    committed = ROOT / "outputs" / "goofspiel"
    cache = json.loads((committed / study_outputs.CACHE_FILE).read_text())
    for name in study_compute.PARTS:
        assert cache[name]["key"] == study_outputs.part_key(name), \
            f"outputs/goofspiel part {name} was computed by other code: run `symgame derive goofspiel`"
    study = study_outputs.GoofspielStudy({name: entry["data"] for name, entry in cache.items()})
    written = study_outputs.write_goofspiel_outputs(tmp_path, study, pdf=False)
    assert sorted(p.name for p in written) == sorted(p.name for p in committed.iterdir() if p.suffix != ".pdf"
                                                     and p.name != study_outputs.CACHE_FILE)
    for path in written:
        assert path.read_bytes() == (committed / path.name).read_bytes(), f"outputs/goofspiel/{path.name} is stale"

    def timeless(rows):
        return [{k: v for k, v in r.items() if k not in ("seconds", "peak_mb")} for r in rows]

    assert timeless(study_compute.part_exact(range(1, 6))) == timeless(study.parts["exact"][:5])
    assert timeless(study_compute.part_win(range(1, 5), ())) == timeless(study.parts["win"][:4])
    assert study_compute.part_compare([2, 3, 4]) == [r for r in study.parts["compare"] if r["cards"] <= 4]
    assert study_compute.part_unique(5) == study.parts["unique"]
    summary = (committed / "summary.md").read_text()
    assert "25 of 25" in summary and "0.747" in summary


def test_the_dp_strategy_has_exploitability_zero_in_the_whole_game():
    """Against every pure counter-strategy of the whole game (a best response at every position), the DP's
    amount-optimal strategy still gets the value 0 exactly, and the win-optimal one P(win) - P(loss) = 0."""
    amount, win = SOLVED[(4, "amount")], SOLVED[(4, "win")]
    assert evaluate(amount, None, "amount").amount == 0
    guard = evaluate(win, None, "win")
    assert guard.win - guard.loss == 0
    assert tree_value((1, 2, 3), (1, 2, 3), (1, 2, 3)) == 0 == solve(3, exact=True).value
