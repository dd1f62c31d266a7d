"""Learning dynamics: exact stability with the parameter symbolic, trajectories, the CLI."""
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import sympy as sp

from symgame.engine.atlas import build_atlas, serial_map
from symgame.engine.stability import (
    Configuration,
    configuration_at,
    family_stability,
    jacobian,
    stability_analysis,
)
from symgame.model.polyfile import load_polynomial_game
from symgame.numeric.dynamics import classify, compare_methods, compile_dynamics, lyapunov_exponent, trajectory

SWITCH = """
game: switch
description: pennies for P > 1, coordination for P < 1 (player 1's stake changes sign at P = 1)
parameters:
  P: "[0, 2]"
players:
  - name: "1"
    variables: [x]
    payoff: "(P - 1)*(2*x - 1)*(2*y - 1)"
  - name: "2"
    variables: [y]
    payoff: "-(2*x - 1)*(2*y - 1)"
"""

COORDINATION = """
game: coordination
parameters:
  a: "(0, 4]"
players:
  - name: "1"
    variables: [x]
    payoff: "a*x*y + (1 - x)*(1 - y)"
  - name: "2"
    variables: [y]
    payoff: "a*x*y + (1 - x)*(1 - y)"
"""


def _game(tmp_path, text, name="g.yaml"):
    path = tmp_path / name
    path.write_text(text)
    return load_polynomial_game(path), path


def _ranges(fs):
    return [(float(r.lower), None if r.upper is None else float(r.upper), r.lower == r.upper, r.stability,
             r.oscillatory_dimensions, r.proved) for r in fs.ranges]


def test_interior_equilibrium_switches_from_saddle_to_centre_at_P_1(tmp_path):
    game, _ = _game(tmp_path, SWITCH)
    atlas = build_atlas(game, serial_map)
    interior = [f for f in atlas.families if f.members[0].branch.value_map == {"x": sp.Rational(1, 2),
                                                                              "y": sp.Rational(1, 2)}]
    assert interior
    fs = family_stability(game, interior[0])
    assert fs.rest_point
    kinds = {(lo, hi, point): (st, dims, proved) for lo, hi, point, st, dims, proved in _ranges(fs)}
    assert kinds[(0.0, 1.0, False)] == ("unstable", 0, True)      # coordination: eigenvalues +-real
    assert kinds[(1.0, 2.0, False)] == ("centre", 2, True)        # pennies: +-i w
    # independent check: numpy eigenvalues at the interior point
    J = jacobian(game)
    for P, expect in ((Fraction(1, 2), "unstable"), (Fraction(3, 2), "centre")):
        M = np.array(J.subs({game.symbol("x"): sp.Rational(1, 2), game.symbol("y"): sp.Rational(1, 2),
                             game.symbol("P"): sp.Rational(P.numerator, P.denominator)}).evalf(), dtype=float)
        ev = np.linalg.eigvals(M)
        assert (max(ev.real) > 1e-9) == (expect == "unstable")
        assert (expect == "centre") == (abs(ev.real).max() < 1e-12 and abs(ev.imag).min() > 1e-9)


def test_strict_equilibria_are_asymptotically_stable_and_the_mixed_one_is_not(tmp_path):
    game, _ = _game(tmp_path, COORDINATION)
    atlas = build_atlas(game, serial_map)
    result = stability_analysis(atlas)
    by_point = {}
    for fam in result.families:
        family = next(f for f in atlas.families if f.ident == fam.family)
        values = {k: str(v) for k, v in family.members[0].branch.value_map.items()}
        by_point[(values["x"], values["y"])] = {r.stability for r in fam.ranges}
    assert by_point[("1", "1")] == {"asymptotically stable"}
    assert by_point[("0", "0")] == {"asymptotically stable"}
    mixed = [v for k, v in by_point.items() if k not in {("1", "1"), ("0", "0")}]
    assert mixed and all(v == {"unstable"} for v in mixed)


