"""Restricted parser for user expressions and an exact evaluator.

User text is never handed to ``eval``, :func:`sympy.sympify` or
:func:`sympy.parsing.sympy_parser.parse_expr`.  The grammar accepted here is::

    relation := expr (REL expr)?            REL in  >= <= > < = == !=
    expr     := term (('+' | '-') term)*
    term     := unary (('*' | '/') unary)*
    unary    := ('+' | '-') unary | power
    power    := atom (('^' | '**') unary)?
    atom     := NUMBER | NAME | '(' expr ')'

Numbers are exact (``0.25`` is ``1/4``), names must be declared, and an
exponent must evaluate to an integer of absolute value at most
:data:`MAX_EXPONENT` with a constant base-free value (no parameter in an
exponent), so that no input can make sympy hang.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Callable, Mapping

import sympy as sp
from flint import fmpq

from ..errors import InputError

MAX_EXPONENT = 64
MAX_LENGTH = 4000
MAX_DEPTH = 60
MAX_NUMBER_DIGITS = 60
#: Bounds on a formula read back from a stored record (``stored=True``): formulas symgame derived itself (an
#: algebraic family's coefficients are rational functions of degree 14 in two unknowns), still bounded so that
#: a forged record costs at most a fraction of a second per formula; the nesting bound stays :data:`MAX_DEPTH`.
STORED_MAX_LENGTH = 200_000
STORED_MAX_NUMBER_DIGITS = 2_000

_TOKEN = re.compile(
    r"\s*(?:(?P<num>\d+(?:\.\d*)?|\.\d+)|(?P<name>[A-Za-z_][A-Za-z_0-9]*)"
    r"|(?P<op>\*\*|>=|<=|==|!=|[-+*/^()<>=]))"
)
RELATIONS = (">=", "<=", ">", "<", "==", "=", "!=")


class ExpressionError(InputError):
    """A user expression that the restricted grammar rejects.

    The message names the problem and the column where it was found.
    """


@dataclass(frozen=True)
class Token:
    kind: str
    text: str
    column: int


def tokenize(text: str, max_length: int = MAX_LENGTH) -> list[Token]:
    """Split ``text`` into number, name and operator tokens (at most ``max_length`` characters)."""
    if len(text) > max_length:
        raise ExpressionError(f"expression longer than {max_length} characters")
    tokens: list[Token] = []
    pos = 0
    stripped = text.rstrip()
    while pos < len(stripped):
        match = _TOKEN.match(stripped, pos)
        if match is None or match.end() == pos:
            bad = stripped[pos:].lstrip()[:1]
            column = len(stripped) - len(stripped[pos:].lstrip()) + 1
            raise ExpressionError(f"unexpected character {bad!r} at column {column}")
        kind = match.lastgroup or "op"
        tokens.append(Token(kind, match.group(kind), match.start(kind) + 1))
        pos = match.end()
    return tokens


class _Parser:
    """Recursive-descent parser building sympy objects directly."""

    def __init__(self, text: str, names: Mapping[str, sp.Expr], sqrt: bool = False, stored: bool = False):
        self.text = text
        self.sqrt = sqrt
        self.max_digits = STORED_MAX_NUMBER_DIGITS if stored else MAX_NUMBER_DIGITS
        self.tokens = tokenize(text, STORED_MAX_LENGTH if stored else MAX_LENGTH)
        self.pos = 0
        self.names = names
        self.depth = 0

    # -- token helpers -------------------------------------------------
    def peek(self) -> Token | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> Token:
        tok = self.peek()
        if tok is None:
            raise ExpressionError("unexpected end of expression")
        self.pos += 1
        return tok

    def at_op(self, *ops: str) -> bool:
        tok = self.peek()
        return tok is not None and tok.kind == "op" and tok.text in ops

    # -- grammar -------------------------------------------------------
    def parse_expression(self) -> sp.Expr:
        if not self.tokens:
            raise ExpressionError("empty expression")
        value = self.expr()
        self.expect_end()
        return value

    def parse_relation(self) -> tuple[sp.Expr, str, sp.Expr]:
        if not self.tokens:
            raise ExpressionError("empty condition")
        left = self.expr()
        if not self.at_op(*RELATIONS):
            raise ExpressionError("a condition needs a relation (>=, <=, >, <, =, !=)")
        rel = self.take().text
        right = self.expr()
        self.expect_end()
        return left, "==" if rel == "=" else rel, right

    def expect_end(self) -> None:
        tok = self.peek()
        if tok is not None:
            raise ExpressionError(f"unexpected {tok.text!r} at column {tok.column}")

    def expr(self) -> sp.Expr:
        terms = [self.term()]
        while self.at_op("+", "-"):
            op = self.take().text
            rhs = self.term()
            terms.append(rhs if op == "+" else -rhs)
        return sp.Add(*terms)             # one flattening, not one per term (long stored formulas)

    def term(self) -> sp.Expr:
        value = self.unary()
        while self.at_op("*", "/"):
            tok = self.take()
            rhs = self.unary()
            if tok.text == "/":
                if rhs == 0:
                    raise ExpressionError(f"division by zero at column {tok.column}")
                value = value / rhs
            else:
                value = value * rhs
        return value

    def unary(self) -> sp.Expr:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise ExpressionError(f"expression nested deeper than {MAX_DEPTH} levels")
        try:
            if self.at_op("+", "-"):
                op = self.take().text
                value = self.unary()
                return -value if op == "-" else value
            return self.power()
        finally:
            self.depth -= 1

    def power(self) -> sp.Expr:
        base = self.atom()
        if self.at_op("^", "**"):
            tok = self.take()
            exponent = self.checked_exponent(self.unary(), tok)
            if base == 0 and exponent < 0:
                raise ExpressionError(f"division by zero (0 to a negative power) at column {tok.column}")
            return base**exponent
        return base

    def checked_exponent(self, exponent: sp.Expr, tok: Token) -> sp.Integer:
        if not exponent.is_Integer:
            raise ExpressionError(
                f"exponent at column {tok.column} must be an integer constant, got {exponent}"
            )
        if abs(int(exponent)) > MAX_EXPONENT:
            raise ExpressionError(
                f"exponent {exponent} at column {tok.column} exceeds the limit {MAX_EXPONENT}"
            )
        return exponent

    def atom(self) -> sp.Expr:
        tok = self.take()
        if tok.kind == "num":
            return self.number(tok)
        if tok.kind == "name":
            following = self.peek()
            if self.sqrt and tok.text == "sqrt" and following is not None and following.text == "(":
                return sp.sqrt(self.atom())
            if tok.text not in self.names:
                known = ", ".join(sorted(self.names)) or "none"
                raise ExpressionError(
                    f"unknown name {tok.text!r} at column {tok.column} (known: {known})"
                )
            return self.names[tok.text]
        if tok.text == "(":
            value = self.expr()
            close = self.peek()
            if close is None or close.text != ")":
                raise ExpressionError(f"unbalanced parenthesis opened at column {tok.column}")
            self.take()
            return value
        raise ExpressionError(f"unexpected {tok.text!r} at column {tok.column}")

    def number(self, tok: Token) -> sp.Rational:
        digits = tok.text.replace(".", "")
        if len(digits) > self.max_digits:
            raise ExpressionError(
                f"number at column {tok.column} has more than {self.max_digits} digits"
            )
        return sp.Rational(Fraction(tok.text))


def parse_expression(text: str, names: Mapping[str, sp.Expr], sqrt: bool = False,
                     stored: bool = False) -> sp.Expr:
    """Parse ``text`` into a sympy expression over the declared ``names``.

    With ``sqrt=True`` the function ``sqrt(...)`` is allowed as well (for printed closed forms and
    algebraic range ends; game payoffs stay rational functions). With ``stored=True`` the text is a formula
    read back from a stored record (a cache or a study's output, checked after reading): longer texts and
    numbers are allowed (:data:`STORED_MAX_LENGTH`, :data:`STORED_MAX_NUMBER_DIGITS`), the grammar and the
    nesting bound are the same.

    Examples
    --------
    >>> t = sp.Symbol("t")
    >>> parse_expression("1/2 - t^2", {"t": t})
    1/2 - t**2
    >>> parse_expression("3/4 + sqrt(97)/4", {}, sqrt=True)
    3/4 + sqrt(97)/4
    """
    if not isinstance(text, (str, int)) or isinstance(text, bool):
        raise ExpressionError(f"expected an expression string, got {type(text).__name__}")
    return _parsed(str(text), tuple(names.items()), sqrt, stored)


@lru_cache(maxsize=4096)
def _parsed(text: str, names: tuple[tuple[str, sp.Expr], ...], sqrt: bool, stored: bool) -> sp.Expr:
    """:func:`parse_expression` once per text and names (sympy expressions are immutable; a stored study repeats
    its few hundred formulas thousands of times). A text that does not parse raises again on every call."""
    return _Parser(text, dict(names), sqrt, stored).parse_expression()


def parse_relation(text: str, names: Mapping[str, sp.Expr], expand: bool = True,
                   sqrt: bool = False) -> tuple[sp.Expr, str]:
    """Parse ``"lhs REL rhs"`` into ``(lhs - rhs, REL)`` with REL normalised.

    ``<`` and ``<=`` are turned around, so REL is one of ``>``, ``>=``,
    ``==``, ``!=``.  ``expand=False`` keeps ``lhs - rhs`` as written;
    ``sqrt=True`` allows ``sqrt(...)``.

    >>> p = sp.Symbol("p")
    >>> parse_relation("p <= 1/2", {"p": p})
    (1/2 - p, '>=')
    """
    if not isinstance(text, str):
        raise ExpressionError(f"expected a condition string, got {type(text).__name__}")
    left, rel, right = _Parser(text, names, sqrt).parse_relation()
    tidy = sp.expand if expand else (lambda e: e)
    if rel in ("<", "<="):
        return tidy(right - left), ">" if rel == "<" else ">="
    return tidy(left - right), rel


# ---------------------------------------------------------------------------
# exact evaluation
# ---------------------------------------------------------------------------
RawFunction = Callable[[Mapping[str, fmpq]], fmpq]


def to_fmpq(value: Fraction | int) -> fmpq:
    """A Fraction (or int) as python-flint's C rational (fast exact arithmetic)."""
    value = Fraction(value)
    return fmpq(value.numerator, value.denominator)


def to_fraction(value: fmpq) -> Fraction:
    return Fraction(int(value.p), int(value.q))


def raw_point(point: Mapping[str, Fraction]) -> dict[str, fmpq]:
    return {k: to_fmpq(v) for k, v in point.items()}


class ExactFunction:
    """A rational expression compiled for exact evaluation.

    Calling it maps ``{name: Fraction}`` to a Fraction; :meth:`raw` works on
    python-flint ``fmpq`` values directly (about six times faster than
    Fractions, used in grid checks).
    """

    def __init__(self, expr: sp.Expr):
        self.raw: RawFunction = _compile(expr)

    @classmethod
    def from_raw(cls, raw: RawFunction) -> "ExactFunction":
        """Wrap an evaluator on ``fmpq`` values built elsewhere (:func:`~symgame.model.exprtree.compile_tree`)."""
        function = cls.__new__(cls)
        function.raw = raw
        return function

    def __call__(self, point: Mapping[str, Fraction]) -> Fraction:
        return to_fraction(self.raw(raw_point(point)))


def compile_exact(expr: sp.Expr) -> ExactFunction:
    """Compile a rational expression into a fast exact evaluator.

    Only ``+``, ``*``, integer powers, rational constants and symbols are
    supported, which is all a rational function needs; anything else raises
    ``TypeError`` at compile time.  Much faster than ``expr.subs``; never rounds.

    >>> x = sp.Symbol("x")
    >>> compile_exact((x + 1) / (2 * x))({"x": Fraction(1, 3)})
    Fraction(2, 1)
    """
    return ExactFunction(expr)


def _compile(expr: sp.Expr) -> RawFunction:
    if expr.is_Rational:
        return constant_function(fmpq(int(expr.p), int(expr.q)))
    if expr.is_Symbol:
        return parameter_function(expr.name)
    if expr.is_Add:
        return sum_function([_compile(a) for a in expr.args])
    if expr.is_Mul:
        return product_function([_compile(a) for a in expr.args])
    if expr.is_Pow and expr.exp.is_Integer:
        return power_function(_compile(expr.base), int(expr.exp))
    raise TypeError(f"not a rational expression: {expr}")


# --- the evaluators compiled functions are made of (also built from JSON trees: symgame.model.exprtree) ----------

def constant_function(value: fmpq) -> RawFunction:
    """The constant ``value``."""
    return lambda point: value


def parameter_function(name: str) -> RawFunction:
    """The value of parameter ``name`` at the point."""
    return lambda point: point[name]


def sum_function(parts: list[RawFunction]) -> RawFunction:
    """The sum of ``parts`` (exact, python-flint)."""
    def total(point: Mapping[str, fmpq]) -> fmpq:
        result = fmpq(0)
        for f in parts:
            result += f(point)
        return result

    return total


def product_function(parts: list[RawFunction]) -> RawFunction:
    """The product of ``parts``."""
    def product(point: Mapping[str, fmpq]) -> fmpq:
        result = fmpq(1)
        for f in parts:
            result *= f(point)
        return result

    return product


def power_function(base: RawFunction, exponent: int) -> RawFunction:
    """``base ** exponent`` (a negative exponent divides: ``ZeroDivisionError`` where ``base`` vanishes)."""
    return lambda point: base(point) ** exponent
