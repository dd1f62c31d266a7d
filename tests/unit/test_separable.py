"""symgame.verify.separable: group-wise deviations decide exactly what whole-box vertex deviations decide."""
import itertools

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from symgame.games import billingham
from symgame.model.decide import Decision
from symgame.model.polygame import PolynomialGame, PolyPlayer
from symgame.verify.polycert import ProfileSet, exact_regret
from symgame.verify.separable import certify_best_response, group_deviations, separable_groups

X = sp.symbols("x0:4", real=True)
Y = sp.symbols("y0:2", real=True)


@st.composite
def random_games(draw):
    """Player 1 owns x0..x3, player 2 owns y0, y1; payoffs are random multilinear polynomials whose
    monomials use a random subset of the own variables (so the groups vary from one game to the next)."""
    coeff = st.integers(-4, 4)
    payoffs = []
    for own, other in ((X, Y), (Y, X)):
        terms = []
        for _ in range(draw(st.integers(1, 6))):
            mine = draw(st.lists(st.sampled_from(own), min_size=0, max_size=2, unique=True))
            theirs = draw(st.lists(st.sampled_from(other), min_size=0, max_size=2, unique=True))
            terms.append(draw(coeff) * sp.Mul(*mine, *theirs))
        payoffs.append(sp.Add(*terms))
    game = PolynomialGame("random", (), (PolyPlayer("1", tuple(map(str, X)), payoffs[0]),
                                         PolyPlayer("2", tuple(map(str, Y)), payoffs[1])))
    profile = {str(v): sp.Rational(draw(st.integers(0, 4)), 4) for v in X + Y}
    return game, profile


@settings(max_examples=80, deadline=None, derandomize=True)
@given(random_games())
def test_best_group_gains_add_up_to_the_best_whole_box_gain(case):
    game, profile = case
    subs = {game.symbol(k): v for k, v in profile.items()}
    for k, player in enumerate(game.players):
        payoff = player.payoff
        base = payoff.subs(subs)
        own = [game.symbol(x) for x in player.variables]
        whole = max(payoff.subs({**subs, **dict(zip(own, v))}) - base
                    for v in itertools.product((0, 1), repeat=len(own)))
        groups = separable_groups(game, k)
        assert sorted(x for g in groups for x in g) == sorted(player.variables)
        by_group = {g: sp.Integer(0) for g in groups}
        for dev in group_deviations(game):
            if dev.player == k:
                group = next(g for g in groups if dev.vertex[0][0] in g)
                by_group[group] = max(by_group[group], dev.deviated.subs(subs) - dev.part.subs(subs))
        assert sum(by_group.values()) == whole


def test_groups_follow_the_cards_in_kuhn_poker():
    from symgame.games import kuhn3

    game = kuhn3.build_game(4)
    groups = separable_groups(game, 0)
    # no monomial of player 1's payoff holds two of her cards
    assert all(len({x[0] for x in g}) == 1 for g in groups)
    assert sum(2 ** len(g) for k in range(3) for g in separable_groups(game, k)) < 2 ** 16


@pytest.mark.slow
def test_billingham_families_are_certified_group_by_group(billingham_atlas):
    game = billingham.build_game()
    checked = 0
    for family in billingham_atlas.families[:6]:
        member = family.members[0]
        for iv in member.range.intervals:
            cert = certify_best_response(game, ProfileSet.from_branch(member.branch), iv)
            assert cert.decision is Decision.TRUE, (family.ident, cert)
            checked += 1
    assert checked >= 6


def test_a_perturbed_family_is_refuted_with_an_exact_counterexample(billingham_atlas):
    """1% more bluffing for Player 3 in the family valid for large P is not an equilibrium."""
    game = billingham.build_game()
    family = next(f for f in billingham_atlas.families if not f.continuum and f.intervals[0].upper is None)
    member = family.members[0]
    values = dict(member.branch.values)
    values["b3"] = values["b3"] * sp.Rational(101, 100)
    cert = certify_best_response(game, ProfileSet(tuple(values.items()), (), ()), member.range.intervals[0])
    assert cert.decision is Decision.FALSE and cert.method == "z3, separable"
    P = game.symbol("P")
    at = sp.Rational(cert.counterexample["P"])
    profile = {x: sp.sympify(v).subs(P, at) for x, v in values.items()}
    assert not exact_regret(game, profile, {"P": at}).is_nash


@pytest.mark.slow
def test_deviation_gains_equal_the_substitution_at_every_vertex(billingham_atlas):
    """``deviation_expressions`` evaluates one polynomial per player at the vertices; the reference substitutes
    every vertex into the payoff, as the definition reads. The gains are rational functions of P, compared as
    such (expanded forms of equal rational functions may differ)."""
    import itertools

    import sympy as sp

    from symgame.verify.nashrefine import deviation_expressions

    game = billingham_atlas.game
    for family in billingham_atlas.families[:8]:
        pset = ProfileSet.from_branch(family.members[0].branch)
        values = {game.symbol(x): e for x, e in pset.values if x not in pset.free}
        reference = {}
        for player in game.players:
            own = [game.symbol(v) for v in player.variables]
            here = player.payoff.subs(values, simultaneous=True)
            for vertex in itertools.product((0, 1), repeat=len(own)):
                pinned = dict(zip(own, vertex))
                others = {s: e for s, e in values.items() if s not in pinned}
                label = f"player {player.name} plays " + ", ".join(f"{v}={b}" for v, b in zip(player.variables, vertex))
                reference[label] = sp.cancel(here - player.payoff.subs(pinned).subs(others, simultaneous=True))
        found = {label: sp.cancel(gain) for label, gain in deviation_expressions(game, pset)}
        assert found == {label: g for label, g in reference.items() if g != 0}, family.ident
