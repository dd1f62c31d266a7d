"""Every equilibrium of n-player games: support enumeration on polynomial systems, exact algebraic numbers."""
import json
from fractions import Fraction
from itertools import product
from pathlib import Path

import numpy as np
import pytest
import sympy as sp
import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from symgame.cli import main
from symgame.engine import enumpoly
from symgame.engine.algebraic import real_solutions
from symgame.engine.enummixed import enummixed_solve
from symgame.engine.enumpoly import enumpoly_solve, profile_field, verify
from symgame.errors import InputError, LimitError
from symgame.model.gambit import StrategicGame, read_nfg


def _game(shape, payoffs, players=None):
    """A strategic game from a function of the pure profile (Gambit order: player 1's strategy varies fastest)."""
    profiles = [tuple(reversed(p)) for p in product(*(range(n) for n in reversed(shape)))]
    cells = " ".join(" ".join(str(v) for v in payoffs(p)) for p in profiles)
    names = " ".join(f'"{p}"' for p in (players or [f"P{k + 1}" for k in range(len(shape))]))
    return read_nfg(f'NFG 1 R "test" {{ {names} }} {{ {" ".join(map(str, shape))} }} {cells}')


def _float_regret(game: StrategicGame, profile) -> float:
    """Largest gain from a pure deviation, in floating point (independent of the exact code)."""
    n, worst = len(game.shape), 0.0
    for i in range(n):
        values = np.zeros(game.shape[i])
        for pure in game.profiles():
            weight = np.prod([profile[j][pure[j]] for j in range(n) if j != i])
            values[pure[i]] += weight * float(game.payoff(pure)[i])
        worst = max(worst, float(values.max() - np.dot(profile[i], values)))
    return worst


def test_an_irrational_equilibrium_is_given_exactly_and_verified():
    game = read_nfg('NFG 1 R "g" { "1" "2" "3" } { 2 2 2 } 3 1 3 0 0 3 0 3 3 3 1 1 2 3 1 2 1 0 3 1 3 1 1 2')
    result = enumpoly_solve(game)
    assert result.complete and len(result.equilibria) == 1 and not result.families
    e = result.equilibria[0]
    assert e.profile[0][0].expr() == -2 + sp.sqrt(7)
    assert e.profile[0][0].minimal_polynomial().as_expr() == sp.Symbol("_T") ** 2 + 4 * sp.Symbol("_T") - 3
    assert e.verified and _float_regret(game, e.approx()) < 1e-12
    # one step off the exact point, the exact check finds regret
    moved = [list(mix) for mix in e.profile]
    moved[0] = [moved[0][0] + Fraction(1, 10 ** 9), moved[0][1] - Fraction(1, 10 ** 9)]
    assert not verify(game, moved).verified


def test_the_ring_of_matching_players_has_two_pure_and_one_mixed_equilibrium():
    # player i is paid 1 for choosing what player i+1 chooses (player 3 copies player 1)
    game = _game((2, 2, 2), lambda p: [int(p[0] == p[1]), int(p[1] == p[2]), int(p[2] == p[0])])
    result = enumpoly_solve(game)
    shown = sorted(" ".join(str(p) for mix in e.profile for p in mix) for e in result.equilibria)
    assert shown == ["0 1 0 1 0 1", "1 0 1 0 1 0", "1/2 1/2 1/2 1/2 1/2 1/2"]
    assert result.complete and not result.families and not any(result.removed)


def test_a_dummy_player_gives_a_family_with_an_exact_member():
    # players 1 and 2 play matching pennies for stakes 1 or 2 that player 3 chooses; player 3 is paid 0 always
    game = _game((2, 2, 2), lambda p: [(1 + p[2]) * (1 if p[0] == p[1] else -1),
                                       (1 + p[2]) * (-1 if p[0] == p[1] else 1), 0])
    result = enumpoly_solve(game)
    assert result.complete
    assert sorted(e.support for e in result.equilibria) == [((0, 1), (0, 1), (0,)), ((0, 1), (0, 1), (1,))]
    (family,) = result.families
    assert family.support == ((0, 1), (0, 1), (0, 1))
    assert family.equations == ("p1_2 - 1/2 = 0", "p2_2 - 1/2 = 0")
    assert family.witness is not None and family.witness.verified and family.witness.support == family.support


