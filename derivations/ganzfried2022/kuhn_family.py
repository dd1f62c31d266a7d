"""The whole equilibrium set of 3-card Kuhn poker, from the case-splitting engine.

Issue: Gambit's all-equilibria solvers give no result on this game in
minutes; Kuhn (1950) found A's one-parameter family by hand.  Here the game
tree (:func:`symgame.games.kuhn.build_game`) is compiled to polynomial
payoffs in the twelve behaviour probabilities
(:func:`symgame.model.behaviour_poly.compile_payoffs`), the atlas engine
enumerates all 3^12 best-response cases, and every family it returns is
refined from agent-form to Nash equilibria by vertex deviations
(:mod:`symgame.verify.nashrefine`), then certified by z3 and checked against
the sequence-form LP.

Names: ``b{x}`` A bets with card x; ``c{x}`` A calls after check-bet;
``d{y}`` B calls a bet; ``e{y}`` B bets after a check.  The game has no
parameter; the engine gets a dummy parameter ``t`` on [0, 1] that no payoff
uses (as for the Jacob game), so every family is valid for every ``t``.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Sequence

import numpy as np
import sympy as sp

from symgame.engine.atlas import Atlas, build_atlas, serial_map
from symgame.games.kuhn import build_game, check_behaviours
from symgame.model.behaviour_poly import compile_payoffs
from symgame.model.parameters import parse_domain
from symgame.model.polygame import PolynomialGame, PolyPlayer
from symgame.model.sequence_form import build_sequence_form
from symgame.numeric.sequence_lp import optimal_face_point, solve_sequence_form
from symgame.verify.best_response import behaviour_from_plan
from symgame.verify.nashrefine import FreeRange, family_witness, free_variable_ranges, refine_to_nash
from symgame.verify.polycert import ProfileSet, certify_profile_set, exact_regret

ACTION_NAMES = {"open": ("b", "A"), "check-bet": ("c", "A"), "bet": ("d", "B"), "check": ("e", "B")}


def variable_names(cards: int) -> dict[str, str]:
    """Information set -> variable (probability of its first action: bet, call, call, bet)."""
    names = {}
    for x in range(1, cards + 1):
        for situation, (letter, player) in ACTION_NAMES.items():
            names[f"{player}:{x}:{situation}"] = f"{letter}{x}"
    return names


def polynomial_game(cards: int = 3) -> PolynomialGame:
    """The n-card Kuhn tree compiled to a polynomial game (dummy parameter ``t``)."""
    compiled = compile_payoffs(build_game(cards), variable_names(cards))
    players = tuple(PolyPlayer(name, variables, payoff)
                    for name, variables, payoff in zip(compiled.players, compiled.variables, compiled.payoffs))
    return PolynomialGame(f"kuhn_{cards}", (parse_domain("t", "[0, 1]"),), players,
                          f"{cards}-card Kuhn poker compiled from its game tree; t is a dummy parameter")


@dataclass(frozen=True)
class NashFamily:
    """One family of Nash equilibria: formulas, the free variables' exact ranges, its checks."""

    ident: str
    case: str
    pset: ProfileSet
    ranges: tuple[FreeRange, ...]
    added_constraints: tuple[str, ...]
    certified: str
    witness: dict[str, Fraction]
    witness_value: Fraction
    witness_exploitability: tuple[Fraction, Fraction]

    @property
    def values(self) -> tuple[tuple[str, str], ...]:
        """Every variable's formula, as text."""
        return tuple((x, str(e)) for x, e in self.pset.values)


@dataclass(frozen=True)
class FamilyReport:
    """The engine's run and the equilibrium set it yields."""

    cards: int
    raw_cases: int
    survivors: int
    engine_families: int
    dropped: tuple[str, ...]
    families: tuple[NashFamily, ...]
    lp_value: Fraction
    lp_extremes_checked: int
    lp_extremes_inside: int


