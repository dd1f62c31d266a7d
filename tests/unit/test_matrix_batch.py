"""The batched zero-sum simplex: the compiled and the NumPy implementations bit for bit, and every answer
checked independently (exact best responses on the returned basis; HiGHS's LP value)."""
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symgame.numeric.matrix_batch import certified, exact_from_basis, solve_batch
from symgame.numeric.solvers import solve_zero_sum_lp

numba = pytest.importorskip("numba")


def _bits(x: np.ndarray) -> np.ndarray:
    """The IEEE bit patterns (so that 0.0 and -0.0 count as different)."""
    return np.ascontiguousarray(x, dtype=float).view(np.int64)


def _same(a: np.ndarray) -> None:
    compiled, reference = solve_batch(a, backend="numba"), solve_batch(a, backend="numpy")
    assert np.array_equal(_bits(compiled.values), _bits(reference.values))
    assert np.array_equal(_bits(compiled.row), _bits(reference.row))
    assert np.array_equal(_bits(compiled.column), _bits(reference.column))
    assert np.array_equal(compiled.basis, reference.basis)
    assert np.array_equal(compiled.saddle, reference.saddle)
    assert np.array_equal(compiled.fallback, reference.fallback)


@settings(max_examples=60)
@given(st.integers(1, 9), st.integers(1, 9), st.sampled_from(["normal", "small integers", "ties"]),
       st.integers(0, 2 ** 32 - 1))
def test_the_compiled_simplex_is_bit_identical_to_the_numpy_one(m, n, kind, seed):
    rng = np.random.default_rng(seed)
    if kind == "normal":
        a = rng.normal(size=(200, m, n))
    elif kind == "small integers":
        a = rng.integers(-3, 4, size=(200, m, n)).astype(float)
    else:                                          # degenerate games: many ties, many saddle points
        a = rng.integers(-1, 2, size=(200, m, n)).astype(float)
    _same(a)


def test_goofspiel_sized_games_are_bit_identical_and_optimal():
    """13 x 13 games with Goofspiel's structure (a sign matrix times a prize plus continuation values)."""
    rng = np.random.default_rng(13)
    signs = np.sign(rng.integers(-5, 6, size=(300, 13, 13))).astype(float)
    a = 7.0 * signs + rng.normal(scale=3.0, size=(300, 13, 13))
    _same(a)
    r = solve_batch(a)
    for g in range(0, 300, 30):
        lp = solve_zero_sum_lp(a[g])
        assert abs(lp.value - r.values[g]) < 1e-9
        assert (r.row[g] @ a[g]).min() >= r.values[g] - 1e-9          # the row strategy guarantees the value
        assert (a[g] @ r.column[g]).max() <= r.values[g] + 1e-9       # the column strategy holds to it


@settings(max_examples=40)
@given(st.integers(2, 6), st.integers(2, 6), st.integers(0, 2 ** 32 - 1))
def test_integer_games_are_solved_exactly_on_the_returned_basis(m, n, seed):
    """An independent exact check: re-solved on the basis in rationals, certified by exact best responses."""
    rng = np.random.default_rng(seed)
    x = rng.integers(-5, 6, size=(m, n))
    r = solve_batch(x[None].astype(float))
    exact = [[Fraction(int(v)) for v in row] for row in x]
    if r.saddle[0]:
        i, j = int(r.row[0].argmax()), int(r.column[0].argmax())
        value, row, column = exact[i][j], [Fraction(int(k == i)) for k in range(m)], \
            [Fraction(int(k == j)) for k in range(n)]
    else:
        solved = exact_from_basis(exact, r.basis[0])
        assert solved is not None
        value, row, column = solved
    assert certified(exact, value, row, column)
    assert abs(float(value) - r.values[0]) < 1e-9


def test_no_games_and_unknown_backends():
    empty = solve_batch(np.zeros((0, 3, 2)))
    assert empty.values.shape == (0,) and empty.row.shape == (0, 3) and empty.basis.shape == (0, 3)
    with pytest.raises(ValueError, match="unknown backend"):
        solve_batch(np.zeros((1, 2, 2)), backend="fortran")


def test_games_left_without_an_optimal_basis_fall_back_to_highs_in_both_implementations():
    rng = np.random.default_rng(5)
    a = rng.normal(size=(40, 4, 4))
    for backend in ("numba", "numpy"):
        r = solve_batch(a, max_iterations=1, backend=backend)       # one pivot: most games are not done
        assert r.fallback.sum() > 10 and not (r.fallback & r.saddle).any()
        assert (r.basis[r.fallback] == -1).all()
        for g in range(40):
            assert abs(r.values[g] - solve_zero_sum_lp(a[g]).value) < 1e-9
            assert abs(r.row[g].sum() - 1) < 1e-12 and (r.row[g] @ a[g]).min() >= r.values[g] - 1e-8
    _same_limited(a)


def _same_limited(a: np.ndarray) -> None:
    compiled, reference = solve_batch(a, 1, backend="numba"), solve_batch(a, 1, backend="numpy")
    assert np.array_equal(compiled.fallback, reference.fallback)
    assert np.array_equal(_bits(compiled.values), _bits(reference.values))
    assert np.array_equal(_bits(compiled.row), _bits(reference.row))
