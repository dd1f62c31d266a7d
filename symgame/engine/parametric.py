"""Exact solution of one best-response case with the parameter symbolic.

For a case (faces of the leaders, signs of the responders; see
:mod:`symgame.engine.casesplit`) the unknowns are the interior leaders and
the zero-sign responders, and the equations are their first-order
conditions ``g_x = 0`` (Billingham's sub-conditions (c)).  We compute a
lexicographic Gröbner basis with the parameter eliminated last (design note:
"eliminate with P last"), then:

* a basis element in the parameter alone means the case exists only at its
  real roots: each root is solved again with the parameter fixed;
* otherwise the basis is read triangularly, lowest unknown first: an unknown
  that leads no element is *free* (a family); a linear element gives a
  rational formula, a quadratic one two branches with ``sqrt``.  Parameter
  values where a leading coefficient or denominator vanishes are solved
  again separately instead of being passed over, and so is the component
  where a leading coefficient that involves the unknowns vanishes (the
  factor is added to the equations; at most :data:`MAX_SPLITS` deep).

Each result is a :class:`CaseBranch`: exact values (formulas) for every
variable and the remaining sign conditions, from which
:mod:`symgame.engine.ranges` derives the exact parameter range.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import sympy as sp

from ..errors import NoResultError
from ..model.polygame import PolynomialGame
from .casesplit import Structure


class UnsolvedCase(NoResultError):
    """A case the exact solver cannot finish (reported as undecided)."""


@dataclass(frozen=True)
class CaseBranch:
    """One exact solution branch of a case.

    Attributes
    ----------
    case : str
        Faces/signs, one character per variable of :attr:`Structure.order`.
    point : sympy.Rational or None
        The parameter value when the branch exists at a single value only.
    values : tuple of (name, expr)
        Every variable: a number, a formula in the parameter (possibly with
        ``sqrt``), or its own symbol when free.
    free : tuple of str
        Variables left free (the branch is a continuum in them).
    conditions : tuple of (expr, rel)
        ``expr rel 0`` (``rel`` in ``>``, ``>=``, ``==``) that must hold.
    """

    case: str
    point: sp.Rational | None
    values: tuple[tuple[str, sp.Expr], ...]
    free: tuple[str, ...]
    conditions: tuple[tuple[sp.Expr, str], ...]

    @property
    def value_map(self) -> dict[str, sp.Expr]:
        return dict(self.values)


@dataclass(frozen=True)
class CaseSolution:
    """All branches of one case, and special parameter values left unsolved."""

    case: str
    branches: tuple[CaseBranch, ...]
    unsolved: tuple[str, ...] = ()


def fixed_values(structure: Structure, case: str) -> dict[str, int]:
    """Variables pinned to 0 or 1 by the case."""
    out = {}
    for x, c in zip(structure.order, case):
        if c in ("L", "-"):
            out[x] = 0
        elif c in ("U", "+"):
            out[x] = 1
    return out


def case_conditions(game: PolynomialGame, structure: Structure, case: str) -> list[tuple[sp.Expr, str, str]]:
    """The sign conditions of ``case`` as ``(expr, rel, label)`` (unsubstituted)."""
    out = []
    for x, c in zip(structure.order, case):
        g = game.derivatives[x].as_expr()
        s = game.symbol(x)
        if c == "L":
            out.append((-g, ">=", f"dE/d{x} <= 0"))
        elif c == "U":
            out.append((g, ">=", f"dE/d{x} >= 0"))
        elif c == "I":
            out += [(g, "==", f"dE/d{x} = 0"), (s, ">", f"{x} > 0"), (1 - s, ">", f"{x} < 1")]
        elif c == "-":
            out.append((-g, ">", f"dE/d{x} < 0"))
        elif c == "+":
            out.append((g, ">", f"dE/d{x} > 0"))
        else:
            out += [(g, "==", f"dE/d{x} = 0"), (s, ">=", f"{x} >= 0"), (1 - s, ">=", f"{x} <= 1")]
    return out


def case_system(game: PolynomialGame, structure: Structure, case: str) -> tuple[list[str], list[sp.Expr]]:
    """The unknowns of ``case`` (variables not pinned to a face) and its equations (the derivatives of the
    interior leaders and of the indifferent responders, with the pinned variables substituted)."""
    fixed = fixed_values(structure, case)
    subs = {game.symbol(x): v for x, v in fixed.items()}
    unknowns = [x for x in structure.order if x not in fixed]
    equations = [sp.expand(game.derivatives[x].as_expr().subs(subs))
                 for x, c in zip(structure.order, case) if c in ("I", "0")]
    return unknowns, equations


def case_branch(game: PolynomialGame, structure: Structure, case: str, values: dict[sp.Symbol, sp.Expr],
                free: list[str]) -> CaseBranch:
    """The branch of ``case`` whose unknowns are ``values`` (formulas in the parameter and the ``free``
    unknowns), with the case's conditions substituted (the ones that vanish identically dropped)."""
    fixed = fixed_values(structure, case)
    conditions = _conditions(game, structure, case, fixed, values, [])
    return CaseBranch(case, None, _ordered(structure, fixed, values, free), tuple(free), tuple(conditions))


