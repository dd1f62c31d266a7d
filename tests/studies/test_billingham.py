"""Billingham's three-player Kuhn poker: the atlas derived from the rules, checked exactly.

The oracle is :func:`exact_regret` (vertex deviations of the payoffs, exact
arithmetic), independent of the case-splitting engine that built the atlas.
"""
import json
from fractions import Fraction
from pathlib import Path

import pytest
import sympy as sp

from derivations.billingham2017 import printed as billingham_printed
from symgame.engine.atlas import branch_witness
from symgame.engine.ranges import algebraic_endpoint
from symgame.games import billingham
from symgame.model.decide import Decision
from symgame.verify.polycert import ProfileSet, certify_profile_set, exact_regret
from symgame.verify.printed import PrintedSolution, check_coverage, check_printed

P = billingham.build_game().symbol("P")


def sample_values(interval):
    """Rational parameter values inside an interval: its rational ends and interior points."""
    if interval.is_point:
        return [interval.lower.lower] if interval.lower.is_rational else []
    lo = interval.lower.upper
    hi = interval.upper.lower if interval.upper is not None else lo + 3
    inner = [lo + (hi - lo) * Fraction(k, 5) for k in (1, 2, 4)]
    ends = [e.lower for e, closed in ((interval.lower, interval.lower_closed), (interval.upper, interval.upper_closed))
            if e is not None and closed and e.is_rational]
    return inner + ends


def test_profits_from_the_rules_equal_printed_equations():
    derived, printed = billingham.profits_from_rules(), billingham_printed.printed_profits()
    assert all(sp.expand(derived[i] - printed[i]) == 0 for i in (1, 2, 3))
    assert billingham_printed.printed_profits_agree()


def test_every_family_member_is_an_exact_equilibrium_at_sample_values(billingham_analysis):
    atlas = billingham_analysis.atlas
    checked = 0
    for family in atlas.families:
        for member in family.members:
            for iv in member.range.intervals:
                for value in sample_values(iv):
                    profile = branch_witness(atlas.game, member, value)
                    report = exact_regret(atlas.game, profile, {"P": sp.Rational(value.numerator, value.denominator)})
                    assert report.is_nash, (family.ident, value, report)
                    checked += 1
    assert checked >= 40


def test_atlas_has_the_expected_exact_endpoints(billingham_analysis):
    ends = {(iv.lower.value, iv.upper.value if iv.upper else None) for f in billingham_analysis.atlas.families
            for iv in f.intervals}
    P3 = sp.Rational(3, 4) + sp.sqrt(97) / 4
    P4 = sp.Rational(3, 2) + sp.sqrt(15) / 2
    assert any(sp.simplify(lo - P3) == 0 and hi is not None and sp.simplify(hi - P4) == 0 for lo, hi in ends)
    assert billingham_analysis.atlas.unsolved == []


def test_every_family_is_certified_on_its_whole_range(billingham_analysis):
    assert billingham_analysis.certificates
    assert all(c.proved for c in billingham_analysis.certificates)


def test_three_ranges_with_three_coexisting_families(billingham_analysis):
    """The paper's remark under Figure 1, derived: three open intervals with three families."""
    triple = [c for c in billingham_analysis.cells if not c.is_point and len(c.families) == 3]
    assert len(triple) == 3
    lows = sorted(float(c.lower) for c in triple)
    assert lows == pytest.approx([3.2122, 3.8979, 4.3117], abs=1e-4)


def test_printed_solutions_are_proved_and_cover_the_atlas(billingham_analysis):
    assert len(billingham_analysis.printed) == 15
    assert all(v.correct for v in billingham_analysis.printed)
    assert all(len(v.families) >= 1 for v in billingham_analysis.printed)
    assert all(c.complete for c in billingham_analysis.coverage)


def test_the_printed_sentence_about_player_1_is_refuted_by_an_equilibrium(billingham_analysis):
    wrong = [v for v in billingham_analysis.statements if v.holds is Decision.FALSE]
    assert [v.statement.text.split(",")[0] for v in wrong] == ["For P > 5"]
    example = wrong[0].counterexample
    value = sp.Rational(example["P"])
    profile = {x: sp.Rational(example[x]) for x in billingham.VARIABLE_ORDER}
    assert value > 5
    assert exact_regret(billingham.build_game(), profile, {"P": value}).is_nash
    assert profile["c1"] != 1 or profile["d1"] != 1


