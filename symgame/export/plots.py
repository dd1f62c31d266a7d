"""Plots of PDLs: the parameter square coloured by the rule that fires."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

import numpy as np

from ..model.pdl import PDL
from ..model.store import write_atomic


def pyplot() -> Any:
    """``matplotlib.pyplot`` for writing PNG files, without taking a notebook's or a user's backend away.

    In a fresh process with no backend chosen (no ``MPLBACKEND``, no ``matplotlib.use``, pyplot not yet
    imported) the non-interactive Agg backend is selected, so no window opens; where pyplot is already in use
    (a notebook's inline backend) or a backend was chosen, it is left alone. Figures are closed after saving.

    Returns
    -------
    module
        ``matplotlib.pyplot``.
    """
    import os
    import sys

    from ..errors import optional_import

    matplotlib = optional_import("matplotlib", "plots")
    chosen = getattr(matplotlib.rcParams, "_get_backend_or_none", lambda: None)()
    if "matplotlib.pyplot" not in sys.modules and not os.environ.get("MPLBACKEND") and chosen is None:
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
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 5.2), dpi=100)
    _draw_regions(ax, pdl, [(float(p.lower), float(p.upper)) for p in params], resolution)
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    save_png(fig, path)
    plt.close(fig)
    return path


def _draw_regions(ax: Any, pdl: PDL, window: list[tuple[float, float]], resolution: int) -> None:
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Patch

    (px, py) = pdl.domain.parameters
    xs = np.linspace(*window[0], resolution)
    ys = np.linspace(*window[1], resolution)
    gx, gy = np.meshgrid(xs, ys)
    chosen = pdl.select_numeric({px.name: gx.ravel(), py.name: gy.ravel()}).reshape(gx.shape)
    colours = ListedColormap([_COLOURS[k % len(_COLOURS)] for k in range(len(pdl.rules))])
    ax.imshow(chosen, origin="lower", extent=(xs[0], xs[-1], ys[0], ys[-1]), cmap=colours,
              vmin=-0.5, vmax=len(pdl.rules) - 0.5, interpolation="nearest", aspect="auto")
    ax.set_xlabel(px.name)
    ax.set_ylabel(py.name)
    handles = [Patch(color=_COLOURS[k % len(_COLOURS)], label=f"rule {k + 1}") for k in range(len(pdl.rules))]
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8)


def plot_pdl(pdl: PDL, ax: Any = None, window: Mapping[str, tuple[float, float]] | None = None,
             resolution: int = 401, title: str | None = None) -> Any:
    """Draw a decision list on matplotlib Axes: with one parameter, every action's probability in the
    prescribed equilibrium against the parameter (each rule's stretch shaded); with two, the parameter box
    coloured by the rule that fires.

    A picture only: rules are selected and probabilities evaluated in floating point on a grid (a grid point
    on a region's boundary may be misjudged); the exact answers are the PDL's own.

    Parameters
    ----------
    pdl : PDL
        The decision list (``solution.pdl``, or one player's list).
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default a new figure of the current backend (a notebook's inline backend stays).
    window : mapping of str to (float, float), optional
        The range drawn for a parameter, needed where its domain is unbounded (default: the domain's bounds).
    resolution : int
        Grid points per parameter (at least 2).
    title : str, optional
        The Axes' title.

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    InputError
        When the list has no parameter or more than two, a window is missing for an unbounded parameter or
        is not inside the domain, or ``resolution`` is below 2.

    Examples
    --------
    >>> import symgame
    >>> game = symgame.normal_form([["0", "-1", "t"], ["1", "0", "-1"], ["-t", "1", "0"]],
    ...                            parameters={"t": "[0, 3]"}, zero_sum=True)
    >>> ax = plot_pdl(symgame.solve(game).pdl, resolution=7)
    >>> [line.get_label() for line in ax.get_lines()][:3]
    ['Row: a1', 'Row: a2', 'Row: a3']
    >>> [round(float(y), 4) for y in ax.get_lines()[0].get_ydata()[:2]]        # 1/(t + 2) at t = 0, 1/2
    [0.5, 0.4]
    """
    from ..errors import InputError

    params = pdl.domain.parameters
    if not 1 <= len(params) <= 2:
        raise InputError(f"plot: a decision list with 1 or 2 parameters can be drawn, this one has {len(params)}")
    if isinstance(resolution, bool) or not isinstance(resolution, int) or resolution < 2:
        raise InputError(f"plot: resolution must be an integer of at least 2, got {resolution!r}")
    window = dict(window or {})
    unknown = sorted(set(window) - {p.name for p in params})
    if unknown:
        raise InputError(f"plot: window names {', '.join(unknown)}, not a parameter of the list")
    ranges = []
    for p in params:
        low, high = float(p.lower), float(p.upper)
        if p.name in window:
            a, b = (float(v) for v in window[p.name])
            if not low <= a < b <= high:
                raise InputError(f"plot: window {p.name} = ({a:g}, {b:g}) is not inside the domain "
                                 f"[{low:g}, {high:g}]")
            low, high = a, b
        if not (np.isfinite(low) and np.isfinite(high)):
            raise InputError(f"plot: {p.name} is unbounded; give window={{{p.name!r}: (low, high)}}")
        ranges.append((low, high))
    if ax is None:
        _, ax = pyplot().subplots(figsize=(6.4, 4.4))
    if len(params) == 2:
        _draw_regions(ax, pdl, ranges, resolution)
    else:
        _draw_probabilities(ax, pdl, ranges[0], resolution)
    if title:
        ax.set_title(title, fontsize=10)
    return ax


def _draw_probabilities(ax: Any, pdl: PDL, window: tuple[float, float], resolution: int) -> None:
    (param,) = pdl.domain.parameters
    xs = np.linspace(*window, resolution)
    columns = {param.name: xs}
    chosen = pdl.select_numeric(columns)
    profiles = pdl.profiles_numeric(columns)
    start = 0
    for k in range(1, resolution + 1):          # the stretches of consecutive grid points under one rule
        if k == resolution or chosen[k] != chosen[start]:
            rule = int(chosen[start])
            ax.axvspan(xs[start], xs[k - 1], color=_COLOURS[rule % len(_COLOURS)], alpha=0.12, lw=0)
            start = k
    for player, table in zip(pdl.players, profiles):
        for a, action in enumerate(player.actions):
            ax.plot(xs, table[:, a], label=f"{player.name}: {action}")
    ax.set_xlabel(param.name)
    ax.set_ylabel("probability")
    ax.set_ylim(-0.02, 1.02)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8)


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
