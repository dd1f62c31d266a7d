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
        choices: tuple[str, ...]
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


def build_game() -> PolynomialGame:
    """The polynomial game with payoffs from the rules and ``P in [2, oo)``."""
    profits = profits_from_rules()
    players = tuple(PolyPlayer(str(i), VARIABLES[i], profits[i]) for i in (1, 2, 3))
    return PolynomialGame("billingham", (parse_domain("P", "[2, oo)"),), players,
                          "Billingham's simplified three-player Kuhn poker (payoffs from the rules)")


# --------------------------------------------------------------------------- the whole treatment

VARIABLE_ORDER = ("a1", "b1", "c1", "d1", "a2", "b2", "c2", "d2", "b3", "c3", "d3")
SOURCE = cite("billingham2017full", "sections 2-3, eqs. (1)-(18), Figures 1-5")
TITLE = "Simplified three-player Kuhn poker"
NUMERIC_SEED = 2026
NUMERIC_SAMPLES = 8


def numeric_values() -> list:
    """Reproducible random pot sizes for the numeric cross-check, plus the special values."""
    from fractions import Fraction

    rng = __import__("numpy").random.default_rng(NUMERIC_SEED)
    values = {Fraction(2) + Fraction(int(rng.integers(1, 1000)), 250) for _ in range(NUMERIC_SAMPLES)}
    return sorted(values | {Fraction(3), Fraction(7, 2), Fraction(5)})
