"""Finding the paper studies: the ``derivations/`` folder of a source checkout, beside the package.

``symgame derive`` and ``symgame list`` run and list studies of published papers that are not part of the library;
they live in the repository's ``derivations/`` folder (whose own commands are ``python -m derivations ...``). With an
editable install (``pip install -e .``) it sits next to the package; otherwise it is looked for in the
current directory and its parents.
"""
from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

from .errors import InputError


class StudiesNotFound(InputError):
    """The ``derivations/`` folder of the source repository is not available."""


def _root() -> Path | None:
    here = Path(__file__).resolve().parents[1]
    for base in (here, *(Path.cwd().resolve() / "_").parents):
        if (base / "derivations" / "__init__.py").is_file():
            return base
    return None


def load(module: str = "") -> ModuleType:
    """Import ``derivations.<module>`` (``derivations`` itself for ``""``).

    Raises
    ------
    StudiesNotFound
        When no ``derivations/`` folder is found (an installation without the source repository).
    """
    if "derivations" not in sys.modules:
        try:
            importlib.import_module("derivations")
        except ModuleNotFoundError:
            root = _root()
            if root is None:
                raise StudiesNotFound("the paper studies live in the derivations/ folder of symgame's source "
                                      "repository, which was not found beside the installed package or in the "
                                      "current directory; run from a clone of the repository") from None
            sys.path.insert(0, str(root))
            importlib.import_module("derivations")
    return importlib.import_module(f"derivations.{module}" if module else "derivations")
