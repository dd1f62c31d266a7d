"""Sphinx configuration: the API reference is built from the numpydoc docstrings (``sphinx-build -W``)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from symgame._version import __version__  # noqa: E402

project = "symgame"
author = "The symgame developers"
copyright = "2026, The symgame developers"
release = version = __version__
extensions = ["sphinx.ext.autodoc", "sphinx.ext.napoleon", "sphinx.ext.viewcode", "myst_parser"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
myst_heading_anchors = 3
napoleon_google_docstring = False
napoleon_numpy_docstring = True
autodoc_member_order = "bysource"
autodoc_typehints = "none"
nitpicky = False
exclude_patterns = ["_build"]
html_theme = "alabaster"
