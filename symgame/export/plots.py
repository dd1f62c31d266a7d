"""Plots of PDLs: the parameter square coloured by the rule that fires."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ..model.pdl import PDL
from ..model.store import write_atomic


def pyplot() -> Any:
    """``matplotlib.pyplot`` for writing PNG files, without taking a notebook's or a user's backend away.

    In a fresh process with no backend chosen (no ``MPLBACKEND``, pyplot not yet imported) the
    non-interactive Agg backend is selected, so no window opens; where pyplot is already in use (a notebook's
    inline backend) or a backend was chosen, it is left alone. Figures are closed after saving.

    Returns
    -------
    module
        ``matplotlib.pyplot``.
    """
    import os
    import sys

    import matplotlib

    if "matplotlib.pyplot" not in sys.modules and not os.environ.get("MPLBACKEND"):
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


_COLOURS = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1",
            "#ff9da7", "#9c755f", "#bab0ac"]


def plot_rule_regions(pdl: PDL, path: Path, title: str, resolution: int = 401) -> Path | None:
    """A PNG of a two-parameter box coloured by the firing rule.

    Returns ``None`` (and writes nothing) unless the domain has exactly two
    parameters with finite bounds.  Floating-point rule selection is used
    for the picture only; exact results are in result.json.
    """
    params = pdl.domain.parameters
    if len(params) != 2 or not all(p.lower.is_finite and p.upper.is_finite for p in params):
        return None
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Patch

    (px, py) = params
    xs = np.linspace(float(px.lower), float(px.upper), resolution)
    ys = np.linspace(float(py.lower), float(py.upper), resolution)
    gx, gy = np.meshgrid(xs, ys)
    chosen = pdl.select_numeric({px.name: gx.ravel(), py.name: gy.ravel()}).reshape(gx.shape)
    colours = ListedColormap([_COLOURS[k % len(_COLOURS)] for k in range(len(pdl.rules))])
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 5.2), dpi=100)
    ax.imshow(chosen, origin="lower", extent=(xs[0], xs[-1], ys[0], ys[-1]), cmap=colours,
              vmin=-0.5, vmax=len(pdl.rules) - 0.5, interpolation="nearest", aspect="auto")
    ax.set_xlabel(px.name)
    ax.set_ylabel(py.name)
    ax.set_title(title, fontsize=10)
    handles = [Patch(color=_COLOURS[k % len(_COLOURS)], label=f"rule {k + 1}") for k in range(len(pdl.rules))]
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8)
    fig.tight_layout()
    save_png(fig, path)
    plt.close(fig)
    return path


def save_png(fig: Any, path: Path | str) -> Path:
    """Write ``fig`` as a PNG without the metadata that differs between runs, atomically (never through a link).

    Parameters
    ----------
    fig : matplotlib.figure.Figure
    path : path

    Returns
    -------
    Path
        ``path``.

    Raises
    ------
    StoreError
        When the destination cannot be written (see :func:`symgame.model.store.write_atomic`).
    """
    import io

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", metadata={"Software": None})
    return write_atomic(path, buffer.getvalue())
