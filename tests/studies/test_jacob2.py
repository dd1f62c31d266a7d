"""The Jacob game II (Appendix C.3): printed claims checked exactly, coalitions, searches verified."""
import itertools
from fractions import Fraction
from pathlib import Path

import numpy as np
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


@pytest.mark.pinned
def test_c5_equilibrium_set_is_complete_and_contains_every_search_find():
    from derivations.buck2022 import jacob2
    from derivations.buck2022.jacob2_complete import complete_markdown, complete_set

    found = complete_set("C.5")
    assert found.result.complete and not found.result.families
    assert len(found.profiles) == 14 and found.regret_checked
    searched = jacob2.search_equilibria("C.5", 20, 7)
    assert searched and set(searched) <= set(found.profiles)
    committed = Path(__file__).resolve().parents[2] / "outputs" / "guts" / "jacob2_complete.md"
    cached = {name: schedule_cached(name) for name in ("C.6", "C.7")}
    certified = {"C.7": certificates_cached("C.7")}
    assert committed.read_text() == complete_markdown(found, cached, certified), \
        f"{committed} is stale: run `symgame derive guts`"


def schedule_cached(name: str) -> dict:
    from derivations.buck2022.jacob2_schedules import CACHE_FILE, part, schedule_key
    from symgame.export.cache import StudyCache

    path = Path(__file__).resolve().parents[2] / "outputs" / "guts" / CACHE_FILE
    data = StudyCache(path).get(part(name), schedule_key(name))
    assert data is not None, f"the ({name}) cache is stale: run `symgame derive guts` ((C.7): 30 minutes)"
    return data


def certificates_cached(name: str) -> dict:
    """The cached membership certificates of a schedule, fresh for its key and checked against the schedule."""
    from derivations.buck2022.jacob2_schedules import (
        CACHE_FILE,
        certificates_key,
        certificates_part,
        check_certificates,
    )
    from symgame.export.cache import StudyCache

    path = Path(__file__).resolve().parents[2] / "outputs" / "guts" / CACHE_FILE
    data = StudyCache(path).get(certificates_part(name), certificates_key(name))
    assert data is not None, f"the ({name}) certificates are stale: run `symgame derive guts` (about a minute)"
    check_certificates(name, schedule_cached(name), data)
    return data


def _support(profile) -> list[list[int]]:
    return [[a + 1 for a, p in enumerate(mix) if p] for mix in profile]


@pytest.mark.pinned
@pytest.mark.parametrize("name, m, searches", [("C.6", 4, 12), ("C.7", 6, 4)])
def test_cached_schedule_holds_every_pure_equilibrium_and_search_find(name, m, searches):
    """Every pure equilibrium (all m^3 profiles checked exactly) is listed; every equilibrium a seeded search finds
    is listed, or lies on a support the enumeration reported as positive-dimensional or left undecided; (C.6) is
    complete."""
    from derivations.buck2022.jacob2_complete import _rational, regret_checked

    data = schedule_cached(name)
    assert data["complete"] == (not data["undecided"])
    if name == "C.6":
        assert data["complete"] and not data["families"] and not data["msolve_supports"]
    assert regret_checked(name, data) and all(e["verified"] for e in data["equilibria"])
    assert all(f["member_verified"] for f in data["families"] if f["member"] is not None)
    listed = {tuple(tuple(Fraction(p) for p in mix) for mix in e["profile"]) for e in data["equilibria"]
              if _rational(e["profile"])}
    ts = jacob2.tensors(name)
    pure = {jacob2.pure(*actions, m=m) for actions in itertools.product(range(1, m + 1), repeat=3)}
    assert {p for p in pure if jacob2.regret(ts, p) == 0} == {p for p in listed if p in pure}   # exact, all m^3
    open_supports = [f["support"] for f in data["families"]] + data["undecided"]
    searched = jacob2.search_equilibria(name, searches, 7)
    assert searched
    for profile in searched:
        image_supports = [[_support(profile)[k] for k in perm] for perm in itertools.permutations(range(3))]
        assert profile in listed or any(s in open_supports for s in image_supports), profile