def test_duplicate_and_dominated_strategies_are_reported():
    # player 1's third strategy copies the first; player 2's second strategy is strictly dominated
    def payoff(p):
        row = 0 if p[0] == 2 else p[0]
        return [int(row == p[1]), 3 - 2 * p[1] + row, (row + p[2]) % 2]
    result = enumpoly_solve(_game((3, 2, 2), payoff))
    assert result.merged == (((0, 2),), (), ())
    # iterated: player 2's second strategy goes first, then player 1's second, then player 3's first
    assert result.removed == ((1,), (1,), (0,))
    assert [" ".join(str(p) for mix in e.profile for p in mix) for e in result.equilibria] == ["1 0 0 1 0 0 1"]
    assert result.equilibria[0].verified and result.supports == 1


def test_too_many_supports_is_a_limit(monkeypatch):
    monkeypatch.setattr(enumpoly, "MAX_SUPPORTS", 10)
    game = _game((2, 2, 2), lambda p: [int(p[0] == p[1]), int(p[1] == p[2]), int(p[2] == p[0])])
    with pytest.raises(LimitError, match="27 support profiles"):
        enumpoly_solve(game)


def test_a_profile_that_is_not_mixed_is_refused():
    game = _game((2, 2), lambda p: [p[0], p[1]])
    with pytest.raises(ValueError):
        verify(game, profile_field([[Fraction(1, 2), Fraction(1, 3)], [Fraction(1), Fraction(0)]]))


def test_real_solutions_of_a_zero_dimensional_system_are_exact():
    x, y = sp.symbols("x y")
    points = real_solutions([x ** 2 - 2, y ** 2 - 3], [x, y])
    assert points is not None and len(points) == 4
    values = sorted((float(a), float(b)) for _, (a, b) in points)
    assert values[0] == pytest.approx((-2 ** 0.5, -3 ** 0.5))
    for _, (a, b) in points:
        assert a * a == 2 and b * b == 3 and (a * b) * (a * b) == 6
        assert (a - Fraction(99, 70)).sign() == (1 if float(a) > 99 / 70 else -1)
        assert 1 / a == a / 2                      # sqrt(2)^-1 = sqrt(2)/2, through the field's inverse
    assert real_solutions([x - y], [x, y]) is None        # a line: positive-dimensional
    assert real_solutions([x ** 2 + 1], [x]) == []         # no real solution


def _gambit_order_cells(shape, values):
    return lambda p: values[sum(p[k] * int(np.prod(shape[:k])) for k in range(len(shape)))]


@settings(max_examples=20, deadline=None, derandomize=True)
@given(st.lists(st.tuples(*[st.integers(-20, 20)] * 3), min_size=8, max_size=8))
def test_random_three_player_games_complete_by_an_independent_z3_search(cells):
    """Every equilibrium verified exactly and in floating point; completeness: z3 finds no equilibrium of the
    whole game (not split by supports) away from the listed ones."""
    game = _game((2, 2, 2), _gambit_order_cells((2, 2, 2), cells))
    result = enumpoly_solve(game)
    assert result.complete
    for e in result.equilibria:
        assert e.verified and _float_regret(game, e.approx()) < 1e-9
    if result.families or any(result.merged):        # not a finite set: nothing to compare point by point
        return
    x = [z3.Real(f"x{i}") for i in range(3)]           # probability of each player's first strategy
    mix = [(xi, 1 - xi) for xi in x]
    solver = z3.SolverFor("QF_NRA")
    solver.set("timeout", 20_000)
    solver.add(*[z3.And(xi >= 0, xi <= 1) for xi in x])
    for i in range(3):
        values = []
        for own in range(2):
            total = z3.RealVal(0)
            for pure in game.profiles():
                if pure[i] != own:
                    continue
                weight = z3.RealVal(1)
                for j in range(3):
                    if j != i:
                        weight = weight * mix[j][pure[j]]
                total = total + weight * z3.RealVal(str(game.payoff(pure)[i]))
            values.append(total)
        solver.add(mix[i][0] * (values[1] - values[0]) <= 0, mix[i][1] * (values[0] - values[1]) <= 0)
    gap = Fraction(1, 1000)
    for e in result.equilibria:
        first = [e.profile[i][0].value_fraction() if e.profile[i][0].is_rational()
                 else Fraction(float(e.profile[i][0])) for i in range(3)]
        solver.add(z3.Or(*[z3.Or(x[i] < z3.RealVal(str(first[i] - gap)), x[i] > z3.RealVal(str(first[i] + gap)))
                           for i in range(3)]))
    assert solver.check() == z3.unsat


