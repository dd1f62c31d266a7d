"""outputs/kuhn/: certified values, the check of the printed PDL, errata, summary."""
from __future__ import annotations

import multiprocessing as mp
from pathlib import Path
from typing import Sequence

from ..games.kuhn import SOURCE, DeckReport, build_game, deck_report
from ..model.efg import write_efg

KNOWN_VALUES = {3: "-1/18", 4: "-1/24", 5: "-1/15", 7: "-1/14", 9: "-7/108", 13: "-5/78"}
DEFAULT_DECKS = range(3, 201)
EFG_DECKS = (3, 4, 5)


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
        "the 1, as in Kuhn's solution. See `symgame/games/kuhn.py`, `ganzfried_behaviour`.", "",
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


def summary_markdown(rows: Sequence[DeckReport]) -> str:
    known = {r.solution.cards: str(r.solution.value) for r in rows}
    checks = ", ".join(f"n = {n}: {v} ({'ok' if known.get(n) == v else 'MISMATCH'})" for n, v in KNOWN_VALUES.items())
    lines = [
        "# Generalized Kuhn poker: exact values", "",
        f"Source: {SOURCE}.", "",
        f"Values of A (first to act) for n = {rows[0].solution.cards}..{rows[-1].solution.cards} cards in "
        "`values.csv`, each certified exactly: the sequence-form LP (HiGHS) is solved, both realization "
        "plans are rounded to rational behaviour strategies, and exact best responses on both sides give "
        "equal lower and upper bounds.", "",
        f"Known values: {checks}.", "",
        "Gambit files of the 3-, 4- and 5-card games: `kuhn_3.efg`, `kuhn_4.efg`, `kuhn_5.efg` "
        "(`symgame solve kuhn_3.efg --json` solves and certifies them).", "",
        "Not yet derived (open in the issue): the corrected closed form in n, the 3-card family from the "
        "case-splitting engine, Billingham's game tree.", "",
    ]
    return "\n".join(lines)


def write_kuhn_outputs(directory: Path, decks: Sequence[int] = DEFAULT_DECKS) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    rows = reports(decks)
    files = {"values.csv": values_csv(rows), "ganzfried_check.csv": check_csv(rows),
             "errata.md": errata_markdown(rows), "summary.md": summary_markdown(rows)}
    files.update({f"kuhn_{n}.efg": write_efg(build_game(n)) for n in EFG_DECKS})
    paths = []
    for name, text in files.items():
        (directory / name).write_text(text, encoding="utf-8")
        paths.append(directory / name)
    return paths
