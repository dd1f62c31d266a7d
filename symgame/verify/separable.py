"""Whole-range certificates with one deviation check per *group* of a player's variables.

A player's payoff in a behaviour-strategy polynomial game is often a sum of parts that share none of her own
variables: in poker, what she does holding a king never multiplies what she does holding a queen, because no
play passes through both information sets.  Write player ``i``'s payoff as

.. math:: u_i(x) = h(x_{-i}) + \\sum_g f_g(x_g, x_{-i}),

where the groups ``g`` partition her variables and no monomial of ``u_i`` holds variables of two groups
(:func:`separable_groups` finds the finest such partition from the monomials).  Then her best response
value is ``h + sum_g max f_g`` and, each ``f_g`` being multilinear in ``x_g``, each maximum is at a vertex of
the group's own box.  A profile is an equilibrium if and only if, for every player, group and vertex ``v``
of the group, ``f_g(v, x_{-i}) <= f_g(x_g, x_{-i})``: ``sum_g 2^{|g|}`` inequalities instead of
``2^{sum_g |g|}`` (three-player Kuhn poker with four cards: 50 distinct ones instead of 1,280).

:func:`certify_best_response` proves with z3 that every profile of a family (a
:class:`~symgame.verify.polycert.ProfileSet`) passes all of them for every parameter value of an interval,
with the family's formulas substituted into each gain (rational functions of the parameter and the free
frequencies, so a gain that equals one of the family's own sign conditions is refuted at once).  It is the
same claim as :func:`~symgame.verify.polycert.certify_profile_set`, decided on fewer and smaller formulas.

Examples
--------
>>> import sympy as sp
>>> from symgame.model.polygame import PolyPlayer, PolynomialGame
>>> a, b, c = sp.symbols("a b c", real=True)
>>> game = PolynomialGame("toy", (), (PolyPlayer("1", ("a", "b"), a * c + b * (1 - c)),
...                                  PolyPlayer("2", ("c",), c * (a - b))))
>>> separable_groups(game, 0)
(('a',), ('b',))
"""
from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, replace

import sympy as sp

from ..engine.ranges import ParamInterval
from ..model.decide import Decision
from ..model.polygame import PolynomialGame
from ..model.z3env import z3
from .polycert import (
    CERTIFY_TIMEOUT_MS,
    FamilyCertificate,
    ProfileSet,
    _certificate,
    _check,
    _rational_parameter,
    check_multilinear,
    encode_family,
)


