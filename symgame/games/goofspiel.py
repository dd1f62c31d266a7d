"""Goofspiel, the Game of Pure Strategy, from its rules, solved by dynamic programming over subgames.

Rules (Rhoads and Bartholdi, "Computer solution to the game of pure strategy", Games 3(4), 150-156 (2012),
section 2): prize cards 1..N are shuffled face down; each player holds 1..N. Each round one prize is
turned up, both players bid one of their cards simultaneously, the higher bid wins the prize's value
from the opponent ("amount won" scoring: a zero-sum game), equal bids win nothing; the bid cards are
discarded. A subgame is ``(V, Y, P)``: the two hands and the remaining prizes, with value

    f(V, Y, P) = mean over upcards c in P of Value(X^c),  X^c_ij = c sign(V_i - Y_j) + f(V - V_i, Y - Y_j, P - c)

(ibid., section 3). Two reductions make the state space much smaller than the paper's triples of subsets:

* the value depends on the hands only through their *comparison pattern*: which card of one hand beats,
  ties or loses to which card of the other. Replacing the cards of ``V`` and ``Y`` by their ranks among
  the distinct values of ``V ∪ Y`` keeps every ``sign(V_i - Y_j)`` in every later round, so
  ``f(V, Y, P) = f(rank(V), rank(Y), P)``;
* ``f(Y, V, P) = -f(V, Y, P)`` (exchanging the players), so ``f(V, V, P) = 0``.

Values are computed in floating point (HiGHS LPs, saddle points first) or exactly (``exact=True``:
rationals; each matrix game is solved on the LP's supports in exact arithmetic and certified by exact
best responses, with exact vertex enumeration as the fallback).

Examples
--------
>>> solve(3).value
0.0
>>> table = solve(3, exact=True).first_move
>>> {upcard: {bet: str(p) for bet, p in row.items() if p} for upcard, row in table.items()}
{1: {1: '1'}, 2: {2: '1'}, 3: {3: '1'}}
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Sequence

import numpy as np

from ..errors import InputError
from ..references import cite

SOURCE = cite("rhoads2012", "sections 2-4, Tables 1-2")
MAX_CARDS_FLOAT = 10
MAX_CARDS_EXACT = 6


def canonical(v: Sequence[int], y: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The two hands with every card replaced by its rank among the distinct cards of both (1, 2, ...)."""
    ranks = {card: k + 1 for k, card in enumerate(sorted(set(v) | set(y)))}
    return tuple(sorted(ranks[c] for c in v)), tuple(sorted(ranks[c] for c in y))


def _sign(a: int, b: int) -> int:
    return (a > b) - (a < b)


@dataclass
class _Solver:
    exact: bool
    values: dict[tuple, Any] = field(default_factory=dict)
    games_solved: int = 0
    saddle_points: int = 0

    def value(self, v: tuple[int, ...], y: tuple[int, ...], p: tuple[int, ...]) -> Any:
        """f(V, Y, P) with the reductions (memoised on the canonical key)."""
        zero = Fraction(0) if self.exact else 0.0
        if not p:
            return zero
        v, y = canonical(v, y)
        if v == y:
            return zero
        if v > y:                                          # antisymmetry: store one orientation
            return -self.value(y, v, p)
        key = (v, y, p)
        if key not in self.values:
            total = sum((self.upcard_game(v, y, p, c)[0] for c in p), zero)
            self.values[key] = total / len(p)
        return self.values[key]

    def matrix(self, v: tuple[int, ...], y: tuple[int, ...], p: tuple[int, ...], c: int) -> list[list[Any]]:
        rest = tuple(x for x in p if x != c)
        return [[c * _sign(vi, yj) + self.value(v[:i] + v[i + 1:], y[:j] + y[j + 1:], rest)
                 for j, yj in enumerate(y)] for i, vi in enumerate(v)]

    def upcard_game(self, v, y, p, c) -> tuple[Any, tuple, tuple]:
        """Value and optimal strategies of the matrix game ``X^c`` at subgame ``(v, y, p)``."""
        x = self.matrix(v, y, p, c)
        self.games_solved += 1
        return (_solve_exact if self.exact else _solve_float)(x, self)


