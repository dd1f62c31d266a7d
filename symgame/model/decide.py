"""Exact decisions about regions: a plane CAD for one or two parameters, z3 beyond.

With one or two real parameters every question is decided by the cylindrical algebraic
decomposition of :mod:`symgame.model.cad`, which cannot time out; a rational witness is checked by exact
substitution and every other answer gets z3's second opinion within :data:`SECOND_OPINION_MS`; a
disagreement is an error, never a silent choice. Inside :func:`symgame.model.second_opinion.background`
(the derivations and certificates use it) the second opinions run in a helper process beside the CAD and a
disagreement is raised when the block ends.  With more
parameters, or integer ones, z3's ``nlsat`` decides (a complete procedure for existential formulas
over the reals, so ``sat``/``unsat`` is a proof); when it gives up (timeout, or integer parameters
that make the problem undecidable in general) the answer is :attr:`Decision.UNDECIDED`: symgame
never guesses.
"""
from __future__ import annotations

import enum
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Iterable, Iterator, Mapping, Sequence

import flint
import sympy as sp

from ..errors import LimitError, SymgameError
from . import second_opinion
from .cad import Plane, RealRoot, Z3Translator
from .region import Atom, Domain, Region
from .z3env import z3

DEFAULT_TIMEOUT_MS = 30_000
#: z3's budget for checking a CAD answer. On the 308 second opinions of Final Jeopardy's (10, 9), 50 ms with
#: :data:`SECOND_OPINION_TACTIC` decides 252 (4.3 s in all) where 100 ms with z3's default QF_NRA solver decided
#: 256 (8.9 s): the rest of the budget went to checks that decide nothing (benchmarks/RESULTS.md).
SECOND_OPINION_MS = 50
#: z3's tactic for second opinions: its nonlinear-arithmetic pipeline (simplification, then nlsat) without the
#: default solver's portfolio.
SECOND_OPINION_TACTIC = "qfnra-nlsat"


class Decision(enum.Enum):
    """Three-valued answer of an exact decision procedure."""

    TRUE = "true"
    FALSE = "false"
    UNDECIDED = "undecided"


@dataclass(frozen=True)
class Witness:
    """A satisfiability answer with a witness point when one exists.

    ``point`` maps parameter names to exact sympy numbers (rational, or an
    algebraic ``CRootOf`` when the only witnesses are irrational).
    """

    satisfiable: Decision
    point: Mapping[str, sp.Expr] | None = None

    def rational_point(self) -> dict[str, Fraction] | None:
        if self.point is None or not all(v.is_Rational for v in self.point.values()):
            return None
        return {k: Fraction(int(v.p), int(v.q)) for k, v in self.point.items()}


