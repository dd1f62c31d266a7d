"""Exact certificates that a support profile holds no Nash equilibrium, by a lifted linear relaxation.

For a support profile ``S = (S_1, ..., S_n)`` of a finite strategic game, an equilibrium with exactly that support
satisfies, for each player ``i``: every strategy of ``S_i`` pays the same against the others' mixtures, and no
strategy pays more. These conditions are multilinear in the mixtures. Two families of new unknowns make them
linear while keeping part of what the product structure implies:

- ``q(r) = sigma_1(r_1) ... sigma_n(r_n)`` for each pure profile ``r`` of the support (a distribution);
- ``m_j(r, e) = q(r) sigma_j(e)`` for each player ``j`` and strategy ``e`` of ``S_j``; summed over ``e`` it is
  ``q(r)``, and it is symmetric in ``(r_j, e)`` (both are ``sigma_j(r_j) sigma_j(e)`` times the rest).

Player ``i``'s conditions multiplied by ``sigma_i(c)`` for each own support strategy ``c`` (and, for the second
family, also by ``sigma_j(e)``) are linear in these unknowns, with every coefficient a payoff difference (a
sum over the profiles with ``r_i = c``). This is a Sherali-Adams style lift of the correlated-equilibrium
relaxation (the ``q`` part alone is the relaxation that :mod:`symgame.engine.enumpoly` screens every support
with); the symmetry of ``m_j`` is what the plain relaxation does not see.

When the lifted system has no nonnegative solution at all, Farkas' lemma gives multipliers ``y`` (free for the
equations, nonnegative for the inequalities ``<= 0``, and ``-1`` for ``sum q = 1``) whose combination of the
rows has every coefficient nonnegative: a combination that is ``>= 0`` on every nonnegative point yet says
``-1 >= 0``. A floating-point LP (SciPy's HiGHS dual simplex) finds a vertex of the multipliers' polyhedron; its
nonzero multipliers and tight columns are solved again exactly over the rationals (FLINT's ``fmpq_mat.rref``),
and the result is checked in exact arithmetic (:func:`check_no_equilibrium`), so no floating-point value decides
anything. A support whose relaxation is feasible (any support of an equilibrium) gets no certificate.

References: H. D. Sherali and W. P. Adams, "A hierarchy of relaxations between the continuous and convex hull
representations for zero-one programming problems", SIAM Journal on Discrete Mathematics 3(3), 411-430 (1990);
Farkas' lemma in the form of A. Schrijver, *Theory of Linear and Integer Programming*, Wiley (1986), section 7.3,
Corollary 7.1e.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import product

from ..model.gambit import StrategicGame
from .enumpoly import _with

Support = tuple[tuple[int, ...], ...]
#: One row of the lifted system: its coefficients by unknown and its relation to 0 (``"="`` or ``"<="``).
Row = tuple[dict[int, Fraction], str]


@dataclass(frozen=True)
class NoEquilibriumCertificate:
    """Farkas multipliers proving that a support profile holds no Nash equilibrium.

    Attributes
    ----------
    support : tuple of tuple of int
        Each player's support (strategies numbered from 0).
    multipliers : tuple of (int, Fraction)
        The nonzero multipliers, by row of :func:`lifted_rows` (the normalization ``sum q = 1`` has multiplier
        ``-1`` and is not listed).
    rows : int
        The number of rows of the lifted system.
    unknowns : int
        Its number of unknowns.
    """

    support: Support
    multipliers: tuple[tuple[int, Fraction], ...]
    rows: int
    unknowns: int


def lifted_rows(game: StrategicGame, support: Support) -> tuple[list[Row], dict[int, Fraction], int]:
    """The lifted linear system of a support profile (module text), exact.

    Parameters
    ----------
    game : StrategicGame
    support : tuple of tuple of int
        Each player's support, strategies numbered from 0, nonempty and sorted.

    Returns
    -------
    rows : list of (dict, str)
        Each row's coefficients by unknown and its relation to 0 (``"="`` or ``"<="``).
    normalization : dict
        The coefficients of ``sum q = 1`` (the one row with a right-hand side).
    unknowns : int
        The number of unknowns (all nonnegative).

    Raises
    ------
    ValueError
        When the support does not fit the game.

    Examples
    --------
    Matching pennies, both players on their first strategy: 1 ``q`` and 2 ``m`` per player, 3 unknowns in all.

    >>> from fractions import Fraction as F
    >>> from symgame.model.gambit import StrategicGame
    >>> pennies = StrategicGame("pennies", ("1", "2"), (("H", "T"), ("H", "T")),
    ...                         ((F(1), F(-1)), (F(-1), F(1)), (F(-1), F(1)), (F(1), F(-1))))
    >>> rows, normalization, unknowns = lifted_rows(pennies, ((0,), (0,)))
    >>> unknowns, normalization
    (3, {0: Fraction(1, 1)})
    """
    if len(support) != len(game.shape) or any(
            not s or list(s) != sorted(set(s)) or s[0] < 0 or s[-1] >= n for s, n in zip(support, game.shape)):
        raise ValueError(f"support {support} does not fit a game of shape {game.shape}")
    profiles = list(product(*support))
    index: dict[tuple, int] = {}
    for r in profiles:
        index["q", r] = len(index)
    for j, s in enumerate(support):
        for r in profiles:
            for e in s:
                index["m", j, r, e] = len(index)
    rows: list[Row] = []
    for j, s in enumerate(support):
        for r in profiles:
            row = {index["m", j, r, e]: Fraction(1) for e in s}
            row[index["q", r]] = Fraction(-1)
            rows.append((row, "="))
            for e in s:
                if e > r[j]:
                    swapped = _with(r, j, e)
                    rows.append(({index["m", j, r, e]: Fraction(1), index["m", j, swapped, r[j]]: Fraction(-1)}, "="))
    payoff = {r: game.payoff(r) for r in product(*(range(n) for n in game.shape))}
    for i, s in enumerate(support):
        for c in s:
            mine = [r for r in profiles if r[i] == c]
            weights = [[index["q", r] for r in mine]] + [[index["m", j, r, e] for r in mine]
                                                         for j, sj in enumerate(support) for e in sj]
            for unknowns in weights:
                for b in range(game.shape[i]):
                    if b == s[0]:
                        continue
                    gains: dict[int, Fraction] = {}
                    for k, r in zip(unknowns, mine):
                        gain = payoff[_with(r, i, b)][i] - payoff[_with(r, i, s[0])][i]
                        if gain:
                            gains[k] = gains.get(k, Fraction(0)) + gain
                    if gains:
                        rows.append((gains, "=" if b in s else "<="))
    return rows, {index["q", r]: Fraction(1) for r in profiles}, len(index)


def check_no_equilibrium(game: StrategicGame, certificate: NoEquilibriumCertificate) -> bool:
    """Whether ``certificate`` proves, in exact arithmetic, that its support holds no equilibrium of ``game``.

    The multipliers of the inequalities must be nonnegative, and every coefficient of the combination (the
    multipliers times the rows, minus the normalization) nonnegative: then every nonnegative point of the
    lifted system would give ``0 <= -1``.

    Parameters
    ----------
    game : StrategicGame
    certificate : NoEquilibriumCertificate

    Returns
    -------
    bool

    Examples
    --------
    >>> from fractions import Fraction as F
    >>> from symgame.model.gambit import StrategicGame
    >>> pennies = StrategicGame("pennies", ("1", "2"), (("H", "T"), ("H", "T")),
    ...                         ((F(1), F(-1)), (F(-1), F(1)), (F(-1), F(1)), (F(1), F(-1))))
    >>> cert = no_equilibrium_certificate(pennies, ((0,), (0,)))
    >>> check_no_equilibrium(pennies, cert)
    True
    >>> from dataclasses import replace
    >>> check_no_equilibrium(pennies, replace(cert, multipliers=()))
    False
    """
    return _holds(*lifted_rows(game, certificate.support), certificate)


def _holds(rows: list[Row], normalization: dict[int, Fraction], unknowns: int,
           certificate: NoEquilibriumCertificate) -> bool:
    """:func:`check_no_equilibrium` on the support's lifted system, built once by the caller."""
    if (len(rows), unknowns) != (certificate.rows, certificate.unknowns):
        return False
    total = [-normalization.get(k, Fraction(0)) for k in range(unknowns)]
    for k, y in certificate.multipliers:
        if not 0 <= k < len(rows) or (rows[k][1] == "<=" and y < 0):
            return False
        for c, a in rows[k][0].items():
            total[c] += y * a
    return all(v >= 0 for v in total)


