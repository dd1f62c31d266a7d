"""Fast exact factorisation of ring polynomials with python-flint.

sympy's multivariate factoriser dominates the derivation time on larger
games (measured: 14 s of 64 s on Final Jeopardy (8, 7)); FLINT's
``fmpq_mpoly.factor`` gives the same irreducible factors much faster.
"""
from __future__ import annotations

from dataclasses import dataclass

import flint
import sympy as sp


@dataclass(frozen=True)
class Factorisation:
    """``constant * prod(factor**power)`` with factors as sympy expressions."""

    constant: sp.Rational
    factors: tuple[tuple[sp.Expr, int], ...]

    def product(self) -> sp.Expr:
        """The factors without the constant."""
        return sp.Mul(*[f**k for f, k in self.factors])

    def as_expr(self) -> sp.Expr:
        """Factored form; the constant is kept apart (sympy would distribute it over a sum)."""
        body = self.product()
        if self.constant == 1 or body.is_Number:
            return self.constant * body
        return sp.Mul(self.constant, body, evaluate=False)


def ratio_expr(numer: Factorisation, denom: Factorisation) -> sp.Expr:
    """``numer/denom`` in factored form with one rational constant in front."""
    constant = numer.constant / denom.constant
    body = numer.product() / denom.product()
    if constant == 1 or body.is_Number:
        return constant * body
    return sp.Mul(constant, body, evaluate=False)


def factor_ring_element(poly) -> Factorisation:
    """Factor a sympy ``PolyElement`` over QQ into irreducible factors."""
    ring = poly.ring
    names = tuple(str(g) for g in ring.symbols)
    ctx = flint.fmpq_mpoly_ctx.get(names, "lex")
    terms = {monom: flint.fmpq(int(c.numerator), int(c.denominator)) for monom, c in poly.terms()}
    constant, parts = ctx.from_dict(terms).factor()
    constant = sp.Rational(int(constant.p), int(constant.q))
    factors = []
    for part, power in parts:
        coeffs = {m: sp.Rational(int(c.p), int(c.q)) for m, c in part.to_dict().items()}
        scale = _primitive_scale(list(coeffs.values()))  # FLINT factors are monic: make them primitive
        constant /= scale ** int(power)
        expr = sp.Add(*[scale * c * sp.Mul(*[s**e for s, e in zip(ring.symbols, m)]) for m, c in coeffs.items()])
        factors.append((expr, int(power)))
    factors.sort(key=lambda fp: sp.default_sort_key(fp[0]))
    return Factorisation(constant, tuple(factors))


def _primitive_scale(coeffs: list[sp.Rational]) -> sp.Rational:
    """The positive rational turning ``coeffs`` into coprime integers."""
    lcm = sp.ilcm(*[c.q for c in coeffs]) if len(coeffs) > 1 else coeffs[0].q
    numerators = [abs(int(c * lcm)) for c in coeffs]
    gcd = sp.igcd(*numerators) if len(numerators) > 1 else numerators[0]
    return sp.Rational(lcm, gcd)
