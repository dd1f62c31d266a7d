"""Inducing closed forms in an integer parameter from exact solutions.

Ganzfried (2022, section 7) names as open the problem of *learning* a small
parametric decision list from solutions at sample parameter values and then
certifying it.  This module does the learning step for one integer
parameter ``n`` (a deck size, a number of players): a quantity known exactly
at many sample values is explained by a quasi-polynomial — one polynomial of
low degree per residue class of ``n`` modulo a small modulus.  Each class is
interpolated on its first ``degree + 1`` samples and must reproduce every
further sample exactly; the simplest explanation (fewest coefficients) wins.
Certifying the induced formula beyond the samples is the caller's job (for
Kuhn poker: exact best responses for every n up to 1000).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Mapping

import sympy as sp

from ..errors import NoResultError

N = sp.Symbol("n", integer=True, positive=True)


class InductionError(NoResultError, ValueError):
    """No quasi-polynomial within the limits explains the samples."""


@dataclass(frozen=True)
class ResidueFormula:
    """``value(n) = polynomials[n % modulus](n)``, exact rational coefficients."""

    modulus: int
    degree: int
    polynomials: tuple[sp.Expr, ...]
    samples_used: int

    def __call__(self, n: int) -> Fraction:
        value = sp.Rational(self.polynomials[n % self.modulus].subs(N, n))
        return Fraction(int(value.p), int(value.q))

    def cases(self) -> list[tuple[int, sp.Expr]]:
        """``(residue, factored polynomial)`` pairs, residue ascending."""
        return [(r, sp.factor(p)) for r, p in enumerate(self.polynomials)]

    def latex(self) -> str:
        if self.modulus == 1:
            return sp.latex(sp.factor(self.polynomials[0]))
        rows = [f"{sp.latex(p)} & n \\equiv {r} \\pmod{{{self.modulus}}}" for r, p in self.cases()]
        return "\\begin{cases} " + " \\\\ ".join(rows) + " \\end{cases}"


def _interpolate_class(points: list[tuple[int, Fraction]], degree: int) -> sp.Expr | None:
    """Polynomial of ``degree`` through the first ``degree + 1`` points, or None if a later point disagrees."""
    if len(points) < degree + 2:
        return None
    basis = [(sp.Integer(x), sp.Rational(y.numerator, y.denominator)) for x, y in points[: degree + 1]]
    poly = sp.expand(sp.interpolate(basis, N)) if degree else basis[0][1]
    for x, y in points[degree + 1:]:
        if poly.subs(N, x) != sp.Rational(y.numerator, y.denominator):
            return None
    return poly


def induce_residue_formula(samples: Mapping[int, Fraction], max_modulus: int = 12,
                           max_degree: int = 3) -> ResidueFormula:
    """The simplest quasi-polynomial in ``n`` that reproduces every sample exactly.

    Parameters
    ----------
    samples : mapping n -> exact value
        At least ``degree + 2`` samples per residue class are needed, so
        that every class is checked on a sample it was not fitted to.
    max_modulus, max_degree : int
        Search limits; candidates are tried in order of their number of
        coefficients ``modulus * (degree + 1)``.

    Raises
    ------
    InductionError
        If no candidate within the limits fits.
    """
    keys = sorted(samples)
    candidates = sorted(((m * (d + 1), m, d) for m in range(1, max_modulus + 1)
                         for d in range(max_degree + 1)))
    for _, modulus, degree in candidates:
        polys = []
        for r in range(modulus):
            poly = _interpolate_class([(n, Fraction(samples[n])) for n in keys if n % modulus == r], degree)
            if poly is None:
                break
            polys.append(poly)
        else:
            return ResidueFormula(modulus, degree, tuple(polys), len(keys))
    raise InductionError(f"no polynomial of degree <= {max_degree} per residue class modulo <= {max_modulus} "
                         f"fits the {len(keys)} samples n = {keys[0]}..{keys[-1]}")
