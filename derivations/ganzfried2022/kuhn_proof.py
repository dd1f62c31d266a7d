"""A proof that the corrected n-card Kuhn PDL is optimal for every n.

The check of :mod:`derivations.ganzfried2022.kuhn_pdl` evaluates both best responses at
one n.  Here n is symbolic.  Every threshold of the list has the form
``c·q + d`` when ``n = 36q + r`` (36 is the period of all fractional parts;
``k = ceil((n-1)/6) = 6q + floor((r+4)/6)``), so for a fixed residue ``r``
each strategy column is a step function over the cards whose breakpoints are
affine in ``q`` and whose values are constants.  For ``q >= q0``:

1. all breakpoints are ordered the same way (affine functions compared at
   ``q0`` and by slope), so the cards fall into a fixed list of *regions*;
2. inside a region every prefix sum is affine in the card ``y`` and in ``q``,
   so each best-response comparison is an affine function of ``y``; its sign
   at both ends of the region, affine in ``q``, is decided at ``q0`` and by
   its slope — a region where the sign changes is reported, never guessed;
3. the chosen action's payoff is summed over the region in closed form
   (a polynomial in ``q``), and the total must equal ``v(n)·n(n-1)``
   identically in ``q``.

Both sides (B's best reply to A's list, A's best reply to B's list) are
done this way for every residue ``r``; the deck sizes below ``36·q0 + r`` are
covered by the exact check for n <= 1000.
"""
from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from derivations.ganzfried2022.kuhn_pdl import THRESHOLDS, value_formula
from symgame.errors import NoResultError

Q = sp.Symbol("q", integer=True, nonnegative=True)
Y = sp.Symbol("y", integer=True, positive=True)
PERIOD = 36


class ProofFailure(NoResultError):
    """A step of the symbolic argument could not be decided (the message says which)."""


@dataclass(frozen=True)
class Segment:
    """Cards ``start..end`` (affine in q, inclusive) carry the constant ``value``."""

    start: sp.Expr
    end: sp.Expr
    value: sp.Rational


def _affine(expr: sp.Expr) -> tuple[sp.Rational, sp.Rational]:
    poly = sp.Poly(sp.expand(expr), Q)
    if poly.degree() > 1:
        raise ProofFailure(f"{expr} is not affine in q")
    return sp.Rational(poly.coeff_monomial(Q)), sp.Rational(poly.coeff_monomial(1))


def threshold(name: str, r: int) -> sp.Expr:
    """The threshold ``name`` at n = 36q + r, as ``c·q + d``."""
    n = PERIOD * Q + r
    k = 6 * Q + (r + 4) // 6
    return sp.expand(THRESHOLDS[name].subs({sp.Symbol("n", integer=True, positive=True): n,
                                            sp.Symbol("k", integer=True, positive=True): k}))


def _floor_ceil(t: sp.Expr) -> tuple[sp.Expr, sp.Expr, sp.Rational]:
    c, d = _affine(t)
    if c.q != 1:
        raise ProofFailure(f"threshold {t} has a fractional slope in q")
    frac = d - sp.floor(d)
    return c * Q + sp.floor(d), c * Q + sp.ceiling(d), frac


def lower_rule(t: sp.Expr, n: sp.Expr) -> list[Segment]:
    """Aggressive with cards <= floor(t); card ceil(t) with probability frac(t)."""
    fl, _, frac = _floor_ceil(t)
    segs = [Segment(sp.Integer(1), fl, sp.Integer(1))]
    if frac:
        segs.append(Segment(fl + 1, fl + 1, frac))
        segs.append(Segment(fl + 2, n, sp.Integer(0)))
    else:
        segs.append(Segment(fl + 1, n, sp.Integer(0)))
    return segs


def upper_rule(t: sp.Expr, n: sp.Expr) -> list[Segment]:
    """Aggressive with cards >= ceil(t); card floor(t) with probability ceil(t) - t."""
    fl, ce, frac = _floor_ceil(t)
    segs = []
    if frac:
        segs.append(Segment(sp.Integer(1), fl - 1, sp.Integer(0)))
        segs.append(Segment(fl, fl, 1 - frac))
    else:
        segs.append(Segment(sp.Integer(1), ce - 1, sp.Integer(0)))
    segs.append(Segment(ce, n, sp.Integer(1)))
    return segs


