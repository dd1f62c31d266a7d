"""One equilibrium of a large two-player tree: Lemke's algorithm in floating point, its basis solved exactly.

The exact integer pivoting of :mod:`symgame.engine.sequence_lcp` keeps a dense tableau and stops at
:data:`~symgame.engine.sequence_lcp.MAX_ROWS` rows. Trees whose sequence-form LCP has 10^4 rows and more
(OpenSpiel's two-player tiny bridge: 10,700) are solved here in three steps:

1. **Floating-point Lemke** (Lemke, "Bimatrix equilibrium points and mathematical programming", *Management
   Science* 11, 681-689, 1965) on the same LCP, revised: the basis matrix is kept as a sparse LU factorization
   (SciPy's SuperLU) followed by at most :data:`REFACTOR` product-form updates, so a pivot costs a few sparse
   solves instead of a dense rank-one update. The sequence form is highly degenerate (almost every entry of
   ``q`` is 0), so ties in the ratio test are broken lexicographically, as in the exact algorithm, by the rows
   of the basis inverse (computed for the tied rows only); with a plain ratio test the path cycles (it did on
   Leduc hold'em). The path's length depends on the covering vector: ones first, with a pivot budget, then
   the covering vector of the uniform prior (von Stengel, van den Elzen and Talman, *Econometrica* 70, 2002).
2. **The final basis solved exactly**: the basic part of ``w = q + M z`` with ``w_B = 0`` is a sparse linear
   system over the rationals (:func:`symgame.engine.sequence_lcp.solution_from_basis`); its solution is kept
   only when it is non-negative and complementary *exactly*. The floats choose the basis; they decide nothing.
3. **Repair**: the float path cannot see payoff differences below double precision (OpenSpiel writes payoffs
   as ``-14.999999999999996`` beside ``-14.999999999999998``; read as written, they differ). When step 2's
   basis is not exactly feasible, the float plans are rounded to pure plans (the likeliest action at every
   information set) and exact best responses are iterated
   (:func:`symgame.engine.sequence_lcp.best_response_iteration`).

Every result is an exact equilibrium checked by exact best responses in the sequence form; when none of the
steps gives one, :class:`~symgame.errors.NoResultError` says so.

Examples
--------
>>> from symgame.model.gambit import read_efg
>>> tree = read_efg('''EFG 2 R "pennies, seen second" { "Ann" "Bob" }
... p "" 1 1 "A" { "heads" "tails" } 0
... p "" 2 1 "B" { "heads" "tails" } 0
... t "" 1 "" { 3, 0 }
... t "" 2 "" { 0, 1 }
... p "" 2 1 "B" { "heads" "tails" } 0
... t "" 3 "" { 0, 1 }
... t "" 4 "" { 1, 0 }''')
>>> eq = float_guided_equilibrium(tree)
>>> eq.behaviour[0], eq.payoffs, eq.verified
({'A': {'heads': Fraction(1, 2), 'tails': Fraction(1, 2)}}, (Fraction(3, 4), Fraction(1, 2)), True)
"""
from __future__ import annotations

from collections.abc import Generator
from fractions import Fraction

import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import splu

from ..engine import sequence_lcp as _exact
from ..engine.sequence_lcp import (
    LcpSystem,
    SequenceEquilibrium,
    best_response_iteration,
    from_basis,
    lcp_system,
    sequence_lcp_solve,
)
from ..errors import NoResultError
from ..model.gambit import GambitTree

__all__ = ["MAX_FLOAT_ROWS", "float_guided_equilibrium", "float_lemke_basis", "lcp_size", "two_player_tree_equilibrium"]

#: Largest LCP (rows) the floating-point path takes.
MAX_FLOAT_ROWS = 200_000
#: Product-form updates between two sparse LU factorizations of the basis.
REFACTOR = 100
#: An entering column's entry counts as positive above this (times the column's largest entry).
PIVOT_TOLERANCE = 1e-9
#: Ratios (and lexicographic entries) within this (relative) count as tied.
TIE_TOLERANCE = 1e-9
#: Work one path does before the other gets its turn (:func:`float_guided_equilibrium`): the sparse solves'
#: sizes (entries of the factorization plus the product-form updates), summed -- a measure of time that does not
#: depend on the clock.
CHUNK = 2 * 10**9
#: Entries of the basis inverse's rows held at once when tied rows are compared (256 MB of floats).
TIE_ENTRIES = 2**25
#: A basic variable below ``-FEASIBILITY_TOLERANCE`` (relative) after a fresh factorization ends the path.
FEASIBILITY_TOLERANCE = 1e-7


