"""Billingham (2017), "Full street simplified three player Kuhn poker", arXiv:1707.01392: what the paper prints.

Equations (1)-(3) (the profits), Solutions 1a-10 (eqs. (5)-(18)) and the sentences of section 3, transcribed
for comparison with what symgame derives from the rules; never an input to the derivation.
"""
from __future__ import annotations

import sympy as sp

from symgame.games.billingham import VARIABLE_ORDER, _v, profits_from_rules
from symgame.verify.printed import PrintedSolution, PrintedStatement


def printed_profits() -> dict[int, sp.Expr]:
    """Equations (1)-(3) of the paper, as printed (divided by 24)."""
    a1, b1, c1, d1, a2, b2, c2, d2, b3, c3, d3, P = (_v(n) for n in
                                                     "a1 b1 c1 d1 a2 b2 c2 d2 b3 c3 d3 P".split())
    e1 = ((-2 * b2 + 2 * c2 - 2 * b3 + 2 * d3 - b2 * c3) * a1 + (2 * P - 4 - (P + 1) * (c2 + d3)) * b1
          + (b2 - 2 + (P + a2) * b3) * c1 + ((P + 1) * b2 - 2 * a2) * d1 + (2 - P) * b3 + (2 + c3 - P) * b2)
    e2 = ((2 * d1 + 2 * c3 - 2 * b3 - c1 * b3 - b1 * c3) * a2 + (2 * P - 4 + 2 * a1 - (P + 1) * (c3 + d1)) * b2
          + (P * b1 - 2 * a1) * c2 + ((P + 1) * b3 - 2 + b1) * d2 + (2 - P + c1) * b3 + (2 - P) * b1)
    e3 = ((2 * P - 4 + 2 * a1 + 2 * a2 - (P + 1) * (c1 + d2)) * b3 + ((P + a1) * b2 - (2 - b1) * a2) * c3
          + ((P + 1) * b1 - 2 * a1) * d3 + (2 - P - c1) * b2 + 2 * c1 + (2 - P + c2 - d2) * b1 + 2 * d2)
    return {1: sp.expand(e1 / 24), 2: sp.expand(e2 / 24), 3: sp.expand(e3 / 24)}



def printed_profits_agree() -> bool:
    """Whether the profits from the rules equal the printed equations (1)-(3) identically."""
    derived, printed = profits_from_rules(), printed_profits()
    return all(sp.expand(derived[i] - printed[i]) == 0 for i in derived)


# --------------------------------------------------------------------------- the printed solutions

