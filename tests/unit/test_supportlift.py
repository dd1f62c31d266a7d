"""symgame.engine.supportlift: a certificate of no equilibrium is never given to a support that holds one, is
given to many that hold none, and is checked exactly (a changed multiplier is refused)."""
from dataclasses import replace
from fractions import Fraction
from itertools import combinations, product

import pytest
from hypothesis import given, seed, settings
from hypothesis import strategies as st

from symgame.engine.enumpoly import enumpoly_solve
from symgame.engine.supportlift import check_no_equilibrium, lifted_rows, no_equilibrium_certificate
from symgame.model.gambit import StrategicGame


def _game(shape, values) -> StrategicGame:
    players = tuple(str(k + 1) for k in range(len(shape)))
    strategies = tuple(tuple(f"s{a}" for a in range(n)) for n in shape)
    count = len(list(product(*(range(n) for n in shape))))
    payoffs = tuple(tuple(Fraction(values[(k * len(shape) + i) % len(values)]) for i in range(len(shape)))
                    for k in range(count))
    return StrategicGame("random", players, strategies, payoffs)


def _held(result) -> set:
    """The supports of the enumeration's isolated equilibria and of its families."""
    return {tuple(tuple(a for a, p in enumerate(mix) if str(p) != "0") for mix in eq.profile)
            for eq in result.equilibria} | {tuple(tuple(s) for s in f.support) for f in result.families}


def _supports(shape):
    subsets = [[s for r in range(1, n + 1) for s in combinations(range(n), r)] for n in shape]
    return list(product(*subsets))


@seed(20261128)
@settings(max_examples=30, deadline=None)
@given(st.sampled_from([(2, 2, 2), (3, 2, 2), (2, 2), (3, 3)]),
       st.lists(st.integers(-9, 9), min_size=24, max_size=24))
def test_a_certified_support_holds_no_equilibrium_and_an_equilibrium_support_gets_none(shape, values):
    """Against exact support enumeration (`enumpoly_solve`, complete and with isolated equilibria only)."""
    game = _game(shape, values)
    result = enumpoly_solve(game)
    if not result.complete:
        return
    held = _held(result)
    for support in _supports(shape):
        cert = no_equilibrium_certificate(game, support)
        if support in held:
            assert cert is None, (support, values)
        elif cert is not None:
            assert check_no_equilibrium(game, cert)


def test_on_seeded_random_games_both_sides_occur():
    """The same property on 12 seeded random games, counting: supports certified and supports of equilibria
    (so that the property above cannot hold vacuously); matching pennies' 8 supports without equilibrium are all
    certified."""
    import random

    rng = random.Random(20261128)
    certified = held_count = 0
    for _ in range(12):
        shape = rng.choice([(2, 2, 2), (3, 2, 2)])
        game = _game(shape, [rng.randint(-99, 99) for _ in range(36)])
        result = enumpoly_solve(game)
        assert result.complete
        held = _held(result)
        for support in _supports(shape):
            cert = no_equilibrium_certificate(game, support)
            assert cert is None or support not in held
            certified += cert is not None
            held_count += support in held
    assert certified >= 50 and held_count >= 12
    pennies = _game((2, 2), [1, -1, -1, 1, -1, 1, 1, -1])
    assert [no_equilibrium_certificate(pennies, s) is None for s in _supports((2, 2))].count(False) == 8


def test_a_changed_certificate_is_refused():
    game = _game((2, 2, 2), [3, 1, 3, 0, 0, 3, 0, 3, 3, 3, 1, 1, 2, 3, 1, 2, 1, 0, 3, 1, 3, 1, 1, 2])
    certs = [c for s in _supports((2, 2, 2)) if (c := no_equilibrium_certificate(game, s)) is not None]
    assert certs
    cert = max(certs, key=lambda c: len(c.multipliers))
    assert check_no_equilibrium(game, cert)
    # halved, the combination's tight columns fall below the normalization's
    assert not check_no_equilibrium(game, replace(cert, multipliers=tuple((k, y / 2) for k, y in cert.multipliers)))
    assert not check_no_equilibrium(game, replace(cert, multipliers=()))
    rows, _, _ = lifted_rows(game, cert.support)
    inequality = next(i for i, (_, relation) in enumerate(rows) if relation == "<=")
    assert not check_no_equilibrium(game, replace(cert, multipliers=cert.multipliers + ((inequality, Fraction(-1)),)))
    assert not check_no_equilibrium(game, replace(cert, rows=cert.rows + 1))


def test_a_support_that_does_not_fit_is_refused():
    game = _game((2, 2), [1, 0, 0, 1])
    for bad in (((0,),), ((0,), (2,)), ((1, 0), (0,)), ((), (0,))):
        with pytest.raises(ValueError, match="does not fit"):
            lifted_rows(game, bad)
