"""outputs/kuhn/: certified values, the check of the printed PDL, errata, summary."""
from __future__ import annotations

import multiprocessing as mp
from fractions import Fraction
from pathlib import Path
from typing import Sequence

import sympy as sp

from derivations.ganzfried2022 import kuhn_pdl, kuhn_proof
from derivations.ganzfried2022.kuhn_family import FamilyReport, derive_three_card_family
from derivations.ganzfried2022.kuhn_printed import DeckReport, deck_report
from symgame.engine.atlas import ProcessMapper
from symgame.export.documents import dumps
from symgame.export.latex import compile_pdf, escape, render
from symgame.games.kuhn import SOURCE, build_game
from symgame.model.efg import write_efg
from symgame.model.store import safe_name, write_atomic

KNOWN_VALUES = {3: "-1/18", 4: "-1/24", 5: "-1/15", 7: "-1/14", 9: "-7/108", 13: "-5/78"}
DEFAULT_DECKS = range(3, 201)
EFG_DECKS = (3, 4, 5)
CLOSED_FORM_DECKS = range(3, 1001)
EXAMPLE_DECKS = range(3, 15)
RULE_ROWS = (("A", "opens", "bet", "a_bluff", "lower"), ("A", "opens", "bet", "a_value", "upper"),
             ("A", "after check, bet", "call", "a_call", "upper"), ("B", "facing a bet", "call", "b_call", "upper"),
             ("B", "after a check", "bet", "b_bluff", "lower"), ("B", "after a check", "bet", "b_value", "upper"))
PRINTED_THRESHOLDS = {"a_bluff": "(n-1)/9", "a_value": "(2n+4)/3", "a_call": "(n+5)/3", "b_call": "(n-1)/3",
                      "b_bluff": "(n-1)/6", "b_value": "(n+3)/2"}


def reports(decks: Sequence[int], processes: int | None = None) -> list[DeckReport]:
    """Deck reports, computed in parallel over local processes (same results as serial)."""
    decks = list(decks)
    if processes == 1 or len(decks) < 8:
        return [deck_report(n) for n in decks]
    with mp.get_context("fork").Pool(processes) as pool:
        return pool.map(deck_report, decks, chunksize=4)


def values_csv(rows: Sequence[DeckReport]) -> str:
    lines = ["cards,value,value_float,rounding_denominator_limit"]
    lines += [f"{r.solution.cards},{r.solution.value},{float(r.solution.value):.12f},{r.solution.max_denominator}"
              for r in rows]
    return "\n".join(lines) + "\n"


def check_csv(rows: Sequence[DeckReport]) -> str:
    lines = ["cards,value,printed_exploitability_A,printed_exploitability_B,"
             "count_reading_exploitability_A,count_reading_exploitability_B"]
    lines += [f"{r.solution.cards},{r.solution.value},{r.printed.exploitability_a},{r.printed.exploitability_b},"
              f"{r.count_reading.exploitability_a},{r.count_reading.exploitability_b}" for r in rows]
    return "\n".join(lines) + "\n"


