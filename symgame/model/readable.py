"""Conditions of a decision list in the form a person would write, proved equivalent.

The engine's rule conditions are conjunctions of polynomial sign conditions such as
``(p1 - 1)*(2*p2 - 1) <= 0``. Ganzfried's point (Ganzfried 2022, section 3) is that a
decision list is read by a human at the table, so each rule also gets a readable form:

1. a product whose factors have a known sign on the domain is split: factors positive on the
   domain are dropped, negative ones flip the relation, and a factor that is never negative but
   can vanish becomes an alternative (``p1 == 1 or p2 >= 1/2`` for the condition above when
   ``p1`` ranges over [0, 1]);
2. a condition linear in one parameter is solved for it (``2*p2 - 1 >= 0`` reads ``p2 >= 1/2``),
   other conditions are written with positive terms on each side (``a >= e``);
3. repeated conditions are removed (``t == 0 and t == 0``), and so are conditions that the others
   imply on the domain.

The readable form is then proved equivalent to the engine's on the whole parameter domain by z3
(:attr:`Readable.proved`); when z3 cannot prove it the engine's form is shown instead.

Examples
--------
>>> import sympy as sp
>>> from symgame.model.parameters import parse_domain
>>> from symgame.model.region import Atom, Domain, Region
>>> domain = Domain((parse_domain("p1", "[0, 1]"), parse_domain("p2", "[0, 1]")))
>>> p1, p2 = domain.symbols["p1"], domain.symbols["p2"]
>>> readable_region(domain, Region((Atom(-(p1 - 1) * (2 * p2 - 1), ">="),))).text
'p1 == 1 or p2 >= 1/2'
>>> readable_region(domain, Region((Atom(2 * p1, "=="), Atom(p1, "=="),))).text
'p1 == 0'
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import flint
import sympy as sp
from sympy.core.mul import _keep_coeff
from sympy.polys.polyutils import _sort_gens

from .decide import Decision, Z3Context, satisfiable
from .region import Atom, Domain, Region
from .z3env import z3

_FLIP = {">": "<", ">=": "<=", "<": ">", "<=": ">=", "==": "==", "!=": "!="}
_LATEX = {">": ">", ">=": r"\ge", "<": "<", "<=": r"\le", "==": "=", "!=": r"\ne"}


@dataclass(frozen=True)
class Comparison:
    """``lhs rel rhs`` for display (``rel`` may be ``<`` or ``<=``), with its z3-checkable atom."""

    lhs: sp.Expr
    rel: str
    rhs: sp.Expr

    @property
    def text(self) -> str:
        return f"{pretty(self.lhs)} {self.rel} {pretty(self.rhs)}"

    @property
    def latex(self) -> str:
        return f"{sp.latex(self.lhs)} {_LATEX[self.rel]} {sp.latex(self.rhs)}"

    def z3(self, ctx: Z3Context) -> z3.BoolRef:
        diff = ctx.term(sp.expand(self.lhs - self.rhs))
        return {">": diff > 0, ">=": diff >= 0, "<": diff < 0, "<=": diff <= 0,
                "==": diff == 0, "!=": diff != 0}[self.rel]


@dataclass(frozen=True)
class Readable:
    """A rule's condition as a conjunction of alternatives (each a disjunction of comparisons).

    ``proved`` is the z3 decision that it is equivalent to the engine's region on the domain;
    ``text`` and ``latex`` fall back to the engine's form when it is not ``TRUE``.
    """

    clauses: tuple[tuple[Comparison, ...], ...]
    proved: Decision
    fallback: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        if self.proved is not Decision.TRUE:
            return " and ".join(self.fallback)
        parts = []
        for clause in self.clauses:
            words = " or ".join(c.text for c in clause)
            parts.append(f"({words})" if len(clause) > 1 and len(self.clauses) > 1 else words)
        return " and ".join(parts)

    @property
    def latex(self) -> str:
        parts = []
        for clause in self.clauses:
            words = r" \vee ".join(c.latex for c in clause)
            parts.append(f"({words})" if len(clause) > 1 and len(self.clauses) > 1 else words)
        return r" \wedge ".join(parts) or r"\text{always}"


def pretty(expr: sp.Expr) -> str:
    """A rational function as a person writes it: ``1 - c``, ``1/2``, ``2*(t - 1)/(3*t - 2)``.

    The numerator and the denominator are each shown expanded or factored, whichever is shorter,
    with the sign moved to where it reads best. The string is valid sympy syntax.

    >>> c, t = sp.symbols("c t")
    >>> pretty(-(c - 1)), pretty(sp.Mul(sp.Rational(1, 2), 1, evaluate=False)), pretty(2 * ((t - 1) / (3 * t - 2)))
    ('1 - c', '1/2', '(2*t - 2)/(3*t - 2)')
    """
    expr = sp.cancel(sp.together(sp.sympify(expr)))
    if expr.is_Rational or expr.is_Symbol:
        return sp.sstr(expr)
    num, den = sp.fraction(expr)
    if den != 1 and _leading_negative(den):
        num, den = -num, -den
    num_text, den_text = _shortest(num), _shortest(den)
    if den == 1:
        return num_text
    num_text = f"({num_text})" if _top_level(num_text.removeprefix("-"), "+-") else num_text
    den_text = f"({den_text})" if _top_level(den_text, "+-*/") else den_text
    return f"{num_text}/{den_text}"


def _shortest(poly: sp.Expr) -> str:
    expanded = _sum_text(sp.expand(poly))
    factored = sp.sstr(factor(poly))
    return factored if len(factored) < len(expanded) else expanded


def factor(poly: sp.Expr) -> sp.Expr:
    """``sympy.factor(poly)`` for a polynomial with rational coefficients, factored by FLINT.

    The same expression as sympy's (each factor primitive with a positive leading coefficient in the lexicographic
    order of the sorted symbols, the rational constant kept in front, as ``sympy.factor`` builds it), about seven
    times faster on the Final Jeopardy decision lists' probabilities, where sympy's factoring was half of writing
    the JSON. Anything that is not such a polynomial goes to ``sympy.factor``.

    Parameters
    ----------
    poly : sympy.Expr
        A polynomial expression.

    Returns
    -------
    sympy.Expr
        Its factored form, as ``sympy.factor`` returns it.

    Examples
    --------
    >>> x, y = sp.symbols("x y")
    >>> factor(2 * x**2 * y - 2 * y), sp.factor(2 * x**2 * y - 2 * y)
    (2*y*(x - 1)*(x + 1), 2*y*(x - 1)*(x + 1))
    """
    gens = _sort_gens(poly.free_symbols)
    names = tuple(str(g) for g in gens)
    if not gens or len(set(names)) < len(names):
        return sp.factor(poly)
    try:
        terms = sp.Poly(poly, *gens, domain="QQ").terms()
    except sp.PolynomialError:
        return sp.factor(poly)
    if not terms:
        return sp.Integer(0)
    scale = math.lcm(*(int(c.q) for _, c in terms))
    ring = flint.fmpz_mpoly_ctx.get(names, "lex")
    constant, factors = ring.from_dict({m: int(c.p) * (scale // int(c.q)) for m, c in terms}).factor()
    parts = []
    for f, e in factors:
        parts.append(sp.Add(*[sp.Integer(int(c)) * sp.Mul(*[g**k for g, k in zip(gens, m)])
                              for m, c in zip(f.monoms(), f.coeffs())]) ** int(e))
    return _keep_coeff(sp.Rational(int(constant), scale), sp.Mul(*parts))


def _sum_text(poly: sp.Expr) -> str:
    """A sum in sympy's order, but starting with a positive term: ``h - f`` rather than ``-f + h``."""
    if not poly.is_Add:
        return sp.sstr(poly)
    terms = poly.as_ordered_terms()
    first = next((k for k, t in enumerate(terms) if not t.as_coeff_Mul()[0].is_negative), None)
    if first is None:
        return "-(" + _sum_text(-poly) + ")"
    terms = [terms[first]] + terms[:first] + terms[first + 1:]
    text = sp.sstr(terms[0])
    for t in terms[1:]:
        text += f" - {sp.sstr(-t)}" if t.as_coeff_Mul()[0].is_negative else f" + {sp.sstr(t)}"
    return text