class _Order:
    """Compares affine functions of q for every q >= q0 (decided at q0 and by slope)."""

    def __init__(self, q0: int):
        self.q0 = q0

    def sign(self, expr: sp.Expr) -> int:
        c, d = _affine(expr)
        at_q0 = c * self.q0 + d
        if at_q0 == 0 and c == 0:
            return 0
        if at_q0 >= 0 and c >= 0 and (at_q0 > 0 or c > 0):
            return 1 if at_q0 > 0 else 2   # 2: zero at q0, positive beyond
        if at_q0 <= 0 and c <= 0:
            return -1 if at_q0 < 0 else -2
        raise ProofFailure(f"{expr} changes sign for q >= {self.q0}")


def _breakpoints(columns: list[list[Segment]], n: sp.Expr, order: _Order) -> list[sp.Expr]:
    """Sorted distinct region starts (cards where some column may change value), for q >= q0."""
    starts = {sp.expand(s.start) for col in columns for s in col} | {sp.Integer(1), sp.expand(n + 1)}
    ordered = sorted(starts, key=lambda e: (_affine(e)[0], _affine(e)[1]))
    for a, b in zip(ordered, ordered[1:]):
        if order.sign(b - a) not in (1, 2):
            raise ProofFailure(f"breakpoints {a} and {b} are not ordered for q >= {order.q0}")
    return ordered


def _value_at(col: list[Segment], start: sp.Expr, order: _Order) -> sp.Rational:
    """The column's value on the region beginning at ``start``."""
    for seg in col:
        if order.sign(start - seg.start) >= 0 and order.sign(seg.end - start) >= 0 and \
                order.sign(seg.end - seg.start + 1) in (1, 2):
            return seg.value
    raise ProofFailure(f"no segment covers card {start}")


@dataclass(frozen=True)
class CardRange:
    start: sp.Expr
    end: sp.Expr
    values: tuple[sp.Rational, ...]


def regions(columns: list[list[Segment]], n: sp.Expr, order: _Order) -> list[CardRange]:
    for col in columns:
        for seg in col:
            if order.sign(seg.end - seg.start + 1) < 0:
                raise ProofFailure(f"segment {seg.start}..{seg.end} has negative length (rules overlap)")
    points = _breakpoints(columns, n, order)
    return [CardRange(a, b - 1, tuple(_value_at(col, a, order) for col in columns)) for a, b in zip(points, points[1:])]


def prefix_sums(regs: list[CardRange], index: int) -> list[sp.Expr]:
    """For each region, ``Σ_{x < y} f(x)`` as an affine expression in y and q."""
    out, before = [], sp.Integer(0)
    for reg in regs:
        v = reg.values[index]
        out.append(sp.expand(before + v * (Y - reg.start)))
        before = sp.expand(before + v * (reg.end - reg.start + 1))
    return out


def _choose(first: sp.Expr, second: sp.Expr, reg: CardRange, order: _Order, smaller: bool,
            depth: int = 0) -> list[tuple[CardRange, sp.Expr]]:
    """``min`` (or ``max``) of two affine functions of y over the region, for every q >= q0.

    Where the comparison changes sign inside the region, the region is cut at the crossing card
    (affine in q) and each part decided again.
    """
    diff = sp.expand(first - second)
    ends = [order.sign(diff.subs(Y, reg.start)), order.sign(diff.subs(Y, reg.end))]
    if all(s in (0, 1, 2) for s in ends):        # first >= second on the whole region
        return [(reg, second if smaller else first)]
    if all(s in (0, -1, -2) for s in ends):
        return [(reg, first if smaller else second)]
    real_y = sp.Symbol("y_real", real=True)
    roots = sp.solve(diff.subs(Y, real_y), real_y)
    if depth > 2 or len(roots) != 1:
        raise ProofFailure(f"best response changes inside the region {reg.start}..{reg.end}")
    c, d = _affine(roots[0])
    if c.q != 1:
        raise ProofFailure(f"crossing card {roots[0]} has a fractional slope in q")
    cut = c * Q + sp.floor(d)
    parts = [CardRange(reg.start, cut, reg.values), CardRange(cut + 1, reg.end, reg.values)]
    out = []
    for part in parts:
        if order.sign(part.end - part.start + 1) in (1, 2):
            out += _choose(first, second, part, order, smaller, depth + 1)
        elif order.sign(part.end - part.start + 1) != 0:
            raise ProofFailure(f"cut {cut} lies outside the region {reg.start}..{reg.end}")
    return out


def _region_sum(expr: sp.Expr, reg: CardRange) -> sp.Expr:
    return sp.expand(sp.summation(expr, (Y, reg.start, reg.end)))


@dataclass(frozen=True)
class ResidueProof:
    """The symbolic argument for one residue ``r`` of n modulo 36."""

    residue: int
    q0: int
    regions_a: int
    regions_b: int
    proved: bool