def errata_markdown(rows: Sequence[DeckReport]) -> str:
    n_max = rows[-1].solution.cards
    b_bad = [r.solution.cards for r in rows if r.printed.exploitability_b > 0]
    a_bad = [r.solution.cards for r in rows if r.printed.exploitability_a > 0]
    both_zero = [r.solution.cards for r in rows
                 if r.printed.exploitability_a == 0 and r.printed.exploitability_b == 0]
    count_zero = [r.solution.cards for r in rows
                  if r.count_reading.exploitability_a == 0 and r.count_reading.exploitability_b == 0]
    first = rows[0]
    lines = [
        "# Errata: generalized Kuhn poker", "",
        f"Source checked: {SOURCE}.", "",
        "## Reading of the printed PDL", "",
        "The extracted text lost floors, ceilings and relation symbols. symgame reads each rule as",
        "'always if the card is at most floor(t) (or at least ceil(t)); if t is not an integer, the",
        "card next to the threshold with probability equal to the fractional distance' — the paper's",
        "'if n != 1 mod k' conditions are exactly 't is not an integer'. Thresholds: A bets low",
        "with t = (n-1)/9 and high with t = (2n+4)/3; B calls with t = (n-1)/3; B bets after a check",
        "low with t = (n-1)/6 and high with t = (n+3)/2; A calls a bet after checking with t = (n+5)/3.",
        "At n = 3 this reproduces A's bluff 2/9, A's value bet 2/3 with the 3 and B's bluff 1/3 with",
        "the 1, as in Kuhn's solution. See `ganzfried_behaviour` in the derivations of this paper (`derivations/ganzfried2022/kuhn_printed.py`).", "",
        "## The printed PDL is not an equilibrium", "",
        f"Exact exploitability for every n from 3 to {n_max} is in `ganzfried_check.csv` (exact best "
        "responses in the sequence form against the printed strategies; 0 means optimal).", "",
        f"- Player B's strategy is exploitable for {len(b_bad)} of {len(rows)} deck sizes"
        + (" (all of them)." if len(b_bad) == len(rows) else f": {b_bad}."),
        f"- Player A's strategy is exploitable for {len(a_bad)} of {len(rows)} deck sizes.",
        f"- Deck sizes where the printed PDL is an equilibrium: {both_zero or 'none'}.", "",
        f"Exact counterexample, n = {first.solution.cards}: the value is {first.solution.value}; against the printed "
        f"B strategy A can earn {first.solution.value + first.printed.exploitability_b} (gain "
        f"{first.printed.exploitability_b}); against the printed A strategy B can hold A to "
        f"{first.solution.value - first.printed.exploitability_a} (gain {first.printed.exploitability_a}).", "",
        "The calling rule is the clearest slip: Appendix C.3 computes that A bluffs with (n-1)/9 cards and",
        "value-bets with (n-1)/3 cards (a *count*), then lets B call with y >= (n-1)/3, a *card*",
        "threshold; at n = 3 that is 'B calls with every card'.", "",
        "## A charitable reading does not repair it", "",
        "Reading B's threshold as n - (n-1)/3 = (2n+1)/3 (calling with the top third of the deck):",
        "deck sizes up to " + str(n_max) + " where the PDL is then an equilibrium: " + (str(count_zero) if count_zero else "none")
        + "; see the last two columns of `ganzfried_check.csv`.", "",
    ]
    return "\n".join(lines)


def summary_markdown(rows: Sequence[DeckReport], checks: Sequence[kuhn_pdl.ClosedFormCheck],
                     proofs: Sequence[kuhn_proof.ResidueProof]) -> str:
    known = {r.solution.cards: str(r.solution.value) for r in rows}
    known_text = ", ".join(f"n = {n}: {v} ({'ok' if known.get(n) == v else 'MISMATCH'})"
                           for n, v in KNOWN_VALUES.items())
    lines = [
        "# Generalized Kuhn poker: exact values", "",
        f"Source: {SOURCE}.", "",
        f"Values of A (first to act) for n = {rows[0].solution.cards}..{rows[-1].solution.cards} cards in "
        "`values.csv`, each certified exactly: the sequence-form LP (HiGHS) is solved, both realization "
        "plans are rounded to rational behaviour strategies, and exact best responses on both sides give "
        "equal lower and upper bounds.", "",
        f"Known values: {known_text}.", "",
        "Gambit files of the 3-, 4- and 5-card games: `kuhn_3.efg`, `kuhn_4.efg`, `kuhn_5.efg` "
        "(`symgame solve kuhn_3.efg --json` solves and certifies them).", "",
        "## A closed form for every n", "",
        "The corrected parametric decision list (`cheatsheet.tex`, `pdl.json`; derivation in "
        "`symgame/games/kuhn_pdl.py`) has exact exploitability 0 for both players at every n = "
        f"{checks[0].cards}..{checks[-1].cards} (`closed_form_check.csv`), proved by exact best responses against "
        "the value formula", "",
        "    v(n) = " + "; ".join(f"{expr} if n = {r} mod {kuhn_pdl.value_formula().modulus}"
                                 for r, expr in kuhn_pdl.value_formula().cases()), "",
        f"induced from the list's certified values at n = {kuhn_pdl.INDUCTION_DECKS.start}.."
        f"{kuhn_pdl.INDUCTION_DECKS.stop - 1}; it equals the LP-certified value above for every n in `values.csv`: "
        + ("yes" if all(kuhn_pdl.value_formula()(r.solution.cards) == r.solution.value for r in rows) else "NO") + ".",
        "", "The list and the formula are " + proof_text(proofs, checks),
        "", "The whole equilibrium set of the 3-card game, from the case-splitting engine on the compiled tree: "
        "`three_card_family.md`. Billingham's three-player game is built as a tree too; its compiled profits equal "
        "the paper's equations (1)-(3) identically (`symgame/games/billingham.py`, `build_tree`).", "",
    ]
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# the corrected closed form
# ---------------------------------------------------------------------------
def closed_form_checks(decks: Sequence[int] = CLOSED_FORM_DECKS) -> list[kuhn_pdl.ClosedFormCheck]:
    """The corrected list against the induced value formula at every n (0 exploitability = both proved)."""
    return [kuhn_pdl.check_corrected(n) for n in decks]


