"""Every Nash equilibrium of a two-player game at a point, exactly: extreme equilibria and the maximal convex
sets they span.

With payoffs shifted to be positive, the equilibria of the bimatrix game ``(A, B)`` correspond to the
completely labelled pairs of vertices of the best-response polytopes

    P = {x >= 0 : B^T x <= 1},    Q = {y >= 0 : A y <= 1}

(Avis, Rosenberg, Savani, von Stengel, "Enumeration of Nash equilibria for two-player games", Economic
Theory 42, 9-37 (2010), sections 2-3). The extreme equilibria are the completely labelled vertex pairs,
also for degenerate games; the maximal convex sets of equilibria ("maximal Nash subsets") are the products
``conv(X) x conv(Y)`` of the maximal complete bipartite subgraphs of the graph of compatible vertices
(ibid., section 6). Vertices are found by choosing which ``m`` of the ``m + n`` inequalities of ``P`` are
tight and solving exactly (python-flint ``fmpq_mat``), so the method is exact and complete; its cost grows
like the binomial coefficient ``C(m + n, m)``, which is bounded by :data:`MAX_BASES`. Every equilibrium is
checked by exact regret.

Examples
--------
>>> result = enummixed_solve([[1, 0], [0, 1]], [[1, 0], [0, 1]])      # a coordination game
>>> [" ".join(map(str, e.row + e.column)) for e in result.equilibria]
['1 0 1 0', '1/2 1/2 1/2 1/2', '0 1 0 1']
>>> all(e.verified for e in result.equilibria), len(result.components)
(True, 3)
>>> result = enummixed_solve([[1, 1], [1, 1]], [[0, 0], [0, 0]])      # every profile is an equilibrium
>>> len(result.equilibria), [c.equilibria for c in result.components]
(4, [(0, 1, 2, 3)])
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from math import comb
from typing import Sequence

from ..errors import LimitError

#: Largest number of candidate bases (``C(m + n, m)`` for each polytope) the enumeration will try.
MAX_BASES = 2_000_000

Matrix = Sequence[Sequence[Fraction | int]]


@dataclass(frozen=True)
class ExtremeEquilibrium:
    """An extreme equilibrium: the row and column players' mixed strategies and their payoffs (exact)."""

    row: tuple[Fraction, ...]
    column: tuple[Fraction, ...]
    payoffs: tuple[Fraction, Fraction]
    regret: tuple[Fraction, Fraction]

    @property
    def verified(self) -> bool:
        """Exact regret 0 for both players."""
        return self.regret == (0, 0)


@dataclass(frozen=True)
class Component:
    """A maximal convex set of equilibria: every mixture of its row extremes against every mixture of its
    column extremes is an equilibrium. ``equilibria`` indexes :attr:`EquilibriumSet.equilibria`."""

    equilibria: tuple[int, ...]
    rows: tuple[tuple[Fraction, ...], ...]
    columns: tuple[tuple[Fraction, ...], ...]


@dataclass(frozen=True)
class EquilibriumSet:
    """The result of :func:`enummixed_solve`: all extreme equilibria (sorted) and the maximal convex sets."""

    equilibria: tuple[ExtremeEquilibrium, ...]
    components: tuple[Component, ...]
    complete: bool = True


def as_fractions(matrix: Matrix) -> list[list[Fraction]]:
    """A matrix of exact numbers as ``Fraction`` rows."""
    return [[Fraction(v) for v in row] for row in matrix]


def _vertices(constraints: list[list[Fraction]], rhs: list[Fraction], dim: int) -> dict[tuple[Fraction, ...], frozenset[int]]:
    """Vertices of ``{z : c_k . z <= rhs_k}`` (``constraints`` rows, the first ``dim`` being ``-z_i <= 0``),
    each with the set of constraints tight at it."""
    from flint import fmpq, fmpq_mat

    total = len(constraints)
    out: dict[tuple[Fraction, ...], frozenset[int]] = {}
    for chosen in combinations(range(total), dim):
        mat = fmpq_mat(dim, dim, [fmpq(v.numerator, v.denominator) for k in chosen for v in constraints[k]])
        if mat.rank() < dim:
            continue
        b = fmpq_mat(dim, 1, [fmpq(rhs[k].numerator, rhs[k].denominator) for k in chosen])
        sol = mat.solve(b)
        z = tuple(Fraction(int(sol[i, 0].p), int(sol[i, 0].q)) for i in range(dim))
        if z in out:
            continue
        values = [sum((c * v for c, v in zip(row, z)), Fraction(0)) for row in constraints]
        if all(val <= r for val, r in zip(values, rhs)):
            out[z] = frozenset(k for k, (val, r) in enumerate(zip(values, rhs)) if val == r)
    return out


def within_vertex_limit(m: int, n: int) -> bool:
    """Whether an ``m`` x ``n`` game's candidate bases, ``C(m + n, m)``, are within :data:`MAX_BASES`."""
    return comb(m + n, m) <= MAX_BASES


