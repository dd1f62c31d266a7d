"""Regions: conjunctions of polynomial sign conditions over the parameters.

A :class:`Region` is the semi-algebraic set ``{theta : f_1(theta) rel_1 0, ...}``
with each ``f_k`` a polynomial with rational coefficients and ``rel_k`` one of
``>``, ``>=``, ``==``, ``!=``.  Membership at rational points is exact; whether
a region is empty is decided exactly by z3's nonlinear real arithmetic
(:mod:`symgame.model.decide`) and reported as ``undecided`` when z3 gives up.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, lru_cache
from typing import Mapping, Sequence

import sympy as sp

from .expr import compile_exact, raw_point
from .parameters import Parameter

RELATIONS = (">", ">=", "==", "!=")


@dataclass(frozen=True)
class Atom:
    """One sign condition ``expr rel 0`` with ``expr`` a polynomial."""

    expr: sp.Expr
    rel: str

    def __post_init__(self) -> None:
        if self.rel not in RELATIONS:
            raise ValueError(f"unknown relation {self.rel!r}")

    @cached_property
    def _evaluator(self):
        return compile_exact(sp.expand(self.expr))

    def holds_at(self, point: Mapping[str, Fraction]) -> bool:
        """Exact test of the condition at a rational point."""
        return self.holds_at_raw(raw_point(point))

    def holds_at_raw(self, point) -> bool:
        """:meth:`holds_at` for a point of python-flint ``fmpq`` values."""
        return _compare(self._evaluator.raw(point), self.rel)

    @property
    def text(self) -> str:
        """Plain sympy syntax, e.g. ``"a - e >= 0"``."""
        return f"{expression_text(self.expr)} {self.rel} 0"

    def sides(self) -> tuple[sp.Expr, str, sp.Expr]:
        """``(lhs, rel, rhs)`` for display: positive terms left, negative terms right.

        ``-b + d >= 0`` is shown as ``d >= b``; ``-t >= 0`` as ``t <= 0``.
        Factored (product) conditions are kept as ``product rel 0``.
        """
        if not self.expr.is_Add:
            if _is_negative_term(self.expr):
                return -self.expr, {">": "<", ">=": "<="}.get(self.rel, self.rel), sp.Integer(0)
            return self.expr, self.rel, sp.Integer(0)
        positive = [t for t in self.expr.args if not _is_negative_term(t)]
        negative = [-t for t in self.expr.args if _is_negative_term(t)]
        lhs, rhs = sp.Add(*positive), sp.Add(*negative)
        if lhs == 0:
            return rhs, {">": "<", ">=": "<="}.get(self.rel, self.rel), lhs
        return lhs, self.rel, rhs

    @property
    def pretty(self) -> str:
        """Readable form such as ``a >= e`` (for cheat sheets, not for parsing)."""
        lhs, rel, rhs = self.sides()
        return f"{sp.sstr(lhs)} {rel} {sp.sstr(rhs)}"

    def latex(self) -> str:
        lhs, rel, rhs = self.sides()
        symbol = {">": ">", ">=": r"\ge", "<": "<", "<=": r"\le", "==": "=", "!=": r"\ne"}[rel]
        return f"{sp.latex(lhs)} {symbol} {sp.latex(rhs)}"



@lru_cache(maxsize=20_000)
def expression_text(expr: sp.Expr) -> str:
    """``sympy.sstr(expr)``, remembered (the key that orders and deduplicates atoms; printing a large
    polynomial takes milliseconds and the same atoms are printed again and again)."""
    return sp.sstr(expr)


def _is_negative_term(term: sp.Expr) -> bool:
    coeff, _ = term.as_coeff_Mul()
    return bool(coeff.is_negative)


def _compare(value: Fraction, rel: str) -> bool:
    if rel == ">":
        return value > 0
    if rel == ">=":
        return value >= 0
    if rel == "==":
        return value == 0
    return value != 0


@dataclass(frozen=True)
class Region:
    """A conjunction of :class:`Atom` conditions; the empty conjunction is everything."""

    atoms: tuple[Atom, ...] = ()

    def contains(self, point: Mapping[str, Fraction]) -> bool:
        """Exact membership test at a rational parameter point."""
        return self.contains_raw(raw_point(point))

    def contains_raw(self, point) -> bool:
        return all(atom.holds_at_raw(point) for atom in self.atoms)

    @property
    def texts(self) -> list[str]:
        return [atom.text for atom in self.atoms]

    def latex(self) -> str:
        return r" \wedge ".join(atom.latex() for atom in self.atoms) or r"\text{always}"


def normalise_atoms(atoms: Sequence[Atom]) -> tuple[Atom, ...]:
    """Drop duplicates and trivially true atoms; sort deterministically.

    Atoms keep their (possibly factored) form; duplicates are recognised on
    that form (expanding large factored products is too costly to do here).  A trivially false atom (a
    constant of the wrong sign) is kept so that the emptiness test sees it.
    """
    seen: dict[tuple[str, str], Atom] = {}
    for atom in atoms:
        if atom.expr.is_Number:
            if _compare(Fraction(str(atom.expr)), atom.rel):
                continue
            atom = Atom(sp.Integer(-1) if atom.rel in (">", ">=") else atom.expr, atom.rel)
        seen.setdefault((expression_text(atom.expr), atom.rel), atom)
    return tuple(seen[key] for key in sorted(seen))


@dataclass(frozen=True)
class Domain:
    """The admissible parameter set: interval domains plus extra assumptions.

    Extra assumptions are sign conditions such as Ganzfried's ``p1 > p2``
    in the Weakest Link model (section 6.3).
    """

    parameters: tuple[Parameter, ...]
    assumptions: tuple[Atom, ...] = field(default_factory=tuple)

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.parameters]

    @property
    def symbols(self) -> dict[str, sp.Symbol]:
        return {p.name: p.symbol for p in self.parameters}

    def region(self) -> Region:
        """The whole domain as a :class:`Region`."""
        atoms = [Atom(expr, rel) for p in self.parameters for expr, rel in p.bound_conditions()]
        return Region(normalise_atoms(atoms + list(self.assumptions)))

    def contains(self, point: Mapping[str, Fraction]) -> bool:
        return all(p.contains(point[p.name]) for p in self.parameters) and all(
            a.holds_at(point) for a in self.assumptions
        )

    def integer_names(self) -> set[str]:
        return {p.name for p in self.parameters if p.integer}
