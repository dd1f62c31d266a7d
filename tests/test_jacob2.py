"""The Jacob game II (Appendix C.3): printed claims checked exactly, coalitions, searches verified."""
import itertools
from fractions import Fraction
from pathlib import Path

import pytest

from derivations.buck2022 import jacob2


def test_schedules_are_symmetric_zero_sum_and_a_slip_is_caught(monkeypatch):
    for name in jacob2.SCHEDULES:
        check = jacob2.check_schedule(name)
        assert check.symmetric_matrices and check.zero_sum_violations == ()
    broken = [[row[:] for row in matrix] for matrix in jacob2.SCHEDULES["C.5"]]
    broken[1][2][2] = 8   # the printed 16 halved
    monkeypatch.setitem(jacob2.SCHEDULES, "C.5", broken)
    assert (2, 3, 3) in jacob2.check_schedule("C.5").zero_sum_violations


def test_printed_equilibria_and_payoffs():
    ts = jacob2.tensors("C.5")
    third = Fraction(1, 3)
    blend = (Fraction(0), 2 * third, third)
    assert jacob2.regret(ts, (blend, blend, blend)) == 0
    assert jacob2.regret(ts, jacob2.pure(1, 1, 1, m=3)) == 0
    assert jacob2.payoffs(ts, jacob2.pure(1, 2, 3, m=3)) == (-2, 1, 1)
    assert jacob2.regret(ts, jacob2.pure(1, 2, 2, m=3)) > 0
    pure_ne = [s for s in itertools.product(range(1, 4), repeat=3) if jacob2.regret(ts, jacob2.pure(*s, m=3)) == 0]
    assert len(pure_ne) == 7 and sum(len(set(s)) == 3 for s in pure_ne) == 6


def _pair_gain(ts, plan, pair, base):
    i, j = pair
    k = 3 - i - j
    gains = [Fraction(0), Fraction(0)]
    for (a, b), p in plan:
        s = [0, 0, 0]
        s[i], s[j], s[k] = a - 1, b - 1, k   # the third player keeps its action in (1, 2, 3)
        gains[0] += p * (int(ts[i][tuple(s)]) - base[i])
        gains[1] += p * (int(ts[j][tuple(s)]) - base[j])
    return gains


def test_strong_equilibrium_claims():
    ts = jacob2.tensors("C.5")
    coalition = jacob2.pure(1, 2, 3, m=3)
    base = jacob2.payoffs(ts, coalition)
    partners = jacob2.coalition_check(ts, coalition, (1, 2))
    assert partners.strong
    w = partners.separating_weights
    for a, b in itertools.product(range(3), repeat=2):
        s = (0, a, b)
        assert w[0] * (ts[1][s] - base[1]) + w[1] * (ts[2][s] - base[2]) <= 0
    loser = jacob2.coalition_check(ts, coalition, (0, 1))
    assert not loser.strong and not loser.pure_improving
    gains = _pair_gain(ts, loser.improving, (0, 1), base)
    assert gains[0] > 0 and gains[1] > 0 and sum(p for _, p in loser.improving) == 1
    traitor = jacob2.coalition_check(jacob2.tensors("C.6"), jacob2.pure(1, 2, 3, m=4), (0, 2))
    assert traitor.pure_improving and traitor.improving == (((4, 4), Fraction(1)),)


@pytest.mark.parametrize("name, value", [("C.5", 2), ("C.7", 3)])
def test_synchronous_coalition_value(name, value):
    got, support = jacob2.synchronous_coalition_value(jacob2.tensors(name), 0)
    assert got == value and sum(p for _, p in support) == 1


def test_search_returns_only_exact_equilibria_including_unprinted_ones():
    ts = jacob2.tensors("C.5")
    found = jacob2.search_equilibria("C.5", 30, 7)
    assert found and all(jacob2.regret(ts, eq) == 0 for eq in found)
    lone = (Fraction(6, 7), Fraction(0), Fraction(1, 7))
    assert any(list(eq).count(lone) == 2 for eq in found)   # two players mix 1 and 3, the third plays 2


def test_c5_equilibrium_set_is_complete_and_contains_every_search_find():
    from derivations.buck2022 import jacob2
    from derivations.buck2022.jacob2_complete import complete_markdown, complete_set

    found = complete_set("C.5")
    assert found.result.complete and not found.result.families
    assert len(found.profiles) == 14 and found.regret_checked
    searched = jacob2.search_equilibria("C.5", 20, 7)
    assert searched and set(searched) <= set(found.profiles)
    committed = Path(__file__).resolve().parents[1] / "outputs" / "guts" / "jacob2_complete.md"
    assert committed.read_text() == complete_markdown(found, c6_cached()), \
        f"{committed} is stale: run `symgame derive guts`"


def c6_cached():
    from derivations.buck2022.jacob2_c6 import CACHE_FILE, PART, c6_key
    from symgame.export.cache import StudyCache

    data = StudyCache(Path(__file__).resolve().parents[1] / "outputs" / "guts" / CACHE_FILE).get(PART, c6_key())
    assert data is not None, "the (C.6) cache is stale: run `symgame derive guts` (minutes)"
    return data


def test_c6_equilibrium_set_is_complete_and_holds_every_pure_equilibrium_and_search_find():
    from derivations.buck2022.jacob2_complete import c6_regret_checked

    data = c6_cached()
    assert data["complete"] and not data["undecided"] and not data["families"]
    assert c6_regret_checked(data) and all(e["verified"] for e in data["equilibria"])
    listed = {tuple(tuple(Fraction(p) for p in mix) for mix in e["profile"]) for e in data["equilibria"]}
    ts = jacob2.tensors("C.6")
    pure = {jacob2.pure(*actions, m=4) for actions in itertools.product(range(1, 5), repeat=3)}
    assert {p for p in pure if jacob2.regret(ts, p) == 0} == {p for p in listed if p in pure}   # exact, all 64
    searched = jacob2.search_equilibria("C.6", 12, 7)
    assert searched and set(searched) <= listed
