"""Exact z3 encodings of sympy conditions that may contain square roots.

A condition is ``expr rel 0`` with ``rel`` in ``>``, ``>=``, ``==``, ``!=``
and ``expr`` a rational function of symbols and square roots ``sqrt(D)``.
Each distinct ``sqrt(D)`` becomes a fresh real ``s`` with ``s*s == D`` and
``s >= 0``; a fraction ``n/d rel 0`` becomes ``n*d rel 0`` with ``d != 0``.
z3's nlsat decides the result exactly (or gives up: undecided).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Iterable, Sequence

import sympy as sp

from ..model.decide import Decision
from ..model.z3env import z3


@dataclass
class Z3Encoder:
    """Translate sympy expressions into z3 reals, introducing square-root variables."""

    names: dict[str, z3.ArithRef] = field(default_factory=dict)
    roots: dict[sp.Expr, z3.ArithRef] = field(default_factory=dict)
    side: list[z3.BoolRef] = field(default_factory=list)

    def var(self, name: str) -> z3.ArithRef:
        if name not in self.names:
            self.names[name] = z3.Real(name)
        return self.names[name]

    def term(self, expr: sp.Expr) -> z3.ArithRef:
        if expr.is_Symbol:
            return self.var(str(expr))
        if expr.is_Rational:
            return z3.RealVal(f"{expr.p}/{expr.q}")
        if expr.is_Add:
            return z3.Sum([self.term(a) for a in expr.args])
        if expr.is_Mul:
            out = self.term(expr.args[0])
            for a in expr.args[1:]:
                out = out * self.term(a)
            return out
        if expr.is_Pow:
            base, exp = expr.args
            if exp == sp.Rational(1, 2):
                return self.root(base)
            if exp.is_Integer and exp > 0:
                b = self.term(base)
                out = b
                for _ in range(int(exp) - 1):
                    out = out * b
                return out
            if exp.is_Integer and exp < 0:
                raise ValueError("denominators must be cleared before translation")
            if exp.is_Rational and exp.q == 2 and exp > 0:
                return self.term(sp.Pow(base, exp.p)) * self.root(base) if exp.p > 1 else self.root(base)
        raise ValueError(f"cannot translate {expr} to z3")

    def root(self, radicand: sp.Expr) -> z3.ArithRef:
        if radicand not in self.roots:
            s = z3.Real(f"sqrt_{len(self.roots)}")
            self.roots[radicand] = s
            self.side.extend([s >= 0, s * s == self.term(radicand)])
        return self.roots[radicand]

    def condition(self, expr: sp.Expr, rel: str) -> z3.BoolRef:
        """``expr rel 0`` with the denominator cleared (and required nonzero)."""
        return self._cleared_condition(*_cleared(expr), rel)

    def fraction_condition(self, num: sp.Expr, den: sp.Expr, rel: str) -> z3.BoolRef:
        """``num / den rel 0`` as ``num * den rel 0`` and ``den != 0`` (just ``num rel 0`` when ``den`` is 1)."""
        return self._cleared_condition(_expanded(num), _expanded(den), rel)

    def _cleared_condition(self, num: sp.Expr, den: sp.Expr, rel: str) -> z3.BoolRef:
        n = self._known_term(num)
        if den == 1:
            return _relate(n, rel)
        d = self._known_term(den)
        return z3.And(_relate(n * d, rel), d != 0)

    def _known_term(self, expr: sp.Expr) -> z3.ArithRef:
        """:meth:`term`, shared between encoders when ``expr`` has no square root (the same conditions are encoded
        thousands of times by an atlas's certificates and checks: Billingham's, 7,000 times for 380 of them)."""
        plain = _plain_term(expr)
        return plain if plain is not None else self.term(expr)


@lru_cache(maxsize=8192)
def _cleared(expr: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """Numerator and denominator of ``expr`` over a common denominator, expanded."""
    num, den = sp.fraction(sp.together(expr))
    return sp.expand(num), sp.expand(den)


@lru_cache(maxsize=8192)
def _expanded(expr: sp.Expr) -> sp.Expr:
    return sp.expand(expr)


@lru_cache(maxsize=8192)
def _plain_term(expr: sp.Expr) -> z3.ArithRef | None:
    """The z3 term of an expression of symbols and rationals (integer powers); None when it holds a root,
    whose variable belongs to one encoder."""
    if any(not power.exp.is_Integer for power in expr.atoms(sp.Pow)):
        return None
    return Z3Encoder().term(expr)


def _relate(term: z3.ArithRef, rel: str) -> z3.BoolRef:
    return {">": term > 0, ">=": term >= 0, "==": term == 0, "!=": term != 0}[rel]


def decide(formulas: Iterable[z3.BoolRef], encoder: Z3Encoder, timeout_ms: int = 20_000) -> Decision:
    """Satisfiability of ``formulas`` (plus the encoder's side conditions)."""
    solver = z3.SolverFor("QF_NRA")
    solver.set("timeout", timeout_ms)
    solver.add(*encoder.side)
    solver.add(*list(formulas))
    answer = solver.check()
    if answer == z3.sat:
        return Decision.TRUE
    if answer == z3.unsat:
        return Decision.FALSE
    return Decision.UNDECIDED


def model_values(formulas: Sequence[z3.BoolRef], encoder: Z3Encoder, names: Sequence[str],
                 timeout_ms: int = 20_000) -> dict[str, sp.Expr] | None:
    """A satisfying assignment (exact sympy numbers) for ``names``, or None."""
    solver = z3.SolverFor("QF_NRA")
    solver.set("timeout", timeout_ms)
    solver.add(*encoder.side)
    solver.add(*formulas)
    if solver.check() != z3.sat:
        return None
    model = solver.model()
    out = {}
    for name in names:
        value = model.eval(encoder.var(name), model_completion=True)
        out[name] = _value(value)
    return out


def _value(value: z3.ExprRef) -> sp.Expr:
    if z3.is_rational_value(value):
        return sp.Rational(value.numerator_as_long(), value.denominator_as_long())
    if z3.is_algebraic_value(value):
        x = sp.Symbol("x")
        poly = sum(_value(c) * x**k for k, c in enumerate(value.poly()))
        return sp.CRootOf(poly, value.index() - 1)
    raise TypeError(f"unexpected z3 value {value}")


def rational(value: Fraction) -> sp.Rational:
    return sp.Rational(value.numerator, value.denominator)


def polynomial_term(poly: sp.Poly, variables: Sequence[z3.ArithRef]) -> z3.ArithRef:
    """A z3 term for ``poly`` with its generators mapped to ``variables``.

    Built straight from the monomials (no sympy expression walk), so that a
    game's derivatives are translated once and reused for every case.
    """
    return monomials_term(poly.terms(), variables)


def monomials_term(terms: Iterable[tuple[tuple[int, ...], object]], variables: Sequence[z3.ArithRef]
                   ) -> z3.ArithRef:
    """The z3 term of ``sum(coefficient * prod(variables ** exponents))`` over ``(exponents, coefficient)``."""
    out = []
    for monom, coeff in terms:
        q = sp.Rational(coeff)
        factors = [z3.RealVal(f"{q.p}/{q.q}")]
        for var, e in zip(variables, monom):
            factors.extend([var] * e)
        out.append(factors[0] if len(factors) == 1 else z3.Product(factors))
    return z3.Sum(out) if len(out) > 1 else (out[0] if out else z3.RealVal(0))
