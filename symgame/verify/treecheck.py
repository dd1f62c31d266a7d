"""Independent checks of a parametric tree solution at rational points of each piece.

At a rational point ``t`` inside every piece the tree's sequence form is evaluated exactly, and

* the piece's two realization plans are checked by exact best responses (backward induction over the
  opponent's information sets, :func:`~symgame.verify.best_response.best_response_value`): each concedes
  exactly the piece's value, so both regrets are 0;
* the value is compared with an independent HiGHS solution of the sequence-form LP at ``t``, itself
  certified by exact best responses (:func:`~symgame.verify.best_response.certify_value`).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import sympy as sp

from ..engine.parametric_lp import ParametricTreeSolution, _sample
from ..numeric.sequence_lp import solve_sequence_form
from .best_response import best_response_value, certify_value


@dataclass(frozen=True)
class PointCheck:
    """One rational point: the piece's value there, both exact best responses and the independent LP's."""

    piece: int
    point: Fraction
    value: Fraction
    guaranteed: Fraction              # player 1's best response to player 0's plan
    conceded: Fraction                # player 0's best response to player 1's plan
    independent: Fraction | None      # the certified LP value (None if the LP could not be certified)

    @property
    def passed(self) -> bool:
        return self.guaranteed == self.value == self.conceded and self.independent == self.value


def _fraction(x: sp.Expr) -> Fraction:
    x = sp.nsimplify(x)
    return Fraction(int(sp.numer(x)), int(sp.denom(x)))


def check_pieces(solution: ParametricTreeSolution) -> list[PointCheck]:
    """One :class:`PointCheck` per piece, at a rational point inside it (at the point of a one-point domain)."""
    form = solution.form
    t = form.parameter
    out = []
    for k, piece in enumerate(solution.pieces):
        point = piece.lower if piece.lower == piece.upper else _sample(piece.lower, piece.upper)
        at = {t: point}
        numeric = form.at(_fraction(point))
        plans = [[_fraction(v.subs(at)) for v in plan] for plan in piece.plans]
        value = _fraction(piece.value.subs(at))
        guaranteed = best_response_value(numeric, plans[0], responder=1)
        conceded = best_response_value(numeric, plans[1], responder=0)
        cert = certify_value(numeric, solve_sequence_form(numeric).plans)
        out.append(PointCheck(k, _fraction(point), value, guaranteed, conceded, cert.lower if cert.certified else None))
    return out