def solve_case(game: PolynomialGame, structure: Structure, case: str) -> CaseSolution:
    """Solve ``case`` exactly with the parameter symbolic (see module docstring)."""
    P = game.symbol(game.parameter_names[0])
    fixed = fixed_values(structure, case)
    unknowns, equations = case_system(game, structure, case)
    # responders first so that they are eliminated first; the parameter last
    gens = [game.symbol(x) for x in unknowns if x in structure.responders]
    gens += [game.symbol(x) for x in unknowns if x in structure.leaders]
    system = _System(game, structure, case, fixed, gens, P)
    branches, unsolved = system.solve(equations, 0)
    return CaseSolution(case, tuple(_distinct(branches)), tuple(dict.fromkeys(unsolved)))


#: how many times a component where a leading coefficient vanishes is split off and solved again
MAX_SPLITS = 3


@dataclass(frozen=True)
class _System:
    game: PolynomialGame
    structure: Structure
    case: str
    fixed: dict
    gens: list
    P: sp.Symbol

    def solve(self, equations: list[sp.Expr], depth: int) -> tuple[list[CaseBranch], list[str]]:
        """Branches of ``equations``; where a leading coefficient of the triangular reading involves the
        unknowns, the component on which it vanishes is solved again with that factor added (a formula
        ``u = -b/a`` says nothing where ``a = 0``)."""
        game, structure, case, fixed, gens, P = self.game, self.structure, self.case, self.fixed, self.gens, self.P
        lower = game.parameters[0]
        basis = _groebner(equations, gens + [P])
        if basis == [sp.Integer(1)]:
            return [], []
        branches: list[CaseBranch] = []
        unsolved: list[str] = []
        pure = [b for b in basis if b.free_symbols <= {P}]
        if pure:
            specials = _special_values(pure, lower)
            for r in specials.rational:
                branches += _solve_at(game, structure, case, fixed, equations, gens, P, r)
            unsolved += [f"P = {v}" for v in specials.irrational]
            return branches, unsolved
        try:
            triangular = _triangular(basis, gens, P)
        except UnsolvedCase as exc:
            return [], [str(exc)]
        degenerate: set = set()
        splits: set = set()
        for values, free, residuals, leading in triangular:
            degenerate.update(leading)
            splits.update(a for a in leading if a.free_symbols & set(gens))
            conditions = _conditions(game, structure, case, fixed, values, residuals)
            branches.append(CaseBranch(case, None, _ordered(structure, fixed, values, free), tuple(free),
                                       tuple(conditions)))
        specials = _special_values([d for d in degenerate if d.free_symbols <= {P} and d.has(P)], lower)
        for r in specials.rational:
            branches += _solve_at(game, structure, case, fixed, equations, gens, P, r)
        unsolved += [f"P = {v}" for v in specials.irrational]
        if depth < MAX_SPLITS:
            for factor in _split_factors(splits, set(gens), basis, gens + [P]):
                more, open_ = self.solve(equations + [factor], depth + 1)
                branches += more
                unsolved += open_
        elif splits:
            unsolved.append(f"components where {', '.join(sorted(map(str, splits)))} vanish (split limit)")
        return branches, unsolved


