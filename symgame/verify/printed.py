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
from ..engine.ranges import Endpoint, ParamInterval, algebraic_endpoint
from ..model.decide import Decision
from ..model.polygame import PolynomialGame
from .polycert import (
    FamilyCertificate,
    ProfileSet,
    certify_covered,
    certify_nonempty,
    certify_profile_set,
    certify_property,
    interval_within,
)

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
    sound: FamilyCertificate
    nonempty: FamilyCertificate
    families: tuple[str, ...]
    endpoints: tuple["EndpointOwner", ...] = ()

    @property
    def correct(self) -> bool:
        return self.sound.decision is Decision.TRUE and self.nonempty.decision is Decision.TRUE


@dataclass(frozen=True)
class EndpointOwner:
    """A printed endpoint outside the derived ranges of the solution's own families, and the
    families whose sets contain the printed profiles there (proved with z3)."""

    endpoint: Endpoint
    families: tuple[str, ...]


@dataclass(frozen=True)
class CoverageVerdict:
    """Whether the printed solutions contain every profile of one atlas family on one interval."""

    family: str
    interval: ParamInterval
    covered: FamilyCertificate

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
        own = tuple(f.ident for f in atlas.families if describes(sol, f, atlas, P))
        out.append(PrintedVerdict(sol, certify_profile_set(game, pset, iv), certify_nonempty(game, pset, iv),
                                  own, tuple(endpoint_owners(game, atlas, sol, own))))
    return out


def endpoint_owners(game: PolynomialGame, atlas: Atlas, sol: PrintedSolution, own: Sequence[str]
                    ) -> list[EndpointOwner]:
    """For each printed endpoint that the solution's own families exclude, the families holding it."""
    P = game.symbol(game.parameter_names[0])
    printed = sol.interval(P)
    derived = [iv for f in atlas.families if f.ident in own for iv in f.intervals]
    if not derived:
        return []
    out = []
    for end in [printed.lower] + ([printed.upper] if printed.upper is not None else []):
        point = ParamInterval(end, True, end, True)
        if any(interval_within(point, iv) for iv in derived):
            continue
        holders = []
        for f in atlas.families:
            sets = [(ProfileSet.from_branch(m.branch), iv) for m in f.members for iv in m.range.intervals
                    if interval_within(point, iv)]
            if sets and certify_covered(game, sol.profile_set(), point, sets).decision is Decision.TRUE:
                holders.append(f.ident)
        out.append(EndpointOwner(end, tuple(holders)))
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


# --------------------------------------------------------------------------- statements in the text

@dataclass(frozen=True)
class PrintedStatement:
    """A sentence of the paper about every equilibrium on a range of the parameter.

    ``conditions`` (``expr rel 0``) must hold for every equilibrium with the
    parameter in ``(lower, upper)`` (closed ends as flagged).
    """

    text: str
    where: str
    lower: sp.Expr
    lower_closed: bool
    upper: sp.Expr | None
    upper_closed: bool
    conditions: tuple[tuple[sp.Expr, str], ...]

    def interval(self, P: sp.Symbol) -> ParamInterval:
        up = None if self.upper is None else algebraic_endpoint(self.upper, P)
        return ParamInterval(algebraic_endpoint(self.lower, P), self.lower_closed, up, self.upper_closed)


@dataclass(frozen=True)
class StatementVerdict:
    statement: PrintedStatement
    holds: Decision
    family: str | None
    counterexample: dict[str, str] | None


def check_statement(game: PolynomialGame, atlas: Atlas, statement: PrintedStatement) -> StatementVerdict:
    """Decide a statement over every family of the atlas (exactly, with z3)."""
    P = game.symbol(game.parameter_names[0])
    within = statement.interval(P)
    undecided = False
    for family in atlas.families:
        for member in family.members:
            for iv in member.range.intervals:
                cert = certify_property(game, ProfileSet.from_branch(member.branch), iv, within,
                                        statement.conditions)
                if cert.decision is Decision.FALSE:
                    return StatementVerdict(statement, Decision.FALSE, family.ident, cert.counterexample)
                undecided |= cert.decision is Decision.UNDECIDED
    return StatementVerdict(statement, Decision.UNDECIDED if undecided else Decision.TRUE, None, None)


# --------------------------------------------------------------------------- printed claims as data

@dataclass(frozen=True)
class PrintedClaims:
    """What a paper prints about a one-parameter polynomial game: solutions and sentences."""

    source: str
    solutions: tuple[PrintedSolution, ...]
    statements: tuple[PrintedStatement, ...]


_CLAIM_KEYS = {"source", "constants", "solutions", "statements"}
MAX_CLAIMS = 500


def load_printed(path, game: PolynomialGame) -> PrintedClaims:
    """Read printed solutions and statements for ``game`` from a YAML or JSON file.

    The file maps ``solutions`` to entries ``{label, equation, range: [lower, upper], values: {var: expr},
    free: [var], constraints: ["relation"]}`` (values are substituted in order, so a formula may use the
    frequencies before it; ``upper: null`` means unbounded; ranges are closed) and ``statements`` to entries
    ``{text, where, range: {lower, lower_closed, upper, upper_closed}, conditions: ["relation"]}``.
    ``constants`` names expressions (in the parameter) used in the others. Expressions go through the
    restricted parser of :mod:`symgame.model.expr` with ``sqrt`` allowed; every problem is one
    :class:`~symgame.model.gamefile.GameFileError` line naming the place.
    """
    from ..model.gamefile import read_document

    data, source = read_document(path)
    return printed_from_data(data, game, source)


