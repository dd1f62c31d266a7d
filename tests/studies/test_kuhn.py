"""n-card Kuhn poker: certified values, an independent brute-force oracle, the printed PDL."""
import json
from fractions import Fraction
from itertools import product
from pathlib import Path

import numpy as np
import pytest
from scipy.optimize import linprog

from derivations.cli import main as studies
from derivations.ganzfried2022.kuhn_outputs import check_csv, reports, values_csv
from symgame.games import kuhn

ROOT = Path(__file__).resolve().parents[2]
KNOWN = {3: Fraction(-1, 18), 4: Fraction(-1, 24), 5: Fraction(-1, 15), 7: Fraction(-1, 14),
         9: Fraction(-7, 108), 13: Fraction(-5, 78)}


@pytest.mark.parametrize("n", sorted(KNOWN))
def test_known_values_through_cli(n, capsys):
    assert studies(["kuhn-cards", "--cards", str(n), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["cards"] == n and Fraction(data["value"]) == KNOWN[n]
    for player, keys in (("A", ("bet", "call")), ("B", ("call", "bet"))):
        for key in keys:
            probs = data["strategy"][player][key]
            assert sorted(probs, key=int) == [str(c) for c in range(1, n + 1)]
            assert all(0 <= Fraction(p) <= 1 for p in probs.values())


def play(n, x, y, a_pure, b_pure):
    """A's payoff for one deal under pure strategies, straight from the rules."""
    sign = 1 if x > y else -1
    a_open, a_call = a_pure[x]
    b_call, b_bet = b_pure[y]
    if a_open == "bet":
        return Fraction(2 * sign) if b_call == "call" else Fraction(1)
    if b_bet == "check":
        return Fraction(sign)
    return Fraction(2 * sign) if a_call == "call" else Fraction(-1)


def pure_strategies(n, first, second):
    """Every pure strategy: one (first, second) choice per card."""
    return [dict(zip(range(1, n + 1), combo)) for combo in product(product(first, second), repeat=n)]


def test_three_card_certificate_against_brute_force():
    """Normal form of 3-card Kuhn (64 x 64 pure strategies), built independently of the library."""
    n = 3
    a_pures = pure_strategies(n, ("bet", "check"), ("call", "fold"))
    b_pures = pure_strategies(n, ("call", "fold"), ("bet", "check"))
    deals = [(x, y) for x in range(1, n + 1) for y in range(1, n + 1) if x != y]
    matrix = [[sum(play(n, x, y, a, b) for x, y in deals) / len(deals) for b in b_pures] for a in a_pures]
    m = np.array(matrix, dtype=float)
    res = linprog(np.r_[np.zeros(len(a_pures)), -1], A_ub=np.c_[-m.T, np.ones(len(b_pures))],
                  b_ub=np.zeros(len(b_pures)), A_eq=np.r_[np.ones(len(a_pures)), 0][None, :], b_eq=[1],
                  bounds=[(0, None)] * len(a_pures) + [(None, None)], method="highs")
    assert abs(-res.fun - float(Fraction(-1, 18))) < 1e-9
    # the certified behaviour strategies: B's best pure reply to A's, and A's to B's, exactly
    solution = kuhn.solve_exactly(n)
    a_beh, b_beh = solution.behaviours

    def mix_probability(pure, behaviour, first_infoset, second_infoset):
        """Probability of a pure strategy under a behaviour strategy (Kuhn's theorem)."""
        p = Fraction(1)
        for card in range(1, n + 1):
            first, second = pure[card]
            p *= behaviour[first_infoset.format(card)][first] * behaviour[second_infoset.format(card)][second]
        return p

    a_mix = [mix_probability(a, a_beh, "A:{}:open", "A:{}:check-bet") for a in a_pures]
    b_mix = [mix_probability(b, b_beh, "B:{}:bet", "B:{}:check") for b in b_pures]
    assert sum(a_mix) == 1 and sum(b_mix) == 1
    worst_for_a = min(sum(a_mix[i] * matrix[i][j] for i in range(len(a_pures))) for j in range(len(b_pures)))
    best_for_a = max(sum(b_mix[j] * matrix[i][j] for j in range(len(b_pures))) for i in range(len(a_pures)))
    assert worst_for_a == best_for_a == Fraction(-1, 18)


@pytest.mark.pinned
def test_printed_pdl_exploitable_and_outputs_fresh():
    rows = reports(range(3, 26), processes=1)
    assert all(r.printed.exploitability_b > 0 for r in rows)
    assert all(r.printed.exploitability_a >= 0 and r.count_reading.exploitability_b >= 0 for r in rows)
    committed_values = (ROOT / "outputs" / "kuhn" / "values.csv").read_text().splitlines()
    committed_checks = (ROOT / "outputs" / "kuhn" / "ganzfried_check.csv").read_text().splitlines()
    assert values_csv(rows).splitlines() == committed_values[: len(rows) + 1]
    assert check_csv(rows).splitlines() == committed_checks[: len(rows) + 1]
    assert committed_values[-1].startswith("200,")


@pytest.mark.parametrize("cards", ["1", "100001"])
def test_bad_deck_size(cards, capsys):
    assert studies(["kuhn-cards", "--cards", cards]) == 2
    assert "--cards must be between" in capsys.readouterr().err


@pytest.mark.pinned
def test_committed_kuhn_outputs_match_their_content_keyed_cache():
    """The cache is current for this code (else `symgame derive kuhn` must be run) and equals the files."""
    import json

    from derivations.ganzfried2022.kuhn_outputs import CACHE_FILE, kuhn_key

    directory = Path(__file__).resolve().parents[2] / "outputs" / "kuhn"
    entry = json.loads((directory / CACHE_FILE).read_text())["all"]
    assert entry["key"] == kuhn_key(), "outputs/kuhn was computed by other code: run `symgame derive kuhn`"
    for name, text in entry["data"].items():
        assert (directory / name).read_text(encoding="utf-8") == text, name
