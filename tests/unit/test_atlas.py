"""The case-splitting atlas engine on small polynomial games: executors, checkpoints, soundness."""
import json
import random
import subprocess
import sys
import warnings
from fractions import Fraction
from pathlib import Path

import nashpy
import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from symgame.cli import main
from symgame.engine.atlas import DaskMapper, build_atlas, process_map, serial_map
from symgame.engine.parametric import has_sqrt
from symgame.engine.ranges import compare_endpoints, rational_endpoint
from symgame.export.atlas_outputs import witnesses_json
from symgame.model.parameters import parse_domain
from symgame.model.polyfile import polynomial_game_from_data
from symgame.model.polygame import PolynomialGame, PolyPlayer
from symgame.verify.atlascheck import equilibria_at, lies_in
from symgame.verify.polycert import exact_regret

ROOT = Path(__file__).resolve().parents[2]


def symbol(name):
    return sp.Symbol(name, real=True)


def bimatrix_game(entries, domain="[0, 2]"):
    """A 2x2 game with entries affine in t: x, y are the probabilities of each player's second action."""
    x, y, t = symbol("x"), symbol("y"), symbol("t")
    weights = {(0, 0): (1 - x) * (1 - y), (0, 1): (1 - x) * y, (1, 0): x * (1 - y), (1, 1): x * y}
    payoff = [sum(w * (entries[k][i][j][0] + entries[k][i][j][1] * t) for (i, j), w in weights.items())
              for k in (0, 1)]
    return PolynomialGame("bimatrix", (parse_domain("t", domain),),
                          (PolyPlayer("A", ("x",), sp.expand(payoff[0])), PolyPlayer("B", ("y",), sp.expand(payoff[1]))))


def three_player_game(seed=2):
    """A random multilinear three-player game, two frequencies each, parameter t in [0, 3]."""
    rng = random.Random(seed)
    names = (("x1", "x2"), ("y1", "y2"), ("z1", "z2"))
    t = symbol("t")
    variables = [symbol(v) for group in names for v in group]
    players = []
    for k, own in enumerate(names):
        others = [v for v in variables if str(v) not in own]
        payoff = 0
        for v in own:
            s = symbol(v)
            for o in others[:3]:
                payoff += rng.randint(-3, 3) * s * o
            payoff += (rng.randint(-2, 2) + rng.randint(-1, 1) * t) * s
        players.append(PolyPlayer(str(k + 1), own, sp.expand(payoff)))
    return PolynomialGame("three", (parse_domain("t", "[0, 3]"),), tuple(players))


def fingerprint(atlas):
    return ([(f.ident, tuple((x, str(v)) for x, v in f.leaders),
              tuple((str(iv.lower.value), iv.lower_closed, str(iv.upper.value) if iv.upper else None, iv.upper_closed)
                    for iv in f.intervals)) for f in atlas.families],
            (atlas.stats.raw_cases, atlas.stats.search_nodes, atlas.stats.survivors, atlas.stats.solved))


@pytest.fixture(scope="session")     # see conftest.py: built once per worker
def serial_atlas():
    return build_atlas(three_player_game(), serial_map)


def test_three_player_atlas_members_are_equilibria(serial_atlas):
    game = serial_atlas.game
    assert serial_atlas.families
    for family in serial_atlas.families:
        for member in family.members:
            for iv in member.range.intervals:
                value = iv.lower.lower if iv.is_point else (iv.lower.upper + (iv.upper.lower if iv.upper else
                                                                           iv.lower.upper + 1)) / 2
                from symgame.engine.atlas import branch_witness
                profile = branch_witness(game, member, value)
                assert exact_regret(game, profile, {"t": sp.Rational(value.numerator, value.denominator)}).is_nash


def test_processes_give_the_serial_result(serial_atlas):
    assert fingerprint(build_atlas(three_player_game(), process_map)) == fingerprint(serial_atlas)


def test_dask_local_cluster_gives_the_serial_result(serial_atlas):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with DaskMapper(cluster) as mapper:
            atlas = build_atlas(three_player_game(), mapper)
    assert fingerprint(atlas) == fingerprint(serial_atlas)


class Interrupting:
    """A mapper that dies after ``allowed`` calls, like a user pressing Ctrl-C."""

    def __init__(self, allowed):
        self.allowed, self.items = allowed, 0

    def __call__(self, fn, items):
        if self.allowed == 0:
            raise KeyboardInterrupt
        self.allowed -= 1
        self.items += len(items)
        return serial_map(fn, items)


