"""symgame's exceptions: one base class, a few kinds, every message one line in the library's terms.

>>> from symgame.errors import SymgameError, InputError
>>> issubclass(InputError, SymgameError) and issubclass(InputError, ValueError)
True

Catch :class:`SymgameError` to handle anything symgame raises on purpose; the command line turns
:class:`InputError` into exit status 2 and :class:`NoResultError` into exit status 3.
"""
from __future__ import annotations

import functools
from typing import Any


class SymgameError(Exception):
    """Base class of every error symgame raises on purpose."""


class InputError(SymgameError, ValueError):
    """A game, file, expression or option that cannot be used as given (what, where, why)."""


class NoResultError(SymgameError, RuntimeError):
    """A computation ran but could not reach a proved result (coverage not proved, a case undecided)."""


class LimitError(InputError):
    """An input beyond a documented size limit (the message names the limit)."""


class NumericSolverError(SymgameError, RuntimeError):
    """A floating-point solver (HiGHS, nashpy) that did not reach an answer within its tolerance."""


class StoreError(InputError):
    """A stored file (study cache, checkpoint, output) that cannot be used or written as it stands.

    The message names the file and the problem in one line: truncated or corrupted, of another game or
    version, a forged record, a symbolic link, a name that would leave its folder.
    """


class MissingDependencyError(SymgameError, ImportError):
    """An optional library that a feature needs is not installed (the message names the extra to install:
    ``pip install 'symgame[export]'`` for plots and LaTeX, ``'symgame[dask]'`` for a cluster)."""


def optional_import(module: str, feature: str, extra: str = "export"):
    """``importlib.import_module(module)``, or a :class:`MissingDependencyError` in one line naming ``feature``
    and the extra that brings the module.

    Examples
    --------
    >>> optional_import("json", "anything").__name__
    'json'
    >>> optional_import("no_such_module_here", "plots")
    Traceback (most recent call last):
    ...
    symgame.errors.MissingDependencyError: plots need no_such_module_here: pip install 'symgame[export]'
    """
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingDependencyError(f"{feature} need {module.split('.')[0]}: pip install 'symgame[{extra}]'") from None


@functools.lru_cache(maxsize=None)
def optional_module(module: str) -> Any:
    """``importlib.import_module(module)``, or ``None`` when it does not import (looked up once): the compiled
    kernels, which need Numba and have NumPy or Python fallbacks.

    Examples
    --------
    >>> optional_module("json").__name__
    'json'
    >>> optional_module("no_such_module_here") is None
    True
    """
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        return None


class TimeLimitError(NoResultError):
    """A computation stopped at a wall-clock limit the user set (``--timeout``); nothing was written."""
