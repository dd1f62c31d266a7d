"""Engines on Billingham's atlas: group-wise best-response certificates (symgame.verify.separable), deviation
gains (symgame.verify.nashrefine) and exact stability (symgame.engine.stability).

Kept beside ``test_billingham.py`` so that the session fixtures built from the rules (the atlas, its analysis
and its stability analysis, about 25 s) are built by one test process, not by each.
"""
import itertools

import numpy as np
import pytest
import sympy as sp

from symgame.engine.stability import jacobian
from symgame.games import billingham
from symgame.model.decide import Decision
from symgame.verify.polycert import ProfileSet, exact_regret
from symgame.verify.separable import certify_best_response


@pytest.mark.slow
def test_billingham_families_are_certified_group_by_group(billingham_atlas):
    game = billingham.build_game()
    checked = 0
    for family in billingham_atlas.families[:6]:
        member = family.members[0]
        for iv in member.range.intervals:
            cert = certify_best_response(game, ProfileSet.from_branch(member.branch), iv)
            assert cert.decision is Decision.TRUE, (family.ident, cert)
            checked += 1
    assert checked >= 6


def test_a_perturbed_family_is_refuted_with_an_exact_counterexample(billingham_atlas):
    """1% more bluffing for Player 3 in the family valid for large P is not an equilibrium."""
    game = billingham.build_game()
    family = next(f for f in billingham_atlas.families if not f.continuum and f.intervals[0].upper is None)
    member = family.members[0]
    values = dict(member.branch.values)
    values["b3"] = values["b3"] * sp.Rational(101, 100)
    cert = certify_best_response(game, ProfileSet(tuple(values.items()), (), ()), member.range.intervals[0])
    assert cert.decision is Decision.FALSE and cert.method == "z3, separable"
    P = game.symbol("P")
    at = sp.Rational(cert.counterexample["P"])
    profile = {x: sp.sympify(v).subs(P, at) for x, v in values.items()}
    assert not exact_regret(game, profile, {"P": at}).is_nash


@pytest.mark.slow
def test_deviation_gains_equal_the_substitution_at_every_vertex(billingham_atlas):
    """``deviation_expressions`` evaluates one polynomial per player at the vertices; the reference substitutes
    every vertex into the payoff, as the definition reads. The gains are rational functions of P, compared as
    such (expanded forms of equal rational functions may differ)."""

    import sympy as sp

    from symgame.verify.nashrefine import deviation_expressions

    game = billingham_atlas.game
    for family in billingham_atlas.families[:8]:
        pset = ProfileSet.from_branch(family.members[0].branch)
        values = {game.symbol(x): e for x, e in pset.values if x not in pset.free}
        reference = {}
        for player in game.players:
            own = [game.symbol(v) for v in player.variables]
            here = player.payoff.xreplace(values)                 # symbols replaced at once, as the definition
            for vertex in itertools.product((0, 1), repeat=len(own)):
                pinned = dict(zip(own, vertex))
                others = {s: e for s, e in values.items() if s not in pinned}
                label = f"player {player.name} plays " + ", ".join(f"{v}={b}" for v, b in zip(player.variables, vertex))
                reference[label] = sp.cancel(here - player.payoff.xreplace(pinned).xreplace(others))
        found = {label: sp.cancel(gain) for label, gain in deviation_expressions(game, pset)}
        assert found == {label: g for label, g in reference.items() if g != 0}, family.ident


@pytest.mark.slow
def test_billingham_stability_matches_the_exact_structure(billingham_analysis, billingham_stability):
    atlas = billingham_analysis.atlas
    result = billingham_stability
    by = {f.family: f for f in result.families}
    assert all(f.rest_point for f in result.families)
    labels = {f.ident: billingham_analysis.printed_labels(f) for f in atlas.families}
    solution = {ls[0]: f for f, ls in labels.items() if len(ls) == 1}

    def opens(k):
        return [r for r in by[solution[k]].ranges if r.lower != r.upper]

    assert {(r.stability, r.oscillatory_dimensions, r.proved) for r in opens("1")} == {("centre", 2, True)}
    for k in ("2", "3", "6", "7", "8"):
        assert {(r.stability, r.proved) for r in opens(k)} == {("unstable", True)}, k
    for k, dims in (("4", 4), ("5", 4), ("10", 6)):
        assert {(r.stability, r.oscillatory_dimensions) for r in opens(k)} == {("centre", dims)}, k
    nine = opens("9")
    assert {(r.configuration.imaginary, r.configuration.zero) for r in nine} == {(6, 1)}
    assert all(r.proved for r in nine)          # the factor in the free variable d2 is decided by z3
    # independent check: numpy eigenvalues at a rational point of each open cell of Solutions 2 and 10
    from symgame.engine.atlas import branch_witness

    J = jacobian(atlas.game, scale=24)
    for k in ("2", "10"):
        fam = next(f for f in atlas.families if f.ident == solution[k])
        r = opens(k)[0]
        value = (r.lower.upper + (r.upper.lower if r.upper is not None else r.lower.upper + 2)) / 2
        w = branch_witness(atlas.game, fam.members[0], value)
        subs = {atlas.game.symbol(x): v for x, v in w.items()}
        subs[atlas.game.symbol("P")] = sp.Rational(value.numerator, value.denominator)
        ev = np.linalg.eigvals(np.array(J.subs(subs).evalf(), dtype=float))
        positive = int((ev.real > 1e-7).sum())
        imaginary = int(((abs(ev.real) < 1e-7) & (abs(ev.imag) > 1e-7)).sum())
        assert positive == r.configuration.positive, k
        assert imaginary == r.configuration.imaginary, k