def test_interrupted_run_resumes_from_its_checkpoint(serial_atlas, tmp_path):
    checkpoint = tmp_path / "run.jsonl"
    first = Interrupting(allowed=5)
    with pytest.raises(KeyboardInterrupt):
        build_atlas(three_player_game(), first, checkpoint=checkpoint)
    saved = checkpoint.read_text().splitlines()
    assert json.loads(saved[0])["kind"] == "header" and len(saved) == first.items + 1 > 1
    counting = Interrupting(allowed=10**6)
    resumed = build_atlas(three_player_game(), counting, checkpoint=checkpoint)
    assert fingerprint(resumed) == fingerprint(serial_atlas)
    fresh = Interrupting(allowed=10**6)
    build_atlas(three_player_game(), fresh)
    assert counting.items == fresh.items - first.items


entry = st.tuples(st.integers(-3, 3), st.integers(-2, 2))
matrix = st.lists(st.lists(entry, min_size=2, max_size=2), min_size=2, max_size=2)


@settings(max_examples=15)
@given(entries=st.tuples(matrix, matrix), t=st.fractions(0, 2, max_denominator=7))
def test_atlas_agrees_with_exact_regret_and_nashpy(entries, t):
    """Soundness and completeness at one rational t, against two oracles independent of the engine:
    on a grid of profiles, exact regret zero <=> the profile lies in a family valid at t; and every
    equilibrium nashpy's support enumeration finds lies in such a family."""
    game = bimatrix_game(entries)
    atlas = build_atlas(game, serial_map)
    members = [m for _, m in atlas.members_at(t, every=True)]
    tq = {"t": sp.Rational(t.numerator, t.denominator)}
    grid = [sp.Rational(k, 6) for k in range(7)]
    for x in grid:
        for y in grid:
            point = {"x": float(x), "y": float(y)}
            is_nash = exact_regret(game, {"x": x, "y": y}, tq).is_nash
            inside = any(lies_in(game, m, t, point, tol=1e-9) for m in members)
            assert is_nash == inside, (entries, t, x, y)
    tf = float(t)
    A = np.array([[entries[0][i][j][0] + entries[0][i][j][1] * tf for j in (0, 1)] for i in (0, 1)])
    B = np.array([[entries[1][i][j][0] + entries[1][i][j][1] * tf for j in (0, 1)] for i in (0, 1)])
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        found = list(nashpy.Game(A, B).support_enumeration(non_degenerate=False))
    for sigma, tau in found:
        point = {"x": float(sigma[1]), "y": float(tau[1])}
        assert any(lies_in(game, m, t, point, tol=1e-7) for m in members), (entries, t, point)


def test_bounded_domain_ranges_stop_at_the_bound():
    # matching pennies whose stakes grow with t: one mixed family on the whole domain
    game = bimatrix_game(([[(1, 0), (-1, 0)], [(-1, 0), (1, 1)]], [[(-1, 0), (1, 0)], [(1, 0), (-1, 0)]]), "[0, 2]")
    atlas = build_atlas(game, serial_map)
    assert all(iv.upper is not None and compare_endpoints(iv.upper, iv.lower) >= 0
               for f in atlas.families for iv in f.intervals)
    tops = [iv.upper.lower for f in atlas.families for iv in f.intervals]
    assert max(tops) == 2
    mixed = [f for f in atlas.families if all(not v.is_number for _, v in f.leaders)]
    assert len(mixed) == 1 and mixed[0].intervals[0].lower.lower == 0


# --------------------------------------------------------------------------- files and the command line

GOOD = {"game": "tiny", "parameters": {"t": "[0, 2]"},
        "players": [{"name": "A", "variables": ["x"], "payoff": "x*(1-y)*t - x*y"},
                    {"name": "B", "variables": ["y"], "payoff": "y*(1-x) - x*y*t"}]}


def write(tmp_path, data, name="game.yaml"):
    import yaml
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data))
    return path