def _saddle(x: list[list[Any]]) -> tuple[int, int] | None:
    rows = [min(r) for r in x]
    cols = [max(x[i][j] for i in range(len(x))) for j in range(len(x[0]))]
    lower, upper = max(rows), min(cols)
    if lower != upper:
        return None
    return rows.index(lower), cols.index(upper)


def _pure(k: int, i: int, one: Any, zero: Any) -> tuple:
    return tuple(one if t == i else zero for t in range(k))


def _solve_float(x: list[list[float]], solver: _Solver) -> tuple[float, tuple, tuple]:
    m, n = len(x), len(x[0])
    saddle = _saddle(x)
    if saddle is not None:
        solver.saddle_points += 1
        return float(x[saddle[0]][saddle[1]]), _pure(m, saddle[0], 1.0, 0.0), _pure(n, saddle[1], 1.0, 0.0)
    return _lp(x)


def _lp(x: list[list[float]]) -> tuple[float, tuple, tuple]:
    """Value and optimal strategies of a matrix game by two HiGHS LPs (no saddle-point shortcut)."""
    from scipy.optimize import linprog

    m, n = len(x), len(x[0])
    a = np.asarray(x, dtype=float)
    shift = 1.0 - a.min()
    b = a + shift                                             # positive: value = 1 / sum(u)
    row = linprog(np.ones(m), A_ub=-b.T, b_ub=-np.ones(n), bounds=(0, None), method="highs")
    col = linprog(-np.ones(n), A_ub=b, b_ub=np.ones(m), bounds=(0, None), method="highs")
    scale = 1.0 / row.x.sum()
    return float(scale - shift), tuple(float(t) for t in row.x * scale), tuple(float(t) for t in col.x / col.x.sum())


def _solve_exact(x: list[list[Fraction]], solver: _Solver) -> tuple[Fraction, tuple, tuple]:
    m, n = len(x), len(x[0])
    one, zero = Fraction(1), Fraction(0)
    saddle = _saddle(x)
    if saddle is not None:
        solver.saddle_points += 1
        return x[saddle[0]][saddle[1]], _pure(m, saddle[0], one, zero), _pure(n, saddle[1], one, zero)
    _, row_f, col_f = _lp([[float(e) for e in r] for r in x])     # supports only; the saddle test was exact
    rows = [i for i in range(m) if row_f[i] > 1e-9]
    cols = [j for j in range(n) if col_f[j] > 1e-9]
    found = _on_supports(x, rows, cols)
    if found is None:                                      # degenerate or rounding: exact enumeration
        from ..engine.enummixed import enummixed_solve

        e = enummixed_solve(x, [[-v for v in r] for r in x]).equilibria[0]
        found = (e.payoffs[0], e.row, e.column)
    value, p, q = found
    if not _certified(x, value, p, q):
        raise ArithmeticError("an exact matrix-game solution failed its certificate")
    return value, p, q


def _on_supports(x, rows, cols):
    """Solve the equalizing equations on square supports exactly; ``None`` if they give no equilibrium."""
    if len(rows) != len(cols):
        return None
    from flint import fmpq, fmpq_mat

    k = len(rows)

    def solve(matrix, rhs):
        mat = fmpq_mat(k + 1, k + 1, [fmpq(v.numerator, v.denominator) for r in matrix for v in r])
        if mat.rank() < k + 1:
            return None
        sol = mat.solve(fmpq_mat(k + 1, 1, [fmpq(v.numerator, v.denominator) for v in rhs]))
        return [Fraction(int(sol[t, 0].p), int(sol[t, 0].q)) for t in range(k + 1)]

    # row player: sum_i p_i x_ij - v = 0 for j in cols, sum p = 1
    one, zero = Fraction(1), Fraction(0)
    a = [[x[i][j] for i in rows] + [-one] for j in cols] + [[one] * k + [zero]]
    pv = solve(a, [zero] * k + [one])
    b = [[x[i][j] for j in cols] + [-one] for i in rows] + [[one] * k + [zero]]
    qv = solve(b, [zero] * k + [one])
    if pv is None or qv is None or any(t < 0 for t in pv[:k] + qv[:k]) or pv[k] != qv[k]:
        return None
    p = tuple(pv[rows.index(i)] if i in rows else zero for i in range(len(x)))
    q = tuple(qv[cols.index(j)] if j in cols else zero for j in range(len(x[0])))
    return pv[k], p, q


