"""Buck et al. (2022), Appendix B: under the Weenie rule p* = 3^(-1/(n-1)) guarantees a non-negative payoff."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Sequence

import numpy as np
import sympy as sp

from symgame.games.guts import alpha_exact, alpha_numeric

if TYPE_CHECKING:      # annotations only: these modules load z3 and python-flint
    from symgame.model.decide import Decision
    from symgame.verify.positivity import LocalLemma, PositivityCertificate

# --------------------------------------------------------------------------- the Weenie rule: strong equilibrium

@dataclass(frozen=True)
class RegionProof:
    """``min α(p*, p2..pn) >= 0`` on one region of the cube (player 1's place among sorted opponents)."""

    position: int
    decision: Decision
    seconds: float
    counterexample: dict[str, str] | None


def weenie_guarantee(n: int, timeout_ms: int = 120_000, weenie: bool = True) -> list[RegionProof]:
    """Prove with z3 that ``α_W(p*, p2, ..., pn) >= 0`` for every p2..pn in [0, 1], p* = 3^(-1/(n-1)).

    With ``weenie=False`` the same question for standard Guts and
    p* = 2^(-1/(n-1)), where it is false (a coalition wins): the check then
    returns a counterexample.

    α is symmetric in the opponents, so it suffices to take ``p2 <= ... <= pn``
    and each place of ``p*`` among them; on each such region α is one
    polynomial (derived by :func:`alpha_exact`), and ``p*`` enters z3 as the
    positive root of ``3 c^(n-1) = 1``.  Exact for every region z3 decides.
    """
    import time

    from symgame.engine.z3terms import Z3Encoder
    from symgame.model.decide import Decision
    from symgame.model.z3env import z3

    p = sp.symbols(" ".join(f"p{k + 1}" for k in range(n)), real=True)
    out = []
    for position in range(n):
        order = list(range(1, n))
        order.insert(position, 0)
        alpha = alpha_exact(p, order, weenie=weenie)
        enc = Z3Encoder()
        c = enc.var("p1")
        base = 3 if weenie else 2
        formulas = [c > 0, base * z3.Product([c] * (n - 1)) == 1 if n > 2 else base * c == 1]
        chain = [enc.var(str(p[k])) for k in order]
        formulas += [chain[0] >= 0, chain[-1] <= 1] + [a <= b for a, b in zip(chain, chain[1:])]
        formulas.append(enc.term(alpha) < 0)
        solver = z3.SolverFor("QF_NRA")
        solver.set("timeout", timeout_ms)
        solver.add(*formulas)
        t0 = time.perf_counter()
        answer = solver.check()
        seconds = time.perf_counter() - t0
        if answer == z3.unsat:
            out.append(RegionProof(position, Decision.TRUE, seconds, None))
        elif answer == z3.sat:
            model = solver.model()
            out.append(RegionProof(position, Decision.FALSE, seconds,
                                   {str(s): str(model.eval(enc.var(str(s)), model_completion=True)) for s in p}))
        else:
            out.append(RegionProof(position, Decision.UNDECIDED, seconds, None))
    return out



_P_STAR = sp.Symbol("c", positive=True)


def _alpha_at_p_star(n: int, order: Sequence[int], weenie: bool) -> sp.Poly:
    """α on one ordering with player 1's threshold as the symbol ``c`` (p*), over Q in (c, p2..pn)."""
    p = sp.symbols(" ".join(f"p{k + 1}" for k in range(n)), real=True)
    return sp.Poly(alpha_exact(p, order, weenie=weenie).subs(p[0], _P_STAR), _P_STAR, *p[1:], domain=sp.QQ)


def _p_star_ball(n: int, weenie: bool):
    """p* = 3^(-1/(n-1)) (Weenie) or 2^(-1/(n-1)) as a certified ``arb`` ball."""
    from flint import arb

    return arb(3 if weenie else 2) ** (arb(-1) / (n - 1))


@dataclass(frozen=True)
class WeenieBoxProof:
    """``min α_W(p*, p2..pn) >= 0`` over the whole cube by ball-arithmetic branch and bound.

    ``lemmas[k]`` is the local quadratic lemma at ``p2 = ... = pn = p*`` for
    the polynomial of the region where ``k`` opponents lie below ``p*``;
    ``radius`` is the smallest of their radii (the cube around the zero that
    the lemmas cover); ``certificate`` covers the rest of the sorted cube.
    """

    players: int
    lemmas: tuple[LocalLemma, ...]
    radius: Fraction
    certificate: PositivityCertificate

    @property
    def proved(self) -> bool:
        return all(lemma.holds for lemma in self.lemmas) and self.certificate.proved


def weenie_guarantee_boxes(n: int, min_width: Fraction = Fraction(1, 2 ** 12), weenie: bool = True) -> WeenieBoxProof:
    """Prove ``α_W(p*, p2, ..., pn) >= 0`` on [0, 1]^(n-1), p* = 3^(-1/(n-1)), without z3 (Appendix B).

    α_W is symmetric in the opponents, so the domain is the sorted simplex
    ``p2 <= ... <= pn``; on it α_W is one polynomial per place of p* among
    the opponents (:func:`alpha_exact`).  It vanishes at ``p2 = ... = pn = p*``
    (a symmetric profile of a symmetric zero-sum game), where each polynomial
    is shown to have an exact double zero with a positive definite quadratic
    form (:func:`~symgame.verify.positivity.quadratic_zero_lemma`); elsewhere
    :func:`~symgame.verify.positivity.certify_nonnegative` bounds it above 0
    in ball arithmetic.  p* enters as the root of ``3 c^(n-1) = 1``.

    With ``weenie=False`` the same question for standard Guts and
    ``p* = 2^(-1/(n-1))``, where a coalition wins: the proof must fail.
    """
    from symgame.verify.positivity import (
        arb_polynomial,
        certify_nonnegative,
        quadratic_zero_lemma,
        taylor_at_algebraic_point,
        to_arb,
    )

    minimal = sp.Poly((3 if weenie else 2) * _P_STAR ** (n - 1) - 1, _P_STAR, domain=sp.QQ)
    c_ball = _p_star_ball(n, weenie)
    polys, lemmas = [], []
    for position in range(n):
        order = list(range(1, n))
        order.insert(position, 0)
        exact = _alpha_at_p_star(n, order, weenie)
        polys.append(arb_polynomial(exact, _P_STAR, c_ball))
        orthant = [-1] * position + [1] * (n - 1 - position)
        lemmas.append(quadratic_zero_lemma(taylor_at_algebraic_point(exact, _P_STAR, minimal), n - 1, c_ball,
                                           orthant))
    radius = min(lemma.radius for lemma in lemmas)
    r = to_arb(radius)

    def pieces_for_box(box):
        highest_low = Fraction(0)
        for lo, hi in box:
            highest_low = max(highest_low, lo)
            if highest_low > hi:
                return None          # no sorted point in the box
        return [k for k in range(n)
                if not (k > 0 and to_arb(box[k - 1][0]) > c_ball)
                and not (k < n - 1 and to_arb(box[k][1]) < c_ball)]

    def inside_local_zone(box) -> bool:
        return radius > 0 and all(to_arb(lo) >= c_ball - r and to_arb(hi) <= c_ball + r for lo, hi in box)

    cube = tuple((Fraction(0), Fraction(1)) for _ in range(n - 1))
    certificate = certify_nonnegative(pieces_for_box, polys, inside_local_zone, cube, min_width)
    return WeenieBoxProof(n, tuple(lemmas), radius, certificate)


@dataclass(frozen=True)
class WeenieCounterexample:
    """A coalition (rational thresholds p2..pn) against which p* = 3^(-1/(n-1)) loses: α_W < 0, certified."""

    players: int
    thresholds: tuple[Fraction, ...]
    value_lower: float      # certified enclosure of α_W(p*, p2..pn) (ball arithmetic)
    value_upper: float

    @property
    def certified_negative(self) -> bool:
        return self.value_upper < 0


def weenie_alpha_ball(n: int, thresholds: Sequence[Fraction], weenie: bool = True):
    """α_W(p*, p2..pn) at rational opponents' thresholds as a certified ``arb`` ball (p* algebraic, see above)."""
    from symgame.verify.positivity import arb_polynomial, to_arb

    c_ball = _p_star_ball(n, weenie)
    balls = [to_arb(t) for t in thresholds]
    if not all(b < c_ball or b > c_ball for b in balls):
        raise ValueError("a threshold could not be placed relative to p*; choose another rational point")
    ordered = sorted(range(1, n), key=lambda k: thresholds[k - 1])
    ordered.insert(sum(1 for b in balls if b < c_ball), 0)
    return arb_polynomial(_alpha_at_p_star(n, ordered, weenie), _P_STAR, c_ball).evaluate(balls)


def weenie_counterexample(n: int, steps: int = 40) -> WeenieCounterexample | None:
    """Search pseudo-bloc coalitions (s, q, ..., q) on a grid for α_W(p*, ·) < 0 and certify the worst exactly.

    Returns ``None`` when the grid finds no negative value (which proves nothing).
    """
    grid = np.linspace(0.0, 1.0, steps + 1)
    S, Q = np.meshgrid(grid, grid, indexing="ij")
    p_star = 3.0 ** (-1.0 / (n - 1))
    values = alpha_numeric(p_star, [(S.ravel(), 1), (Q.ravel(), n - 2)], weenie=True)
    k = int(np.argmin(values))
    if values[k] >= 0:
        return None
    s, q = divmod(k, steps + 1)
    thresholds = (Fraction(s, steps),) + (Fraction(q, steps),) * (n - 2)
    ball = weenie_alpha_ball(n, thresholds)
    return WeenieCounterexample(n, thresholds, float(ball.lower().mid()), float(ball.upper().mid()))


