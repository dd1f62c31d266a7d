"""The sampling experiment (Ganzfried, section 4-5): closed-form 2x2 solver, exploitability, Lemma 4, outputs."""
import shutil
from pathlib import Path

import numpy as np
import pytest
from scipy.optimize import linprog

from derivations.ganzfried2022 import sampling

ROOT = Path(__file__).resolve().parents[2]


def _lp_value(A: np.ndarray) -> float:
    """The value of the zero-sum matrix game A (row maximises) by scipy's HiGHS: an independent solver."""
    # maximise v s.t. x^T A >= v, x in simplex; variables (x1, x2, v)
    res = linprog([0, 0, -1], A_ub=np.c_[-A.T, np.ones(2)], b_ub=np.zeros(2), A_eq=[[1, 1, 0]], b_eq=[1],
                  bounds=[(0, 1), (0, 1), (None, None)], method="highs")
    return -res.fun


def test_closed_form_solution_matches_linear_programming():
    rng = np.random.default_rng(0)
    games = sampling.random_games(rng, 300)
    x, y, v = sampling.solve_games(games)
    for game, value in zip(games, v):
        assert value == pytest.approx(_lp_value(game.reshape(2, 2)), abs=1e-9)
    row, col = sampling.exploitability(games, x, y)
    assert row.max() < 1e-9 and col.max() < 1e-9


def test_exploitability_of_a_pure_strategy_in_pennies():
    pennies = np.array([[1.0, -1.0, -1.0, 1.0]])
    row, col = sampling.exploitability(pennies, np.array([1.0]), np.array([0.5]))
    assert row[0] == pytest.approx(1.0) and col[0] == pytest.approx(0.0)


def test_lemma4_holds_and_more_samples_help():
    curve = sampling.figure1_curve(train=3000, test=2000, ks=(1, 3000))
    assert all(c.lemma4_worst <= 1 + 1e-9 for c in curve)
    assert curve[-1].exploitability["row"] < curve[0].exploitability["row"] / 3


def test_theorem1_measured_below_the_corrected_bound():
    for t in sampling.theorem1_check(ts=(1, 10, 100), test=2000, repeats=3):
        assert t.measured <= t.bound_corrected


def test_decision_list_is_exactly_unexploitable():
    import symgame
    from symgame.games import two_by_two

    pdl = symgame.solve(two_by_two.build_game()).pdl
    assert sampling.pdl_exact_zero(pdl, games=30) == 30
    methods = sampling.compare_methods(pdl, train=500, test=500, ks=(2, 500))
    assert methods[0].exploitability["sum"] < 1e-12
    assert all(m.exploitability["sum"] > 1e-4 for m in methods[1:])


@pytest.mark.pinned
def test_committed_outputs_are_fresh(tmp_path):
    from derivations.ganzfried2022.sampling_outputs import CACHE_FILE, TEXT_FILES, study_key, write_sampling_outputs

    committed = ROOT / "outputs" / "sampling"
    cache = (committed / CACHE_FILE).read_text()
    assert study_key() in cache, "outputs/sampling is stale: run `symgame derive sampling`"
    shutil.copyfile(committed / CACHE_FILE, tmp_path / CACHE_FILE)
    write_sampling_outputs(tmp_path, plots=False)
    for name in TEXT_FILES:
        assert (tmp_path / name).read_bytes() == (committed / name).read_bytes(), f"{name} is stale"
