"""Ideal-membership certificates (symgame.engine.membership) and support certificates (enumpoly.certify_support)."""
from fractions import Fraction

import pytest
import sympy as sp
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from symgame.engine import enumpoly
from symgame.engine.membership import SingularError, _read, check_certificate, find_certificate, singular_program
from symgame.engine.msolve import msolve_program
from symgame.errors import LimitError
from symgame.model.gambit import read_nfg

needs_singular = pytest.mark.skipif(singular_program() is None,
                                    reason="Singular is not installed (.ci/install installs it)")
x, y, z = sp.symbols("x y z")

THREE = read_nfg('''NFG 1 R "Three players" { "1" "2" "3" } { 2 2 2 }
3 1 3  0 0 3  0 3 3  3 1 1  2 3 1  2 1 0  3 1 3  1 1 2''')


@needs_singular
def test_unit_certificate_checks_and_a_tampered_one_does_not():
    equations = [x * y - 1, x - y, x + y]          # x = y = 0 from the last two, then xy = 0 != 1
    cert = find_certificate(equations, [x, y], [sp.Integer(1)])
    assert check_certificate(equations, [x, y], [sp.Integer(1)], cert)
    cert[0][2] = {(0, 0): Fraction(1, 2)}
    assert not check_certificate(equations, [x, y], [sp.Integer(1)], cert)
    assert not check_certificate(equations, [x, y], [sp.Integer(1)], [])


@needs_singular
def test_a_target_outside_the_ideal_gets_no_certificate():
    with pytest.raises(SingularError, match="no certificate"):
        find_certificate([x ** 2 - 1], [x], [x - 1])              # x = -1 is a zero of x^2 - 1, not of x - 1


def test_singular_output_is_read_by_a_restricted_parser():
    assert _read("3 1,0\n-1/2 0,0\n.\n.\n", 1, 2) == [[{(1, 0): Fraction(3), (0, 0): Fraction(-1, 2)}, {}]]
    for bad in ("3 1,0\n", "x 1,0\n.\n", "1 1\n.\n", "1 -1,0\n.\n", "1 1,0\n1 1,0\n.\n", "__import__('os') 1,0\n.\n",
                "1 1,0 2\n.\n", ""):
        with pytest.raises(SingularError):
            _read(bad, 1, 2)


@needs_singular
@seed(20261128)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(st.integers(-3, 3), min_size=4, max_size=4), min_size=2, max_size=3),
       st.lists(st.integers(-3, 3), min_size=3, max_size=3))
def test_a_combination_of_the_generators_is_certified(rows, weights):
    """A target built as a combination of random generators lies in their ideal: Singular finds cofactors (not
    necessarily the ones used) and they check exactly; the same target plus 1 does not check with them."""
    generators = [a * x * y + b * z ** 2 + c * x + d for a, b, c, d in rows]
    target = sp.expand(sum(w * g * (x + k) for k, (w, g) in enumerate(zip(weights, generators))))
    cert = find_certificate(generators, [x, y, z], [target])
    assert check_certificate(generators, [x, y, z], [target], cert)
    assert not check_certificate(generators, [x, y, z], [target + 1], cert)


@needs_singular
@pytest.mark.skipif(msolve_program() is None, reason="msolve is not installed (.ci/install installs it)")
def test_support_certificates_agree_with_the_enumeration():
    """Every support of a small three-player game certified from scratch: the certified equilibria are exactly
    the enumeration's, support by support (the totally mixed one holds sqrt(7)'s equilibrium)."""
    found = enumpoly.enumpoly_solve(THREE)
    by_support = {}
    for eq in found.equilibria:
        by_support.setdefault(eq.support, []).append([[str(p) for p in mix] for mix in eq.profile])
    mixed = ((0, 1), (0, 1), (0, 1))
    cert = enumpoly.certify_support(THREE, mixed)
    assert cert.kind == "parametrized" and cert.solutions == 2 and cert.terms > 0
    assert [[[str(p) for p in mix] for mix in e.profile] for e in cert.equilibria] == by_support[mixed]
    empty = enumpoly.certify_support(THREE, ((0, 1), (0,), (0, 1)))
    assert empty is not None and empty.equilibria == () and ((0, 1), (0,), (0, 1)) not in by_support
    assert enumpoly.certify_support(THREE, mixed, attempt=lambda unknowns, solutions: solutions < 2) is None


@needs_singular
@pytest.mark.skipif(msolve_program() is None, reason="msolve is not installed (.ci/install installs it)")
def test_enumeration_with_certify_moves_msolve_supports_to_certified(monkeypatch):
    """With FLINT's bases limited to 2 unknowns the totally mixed support (3 unknowns) goes to msolve; with
    ``certify`` it is proved afterwards and listed as certified instead, the same equilibria."""
    monkeypatch.setattr(enumpoly, "FLINT_VARIABLES", 2)
    plain = enumpoly.enumpoly_solve(THREE)
    mixed = ((0, 1), (0, 1), (0, 1))
    assert mixed in plain.msolve_supports and not plain.certified_supports
    proved = enumpoly.enumpoly_solve(THREE, certify=True)
    assert mixed in proved.certified_supports and mixed not in proved.msolve_supports
    assert [[str(p) for mix in e.profile for p in mix] for e in proved.equilibria] == \
        [[str(p) for mix in e.profile for p in mix] for e in plain.equilibria]