@settings(max_examples=15, deadline=None, derandomize=True)
@given(st.integers(2, 3), st.integers(2, 3), st.data())
def test_two_player_games_agree_with_vertex_enumeration(rows, cols, data):
    a = data.draw(st.lists(st.lists(st.integers(-9, 9), min_size=cols, max_size=cols), min_size=rows, max_size=rows))
    b = data.draw(st.lists(st.lists(st.integers(-9, 9), min_size=cols, max_size=cols), min_size=rows, max_size=rows))
    game = _game((rows, cols), lambda p: [a[p[0]][p[1]], b[p[0]][p[1]]])
    exact = enumpoly_solve(game)
    vertices = enummixed_solve(a, b)
    ours = sorted(tuple(p.value_fraction() for mix in e.profile for p in mix) for e in exact.equilibria)
    isolated = [vertices.equilibria[c.equilibria[0]] for c in vertices.components if len(c.equilibria) == 1]
    theirs = sorted(tuple(e.row) + tuple(e.column) for e in isolated)
    if not exact.families and all(len(c.equilibria) == 1 for c in vertices.components) and not exact.merged[0] \
            and not exact.merged[1]:
        assert ours == theirs
    else:    # degenerate: every isolated equilibrium we list is an extreme one of the vertex enumeration
        extreme = {tuple(e.row) + tuple(e.column) for e in vertices.equilibria}
        assert set(ours) <= extreme


RING = ('NFG 1 R "ring" { "A" "B" "C" } { { "x" "y" } { "x" "y" } { "x" "y" } }\n'
        "1 1 1 0 1 0 0 0 1 1 0 0 1 0 0 0 0 1 0 1 0 1 1 1\n")

TREE = """EFG 2 R "three in a row" { "A" "B" "C" }
""

p "" 1 1 "a" { "in" "out" } 0
p "" 2 1 "b" { "up" "down" } 0
p "" 3 1 "c" { "left" "right" } 0
t "" 1 "" { 2, 2, 2 }
t "" 2 "" { 0, 1, 3 }
p "" 3 1 "c" { "left" "right" } 0
t "" 3 "" { 1, 0, 1 }
t "" 4 "" { 3, 3, 0 }
t "" 5 "" { 1, 1, 1 }
"""


