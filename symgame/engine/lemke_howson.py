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
    """A dictionary: ``basic_i + Σ_k D[i][k] · nonbasic_k = rhs_i``, one row per basic variable.

    Only the nonbasic columns are stored (``rows × n`` for the ``m``-row polytope), so a pivot costs
    ``rows × nonbasic`` operations. ``slacks`` are the initial basis, used by the lexicographic ratio test.
    """

    def __init__(self, columns: list[int], rows: list[list[Fraction]], basis: list[int], slacks: list[int]):
        self.nonbasic, self.rows, self.basis = columns, rows, basis
        self.rhs = [Fraction(1)] * len(rows)
        self.slacks = slacks

    def enter(self, var: int) -> int:
        """Pivot ``var`` into the basis; return the variable that leaves."""
        col = self.nonbasic.index(var)
        candidates = [i for i, row in enumerate(self.rows) if row[col] > 0]
        if not candidates:
            raise ArithmeticError("unbounded Lemke-Howson step (cannot happen with positive payoffs)")
        position = {v: k for k, v in enumerate(self.nonbasic)}
        best = candidates[0]
        for i in candidates[1:]:
            if self._less(i, best, col, position):
                best = i
        a = self.rows[best][col]
        row = [v / a for v in self.rows[best]]
        row[col] = 1 / a
        self.rhs[best] /= a
        self.rows[best] = row
        for i, other in enumerate(self.rows):
            f = other[col]
            if i == best or not f:
                continue
            updated = [v - f * w for v, w in zip(other, row)]
            updated[col] = -f * row[col]
            self.rows[i] = updated
            self.rhs[i] -= f * self.rhs[best]
        left = self.basis[best]
        self.basis[best], self.nonbasic[col] = var, left
        return left

    def _coefficient(self, i: int, var: int, position: dict[int, int]) -> Fraction:
        if self.basis[i] == var:
            return Fraction(1)
        k = position.get(var)
        return self.rows[i][k] if k is not None else Fraction(0)

    def _less(self, i: int, j: int, col: int, position: dict[int, int]) -> bool:
        """Row ``i`` before row ``j`` in the lexicographic ratio test (entries compared lazily)."""
        a_i, a_j = self.rows[i][col], self.rows[j][col]
        difference = self.rhs[i] * a_j - self.rhs[j] * a_i          # both pivots positive
        for s in self.slacks:
            if difference:
                break
            difference = self._coefficient(i, s, position) * a_j - self._coefficient(j, s, position) * a_i
        return difference < 0

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
    p = _Tableau(list(range(m)), [[b[i][j] + shift_b for i in range(m)] for j in range(n)],
                 [m + j for j in range(n)], [m + j for j in range(n)])
    # Q: variables y_j (variable m + j, label m + j), slacks r_i (variable i, label i): A'y + r = 1
    q = _Tableau([m + j for j in range(n)], [[a[i][j] + shift_a for j in range(n)] for i in range(m)],
                 list(range(m)), list(range(m)))
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