def _certified(x, value, p, q) -> bool:
    """Exact best responses: no column does better for the column player, no row for the row player."""
    m, n = len(x), len(x[0])
    worst_column = min(sum((p[i] * x[i][j] for i in range(m)), Fraction(0)) for j in range(n))
    best_row = max(sum((q[j] * x[i][j] for j in range(n)), Fraction(0)) for i in range(m))
    return worst_column == value == best_row


@dataclass(frozen=True)
class GoofspielSolution:
    """The value of N-card Goofspiel (amount won, to player 1: 0 by symmetry), its optimal first move for
    each upcard (``first_move[upcard][bet]``), and what the DP computed."""

    cards: int
    exact: bool
    value: Any
    first_move: dict[int, dict[int, Any]]
    states: int
    matrix_games: int
    saddle_points: int


def solve(cards: int, exact: bool = False) -> GoofspielSolution:
    """Solve N-card Goofspiel by dynamic programming over canonical subgames.

    Raises
    ------
    InputError
        For N < 1 or N above :data:`MAX_CARDS_FLOAT` (:data:`MAX_CARDS_EXACT` with ``exact``).
    """
    limit = MAX_CARDS_EXACT if exact else MAX_CARDS_FLOAT
    if not isinstance(cards, int) or not 1 <= cards <= limit:
        raise InputError(f"cards: N must be an integer from 1 to {limit}{' with exact arithmetic' if exact else ''} "
                         f"(got {cards!r})")
    solver = _Solver(exact)
    hand = tuple(range(1, cards + 1))
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 200 + 10 * cards))      # the recursion is only N levels deep
    try:
        value = solver.value(hand, hand, hand)
        first = {}
        for c in hand:
            _, p, _ = solver.upcard_game(hand, hand, hand, c)
            first[c] = {bet: p[k] for k, bet in enumerate(hand)}
    finally:
        sys.setrecursionlimit(old)
    return GoofspielSolution(cards, exact, value, first, len(solver.values), solver.games_solved,
                             solver.saddle_points)


def build_tree(v: Sequence[int], y: Sequence[int], p: Sequence[int]):
    """The subgame ``(V, Y, P)`` as a two-player zero-sum game tree (for independent checks on small games).

    Each round: chance turns up one remaining prize (uniformly), player 1 bids, player 2 bids without
    seeing player 1's bid; both then see both bids. Information sets hold everything a player has seen.
    """
    from ..model.extensive import Chance, DecisionNode, ExtensiveGame, Terminal

    def node(v, y, p, seen: tuple, score: int):
        if not p:
            return Terminal(Fraction(score))
        branches = []
        for c in p:
            history = seen + (c,)
            rest = tuple(x for x in p if x != c)
            moves = []
            for a in v:
                replies = []
                for b in y:
                    later = node(tuple(t for t in v if t != a), tuple(t for t in y if t != b), rest,
                                 history + (a, b), score + c * _sign(a, b))
                    replies.append((str(b), later))
                moves.append((str(a), DecisionNode(1, f"2:{history}", tuple(replies))))
            branches.append((Fraction(1, len(p)), DecisionNode(0, f"1:{history}", tuple(moves))))
        return Chance(tuple(branches))

    root = node(tuple(v), tuple(y), tuple(p), (), 0)
    return ExtensiveGame(f"goofspiel_{len(p)}", ("1", "2"), root, "Goofspiel subgame from the rules")
