"""The tutorial notebook (docs/tutorial.ipynb) is the tutorial page, and it runs: every code cell executed in
order in one namespace, as a kernel would, shows exactly its stored output."""
from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("tutorial_notebook", ROOT / "docs" / "notebook.py")
notebook = importlib.util.module_from_spec(spec)
spec.loader.exec_module(notebook)


def test_the_notebook_is_written_from_the_tutorial_page():
    text = (ROOT / "docs" / "tutorial.md").read_text()
    assert (ROOT / "docs" / "tutorial.ipynb").read_text() == notebook.notebook(text), \
        "docs/tutorial.ipynb is stale: run python3 docs/notebook.py"


def test_every_cell_shows_its_stored_output(monkeypatch):
    monkeypatch.chdir(ROOT)
    cells = json.loads((ROOT / "docs" / "tutorial.ipynb").read_text())["cells"]
    code = [c for c in cells if c["cell_type"] == "code"]
    assert len(code) >= 10
    namespace: dict = {"__name__": "__main__"}
    for cell in code:
        shown = notebook.run_cell("".join(cell["source"]), namespace)
        stored = "".join(out for o in cell["outputs"] for out in o["text"])
        assert shown == stored, ("".join(cell["source"]), shown, stored)
    assert os.getcwd() == str(ROOT)