def separable_groups(game: PolynomialGame, player: int) -> tuple[tuple[str, ...], ...]:
    """The finest partition of ``player``'s variables such that no monomial of her payoff holds two groups.

    Groups are listed in the order of their first variable in ``game.players[player].variables``.
    """
    own = list(game.players[player].variables)
    poly = game.payoff_poly(player)
    where = [poly.gens.index(game.symbol(x)) for x in own]
    parent = list(range(len(own)))

    def root(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    for monom in poly.monoms():
        used = [k for k, g in enumerate(where) if monom[g]]
        for k in used[1:]:
            parent[root(k)] = root(used[0])
    groups: dict[int, list[str]] = {}
    for k, x in enumerate(own):
        groups.setdefault(root(k), []).append(x)
    return tuple(tuple(g) for g in groups.values())


@dataclass(frozen=True)
class GroupDeviation:
    """One vertex deviation of one group: ``part`` is ``f_g`` (the payoff's monomials holding the group's
    variables) and ``deviated`` is ``f_g`` with the group's variables at the vertex."""

    player: int
    vertex: tuple[tuple[str, int], ...]
    part: sp.Expr
    deviated: sp.Expr

    @property
    def label(self) -> str:
        return f"player {self.player + 1} deviates to " + ", ".join(f"{x}={v}" for x, v in self.vertex)


def group_deviations(game: PolynomialGame) -> list[GroupDeviation]:
    """Every player's distinct group-vertex deviations (vertices giving the same deviated part, such as the
    choices after a bet that the vertex never reaches, are listed once)."""
    check_multilinear(game)
    out = []
    for k in range(len(game.players)):
        poly = game.payoff_poly(k)
        for group in separable_groups(game, k):
            symbols = [game.symbol(x) for x in group]
            index = [poly.gens.index(s) for s in symbols]
            part = sp.Add(*[c * sp.Mul(*[g ** e for g, e in zip(poly.gens, monom)])
                            for monom, c in poly.terms() if any(monom[j] for j in index)])
            seen = set()
            for vertex in itertools.product((0, 1), repeat=len(group)):
                # symbols replaced by xreplace: the same expansion as subs, without its pattern matching
                deviated = sp.expand(part.xreplace({s: sp.Integer(v) for s, v in zip(symbols, vertex)}))
                if deviated in seen:
                    continue
                seen.add(deviated)
                out.append(GroupDeviation(k, tuple(zip(group, vertex)), part, deviated))
    return out


def soundness_checks(game: PolynomialGame, pset: ProfileSet) -> list[tuple[str, sp.Expr, str]]:
    """What an equilibrium family must never do, as ``(reason, expr, rel)`` with ``expr rel 0`` the failure: a
    formula's denominator in the parameter vanishing (``"=="``), a frequency below 0 or above 1 (``">"``), a
    group-vertex deviation gaining (``">"``; gains that vanish identically are left out).

    Parameters
    ----------
    game : PolynomialGame
        A game whose payoffs are multilinear in each player's own frequencies.
    pset : ProfileSet
        The family (its formulas substituted into every gain).

    Returns
    -------
    list of (str, sympy expression, str)

    Raises
    ------
    NotMultilinear
        When a payoff is not multilinear in its owner's frequencies.

    Examples
    --------
    >>> import sympy as sp
    >>> from symgame.model.polygame import PolyPlayer, PolynomialGame
    >>> from symgame.verify.polycert import ProfileSet
    >>> a, c = sp.symbols("a c", real=True)
    >>> game = PolynomialGame("toy", (), (PolyPlayer("1", ("a",), a * (2 * c - 1)),
    ...                                  PolyPlayer("2", ("c",), c * (1 - 2 * a))))
    >>> for reason, expr, rel in soundness_checks(game, ProfileSet((("a", sp.Rational(1, 2)), ("c", c)),
    ...                                                            ("c",), ())):
    ...     print(reason, "|", expr, rel, 0)
    a < 0 | -1/2 > 0
    a > 1 | -1/2 > 0
    player 1 deviates to a=0 | -(2*c - 1)/2 > 0
    player 1 deviates to a=1 | (2*c - 1)/2 > 0
    """
    P = game.symbol(game.parameter_names[0]) if game.parameter_names else None
    subs = {game.symbol(x): e for x, e in pset.values if x not in pset.free}
    checks: list[tuple[str, sp.Expr, str]] = []
    for x, expr in pset.values:
        den = sp.fraction(sp.together(expr))[1]
        if den.free_symbols and den.free_symbols <= {P}:
            checks.append((f"the denominator {den} of {x} vanishes", den, "=="))
    for x, expr in pset.values:
        if x not in pset.free:
            checks += [(f"{x} < 0", -expr, ">"), (f"{x} > 1", expr - 1, ">")]
    for dev in group_deviations(game):
        gain = sp.factor(sp.together(dev.deviated.xreplace(subs) - dev.part.xreplace(subs)))
        if gain != 0:
            checks.append((dev.label, gain, ">"))
    return checks


def certify_best_response(game: PolynomialGame, pset: ProfileSet, interval: ParamInterval,
                          timeout_ms: int = CERTIFY_TIMEOUT_MS) -> FamilyCertificate:
    """Prove that every profile of ``pset`` is an equilibrium at every parameter value of ``interval``,
    one z3 query per group-vertex deviation (see the module docstring).

    Failures, in order: a formula's denominator vanishing inside the interval, a frequency outside
    ``[0, 1]``, a profitable group deviation (the counterexample names a parameter value, rational when one
    is near, the free frequencies and, under ``"reason"``, the violated check).  ``method`` is
    ``"z3, separable"``.
    """
    t0 = time.perf_counter()
    name = game.parameter_names[0]
    claim = "every profile of the family is an equilibrium on the interval"
    fam = encode_family(game, pset, interval)
    formulas = fam.base + fam.enc.side
    shown = [name, *pset.free]

    def verdict(answer, reason: str) -> FamilyCertificate:
        return replace(_certificate(claim, answer, t0, fam.enc, shown, reason), method="z3, separable")

    undecided = None
    for reason, expr, rel in soundness_checks(game, pset):
        if expr.is_number:
            holds = expr == 0 if rel == "==" else bool(expr > 0)
            if holds:
                return FamilyCertificate(claim, Decision.FALSE, {"reason": reason}, time.perf_counter() - t0,
                                         "z3, separable")  # decided without z3: no model to show
            continue
        num, den = sp.fraction(sp.together(expr))
        amount = fam.enc.term(sp.expand(num * den))  # the sign of expr, where den != 0
        violated = amount == 0 if rel == "==" else z3.And(amount > 0, fam.enc.term(sp.expand(den)) != 0)
        answer = _check(formulas + [violated], timeout_ms)
        if answer[0] == z3.sat:
            if rel == ">":
                answer = _rational_parameter(formulas, [(reason, amount)], fam.P, answer, timeout_ms)
            return verdict(answer, reason)
        if answer[0] != z3.unsat:
            undecided = answer
    return verdict(undecided or (z3.unsat, None), "")
