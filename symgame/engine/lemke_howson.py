"""One Nash equilibrium of a two-player game by the Lemke–Howson algorithm, pivoting exactly.

For games too large to enumerate every equilibrium (:mod:`symgame.engine.enummixed` bounds its
bases), complementary pivoting finds one: with payoffs shifted to be positive, follow the path of
the best-response polytopes ``P = {x >= 0 : B'ᵀx <= 1}`` and ``Q = {y >= 0 : A'y <= 1}`` that
starts at the artificial equilibrium ``(0, 0)`` by dropping one label, until the pair of vertices
is completely labelled again (Lemke and Howson, "Equilibrium points of bimatrix games", Journal
of the Society for Industrial and Applied Mathematics 12, 413–423, 1964; von Stengel, "Computing
equilibria for two-person games", Handbook of Game Theory 3, chapter 45, 2002, section 3).
Pivoting is in exact rationals with the lexicographic ratio test, so degenerate games end too.
The equilibrium is verified by exact regret.

Examples
--------
>>> eq = lemke_howson_solve([[1, 0], [0, 1]], [[1, 0], [0, 1]])     # a coordination game
>>> eq.row, eq.column, eq.verified
((Fraction(1, 1), Fraction(0, 1)), (Fraction(1, 1), Fraction(0, 1)), True)
>>> lemke_howson_solve([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], [[0, 1, -1], [-1, 0, 1], [1, -1, 0]]).row
(Fraction(1, 3), Fraction(1, 3), Fraction(1, 3))
"""
from __future__ import annotations

from fractions import Fraction

from ..errors import LimitError
from .enummixed import ExtremeEquilibrium, Matrix, as_fractions, verified_equilibrium

MAX_PIVOTS = 100_000


class _Tableau:
    """``Σ_k T[i][k] v_k = rhs_i`` with one basic variable (coefficient 1) per row; ``slacks`` are the
    columns of the initial basis, used for the lexicographic ratio test."""

    def __init__(self, rows: list[list[Fraction]], basis: list[int], slacks: list[int]):
        self.rows, self.rhs, self.basis, self.slacks = rows, [Fraction(1)] * len(rows), basis, slacks

    def enter(self, var: int) -> int:
        """Pivot ``var`` into the basis; return the variable that leaves."""
        candidates = [i for i, row in enumerate(self.rows) if row[var] > 0]
        if not candidates:
            raise ArithmeticError("unbounded Lemke-Howson step (cannot happen with positive payoffs)")
        best = candidates[0]
        for i in candidates[1:]:
            if self._key(i, var) < self._key(best, var):
                best = i
        row = self.rows[best]
        pivot = row[var]
        self.rows[best] = row = [v / pivot for v in row]
        self.rhs[best] /= pivot
        for i, other in enumerate(self.rows):
            factor = other[var]
            if i != best and factor:
                self.rows[i] = [v - factor * w for v, w in zip(other, row)]
                self.rhs[i] -= factor * self.rhs[best]
        left, self.basis[best] = self.basis[best], var
        return left

    def _key(self, i: int, var: int) -> tuple[Fraction, ...]:
        a = self.rows[i][var]
        return (self.rhs[i] / a,) + tuple(self.rows[i][s] / a for s in self.slacks)

    def values(self, count: int) -> list[Fraction]:
        out = [Fraction(0)] * count
        for i, var in enumerate(self.basis):
            if var < count:
                out[var] = self.rhs[i]
        return out


def lemke_howson_solve(A: Matrix, B: Matrix, label: int = 0, max_pivots: int = MAX_PIVOTS) -> ExtremeEquilibrium:
    """One equilibrium of the bimatrix game ``(A, B)``, reached by dropping ``label`` (0 .. m + n - 1).

    Labels ``0 .. m-1`` are the row player's actions, ``m .. m+n-1`` the column player's.
    """
    a, b = as_fractions(A), as_fractions(B)
    m, n = len(a), len(a[0])
    if not 0 <= label < m + n:
        raise ValueError(f"label must be in 0..{m + n - 1}")
    shift_a = 1 - min(v for r in a for v in r)
    shift_b = 1 - min(v for r in b for v in r)
    # P: variables x_0..x_{m-1} (labels 0..m-1), slacks s_j (variable m + j, label m + j): B'ᵀx + s = 1
    p = _Tableau([[b[i][j] + shift_b for i in range(m)] + [Fraction(int(k == j)) for k in range(n)]
                  for j in range(n)], [m + j for j in range(n)], [m + j for j in range(n)])
    # Q: variables y_j (variable m + j, label m + j), slacks r_i (variable i, label i): A'y + r = 1
    q = _Tableau([[Fraction(int(k == i)) for k in range(m)] + [a[i][j] + shift_a for j in range(n)]
                  for i in range(m)], list(range(m)), list(range(m)))
    # a variable's label is its index; P holds x (0..m-1) and s (m..), Q holds r (0..m-1) and y (m..)
    tableau, entering = (p, label) if label < m else (q, label)
    for _ in range(max_pivots):
        left = tableau.enter(entering)
        if left == label:
            break
        tableau = q if tableau is p else p
        entering = left                 # the label that is now duplicated enters the other polytope
    else:
        raise LimitError(f"Lemke-Howson needed more than {max_pivots} pivots")
    x = p.values(m)
    y = q.values(m + n)[m:]
    return verified_equilibrium(a, b, _normalise(x), _normalise(y))


def _normalise(z: list[Fraction]) -> tuple[Fraction, ...]:
    total = sum(z, Fraction(0))
    return tuple(v / total for v in z)
