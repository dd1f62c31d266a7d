"""A corrected closed-form PDL for n-card Kuhn poker, and its exact check.

Ganzfried (2022, section 6.2, Appendix C.2) prints a parametric decision list
for n-card Kuhn poker that is not an equilibrium for any n (see
``derivations.ganzfried2022.kuhn_printed.ganzfried_behaviour`` and outputs/kuhn/errata.md).
This module states the corrected list and checks it exactly for any n in
O(n) time.

Form of every rule (the same reading as the printed list): a *lower* rule
with threshold t plays the aggressive action always with cards x <= floor(t)
and, if t is not an integer, with card ceil(t) with probability
t - floor(t); an *upper* rule plays it always with x >= ceil(t) and with
floor(t) with probability ceil(t) - t.  With ``k = ceil((n-1)/6)``:

=========================  =====================================================
A opens with a bet          lower ``(n-3+2k)/12`` (bluff) or upper ``(3n+7-2k)/4``
A calls after check-bet     upper ``(n+5+2k)/4``
B calls a bet               upper ``(n+5)/3``
B bets after a check        lower ``(n-1)/6`` (bluff) or upper ``(n+3)/2``
=========================  =====================================================

Derivation (threshold ansatz; each equation is an indifference of the player
whose card sits on a mixed threshold).  Write beta for A's bluffing mass and
3·beta for A's value-betting mass (the 1:3 ratio leaves every middle card of
B indifferent between calling and folding: calling wins 2 against beta
bluffs and loses 2 against 3·beta value bets, folding loses 1 against
4·beta), gamma for A's calling mass counted from the top.  B's gain from
betting rather than checking with a bluffing card y below all of A's calls
is, in A's payoff, ``3·(gamma - 3·beta) - 2·(n - y - 3·beta)`` (A calls and
wins 2 more, or folds and loses the showdown's 1 plus 1); it vanishes on
B's mixed bluffing card ``y = k`` when ``gamma - beta = 2(n-k)/3``.  B's
gain from betting a middle card ``y`` that A calls is
``(n - y - 3·beta) - (gamma - n + y - 1)``; it vanishes on B's mixed value
card ``y = (n+2)/2`` (n even) when ``gamma + 3·beta = n - 1``.  Solving gives
``beta = (n-3+2k)/12`` and ``gamma = (3n-1-2k)/4``; for odd n the second
equation becomes an interval (B's value threshold is an integer) and the
list takes its midpoint, so one formula serves every n.  B's thresholds
make A's middle cards indifferent in the same way (B bluffs with (n-1)/6
cards against (n-1)/2 value bets, so A's middle cards call 3·(n-1)/6 =
(n-1)/2).  None of this is trusted: :func:`exact_bounds` proves the list
optimal for a given n by exact best responses on both sides, and
:mod:`derivations.ganzfried2022.kuhn_proof` proves it for every n with n symbolic.

Families: within the threshold form A's optimal lists are, for odd n, all
``beta`` in ``[(n-6+2k)/12, (n+2k)/12]`` with ``gamma - beta = 2(n-k)/3`` (and
for n = 1 mod 6 also ``gamma - beta`` anywhere in ``[2(n-k-1)/3, 2(n-k)/3]``,
``gamma + 3·beta`` in ``[n-2, n]``); for even n the list is the only one
of this form.  At n = 3 this is Kuhn's family (beta in [0, 1/3]).  The optimal strategies outside the threshold form (A
checking the best card as a trap, for example) are many more.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import accumulate
from typing import Mapping, Sequence

import sympy as sp

from symgame.engine.induce import N as _N
from symgame.engine.induce import ResidueFormula, induce_residue_formula
from symgame.games.kuhn import SOURCE, threshold_behaviours

Behaviour = Mapping[str, Mapping[str, Fraction]]


@dataclass(frozen=True)
class KuhnPDL:
    """Thresholds of the corrected n-card list (cards 1..n, 1 lowest)."""

    cards: int
    a_bluff: Fraction      # lower rule: A bets
    a_value: Fraction      # upper rule: A bets
    a_call: Fraction       # upper rule: A calls after check-bet
    b_call: Fraction       # upper rule: B calls a bet
    b_bluff: Fraction      # lower rule: B bets after a check
    b_value: Fraction      # upper rule: B bets after a check

    def rules(self) -> list[tuple[str, str, str, Fraction]]:
        """``(player, situation, lower|upper, threshold)`` rows, in table order."""
        return [("A", "opens: bet", "lower", self.a_bluff), ("A", "opens: bet", "upper", self.a_value),
                ("A", "after check-bet: call", "upper", self.a_call), ("B", "facing a bet: call", "upper", self.b_call),
                ("B", "after a check: bet", "lower", self.b_bluff), ("B", "after a check: bet", "upper", self.b_value)]


def bluff_card(cards: int) -> int:
    """k = ceil((n-1)/6): B's last (possibly mixed) bluffing card."""
    return -(-(cards - 1) // 6)


K = sp.Symbol("k", integer=True, positive=True)
#: The thresholds of the corrected list in n and k = ceil((n-1)/6) (module docstring), keyed by KuhnPDL field.
THRESHOLDS: dict[str, sp.Expr] = {
    "a_bluff": (_N - 3 + 2 * K) / 12, "a_value": (3 * _N + 7 - 2 * K) / 4, "a_call": (_N + 5 + 2 * K) / 4,
    "b_call": (_N + 5) / 3, "b_bluff": (_N - 1) / 6, "b_value": (_N + 3) / 2,
}


@lru_cache(maxsize=None)
def _coefficients(name: str) -> tuple[Fraction, Fraction, Fraction]:
    """``(a, b, c)`` with threshold ``name`` = a·n + b·k + c (read once from :data:`THRESHOLDS`)."""
    poly = sp.Poly(THRESHOLDS[name], _N, K)
    if poly.total_degree() > 1:
        raise ValueError(f"threshold {name} is not affine in n and k")
    coeff = {e: Fraction(int(sp.Rational(c).p), int(sp.Rational(c).q)) for e, c in poly.terms()}
    return coeff.get((1, 0), Fraction(0)), coeff.get((0, 1), Fraction(0)), coeff.get((0, 0), Fraction(0))


def corrected_pdl(cards: int) -> KuhnPDL:
    """The corrected list at one deck size: :data:`THRESHOLDS` at n = ``cards``."""
    if not isinstance(cards, int) or cards < 3:
        raise ValueError(f"the closed form is stated for n >= 3 cards, got {cards!r}")
    k = bluff_card(cards)
    values = {}
    for name in THRESHOLDS:
        a, b, c = _coefficients(name)
        values[name] = a * cards + b * k + c
    return KuhnPDL(cards, **values)


def behaviours(pdl: KuhnPDL) -> tuple[dict, dict]:
    """Behaviour strategies of A and B, keyed like :func:`symgame.games.kuhn.build_game`'s information sets."""
    return threshold_behaviours(pdl.cards, pdl.a_bluff, pdl.a_value, pdl.a_call, pdl.b_call, pdl.b_bluff,
                                pdl.b_value)


# ---------------------------------------------------------------------------
# exact best responses in O(n) (prefix sums over the opponent's cards)
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class ExactBounds:
    """A's payoff when B best-responds to A (``lower``) and when A best-responds to B (``upper``)."""

    cards: int
    lower: Fraction
    upper: Fraction

    @property
    def certified(self) -> bool:
        return self.lower == self.upper


def _prefix(values: Sequence[int]) -> list[int]:
    return [0] + list(accumulate(values))


def _scaled_columns(behaviour: Behaviour, keys: Sequence[tuple[str, str]], cards: int) -> tuple[int, list[list[int]]]:
    """Columns of probabilities as integers over their common denominator ``scale``.

    Integer prefix sums keep the best responses exact and about ten times
    faster than rational arithmetic.
    """
    columns = [[_fraction(behaviour[key.format(c)][action]) for c in range(1, cards + 1)] for key, action in keys]
    scale = math.lcm(*(p.denominator for column in columns for p in column))
    return scale, [[p.numerator * (scale // p.denominator) for p in column] for column in columns]


def _fraction(p) -> Fraction:
    return p if isinstance(p, Fraction) else Fraction(p)


def value_against_best_b(cards: int, a: Behaviour) -> Fraction:
    """A's payoff when B best-responds card by card (deal probability 1/(n(n-1)) each)."""
    n = cards
    s, (bet, call) = _scaled_columns(a, (("A:{}:open", "bet"), ("A:{}:check-bet", "call")), n)
    checked = [s - p for p in bet]                              # scale s
    check_call = [w * c for w, c in zip(checked, call)]          # scale s^2
    pb, pw, pc = _prefix(bet), _prefix(checked), _prefix(check_call)
    total = 0                                                   # scale s^2
    for i in range(n):   # B holds card i + 1
        low_b, high_b = pb[i], pb[n] - pb[i + 1]
        low_w, high_w = pw[i], pw[n] - pw[i + 1]
        low_c, high_c = pc[i], pc[n] - pc[i + 1]
        facing_bet = min(2 * (high_b - low_b), low_b + high_b)                          # call, fold
        after_check = min(3 * high_c - low_c - s * (low_w + high_w), s * (high_w - low_w))  # bet, check
        total += s * facing_bet + after_check
    return Fraction(total, s * s * n * (n - 1))


def value_against_best_a(cards: int, b: Behaviour) -> Fraction:
    """A's payoff when A best-responds card by card."""
    n = cards
    s, (call, bet) = _scaled_columns(b, (("B:{}:bet", "call"), ("B:{}:check", "bet")), n)
    pd, pe = _prefix(call), _prefix(bet)
    total = 0                                                   # scale s
    for i in range(n):   # A holds card i + 1: i cards below, n - 1 - i above
        low_d, high_d = pd[i], pd[n] - pd[i + 1]
        low_e, high_e = pe[i], pe[n] - pe[i + 1]
        open_bet = s * (n - 1) + low_d - 3 * high_d                 # fold: +1, call: +-2
        check = s * (2 * i - n + 1) - low_e + high_e + max(2 * (low_e - high_e), -(low_e + high_e))
        total += max(open_bet, check)
    return Fraction(total, s * n * (n - 1))


def exact_bounds(cards: int, a: Behaviour, b: Behaviour) -> ExactBounds:
    """Both best-response values; equal bounds prove both strategies optimal and give the value."""
    return ExactBounds(cards, value_against_best_b(cards, a), value_against_best_a(cards, b))


@dataclass(frozen=True)
class ClosedFormCheck:
    """The corrected list at one n: its exact value, and how much each side can be exploited."""

    cards: int
    value: Fraction
    exploitability_a: Fraction
    exploitability_b: Fraction


def check_corrected(cards: int, value: Fraction | None = None) -> ClosedFormCheck:
    """Exploitability of the corrected list against ``value`` (default: the induced value formula)."""
    value = value_formula()(cards) if value is None else value
    bounds = exact_bounds(cards, *behaviours(corrected_pdl(cards)))
    return ClosedFormCheck(cards, value, value - bounds.lower, bounds.upper - value)


# ---------------------------------------------------------------------------
# the value in closed form, induced from certified values
# ---------------------------------------------------------------------------
INDUCTION_DECKS = range(3, 51)


@lru_cache(maxsize=1)
def value_formula() -> ResidueFormula:
    """``n(n-1)·value(n)`` as a quasi-polynomial, induced from the list's certified values for n = 3..50.

    Each sample is a value proved by equal exact bounds (:func:`exact_bounds`);
    the induced formula is then checked far beyond the samples (tests,
    outputs/kuhn/closed_form_check.csv).
    """
    samples = {}
    for n in INDUCTION_DECKS:
        bounds = exact_bounds(n, *behaviours(corrected_pdl(n)))
        if not bounds.certified:
            raise RuntimeError(f"n = {n}: the corrected list is not certified ({bounds.lower} < {bounds.upper})")
        samples[n] = bounds.lower * n * (n - 1)
    scaled = induce_residue_formula(samples, max_modulus=12, max_degree=2)
    return ResidueFormula(scaled.modulus, scaled.degree,
                          tuple(p / (_N * (_N - 1)) for p in scaled.polynomials), scaled.samples_used)


# ---------------------------------------------------------------------------
# A's family of threshold-form lists
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class ThresholdFamily:
    """A's optimal threshold-form lists at one n: bluff mass beta and calling mass gamma.

    A bets with the lowest ``beta`` and the highest ``3·beta`` cards and calls
    with the highest ``gamma``; optimal exactly when ``beta_low <= beta <=
    beta_high``, ``spread_low <= gamma - beta <= spread_high`` and
    ``total_low <= gamma + 3·beta <= total_high``.
    """

    cards: int
    spread_low: Fraction
    spread_high: Fraction
    total_low: Fraction
    total_high: Fraction

    @property
    def beta_low(self) -> Fraction:
        return max(Fraction(0), (self.total_low - self.spread_high) / 4)

    @property
    def beta_high(self) -> Fraction:
        """At n = 3 the value bets run out of cards first: Kuhn's family, beta <= 1/3."""
        high = (self.total_high - self.spread_low) / 4
        return min(high, Fraction(1, 3)) if self.cards == 3 else high

    @property
    def unique(self) -> bool:
        return self.spread_low == self.spread_high and self.total_low == self.total_high


def threshold_family(cards: int) -> ThresholdFamily:
    """The family of A's optimal threshold-form lists (module docstring; checked in the tests)."""
    n, k = cards, bluff_card(cards)
    spread_high = Fraction(2 * (n - k), 3)
    spread_low = spread_high - Fraction(2, 3) if (n - 1) % 6 == 0 else spread_high
    total = (Fraction(n - 2), Fraction(n)) if n % 2 else (Fraction(n - 1), Fraction(n - 1))
    return ThresholdFamily(n, spread_low, spread_high, *total)


def a_threshold_list(cards: int, beta: Fraction, gamma: Fraction) -> dict:
    """A's behaviour for bluff mass ``beta`` and calling mass ``gamma`` (thresholds counted from the ends)."""
    n = cards
    pdl = corrected_pdl(n)
    a, _ = threshold_behaviours(n, beta, n + 1 - 3 * beta, n + 1 - gamma, pdl.b_call, pdl.b_bluff, pdl.b_value)
    return a


__all__ = ["SOURCE", "KuhnPDL", "corrected_pdl", "behaviours", "exact_bounds", "check_corrected",
           "value_formula", "threshold_family", "a_threshold_list", "ExactBounds", "ClosedFormCheck",
           "ThresholdFamily", "bluff_card", "THRESHOLDS"]
