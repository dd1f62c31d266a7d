"""Where an external program that symgame runs (never imports) is found."""
from __future__ import annotations

import os
import shutil
from pathlib import Path


def find_program(variable: str, name: str, wheel: str) -> str | None:
    """The path of program ``name``: ``$variable`` when set (``None`` if that is no file), else ``name`` on the
    ``PATH``, else ``sage_wheels/bin/name`` inside the installed distribution ``wheel``; ``None`` when none is
    an executable file."""
    given = os.environ.get(variable)
    if given:
        return given if Path(given).is_file() else None
    found = shutil.which(name)
    if found:
        return found
    try:
        from importlib.metadata import PackageNotFoundError, distribution

        path = Path(str(distribution(wheel).locate_file(f"sage_wheels/bin/{name}")))
    except (ImportError, PackageNotFoundError):         # pragma: no cover - depends on the installation
        return None
    if path.is_file() and os.access(path, os.X_OK):
        return str(path)
    return None                                         # pragma: no cover