def printed_from_data(data, game: PolynomialGame, source: str = "<printed>") -> PrintedClaims:
    """Validate parsed content (see :func:`load_printed`) and build the claims."""
    from ..model.expr import ExpressionError, parse_expression, parse_relation
    from ..model.gamefile import GameFileError

    def fail(place: str, problem: str) -> GameFileError:
        return GameFileError(source, place, problem)

    if not isinstance(data, dict):
        raise fail("", "a printed-claims file must contain a mapping with solutions and/or statements")
    unknown = sorted(str(k) for k in data if k not in _CLAIM_KEYS)
    if unknown:
        raise fail(unknown[0], f"unknown key (allowed: {', '.join(sorted(_CLAIM_KEYS))})")
    (parameter,) = game.parameters
    names: dict[str, sp.Expr] = {parameter.name: parameter.symbol}
    names.update({v: game.symbol(v) for v in game.variables})

    def expr(value, place: str, known: dict[str, sp.Expr]) -> sp.Expr:
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise fail(place, "must be an integer or an expression in quotes")
        try:
            return parse_expression(str(value), known, sqrt=True)
        except ExpressionError as exc:
            raise fail(place, str(exc)) from None

    def relations(items, place: str, known: dict[str, sp.Expr]) -> tuple[tuple[sp.Expr, str], ...]:
        if not isinstance(items, list):
            raise fail(place, "must be a list of relations such as 'b3 <= 2/3'")
        out = []
        for j, text in enumerate(items):
            if not isinstance(text, str):
                raise fail(f"{place}[{j}]", "must be a relation in quotes")
            try:
                out.append(parse_relation(text, known, expand=False, sqrt=True))
            except ExpressionError as exc:
                raise fail(f"{place}[{j}]", str(exc)) from None
        return tuple(out)

    constants = data.get("constants") or {}
    if not isinstance(constants, dict):
        raise fail("constants", "must map names to expressions")
    scope = dict(names)
    for name, value in constants.items():
        if not isinstance(name, str) or not name.isidentifier() or name in names:
            raise fail(f"constants.{name}", "must be a new identifier")
        scope[name] = expr(value, f"constants.{name}", scope)
    def listed(key: str) -> list:
        entries = data.get(key) or []
        if not isinstance(entries, list) or len(entries) > MAX_CLAIMS:
            raise fail(key, f"must be a list of at most {MAX_CLAIMS} {key}")
        return entries

    solutions = []
    for k, entry in enumerate(listed("solutions")):
        place = f"solutions[{k}]"
        if not isinstance(entry, dict):
            raise fail(place, "must be a mapping")
        extra = sorted(set(map(str, entry)) - {"label", "equation", "range", "values", "free", "constraints"})
        if extra:
            raise fail(f"{place}.{extra[0]}", "unknown key")
        label, equation = str(entry.get("label", k + 1)), str(entry.get("equation", ""))
        span = entry.get("range")
        if not isinstance(span, list) or len(span) != 2 or span[0] is None:
            raise fail(f"{place}.range", "must be [lower, upper] (upper null: unbounded)")
        lower = expr(span[0], f"{place}.range[0]", scope)
        upper = None if span[1] is None else expr(span[1], f"{place}.range[1]", scope)
        free = entry.get("free") or []
        if not isinstance(free, list) or any(v not in game.variables for v in free):
            raise fail(f"{place}.free", f"must list variables of the game ({', '.join(game.variables)})")
        values = entry.get("values") or {}
        if not isinstance(values, dict):
            raise fail(f"{place}.values", "must map variables to expressions")
        subs: dict[sp.Expr, sp.Expr] = {}
        out: dict[str, sp.Expr] = {}
        for var, value in values.items():
            if var not in game.variables:
                raise fail(f"{place}.values.{var}", f"not a variable of the game ({', '.join(game.variables)})")
            out[var] = expr(value, f"{place}.values.{var}", scope).subs(subs)
            subs[names[var]] = out[var]
        for var in free:
            out[var] = names[var]
        missing = [v for v in game.variables if v not in out]
        if missing:
            raise fail(place, f"variable {missing[0]!r} is neither given a value nor free")
        cons = tuple((e.subs(subs), rel) for e, rel in relations(entry.get("constraints") or [],
                                                                 f"{place}.constraints", scope))
        solutions.append(PrintedSolution(label, f"Solution {label}", equation,
                                         tuple((v, out[v]) for v in game.variables), tuple(free), cons,
                                         lower, upper))
    statements = []
    for k, entry in enumerate(listed("statements")):
        place = f"statements[{k}]"
        if not isinstance(entry, dict) or not isinstance(entry.get("range"), dict):
            raise fail(place, "must be a mapping with text, where, range and conditions")
        span = entry["range"]
        lower = expr(span.get("lower"), f"{place}.range.lower", scope)
        upper = None if span.get("upper") is None else expr(span["upper"], f"{place}.range.upper", scope)
        statements.append(PrintedStatement(str(entry.get("text", "")), str(entry.get("where", "")), lower,
                                           bool(span.get("lower_closed", True)), upper,
                                           bool(span.get("upper_closed", False)),
                                           relations(entry.get("conditions") or [], f"{place}.conditions", scope)))
    return PrintedClaims(str(data.get("source", "")), tuple(solutions), tuple(statements))
