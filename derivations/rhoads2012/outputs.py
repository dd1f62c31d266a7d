"""``outputs/goofspiel/``: Rhoads and Bartholdi (2012), Goofspiel solved exactly for N = 1..6 and checked
against the paper's Table 1 and the patterns it states (section 4).

Computation (:func:`compute`) and rendering (:func:`render`) are apart: the renderers take the computed
:class:`GoofspielStudy` and never call a solver.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Sequence

import yaml

from symgame.games.goofspiel import SOURCE, GoofspielSolution, solve

CARDS = (1, 2, 3, 4, 5, 6)
PRINTED = Path(__file__).resolve().parent / "printed"


@dataclass(frozen=True)
class TableCheck:
    """One printed entry of Table 1 against the exact first move."""

    bet: int
    upcard: int
    printed: str
    computed: Fraction

    @property
    def agrees(self) -> bool:
        digits = len(self.printed.split(".")[1]) if "." in self.printed else 4
        return abs(float(self.computed) - float(self.printed)) <= 0.5 * 10 ** -digits


@dataclass(frozen=True)
class PatternCheck:
    """A pattern of section 4 at one N: the bets it forbids with upcard N, and their exact probabilities."""

    cards: int
    statement: str
    bets: tuple[int, ...]
    probabilities: tuple[Fraction, ...]

    @property
    def holds(self) -> bool:
        return all(p == 0 for p in self.probabilities)


@dataclass(frozen=True)
class GoofspielStudy:
    solutions: tuple[GoofspielSolution, ...]
    table1: tuple[TableCheck, ...]
    patterns: tuple[PatternCheck, ...]


def compute(cards: Sequence[int] = CARDS) -> GoofspielStudy:
    """Exact solutions for every N, Table 1 checked entry by entry, the section 4 patterns checked where they apply."""
    solutions = tuple(solve(n, exact=True) for n in cards)
    by_n = {s.cards: s for s in solutions}
    printed = yaml.safe_load((PRINTED / "table1.yaml").read_text(encoding="utf-8"))
    table = tuple(TableCheck(int(bet), upcard, str(text), by_n[5].first_move[upcard][int(bet)])
                  for bet, row in printed["bets"].items() for upcard, text in enumerate(row, start=1)) \
        if 5 in by_n else ()
    patterns = []
    for s in solutions:
        n = s.cards
        if n < 5:
            continue                                           # the paper states them for N = 5..13
        top = s.first_move[n]
        patterns.append(PatternCheck(n, f"with upcard {n}, never bet {n - 1} or {n - 2}", (n - 1, n - 2),
                                     (top[n - 1], top[n - 2])))
        if n % 2 == 0:
            patterns.append(PatternCheck(n, f"with upcard {n} (N even), never bet 1", (1,), (top[1],)))
    return GoofspielStudy(solutions, table, tuple(patterns))


def _decimal(p: Fraction, digits: int = 6) -> str:
    scaled = round(p * 10 ** digits)
    return f"{scaled / 10 ** digits:.{digits}f}"


def first_move_csv(solution: GoofspielSolution) -> str:
    n = solution.cards
    lines = ["bet," + ",".join(f"upcard {c}" for c in range(1, n + 1))]
    for bet in range(1, n + 1):
        lines.append(f"{bet}," + ",".join(_decimal(solution.first_move[c][bet]) for c in range(1, n + 1)))
    return "\n".join(lines) + "\n"


def states_csv(study: GoofspielStudy) -> str:
    from math import comb

    lines = ["cards,paper_subgames,canonical_subgames,matrix_games,saddle_points"]
    for s in study.solutions:
        paper = sum(comb(s.cards, k) ** 3 for k in range(s.cards + 1))
        lines.append(f"{s.cards},{paper},{s.states},{s.matrix_games},{s.saddle_points}")
    return "\n".join(lines) + "\n"


def table_tex(solution: GoofspielSolution) -> str:
    n = solution.cards
    head = " & ".join(str(c) for c in range(1, n + 1))
    rows = [f"{bet} & " + " & ".join(_decimal(solution.first_move[c][bet], 4) for c in range(1, n + 1)) + r" \\"
            for bet in range(1, n + 1)]
    return "\n".join([r"\begin{tabular}{r|" + "r" * n + "}", r"bet \textbackslash{} upcard & " + head + r" \\",
                      r"\hline", *rows, r"\end{tabular}"]) + "\n"


def summary_markdown(study: GoofspielStudy) -> str:
    lines = ["# Goofspiel (the game of pure strategy)", "", f"Source: {SOURCE}.", "",
             "Every value below is exact (rationals): a dynamic programme over subgames whose hands are reduced to "
             "their comparison pattern, each matrix game solved on its supports in exact arithmetic and certified "
             "by exact best responses on both sides. The value of the whole game is 0 for every N (symmetry).", "",
             "| N | value | canonical subgames | matrix games | saddle points |", "|---|---|---|---|---|"]
    lines += [f"| {s.cards} | {s.value} | {s.states} | {s.matrix_games} | {s.saddle_points} |" for s in study.solutions]
    lines += ["", "First moves: `first_move_N.csv` (rows: bets, columns: upcards; six decimals of the exact "
              "probabilities) and `first_move_N.png` (N >= 3, as a picture), Table 1's layout for N = 5 in "
              "`table1.tex`; state counts against the paper's triples of subsets in `states.csv`.", ""]
    agree = sum(c.agrees for c in study.table1)
    lines += ["## Checks of the paper", "",
              f"- Table 1 (N = 5): {agree} of {len(study.table1)} printed entries agree with the exact first move "
              "to the printed digits."]
    for p in study.patterns:
        lines.append(f"- N = {p.cards}: {p.statement}: **{'holds' if p.holds else 'fails'}**.")
    lines += ["", "Where the optimal first move is not unique, the one computed here is one optimal strategy; "
              "the comparison with Table 1 is then with that strategy (uniqueness is not checked yet).", ""]
    return "\n".join(lines)


def errata_markdown(study: GoofspielStudy) -> str:
    lines = ["# Errata: Goofspiel", "", f"Source checked: {SOURCE}.", ""]
    bad = [c for c in study.table1 if not c.agrees]
    failed = [p for p in study.patterns if not p.holds]
    for c in bad:
        lines += [f"- Table 1, bet {c.bet}, upcard {c.upcard}: printed {c.printed}, exact {c.computed} "
                  f"= {float(c.computed):.6f}."]
    for p in failed:
        shown = ", ".join(f"bet {b}: {float(q):.6f}" for b, q in zip(p.bets, p.probabilities))
        lines += [f"- N = {p.cards}, {p.statement}: fails ({shown})."]
    if not bad and not failed:
        lines.append("No disagreement with the paper was found for N <= "
                     f"{max(s.cards for s in study.solutions)} (Table 1 entry by entry, the section 4 patterns).")
    return "\n".join(lines) + "\n"


def render(study: GoofspielStudy) -> dict[str, str]:
    files = {"summary.md": summary_markdown(study), "errata.md": errata_markdown(study),
             "states.csv": states_csv(study)}
    for s in study.solutions:
        files[f"first_move_{s.cards}.csv"] = first_move_csv(s)
        if s.cards == 5:
            files["table1.tex"] = table_tex(s)
    return files


def heatmap(solution: GoofspielSolution, path: Path) -> Path:
    """The first-move table as a picture, like the paper's Tables 1-2: rows bets, columns upcards."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    n = solution.cards
    grid = [[float(solution.first_move[c][bet]) for c in range(1, n + 1)] for bet in range(1, n + 1)]
    fig, ax = plt.subplots(figsize=(1.0 + 0.75 * n, 0.8 + 0.75 * n), dpi=100)
    ax.imshow(grid, cmap="Greys", vmin=0.0, vmax=1.0, origin="upper")
    for bet in range(n):
        for c in range(n):
            value = grid[bet][c]
            if value > 0:
                ax.text(c, bet, f"{value:.3f}", ha="center", va="center", fontsize=8,
                        color="white" if value > 0.5 else "black")
    ax.set_xticks(range(n), [str(c) for c in range(1, n + 1)])
    ax.set_yticks(range(n), [str(b) for b in range(1, n + 1)])
    ax.set_xlabel("upcard")
    ax.set_ylabel("bet")
    ax.set_title(f"Goofspiel, N = {n}: optimal first move")
    fig.tight_layout()
    fig.savefig(path, metadata={"Software": None})
    plt.close(fig)
    return path


def write_goofspiel_outputs(directory: Path, study: GoofspielStudy | None = None) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    study = study or compute()
    paths = []
    for name, text in render(study).items():
        path = directory / name
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    for solution in study.solutions:
        if solution.cards >= 3:
            paths.append(heatmap(solution, directory / f"first_move_{solution.cards}.png"))
    return paths
