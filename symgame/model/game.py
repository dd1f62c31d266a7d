"""Parametrized normal-form games (one or two players).

A game is given by payoff matrices whose entries are sympy expressions in
the parameters of its :class:`~symgame.model.region.Domain`.  A one-player
game is a decision problem (Ganzfried's Weakest Link, section 6.3): its
payoff "matrix" has a single column.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING, Mapping, Sequence

import sympy as sp

from .expr import compile_exact, raw_point, to_fraction
from .markup import MarkdownDisplay
from .region import Domain

if TYPE_CHECKING:
    from flint import fmpq, fmpq_mat


@dataclass(frozen=True)
class Player:
    """A player's name and the names of its pure strategies."""

    name: str
    actions: tuple[str, ...]

    def __post_init__(self) -> None:
        from .store import check_label

        check_label(self.name, "player name")
        for action in self.actions:
            check_label(action, f"action of {self.name}")


@dataclass(frozen=True)
class NormalFormGame(MarkdownDisplay):
    """A parametrized normal-form game with one or two players.

    Attributes
    ----------
    name : str
        Identifier used for output folders and JSON.
    domain : Domain
        Parameters with their domains and extra assumptions.
    players : tuple[Player, ...]
        One or two players; the first chooses rows.
    payoffs : tuple[sympy.ImmutableMatrix, ...]
        ``payoffs[k][i, j]`` is player ``k``'s payoff when the row player
        plays action ``i`` and the column player action ``j`` (``j = 0`` for a
        one-player game).
    zero_sum : bool
        Whether the second player's payoff is the negative of the first's.
    description : str
        Free text (source, modelling choices) copied into the exports.
    scales : tuple[sympy.Expr, ...]
        Empty, or one factor per player, positive on the domain, by which that player's stated
        payoffs were multiplied to clear their denominators
        (:func:`symgame.model.rational.clear_denominators`); :attr:`stated_payoffs` undoes it.
    """

    name: str
    domain: Domain
    players: tuple[Player, ...]
    payoffs: tuple[sp.ImmutableMatrix, ...]
    zero_sum: bool = False
    description: str = ""
    scales: tuple[sp.Expr, ...] = ()

    def __post_init__(self) -> None:
        if len(self.players) not in (1, 2):
            raise ValueError("only one- and two-player normal-form games are supported")
        if len(self.payoffs) != len(self.players):
            raise ValueError("one payoff matrix per player is required")
        rows = len(self.players[0].actions)
        cols = len(self.players[1].actions) if len(self.players) == 2 else 1
        for matrix in self.payoffs:
            if matrix.shape != (rows, cols):
                raise ValueError(f"payoff matrix has shape {matrix.shape}, expected {(rows, cols)}")

    @classmethod
    def two_player(cls, name: str, domain: Domain, players: Sequence[Player],
                   row_payoffs: Sequence[Sequence[sp.Expr]],
                   col_payoffs: Sequence[Sequence[sp.Expr]] | None = None,
                   description: str = "") -> "NormalFormGame":
        """Build a bimatrix game; ``col_payoffs=None`` means zero-sum."""
        a = sp.ImmutableMatrix(row_payoffs)
        b = -a if col_payoffs is None else sp.ImmutableMatrix(col_payoffs)
        return cls(name, domain, tuple(players), (a, sp.ImmutableMatrix(b)),
                   col_payoffs is None, description)

    @classmethod
    def decision(cls, name: str, domain: Domain, player: Player,
                 payoffs: Sequence[sp.Expr], description: str = "") -> "NormalFormGame":
        """Build a one-player decision problem with one payoff per action."""
        matrix = sp.ImmutableMatrix([[p] for p in payoffs])
        return cls(name, domain, (player,), (matrix,), False, description)

    def __repr__(self) -> str:
        rows, cols = self.shape
        return (f"NormalFormGame({self.name!r}, {rows}x{cols}, players={tuple(p.name for p in self.players)!r}, "
                f"parameters={tuple(self.domain.names)!r}, zero_sum={self.zero_sum})")

    def to_markdown(self) -> str:
        """The payoff table in Markdown (the row player's payoff first; one entry when zero-sum), names escaped;
        a notebook shows it.

        Returns
        -------
        str

        Examples
        --------
        >>> from symgame.model.region import Domain
        >>> game = NormalFormGame.two_player("pennies", Domain(()), [Player("Row", ("H", "T")),
        ...                                  Player("Col", ("H", "T"))], [[1, -1], [-1, 1]])
        >>> print(game.to_markdown())
        **pennies** (zero-sum; payoffs to Row)
        <BLANKLINE>
        | Row \\ Col | H | T |
        |---|---|---|
        | H | 1 | -1 |
        | T | -1 | 1 |
        >>> game
        NormalFormGame('pennies', 2x2, players=('Row', 'Col'), parameters=(), zero_sum=True)
        """
        from .markup import markdown_text

        md = markdown_text
        stated = self.stated_payoffs
        rows, cols = self.shape
        one = len(self.players) == 1
        head = f"**{md(self.name)}**"
        if self.domain.names:
            head += " with " + ", ".join(f"`{p.name}` in {p.domain_text}" for p in self.domain.parameters)
        note = "zero-sum; payoffs to " + md(self.players[0].name) if self.zero_sum else \
            ("payoffs" if one else "payoffs: row player, column player")
        lines = [f"{head} ({note})", ""]
        column_names = ["payoff"] if one else [md(a) for a in self.players[1].actions]
        corner = md(self.players[0].name) + ("" if one else " \\ " + md(self.players[1].name))
        lines.append("| " + " | ".join([corner] + column_names) + " |")
        lines.append("|" + "---|" * (len(column_names) + 1))
        for i, action in enumerate(self.players[0].actions):
            cells = []
            for j in range(cols):
                values = [stated[0][i, j]] if (one or self.zero_sum) else [stated[0][i, j], stated[1][i, j]]
                cells.append(", ".join(sp.sstr(v) for v in values))
            lines.append("| " + " | ".join([md(action)] + cells) + " |")
        return "\n".join(lines)

    @cached_property
    def stated_payoffs(self) -> tuple[sp.ImmutableMatrix, ...]:
        """The payoffs as stated by the user (rational functions) when :attr:`scales` cleared denominators."""
        if not self.scales:
            return self.payoffs
        return tuple(sp.ImmutableMatrix(m.shape[0], m.shape[1], lambda i, j: sp.cancel(m[i, j] / s))
                     for m, s in zip(self.payoffs, self.scales))

    @property
    def shape(self) -> tuple[int, int]:
        return self.payoffs[0].shape

    @cached_property
    def _exact_entries(self):
        return [[[compile_exact(sp.expand(m[i, j])) for j in range(m.shape[1])]
                 for i in range(m.shape[0])] for m in self.payoffs]

    def payoffs_at(self, point: Mapping[str, Fraction]) -> list[list[list[Fraction]]]:
        """Exact payoff matrices (one per player) at a rational parameter point."""
        return [[[to_fraction(v) for v in row] for row in m] for m in self.payoffs_at_raw(raw_point(point))]

    def payoffs_at_raw(self, point) -> list[list[list]]:
        """:meth:`payoffs_at` on python-flint ``fmpq`` values (fast path)."""
        return [[[f.raw(point) for f in row] for row in matrix] for matrix in self._exact_entries]

    @cached_property
    def _payoff_terms(self) -> list[list[tuple[tuple[int, ...], "fmpq_mat"]]] | None:
        """Each player's matrix as a sum of constant python-flint matrices times monomials of the parameters,
        ``[[(exponents, fmpq_mat), ...], ...]`` (the second player's transposed: her actions are the columns);
        None when an entry is not a polynomial over Q in them."""
        from flint import fmpq, fmpq_mat
        from sympy.polys.polyutils import parallel_dict_from_expr

        symbols = self.domain.symbols
        gens = [symbols[n] for n in self.domain.names]
        players: list[list[tuple[tuple[int, ...], fmpq_mat]]] = []
        for m in self.payoffs:
            rows, cols = m.shape
            parts: dict[tuple[int, ...], list] = {}
            exprs = [m[i, j] for i in range(rows) for j in range(cols)]
            if gens:
                # all entries in one conversion to {exponents: coefficient} (one sympy.Poly per entry took most of
                # a small game's regret; Polys of all entries at once, half of the time of this)
                # each distinct entry once (a Final Jeopardy game's 900 entries hold at most 81 distinct ones)
                distinct = list(dict.fromkeys(exprs))
                try:
                    dicts, _ = parallel_dict_from_expr(distinct, gens=gens, expand=True)
                except sp.PolynomialError:
                    return None
                if not all(c.is_Rational for d in dicts for c in d.values()):
                    return None
                terms_of = {e: d.items() for e, d in zip(distinct, dicts)}
                entry_terms = [terms_of[e] for e in exprs]
            elif all(e.is_Rational for e in exprs):
                entry_terms = [[((), e)] for e in exprs]
            else:
                return None
            for index, terms in enumerate(entry_terms):          # entry (i, j) at index i * cols + j
                for monomial, coefficient in terms:
                    q = sp.Rational(coefficient)
                    parts.setdefault(monomial, [fmpq(0)] * (rows * cols))[index] = fmpq(int(q.p), int(q.q))
            matrices = [(monomial, fmpq_mat(rows, cols, values)) for monomial, values in sorted(parts.items())]
            players.append(matrices if not players else [(mono, matrix.transpose()) for mono, matrix in matrices])
        return players

    def entry_values_raw(self, point: Mapping[str, "fmpq"], strategies: Sequence[Sequence["fmpq"]]) -> list[list]:
        """:meth:`action_values_raw` as the definition reads: every entry at the point, then weighted sums."""
        from flint import fmpq

        rows, cols = self.shape
        x = strategies[0]
        y = strategies[1] if len(self.players) == 2 else [fmpq(1)]
        matrices = self.payoffs_at_raw(point)
        out = [[weighted_sum(matrices[0][i], y) for i in range(rows)]]
        if len(self.players) == 2:
            out.append([weighted_sum([matrices[1][i][j] for i in range(rows)], x) for j in range(cols)])
        return out

    def action_values_raw(self, point: Mapping[str, "fmpq"], strategies: Sequence[Sequence["fmpq"]]) -> list[list]:
        """Each player's payoff from each of her pure actions against the others' strategies, exactly.

        Matrix products in python-flint when the payoffs are polynomials in the parameters (each player's
        matrix kept as constant matrices times monomials), :meth:`entry_values_raw` otherwise.

        Parameters
        ----------
        point : mapping of str to fmpq
            The parameters' values (:func:`~symgame.model.expr.raw_point`).
        strategies : sequence of sequences of fmpq
            One mixed strategy per player (the row player's first).

        Returns
        -------
        list of lists of fmpq
            ``[row player's payoff per row, column player's payoff per column]`` (one list for one player).

        Examples
        --------
        >>> from flint import fmpq
        >>> from symgame.model.expr import raw_point
        >>> from symgame.model.parameters import parse_domain
        >>> from symgame.model.region import Domain
        >>> t = parse_domain("t", "(0, 1)").symbol
        >>> game = NormalFormGame("demo", Domain((parse_domain("t", "(0, 1)"),)),
        ...                       (Player("R", ("U", "D")), Player("C", ("L", "R"))),
        ...                       (sp.ImmutableMatrix([[t, 0], [0, 1]]), sp.ImmutableMatrix([[-t, 0], [0, -1]])))
        >>> half = [fmpq(1, 2), fmpq(1, 2)]
        >>> game.action_values_raw(raw_point({"t": Fraction(1, 3)}), [half, half])
        [[1/6, 1/2], [-1/6, -1/2]]
        """
        from flint import fmpq, fmpq_mat

        terms = self._payoff_terms
        if terms is None:
            return self.entry_values_raw(point, strategies)
        rows, cols = self.shape
        x = strategies[0]
        y = strategies[1] if len(self.players) == 2 else [fmpq(1)]
        values = [point[n] for n in self.domain.names]
        weights: dict[tuple[int, ...], fmpq] = {}        # each monomial's value, once for both players

        def at(parts, vector, size):
            total = fmpq_mat(size, 1)
            for monomial, matrix in parts:
                weight = weights.get(monomial)
                if weight is None:
                    weight = fmpq(1)
                    for v, e in zip(values, monomial):
                        if e:
                            weight *= v ** e
                    weights[monomial] = weight
                product = matrix * vector
                total += product if weight == 1 else product * weight
            return list(total.entries())

        out = [at(terms[0], fmpq_mat(cols, 1, list(y)), rows)]
        if len(self.players) == 2:
            out.append(at(terms[1], fmpq_mat(rows, 1, list(x)), cols))      # (player 2's matrices transposed)
        return out

    @cached_property
    def _numeric_matrices(self):
        symbols = [sp.Symbol(n, real=True) for n in self.domain.names]
        return [sp.lambdify(symbols, sp.Matrix(m), "numpy") for m in self.payoffs]

    def payoffs_numeric(self, point: Mapping[str, float]):
        """Floating-point payoff matrices (numpy arrays) at a parameter point."""
        import numpy as np

        args = [float(point[n]) for n in self.domain.names]
        return [np.array(f(*args), dtype=float) for f in self._numeric_matrices]



def weighted_sum(values: Sequence["fmpq"], weights: Sequence["fmpq"]) -> "fmpq":
    """``sum(v * w)`` over python-flint ``fmpq`` values, skipping zero weights (exact).

    >>> from flint import fmpq
    >>> weighted_sum([fmpq(1, 2), fmpq(3)], [fmpq(1, 3), fmpq(0)])
    1/6
    """
    from flint import fmpq

    total = fmpq(0)
    for v, w in zip(values, weights):
        if w != 0:
            total += v * w
    return total
