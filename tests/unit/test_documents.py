"""symgame.export.documents: a rule's value summed in FLINT's field is sympy's sum, factored the same way."""
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from symgame.export.documents import rule_value
from symgame.model.game import NormalFormGame, Player
from symgame.model.parameters import parse_domain
from symgame.model.pdl import Profile
from symgame.model.region import Domain

s, t = sp.Symbol("s", real=True), sp.Symbol("t", real=True)
DOMAIN = Domain((parse_domain("s", "[0, 1]"), parse_domain("t", "[0, 1]")))
small = st.integers(-4, 4)
linear = st.tuples(small, small, small).map(lambda c: c[0] * s + c[1] * t + c[2])
weight = st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(1, 3)).map(lambda c: c[0] * s * t + c[1] * t + c[2])


def _mixed(weights):
    total = sum(weights)
    return tuple(w / total for w in weights)


@settings(max_examples=40)
@given(st.lists(linear, min_size=9, max_size=9), st.lists(weight, min_size=3, max_size=3),
       st.lists(weight, min_size=3, max_size=3), st.integers(0, 2))
def test_rule_value_is_the_expected_payoff_factored_as_sympy_would(entries, wx, wy, zero):
    a = sp.ImmutableMatrix(3, 3, entries)
    game = NormalFormGame("g", DOMAIN, (Player("row", ("a", "b", "c")), Player("col", ("d", "e", "f"))),
                          (a, -a), zero_sum=True)
    wx[zero] = sp.Integer(0)                    # a support smaller than the whole game
    x, y = _mixed(wx), _mixed(wy)
    value = rule_value(game, Profile((x, y)))
    expected = sum(x[i] * a[i, j] * y[j] for i in range(3) for j in range(3))
    assert sp.cancel(value - expected) == 0
    assert sp.sstr(value) == sp.sstr(sp.factor(sp.cancel(sp.together(expected))))