def _split_factors(coefficients: set, unknowns: set, basis: list[sp.Expr], gens: list[sp.Symbol]) -> list[sp.Expr]:
    """The factors involving unknowns of the coefficients' numerators that are not already in the ideal."""
    factors = {}
    for a in coefficients:
        numerator = sp.fraction(sp.together(a))[0]
        if has_sqrt(numerator):
            numerator = radical_norm(numerator)
        for f, _ in sp.factor_list(sp.expand(numerator))[1]:
            if f.free_symbols & unknowns:
                factors[sp.srepr(f)] = sp.expand(f)
    out = []
    for key in sorted(factors):
        f = factors[key]
        if sp.reduced(f, basis, *gens, order="lex")[1] != 0:
            out.append(f)
    return out


def _distinct(branches: list[CaseBranch]) -> list[CaseBranch]:
    seen: dict[tuple, CaseBranch] = {}
    for b in branches:
        seen.setdefault((str(b.point), tuple((x, sp.srepr(e)) for x, e in b.values)), b)
    return list(seen.values())


def _groebner(equations: list[sp.Expr], gens: list[sp.Symbol]) -> list[sp.Expr]:
    nonzero = [e for e in equations if e != 0]
    if not nonzero:
        return []
    return list(sp.groebner(nonzero, *gens, order="lex").exprs)


@dataclass(frozen=True)
class _Specials:
    rational: tuple[sp.Rational, ...]
    irrational: tuple[sp.Expr, ...]


def _special_values(polys: list[sp.Expr], param) -> _Specials:
    """Real roots of ``polys`` in the parameter's domain, rational ones first."""
    P = param.symbol
    rational: set[sp.Expr] = set()
    irrational: set[sp.Expr] = set()
    for poly in polys:
        num = sp.fraction(sp.together(poly))[0]
        if has_sqrt(num):
            num = radical_norm(num)
        if not num.has(P):
            continue
        for root in sp.Poly(num, P).real_roots():
            if not in_domain(param, root):
                continue
            (rational if root.is_Rational else irrational).add(root)
    return _Specials(tuple(sorted(rational)), tuple(sorted(irrational, key=lambda r: float(r))))


def _solve_at(game, structure, case, fixed, equations, gens, P, r) -> list[CaseBranch]:
    """Solve the case with the parameter fixed at the rational ``r``."""
    eqs = [sp.expand(e.subs(P, r)) for e in equations]
    basis = _groebner(eqs, gens)
    if basis == [sp.Integer(1)]:
        return []
    out = []
    triangular = _triangular(basis, gens, None)
    for values, free, residuals, _ in triangular:
        conditions = _conditions(game, structure, case, fixed, values, residuals, (P, r))
        if any(e.is_number and not _holds_number(e, rel) for e, rel in conditions):
            continue
        out.append(CaseBranch(case, r, _ordered(structure, fixed, values, free), tuple(free),
                              tuple((e, rel) for e, rel in conditions if not e.is_number)))
    return out


def _holds_number(value: sp.Expr, rel: str) -> bool:
    if value.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
        return False  # a vanishing denominator: no profile at this parameter value
    v = sp.nsimplify(value) if not value.is_Rational else value
    sign = sp.sign(v)
    return {">": sign > 0, ">=": sign >= 0, "==": sign == 0, "!=": sign != 0}[rel]