class Z3Context:
    """Translation of sympy polynomials over a :class:`Domain` into z3 terms."""

    def __init__(self, domain: Domain):
        self.domain = domain
        self.vars = {name: z3.Real(name) for name in domain.names}
        self.integer_names = domain.integer_names()
        self.gens = [sp.Symbol(n, real=True) for n in domain.names]
        self._terms: dict[sp.Expr, z3.ArithRef] = {}
        self._polys: dict[sp.Expr, Any] = {}
        self._domain_formula: z3.BoolRef | None = None
        self.plane: Plane | None = None
        self._translator: Z3Translator | None = None
        if 1 <= len(domain.names) <= 2 and not self.integer_names:
            self.plane, self._translator = _shared_plane(tuple(domain.names))
        self.stats = {"cad": 0, "z3": 0, "z3_agreed": 0, "z3_gave_up": 0, "z3_crashed": 0, "witness_checked": 0}

    def term(self, expr: sp.Expr) -> z3.ArithRef:
        """A polynomial with rational coefficients as a z3 real term (cached).

        Products of factors are translated factor by factor, so factored
        conditions never need expanding. With a plane CAD, the term's polynomial is handed to the CAD's
        translator at the same time (built from the sympy polynomial, so the CAD never has to read it back
        from z3's expression tree).
        """
        term = self._terms.get(expr)
        if term is None:
            term, poly = self._translate(expr)
            self._terms[expr] = term
            if poly is not None:
                assert self._translator is not None
                self._polys[expr] = poly
                self._translator.pin(term, poly)
        return term

    def _translate(self, expr: sp.Expr) -> tuple[z3.ArithRef, Any]:
        """The z3 term of ``expr`` and, with a plane CAD, its polynomial in the CAD's ring."""
        plane = self._translator is not None
        if expr.is_Mul:
            terms = [self.term(f) for f in expr.args]
            poly = None
            if plane:
                poly = self._polys[expr.args[0]]
                for f in expr.args[1:]:
                    poly = poly * self._polys[f]
            return _product(terms), poly
        if expr.is_Pow and expr.exp.is_Integer and expr.exp > 0:
            base = self.term(expr.base)
            return _product([base] * int(expr.exp)), (self._polys[expr.base] ** int(expr.exp) if plane else None)
        if not self.gens:
            return z3.RealVal(str(expr)), None
        poly = sp.Poly(expr, *self.gens, domain="QQ")
        total, coefficients = [], {}
        for monom, coeff in poly.terms():
            factors = [z3.RealVal(f"{coeff.p}/{coeff.q}")]
            for var, power in zip(self.gens, monom):
                factors.extend([self.vars[var.name]] * power)
            total.append(_product(factors))
            coefficients[monom] = flint.fmpq(int(coeff.p), int(coeff.q))
        term = z3.Sum(total) if total else z3.RealVal(0)
        if not plane:
            return term, None
        assert self.plane is not None
        return term, self.plane.ctx.from_dict(coefficients)

    def atom(self, atom: Atom) -> z3.BoolRef:
        t = self.term(atom.expr)
        return {">": t > 0, ">=": t >= 0, "==": t == 0, "!=": t != 0}[atom.rel]

    def region(self, region: Region) -> z3.BoolRef:
        return z3.And([self.atom(a) for a in region.atoms]) if region.atoms else z3.BoolVal(True)

    def domain_formula(self) -> z3.BoolRef:
        if self._domain_formula is None:
            parts = [self.region(self.domain.region())]
            parts += [z3.IsInt(self.vars[n]) for n in sorted(self.integer_names)]
            self._domain_formula = z3.And(parts)
        return self._domain_formula


#: Cached work (factors, projections, lifted lines, translated terms) after which a shared plane starts afresh.
MAX_SHARED_PLANE = 200_000
_PLANES: dict[tuple[str, ...], tuple[Plane, Z3Translator]] = {}


def _shared_plane(names: tuple[str, ...]) -> tuple[Plane, Z3Translator]:
    """One plane CAD and one translator per tuple of parameter names, shared by every context over them.

    A plane's caches depend only on the polynomials (keyed by their text) and a translator's only on z3's
    terms, which are the same polynomials in any context over the same names: the derivation's contexts (the
    branch solver's, the discovery's, the decision list's, the certificate's) then factor, project and lift
    each polynomial once. The answers do not depend on what is cached."""
    entry = _PLANES.get(names)
    if entry is not None:
        plane, translator = entry
        if plane.cached + translator.pinned <= MAX_SHARED_PLANE:
            return entry
    plane = Plane(names)
    entry = _PLANES[names] = (plane, Z3Translator(plane))
    return entry


def _product(factors: list[z3.ArithRef]) -> z3.ArithRef:
    result = factors[0]
    for f in factors[1:]:
        result = result * f
    return result


_BACKEND = {"cad": True}


@contextmanager
def z3_only() -> Iterator[None]:
    """Decide with z3 alone inside the block (the path before the plane CAD, for benchmarks)."""
    previous = _BACKEND["cad"]
    _BACKEND["cad"] = False
    try:
        yield
    finally:
        _BACKEND["cad"] = previous


class DecisionConflict(SymgameError, AssertionError):
    """The plane CAD and z3 gave opposite exact answers: a bug in one of them, never resolved by a choice."""


