"""Exact whole-interval soundness certificates in the plane of the parameter and one free frequency.

:func:`symgame.verify.separable.certify_best_response` asks z3 whether some group-vertex deviation gains
anywhere on a family.  Where the family has at most one free frequency ``z`` the same question lives in the
plane ``(P, z)``, and a cylindrical algebraic decomposition decides it exactly, with no timeout
(:mod:`symgame.model.cad`; Collins, "Quantifier elimination for real closed fields by cylindrical algebraic
decomposition", LNCS 33, 1975).  This matters for *algebraic* families, where ``z`` is a root of an equation
``m(P, z) = 0`` of degree two or more and every other frequency a polynomial in ``z``: z3's nonlinear solver
gives no answer on them in minutes, the CAD answers in seconds.

At a single rational pot the parameter is a number and the plane can hold two free frequencies instead (a
family whose profiles form a curve there).

:func:`certify_best_response_plane` checks, for every ``P`` of the interval and every ``z`` in ``[0, 1]`` that
satisfies the family's conditions (or, at a rational pot, every pair of free frequencies that does):

* no formula's denominator vanishes, no frequency leaves ``[0, 1]``;
* no group-vertex deviation of any player gains (:func:`symgame.verify.separable.group_deviations`).

Two reductions keep the CAD small, neither of which changes the answer:

* **modulo the tie**: on ``m = 0`` a polynomial ``g`` has the sign of its pseudo-remainder by ``m`` in ``z``,
  times a power of ``m``'s leading coefficient (made even), wherever that coefficient has no root in the
  interval; every condition and check then has degree below ``m``'s in ``z``;
* **conditions on demand**: each check is first decided with only the interval, the tie and ``0 <= z <= 1``;
  a point the CAD finds is tested against the family's other conditions (numerically, to choose), and the
  first one it violates is added, until the CAD finds no point (proved: a subset of the conditions already
  excludes every violation) or a point that satisfies all of them, which is then decided with every condition
  (exact).  The numerical test only chooses what to add; every verdict comes from the CAD.

Examples
--------
A toy family: player 1 plays ``z`` with ``4 z^2 = P`` (so ``z = sqrt(P)/2``), player 2 plays ``c = 1/2``;
player 1's payoff is ``z (c - 1/2)``, player 2's ``c (1/2 - z)``.  Player 1 is indifferent, player 2 only
while ``z = 1/2``: the family is an equilibrium at ``P = 1`` and, on ``[1/2, 2]``, player 2 gains by
``c = 0`` where ``P > 1``:

>>> import sympy as sp
>>> from symgame.engine.ranges import ParamInterval, rational_endpoint
>>> from symgame.model.parameters import parse_domain
>>> from symgame.model.polygame import PolyPlayer, PolynomialGame
>>> from symgame.verify.polycert import ProfileSet
>>> P, z, c = sp.symbols("P z c", real=True)
>>> game = PolynomialGame("toy", (parse_domain("P", "[0, 4]"),), (PolyPlayer("1", ("z",), z * (c - sp.Rational(1, 2))),
...                                        PolyPlayer("2", ("c",), c * (sp.Rational(1, 2) - z))))
>>> family = ProfileSet((("z", z), ("c", sp.Rational(1, 2))), ("z",), ((4 * z**2 - P, "=="),))
>>> one = rational_endpoint(sp.Integer(1), P)
>>> certify_best_response_plane(game, family, ParamInterval(one, True, one, True)).decision
<Decision.TRUE: 'true'>
>>> wide = ParamInterval(rational_endpoint(sp.Rational(1, 2), P), True, rational_endpoint(sp.Integer(2), P), True)
>>> result = certify_best_response_plane(game, family, wide)
>>> result.decision, result.counterexample["reason"]
(<Decision.FALSE: 'false'>, 'player 2 deviates to c=0')
"""
from __future__ import annotations

import time
from fractions import Fraction

