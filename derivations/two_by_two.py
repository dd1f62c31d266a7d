"""Ganzfried (2022), section 5 and Appendix A: an exact PDL for every general-sum 2x2 game.

Builds the game with payoff parameters a..h, derives the PDL by parametric
support enumeration, certifies it on the whole domain, checks it exactly on
all 3^8 games with payoffs in {-1, 0, 1} and numerically on 100,000 random
games, compares it with the printed PDL and writes outputs/two_by_two/.
"""
from pathlib import Path

from symgame.export.pipeline import derive_game

if __name__ == "__main__":
    result = derive_game("two_by_two", Path(__file__).resolve().parents[1] / "outputs")
    print(f"wrote {result.directory} (pdf: {result.pdf.message})")
