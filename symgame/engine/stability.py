"""Learning dynamics of a polynomial game: its rest points and their stability, with the parameter symbolic.

The dynamics are Billingham's model of repeated play (Billingham, "Full street simplified three player
Kuhn poker", arXiv:1707.01392, 2017, section 4.1, eq. (23)): every frequency ``x`` moves along its owner's
payoff gradient, damped at the faces of the unit box,

    dx/dt = scale * k_x * x (1 - x) * dE_owner/dx .

**Every equilibrium is a rest point.**  At an equilibrium a variable is either at a face (``x (1 - x) = 0``)
or interior, where its first-order condition ``dE_owner/dx = 0`` holds; :func:`family_stability` checks this
exactly for each atlas family (``rest_point``), free variables and square roots included.

**Rest points that are not equilibria are unstable.**  At a rest point, the row of the Jacobian of a variable
at a face is ``(1 - 2x) g_x`` on the diagonal and zero elsewhere (``g_x = dE_owner/dx``), so the Jacobian is
block triangular: its eigenvalues are those diagonal entries and the eigenvalues of the interior block.  A
rest point that violates a best-response sign has a face variable with ``(1 - 2x) g_x > 0``: a positive real
eigenvalue.

**Stability with the parameter symbolic.**  At a family the characteristic polynomial of the Jacobian is
computed exactly, as a polynomial in the eigenvalue ``lam``, the parameter ``P``, a square root ``s`` of the
family's formulas (reduced modulo ``s**2 - D``) and the family's free variables, and factored over the
rationals.  For a factor ``phi = A(lam**2) + lam B(lam**2)`` without free variables, the number of its roots
with positive, zero and negative real part (and the number on the imaginary axis) can change only where

* ``Res_u(A, B)`` vanishes (a root crosses the imaginary axis: ``phi(i w) = 0`` means ``A(-w**2) = 0`` and
  ``B(-w**2) = 0``), or ``A(0)`` does (a zero root), or the leading coefficient does; or, for an even or odd
  factor (roots in pairs ``+-lam``, so never asymptotically stable), where ``q = A`` or ``B`` has a double
  root, a zero root or a vanishing leading coefficient (a pair leaves the imaginary axis only there);
* with a square root, the resultant with ``s**2 - D`` of each of these, and ``D``.

These *critical polynomials* cut each range of the family into open cells and points; the configuration is
constant on each open cell and is computed at one rational sample with certified root isolation (Arb balls
from python-flint, whose real parts must exclude 0; pairs on the imaginary axis are the negative real roots
of ``q``, certified real by a conjugation test).  A factor with free variables (a continuum of rest points)
that is linear in ``lam``, or even in ``lam`` with ``q`` of degree at most 2, is decided over the whole cell and
continuum by z3; any other is only sampled, and the cell is then not proved.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Sequence

import flint
import sympy as sp
from sympy.polys.matrices import DomainMatrix

from ..errors import InputError, NoResultError
from ..model.decide import Decision
from ..model.polygame import PolynomialGame
from ..model.z3env import z3
from .atlas import Atlas, Family, SolvedBranch, branch_witness
from .ranges import Endpoint, ParamInterval, _between, _endpoint, _sorted_distinct, compare_endpoints
from .z3terms import Z3Encoder, decide

LAM = sp.Symbol("lam")
_PREC = 320


class StabilityError(NoResultError, ValueError):
    """A family whose Jacobian the analysis cannot handle (more than one square root): no result, not bad input."""


# --------------------------------------------------------------------------- the dynamics

def rates_for(game: PolynomialGame, rates: dict[str, object] | None = None) -> dict[str, sp.Rational]:
    """The rate ``k_x`` of every variable (default 1); unknown names are an error."""
    out = {x: sp.Integer(1) for x in game.variables}
    for name, value in (rates or {}).items():
        if name not in out:
            raise KeyError(f"no variable {name!r} in the game (variables: {', '.join(game.variables)})")
        k = sp.Rational(str(value))
        if k <= 0:
            raise InputError(f"rate of {name} must be positive, got {value}")
        out[name] = k
    return out


def vector_field(game: PolynomialGame, rates: dict[str, object] | None = None,
                 scale: object = 1) -> list[sp.Expr]:
    """``dx/dt`` for every variable of ``game`` (in :attr:`PolynomialGame.variables` order).

    >>> import symgame
    >>> pennies = symgame.load("examples/pennies.yaml")
    >>> [sp.factor(e) for e in vector_field(pennies)]
    [-x*(x - 1)*(P*y + 3*y - 2), y*(y - 1)*(P*x + 3*x - 2)]
    """
    k = rates_for(game, rates)
    c = sp.Rational(str(scale))
    out = []
    for x in game.variables:
        X = game.symbol(x)
        g = game.derivatives[x].as_expr()
        out.append(c * k[x] * X * (1 - X) * g)
    return out


def jacobian(game: PolynomialGame, rates: dict[str, object] | None = None, scale: object = 1) -> sp.Matrix:
    """The Jacobian of :func:`vector_field` with respect to the variables (symbolic)."""
    field_ = sp.Matrix(vector_field(game, rates, scale))
    return field_.jacobian([game.symbol(x) for x in game.variables])


# --------------------------------------------------------------------------- results

@dataclass(frozen=True)
class Configuration:
    """Eigenvalues of the Jacobian at a rest point, counted with multiplicity by the sign of their real part.

    ``imaginary`` counts the nonzero eigenvalues on the imaginary axis (the oscillatory part of a centre
    manifold has that dimension); ``zero`` the zero eigenvalues.
    """

    positive: int
    imaginary: int
    zero: int
    negative: int

    def __add__(self, other: "Configuration") -> "Configuration":
        return Configuration(self.positive + other.positive, self.imaginary + other.imaginary,
                             self.zero + other.zero, self.negative + other.negative)

    def scaled(self, m: int) -> "Configuration":
        return Configuration(self.positive * m, self.imaginary * m, self.zero * m, self.negative * m)

    @property
    def stability(self) -> str:
        if self.positive:
            return "unstable"
        if self.imaginary or self.zero:
            return "centre"
        return "asymptotically stable"


NONE = Configuration(0, 0, 0, 0)


@dataclass(frozen=True)
class StabilityRange:
    """The stability of a family on a range of the parameter (an open cell or a single point)."""

    lower: Endpoint
    lower_closed: bool
    upper: Endpoint | None
    upper_closed: bool
    stability: str
    configuration: Configuration | None
    proved: bool
    uniform: bool = True
    note: str = ""

    @property
    def oscillatory_dimensions(self) -> int | None:
        return None if self.configuration is None else self.configuration.imaginary


@dataclass(frozen=True)
class FamilyStability:
    """The stability analysis of one atlas family (one entry per member branch and cell)."""

    family: str
    cases: tuple[str, ...]
    rest_point: bool
    factors: tuple[tuple[str, int], ...]
    ranges: tuple[StabilityRange, ...]


@dataclass(frozen=True)
class StabilityAnalysis:
    """Stability of every family of an atlas under the gradient dynamics."""

    game: str
    parameter: str
    scale: sp.Rational
    rates: tuple[tuple[str, sp.Rational], ...]
    families: tuple[FamilyStability, ...]
    seconds: float = field(default=0.0, compare=False)
    #: Cases of the atlas left unsolved (0: the families are every equilibrium of the game).
    unsolved_cases: int = 0


# --------------------------------------------------------------------------- the analysis

def stability_analysis(atlas: Atlas, rates: dict[str, object] | None = None, scale: object = 1,
                       timeout_ms: int = 20_000, map_: Callable = map) -> StabilityAnalysis:
    """Stability of every family of ``atlas`` on its whole range, with exact endpoints.

    Parameters
    ----------
    atlas : Atlas
        From :func:`symgame.engine.atlas.build_atlas` (one parameter).
    rates : dict, optional
        ``k_x`` per variable (default 1).
    scale : number
        A common factor of the vector field (Billingham uses 24); it changes time, not stability.
    """
    import time

    t0 = time.perf_counter()
    game = atlas.game
    k = rates_for(game, rates)
    families = tuple(map_(_FamilyJob(game, dict(rates or {}), str(scale), timeout_ms), atlas.families))
    return StabilityAnalysis(game.name, game.parameter_names[0], sp.Rational(str(scale)),
                             tuple(sorted(k.items())), families, time.perf_counter() - t0, len(atlas.unsolved))


@dataclass(frozen=True)
class _FamilyJob:
    game: PolynomialGame
    rates: dict
    scale: str
    timeout_ms: int

    def __call__(self, family: Family) -> FamilyStability:
        return family_stability(self.game, family, self.rates, self.scale, self.timeout_ms)


def family_stability(game: PolynomialGame, family: Family, rates: dict[str, object] | None = None,
                     scale: object = 1, timeout_ms: int = 20_000) -> FamilyStability:
    """Stability of one family on each of its members' ranges."""
    J = jacobian(game, rates, scale)
    ranges: list[StabilityRange] = []
    factors: dict[str, int] = {}
    rest = True
    cases = []
    for member in family.members:
        cases.append(member.branch.case)
        analysis = _MemberAnalysis(game, member, J, rates, scale, timeout_ms)
        rest = rest and analysis.rest_point
        for phi, m in analysis.factors:
            factors[str(phi.as_expr())] = int(m)
        for iv in member.range.intervals:
            ranges.extend(analysis.ranges(iv))
    return FamilyStability(family.ident, tuple(cases), rest, tuple(factors.items()), tuple(ranges))


