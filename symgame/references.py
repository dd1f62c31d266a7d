"""The works symgame reproduces, checks or builds on, cited in full (see also ``references.bib``).

Module docstrings and outputs cite these by key and then down to the section, equation or table,
e.g. ``cite("ganzfried2022", "section 6.1 and Appendix B")``.

>>> cite("rhoads2012", "Table 1")
'Rhoads, Bartholdi, "Computer solution to the game of pure strategy", Games 3(4), 150-156 (2012), Table 1'
"""
from __future__ import annotations

#: key -> (authors, title, venue, year)
REFERENCES: dict[str, tuple[str, str, str, int]] = {
    "ganzfried2022": ("Ganzfried", "Human strategic decision making in parametrized games",
                      "Mathematics 10(7), 1147, doi:10.3390/math10071147", 2022),
    "buck2022": ("Buck, Lee, Platnick, Wheeler, Zumbrun",
                 "Continuous guts poker and numerical optimization of generalized recursive games",
                 "arXiv:2208.02788", 2022),
    "castronova2021": ("Castronova, Chen, Zumbrun", "Game-theoretic analysis of Guts Poker", "arXiv:2108.06556", 2021),
    "billingham2017full": ("Billingham", "Full street simplified three player Kuhn poker", "arXiv:1707.01392", 2017),
    "billingham2017": ("Billingham", "Simplified three player Kuhn poker", "arXiv:1704.08124", 2017),
    "billingham2018": ("Billingham", "Equilibrium solutions of three player Kuhn poker with N > 3 cards: a new "
                       "numerical method using regularization and arc-length continuation", "arXiv:1802.04670", 2018),
    "szafron2013": ("Szafron, Gibson, Sturtevant", "A parameterized family of equilibrium profiles for three-player "
                    "Kuhn poker", "Proceedings of AAMAS 2013, 247-254", 2013),
    "rhoads2012": ("Rhoads, Bartholdi", "Computer solution to the game of pure strategy",
                   "Games 3(4), 150-156", 2012),
    "kuhn1950": ("Kuhn", "A simplified two-person poker", "Contributions to the Theory of Games I, Annals of "
                 "Mathematics Studies 24, 97-103", 1950),
}


def cite(key: str, where: str = "") -> str:
    """``Authors, "Title", venue (year)``, followed by the place in the work if given."""
    authors, title, venue, year = REFERENCES[key]
    text = f'{authors}, "{title}", {venue} ({year})'
    return f"{text}, {where}" if where else text


def bibtex() -> str:
    """The references as BibTeX entries (``references.bib`` is this text)."""
    out = []
    for key, (authors, title, venue, year) in REFERENCES.items():
        names = " and ".join(a.strip() for a in authors.split(","))
        out.append(f"@misc{{{key},\n  author = {{{names}}},\n  title = {{{title}}},\n  note = {{{venue}}},\n"
                   f"  year = {{{year}}}\n}}\n")
    return "\n".join(out)