def printed_solutions() -> list[PrintedSolution]:
    """Solutions 1a-10 of section 3, eqs. (5)-(18), transcribed as printed.

    Used only to compare with the derived atlas, never as input to it.
    Formulas that refer to other frequencies (Solution 3: ``b2 = 2 a2/(P+1)``)
    are substituted in order.  Solution 10a's two cases (``b1 = 1/3`` and
    ``b1 > 1/3``) are two entries.
    """
    s = {n: _v(n) for n in "a1 b1 c1 d1 a2 b2 c2 d2 b3 c3 d3 P".split()}
    P = s["P"]
    R = sp.Rational
    P3, P4, P6 = R(3, 4) + sp.sqrt(97) / 4, R(3, 2) + sp.sqrt(15) / 2, R(3, 2) + sp.sqrt(23) / 2
    P8, P9 = R(7, 4) + sp.sqrt(105) / 4, R(7, 4) + sp.sqrt(113) / 4
    low = (2 * P - 4) / (P + 1)

    def between(lo, expr, hi):
        return ((expr - lo, ">="), (hi - expr, ">="))

    def sol(label, eq, values, lo, hi, free=(), constraints=()):
        subs, out = {}, {}
        for x, e in values.items():
            out[x] = sp.sympify(e).subs(subs)
            subs[s[x]] = out[x]
        for z in free:
            out[z] = s[z]
        cons = tuple((sp.sympify(e).subs(subs), r) for e, r in constraints)
        return PrintedSolution(label, f"Solution {label}", eq, tuple((x, out[x]) for x in VARIABLE_ORDER),
                               tuple(free), cons, sp.sympify(lo), None if hi is None else sp.sympify(hi))

    a2, b1, b3 = s["a2"], s["b1"], s["b3"]
    c1, d1, c2, d2, c3, d3 = (s[n] for n in "c1 d1 c2 d2 c3 d3".split())
    return [
        sol("1a", "(5)", dict(a1=0, b1=0, a2=0, b2=0, c1=0, d2=0), 2, 2, ("b3", "c3", "d1", "c2", "d3"),
            (*between(0, b3, R(2, 3)), (b3 - c3 - d1, ">="), (b3 - c2 - d3, ">="))),
        sol("1", "(6)", dict(a1=0, b1=0, a2=0, b2=0, b3=2 / (P + 1), c1=0, d2=low), 2, 3, ("c3", "d1", "c2", "d3"),
            (*between(low, c3 + d1, 2 / (P + 1)), *between(low, c2 + d3, 2 / (P + 1)))),
        sol("2a", "(7)", dict(a1=0, b1=0, b2=a2 / 2, b3=R(1, 2), c1=0, d2=(1 + a2) / 2, c3=0, d1=R(1, 2)), 3, 3,
            ("a2", "c2", "d3"), ((R(1, 2) - a2, ">="), *between(R(1, 2), c2 + d3, R(1, 2) + a2 / 2))),
        sol("2", "(8)", dict(a1=0, b1=0, a2=R(1, 2), b2=1 / (P + 1), b3=2 / (P + 1), c1=2 * P - 6,
                             d2=(3 + 6 * P - 2 * P**2) / (P + 1), c3=0, d1=low), 3, P4, ("c2", "d3"),
            between(low, c2 + d3, 3 / (P + 1))),
        sol("3", "(9)", dict(a1=0, b1=0, a2=(4 - P**2 + sp.sqrt(P**4 - 4 * P**3 + 4 * P**2 + 12 * P + 12)) / 2,
                             b2=2 * a2 / (P + 1), b3=(2 - s["b2"]) / (P + a2), c1=(2 * P - 4 + 2 * a2) / (P + 1),
                             d2=0, c3=0, d1=low), P3, P4, ("c2", "d3"),
            between(low, c2 + d3, s["b2"] + b3)),
        sol("4", "(10)", dict(a1=0, b1=0, a2=(5 - P) / 2, b2=(5 - P) / (P + 1), b3=4 * (P - 2) / (3 * (P + 1)),
                              c1=1, d2=0, c3=0, d1=low), P3, R(7, 2), ("c2", "d3"),
            between(low, c2 + d3, (P + 7) / (3 * (P + 1)))),
        sol("5a", "(11)", dict(a1=0, b1=0, b2=4 * a2 / 9, b3=R(4, 9), c1=1, d2=4 * a2 / 9 - R(1, 3), c3=0,
                               d1=R(2, 3)), R(7, 2), R(7, 2), ("a2", "c2", "d3"),
            ((a2 - R(3, 4), ">="), *between(R(2, 3), c2 + d3, 4 * (1 + a2) / 9))),
        sol("5", "(12)", dict(a1=0, b1=0, a2=1, b2=2 / (P + 1), b3=2 / (P + 1), c1=1, d2=(P - 3) / (P + 1), c3=0,
                              d1=low), R(7, 2), 4, ("c2", "d3"), between(low, c2 + d3, 4 / (P + 1))),
        sol("6", "(13)", dict(a1=(4 - P) * (P + 1), b1=2 * (4 - P), a2=1, b2=2 / (P + 1), b3=2 * (P - 3) / (P + 1),
                              c1=1, d2=(5 + 7 * P - 2 * P**2) / (P + 1), c3=0, d1=(4 + 8 * P - 2 * P**2) / (P + 1),
                              c2=0, d3=low), P6, 4),
        sol("7", "(14)", dict(a1=R(1, 2), b1=1 / (P + 1), a2=1, b2=2 / (P + 1), b3=(2 * P + 1) / (P + 1)**2, c1=1,
                              d2=(P - 2) / (P + 1), c3=(2 * P**2 - 6 * P - 7) / (P + 1),
                              d1=(4 + 8 * P - 2 * P**2) / (P + 1), c2=0, d3=low), P6, P9),
        sol("8", "(15)", dict(a1=(9 - 2 * P) * (P + 1) / 2, b1=9 - 2 * P, a2=1, b2=2 / (P + 1),
                              b3=(2 * P - 7) / (P + 1), c1=1, d2=(6 + 8 * P - 2 * P**2) / (P + 1), c3=1,
                              d1=(4 + 8 * P - 2 * P**2) / (P + 1), c2=0, d3=low), P8, P9),
        sol("9", "(16)", dict(a1=1, b1=2 / (P + 1), a2=1, b2=2 / (P + 1), b3=2 * P / (P + 1)**2, c3=1,
                              d1=(P - 3) / (P + 1), c2=0, d3=low), P8, 5, ("c1", "d2"),
            ((c1 + d2 - 2 * P / (P + 1), "=="),)),
        sol("10a", "(17), b1 = 1/3", dict(a1=1, b1=R(1, 3), a2=1, b2=R(1, 3), b3=R(5, 18), c3=1, d1=R(1, 3), c2=0,
                                          d3=1), 5, 5, ("c1", "d2"), ((c1 + d2 - R(5, 3), "=="),)),
        sol("10a", "(17), b1 > 1/3", dict(a1=1, a2=1, b2=R(1, 3), b3=R(5, 18), c1=R(2, 3), d2=1, c3=1,
                                          d1=R(1, 3), c2=0, d3=1), 5, 5, ("b1",),
            ((b1 - R(1, 3), ">"), (R(2, 5) - b1, ">="))),
        sol("10", "(18)", dict(a1=1, b1=2 / P, a2=1, b2=2 / (P + 1), b3=2 * P / (P + 1)**2, c1=(P - 1) / (P + 1),
                               d2=1, c3=1, d1=(P - 3) / (P + 1), c2=(P - 5) / (P + 1), d3=1), 5, None),
    ]