def test_numeric_search_finds_only_atlas_equilibria(billingham_analysis):
    values = {m.parameter for m in billingham_analysis.numeric}
    assert len(values) >= 8
    assert billingham_analysis.numeric_agrees


def test_certificate_refutes_a_perturbed_family(billingham_analysis):
    """The checker can fail: 1% more bluffing for Player 3 in Solution 10 is not an equilibrium."""
    family = next(f for f in billingham_analysis.atlas.families if not f.continuum and f.intervals[0].upper is None)
    member = family.members[0]
    values = dict(member.branch.values)
    values["b3"] = values["b3"] * sp.Rational(101, 100)
    cert = certify_profile_set(billingham.build_game(), ProfileSet(tuple(values.items()), (), ()),
                               member.range.intervals[0])
    assert cert.decision is Decision.FALSE
    example = cert.counterexample
    profile = {x: sp.Rational(example[x]) for x in billingham.VARIABLE_ORDER}
    assert not exact_regret(billingham.build_game(), profile, {"P": sp.Rational(example["P"])}).is_nash


def test_printed_check_catches_a_wrong_bound(billingham_analysis):
    """Solution 5a with a2 >= 1/2 instead of 3/4 contains profiles that are not equilibria."""
    sol = next(s for s in billingham_printed.printed_solutions() if s.label == "5a")
    a2 = billingham.build_game().symbol("a2")
    wrong = PrintedSolution(sol.label, sol.name, sol.equation, sol.values, sol.free,
                            tuple((a2 - sp.Rational(1, 2), ">=") if e == a2 - sp.Rational(3, 4) else (e, r)
                                  for e, r in sol.constraints), sol.lower, sol.upper)
    verdict = check_printed(billingham.build_game(), billingham_analysis.atlas, [wrong])[0]
    assert verdict.sound.decision is Decision.FALSE
    assert sp.Rational(verdict.sound.counterexample["a2"]) < sp.Rational(3, 4)


def test_coverage_check_notices_a_missing_solution(billingham_analysis):
    """Without Solution 5 the printed list misses equilibria for 7/2 <= P <= 4."""
    fewer = [s for s in billingham_printed.printed_solutions() if s.label != "5"]
    missing = [c for c in check_coverage(billingham.build_game(), billingham_analysis.atlas, fewer)
               if not c.complete]
    assert missing
    example = missing[0].covered.counterexample
    value = sp.Rational(example["P"])
    assert sp.Rational(7, 2) <= value <= 4
    profile = {x: sp.Rational(example[x]) for x in billingham.VARIABLE_ORDER}
    assert exact_regret(billingham.build_game(), profile, {"P": value}).is_nash


def test_published_endpoints_are_exact_algebraic_numbers():
    e = algebraic_endpoint(sp.Rational(7, 4) + sp.sqrt(113) / 4, P)
    assert sp.expand(e.poly.subs(P, e.value)) == 0
    assert Fraction(4407, 1000) < e.lower < e.upper < Fraction(4408, 1000)
    assert e.upper - e.lower < Fraction(1, 10**9)


@pytest.mark.pinned
def test_committed_outputs_are_fresh(billingham_analysis, tmp_path):
    from derivations.billingham2017.outputs import write_billingham_outputs
    from symgame.export.atlas_outputs import TEXT_FILES

    root = Path(__file__).resolve().parents[2] / "outputs" / "billingham"
    result = write_billingham_outputs(tmp_path, billingham_analysis, pdf=False)
    assert {p.name for p in result.files} >= {"ranges.png", "frequencies.png", "profits.png"}
    for name in TEXT_FILES + ("ranges.png",):
        committed = root / name
        assert committed.exists(), f"{committed} missing: run `symgame derive billingham`"
        assert committed.read_bytes() == (tmp_path / name).read_bytes(), f"{committed} is stale"


