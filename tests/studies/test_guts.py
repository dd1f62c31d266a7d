"""Continuous Guts and recursive games: payoffs from the rules, equilibria, coalitions, certificates."""
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from derivations.buck2022 import coalitions, printed, symmetric, weenie
from symgame.games import guts
from symgame.numeric.recursive import RecursiveGame, forced_value, plain_iteration
from symgame.verify.recursive import certify_lower, certify_upper

ROOT = Path(__file__).resolve().parents[2]


def test_printed_propositions_agree_except_the_two_known_slips():
    wrong = {(c.proposition, c.ordering) for c in printed.check_propositions() if not c.agrees}
    assert wrong == {("B.2 (beta)", "all"), ("B.3 (beta)", "all"), ("B.3 (alpha)", "p3 < p2 < p1")}


@pytest.mark.parametrize("weenie", [False, True])
def test_closed_form_matches_a_simulation_of_the_rules(weenie):
    p = [0.55, 0.3, 0.8, 0.65]
    mean, se = guts.simulate_alpha(p, 400_000, 7, weenie=weenie)
    exact = guts.alpha_beta_fraction(p[0], [(x, 1) for x in p[1:]], weenie)[0]
    assert abs(float(exact) - mean) < 5 * se


thresholds = st.lists(st.fractions(0, 1, max_denominator=12), min_size=2, max_size=5)


@settings(max_examples=40)
@given(p=thresholds, weenie=st.booleans())
def test_numeric_exact_and_symbolic_forms_agree_and_alpha_is_zero_sum(p, weenie):
    groups = [(x, 1) for x in p[1:]]
    exact_a, exact_b = guts.alpha_beta_fraction(p[0], groups, weenie)
    assert float(guts.alpha_numeric(float(p[0]), [(float(x), 1) for x in p[1:]], weenie)) == pytest.approx(
        float(exact_a), abs=1e-9)
    assert float(guts.beta_numeric(float(p[0]), [(float(x), 1) for x in p[1:]], weenie)) == pytest.approx(
        float(exact_b), abs=1e-12)
    total = sum(guts.alpha_beta_fraction(p[k], [(x, 1) for j, x in enumerate(p) if j != k], weenie)[0]
                for k in range(len(p)))
    assert total == 0
    if len(set(p)) == len(p):
        symbols = sp.symbols(" ".join(f"q{k}" for k in range(len(p))), real=True)
        order = sorted(range(len(p)), key=lambda k: p[k])
        value = guts.alpha_exact(symbols, order, weenie).subs({s: sp.Rational(x.numerator, x.denominator)
                                                               for s, x in zip(symbols, p)})
        assert sp.Rational(exact_a.numerator, exact_a.denominator) == value


def test_symmetric_thresholds_are_derived_for_every_n():
    n = sp.Symbol("n", integer=True, positive=True)
    std, wee = symmetric.symmetric_equilibrium(False), symmetric.symmetric_equilibrium(True)
    assert sp.simplify(std.threshold - 2 ** (-1 / (n - 1))) == 0
    assert sp.simplify(wee.threshold - 3 ** (-1 / (n - 1))) == 0
    assert std.slope_above == 0 and wee.slope_above == 0 and wee.slope_below == 0
    for players, base in ((3, 2), (4, 2), (3, 3), (5, 3)):
        p_star = base ** (-1 / (players - 1))
        grid = np.linspace(0, 1, 2001)
        values = guts.alpha_numeric(grid, [(p_star, players - 1)], weenie=base == 3)
        assert values.max() <= float(guts.alpha_numeric(p_star, [(p_star, players - 1)], weenie=base == 3)) + 1e-12


def test_overshoot_example_reaches_the_fixed_point_from_below():
    game = RecursiveGame(np.array([[0.0], [0.0]]), np.array([[0.5], [2.0]]))
    assert plain_iteration(game, 1.0, 5) == [-1.0, -0.5, -0.25, -0.125, -0.0625, -0.03125]
    point = forced_value(game, 1.0, "row")
    assert point.value == 0.0
    assert game.value_map(0.1).value > 0.1          # above 0 the iteration runs away


