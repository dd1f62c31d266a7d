"""Buck et al. (2022), sections 3 and Appendix B: the symmetric threshold for every n, derived with n a symbol."""
from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

# --------------------------------------------------------------------------- symmetric equilibria

@dataclass(frozen=True)
class SymmetricEquilibrium:
    """The symmetric threshold derived for every n from the bloc payoff (n a symbol)."""

    weenie: bool
    threshold: sp.Expr
    slope_below: sp.Expr
    slope_above: sp.Expr
    curvature_above: sp.Expr


def bloc_alpha(n: sp.Expr, p1: sp.Expr, p: sp.Expr, weenie: bool) -> tuple[sp.Expr, sp.Expr]:
    """α(p1; p, ..., p) for ``p1 <= p`` and for ``p1 >= p``, with ``n`` symbolic."""
    u = sp.Symbol("u", positive=True)
    rest = p ** (n - 1)
    q_sum = (1 - p1) + (n - 1) * (1 - p)
    common = q_sum - 2 + 2 * p1 * rest - n * (1 - p1) + 2 * n * (1 - p1) * rest
    W_below = rest * (p - p1) + sp.integrate(u ** (n - 1), (u, p, 1), conds="none") - (1 - p1) * rest
    W_above = sp.integrate(u ** (n - 1), (u, p1, 1), conds="none") - (1 - p1) * rest
    below, above = common + 2 * n * W_below, common + 2 * n * W_above
    if weenie:
        L_below = sp.integrate(u ** (n - 1), (u, 0, p1), conds="none")
        L_above = sp.integrate(u ** (n - 1), (u, 0, p), conds="none") + rest * (p1 - p)
        below += p1 * rest - n * L_below
        above += p1 * rest - n * L_above
    return sp.simplify(below), sp.simplify(above)


def symmetric_equilibrium(weenie: bool = False) -> SymmetricEquilibrium:
    """Solve the first-order condition ∂α/∂p1 = 0 at p1 = p for every n >= 2 (n symbolic).

    A symmetric equilibrium needs player 1's best response to others at
    ``p`` to be ``p``: the slope of α in ``p1`` on each side of ``p`` must
    vanish at ``p1 = p`` (α is concave above ``p``).
    """
    n = sp.Symbol("n", integer=True, positive=True)
    p1, p = sp.symbols("p1 p", positive=True)
    below, above = bloc_alpha(n, p1, p, weenie)
    slope = sp.expand(sp.diff(above, p1).subs(p1, p))
    # the condition is affine in z = p^(n-1): solve for that power
    z = sp.Symbol("z", positive=True)
    root = sp.solve(sp.expand(slope.subs(p ** n, z * p)), z)
    threshold = sp.simplify(root[0] ** (1 / (n - 1)))
    return SymmetricEquilibrium(weenie, threshold,
                                _powers(sp.diff(below, p1).subs(p1, p).subs(p, threshold)),
                                _powers(sp.diff(above, p1).subs(p1, p).subs(p, threshold)),
                                sp.factor(sp.diff(above, p1, 2)))


def _powers(expr: sp.Expr) -> sp.Expr:
    """Simplify powers with symbolic exponents (2·2^(1/(n-1))/2^(n/(n-1)) = 1)."""
    return sp.simplify(sp.powsimp(sp.expand(expr), force=True, combine="exp"))


