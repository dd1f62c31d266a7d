"""``outputs/goofspiel/``: Rhoads and Bartholdi (2012), Goofspiel solved and checked against the paper.

What is computed (:mod:`derivations.rhoads2012.compute`, :func:`compute`) is in parts cached by content
(``study_cache.json``: a part is reused only when the code it runs is unchanged, see
:mod:`symgame.export.cache`).

Rendering (:func:`render`) takes the computed :class:`GoofspielStudy` and never calls a solver.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import yaml

from derivations.rhoads2012.compute import PARTS, prob
from symgame.export.plots import save_png
from symgame.games.goofspiel import SOURCE
from symgame.model.store import write_atomic

PRINTED = Path(__file__).resolve().parent / "printed"
CACHE_FILE = "study_cache.json"
ROOTS = ("derivations.rhoads2012.compute",)     # the rendering below is not part of the keys


def part_key(name: str) -> str:
    from symgame.export.cache import content_key

    return content_key(f"goofspiel/{name}", PARTS[name][1], ROOTS)


@dataclass(frozen=True)
class GoofspielStudy:
    """The computed parts (JSON-ready dictionaries, as cached)."""

    parts: dict[str, Any]

    @property
    def amount(self) -> list[dict]:
        return self.parts["exact"] + self.parts["float"]


#: The rows recomputed when a cached part is re-verified: (part, N) with the (objective, exact) they were solved with.
RECHECK = {"exact": (6, "amount", True), "float": (8, "amount", False), "win": (5, "win", True)}
MEASURED = ("seconds", "peak_mb")          # machine-dependent fields, not compared


def check_part(name: str, data: Any) -> None:
    """Re-verify a cached Goofspiel part before it is rendered (about 3 s in all, against about 20 minutes).

    Every row of the solved parts must be a distribution per upcard over the bets 1..N (exact rows sum to
    exactly 1), the amount objective's value must be 0 (the game is symmetric), and one row per part
    (:data:`RECHECK`) is solved again and must equal the stored row field for field (timings aside).

    Raises
    ------
    StoreError
        Naming the part and the row that does not hold.
    """
    from fractions import Fraction

    from derivations.rhoads2012.compute import _solve_part
    from symgame.errors import StoreError

    def prob(text: str) -> Fraction:
        return Fraction(text[1:]) if text.startswith("~") else Fraction(text)

    if name not in RECHECK:
        return
    where = f"{CACHE_FILE}: goofspiel/{name}"
    if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
        raise StoreError(f"{where}: not a list of solved rows")
    for row in data:
        try:
            n, exact = int(row["cards"]), bool(row["exact"])
            parse = prob if exact else float               # exact rows keep long numbers as 45-place decimals
            bets = {str(b) for b in range(1, n + 1)}
            if set(row["first_move"]) != bets:
                raise ValueError("upcards")
            for upcard, move in row["first_move"].items():
                p = [parse(move[b]) for b in sorted(bets, key=int)]
                truncated = sum(str(move[b]).startswith("~") for b in bets)
                slack = 0 if exact and not truncated else (Fraction(truncated, 10 ** 45) if exact else 1e-9)
                if set(move) != bets or min(p) < 0 or not -slack <= 1 - sum(p) <= slack:
                    raise ValueError(f"the first move at upcard {upcard} is not a distribution")
            if row["objective"] == "amount" and abs(parse(row["value"])) > (0 if exact else 1e-9):
                raise ValueError(f"value {row['value']} (the symmetric game's value is 0)")
        except (KeyError, TypeError, ValueError, ZeroDivisionError) as exc:
            raise StoreError(f"{where}: row {row.get('cards')!r}: {exc}") from None
    cards, objective, exact = RECHECK[name]
    stored = next((r for r in data if r.get("cards") == cards and r.get("exact") == exact), None)
    again = _solve_part(cards, objective, exact)
    if stored is None or {k: v for k, v in stored.items() if k not in MEASURED} != \
            {k: v for k, v in again.items() if k not in MEASURED}:
        raise StoreError(f"{where}: the row N = {cards} differs from its recomputation")


def compute(directory: Path | None = None, recompute: bool = False) -> GoofspielStudy:
    """Every part, reused from ``directory/study_cache.json`` where its key is current."""
    from symgame.export.cache import StudyCache, cached

    cache = StudyCache(directory / CACHE_FILE) if directory is not None else None
    parts = {name: cached(cache, name, part_key(name), lambda fn=fn, params=params: fn(**params), recompute=recompute,
                          check=lambda data, name=name: check_part(name, data))
             for name, (fn, params) in PARTS.items()}
    return GoofspielStudy(parts)


# --------------------------------------------------------------------------- checks of the paper (from computed fields)

@dataclass(frozen=True)
class TableCheck:
    """One printed entry of Table 1 against the computed first move and the range over all optimal ones."""

    bet: int
    upcard: int
    printed: str
    computed: Fraction
    low: Fraction
    high: Fraction

    @property
    def tolerance(self) -> float:
        digits = len(self.printed.split(".")[1]) if "." in self.printed else 4
        return 0.5 * 10 ** -digits

    @property
    def agrees(self) -> bool:
        return float(self.low) - self.tolerance <= float(self.printed) <= float(self.high) + self.tolerance

    @property
    def excess(self) -> float:
        """How far the printed number lies outside what rounding any optimal value could print (0 if inside)."""
        printed = float(self.printed)
        return max(0.0, float(self.low) - self.tolerance - printed, printed - float(self.high) - self.tolerance)


def table1_checks(study: GoofspielStudy) -> list[TableCheck]:
    printed = yaml.safe_load((PRINTED / "table1.yaml").read_text(encoding="utf-8"))
    five = next(p for p in study.parts["exact"] if p["cards"] == 5)
    unique = study.parts["unique"]["upcards"]
    return [TableCheck(int(bet), upcard, str(text), prob(five["first_move"][str(upcard)][str(bet)]),
                       prob(unique[str(upcard)]["range"][str(bet)][0]),
                       prob(unique[str(upcard)]["range"][str(bet)][1]))
            for bet, row in printed["bets"].items() for upcard, text in enumerate(row, start=1)]


def table2_checks(study: GoofspielStudy) -> list[TableCheck]:
    """Table 2 (N = 13) entry by entry against the computed first move and the range over every optimal first
    move (floats: HiGHS within 1e-9 of the value); empty when N = 13 is not among the computed rows."""
    printed = yaml.safe_load((PRINTED / "table2.yaml").read_text(encoding="utf-8"))
    row = _row(study, int(printed["cards"]))
    if row is None or "range" not in row:
        return []
    return [TableCheck(int(bet), upcard, str(text), Fraction(row["first_move"][str(upcard)][str(bet)]),
                       Fraction(row["range"][str(upcard)][str(bet)][0]), Fraction(row["range"][str(upcard)][str(bet)][1]))
            for bet, cells in printed["bets"].items() for upcard, text in enumerate(cells, start=1)]


def _row(study: GoofspielStudy, cards: int) -> dict | None:
    return next((p for p in study.amount if p["cards"] == cards), None)


#: a probability below this is 0 in the float rows (the DP's zeros are 0.0 or rounding noise)
ZERO = 1e-9
#: ranges over the optimal first moves narrower than this count as one point (the linear programmes allow 1e-9
#: relative slack in the value, which widens a unique strategy's ranges to about 1e-6)
UNIQUE = 1e-5


@dataclass(frozen=True)
class RemarkCheck:
    """One remark of section 4 about Table 2, in the paper's words, as the precise statement checked at N = 13,
    whether the computed first move satisfies it, the numbers behind the verdict, and whether the optimal first
    move is unique at every upcard involved (then the verdict is about *the* optimal first move)."""

    words: str
    statement: str
    holds: bool
    detail: str
    unique: bool


def remark_checks(study: GoofspielStudy) -> list[RemarkCheck]:
    """The section 4 remarks on Table 2 evaluated on the computed N = 13 first move (empty without N = 13)."""
    row = _row(study, 13)
    if row is None or "range" not in row:
        return []
    n = 13

    def p(bet: int, upcard: int) -> float:
        return float(row["first_move"][str(upcard)][str(bet)])

    def unique(upcards) -> bool:
        return all(hi - lo < UNIQUE for c in upcards for lo, hi in row["range"][str(c)].values())

    out = []
    large = range(10, n + 1)
    bad = [(b, c) for c in large for b in range(1, n + 1) if 2 * b < c and (b - c) % 2 and p(b, c) > ZERO]
    out.append(RemarkCheck("If the upcard N is large (> 9), then one should not bet a card < N/2 and of opposite "
                           "parity", "for upcards c = 10..13, every bet b < c/2 with b - c odd has probability 0",
                           not bad, ", ".join(f"bet {b} at upcard {c}: {p(b, c):.6f}" for b, c in bad)
                           or "all 0", unique(large)))
    pairs = [(2 * k - 1, 2 * k) for k in range(1, 6)]
    worse = [(o, e) for o, e in pairs if not p(o, n) > p(e, n)]
    out.append(RemarkCheck("in the last column, odd bets are consistently (up to i = 10) preferred over even bets",
                           "at upcard 13, bet 2k - 1 has a greater probability than bet 2k for k = 1..5", not worse,
                           "; ".join(f"{o}: {p(o, n):.4f} vs {e}: {p(e, n):.4f}" for o, e in pairs), unique([n])))
    same = [c for c in range(1, n + 1) if sum(p(b, c) for b in range(1, n + 1) if (b - c) % 2 == 0) > 0.5]
    out.append(RemarkCheck("in general, one should bet a card of the same parity as the upcard",
                           "for most upcards (more than half of them), bets of the upcard's parity have total "
                           "probability above 1/2", 2 * len(same) > n, f"true for {len(same)} of {n} upcards (not for "
                           f"{', '.join(str(c) for c in range(1, n + 1) if c not in same) or 'none'})",
                           unique(range(1, n + 1))))
    out.append(RemarkCheck("If the upcard is a 1, one should never bet a 1 but should bet a 4 nearly 50% of the "
                           "time", "at upcard 1, bet 1 has probability 0 and bet 4 a probability in [0.45, 0.55]",
                           p(1, 1) <= ZERO and 0.45 <= p(4, 1) <= 0.55, f"bet 1: {p(1, 1):.6f}, bet 4: {p(4, 1):.6f}",
                           unique([1])))
    out.append(RemarkCheck("When the upcard is a 2, one should never bet a 1 but should bet a 6 about 35% of the "
                           "time", "at upcard 2, bet 1 has probability 0 and bet 6 a probability in [0.30, 0.40]",
                           p(1, 2) <= ZERO and 0.30 <= p(6, 2) <= 0.40, f"bet 1: {p(1, 2):.6f}, bet 6: {p(6, 2):.6f}",
                           unique([2])))
    high = [b for b in range(9, n + 1) if p(b, 3) > ZERO]
    out.append(RemarkCheck("When the upcard is a 3, one should sometimes bet as much as an 8",
                           "at upcard 3, bet 8 has a positive probability and no bet above 8 has",
                           p(8, 3) > ZERO and not high, f"bet 8: {p(8, 3):.6f}; bets above 8 used: "
                           f"{', '.join(map(str, high)) or 'none'}", unique([3])))
    ones = [c for c in range(1, n + 1) if p(1, c) > ZERO]
    out.append(RemarkCheck("one's initial bet should be a 1 only when the upcard is a 3, 4, 7, 11 or 13",
                           "bet 1 has a positive probability exactly at upcards 3, 4, 7, 11 and 13",
                           ones == [3, 4, 7, 11, 13], f"bet 1 used at upcards {', '.join(map(str, ones)) or 'none'}",
                           unique(range(1, n + 1))))
    return out


@dataclass(frozen=True)
class PatternCheck:
    """A pattern of section 4 at one N: the bets it forbids with upcard N and their computed probabilities."""

    cards: int
    exact: bool
    statement: str
    bets: tuple[int, ...]
    probabilities: tuple[float, ...]

    @property
    def holds(self) -> bool:
        return all(p == 0 if self.exact else p < 1e-9 for p in self.probabilities)


def pattern_checks(study: GoofspielStudy) -> list[PatternCheck]:
    out = []
    for part in study.amount:
        n = part["cards"]
        if n < 5:
            continue                                           # the paper states them for N = 5..13
        top = part["first_move"][str(n)]
        value = (lambda b: prob(top[str(b)])) if part["exact"] else (lambda b: float(top[str(b)]))
        out.append(PatternCheck(n, part["exact"], f"with upcard {n}, never bet {n - 1} or {n - 2}", (n - 1, n - 2),
                                (value(n - 1), value(n - 2))))
        if n % 2 == 0:
            out.append(PatternCheck(n, part["exact"], f"with upcard {n} (N even), never bet 1", (1,), (value(1),)))
    return out


def section5(study: GoofspielStudy) -> dict | None:
    nine = next((p for p in study.amount if p["cards"] == 9), None)
    if nine is None:
        return None
    p9 = float(nine["first_move"]["9"]["9"])
    return {"p": p9, "agrees": round(p9, 4) == 0.7475, "after": float(nine["n9_after_1_vs_9"])}


# --------------------------------------------------------------------------- rendering

def _decimal(p: Any, digits: int = 6) -> str:
    q = prob(p) if isinstance(p, str) else Fraction(p)
    scaled = round(q * 10 ** digits)
    return f"{scaled / 10 ** digits:.{digits}f}"


def first_move_csv(part: dict) -> str:
    n = part["cards"]
    lines = ["bet," + ",".join(f"upcard {c}" for c in range(1, n + 1))]
    for bet in range(1, n + 1):
        lines.append(f"{bet}," + ",".join(_decimal(part["first_move"][str(c)][str(bet)]) for c in range(1, n + 1)))
    return "\n".join(lines) + "\n"


def states_csv(study: GoofspielStudy) -> str:
    from math import comb

    lines = ["objective,cards,arithmetic,paper_subgames,stored_subgames,matrix_games,saddle_points,seconds,peak_mb"]
    for part in study.amount + study.parts["win"]:
        n = part["cards"]
        paper = sum(comb(n, k) ** 3 for k in range(n + 1))
        lines.append(f"{part['objective']},{n},{'exact' if part['exact'] else 'float'},{paper},{part['states']},"
                     f"{part['matrix_games']},{part['saddle_points']},{part['seconds']},{part['peak_mb']}")
    return "\n".join(lines) + "\n"


def table_tex(part: dict) -> str:
    n = part["cards"]
    head = " & ".join(str(c) for c in range(1, n + 1))
    rows = [f"{bet} & " + " & ".join(_decimal(part["first_move"][str(c)][str(bet)], 4) for c in range(1, n + 1))
            + r" \\" for bet in range(1, n + 1)]
    return "\n".join([r"\begin{tabular}{r|" + "r" * n + "}", r"bet \textbackslash{} upcard & " + head + r" \\",
                      r"\hline", *rows, r"\end{tabular}"]) + "\n"


def compare_csv(study: GoofspielStudy) -> str:
    lines = ["cards,arithmetic,player1,player2,p_win,p_tie,p_loss,amount"]
    for r in study.parts["compare"]:
        lines.append(f"{r['cards']},{'exact' if r['exact'] else 'float'},{r['player1']},{r['player2']},"
                     + ",".join(_decimal(r[k]) for k in ("win", "tie", "loss", "amount")))
    return "\n".join(lines) + "\n"


def summary_markdown(study: GoofspielStudy) -> str:
    amount, win = study.amount, study.parts["win"]
    lines = ["# Goofspiel (the game of pure strategy)", "", f"Source: {SOURCE}.", "",
             "symgame solves N-card Goofspiel from its rules by a dynamic programme over subgames, level by level "
             "(hand size 1..N). A pair of hands is stored as its comparison pattern (which card beats which), once "
             "per exchange of the players (`f(Y, V, P) = -f(V, Y, P)`); every matrix game of a level is solved in "
             "one batch (saddle points, then a vectorised simplex). In exact arithmetic every matrix game is "
             "re-solved on the simplex basis in rationals and certified by exact best responses on both sides. "
             "The value of the whole game is 0 for every N (symmetry).", "",
             "## Amount won (the paper's objective)", "",
             "| N | arithmetic | value | stored subgames | paper's subgames | matrix games | saddle points | seconds |",
             "|---|---|---|---|---|---|---|---|"]
    from math import comb

    for p in amount:
        n = p["cards"]
        value = p["value"] if p["exact"] else f"{float(p['value']):.1e}"
        lines.append(f"| {n} | {'exact' if p['exact'] else 'float'} | {value} | {p['states']} | "
                     f"{sum(comb(n, k) ** 3 for k in range(n + 1))} | {p['matrix_games']} | {p['saddle_points']} | "
                     f"{p['seconds']} |")
    lines += ["", "Seconds on 2 cores (exact N >= 6 and every float row in two processes), measured when the part was "
              "computed; `states.csv` adds the peak memory of the deriving process so far. "
              "First moves: `first_move_N.csv` (rows: bets, columns: upcards) and `first_move_N.png`; Table 1's "
              "layout for N = 5 in `table1.tex`; counts in `states.csv`.", "",
              "## Checks of the paper", ""]
    checks = table1_checks(study)
    agree = sum(c.agrees for c in checks)
    unique = study.parts["unique"]["upcards"]
    all_unique = all(u["extreme"] == 1 for u in unique.values())
    lines.append(f"- Table 1 (N = 5): {agree} of {len(checks)} printed entries agree with the exact first move to the "
                 "printed digits; " + ("player 1's optimal first move is unique for every upcard (exact vertex "
                                       "enumeration of each upcard's matrix game), so the table is the optimal move."
                                       if all_unique else "some upcards have several optimal first moves: "
                                       "entries are compared with the range over all of them."))
    for p in pattern_checks(study):
        shown = ", ".join(f"bet {b}: {_decimal(q)}" for b, q in zip(p.bets, p.probabilities))
        lines.append(f"- Section 4, N = {p.cards} ({'exact' if p.exact else 'float'}): {p.statement}: "
                     f"**{'holds' if p.holds else 'fails'}** for the computed strategy ({shown}).")
    s5 = section5(study)
    if s5 is not None:
        lines.append(f"- Section 5, N = 9, upcard 9: the optimal strategy bets 9 with probability {s5['p']:.6f} "
                     f"(printed 0.7475: **{'agrees' if s5['agrees'] else 'disagrees'}**). After the human's 1 against "
                     f"the computer's 9 the human's expected amount over the rest of the game, the 9 lost included, "
                     f"is {s5['after']:+.4f}: " + ("an advantage in amount too." if s5["after"] > 0 else
                                                    "no advantage in amount; the paper's point is about the "
                                                    "probability of winning, which is not computed at N = 9."))
    lines += _table2_lines(study)
    lines += ["", "## The open problem: maximising the probability of winning", "",
              "Payoff +1 for a win, -1 for a loss, 0 for a tie (`P(win) - P(loss)`); the state then holds the score "
              "difference. Values and first moves: `win_first_move_N.csv`.", "",
              "| N | arithmetic | value | stored subgames | matrix games | seconds |", "|---|---|---|---|---|---|"]
    for p in win:
        value = p["value"] if p["exact"] else f"{float(p['value']):.1e}"
        lines.append(f"| {p['cards']} | {'exact' if p['exact'] else 'float'} | {value} | {p['states']} | "
                     f"{p['matrix_games']} | {p['seconds']} |")
    lines += ["", "The two objectives against each other (`objectives.csv`; player 1's probabilities and amount; one "
              "optimal strategy of each objective, as the solver returns it):", "",
              "| N | player 1 | player 2 | P(1 wins) | P(tie) | P(1 loses) | amount to 1 |", "|---|---|---|---|---|---|---|"]
    for r in study.parts["compare"]:
        lines.append(f"| {r['cards']} | {r['player1']} | {r['player2']} | " +
                     " | ".join(_decimal(r[k], 4) for k in ("win", "tie", "loss", "amount")) + " |")
    lines += ["", "A best response for winning beats the amount-optimal strategy more often than it loses to it, "
              "while the win-optimal strategy guarantees `P(win) - P(loss) = 0`; the win-optimal strategy in turn "
              "gives away expected amount.", ""]
    return "\n".join(lines)


def _table2_lines(study: GoofspielStudy) -> list[str]:
    checks = table2_checks(study)
    if not checks:
        top = max(p["cards"] for p in study.amount)
        return [f"- Table 2 (N = 13) and the section 4 remarks on it are not checked: the largest N solved here is "
                f"{top}."]
    agree = sum(c.agrees for c in checks)
    row = _row(study, 13)
    assert row is not None
    widths = [hi - lo for c in row["range"].values() for lo, hi in c.values()]
    lines = [f"- Table 2 (N = 13, floating point, `first_move_13.csv`): {agree} of {len(checks)} printed entries agree "
             "with the computed first move to the printed three digits (allowing for every optimal first move: the "
             "range of each probability over all of them, by linear programming within 1e-9 of the value; widest "
             f"range {max(widths):.2g})."]
    lines += [f"  - bet {c.bet}, upcard {c.upcard}: printed {c.printed}, computed {float(c.computed):.6f} "
              f"({c.excess:.6f} beyond what rounding allows)" for c in checks if not c.agrees]
    lines.append(f"  - the optimal first move at N = 13 is unique at every upcard (every range narrower than {UNIQUE:g})"
                 if max(widths) < UNIQUE else "  - some upcard has several optimal first moves (ranges in the data).")
    for r in remark_checks(study):
        lines.append(f"- Section 4 on Table 2: \"{r.words}\" — checked as: {r.statement}: "
                     f"**{'holds' if r.holds else 'fails'}** ({r.detail})" +
                     ("." if r.unique else "; the optimal first move is not unique there, so this is about the "
                      "computed one."))
    return lines


def errata_markdown(study: GoofspielStudy) -> str:
    lines = ["# Errata: Goofspiel", "", f"Source checked: {SOURCE}.", ""]
    bad = [c for c in table1_checks(study) if not c.agrees]
    failed = [p for p in pattern_checks(study) if not p.holds]
    s5 = section5(study)
    for c in bad:
        lines += [f"- Table 1, bet {c.bet}, upcard {c.upcard}: printed {c.printed}, exact {c.computed} "
                  f"= {float(c.computed):.6f}."]
    for p in failed:
        shown = ", ".join(f"bet {b}: {float(q):.6f}" for b, q in zip(p.bets, p.probabilities))
        lines += [f"- N = {p.cards}, {p.statement}: fails for the computed optimal strategy ({shown})."]
    if s5 is not None and not s5["agrees"]:
        lines += [f"- Section 5, N = 9, upcard 9: printed 0.7475, computed {s5['p']:.6f}."]
    table2 = table2_checks(study)
    bad2 = [c for c in table2 if not c.agrees]
    if bad2:
        exact_top = max(p["cards"] for p in study.parts["exact"])
        lines += [f"- Table 2 (N = 13) is checked in floating point only (the exact DP reaches N = {exact_top}), so the "
                  "entries below are not exact counterexamples: the computed first move is the float DP's, and the "
                  "range is over every first move within 1e-9 of the float value."]
    for c in bad2:
        lines += [f"- Table 2, bet {c.bet}, upcard {c.upcard}: printed {c.printed}, computed {float(c.computed):.6f} "
                  f"(every optimal first move: {float(c.low):.6f} to {float(c.high):.6f}; floating point): "
                  + (f"{c.excess:.1e} past the rounding boundary (a borderline case, in the sixth decimal)."
                     if c.excess < 1e-5 else f"{c.excess:.6f} beyond what rounding allows.")]
    remarks = [r for r in remark_checks(study) if not r.holds]
    for r in remarks:
        lines += [f"- Section 4, \"{r.words}\" (N = 13): {r.statement} fails ({r.detail})" +
                  ("." if r.unique else "; the optimal first move is not unique there, so this is about the "
                   "computed one.")]
    if not bad and not failed and (s5 is None or s5["agrees"]) and not bad2 and not remarks:
        top = max(p["cards"] for p in study.amount)
        lines.append(f"No disagreement with the paper was found for N <= {top} (Table 1 entry by entry, the section 4 "
                     "patterns, the section 5 example" + (", Table 2 entry by entry and its section 4 remarks)."
                                                         if table2 else "). Table 2 (N = 13) is not checked."))
    return "\n".join(lines) + "\n"


def render(study: GoofspielStudy) -> dict[str, str]:
    files = {"summary.md": summary_markdown(study), "errata.md": errata_markdown(study),
             "states.csv": states_csv(study), "objectives.csv": compare_csv(study)}
    for part in study.amount:
        files[f"first_move_{part['cards']}.csv"] = first_move_csv(part)
        if part["cards"] == 5:
            files["table1.tex"] = table_tex(part)
            files["cheatsheet.tex"] = cheatsheet_tex(study, part)
    for part in study.parts["win"]:
        files[f"win_first_move_{part['cards']}.csv"] = first_move_csv(part)
    return files


def cheatsheet_tex(study: GoofspielStudy, five: dict) -> str:
    win5 = next(p for p in study.parts["win"] if p["cards"] == 5)
    return "\n".join([
        r"\documentclass[10pt]{article}", r"\usepackage[margin=2cm]{geometry}", r"\pagestyle{empty}",
        r"\begin{document}", r"\section*{Goofspiel with 5 cards: how to bid on the first card}",
        "Each column is the upcard; the entries are the probabilities of each bid in an optimal strategy.",
        r"\subsection*{To maximise the amount won (Rhoads and Bartholdi, Table 1)}",
        table_tex(five).strip(),
        r"\subsection*{To maximise the probability of winning, $P(\mathrm{win}) - P(\mathrm{loss})$}",
        table_tex(win5).strip(), "",
        "Exact values computed by symgame from the rules; every matrix game certified by exact best responses.",
        r"\end{document}", ""])


def heatmap(part: dict, path: Path, title: str) -> Path:
    """The first-move table as a picture, like the paper's Tables 1-2: rows bets, columns upcards."""
    from symgame.export.plots import pyplot

    plt = pyplot()

    n = part["cards"]
    grid = [[float(prob(part["first_move"][str(c)][str(bet)])) for c in range(1, n + 1)] for bet in range(1, n + 1)]
    fig, ax = plt.subplots(figsize=(1.0 + 0.75 * n, 0.8 + 0.75 * n), dpi=100)
    ax.imshow(grid, cmap="Greys", vmin=0.0, vmax=1.0, origin="upper")
    for bet in range(n):
        for c in range(n):
            value = grid[bet][c]
            if value > 5e-4:
                ax.text(c, bet, f"{value:.3f}", ha="center", va="center", fontsize=8,
                        color="white" if value > 0.5 else "black")
    ax.set_xticks(range(n), [str(c) for c in range(1, n + 1)])
    ax.set_yticks(range(n), [str(b) for b in range(1, n + 1)])
    ax.set_xlabel("upcard")
    ax.set_ylabel("bet")
    ax.set_title(title)
    fig.tight_layout()
    save_png(fig, path)
    plt.close(fig)
    return path


def write_goofspiel_outputs(directory: Path, study: GoofspielStudy | None = None, pdf: bool = True,
                            recompute: bool = False) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    study = study or compute(directory, recompute)
    paths = [directory / CACHE_FILE] if (directory / CACHE_FILE).exists() else []
    for name, text in render(study).items():
        paths.append(write_atomic(directory / name, text))
    for part in study.amount:
        if part["cards"] >= 3:
            paths.append(heatmap(part, directory / f"first_move_{part['cards']}.png",
                                 f"Goofspiel, N = {part['cards']}: optimal first move"))
    if pdf:
        from symgame.export.latex import compile_pdf

        compile_pdf(directory / "cheatsheet.tex")
    return paths
