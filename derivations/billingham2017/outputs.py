"""``outputs/billingham/``: the atlas of Billingham's game derived, checked and exported."""
from __future__ import annotations

from pathlib import Path

from derivations.billingham2017 import printed as billingham_printed
from symgame.engine.atlas import Atlas, Mapper, ProcessMapper, build_atlas
from symgame.export.atlas_outputs import AtlasExport, write_atlas_outputs
from symgame.games import billingham
from symgame.model.store import write_atomic
from symgame.verify.atlasreport import AtlasAnalysis, analyse_atlas

PLOTTED = ("a1", "b1", "a2", "b2", "b3")


def analyse_billingham(mapper: Mapper | None = None, progress: bool = False,
                       atlas: Atlas | None = None) -> AtlasAnalysis:
    """Build the atlas from the rules (by default on every core), or take ``atlas`` built so before, and run
    every check against the paper."""
    if atlas is None and mapper is None:
        with ProcessMapper() as pool:
            atlas = build_atlas(billingham.build_game(), pool, progress=progress)
    elif atlas is None:
        atlas = build_atlas(billingham.build_game(), mapper, progress=progress)
    return analyse_atlas(atlas, billingham_printed.printed_solutions(), billingham_printed.printed_statements(),
                         billingham.numeric_values())


def write_billingham_outputs(directory: Path, analysis: AtlasAnalysis | None = None, pdf: bool = True,
                             plots: bool = True) -> AtlasExport:
    analysis = analysis or analyse_billingham()
    return write_atlas_outputs(analysis, directory, billingham.TITLE, billingham.SOURCE,
                               billingham_printed.printed_profits_agree(), PLOTTED, pdf=pdf, plots=plots)


# --------------------------------------------------------------------------- section 4: dynamics

DYNAMICS_TEXT = ("stability.json", "dynamics.json", "summary.md", "errata.md")


def write_dynamics_outputs(directory: Path, analysis: AtlasAnalysis, recompute: bool = False,
                           plots: bool = True, study=None, stability=None) -> list[Path]:
    """``outputs/billingham/dynamics/``: stability by exact P ranges, trajectories, Figure 6 analogue, claims."""
    from derivations.billingham2017 import dynamics_render as render
    from derivations.billingham2017.dynamics import dynamics_study

    directory.mkdir(parents=True, exist_ok=True)
    study = study or dynamics_study(analysis, directory, recompute=recompute, stability=stability)
    texts = render.texts(study)
    paths = []
    for name in DYNAMICS_TEXT:
        paths.append(write_atomic(directory / name, texts[name]))
    if plots:
        paths += render.plots(study, directory)
    return paths
