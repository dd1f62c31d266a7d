"""The published results that symgame reproduces and corrects, one folder per paper.

The package ``symgame`` holds what any user's game can use (model, engine, numeric solvers, checks, game
constructors from rules, generic export). Everything that belongs to one paper lives here: what it prints
(as data files in symgame's own formats where possible), proofs and experiments about its games, and the
writers of ``outputs/<game>/``.

- ``ganzfried2022/``: 2x2 games, Weakest Link, Final Jeopardy (``seeds.py``; every score pair up to 20, near
  ties included, in ``jeopardy_sweep.py``), n-card Kuhn poker, the sampling experiment (``sampling.py``);
- ``buck2022/``: continuous Guts (coalitions, the Weenie rule, symmetric thresholds) and the Jacob games;
- ``billingham2017/``: simplified three-player Kuhn poker and its dynamics of repeated play;
- ``szafron2013/``: three-player Kuhn poker with every card active (families derived exactly, not complete);
- ``rhoads2012/``: Goofspiel.

``symgame derive GAME`` (or ``python -m derivations GAME``) runs one entry of :data:`CATALOGUE`. This module
is plain data so that ``symgame list`` starts without the solvers.
"""
from __future__ import annotations

from symgame.references import cite

#: name -> (title, source, output folders)
CATALOGUE: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "two_by_two": ("General-sum 2x2 games", cite("ganzfried2022", "section 5 and Appendix A"), ("two_by_two",)),
    "weakest_link": ("Weakest Link: the final vote", cite("ganzfried2022", "section 6.3 and Appendix D"),
                     ("weakest_link",)),
    "jeopardy": ("Final Jeopardy", cite("ganzfried2022", "section 6.1 and Appendix B"),
                 ("jeopardy/5_3", "jeopardy/8_5", "jeopardy/10_6", "jeopardy/12_8")),
    "jeopardy_sweep": ("Final Jeopardy for every score pair up to 20, near ties included (plane CAD)",
                       cite("ganzfried2022", "section 6.1 and Appendix B"), ("jeopardy/sweep",)),
    "kuhn": ("n-card Kuhn poker (game tree)", cite("ganzfried2022", "section 6.2 and Appendix C"), ("kuhn",)),
    "guts": ("Continuous Guts, 1 v N coalitions", cite("buck2022", "sections 1-4 and Appendices B-D")
             + "; the game: " + cite("castronova2021"), ("guts",)),
    "billingham": ("Simplified three-player Kuhn poker (atlas; section 4's dynamics of repeated play)",
                   cite("billingham2017full", "sections 2-3, eqs. (1)-(18), Figures 1-5"),
                   ("billingham", "billingham/dynamics")),
    "kuhn3": ("Three-player Kuhn poker, every card active: equilibrium families for every pot P (not complete)",
              cite("szafron2013", "section 2") + "; " + cite("billingham2018"), ("kuhn3",)),
    "goofspiel": ("Goofspiel (the game of pure strategy): exact and large N, amount and win objectives",
                  cite("rhoads2012", "sections 2-5, Tables 1-2"), ("goofspiel",)),
    "sampling": ("Parameter sampling against decision lists (random 2x2 zero-sum games)",
                 cite("ganzfried2022", "section 4, Theorem 1; section 5, Figure 1"), ("sampling",)),
}