class _MemberAnalysis:
    """The characteristic polynomial of one member branch, factored, and its critical polynomials."""

    def __init__(self, game: PolynomialGame, member: SolvedBranch, J: sp.Matrix, rates, scale, timeout_ms: int):
        self.game = game
        self.member = member
        self.timeout_ms = timeout_ms
        self.P = game.symbol(game.parameter_names[0])
        values = member.branch.value_map
        radicals = sorted({a for e in values.values() for a in sp.preorder_traversal(sp.sympify(e))
                           if a.is_Pow and a.exp == sp.Rational(1, 2)}, key=sp.default_sort_key)
        if len(radicals) > 1:
            raise StabilityError(f"{member.branch.case}: more than one square root in the formulas")
        self.s = sp.Symbol("_s")
        self.D = radicals[0].base if radicals else None
        self.radical = radicals[0] if radicals else None
        subs = {game.symbol(x): self._s(sp.sympify(e)) for x, e in values.items()}
        if member.branch.point is not None:  # the formulas hold at this parameter value only
            subs = {x: e.subs(self.P, member.branch.point) for x, e in subs.items()}
            subs[self.P] = member.branch.point
        self.free = [game.symbol(z) for z in member.branch.free]
        field_ = sp.Matrix(vector_field(game, rates, scale)).subs(subs)
        self.rest_point = all(self._reduce(sp.fraction(sp.together(e))[0]) == 0 for e in field_)
        flist = self._characteristic_factors(J.subs(subs))
        self.factors = [(sp.Poly(f, LAM), int(m)) for f, m in flist if f.has(LAM)]
        self.fixed = [(f, m) for f, m in self.factors if not (f.free_symbols - {LAM}) & set(self.free)]
        self.loose = [(f, m) for f, m in self.factors if (f.free_symbols - {LAM}) & set(self.free)]
        self.critical = self._critical()

    def _characteristic_factors(self, Jm: sp.Matrix) -> list[tuple[sp.Expr, int]]:
        """Irreducible factors of the characteristic polynomial, using the block-triangular structure.

        A row whose off-diagonal entries vanish (a variable at a face) contributes ``lam - J_ii``; the
        rest is the characteristic polynomial of the interior block, computed over the field
        ``QQ(P, s, free)`` and reduced modulo ``s**2 - D``.
        """
        n = Jm.rows
        Jm = Jm.applyfunc(lambda e: self._rational(e))
        face = [i for i in range(n) if all(Jm[i, j] == 0 for j in range(n) if j != i)]
        inner = [i for i in range(n) if i not in face]
        parts: list[sp.Expr] = [LAM - Jm[i, i] for i in face]
        if inner:
            M = Jm.extract(inner, inner)
            gens = [self.P, self.s, *self.free]
            dM = DomainMatrix.from_Matrix(M).convert_to(sp.QQ.frac_field(*gens))
            coeffs = dM.charpoly()
            K = dM.domain
            parts.append(sum(self._rational(K.to_sympy(c)) * LAM ** (len(coeffs) - 1 - k)
                             for k, c in enumerate(coeffs)))
        out: dict[sp.Expr, int] = {}
        for part in parts:
            num = self._reduce(sp.fraction(sp.together(part))[0])
            for f, m in sp.factor_list(num, LAM, self.P, self.s, *self.free)[1]:
                if f.has(LAM):
                    f = sp.Poly(f, LAM).monic().as_expr() if not (f.free_symbols - {LAM}) else f
                    out[f] = out.get(f, 0) + m
        return sorted(out.items(), key=lambda fm: sp.default_sort_key(fm[0]))

    def _rational(self, e: sp.Expr) -> sp.Expr:
        """``e`` as ``num / den`` with both reduced modulo ``s**2 - D`` and the denominator free of ``s``."""
        num, den = sp.fraction(sp.together(e))
        num, den = self._reduce(num), self._reduce(den)
        if self.D is not None and den.has(self.s):
            a, b = sp.Poly(den, self.s).coeff_monomial(1), sp.Poly(den, self.s).coeff_monomial(self.s)
            num = self._reduce(num * (a - b * self.s))
            den = sp.expand(a * a - b * b * self.D)
        return sp.cancel(num / den) if self.D is None else num / den

    # -- algebra helpers
    def _s(self, e: sp.Expr) -> sp.Expr:
        return e.subs(self.radical, self.s) if self.radical is not None else e

    def _reduce(self, e: sp.Expr) -> sp.Expr:
        """``e`` modulo ``s**2 - D`` (degree at most 1 in ``s``), expanded."""
        e = sp.expand(e)
        if self.D is None or not e.has(self.s):
            return e
        return sp.expand(sp.Poly(e, self.s).rem(sp.Poly(self.s ** 2 - self.D, self.s)).as_expr())

    def _eliminate(self, e: sp.Expr) -> sp.Expr:
        e = self._reduce(e)
        if self.D is None or not e.has(self.s):
            return e
        return sp.expand(sp.resultant(e, self.s ** 2 - self.D, self.s))

    def _critical(self) -> list[sp.Poly]:
        P = self.P
        out: list[sp.Expr] = []
        if self.D is not None:
            out.append(self.D)
        u = sp.Symbol("_u")
        for phi, _ in self.fixed:
            A, B = _even_odd(phi)
            out.append(sp.Poly(phi, LAM).LC())
            if B == 0 or A == 0:          # roots in pairs +-lam: q(lam**2) = the nonzero part
                q = sp.Poly((A if B == 0 else B).subs(LAM ** 2, u), u)
                if q.degree() > 0:
                    out += [q.LC(), q.eval(0)]
                    if q.degree() > 1:
                        out.append(sp.discriminant(q.as_expr(), u))
            else:                         # phi(i w) = 0 needs A(-w**2) = B(-w**2) = 0
                Au, Bu = sp.Poly(A.subs(LAM ** 2, u), u), sp.Poly(B.subs(LAM ** 2, u), u)
                out.append(A.subs(LAM, 0))
                if Au.degree() > 0 or Bu.degree() > 0:
                    out.append(sp.resultant(Au.as_expr(), Bu.as_expr(), u))
        polys: list[sp.Poly] = []
        for e in out:
            e = self._eliminate(sp.fraction(sp.together(e))[0])
            if e == 0:
                raise StabilityError(f"{self.member.branch.case}: a critical polynomial vanishes identically")
            if not e.has(P):
                continue
            for f, _ in sp.factor_list(e, P)[1]:
                p = sp.Poly(f, P)
                if p.degree() > 0 and all(p != q for q in polys):
                    polys.append(p)
        return polys

    # -- cells
    def ranges(self, iv: ParamInterval) -> list[StabilityRange]:
        cuts = []
        for f in self.critical:
            for (a, b), _ in f.intervals(eps=Fraction(1, 10**12)):
                r = _endpoint(f, Fraction(int(a.p), int(a.q)), Fraction(int(b.p), int(b.q)), self.P)
                if compare_endpoints(r, iv.lower) > 0 and (iv.upper is None or compare_endpoints(r, iv.upper) < 0):
                    cuts.append(r)
        cuts = _sorted_distinct(cuts)
        cells: list[StabilityRange] = []
        if iv.is_point:
            return [self._at_point(iv.lower)]
        if iv.lower_closed:
            cells.append(self._at_point(iv.lower))
        left = iv.lower
        for r in cuts:
            cells.append(self._open(left, r))
            cells.append(self._at_point(r))
            left = r
        cells.append(self._open(left, iv.upper))
        if iv.upper is not None and iv.upper_closed:
            cells.append(self._at_point(iv.upper))
        return _merge(cells)

    def _open(self, lo: Endpoint, hi: Endpoint | None) -> StabilityRange:
        sample = _between(lo, hi) if hi is not None else lo.upper + 1
        conf, proved, uniform, note = self._classify(sp.Rational(sample.numerator, sample.denominator),
                                                     (lo, hi), exact_point=False)
        return StabilityRange(lo, False, hi, False, conf.stability if conf else "undecided", conf, proved,
                              uniform, note)

    def _at_point(self, e: Endpoint) -> StabilityRange:
        value = sp.Rational(e.lower.numerator, e.lower.denominator) if e.is_rational else e.value
        conf, proved, uniform, note = self._classify(value, (e, e), exact_point=True)
        return StabilityRange(e, True, e, True, conf.stability if conf else "undecided", conf, proved,
                              uniform, note)

    def _classify(self, value: sp.Expr, cell: tuple[Endpoint, Endpoint | None], exact_point: bool):
        total = NONE
        proved = True
        uniform = True
        notes = []
        for phi, m in self.fixed:
            conf = _factor_configuration(phi, self.P, value, self.s, self.D)
            if conf is None:
                return None, False, True, f"root isolation failed for a factor of degree {phi.degree()}"
            total = total + conf.scaled(m)
        for phi, m in self.loose:
            conf, ok, same, note = self._loose(phi, value, cell, exact_point)
            if conf is None:
                return None, False, False, note
            total = total + conf.scaled(m)
            proved = proved and ok
            uniform = uniform and same
            if note:
                notes.append(note)
        return total, proved, uniform, "; ".join(notes)

    def _loose(self, phi: sp.Poly, value, cell, exact_point: bool):
        """A factor with free variables: linear ones by z3 over the continuum, others sampled."""
        if phi.degree() == 1:
            a1, a0 = phi.all_coeffs()
            root = sp.together(-a0 / a1)
            verdict = {"pos": self._exists(root, ">", cell, exact_point),
                       "zero": self._exists(root, "==", cell, exact_point),
                       "neg": self._exists(-root, ">", cell, exact_point)}
            if Decision.UNDECIDED in verdict.values():
                return None, False, False, "z3 could not decide the sign of an eigenvalue on the continuum"
            pos, zero, neg = (verdict[k] is Decision.TRUE for k in ("pos", "zero", "neg"))
            text = f"eigenvalue {sp.sstr(root.subs(self.s, self.radical) if self.radical is not None else root)}"
            if pos:
                return Configuration(1, 0, 0, 0), True, not (zero or neg), f"{text} > 0 on part of the continuum"
            if zero:
                return Configuration(0, 0, 1, 0), True, not neg, (f"{text} = 0 on the whole continuum" if not neg
                                                                   else f"{text} <= 0, = 0 on a face of the continuum")
            return Configuration(0, 0, 0, 1), True, True, ""
        A, B = _even_odd(phi)
        if B == 0 and phi.degree() in (2, 4):
            decided = self._even_loose(A, phi.degree() // 2, cell, exact_point)
            if decided is not None:
                return decided
        witness = self._witness(value, cell)
        if witness is None:
            return None, False, False, "no point of the continuum found for a nonlinear eigenvalue factor"
        conf = _factor_configuration(sp.Poly(phi.as_expr().subs(witness), LAM), self.P, value, self.s, self.D)
        return conf, False, False, f"a factor of degree {phi.degree()} in the free variables: sampled at one point"

    def _even_loose(self, A: sp.Expr, degree: int, cell, exact_point: bool):
        """An even factor ``q(lam**2)`` with free variables, ``q`` of degree 1 or 2: its roots are pairs on the
        imaginary axis exactly when ``q`` has only negative real roots, which z3 decides over the continuum
        (degree 1: ``c0 c1 > 0``; degree 2: discriminant > 0, ``c1 c2 > 0``, ``c0 c2 > 0``). None: not decided."""
        mu = sp.Symbol("_mu")
        q = sp.Poly(A.subs(LAM ** 2, mu), mu)
        c = [q.coeff_monomial(mu ** k) for k in range(degree + 1)]
        needed = [c[0] * c[1]] if degree == 1 else [c[1] ** 2 - 4 * c[2] * c[0], c[1] * c[2], c[0] * c[2]]
        for expr in needed:
            verdict = self._exists(-expr, ">=", cell, exact_point)      # a point where the condition fails
            if verdict is not Decision.FALSE:
                return None
        return (Configuration(0, 2 * degree, 0, 0), True, True,
                "")

    def _encoder(self, cell, exact_point: bool) -> tuple[Z3Encoder, list]:
        enc = Z3Encoder()
        formulas = [enc.condition(e, rel) for e, rel in self.member.branch.conditions if not e.is_number]
        p = enc.var(str(self.P))
        lo, hi = cell
        formulas += _bound(enc, p, lo, ">=" if exact_point else ">", self.P)
        if hi is not None:
            formulas += _bound(enc, p, hi, "<=" if exact_point else "<", self.P)
        for z in self.member.branch.free:
            enc.var(z)
        return enc, formulas

    def _exists(self, expr: sp.Expr, rel: str, cell, exact_point: bool) -> Decision:
        enc, formulas = self._encoder(cell, exact_point)
        e = expr.subs(self.s, self.radical) if self.radical is not None else expr
        formulas.append(enc.condition(e, rel))
        return decide(formulas, enc, self.timeout_ms)

    def _witness(self, value, cell) -> dict | None:
        v = value if value.is_Rational else None
        if v is None:
            return None
        found = branch_witness(self.game, self.member, Fraction(int(v.p), int(v.q)), self.timeout_ms)
        if found is None:
            return None
        return {z: found[str(z)] for z in self.free}


def _bound(enc: Z3Encoder, p: z3.ArithRef, e: Endpoint, rel: str, P: sp.Symbol) -> list:
    if e.is_rational:
        v = z3.RealVal(f"{e.lower.numerator}/{e.lower.denominator}")
        return [{">": p > v, ">=": p >= v, "<": p < v, "<=": p <= v}[rel]]
    r = z3.Real(f"_root_{len(enc.names)}_{e.lower.numerator}_{e.upper.numerator}")
    poly = sp.Poly(e.poly, P)
    term = z3.Sum([z3.RealVal(str(c)) * r ** k for (k,), c in poly.terms()]) if len(poly.terms()) > 1 else \
        z3.RealVal(str(poly.terms()[0][1])) * r ** poly.terms()[0][0][0]
    return [term == 0, r > z3.RealVal(f"{e.lower.numerator}/{e.lower.denominator}"),
            r < z3.RealVal(f"{e.upper.numerator}/{e.upper.denominator}"),
            {">": p > r, ">=": p >= r, "<": p < r, "<=": p <= r}[rel]]


def _even_odd(phi: sp.Poly) -> tuple[sp.Expr, sp.Expr]:
    """``phi = A(lam**2) + lam * B(lam**2)``: returns ``(A(lam**2), B(lam**2))`` as expressions in ``lam``."""
    A = sp.Integer(0)
    B = sp.Integer(0)
    for (k,), c in phi.terms():
        if k % 2 == 0:
            A += c * LAM ** k
        else:
            B += c * LAM ** (k - 1)
    return sp.expand(A), sp.expand(B)


# --------------------------------------------------------------------------- one factor at one point

def _factor_configuration(phi: sp.Poly, P: sp.Symbol, value: sp.Expr, s: sp.Symbol,
                          D: sp.Expr | None) -> Configuration | None:
    """Certified root configuration of ``phi(lam)`` at ``P = value`` (``s = sqrt(D(value))``).

    Zero roots are found exactly; the others by Arb root isolation: a root counts only when its ball's
    real part excludes 0 or, for an even/odd factor, when ``q(mu)`` has a certified real root.
    """
    subs = {P: value}
    if D is not None:
        subs[s] = sp.sqrt(D.subs(P, value))
    coeffs = [sp.sympify(c).subs(subs) for c in phi.all_coeffs()]  # highest first
    zero = 0
    while coeffs and _is_zero(coeffs[-1]):
        coeffs.pop()
        zero += 1
        if len(coeffs) == 0:
            return None
    if len(coeffs) == 1:
        return Configuration(0, 0, zero, 0)
    if _is_zero(coeffs[0]):
        return None  # the degree drops here: leave the point undecided
    n = len(coeffs) - 1
    low_first = list(reversed(coeffs))
    # the constant term is nonzero now, so a factor with roots in pairs +-lam is even: q(lam**2)
    if all(_is_zero(c) for k, c in enumerate(low_first) if k % 2 == 1):
        roots = _roots(low_first[::2])
        if roots is None:
            return None
        imaginary = positive = 0
        for k, r in enumerate(roots):
            if _certified_real(r, roots, k):
                if r.real < 0:
                    imaginary += 2
                elif r.real > 0:
                    positive += 1
                else:
                    return None
            else:
                positive += 1
        return Configuration(positive, imaginary, zero, n - imaginary - positive)
    roots = _roots(low_first)
    if roots is None:
        return None
    pos = neg = 0
    for r in roots:
        if r.real > 0:
            pos += 1
        elif r.real < 0:
            neg += 1
        else:
            return None
    return Configuration(pos, 0, zero, neg)


def _is_zero(c: sp.Expr) -> bool:
    c = sp.sympify(c)
    if c.is_Rational:
        return c == 0
    if abs(sp.N(c, 60)) > sp.Float("1e-40", 60):
        return False
    x = sp.Dummy("x")
    return sp.minimal_polynomial(c, x) == x


def _roots(coeffs_low_first: Sequence[sp.Expr]) -> list | None:
    old = flint.ctx.prec
    try:
        for prec in (_PREC, 4 * _PREC):
            flint.ctx.prec = prec
            digits = int(prec * 0.3) + 10
            poly = flint.acb_poly([flint.acb(flint.arb(str(sp.N(c, digits)), f"1e-{digits - 5}"))
                                   for c in coeffs_low_first])
            try:
                roots = poly.roots(maxprec=4 * prec)
            except ValueError:
                continue
            return roots
        return None
    finally:
        flint.ctx.prec = old


def _certified_real(r, roots: list, k: int) -> bool:
    """A root ball of a real polynomial, meeting the real axis, whose conjugate meets no other ball, holds a real root."""
    if r.imag > 0 or r.imag < 0:
        return False
    conj = r.conjugate()
    return not any(j != k and other.overlaps(conj) for j, other in enumerate(roots))


# --------------------------------------------------------------------------- merging

def _merge(cells: Sequence[StabilityRange]) -> list[StabilityRange]:
    """Join neighbouring cells with the same configuration, proof status and note."""
    out: list[StabilityRange] = []
    for c in cells:
        if out and _same_kind(out[-1], c):
            last = out[-1]
            out[-1] = StabilityRange(last.lower, last.lower_closed, c.upper, c.upper_closed, last.stability,
                                     last.configuration, last.proved, last.uniform, last.note)
        else:
            out.append(c)
    return out


def _same_kind(a: StabilityRange, b: StabilityRange) -> bool:
    return (a.configuration == b.configuration and a.configuration is not None and a.proved == b.proved
            and a.uniform == b.uniform and a.note == b.note)


def configuration_at(game: PolynomialGame, point: dict[str, object], parameter: object,
                     rates: dict[str, object] | None = None, scale: object = 1) -> Configuration | None:
    """The certified eigenvalue configuration of the Jacobian at one exact rest point (rational values)."""
    J = jacobian(game, rates, scale)
    P = game.symbol(game.parameter_names[0]) if game.parameter_names else sp.Symbol("_P")
    subs = {game.symbol(x): sp.Rational(str(v)) for x, v in point.items()}
    subs[P] = sp.Rational(str(parameter))
    Jm = J.subs(subs)
    out = NONE
    for f, m in sp.factor_list(Jm.charpoly(LAM).as_expr(), LAM)[1]:
        conf = _factor_configuration(sp.Poly(f, LAM), P, subs[P], sp.Symbol("_s"), None)
        if conf is None:
            return None
        out = out + conf.scaled(m)
    return out



# --------------------------------------------------------------------------- replicator dynamics

def replicator_field(game, single_population: bool = False) -> tuple[list[sp.Symbol], list[sp.Expr]]:
    """The replicator dynamics of a finite :class:`~symgame.model.gambit.StrategicGame` (any number of players
    and actions) in reduced coordinates: for player ``i`` the probabilities ``x_i_1, ..., x_i_{k-1}`` of all
    but the first action (the first is ``1 - sum``), ``dx_ia/dt = x_ia (u_i(a, x_-i) - u_i(x))`` (Taylor and
    Jonker, "Evolutionary stable strategies and game dynamics", Mathematical Biosciences 40, 1978).

    With two actions per player this is ``x (1 - x) (u(a1) - u(a2))``: the gradient dynamics of
    :func:`vector_field` for the game's multilinear payoffs, with ``k = 1``. With ``single_population`` (a
    symmetric two-player game, ``B = A^T``) one population plays against itself: the classic replicator
    dynamics of evolutionary game theory, whose interior rest points can be asymptotically stable; with one
    population per player an interior rest point never is (its eigenvalues come in pairs ``+-lam``).

    >>> from symgame.model.gambit import StrategicGame
    >>> from fractions import Fraction as F
    >>> rps = StrategicGame("rps", ("1", "2"), (("R", "P", "S"),) * 2, tuple(
    ...     (F(u), F(-u)) for u in (0, 1, -1, -1, 0, 1, 1, -1, 0)))
    >>> replicator_configuration(rps, [[F(1, 3)] * 3, [F(1, 3)] * 3])
    Configuration(positive=0, imaginary=4, zero=0, negative=0)
    """
    from itertools import product as _product

    X = [[sp.Symbol(f"x_{i}_{a}") for a in range(1, k)] for i, k in enumerate(game.shape)]
    if single_population:
        _check_symmetric(game)
        X = [X[0], X[0]]
    probs = [[1 - sum(xs, sp.Integer(0))] + xs for xs in X]
    n = len(game.shape)

    def expected(i: int, fixed: int | None) -> sp.Expr:
        total = sp.Integer(0)
        for profile in _product(*(range(k) for k in game.shape)):
            if fixed is not None and profile[i] != fixed:
                continue
            w = sp.Integer(1)
            for j in range(n):
                if j != i or fixed is None:
                    w *= probs[j][profile[j]]
            total += w * sp.Rational(game.payoff(profile)[i].numerator, game.payoff(profile)[i].denominator)
        return sp.expand(total)

    field_: list[sp.Expr] = []
    for i in range(1 if single_population else n):
        mean = expected(i, None)
        for a in range(1, game.shape[i]):
            field_.append(X[i][a - 1] * (expected(i, a) - mean))
    return [x for xs in X[:1 if single_population else n] for x in xs], field_


def _check_symmetric(game) -> None:
    if len(game.shape) != 2 or game.shape[0] != game.shape[1] or any(
            game.payoff((i, j))[0] != game.payoff((j, i))[1] for i in range(game.shape[0]) for j in range(game.shape[1])):
        raise InputError(f"{game.title}: one population needs a symmetric two-player game (B = A^T)")


def replicator_configuration(game, profile: Sequence[Sequence[Fraction]],
                             single_population: bool = False) -> Configuration | None:
    """Certified eigenvalue configuration of the replicator dynamics' Jacobian at an exact rest point.

    ``profile`` gives every action's probability (exact; with ``single_population`` one distribution); it must
    be a rest point (e.g. an equilibrium).
    """
    symbols, field_ = replicator_field(game, single_population)
    at = {}
    for i, probs in enumerate(profile):
        for a in range(1, len(probs)):
            at[sp.Symbol(f"x_{i}_{a}")] = sp.Rational(probs[a].numerator, probs[a].denominator)
    if any(sp.simplify(f.subs(at)) != 0 for f in field_):
        raise InputError("not a rest point of the replicator dynamics")
    J = sp.Matrix(field_).jacobian(symbols).subs(at)
    out = NONE
    for f, m in sp.factor_list(J.charpoly(LAM).as_expr(), LAM)[1]:
        conf = _factor_configuration(sp.Poly(f, LAM), sp.Symbol("_P"), sp.Integer(0), sp.Symbol("_s"), None)
        if conf is None:
            return None
        out = out + conf.scaled(int(m))
    return out
