"""Ganzfried (2022), section 6.2 and Appendix C: n-card Kuhn poker.

Certified exact values for n = 3..200 and the exact exploitability of the
printed n-card PDL; writes outputs/kuhn/.
"""
from pathlib import Path

from symgame.export.kuhn_outputs import write_kuhn_outputs

if __name__ == "__main__":
    for path in write_kuhn_outputs(Path(__file__).resolve().parents[1] / "outputs" / "kuhn"):
        print(f"wrote {path}")
