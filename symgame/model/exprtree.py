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

from fractions import Fraction
from typing import Any, Mapping

import sympy as sp

from ..errors import InputError

MAX_TREE_NODES = 100_000


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
    results: list[sp.Expr] = []
    stack: list[tuple[Any, bool]] = [(tree, False)]
    seen = 0
    while stack:
        node, expanded = stack.pop()
        seen += 1
        if seen > MAX_TREE_NODES:
            raise InputError(f"expression tree larger than {MAX_TREE_NODES} nodes")
        if not isinstance(node, list) or not node or not isinstance(node[0], str):
            raise InputError(f"expression tree: expected [op, ...], got {str(node)[:40]}")
        op, args = node[0], node[1:]
        if op == "num":
            if len(args) != 1 or not isinstance(args[0], str):
                raise InputError("expression tree: ['num', \"p/q\"] takes one string")
            try:
                value = Fraction(args[0])
            except (ValueError, ZeroDivisionError):
                raise InputError(f"expression tree: bad number {args[0]!r}") from None
            results.append(sp.Rational(value.numerator, value.denominator))
        elif op == "param":
            if len(args) != 1 or args[0] not in symbols:
                raise InputError(f"expression tree: unknown parameter {str(args[:1])[:40]}")
            results.append(symbols[args[0]])
        elif op in ("add", "mul", "pow"):
            if op == "pow" and (len(args) != 2 or not isinstance(args[1], list) or args[1][:1] != ["num"]):
                raise InputError("expression tree: ['pow', base, ['num', k]] needs an integer exponent")
            if not args:
                raise InputError(f"expression tree: {op!r} needs arguments")
            if expanded:
                values = [results.pop() for _ in args][::-1]
                if op == "add":
                    results.append(sp.Add(*values))
                elif op == "mul":
                    results.append(sp.Mul(*values))
                else:
                    if not values[1].is_Integer:
                        raise InputError("expression tree: exponents must be integers")
                    results.append(values[0] ** values[1])
            else:
                stack.append((node, True))
                stack.extend((a, False) for a in reversed(args))
        else:
            raise InputError(f"expression tree: unknown operation {op[:20]!r}")
    return results[0]
