"""outputs/kuhn3: the committed study is current, its families are exact equilibria, its renderings fresh."""
import json
import shutil
from fractions import Fraction
from pathlib import Path

import pytest
import sympy as sp

from derivations.szafron2013.kuhn3 import CACHE_FILE, CROSSCHECK_POTS, reduced_game, study
from derivations.szafron2013.kuhn3_outputs import PLOTS, TEXT_FILES, write_kuhn3_outputs
from symgame.verify.polycert import exact_regret

pytestmark = pytest.mark.pinned   # every test reads the committed study cache under its key

ROOT = Path(__file__).resolve().parents[2]
KUHN3 = ROOT / "outputs" / "kuhn3"


@pytest.fixture(scope="module")
def data():
    cached = json.loads((KUHN3 / CACHE_FILE).read_text())["kuhn3"]["data"]
    # the cache is current: study() returns it without computing (a stale cache would recompute for minutes)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("derivations.szafron2013.kuhn3.compute_study",
                   lambda progress=None: pytest.fail("outputs/kuhn3 is stale: run `symgame derive kuhn3`"))
        assert study(KUHN3) == cached
    return cached


def test_committed_outputs_are_fresh(data, tmp_path):
    shutil.copyfile(KUHN3 / CACHE_FILE, tmp_path / CACHE_FILE)
    written = write_kuhn3_outputs(tmp_path, pdf=False)
    assert {p.name for p in written} >= set(TEXT_FILES) | set(PLOTS)
    for name in TEXT_FILES + PLOTS:
        assert (tmp_path / name).read_bytes() == (KUHN3 / name).read_bytes(), f"{name} is stale"


def test_the_cheat_sheet_states_every_family_and_its_exact_range(data):
    tex = (KUHN3 / "cheatsheet.tex").read_text()
    for f in data["families"]:
        assert rf"\textbf{{{f['id']}}}" in tex
    # the algebraic range ends are printed exactly, not as decimals
    assert r"\frac{\sqrt{23}}{2}" in tex and "3.89" not in tex


def test_every_family_is_certified_on_its_whole_range(data):
    """The whole-interval certificates are cached under the current code and study, and all proved."""
    from derivations.szafron2013.kuhn3_certify import certificates

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("derivations.szafron2013.kuhn3_certify.compute_certificates",
                   lambda data, progress=None: pytest.fail("kuhn3 certificates are stale: run `symgame derive kuhn3`"))
        certs = certificates(KUHN3, data)["members"]
    ranges = sum(len(m["ranges"]) for f in data["families"] for m in f["members"])
    assert len(certs) == ranges
    assert all(c["sound"] == "true" for c in certs), certs
    # nonempty on the whole interval, or (a member whose range derivation is flagged incomplete, so that its
    # interval is only where the cells' samples hold) on the part that linear sub-families prove
    incomplete = {(f["id"], m["case"]) for f in data["families"] for m in f["members"] if not m["range_complete"]}
    for c in certs:
        assert c["nonempty"] == "true" or (c["nonempty"] == "partly" and c["nonempty_on"]
                                           and (c["family"], c["case"]) in incomplete), c


@pytest.mark.slow
def test_certificates_rederived_for_three_families_match_the_committed_ones(data):
    """The cached verdicts are not read as strings only: the whole-interval certificates of F1, F4 and F6
    (soundness by vertex deviations, nonemptiness by z3's quantified solver; about 6 s) are derived again
    from the study and must give the committed records."""
    from derivations.szafron2013.kuhn3_certify import certificates, compute_certificates

    committed = certificates(KUHN3, data)["members"]
    chosen = {"F1", "F4", "F6"}
    subset = dict(data, families=[f for f in data["families"] if f["id"] in chosen])
    # with the old 5 s budget of z3's quantified query, F6's ran out beside other tests (CI runs one process per
    # core) and was recorded "undecided (cells)"; the part's budget is now far above any measured time and its
    # expiry an error, so the records cannot depend on the load
    fresh = compute_certificates(subset)
    assert len(fresh) >= 3 and {r["family"] for r in fresh} == chosen
    assert fresh == [r for r in committed if r["family"] in chosen]


