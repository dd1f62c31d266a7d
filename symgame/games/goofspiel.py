"""Goofspiel, the Game of Pure Strategy, from its rules, solved by dynamic programming over subgames.

Rules (Rhoads and Bartholdi, "Computer solution to the game of pure strategy", Games 3(4), 150-156 (2012),
section 2): prize cards 1..N are shuffled face down; each player holds 1..N. Each round one prize is
turned up, both players bid one of their cards simultaneously, the higher bid wins the prize, equal bids
win nothing; the bid cards are discarded. Two objectives:

* ``"amount"`` (the paper's): the higher bid wins the prize's value from the opponent, a zero-sum game with
  value ``f(V, Y, P) = mean_{c in P} Value(X^c)``,
  ``X^c_ij = c sign(V_i - Y_j) + f(V - V_i, Y - Y_j, P - c)`` (ibid., section 3);
* ``"win"`` (the paper's open problem, section 5): the payoff is ``sign`` of the final score difference,
  +1 for a win, -1 for a loss, 0 for a tie, i.e. ``P(win) - P(loss)``: the state also needs the score
  difference ``d`` so far, ``g(V, Y, P, d) = mean_c Value(g(V - V_i, Y - Y_j, P - c, d + c sign(V_i - Y_j)))``,
  ``g(V, Y, {}, d) = sign(d)``, and ``g = sign(d)`` as soon as ``|d| > sum(P)``.

Reductions:

* *comparison pattern*: the value depends on the hands only through which card of one hand beats, ties
  or loses to which card of the other, so a pair of hands is a word over {1, 2, both} listing the distinct
  cards of ``V u Y`` in increasing order (``pattern``);
* *exchange*: ``f(Y, V, P, d) = -f(V, Y, P, -d)``, so each pair of patterns exchanged by the players is
  stored once (``orient``).

The DP runs level by level (hand size m = 1..N); at each level all matrix games are built as arrays and
solved in batches (:mod:`symgame.numeric.matrix_batch`: saddle points first, then a vectorised simplex),
on any mapper (serial, local processes, Dask) and with a checkpoint per level. With ``exact=True`` values
are rationals (python-flint) and every matrix game is re-solved on the float simplex basis in exact
arithmetic and certified by exact best responses on both sides.

Examples
--------
>>> solve(3).value == 0
True
>>> table = solve(3, exact=True).first_move
>>> {upcard: {bet: str(p) for bet, p in row.items() if p} for upcard, row in table.items()}
{1: {1: '1'}, 2: {2: '1'}, 3: {3: '1'}}
>>> solve(4, objective="win").first_move[4][4] > 0.5
True
"""
from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from ..errors import InputError, StoreError
from ..references import cite

SOURCE = cite("rhoads2012", "sections 2-5, Tables 1-2")
OBJECTIVES = ("amount", "win")
#: largest N per mode: the amount objective in floats, exact; the win objective in floats, exact
LIMITS = {("amount", False): 14, ("amount", True): 7, ("win", False): 8, ("win", True): 6}
CHECKPOINT_VERSION = 2            # 2: JSON/NumPy files with hashes (1 used pickle and is not read)
CHUNK_ENTRIES = 3_000_000               # matrix entries built at once per work unit (24 MB of floats)
PIVOTS = 50                             # simplex pivots per row and column of a round game before HiGHS takes it

Pattern = tuple[int, ...]                # 0: a card of player 1 only, 1: of player 2 only, 2: of both
Mapper = Callable[[Callable, Sequence], list]


# --------------------------------------------------------------------------- patterns and their symmetries

def pattern(v: Iterable[int], y: Iterable[int]) -> Pattern:
    """The comparison pattern of two hands: their distinct cards in increasing order, each marked 0 (only
    in ``v``), 1 (only in ``y``) or 2 (in both).

    >>> pattern((2, 5, 9), (1, 5, 7))
    (1, 0, 2, 1, 0)
    """
    vs, ys = set(v), set(y)
    return tuple(2 if c in vs and c in ys else (0 if c in vs else 1) for c in sorted(vs | ys))


def orient(p: Pattern) -> tuple[Pattern, int]:
    """The stored representative of ``p``'s orbit and the sign ``s`` with ``f(p, P, d) = s f(rep, P, s d)``.

    Exchanging the players (0 <-> 1) negates every comparison and the score: ``f(swap p, P, d) =
    -f(p, P, -d)``. The representative is the lesser of the two words. (Reversing the card order is *not*
    a symmetry: it negates every comparison but leaves player 1 the maximiser, which is the game in which
    the holder of ``v`` minimises, a different game.)
    """
    swapped = tuple((1, 0, 2)[s] for s in p)
    return min((p, 1), (swapped, -1))


def child(p: Pattern, i: int, j: int) -> tuple[Pattern, int]:
    """Player 1 bids their ``i``-th card, player 2 their ``j``-th (0-based, increasing): the pattern left and
    the comparison ``sign(V_i - Y_j)``."""
    vpos = [k for k, s in enumerate(p) if s != 1]
    ypos = [k for k, s in enumerate(p) if s != 0]
    a, b = vpos[i], ypos[j]
    out = list(p)
    if a == b:
        out[a] = -1
    else:
        out[a] = -1 if p[a] == 0 else 1
        out[b] = -1 if p[b] == 1 else 0
    return tuple(s for s in out if s >= 0), (a > b) - (a < b)


