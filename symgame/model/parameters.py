"""Parameters of a game: sympy symbols with an interval domain.

A parameter such as Ganzfried's answer probability ``p1 in [0, 1]`` or
Billingham's pot ``P in [2, oo)`` is a real (optionally integer) symbol with
an interval of admissible values.  Domains are parsed from strings like
``"[0, 1]"``, ``"(0, oo)"`` or ``"[2, 10)"`` with the restricted parser.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

import sympy as sp

from .expr import ExpressionError, parse_expression

_INTERVAL = re.compile(r"^\s*([\[(])\s*([^,]+?)\s*,\s*([^,]+?)\s*([\])])\s*$")


def parameter_symbol(name: str) -> sp.Symbol:
    """The one sympy symbol used for parameter ``name`` everywhere."""
    return sp.Symbol(name, real=True)


@dataclass(frozen=True)
class Parameter:
    """A named parameter with an interval domain.

    Attributes
    ----------
    name : str
        Name used in expressions and output.
    lower, upper : sympy.Expr
        Rational bounds, or ``-oo`` / ``oo``.
    lower_closed, upper_closed : bool
        Whether each finite bound belongs to the domain.
    integer : bool
        Integer-valued parameter (e.g. a deck size).
    """

    name: str
    lower: sp.Expr = sp.S.NegativeInfinity
    upper: sp.Expr = sp.S.Infinity
    lower_closed: bool = False
    upper_closed: bool = False
    integer: bool = False

    @property
    def symbol(self) -> sp.Symbol:
        return parameter_symbol(self.name)

    @property
    def domain_text(self) -> str:
        """The domain in interval notation, e.g. ``[0, 1]``."""
        left = "[" if self.lower_closed else "("
        right = "]" if self.upper_closed else ")"
        text = f"{left}{_bound_text(self.lower)}, {_bound_text(self.upper)}{right}"
        return f"{text} integer" if self.integer else text

    def bound_conditions(self) -> list[tuple[sp.Expr, str]]:
        """The domain as sign conditions ``(expr, rel)`` meaning ``expr rel 0``."""
        conditions = []
        if self.lower.is_finite:
            conditions.append((self.symbol - self.lower, ">=" if self.lower_closed else ">"))
        if self.upper.is_finite:
            conditions.append((self.upper - self.symbol, ">=" if self.upper_closed else ">"))
        return conditions

    def contains(self, value: Fraction) -> bool:
        """Exact membership test for a rational value."""
        value = Fraction(value)
        if self.integer and value.denominator != 1:
            return False
        if self.lower.is_finite:
            lower = Fraction(int(self.lower.p), int(self.lower.q))
            if value < lower or (value == lower and not self.lower_closed):
                return False
        if self.upper.is_finite:
            upper = Fraction(int(self.upper.p), int(self.upper.q))
            if value > upper or (value == upper and not self.upper_closed):
                return False
        return True


def finite_window(param: Parameter) -> tuple[Fraction, Fraction]:
    """The domain clipped to a finite window (10 wide past an infinite end)."""
    lo = Fraction(str(param.lower)) if param.lower.is_finite else None
    hi = Fraction(str(param.upper)) if param.upper.is_finite else None
    if lo is None and hi is None:
        return Fraction(-10), Fraction(10)
    if lo is None:
        assert hi is not None
        return hi - 10, hi
    if hi is None:
        return lo, lo + 10
    return lo, hi


def _bound_text(value: sp.Expr) -> str:
    if value is sp.S.Infinity:
        return "oo"
    if value is sp.S.NegativeInfinity:
        return "-oo"
    return str(value)


def parse_domain(name: str, text: str, integer: bool = False) -> Parameter:
    """Parse an interval such as ``"[0, 1]"`` or ``"(0, oo)"`` for ``name``.

    Bounds are rational constants or ``oo``/``-oo``.  An empty interval is an
    error.

    >>> parse_domain("t", "[0, 3]").domain_text
    '[0, 3]'
    """
    if not isinstance(text, str):
        raise ExpressionError(f"domain must be a string like \"[0, 1]\", got {text!r}")
    match = _INTERVAL.match(text)
    if match is None:
        raise ExpressionError(f"domain {text!r} is not an interval like \"[0, 1]\" or \"(0, oo)\"")
    left, lo_text, hi_text, right = match.groups()
    infinities = {"oo": sp.S.Infinity, "+oo": sp.S.Infinity, "-oo": sp.S.NegativeInfinity}
    lower = infinities[lo_text] if lo_text in infinities else parse_expression(lo_text, {})
    upper = infinities[hi_text] if hi_text in infinities else parse_expression(hi_text, {})
    param = Parameter(name, lower, upper, left == "[" and lower.is_finite,
                      right == "]" and upper.is_finite, integer)
    _check_nonempty(param, text)
    return param


def _check_nonempty(param: Parameter, text: str) -> None:
    if param.lower is sp.S.Infinity or param.upper is sp.S.NegativeInfinity:
        raise ExpressionError(f"domain {text!r} is empty")
    if param.lower.is_finite and param.upper.is_finite:
        closed = param.lower_closed and param.upper_closed
        if param.lower > param.upper or (param.lower == param.upper and not closed):
            raise ExpressionError(f"domain {text!r} is empty")
        if param.integer:
            lo = sp.ceiling(param.lower) + (0 if param.lower_closed or not param.lower.is_integer else 1)
            hi = sp.floor(param.upper) - (0 if param.upper_closed or not param.upper.is_integer else 1)
            if lo > hi:
                raise ExpressionError(f"integer domain {text!r} contains no integer")
