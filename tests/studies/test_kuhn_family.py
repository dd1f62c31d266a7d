"""The 3-card Kuhn equilibrium set from the case-splitting engine, refined from agent-form to Nash."""
from fractions import Fraction
from pathlib import Path

import pytest
import sympy as sp

from derivations.ganzfried2022.kuhn_family import derive_three_card_family
from derivations.ganzfried2022.kuhn_outputs import three_card_json, three_card_markdown
from symgame.engine.atlas import ProcessMapper, build_atlas
from symgame.model.parameters import parameter_symbol, parse_domain
from symgame.model.polygame import PolynomialGame, PolyPlayer
from symgame.verify.nashrefine import refine_to_nash
from symgame.verify.polycert import ProfileSet, exact_regret

OUT = Path(__file__).resolve().parents[2] / "outputs" / "kuhn"


@pytest.fixture(scope="session")     # see conftest.py: built once per worker
def report():
    with ProcessMapper() as mapper:
        return derive_three_card_family(mapper)


def test_engine_finds_kuhns_family_and_nothing_else(report):
    assert report.raw_cases == 3 ** 12 and report.lp_value == Fraction(-1, 18)
    by_b3 = {}
    for fam in report.families:
        values = dict(fam.values)
        # B's strategy is unique
        for name, expected in {"d1": "0", "d2": "1/3", "d3": "1", "e1": "1/3", "e2": "0", "e3": "1"}.items():
            free = {r.name: r for r in fam.ranges}
            assert values[name] == expected or (free[name].pinned and str(free[name].low) == expected), (fam.ident, name)
        assert values["b2"] == "0" and values["c1"] == "0"
        by_b3[values["b3"]] = fam
    assert set(by_b3) == {"0", "1", "b3"}
    interior = dict(by_b3["b3"].values)
    b3 = parameter_symbol("b3")
    assert sp.simplify(sp.sympify(interior["b1"], locals={"b3": b3}) - b3 / 3) == 0
    assert sp.simplify(sp.sympify(interior["c2"], locals={"b3": b3}) - (b3 + 1) / 3) == 0
    (rng,) = by_b3["b3"].ranges
    assert (rng.low, rng.high, rng.low_attained, rng.high_attained) == (0, 1, False, False)
    # at alpha = 1/3 A never checks the 3: c3 is free in [0, 1]
    (c3,) = by_b3["1"].ranges
    assert c3.name == "c3" and (c3.low, c3.high) == (0, 1)
    assert all(f.certified == "TRUE" and f.witness_exploitability == (0, 0) for f in report.families)
    assert len(report.dropped) == report.engine_families - 3 > 0
    assert report.lp_extremes_inside == report.lp_extremes_checked == 16


@pytest.mark.pinned
def test_committed_outputs_are_fresh(report):
    assert (OUT / "three_card_family.json").read_text() == three_card_json(report)
    assert (OUT / "three_card_family.md").read_text() == three_card_markdown(report)


def test_agent_form_artefact_is_dropped_and_nash_family_kept():
    """One player bets (x) or checks and then calls (y): betting earns 1, check-call earns 2.

    Per-variable conditions accept x = 1 with the unreached y <= 1/2; only x = 0, y = 1 is Nash.
    """
    x, y, z, t = (parameter_symbol(s) for s in "xyzt")
    game = PolynomialGame("toy", (parse_domain("t", "[0, 1]"),),
                          (PolyPlayer("1", ("x", "y"), sp.expand(x + (1 - x) * 2 * y)),
                           PolyPlayer("2", ("z",), sp.Integer(0) * z)))
    atlas = build_atlas(game)
    kept, dropped = [], 0
    for family in atlas.families:
        member = family.members[0]
        refined = refine_to_nash(game, ProfileSet.from_branch(member.branch), member.range.intervals[0])
        values = dict(member.branch.values)
        if refined is None:
            assert values["x"] == 1   # the artefact: a member of it gains by deviating to check-call
            witness = {"x": sp.Integer(1), "y": sp.Integer(0), "z": sp.Integer(0)}
            assert not exact_regret(game, witness, {"t": sp.Rational(1, 2)}).is_nash
            dropped += 1
        else:
            kept.append(values)
    assert [(v["x"], v["y"]) for v in kept] == [(0, 1)] and dropped >= 1
