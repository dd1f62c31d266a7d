"""Ganzfried (2022), Appendix C.2: the printed n-card Kuhn PDL as read, and its exact exploitability per deck."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from symgame.games.kuhn import (
    KuhnSolution,
    PDLCheck,
    build_game,
    check_behaviours,
    solve_exactly,
    threshold_behaviours,
)
from symgame.model.sequence_form import build_sequence_form


def ganzfried_behaviour(cards: int, call_reading: str = "printed"
                        ) -> tuple[dict[str, dict[str, Fraction]], dict[str, dict[str, Fraction]]]:
    """Behaviour strategies of A and B from the printed n-card PDL.

    Reading (the extraction lost floors, ceilings and relations; see
    outputs/kuhn/errata.md): with n cards numbered 1..n,

    * A opens with a bet: ``_lower_rule(x, (n-1)/9)`` or ``_upper_rule(x, (2n+4)/3)``;
    * B facing a bet calls: ``_upper_rule(y, (n-1)/3)``;
    * B facing a check bets: ``_lower_rule(y, (n-1)/6)`` or ``_upper_rule(y, (n+3)/2)``;
    * A facing check-bet calls: ``_upper_rule(x, (n+5)/3)``.

    ``call_reading="count"`` replaces B's calling threshold by ``(2n+1)/3 =
    n - (n-1)/3``: the proof in Appendix C.3 uses ``(n-1)/3`` as the *number*
    of A's value-betting cards, so a calling threshold counted from the top
    is the charitable reading.

    The 'n != 1 mod k' conditions of the paper are exactly 'the threshold is
    not an integer'.
    """
    n = cards
    call_b = Fraction(n - 1, 3) if call_reading == "printed" else Fraction(2 * n + 1, 3)
    return threshold_behaviours(n, Fraction(n - 1, 9), Fraction(2 * n + 4, 3), Fraction(n + 5, 3),
                                call_b, Fraction(n - 1, 6), Fraction(n + 3, 2))


@dataclass(frozen=True)
class DeckReport:
    """Everything symgame reports for one deck size."""

    solution: KuhnSolution
    printed: PDLCheck
    count_reading: PDLCheck


def deck_report(cards: int) -> DeckReport:
    """Certified value and the exploitability of both readings of the printed PDL."""
    form = build_sequence_form(build_game(cards))
    solution = solve_exactly(cards, form)
    printed = check_behaviours(cards, solution.value, *ganzfried_behaviour(cards, "printed"), form=form)
    count = check_behaviours(cards, solution.value, *ganzfried_behaviour(cards, "count"), form=form)
    return DeckReport(solution, printed, count)
