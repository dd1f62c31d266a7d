"""Buck et al. (2022): the printed Propositions 3.1, 3.2, B.2, B.3 against the closed forms derived from the rules."""
from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from symgame.games.guts import alpha_exact, beta_exact

# --------------------------------------------------------------------------- the printed propositions

def printed_alpha(n: int, weenie: bool = False) -> dict[tuple[int, ...], sp.Expr]:
    """Propositions 3.1, 3.2 (standard) and B.2, B.3 (Weenie) as printed, by ordering of the thresholds."""
    p1, p2, p3 = sp.symbols("p1 p2 p3", real=True)
    if n == 2 and not weenie:
        return {(1, 0): (1 - 2 * p1) * (p1 - p2), (0, 1): (1 - 2 * p2) * (p1 - p2)}
    if n == 2:
        return {(1, 0): (1 - 2 * p1 - p2) * (p1 - p2), (0, 1): (1 - 2 * p2 - p1) * (p1 - p2)}
    if not weenie:
        return {
            (0, 1, 2): 2 * p1 - p2 - p3 + p3**3 + 3 * p2**2 * p3 - 4 * p1 * p2 * p3,
            (0, 2, 1): 2 * p1 - p3 - p2 + p2**3 + 3 * p3**2 * p2 - 4 * p1 * p2 * p3,
            (1, 0, 2): 2 * p1 - p2 - p3 + p3**3 - 3 * p1**2 * p3 + 2 * p1 * p2 * p3,
            (2, 0, 1): 2 * p1 - p2 - p3 + p2**3 - 3 * p1**2 * p2 + 2 * p1 * p2 * p3,
            (1, 2, 0): 2 * p1 - p2 - p3 - 2 * p1**3 + 2 * p1 * p2 * p3,
            (2, 1, 0): 2 * p1 - p2 - p3 - 2 * p1**3 + 2 * p1 * p2 * p3,
        }
    R = sp.Rational
    return {
        (0, 1, 2): 2 * p1 - p2 - p3 + p3**3 - p1**3 + 3 * p2**2 * p3 - 3 * p1 * p2 * p3,
        (0, 2, 1): 2 * p1 - p2 - p3 + p2**3 - p1**3 + 3 * p3**2 * p2 - 3 * p1 * p2 * p3,
        (1, 0, 2): 2 * p1 - p2 - p3 + p2**3 * R(1, 2) + p3**3 - 3 * p1**2 * p2 * R(1, 2) - 3 * p1**2 * p3
        + 3 * p1 * p2 * p3,
        (2, 0, 1): 2 * p1 - p3 - p2 + p3**3 * R(1, 2) + p2**3 - 3 * p1**2 * p3 * R(1, 2) - 3 * p1**2 * p2
        + 3 * p1 * p2 * p3,
        (1, 2, 0): 2 * p1 - p3 - p2 - 2 * p1**3 + p2**3 * R(1, 2) + 3 * p2 * p3**2 * R(1, 2),
        (2, 1, 0): 2 * p1 - p3 - p3 - 2 * p1**3 + p3**3 * R(1, 2) + 3 * p3 * p2**2 * R(1, 2),
    }


def printed_beta(n: int) -> sp.Expr:
    p1, p2, p3 = sp.symbols("p1 p2 p3", real=True)
    if n == 2:
        return p1 * p2 + (1 - p1) * (1 - p2)
    return 2 - p1 - p2 - p3 + 2 * p1 * p2 * p3


@dataclass(frozen=True)
class PropositionCheck:
    """The derived α (or β) against a printed formula on one ordering of the thresholds."""

    proposition: str
    ordering: str
    printed: sp.Expr
    derived: sp.Expr

    @property
    def agrees(self) -> bool:
        return sp.expand(self.printed - self.derived) == 0


def check_propositions() -> list[PropositionCheck]:
    """Propositions 3.1, 3.2, B.2 and B.3 against the closed forms derived from the rules."""
    out = []
    for n, weenie, name in ((2, False, "3.1"), (3, False, "3.2"), (2, True, "B.2"), (3, True, "B.3")):
        p = sp.symbols(" ".join(f"p{k + 1}" for k in range(n)), real=True)
        for order, printed in printed_alpha(n, weenie).items():
            text = " < ".join(f"p{k + 1}" for k in order)
            out.append(PropositionCheck(f"{name} (alpha)", text, sp.expand(printed), alpha_exact(p, order, weenie)))
        out.append(PropositionCheck(f"{name} (beta)", "all", sp.expand(printed_beta(n)), beta_exact(p, weenie)))
    return out


