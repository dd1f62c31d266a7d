"""Buck et al. (2022), section 4 and Appendix C: 1 v N coalition games and m v k team games on a mesh."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from symgame.errors import InputError, LimitError
from symgame.games.guts import alpha_numeric, beta_numeric, mesh_alpha_beta

if TYPE_CHECKING:      # annotations only: the module loads python-flint
    from symgame.verify.recursive import ForcingBound

# --------------------------------------------------------------------------- 1 v N coalitions

MAX_FULL_COLUMNS = 250_000
_CHUNK = 20_000


@dataclass(frozen=True)
class CoalitionGame:
    """Player 1 against N opponents acting as one, thresholds on the mesh 0, 1/(M-1), ..., 1.

    Each column is a pure strategy of the coalition: the mesh indices of
    players 2..N+1.  Pseudo-bloc columns are ``(s, q, ..., q)`` (``s = q``:
    bloc); the full game takes every multiset of N indices (the players of
    the coalition are interchangeable, so order does not matter).
    """

    opponents: int
    mesh: int
    weenie: bool
    columns: tuple[tuple[int, ...], ...]
    A: np.ndarray
    B: np.ndarray

    def threshold(self, k: int) -> float:
        return k / (self.mesh - 1)


def _coalition_matrices(opponents: int, mesh: int, weenie: bool, columns: np.ndarray):
    grid = np.linspace(0.0, 1.0, mesh)
    p1 = grid[:, None]
    A = np.empty((mesh, len(columns)))
    B = np.empty((mesh, len(columns)))
    for start in range(0, len(columns), _CHUNK):
        block = columns[start:start + _CHUNK]
        groups = [(grid[block[:, k]][None, :], 1) for k in range(block.shape[1])]
        A[:, start:start + len(block)] = alpha_numeric(p1, groups, weenie)
        B[:, start:start + len(block)] = beta_numeric(p1, groups, weenie)
    return A, B


def pseudo_bloc_game(opponents: int, mesh: int, weenie: bool = False, bloc_only: bool = False) -> CoalitionGame:
    """The 1 v N pseudo-bloc game matrices (α, β), vectorised over the whole mesh."""
    if opponents == 1 or bloc_only:
        pairs = [(k, k) for k in range(mesh)]
    else:
        pairs = [(s, q) for s in range(mesh) for q in range(mesh)]
    columns = tuple((s,) + (q,) * (opponents - 1) for s, q in pairs)
    A, B = _pseudo_bloc_matrices(opponents, mesh, weenie, np.array([p[0] for p in pairs]),
                                 np.array([p[1] for p in pairs]))
    return CoalitionGame(opponents, mesh, weenie, columns, A, B)


def _pseudo_bloc_matrices(opponents, mesh, weenie, s_idx, q_idx):
    grid = np.linspace(0.0, 1.0, mesh)
    p1 = grid[:, None]
    groups = [(grid[s_idx][None, :], 1)]
    if opponents > 1:
        groups.append((grid[q_idx][None, :], opponents - 1))
    return np.asarray(alpha_numeric(p1, groups, weenie)), np.asarray(beta_numeric(p1, groups, weenie))


DENSE_PSEUDO_BLOC_MESH = 201


class LazyCoalitionGame:
    """A 1 v N recursive game whose many coalition columns are priced lazily (no matrix is stored).

    Duck-types :class:`symgame.numeric.recursive.RecursiveGame` for
    :func:`~symgame.numeric.recursive.forced_value`: ``columns`` builds the
    few columns column generation keeps, ``row_mix`` prices every column
    against player 1's strategy on its support rows only (a handful of the M
    rows), so 10^6 columns need a few 10^6-entry evaluations per value-map
    step instead of a 10^9-entry matrix.  Subclasses say which thresholds a
    column number stands for.
    """

    pseudo_bloc = False

    def __init__(self, opponents: int, mesh: int, weenie: bool = False, block: int = 200_000):
        self.opponents, self.mesh, self.weenie, self.block = opponents, mesh, weenie, block
        self.grid = np.linspace(0.0, 1.0, mesh)

    @property
    def shape(self) -> tuple[int, int]:
        raise NotImplementedError

    def column_thresholds(self, j: int) -> tuple[int, ...]:
        """Mesh indices of players 2..N+1 in column ``j``."""
        raise NotImplementedError

    def _groups(self, cols: np.ndarray) -> list[tuple[np.ndarray, int]]:
        """The opponents' thresholds of columns ``cols`` as (row vector, multiplicity) groups."""
        raise NotImplementedError

    def _bloc_columns(self) -> list[int]:
        raise NotImplementedError

    def _alpha_beta(self, rows: np.ndarray, cols: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        p1 = self.grid[rows][:, None]
        groups = self._groups(np.asarray(cols))
        return np.asarray(alpha_numeric(p1, groups, self.weenie)), np.asarray(beta_numeric(p1, groups, self.weenie))

    def initial_columns(self, V: float, count: int) -> list[int]:
        """Bloc columns on a coarse sub-mesh: where column generation starts (pricing all rows would cost M^3)."""
        blocs = self._bloc_columns()
        return blocs[::max(1, self.mesh // 20)]

    def columns(self, V: float, cols: np.ndarray) -> np.ndarray:
        A, B = self._alpha_beta(np.arange(self.mesh), np.asarray(cols))
        return A + B * V

    def row_mix(self, V: float, x: np.ndarray) -> np.ndarray:
        support = np.nonzero(x > 0)[0]
        out = np.empty(self.shape[1])
        for start in range(0, self.shape[1], self.block):
            cols = np.arange(start, min(start + self.block, self.shape[1]))
            A, B = self._alpha_beta(support, cols)
            out[start:start + len(cols)] = x[support] @ (A + B * V)
        return out

    def stakes(self, x: np.ndarray, cols: np.ndarray, y: np.ndarray) -> float:
        _, B = self._alpha_beta(np.arange(self.mesh), np.asarray(cols))
        return float(x @ B @ y)

    def value_map(self, V: float, warm=()):
        from symgame.numeric.recursive import solve_by_columns

        return solve_by_columns(self, V, warm=warm)


class LazyPseudoBlocGame(LazyCoalitionGame):
    """The pseudo-bloc game: columns ``(s, q, ..., q)`` numbered ``s·M + q`` (M = 1001: 10^6 columns)."""

    pseudo_bloc = True

    def __init__(self, opponents: int, mesh: int, weenie: bool = False, block: int = 200_000):
        if opponents < 2:
            raise InputError("the lazy pseudo-bloc game needs N >= 2 (N = 1 has only M columns)")
        super().__init__(opponents, mesh, weenie, block)

    @property
    def shape(self) -> tuple[int, int]:
        return self.mesh, self.mesh * self.mesh

    def column_thresholds(self, j: int) -> tuple[int, ...]:
        s, q = divmod(int(j), self.mesh)
        return (s,) + (q,) * (self.opponents - 1)

    def _groups(self, cols: np.ndarray) -> list[tuple[np.ndarray, int]]:
        s, q = np.divmod(cols, self.mesh)
        return [(self.grid[s][None, :], 1), (self.grid[q][None, :], self.opponents - 1)]

    def _bloc_columns(self) -> list[int]:
        return [k * self.mesh + k for k in range(self.mesh)]


class LazyFullCoalitionGame(LazyCoalitionGame):
    """The full (non-bloc) game: every multiset of N mesh indices, numbered in lexicographic order."""

    def __init__(self, opponents: int, mesh: int, weenie: bool = False, block: int = 200_000):
        super().__init__(opponents, mesh, weenie, block)
        from itertools import combinations_with_replacement

        self.table = np.array(list(combinations_with_replacement(range(mesh), opponents)), dtype=np.int16)

    @property
    def shape(self) -> tuple[int, int]:
        return self.mesh, len(self.table)

    def column_thresholds(self, j: int) -> tuple[int, ...]:
        return tuple(int(k) for k in self.table[int(j)])

    def _groups(self, cols: np.ndarray) -> list[tuple[np.ndarray, int]]:
        chosen = self.table[cols]
        return [(self.grid[chosen[:, k]][None, :], 1) for k in range(self.opponents)]

    def _bloc_columns(self) -> list[int]:
        return [int(j) for j in np.nonzero(self.table.min(axis=1) == self.table.max(axis=1))[0]]


def solve_fine_pseudo_bloc(opponents: int, mesh: int, weenie: bool = False) -> "CoalitionResult":
    """Both fixed points of the pseudo-bloc game on a fine mesh, lazily priced; the coalition's side certified."""
    return solve_lazy(LazyPseudoBlocGame(opponents, mesh, weenie))


def solve_lazy(game: LazyCoalitionGame, certify_coalition: bool = True) -> "CoalitionResult":
    """Both fixed points of a lazily priced coalition game.

    With ``certify_coalition`` the coalition's strategy is certified exactly
    (Theorem 1.2 from +1, against each of the M rows: cheap); player 1's side
    would need every column in rational arithmetic and is left numeric
    (``certified_lower`` is ``None``).
    """
    from symgame.numeric.recursive import forced_value
    from symgame.verify.recursive import certify_upper, rational_strategy

    low = forced_value(game, 1.0, "row")
    high = forced_value(game, 1.0, "col")
    step = game.mesh - 1
    upper = None
    if certify_coalition:
        y = rational_strategy(high.col)
        labels = {k: game.column_thresholds(high.cols[k]) for k in y}

        def entry(i: int, k: int):
            return mesh_alpha_beta(i, labels[k], game.mesh, game.weenie)

        upper = certify_upper(y, range(game.mesh), entry, Fraction(1))
    coalition = [(tuple(round(k / step, 12) for k in game.column_thresholds(j)), float(w))
                 for j, w in zip(high.cols, high.col) if w > 1e-9]
    return CoalitionResult(game.opponents, game.mesh, game.weenie, game.pseudo_bloc, low.value, high.value,
                           {round(k / step, 12): float(w) for k, w in enumerate(low.row) if w > 1e-9},
                           sorted(coalition, key=lambda c: -c[1]), None, upper, len(low.iterates) - 1)


def full_coalition_game(opponents: int, mesh: int, weenie: bool = False) -> CoalitionGame:
    """The full (non-bloc) 1 v N game: every multiset of N mesh thresholds is a coalition column."""
    from itertools import combinations_with_replacement
    from math import comb

    count = comb(mesh + opponents - 1, opponents)
    if count > MAX_FULL_COLUMNS:
        raise LimitError(f"the full 1 v {opponents} game on {mesh} mesh points has {count} coalition "
                         f"strategies (more than {MAX_FULL_COLUMNS} are not stored); restrict the coalition to "
                         "pseudo-bloc strategies, take a smaller mesh, or price the game lazily (LazyFullCoalitionGame)")
    columns = np.array(list(combinations_with_replacement(range(mesh), opponents)), dtype=int)
    A, B = _coalition_matrices(opponents, mesh, weenie, columns)
    return CoalitionGame(opponents, mesh, weenie, tuple(map(tuple, columns.tolist())), A, B)


@dataclass(frozen=True)
class CoalitionResult:
    """Player 1 against an N-player coalition on a mesh: values, strategies and exact bounds."""

    opponents: int
    mesh: int
    weenie: bool
    pseudo_bloc: bool
    player1_value: float            # value forced by player 1 from the fee -1 (least fixed point)
    coalition_side_value: float     # value the coalition holds player 1 to from +1 (greatest fixed point)
    player1_strategy: dict[float, float]
    coalition_strategy: list[tuple[tuple[float, ...], float]]
    certified_lower: ForcingBound | None
    certified_upper: ForcingBound | None
    newton_steps: int


def solve_coalition(opponents: int, mesh: int, weenie: bool = False, pseudo_bloc: bool = True,
                    certify: bool = True) -> CoalitionResult:
    """Fixed points of the value map from both fees (column generation), certified exactly (Theorem 1.2)."""
    from functools import lru_cache

    from symgame.numeric.recursive import RecursiveGame, forced_value
    from symgame.verify.recursive import certify_lower, certify_upper, rational_strategy

    game = pseudo_bloc_game(opponents, mesh, weenie) if pseudo_bloc else full_coalition_game(opponents, mesh, weenie)
    recursive = RecursiveGame(game.A, game.B)
    low = forced_value(recursive, 1.0, "row")
    high = forced_value(recursive, 1.0, "col")

    @lru_cache(maxsize=None)
    def entry(i: int, j: int):
        return mesh_alpha_beta(i, game.columns[j], mesh, weenie)

    lower = upper = None
    if certify:
        lower = certify_lower(rational_strategy(low.row), range(len(game.columns)), entry, Fraction(1))
        upper = certify_upper(rational_strategy(high.dense_col(len(game.columns))), range(mesh), entry, Fraction(1))
    coalition = [(tuple(round(k / (mesh - 1), 12) for k in game.columns[j]), float(w))
                 for j, w in zip(high.cols, high.col) if w > 1e-9]
    return CoalitionResult(opponents, mesh, weenie, pseudo_bloc, low.value, high.value,
                           {round(k / (mesh - 1), 12): float(w) for k, w in enumerate(low.row) if w > 1e-9},
                           sorted(coalition, key=lambda c: -c[1]), lower, upper, len(low.iterates) - 1)


# --------------------------------------------------------------------------- m v k teams

MAX_TEAM_STRATEGIES = 6_000


@dataclass(frozen=True)
class TeamGame:
    """A team of ``team`` players (rows) against a team of ``opponents`` (columns), section 5's m v n case.

    A pure strategy of a team is a multiset of mesh indices (members are
    interchangeable); the payoff is the row team's total α (the sum of its
    members' one-round payoffs, so the column team gets its negative) and
    the common stakes multiplier β.
    """

    team: int
    opponents: int
    mesh: int
    weenie: bool
    rows: tuple[tuple[int, ...], ...]
    columns: tuple[tuple[int, ...], ...]
    A: np.ndarray
    B: np.ndarray


def _multisets(size: int, mesh: int) -> np.ndarray:
    from itertools import combinations_with_replacement

    return np.array(list(combinations_with_replacement(range(mesh), size)), dtype=int).reshape(-1, size)


def _team_matrices(rows: np.ndarray, cols: np.ndarray, mesh: int, weenie: bool) -> tuple[np.ndarray, np.ndarray]:
    """Row team's total α and the stakes β for every pair (row multiset, column multiset)."""
    grid = np.linspace(0.0, 1.0, mesh)
    mine = [grid[rows[:, i]][:, None] for i in range(rows.shape[1])]
    theirs = [(grid[cols[:, j]][None, :], 1) for j in range(cols.shape[1])]
    A = sum(np.asarray(alpha_numeric(p, [(q, 1) for k, q in enumerate(mine) if k != i] + theirs, weenie))
            for i, p in enumerate(mine))
    B = np.asarray(beta_numeric(mine[0], [(q, 1) for q in mine[1:]] + theirs, weenie))
    return np.broadcast_to(A, (len(rows), len(cols))).copy(), np.broadcast_to(B, (len(rows), len(cols))).copy()


def team_game(team: int, opponents: int, mesh: int, weenie: bool = False) -> TeamGame:
    """The m v k team game on the mesh 0, 1/(M-1), ..., 1 (every multiset of thresholds on both sides)."""
    rows, cols = _multisets(team, mesh), _multisets(opponents, mesh)
    if max(len(rows), len(cols)) > MAX_TEAM_STRATEGIES:
        raise InputError(f"the {team} v {opponents} game on {mesh} mesh points has {len(rows)} x {len(cols)} team "
                         f"strategies (more than {MAX_TEAM_STRATEGIES} per side); use a smaller mesh")
    A, B = np.empty((len(rows), len(cols))), np.empty((len(rows), len(cols)))
    for start in range(0, len(rows), 256):
        block = slice(start, start + 256)
        A[block], B[block] = _team_matrices(rows[block], cols, mesh, weenie)
    return TeamGame(team, opponents, mesh, weenie, tuple(map(tuple, rows.tolist())),
                    tuple(map(tuple, cols.tolist())), A, B)


@dataclass(frozen=True)
class TeamResult:
    """Both fixed points of a team game, each side's optimal mix (thresholds, weight) and exact brackets."""

    team: int
    opponents: int
    mesh: int
    weenie: bool
    lower_value: float              # forced by the row team from the fee -team
    upper_value: float              # the column team holds the row team to this from +opponents
    row_strategy: list[tuple[tuple[float, ...], float]]
    column_strategy: list[tuple[tuple[float, ...], float]]
    certified_lower: ForcingBound | None
    certified_upper: ForcingBound | None


def solve_team_game(team: int, opponents: int, mesh: int, weenie: bool = False, certify: bool = True) -> TeamResult:
    """Fixed points of T(V) = Value(A + BV) for the team game, certified by Theorem 1.2 on both sides."""
    return solve_team(team_game(team, opponents, mesh, weenie), certify)


def solve_team(game: TeamGame, certify: bool = True) -> TeamResult:
    """Both fixed points of a built team game (fees ``-team`` and ``+opponents``) and their certificates."""
    from symgame.numeric.recursive import RecursiveGame, forced_value
    from symgame.verify.recursive import certify_lower, certify_upper, rational_strategy

    recursive = RecursiveGame(game.A, game.B)
    low = forced_value(recursive, float(game.team), "row")
    high = forced_value(recursive, float(game.opponents), "col")

    def entry(i: int, j: int) -> tuple[Fraction, Fraction]:
        """The row team's exact total α and the common β."""
        row, col = game.rows[i], game.columns[j]
        members = [mesh_alpha_beta(own, row[:k] + row[k + 1:] + col, game.mesh, game.weenie)
                   for k, own in enumerate(row)]
        return sum(a for a, _ in members), members[0][1]

    lower = upper = None
    if certify:
        lower = certify_lower(rational_strategy(low.row), range(len(game.columns)), entry, Fraction(game.team))
        upper = certify_upper(rational_strategy(high.dense_col(len(game.columns))), range(len(game.rows)), entry,
                              Fraction(game.opponents))

    def mix(labels, weights, indices):
        out = [(tuple(round(k / (game.mesh - 1), 12) for k in labels[i]), float(w))
               for i, w in zip(indices, weights) if w > 1e-9]
        return sorted(out, key=lambda c: -c[1])

    return TeamResult(game.team, game.opponents, game.mesh, game.weenie, low.value, high.value,
                      mix(game.rows, low.row, range(len(game.rows))), mix(game.columns, high.col, high.cols),
                      lower, upper)


@dataclass(frozen=True)
class PureTeamValue:
    """What a team forces with one fixed pure strategy: the least fixed point of V = min_j (α_j + β_j V)."""

    value: float
    reply: tuple[float, ...]        # the column team's best reply at the fixed point


def pure_team_value(team: int, opponents: int, mesh: int, row: tuple[int, ...], weenie: bool = False,
                    steps: int = 10_000) -> PureTeamValue:
    """Iterate ``V -> min_j (A_ij + B_ij V)`` from the fee ``-team`` for the fixed row ``row`` (eq. 1.4)."""
    cols = _multisets(opponents, mesh)
    A, B = _team_matrices(np.array([row]), cols, mesh, weenie)
    V = -float(team)
    for _ in range(steps):
        nxt = float(np.min(A[0] + B[0] * V))
        if abs(nxt - V) < 1e-13:
            break
        V = nxt
    j = int(np.argmin(A[0] + B[0] * V))
    return PureTeamValue(V, tuple(round(k / (mesh - 1), 12) for k in cols[j]))