@needs_singular
@pytest.mark.skipif(msolve_program() is None, reason="msolve is not installed (.ci/install installs it)")
def test_front_door_and_command_line_pass_certify_through(monkeypatch, tmp_path, capsys):
    """``symgame.solve(game, certify=True)`` and ``symgame solve FILE --certify --json`` list the msolve support
    proved afterwards as certified (FLINT's bases limited to 2 unknowns, so that msolve answers it)."""
    import json

    import symgame
    from symgame.cli import main

    monkeypatch.setattr(enumpoly, "FLINT_VARIABLES", 2)
    data = symgame.solve(THREE, certify=True).to_data()
    assert json.dumps(data).count("certified_supports") == 1
    assert "msolve_supports" not in json.dumps(data)
    path = tmp_path / "three.nfg"
    path.write_text('NFG 1 R "Three players" { "1" "2" "3" } { 2 2 2 }\n3 1 3  0 0 3  0 3 3  3 1 1  2 3 1  2 1 0  '
                    '3 1 3  1 1 2\n')
    assert main(["solve", str(path), "--certify", "--json"]) == 0
    assert "certified_supports" in capsys.readouterr().out
    assert main(["solve", str(path), "--json"]) == 0
    assert "msolve_supports" in capsys.readouterr().out


@pytest.mark.skipif(msolve_program() is None, reason="msolve is not installed (.ci/install installs it)")
def test_certify_proves_an_empty_msolve_support_by_the_linear_certificate_without_singular(monkeypatch):
    """With FLINT's bases and z3's screen switched off, a three-player game's totally mixed support (no equilibrium)
    and a support holding one go to msolve; with ``certify`` and no Singular, the empty one is proved by the
    lifted relaxation's exact certificate (`symgame.engine.supportlift`) and the other stays on msolve."""
    import z3

    from symgame.engine import membership
    from symgame.model.gambit import StrategicGame

    values = [8, 4, 9, 3, 4, 0, 7, 2, 2, 4, 7, 0, 4, 5, 5, 8, 5, 3, 0, 4, 3, 5, 2, 0]
    game = StrategicGame("no mixed equilibrium", ("1", "2", "3"), (("a", "b"),) * 3,
                         tuple(tuple(Fraction(values[3 * k + i]) for i in range(3)) for k in range(8)))
    monkeypatch.setattr(enumpoly, "FLINT_VARIABLES", 0)
    monkeypatch.setattr(enumpoly, "_decide", lambda system, extra=(), timeout_ms=0: (z3.unknown, None))
    monkeypatch.setattr(membership, "singular_program", lambda: None)
    mixed, held = ((0, 1), (0, 1), (0, 1)), ((0, 1), (0,), (0, 1))
    plain = enumpoly.enumpoly_solve(game)
    assert set(plain.msolve_supports) == {mixed, held} and held in {e.support for e in plain.equilibria}
    proved = enumpoly.enumpoly_solve(game, certify=True)
    assert proved.certified_supports == (mixed,) and proved.msolve_supports == (held,)
    assert [e.profile for e in proved.equilibria] == [e.profile for e in plain.equilibria]


def test_an_indented_singular_error_is_no_certificate(monkeypatch):
    """Singular prints its errors as "?" lines, indented inside a loop; such output is "no certificate", not a
    malformed cofactor (seen on coord333.nfg's totally mixed support, whose ideal does not hold msolve's
    eliminating polynomial)."""
    import subprocess

    from symgame.engine import membership

    text = ("   ? 2nd module does not lie in the first\n"
            "   ? error occurred in or before STDIN line 5: `matrix M=lift(i,tg); int a; int b;`\n")
    monkeypatch.setattr(membership, "singular_program", lambda: "Singular")
    monkeypatch.setattr(membership.subprocess, "run",
                        lambda *a, **k: subprocess.CompletedProcess(a, 0, stdout=text, stderr=""))
    with pytest.raises(SingularError, match="no certificate"):
        find_certificate([x ** 2 - 1], [x], [x - 1])


@pytest.mark.skipif(msolve_program() is None, reason="msolve is not installed (.ci/install installs it)")
@pytest.mark.parametrize("failure", [SingularError("Singular found no certificate (a target may not be in the ideal)"),
                                     LimitError("Singular printed more than 200000000 characters")])
def test_certify_leaves_a_support_without_cofactors_on_msolve(monkeypatch, failure):
    """When Singular finds no cofactors for an msolve support that holds an equilibrium (or prints too much), the
    enumeration with ``certify`` still returns, the support listed as resting on msolve."""
    from symgame.engine import membership

    def no_cofactors(*args, **kwargs):
        raise failure

    monkeypatch.setattr(enumpoly, "FLINT_VARIABLES", 2)
    monkeypatch.setattr(enumpoly, "_certify", no_cofactors)
    monkeypatch.setattr(membership, "singular_program", lambda: "Singular")
    mixed = ((0, 1), (0, 1), (0, 1))
    proved = enumpoly.enumpoly_solve(THREE, certify=True)
    assert mixed in proved.msolve_supports and not proved.certified_supports