def satisfiable(ctx: Z3Context, formulas: Iterable[z3.BoolRef],
                timeout_ms: int = DEFAULT_TIMEOUT_MS) -> Witness:
    """Decide whether domain ∧ formulas has a solution; return a witness if so.

    With one or two real parameters the plane CAD decides (no timeout); a rational witness of a satisfiable
    answer is checked by exact substitution, and any other answer by z3 given :data:`SECOND_OPINION_MS`.  The witness is always the CAD's (a simple rational
    point of a full-dimensional cell when there is one), never z3's: whether z3 answers within its
    budget depends on the machine's load, and the outputs must not.
    """
    formulas = list(formulas)
    if ctx.plane is not None and _BACKEND["cad"]:
        cad = _cad_satisfiable(ctx, formulas)
        if cad is not None:
            ctx.stats["cad"] += 1
            checked = _witness_holds(ctx, formulas, cad)
            if checked is False:
                raise DecisionConflict(f"the plane CAD's witness {cad.point} does not satisfy {z3.And(formulas)}")
            if checked:
                ctx.stats["witness_checked"] += 1
                return cad
            helper = second_opinion.active()
            if helper is not None:   # checked in a helper process while the caller goes on
                helper.submit(_smt2(ctx, formulas), min(timeout_ms, SECOND_OPINION_MS), SECOND_OPINION_TACTIC,
                              "sat" if cad.satisfiable is Decision.TRUE else "unsat", ctx.stats,
                              lambda: str(z3.And(formulas)))
                return cad
            second = _z3_satisfiable(ctx, formulas, min(timeout_ms, SECOND_OPINION_MS), SECOND_OPINION_TACTIC)
            if second.satisfiable is Decision.UNDECIDED:
                ctx.stats["z3_gave_up"] += 1
                return cad
            if second.satisfiable is not cad.satisfiable:
                raise DecisionConflict(f"the plane CAD says {cad.satisfiable.value} and z3 says "
                                       f"{second.satisfiable.value} for {z3.And(formulas)}")
            ctx.stats["z3_agreed"] += 1
            return cad
    ctx.stats["z3"] += 1
    return _z3_satisfiable(ctx, formulas, timeout_ms)


def _smt2(ctx: Z3Context, formulas: list[z3.BoolRef]) -> str:
    """The question domain ∧ formulas as SMT-LIB 2 text (for the second-opinion helper)."""
    solver = z3.Solver()
    solver.add(ctx.domain_formula())
    for f in formulas:
        solver.add(f)
    return solver.to_smt2()


def _witness_holds(ctx: Z3Context, formulas: list[z3.BoolRef], answer: Witness) -> bool | None:
    """For a satisfiable answer with a rational witness, whether the witness satisfies domain ∧ formulas, by
    exact substitution (a check of the CAD that cannot time out, in place of z3's second opinion); ``None``
    when there is nothing to substitute (an empty answer, an algebraic witness) or z3's simplifier does not
    reduce the formula to a constant."""
    if answer.satisfiable is not Decision.TRUE or not answer.point \
            or not all(isinstance(v, sp.Rational) for v in answer.point.values()):
        return None
    pairs = [(ctx.vars[name], z3.RealVal(f"{v.p}/{v.q}")) for name, v in answer.point.items() if name in ctx.vars]
    value = z3.simplify(z3.substitute(z3.And([ctx.domain_formula()] + formulas), *pairs))
    if z3.is_true(value):
        return True
    if z3.is_false(value):
        return False
    return None


def _cad_satisfiable(ctx: Z3Context, formulas: list[z3.BoolRef]) -> Witness | None:
    """The CAD's answer, or ``None`` when it declines (a limit, or a non-polynomial formula)."""
    assert ctx.plane is not None and ctx._translator is not None
    try:
        formula = ctx._translator.formula(z3.And([ctx.domain_formula()] + formulas))
        found, point = ctx.plane.satisfiable(formula)
    except (LimitError, ValueError, OverflowError):  # OverflowError: python-flint's factoring of huge terms
        return None
    if not found:
        return Witness(Decision.FALSE)
    assert point is not None
    return Witness(Decision.TRUE, {name: _root_to_sympy(root) for name, root in zip(ctx.plane.names, point)})


def _root_to_sympy(root: RealRoot) -> sp.Expr:
    if root.rational:
        value = root.fraction()
        return sp.Rational(value.numerator, value.denominator)
    x = sp.Symbol("x")
    poly = sum(int(c) * x**k for k, c in enumerate(root.poly.coeffs()))
    return sp.CRootOf(poly, root.index())


def _z3_satisfiable(ctx: Z3Context, formulas: list[z3.BoolRef], timeout_ms: int,
                    tactic: str | None = None) -> Witness:
    if ctx.integer_names:
        solver = z3.Solver()
    else:
        solver = z3.Tactic(tactic).solver() if tactic else z3.SolverFor("QF_NRA")
    solver.set("timeout", timeout_ms)
    solver.add(ctx.domain_formula())
    for f in formulas:
        solver.add(f)
    answer = solver.check()
    if answer == z3.unsat:
        return Witness(Decision.FALSE)
    if answer != z3.sat:
        return Witness(Decision.UNDECIDED)
    model = solver.model()
    point = {name: _to_sympy(model.eval(var, model_completion=True))
             for name, var in ctx.vars.items()}
    return Witness(Decision.TRUE, point)


