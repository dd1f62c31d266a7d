"""symgame: symbolic equilibria of parametrized games, exact and checked.

Build or load a game, solve it, evaluate and export the result:

>>> import symgame
>>> game = symgame.normal_form([["a", "0"], ["0", "1"]], parameters={"a": "(0, oo)"}, zero_sum=True)
>>> solution = symgame.solve(game)
>>> print(solution.pdl.render_text())
Always: Row plays {a1: 1/(a + 1), a2: a/(a + 1)}; Col plays {a1: 1/(a + 1), a2: a/(a + 1)}
>>> solution.evaluate(a=3).strategies[0]
(Fraction(1, 4), Fraction(3, 4))

The public names are :func:`normal_form`, :func:`load`, :func:`load_pdl`, :func:`examples` (the example games
shipped in the package), :func:`solve` (every game symgame reads, the engine chosen from the game, returning a
:class:`Solution` in one result contract), :func:`atlas`, :func:`tree_solve` (two-player zero-sum trees as exact functions of a
parameter), :func:`stability` and :func:`dynamics` (learning dynamics of a polynomial game) and the errors :class:`SymgameError`, :class:`InputError`,
:class:`NoResultError`. Everything else is importable from its module (``symgame.engine``,
``symgame.verify``, ...), documented there, and may change between versions.
"""
from ._version import __version__
from .api import (
                  Solution,
                  all_equilibria,
                  atlas,
                  dynamics,
                  examples,
                  load,
                  load_pdl,
                  normal_form,
                  solve,
                  stability,
                  tree_solve,
)
from .errors import InputError, LimitError, MissingDependencyError, NoResultError, SymgameError

__all__ = ["__version__", "normal_form", "load", "load_pdl", "examples", "solve", "all_equilibria", "Solution", "atlas", "tree_solve",
           "stability", "dynamics",
           "SymgameError", "InputError",
           "NoResultError", "LimitError", "MissingDependencyError"]
