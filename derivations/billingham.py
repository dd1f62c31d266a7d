"""Billingham, simplified three-player Kuhn poker (sections 2-3): the equilibrium atlas.

Builds the game from its rules, derives every equilibrium family for every pot P >= 2 from the raw
case space, certifies each family on its range, checks the printed solutions and sentences, runs
the numeric cross-check, and writes outputs/billingham/.
"""
from pathlib import Path

from symgame.export.billingham_outputs import write_billingham_outputs

if __name__ == "__main__":
    result = write_billingham_outputs(Path(__file__).resolve().parents[1] / "outputs" / "billingham")
    for path in result.files:
        print(f"wrote {path}")
    print(f"pdf: {result.pdf.message}")