def printed_statements() -> list[PrintedStatement]:
    """Sentences of section 3 (discussion of Figures 1 and 2) about all equilibria, as printed."""
    s = {n: _v(n) for n in "a1 b1 c1 d1 a2 b2 c2 d2 b3 c3 d3 P".split()}
    P6 = sp.Rational(3, 2) + sp.sqrt(23) / 2
    return [
        PrintedStatement("For small enough P (P < P6), Player 1 neither bets with A nor bluffs with Q",
                         "section 3, discussion of Figure 2", sp.Integer(2), True, P6, False,
                         ((s["a1"], "=="), (s["b1"], "=="))),
        PrintedStatement("Only Player 3 catches Player 1's bluffs for P < 5 (Player 2 never calls with K "
                         "after Player 1 bets: c2 = 0)", "section 3, discussion of Figure 2",
                         sp.Integer(2), True, sp.Integer(5), False, ((s["c2"] * s["b1"], "=="),)),
        PrintedStatement("For P > 5, Player 1 always calls with K (c1 = d1 = 1)",
                         "section 3, discussion of Figure 2", sp.Integer(5), False, None, False,
                         ((s["c1"] - 1, "=="), (s["d1"] - 1, "=="))),
        PrintedStatement("Correction of the previous sentence: for P > 5, Player 3 always calls with K "
                         "(c3 = d3 = 1)", "symgame", sp.Integer(5), False, None, False,
                         ((s["c3"] - 1, "=="), (s["d3"] - 1, "=="))),
        PrintedStatement("For P > 5, d3 = 1 and c2 > 0", "section 3, discussion of Figure 2",
                         sp.Integer(5), False, None, False, ((s["d3"] - 1, "=="), (s["c2"], ">"))),
    ]