def _to_sympy(value: z3.ExprRef) -> sp.Expr:
    if z3.is_rational_value(value):
        return sp.Rational(value.numerator_as_long(), value.denominator_as_long())
    if z3.is_algebraic_value(value):
        coeffs = [_to_sympy(c) for c in value.poly()]  # ascending; real roots indexed from 1
        x = sp.Symbol("x")
        poly = sum(c * x**k for k, c in enumerate(coeffs))
        return sp.CRootOf(poly, value.index() - 1)
    raise TypeError(f"unexpected z3 value {value}")


def region_is_empty(domain: Domain, region: Region,
                    timeout_ms: int = DEFAULT_TIMEOUT_MS, ctx: Z3Context | None = None) -> Decision:
    """TRUE if no point of ``domain`` lies in ``region``, FALSE if one does (``ctx``: a context over
    ``domain`` to reuse, with its translations and the plane CAD's cached algebra)."""
    if ctx is None:
        ctx = Z3Context(domain)
    elif ctx.domain != domain:
        raise ValueError("the context belongs to another domain")
    answer = satisfiable(ctx, [ctx.region(region)], timeout_ms).satisfiable
    return {Decision.TRUE: Decision.FALSE, Decision.FALSE: Decision.TRUE}.get(answer, answer)


def region_sample_point(domain: Domain, region: Region,
                        timeout_ms: int = DEFAULT_TIMEOUT_MS) -> Witness:
    """A point of ``domain`` inside ``region`` (exact, possibly algebraic), if one exists."""
    ctx = Z3Context(domain)
    return satisfiable(ctx, [ctx.region(region)], timeout_ms)


def implies(domain: Domain, hypotheses: Sequence[z3.BoolRef], conclusion: z3.BoolRef,
            ctx: Z3Context, timeout_ms: int = DEFAULT_TIMEOUT_MS) -> Witness:
    """Decide ``domain ∧ hypotheses ⇒ conclusion``.

    Returns ``Witness(TRUE)`` when proved, ``Witness(FALSE, point)`` with a
    counterexample, or ``Witness(UNDECIDED)``.
    """
    answer = satisfiable(ctx, list(hypotheses) + [z3.Not(conclusion)], timeout_ms)
    if answer.satisfiable is Decision.FALSE:
        return Witness(Decision.TRUE)
    if answer.satisfiable is Decision.TRUE:
        return Witness(Decision.FALSE, answer.point)
    return answer


def drop_implied_atoms(ctx: Z3Context, context: list[z3.BoolRef], atoms: list[Atom],
                       timeout_ms: int) -> list[Atom]:
    """Remove atoms implied by ``context`` and the remaining atoms, one at a time."""
    remaining = list(atoms)
    for atom in list(atoms):
        others = [ctx.atom(a) for a in remaining if a is not atom]
        answer = satisfiable(ctx, context + others + [z3.Not(ctx.atom(atom))], timeout_ms)
        if answer.satisfiable is Decision.FALSE:
            remaining.remove(atom)
    return remaining


def tighten_atom(ctx: Z3Context, context: list[z3.BoolRef], atom: Atom, timeout_ms: int) -> Atom:
    """An equivalent (under ``context``) and simpler form of ``atom``.

    Factors whose sign is fixed under the context are removed (flipping the
    relation for negative ones), and ``g >= 0`` becomes ``g == 0`` when the
    context already forces ``g <= 0``.  Every step is proved by z3.
    """
    if atom.rel not in (">", ">="):
        return atom
    constant, factors = sp.factor_list(sp.expand(atom.expr))
    sign, kept = (1 if constant > 0 else -1), []
    for factor, power in factors:
        fixed = _fixed_sign(ctx, context, factor, timeout_ms)
        if fixed == 0:
            kept.append(factor**power)
        elif power % 2:
            sign *= fixed
    expr = sign * sp.Mul(*kept)
    if atom.rel == ">=" and not expr.is_Number:
        answer = satisfiable(ctx, context + [ctx.term(expr) > 0], timeout_ms)
        if answer.satisfiable is Decision.FALSE:
            return Atom(-expr if expr.could_extract_minus_sign() else expr, "==")
    return Atom(expr, atom.rel)


def _fixed_sign(ctx: Z3Context, context: list[z3.BoolRef], factor: sp.Expr, timeout_ms: int) -> int:
    term = ctx.term(factor)
    for sign, opposite in ((1, term <= 0), (-1, term >= 0)):
        if satisfiable(ctx, context + [opposite], timeout_ms).satisfiable is Decision.FALSE:
            return sign
    return 0