def closed_form_csv(checks: Sequence[kuhn_pdl.ClosedFormCheck]) -> str:
    lines = ["cards,value,exploitability_A,exploitability_B"]
    lines += [f"{c.cards},{c.value},{c.exploitability_a},{c.exploitability_b}" for c in checks]
    return "\n".join(lines) + "\n"


def _rule_text(field: str, side: str) -> str:
    relation = "\\le" if side == "lower" else "\\ge"
    return f"$x {relation} {sp.latex(sp.together(kuhn_pdl.THRESHOLDS[field]))}$"


def proof_text(proofs: Sequence[kuhn_proof.ResidueProof], checks: Sequence[kuhn_pdl.ClosedFormCheck]) -> str:
    """One sentence: what the symbolic proof and the exact check together cover."""
    q0 = proofs[0].q0
    start = kuhn_proof.smallest_covered(q0 + 1)
    exact_top = checks[-1].cards
    everything = all(p.proved for p in proofs) and start <= exact_top + 1 and \
        all(c.exploitability_a == 0 == c.exploitability_b for c in checks)
    if not everything:
        return "the symbolic proof did not go through for every residue; only the exact check stands."
    return (f"proved for every n >= 3: symbolically for every n >= {start} (n = 36q + r, each of the 36 residues, "
            f"derivations/ganzfried2022/kuhn_proof.py in the symgame repository) and by the exact check for n = {checks[0].cards}..{exact_top}.")


def pdl_json(checks: Sequence[kuhn_pdl.ClosedFormCheck], proofs: Sequence[kuhn_proof.ResidueProof]) -> str:
    formula = kuhn_pdl.value_formula()
    data = {
        "game": "n-card Kuhn poker (ante 1, bet 1; cards 1..n, 1 lowest)",
        "k": "ceil((n-1)/6)",
        "reading": {"lower": "always with cards <= floor(t); card ceil(t) with probability t - floor(t)",
                    "upper": "always with cards >= ceil(t); card floor(t) with probability ceil(t) - t"},
        "rules": [{"player": p, "situation": situation, "action": action, "side": side,
                   "threshold": str(sp.together(kuhn_pdl.THRESHOLDS[field])), "field": field}
                  for p, situation, action, field, side in RULE_ROWS],
        "value": {"modulus": formula.modulus,
                  "cases": {str(r): str(expr) for r, expr in formula.cases()},
                  "induced_from": f"certified values of the list at n = {kuhn_pdl.INDUCTION_DECKS.start}.."
                                  f"{kuhn_pdl.INDUCTION_DECKS.stop - 1}"},
        "verified": {"cards": [checks[0].cards, checks[-1].cards],
                     "all_unexploitable": all(c.exploitability_a == 0 == c.exploitability_b for c in checks),
                     "proof": proof_text(proofs, checks)},
    }
    return dumps(data)


def cheatsheet_tex(checks: Sequence[kuhn_pdl.ClosedFormCheck], proofs: Sequence[kuhn_proof.ResidueProof]) -> str:
    formula = kuhn_pdl.value_formula()
    rules = [{"player": p, "situation": escape(f"{situation}: {action}"), "rule": _rule_text(field, side)}
             for p, situation, action, field, side in RULE_ROWS]
    relations = {"lower": "$\\le$", "upper": "$\\ge$"}
    headers = [f"{p} {action} {relations[side]}" for p, _, action, _, side in RULE_ROWS]
    examples = []
    for n in EXAMPLE_DECKS:
        pdl = kuhn_pdl.corrected_pdl(n)
        examples.append({"n": n, "thresholds": [sp.latex(sp.Rational(getattr(pdl, f).numerator, getattr(pdl, f).denominator))
                                                for *_, f, _ in RULE_ROWS],
                         "value": sp.latex(sp.Rational(formula(n).numerator, formula(n).denominator))})
    family = ("For odd $n$ A may also bluff with any mass $\\beta \\in [(n-6+2k)/12, (n+2k)/12]$ (value bets $3\\beta$, "
              "calling mass $\\beta + 2(n-k)/3$ counted from the top); for $n \\equiv 1 \\pmod 6$ the calling mass may "
              "move further (a two-parameter family); at $n = 3$ this is Kuhn's family $\\beta\\in[0,1/3]$. For even $n$ "
              "the list is A's only optimal list of this threshold form. Optimal strategies outside the form exist too.")
    verified = (f"exact best responses on both sides equal the value formula for every n = {checks[0].cards}.."
                f"{checks[-1].cards} (outputs/kuhn/closed_form_check.csv); " + proof_text(proofs, checks)
                + " summary.md compares the formula with the certified sequence-form LP values in values.csv.")
    return render("kuhn_cheatsheet.tex.j2", source=escape(SOURCE), rules=rules, value=formula.latex(),
                  columns=len(RULE_ROWS), headers=headers, examples=examples, family=family,
                  verification=escape(verified))