def test_cli_solves_a_three_player_strategic_game(tmp_path, capsys):
    path = tmp_path / "ring.nfg"
    path.write_text(RING)
    assert main(["solve", str(path)]) == 0
    out = capsys.readouterr().out
    assert "ring: 3 equilibria (complete; certificate proved)" in out
    assert "A plays {x: 1/2, y: 1/2}; B plays {x: 1/2, y: 1/2}; C plays {x: 1/2, y: 1/2}" in out
    assert main(["solve", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)["detail"]
    assert data["complete"] and [e["profile"]["C"] for e in data["equilibria"]] == \
        [{"x": "1", "y": "0"}, {"x": "0", "y": "1"}, {"x": "1/2", "y": "1/2"}]
    assert all(e["verified"] for e in data["equilibria"]) and data["families"] == [] and data["undecided"] == []


def test_cli_solves_a_three_player_tree_with_behaviour_strategies(tmp_path, capsys):
    path = tmp_path / "three.efg"
    path.write_text(TREE)
    assert main(["solve", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)["detail"]
    assert data["complete"] and data["perfect_recall"] and all(e["verified"] for e in data["equilibria"])
    assert data["strategies"]["A"] == ["1", "2"]      # Gambit's names: the action taken at each information set
    # everyone mixing half and half after "in" pays each 3/2 (A's "out" pays 1); the rest have A out
    behaviours = [e["behaviour"] for e in data["equilibria"]]
    assert {"A": {"a": {"in": "1", "out": "0"}}, "B": {"b": {"up": "1/2", "down": "1/2"}},
            "C": {"c": {"left": "1/2", "right": "1/2"}}} in behaviours
    assert len(behaviours) == 3 and all(b["A"]["a"]["out"] == "1" for b in behaviours if b["A"]["a"]["in"] == "0")
    # with A out, C may mix with at least 1/2 on right: the deviation "in" is then not profitable
    assert {"support": {"A": ["2"], "B": ["1"], "C": ["1", "2"]}, "equations": [],
            "inequalities": ["1 - 2*p3_2 <= 0"]}.items() <= data["families"][0].items()
    for e in data["equilibria"] + [f["witness"] for f in data["families"] if f["witness"]]:
        assert e["verified"]
    assert main(["solve", str(path)]) == 0
    assert "complete" in capsys.readouterr().out


def test_cli_reports_too_many_supports_in_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(enumpoly, "MAX_SUPPORTS", 10)
    path = tmp_path / "ring.nfg"
    path.write_text(RING)
    assert main(["solve", str(path)]) == 2          # a LimitError is an InputError: exit 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "27 support profiles" in err


@settings(max_examples=30, deadline=None, derandomize=True)
@given(st.lists(st.lists(st.integers(-4, 4), min_size=9, max_size=9), min_size=1, max_size=3))
def test_flints_groebner_basis_is_sympys(rows):
    """The FLINT Buchberger basis, made monic and wrapped for sympy, equals sympy's own reduced basis; and so
    does its lexicographic FGLM conversion."""
    from symgame.engine.algebraic import _grevlex
    x, y, z = sp.symbols("x y z")
    monomials = [1, x, y, z, x * y, y * z, x * z, x ** 2, z ** 2]
    equations = [sum(c * m for c, m in zip(row, monomials)) for row in rows]
    ours = _grevlex(equations, [x, y, z])
    theirs = sp.groebner(equations, x, y, z, order="grevlex", domain=sp.QQ)
    assert ours.exprs == theirs.exprs
    if theirs.is_zero_dimensional and theirs.exprs != [1]:
        assert ours.fglm("lex").exprs == theirs.fglm("lex").exprs


def _near(profile, others, tolerance=1e-6) -> bool:
    return any(all(abs(a - b) < tolerance for m1, m2 in zip(profile, q) for a, b in zip(m1, m2)) for q in others)


def test_gambits_equilibria_are_all_found_and_the_ones_it_misses_are_verified():
    """Golden data from pygambit (benchmarks/pygambit_golden.py): every equilibrium Gambit's enumpoly and gnm
    report is among ours; the three ours has beyond Gambit's enumpoly are irrational and have float regret 0
    by the independent check."""
    data = json.loads((Path(__file__).parent.parent / "data" / "pygambit_enumpoly.json").read_text())
    extra = []
    for entry in data["games"]:
        game = read_nfg(entry["nfg"])
        result = enumpoly_solve(game)
        assert result.complete
        ours = [[list(mix) for mix in e.approx()] for e in result.equilibria]
        assert all(_near(p, ours) for p in entry["enumpoly"] + entry["gnm"]), entry["name"]
        for e, p in zip(result.equilibria, ours):
            assert e.verified and _float_regret(game, e.approx()) < 1e-9
            if not _near(p, entry["enumpoly"]):
                extra.append((entry["name"], all(x.is_rational() for mix in e.profile for x in mix)))
    assert extra == [("sqrt7", False), ("random1", False), ("random6", False)]


def _volunteers(cost=Fraction(1), benefit=Fraction(2)):
    """Three players volunteer (V) or not (N): if anyone volunteers everyone gets ``benefit``, volunteers pay
    ``cost``; nobody volunteering gives 0. Symmetric under every permutation of the players."""
    payoffs = []
    for profile in product(range(2), repeat=3):
        s = tuple(reversed(profile))                 # Gambit order: the first player's strategy changes fastest
        anyone = any(x == 0 for x in s)
        payoffs.append(tuple((benefit if anyone else Fraction(0)) - (cost if x == 0 else 0) for x in s))
    return StrategicGame("volunteers", ("1", "2", "3"), (("V", "N"),) * 3, tuple(payoffs))


def test_player_symmetries_are_found_exactly():
    game = _volunteers()
    assert len(enumpoly.player_symmetries(game)) == 6
    changed = list(game.payoffs)
    changed[0] = (Fraction(5), changed[0][1], changed[0][2])       # player 1 alone gets more at (V, V, V)
    lopsided = StrategicGame("lopsided", game.players, game.strategies, tuple(changed))
    assert enumpoly.player_symmetries(lopsided) == ((0, 1, 2), (0, 2, 1))


def test_symmetry_solves_one_support_per_orbit_and_finds_the_same_equilibria():
    game = _volunteers()
    plain, reduced = enumpoly_solve(game), enumpoly_solve(game, symmetry=True)
    assert reduced.symmetries == 6 and 0 < reduced.orbits < plain.supports
    assert {e.profile for e in plain.equilibria} == {e.profile for e in reduced.equilibria}
    assert all(e.verified for e in reduced.equilibria)
    # exactly one volunteer (3 profiles) and the symmetric mixed equilibrium: volunteering with 1 - (1/2)^(1/2)
    pure = [e for e in reduced.equilibria if all(max(p.sign() for p in mix) and
                                                 sum(1 for p in mix if p.sign() > 0) == 1 for mix in e.profile)]
    assert len(pure) == 3
    mixed = [e for e in reduced.equilibria if all(p.sign() > 0 for mix in e.profile for p in mix)]
    assert len(mixed) == 1 and not mixed[0].profile[0][0].is_rational()
    assert abs(float(mixed[0].profile[0][0]) - (1 - 2 ** -0.5)) < 1e-12


@settings(max_examples=25, deadline=None, derandomize=True)
@given(st.integers(2, 3), st.integers(2, 3), st.data())
def test_for_two_players_the_linear_relaxation_is_the_support_system(rows, cols, data):
    """With two players each player's conditions are linear in the other's mixture, so the relaxation rules a
    support out exactly when z3 (nonlinear arithmetic, here effectively linear) finds the system unsolvable."""
    a = data.draw(st.lists(st.lists(st.integers(-5, 5), min_size=cols, max_size=cols), min_size=rows, max_size=rows))
    b = data.draw(st.lists(st.lists(st.integers(-5, 5), min_size=cols, max_size=cols), min_size=rows, max_size=rows))
    game = _game((rows, cols), lambda p: [a[p[0]][p[1]], b[p[0]][p[1]]])
    t = enumpoly._Tables.of(game)
    alive = [list(range(rows)), list(range(cols))]
    for support in enumpoly._support_profiles(alive):
        verdict, _ = enumpoly._decide(enumpoly._system(t, alive, support))
        assert verdict != z3.unknown
        assert enumpoly._relaxation_excludes(t, alive, support) == (verdict == z3.unsat), support


@pytest.mark.slow
@settings(max_examples=12, deadline=None, derandomize=True)
@given(st.lists(st.integers(-9, 9), min_size=3 * 18, max_size=3 * 18))
def test_the_relaxation_and_msolve_first_change_no_equilibrium(monkeypatch_cells):
    """Random 3 x 3 x 2 games solved three ways: as shipped (relaxation, msolve for more than FLINT_VARIABLES
    unknowns when installed), without the relaxation, and with FLINT's Gröbner bases for every support: the
    same exact equilibria and families."""
    cells = monkeypatch_cells
    game = _game((3, 3, 2), lambda p: cells[3 * (p[0] + 3 * p[1] + 9 * p[2]):][:3])

    def run(**patches):
        saved = {k: getattr(enumpoly, k) for k in patches}
        try:
            for k, v in patches.items():
                setattr(enumpoly, k, v)
            r = enumpoly_solve(game)
        finally:
            for k, v in saved.items():
                setattr(enumpoly, k, v)
        assert r.complete
        return (sorted(str([[str(p) for p in mix] for mix in e.profile]) for e in r.equilibria),
                sorted((f.support, f.equations) for f in r.families)), r

    shipped, result = run()
    plain, unrelaxed = run(_relaxation_excludes=lambda *a: False)
    flint, by_flint = run(FLINT_VARIABLES=enumpoly.MAX_VARIABLES)
    assert shipped == plain == flint
    assert unrelaxed.relaxed == 0 and result.relaxed + result.pruned <= result.supports
    assert by_flint.msolve_supports == ()


def test_the_relaxation_rules_out_a_support_no_product_can_meet():
    """Matching pennies for players 1 and 2 with a third player who only watches: player 1 mixing against a
    pure player 2 is impossible (2 must mix to make 1 indifferent), and no correlated play changes that."""
    game = _game((2, 2, 2), lambda p: [1 if p[0] == p[1] else -1, -1 if p[0] == p[1] else 1, 0])
    t = enumpoly._Tables.of(game)
    alive = [[0, 1], [0, 1], [0, 1]]
    assert enumpoly._relaxation_excludes(t, alive, ((0, 1), (0,), (0,)))
    assert not enumpoly._relaxation_excludes(t, alive, ((0, 1), (0, 1), (0,)))
    result = enumpoly_solve(game)
    assert result.relaxed > 0 and len(result.equilibria) == 1 and result.complete    # the watcher: merged


def test_conditioning_on_the_own_strategy_rules_out_what_the_marginal_relaxation_leaves():
    """A 2 x 2 x 2 game (found by a seeded search) where player 2 playing only his first strategy while players 1
    and 3 mix has no solution: the relaxation by the others' marginal alone admits a correlated distribution,
    the one conditioned on each own strategy does not, and z3 confirms that the polynomial system is empty."""
    cells = [2, 3, -1, 0, 1, 3, 0, 1, -1, 1, 1, 0, 1, -2, -1, 2, -3, 3, -1, 1, 2, 2, -2, 2]
    payoffs = tuple(tuple(Fraction(cells[3 * k + i]) for i in range(3)) for k in range(8))
    game = StrategicGame("conditioned", ("1", "2", "3"), (("a", "b"),) * 3, payoffs)
    t = enumpoly._Tables.of(game)
    alive = [[0, 1], [0, 1], [0, 1]]
    support = ((0, 1), (0,), (0, 1))
    profiles = list(product(*support))
    q = [z3.Real(f"q{k}") for k in range(len(profiles))]
    marginal = z3.Solver()                           # the weaker relaxation, written out here independently
    marginal.add(*[v >= 0 for v in q], z3.Sum(q) == 1)
    for i, s in enumerate(support):
        for a in s:
            if len(s) > 1:
                marginal.add(z3.Sum([v for v, r in zip(q, profiles) if r[i] == a]) > 0)
        for b in alive[i]:
            gain = z3.Sum([v * z3.RealVal(str(t.u(i, enumpoly._with(r, i, b)) - t.u(i, enumpoly._with(r, i, s[0]))))
                           for v, r in zip(q, profiles)])
            marginal.add(gain == 0 if b in s else gain <= 0)
    assert marginal.check() == z3.sat
    assert enumpoly._relaxation_excludes(t, alive, support)
    verdict, _ = enumpoly._decide(enumpoly._system(t, alive, support))
    assert verdict == z3.unsat


def _c5_like() -> StrategicGame:
    """A symmetric 3 x 3 x 3 game with several mixed equilibria (the volunteers' payoffs spread over 3 actions)."""
    return _game((3, 3, 3), lambda p: [(3 if p.count(p[i]) == 1 else 0) - p[i] + (2 if p[i] == 2 and 0 in p else 0)
                                       for i in range(3)])


def _answer(result) -> tuple:
    return (sorted(str([[str(p) for p in mix] for mix in e.profile]) for e in result.equilibria),
            sorted((f.support, f.equations) for f in result.families), tuple(result.undecided), result.pruned,
            result.relaxed, result.complete)


@pytest.mark.slow
def test_processes_and_checkpoints_do_not_change_the_result(tmp_path):
    game = _c5_like()
    serial = enumpoly_solve(game)
    assert serial.complete and serial.equilibria
    seen = []
    path = tmp_path / "run.jsonl"
    parallel = enumpoly_solve(game, workers=2, checkpoint=path, progress=lambda done, total: seen.append(done))
    assert _answer(parallel) == _answer(serial)
    assert seen and seen[-1] == -(-serial.supports // enumpoly.CHUNK)
    # an interrupted run: keep the header and the first finished unit, tear the last line
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:2]) + "\n" + lines[2][:10])
    resumed = enumpoly_solve(game, checkpoint=path)
    assert _answer(resumed) == _answer(serial)
    # a complete checkpoint: only the supports that gave something are decided again, same answer
    assert _answer(enumpoly_solve(game, checkpoint=path)) == _answer(serial)