import sympy as sp

from ..engine.parametric import has_sqrt
from ..engine.ranges import Endpoint, ParamInterval
from ..errors import InputError, LimitError
from ..model.decide import Decision
from ..model.polygame import PolynomialGame
from .polycert import FamilyCertificate, ProfileSet
from .separable import soundness_checks

METHOD = "plane CAD, separable"
#: halvings of a witness's isolating intervals before the family's conditions are evaluated there (only to
#: choose which condition to add; every verdict is the CAD's)
WITNESS_BITS = 160


class _Plane:
    """The polynomials of one certificate in the plane ``(P, z)`` (the line ``P``; or, at a rational pot, the
    plane of two free frequencies), reduced modulo the tie."""

    def __init__(self, game: PolynomialGame, pset: ProfileSet, interval: ParamInterval):
        from ..model.cad import Plane

        self.P = game.symbol(game.parameter_names[0])
        self.interval = interval
        free = [sp.Symbol(x, real=True) for x in pset.free]
        #: the parameter's value when the interval is one rational pot (two free frequencies: the plane is theirs)
        self.fixed: dict[sp.Symbol, sp.Expr] = {}
        if len(free) == 2:
            self.fixed = {self.P: sp.Rational(interval.lower.lower.numerator, interval.lower.lower.denominator)}
            equations = [self.substituted(e) for e, rel in pset.constraints if rel == "=="]
            # the second generator is the one the tie has the highest degree in (the reduction is in it)
            free.sort(key=lambda v: max([sp.Poly(e, v).degree() for e in equations if v in e.free_symbols],
                                        default=0))
            self.gens = free
        else:
            self.gens = [self.P] + free
        self.z = free[-1] if free else None
        self.plane = Plane(tuple(str(g) for g in self.gens))
        if self.fixed:
            x = self.gens[0]
            self.domain: list = [self.atom(x, ">="), self.atom(1 - x, ">=")]
        else:
            self.domain = self.interval_atoms(interval)
        self.base: list = list(self.domain)
        if self.z is not None:
            self.base += [self.atom(self.z, ">="), self.atom(1 - self.z, ">=")]
        self.tie: sp.Poly | None = None
        self.lead: sp.Expr = sp.Integer(1)
        if self.z is not None:
            ties = [sp.Poly(sp.fraction(sp.together(self.substituted(e)))[0], self.z)
                    for e, rel in pset.constraints if rel == "=="]
            ties = [t for t in ties if t.degree() >= 2]
            if ties:
                tie = min(ties, key=lambda t: (t.degree(), len(str(t.as_expr()))))
                self.base.append(self.atom(tie.as_expr(), "=="))
                lead = sp.expand(tie.LC())
                # reduce modulo the tie only where its leading coefficient keeps one sign on the domain
                if lead.is_number or not self.plane.satisfiable(("and", self.domain + [self.atom(lead, "==")]))[0]:
                    self.tie, self.lead = tie, lead

    def substituted(self, expr: sp.Expr) -> sp.Expr:
        """``expr`` at the fixed parameter value (unchanged when the parameter is a coordinate)."""
        return expr.xreplace(self.fixed) if self.fixed else expr

    # ---- atoms ---------------------------------------------------------------------------------------
    def poly(self, expr: sp.Expr):
        import flint

        q = sp.Poly(sp.expand(self.substituted(expr)), *self.gens, domain=sp.QQ)
        return self.plane.ctx.from_dict({m: flint.fmpq(int(c.numerator), int(c.denominator))
                                         for m, c in q.terms()})

    def atom(self, expr: sp.Expr, rel: str) -> tuple:
        return ("atom", self.poly(expr), rel)

    def reduced(self, num: sp.Expr) -> sp.Expr:
        """A polynomial with the sign of ``num`` wherever the tie holds (the pseudo-remainder, times the tie's
        leading coefficient when its power is odd)."""
        num = sp.expand(self.substituted(num))
        if self.tie is None or self.z is None:
            return num
        degree = sp.Poly(num, self.z).degree()
        if degree < self.tie.degree():
            return num
        rest = sp.prem(num, self.tie.as_expr(), self.z)
        if (degree - self.tie.degree() + 1) % 2:
            rest = rest * self.lead
        return sp.expand(rest)

    def condition(self, expr: sp.Expr, rel: str) -> list[tuple]:
        """Atoms of ``expr rel 0`` (``rel`` one of ``>``, ``>=``, ``==``, ``!=``): ``den != 0`` and the reduced
        ``num * den rel 0``."""
        num, den = sp.fraction(sp.together(self.substituted(expr)))
        den = sp.expand(den)
        if den.is_number:
            return [self.atom(self.reduced(num * sp.sign(den)), rel)]
        return [self.atom(self.reduced(den), "!="), self.atom(self.reduced(num * den), rel)]

    def interval_atoms(self, iv: ParamInterval) -> list:
        out = [self._end(iv.lower, ">", iv.lower_closed)]
        if iv.upper is not None:
            out.append(self._end(iv.upper, "<", iv.upper_closed))
        return out

    def _end(self, end: Endpoint, side: str, closed: bool) -> tuple:
        """``P > end`` (``side`` ``">"``) or ``P < end``, or- or equal when ``closed``: an algebraic end through
        its polynomial, which changes sign exactly once on its isolating interval."""
        P = self.P
        sign = 1 if side == ">" else -1
        if end.is_rational:
            q = sp.Rational(end.lower.numerator, end.lower.denominator)
            return self.atom(sign * (P - q), ">=" if closed else ">")
        low, high = (sp.Rational(v.numerator, v.denominator) for v in (end.lower, end.upper))
        # the irreducible factor of the end's polynomial that vanishes at it: of degree two or more (the end is
        # irrational), so nonzero at the rational ends of the interval, where it changes sign once
        factors = [f for f, _ in sp.factor_list(sp.expand(end.poly), P)[1]
                   if sp.sign(f.subs(P, low)) * sp.sign(f.subs(P, high)) < 0]
        if len(factors) != 1:
            raise InputError(f"the end {end.value} of {self.interval.text()} is not isolated by its interval")
        poly = sp.expand(factors[0])
        at_low, at_high = sp.sign(poly.subs(P, low)), sp.sign(poly.subs(P, high))
        inside = [self.atom(P - low, ">"), self.atom(high - P, ">")]
        beyond = self.atom(P - high, ">=") if side == ">" else self.atom(low - P, ">=")
        strict = ("or", [beyond, ("and", inside + [self.atom(poly * (at_high if side == ">" else at_low), ">")])])
        if not closed:
            return strict
        return ("or", [strict, ("and", inside + [self.atom(poly, "==")])])

    # ---- decisions -----------------------------------------------------------------------------------
    def witness(self, extra: list) -> tuple | None:
        found, point = self.plane.satisfiable(("and", self.base + extra))
        return point if found else None


