"""Rigorous nonnegativity of a piecewise polynomial on a box, with an isolated zero.

A function that is one polynomial on each of a few regions of a box (for
Guts: one polynomial per ordering of the thresholds, section 3 of
Buck et al., arXiv:2208.02788, 2022) is shown to be ``>= 0`` everywhere by

1. a **local quadratic lemma** at the point where it vanishes: constant and
   linear Taylor terms vanish *exactly* (reduced modulo the minimal polynomial
   of the algebraic coordinate), the quadratic form is positive definite with
   a certified smallest eigenvalue ``λ`` (Sylvester minors of ``Q - λI`` in
   ball arithmetic), and the terms of degree ``>= 3`` are bounded by
   ``|d|∞³ S(r)`` on ``|d|∞ <= r``; so ``P(d) >= |d|∞² (λ - r S(r)) >= 0``
   when ``r S(r) < λ``;
2. a **branch and bound** over the rest of the box in ball arithmetic
   (python-flint's ``arb``: every rounding is outward, so a bound that comes
   out positive is a proof): on each box the mean-value form
   ``P(m) - Σ_i sup|∂_i P| h_i`` (or the plain interval extension) must be
   positive for every polynomial that may apply there; otherwise the box is
   bisected along its widest side, down to a minimum width, below which the
   box is reported and nothing is claimed.

No floating-point number decides anything: the box corners are dyadic
rationals, the algebraic coordinates enter as certified balls.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Sequence

import numpy as np
import sympy as sp
from flint import arb, arb_mat, fmpq

Box = tuple[tuple[Fraction, Fraction], ...]


def _fmpq(value: Fraction | int) -> fmpq:
    value = Fraction(value)
    return fmpq(value.numerator, value.denominator)


def to_arb(value: Fraction | int) -> arb:
    """A rational as an exact (or outward-rounded) ball."""
    return arb(_fmpq(value))


@dataclass(frozen=True)
class ArbPolynomial:
    """A polynomial in ``nvars`` variables with ball coefficients: ``Σ c_m x^m``."""

    nvars: int
    terms: tuple[tuple[tuple[int, ...], arb], ...]

    @property
    def degree(self) -> int:
        return max((sum(m) for m, _ in self.terms), default=0)

    def evaluate(self, point: Sequence[arb]) -> arb:
        """The ball containing every value at points of the product of balls ``point``."""
        powers = [[arb(1)] for _ in range(self.nvars)]
        for k, x in enumerate(point):
            top = max((m[k] for m, _ in self.terms), default=0)
            for _ in range(top):
                powers[k].append(powers[k][-1] * x)
        total = arb(0)
        for monomial, coeff in self.terms:
            term = coeff
            for k, e in enumerate(monomial):
                if e:
                    term = term * powers[k][e]
            total += term
        return total

    def derivative(self, k: int) -> "ArbPolynomial":
        """∂P/∂x_k."""
        out = []
        for monomial, coeff in self.terms:
            if monomial[k]:
                lowered = monomial[:k] + (monomial[k] - 1,) + monomial[k + 1:]
                out.append((lowered, coeff * monomial[k]))
        return ArbPolynomial(self.nvars, tuple(out))


def arb_polynomial(poly: sp.Poly, constant: sp.Symbol, value: arb) -> ArbPolynomial:
    """Turn a rational polynomial in ``(constant, x_1..x_k)`` into ball coefficients at ``constant = value``.

    ``poly``'s generators must be ``constant`` first, then the variables.
    """
    grouped: dict[tuple[int, ...], arb] = {}
    for monomial, coeff in poly.terms():
        c_power, rest = monomial[0], tuple(monomial[1:])
        term = to_arb(Fraction(int(coeff.p), int(coeff.q))) * value ** c_power
        grouped[rest] = grouped.get(rest, arb(0)) + term
    return ArbPolynomial(len(poly.gens) - 1, tuple(sorted(grouped.items())))


def value_at(poly: sp.Poly, value: arb) -> arb:
    """A univariate rational polynomial evaluated at a ball (Horner)."""
    total = arb(0)
    for coeff in poly.all_coeffs():
        total = total * value + to_arb(Fraction(int(coeff.p), int(coeff.q)))
    return total


# --------------------------------------------------------------------------- the local lemma at the zero

@dataclass(frozen=True)
class LocalLemma:
    """``P(apex + d) >= 0`` for ``|d|∞ <= radius`` (and ``> 0`` unless ``d = 0``), with its ingredients."""

    vanishes_to_second_order: bool     # constant and linear Taylor terms are exactly 0
    eigenvalue_bound: Fraction         # λ with Q - λI certified positive definite (0 if not certified)
    radius: Fraction                   # r with r·S(r) < λ (0 if none found)

    @property
    def holds(self) -> bool:
        return self.vanishes_to_second_order and self.eigenvalue_bound > 0 and self.radius > 0


def taylor_at_algebraic_point(poly: sp.Poly, constant: sp.Symbol, minimal: sp.Poly) -> dict[tuple[int, ...], sp.Poly]:
    """Coefficients of ``P(c, c + d_1, ..., c + d_k)`` in ``d``, each a polynomial in ``c`` reduced mod ``minimal``.

    Every variable is shifted by the same algebraic number ``c`` (the
    symmetric equilibrium threshold); the reduction makes "this coefficient
    is zero at c" an exact identity check.
    """
    xs = poly.gens[1:]
    ds = sp.symbols(f"d1:{len(xs) + 1}", real=True)
    shifted = sp.Poly(poly.as_expr().subs({x: constant + d for x, d in zip(xs, ds)}, simultaneous=True),
                      *ds, domain=sp.QQ[constant])
    out = {}
    for monomial, coeff in shifted.terms():
        reduced = sp.Poly(coeff.as_expr(), constant, domain=sp.QQ).rem(minimal)
        if not reduced.is_zero:
            out[monomial] = reduced
    return out


def quadratic_zero_lemma(taylor: dict[tuple[int, ...], sp.Poly], nvars: int, constant_value: arb,
                         orthant: Sequence[int]) -> LocalLemma:
    """Certify ``P(c + d) >= 0`` for small ``d`` in an orthant from its Taylor coefficients.

    ``orthant[i]`` is the sign of ``d_i`` on the region where ``P`` applies.
    The quadratic form ``Q`` must satisfy ``Q(d) >= λ |d|∞²`` there: either
    ``Q - λI`` is positive definite (certified by Sylvester's minors; then it
    holds everywhere), or, with ``d_i = s_i e_i`` and ``e >= 0``, every
    off-diagonal coefficient of ``Q`` is ``>= 0`` and every diagonal one
    ``>= λ`` (copositive on the orthant).  The better ``λ`` is kept.
    """
    if any(sum(m) <= 1 for m in taylor):
        return LocalLemma(False, Fraction(0), Fraction(0))
    coeffs = {m: value_at(p, constant_value) for m, p in taylor.items()}
    Q = _quadratic_form(coeffs, nvars)
    lam = max(_definite_bound(Q), _orthant_bound(Q, orthant))
    if lam <= 0:
        return LocalLemma(True, Fraction(0), Fraction(0))
    high = [(sum(m), abs(a).upper()) for m, a in coeffs.items() if sum(m) >= 3]
    radius = Fraction(1, 2)
    while radius > Fraction(1, 2 ** 30):
        r = to_arb(radius)
        S = sum((a * r ** (deg - 3) for deg, a in high), arb(0))
        if r * S < to_arb(lam):
            return LocalLemma(True, lam, radius)
        radius /= 2
    return LocalLemma(True, lam, Fraction(0))


def _quadratic_form(coeffs: dict[tuple[int, ...], arb], nvars: int) -> list[list[arb]]:
    """The symmetric matrix of the degree-2 Taylor terms."""
    Q = [[arb(0)] * nvars for _ in range(nvars)]
    for m, a in coeffs.items():
        if sum(m) == 2:
            i, j = [k for k, e in enumerate(m) for _ in range(e)]
            if i == j:
                Q[i][i] = a
            else:
                Q[i][j] = Q[j][i] = a / 2
    return Q


def _rational_below(x: float) -> Fraction:
    return Fraction(int(x * 0.9 * 2 ** 20), 2 ** 20) if x > 0 else Fraction(0)


def _definite_bound(Q: list[list[arb]]) -> Fraction:
    """λ with ``Q - λI`` certified positive definite, or 0."""
    n = len(Q)
    lam = _rational_below(float(np.linalg.eigvalsh(np.array([[float(q.mid()) for q in row] for row in Q]))[0]))
    if lam <= 0:
        return Fraction(0)
    shifted = [[Q[i][j] - (to_arb(lam) if i == j else 0) for j in range(n)] for i in range(n)]
    ok = all(arb_mat([row[:k] for row in shifted[:k]]).det() > 0 for k in range(1, n + 1))
    return lam if ok else Fraction(0)


def _orthant_bound(Q: list[list[arb]], orthant: Sequence[int]) -> Fraction:
    """λ = min diagonal when the sign-adjusted off-diagonal entries are all >= 0, else 0."""
    n = len(Q)
    if not all(Q[i][j] * (orthant[i] * orthant[j]) >= 0 for i in range(n) for j in range(n) if i != j):
        return Fraction(0)
    lam = _rational_below(min(float(Q[i][i].mid()) for i in range(n)))
    return lam if lam > 0 and all(Q[i][i] > to_arb(lam) for i in range(n)) else Fraction(0)


# --------------------------------------------------------------------------- branch and bound

@dataclass(frozen=True)
class PositivityCertificate:
    """Outcome of :func:`certify_nonnegative`: proved, or the first box that could not be decided."""

    proved: bool
    bounded_boxes: int          # boxes on which every applicable polynomial was shown > 0
    local_boxes: int            # boxes inside the zone of the local lemma
    outside_domain: int         # boxes the domain test discarded (e.g. unsorted thresholds)
    undecided_box: Box | None
    seconds: float


def lower_bound_on_box(poly: ArbPolynomial, gradient: Sequence[ArbPolynomial], box: Box) -> arb:
    """A ball whose lower end bounds P from below on ``box``: the better of mean-value form and interval extension."""
    balls = [arb(_fmpq((lo + hi) / 2), _fmpq((hi - lo) / 2)) for lo, hi in box]
    mid = [to_arb((lo + hi) / 2) for lo, hi in box]
    value = poly.evaluate(mid)
    for g, (lo, hi) in zip(gradient, box):
        value -= abs(g.evaluate(balls)).upper() * to_arb((hi - lo) / 2)
    natural = poly.evaluate(balls)
    return value if value.lower() > natural.lower() else natural


def certify_nonnegative(pieces_for_box: Callable[[Box], Sequence[int] | None], polynomials: Sequence[ArbPolynomial],
                        inside_local_zone: Callable[[Box], bool], box: Box, min_width: Fraction = Fraction(1, 2 ** 14),
                        budget: int = 2_000_000) -> PositivityCertificate:
    """Branch and bound: every box is discarded, discharged by the local lemma, or bounded above 0.

    ``pieces_for_box(box)`` names the polynomials that may apply somewhere in
    the box (``None``: the box misses the domain); ``inside_local_zone(box)``
    says the local lemma covers it.
    """
    start = time.perf_counter()
    gradients = [[p.derivative(k) for k in range(p.nvars)] for p in polynomials]
    stack, bounded, local, outside, visited = [box], 0, 0, 0, 0
    while stack:
        current = stack.pop()
        visited += 1
        pieces = pieces_for_box(current)
        if pieces is None:
            outside += 1
            continue
        if inside_local_zone(current):
            local += 1
            continue
        if all(lower_bound_on_box(polynomials[k], gradients[k], current) > 0 for k in pieces):
            bounded += 1
            continue
        widths = [hi - lo for lo, hi in current]
        k = int(np.argmax([float(w) for w in widths]))
        if widths[k] < min_width or visited > budget:
            return PositivityCertificate(False, bounded, local, outside, current, time.perf_counter() - start)
        lo, hi = current[k]
        half = (lo + hi) / 2
        stack.append(current[:k] + ((lo, half),) + current[k + 1:])
        stack.append(current[:k] + ((half, hi),) + current[k + 1:])
    return PositivityCertificate(True, bounded, local, outside, None, time.perf_counter() - start)
