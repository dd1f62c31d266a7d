"""Continuous Guts poker (Buck, Lee, Platnick, Wheeler, Zumbrun,
"Continuous guts poker and numerical optimization of generalized recursive games", arXiv:2208.02788, 2022,
sections 3-4 and Appendix B; the game was introduced by Castronova, Chen, Zumbrun, "Game-theoretic analysis of
Guts Poker", arXiv:2108.06556, 2021).

Each of ``n`` players receives a hand uniform on [0, 1] and holds when the
hand exceeds her threshold ``p_j`` (drops otherwise).  Accounting as in
section 3 (antes paid on termination): with ``r`` holders the best holder
wins ``+n``, the other holders pay ``-n``, and for ``r >= 2`` the stakes
are multiplied by ``r - 1`` while every player receives the virtual ante
``r - 2``; a lone holder wins ``n - 1`` and each dropper pays 1 (the game
ends); if nobody holds the round is replayed.  Under the Weenie rule
(Appendix B) the best hand among all-droppers matches the pot: it pays
``n``, the stakes double and every player receives the virtual ante 1.

Summing over the holder sets gives closed forms with the one integral

    W = ∫_{p1}^{1} Π_{j≠1} max(p_j, u) du  -  (1 - p1) Π_{j≠1} p_j,

    α = Σ_j (1 - p_j) - 2 + 2 Π_j p_j + 2 n W - n (1 - p1) + 2 n (1 - p1) Π_{j≠1} p_j,
    β = Σ_j (1 - p_j) - 1 + 2 Π_j p_j,

and, under the Weenie rule, ``α_W = α + Π_j p_j - n ∫_0^{p1} Π_{j≠1} min(p_j, u) du``
and ``β_W = β + Π_j p_j``.  The integrands are ``c · u^k`` between
consecutive thresholds, so α costs O(n log n) per profile instead of the
Θ(n 3^n) of the paper's section 4.1 algorithm.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Sequence

import numpy as np
import sympy as sp

from ..references import cite

SOURCE = (cite("buck2022", "sections 1-4 and Appendices B-D") + "; the game: "
          + cite("castronova2021"))


# --------------------------------------------------------------------------- exact, for a known ordering

def _piecewise_integral(lower: sp.Expr, upper: sp.Expr, others: Sequence[sp.Expr], ordered: Sequence[sp.Expr],
                        kind: str) -> sp.Expr:
    """∫_lower^upper Π_j max(others_j, u) du (``kind="max"``) or Π_j min(others_j, u) du (``"min"``).

    ``ordered`` lists every threshold involved (``lower`` and ``upper``
    included when they are thresholds) in increasing order; the integral is
    split at the thresholds that lie between ``lower`` and ``upper``.
    """
    u = sp.Symbol("u", real=True)
    inside = [t for t in ordered if t not in (lower, upper)]
    lo_pos = ordered.index(lower) if lower in ordered else -1
    hi_pos = ordered.index(upper) if upper in ordered else len(ordered)
    cuts = [lower] + [t for t in inside if lo_pos < ordered.index(t) < hi_pos] + [upper]
    rank = {t: k for k, t in enumerate(ordered)}
    total = sp.Integer(0)
    for a, b in zip(cuts, cuts[1:]):
        pos = rank.get(a, -1)
        factor = sp.Integer(1)
        for s in others:
            below = (rank[s] <= pos) if s in rank else False
            if kind == "max":
                factor *= u if below else s
            else:
                factor *= s if below else u
        total += sp.integrate(factor, (u, a, b))
    return sp.expand(total)


def alpha_exact(p: Sequence[sp.Expr], order: Sequence[int], weenie: bool = False) -> sp.Expr:
    """Player 1's immediate return α for thresholds ``p`` whose increasing order is ``order``.

    ``order`` lists indices into ``p`` from the smallest threshold to the
    largest (ties excluded); ``p[0]`` is player 1.
    """
    n = len(p)
    ordered = [p[k] for k in order]
    p1, others = p[0], list(p[1:])
    rest = sp.Mul(*others)
    W = _piecewise_integral(p1, sp.Integer(1), others, ordered, "max") - (1 - p1) * rest
    alpha = sum(1 - x for x in p) - 2 + 2 * sp.Mul(*p) + 2 * n * W - n * (1 - p1) + 2 * n * (1 - p1) * rest
    if weenie:
        L = _piecewise_integral(sp.Integer(0), p1, others, ordered, "min")
        alpha += sp.Mul(*p) - n * L
    return sp.expand(alpha)


def beta_exact(p: Sequence[sp.Expr], weenie: bool = False) -> sp.Expr:
    """The expected stakes multiplier β (``weenie``: the all-drop round doubles the stakes)."""
    beta = sum(1 - x for x in p) - 1 + 2 * sp.Mul(*p)
    return sp.expand(beta + (sp.Mul(*p) if weenie else 0))


# --------------------------------------------------------------------------- fast numeric form

def _segment_integrals(lower, upper, groups, kind: str):
    """Vectorised ∫ Π_g f(v_g, u)^{m_g} du over [lower, upper] for threshold groups (value, multiplicity)."""
    values = [np.asarray(v, dtype=float) for v, _ in groups]
    shape = np.broadcast(lower, upper, *values).shape
    lower = np.broadcast_to(np.asarray(lower, dtype=float), shape)
    upper = np.broadcast_to(np.asarray(upper, dtype=float), shape)
    values = [np.broadcast_to(v, shape) for v in values]
    points = np.sort(np.stack([lower, upper] + values), axis=0)
    total = np.zeros(shape)
    for k in range(points.shape[0] - 1):
        a = np.clip(points[k], lower, upper)
        b = np.clip(points[k + 1], lower, upper)
        power = np.zeros(shape)
        coeff = np.ones(shape)
        for v, (_, m) in zip(values, groups):
            below = v <= a
            if kind == "max":
                power += np.where(below, m, 0)
                coeff *= np.where(below, 1.0, v ** m)
            else:
                power += np.where(below, 0, m)
                coeff *= np.where(below, v ** m, 1.0)
        total += np.where(b > a, coeff * (b ** (power + 1) - a ** (power + 1)) / (power + 1), 0.0)
    return total


def alpha_numeric(p1, groups: Sequence[tuple[object, int]], weenie: bool = False) -> np.ndarray:
    """α for player 1 at ``p1`` against other players grouped as (threshold, how many), vectorised."""
    n = 1 + sum(m for _, m in groups)
    p1 = np.asarray(p1, dtype=float)
    rest = np.ones(np.broadcast(p1, *[np.asarray(v) for v, _ in groups]).shape)
    q_sum = 1 - p1
    for v, m in groups:
        rest = rest * np.asarray(v, dtype=float) ** m
        q_sum = q_sum + m * (1 - np.asarray(v, dtype=float))
    all_p = p1 * rest
    W = _segment_integrals(p1, 1.0, groups, "max") - (1 - p1) * rest
    alpha = q_sum - 2 + 2 * all_p + 2 * n * W - n * (1 - p1) + 2 * n * (1 - p1) * rest
    if weenie:
        alpha = alpha + all_p - n * _segment_integrals(0.0, p1, groups, "min")
    return alpha


def beta_numeric(p1, groups: Sequence[tuple[object, int]], weenie: bool = False) -> np.ndarray:
    p1 = np.asarray(p1, dtype=float)
    all_p = p1.copy()
    q_sum = 1 - p1
    for v, m in groups:
        all_p = all_p * np.asarray(v, dtype=float) ** m
        q_sum = q_sum + m * (1 - np.asarray(v, dtype=float))
    beta = q_sum - 1 + 2 * all_p
    return beta + all_p if weenie else beta


# --------------------------------------------------------------------------- exact rational evaluation

def alpha_beta_fraction(p1, groups: Sequence[tuple[object, int]], weenie: bool = False):
    """Exact ``(α, β)`` with rational thresholds (``fractions.Fraction``), same formulas as the numeric form.

    The arithmetic is in python-flint's rationals (exact, as ``Fraction``, several times faster); the values are
    returned as ``Fraction``.
    """
    from fractions import Fraction

    from flint import fmpq

    def exact_value(v) -> fmpq:
        q = Fraction(v)                  # thresholds: Fraction, int or str
        return fmpq(q.numerator, q.denominator)

    p1 = exact_value(p1)
    exact = [(exact_value(v), m) for v, m in groups]
    n = 1 + sum(m for _, m in exact)
    rest = fmpq(1)
    q_sum = 1 - p1
    for v, m in exact:
        rest *= v ** m
        q_sum += m * (1 - v)
    all_p = p1 * rest
    W = _fraction_integral(p1, fmpq(1), exact, "max") - (1 - p1) * rest
    alpha = q_sum - 2 + 2 * all_p + 2 * n * W - n * (1 - p1) + 2 * n * (1 - p1) * rest
    beta = q_sum - 1 + 2 * all_p
    if weenie:
        alpha += all_p - n * _fraction_integral(fmpq(0), p1, exact, "min")
        beta += all_p
    return Fraction(int(alpha.p), int(alpha.q)), Fraction(int(beta.p), int(beta.q))


def _fraction_integral(lower, upper, groups, kind: str):
    points = sorted({lower, upper} | {v for v, _ in groups if lower < v < upper})
    total = 0
    for a, b in zip(points, points[1:]):
        power, coeff = 0, 1
        for v, m in groups:
            below = v <= a
            if kind == "max":
                power += m if below else 0
                coeff *= 1 if below else v ** m
            else:
                power += 0 if below else m
                coeff *= v ** m if below else 1
        total += coeff * (b ** (power + 1) - a ** (power + 1)) / (power + 1)
    return total


def mesh_alpha_beta(own: int, others: Sequence[int], mesh: int, weenie: bool = False):
    """Exact ``(α, β)`` for a player at mesh index ``own`` against players at mesh indices ``others``."""
    from collections import Counter

    step = Fraction(1, mesh - 1)
    return alpha_beta_fraction(own * step, [(k * step, m) for k, m in sorted(Counter(others).items())], weenie)


def three_player_tensors(mesh: int, weenie: bool = False) -> list[np.ndarray]:
    """Each player's one-shot payoff α on the mesh, exactly, as integer tensors indexed (player 1, 2, 3).

    Entry ``[i, j, k]`` is ``α · scale`` at thresholds ``(i, j, k) / (mesh - 1)``, where the positive
    integer ``scale`` (:func:`mesh_alpha_scale`) is common to all entries: the piecewise polynomial
    of :func:`alpha_exact` evaluated in integer arithmetic, one ordering of the thresholds at a time
    (α is continuous, so a tie may take either ordering's polynomial). Exact tensors make fictitious
    play's best responses, and its tie-breaking, independent of floating-point rounding.
    """
    own = mesh_alpha_tensor(3, mesh, weenie)
    return [own, own.transpose(1, 0, 2), own.transpose(1, 2, 0)]


def mesh_alpha_scale(n: int, mesh: int, weenie: bool = False) -> int:
    """The integer by which :func:`mesh_alpha_tensor` multiplies α."""
    return _mesh_alpha_polys(n, weenie)[1] * (mesh - 1) ** _mesh_alpha_polys(n, weenie)[2]


def _mesh_alpha_polys(n: int, weenie: bool, _cache: dict = {}):   # noqa: B006 - a deliberate memo
    key = (n, weenie)
    if key not in _cache:
        import itertools
        import math

        p = sp.symbols(" ".join(f"p{k + 1}" for k in range(n)), real=True)
        polys = {order: sp.Poly(alpha_exact(p, order, weenie), *p, domain=sp.QQ)
                 for order in itertools.permutations(range(n))}
        denominator = math.lcm(*(int(sp.fraction(c)[1]) for poly in polys.values() for c in poly.coeffs()))
        degree = max(poly.total_degree() for poly in polys.values())
        _cache[key] = (polys, denominator, degree)
    return _cache[key]


def mesh_alpha_tensor(n: int, mesh: int, weenie: bool = False) -> np.ndarray:
    """Player 1's α · :func:`mesh_alpha_scale` at every mesh profile, shape ``(mesh,) * n``, exact int64."""
    polys, denominator, degree = _mesh_alpha_polys(n, weenie)
    h = mesh - 1
    grids = np.meshgrid(*([np.arange(mesh, dtype=np.int64)] * n), indexing="ij")
    out = np.zeros((mesh,) * n, dtype=np.int64)
    done = np.zeros((mesh,) * n, dtype=bool)
    for order, poly in polys.items():
        mask = ~done
        for a, b in zip(order, order[1:]):
            mask &= grids[a] <= grids[b]
        value = np.zeros(int(mask.sum()), dtype=np.int64)
        points = [g[mask] for g in grids]
        for monomial, coeff in poly.terms():
            c = sp.Rational(coeff) * denominator * h ** (degree - sum(monomial))
            term = np.full(value.shape, int(c), dtype=np.int64)
            for x, e in zip(points, monomial):
                term *= x ** e
            value += term
        out[mask] = value
        done |= mask
    return out


def simulate_alpha(thresholds: Sequence[float], samples: int, seed: int, weenie: bool = False,
                   chunk: int = 1_000_000) -> tuple[float, float]:
    """Player 1's one-round payoff by Monte Carlo from the rules (section 3; Weenie: Appendix B).

    Independent of the closed forms: deal uniform hands, apply the hold
    thresholds and the accounting of the module docstring.  Returns the mean
    and its standard error.
    """
    rng = np.random.default_rng(seed)
    th = np.asarray(thresholds, dtype=float)
    n = len(th)
    total = total_sq = 0.0
    for start in range(0, samples, chunk):
        m = min(chunk, samples - start)
        hands = rng.random((m, n))
        hold = hands > th
        holders = hold.sum(axis=1)
        best_holder = np.argmax(np.where(hold, hands, -1.0), axis=1)
        pay = np.where(holders >= 2, (holders - 2) + np.where(hold[:, 0], np.where(best_holder == 0, n, -n), 0), 0)
        pay = np.where(holders == 1, np.where(hold[:, 0], n - 1, -1), pay)
        if weenie:
            pay = np.where(holders == 0, np.where(np.argmax(hands, axis=1) == 0, 1 - n, 1), pay)
        total += float(pay.sum())
        total_sq += float((pay.astype(float) ** 2).sum())
    mean = total / samples
    return mean, float(np.sqrt(max(total_sq / samples - mean ** 2, 0.0) / samples))
