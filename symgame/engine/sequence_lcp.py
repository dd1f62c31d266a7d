"""One Nash equilibrium of a two-player game tree of any sum, exactly: Lemke's algorithm on the sequence form.

The strategic form of a tree grows exponentially with its information sets; the sequence form grows
linearly (Koller, Megiddo and von Stengel, "Efficient computation of equilibria for extensive two-person
games", *Games and Economic Behavior* 14, 247-259, 1996; von Stengel, "Efficient computation of behavior
strategies", *GEB* 14, 220-246, 1996). A realization plan ``x`` of player 1 satisfies ``E x = e, x >= 0``
(one row for the empty sequence, one per information set: the plans of its actions sum to the plan of the
parent sequence), likewise ``F y = f`` for player 2; ``A`` and ``B`` are the sequence-form payoffs (chance
probability times payoff, summed over the leaves each pair of sequences reaches). ``(x, y)`` is an
equilibrium exactly when there are ``u``, ``v`` with

.. math::  E^T u - A y \\ge 0 \\perp x \\ge 0, \\qquad F^T v - B^T x \\ge 0 \\perp y \\ge 0,
           \\qquad E x = e, \\qquad F y = f

(KMvS 1996, section 4). With every leaf payoff first made negative (adding a constant to every leaf changes no
equilibrium), each player's problem is to minimise a positive cost, so the equations can be relaxed to
``E x >= e`` with multipliers ``mu >= 0`` (``u = -mu``): the linear complementarity problem ``w = q + M z``,
``w, z >= 0``, ``w^T z = 0`` with ``z = (x, y, mu, nu)``, ``w_x = -A y - E^T mu``, ``w_y = -B^T x - F^T nu``,
``w_mu = E x - e``, ``w_nu = F y - f`` (``M`` is a skew-symmetric matrix plus a nonnegative one). It is solved by
Lemke's algorithm (Lemke, "Bimatrix equilibrium points and mathematical programming", *Management Science* 11,
681-689, 1965) with a covering vector of ones, integer pivoting (every tableau entry an exact integer, divided
exactly by the previous pivot) and the lexicographic ratio test, so degenerate games end too. A solution's
plans are checked to meet the equations exactly before use. The result is converted to behaviour strategies and checked by exact best responses in the sequence form
(:func:`sequence_regrets`), independently of the pivoting.

Examples
--------
>>> from symgame.model.gambit import read_efg
>>> tree = read_efg('''EFG 2 R "entry" { "Entrant" "Incumbent" }
... p "" 1 1 "E" { "out" "in" } 0
... t "" 1 "stay out" { 0, 2 }
... p "" 2 1 "I" { "fight" "accommodate" } 0
... t "" 2 "fight" { -1, -1 }
... t "" 3 "share" { 1, 1 }''')
>>> eq = sequence_lcp_solve(tree)
>>> eq.behaviour, eq.payoffs, eq.verified
(({'E': {'out': Fraction(0, 1), 'in': Fraction(1, 1)}}, {'I': {'fight': Fraction(0, 1), 'accommodate': Fraction(1, 1)}}), (Fraction(1, 1), Fraction(1, 1)), True)
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Sequence

from ..errors import InputError, LimitError, NoResultError
from ..model.gambit import GambitTree, infoset_keys

#: Largest number of LCP rows (both players' sequences and information sets, plus 2): the tableau is dense,
#: rows x (2 rows + 1) exact integers, so 2,000 rows hold 8 million of them.
MAX_ROWS = 2_000
#: Largest number of pivots before giving up.
MAX_PIVOTS = 50_000

Key = tuple[int, int]                         # (player, information set number)


@dataclass
class SequenceGame:
    """The sequence form of a two-player tree with both players' payoffs (exact).

    ``sequences[p]`` lists player ``p``'s sequences (``p`` = 0, 1): ``None`` for the empty sequence, else
    ``(information set key, action index)``; ``parent[p][key]`` is the index of the sequence that leads to the
    information set. ``payoff[p]`` maps ``(s1, s2)`` to the sequence-form payoff of player ``p``.
    """

    sequences: tuple[list, list]
    parent: tuple[dict[Key, int], dict[Key, int]]
    payoff: tuple[dict[tuple[int, int], Fraction], dict[tuple[int, int], Fraction]]
    reach: dict[tuple[int, int], Fraction]                  # chance probability of the leaves per sequence pair

    def members(self, p: int) -> dict[Key, list[int]]:
        """Player ``p``'s sequences grouped by information set (each set's actions, in order)."""
        out: dict[Key, list[int]] = {}
        for k, s in enumerate(self.sequences[p]):
            if s is not None:
                out.setdefault(s[0], []).append(k)
        return out


@dataclass(frozen=True)
class SequenceEquilibrium:
    """One equilibrium of a two-player tree.

    Attributes
    ----------
    plans : tuple of two tuples of Fraction
        The realization plans (one probability per sequence, the empty sequence first).
    behaviour : tuple of two dicts
        Per player, information set name -> action -> probability (``None`` where the player's own earlier
        moves never reach the set).
    payoffs, regrets : tuple of Fraction
        Each player's expected payoff and exact gain from a best response (0 at an equilibrium).
    pivots : int
        Pivots Lemke's algorithm took.
    method : str
        How the equilibrium was found: ``exact integer pivoting``, or a floating-point path whose basis was then
        solved exactly, or best-response iteration (the check is exact either way).
    """

    plans: tuple[tuple[Fraction, ...], tuple[Fraction, ...]]
    behaviour: tuple[dict, dict]
    payoffs: tuple[Fraction, Fraction]
    regrets: tuple[Fraction, Fraction]
    pivots: int
    method: str = "exact integer pivoting"

    @property
    def verified(self) -> bool:
        return self.regrets == (0, 0)


def sequence_game(tree: GambitTree) -> SequenceGame:
    """The sequence form of a two-player tree with perfect recall (refused otherwise, naming the set)."""
    if len(tree.players) != 2:
        raise InputError(f"{tree.title}: the sequence form here takes two-player trees ({len(tree.players)} players)")
    bad = tree.imperfect_recall()
    if bad is not None:
        info = bad[1]
        raise InputError(f"{tree.title}: player {bad[0]} does not have perfect recall at information set "
                         f"{info.number} ({info.name or 'unnamed'}); the sequence form needs it")
    sequences: tuple[list, list] = ([None], [None])
    parent: tuple[dict[Key, int], dict[Key, int]] = ({}, {})
    index: tuple[dict, dict] = ({None: 0}, {None: 0})
    stack: list[tuple[int, int, int]] = [(0, 0, 0)]         # node, last sequence of player 1, of player 2
    while stack:                                           # pre-order: a set's parent sequence comes first
        node_index, s1, s2 = stack.pop()
        node = tree.nodes[node_index]
        if node.kind == "p":
            p = node.player - 1
            key = (node.player, node.infoset)
            if key not in parent[p]:
                parent[p][key] = (s1, s2)[p]
                for k in range(len(tree.infosets[key].actions)):
                    index[p][(key, k)] = len(sequences[p])
                    sequences[p].append((key, k))
        for k in reversed(range(len(node.children))):
            if node.kind == "p":
                seq = index[node.player - 1][((node.player, node.infoset), k)]
                stack.append((node.children[k], seq, s2) if node.player == 1 else (node.children[k], s1, seq))
            else:
                stack.append((node.children[k], s1, s2))
    payoff: tuple[dict, dict] = ({}, {})
    reach: dict[tuple[int, int], Fraction] = {}
    for leaf in tree.leaves():
        last = [0, 0]
        for player, infoset, k in leaf.path:
            if player in (1, 2):
                last[player - 1] = index[player - 1][((player, infoset), k)]
        pair = (last[0], last[1])
        reach[pair] = reach.get(pair, Fraction(0)) + leaf.chance
        for p in (0, 1):
            payoff[p][pair] = payoff[p].get(pair, Fraction(0)) + leaf.chance * leaf.payoffs[p]
    return SequenceGame(sequences, parent, payoff, reach)


def _constraints(game: SequenceGame, p: int) -> list[dict[int, int]]:
    """The rows of ``E`` (or ``F``) as sparse integer rows: the empty sequence, then one per information set."""
    rows: list[dict[int, int]] = [{0: 1}]
    for key, seqs in game.members(p).items():
        row = {k: 1 for k in seqs}
        row[game.parent[p][key]] = row.get(game.parent[p][key], 0) - 1
        rows.append(row)
    return rows


def _scaled(payoff: dict[tuple[int, int], Fraction], reach: dict[tuple[int, int], Fraction], top: Fraction
            ) -> dict[tuple[int, int], int]:
    """Integer sequence-form payoffs of the game whose leaf payoffs are lowered by ``top + 1`` (``top``: the
    largest leaf payoff, so every leaf payoff becomes negative), then multiplied by a common denominator
    (neither changes an equilibrium)."""
    shift = -(math.floor(top) + 1)
    shifted = {pair: payoff.get(pair, Fraction(0)) + shift * r for pair, r in reach.items()}
    scale = math.lcm(*(v.denominator for v in shifted.values())) if shifted else 1
    return {pair: int(v * scale) for pair, v in shifted.items() if v}


@dataclass(frozen=True)
class LcpSystem:
    """The sequence-form linear complementarity problem ``w = q + M z``, ``w, z >= 0``, ``w^T z = 0`` of a
    two-player tree, with exact integer data.

    ``z = (x, y, u, v)``: the two realization plans (``sizes[0]`` and ``sizes[1]`` sequences) and the
    multipliers of their constraint rows (``sizes[2]`` and ``sizes[3]``). ``M`` is sparse: row -> column ->
    nonzero integer. ``constraints`` holds the rows of ``E`` and ``F`` (:func:`_constraints`).
    """

    game: SequenceGame
    sizes: tuple[int, int, int, int]
    M: dict[int, dict[int, int]]
    q: tuple[int, ...]
    constraints: tuple[list[dict[int, int]], list[dict[int, int]]]

    @property
    def n(self) -> int:
        """The number of rows (and of complementary pairs)."""
        return len(self.q)

    def plans(self, z: list[Fraction]) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
        """The two realization plans inside a solution vector ``z``."""
        n1, n2 = self.sizes[0], self.sizes[1]
        return tuple(z[:n1]), tuple(z[n1:n1 + n2])


def lcp_system(tree: GambitTree, max_rows: int | None = None) -> LcpSystem:
    """The sequence-form LCP of a two-player tree with perfect recall (see the module text).

    Parameters
    ----------
    tree : GambitTree
        A two-player tree with perfect recall.
    max_rows : int, optional
        Refuse (``LimitError``) a problem with more rows than this.

    Returns
    -------
    LcpSystem
        Every leaf payoff lowered below 0 and scaled to integers (neither changes an equilibrium).

    Raises
    ------
    InputError
        For a tree that is not two-player or lacks perfect recall.
    LimitError
        When the problem has more than ``max_rows`` rows.

    Examples
    --------
    >>> from symgame.model.gambit import read_efg
    >>> system = lcp_system(read_efg('EFG 2 R "t" { "A" "B" } p "" 1 1 "" { "l" "r" } 0 '
    ...                              't "" 1 "" { 1, 0 } t "" 2 "" { 0, 1 }'))
    >>> system.sizes, system.q
    ((3, 1, 2, 1), (0, 0, 0, 0, -1, 0, -1))
    """
    game = sequence_game(tree)
    n1, n2 = len(game.sequences[0]), len(game.sequences[1])
    e_rows, f_rows = _constraints(game, 0), _constraints(game, 1)
    m1, m2 = len(e_rows), len(f_rows)
    n = n1 + n2 + m1 + m2
    if max_rows is not None and n > max_rows:
        raise LimitError(f"{tree.title}: the sequence-form LCP has {n} rows (more than {max_rows})")
    leaves = tree.leaves()
    a = _scaled(game.payoff[0], game.reach, max(leaf.payoffs[0] for leaf in leaves))
    b = _scaled(game.payoff[1], game.reach, max(leaf.payoffs[1] for leaf in leaves))
    # z = (x, y, u, v) >= 0; w = q + M z: w_x = -A y - E^T u, w_y = -B^T x - F^T v, w_u = E x - e, w_v = F y - f
    ox, oy, ou, ov = 0, n1, n1 + n2, n1 + n2 + m1
    M: dict[int, dict[int, int]] = {}

    def add(i: int, j: int, v: int) -> None:
        row = M.setdefault(i, {})
        row[j] = row.get(j, 0) + v
    for (s1, s2), v in a.items():
        add(ox + s1, oy + s2, -v)
    for (s1, s2), v in b.items():
        add(oy + s2, ox + s1, -v)
    for offset, block, rows in ((ox, ou, e_rows), (oy, ov, f_rows)):
        for r, row in enumerate(rows):
            for s, c in row.items():
                add(offset + s, block + r, -c)
                add(block + r, offset + s, c)
    M = {i: {j: v for j, v in row.items() if v} for i, row in M.items()}
    q = [0] * n
    q[ou], q[ov] = -1, -1
    return LcpSystem(game, (n1, n2, m1, m2), M, tuple(q), (e_rows, f_rows))


def sequence_lcp_solve(tree: GambitTree, max_pivots: int = MAX_PIVOTS) -> SequenceEquilibrium:
    """One Nash equilibrium of a two-player tree with perfect recall (any sum), exactly (see the module text).

    Parameters
    ----------
    tree : GambitTree
        A two-player tree with perfect recall and at most :data:`MAX_ROWS` LCP rows (larger ones:
        :func:`symgame.numeric.sequence_lemke.two_player_tree_equilibrium`).
    max_pivots : int
        Give up after this many pivots.

    Returns
    -------
    SequenceEquilibrium
        Realization plans, behaviour strategies, payoffs and exact regrets.

    Raises
    ------
    InputError
        For a tree that is not two-player or lacks perfect recall.
    LimitError
        When the LCP has more than :data:`MAX_ROWS` rows.
    NoResultError
        When Lemke's algorithm ends on a ray or exceeds ``max_pivots`` (not expected for these problems).

    Examples
    --------
    >>> from symgame.model.gambit import read_efg
    >>> eq = sequence_lcp_solve(read_efg('EFG 2 R "t" { "A" "B" } p "" 1 1 "" { "l" "r" } 0 '
    ...                                  't "" 1 "" { 1, 0 } t "" 2 "" { 0, 1 }'))
    >>> eq.payoffs, eq.verified
    ((Fraction(1, 1), Fraction(0, 1)), True)
    """
    system = lcp_system(tree, MAX_ROWS)
    n = system.n
    M = [[0] * n for _ in range(n)]
    for i, row in system.M.items():
        for j, v in row.items():
            M[i][j] = v
    z, pivots = _lemke(M, list(system.q), max_pivots)
    return _equilibrium(tree, system, z, pivots, "exact integer pivoting")


def _equilibrium(tree: GambitTree, system: LcpSystem, z: list[Fraction], pivots: int, method: str
                 ) -> SequenceEquilibrium:
    """The equilibrium a complementary solution ``z`` stands for, its plans checked and its regrets exact."""
    plans = system.plans(z)
    for plan, rows in zip(plans, system.constraints):
        if any(sum(c * plan[k] for k, c in row.items()) != (1 if r == 0 else 0) for r, row in enumerate(rows)):
            raise NoResultError(f"{tree.title}: the complementary solution is not a pair of realization plans")
    return _from_plans(tree, system.game, plans, pivots, method)


def _from_plans(tree: GambitTree, game: SequenceGame, plans: tuple[tuple[Fraction, ...], tuple[Fraction, ...]],
                pivots: int, method: str) -> SequenceEquilibrium:
    payoffs, regrets = sequence_regrets(game, plans)
    return SequenceEquilibrium(plans, (behaviour(tree, game, 0, plans[0]), behaviour(tree, game, 1, plans[1])),
                               payoffs, regrets, pivots, method)


def solution_from_basis(system: LcpSystem, basic: list[int]) -> list[Fraction] | None:
    """The exact solution of the LCP on a complementary basis, or ``None`` when it is not one.

    Parameters
    ----------
    system : LcpSystem
        The problem.
    basic : list of int
        The indices ``j`` whose ``z_j`` is basic (for every other ``j``, ``w_j`` is basic, ``z_j = 0``).

    Returns
    -------
    list of Fraction or None
        ``z`` with ``M_BB z_B = -q_B`` solved over the rationals (sympy's sparse reduced row echelon form), when
        that system has exactly one solution, ``z >= 0`` and ``w = q + M z >= 0`` exactly; ``None`` otherwise. How
        the basis was found (for instance by floating-point pivoting) does not matter: the checks are exact.

    Examples
    --------
    >>> from symgame.model.gambit import read_efg
    >>> system = lcp_system(read_efg('EFG 2 R "t" { "A" "B" } p "" 1 1 "" { "l" "r" } 0 '
    ...                              't "" 1 "" { 1, 0 } t "" 2 "" { 0, 1 }'))
    >>> [str(v) for v in solution_from_basis(system, [0, 1, 3, 4, 5, 6])]    # x = (1, 1, 0), y = (1), u, v
    ['1', '1', '0', '1', '1', '1', '2']
    """
    from sympy import QQ
    from sympy.polys.matrices import DomainMatrix
    from sympy.polys.matrices.sdm import SDM

    n, q = system.n, system.q
    order = sorted(set(basic))
    column = {j: k for k, j in enumerate(order)}
    width = len(order)
    rows: dict[int, dict[int, Any]] = {}
    for k, i in enumerate(order):
        row = {column[j]: QQ(v) for j, v in system.M.get(i, {}).items() if j in column}
        if q[i]:
            row[width] = QQ(-q[i])
        if row:
            rows[k] = row
    reduced, pivots = DomainMatrix.from_rep(SDM(rows, (width, width + 1), QQ)).rref()
    if len(pivots) != width or (pivots and pivots[-1] == width):
        return None                                      # singular, or inconsistent
    entries = reduced.rep.to_sdm()
    z = [Fraction(0)] * n
    for r, c in enumerate(pivots):
        value = entries.get(r, {}).get(width, QQ(0))
        z[order[c]] = Fraction(int(value.numerator), int(value.denominator))
    if any(v < 0 for v in z):
        return None
    for i in range(n):
        if i not in column and q[i] + sum(v * z[j] for j, v in system.M.get(i, {}).items()) < 0:
            return None
    return z


def from_basis(tree: GambitTree, system: LcpSystem, basic: list[int], pivots: int, method: str
               ) -> SequenceEquilibrium | None:
    """The exact equilibrium on a complementary basis (:func:`solution_from_basis`), or ``None``.

    Parameters
    ----------
    tree : GambitTree
        The tree ``system`` was built from.
    system : LcpSystem
        Its LCP.
    basic : list of int
        The basic ``z`` indices.
    pivots : int
        Pivots taken to find the basis (recorded).
    method : str
        How the basis was found (recorded).

    Returns
    -------
    SequenceEquilibrium or None
        With exact regrets (0 for an equilibrium).

    Examples
    --------
    >>> from symgame.model.gambit import read_efg
    >>> tree = read_efg('EFG 2 R "t" { "A" "B" } p "" 1 1 "" { "l" "r" } 0 t "" 1 "" { 1, 0 } t "" 2 "" { 0, 1 }')
    >>> from_basis(tree, lcp_system(tree), [0, 1, 3, 4, 5, 6], 0, "given").verified
    True
    """
    z = solution_from_basis(system, basic)
    return None if z is None else _equilibrium(tree, system, z, pivots, method)


def best_response_iteration(tree: GambitTree, game: SequenceGame,
                            plans: tuple[tuple[Fraction, ...], tuple[Fraction, ...]], rounds: int = 100,
                            pivots: int = 0, method: str = "best-response iteration") -> SequenceEquilibrium | None:
    """A pure equilibrium reached from ``plans`` by exact best responses in turn, or ``None``.

    Each round replaces a player's plan by a pure best response to the other's (backward induction over the
    player's own sequences, ties broken towards the action the current plan plays most), player 1 first, until
    neither gains (exact regret 0 for both) or ``rounds`` rounds pass. In games where both players' payoffs
    are equal (team games such as two-player tiny bridge) every change raises the common payoff, so it ends.

    Parameters
    ----------
    tree : GambitTree
        The tree.
    game : SequenceGame
        Its sequence form.
    plans : tuple of two tuples of Fraction
        The starting realization plans (any; for instance a floating-point solution rounded).
    rounds : int
        At most this many best responses of each player.
    pivots : int
        Pivots of an earlier stage (recorded).
    method : str
        Recorded in the result.

    Returns
    -------
    SequenceEquilibrium or None
        A verified pure equilibrium, or ``None`` when the iteration did not settle.

    Examples
    --------
    >>> from symgame.model.gambit import read_efg
    >>> tree = read_efg('EFG 2 R "t" { "A" "B" } p "" 1 1 "" { "l" "r" } 0 t "" 1 "" { 1, 1 } t "" 2 "" { 2, 2 }')
    >>> game = sequence_game(tree)
    >>> best_response_iteration(tree, game, ((Fraction(1), Fraction(1), Fraction(0)), (Fraction(1),))).payoffs
    (Fraction(2, 1), Fraction(2, 1))
    """
    current = [list(plans[0]), list(plans[1])]
    for _ in range(rounds):
        changed = False
        for p in (0, 1):
            response = _pure_best_response(game, p, current[1 - p], current[p])
            if response is not None:
                current[p] = response
                changed = True
        if not changed:
            found = _from_plans(tree, game, (tuple(current[0]), tuple(current[1])), pivots, method)
            return found if found.verified else None
    return None


def _pure_best_response(game: SequenceGame, p: int, other: list[Fraction], mine: list[Fraction]
                        ) -> list[Fraction] | None:
    """A pure best response of player ``p`` to ``other`` (a realization plan), or ``None`` when ``mine``
    already is a best response."""
    value, best, choice, children = _backward_induction(game, p, other, mine)
    if value == best:
        return None
    plan = [Fraction(0)] * len(mine)
    plan[0] = Fraction(1)
    for k in range(len(plan)):                            # parents come before their children
        if plan[k]:
            for key in children.get(k, []):
                plan[choice[key]] = Fraction(1)
    return plan


def _backward_induction(game: SequenceGame, p: int, other: Sequence[Fraction], mine: Sequence[Fraction]
                        ) -> tuple[Fraction, Fraction, dict[Key, int], dict[int, list[Key]]]:
    """Player ``p``'s payoff from ``mine`` against ``other`` (realization plans), the best payoff any plan of
    ``p`` gets against ``other`` (backward induction over ``p``'s own sequences), a best action sequence at each
    information set (ties broken towards the one ``mine`` plays most, then the first), and the information sets
    following each sequence."""
    direct = [Fraction(0)] * len(game.sequences[p])     # what each own sequence collects directly
    for (s1, s2), u in game.payoff[p].items():
        own, theirs = (s1, s2) if p == 0 else (s2, s1)
        if other[theirs]:
            direct[own] += u * other[theirs]
    actions = game.members(p)
    children: dict[int, list[Key]] = {}
    for key, parent in game.parent[p].items():
        children.setdefault(parent, []).append(key)
    best: dict[int, Fraction] = {}
    choice: dict[Key, int] = {}
    for k in reversed(range(len(direct))):                # children sequences come after their parents
        total = direct[k]
        for key in children.get(k, []):
            seqs = actions[key]
            top = max(best[a] for a in seqs)
            choice[key] = max((a for a in seqs if best[a] == top), key=lambda a: (mine[a], -a))
            total += top
        best[k] = total
    value = sum((mine[k] * direct[k] for k in range(len(direct))), Fraction(0))
    return value, best[0], choice, children


def _lemke(M: list[list[int]], q: list[int], max_pivots: int) -> tuple[list[Fraction], int]:
    """A solution ``z`` of the LCP ``w = q + M z`` (integer data) by Lemke's algorithm with covering vector 1.

    Tableau rows ``T[i] . (w, z, z0) = rhs[i]`` with every entry an integer: initially ``[I | -M | -1]``;
    after each pivot every basic column holds ``det`` (the last pivot element) in its row and 0 elsewhere."""
    n = len(q)
    T = [[(1 if j == i else 0) for j in range(n)] + [-v for v in M[i]] + [-1] for i in range(n)]
    rhs = list(q)
    basis = list(range(n))
    det = 1
    if all(v >= 0 for v in q):
        return [Fraction(0)] * n, 0

    def pivot(r: int, c: int) -> None:
        nonlocal det
        pr, row_r, rhs_r = T[r][c], T[r], rhs[r]
        for i in range(n):
            if i == r:
                continue
            row_i, f = T[i], T[i][c]
            if f:
                T[i] = [(x * pr - f * y) // det for x, y in zip(row_i, row_r)]
                rhs[i] = (rhs[i] * pr - f * rhs_r) // det
            elif pr != det:
                T[i] = [x * pr // det for x in row_i]
                rhs[i] = rhs[i] * pr // det
        det = pr

    z0 = 2 * n
    r = min(range(n), key=lambda i: (q[i], i))            # most negative q: z0 = -q_r makes w feasible
    pivot(r, z0)
    leaving = basis[r]
    basis[r] = z0
    for count in range(1, max_pivots + 1):
        entering = leaving + n if leaving < n else leaving - n
        candidates = [i for i in range(n) if T[i][entering] * det > 0]
        if not candidates:
            raise NoResultError("Lemke's algorithm ended on a ray (no equilibrium found this way)")
        r = _lexmin(T, rhs, candidates, entering, n, basis, z0)
        pivot(r, entering)
        leaving = basis[r]
        basis[r] = entering
        if leaving == z0:
            z = [Fraction(0)] * n
            for i, var in enumerate(basis):
                if n <= var < 2 * n:
                    z[var - n] = Fraction(rhs[i], det)
            return z, count + 1
    raise NoResultError(f"Lemke's algorithm took more than {max_pivots} pivots")


def _lexmin(T: list[list[int]], rhs: list[int], rows: list[int], c: int, n: int, basis: list[int], z0: int) -> int:
    """The leaving row: smallest ratio ``rhs / T[.][c]``, ties broken lexicographically by the columns of the
    initial basis (the ``w``), which makes every ratio test unique; ``z0`` leaves first among ties."""
    def ratio(i: int, col: int | None) -> Fraction:
        return Fraction(rhs[i] if col is None else T[i][col], T[i][c])
    best = min(ratio(i, None) for i in rows)
    tied = [i for i in rows if ratio(i, None) == best]
    for i in tied:
        if basis[i] == z0:
            return i
    for col in range(n):
        if len(tied) == 1:
            break
        low = min(ratio(i, col) for i in tied)
        tied = [i for i in tied if ratio(i, col) == low]
    return tied[0]


def sequence_regrets(game: SequenceGame, plans: tuple[tuple[Fraction, ...], tuple[Fraction, ...]]
                     ) -> tuple[tuple[Fraction, Fraction], tuple[Fraction, Fraction]]:
    """Each player's expected payoff under the realization plans and exact gain from a best response, by
    backward induction over the player's own sequences (independent of how the plans were found)."""
    payoffs, regrets = [], []
    for p in (0, 1):
        value, best, _, _ = _backward_induction(game, p, plans[1 - p], plans[p])
        payoffs.append(value)
        regrets.append(best - value)
    return (payoffs[0], payoffs[1]), (regrets[0], regrets[1])


def behaviour(tree: GambitTree, game: SequenceGame, p: int, plan: tuple[Fraction, ...]) -> dict:
    """Player ``p``'s behaviour strategy from a realization plan, by information set name (``None`` where the
    plan never reaches the set; ``P<player>:<number>`` for a set the file leaves unnamed or names twice, as
    :func:`symgame.model.gambit.infoset_keys`)."""
    names = infoset_keys(tree)
    out: dict = {}
    members = game.members(p)
    for key, parent in game.parent[p].items():
        info = tree.infosets[key]
        seqs = members[key]
        name = names[key]
        reach = plan[parent]
        out[name] = None if reach == 0 else {a: plan[k] / reach for a, k in zip(info.actions, seqs)}
    return out
