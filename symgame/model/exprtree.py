"""Expressions as small JSON trees that no reader can misparse.

symgame's JSON gives every condition and probability as a sympy-syntax string *and* as a tree:

- ``["num", "3/4"]`` an exact rational number (an integer is ``["num", "2"]``);
- ``["param", "t"]`` a parameter, by its name (any name: ``E``, ``I``, ``lambda`` stay parameters);
- ``["add", a, b, ...]`` and ``["mul", a, b, ...]`` sums and products of trees;
- ``["pow", a, ["num", "k"]]`` a power with an integer exponent ``k`` (negative: a division).

A string such as ``"E*lambda - 1"`` means something else to ``sympy.sympify`` (Euler's number, a
syntax error); the tree cannot. :func:`from_tree` reads a tree back without any parser, and the
The page docs/json.md ("The JSON contract") shows the same in ten lines of plain Python.

Examples
--------
>>> import sympy as sp
>>> lam, E = sp.Symbol("lambda", real=True), sp.Symbol("E", real=True)
>>> tree = to_tree(1 - lam / (2 * E))
>>> tree
['add', ['num', '1'], ['mul', ['num', '-1/2'], ['pow', ['param', 'E'], ['num', '-1']], ['param', 'lambda']]]
>>> from_tree(tree, {"lambda": lam, "E": E}) == 1 - lam / (2 * E)
True
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Collection, Mapping

import sympy as sp

from ..errors import InputError

if TYPE_CHECKING:
    from .expr import ExactFunction

MAX_TREE_NODES = 100_000
#: Nesting bound of :func:`compile_tree` (its evaluators call each other once per level).
MAX_TREE_DEPTH = 200
#: Largest exponent :func:`compile_tree` evaluates.
MAX_TREE_EXPONENT = 10_000


def to_tree(expr: sp.Expr) -> list[Any]:
    """The JSON tree of a rational function of parameters (numbers, symbols, ``+``, ``*``, integer powers)."""
    expr = sp.sympify(expr)
    if expr.is_Rational:
        return ["num", str(expr)]
    if expr.is_Symbol:
        return ["param", expr.name]
    if expr.is_Add:
        return ["add", *(to_tree(a) for a in expr.as_ordered_terms())]
    if expr.is_Mul:
        coeff, rest = expr.as_coeff_Mul()
        factors = ([coeff] if coeff != 1 else []) + sorted(sp.Mul.make_args(rest), key=sp.default_sort_key)
        return ["mul", *(to_tree(a) for a in factors)]
    if expr.is_Pow and expr.exp.is_Integer:
        return ["pow", to_tree(expr.base), ["num", str(expr.exp)]]
    raise ValueError(f"no JSON tree for {sp.sstr(expr)} (rational functions of the parameters only)")


def from_tree(tree: Any, symbols: Mapping[str, sp.Symbol]) -> sp.Expr:
    """The sympy expression of a tree (iterative; unknown names and malformed nodes raise :class:`InputError`)."""
    def number(text: str) -> sp.Expr:
        numerator, denominator = _number(text)
        return sp.Rational(numerator, denominator)

    return _fold(tree, symbols, number, lambda name: symbols[name], lambda parts: sp.Add(*parts),
                 lambda parts: sp.Mul(*parts), lambda base, exponent: base ** sp.Integer(exponent))


def _number(text: str) -> tuple[int, int]:
    """``"-3/4"`` or ``"12"`` as (numerator, denominator): ASCII digits, a sign, one slash, a positive denominator
    (a tenth of the time of ``Fraction(text)``, which reads every other spelling of a number too)."""
    numerator, slash, denominator = text.partition("/")
    digits = numerator[1:] if numerator[:1] == "-" else numerator
    if not (digits.isascii() and digits.isdigit()) or (slash and not (denominator.isascii() and denominator.isdigit()
                                                                        and denominator.strip("0"))):
        raise InputError(f"expression tree: bad number {text[:40]!r}")
    return int(numerator), int(denominator) if slash else 1


def _fold(tree: Any, names: Collection[str], number: Callable[[str], Any], parameter: Callable[[str], Any],
          add: Callable[[list], Any], mul: Callable[[list], Any], power: Callable[[Any, int], Any]) -> Any:
    """Read a tree bottom-up without recursion, checking every node, and combine it by the given functions
    (the garbage collector paused: :func:`~symgame.model.store.gc_paused`)."""
    from .store import gc_paused

    with gc_paused():
        return _fold_nodes(tree, names, number, parameter, add, mul, power)


def _fold_nodes(tree: Any, names: Collection[str], number: Callable[[str], Any], parameter: Callable[[str], Any],
                add: Callable[[list], Any], mul: Callable[[list], Any], power: Callable[[Any, int], Any]) -> Any:
    results: list[Any] = []
    stack: list[tuple[Any, bool, int]] = [(tree, False, 1)]
    seen = 0
    while stack:
        node, expanded, depth = stack.pop()
        seen += 1
        if seen > MAX_TREE_NODES:
            raise InputError(f"expression tree larger than {MAX_TREE_NODES} nodes")
        if depth > MAX_TREE_DEPTH:
            raise InputError(f"expression tree nested deeper than {MAX_TREE_DEPTH} levels")
        if not isinstance(node, list) or not node or not isinstance(node[0], str):
            raise InputError(f"expression tree: expected [op, ...], got {str(node)[:40]}")
        op, args = node[0], node[1:]
        if op == "num":
            if len(args) != 1 or not isinstance(args[0], str):
                raise InputError("expression tree: ['num', \"p/q\"] takes one string")
            results.append(number(args[0]))
        elif op == "param":
            if len(args) != 1 or not isinstance(args[0], str) or args[0] not in names:
                raise InputError(f"expression tree: unknown parameter {str(args[:1])[:40]}")
            results.append(parameter(args[0]))
        elif op in ("add", "mul", "pow"):
            if op == "pow" and (len(args) != 2 or not isinstance(args[1], list) or args[1][:1] != ["num"]):
                raise InputError("expression tree: ['pow', base, ['num', k]] needs an integer exponent")
            if not args:
                raise InputError(f"expression tree: {op!r} needs arguments")
            if not expanded:
                stack.append((node, True, depth))
                stack.extend((a, False, depth + 1) for a in reversed(args))
            elif op == "pow":
                text = args[1][1] if len(args[1]) == 2 and isinstance(args[1][1], str) else ""
                exponent, one = _number(text) if "/" not in text else (0, 0)
                if one != 1:
                    raise InputError("expression tree: exponents must be integers")
                if abs(exponent) > MAX_TREE_EXPONENT:
                    raise InputError(f"expression tree: exponent beyond {MAX_TREE_EXPONENT}")
                results.pop()
                results.append(power(results.pop(), exponent))
            else:
                parts = [results.pop() for _ in args][::-1]
                results.append(add(parts) if op == "add" else mul(parts))
        else:
            raise InputError(f"expression tree: unknown operation {op[:20]!r}")
    return results[0]


def compile_tree(tree: Any, names: Collection[str]) -> "ExactFunction":
    """An exact evaluator of a tree, built without sympy (for re-checking many stored formulas at few points).

    The same grammar and bounds as :func:`from_tree` (iterative reading; unknown names and malformed nodes raise
    :class:`InputError`), nesting at most :data:`MAX_TREE_DEPTH`, exponents at most :data:`MAX_TREE_EXPONENT`. The tree is evaluated as written, without
    the simplification sympy applies when it builds an expression, so a factor that cancels (``x / x``) still
    divides by zero where it vanishes: ``ZeroDivisionError``, as at a pole.

    Parameters
    ----------
    tree : list
        The tree (see the module docstring).
    names : collection of str
        The parameters it may name.

    Returns
    -------
    ExactFunction
        Maps ``{name: Fraction}`` to a Fraction (``raw`` on python-flint ``fmpq`` values).

    Raises
    ------
    InputError
        For a malformed tree, an unknown name, or one larger or deeper than the bounds.

    Examples
    --------
    >>> from fractions import Fraction
    >>> f = compile_tree(["add", ["num", "1"], ["mul", ["num", "-1/2"], ["pow", ["param", "E"], ["num", "-1"]]]],
    ...                  {"E"})
    >>> f({"E": Fraction(1, 4)})
    Fraction(-1, 1)
    """
    from flint import fmpq

    from .expr import (
        ExactFunction,
        constant_function,
        parameter_function,
        power_function,
        product_function,
        sum_function,
    )

    def number(text: str) -> Any:
        numerator, denominator = _number(text)
        return constant_function(fmpq(numerator, denominator))

    return ExactFunction.from_raw(_fold(tree, names, number, parameter_function, sum_function, product_function,
                                        power_function))