def corrected_errata(rows: Sequence[DeckReport], checks: Sequence[kuhn_pdl.ClosedFormCheck],
                     proofs: Sequence[kuhn_proof.ResidueProof]) -> str:
    """The errata section on the corrected list: what changes, rule by rule."""
    lines = ["", "## The corrected list", "",
             "symgame's list (`cheatsheet.tex`, `pdl.json`) is an exact equilibrium: " + proof_text(proofs, checks),
             "Rule by rule, with k = ceil((n-1)/6):", "",
             "| player | rule | printed threshold | corrected threshold |", "|---|---|---|---|"]
    for p, situation, action, field, side in RULE_ROWS:
        relation = "<=" if side == "lower" else ">="
        lines.append(f"| {p} | {situation}: {action} with x {relation} t | {PRINTED_THRESHOLDS[field]} | "
                     f"{sp.together(kuhn_pdl.THRESHOLDS[field])} |")
    lines += ["",
              "- B's rule after a check (bluff (n-1)/6, value (n+3)/2) is right as printed.",
              "- The printed *A* calling threshold (n+5)/3 is B's correct calling threshold; A calls with "
              "x >= (n+5+2k)/4 instead.",
              "- A's bluffing and value-betting masses keep the printed 1:3 ratio, but the bluffing mass is "
              "(n-3+2k)/12, not (n-1)/9; for odd n A has a one-parameter family of optimal bluffing masses "
              "(see the cheat sheet), for even n it is unique within the threshold form.",
              "", ""]
    lines += _printed_a_side_lines(rows)
    return "\n".join(lines)


def _printed_a_side_lines(rows: Sequence[DeckReport]) -> list[str]:
    """Which deck sizes admit the printed bluffing mass (n-1)/9 in A's family."""
    decks = [r.solution.cards for r in rows]

    def inside(n: int) -> bool:
        family = kuhn_pdl.threshold_family(n)
        return family.beta_low <= Fraction(n - 1, 9) <= family.beta_high

    counts = {parity: (sum(inside(n) for n in decks if n % 2 == parity), sum(1 for n in decks if n % 2 == parity))
              for parity in (1, 0)}
    return [f"The printed bluffing mass (n-1)/9 lies in A's optimal threshold family (with A's calling threshold "
            f"moved to match) for {counts[1][0]} of the {counts[1][1]} odd and {counts[0][0]} of the {counts[0][1]} "
            f"even deck sizes n = {decks[0]}..{decks[-1]}.", ""]


# ---------------------------------------------------------------------------
# the 3-card equilibrium set from the engine
# ---------------------------------------------------------------------------
def three_card_json(report: FamilyReport) -> str:
    data = {
        "game": "3-card Kuhn poker compiled from its game tree (b: A bets, c: A calls after check-bet, "
                "d: B calls a bet, e: B bets after a check; digits are cards, 3 highest)",
        "engine": {"raw_cases": report.raw_cases, "survivors": report.survivors,
                   "families": report.engine_families,
                   "agent_form_only_dropped": list(report.dropped)},
        "value": str(report.lp_value),
        "families": [{
            "ident": f.ident, "case": f.case,
            "profile": {x: e for x, e in f.values},
            "free": [{"variable": r.name, "low": str(r.low), "high": str(r.high),
                      "low_attained": r.low_attained, "high_attained": r.high_attained} for r in f.ranges],
            "added_deviation_constraints": list(f.added_constraints),
            "certificate": f.certified,
            "witness": {x: str(v) for x, v in sorted(f.witness.items())},
            "witness_exploitability": [str(f.witness_exploitability[0]), str(f.witness_exploitability[1])],
        } for f in report.families],
        "lp_cross_check": {"optimal_face_vertices": report.lp_extremes_checked,
                           "inside_a_family": report.lp_extremes_inside},
    }
    return dumps(data)