def behaviours_of(point: dict[str, Fraction], cards: int) -> tuple[dict, dict]:
    """Behaviour strategies (information-set keyed) of a profile in the engine's variables."""
    a, b = {}, {}
    first_second = {"open": ("bet", "check"), "check-bet": ("call", "fold"), "bet": ("call", "fold"),
                    "check": ("bet", "check")}
    for infoset, name in variable_names(cards).items():
        player, _, situation = infoset.split(":")
        first, second = first_second[situation]
        (a if player == "A" else b)[infoset] = {first: point[name], second: 1 - point[name]}
    return a, b


def _nash_family(game: PolynomialGame, family, cards: int, value: Fraction) -> NashFamily | None:
    member = family.members[0]
    interval = member.range.intervals[0]
    refined = refine_to_nash(game, ProfileSet.from_branch(member.branch), interval)
    if refined is None:
        return None
    certificate = certify_profile_set(game, refined.pset, interval)
    witness = family_witness(game, refined.pset, interval)
    if witness is None:
        raise RuntimeError(f"{family.ident}: refined family has no exact witness")
    regret = exact_regret(game, {k: sp.Rational(v.numerator, v.denominator) for k, v in witness.items()},
                          {"t": sp.Rational(1, 2)})
    if not regret.is_nash:
        raise RuntimeError(f"{family.ident}: the witness is not an equilibrium by exact regret")
    check = check_behaviours(cards, value, *behaviours_of(witness, cards))
    return NashFamily(
        family.ident, member.branch.case, refined.pset,
        free_variable_ranges(game, refined.pset, interval),
        tuple(f"{g} >= 0" for g in refined.added),
        certificate.decision.name, witness, value, (check.exploitability_a, check.exploitability_b))


def in_some_family(game: PolynomialGame, families: Sequence[NashFamily], point: dict[str, Fraction]) -> bool:
    """Does an exact profile satisfy one family's formulas and constraints?"""
    subs = {game.symbol(x): sp.Rational(v.numerator, v.denominator) for x, v in point.items()}
    subs[game.symbol("t")] = sp.Rational(1, 2)
    holds = {">=": lambda v: v >= 0, ">": lambda v: v > 0, "==": lambda v: v == 0}
    for fam in families:
        if all(expr.subs(subs) == subs[game.symbol(x)] for x, expr in fam.pset.values) and \
                all(holds[rel](expr.subs(subs)) for expr, rel in fam.pset.constraints):
            return True
    return False


def lp_extremes(cards: int, directions: int, seed: int) -> tuple[float, list[dict[str, Fraction]]]:
    """Pairs of vertices of both players' optimal faces, pushed in random directions (seeded)."""
    form = build_sequence_form(build_game(cards))
    value = solve_sequence_form(form).value
    rng = np.random.default_rng(seed)
    points = []
    for _ in range(directions):
        plans = [optimal_face_point(form, p, rng.normal(size=len(form.players[p].sequences)), value) for p in (0, 1)]
        behaviours = [behaviour_from_plan(form.players[p], plans[p], 1000) for p in (0, 1)]
        point = {}
        for infoset, name in variable_names(cards).items():
            beh = behaviours[0] if infoset.startswith("A:") else behaviours[1]
            point[name] = next(iter(beh[infoset].values()))
        points.append(point)
    return value, points


def derive_three_card_family(mapper: Callable = serial_map, directions: int = 16, seed: int = 3) -> FamilyReport:
    """Run the engine on 3-card Kuhn poker, refine to Nash, certify, cross-check with the LP."""
    cards = 3
    game = polynomial_game(cards)
    atlas: Atlas = build_atlas(game, mapper)
    lp_value, extremes = lp_extremes(cards, directions, seed)
    value = Fraction(lp_value).limit_denominator(1000)
    families, dropped = [], []
    for family in atlas.families:
        nash = _nash_family(game, family, cards, value)
        if nash is None:
            dropped.append(family.ident)
        else:
            families.append(nash)
    inside = 0
    for point in extremes:
        check = check_behaviours(cards, value, *behaviours_of(point, cards))
        if check.exploitability_a == 0 == check.exploitability_b and in_some_family(game, families, point):
            inside += 1
    return FamilyReport(cards, atlas.stats.raw_cases, atlas.stats.survivors, len(atlas.families), tuple(dropped),
                        tuple(families), value, len(extremes), inside)
