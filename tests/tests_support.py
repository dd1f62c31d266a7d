"""Shared cached derivations for property tests (hypothesis cannot use fixtures)."""
from functools import lru_cache


@lru_cache(maxsize=None)
def derived_two_by_two():
    from symgame.engine.derive import derive_equilibria
    from symgame.games.two_by_two import build_game

    return derive_equilibria(build_game()).pdl


@lru_cache(maxsize=None)
def derived_weakest_link():
    from symgame.engine.derive import derive_equilibria
    from symgame.games.weakest_link import build_game

    return derive_equilibria(build_game()).pdl