def three_card_markdown(report: FamilyReport) -> str:
    lines = ["# 3-card Kuhn poker: every equilibrium, from the case-splitting engine", "",
             "The game tree is compiled to polynomial payoffs in the twelve behaviour probabilities "
             "(b: A bets, c: A calls after check-bet, d: B calls a bet, e: B bets after a check; digits are "
             "cards, 3 highest). The engine enumerates all "
             f"{report.raw_cases} = 3^12 best-response cases ({report.survivors} survive its pruning) and returns "
             f"{report.engine_families} families of agent-form equilibria. Refining by every vertex deviation "
             f"(`symgame/verify/nashrefine.py`) drops {len(report.dropped)} of them — A 'bets' there only because "
             "an unreached calling frequency is bad, or B's bet leaves A a profitable check-call — and keeps "
             f"{len(report.families)}, each proved by z3 to consist of Nash equilibria only:", ""]
    for f in report.families:
        formulas = ", ".join(f"{x} = {e}" for x, e in sorted(f.values) if e != x)
        lines.append(f"- **{f.ident}** ({f.case}): {formulas}; " + "; ".join(r.text() for r in f.ranges)
                     + f". Certificate: {f.certified}; witness exploitability "
                     f"{f.witness_exploitability[0]}, {f.witness_exploitability[1]}.")
    lines += ["", f"Value for A: {report.lp_value}. Together the families are Kuhn's one-parameter family: A bets the "
              "1 with probability alpha, the 3 with 3·alpha, calls with the 2 with alpha + 1/3, alpha in [0, 1/3] "
              "(b3 = 3·alpha); at alpha = 1/3 A never checks the 3, so c3 is free. B's strategy is unique.", "",
              f"Cross-check: {report.lp_extremes_inside} of {report.lp_extremes_checked} vertices of the optimal "
              "faces (sequence-form LP pushed in seeded random directions, rounded, certified exactly) lie in a "
              "family.", ""]
    return "\n".join(lines)


CACHE_FILE = "study_cache.json"


def kuhn_key(decks: Sequence[int] = DEFAULT_DECKS, closed_form_decks: Sequence[int] = CLOSED_FORM_DECKS) -> str:
    """Content key of the Kuhn outputs: the code they reach, the deck ranges, the numerical libraries."""
    from symgame.export.cache import content_key

    return content_key("kuhn/all", {"decks": list(decks), "closed_form_decks": list(closed_form_decks)},
                       ("derivations.ganzfried2022.kuhn_outputs",))


def kuhn_texts(decks: Sequence[int] = DEFAULT_DECKS, closed_form_decks: Sequence[int] = CLOSED_FORM_DECKS,
               family: FamilyReport | None = None) -> dict[str, str]:
    """Every text file of ``outputs/kuhn`` (about 3.5 minutes on 2 cores)."""
    rows = reports(decks)
    checks = closed_form_checks(closed_form_decks)
    proofs = kuhn_proof.prove_all_residues()
    if family is None:
        with ProcessMapper() as mapper:
            family = derive_three_card_family(mapper)
    files = {"values.csv": values_csv(rows), "ganzfried_check.csv": check_csv(rows),
             "closed_form_check.csv": closed_form_csv(checks), "pdl.json": pdl_json(checks, proofs),
             "cheatsheet.tex": cheatsheet_tex(checks, proofs),
             "errata.md": errata_markdown(rows) + corrected_errata(rows, checks, proofs),
             "summary.md": summary_markdown(rows, checks, proofs),
             "three_card_family.json": three_card_json(family), "three_card_family.md": three_card_markdown(family)}
    files.update({f"kuhn_{n}.efg": write_efg(build_game(n)) for n in EFG_DECKS})
    assert set(files) == set(TEXT_NAMES) | {f"kuhn_{n}.efg" for n in EFG_DECKS}
    return files


