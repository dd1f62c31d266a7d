"""Payoffs that are rational functions of the parameters.

Multiplying one player's payoffs by a function that is positive on the whole parameter domain
changes none of that player's best responses, so a game whose entries are rational functions,
such as ``t/(t+1)``, has the same equilibria as the game whose entries are multiplied, player by
player, by the least common multiple ``D`` of their denominators (or by ``-D`` where ``D < 0``).
:func:`clear_denominators` does that after proving, with z3 on the domain, that ``D`` never
vanishes and keeps one sign; the engine then sees polynomials only. The factor is kept on the
game (:attr:`~symgame.model.game.NormalFormGame.scales`) so that payoffs and values are reported
in the user's units.

A denominator that vanishes somewhere in the domain is a pole of a payoff: the game is not
defined there, and :class:`PoleError` names the cell and a parameter value where it happens
(restrict the domain, for instance with an assumption, to solve the game on either side).

Examples
--------
>>> from symgame import normal_form
>>> game = normal_form([["t/(t + 1)", -1], [-1, 1]], parameters={"t": "[0, 2]"}, zero_sum=True)
>>> game.scales                 # the reader cleared the denominator t + 1, positive on [0, 2]
(t + 1, t + 1)
>>> game.stated_payoffs[0]
Matrix([
[t/(t + 1), -1],
[       -1,  1]])
>>> clear_denominators(game) is game          # polynomial payoffs now: nothing to do
True
"""
from __future__ import annotations

from dataclasses import replace

import sympy as sp

from ..errors import InputError
from .decide import Decision, Z3Context, satisfiable
from .game import NormalFormGame

MAX_DENOMINATOR_DEGREE = 64


class PoleError(InputError):
    """A payoff whose denominator vanishes (or cannot be shown not to vanish) on the domain.

    ``player``, ``row``, ``column`` locate the cell (``row = column = -1``: the player's payoffs as a
    whole); ``problem`` is the one-line reason.
    """

    def __init__(self, player: int, row: int, column: int, problem: str):
        self.player, self.row, self.column, self.problem = player, row, column, problem
        where = f" at ({row + 1}, {column + 1})" if row >= 0 else "s"
        super().__init__(f"payoff{where} of player {player + 1}: {problem}")


def is_polynomial(game: NormalFormGame) -> bool:
    """Whether every payoff is a polynomial in the parameters (no parameter in a denominator)."""
    symbols = set(game.domain.symbols.values())
    return all(not (sp.fraction(sp.together(e))[1].free_symbols & symbols)
               for m in game.payoffs for e in m)


def clear_denominators(game: NormalFormGame, timeout_ms: int = 10_000) -> NormalFormGame:
    """The same game with each player's payoffs multiplied by a positive common denominator.

    Raises :class:`PoleError` when a denominator vanishes somewhere in the domain, changes sign
    on it, or when z3 cannot decide either (never guessed). A game with polynomial payoffs is
    returned unchanged.
    """
    if is_polynomial(game):
        return game
    ctx = Z3Context(game.domain)
    symbols = list(game.domain.symbols.values())
    matrices: list[sp.ImmutableMatrix] = []
    scales: list[sp.Expr] = []
    for k, matrix in enumerate(game.payoffs):
        if game.zero_sum and k == 1:     # the negative of the row player's: the same factor keeps it zero-sum
            matrices.append(-matrices[0])
            scales.append(scales[0])
            continue
        common = sp.Integer(1)
        fractions = {}
        for i in range(matrix.shape[0]):
            for j in range(matrix.shape[1]):
                num, den = sp.fraction(sp.cancel(sp.together(matrix[i, j])))
                fractions[i, j] = (num, den)
                if den.free_symbols:
                    _check_no_pole(ctx, den, matrix[i, j], (k, i, j), timeout_ms)
                    common = sp.lcm(common, den)
        if sp.Poly(common, *symbols).total_degree() > MAX_DENOMINATOR_DEGREE:
            raise PoleError(k, -1, -1, f"the common denominator of this player's payoffs has degree above "
                            f"{MAX_DENOMINATOR_DEGREE}")
        sign = _sign(ctx, common, k, timeout_ms)
        factor = sp.factor(sign * common)
        matrices.append(sp.ImmutableMatrix(matrix.shape[0], matrix.shape[1],
                                           lambda i, j: sp.expand(sp.cancel(matrix[i, j] * factor))))
        scales.append(factor)
    return replace(game, payoffs=tuple(matrices), scales=tuple(scales))


def pole_problem(ctx: Z3Context, expr: sp.Expr, timeout_ms: int = 10_000) -> str | None:
    """``None`` when the denominator of ``expr`` never vanishes on the domain, else the one-line problem."""
    den = sp.fraction(sp.cancel(sp.together(expr)))[1]
    if not den.free_symbols:
        return None
    answer = satisfiable(ctx, [ctx.term(sp.expand(den)) == 0], timeout_ms)
    if answer.satisfiable is Decision.FALSE:
        return None
    if answer.satisfiable is Decision.UNDECIDED:
        return f"cannot decide whether the denominator of {sp.sstr(expr)} vanishes on the domain (restrict the domain)"
    assert answer.point is not None
    where = ", ".join(f"{name} = {sp.sstr(value)}" for name, value in answer.point.items())
    return (f"{sp.sstr(expr)} has a pole at {where}, inside the domain (restrict the domain, for instance with an "
            "assumption, to one side of it)")


def _check_no_pole(ctx: Z3Context, den: sp.Expr, entry: sp.Expr, cell: tuple[int, int, int], timeout_ms: int) -> None:
    problem = pole_problem(ctx, entry, timeout_ms)
    if problem is not None:
        raise PoleError(*cell, problem)


def _sign(ctx: Z3Context, den: sp.Expr, player: int, timeout_ms: int) -> int:
    term = ctx.term(sp.expand(den))
    negative = satisfiable(ctx, [term < 0], timeout_ms).satisfiable
    positive = satisfiable(ctx, [term > 0], timeout_ms).satisfiable
    if negative is Decision.FALSE:
        return 1
    if positive is Decision.FALSE:
        return -1
    if Decision.UNDECIDED in (negative, positive):
        raise PoleError(player, -1, -1, f"cannot decide the sign of the denominator {sp.sstr(den)} on the domain")
    raise PoleError(player, -1, -1, f"the denominator {sp.sstr(den)} takes both signs on the domain "
                    "(split the domain with an assumption)")


__all__ = ["PoleError", "clear_denominators", "is_polynomial", "pole_problem"]