def _float_matrix(system: LcpSystem) -> sp.csc_matrix:
    """``M`` in floating point, each player's payoff block divided by its largest entry (a positive scaling of a
    player's payoffs scales the multipliers only: the complementary bases stay the same)."""
    n1, n2, m1, m2 = system.sizes
    scale = {0: 1.0, 1: 1.0}
    for i, row in system.M.items():
        for j, v in row.items():
            if i < n1 and n1 <= j < n1 + n2:
                scale[0] = max(scale[0], abs(float(v)))
            elif n1 <= i < n1 + n2 and j < n1:
                scale[1] = max(scale[1], abs(float(v)))
    rows, cols, vals = [], [], []
    for i, row in system.M.items():
        for j, v in row.items():
            block = 0 if i < n1 and n1 <= j < n1 + n2 else 1 if n1 <= i < n1 + n2 and j < n1 else None
            rows.append(i)
            cols.append(j)
            vals.append(float(v) / scale[block] if block is not None else float(v))
    return sp.csc_matrix((vals, (rows, cols)), shape=(system.n, system.n))


def float_lemke_basis(system: LcpSystem, max_pivots: int | None = None, prior: bool = False
                      ) -> tuple[list[int], np.ndarray, int]:
    """Lemke's algorithm in floating point on ``system`` (covering vector of ones, or the uniform prior's).

    Parameters
    ----------
    system : LcpSystem
        The LCP (:func:`symgame.engine.sequence_lcp.lcp_system`).
    max_pivots : int, optional
        Give up after this many pivots (default ``50 n + 1000``).
    prior : bool
        Use the covering vector of the uniform prior (:func:`_prior_cover`) instead of ones.

    Returns
    -------
    basic : list of int
        The indices ``j`` whose ``z_j`` is basic at the end.
    z : numpy.ndarray
        The floating-point solution (scaled; a guide only).
    pivots : int
        Pivots taken.

    Raises
    ------
    NoResultError
        When the path ends on a ray, exceeds ``max_pivots``, returns to an earlier basis or loses feasibility
        to rounding.

    Examples
    --------
    >>> from symgame.model.gambit import read_efg
    >>> from symgame.engine.sequence_lcp import lcp_system
    >>> system = lcp_system(read_efg('EFG 2 R "t" { "A" "B" } p "" 1 1 "" { "l" "r" } 0 '
    ...                              't "" 1 "" { 1, 0 } t "" 2 "" { 0, 1 }'))
    >>> float_lemke_basis(system)[0]
    [0, 1, 3, 4, 5, 6]
    """
    path = _lemke_path(system, 50 * system.n + 1000 if max_pivots is None else max_pivots, prior)
    while True:
        try:
            next(path)
        except StopIteration as done:
            return done.value