def _approximate(point: tuple) -> list[Fraction]:
    out = []
    for root in point:
        for _ in range(WITNESS_BITS):
            if root.rational:
                break
            root.refine()
        mid = root.exact() if root.rational else (root.low + root.high) / 2
        out.append(Fraction(int(mid.p), int(mid.q)))
    return out


def _violated(conditions: list[tuple[sp.Expr, str]], gens: list[sp.Symbol], at: list[Fraction]) -> int | None:
    """The index of a condition that fails clearly at the approximate point ``at`` (numbers beyond rounding),
    else ``None``."""
    values = {g: sp.Rational(v.numerator, v.denominator) for g, v in zip(gens, at)}
    for k, (expr, rel) in enumerate(conditions):
        num, den = sp.fraction(sp.together(expr))
        value = sp.Rational(sp.expand(num * den).xreplace(values))
        scale = sum(abs(sp.Rational(c)) for c in sp.Poly(sp.expand(num * den), *gens).coeffs()) or 1
        tolerance = scale * sp.Rational(1, 2 ** (WITNESS_BITS // 2))
        if (rel in (">", ">=") and value < -tolerance) or (rel == "==" and abs(value) > tolerance):
            return k
    return None


def _show(root) -> str:
    if root.rational:
        return str(root.fraction())
    return f"root of {root.poly} near {float(root):.12g}"


def certify_best_response_plane(game: PolynomialGame, pset: ProfileSet, interval: ParamInterval
                                ) -> FamilyCertificate:
    """Prove, exactly, that every profile of ``pset`` is an equilibrium at every parameter value of
    ``interval``, for a family with at most one free frequency, or two at a single rational pot (see the module
    docstring).

    Parameters
    ----------
    game : PolynomialGame
        A game with one parameter whose payoffs are multilinear in each player's own frequencies.
    pset : ProfileSet
        The family: formulas in the parameter and at most one free frequency (two when ``interval`` is a
        rational pot), without square roots.
    interval : ParamInterval
        Exact ends (rational or algebraic).

    Returns
    -------
    FamilyCertificate
        ``decision`` TRUE (proved), FALSE (``counterexample``: the parameter, the free frequency and, under
        ``"reason"``, the check that fails there; exact algebraic numbers; the pot itself when it was fixed) or
        UNDECIDED when a size limit of the
        CAD is reached (never a time limit); ``method`` is ``"plane CAD, separable"``.

    Raises
    ------
    InputError
        When the game has more than one parameter, the family more free frequencies than the plane holds or a
        square root.

    Examples
    --------
    See the module docstring.
    """
    t0 = time.perf_counter()
    claim = "every profile of the family is an equilibrium on the interval"
    at_pot = interval.is_point and interval.lower.is_rational
    if len(game.parameter_names) != 1 or len(pset.free) > (2 if at_pot else 1):
        raise InputError(f"a plane certificate needs one parameter and at most one free frequency (two at a "
                         f"rational pot), not {len(game.parameter_names)} and {len(pset.free)}")
    if any(has_sqrt(e) for _, e in pset.values) or any(has_sqrt(e) for e, _ in pset.constraints):
        raise InputError("a plane certificate needs formulas without square roots")

    def verdict(decision: Decision, example: dict[str, str] | None = None) -> FamilyCertificate:
        return FamilyCertificate(claim, decision, example, time.perf_counter() - t0, METHOD)

    try:
        plane = _Plane(game, pset, interval)
        conditions = [(plane.substituted(e), rel) for e, rel in pset.constraints]
        condition_atoms = [plane.condition(e, rel) for e, rel in conditions]
        for reason, expr, rel in soundness_checks(game, pset):
            expr = sp.together(plane.substituted(expr))
            if expr.is_number:
                if (expr == 0) if rel == "==" else bool(expr > 0):
                    return verdict(Decision.FALSE, {"reason": reason})
                continue
            violation = plane.condition(expr, rel)
            active: list[int] = []
            while True:
                point = plane.witness(violation + [a for k in active for a in condition_atoms[k]])
                if point is None:
                    break
                k = _violated([c for j, c in enumerate(conditions) if j not in active], plane.gens,
                              _approximate(point))
                if k is not None:
                    active.append([j for j in range(len(conditions)) if j not in active][k])
                    continue
                point = plane.witness(violation + [a for atoms in condition_atoms for a in atoms])
                if point is None:
                    break
                example = {**{str(g): str(v) for g, v in plane.fixed.items()},
                           **{str(g): _show(r) for g, r in zip(plane.gens, point)}}
                return verdict(Decision.FALSE, {**example, "reason": reason})
    except LimitError:
        return verdict(Decision.UNDECIDED)
    return verdict(Decision.TRUE)


__all__ = ["certify_best_response_plane"]