def level_patterns(m: int, cards: int) -> list[Pattern]:
    """Every stored pattern of two m-card hands drawn from 1..N (at most N distinct cards), sorted."""
    found = set()
    for ties in range(m + 1):
        length = 2 * m - ties
        if length > cards:
            continue
        for both in combinations(range(length), ties):
            rest = [k for k in range(length) if k not in set(both)]
            for mine in combinations(rest, m - ties):
                word = [1] * length
                for k in both:
                    word[k] = 2
                for k in mine:
                    word[k] = 0
                found.add(orient(tuple(word))[0])
    return sorted(found)


@dataclass
class Level:
    """The stored states of hand size ``m``: patterns, prize sets and the transitions to level ``m - 1``."""

    m: int
    patterns: list[Pattern]
    sets: np.ndarray                       # (S, m) prizes of each set, increasing
    child_pattern: np.ndarray              # (Q, m, m) index of the child pattern at level m - 1
    child_sign: np.ndarray                 # (Q, m, m) orientation sign of the child
    compare: np.ndarray                    # (Q, m, m) sign(V_i - Y_j)
    child_set: np.ndarray                  # (S, m) index at level m - 1 of the set without its k-th prize
    reach: int                             # the score differences stored: -reach..reach (win objective)
    index: dict[Pattern, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.index = {p: k for k, p in enumerate(self.patterns)}


def build_levels(cards: int, objective: str) -> list[Level]:
    total = cards * (cards + 1) // 2
    levels: list[Level] = []
    index_prev: dict[Pattern, int] = {(): 0}
    set_index_prev: dict[tuple[int, ...], int] = {(): 0}
    for m in range(1, cards + 1):
        pats = level_patterns(m, cards)
        sets = list(combinations(range(1, cards + 1), m))
        q = len(pats)
        cp = np.zeros((q, m, m), dtype=np.int64)
        cs = np.zeros((q, m, m), dtype=np.int8)
        cm = np.zeros((q, m, m), dtype=np.int8)
        for a, p in enumerate(pats):
            for i in range(m):
                for j in range(m):
                    c, cmp = child(p, i, j)
                    rep, sign = orient(c)
                    cp[a, i, j], cs[a, i, j], cm[a, i, j] = index_prev[rep], sign, cmp
        child_set = np.array([[set_index_prev[s[:k] + s[k + 1:]] for k in range(m)] for s in sets], dtype=np.int64)
        top = sum(range(cards - m + 1, cards + 1))
        reach = min(top + 1, total) if objective == "win" else 0
        levels.append(Level(m, pats, np.array(sets, dtype=np.int64), cp, cs, cm, child_set, reach))
        index_prev = {p: k for k, p in enumerate(pats)}
        set_index_prev = {s: k for k, s in enumerate(sets)}
    return levels


# --------------------------------------------------------------------------- one level, floating point

def _amount_chunk(cp, cs, cm, sets, child_set, prev, backend: str = "auto") -> tuple[np.ndarray, int, int]:
    """Values of the patterns ``cp/cs/cm`` (a chunk) for every prize set; also games solved and saddles.

    Compiled (Numba, each game built and solved in turn) or NumPy (the chunk's games as one array, solved by
    :func:`~symgame.numeric.matrix_batch.solve_batch`): bit-identical tables either way."""
    from ..engine.atlas import shared_value
    from ..numeric.matrix_batch import solve_batch

    prev = shared_value(prev)
    b, m, _ = cp.shape
    s = sets.shape[0]
    kernel = _compiled_amount() if backend != "numpy" else None
    if backend == "numba" and kernel is None:
        raise ImportError("backend='numba' needs Numba (pip install numba)")
    if kernel is not None:
        values = np.empty((b, s, m))
        prev = np.ascontiguousarray(prev)
        saddles, failures = kernel(cp, cs, cm, sets, child_set, prev, int(PIVOTS * 2 * m), values)
        if failures:             # solved as the NumPy path solves them (HiGHS, in solve_batch): the same bits
            where = np.argwhere(np.isnan(values))
            p_, s_, k_ = where[:, 0], where[:, 1], where[:, 2]
            c = sets[s_, k_]
            x = c[:, None, None] * cm[p_] + cs[p_].astype(float) * prev[cp[p_], child_set[s_, k_][:, None, None]]
            values[p_, s_, k_] = solve_batch(x, int(PIVOTS * 2 * m), backend="numpy").values
        return values.mean(axis=2), b * s * m, int(saddles)
    children = prev[cp[:, None, None, :, :], child_set[None, :, :, None, None]]          # (b, S, m, m, m)
    x = sets[None, :, :, None, None] * cm[:, None, None] + cs[:, None, None].astype(float) * children
    result = solve_batch(x.reshape(b * s * m, m, m), int(PIVOTS * 2 * m), backend="numpy")
    return result.values.reshape(b, s, m).mean(axis=2), b * s * m, int(result.saddle.sum())


def _compiled_amount() -> Any:
    """The compiled round-game kernel, or ``None`` without Numba."""
    from ..errors import optional_module

    kernel = optional_module("symgame.games._goofspiel_kernel")
    return kernel.amount_values if kernel is not None else None


def _win_chunk(cp, cs, cm, sets, child_set, prev, reach, prev_reach, total,
               backend: str = "auto") -> tuple[np.ndarray, int, int]:
    from ..engine.atlas import shared_value
    from ..numeric.matrix_batch import solve_batch

    prev = shared_value(prev)
    b, m, _ = cp.shape
    s = sets.shape[0]
    d = np.arange(-reach, reach + 1)
    prize_sum = sets.sum(axis=1)
    out = np.sign(d)[None, None, :].astype(float).repeat(b, 0).repeat(s, 1)           # decided states
    # solved: undecided (|d| <= sum of the prizes left) and reachable (|d| <= sum of the prizes gone)
    bound = np.minimum(np.minimum(prize_sum, total - prize_sum), reach)
    live_s, live_d = np.nonzero(np.abs(d)[None, :] <= bound[:, None])
    games = saddles = 0
    if live_s.size == 0:
        return out, games, saddles
    # X[b, L, k, i, j] = cs * prev[cp, child_set[s, k], clip(cs * (d + c cmp))]
    c = sets[live_s]                                                                     # (L, m)
    dd = d[live_d]                                                                       # (L,)
    step = dd[None, :, None, None, None] + c[None, :, :, None, None] * cm[:, None, None]   # (b, L, m, m, m)
    signed = np.clip(cs[:, None, None].astype(np.int64) * step, -prev_reach, prev_reach) + prev_reach
    vals = prev[cp[:, None, None], child_set[live_s][None, :, :, None, None], signed]
    x = cs[:, None, None].astype(float) * vals
    result = solve_batch(x.reshape(-1, m, m), backend=backend)
    out[:, live_s, live_d] = result.values.reshape(b, live_s.size, m).mean(axis=2)
    return out, b * live_s.size * m, int(result.saddle.sum())


def _chunks(level: Level, per_pattern: int) -> list[np.ndarray]:
    size = max(1, CHUNK_ENTRIES // max(per_pattern, 1))
    q = len(level.patterns)
    return [np.arange(a, min(q, a + size)) for a in range(0, q, size)]


def _serial(fn: Callable, items: Sequence) -> list:
    return [fn(*item) for item in items]


# --------------------------------------------------------------------------- one level, exact

def _exact_level(level: Level, prev: list, objective: str, prev_reach: int, total: int,
                 mapper: Mapper, keep: bool = False) -> tuple[list, int, int, list]:
    """Exact values of one level: nested lists ``[pattern][set]`` (amount) or ``[pattern][set][d]`` (win)."""
    from flint import fmpq

    m = level.m
    sets = level.sets.tolist()
    child_set = level.child_set.tolist()
    cp, cs, cm = level.child_pattern.tolist(), level.child_sign.tolist(), level.compare.tolist()
    reach = level.reach
    matrices: list = []
    slots: list = []                       # (pattern, set, d index) per matrix, m matrices per slot
    table: list = []
    for a in range(len(level.patterns)):
        row: list = []
        for si, prizes in enumerate(sets):
            if objective == "amount":
                for k, c in enumerate(prizes):
                    r = child_set[si][k]
                    matrices.append([[fmpq(c * cm[a][i][j]) + (prev[cp[a][i][j]][r] if cs[a][i][j] > 0
                                                                 else -prev[cp[a][i][j]][r])
                                      for j in range(m)] for i in range(m)])
                slots.append((a, si, None))
                row.append(None)
            else:
                cell: list[Any] = []
                for di, d in enumerate(range(-reach, reach + 1)):
                    if abs(d) > min(sum(prizes), reach, total - sum(prizes)):
                        cell.append(fmpq((d > 0) - (d < 0)))
                        continue
                    for k, c in enumerate(prizes):
                        r = child_set[si][k]
                        mat = []
                        for i in range(m):
                            line = []
                            for j in range(m):
                                sgn = cs[a][i][j]
                                e = max(-prev_reach, min(prev_reach, sgn * (d + c * cm[a][i][j])))
                                v = prev[cp[a][i][j]][r][e + prev_reach]
                                line.append(v if sgn > 0 else -v)
                            mat.append(line)
                        matrices.append(mat)
                    slots.append((a, si, di))
                    cell.append(None)
                row.append(cell)
        table.append(row)
    size = max(1, min(2000, len(matrices) // 8 + 1))
    parts = mapper(_solve_exact_many, [(matrices[k:k + size], keep) for k in range(0, len(matrices), size)])
    values = [v for part in parts for v in part[0]]
    saddles = sum(part[1] for part in parts)
    kept = [v for part in parts for v in part[2]]
    for n, (a, si, di) in enumerate(slots):
        mean = sum(values[n * m:(n + 1) * m], fmpq(0)) / m
        if di is None:
            table[a][si] = mean
        else:
            table[a][si][di] = mean
    return table, len(matrices), saddles, kept


def _solve_exact_many(matrices: list, keep: bool = False) -> tuple[list, int, list]:
    """Exact values of many matrix games: exact saddle points, else the float simplex basis re-solved in
    rationals; each answer certified by exact best responses (vertex enumeration if the basis fails).
    With ``keep``, also every game's ``(value, row, column)``."""
    from flint import fmpq

    from ..numeric.matrix_batch import certified, exact_from_basis, solve_batch

    values: list = [None] * len(matrices)
    solutions: list = [None] * len(matrices) if keep else []
    rest = []
    for n, x in enumerate(matrices):
        row_min = [min(r) for r in x]
        col_max = [max(x[i][j] for i in range(len(x))) for j in range(len(x[0]))]
        lower, upper = max(row_min), min(col_max)
        if lower == upper:
            values[n] = lower
            if keep:
                i, j = row_min.index(lower), col_max.index(upper)
                solutions[n] = (lower, [fmpq(int(k == i)) for k in range(len(x))],
                                [fmpq(int(k == j)) for k in range(len(col_max))])
        else:
            rest.append(n)
    saddles = len(matrices) - len(rest)
    if rest:
        floats = np.array([[[float(e) for e in r] for r in matrices[n]] for n in rest])
        batch = solve_batch(floats)
        for t, n in enumerate(rest):
            x = matrices[n]
            found = exact_from_basis(x, batch.basis[t]) if batch.basis[t, 0] >= 0 else None
            if found is None or not certified(x, *found):
                found = _enumerated(x)
            values[n] = found[0]
            if keep:
                solutions[n] = found
    return values, saddles, solutions


def solve_matrix_exact(x: Sequence[Sequence[Any]]) -> tuple[Any, list, list]:
    """One matrix game in exact arithmetic (``fmpq`` entries), certified: ``(value, row, column)``."""
    _, _, (found,) = _solve_exact_many([x], keep=True)
    return found


def _enumerated(x) -> tuple[Any, list, list]:
    from flint import fmpq

    from ..engine.enummixed import enummixed_solve
    from ..numeric.matrix_batch import certified

    a = [[Fraction(int(e.p), int(e.q)) for e in r] for r in x]
    e = enummixed_solve(a, [[-v for v in r] for r in a]).equilibria[0]
    out = (fmpq(e.payoffs[0].numerator, e.payoffs[0].denominator),
           [fmpq(p.numerator, p.denominator) for p in e.row], [fmpq(q.numerator, q.denominator) for q in e.column])
    if not certified(x, *out):
        raise ArithmeticError("an exact matrix-game solution failed its certificate")
    return out


# --------------------------------------------------------------------------- the solution

@dataclass
class GoofspielSolution:
    """N-card Goofspiel solved: the value (0 by symmetry), the optimal first move for each upcard
    (``first_move[upcard][bet]``), the value tables of every level (to answer any subgame) and counts.

    Values are ``float`` or, with ``exact``, ``fractions.Fraction`` (the tables hold ``flint.fmpq``).
    """

    cards: int
    objective: str
    exact: bool
    value: Any
    first_move: dict[int, dict[int, Any]]
    states: int
    matrix_games: int
    saddle_points: int
    levels: list[Level] = field(repr=False)
    tables: list[Any] = field(repr=False)

    def subgame_value(self, v: Sequence[int], y: Sequence[int], prizes: Sequence[int], d: int = 0) -> Any:
        """The value of the subgame with hands ``v``, ``y``, prizes left ``prizes`` and (win objective)
        score difference ``d`` so far, to player 1."""
        m = len(prizes)
        if len(v) != m or len(y) != m:
            raise InputError("subgame: both hands need as many cards as there are prizes left")
        if m == 0:
            return _num(self._zero() + (0 if self.objective == "amount" else (d > 0) - (d < 0)), self.exact)
        return _num(self._lookup(pattern(v, y), tuple(sorted(prizes)), d), self.exact)

    def _zero(self):
        if self.exact:
            from flint import fmpq
            return fmpq(0)
        return 0.0

    def _lookup(self, p: Pattern, prizes: tuple[int, ...], d: int = 0) -> Any:
        m = len(prizes)
        if m == 0:
            return self._zero() + (0 if self.objective == "amount" else (d > 0) - (d < 0))
        rep, sign = orient(p)
        level = self.levels[m - 1]
        a = level.index[rep]
        s = _set_index(prizes, self.cards)
        table = self.tables[m]
        if self.objective == "amount":
            v = table[a][s]
        else:
            e = max(-level.reach, min(level.reach, sign * d)) + level.reach
            v = table[a][s][e]
        return v if sign > 0 else -v

    def matrix(self, v: Sequence[int], y: Sequence[int], prizes: Sequence[int], upcard: int, d: int = 0) -> list:
        """The matrix game of the round: rows ``v``'s bids, columns ``y``'s bids (sorted), payoffs to player 1."""
        v, y = tuple(sorted(v)), tuple(sorted(y))
        rest = tuple(sorted(x for x in prizes if x != upcard))
        out = []
        for a in v:
            line = []
            for b in y:
                cmp = (a > b) - (a < b)
                vv, yy = tuple(t for t in v if t != a), tuple(t for t in y if t != b)
                if self.objective == "amount":
                    line.append(upcard * cmp + self._lookup(pattern(vv, yy), rest))
                else:
                    line.append(self._lookup(pattern(vv, yy), rest, d + upcard * cmp))
            out.append(line)
        return out

    def strategies(self, v: Sequence[int], y: Sequence[int], prizes: Sequence[int], upcard: int,
                   d: int = 0) -> tuple[Any, list, list]:
        """Value and one optimal mixed bid of each player (over their sorted hands) at a round."""
        x = self.matrix(v, y, prizes, upcard, d)
        if self.exact:
            value, p, q = solve_matrix_exact(x)
            return _num(value, True), [_num(t, True) for t in p], [_num(t, True) for t in q]
        from ..numeric.matrix_batch import solve_batch

        r = solve_batch(np.array([x], dtype=float))
        return float(r.values[0]), [float(t) for t in r.row[0]], [float(t) for t in r.column[0]]


def _num(v: Any, exact: bool) -> Any:
    if exact:
        if hasattr(v, "p"):          # a python-flint fmpq is already in lowest terms: skip the gcd (millions of digits)
            return Fraction(int(v.p), int(v.q), _normalize=False)    # type: ignore[call-overload]
        return Fraction(v)
    return float(v)


def _set_index(prizes: tuple[int, ...], cards: int) -> int:
    """Index of ``prizes`` among the m-subsets of 1..N in lexicographic order (``itertools.combinations``)."""
    from math import comb

    m, index, prev = len(prizes), 0, 0
    for t, c in enumerate(prizes):
        for skipped in range(prev + 1, c):
            index += comb(cards - skipped, m - t - 1)
        prev = c
    return index


def check_cards(cards: Any, objective: str = "amount", exact: bool = False) -> None:
    """Refuse, in one line, an N or an objective this solver does not take."""
    if objective not in OBJECTIVES:
        raise InputError(f"objective: expected one of {', '.join(OBJECTIVES)} (got {objective!r})")
    limit = LIMITS[(objective, bool(exact))]
    if isinstance(cards, bool) or not isinstance(cards, int) or not 1 <= cards <= limit:
        mode = f"the {objective} objective{' with exact arithmetic' if exact else ''}"
        raise InputError(f"cards: N must be an integer from 1 to {limit} for {mode} (got {cards!r})")


def solve(cards: int, exact: bool = False, objective: str = "amount", mapper: Mapper | None = None,
          checkpoint: Path | str | None = None, progress: Callable[[str], None] | None = None,
          backend: str = "auto") -> GoofspielSolution:
    """Solve N-card Goofspiel by dynamic programming over stored subgames, level by level.

    Parameters
    ----------
    cards : int
        N, the number of cards of each suit.
    exact : bool
        Rational values, every matrix game certified by exact best responses.
    objective : {"amount", "win"}
        Expected amount won (the paper's) or ``P(win) - P(loss)``.
    mapper : callable, optional
        ``mapper(fn, items)`` runs the work units of a level (serial by default; local processes or Dask
        as for the atlas).
    checkpoint : path, optional
        A folder: each finished level is saved there, and a run resumes from the last saved level.
    progress : callable, optional
        Called with one line per finished level.
    backend : {"auto", "numba", "numpy"}
        The floating-point round games: built and solved one by one in code compiled by Numba ("auto" when
        Numba imports), or built as arrays and solved by the vectorised NumPy simplex; the tables are
        bit-identical either way.

    Raises
    ------
    InputError
        For N out of range for the mode, an unknown objective, or a checkpoint from another N or objective.
    """
    check_cards(cards, objective, exact)
    import time

    levels = build_levels(cards, objective)
    total = cards * (cards + 1) // 2
    store = _Checkpoint(Path(checkpoint), cards, objective, exact) if checkpoint is not None else None
    tables: list[Any] = [_level_zero(objective, exact)]
    root: list = []                          # exact: the root's round games as solved (value, row strategy)
    games = saddles = 0
    start = 1
    mapper = mapper or _serial
    counts: list[tuple[int, int]] = []
    if store is not None:
        resumed = store.load(levels, mapper)
        if resumed is not None:
            tables, games, saddles, counts = resumed
            start = len(tables)
    for level in levels[start - 1:]:
        t0 = time.perf_counter()
        prev_reach = levels[level.m - 2].reach if level.m > 1 else 1
        if exact:
            table, g, s, kept = _exact_level(level, tables[-1], objective, prev_reach, total, mapper,
                                             keep=level.m == cards)
            if kept:
                root = [(_num(v, True), [_num(t, True) for t in p]) for v, p, _ in kept]
        else:
            table, g, s = _float_level(level, tables[-1], objective, prev_reach, mapper, total, backend)
        tables.append(table)
        games += g
        saddles += s
        counts.append((g, s))
        if store is not None:
            store.save(tables, counts)
        if progress is not None:
            progress(f"level {level.m}: {len(level.patterns)} patterns x {len(level.sets)} prize sets, "
                     f"{g} matrix games, {time.perf_counter() - t0:.1f} s")
    hand = tuple(range(1, cards + 1))
    probe = GoofspielSolution(cards, objective, exact, None, {}, 0, games, saddles, levels, tables)
    value = probe.subgame_value(hand, hand, hand)
    first = {}
    for k, c in enumerate(hand):
        p = root[k][1] if root else probe.strategies(hand, hand, hand, c)[1]
        first[c] = {bet: p[t] for t, bet in enumerate(hand)}
    states = sum(len(lv.patterns) * len(lv.sets) * (2 * lv.reach + 1 if objective == "win" else 1) for lv in levels)
    return GoofspielSolution(cards, objective, exact, value, first, states, games, saddles, levels, tables)


def _level_zero(objective: str, exact: bool) -> Any:
    if exact:
        from flint import fmpq

        return [[fmpq(0)]] if objective == "amount" else [[[fmpq(-1), fmpq(0), fmpq(1)]]]
    return np.zeros((1, 1)) if objective == "amount" else np.array([[[-1.0, 0.0, 1.0]]])


def _float_level(level: Level, prev: np.ndarray, objective: str, prev_reach: int, mapper: Mapper, total: int,
                 backend: str = "auto"):
    from ..engine.atlas import share

    m, s = level.m, len(level.sets)
    # written once for all of the level's work units (files or scattered data), not sent with each of them
    shared = share(mapper, prev, level.child_pattern, level.child_sign, level.compare)
    if objective == "amount":
        parts = _chunks(level, s * m ** 3)
        items: list[tuple] = [(*shared, c[0], c[-1] + 1, level.sets, level.child_set, backend) for c in parts]
        results = mapper(_amount_part, items)
    else:
        parts = _chunks(level, s * (2 * level.reach + 1) * m ** 3)
        items = [(*shared, c[0], c[-1] + 1, level.sets, level.child_set, level.reach, prev_reach, total, backend)
                 for c in parts]
        results = mapper(_win_part, items)
    table = np.concatenate([r[0] for r in results], axis=0)
    return table, sum(r[1] for r in results), sum(r[2] for r in results)


def _patterns(cp, cs, cm, start: int, stop: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Patterns ``start..stop - 1`` of the level's shared transition arrays."""
    from ..engine.atlas import shared_value

    def part(a: Any) -> np.ndarray:
        return np.asarray(shared_value(a)[int(start):int(stop)])

    return part(cp), part(cs), part(cm)


def _amount_part(prev, cp, cs, cm, start, stop, sets, child_set, backend: str = "auto"):
    """:func:`_amount_chunk` on a range of patterns of the level's shared arrays (one work unit)."""
    return _amount_chunk(*_patterns(cp, cs, cm, start, stop), sets, child_set, prev, backend)


def _win_part(prev, cp, cs, cm, start, stop, sets, child_set, reach, prev_reach, total, backend: str = "auto"):
    """:func:`_win_chunk` on a range of patterns of the level's shared arrays (one work unit)."""
    return _win_chunk(*_patterns(cp, cs, cm, start, stop), sets, child_set, prev, reach, prev_reach, total, backend)


class _Checkpoint:
    """One folder per run, in formats that cannot run code, checked before a run resumes from it.

    ``meta.json`` (game, checkpoint version, N, objective, arithmetic); one file per finished level,
    ``level_M.npy`` (float64, read with ``allow_pickle=False``) or ``level_M.json`` (exact: fractions as
    ``"p/q"`` strings); and ``state.json``, written last, with the number of finished levels, each
    level's matrix-game counts and the SHA-256 of each level file. Every file is written atomically, so a
    kill leaves the previous state. On load the meta must match the run, the state must be well formed,
    every level file must have its recorded hash and the level's shape, and the last level is recomputed
    from the one before it and must come out identical: a truncated, bit-flipped, foreign or forged
    checkpoint is a one-line :class:`~symgame.errors.StoreError`, never a wrong answer.
    """

    def __init__(self, folder: Path, cards: int, objective: str, exact: bool):
        self.folder, self.cards, self.objective, self.exact = folder, cards, objective, exact
        self.hashes: list[str] = []          # the SHA-256 of each saved level, as state.json records them
        self.meta: dict[str, Any] = {"game": "goofspiel", "version": CHECKPOINT_VERSION, "cards": cards,
                                     "objective": objective, "exact": exact}

    def _fail(self, what: str) -> StoreError:
        return StoreError(f"{self.folder}: {what}; use another folder or remove this one")

    def load(self, levels: list[Level], mapper: Mapper):
        from ..model.store import load_json, read_limited

        meta_path = self.folder / "meta.json"
        if not os.path.lexists(meta_path):
            return None
        meta = load_json(meta_path, limit=1 << 16)
        if not isinstance(meta, dict) or any(meta.get(k) != v for k, v in self.meta.items()):
            found = {k: meta.get(k) for k in self.meta} if isinstance(meta, dict) else meta
            raise StoreError(f"{meta_path}: checkpoint of another run ({found}), not {self.meta}; "
                             "use another folder or remove this one")
        state_path = self.folder / "state.json"
        if not os.path.lexists(state_path):
            return None
        state = load_json(state_path, limit=1 << 20)
        cards, exact, objective = self.cards, self.exact, self.objective
        done = state.get("levels") if isinstance(state, dict) else None
        if not (isinstance(done, int) and not isinstance(done, bool) and 0 <= done <= cards
                and _is_pairs(state.get("counts"), done) and _is_hexes(state.get("sha256"), done)):
            raise self._fail("state.json is not a checkpoint state (levels, counts, sha256)")
        tables: list[Any] = [_level_zero(objective, exact)]
        for m in range(1, done + 1):
            path = self.folder / f"level_{m}.{'json' if exact else 'npy'}"
            raw = read_limited(path)
            if hashlib.sha256(raw).hexdigest() != state["sha256"][m - 1]:
                raise self._fail(f"{path.name} does not have its recorded SHA-256 (truncated or changed)")
            table = _decode_level(raw, exact, _level_shape(levels[m - 1], objective))
            if table is None:
                raise self._fail(f"{path.name} is not level {m}'s table")
            tables.append(table)
        counts = [tuple(c) for c in state["counts"]]
        if done:
            m = done
            level = levels[m - 1]
            prev_reach = levels[m - 2].reach if m > 1 else 1
            total = cards * (cards + 1) // 2
            if exact:
                again, g, s, _ = _exact_level(level, tables[m - 1], objective, prev_reach, total, mapper)
                same = again == tables[m]
            else:
                again, g, s = _float_level(level, tables[m - 1], objective, prev_reach, mapper, total)
                same = again.shape == tables[m].shape and bool(np.array_equal(again, tables[m]))
            if not same or (g, s) != counts[m - 1]:
                raise self._fail(f"level {m} differs from its recomputation from level {m - 1} (corrupted or forged)")
        games = sum(c[0] for c in counts)
        saddles = sum(c[1] for c in counts)
        self.hashes = list(state["sha256"])
        return tables, games, saddles, counts

    def save(self, tables, counts) -> None:
        from ..model.store import write_atomic

        meta_path = self.folder / "meta.json"
        if not os.path.lexists(meta_path):
            write_atomic(meta_path, json.dumps(self.meta, sort_keys=True) + "\n")
        exact = self.exact
        m = len(tables) - 1
        raw = _encode_level(tables[m], exact)
        write_atomic(self.folder / f"level_{m}.{'json' if exact else 'npy'}", raw)
        self.hashes = self.hashes[:m - 1] + [hashlib.sha256(raw).hexdigest()]
        write_atomic(self.folder / "state.json", json.dumps({"levels": m, "counts": [list(c) for c in counts],
                                                            "sha256": self.hashes}, sort_keys=True) + "\n")


def _is_pairs(value: Any, n: int) -> bool:
    return isinstance(value, list) and len(value) == n and all(
        isinstance(c, list) and len(c) == 2 and all(isinstance(x, int) and not isinstance(x, bool) and x >= 0
                                                    for x in c) for c in value)


def _is_hexes(value: Any, n: int) -> bool:
    return isinstance(value, list) and len(value) == n and all(
        isinstance(h, str) and len(h) == 64 and all(c in "0123456789abcdef" for c in h) for h in value)


def _level_shape(level: Level, objective: str) -> tuple[int, ...]:
    shape = (len(level.patterns), len(level.sets))
    return shape if objective == "amount" else shape + (2 * level.reach + 1,)


def _encode_level(table: Any, exact: bool) -> bytes:
    if exact:
        def text(x: Any) -> Any:
            return [text(y) for y in x] if isinstance(x, list) else str(x)
        return (json.dumps(text(table), separators=(",", ":")) + "\n").encode()
    import io

    buffer = io.BytesIO()
    np.save(buffer, np.ascontiguousarray(table, dtype=np.float64), allow_pickle=False)
    return buffer.getvalue()


_FRACTION = re.compile(r"-?[0-9]{1,100000}(/[0-9]{1,100000})?")


def _decode_level(raw: bytes, exact: bool, shape: tuple[int, ...]) -> Any:
    """The table stored in ``raw`` if it has ``shape`` (and only numbers), else None."""
    if not exact:
        import io

        try:
            table = np.load(io.BytesIO(raw), allow_pickle=False)
        except (ValueError, OSError, EOFError):
            return None
        if table.dtype != np.float64 or table.shape != shape or not np.isfinite(table).all():
            return None
        return table
    from flint import fmpq

    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None

    def build(x: Any, depth: int) -> Any:
        if depth == len(shape):
            if not isinstance(x, str) or not _FRACTION.fullmatch(x):
                raise ValueError
            p, _, q = x.partition("/")
            if q and int(q) == 0:
                raise ValueError
            return fmpq(int(p), int(q or 1))
        if not isinstance(x, list) or len(x) != shape[depth]:
            raise ValueError
        return [build(y, depth + 1) for y in x]

    try:
        return build(data, 0)
    except ValueError:
        return None


# --------------------------------------------------------------------------- the whole game as a tree

def build_tree(v: Sequence[int], y: Sequence[int], p: Sequence[int], objective: str = "amount"):
    """The subgame ``(V, Y, P)`` as a two-player zero-sum game tree (for independent checks on small games).

    Each round: chance turns up one remaining prize (uniformly), player 1 bids, player 2 bids without
    seeing player 1's bid; both then see both bids. Information sets hold everything a player has seen.
    """
    from ..model.extensive import Chance, DecisionNode, ExtensiveGame, Terminal

    def node(v, y, p, seen: tuple, score: int):
        if not p:
            return Terminal(Fraction(score if objective == "amount" else (score > 0) - (score < 0)))
        branches = []
        for c in p:
            history = seen + (c,)
            rest = tuple(x for x in p if x != c)
            moves = []
            for a in v:
                replies = []
                for b in y:
                    cmp = (a > b) - (a < b)
                    later = node(tuple(t for t in v if t != a), tuple(t for t in y if t != b), rest,
                                 history + (a, b), score + c * cmp)
                    replies.append((str(b), later))
                moves.append((str(a), DecisionNode(1, f"2:{history}", tuple(replies))))
            branches.append((Fraction(1, len(p)), DecisionNode(0, f"1:{history}", tuple(moves))))
        return Chance(tuple(branches))

    root = node(tuple(v), tuple(y), tuple(p), (), 0)
    return ExtensiveGame(f"goofspiel_{len(p)}", ("1", "2"), root, "Goofspiel subgame from the rules")


# --------------------------------------------------------------------------- playing and comparing strategies

def play(solution: GoofspielSolution, lines: Iterable[str], say: Callable[[str], None], seed: int = 0,
         games: int = 1) -> list[int]:
    """Play ``games`` games against ``solution``'s optimal strategy: the human is player 1 and bids by
    typing a card of their hand (one per line); symgame samples its bid from its optimal mixed strategy.
    Returns the human's final score differences. Bad lines are answered in one line and asked again."""
    import random

    rng = random.Random(seed)
    source = iter(lines)
    n = solution.cards
    results: list[int] = []
    say(f"Goofspiel with {n} cards ({solution.objective} objective): bid one card of your hand each round.")
    for game in range(games):
        prizes = list(range(1, n + 1))
        rng.shuffle(prizes)
        mine, theirs, left, d = list(range(1, n + 1)), list(range(1, n + 1)), sorted(prizes), 0
        for upcard in prizes:
            say(f"game {game + 1}, upcard {upcard}; your hand {' '.join(map(str, mine))}; score {d:+d}; your bid?")
            while True:
                try:
                    line = next(source)
                except StopIteration:
                    say("no more input: game abandoned")
                    return results
                text = line.strip()
                if text.isdigit() and int(text) in mine:
                    bid = int(text)
                    break
                say(f"not a card of your hand: {text!r}; bid one of {' '.join(map(str, mine))}")
            _, _, column = solution.strategies(mine, theirs, left, upcard, d)
            reply = rng.choices(sorted(theirs), weights=[float(p) for p in column])[0]
            change = upcard * ((bid > reply) - (bid < reply))
            d += change
            mine.remove(bid)
            theirs.remove(reply)
            left.remove(upcard)
            say(f"  you bid {bid}, symgame bid {reply}: " + ("you win" if change > 0 else "symgame wins"
                if change < 0 else "tie, nobody wins") + f" {upcard if change else ''}".rstrip())
        say(f"game {game + 1} over: you {'won' if d > 0 else 'lost' if d < 0 else 'tied'} ({d:+d})")
        results.append(d)
    return results


@dataclass(frozen=True)
class Outcome:
    """Player 1's probabilities of winning, tying and losing and expected amount won, for one pair of
    strategies (``against`` names player 2's)."""

    player1: str
    player2: str
    win: Any
    tie: Any
    loss: Any
    amount: Any


def evaluate(player1: GoofspielSolution, player2: GoofspielSolution | None, criterion: str = "win",
             cards: int | None = None) -> Outcome:
    """Play ``player1``'s optimal strategy (as player 1) against ``player2``'s (as player 2) or, with
    ``player2=None``, against player 2's best response for ``criterion`` ("win": minimise ``P(win) -
    P(loss)``; "amount": minimise the amount won). Exact when the solutions are. The strategies are the
    ones :meth:`GoofspielSolution.strategies` returns (one optimal strategy where several exist)."""
    n = cards or player1.cards
    exact = player1.exact and (player2 is None or player2.exact)
    one: Any = Fraction(1) if exact else 1.0
    memo: dict = {}
    cache1: dict = {}
    cache2: dict = {}

    def mixed(sol, cache, key, args, which):
        if key not in cache:
            cache[key] = sol.strategies(*args)[which]
        return cache[key]

    def value(v, y, p, d):
        if not p:
            return (one * (d > 0), one * (d == 0), one * (d < 0), one * d)
        key = (v, y, p, d)
        if key in memo:
            return memo[key]
        total = [0 * one] * 4
        for c in p:
            rest = tuple(t for t in p if t != c)
            k1 = (v, y, p, c, d if player1.objective == "win" else 0)
            x = mixed(player1, cache1, k1, (v, y, p, c, d), 1)
            children = [[value(tuple(t for t in v if t != a), tuple(t for t in y if t != b), rest,
                               d + c * ((a > b) - (a < b))) for b in y] for a in v]
            mixed_rows = [[sum((x[i] * children[i][j][k] for i in range(len(v))), 0 * one) for k in range(4)]
                          for j in range(len(y))]
            if player2 is None:
                score = (lambda o: o[0] - o[2]) if criterion == "win" else (lambda o: o[3])
                best = min(range(len(y)), key=lambda j: (score(mixed_rows[j]), j))
                got = mixed_rows[best]
            else:
                k2 = (v, y, p, c, d if player2.objective == "win" else 0)
                q = mixed(player2, cache2, k2, (v, y, p, c, d), 2)
                got = [sum((q[j] * mixed_rows[j][k] for j in range(len(y))), 0 * one) for k in range(4)]
            total = [t + g for t, g in zip(total, got)]
        out = tuple(t / len(p) for t in total)
        memo[key] = out
        return out

    hand = tuple(range(1, n + 1))
    w, t, lo, amt = value(hand, hand, hand, 0)
    name2 = f"{player2.objective}-optimal" if player2 is not None else f"best response ({criterion})"
    return Outcome(f"{player1.objective}-optimal", name2, w, t, lo, amt)
