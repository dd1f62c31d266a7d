"""Turning rational-function sign conditions into polynomial atoms.

A branch of an equilibrium computation produces conditions such as
``(h - f)/(b - f + h - d) >= 0``.  Regions only hold polynomial atoms, so
``N/D >= 0`` becomes ``N*D >= 0`` and ``D != 0``.  Factors whose sign is fixed
on the whole domain (for example the bank ``W > 0`` of the Weakest Link) are
removed after an exact proof of their sign.
"""
from __future__ import annotations

import sympy as sp

from ..model.decide import Decision, Z3Context, implies
from ..model.region import Atom
from .polyfactor import factor_ring_element


class SignOracle:
    """Decides, exactly and with caching, whether a polynomial has a fixed sign."""

    def __init__(self, ctx: Z3Context, timeout_ms: int = 5_000):
        self.ctx = ctx
        self.timeout_ms = timeout_ms
        self._cache: dict[sp.Expr, int] = {}

    def sign(self, factor: sp.Expr) -> int:
        """``1`` if ``factor > 0`` on the domain, ``-1`` if ``< 0``, else ``0``."""
        if factor not in self._cache:       # sympy expressions hash and compare structurally
            self._cache[factor] = self._decide_sign(factor)
        return self._cache[factor]

    def _decide_sign(self, factor: sp.Expr) -> int:
        term = self.ctx.term(factor)
        for sign, conclusion in ((1, term > 0), (-1, term < 0)):
            if implies(self.ctx.domain, [], conclusion, self.ctx, self.timeout_ms).satisfiable is Decision.TRUE:
                return sign
        return 0


def polynomial_condition(numer, denom, oracle: SignOracle) -> list[Atom]:
    """Atoms for ``numer/denom >= 0`` with ``numer``, ``denom`` ring polynomials.

    Factorisation happens in the polynomial ring (fast sparse arithmetic);
    factors of provably constant sign on the domain are dropped.
    """
    if numer == 0:
        return []
    if numer.is_ground and denom.is_ground:
        return [Atom(sp.Integer(1) if numer.LC * denom.LC >= 0 else sp.Integer(-1), ">=")]
    atoms: list[Atom] = []
    constant = 1
    factors: dict[sp.Expr, int] = {}
    for poly, extra in ((numer, None), (denom, "nonzero")):
        factorisation = factor_ring_element(poly)
        constant *= factorisation.constant
        for key, power in factorisation.factors:
            if extra and oracle.sign(key) == 0:
                atoms.append(Atom(key, "!="))
            factors[key] = factors.get(key, 0) + power
    sign = 1 if constant > 0 else -1
    odd: list[sp.Expr] = []
    even: list[sp.Expr] = []
    for f, power in factors.items():
        s = oracle.sign(f)
        if s == 0:
            (odd if power % 2 else even).append(f)
        elif power % 2:
            sign *= s
    if even:
        atoms.append(Atom(sign * sp.Mul(*odd) * sp.Mul(*[f**2 for f in even]), ">="))
    else:
        atoms.append(Atom(sign * sp.Mul(*odd), ">="))
    return atoms
