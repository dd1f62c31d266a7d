"""Ganzfried (2022), section 6.3 and Appendix D: the final vote of Weakest Link.

Derives the voting rule from all four vote combinations of the opponents,
certifies it, refutes the printed inequality with an exact counterexample,
checks the claim "if p2 <= p1/2 always vote for the stronger player" and
writes outputs/weakest_link/.
"""
from pathlib import Path

from symgame.export.pipeline import derive_game

if __name__ == "__main__":
    result = derive_game("weakest_link", Path(__file__).resolve().parents[1] / "outputs")
    print(f"wrote {result.directory} (pdf: {result.pdf.message})")
