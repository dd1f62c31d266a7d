"""Exact best responses in the sequence form, and certified game values.

For a fixed realization plan of one player, the opponent's best-response
value is computed by backward induction over the opponent's information
sets (children before parents) with exact rationals.  If player 0's plan
guarantees ``lower`` and player 1's plan concedes at most ``upper`` and the
two are equal, both plans are optimal and the value is certified.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Mapping, Sequence

import numpy as np
from flint import fmpq

from ..model.expr import to_fmpq, to_fraction
from ..model.sequence_form import PlayerSequences, SequenceForm, realization_plan


def best_response_value(form: SequenceForm, plan: Sequence[Fraction], responder: int) -> Fraction:
    """Player 0's payoff when ``responder`` best-responds to the other player's ``plan``.

    The responder minimises (player 1) or maximises (player 0) player 0's payoff.
    """
    own = form.players[responder]
    weights = [to_fmpq(w) for w in plan]
    values = [fmpq(0)] * len(own.sequences)
    for s0, s1, u in form.payoff_entries():
        fixed, mine = (s0, s1) if responder == 1 else (s1, s0)
        weight = weights[fixed]
        if weight:
            values[mine] += weight * u
    choose = min if responder == 1 else max
    for infoset in reversed(own.infosets):
        values[own.parent[infoset]] += choose(values[c] for c in own.children(infoset))
    return to_fraction(values[0])


def behaviour_from_plan(own: PlayerSequences, plan: np.ndarray, max_denominator: int) -> dict[str, dict[str, Fraction]]:
    """Rational behaviour strategy read off a floating-point realization plan."""
    behaviour = {}
    for infoset in own.infosets:
        reach = float(plan[own.parent[infoset]])
        children = own.children(infoset)
        labels = own.actions[infoset]
        if reach > 1e-9:
            probs = [max(float(plan[c]) / reach, 0.0) for c in children]
        else:
            probs = [1.0] + [0.0] * (len(children) - 1)
        rounded = [Fraction(p).limit_denominator(max_denominator) for p in probs[:-1]]
        rounded.append(1 - sum(rounded, Fraction(0)))
        if rounded[-1] < 0:
            rounded = [Fraction(1) if k == int(np.argmax(probs)) else Fraction(0) for k in range(len(probs))]
        behaviour[infoset] = dict(zip(labels, rounded))
    return behaviour


@dataclass(frozen=True)
class CertifiedValue:
    """Exact bounds from both sides; ``certified`` when they meet."""

    lower: Fraction
    upper: Fraction
    behaviours: tuple[Mapping[str, Mapping[str, Fraction]], Mapping[str, Mapping[str, Fraction]]]
    max_denominator: int
    #: ``"rounded"``: behaviour probabilities rounded to denominators up to :attr:`max_denominator`;
    #: ``"optimal face"``: plans solved exactly on the float solution's face
    #: (:func:`symgame.verify.sequence_face.exact_face_plan`; :attr:`max_denominator` is then 0).
    method: str = "rounded"

    @property
    def certified(self) -> bool:
        return self.lower == self.upper

    @property
    def value(self) -> Fraction:
        if not self.certified:
            raise ValueError("value not certified")
        return self.lower


def certify_value(form: SequenceForm, plans: tuple[np.ndarray, np.ndarray],
                  denominators: Sequence[int] = (12, 100, 1000, 10**4, 10**5, 10**6),
                  face: bool = True) -> CertifiedValue:
    """Round both LP plans to rationals until exact best responses give equal bounds; when no rounding does,
    solve both plans exactly on the float solution's face (:mod:`symgame.verify.sequence_face`).

    The bounds are always exact best-response values of exact plans, so ``certified`` is a proof whichever
    way the plans were found. ``face=False`` tries the roundings only.
    """
    from .sequence_face import exact_face_plan

    best: CertifiedValue | None = None
    for limit in denominators:
        behaviours = tuple(behaviour_from_plan(form.players[p], plans[p], limit) for p in (0, 1))
        exact = [realization_plan(form.players[p], behaviours[p]) for p in (0, 1)]
        lower = best_response_value(form, exact[0], responder=1)
        upper = best_response_value(form, exact[1], responder=0)
        best = CertifiedValue(lower, upper, (behaviours[0], behaviours[1]), limit)
        if lower == upper:
            return best
    if best is None:
        raise ValueError("no denominators to try")
    if not face:
        return best
    found = [exact_face_plan(form, p, plans[p]) for p in (0, 1)]
    if found[0] is not None and found[1] is not None:
        lower = best_response_value(form, found[0], responder=1)
        upper = best_response_value(form, found[1], responder=0)
        if lower == upper:
            return CertifiedValue(lower, upper, (exact_behaviour(form.players[0], found[0]),
                                                 exact_behaviour(form.players[1], found[1])), 0, "optimal face")
    return best


def exact_behaviour(own: PlayerSequences, plan: Sequence[Fraction]) -> dict[str, dict[str, Fraction]]:
    """The behaviour strategy of an exact realization plan (an information set the plan never reaches plays
    its first action).

    Parameters
    ----------
    own : PlayerSequences
    plan : sequence of Fraction

    Returns
    -------
    dict
        Information set -> action -> probability.

    Examples
    --------
    >>> from symgame.games.kuhn import build_game
    >>> from symgame.model.sequence_form import build_sequence_form
    >>> own = build_sequence_form(build_game(2)).players[0]
    >>> plan = realization_plan(own, {i: {a: Fraction(1, len(own.actions[i])) for a in own.actions[i]}
    ...                               for i in own.infosets})
    >>> exact_behaviour(own, plan)[own.infosets[0]]
    {'bet': Fraction(1, 2), 'check': Fraction(1, 2)}
    """
    behaviour = {}
    for infoset in own.infosets:
        reach = Fraction(plan[own.parent[infoset]])
        labels = own.actions[infoset]
        if reach:
            behaviour[infoset] = {a: Fraction(plan[c]) / reach for a, c in zip(labels, own.children(infoset))}
        else:
            behaviour[infoset] = {a: Fraction(int(k == 0)) for k, a in enumerate(labels)}
    return behaviour