def test_certificates_bracket_a_small_game_and_can_fail():
    A = np.array([[1.0, -1.0], [-1.0, 1.0]])
    B = np.array([[0.5, 0.0], [0.0, 0.5]])
    entry = {(i, j): (Fraction(A[i, j]).limit_denominator(), Fraction(B[i, j]).limit_denominator())
             for i in range(2) for j in range(2)}
    point = forced_value(RecursiveGame(A, B), 1.0, "row")
    half = {0: Fraction(1, 2), 1: Fraction(1, 2)}
    low = certify_lower(half, range(2), lambda i, j: entry[i, j], Fraction(1))
    high = certify_upper(half, range(2), lambda i, j: entry[i, j], Fraction(1))
    assert low.holds and high.holds and low.bound <= point.value + 1e-12 <= high.bound + 2e-12
    assert low.bound == high.bound == 0
    bad = certify_lower({0: Fraction(1)}, range(2), lambda i, j: entry[i, j], Fraction(1))
    assert not bad.holds                               # the pure row loses at column 1: no bound


def test_coalition_of_two_matches_table_1_and_the_full_game():
    pseudo = coalitions.solve_coalition(2, 101)
    assert abs(-pseudo.player1_value - 0.0132) <= 0.0005
    assert pseudo.certified_lower.bound <= Fraction(pseudo.player1_value) + Fraction(1, 10**9)
    assert pseudo.certified_upper.bound >= Fraction(pseudo.player1_value) - Fraction(1, 10**9)
    assert pseudo.certified_upper.bound - pseudo.certified_lower.bound < Fraction(1, 10**8)
    small_pseudo, small_full = coalitions.solve_coalition(2, 21), coalitions.solve_coalition(2, 21, pseudo_bloc=False)
    assert small_full.player1_value == pytest.approx(small_pseudo.player1_value, abs=1e-9)


def test_guts_coalition_json_contract():
    out = subprocess.run([sys.executable, "-m", "derivations", "guts-coalition", "--opponents", "2", "--mesh",
                          "21", "--pseudo-bloc", "--json"], capture_output=True, text=True, check=True, cwd=ROOT)
    data = json.loads(out.stdout)
    assert data["opponents"] == 2 and data["mesh"] == 21 and data["player1_value"] < 0
    assert abs(sum(data["player1_strategy"].values()) - 1) < 1e-9
    assert all(len(c["thresholds"]) == 2 for c in data["coalition_strategy"])
    assert abs(sum(c["prob"] for c in data["coalition_strategy"]) - 1) < 1e-9
    mesh = {round(k / 20, 12) for k in range(21)}
    assert all(t in mesh for c in data["coalition_strategy"] for t in c["thresholds"])


def test_too_large_full_game_is_refused(capsys):
    from derivations.cli import main

    assert main(["guts-coalition", "--opponents", "4", "--mesh", "101"]) == 2
    assert "4598126 coalition strategies" in capsys.readouterr().err