def _lemke_path(system: LcpSystem, limit: int, prior: bool
                ) -> Generator[None, None, tuple[list[int], np.ndarray, int]]:
    """:func:`float_lemke_basis` as a generator that yields after every :data:`CHUNK` units of work (so two
    paths can take turns) and returns its result."""
    n = system.n
    matrix = _float_matrix(system)
    negative = (-matrix).tocsc()
    cover = _prior_cover(system, matrix) if prior else np.ones(n)
    q = np.array(system.q, dtype=float)
    z0 = 2 * n

    def column(j: int) -> np.ndarray:
        out = np.zeros(n)
        if j < n:
            out[j] = 1.0
        elif j < 2 * n:
            start, end = negative.indptr[j - n], negative.indptr[j - n + 1]
            out[negative.indices[start:end]] = negative.data[start:end]
        else:
            out[:] = -cover
        return out

    basis = list(range(n))
    # the set of basic variables, hashed incrementally (a fixed pseudo-random 64-bit word per variable, XORed
    # in and out): a basis seen before means the rounding broke the lexicographic rule and the path cycles
    words = np.random.default_rng(20261127).integers(0, 2**63, size=2 * n + 1, dtype=np.int64)
    signature = int(np.bitwise_xor.reduce(words[:n]))
    seen = {signature}
    lu = None
    factor_size = n                                       # entries of the last factorization (L and U)
    block_rows = max(2, TIE_ENTRIES // n)
    work = 0                                              # solves weighted by their size, since the last turn
    etas: list[tuple[int, np.ndarray]] = []

    def solve(a: np.ndarray) -> np.ndarray:
        y = a if lu is None else lu.solve(a)
        for r, alpha in etas:
            yr = y[r] / alpha[r]
            y = y - yr * alpha
            y[r] = yr
        return y

    def inverse_rows(rows: np.ndarray) -> np.ndarray:
        """Rows ``rows`` of the basis inverse: e_i^T E_k^-1 ... E_1^-1 LU^-1."""
        y = np.zeros((len(rows), n))
        y[np.arange(len(rows)), rows] = 1.0
        for r, alpha in reversed(etas):
            y[:, r] -= (y @ alpha - y[:, r]) / alpha[r]
        if lu is not None:
            y = lu.solve(np.ascontiguousarray(y.T), trans="T").T
        return y

    full = sp.hstack([sp.identity(n, format="csc"), negative, sp.csc_matrix(-cover.reshape(n, 1))], format="csc")

    def refactor() -> None:
        nonlocal lu, etas, factor_size
        lu = splu(full[:, basis], permc_spec="COLAMD")
        factor_size = lu.L.nnz + lu.U.nnz
        etas = []

    bbar = q.copy()
    if np.all(q >= 0):
        return [], np.zeros(n), 0
    negative_rows = np.nonzero(q < 0)[0]
    entering, r = z0, int(negative_rows[np.argmin(q[negative_rows] / cover[negative_rows])])
    for pivots in range(1, limit + 1):
        if work >= CHUNK:
            work = 0
            yield
        alpha = solve(column(entering))
        if pivots > 1:
            top = np.abs(alpha).max()
            candidates = np.nonzero(alpha > PIVOT_TOLERANCE * top)[0]
            if len(candidates) == 0:
                raise NoResultError("Lemke's algorithm (floating point) ended on a ray")
            ratios = np.maximum(bbar[candidates], 0.0) / alpha[candidates]
            best = ratios.min()
            tied = candidates[ratios <= best + TIE_TOLERANCE * (1 + best)]
            tied_before = tied
            at_z0 = [i for i in tied if basis[i] == z0]
            if at_z0:
                tied = np.array(at_z0[:1])
            elif len(tied) > 1:
                winners, their_rows = [], []
                for start in range(0, len(tied), block_rows):    # bounded memory: block_rows x n at a time
                    block = tied[start:start + block_rows]
                    rows = inverse_rows(block) / alpha[block][:, None]
                    keep = _lexicographic_minima(rows)
                    winners.append(block[keep])
                    their_rows.append(rows[keep])
                tied = winners[0] if len(winners) == 1 else \
                    np.concatenate(winners)[_lexicographic_minima(np.vstack(their_rows))]
                work += len(tied_before) * (factor_size + len(etas) * n)
            r = int(tied[np.argmax(alpha[tied])])
        work += factor_size + len(etas) * n
        theta = bbar[r] / alpha[r]
        bbar = bbar - theta * alpha
        bbar[r] = theta
        etas.append((r, alpha))
        leaving, basis[r] = basis[r], entering
        signature ^= int(words[leaving]) ^ int(words[entering])
        if signature in seen and leaving != z0:
            raise NoResultError(f"Lemke's algorithm (floating point) returned to an earlier basis after {pivots} "
                                "pivots (rounding broke the lexicographic rule)")
        seen.add(signature)
        if leaving == z0:
            z = np.zeros(n)
            for i, var in enumerate(basis):
                if n <= var < 2 * n:
                    z[var - n] = bbar[i]
            return sorted(var - n for var in basis if n <= var < 2 * n), z, pivots
        if len(etas) >= REFACTOR:
            refactor()
            bbar = solve(q)
            if bbar.min() < -FEASIBILITY_TOLERANCE * (1 + np.abs(bbar).max()):
                raise NoResultError(f"Lemke's algorithm (floating point) lost feasibility to rounding after "
                                    f"{pivots} pivots")
        entering = leaving + n if leaving < n else leaving - n
    raise NoResultError(f"Lemke's algorithm (floating point) took more than {limit} pivots")


def _prior_cover(system: LcpSystem, matrix: sp.csc_matrix) -> np.ndarray:
    """The covering vector of a prior (von Stengel, van den Elzen and Talman, "Computing normal form perfect
    equilibria for extensive two-person games", Econometrica 70 (2002), 693-715): both players' uniform behaviour
    plans ``x0``, ``y0``; the column is ``(-A y0, -B^T x0, e, f)`` (``z0 = 1`` starts at replies to the prior)."""
    game, (n1, n2, m1, m2) = system.game, system.sizes
    plans = []
    for p, size in ((0, n1), (1, n2)):
        plan = np.zeros(size)
        plan[0] = 1.0
        members = game.members(p)
        for key, parent in game.parent[p].items():       # parents before children (pre-order)
            for k in members[key]:
                plan[k] = plan[parent] / len(members[key])
        plans.append(plan)
    prior = np.concatenate([plans[0], plans[1], np.zeros(m1 + m2)])
    payoff_part = matrix.tocsr()[: n1 + n2, : n1 + n2] @ prior[: n1 + n2]    # the payoff blocks times the prior
    cover = np.zeros(system.n)
    cover[: n1 + n2] = payoff_part
    cover[n1 + n2] = cover[n1 + n2 + m1] = 1.0
    return cover


def _lexicographic_minima(rows: np.ndarray) -> np.ndarray:
    """The indices of the rows that are lexicographically smallest, entries within :data:`TIE_TOLERANCE`
    (absolute, plus relative to the entries' size) counting as equal: at each step the first column where the
    remaining rows differ decides. The payoffs are scaled to at most 1 (:func:`_float_matrix`), which the
    absolute part of the tolerance assumes."""
    keep = np.arange(len(rows))
    while len(keep) > 1:
        block = rows[keep]
        low, high = block.min(axis=0), block.max(axis=0)
        differ = np.nonzero(high - low > TIE_TOLERANCE * (1 + np.abs(low)))[0]
        if len(differ) == 0:
            break                                         # equal rows: not expected for a nonsingular basis
        column = differ[0]
        keep = keep[block[:, column] <= low[column] + TIE_TOLERANCE * (1 + abs(low[column]))]
    return keep


def _pure_rounding(system: LcpSystem, z: np.ndarray) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
    """Pure realization plans playing, at every information set, the action of the largest float plan entry."""
    game, (n1, n2, _, _) = system.game, system.sizes
    out = []
    for p, plan in enumerate((z[:n1], z[n1:n1 + n2])):
        pure = [Fraction(0)] * len(plan)
        pure[0] = Fraction(1)
        members = game.members(p)
        for key, parent in game.parent[p].items():        # parents before children (pre-order)
            if pure[parent]:
                seqs = members[key]
                pure[max(seqs, key=lambda k: (plan[k], -k))] = Fraction(1)
        out.append(tuple(pure))
    return out[0], out[1]


def float_guided_equilibrium(tree: GambitTree, max_pivots: int | None = None) -> SequenceEquilibrium:
    """One exact equilibrium of a two-player tree with perfect recall by the three steps of the module text.

    Two paths run by turns, :data:`CHUNK` units of work each (so the result never depends on the clock): the covering
    vector of ones (short on team games: tiny bridge ends in 845 pivots where the prior's path takes 11,073) and
    the uniform prior's (:func:`_prior_cover`, von Stengel, van den Elzen and Talman 2002; short on poker: Leduc
    6,415 pivots against 62,093 with ones, and OpenSpiel's general-sum sheriff, 18,729 rows, 16,809). The first
    to end is used; if its basis gives no exact equilibrium, the other one goes on.

    Parameters
    ----------
    tree : GambitTree
        A two-player tree with perfect recall (at most :data:`MAX_FLOAT_ROWS` LCP rows).
    max_pivots : int, optional
        The pivot budget of each path (default ``50 n + 1000``).

    Returns
    -------
    SequenceEquilibrium
        Exact plans and behaviour, ``regrets == (0, 0)``; ``method`` says which path and step gave it.

    Raises
    ------
    InputError
        For a tree that is not two-player or lacks perfect recall.
    LimitError
        Past :data:`MAX_FLOAT_ROWS` rows.
    NoResultError
        When no path and step gives an exact equilibrium (the message says how each ended).

    Examples
    --------
    >>> from symgame.model.gambit import read_efg
    >>> eq = float_guided_equilibrium(read_efg('EFG 2 R "t" { "A" "B" } p "" 1 1 "" { "l" "r" } 0 '
    ...                                        't "" 1 "" { 1, 0 } t "" 2 "" { 0, 1 }'))
    >>> eq.method
    "floating-point Lemke's algorithm (covering vector of ones, 7 pivots), its basis solved exactly over the rationals"
    """
    system = lcp_system(tree, MAX_FLOAT_ROWS)
    limit = 50 * system.n + 1000 if max_pivots is None else max_pivots
    names = {False: "covering vector of ones", True: "the uniform prior's covering vector"}
    paths = {prior: _lemke_path(system, limit, prior) for prior in (False, True)}
    ended = []
    while paths:
        for prior in list(paths):
            try:
                next(paths[prior])
                continue
            except NoResultError as exc:
                ended.append(f"{names[prior]}: {exc}")
                del paths[prior]
                continue
            except StopIteration as done:
                basic, z, pivots = done.value
                del paths[prior]
            method = f"floating-point Lemke's algorithm ({names[prior]}, {pivots} pivots)"
            found = from_basis(tree, system, basic, pivots, f"{method}, its basis solved exactly over the rationals")
            if found is not None and found.verified:
                return found
            repaired = best_response_iteration(
                tree, system.game, _pure_rounding(system, z), pivots=pivots,
                method=f"{method}; its basis is not exactly feasible, so rounded to pure plans, then exact best "
                       "responses in turn")
            if repaired is not None:
                return repaired
            ended.append(f"{names[prior]}: {pivots} pivots to a basis that is not an exact equilibrium, and best "
                         "responses from its rounding did not settle")
    raise NoResultError(f"{tree.title}: no exact equilibrium from floating-point pivoting ({'; '.join(ended)})")


def two_player_tree_equilibrium(tree: GambitTree) -> SequenceEquilibrium:
    """One exact equilibrium of a two-player tree with perfect recall of any size the LCP takes.

    Exact integer pivoting (:func:`symgame.engine.sequence_lcp.sequence_lcp_solve`) up to
    :data:`~symgame.engine.sequence_lcp.MAX_ROWS` rows; beyond, :func:`float_guided_equilibrium`.

    Parameters
    ----------
    tree : GambitTree
        A two-player tree with perfect recall.

    Returns
    -------
    SequenceEquilibrium
        Exact, with exact regrets.

    Raises
    ------
    InputError
        For a tree that is not two-player or lacks perfect recall.
    LimitError
        Past :data:`MAX_FLOAT_ROWS` rows.
    NoResultError
        When no equilibrium is found.

    Examples
    --------
    >>> from symgame.model.gambit import read_efg
    >>> eq = two_player_tree_equilibrium(read_efg('EFG 2 R "t" { "A" "B" } p "" 1 1 "" { "l" "r" } 0 '
    ...                                           't "" 1 "" { 1, 0 } t "" 2 "" { 0, 1 }'))
    >>> eq.method, eq.payoffs
    ('exact integer pivoting', (Fraction(1, 1), Fraction(0, 1)))
    """
    if lcp_size(tree) <= _exact.MAX_ROWS:
        return sequence_lcp_solve(tree)
    return float_guided_equilibrium(tree)


def lcp_size(tree: GambitTree) -> int:
    """The number of rows of a tree's sequence-form LCP (both players' sequences and information sets, plus 2).

    Parameters
    ----------
    tree : GambitTree
        Any tree.

    Returns
    -------
    int
        The row count (counted without building the problem).

    Examples
    --------
    >>> from symgame.model.gambit import read_efg
    >>> lcp_size(read_efg('EFG 2 R "t" { "A" "B" } p "" 1 1 "" { "l" "r" } 0 t "" 1 "" { 1, 0 } t "" 2 "" { 0, 1 }'))
    7
    """
    count = 2 + 2                                       # the empty sequences and the root rows
    for (player, _), info in tree.infosets.items():
        if player in (1, 2):
            count += len(info.actions) + 1
    return count