def test_a_solved_branch_without_derived_range_is_reported_and_checked(data):
    """The range derivation cannot see every border when free frequencies enter non-linearly; the branch that
    then came out empty although it holds below P = 3 is reported, its candidate interval proved sound."""
    from derivations.szafron2013.kuhn3_certify import _simplest, certificates

    unranged = certificates(KUHN3, data)["unranged"]
    holding = [u for u in unranged if u["holds_at"]]
    assert holding and all(e.get("sound") == "true" for u in holding for e in u["intervals"])
    assert "21/8" in holding[0]["holds_at"] and holding[0]["intervals"][0]["interval"] == "2 < P < 3"
    assert _simplest(Fraction(29, 10), Fraction(3)) == 3 and _simplest(Fraction(1, 3), Fraction(2, 5)) == Fraction(1, 3)
    assert _simplest(Fraction(1, 10**6), Fraction(2, 10**6)) is None


def test_the_numeric_equilibria_at_21_8_lie_in_a_family_or_the_unranged_branch(data):
    """Independent of the exact pipeline: the cross-check's logit search at P = 21/8 (same priors) finds
    equilibria, each within 1e-4 of the derived family there or of the unranged branch (checked by formulas and
    conditions with its free frequencies read off the numeric profile)."""
    from derivations.szafron2013.kuhn3_certify import certificates, member_sets, profile_set
    from symgame.numeric.polygame import numeric_equilibria

    game, members = member_sets(data)
    unranged = [profile_set(game, u) for u in certificates(KUHN3, data)["unranged"] if "21/8" in u["holds_at"]]
    value = Fraction(21, 8)
    sets = [pset for _, _, pset, ivs in members if any(iv.contains(value) for iv in ivs)] + unranged
    found = numeric_equilibria(game, {"P": float(value)}, starts=6, seed=100)
    assert found
    inside = [any(_near(game, pset, value, eq.profile) for pset in sets) for eq in found]
    assert all(inside), inside
    assert not all(any(_near(game, pset, value, eq.profile) for pset in sets[:-len(unranged)]) for eq in found), \
        "the unranged branch is needed: some equilibrium lies only there"


def _near(game, pset, value, point, tol=1e-4) -> bool:
    P = game.symbol("P")
    subs = {P: sp.Rational(value.numerator, value.denominator)}
    subs.update({game.symbol(z): point[z] for z in pset.free})
    if any(abs(float(e.subs(subs)) - point[x]) > tol for x, e in pset.values if x not in pset.free):
        return False
    return all(float(e.subs(subs)) >= -tol for e, rel in pset.constraints if rel in (">", ">="))


def test_coexistence_cells_agree_with_the_ranges_at_sample_pots(data):
    from derivations.szafron2013.kuhn3_certify import certificates, member_sets

    cells = certificates(KUHN3, data)["coexistence"]
    _, members = member_sets(data)
    for value in (Fraction(5, 2), Fraction(3), Fraction(16, 5), Fraction(7, 2), Fraction(4), Fraction(5)):
        valid = sorted({ident for ident, _, _, ivs in members if any(iv.contains(value) for iv in ivs)})
        # the cell holding the value: a point cell equal to it, else the open cell whose ends bracket it
        mine = [c for c in cells if c["cell"] == f"P = {value}"] or [
            c for c in cells if "<" in c["cell"] and _brackets(c["cell"], float(value))]
        assert len(mine) == 1 and sorted(mine[0]["families"]) == valid, (value, mine)
    assert max(len(c["families"]) for c in cells) == 4


def _brackets(cell: str, value: float) -> bool:
    import math

    parts = [p.strip() for p in cell.split("<")]
    lo = _approx(parts[0]) if parts[0] != "P" else -math.inf
    hi = _approx(parts[-1]) if parts[-1] != "P" else math.inf
    return lo < value < hi


def _approx(text: str) -> float:
    from symgame.model.expr import parse_expression

    return float(parse_expression(text, {}, sqrt=True))


def test_dominance_leaves_the_measured_game(data):
    fixed = data["dominance"]["fixed"]
    assert len(fixed) + len(data["dominance"]["free"]) == data["game"]["information_sets"] == 48
    # an ace always calls and a jack always folds facing a bet (the trivial choices), proved not assumed
    assert all(v == 1 for x, v in fixed.items() if x.startswith("A") and x[3:] not in ("o", "x", "xx"))
    assert fixed.get("J2_b") == 0 and fixed.get("A3_bf") == 1


