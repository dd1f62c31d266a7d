"""Checking a paper's printed solutions of a one-parameter polynomial game.

A printed solution is a set of profiles (formulas in the parameter, free
frequencies and the constraints printed for them) claimed to be
equilibria on a printed range.  :func:`check_printed` decides the claim
exactly with the certificates of :mod:`symgame.verify.polycert` -- every
printed profile is an equilibrium on the whole printed range, and the set
is nonempty there -- and pairs the solution with the atlas families whose
leader formulas it shares, so that ranges can be compared endpoint by
endpoint.  It never uses the printed solution to derive anything.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

import sympy as sp

from ..engine.atlas import Atlas, Family
from ..engine.ranges import ParamInterval, algebraic_endpoint
from ..model.decide import Decision
from ..model.polygame import PolynomialGame
from .polycert import Certificate, ProfileSet, certify_covered, certify_nonempty, certify_profile_set

_MATCH_POINTS = (Fraction(17, 7), Fraction(31, 9), Fraction(40, 9), Fraction(61, 11))


@dataclass(frozen=True)
class PrintedSolution:
    """One printed solution: formulas, free frequencies, constraints and range ``[lower, upper]``.

    ``upper`` None means unbounded; printed ranges are closed.
    """

    label: str
    name: str
    equation: str
    values: tuple[tuple[str, sp.Expr], ...]
    free: tuple[str, ...]
    constraints: tuple[tuple[sp.Expr, str], ...]
    lower: sp.Expr
    upper: sp.Expr | None

    def profile_set(self) -> ProfileSet:
        return ProfileSet(self.values, self.free, self.constraints)

    def interval(self, P: sp.Symbol) -> ParamInterval:
        up = None if self.upper is None else algebraic_endpoint(self.upper, P)
        return ParamInterval(algebraic_endpoint(self.lower, P), True, up, self.upper is not None)


@dataclass(frozen=True)
class PrintedVerdict:
    """The exact verdict on one printed solution."""

    solution: PrintedSolution
    sound: Certificate
    nonempty: Certificate
    families: tuple[str, ...]

    @property
    def correct(self) -> bool:
        return self.sound.decision is Decision.TRUE and self.nonempty.decision is Decision.TRUE


@dataclass(frozen=True)
class CoverageVerdict:
    """Whether the printed solutions contain every profile of one atlas family on one interval."""

    family: str
    interval: ParamInterval
    covered: Certificate

    @property
    def complete(self) -> bool:
        return self.covered.decision is Decision.TRUE


def check_printed(game: PolynomialGame, atlas: Atlas, solutions: Sequence[PrintedSolution]) -> list[PrintedVerdict]:
    """Decide every printed claim exactly and pair it with the atlas families it describes."""
    P = game.symbol(game.parameter_names[0])
    out = []
    for sol in solutions:
        iv = sol.interval(P)
        pset = sol.profile_set()
        out.append(PrintedVerdict(sol, certify_profile_set(game, pset, iv), certify_nonempty(game, pset, iv),
                                  tuple(f.ident for f in atlas.families if describes(sol, f, atlas, P))))
    return out


def check_coverage(game: PolynomialGame, atlas: Atlas, solutions: Sequence[PrintedSolution]
                   ) -> list[CoverageVerdict]:
    """For every family and interval of the atlas: are all its profiles among the printed sets?"""
    P = game.symbol(game.parameter_names[0])
    printed = [(s.profile_set(), s.interval(P)) for s in solutions]
    out = []
    for family in atlas.families:
        for member in family.members:
            for iv in member.range.intervals:
                out.append(CoverageVerdict(family.ident, iv,
                                           certify_covered(game, ProfileSet.from_branch(member.branch), iv,
                                                           printed)))
    return out


def describes(sol: PrintedSolution, family: Family, atlas: Atlas, P: sp.Symbol) -> bool:
    """Whether ``sol`` and ``family`` give the same leader frequencies.

    Leaders free on either side are not compared.  Point solutions are
    compared with point families at the same parameter value; formulas are
    compared at several rational parameter values to 40 digits (this only
    pairs names for the report; every verdict is a certificate).
    """
    printed = dict(sol.values)
    point = sol.upper is not None and sp.simplify(sol.upper - sol.lower) == 0
    family_point = family_point_value(family)
    if point != (family_point is not None):
        return False
    if point and sp.simplify(family_point - sol.lower) != 0:
        return False
    samples = [family_point] if point else [sp.Rational(q.numerator, q.denominator)
                                                          for q in _MATCH_POINTS]
    for x, derived in family.leaders:
        mine = printed[x]
        if x in sol.free or derived.free_symbols - {P} or mine.free_symbols - {P}:
            continue
        for v in samples:
            if abs(sp.N((mine - derived).subs(P, v), 40)) > 1e-30:
                return False
    return True


def family_point_value(family: Family) -> sp.Expr | None:
    """The parameter value of a family that exists at a single value only, else None."""
    if family.point is not None:
        return sp.Rational(family.point)
    ivs = family.intervals
    if ivs and all(iv.is_point for iv in ivs) and len({iv.lower.value for iv in ivs}) == 1:
        return ivs[0].lower.value
    return None
