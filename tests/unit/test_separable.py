"""symgame.verify.separable: group-wise deviations decide exactly what whole-box vertex deviations decide."""
import itertools

import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from symgame.model.polygame import PolynomialGame, PolyPlayer
from symgame.verify.separable import group_deviations, separable_groups

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