def enummixed_solve(A: Matrix, B: Matrix) -> EquilibriumSet:
    """All equilibria of the bimatrix game with row payoffs ``A`` and column payoffs ``B`` (exact numbers).

    Raises
    ------
    LimitError
        When ``C(m + n, m)`` exceeds :data:`MAX_BASES`.
    """
    a, b = as_fractions(A), as_fractions(B)
    m, n = len(a), len(a[0]) if a else 0
    if m == 0 or n == 0 or any(len(r) != n for r in a) or len(b) != m or any(len(r) != n for r in b):
        raise ValueError("A and B must be m x n matrices with m, n >= 1")
    if not within_vertex_limit(m, n):
        raise LimitError(f"a {m} x {n} game has more than {MAX_BASES} candidate bases for vertex enumeration")
    shift_a = 1 - min(v for r in a for v in r)
    shift_b = 1 - min(v for r in b for v in r)
    ap = [[v + shift_a for v in r] for r in a]
    bp = [[v + shift_b for v in r] for r in b]
    one, zero = Fraction(1), Fraction(0)
    # P: labels 0..m-1 for x_i = 0, m..m+n-1 for (B'^T x)_j = 1
    p_rows = [[-one if k == i else zero for k in range(m)] for i in range(m)] + \
             [[bp[i][j] for i in range(m)] for j in range(n)]
    p_vertices = _vertices(p_rows, [zero] * m + [one] * n, m)
    # Q: labels 0..m-1 for (A'y)_i = 1, m..m+n-1 for y_j = 0
    q_rows = [[ap[i][j] for j in range(n)] for i in range(m)] + \
             [[-one if k == j else zero for k in range(n)] for j in range(n)]
    q_vertices = _vertices(q_rows, [one] * m + [zero] * n, n)
    everything = frozenset(range(m + n))
    xs = sorted((x for x in p_vertices if any(x)), key=lambda x: tuple(-v for v in x))
    ys = sorted((y for y in q_vertices if any(y)), key=lambda y: tuple(-v for v in y))
    pairs = [(i, j) for i, x in enumerate(xs) for j, y in enumerate(ys) if p_vertices[x] | q_vertices[y] == everything]
    equilibria: list[ExtremeEquilibrium] = []
    index = {}
    for i, j in pairs:
        x, y = _normalise(xs[i]), _normalise(ys[j])
        index[(i, j)] = len(equilibria)
        equilibria.append(verified_equilibrium(a, b, x, y))
    components = []
    for rows_used, cols_used in _maximal_bicliques(pairs):
        members = tuple(sorted(index[(i, j)] for i in rows_used for j in cols_used))
        components.append(Component(members, tuple(_normalise(xs[i]) for i in sorted(rows_used)),
                                    tuple(_normalise(ys[j]) for j in sorted(cols_used))))
    components.sort(key=lambda c: c.equilibria)
    return EquilibriumSet(tuple(equilibria), tuple(components))


def _normalise(z: tuple[Fraction, ...]) -> tuple[Fraction, ...]:
    total = sum(z, Fraction(0))
    return tuple(v / total for v in z)


def verified_equilibrium(a: list[list[Fraction]], b: list[list[Fraction]], x: tuple[Fraction, ...],
                         y: tuple[Fraction, ...]) -> ExtremeEquilibrium:
    """The profile ``(x, y)`` with its payoffs and each player's exact regret (0 at an equilibrium)."""
    rows = [sum((a[i][j] * y[j] for j in range(len(y))), Fraction(0)) for i in range(len(x))]
    cols = [sum((b[i][j] * x[i] for i in range(len(x))), Fraction(0)) for j in range(len(y))]
    u1 = sum((x[i] * rows[i] for i in range(len(x))), Fraction(0))
    u2 = sum((y[j] * cols[j] for j in range(len(y))), Fraction(0))
    return ExtremeEquilibrium(x, y, (u1, u2), (max(rows) - u1, max(cols) - u2))


def _maximal_bicliques(pairs: list[tuple[int, int]]) -> list[tuple[frozenset[int], frozenset[int]]]:
    """Maximal complete bipartite subgraphs of the graph with edges ``pairs`` (closed pairs of the incidence
    relation: every intersection of neighbourhoods of row vertices, with the rows adjacent to all of it)."""
    neighbours: dict[int, set[int]] = {}
    for i, j in pairs:
        neighbours.setdefault(i, set()).add(j)
    closed: set[frozenset[int]] = {frozenset(s) for s in neighbours.values()}
    frontier = list(closed)
    while frontier:
        new = []
        for s in frontier:
            for t in list(closed):
                both = s & t
                if both and both not in closed:
                    closed.add(both)
                    new.append(both)
        frontier = new
    out = []
    for cols in closed:
        rows = frozenset(i for i, s in neighbours.items() if cols <= s)
        out.append((rows, cols))
    # keep the maximal pairs (a closed column set is maximal exactly when no larger closed set has the same rows)
    return [(r, c) for r, c in out if not any(r <= r2 and c < c2 or r < r2 and c <= c2 for r2, c2 in out)]
