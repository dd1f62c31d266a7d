from fractions import Fraction

import pytest
from hypothesis import settings

settings.register_profile("symgame", derandomize=True, deadline=None, print_blob=True)
settings.load_profile("symgame")


@pytest.fixture(scope="session")
def two_by_two_analysis():
    from derivations.ganzfried2022.seeds import GAMES
    from symgame.games.analysis import analyse

    return analyse(GAMES["two_by_two"])


@pytest.fixture(scope="session")
def weakest_link_analysis():
    from derivations.ganzfried2022.seeds import GAMES
    from symgame.games.analysis import analyse

    return analyse(GAMES["weakest_link"])


def fractions(point):
    return {k: Fraction(v) for k, v in point.items()}


@pytest.fixture(scope="session")
def billingham_analysis():
    """The Billingham atlas built from the rules (all cores) and every check run once per session."""
    from derivations.billingham2017.outputs import analyse_billingham

    return analyse_billingham()