def test_rest_point_violating_a_sign_has_a_positive_eigenvalue(tmp_path):
    game, _ = _game(tmp_path, COORDINATION)
    # (x, y) = (1, 0) is a rest point (both at faces) but not an equilibrium: dE1/dx = -1 at y = 0.
    conf = configuration_at(game, {"x": 1, "y": 0}, 2)
    assert conf == Configuration(positive=2, imaginary=0, zero=0, negative=0)
    conf = configuration_at(game, {"x": 1, "y": 1}, 2)
    assert conf == Configuration(positive=0, imaginary=0, zero=0, negative=2)


def test_pennies_orbit_is_periodic_and_methods_agree(tmp_path):
    game, _ = _game(tmp_path, SWITCH)
    dyn = compile_dynamics(game, 1.5)
    run = classify(dyn, [0.7, 0.5], until=400.0, window=200.0, lyapunov_tol=0.01)
    assert run.kind == "periodic"
    assert run.absorbed_at is None
    assert compare_methods(dyn, [0.7, 0.5], 50.0) < 1e-5
    # the profit rate of a zero-sum cycle averages to about the value 0
    assert abs(run.profit_rates[0]) < 0.05


def test_coordination_is_absorbed_and_lyapunov_exponent_is_negative(tmp_path):
    game, _ = _game(tmp_path, COORDINATION)
    dyn = compile_dynamics(game, 2.0)
    run = classify(dyn, [0.8, 0.7], until=200.0, window=100.0)
    assert run.kind == "absorbed at the boundary"
    assert run.final[0] > 1 - 1e-6 and run.final[1] > 1 - 1e-6
    assert lyapunov_exponent(dyn, [0.8, 0.7], 50.0) < 0


def test_trajectory_profits_integrate_the_payoffs(tmp_path):
    game, _ = _game(tmp_path, COORDINATION)
    dyn = compile_dynamics(game, 2.0)
    traj = trajectory(dyn, [0.999999, 0.999999], 10.0, points=11)
    # pinned at (1, 1): each player earns a = 2 per unit time
    assert traj.profit_rates == pytest.approx([2.0, 2.0], abs=1e-4)


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "symgame", *args], capture_output=True, text=True, timeout=300)


def _refused(capsys, *args) -> str:
    """The command run in this process (the command line is a thin layer over ``main``): it must exit 2 with one
    line on standard error and nothing on standard output. Returns that line."""
    from symgame.cli import main

    capsys.readouterr()
    status = main(list(args))
    out, err = capsys.readouterr()
    assert status == 2 and out == "", (args, status, out, err)
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, (args, err)
    return err


def test_cli_stability_json_contract(tmp_path):
    _, path = _game(tmp_path, SWITCH)
    out = _cli("stability", str(path), "--json", "--workers", "1")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    fam = data["families"][0]
    assert set(fam) >= {"family", "printed_as", "ranges"}
    r = fam["ranges"][0]
    assert set(r) >= {"from", "to", "stability", "oscillatory_dimensions", "proved"}
    assert set(r["from"]) == {"value", "polynomial", "isolating_interval", "approx"}
    assert {x["stability"] for f in data["families"] for x in f["ranges"]} <= {
        "asymptotically stable", "unstable", "centre", "undecided"}