@pytest.mark.pinned
def test_c6_recomputes_to_the_cached_answer():
    """(C.6) takes about a second now: it is recomputed here and must agree with the cache entry by entry."""
    from derivations.buck2022.jacob2_schedules import compute_schedule

    fresh, cached = compute_schedule("C.6"), schedule_cached("C.6")
    assert {k: v for k, v in fresh.items() if k != "seconds"} == {k: v for k, v in cached.items() if k != "seconds"}


def test_saturating_by_the_probabilities_turns_c7_families_into_points_and_decides_open_supports():
    """Supports of (C.7) whose equations have infinitely many complex solutions: the components where some
    support probability vanishes are dropped (msolve on the system with ``u * p = 1`` per probability), which
    leaves one isolated equilibrium for a support that was reported as a family, and no solution at all for a
    support z3 left undecided in 10 s."""
    pytest.importorskip("z3")
    from derivations.buck2022.jacob2_schedules import strategic
    from symgame.engine import enumpoly
    from symgame.engine.msolve import msolve_program

    if msolve_program() is None:
        pytest.skip("msolve is not installed")
    game = strategic("C.7")
    t = enumpoly._Tables.of(game)
    alive = [list(range(6))] * 3
    family = ((0, 4), (1, 3, 5), (2, 3, 5))                  # {1,5} x {2,4,6} x {3,4,6}, actions from 1
    system = enumpoly._system(t, alive, family)
    assert enumpoly._points(system, t) is None                # infinitely many complex solutions
    outcome = enumpoly._solve_support(t, alive, family, 1_000, 0, True)
    assert outcome.kind == "points" and outcome.msolve
    (eq,) = outcome.equilibria
    assert eq.verified and eq.support == family
    # independent check in floating point: no action of any player pays more than the profile
    ts = jacob2.tensors("C.7")
    profile = [np.array([float(p) for p in mix]) for mix in eq.profile]
    for i in range(3):
        others = [profile[j] for j in range(3) if j != i]
        values = np.einsum("abc,b,c->a", np.moveaxis(ts[i], i, 0), *others)
        assert values.max() - profile[i] @ values < 1e-12
    empty = ((0, 3, 4), (1, 3, 5), (2, 3, 4))                 # {1,4,5} x {2,4,6} x {3,4,5}: undecided before
    decided = enumpoly._solve_support(t, alive, empty, 1_000, 0, True)
    assert decided.kind == "none" and decided.msolve


def test_the_last_open_c7_supports_fall_to_a_part_of_their_conditions():
    """{2,3,4,5,6} x {2,3,4,5,6} x {2,3,4,6} stays positive-dimensional after saturation and z3 cannot decide it
    whole in the first chart; the conditions among the second block's strategies (a copy of (C.5) with no
    equilibrium of that support) involve only that block's weights, and z3 refutes them."""
    from derivations.buck2022.jacob2_schedules import strategic
    from symgame.engine import enumpoly
    from symgame.engine.msolve import msolve_program

    if msolve_program() is None:
        pytest.skip("msolve is not installed")
    t = enumpoly._Tables.of(strategic("C.7"))
    alive = [list(range(6))] * 3
    support = ((1, 2, 3, 4, 5), (1, 2, 3, 4, 5), (1, 2, 3, 5))
    assert enumpoly._positive_points(enumpoly._system(t, alive, support), t) is None
    assert enumpoly._subsystems_exclude(t, alive, support)
    assert enumpoly._solve_support(t, alive, support, 1_000, 0, True).kind == "none"


