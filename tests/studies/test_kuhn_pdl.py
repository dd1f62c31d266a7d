"""The corrected n-card Kuhn PDL: exact zero exploitability, the induced value formula, the family, the CLI."""
import json
import random
from fractions import Fraction
from pathlib import Path

import pytest
import sympy as sp
from hypothesis import given, seed, settings
from hypothesis import strategies as st

from derivations.cli import main as studies
from derivations.ganzfried2022 import kuhn_outputs, kuhn_pdl
from symgame.engine.induce import InductionError, N, induce_residue_formula
from symgame.games import kuhn

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "outputs" / "kuhn"


# ---------------------------------------------------------------------------
# the inducer
# ---------------------------------------------------------------------------
def test_inducer_recovers_a_quasi_polynomial_and_checks_held_out_samples():
    truth = {n: Fraction(n * (n // 3), 1) + Fraction(n % 2, 7) for n in range(1, 40)}
    formula = induce_residue_formula(truth, max_modulus=6, max_degree=2)
    assert formula.modulus == 6 and formula.degree == 2
    assert all(formula(n) == truth[n] for n in truth)
    assert [formula(n) for n in range(40, 80)] == [Fraction(n * (n // 3)) + Fraction(n % 2, 7) for n in range(40, 80)]


def test_inducer_refuses_what_it_cannot_explain():
    rng = random.Random(5)
    noise = {n: Fraction(rng.randint(-50, 50), rng.randint(1, 9)) for n in range(3, 40)}
    with pytest.raises(InductionError, match="no polynomial"):
        induce_residue_formula(noise, max_modulus=4, max_degree=2)
    # one wrong sample is enough: every candidate's class holding n = 19 disagrees with its other samples
    samples = {n: Fraction(n * n) for n in range(3, 80)}
    assert induce_residue_formula(samples).polynomials == (N**2,)
    samples[19] += 1
    with pytest.raises(InductionError):
        induce_residue_formula(samples, max_modulus=12, max_degree=2)


# ---------------------------------------------------------------------------
# the O(n) exact best responses against the generic sequence form
# ---------------------------------------------------------------------------
def random_behaviours(n, rng):
    def prob():
        return rng.choice([Fraction(0), Fraction(1), Fraction(rng.randint(0, 12), 12), Fraction(rng.randint(0, 7), 7)])
    a, b = {}, {}
    for x in range(1, n + 1):
        p, q, r, s = prob(), prob(), prob(), prob()
        a[f"A:{x}:open"] = {"bet": p, "check": 1 - p}
        a[f"A:{x}:check-bet"] = {"call": q, "fold": 1 - q}
        b[f"B:{x}:bet"] = {"call": r, "fold": 1 - r}
        b[f"B:{x}:check"] = {"bet": s, "check": 1 - s}
    return a, b


@seed(20261122)
@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=2, max_value=9), st.integers(min_value=0, max_value=10**6))
def test_fast_best_responses_equal_the_sequence_form(n, salt):
    a, b = random_behaviours(n, random.Random(salt))
    fast = kuhn_pdl.exact_bounds(n, a, b)
    generic = kuhn.check_behaviours(n, Fraction(0), a, b)
    assert fast.lower == -generic.exploitability_a and fast.upper == generic.exploitability_b


# ---------------------------------------------------------------------------
# the corrected list
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("n", list(range(3, 31)) + [64, 99, 100, 101, 997, 1000])
def test_corrected_list_is_an_exact_equilibrium(n):
    bounds = kuhn_pdl.exact_bounds(n, *kuhn_pdl.behaviours(kuhn_pdl.corrected_pdl(n)))
    assert bounds.certified and bounds.lower == kuhn_pdl.value_formula()(n)


@seed(1122)
@settings(max_examples=12, deadline=None)
@given(st.integers(min_value=1001, max_value=6000))
def test_corrected_list_beyond_every_named_deck(n):
    check = kuhn_pdl.check_corrected(n)
    assert check.exploitability_a == 0 and check.exploitability_b == 0


@pytest.mark.parametrize("n", [3, 4, 5, 6, 8, 11, 12])
def test_corrected_list_equals_the_lp_value_through_the_sequence_form(n):
    """Independent route: sequence-form LP value and the generic exact best responses."""
    solution = kuhn.solve_exactly(n)
    check = kuhn.check_behaviours(n, solution.value, *kuhn_pdl.behaviours(kuhn_pdl.corrected_pdl(n)))
    assert check.exploitability_a == 0 and check.exploitability_b == 0
    assert solution.value == kuhn_pdl.value_formula()(n)


def test_value_formula_equals_every_certified_lp_value():
    formula = kuhn_pdl.value_formula()
    assert formula.modulus == 6 and formula.degree == 2
    assert formula.polynomials[1].equals(-(N + 2) / (18 * N))
    rows = (OUT / "values.csv").read_text().splitlines()[1:]
    assert len(rows) == 198
    for row in rows:
        cards, value = row.split(",")[:2]
        assert formula(int(cards)) == Fraction(value), cards
    assert sp.limit(formula.polynomials[4], N, sp.oo) == sp.Rational(-1, 18)


@pytest.mark.parametrize("field, change", [("a_bluff", Fraction(1, 100)), ("a_call", Fraction(-1, 10)),
                                           ("b_call", Fraction(1, 20)), ("b_bluff", Fraction(-1, 10))])
def test_a_perturbed_list_is_caught(field, change):
    for n in (8, 14, 20):
        pdl = kuhn_pdl.corrected_pdl(n)
        moved = kuhn_pdl.KuhnPDL(**{**pdl.__dict__, field: getattr(pdl, field) + change})
        check = kuhn_pdl.exact_bounds(n, *kuhn_pdl.behaviours(moved))
        assert not check.certified, (field, n)


@pytest.mark.parametrize("n", range(3, 45))
def test_family_of_a_is_exactly_as_stated(n):
    family = kuhn_pdl.threshold_family(n)
    value, eps = kuhn_pdl.value_formula()(n), Fraction(1, 1000)

    def optimal(beta, gamma):
        return kuhn_pdl.value_against_best_b(n, kuhn_pdl.a_threshold_list(n, beta, gamma)) == value

    lo, hi = family.beta_low, family.beta_high
    assert optimal(lo, lo + family.spread_high) and optimal(hi, hi + family.spread_low)
    assert not optimal(lo - eps, lo - eps + family.spread_high) and not optimal(hi + eps, hi + eps + family.spread_low)
    mid = (lo + hi) / 2
    assert not optimal(mid, mid + family.spread_high + eps) and not optimal(mid, mid + family.spread_low - eps)
    assert family.unique == (n % 2 == 0)
    pdl = kuhn_pdl.corrected_pdl(n)
    assert lo <= pdl.a_bluff <= hi


# ---------------------------------------------------------------------------
# command line and outputs
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("n", [3, 10, 137])
def test_cli_json_is_the_closed_form(n, capsys):
    assert studies(["kuhn-cards", "--cards", str(n), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["cards"] == n and Fraction(data["value"]) == kuhn_pdl.value_formula()(n)
    assert data["strategy"] == kuhn.strategy_table(n, kuhn_pdl.behaviours(kuhn_pdl.corrected_pdl(n)))
    assert "closed-form" in data["strategy_source"]


def test_cli_large_deck_and_limits(capsys):
    assert studies(["kuhn-cards", "--cards", "5000", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert Fraction(data["value"]) == kuhn_pdl.value_formula()(5000)
    assert studies(["kuhn-cards", "--cards", "100001"]) == 2
    assert "--cards must be between" in capsys.readouterr().err


@pytest.mark.pinned
def test_closed_form_outputs_are_fresh():
    from derivations.ganzfried2022 import kuhn_proof

    checks = kuhn_outputs.closed_form_checks()
    proofs = kuhn_proof.prove_all_residues()
    assert all(c.exploitability_a == 0 == c.exploitability_b for c in checks)
    assert (OUT / "closed_form_check.csv").read_text() == kuhn_outputs.closed_form_csv(checks)
    assert (OUT / "pdl.json").read_text() == kuhn_outputs.pdl_json(checks, proofs)
    assert (OUT / "cheatsheet.tex").read_text() == kuhn_outputs.cheatsheet_tex(checks, proofs)
    assert "proved for every n >= 3" in (OUT / "pdl.json").read_text()


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.integers(1, 40), st.lists(st.fractions(min_value=-5, max_value=45, max_denominator=12), min_size=6,
                                    max_size=6))
def test_threshold_behaviours_are_the_rules_card_by_card(cards, thresholds):
    """The behaviours evaluate each threshold rule only at its fractional card; they must equal the rules applied
    to every card (and each pair of probabilities sum to 1)."""
    a_bluff, a_value, a_call, b_call, b_bluff, b_value = thresholds
    a, b = kuhn.threshold_behaviours(cards, *thresholds)
    for x in range(1, cards + 1):
        bet = max(kuhn._lower_rule(x, a_bluff), kuhn._upper_rule(x, a_value))
        assert a[f"A:{x}:open"] == {"bet": bet, "check": 1 - bet}
        assert a[f"A:{x}:check-bet"] == {"call": kuhn._upper_rule(x, a_call), "fold": 1 - kuhn._upper_rule(x, a_call)}
        assert b[f"B:{x}:bet"] == {"call": kuhn._upper_rule(x, b_call), "fold": 1 - kuhn._upper_rule(x, b_call)}
        bets = max(kuhn._lower_rule(x, b_bluff), kuhn._upper_rule(x, b_value))
        assert b[f"B:{x}:check"] == {"bet": bets, "check": 1 - bets}