def _triangular(basis: list[sp.Expr], gens: list[sp.Symbol], P) -> list[tuple[dict, list, list, list]]:
    """Read a lex basis as formulas, lowest unknown first.

    Returns ``(values, free, residuals, leading)`` per branch: symbol→formula,
    the free unknowns, basis elements not used (must vanish: kept as
    conditions) and the leading coefficients used (their parameter roots
    are degenerate values).  An element that vanishes identically once the
    lower unknowns are substituted is skipped; an unknown led by no element
    of positive degree is free.
    """
    branches: list[tuple[dict, list, set, list]] = [({}, [], set(), [])]
    for k in range(len(gens) - 1, -1, -1):
        u = gens[k]
        leading = sorted((b for b in basis if b.has(u) and not (b.free_symbols & set(gens[:k]))),
                         key=lambda b: (sp.degree(b, u), sp.count_ops(b)))
        new = []
        for values, free, used, lcs in branches:
            pick, poly = _eliminant(leading, values, u)
            if pick is None:
                new.append((values, free + [str(u)], used, lcs))
                continue
            assert poly is not None
            coeffs = [sp.factor(sp.cancel(c)) for c in poly.all_coeffs()]
            if poly.degree() == 1:
                a, b = coeffs
                new.append(({**values, u: sp.factor(sp.cancel(-b / a))}, free[:], used | {pick}, lcs + [a]))
            elif poly.degree() == 2:
                a, b, c = coeffs
                disc = sp.factor(sp.expand(b * b - 4 * a * c))
                # both signs are taken, so |f| * sqrt(g) may be read as f * sqrt(g)
                radical = sp.sqrt(disc).replace(sp.Abs, lambda arg: arg)
                for sign in (1, -1):
                    root = sp.radsimp((-b + sign * radical) / (2 * a))
                    new.append(({**values, u: root}, free[:], used | {pick}, lcs + [a, disc]))
            else:
                raise UnsolvedCase(f"degree {poly.degree()} elimination polynomial in {u}")
        branches = new
    out = []
    for values, free, used, lcs in branches:
        residuals = []
        for b in basis:
            if b in used:
                continue
            together = sp.together(b.subs(values))
            if _numerator_expands_to_zero(together):
                continue
            r = sp.simplify(sp.radsimp(together))
            if r != 0:
                residuals.append(r)
        out.append((values, free, residuals, lcs))
    return out


def _numerator_expands_to_zero(expr: sp.Expr) -> bool:
    """Whether ``expr``'s numerator expands to 0: then ``expr`` vanishes identically, and a residual is dropped
    without ``simplify`` (every residual of the atlas tests' games with square roots; ``simplify`` still
    decides the others, such as ``sqrt(c)*sqrt(d) - sqrt(c*d)``)."""
    return sp.expand(sp.fraction(expr)[0]) == 0


def _eliminant(leading: list[sp.Expr], values: dict, u: sp.Symbol) -> tuple[sp.Expr | None, sp.Poly | None]:
    """The first basis element of positive degree in ``u`` after substituting ``values``."""
    for b in leading:
        poly = sp.Poly(sp.expand(b.subs(values)), u)
        if poly.degree() >= 1:
            return b, poly
    return None, None


def _conditions(game, structure, case, fixed, values, residuals, at=None) -> list[tuple[sp.Expr, str]]:
    subs = {game.symbol(x): v for x, v in fixed.items()}
    subs.update(values)
    out = []
    for expr, rel, _ in case_conditions(game, structure, case):
        e = expr.subs(subs)
        if at is not None:
            e = e.subs(*at)
        e = _tidy(e)
        if rel == "==" and e == 0:
            continue
        out.append((e, rel))
    for r in residuals:
        out.append((_tidy(r.subs(*at) if at is not None else r), "=="))
    return out


def _tidy(expr: sp.Expr) -> sp.Expr:
    if has_sqrt(expr):
        return sp.radsimp(sp.together(expr))
    return sp.factor(sp.cancel(sp.together(expr)))


def has_sqrt(expr: sp.Expr) -> bool:
    """Whether ``expr`` contains a square root."""
    return any(a.is_Pow and a.exp.is_Rational and a.exp.q == 2 for a in sp.preorder_traversal(expr))