def test_atlas_json_matches_its_schema():
    import jsonschema

    root = Path(__file__).resolve().parents[2]
    schema = json.loads((root / "symgame" / "export" / "atlas.schema.json").read_text())
    data = json.loads((root / "outputs" / "billingham" / "atlas.json").read_text())
    jsonschema.validate(data, schema)
    assert len(data["families"]) == 15
    broken = dict(data, families=[{"id": "F1"}])
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, schema)


@pytest.mark.pinned
def test_committed_dynamics_outputs_are_fresh(billingham_analysis, billingham_stability, tmp_path):
    """Stability is recomputed exactly (once per session); the numeric part comes from the committed cache, whose
    key must match."""
    from derivations.billingham2017.dynamics import CACHE_FILE, centre_points, numeric_key
    from derivations.billingham2017.outputs import DYNAMICS_TEXT, write_dynamics_outputs

    root = Path(__file__).resolve().parents[2] / "outputs" / "billingham" / "dynamics"
    atlas = billingham_analysis.atlas
    jobs = centre_points(billingham_stability, {f.ident: f for f in atlas.families})
    assert numeric_key(jobs) in (root / CACHE_FILE).read_text(), \
        "outputs/billingham/dynamics is stale: run `symgame derive billingham`"
    (tmp_path / CACHE_FILE).write_bytes((root / CACHE_FILE).read_bytes())
    write_dynamics_outputs(tmp_path, billingham_analysis, plots=False, stability=billingham_stability)
    for name in DYNAMICS_TEXT:
        assert (tmp_path / name).read_bytes() == (root / name).read_bytes(), f"{root / name} is stale"


def test_a_stored_long_run_is_accepted_within_the_processors_rounding_only():
    """The dynamics cache's re-check: another processor's last-bit rounding (measured: the section spread at
    P = 4.05 0.80454 against 0.80523) passes; another classification, absorption, spectrum or a number beyond
    the tolerance does not."""
    from derivations.billingham2017.dynamics_numeric import _same_run

    root = Path(__file__).resolve().parents[2] / "outputs" / "billingham" / "dynamics"
    grid = json.loads((root / "study_cache.json").read_text())["numeric"]["data"]["grid"]
    stored = next(g for g in grid if g["P"] == 4.05)
    assert _same_run(stored, dict(stored))
    assert _same_run(stored, dict(stored, section_spread=0.80523, profit_rates=[-0.049838, 0.001308, 0.048531]))
    assert not _same_run(stored, dict(stored, kind="chaotic"))
    assert not _same_run(stored, dict(stored, frequencies=stored["frequencies"][:2]))
    assert not _same_run(stored, dict(stored, section_spread=stored["section_spread"] + 0.05))
    assert not _same_run(stored, dict(stored, profit_rates=[stored["profit_rates"][0] + 1e-3] + stored["profit_rates"][1:]))
    assert not _same_run(stored, dict(stored, lyapunov=None))
    assert not _same_run(dict(stored, extra=1), dict(stored))


def test_atlas_at_gives_exact_witnesses_for_the_billingham_file(billingham_atlas):
    """What ``symgame atlas examples/billingham.yaml --at P=4 --json`` prints (the functions the command calls, on
    the session's atlas of the same game): two equilibria, one of them a continuum, each checked by exact regret
    and its profits by substitution."""
    from symgame.export.atlas_outputs import witnesses_json
    from symgame.verify.atlascheck import equilibria_at
    from symgame.verify.polycert import exact_regret

    data = json.loads(json.dumps(witnesses_json(equilibria_at(billingham_atlas, Fraction(4)), "P", Fraction(4))))
    assert data["parameters"] == {"P": "4"}
    game = billingham.build_game()
    assert len(data["equilibria"]) == 2
    for e in data["equilibria"]:
        assert set(e["profile"]) == set(billingham.VARIABLE_ORDER) and set(e["profits"]) == {"1", "2", "3"}
        profile = {x: sp.Rational(v) for x, v in e["profile"].items()}
        assert exact_regret(game, profile, {"P": sp.Integer(4)}).is_nash
        subs = {game.symbol(x): v for x, v in profile.items()} | {game.symbol("P"): 4}
        assert [str(sp.expand(p.payoff.subs(subs))) for p in game.players] == [e["profits"][k] for k in "123"]
    assert {e["continuum"] for e in data["equilibria"]} == {True, False}
