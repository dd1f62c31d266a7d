"""The tutorial as a Jupyter notebook: ``docs/tutorial.ipynb`` is written from ``docs/tutorial.md`` by
``python3 docs/notebook.py`` and executed by ``tests/unit/test_tutorial_notebook.py`` (each cell run as a kernel
would, its printed text and displayed value compared with the notebook's stored output).

Prose becomes Markdown cells; each ``python`` example block becomes code cells, split after every statement that
shows output, with that output stored (nbformat 4, written without the ``nbformat`` package).
"""
from __future__ import annotations

import ast
import contextlib
import io
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def _lines(text: str) -> list[str]:
    parts = text.split("\n")
    return [line + "\n" for line in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def cells_from_markdown(text: str) -> list[dict[str, Any]]:
    """The notebook's cells from the tutorial's Markdown (``>>>`` examples become code cells with outputs)."""
    cells: list[dict[str, Any]] = []
    prose: list[str] = []
    lines = text.split("\n")
    k = 0
    while k < len(lines):
        if lines[k].strip() == "```python":
            if "".join(prose).strip():
                cells.append({"cell_type": "markdown", "metadata": {}, "source": _lines("\n".join(prose).strip())})
            prose = []
            k += 1
            source: list[str] = []
            output: list[str] = []
            while lines[k].strip() != "```":
                line = lines[k]
                if line.startswith(">>> ") or line.startswith("... "):
                    if output:                      # the statement before showed output: a cell ends there
                        cells.append(_code(source, output))
                        source, output = [], []
                    source.append(line[4:])
                elif line.strip():
                    output.append(line)
                k += 1
            if source:
                cells.append(_code(source, output))
        else:
            prose.append(lines[k])
        k += 1
    if "".join(prose).strip():
        cells.append({"cell_type": "markdown", "metadata": {}, "source": _lines("\n".join(prose).strip())})
    return cells


def _code(source: list[str], output: list[str]) -> dict[str, Any]:
    outputs = [{"name": "stdout", "output_type": "stream", "text": _lines("\n".join(output) + "\n")}] if output else []
    return {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": outputs,
            "source": _lines("\n".join(source))}


def notebook(text: str) -> str:
    """The notebook's JSON text (deterministic)."""
    data = {"cells": cells_from_markdown(text),
            "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                         "language_info": {"name": "python"}},
            "nbformat": 4, "nbformat_minor": 5}
    for k, cell in enumerate(data["cells"]):
        cell["id"] = f"cell-{k}"
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def run_cell(source: str, namespace: dict[str, Any]) -> str:
    """What a kernel shows for one code cell: its printed text, then the value of a final expression."""
    tree = ast.parse(source)
    last = tree.body[-1] if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    body = ast.Module(body=tree.body[:-1] if last else tree.body, type_ignores=[])
    shown = io.StringIO()
    with contextlib.redirect_stdout(shown):
        exec(compile(body, "<cell>", "exec"), namespace)          # noqa: S102 - the repository's own tutorial
        if last is not None:
            value = eval(compile(ast.Expression(last.value), "<cell>", "eval"), namespace)   # noqa: S307
            if value is not None:
                print(repr(value))
    return shown.getvalue()


if __name__ == "__main__":
    (HERE / "tutorial.ipynb").write_text(notebook((HERE / "tutorial.md").read_text()))
    sys.exit(0)
