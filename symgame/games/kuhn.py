"""Generalized (n-card) Kuhn poker (Ganzfried 2022, section 6.2 and Appendix C).

Two players ante 1; each gets one card from 1..n (1 lowest) without
replacement.  A checks or bets 1; facing a bet B calls or folds; after a
check B checks or bets 1; facing that bet A calls or folds.  Showdowns go to
the higher card.  Payoffs are A's net winnings.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Mapping

from ..model.extensive import Chance, DecisionNode, ExtensiveGame, Terminal
from ..model.sequence_form import SequenceForm, build_sequence_form, realization_plan
from ..numeric.sequence_lp import solve_sequence_form
from ..references import cite
from ..verify.best_response import best_response_value, certify_value

SOURCE = cite("ganzfried2022", "section 6.2 and Appendix C")


_TERMINALS = {k: Terminal(Fraction(k)) for k in (-2, -1, 1, 2)}


@lru_cache(maxsize=None)
def _b_facing_bet(y: int, sign: int) -> DecisionNode:
    return DecisionNode(1, f"B:{y}:bet", (("call", _TERMINALS[2 * sign]), ("fold", _TERMINALS[1])))


@lru_cache(maxsize=None)
def _a_facing_bet(x: int, sign: int) -> DecisionNode:
    return DecisionNode(0, f"A:{x}:check-bet", (("call", _TERMINALS[2 * sign]), ("fold", _TERMINALS[-1])))


def betting_subtree(x: int, y: int) -> DecisionNode:
    """The betting after A holds ``x`` and B holds ``y`` (A's net payoffs).

    Subtrees that do not depend on both cards are shared between deals.
    """
    sign = 1 if x > y else -1
    facing_check = DecisionNode(1, f"B:{y}:check", (("bet", _a_facing_bet(x, sign)), ("check", _TERMINALS[sign])))
    return DecisionNode(0, f"A:{x}:open", (("bet", _b_facing_bet(y, sign)), ("check", facing_check)))


def build_game(cards: int) -> ExtensiveGame:
    """The n-card Kuhn poker tree (n >= 2)."""
    if not isinstance(cards, int) or cards < 2:
        raise ValueError(f"Kuhn poker needs at least 2 cards, got {cards!r}")
    deal = Fraction(1, cards * (cards - 1))
    outcomes = tuple((deal, betting_subtree(x, y)) for x in range(1, cards + 1)
                     for y in range(1, cards + 1) if x != y)
    return ExtensiveGame(f"kuhn_{cards}", ("A", "B"), Chance(outcomes),
                         description=f"{cards}-card Kuhn poker, ante 1, bet 1 ({SOURCE}).")


# ---------------------------------------------------------------------------
# threshold rules ("always if card <= t; card = ceil(t) with probability t - floor(t)")
# ---------------------------------------------------------------------------
def _lower_rule(card: int, threshold: Fraction) -> Fraction:
    """'always if card <= floor(t); if t is not an integer, card = ceil(t) with
    probability t - floor(t)'."""
    if card <= math.floor(threshold):
        return Fraction(1)
    if threshold.denominator != 1 and card == math.ceil(threshold):
        return threshold - math.floor(threshold)
    return Fraction(0)


def _upper_rule(card: int, threshold: Fraction) -> Fraction:
    """'always if card >= ceil(t); if t is not an integer, card = floor(t) with
    probability ceil(t) - t'."""
    if card >= math.ceil(threshold):
        return Fraction(1)
    if threshold.denominator != 1 and card == math.floor(threshold):
        return math.ceil(threshold) - threshold
    return Fraction(0)


def threshold_behaviours(cards: int, a_bluff: Fraction, a_value: Fraction, a_call: Fraction,
                         b_call: Fraction, b_bluff: Fraction, b_value: Fraction) -> tuple[dict, dict]:
    """Behaviour strategies of a list of six threshold rules (lower rule for bluffs, upper rules otherwise).

    A bets with ``_lower_rule(x, a_bluff)`` or ``_upper_rule(x, a_value)`` and
    calls after check-bet with ``_upper_rule(x, a_call)``; B calls with
    ``_upper_rule(y, b_call)`` and bets after a check with
    ``_lower_rule(y, b_bluff)`` or ``_upper_rule(y, b_value)``.
    """
    # each rule is 0 or 1 except at one card: evaluate it there only (the same numbers as the rules, far
    # fewer Fractions made: the closed-form check runs this for every deck size up to 1000)
    def lower(t: Fraction) -> list[Fraction]:
        edge = math.ceil(t)
        return [_lower_rule(x, t) if x == edge else (_ONE if x < edge else _ZERO) for x in range(cards + 1)]

    def upper(t: Fraction) -> list[Fraction]:
        edge = math.floor(t)
        return [_upper_rule(x, t) if x == edge else (_ONE if x > edge else _ZERO) for x in range(cards + 1)]

    a_bets = [max(u, v) for u, v in zip(lower(a_bluff), upper(a_value))]
    a_calls = upper(a_call)
    b_calls = upper(b_call)
    b_bets = [max(u, v) for u, v in zip(lower(b_bluff), upper(b_value))]
    a, b = {}, {}
    for x in range(1, cards + 1):
        a[f"A:{x}:open"] = {"bet": a_bets[x], "check": _complement(a_bets[x])}
        a[f"A:{x}:check-bet"] = {"call": a_calls[x], "fold": _complement(a_calls[x])}
        b[f"B:{x}:bet"] = {"call": b_calls[x], "fold": _complement(b_calls[x])}
        b[f"B:{x}:check"] = {"bet": b_bets[x], "check": _complement(b_bets[x])}
    return a, b


_ONE, _ZERO = Fraction(1), Fraction(0)


def _complement(p: Fraction) -> Fraction:
    return _ZERO if p is _ONE else _ONE if p is _ZERO else 1 - p


# ---------------------------------------------------------------------------
# exact values and checks
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class KuhnSolution:
    """Certified value and optimal behaviour strategies for one deck size."""

    cards: int
    value: Fraction
    behaviours: tuple[Mapping[str, Mapping[str, Fraction]], Mapping[str, Mapping[str, Fraction]]]
    max_denominator: int


def solve_exactly(cards: int, form: SequenceForm | None = None) -> KuhnSolution:
    """Sequence-form LP, rational rounding, equal exact best-response bounds."""
    form = form or build_sequence_form(build_game(cards))
    certificate = certify_value(form, solve_sequence_form(form).plans)
    if not certificate.certified:
        raise RuntimeError(f"n = {cards}: bounds {certificate.lower} < {certificate.upper} did not meet")
    return KuhnSolution(cards, certificate.value, certificate.behaviours, certificate.max_denominator)


@dataclass(frozen=True)
class PDLCheck:
    """Exact exploitability of each player's strategy in a printed PDL."""

    cards: int
    value: Fraction
    exploitability_a: Fraction
    exploitability_b: Fraction


def check_behaviours(cards: int, value: Fraction, a: dict, b: dict,
                     form: SequenceForm | None = None) -> PDLCheck:
    """How much a best-responding opponent gains against each strategy (0 = optimal)."""
    form = form or build_sequence_form(build_game(cards))
    lower = best_response_value(form, realization_plan(form.players[0], a), responder=1)
    upper = best_response_value(form, realization_plan(form.players[1], b), responder=0)
    return PDLCheck(cards, value, value - lower, upper - value)


def strategy_table(cards: int, behaviours: tuple[Mapping[str, Mapping[str, Fraction]], Mapping[str, Mapping[str, Fraction]]]) -> dict[str, dict[str, dict[str, str]]]:
    """The JSON contract's ``strategy``: probability of the aggressive action per card."""
    a, b = behaviours
    cards_range = range(1, cards + 1)
    return {
        "A": {"bet": {str(x): str(a[f"A:{x}:open"]["bet"]) for x in cards_range},
              "call": {str(x): str(a[f"A:{x}:check-bet"]["call"]) for x in cards_range}},
        "B": {"call": {str(y): str(b[f"B:{y}:bet"]["call"]) for y in cards_range},
              "bet": {str(y): str(b[f"B:{y}:check"]["bet"]) for y in cards_range}},
    }