def test_c7_msolve_answers_are_proved_by_checked_membership_identities():
    """Two of (C.7)'s msolve supports proved again from scratch: {1,5} x {2,4,6} x {3,4,6} (one equilibrium:
    msolve's eliminating polynomial and coordinates are combinations of the saturated equations) and
    {1,4,5} x {2,4,6} x {3,4,5} (1 is: no solution), and the first of those certified beyond the size rule
    (``CERTIFY_MEASURED``). Each record agrees with the cached certificates, and a
    cached record whose equilibria differ from the schedule's is refused before use."""
    import copy

    from derivations.buck2022.jacob2_schedules import check_certificates, membership_available, strategic
    from symgame.engine.enumpoly import certify_support
    from symgame.errors import StoreError

    if not membership_available():
        pytest.skip("msolve or Singular is not installed (.ci/install installs both)")
    schedule, certificates = schedule_cached("C.7"), certificates_cached("C.7")
    rows = {str(row["support"]): row for row in certificates["supports"]}
    game = strategic("C.7")
    for support, kind, count in (((0, 4), (1, 3, 5), (2, 3, 5)), "parametrized", 1), \
                                (((0, 3, 4), (1, 3, 5), (2, 3, 4)), "empty", 0):
        cert = certify_support(game, support)
        assert cert.kind == kind and len(cert.equilibria) == count and all(e.verified for e in cert.equilibria)
        row = rows[str([[a + 1 for a in s] for s in support])]
        assert row["kind"] == kind and row["solutions"] == cert.solutions
        assert row["equilibria"] == sorted([[str(p) for p in mix] for mix in e.profile] for e in cert.equilibria)
    # the supports certified beyond the size rule (declared from a measurement) are certified in the cache, and the
    # quickest of them (9 unknowns, 4 complex solutions: 4 s) proves again from scratch
    from derivations.buck2022.jacob2_schedules import CERTIFY_MEASURED, certify_attempted

    measured = [[list(s) for s in sup] for sup in CERTIFY_MEASURED["C.7"]]
    assert measured and all(rows[str(sup)]["kind"] == "parametrized" for sup in measured)
    assert not certify_attempted(9, 4)
    cert = certify_support(game, tuple(tuple(a - 1 for a in s) for s in measured[0]))
    assert cert.kind == "parametrized" and cert.solutions == rows[str(measured[0])]["solutions"] == 4
    tampered = copy.deepcopy(certificates)
    victim = next(r for r in tampered["supports"] if r["kind"] == "parametrized" and r["equilibria"])
    victim["equilibria"] = []
    with pytest.raises(StoreError, match="certified equilibria"):
        check_certificates("C.7", schedule, tampered)
    tampered = copy.deepcopy(certificates)
    tampered["supports"] = tampered["supports"][1:]
    with pytest.raises(StoreError, match="msolve supports"):
        check_certificates("C.7", schedule, tampered)


def test_c7_supports_beyond_lift_are_proved_empty_by_the_lifted_relaxation():
    """Of (C.7)'s msolve supports that Singular's `lift` does not certify, all but the one holding the symmetric
    equilibrium (2,3,5,6 for everyone) get an exact certificate of no equilibrium from the lifted relaxation
    (`symgame.engine.supportlift`), derived again here; that one gets none (its relaxation has a solution); a
    cached record that claims no equilibrium where the schedule lists one is refused."""
    import copy

    from derivations.buck2022.jacob2_schedules import check_certificates, membership_available, strategic
    from symgame.engine.supportlift import check_no_equilibrium, no_equilibrium_certificate
    from symgame.errors import StoreError

    if not membership_available():
        pytest.skip("msolve or Singular is not installed (.ci/install installs both)")
    schedule, certificates = schedule_cached("C.7"), certificates_cached("C.7")
    lifted = [r for r in certificates["supports"] if r["kind"] == "no equilibrium"]
    rest = [r for r in certificates["supports"] if r["kind"] == "not certified"]
    assert len(lifted) == 31 and [r["support"] for r in rest] == [[[2, 3, 5, 6]] * 3]
    game = strategic("C.7")
    listed = [eq["profile"] for eq in schedule["equilibria"]]
    assert any(all([a for a, p in enumerate(mix) if p != "0"] == [1, 2, 4, 5] for mix in profile)
               for profile in listed)                         # the symmetric equilibrium on {2,3,5,6}
    assert no_equilibrium_certificate(game, ((1, 2, 4, 5),) * 3) is None
    cert = no_equilibrium_certificate(game, tuple(tuple(a - 1 for a in s) for s in lifted[0]["support"]))
    assert cert is not None and check_no_equilibrium(game, cert)
    tampered = copy.deepcopy(certificates)
    victim = next(r for r in tampered["supports"] if r["kind"] == "not certified")
    victim.update(kind="no equilibrium", multipliers=1, equilibria=[])
    with pytest.raises(StoreError, match="no equilibrium does not hold"):
        check_certificates("C.7", schedule, tampered)
    committed = Path(__file__).resolve().parents[2] / "outputs" / "guts" / "jacob2_complete.md"
    assert "complete given msolve for 1 of its supports" in committed.read_text()
