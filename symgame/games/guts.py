"""Continuous Guts poker (Buck, Lee, Platnick, Wheeler, Zumbrun,
"Continuous guts poker and numerical optimization of generalized recursive games", arXiv:2208.02788, 2022,
sections 3-4 and Appendix B; the game was introduced by Castronova, Chen, Zumbrun, "Game-theoretic analysis of
Guts Poker", arXiv:2108.06556, 2021).

Each of ``n`` players receives a hand uniform on [0, 1] and holds when the
hand exceeds her threshold ``p_j`` (drops otherwise).  Accounting as in
section 3 (antes paid on termination): with ``r`` holders the best holder
wins ``+n``, the other holders pay ``-n``, and for ``r >= 2`` the stakes
are multiplied by ``r - 1`` while every player receives the virtual ante
``r - 2``; a lone holder wins ``n - 1`` and each dropper pays 1 (the game
ends); if nobody holds the round is replayed.  Under the Weenie rule
(Appendix B) the best hand among all-droppers matches the pot: it pays
``n``, the stakes double and every player receives the virtual ante 1.

Summing over the holder sets gives closed forms with the one integral

    W = ∫_{p1}^{1} Π_{j≠1} max(p_j, u) du  -  (1 - p1) Π_{j≠1} p_j,

    α = Σ_j (1 - p_j) - 2 + 2 Π_j p_j + 2 n W - n (1 - p1) + 2 n (1 - p1) Π_{j≠1} p_j,
    β = Σ_j (1 - p_j) - 1 + 2 Π_j p_j,

and, under the Weenie rule, ``α_W = α + Π_j p_j - n ∫_0^{p1} Π_{j≠1} min(p_j, u) du``
and ``β_W = β + Π_j p_j``.  The integrands are ``c · u^k`` between
consecutive thresholds, so α costs O(n log n) per profile instead of the
Θ(n 3^n) of the paper's section 4.1 algorithm.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Sequence

import numpy as np
import sympy as sp

from ..errors import LimitError
from ..references import cite

if TYPE_CHECKING:      # annotations only: these modules load z3 and python-flint
    from ..model.decide import Decision
    from ..verify.positivity import LocalLemma, PositivityCertificate
    from ..verify.recursive import ForcingBound

SOURCE = (cite("buck2022", "sections 1-4 and Appendices B-D") + "; the game: "
          + cite("castronova2021"))


# --------------------------------------------------------------------------- exact, for a known ordering

def _piecewise_integral(lower: sp.Expr, upper: sp.Expr, others: Sequence[sp.Expr], ordered: Sequence[sp.Expr],
                        kind: str) -> sp.Expr:
    """∫_lower^upper Π_j max(others_j, u) du (``kind="max"``) or Π_j min(others_j, u) du (``"min"``).

    ``ordered`` lists every threshold involved (``lower`` and ``upper``
    included when they are thresholds) in increasing order; the integral is
    split at the thresholds that lie between ``lower`` and ``upper``.
    """
    u = sp.Symbol("u", real=True)
    inside = [t for t in ordered if t not in (lower, upper)]
    lo_pos = ordered.index(lower) if lower in ordered else -1
    hi_pos = ordered.index(upper) if upper in ordered else len(ordered)
    cuts = [lower] + [t for t in inside if lo_pos < ordered.index(t) < hi_pos] + [upper]
    rank = {t: k for k, t in enumerate(ordered)}
    total = sp.Integer(0)
    for a, b in zip(cuts, cuts[1:]):
        pos = rank.get(a, -1)
        factor = sp.Integer(1)
        for s in others:
            below = (rank[s] <= pos) if s in rank else False
            if kind == "max":
                factor *= u if below else s
            else:
                factor *= s if below else u
        total += sp.integrate(factor, (u, a, b))
    return sp.expand(total)


def alpha_exact(p: Sequence[sp.Expr], order: Sequence[int], weenie: bool = False) -> sp.Expr:
    """Player 1's immediate return α for thresholds ``p`` whose increasing order is ``order``.

    ``order`` lists indices into ``p`` from the smallest threshold to the
    largest (ties excluded); ``p[0]`` is player 1.
    """
    n = len(p)
    ordered = [p[k] for k in order]
    p1, others = p[0], list(p[1:])
    rest = sp.Mul(*others)
    W = _piecewise_integral(p1, sp.Integer(1), others, ordered, "max") - (1 - p1) * rest
    alpha = sum(1 - x for x in p) - 2 + 2 * sp.Mul(*p) + 2 * n * W - n * (1 - p1) + 2 * n * (1 - p1) * rest
    if weenie:
        L = _piecewise_integral(sp.Integer(0), p1, others, ordered, "min")
        alpha += sp.Mul(*p) - n * L
    return sp.expand(alpha)


def beta_exact(p: Sequence[sp.Expr], weenie: bool = False) -> sp.Expr:
    """The expected stakes multiplier β (``weenie``: the all-drop round doubles the stakes)."""
    beta = sum(1 - x for x in p) - 1 + 2 * sp.Mul(*p)
    return sp.expand(beta + (sp.Mul(*p) if weenie else 0))


# --------------------------------------------------------------------------- the printed propositions

def printed_alpha(n: int, weenie: bool = False) -> dict[tuple[int, ...], sp.Expr]:
    """Propositions 3.1, 3.2 (standard) and B.2, B.3 (Weenie) as printed, by ordering of the thresholds."""
    p1, p2, p3 = sp.symbols("p1 p2 p3", real=True)
    if n == 2 and not weenie:
        return {(1, 0): (1 - 2 * p1) * (p1 - p2), (0, 1): (1 - 2 * p2) * (p1 - p2)}
    if n == 2:
        return {(1, 0): (1 - 2 * p1 - p2) * (p1 - p2), (0, 1): (1 - 2 * p2 - p1) * (p1 - p2)}
    if not weenie:
        return {
            (0, 1, 2): 2 * p1 - p2 - p3 + p3**3 + 3 * p2**2 * p3 - 4 * p1 * p2 * p3,
            (0, 2, 1): 2 * p1 - p3 - p2 + p2**3 + 3 * p3**2 * p2 - 4 * p1 * p2 * p3,
            (1, 0, 2): 2 * p1 - p2 - p3 + p3**3 - 3 * p1**2 * p3 + 2 * p1 * p2 * p3,
            (2, 0, 1): 2 * p1 - p2 - p3 + p2**3 - 3 * p1**2 * p2 + 2 * p1 * p2 * p3,
            (1, 2, 0): 2 * p1 - p2 - p3 - 2 * p1**3 + 2 * p1 * p2 * p3,
            (2, 1, 0): 2 * p1 - p2 - p3 - 2 * p1**3 + 2 * p1 * p2 * p3,
        }
    R = sp.Rational
    return {
        (0, 1, 2): 2 * p1 - p2 - p3 + p3**3 - p1**3 + 3 * p2**2 * p3 - 3 * p1 * p2 * p3,
        (0, 2, 1): 2 * p1 - p2 - p3 + p2**3 - p1**3 + 3 * p3**2 * p2 - 3 * p1 * p2 * p3,
        (1, 0, 2): 2 * p1 - p2 - p3 + p2**3 * R(1, 2) + p3**3 - 3 * p1**2 * p2 * R(1, 2) - 3 * p1**2 * p3
        + 3 * p1 * p2 * p3,
        (2, 0, 1): 2 * p1 - p3 - p2 + p3**3 * R(1, 2) + p2**3 - 3 * p1**2 * p3 * R(1, 2) - 3 * p1**2 * p2
        + 3 * p1 * p2 * p3,
        (1, 2, 0): 2 * p1 - p3 - p2 - 2 * p1**3 + p2**3 * R(1, 2) + 3 * p2 * p3**2 * R(1, 2),
        (2, 1, 0): 2 * p1 - p3 - p3 - 2 * p1**3 + p3**3 * R(1, 2) + 3 * p3 * p2**2 * R(1, 2),
    }


def printed_beta(n: int) -> sp.Expr:
    p1, p2, p3 = sp.symbols("p1 p2 p3", real=True)
    if n == 2:
        return p1 * p2 + (1 - p1) * (1 - p2)
    return 2 - p1 - p2 - p3 + 2 * p1 * p2 * p3


@dataclass(frozen=True)
class PropositionCheck:
    """The derived α (or β) against a printed formula on one ordering of the thresholds."""

    proposition: str
    ordering: str
    printed: sp.Expr
    derived: sp.Expr

    @property
    def agrees(self) -> bool:
        return sp.expand(self.printed - self.derived) == 0


def check_propositions() -> list[PropositionCheck]:
    """Propositions 3.1, 3.2, B.2 and B.3 against the closed forms derived from the rules."""
    out = []
    for n, weenie, name in ((2, False, "3.1"), (3, False, "3.2"), (2, True, "B.2"), (3, True, "B.3")):
        p = sp.symbols(" ".join(f"p{k + 1}" for k in range(n)), real=True)
        for order, printed in printed_alpha(n, weenie).items():
            text = " < ".join(f"p{k + 1}" for k in order)
            out.append(PropositionCheck(f"{name} (alpha)", text, sp.expand(printed), alpha_exact(p, order, weenie)))
        out.append(PropositionCheck(f"{name} (beta)", "all", sp.expand(printed_beta(n)), beta_exact(p, weenie)))
    return out


# --------------------------------------------------------------------------- symmetric equilibria

@dataclass(frozen=True)
class SymmetricEquilibrium:
    """The symmetric threshold derived for every n from the bloc payoff (n a symbol)."""

    weenie: bool
    threshold: sp.Expr
    slope_below: sp.Expr
    slope_above: sp.Expr
    curvature_above: sp.Expr


def bloc_alpha(n: sp.Expr, p1: sp.Expr, p: sp.Expr, weenie: bool) -> tuple[sp.Expr, sp.Expr]:
    """α(p1; p, ..., p) for ``p1 <= p`` and for ``p1 >= p``, with ``n`` symbolic."""
    u = sp.Symbol("u", positive=True)
    rest = p ** (n - 1)
    q_sum = (1 - p1) + (n - 1) * (1 - p)
    common = q_sum - 2 + 2 * p1 * rest - n * (1 - p1) + 2 * n * (1 - p1) * rest
    W_below = rest * (p - p1) + sp.integrate(u ** (n - 1), (u, p, 1), conds="none") - (1 - p1) * rest
    W_above = sp.integrate(u ** (n - 1), (u, p1, 1), conds="none") - (1 - p1) * rest
    below, above = common + 2 * n * W_below, common + 2 * n * W_above
    if weenie:
        L_below = sp.integrate(u ** (n - 1), (u, 0, p1), conds="none")
        L_above = sp.integrate(u ** (n - 1), (u, 0, p), conds="none") + rest * (p1 - p)
        below += p1 * rest - n * L_below
        above += p1 * rest - n * L_above
    return sp.simplify(below), sp.simplify(above)


def symmetric_equilibrium(weenie: bool = False) -> SymmetricEquilibrium:
    """Solve the first-order condition ∂α/∂p1 = 0 at p1 = p for every n >= 2 (n symbolic).

    A symmetric equilibrium needs player 1's best response to others at
    ``p`` to be ``p``: the slope of α in ``p1`` on each side of ``p`` must
    vanish at ``p1 = p`` (α is concave above ``p``).
    """
    n = sp.Symbol("n", integer=True, positive=True)
    p1, p = sp.symbols("p1 p", positive=True)
    below, above = bloc_alpha(n, p1, p, weenie)
    slope = sp.expand(sp.diff(above, p1).subs(p1, p))
    # the condition is affine in z = p^(n-1): solve for that power
    z = sp.Symbol("z", positive=True)
    root = sp.solve(sp.expand(slope.subs(p ** n, z * p)), z)
    threshold = sp.simplify(root[0] ** (1 / (n - 1)))
    return SymmetricEquilibrium(weenie, threshold,
                                _powers(sp.diff(below, p1).subs(p1, p).subs(p, threshold)),
                                _powers(sp.diff(above, p1).subs(p1, p).subs(p, threshold)),
                                sp.factor(sp.diff(above, p1, 2)))


def _powers(expr: sp.Expr) -> sp.Expr:
    """Simplify powers with symbolic exponents (2·2^(1/(n-1))/2^(n/(n-1)) = 1)."""
    return sp.simplify(sp.powsimp(sp.expand(expr), force=True, combine="exp"))


# --------------------------------------------------------------------------- fast numeric form

def _segment_integrals(lower, upper, groups, kind: str):
    """Vectorised ∫ Π_g f(v_g, u)^{m_g} du over [lower, upper] for threshold groups (value, multiplicity)."""
    values = [np.asarray(v, dtype=float) for v, _ in groups]
    shape = np.broadcast(lower, upper, *values).shape
    lower = np.broadcast_to(np.asarray(lower, dtype=float), shape)
    upper = np.broadcast_to(np.asarray(upper, dtype=float), shape)
    values = [np.broadcast_to(v, shape) for v in values]
    points = np.sort(np.stack([lower, upper] + values), axis=0)
    total = np.zeros(shape)
    for k in range(points.shape[0] - 1):
        a = np.clip(points[k], lower, upper)
        b = np.clip(points[k + 1], lower, upper)
        power = np.zeros(shape)
        coeff = np.ones(shape)
        for v, (_, m) in zip(values, groups):
            below = v <= a
            if kind == "max":
                power += np.where(below, m, 0)
                coeff *= np.where(below, 1.0, v ** m)
            else:
                power += np.where(below, 0, m)
                coeff *= np.where(below, v ** m, 1.0)
        total += np.where(b > a, coeff * (b ** (power + 1) - a ** (power + 1)) / (power + 1), 0.0)
    return total


def alpha_numeric(p1, groups: Sequence[tuple[object, int]], weenie: bool = False) -> np.ndarray:
    """α for player 1 at ``p1`` against other players grouped as (threshold, how many), vectorised."""
    n = 1 + sum(m for _, m in groups)
    p1 = np.asarray(p1, dtype=float)
    rest = np.ones(np.broadcast(p1, *[np.asarray(v) for v, _ in groups]).shape)
    q_sum = 1 - p1
    for v, m in groups:
        rest = rest * np.asarray(v, dtype=float) ** m
        q_sum = q_sum + m * (1 - np.asarray(v, dtype=float))
    all_p = p1 * rest
    W = _segment_integrals(p1, 1.0, groups, "max") - (1 - p1) * rest
    alpha = q_sum - 2 + 2 * all_p + 2 * n * W - n * (1 - p1) + 2 * n * (1 - p1) * rest
    if weenie:
        alpha = alpha + all_p - n * _segment_integrals(0.0, p1, groups, "min")
    return alpha


def beta_numeric(p1, groups: Sequence[tuple[object, int]], weenie: bool = False) -> np.ndarray:
    p1 = np.asarray(p1, dtype=float)
    all_p = p1.copy()
    q_sum = 1 - p1
    for v, m in groups:
        all_p = all_p * np.asarray(v, dtype=float) ** m
        q_sum = q_sum + m * (1 - np.asarray(v, dtype=float))
    beta = q_sum - 1 + 2 * all_p
    return beta + all_p if weenie else beta


# --------------------------------------------------------------------------- exact rational evaluation

def alpha_beta_fraction(p1, groups: Sequence[tuple[object, int]], weenie: bool = False):
    """Exact ``(α, β)`` with rational thresholds (``fractions.Fraction``), same formulas as the numeric form."""
    from fractions import Fraction

    p1 = Fraction(p1)
    groups = [(Fraction(v), m) for v, m in groups]
    n = 1 + sum(m for _, m in groups)
    rest = Fraction(1)
    q_sum = 1 - p1
    for v, m in groups:
        rest *= v ** m
        q_sum += m * (1 - v)
    all_p = p1 * rest
    W = _fraction_integral(p1, Fraction(1), groups, "max") - (1 - p1) * rest
    alpha = q_sum - 2 + 2 * all_p + 2 * n * W - n * (1 - p1) + 2 * n * (1 - p1) * rest
    beta = q_sum - 1 + 2 * all_p
    if weenie:
        alpha += all_p - n * _fraction_integral(Fraction(0), p1, groups, "min")
        beta += all_p
    return alpha, beta


def _fraction_integral(lower, upper, groups, kind: str):
    points = sorted({lower, upper} | {v for v, _ in groups if lower < v < upper})
    total = 0
    for a, b in zip(points, points[1:]):
        power, coeff = 0, 1
        for v, m in groups:
            below = v <= a
            if kind == "max":
                power += m if below else 0
                coeff *= 1 if below else v ** m
            else:
                power += 0 if below else m
                coeff *= v ** m if below else 1
        total += coeff * (b ** (power + 1) - a ** (power + 1)) / (power + 1)
    return total


def mesh_alpha_beta(own: int, others: Sequence[int], mesh: int, weenie: bool = False):
    """Exact ``(α, β)`` for a player at mesh index ``own`` against players at mesh indices ``others``."""
    from collections import Counter

    step = Fraction(1, mesh - 1)
    return alpha_beta_fraction(own * step, [(k * step, m) for k, m in sorted(Counter(others).items())], weenie)


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
        from ..numeric.recursive import solve_by_columns

        return solve_by_columns(self, V, warm=warm)


class LazyPseudoBlocGame(LazyCoalitionGame):
    """The pseudo-bloc game: columns ``(s, q, ..., q)`` numbered ``s·M + q`` (M = 1001: 10^6 columns)."""

    pseudo_bloc = True

    def __init__(self, opponents: int, mesh: int, weenie: bool = False, block: int = 200_000):
        if opponents < 2:
            raise ValueError("the lazy pseudo-bloc game needs N >= 2 (N = 1 has only M columns)")
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
    from ..numeric.recursive import forced_value
    from ..verify.recursive import certify_upper, rational_strategy

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

    from ..numeric.recursive import RecursiveGame, forced_value
    from ..verify.recursive import certify_lower, certify_upper, rational_strategy

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
        raise ValueError(f"the {team} v {opponents} game on {mesh} mesh points has {len(rows)} x {len(cols)} team "
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
    from ..numeric.recursive import RecursiveGame, forced_value
    from ..verify.recursive import certify_lower, certify_upper, rational_strategy

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


# --------------------------------------------------------------------------- the Weenie rule: strong equilibrium

@dataclass(frozen=True)
class RegionProof:
    """``min α(p*, p2..pn) >= 0`` on one region of the cube (player 1's place among sorted opponents)."""

    position: int
    decision: Decision
    seconds: float
    counterexample: dict[str, str] | None


def weenie_guarantee(n: int, timeout_ms: int = 120_000, weenie: bool = True) -> list[RegionProof]:
    """Prove with z3 that ``α_W(p*, p2, ..., pn) >= 0`` for every p2..pn in [0, 1], p* = 3^(-1/(n-1)).

    With ``weenie=False`` the same question for standard Guts and
    p* = 2^(-1/(n-1)), where it is false (a coalition wins): the check then
    returns a counterexample.

    α is symmetric in the opponents, so it suffices to take ``p2 <= ... <= pn``
    and each place of ``p*`` among them; on each such region α is one
    polynomial (derived by :func:`alpha_exact`), and ``p*`` enters z3 as the
    positive root of ``3 c^(n-1) = 1``.  Exact for every region z3 decides.
    """
    import time

    import z3

    from ..engine.z3terms import Z3Encoder
    from ..model.decide import Decision

    p = sp.symbols(" ".join(f"p{k + 1}" for k in range(n)), real=True)
    out = []
    for position in range(n):
        order = list(range(1, n))
        order.insert(position, 0)
        alpha = alpha_exact(p, order, weenie=weenie)
        enc = Z3Encoder()
        c = enc.var("p1")
        base = 3 if weenie else 2
        formulas = [c > 0, base * z3.Product([c] * (n - 1)) == 1 if n > 2 else base * c == 1]
        chain = [enc.var(str(p[k])) for k in order]
        formulas += [chain[0] >= 0, chain[-1] <= 1] + [a <= b for a, b in zip(chain, chain[1:])]
        formulas.append(enc.term(alpha) < 0)
        solver = z3.SolverFor("QF_NRA")
        solver.set("timeout", timeout_ms)
        solver.add(*formulas)
        t0 = time.perf_counter()
        answer = solver.check()
        seconds = time.perf_counter() - t0
        if answer == z3.unsat:
            out.append(RegionProof(position, Decision.TRUE, seconds, None))
        elif answer == z3.sat:
            model = solver.model()
            out.append(RegionProof(position, Decision.FALSE, seconds,
                                   {str(s): str(model.eval(enc.var(str(s)), model_completion=True)) for s in p}))
        else:
            out.append(RegionProof(position, Decision.UNDECIDED, seconds, None))
    return out


def three_player_tensors(mesh: int, weenie: bool = False) -> list[np.ndarray]:
    """Each player's one-shot payoff α on the mesh, exactly, as integer tensors indexed (player 1, 2, 3).

    Entry ``[i, j, k]`` is ``α · scale`` at thresholds ``(i, j, k) / (mesh - 1)``, where the positive
    integer ``scale`` (:func:`mesh_alpha_scale`) is common to all entries: the piecewise polynomial
    of :func:`alpha_exact` evaluated in integer arithmetic, one ordering of the thresholds at a time
    (α is continuous, so a tie may take either ordering's polynomial). Exact tensors make fictitious
    play's best responses, and its tie-breaking, independent of floating-point rounding.
    """
    own = mesh_alpha_tensor(3, mesh, weenie)
    return [own, own.transpose(1, 0, 2), own.transpose(1, 2, 0)]


def mesh_alpha_scale(n: int, mesh: int, weenie: bool = False) -> int:
    """The integer by which :func:`mesh_alpha_tensor` multiplies α."""
    return _mesh_alpha_polys(n, weenie)[1] * (mesh - 1) ** _mesh_alpha_polys(n, weenie)[2]


def _mesh_alpha_polys(n: int, weenie: bool, _cache: dict = {}):   # noqa: B006 - a deliberate memo
    key = (n, weenie)
    if key not in _cache:
        import itertools
        import math

        p = sp.symbols(" ".join(f"p{k + 1}" for k in range(n)), real=True)
        polys = {order: sp.Poly(alpha_exact(p, order, weenie), *p, domain=sp.QQ)
                 for order in itertools.permutations(range(n))}
        denominator = math.lcm(*(int(sp.fraction(c)[1]) for poly in polys.values() for c in poly.coeffs()))
        degree = max(poly.total_degree() for poly in polys.values())
        _cache[key] = (polys, denominator, degree)
    return _cache[key]


def mesh_alpha_tensor(n: int, mesh: int, weenie: bool = False) -> np.ndarray:
    """Player 1's α · :func:`mesh_alpha_scale` at every mesh profile, shape ``(mesh,) * n``, exact int64."""
    polys, denominator, degree = _mesh_alpha_polys(n, weenie)
    h = mesh - 1
    grids = np.meshgrid(*([np.arange(mesh, dtype=np.int64)] * n), indexing="ij")
    out = np.zeros((mesh,) * n, dtype=np.int64)
    done = np.zeros((mesh,) * n, dtype=bool)
    for order, poly in polys.items():
        mask = ~done
        for a, b in zip(order, order[1:]):
            mask &= grids[a] <= grids[b]
        value = np.zeros(int(mask.sum()), dtype=np.int64)
        points = [g[mask] for g in grids]
        for monomial, coeff in poly.terms():
            c = sp.Rational(coeff) * denominator * h ** (degree - sum(monomial))
            term = np.full(value.shape, int(c), dtype=np.int64)
            for x, e in zip(points, monomial):
                term *= x ** e
            value += term
        out[mask] = value
        done |= mask
    return out


_P_STAR = sp.Symbol("c", positive=True)


def _alpha_at_p_star(n: int, order: Sequence[int], weenie: bool) -> sp.Poly:
    """α on one ordering with player 1's threshold as the symbol ``c`` (p*), over Q in (c, p2..pn)."""
    p = sp.symbols(" ".join(f"p{k + 1}" for k in range(n)), real=True)
    return sp.Poly(alpha_exact(p, order, weenie=weenie).subs(p[0], _P_STAR), _P_STAR, *p[1:], domain=sp.QQ)


def _p_star_ball(n: int, weenie: bool):
    """p* = 3^(-1/(n-1)) (Weenie) or 2^(-1/(n-1)) as a certified ``arb`` ball."""
    from flint import arb

    return arb(3 if weenie else 2) ** (arb(-1) / (n - 1))


@dataclass(frozen=True)
class WeenieBoxProof:
    """``min α_W(p*, p2..pn) >= 0`` over the whole cube by ball-arithmetic branch and bound.

    ``lemmas[k]`` is the local quadratic lemma at ``p2 = ... = pn = p*`` for
    the polynomial of the region where ``k`` opponents lie below ``p*``;
    ``radius`` is the smallest of their radii (the cube around the zero that
    the lemmas cover); ``certificate`` covers the rest of the sorted cube.
    """

    players: int
    lemmas: tuple[LocalLemma, ...]
    radius: Fraction
    certificate: PositivityCertificate

    @property
    def proved(self) -> bool:
        return all(lemma.holds for lemma in self.lemmas) and self.certificate.proved


def weenie_guarantee_boxes(n: int, min_width: Fraction = Fraction(1, 2 ** 12), weenie: bool = True) -> WeenieBoxProof:
    """Prove ``α_W(p*, p2, ..., pn) >= 0`` on [0, 1]^(n-1), p* = 3^(-1/(n-1)), without z3 (Appendix B).

    α_W is symmetric in the opponents, so the domain is the sorted simplex
    ``p2 <= ... <= pn``; on it α_W is one polynomial per place of p* among
    the opponents (:func:`alpha_exact`).  It vanishes at ``p2 = ... = pn = p*``
    (a symmetric profile of a symmetric zero-sum game), where each polynomial
    is shown to have an exact double zero with a positive definite quadratic
    form (:func:`~symgame.verify.positivity.quadratic_zero_lemma`); elsewhere
    :func:`~symgame.verify.positivity.certify_nonnegative` bounds it above 0
    in ball arithmetic.  p* enters as the root of ``3 c^(n-1) = 1``.

    With ``weenie=False`` the same question for standard Guts and
    ``p* = 2^(-1/(n-1))``, where a coalition wins: the proof must fail.
    """
    from ..verify.positivity import (
        arb_polynomial,
        certify_nonnegative,
        quadratic_zero_lemma,
        taylor_at_algebraic_point,
        to_arb,
    )

    minimal = sp.Poly((3 if weenie else 2) * _P_STAR ** (n - 1) - 1, _P_STAR, domain=sp.QQ)
    c_ball = _p_star_ball(n, weenie)
    polys, lemmas = [], []
    for position in range(n):
        order = list(range(1, n))
        order.insert(position, 0)
        exact = _alpha_at_p_star(n, order, weenie)
        polys.append(arb_polynomial(exact, _P_STAR, c_ball))
        orthant = [-1] * position + [1] * (n - 1 - position)
        lemmas.append(quadratic_zero_lemma(taylor_at_algebraic_point(exact, _P_STAR, minimal), n - 1, c_ball,
                                           orthant))
    radius = min(lemma.radius for lemma in lemmas)
    r = to_arb(radius)

    def pieces_for_box(box):
        highest_low = Fraction(0)
        for lo, hi in box:
            highest_low = max(highest_low, lo)
            if highest_low > hi:
                return None          # no sorted point in the box
        return [k for k in range(n)
                if not (k > 0 and to_arb(box[k - 1][0]) > c_ball)
                and not (k < n - 1 and to_arb(box[k][1]) < c_ball)]

    def inside_local_zone(box) -> bool:
        return radius > 0 and all(to_arb(lo) >= c_ball - r and to_arb(hi) <= c_ball + r for lo, hi in box)

    cube = tuple((Fraction(0), Fraction(1)) for _ in range(n - 1))
    certificate = certify_nonnegative(pieces_for_box, polys, inside_local_zone, cube, min_width)
    return WeenieBoxProof(n, tuple(lemmas), radius, certificate)


@dataclass(frozen=True)
class WeenieCounterexample:
    """A coalition (rational thresholds p2..pn) against which p* = 3^(-1/(n-1)) loses: α_W < 0, certified."""

    players: int
    thresholds: tuple[Fraction, ...]
    value_lower: float      # certified enclosure of α_W(p*, p2..pn) (ball arithmetic)
    value_upper: float

    @property
    def certified_negative(self) -> bool:
        return self.value_upper < 0


def weenie_alpha_ball(n: int, thresholds: Sequence[Fraction], weenie: bool = True):
    """α_W(p*, p2..pn) at rational opponents' thresholds as a certified ``arb`` ball (p* algebraic, see above)."""
    from ..verify.positivity import arb_polynomial, to_arb

    c_ball = _p_star_ball(n, weenie)
    balls = [to_arb(t) for t in thresholds]
    if not all(b < c_ball or b > c_ball for b in balls):
        raise ValueError("a threshold could not be placed relative to p*; choose another rational point")
    ordered = sorted(range(1, n), key=lambda k: thresholds[k - 1])
    ordered.insert(sum(1 for b in balls if b < c_ball), 0)
    return arb_polynomial(_alpha_at_p_star(n, ordered, weenie), _P_STAR, c_ball).evaluate(balls)


def weenie_counterexample(n: int, steps: int = 40) -> WeenieCounterexample | None:
    """Search pseudo-bloc coalitions (s, q, ..., q) on a grid for α_W(p*, ·) < 0 and certify the worst exactly.

    Returns ``None`` when the grid finds no negative value (which proves nothing).
    """
    grid = np.linspace(0.0, 1.0, steps + 1)
    S, Q = np.meshgrid(grid, grid, indexing="ij")
    p_star = 3.0 ** (-1.0 / (n - 1))
    values = alpha_numeric(p_star, [(S.ravel(), 1), (Q.ravel(), n - 2)], weenie=True)
    k = int(np.argmin(values))
    if values[k] >= 0:
        return None
    s, q = divmod(k, steps + 1)
    thresholds = (Fraction(s, steps),) + (Fraction(q, steps),) * (n - 2)
    ball = weenie_alpha_ball(n, thresholds)
    return WeenieCounterexample(n, thresholds, float(ball.lower().mid()), float(ball.upper().mid()))


def simulate_alpha(thresholds: Sequence[float], samples: int, seed: int, weenie: bool = False,
                   chunk: int = 1_000_000) -> tuple[float, float]:
    """Player 1's one-round payoff by Monte Carlo from the rules (section 3; Weenie: Appendix B).

    Independent of the closed forms: deal uniform hands, apply the hold
    thresholds and the accounting of the module docstring.  Returns the mean
    and its standard error.
    """
    rng = np.random.default_rng(seed)
    th = np.asarray(thresholds, dtype=float)
    n = len(th)
    total = total_sq = 0.0
    for start in range(0, samples, chunk):
        m = min(chunk, samples - start)
        hands = rng.random((m, n))
        hold = hands > th
        holders = hold.sum(axis=1)
        best_holder = np.argmax(np.where(hold, hands, -1.0), axis=1)
        pay = np.where(holders >= 2, (holders - 2) + np.where(hold[:, 0], np.where(best_holder == 0, n, -n), 0), 0)
        pay = np.where(holders == 1, np.where(hold[:, 0], n - 1, -1), pay)
        if weenie:
            pay = np.where(holders == 0, np.where(np.argmax(hands, axis=1) == 0, 1 - n, 1), pay)
        total += float(pay.sum())
        total_sq += float((pay.astype(float) ** 2).sum())
    mean = total / samples
    return mean, float(np.sqrt(max(total_sq / samples - mean ** 2, 0.0) / samples))