#: The text files of ``outputs/kuhn`` besides the game files.
TEXT_NAMES = ("values.csv", "ganzfried_check.csv", "closed_form_check.csv", "pdl.json", "cheatsheet.tex", "errata.md",
              "summary.md", "three_card_family.json", "three_card_family.md")


def check_cached_texts(files: object, decks: Sequence[int] = DEFAULT_DECKS) -> None:
    """Re-verify the cached texts of ``outputs/kuhn`` before they are written (the cheap half of their certificate).

    The file names must be exactly those :func:`kuhn_texts` writes (stored data never names a file); the game
    files must equal the trees built from the rules; every value in ``values.csv`` and ``ganzfried_check.csv``
    (n = 3..200) must equal the exact lower and upper best-response bounds of the corrected decision list at that
    deck (equal bounds prove the value), and every value of ``closed_form_check.csv`` (n = 3..1000) the value
    formula proved for every n (:func:`~derivations.ganzfried2022.kuhn_pdl.value_formula`), with every 50th deck
    also by exact bounds. About 3 s against 3.5 minutes for the study (``benchmarks/RESULTS.md``).

    Raises
    ------
    StoreError
        Naming the first entry that does not hold.
    """
    import csv
    import io

    from derivations.ganzfried2022.kuhn_pdl import behaviours, corrected_pdl, exact_bounds
    from symgame.errors import StoreError

    expected = set(TEXT_NAMES) | {f"kuhn_{n}.efg" for n in EFG_DECKS}
    if not isinstance(files, dict) or set(files) != expected or not all(isinstance(t, str) for t in files.values()):
        found = sorted(files) if isinstance(files, dict) else type(files).__name__
        raise StoreError(f"{CACHE_FILE}: the Kuhn texts are not the study's files (found {found})")
    for n in EFG_DECKS:
        if files[f"kuhn_{n}.efg"] != write_efg(build_game(n)):
            raise StoreError(f"{CACHE_FILE}: kuhn_{n}.efg differs from the game built from the rules")
    from derivations.ganzfried2022.kuhn_pdl import value_formula

    proved: dict[int, Fraction] = {}
    formula = value_formula()

    def bounds_value(n: int) -> Fraction:
        if n not in proved:
            bounds = exact_bounds(n, *behaviours(corrected_pdl(n)))
            proved[n] = bounds.lower if bounds.certified else Fraction(-10 ** 9)
        return proved[n]

    def value(n: int, name: str) -> Fraction:
        if name != "closed_form_check.csv" or n <= max(decks) or n % 50 == 0:
            return bounds_value(n)
        return Fraction(formula(n))

    for name, expect_rows in (("values.csv", len(decks)), ("closed_form_check.csv", None), ("ganzfried_check.csv",
                                                                                          len(decks))):
        rows = list(csv.DictReader(io.StringIO(files[name])))
        if expect_rows is not None and len(rows) != expect_rows:
            raise StoreError(f"{CACHE_FILE}: {name} has {len(rows)} rows, expected {expect_rows}")
        for row in rows:
            try:
                n, v = int(row["cards"]), Fraction(row["value"])
            except (KeyError, TypeError, ValueError):
                raise StoreError(f"{CACHE_FILE}: {name}: malformed row {row}") from None
            if not 3 <= n <= 10 ** 4 or v != value(n, name):
                raise StoreError(f"{CACHE_FILE}: {name}: the value {row['value']} at n = {n} is not the proved "
                                 f"value {value(n, name) if 3 <= n <= 10 ** 4 else '?'}")


def write_kuhn_outputs(directory: Path, decks: Sequence[int] = DEFAULT_DECKS,
                       closed_form_decks: Sequence[int] = CLOSED_FORM_DECKS, pdf: bool = True,
                       family: FamilyReport | None = None, recompute: bool = False) -> list[Path]:
    """Write ``outputs/kuhn``; the texts are reused from ``study_cache.json`` when their content key is current."""
    from symgame.export.cache import StudyCache, cached

    directory.mkdir(parents=True, exist_ok=True)
    cache = StudyCache(directory / CACHE_FILE)
    files = cached(cache, "all", kuhn_key(decks, closed_form_decks),
                   lambda: kuhn_texts(decks, closed_form_decks, family),
                   recompute=recompute or family is not None, check=lambda f: check_cached_texts(f, decks))
    paths = [cache.path]
    for name in sorted(files):
        paths.append(write_atomic(directory / safe_name(name), files[name]))
    if pdf:
        compile_pdf(directory / "cheatsheet.tex")
    return paths
