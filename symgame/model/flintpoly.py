"""Polynomials over QQ as FLINT integer polynomials (``fmpz_mpoly``), shared by the engine and the certificates.

>>> import flint
>>> from fractions import Fraction
>>> ctx = flint.fmpz_mpoly_ctx.get(("p",), "lex")
>>> integer_polynomials(ctx, [{(1,): Fraction(1, 2)}, {(0,): Fraction(2, 3)}])
[3*p, 4]
"""
from __future__ import annotations

import math
from typing import Mapping, Protocol, Sequence, SupportsInt

import flint


class RationalCoefficient(Protocol):
    """A rational number with ``numerator`` and ``denominator`` (``Fraction``, sympy's ``QQ`` elements)."""

    @property
    def numerator(self) -> SupportsInt: ...

    @property
    def denominator(self) -> SupportsInt: ...


def integer_polynomials(ctx: flint.fmpz_mpoly_ctx,
                        polys: Sequence[Mapping[tuple[int, ...], RationalCoefficient]]) -> list[flint.fmpz_mpoly]:
    """``polys`` (exponent tuple -> rational coefficient) times the lcm of all their denominators.

    One common factor for all of them, so ratios and the solutions of a linear equation they form are
    unchanged. Coefficients need ``numerator`` and ``denominator`` (``Fraction``, sympy's ``QQ``).
    """
    scale = math.lcm(1, *(int(c.denominator) for terms in polys for c in terms.values()))
    return [ctx.from_dict({m: int(c.numerator) * (scale // int(c.denominator)) for m, c in terms.items()})
            for terms in polys]