def test_a_checkpoint_of_another_game_is_refused(tmp_path):
    path = tmp_path / "run.jsonl"
    enumpoly_solve(_c5_like(), checkpoint=path)
    with pytest.raises(InputError, match="another game"):
        enumpoly_solve(_volunteers(), checkpoint=path)


@settings(max_examples=6, deadline=None, derandomize=True)
@given(st.lists(st.tuples(*[st.integers(-6, 6)] * 3), min_size=12, max_size=12))
def test_every_chart_gives_z3_the_same_answer_as_probabilities(cells):
    """Each player's weights unnormalized with one fixed to 1 (a chart) describe the same equilibria as
    probabilities summing to 1: on every support profile of random 3 x 2 x 2 games, in each chart, whenever z3
    decides both forms they agree, a rational point found in a chart solves the support's conditions exactly
    once normalized, and no part of the conditions is refuted where z3 finds the whole satisfiable."""
    game = _game((3, 2, 2), _gambit_order_cells((3, 2, 2), cells))
    t = enumpoly._Tables.of(game)
    alive = [list(range(n)) for n in game.shape]
    agreed = 0
    for support in enumpoly._support_profiles(alive):
        system = enumpoly._system(t, alive, support)
        plain, _ = enumpoly._decide(system, timeout_ms=2_000)
        if plain == z3.unknown:
            continue
        if plain == z3.sat:                                 # a part of the conditions cannot fail when all hold
            assert not enumpoly._subsystems_exclude(t, alive, support), support
        for chart in product(*support):
            # the chart fixing the weight of `chart[j]` comes first once each support starts there
            rotated = tuple(s[s.index(c):] + s[:s.index(c)] for s, c in zip(support, chart))
            verdict, point = enumpoly._charts_decide(t, alive, rotated, max_charts=1)
            if verdict == z3.unknown:
                continue
            assert verdict == plain, (support, chart)
            agreed += 1
            if verdict == z3.sat and rotated == support:
                assert point is not None
                values = {s: sp.Rational(point[s].numerator, point[s].denominator) for s in system.symbols}
                if all(sp.expand(e.subs(values)) == 0 for e in system.equations):     # a rational point
                    assert all(e.subs(values) > 0 for e in system.positive)
                    assert all(e.subs(values) <= 0 for e in system.weak)
    assert agreed > 0