def _top_level(text: str, operators: str) -> bool:
    """Whether ``text`` has one of ``operators`` outside parentheses (a leading minus sign counts)."""
    depth = 0
    for k, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif depth == 0 and ch in operators and not (ch == "*" and text[k - 1:k] == "*" or text[k + 1:k + 2] == "*"):
            return True
    return False


def _leading_negative(poly: sp.Expr) -> bool:
    terms = sp.expand(poly).as_ordered_terms()
    return bool(terms) and terms[0].as_coeff_Mul()[0].is_negative


def comparison(atom_expr: sp.Expr, rel: str, symbols: list[sp.Symbol]) -> Comparison:
    """``expr rel 0`` solved for its parameter when linear in one, else positive terms on each side."""
    expr = sp.expand(atom_expr)
    free = [s for s in symbols if expr.has(s)]
    if len(free) == 1:
        poly = sp.Poly(expr, free[0])
        if poly.degree() == 1:
            a, b = poly.all_coeffs()
            if a.is_number and b.is_number:
                return Comparison(free[0], rel if a > 0 else _FLIP[rel], -b / a)
    if expr.is_Add:
        positive = [t for t in expr.args if not t.as_coeff_Mul()[0].is_negative]
        negative = [-t for t in expr.args if t.as_coeff_Mul()[0].is_negative]
        if positive:
            return Comparison(sp.Add(*positive), rel, sp.Add(*negative))
        return Comparison(sp.Add(*negative), _FLIP[rel], sp.Integer(0))
    if expr.as_coeff_Mul()[0].is_negative:
        return Comparison(-expr, _FLIP[rel], sp.Integer(0))
    return Comparison(expr, rel, sp.Integer(0))


