"""Frequencies of a polynomial game fixed by dominance, proved once for the whole parameter domain.

A variable ``x`` of player ``i`` whose derivative ``g_x = ∂E_i/∂x`` is ``<= 0`` on the whole strategy box and
parameter domain never gains by being raised: setting ``x = 0`` costs player ``i`` nothing against any
opponents.  Every equilibrium of the game with ``x`` fixed at 0 is then an equilibrium of the whole game
(player ``i``'s best response over the box is attained on the face ``x = 0``, and the other players' conditions
are those of the smaller game); likewise ``x = 1`` when ``g_x >= 0``.  z3 proves the sign (both questions
``g_x > 0`` and ``g_x < 0`` on the box; an ``unsat`` answer is a proof), and the pass repeats on the smaller
game until nothing more is fixed.  A derivative that vanishes where the information set is never reached
has no *strict* sign, so this is weak dominance; equilibria in which the fixed action is played with
positive probability may be lost, those of the smaller game never are.

>>> import sympy as sp
>>> from symgame.model.parameters import parse_domain
>>> from symgame.model.polygame import PolynomialGame, PolyPlayer
>>> x, y, z, w, P = sp.symbols("x y z w P", real=True)
>>> game = PolynomialGame("g", (parse_domain("P", "[1, 2]"),),
...                       (PolyPlayer("1", ("x", "z"), x * (y - P) + z * (1 - 2 * y)),
...                        PolyPlayer("2", ("y", "w"), y * (1 - x) + w * (x - y / 2))))
>>> result = weakly_dominated(game)       # y - P <= 0: x = 0; 1 - x >= 0: y = 1
>>> result.fixed, result.game.variables   # z and w would follow, but each player keeps one variable
({'x': 0, 'y': 1}, ('z', 'w'))
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Iterable

import sympy as sp

from ..model.polygame import PolynomialGame, PolyPlayer
from ..model.z3env import z3
from .z3terms import polynomial_term


@dataclass(frozen=True)
class DominanceResult:
    """Variables fixed by a proved sign of their derivative, in the order they were fixed."""

    game: PolynomialGame
    fixed: dict[str, int]
    undecided: tuple[str, ...] = field(default=())
    rounds: int = 0


def fix_variables(game: PolynomialGame, values: dict[str, int]) -> PolynomialGame:
    """``game`` with the variables of ``values`` replaced by those numbers (recorded in ``fixed``)."""
    subs = {game.symbol(x): sp.Integer(v) for x, v in values.items()}
    players = tuple(PolyPlayer(p.name, tuple(x for x in p.variables if x not in values), sp.expand(p.payoff.subs(subs)))
                    for p in game.players)
    fixed = tuple(sorted(dict(game.fixed, **{x: sp.Integer(v) for x, v in values.items()}).items()))
    return PolynomialGame(game.name, game.parameters, players, game.description, fixed)


def weakly_dominated(game: PolynomialGame, timeout_ms: int | None = 20_000,
                     skip: Iterable[str] = ()) -> DominanceResult:
    """Fix, repeatedly, every variable whose derivative keeps one sign on the box and parameter domain.

    A derivative z3 cannot decide within ``timeout_ms`` (``None``: no limit) is left free and listed in
    ``undecided``; so is every variable in ``skip``, whose derivative is not tried at all (declared beyond
    reach: with ``skip`` and no limit, what is fixed does not depend on the machine's speed).
    """
    fixed: dict[str, int] = {}
    rounds = 0
    undecided: set[str] = set(skip) & set(game.variables)
    while True:
        rounds += 1
        found = _constant_signs(game, timeout_ms, undecided, frozenset(skip))
        for p in game.players:             # a player keeps at least one variable (a game needs one each)
            if p.variables and all(x in found for x in p.variables):
                del found[p.variables[-1]]
        if not found:
            break
        fixed.update(found)
        game = fix_variables(game, found)
    return DominanceResult(game, fixed, tuple(sorted(undecided - set(fixed))), rounds)


def _constant_signs(game: PolynomialGame, timeout_ms: int | None, undecided: set[str],
                    skip: frozenset[str] = frozenset()) -> dict[str, int]:
    names = {str(s): z3.Real(str(s)) for s in game.generators}
    box = [c for x in game.variables for c in (names[x] >= 0, names[x] <= 1)]
    for param in game.parameters:
        box += _domain_constraints(param, names[param.name])
    found: dict[str, int] = {}
    for x, g in game.derivatives.items():
        if x in skip:
            continue
        term = polynomial_term(g, [names[str(v)] for v in g.gens])
        answers = []
        for holds in (term > 0, term < 0):
            solver = z3.Solver()
            if timeout_ms:
                solver.set("timeout", timeout_ms)
            solver.add(*box, holds)
            answers.append(solver.check())
        if answers[0] == z3.unsat and answers[1] == z3.unsat:
            continue                     # g == 0 on the whole box: x does not matter to its owner
        if answers[0] == z3.unsat:
            found[x] = 0
        elif answers[1] == z3.unsat:
            found[x] = 1
        elif z3.unknown in answers:
            undecided.add(x)
    return found


def sign_witnesses(game: PolynomialGame, variable: str, timeout_ms: int | None = None
                   ) -> dict[str, dict[str, Fraction] | None]:
    """Exact points where a derivative is positive and where it is negative: a certificate that ``variable`` is
    not dominated (neither face is weakly better for its owner against every opponent).

    z3 looks for a model of ``g_x > 0`` (resp. ``< 0``) on the strategy box and the parameter domain; the model is
    rounded to rationals (algebraic values to ever finer approximations) until the point lies in the box and the
    domain and the sign of ``g_x`` there is checked exactly.

    Parameters
    ----------
    game : PolynomialGame
    variable : str
        One of ``game.variables``.
    timeout_ms : int or None
        z3's budget per sign (None: no limit).

    Returns
    -------
    dict
        ``{"+": point, "-": point}``, each point a mapping of every variable and parameter to a Fraction, or None
        where z3 finds no model (it proves there is none, or gives up within ``timeout_ms``).

    Examples
    --------
    >>> import sympy as sp
    >>> from symgame.model.parameters import parse_domain
    >>> from symgame.model.polygame import PolynomialGame, PolyPlayer
    >>> x, y, P = sp.symbols("x y P", real=True)
    >>> game = PolynomialGame("g", (parse_domain("P", "[1, 2]"),),
    ...                       (PolyPlayer("1", ("x",), x * (y - P / 2)), PolyPlayer("2", ("y",), y * x)))
    >>> found = sign_witnesses(game, "x")            # y - P/2 takes both signs
    >>> found["+"]["y"] > found["+"]["P"] / 2, found["-"]["y"] < found["-"]["P"] / 2
    (True, True)
    """
    names = {str(s): z3.Real(str(s)) for s in game.generators}
    box = [c for x in game.variables for c in (names[x] >= 0, names[x] <= 1)]
    for param in game.parameters:
        box += _domain_constraints(param, names[param.name])
    g = game.derivatives[variable]
    term = polynomial_term(g, [names[str(v)] for v in g.gens])
    out: dict[str, dict[str, Fraction] | None] = {}
    for sign, holds in (("+", term > 0), ("-", term < 0)):
        solver = z3.Solver()
        if timeout_ms:
            solver.set("timeout", timeout_ms)
        solver.add(*box, holds)
        out[sign] = _rational_witness(game, g, sign, solver.model(), names) if solver.check() == z3.sat else None
    return out


def _rational_witness(game: PolynomialGame, g: sp.Poly, sign: str, model, names) -> dict[str, Fraction] | None:
    """The model rounded to rationals, finer and finer, until it is in the box and domain and ``g`` has ``sign``."""
    for digits in (10, 20, 40, 80):
        point = {}
        for name, var in names.items():
            value = model.eval(var, model_completion=True)
            if not z3.is_rational_value(value):
                value = value.approx(digits)
            point[name] = Fraction(value.as_fraction())
        inside = all(0 <= point[x] <= 1 for x in game.variables) and all(
            p.contains(point[p.name]) for p in game.parameters)
        value = g.as_expr().subs({s: sp.Rational(point[str(s)].numerator, point[str(s)].denominator)
                                  for s in game.generators})
        if inside and (value > 0 if sign == "+" else value < 0):
            return point
    return None


def _domain_constraints(param, var: z3.ArithRef) -> list[z3.BoolRef]:
    out = []
    for bound, closed, lower in ((param.lower, param.lower_closed, True), (param.upper, param.upper_closed, False)):
        if not sp.sympify(bound).is_finite:
            continue
        value = z3.RealVal(str(sp.Rational(bound)))
        out.append((var >= value if closed else var > value) if lower else (var <= value if closed else var < value))
    return out