def test_guts_team_json_and_refusal(capsys):
    from derivations.cli import main

    assert main(["guts-team", "--mesh", "11", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    low, high = (Fraction(b) for b in data["team_certified_bounds"])
    assert low <= 0 <= high and data["team"] == data["opponents"] == 2
    assert all(len(c["thresholds"]) == 2 for c in data["team_strategy"] + data["opponents_strategy"])
    assert main(["guts-team", "--mesh", "201"]) == 2
    assert "20301 x 20301 team strategies" in capsys.readouterr().err


@pytest.mark.pinned
def test_committed_guts_outputs_are_fresh(tmp_path):
    """The long parts come from the committed content-hashed cache (their keys must match the current code);
    the cheap parts are recomputed; every committed text file must equal the rendering byte for byte."""
    from derivations.buck2022.outputs import CACHE_FILE, TEXT_FILES, stale_parts, write_guts_outputs

    committed = ROOT / "outputs" / "guts"
    stale = stale_parts(committed)
    assert not stale, f"outputs/guts: parts {stale} were computed by other code: run `symgame derive guts`"
    write_guts_outputs(tmp_path, pdf=False, cache_from=committed)
    for name in TEXT_FILES + (CACHE_FILE,):
        assert (committed / name).exists(), f"{committed / name} missing: run `symgame derive guts`"
        assert (committed / name).read_bytes() == (tmp_path / name).read_bytes(), f"{committed / name} is stale"


def test_a_cached_part_is_reused_only_under_its_key(tmp_path, monkeypatch):
    from derivations.buck2022 import outputs as guts_outputs
    from symgame.export import cache

    store = cache.StudyCache(tmp_path / "c.json")
    key = guts_outputs.part_key("mesh")
    store.put("mesh", key, {"points": [[2, 101, 0.5]]})
    store.save()
    again = cache.StudyCache(tmp_path / "c.json")
    assert again.get("mesh", key) == {"points": [[2, 101, 0.5]]}
    assert again.get("mesh", "0" * 64) is None
    # the key follows the method, not the bytes: a comment, a docstring or an annotation changes neither the key
    # nor the provenance; a change of what the code does changes the provenance (listed by `derive --status`);
    # the declared method version and the numerical libraries' versions change the key
    real = cache._module_file
    source = real("symgame.games.guts").read_text(encoding="utf-8")
    monkeypatch.setattr(cache, "_module_file", lambda name: tmp_path / "x.py" if name == "symgame.games.guts"
                        else real(name))
    (tmp_path / "x.py").write_text(source.replace('"""', '"""A docstring edit. ', 1) + "\n# a comment\n")
    same = guts_outputs.part_key("mesh")
    assert same == key and same.provenance == key.provenance
    (tmp_path / "x.py").write_text(source + "\nEXTRA = 1\n")
    changed = guts_outputs.part_key("mesh")
    assert changed == key and changed.provenance["code"] != key.provenance["code"]
    assert cache.content_key("guts/mesh", {}, guts_outputs.PART_ROOTS, version=2) != key
    monkeypatch.setattr(cache, "library_versions", lambda: {"z3-solver": "0.0"})
    assert guts_outputs.part_key("mesh") != key


def test_weenie_threshold_is_proved_safe_for_three_players_and_standard_guts_is_not():
    from symgame.model.decide import Decision

    assert all(r.decision is Decision.TRUE for r in weenie.weenie_guarantee(3))
    standard = weenie.weenie_guarantee(3, weenie=False)
    example = next(r.counterexample for r in standard if r.decision is Decision.FALSE)
    p2, p3 = float(Fraction(example["p2"])), float(Fraction(example["p3"]))
    assert guts.alpha_numeric(2 ** -0.5, [(p2, 1), (p3, 1)]) < 0


@pytest.mark.parametrize("n", [3, 4, 5])
def test_weenie_guarantee_is_proved_by_branch_and_bound_up_to_five_players(n):
    proof = weenie.weenie_guarantee_boxes(n)
    assert proof.proved and proof.radius > 0
    assert all(lemma.holds for lemma in proof.lemmas)


def test_branch_and_bound_fails_for_standard_guts_where_a_coalition_wins():
    proof = weenie.weenie_guarantee_boxes(3, weenie=False)
    assert not proof.proved
    assert proof.certificate.undecided_box is not None or not all(lemma.holds for lemma in proof.lemmas)


@pytest.mark.parametrize("n", [6, 7])
def test_weenie_conjecture_fails_from_six_players_with_a_certified_counterexample(n):
    cx = weenie.weenie_counterexample(n)
    assert cx is not None and cx.certified_negative
    p_star = 3.0 ** (-1 / (n - 1))
    numeric = float(guts.alpha_numeric(p_star, [(float(t), 1) for t in cx.thresholds], weenie=True))
    assert cx.value_lower <= numeric <= cx.value_upper
    mean, se = guts.simulate_alpha([p_star] + [float(t) for t in cx.thresholds], 4_000_000, n, weenie=True)
    assert abs(mean - numeric) < 5 * se and mean + 3 * se < 0


def test_weenie_counterexample_search_finds_nothing_where_the_guarantee_is_proved():
    assert weenie.weenie_counterexample(5) is None


def test_fictitious_play_converges_to_the_symmetric_threshold_at_rate_one_over_t():
    from symgame.numeric.fictitious import fictitious_play

    trace = fictitious_play(guts.three_player_tensors(21), 400)
    assert np.all(np.abs(trace.plays[-50:] / 20 - 2 ** -0.5) <= 0.05 + 1e-12)
    G = np.arange(1, 401) * trace.gaps
    assert trace.gaps[-1] < trace.gaps[49] / 4            # the gap keeps falling
    assert G[-1] < 2 * G[99]                              # ... like 1/t


def test_bot_round_settlement_follows_the_rules():
    from derivations.buck2022.bot import settle_round

    hands = np.array([0.9, 0.5, 0.7])
    lone = settle_round(hands, np.array([True, False, False]), 1.0)
    assert lone.finished and lone.user_return == 2                     # n - 1
    three = settle_round(hands, np.array([True, True, True]), 2.0)
    assert not three.finished and three.user_return == 2 * (3 + 1) and three.stakes_after == 4
    lost = settle_round(hands, np.array([False, True, True]), 1.0)
    assert lost.user_return == 0 and lost.winner == 2                  # a dropper gets the virtual ante r - 2 = 0
    nobody = settle_round(hands, np.array([False, False, False]), 3.0)
    assert nobody.user_return == 0 and nobody.stakes_after == 3 and not nobody.finished


def test_bot_is_scriptable_and_deterministic():
    script = "h\nd\nmaybe\nh\n" * 10
    runs = [subprocess.run([sys.executable, "-m", "derivations", "play", "guts", "--opponents", "2", "--seed", "5",
                            "--games", "2"], input=script, capture_output=True, text=True, cwd=ROOT, check=True)
            for _ in range(2)]
    assert runs[0].stdout == runs[1].stdout
    assert "please answer h (hold) or d (drop)" in runs[0].stdout
    assert "Final score" in runs[0].stdout and "pot 3 antes" in runs[0].stdout


def test_odd_man_coalition_values_are_computed_and_checked():
    from derivations.buck2022.odd_man import asynchronous_value, payoff
    from symgame.model.decide import Decision

    forward, reverse = asynchronous_value(False), asynchronous_value(True)
    assert (forward.synchronous, forward.asynchronous) == (Fraction(-2, 3), Fraction(-1, 2))
    assert (reverse.synchronous, reverse.asynchronous) == (Fraction(-4, 3), Fraction(0))
    assert forward.asynchronous_proved is Decision.TRUE and reverse.asynchronous_proved is Decision.TRUE
    # the odd-man-out blend of 1-1, 2-2, 3-3 holds every choice of player 1 to -4/3 (independent recount)
    assert all(sum(Fraction(payoff(a, b, b, True), 3) for b in range(3)) == Fraction(-4, 3) for a in range(3))
    y, z = reverse.witness
    assert max(sum(payoff(a, b, c, True) * y[b] * z[c] for b in range(3) for c in range(3)) for a in range(3)) == 0


def test_jacob_game_has_exactly_the_three_printed_equilibrium_types():
    from derivations.buck2022 import jacob
    from symgame.engine.atlas import build_atlas, serial_map
    from symgame.verify.polycert import exact_regret

    game = jacob.build_game()
    atlas = build_atlas(game, serial_map)
    found = set()
    for family in atlas.families:
        values = dict(family.members[0].branch.values)
        profile = {f"s{k}": values[f"s{k}"] for k in (1, 2, 3)}
        assert exact_regret(game, profile, {"t": sp.Rational(1, 2)}).is_nash
        found.add(tuple(sorted(profile.values())))
    assert found == {(0, 1, 1), (sp.Rational(1, 3), sp.Rational(1, 3), 1), (sp.Rational(2, 3),) * 3}
    assert len(atlas.families) == 7


def test_theorem_1_3_rate_bounds_the_iterates():
    from symgame.verify.recursive import geometric_rate

    A = np.array([[1.0, -1.0], [-1.0, 1.0]])
    B = np.array([[0.5, 0.0], [0.0, 0.5]])
    entry = {(i, j): (Fraction(A[i, j]).limit_denominator(), Fraction(B[i, j]).limit_denominator())
             for i in range(2) for j in range(2)}
    low = certify_lower({0: Fraction(1, 2), 1: Fraction(1, 2)}, range(2), lambda i, j: entry[i, j], Fraction(1))
    assert low.margin == Fraction(3, 4)
    iterates = plain_iteration(RecursiveGame(A, B), 1.0, 8)
    for n, V in enumerate(iterates):
        gap = float(low.bound) - V
        assert gap <= float(geometric_rate(low, n)) + 1e-12       # (v* - V_n) <= (1 - eps)^n (v* - v_*)
    assert float(low.bound) - iterates[3] == pytest.approx(float(geometric_rate(low, 3)))   # sharp here


@pytest.mark.pinned
def test_lazy_pricing_equals_the_dense_game_and_the_fine_mesh_row_is_fresh():
    from derivations.buck2022.outputs import fine_row
    from symgame.numeric.recursive import RecursiveGame, forced_value

    game = coalitions.pseudo_bloc_game(3, 61)
    dense = forced_value(RecursiveGame(game.A, game.B), 1.0, "row").value
    lazy = coalitions.solve_fine_pseudo_bloc(3, 61)
    assert abs(lazy.player1_value - dense) < 1e-9 and abs(lazy.coalition_side_value - dense) < 1e-8
    committed = (ROOT / "outputs" / "guts" / "table1_m1001.csv").read_text().splitlines()
    assert committed[1] == fine_row(coalitions.solve_fine_pseudo_bloc(2, 1001))
    assert len(committed) == 15 and "continuum estimate" in (ROOT / "outputs" / "guts" / "continuum.md").read_text()


def test_team_game_of_one_against_one_is_the_two_player_game():
    team = coalitions.team_game(1, 1, 11)
    single = coalitions.pseudo_bloc_game(1, 11)
    assert np.allclose(team.A, single.A) and np.allclose(team.B, single.B)


def test_two_against_two_is_antisymmetric_exactly_and_fair():
    game = coalitions.team_game(2, 2, 11)
    rng = np.random.default_rng(3)
    for i, j in rng.integers(0, len(game.rows), size=(6, 2)):
        totals = []
        for mine, theirs in ((game.rows[i], game.columns[j]), (game.columns[j], game.rows[i])):
            totals.append(sum(guts.mesh_alpha_beta(own, mine[:k] + mine[k + 1:] + theirs, 11)[0]
                              for k, own in enumerate(mine)))
        assert totals[0] == -totals[1]
        assert abs(float(totals[0]) - game.A[i, j]) < 1e-12
    result = coalitions.solve_team_game(2, 2, 21)
    assert result.certified_lower.bound <= 0 <= result.certified_upper.bound
    assert result.certified_upper.bound - result.certified_lower.bound < Fraction(1, 10**6)
    assert any(min(th) == 0.0 for th, w in result.row_strategy)          # the split with an always-holder


def test_a_team_playing_the_symmetric_equilibrium_bloc_is_exploited_by_a_split():
    pure = coalitions.pure_team_value(2, 2, 21, (16, 16))
    mine = [Fraction(4, 5)] * 2
    theirs = [Fraction(t).limit_denominator(20) for t in pure.reply]
    alpha = sum(guts.alpha_beta_fraction(mine[0], [(mine[1], 1)] + [(t, 1) for t in theirs])[0] for _ in mine)
    beta = guts.alpha_beta_fraction(mine[0], [(mine[1], 1)] + [(t, 1) for t in theirs])[1]
    assert pure.reply[0] == 0.0 and abs(pure.value - float(alpha / (1 - beta))) < 1e-9 and pure.value < -0.3


def test_lazily_priced_full_game_equals_the_stored_one_and_certifies_the_coalition():
    lazy = coalitions.solve_lazy(coalitions.LazyFullCoalitionGame(3, 21))
    dense = coalitions.solve_coalition(3, 21, pseudo_bloc=False)
    assert lazy.player1_value == pytest.approx(dense.player1_value, abs=1e-9)
    assert lazy.certified_lower is None and lazy.certified_upper.holds
    assert dense.certified_lower.bound <= lazy.certified_upper.bound
    assert lazy.certified_upper.bound - Fraction(lazy.coalition_side_value) < Fraction(1, 10**6)


def test_values_are_rounded_from_their_certified_brackets():
    from derivations.buck2022.outputs import stable_decimal

    assert stable_decimal(Fraction(132449, 10**7), Fraction(132452, 10**7), 4) == "0.0132"
    assert stable_decimal(Fraction(13249, 10**6), Fraction(13251, 10**6), 4) == "0.013"     # straddles 0.01325
    assert stable_decimal(Fraction(-3, 10**7), Fraction(2, 10**7), 6) == "0.000000"
    assert stable_decimal(Fraction(-1, 2), Fraction(-1, 2) + Fraction(1, 10**9), 3) == "-0.500"
    assert stable_decimal(Fraction(0), Fraction(1), 4).startswith("[")