def _sign_class(ctx: Z3Context, factor: sp.Expr, timeout_ms: int) -> str:
    """``pos``, ``neg``, ``nonneg``, ``nonpos`` (may vanish) or ``mixed`` on the domain."""
    term = ctx.term(sp.expand(factor))
    can = {name: satisfiable(ctx, [f], timeout_ms).satisfiable is not Decision.FALSE
           for name, f in (("pos", term > 0), ("neg", term < 0), ("zero", term == 0))}
    if can["pos"] and can["neg"]:
        return "mixed"
    if can["pos"]:
        return "nonneg" if can["zero"] else "pos"
    if can["neg"]:
        return "nonpos" if can["zero"] else "neg"
    return "mixed"          # identically zero on the domain: keep as is


def _split(ctx: Z3Context, atom: Atom, symbols: list[sp.Symbol], timeout_ms: int) -> list[tuple[Comparison, ...]]:
    """One atom as clauses (a conjunction of disjunctions) using the signs of its factors on the domain."""
    Clause = tuple[Comparison, ...]
    keep: list[Clause] = [(comparison(atom.expr, atom.rel, symbols),)]
    if not atom.expr.free_symbols:
        return keep
    constant, factors = sp.factor_list(sp.expand(atom.expr))
    if len(factors) < 2 and not (factors and factors[0][1] > 1):
        return keep
    sign = 1 if constant > 0 else -1
    weak: list[sp.Expr] = []
    mixed: list[sp.Expr] = []
    for factor, power in factors:
        cls = _sign_class(ctx, factor, timeout_ms)
        if cls == "mixed" and power % 2 == 0:
            weak.append(factor)                    # an even power: never negative, zero where the factor is
            continue
        if cls == "mixed":
            mixed.append(factor)
            continue
        if cls in ("neg", "nonpos") and power % 2:
            sign = -sign
        if cls in ("nonneg", "nonpos"):
            weak.append(factor)
    if len(mixed) > 1:
        return keep
    core = sign * (mixed[0] if mixed else sp.Integer(1))
    zero = tuple(comparison(f, "==", symbols) for f in weak)
    nonzero: list[Clause] = [(comparison(f, "!=", symbols),) for f in weak]
    rel = atom.rel
    if rel in (">", "!="):
        if core.is_Number:
            core_holds = bool(core > 0) if rel == ">" else bool(core != 0)
            return nonzero if core_holds else keep
        last: Clause = (comparison(core, rel, symbols),)
        return nonzero + [last]
    # >= and ==: a vanishing factor makes the product 0
    if core.is_Number:
        if rel == ">=" and core > 0:
            return []
        return [zero] if zero else keep
    result: Clause = zero + (comparison(core, rel, symbols),)
    return [result]


def readable_region(domain: Domain, region: Region, timeout_ms: int = 10_000) -> Readable:
    """The readable form of ``region`` and the z3 proof that it is equivalent on ``domain``."""
    ctx = Z3Context(domain)
    symbols = list(domain.symbols.values())
    clauses: list[tuple[Comparison, ...]] = []
    for atom in region.atoms:
        for clause in _split(ctx, atom, symbols, timeout_ms):
            if clause and clause not in clauses:
                clauses.append(clause)
    clauses = _merge_equalities(_drop_implied(ctx, clauses, timeout_ms))
    formula = z3.And([z3.Or([c.z3(ctx) for c in clause]) for clause in clauses]) if clauses else z3.BoolVal(True)
    differs = satisfiable(ctx, [z3.Xor(formula, ctx.region(region))], timeout_ms).satisfiable
    proved = {Decision.FALSE: Decision.TRUE, Decision.TRUE: Decision.FALSE}.get(differs, Decision.UNDECIDED)
    return Readable(tuple(clauses), proved, tuple(a.pretty for a in region.atoms))


def _merge_equalities(clauses: list[tuple[Comparison, ...]]) -> list[tuple[Comparison, ...]]:
    """Two single comparisons ``x >= y`` and ``y >= x`` (or ``x <= y``) become ``x == y``."""
    out = list(clauses)
    for a in clauses:
        for b in clauses:
            if a is b or a not in out or b not in out or len(a) != 1 or len(b) != 1:
                continue
            ca, cb = a[0], b[0]
            da, db = sp.expand(ca.lhs - ca.rhs), sp.expand(cb.lhs - cb.rhs)
            opposite = {ca.rel, cb.rel} == {">=", "<="} and sp.expand(da - db) == 0
            mirrored = ca.rel == cb.rel and ca.rel in (">=", "<=") and sp.expand(da + db) == 0
            if opposite or mirrored:
                out[out.index(a)] = (Comparison(ca.lhs, "==", ca.rhs),)
                out.remove(b)
    return out


def _drop_implied(ctx: Z3Context, clauses: list[tuple[Comparison, ...]], timeout_ms: int) -> list[tuple[Comparison, ...]]:
    kept = list(clauses)
    for clause in list(clauses):
        others = [z3.Or([c.z3(ctx) for c in other]) for other in kept if other is not clause]
        if satisfiable(ctx, others + [z3.Not(z3.Or([c.z3(ctx) for c in clause]))], timeout_ms).satisfiable \
                is Decision.FALSE:
            kept.remove(clause)
    return kept