@pytest.mark.parametrize("change, place, words", [
    (lambda d: d["players"][0].update(payoff="x/t"), "players[0].payoff", "not a polynomial"),
    (lambda d: d["players"][0].update(payoff="x*w"), "players[0].payoff", "'w'"),
    (lambda d: d["players"][1].update(variables=["x"]), "players[1].variables[0]", "already owned"),
    (lambda d: d.update(payoffs=[]), "payoffs", "unknown key"),
    (lambda d: d["players"][0].pop("variables"), "players[0]", "name, variables and payoff"),
    (lambda d: d.update(constants={"k": "t"}), "constants.k", "unknown name"),
    (lambda d: d["players"][0].update(payoff="x*(1-y"), "players[0].payoff", "column"),
])
def test_bad_game_files_get_one_clear_line(tmp_path, capsys, change, place, words):
    data = json.loads(json.dumps(GOOD))
    change(data)
    path = write(tmp_path, data)
    assert main(["atlas", str(path), "--workers", "1"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "Traceback" not in err
    assert str(path) in err and place in err and words in err


def test_case_space_over_budget_says_how_large_and_how_to_raise(tmp_path, capsys):
    assert main(["atlas", str(ROOT / "examples" / "billingham.yaml"), "--budget", "1000"]) == 2
    err = capsys.readouterr().err
    assert "177147" in err and "3^11" in err and "--budget 177147" in err


def test_at_outside_the_domain_is_rejected(tmp_path, capsys):
    assert main(["atlas", str(write(tmp_path, GOOD)), "--at", "t=3"]) == 2
    assert "outside the domain [0, 2]" in capsys.readouterr().err


def test_constants_are_substituted(tmp_path):
    data = json.loads(json.dumps(GOOD))
    data["constants"] = {"k": "1/2"}
    data["players"][1]["payoff"] = "y*(1-x)*2*k - x*y*t"
    game = polynomial_game_from_data(data)
    assert game == polynomial_game_from_data(GOOD)


@pytest.mark.slow
def test_atlas_at_gives_exact_witnesses_as_a_user_runs_it():
    """The --at JSON contract, run as a user would (a process), every witness checked by exact regret, here on
    the three-player example whose witnesses at t = 1/2 involve sqrt(3) (Billingham's file at P = 4 is checked
    on the session's atlas, with the same functions the command calls, in tests/studies/test_billingham.py)."""
    from symgame.model.expr import parse_expression
    from symgame.model.polyfile import load_polynomial_game

    path = ROOT / "examples" / "three_player.yaml"
    out = subprocess.run([sys.executable, "-m", "symgame.cli", "atlas", str(path), "--at", "t=1/2", "--json"],
                         capture_output=True, text=True, check=True, cwd=ROOT)
    data = json.loads(out.stdout)
    assert data["parameters"] == {"t": "1/2"}
    game = load_polynomial_game(path)
    assert len(data["equilibria"]) >= 2 and any(not e["continuum"] for e in data["equilibria"])
    for e in data["equilibria"]:
        assert set(e["profile"]) == set(game.variables) and set(e["profits"]) == {p.name for p in game.players}
        assert e["verified"] and e["largest_gain"] == "0"
        profile = {x: parse_expression(v, {}, sqrt=True) for x, v in e["profile"].items()}
        assert exact_regret(game, profile, {"t": sp.Rational(1, 2)}).is_nash
        subs = {game.symbol(x): v for x, v in profile.items()} | {game.symbol("t"): sp.Rational(1, 2)}
        for player in game.players:
            stated = parse_expression(e["profits"][player.name], {}, sqrt=True)
            assert sp.expand(player.payoff.subs(subs) - stated) == 0
    assert any("sqrt(3)" in v for e in data["equilibria"] for v in e["profile"].values())


def test_witnesses_json_is_deterministic(serial_atlas):
    value = Fraction(3, 2)
    name = serial_atlas.game.parameter_names[0]
    assert (witnesses_json(equilibria_at(serial_atlas, value), name, value)
            == witnesses_json(equilibria_at(serial_atlas, value), name, value))


def test_seeded_cases_give_families_of_the_exhaustive_atlas(serial_atlas):
    from fractions import Fraction

    from symgame.engine.atlas import atlas_from_cases, seed_case
    from symgame.numeric.polygame import numeric_equilibria

    game = serial_atlas.game
    structure = serial_atlas.structure
    seeds = [seed_case(game, structure, t, eq.profile)
             for t in (0.5, 1.5, 2.5) for eq in numeric_equilibria(game, {"t": t}, starts=4, seed=3)]
    assert seeds
    found = atlas_from_cases(game, seeds)
    assert not found.complete and serial_atlas.complete
    exhaustive = {v.case for v in serial_atlas.verdicts}
    assert {v.case for v in found.verdicts if v.stage == "solved"} <= exhaustive
    # each discovered family is one of the exhaustive atlas's, with the same exact ranges
    full = {f[1:] for f in fingerprint(serial_atlas)[0]}
    assert found.families and all(f[1:] in full for f in fingerprint(found)[0])
    # and the numeric equilibria at a seeded value lie in a discovered family valid there
    value = Fraction(3, 2)
    for eq in numeric_equilibria(game, {"t": 1.5}, starts=4, seed=3):
        assert any(lies_in(game, m, value, eq.profile) for _, m in found.members_at(value, every=True))


def test_a_case_over_its_time_limit_is_reported_open(serial_atlas):
    from symgame.engine.atlas import atlas_from_cases

    case = next(v.case for v in serial_atlas.verdicts if v.stage == "solved")
    found = atlas_from_cases(serial_atlas.game, [case], case_seconds=1e-6)
    assert [(v.case, v.stage) for v in found.verdicts] == [(case, "timeout")] and not found.families


def test_declared_open_cases_are_not_attempted_and_a_limit_can_be_an_error(serial_atlas):
    """What is recorded never depends on the machine's speed: a declared case is "open" without being run,
    and with ``limit_is_error`` a case past the limit stops the run instead of being recorded "timeout"."""
    from symgame.engine.atlas import atlas_from_cases
    from symgame.errors import TimeLimitError

    solved = sorted(v.case for v in serial_atlas.verdicts if v.stage == "solved")[:2]
    found = atlas_from_cases(serial_atlas.game, solved, open_cases=[solved[0]])
    assert [(v.case, v.stage) for v in found.verdicts] == [(solved[0], "open"), (solved[1], "solved")]
    assert {m.branch.case for f in found.families for m in f.members} == {solved[1]}
    with pytest.raises(TimeLimitError, match="declare it open"):
        atlas_from_cases(serial_atlas.game, solved[1:], case_seconds=1e-6, limit_is_error=True)


def test_dominance_skips_declared_variables_and_needs_no_time_limit():
    import sympy as sp

    from symgame.engine.polydominance import weakly_dominated
    from symgame.model.parameters import parse_domain
    from symgame.model.polygame import PolynomialGame, PolyPlayer

    x, y, z, w, p = sp.symbols("x y z w P", real=True)
    game = PolynomialGame("g", (parse_domain("P", "[1, 2]"),),
                          (PolyPlayer("1", ("x", "z"), x * (y - p) + z * (1 - 2 * y)),
                           PolyPlayer("2", ("y", "w"), y * (1 - x) + w * (x - y / 2))))
    assert weakly_dominated(game, None).fixed == {"x": 0, "y": 1}
    declared = weakly_dominated(game, None, skip=["x"])     # y's sign needs x = 0 first: nothing is fixed
    assert declared.fixed == {} and declared.undecided == ("x",)


def test_a_case_whose_process_dies_is_retried_then_reported_crashed(serial_atlas, monkeypatch):
    import os
    import signal

    from symgame.engine import atlas as engine

    case = next(v.case for v in serial_atlas.verdicts if v.stage == "solved")
    monkeypatch.setattr(engine, "analyse_case", lambda *args: os.kill(os.getpid(), signal.SIGKILL))
    found = engine.atlas_from_cases(serial_atlas.game, [case], case_seconds=30)
    assert [(v.case, v.stage) for v in found.verdicts] == [(case, "crashed")] and not found.families


def test_a_component_where_a_leading_coefficient_vanishes_is_not_lost():
    """(c - 1/2)(b - 1/4) = 0 and a = 1/2: the triangular reading solves b = 1/4 with c free; the component
    c = 1/2 (b free) must be split off and solved too (found missing by the kuhn3 numeric cross-check)."""
    from symgame.engine.casesplit import detect_structure
    from symgame.engine.parametric import solve_case

    a, b, c, t = symbol("a"), symbol("b"), symbol("c"), symbol("t")
    game = PolynomialGame("split", (parse_domain("t", "[0, 1]"),), (
        PolyPlayer("A", ("a",), sp.expand(a * (c - sp.Rational(1, 2)) * (b - sp.Rational(1, 4)))),
        PolyPlayer("B", ("b",), sp.expand(b * (a - sp.Rational(1, 2)))),
        PolyPlayer("C", ("c",), sp.expand(c * t * 0 + t))))
    structure = detect_structure(game)
    case = "".join("I" if x in structure.leaders else "0" for x in structure.order)
    branches = solve_case(game, structure, case).branches
    shapes = {(tuple(sorted(br.free)), tuple(sorted((x, str(v)) for x, v in br.values if x not in br.free)))
              for br in branches}
    assert (("c",), (("a", "1/2"), ("b", "1/4"))) in shapes
    assert (("b",), (("a", "1/2"), ("c", "1/2"))) in shapes


# --------------------------------------------------------------------------- closed forms real on part of the domain

def public_good_game(domain: str = "(0, 1)"):
    """Three players each contribute at cost c; the good (worth 1 to all) is provided when at least two do.
    The symmetric mixed equilibria p = (1 ± sqrt(1 - 2c))/2 are real for c <= 1/2 only."""
    names = ("a", "b", "c3")
    x = [symbol(n) for n in names]
    c = symbol("c")
    players = []
    for k in range(3):
        others = [x[j] for j in range(3) if j != k]
        at_least_one_other = others[0] + others[1] - others[0] * others[1]
        both_others = others[0] * others[1]
        payoff = x[k] * at_least_one_other + (1 - x[k]) * both_others - c * x[k]
        players.append(PolyPlayer(f"P{k + 1}", (names[k],), sp.expand(payoff)))
    return PolynomialGame("public-good", (parse_domain("c", domain),), tuple(players))


def test_closed_forms_that_leave_the_reals_get_their_exact_range():
    atlas = build_atlas(public_good_game(), serial_map)
    counts = {value: len(atlas.members_at(value)) for value in (Fraction(1, 4), Fraction(3, 4))}
    assert counts == {Fraction(1, 4): 9, Fraction(3, 4): 7}
    irrational = [f for f in atlas.families if any(has_sqrt(v) for _, v in f.leaders)]
    assert irrational and all(compare_endpoints(iv.upper, rational_endpoint(Fraction(1, 2), symbol("c"))) <= 0
                              for f in irrational for iv in f.intervals)
    for value in (Fraction(1, 4), Fraction(3, 4), Fraction(1, 2)):
        for equilibrium in equilibria_at(atlas, value):
            assert equilibrium.verified, (value, equilibrium)


entry3 = st.tuples(st.integers(-2, 2), st.integers(-2, 2))


def quadratic_three_player_game(coefficients) -> PolynomialGame:
    """Three players, one binary choice each; a player's payoff is bilinear in the other two frequencies with six
    coefficients ``a + b*c`` (the pairs in ``coefficients``), c in (0, 1): mixed equilibria solve quadratics in c
    (also the games of ``benchmarks/bench_sqrt_atlas.py``)."""
    names = ("a", "b", "d")
    x = [symbol(n) for n in names]
    t = symbol("c")
    players = []
    for k in range(3):
        o1, o2 = [x[j] for j in range(3) if j != k]
        (p, q), (r, s), (u, v), (w, y), (e, f), (g, h) = coefficients
        payoff = x[k] * ((p + q * t) * o1 * o2 + (r + s * t) * (o1 + o2) + (u + v * t)) \
            + (1 - x[k]) * ((w + y * t) * o1 * o2 + (e + f * t) * (o1 + o2) + (g + h * t))
        players.append(PolyPlayer(f"P{k + 1}", (names[k],), sp.expand(payoff)))
    return PolynomialGame("random3", (parse_domain("c", "(0, 1)"),), tuple(players))


@pytest.mark.slow
@settings(max_examples=8, deadline=None)
@given(st.lists(entry3, min_size=6, max_size=6), st.fractions(Fraction(1, 8), Fraction(7, 8), max_denominator=8))
def test_three_player_games_with_square_roots_never_crash_and_stay_sound(coefficients, c):
    """Random symmetric-looking three-player games whose mixed equilibria solve quadratics in c ∈ (0, 1): the
    atlas is built without error and every family valid at a rational c has exact regret 0 there."""
    atlas = build_atlas(quadratic_three_player_game(coefficients), serial_map)
    for equilibrium in equilibria_at(atlas, c):
        assert equilibrium.verified, (coefficients, c, equilibrium)


def test_a_point_off_its_family_is_located_after_refinement_onto_its_case():
    """A numeric end point 3e-3 off the mixed equilibrium of matching pennies (x = y = 2/(P + 3)) lies in no
    family at the location tolerance; moved onto its case's equations it lies in the family; a point 3e-2 off is
    not moved that far."""
    from symgame import load
    from symgame.verify.atlascheck import REFINE_MOVE, refine_point

    game = load(ROOT / "examples" / "pennies.yaml")
    atlas = build_atlas(game, serial_map)
    value = Fraction(2)
    members = atlas.members_at(value, every=True)
    point = {"x": 0.403, "y": 0.4}
    assert members and not any(lies_in(game, m, value, point) for _, m in members)
    refined = refine_point(game, atlas.structure, value, point)
    assert refined is not None and abs(refined["x"] - 0.4) < 1e-12 and abs(refined["y"] - 0.4) < 1e-12
    assert any(lies_in(game, m, value, refined) for _, m in members)
    assert REFINE_MOVE < 0.03 and refine_point(game, atlas.structure, value, {"x": 0.43, "y": 0.4}) is None