def _columns_a(r: int, n: sp.Expr) -> list[list[Segment]]:
    bet = _max(lower_rule(threshold("a_bluff", r), n), upper_rule(threshold("a_value", r), n))
    call = upper_rule(threshold("a_call", r), n)
    return [bet, call]


def _columns_b(r: int, n: sp.Expr) -> list[list[Segment]]:
    call = upper_rule(threshold("b_call", r), n)
    bet = _max(lower_rule(threshold("b_bluff", r), n), upper_rule(threshold("b_value", r), n))
    return [call, bet]


def _max(low: list[Segment], high: list[Segment]) -> list[Segment]:
    """A lower and an upper rule together: low's aggressive cards, a gap of zeros, high's aggressive cards."""
    last = [seg for seg in low if seg.value != 0]
    first = [seg for seg in high if seg.value != 0]
    gap_start = last[-1].end + 1 if last else sp.Integer(1)
    return last + [Segment(gap_start, first[0].start - 1, sp.Integer(0))] + first


def lower_bound_total(r: int, order: _Order) -> tuple[sp.Expr, int]:
    """``n(n-1)`` times A's payoff when B best-responds to A's list, as a polynomial in q."""
    n = PERIOD * Q + r
    regs = regions(_columns_a(r, n), n, order)
    # columns: bet b, call c; derived: checked w = 1 - b, check-call cc = w c
    derived = [CardRange(g.start, g.end, (g.values[0], 1 - g.values[0], (1 - g.values[0]) * g.values[1]))
               for g in regs]
    pb, pw, pc = (prefix_sums(derived, i) for i in range(3))
    totals = [sp.expand(sum(g.values[i] * (g.end - g.start + 1) for g in derived)) for i in range(3)]
    total = sp.Integer(0)
    for j, g in enumerate(derived):
        b, w, c = g.values
        low_b, high_b = pb[j], totals[0] - pb[j] - b
        low_w, high_w = pw[j], totals[1] - pw[j] - w
        low_c, high_c = pc[j], totals[2] - pc[j] - c
        for part, facing in _choose(2 * (high_b - low_b), low_b + high_b, g, order, smaller=True):
            for piece, after in _choose(3 * high_c - low_c - low_w - high_w, high_w - low_w, part, order,
                                        smaller=True):
                total += _region_sum(facing + after, piece)
    return sp.expand(total), len(derived)


def upper_bound_total(r: int, order: _Order) -> tuple[sp.Expr, int]:
    """``n(n-1)`` times A's payoff when A best-responds to B's list, as a polynomial in q."""
    n = PERIOD * Q + r
    regs = regions(_columns_b(r, n), n, order)
    pd, pe = prefix_sums(regs, 0), prefix_sums(regs, 1)
    totals = [sp.expand(sum(g.values[i] * (g.end - g.start + 1) for g in regs)) for i in range(2)]
    total = sp.Integer(0)
    for j, g in enumerate(regs):
        d, e = g.values
        low_d, high_d = pd[j], totals[0] - pd[j] - d
        low_e, high_e = pe[j], totals[1] - pe[j] - e
        below, above = Y - 1, n - Y
        open_bet = (below - low_d) + (above - high_d) + 2 * (low_d - high_d)
        for part, call_or_fold in _choose(2 * (low_e - high_e), -(low_e + high_e), g, order, smaller=False):
            check = (below - low_e) - (above - high_e) + call_or_fold
            for piece, best in _choose(open_bet, check, part, order, smaller=False):
                total += _region_sum(best, piece)
    return sp.expand(total), len(regs)


def prove_residue(r: int, q0: int) -> ResidueProof:
    """Both bounds equal ``v(n)·n(n-1)`` for every n = 36q + r with q >= q0."""
    order = _Order(q0)
    formula = value_formula()
    n = PERIOD * Q + r
    target = sp.expand(formula.polynomials[r % formula.modulus].subs(sp.Symbol("n", integer=True, positive=True), n)
                       * n * (n - 1))
    low, regions_a = lower_bound_total(r, order)
    high, regions_b = upper_bound_total(r, order)
    proved = sp.expand(low - target) == 0 and sp.expand(high - target) == 0
    return ResidueProof(r, q0, regions_a, regions_b, proved)


def prove_all_residues(q0: int = 2) -> list[ResidueProof]:
    """The argument for every residue; together with the exact check of n < 36·q0 + 36 it covers every n >= 3."""
    return [prove_residue(r, q0) for r in range(PERIOD)]


def smallest_covered(q0: int) -> int:
    """Every n >= this is covered by :func:`prove_all_residues`; smaller n need the direct exact check."""
    return PERIOD * q0


__all__ = ["prove_residue", "prove_all_residues", "ResidueProof", "ProofFailure", "smallest_covered"]
