"""All equilibria of two-player games at a point: exact extreme equilibria and maximal convex sets."""
from fractions import Fraction

import nashpy
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symgame.engine.enummixed import enummixed_solve
from symgame.errors import LimitError


def test_a_degenerate_game_gives_its_segment_of_equilibria_as_one_component():
    # von Stengel's degenerate 3 x 2 example: (1,0,0) against every y in conv{(1,0), (2/3,1/3)}, and one isolated point
    result = enummixed_solve([[3, 3], [2, 5], [0, 6]], [[3, 3], [2, 6], [3, 1]])
    shown = [(tuple(map(str, e.row)), tuple(map(str, e.column))) for e in result.equilibria]
    assert shown == [(("1", "0", "0"), ("1", "0")), (("1", "0", "0"), ("2/3", "1/3")),
                     (("0", "1/3", "2/3"), ("1/3", "2/3"))]
    assert [c.equilibria for c in result.components] == [(0, 1), (2,)]
    assert result.components[0].rows == ((1, 0, 0),) and len(result.components[0].columns) == 2
    assert all(e.verified for e in result.equilibria)


def test_every_mixture_inside_a_component_is_an_equilibrium():
    a, b = [[3, 3], [2, 5], [0, 6]], [[3, 3], [2, 6], [3, 1]]
    comp = enummixed_solve(a, b).components[0]
    x = comp.rows[0]
    for t in (Fraction(0), Fraction(1, 3), Fraction(1)):
        y = tuple(t * u + (1 - t) * v for u, v in zip(comp.columns[0], comp.columns[1]))
        rows = [sum(a[i][j] * y[j] for j in range(2)) for i in range(3)]
        cols = [sum(b[i][j] * x[i] for i in range(3)) for j in range(2)]
        assert max(rows) == sum(x[i] * rows[i] for i in range(3)) and max(cols) == sum(y[j] * cols[j] for j in range(2))


def _rounded(pairs):
    return sorted(tuple(round(float(v), 9) + 0.0 for v in (*x, *y)) for x, y in pairs)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.integers(2, 4), st.integers(2, 4), st.data())
def test_generic_games_agree_with_nashpy_vertex_enumeration(m, n, data):
    entries = st.integers(-40, 40)
    a = data.draw(st.lists(st.lists(entries, min_size=n, max_size=n), min_size=m, max_size=m))
    b = data.draw(st.lists(st.lists(entries, min_size=n, max_size=n), min_size=m, max_size=m))
    result = enummixed_solve(a, b)
    assert result.equilibria and all(e.verified for e in result.equilibria)     # every finite game has one
    ours = _rounded((e.row, e.column) for e in result.equilibria)
    if len(set(ours)) == len(ours) and all(len(c.equilibria) == 1 for c in result.components):
        theirs = _rounded(nashpy.Game(np.array(a), np.array(b)).vertex_enumeration())
        assert ours == theirs                          # isolated equilibria: the same finite set


def test_the_size_bound_is_a_clear_error():
    with pytest.raises(LimitError, match="candidate bases"):
        enummixed_solve([[0] * 20] * 20, [[0] * 20] * 20)


@settings(max_examples=60, derandomize=True, deadline=None)
@given(st.integers(1, 5), st.integers(1, 5), st.data())
def test_lemke_howson_reaches_a_verified_extreme_equilibrium_from_every_label(m, n, data):
    """Small integer payoffs make many games degenerate: the lexicographic rule must still end, at an extreme
    equilibrium that vertex enumeration also finds, and nashpy's float Lemke-Howson agrees where the game
    is nondegenerate enough for it."""
    from symgame.engine.lemke_howson import lemke_howson_solve

    entries = st.integers(-2, 2)
    a = data.draw(st.lists(st.lists(entries, min_size=n, max_size=n), min_size=m, max_size=m))
    b = data.draw(st.lists(st.lists(entries, min_size=n, max_size=n), min_size=m, max_size=m))
    extreme = {(e.row, e.column) for e in enummixed_solve(a, b).equilibria}
    for label in range(m + n):
        eq = lemke_howson_solve(a, b, label)
        assert eq.verified and (eq.row, eq.column) in extreme


def test_lemke_howson_on_a_game_too_large_for_enumeration():
    from symgame.engine.lemke_howson import lemke_howson_solve

    rng = np.random.default_rng(3)
    a, b = rng.integers(-9, 10, (40, 40)).tolist(), rng.integers(-9, 10, (40, 40)).tolist()
    with pytest.raises(LimitError):
        enummixed_solve(a, b)
    eq = lemke_howson_solve(a, b)
    assert eq.verified
    x, y = np.array([float(v) for v in eq.row]), np.array([float(v) for v in eq.column])
    assert (np.array(a) @ y).max() - x @ np.array(a) @ y < 1e-9 and (x @ np.array(b)).max() - x @ np.array(b) @ y < 1e-9