def radical_norm(expr: sp.Expr) -> sp.Expr:
    """Multiply out the square roots: resultant with ``s**2 - D`` for each.

    The result is a polynomial without radicals that vanishes wherever
    ``expr`` (or one of its conjugates) does.  With ``s**2 - D`` monic of
    degree 2 the resultant of ``f`` and it is ``f(sqrt(D)) * f(-sqrt(D))``,
    that is ``A**2 - D*B**2`` where ``A + B*s`` is ``f`` reduced modulo
    ``s**2 - D``: computed so, not by a subresultant sequence over sympy's
    expression domain (the same polynomial; :func:`_radical_norm_by_resultant`
    is the definition, kept for the tests).

    Examples
    --------
    >>> import sympy as sp
    >>> c = sp.Symbol("c")
    >>> radical_norm(1 + sp.sqrt(1 - 2*c))
    2*c
    """
    radicals = _square_roots(expr)
    for k in range(MAX_RADICALS):
        if k == len(radicals):
            # sympy may split a root while expanding (sqrt(2*P + 2) -> sqrt(2)*sqrt(P + 1)): those are next
            radicals += [r for r in _square_roots(expr) if r not in radicals]
            if k == len(radicals):
                return sp.expand(expr)
        rad = radicals[k]
        s = sp.Dummy(f"s{k}")
        base = rad.base
        expr = sp.expand(expr.subs(rad, s ** rad.exp.p if rad.exp.p > 0 else 1 / s ** (-rad.exp.p)))
        num = sp.expand(sp.fraction(sp.together(expr))[0])
        split = _even_odd_in(num, s, base)
        if split is None:                             # s inside another radical: the definition
            expr = sp.resultant(num, s * s - base, s)
        else:
            even, odd = split
            expr = sp.expand(even ** 2 - base * odd ** 2)
    raise UnsolvedCase(f"more than {MAX_RADICALS} square roots to multiply out")


#: The most square roots :func:`radical_norm` multiplies out of one expression (its degree doubles with each).
MAX_RADICALS = 8


def _square_roots(expr: sp.Expr) -> list[sp.Expr]:
    return sorted({a for a in sp.preorder_traversal(expr) if a.is_Pow and a.exp.is_Rational and a.exp.q == 2},
                  key=sp.default_sort_key)


def _even_odd_in(num: sp.Expr, s: sp.Symbol, base: sp.Expr) -> tuple[sp.Expr, sp.Expr] | None:
    """``(A, B)`` with ``num = A + B*s`` modulo ``s**2 - base``, or None when ``s`` is not a polynomial variable
    of the expanded ``num``."""
    even: list[sp.Expr] = []
    odd: list[sp.Expr] = []
    for term in sp.Add.make_args(num):
        rest, part = term.as_independent(s, as_Add=False)
        if part == 1:
            power = 0
        elif part == s:
            power = 1
        elif part.is_Pow and part.base == s and part.exp.is_Integer and part.exp > 0:
            power = int(part.exp)
        else:
            return None
        (odd if power % 2 else even).append(rest * base ** (power // 2))
    return sp.Add(*even), sp.Add(*odd)


def _radical_norm_by_resultant(expr: sp.Expr) -> sp.Expr:
    """:func:`radical_norm` by its definition, the resultant with ``s**2 - D`` for each square root."""
    for k, rad in enumerate(_square_roots(expr)):
        s = sp.Dummy(f"s{k}")
        base = rad.base
        expr = sp.expand(expr.subs(rad, s ** rad.exp.p if rad.exp.p > 0 else 1 / s ** (-rad.exp.p)))
        num = sp.fraction(sp.together(expr))[0]
        expr = sp.resultant(sp.expand(num), s * s - base, s)
    return sp.expand(expr)


def in_domain(param, value: sp.Expr) -> bool:
    """Exact membership of a real algebraic ``value`` in the parameter's domain."""
    if param.lower.is_finite:
        if value < param.lower or (value == param.lower and not param.lower_closed):
            return False
    if param.upper.is_finite:
        if value > param.upper or (value == param.upper and not param.upper_closed):
            return False
    return True


def _ordered(structure: Structure, fixed: dict, values: dict, free: list) -> tuple[tuple[str, sp.Expr], ...]:
    out = []
    for x in structure.order:
        if x in fixed:
            out.append((x, sp.Integer(fixed[x])))
        else:
            sym = next((s for s in values if str(s) == x), None)
            out.append((x, values[sym] if sym is not None else sp.Symbol(x, real=True)))
    return tuple(out)


def as_fraction(value: sp.Rational) -> Fraction:
    return Fraction(int(value.p), int(value.q))
