"""Polynomial games: players own variables in [0, 1]; payoffs are polynomials.

This is the representation Billingham works with (Billingham, "Full street simplified three player Kuhn poker",
arXiv:1707.01392, 2017,
section 3): each player's expected profit ``E_i`` is a polynomial in the
eleven betting frequencies and the pot ``P``.  A player best-responds by
choosing her own variables in the unit box, so the first-order conditions
of each variable ``x`` are read from the derivative ``∂E_owner/∂x``
(Billingham's conditions 1.-11.).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import sympy as sp

from ..errors import InputError
from .markup import MarkdownDisplay
from .parameters import Parameter, parameter_symbol


class PolynomialGameError(InputError):
    """A polynomial game that is not well formed (the message names the problem)."""


@dataclass(frozen=True)
class PolyPlayer:
    """A player, the variables (frequencies in [0, 1]) she owns and her payoff."""

    name: str
    variables: tuple[str, ...]
    payoff: sp.Expr

    def __post_init__(self) -> None:
        from .store import check_label

        check_label(self.name, "player name")


@dataclass(frozen=True)
class PolynomialGame(MarkdownDisplay):
    """An n-player game whose strategies are points of a unit box.

    Attributes
    ----------
    name : str
    parameters : tuple of Parameter
        Symbolic parameters such as the pot ``P``.
    players : tuple of PolyPlayer
        Payoffs are polynomials in all variables and parameters.
    description : str
    """

    name: str
    parameters: tuple[Parameter, ...]
    players: tuple[PolyPlayer, ...]
    description: str = ""
    fixed: tuple[tuple[str, sp.Expr], ...] = field(default=())

    def __post_init__(self) -> None:
        check_polynomial_game(self)

    def __repr__(self) -> str:
        return (f"PolynomialGame({self.name!r}, players={tuple(p.name for p in self.players)!r}, "
                f"variables={len(self.variables)}, parameters={self.parameter_names!r})")

    def to_markdown(self) -> str:
        """Each player's variables and payoff polynomial in Markdown (names escaped); a notebook shows it.
        """
        from .markup import markdown_text

        head = f"**{markdown_text(self.name)}**" + (
            " with " + ", ".join(f"`{p.name}` in {p.domain_text}" for p in self.parameters) if self.parameters
            else "")
        lines = [head, ""]
        for player in self.players:
            lines.append(f"- {markdown_text(player.name)} chooses `{', '.join(player.variables)}`; payoff "
                         f"`{sp.sstr(player.payoff, order='lex')}`")
        return "\n".join(lines)

    @property
    def variables(self) -> tuple[str, ...]:
        """All strategy variables, player by player."""
        return tuple(v for p in self.players for v in p.variables)

    @property
    def parameter_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.parameters)

    def symbol(self, name: str) -> sp.Symbol:
        return parameter_symbol(name)

    def owner(self, variable: str) -> int:
        """Index of the player who owns ``variable``."""
        for k, p in enumerate(self.players):
            if variable in p.variables:
                return k
        raise KeyError(variable)

    @cached_property
    def derivatives(self) -> dict[str, sp.Poly]:
        """``∂E_owner/∂x`` for each variable ``x`` as a polynomial over QQ.

        The generators are all variables followed by the parameters.
        """
        gens = self.generators
        # each payoff made a polynomial once, then differentiated as one (differentiating the expression for every
        # variable and forming a polynomial of each derivative took seconds on three-player Kuhn poker)
        payoffs = [sp.Poly(p.payoff, *gens, domain="QQ") for p in self.players]
        return {x: payoffs[self.owner(x)].diff(self.symbol(x)) for x in self.variables}

    @cached_property
    def generators(self) -> tuple[sp.Symbol, ...]:
        return tuple(self.symbol(n) for n in self.variables + self.parameter_names)

    def payoff_poly(self, player: int) -> sp.Poly:
        return sp.Poly(self.players[player].payoff, *self.generators, domain="QQ")


def check_polynomial_game(game: PolynomialGame) -> None:
    """Raise :class:`PolynomialGameError` unless the game is well formed."""
    if not game.players:
        raise PolynomialGameError("a polynomial game needs at least one player")
    seen: dict[str, str] = {}
    params = set(game.parameter_names)
    for p in game.players:
        if not p.variables:
            raise PolynomialGameError(f"player {p.name!r} owns no variables")
        for v in p.variables:
            if v in seen:
                raise PolynomialGameError(f"variable {v!r} is owned by both {seen[v]!r} and {p.name!r}")
            if v in params:
                raise PolynomialGameError(f"{v!r} is both a variable and a parameter")
            seen[v] = p.name
    known = {parameter_symbol(n) for n in list(seen) + list(params)}
    for p in game.players:
        unknown = sorted(str(s) for s in p.payoff.free_symbols - known)
        if unknown:
            raise PolynomialGameError(f"payoff of {p.name!r} uses {unknown[0]!r}, which is neither a "
                                      "parameter nor a variable owned by a player")
        gens = [parameter_symbol(n) for n in list(seen) + list(params)]
        try:
            sp.Poly(p.payoff, *gens, domain="QQ")
        except (sp.PolynomialError, sp.GeneratorsNeeded, sp.CoercionFailed):
            raise PolynomialGameError(f"payoff of {p.name!r} is not a polynomial with rational "
                                      "coefficients in the variables and parameters") from None
