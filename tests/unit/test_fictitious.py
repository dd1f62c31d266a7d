"""Fictitious play in exact arithmetic: the lowest-index tie rule, scaling, and Guts' exact mesh tensors."""
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symgame.games import guts
from symgame.numeric.fictitious import fictitious_play


def test_an_exact_tie_goes_to_the_lowest_action_where_floats_would_not():
    # against the column player's (1/2, 1/2): action 0 earns 3/10 * 1/2, action 1 earns 1/10 * 1/2 + 2/10 * 1/2
    row = np.array([[Fraction(3, 10), Fraction(0)], [Fraction(1, 10), Fraction(2, 10)]], dtype=object)
    as_float = row.astype(float) @ np.array([0.5, 0.5])
    assert as_float[1] > as_float[0]                     # rounding noise prefers action 1
    column = np.zeros((2, 2), dtype=np.int64)           # the column player is indifferent: lowest index
    trace = fictitious_play([row, column], 2, start=(0, 1))
    # step 1: the column has played action 1 only, so the row answers 1; the column answers 0 (a tie);
    # step 2: the column's counts are (1, 1), the row's two actions tie exactly and action 0 is chosen
    assert trace.plays.tolist() == [[1, 0], [0, 0]]
    assert trace.mixtures == ((Fraction(1, 2), Fraction(1, 2)), (Fraction(1, 2), Fraction(1, 2)))


@settings(max_examples=30, derandomize=True)
@given(entries=st.lists(st.fractions(-5, 5, max_denominator=7), min_size=8, max_size=8),
       scale=st.integers(1, 50), steps=st.integers(1, 40))
def test_scaling_the_payoffs_changes_no_play(entries, scale, steps):
    a = np.array(entries, dtype=object).reshape(2, 2, 2)
    b = np.transpose(a, (1, 0, 2)) * -1
    c = np.transpose(a, (2, 1, 0))
    first = fictitious_play([a, b, c], steps)
    second = fictitious_play([a * scale, b * scale, c * scale], steps)
    assert first.plays.tolist() == second.plays.tolist()
    assert first.mixtures == second.mixtures and all(sum(m) == 1 for m in first.mixtures)
    assert np.allclose(first.gaps * scale, second.gaps)


def _recomputed_play(payoffs, steps):
    """Fictitious play by its definition: every action value recomputed from all counts at every step."""
    from symgame.numeric.fictitious import _against_others

    n, sizes = len(payoffs), payoffs[0].shape
    counts = [np.zeros(sizes[k], dtype=object) for k in range(n)]
    current, plays, gaps = [0] * n, [], []
    for t in range(steps):
        for k in range(n):
            counts[k][current[k]] += 1
        values = [_against_others(payoffs[k], k, counts) for k in range(n)]
        best = [max(v) for v in values]
        current = [list(v).index(b) for v, b in zip(values, best)]
        plays.append(list(current))
        gaps.append(float(Fraction(int(sum(best)), (t + 1) ** (n - 1))))
    return plays, gaps, [[Fraction(int(c), steps) for c in cs] for cs in counts]


@settings(max_examples=60, derandomize=True)
@given(data=st.data(), players=st.integers(2, 4), steps=st.integers(1, 30), huge=st.booleans(),
       incremental_from=st.sampled_from([0, 4096]))
def test_the_values_kept_up_to_date_equal_their_recomputation(data, players, steps, huge, incremental_from):
    from symgame.numeric import fictitious

    sizes = tuple(data.draw(st.integers(1, 4)) for _ in range(players))
    low, high = (-(2 ** 62), 2 ** 62) if huge else (-3, 3)      # huge entries take the object-dtype path
    payoffs = [np.array(data.draw(st.lists(st.integers(low, high), min_size=int(np.prod(sizes)),
                                           max_size=int(np.prod(sizes)))), dtype=object).reshape(sizes)
               for _ in range(players)]
    default, fictitious.INCREMENTAL_FROM = fictitious.INCREMENTAL_FROM, incremental_from
    try:
        trace = fictitious_play(payoffs, steps)
    finally:
        fictitious.INCREMENTAL_FROM = default
    plays, gaps, mixtures = _recomputed_play(payoffs, steps)
    assert trace.plays.tolist() == plays
    assert trace.gaps.tolist() == gaps
    assert [list(m) for m in trace.mixtures] == mixtures


def test_non_integral_float_payoffs_are_refused():
    with pytest.raises(TypeError, match="integer or rational"):
        fictitious_play([np.array([[0.1, 0.2], [0.3, 0.4]]), np.zeros((2, 2))], 3)


def test_guts_mesh_tensors_are_exact():
    mesh = 21
    tensors = guts.three_player_tensors(mesh, weenie=True)
    scale = guts.mesh_alpha_scale(3, mesh, weenie=True)
    rng = np.random.default_rng(4)
    for i, j, k in rng.integers(0, mesh, size=(60, 3)).tolist() + [[3, 3, 3], [5, 5, 9], [9, 2, 2]]:
        for player, (own, others) in enumerate(((i, (j, k)), (j, (i, k)), (k, (i, j)))):
            exact = guts.mesh_alpha_beta(own, others, mesh, weenie=True)[0]
            assert Fraction(int(tensors[player][i, j, k]), scale) == exact
