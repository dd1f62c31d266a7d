"""Billingham's simplified three-player Kuhn poker (Billingham, "Full street simplified three
player Kuhn poker", arXiv:1707.01392, 2017).

The expected profits are compiled from the game tree of the rules (section 2;
:func:`build_tree`, :func:`symgame.model.behaviour_poly.compile_payoffs`),
not copied from the paper: four cards A > K > Q > J,
one to each of three players, pot ``P >= 2``, bets of 1; J must
check/fold; K never bets; after a bet and a call the last player calls only
with A; Player 3 always bets A when checked to (``a3 = 1``).  Frequencies:
``a_i`` bet with A, ``b_i`` bet (bluff) with Q, ``c_i`` call with K as the
first player after a bet, ``d_i`` call with K after a bet and a fold.
Profits are measured net of each player's share ``P/3`` of the pot.
:func:`printed_profits` holds the paper's equations (1)-(3) for comparison.
"""
from __future__ import annotations

import itertools
from fractions import Fraction

import sympy as sp

from ..model.behaviour_poly import compile_payoffs
from ..model.extensive import Chance, DecisionNode, ExtensiveGame, Node, Outcome
from ..model.parameters import parameter_symbol, parse_domain
from ..model.polygame import PolynomialGame, PolyPlayer
from ..references import cite
from ..verify.printed import PrintedSolution, PrintedStatement

RANK = {"A": 4, "K": 3, "Q": 2, "J": 1}
VARIABLES = {1: ("a1", "b1", "c1", "d1"), 2: ("a2", "b2", "c2", "d2"), 3: ("b3", "c3", "d3")}


def _v(name: str) -> sp.Symbol:
    return parameter_symbol(name)


CARD_NAMES = ("A", "K", "Q", "J")


def _leaf(cards: dict, live: list, stakes: dict, P: sp.Expr) -> Outcome:
    """Showdown among ``live`` (or the last player left): the winner takes the pot and every bet.

    Payoffs are net of each player's share ``P/3`` of the pot.
    """
    winner = max(live, key=lambda i: RANK[cards[i]])
    pay = [-stakes[i] - P / 3 for i in (1, 2, 3)]
    pay[winner - 1] += P + sum(stakes.values())
    return Outcome(tuple(pay))


def _respond(cards: dict, bettor: int, P: sp.Expr) -> DecisionNode:
    """After ``bettor`` bets, the next two players call or fold in turn (section 2).

    Forced by the rules and the paper's dominance remarks: A always calls;
    Q and J fold; after a bet and a call the last player calls only with A.
    K chooses: ``c_i`` as the first to respond, ``d_i`` after a fold.
    """
    first, second = bettor % 3 + 1, (bettor + 1) % 3 + 1

    def second_move(first_called: bool) -> DecisionNode:
        situation = "bet-call" if first_called else "bet-fold"
        card = cards[second]
        if card == "A":
            choices = ("call",)
        else:
            choices = ("call", "fold") if card == "K" and not first_called else ("fold",)
        options = []
        for choice in choices:
            live = [bettor] + ([first] if first_called else []) + ([second] if choice == "call" else [])
            stakes = {i: int(i in live) for i in (1, 2, 3)}
            options.append((choice, _leaf(cards, live, stakes, P)))
        return DecisionNode(second - 1, f"P{second}:{card}:{situation}", tuple(options))

    card = cards[first]
    choices = {"A": ("call",), "K": ("call", "fold")}.get(card, ("fold",))
    options = tuple((choice, second_move(choice == "call")) for choice in choices)
    return DecisionNode(first - 1, f"P{first}:{card}:facing-bet", options)


def _opening(cards: dict, actor: int, P: sp.Expr) -> Node:
    """Player ``actor`` checks or bets after everyone before checked; K and J must check."""
    if actor == 4:
        return _leaf(cards, [1, 2, 3], {1: 0, 2: 0, 3: 0}, P)
    card = cards[actor]
    check = _opening(cards, actor + 1, P)
    if card in ("K", "J"):
        return DecisionNode(actor - 1, f"P{actor}:{card}:open", (("check", check),))
    return DecisionNode(actor - 1, f"P{actor}:{card}:open", (("bet", _respond(cards, actor, P)), ("check", check)))


def build_tree() -> ExtensiveGame:
    """The game tree of section 2: 24 equally likely deals, then the betting."""
    P = _v("P")
    deals = tuple((Fraction(1, 24), _opening(dict(zip((1, 2, 3), deal)), 1, P))
                  for deal in itertools.permutations(CARD_NAMES, 3))
    return ExtensiveGame("billingham", ("1", "2", "3"), Chance(deals),
                         description="Billingham's simplified three-player Kuhn poker, pot P, bets of 1")


#: Billingham's names for the frequencies: the first action of each information set.
FREQUENCY_NAMES = {
    **{f"P{i}:A:open": f"a{i}" for i in (1, 2, 3)}, **{f"P{i}:Q:open": f"b{i}" for i in (1, 2, 3)},
    **{f"P{i}:K:facing-bet": f"c{i}" for i in (1, 2, 3)}, **{f"P{i}:K:bet-fold": f"d{i}" for i in (1, 2, 3)},
}


def profits_from_rules(a3: sp.Expr = sp.Integer(1)) -> dict[int, sp.Expr]:
    """``E_1, E_2, E_3`` compiled from the game tree (:func:`build_tree`).

    ``a3`` is Player 3's frequency of betting an A when checked to (the
    paper fixes it to 1; pass a symbol to keep it).
    """
    names = {k: v for k, v in FREQUENCY_NAMES.items() if k != "P3:A:open"}
    compiled = compile_payoffs(build_tree(), names, fixed={"P3:A:open": a3})
    return {i: compiled.payoffs[i - 1] for i in (1, 2, 3)}


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


def build_game() -> PolynomialGame:
    """The polynomial game with payoffs from the rules and ``P in [2, oo)``."""
    profits = profits_from_rules()
    players = tuple(PolyPlayer(str(i), VARIABLES[i], profits[i]) for i in (1, 2, 3))
    return PolynomialGame("billingham", (parse_domain("P", "[2, oo)"),), players,
                          "Billingham's simplified three-player Kuhn poker (payoffs from the rules)")


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


VARIABLE_ORDER = ("a1", "b1", "c1", "d1", "a2", "b2", "c2", "d2", "b3", "c3", "d3")


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


# --------------------------------------------------------------------------- the whole treatment

SOURCE = cite("billingham2017full", "sections 2-3, eqs. (1)-(18), Figures 1-5")
TITLE = "Simplified three-player Kuhn poker"
NUMERIC_SEED = 2026
NUMERIC_SAMPLES = 8


def printed_profits_agree() -> bool:
    """Whether the profits from the rules equal the printed equations (1)-(3) identically."""
    derived, printed = profits_from_rules(), printed_profits()
    return all(sp.expand(derived[i] - printed[i]) == 0 for i in derived)


def numeric_values() -> list:
    """Reproducible random pot sizes for the numeric cross-check, plus the special values."""
    from fractions import Fraction

    rng = __import__("numpy").random.default_rng(NUMERIC_SEED)
    values = {Fraction(2) + Fraction(int(rng.integers(1, 1000)), 250) for _ in range(NUMERIC_SAMPLES)}
    return sorted(values | {Fraction(3), Fraction(7, 2), Fraction(5)})