def no_equilibrium_certificate(game: StrategicGame, support: Support) -> NoEquilibriumCertificate | None:
    """An exact certificate that ``support`` holds no Nash equilibrium of ``game`` (module text), or ``None``.

    ``None`` when the lifted relaxation is feasible (every support of an equilibrium, and others), or when the
    exact solve of the floating-point LP's vertex does not give multipliers that :func:`check_no_equilibrium`
    accepts. A certificate returned has been checked.

    Parameters
    ----------
    game : StrategicGame
    support : tuple of tuple of int
        Each player's support, strategies numbered from 0.

    Returns
    -------
    NoEquilibriumCertificate or None

    Raises
    ------
    ValueError
        When the support does not fit the game.

    Examples
    --------
    Matching pennies has no pure equilibrium, and its one equilibrium has full support:

    >>> from fractions import Fraction as F
    >>> from symgame.model.gambit import StrategicGame
    >>> pennies = StrategicGame("pennies", ("1", "2"), (("H", "T"), ("H", "T")),
    ...                         ((F(1), F(-1)), (F(-1), F(1)), (F(-1), F(1)), (F(1), F(-1))))
    >>> no_equilibrium_certificate(pennies, ((0,), (0,))) is not None
    True
    >>> no_equilibrium_certificate(pennies, ((0, 1), (0, 1))) is None
    True
    """
    import flint
    import numpy as np
    from scipy.optimize import linprog
    from scipy.sparse import coo_matrix

    rows, normalization, unknowns = lifted_rows(game, support)
    entries = [(c, k, float(a)) for k, (row, _) in enumerate(rows) for c, a in row.items()]
    transposed = coo_matrix(([a for _, _, a in entries], ([c for c, _, _ in entries], [k for _, k, _ in entries])),
                            shape=(unknowns, len(rows))).tocsr()
    target = np.array([float(normalization.get(c, 0)) for c in range(unknowns)])
    bounds = [(None, None) if relation == "=" else (0, None) for _, relation in rows]
    found = linprog(np.zeros(len(rows)), A_ub=-transposed, b_ub=-target, bounds=bounds, method="highs-ds")
    if found.status != 0:
        return None
    y = found.x
    basis = [k for k in range(len(rows)) if abs(y[k]) > 1e-9]
    combined = transposed @ y
    tight = [c for c in range(unknowns) if abs(combined[c] - target[c]) <= 1e-7]
    # the vertex again, exactly: the nonzero multipliers that make the tight columns' coefficients 0
    system = flint.fmpq_mat(len(tight), len(basis) + 1)
    place = {c: i for i, c in enumerate(tight)}
    for j, k in enumerate(basis):
        for c, a in rows[k][0].items():
            if c in place:
                system[place[c], j] = flint.fmpq(a.numerator, a.denominator)
    for c in tight:
        value = normalization.get(c, Fraction(0))
        system[place[c], len(basis)] = flint.fmpq(value.numerator, value.denominator)
    reduced, rank = system.rref()
    values: dict[int, Fraction] = {}
    for r in range(rank):
        pivot = next(j for j in range(len(basis) + 1) if reduced[r, j] != 0)
        if pivot == len(basis):
            return None                      # the tight columns have no exact solution on this basis
        exact = reduced[r, len(basis)]
        values[basis[pivot]] = Fraction(int(exact.p), int(exact.q))
    certificate = NoEquilibriumCertificate(tuple(tuple(s) for s in support),
                                           tuple(sorted((k, v) for k, v in values.items() if v)), len(rows),
                                           unknowns)
    return certificate if _holds(rows, normalization, unknowns, certificate) else None
