"""The symbolic proof that the corrected Kuhn PDL is optimal for every n."""
import pytest
import sympy as sp

from derivations.ganzfried2022 import kuhn_pdl, kuhn_proof


def test_every_residue_is_proved_and_the_direct_check_covers_the_rest():
    proofs = kuhn_proof.prove_all_residues()
    assert [p.residue for p in proofs] == list(range(36)) and all(p.proved for p in proofs)
    # the symbolic argument holds for q > q0; the exact check (tests of kuhn_pdl) covers n <= 1000
    assert kuhn_proof.smallest_covered(proofs[0].q0 + 1) <= 1000


@pytest.mark.parametrize("r, q", [(0, 3), (7, 4), (22, 5), (35, 3)])
def test_symbolic_totals_equal_the_exact_best_responses(r, q):
    """The polynomials in q, evaluated, agree with the independent O(n) evaluator."""
    order = kuhn_proof._Order(2)
    n = 36 * q + r
    a, b = kuhn_pdl.behaviours(kuhn_pdl.corrected_pdl(n))
    low, _ = kuhn_proof.lower_bound_total(r, order)
    high, _ = kuhn_proof.upper_bound_total(r, order)
    assert low.subs(kuhn_proof.Q, q) == sp.Rational(str(kuhn_pdl.value_against_best_b(n, a) * n * (n - 1)))
    assert high.subs(kuhn_proof.Q, q) == sp.Rational(str(kuhn_pdl.value_against_best_a(n, b) * n * (n - 1)))


def test_a_wrong_list_is_not_proved(monkeypatch):
    n_sym = sp.Symbol("n", integer=True, positive=True)
    monkeypatch.setitem(kuhn_pdl.THRESHOLDS, "b_call", (n_sym + 2) / 3)   # B calls one card too often
    try:
        proof = kuhn_proof.prove_residue(4, 2)
    except kuhn_proof.ProofFailure:
        return
    assert not proof.proved