def test_cli_dynamics_runs_and_rejects_bad_input_in_one_line(tmp_path, capsys):
    _, path = _game(tmp_path, SWITCH)
    out = _cli("dynamics", str(path), "--at", "P=3/2", "--from", "x=0.7", "--until", "200", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["kind"] in ("periodic", "quasi-periodic")
    for bad in (["--at", "P=3/2", "--from", "x=2"], ["--at", "P=3/2", "--rate", "z=1"], [],
                ["--at", "P=3/2", "--until", "-1"], ["--at", "P=3/2", "--scale", "__import__('os')"]):
        _refused(capsys, "dynamics", str(path), *bad)


def _rps(win, lose):
    from symgame.model.gambit import StrategicGame

    table = {(0, 1): -lose, (1, 0): win, (1, 2): -lose, (2, 1): win, (2, 0): -lose, (0, 2): win}
    payoffs = []
    for j in range(3):                    # Gambit order: the first player's strategy changes fastest
        for i in range(3):
            u = Fraction(table.get((i, j), 0))
            v = Fraction(table.get((j, i), 0))
            payoffs.append((u, v))
    return StrategicGame("rps", ("1", "2"), (("R", "P", "S"),) * 2, tuple(payoffs))


def test_replicator_rock_paper_scissors_centre_and_stable_variant():
    from symgame.engine.stability import replicator_configuration
    from symgame.numeric.replicator import replicator

    third = [[Fraction(1, 3)] * 3] * 2
    assert replicator_configuration(_rps(1, 1), third) == Configuration(0, 4, 0, 0)   # zero-sum: a centre
    # two populations: an interior rest point is never asymptotically stable (eigenvalues in pairs +-lam)
    for win, lose in ((2, 1), (1, 2)):
        conf = replicator_configuration(_rps(win, lose), third)
        assert conf.positive == conf.negative == 2, conf
    # one population (the classic evolutionary dynamics): stable when wins pay more than losses cost
    one = [[Fraction(1, 3)] * 3]
    assert replicator_configuration(_rps(2, 1), one, single_population=True) == Configuration(0, 0, 0, 2)
    assert replicator_configuration(_rps(1, 2), one, single_population=True) == Configuration(2, 0, 0, 0)
    assert replicator_configuration(_rps(1, 1), one, single_population=True) == Configuration(0, 2, 0, 0)
    run = replicator(_rps(1, 1), [[0.5, 0.3, 0.2], [0.2, 0.3, 0.5]], until=300.0)
    assert run.kind in ("periodic", "quasi-periodic") and not any(run.extinct)
    assert abs(run.payoff_rates[0]) < 0.05                   # the value 0, on average
    run = replicator(_rps(2, 1), [[0.5, 0.3, 0.2]], until=300.0, single_population=True)
    assert run.kind == "converging"
    assert np.allclose(run.states[0][-1], [1 / 3] * 3, atol=1e-4)
    with pytest.raises(ValueError):
        replicator_configuration(_rps(1, 1), [[Fraction(1, 2), Fraction(1, 2), Fraction(0)]] * 2)


def test_replicator_with_two_actions_is_the_gradient_dynamics(tmp_path):
    from symgame.model.gambit import StrategicGame
    from symgame.numeric.replicator import replicator

    game, _ = _game(tmp_path, SWITCH)
    # the same game as a strategic form at P = 3/2: payoffs (P-1)(2x-1)(2y-1), x = P(first action)
    P = Fraction(3, 2)
    rows = []
    for j in range(2):
        for i in range(2):
            s = (1 if i == 0 else -1) * (1 if j == 0 else -1)
            rows.append(((P - 1) * s, -Fraction(s)))
    strategic = StrategicGame("switch", ("1", "2"), (("a", "b"), ("a", "b")), tuple(rows))
    run = replicator(strategic, [[0.7, 0.3], [0.4, 0.6]], until=20.0, points=201)
    traj = trajectory(compile_dynamics(game, 1.5), [0.7, 0.4], 20.0, points=201)
    assert np.allclose(run.states[0][:, 0], traj.frequencies[:, 0], atol=1e-7)
    assert np.allclose(run.states[1][:, 0], traj.frequencies[:, 1], atol=1e-7)


def test_cli_replicator_on_a_normal_form_file(capsys):
    root = Path(__file__).resolve().parents[2]
    out = _cli("dynamics", str(root / "examples" / "rps_variant.yaml"), "--at", "t=2", "--single-population",
               "--from", "Row=1/2:1/3:1/6", "--until", "300", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["dynamics"] == "replicator (one population)"
    assert abs(sum(data["final"]["Row"].values()) - 1) < 1e-9
    for bad in (["--at", "t=2", "--from", "Row=1/2:1/2:1/6"], ["--at", "t=9"], [],
                ["--at", "t=2", "--rate", "x=1"], ["--at", "q=2"]):
        _refused(capsys, "dynamics", str(root / "examples" / "rps_variant.yaml"), *bad)