def test_every_family_member_has_exact_regret_zero_at_its_witnesses(data):
    assert data["families"], "the discovery found no family"
    cases = {m["case"] for f in data["families"] for m in f["members"]}
    assert cases <= {w["case"] for w in data["witnesses"]} | {
        m["case"] for f in data["families"] for m in f["members"] if not m["ranges"]}
    assert all(w["exact_regret_zero"] for w in data["witnesses"])


def test_the_witness_profiles_recomputed_here_have_exact_regret_zero(data):
    """Independent of the study's own verdict: each committed witness profile (exact numbers) is checked again
    by exact regret in the smaller game, and agrees with its member's formulas at that pot."""
    game = reduced_game(data["dominance"]["fixed"])
    members = {(f["id"], m["case"]): m for f in data["families"] for m in f["members"]}
    P = sp.Symbol("P", real=True)
    for w in data["witnesses"][::3]:
        value = sp.Rational(w["P"])
        profile = {x: sp.Rational(v) if "sqrt" not in v else sp.sympify(v) for x, v in w["profile"].items()}
        assert exact_regret(game, profile, {"P": value}).is_nash
        member = members[(w["family"], w["case"])]
        free = {sp.Symbol(z, real=True): profile[z] for z in member["free"]}
        for x, formula in member["values"].items():
            expr = sp.sympify(formula, locals={str(s): s for s in game.generators})
            assert sp.simplify(expr.subs(free).subs(P, value) - profile[x]) == 0, (w["case"], x)


def test_the_numeric_crosscheck_is_reported_at_its_pots(data):
    assert {Fraction(c["P"]) for c in data["crosscheck"]} <= set(CROSSCHECK_POTS)
    assert all(c["regret"] <= 1e-5 for c in data["crosscheck"])


def _members_as_branches(data):
    from derivations.szafron2013.kuhn3_certify import member_sets
    from symgame.engine.atlas import SolvedBranch
    from symgame.engine.parametric import CaseBranch
    from symgame.engine.ranges import BranchRange

    game, members = member_sets(data)
    return game, [(ident, SolvedBranch(CaseBranch(case, None, pset.values, pset.free, pset.constraints),
                                       BranchRange(tuple(ivs), False, 0)))
                  for ident, case, pset, ivs in members]


def test_a_family_from_fibres_is_derived_again_from_its_free_frequencies(data):
    """Not read back as strings only: a member of a case solved from fibres is derived again from its free
    frequencies alone (msolve at rational points, interpolation, the identity proof; a few seconds) and its
    formulas are the committed ones."""
    from symgame.engine.atlas import canonical_expr
    from symgame.engine.casesplit import detect_structure
    from symgame.engine.fibres import fibre_family

    fibres = data["discovery"]["fibres"]
    solved = [(case, free) for case, r in sorted(fibres.items()) for free in r["components"]]
    assert solved, "no case was solved from fibres"
    case, free = min(solved, key=lambda cf: len(cf[1]))
    member = next(m for f in data["families"] for m in f["members"] if m["case"] == case and m["free"] == free)
    game = reduced_game(data["dominance"]["fixed"])
    family = fibre_family(game, detect_structure(game), case, free, seed=7)     # other sample points
    assert family.values and all(str(canonical_expr(e)) == member["values"][x] for x, e in family.values.items())


def test_the_numeric_equilibria_at_47_10_lie_in_families_from_fibres(data):
    """Independent of the exact pipeline: the cross-check's logit search at P = 47/10 (its priors) finds
    equilibria in a case that was out of reach of the lex Gröbner basis; each lies within 1e-4 of a derived
    family valid there (free frequencies fitted to the point), and one of them comes from fibres."""
    from symgame.numeric.polygame import numeric_equilibria
    from symgame.verify.atlascheck import lies_in

    game, members = _members_as_branches(data)
    value = Fraction(47, 10)
    valid = [(ident, m) for ident, m in members if any(iv.contains(value) for iv in m.range.intervals)]
    found = numeric_equilibria(game, {"P": float(value)}, starts=6, seed=100 + CROSSCHECK_POTS.index(value))
    assert found
    homes = [next((m.branch.case for _, m in valid if lies_in(game, m, value, eq.profile)), None) for eq in found]
    assert all(homes), homes
    assert set(homes) & set(data["discovery"]["fibres"])
