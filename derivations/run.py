"""Run one entry of :data:`derivations.CATALOGUE`: derive, check and write ``outputs/<game>/``."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from derivations import CATALOGUE


@dataclass(frozen=True)
class Written:
    """One output folder written: how many files, and what became of the PDF (``None``: not attempted)."""

    directory: Path
    files: int
    pdf: str | None = None
    pdf_failed: bool = False


def derive(name: str, out_root: Path, pdf: bool = True, recompute: bool = False,
           progress: Callable[[str, float], None] | None = None) -> list[Written]:
    """Write the outputs of ``name`` under ``out_root``; cached studies are reused unless ``recompute``."""
    if name not in CATALOGUE:
        raise KeyError(name)
    if name == "kuhn":
        from derivations.ganzfried2022.kuhn_outputs import write_kuhn_outputs

        paths = write_kuhn_outputs(out_root / "kuhn", pdf=pdf, recompute=recompute)
        return [Written(out_root / "kuhn", len(paths))]
    if name == "guts":
        from derivations.buck2022.outputs import write_guts_outputs

        paths = write_guts_outputs(out_root / "guts", pdf=pdf, recompute=recompute, progress=progress)
        from derivations.buck2022.jacob2_complete import write_complete

        paths += write_complete(out_root / "guts")
        return [Written(out_root / "guts", len(paths))]
    if name == "billingham":
        from derivations.billingham2017.outputs import (
            analyse_billingham,
            write_billingham_outputs,
            write_dynamics_outputs,
        )

        analysis = analyse_billingham()
        result = write_billingham_outputs(out_root / "billingham", analysis, pdf=pdf)
        dynamics = write_dynamics_outputs(out_root / "billingham" / "dynamics", analysis, recompute=recompute)
        return [Written(result.directory, len(result.files), result.pdf.message),
                Written(out_root / "billingham" / "dynamics", len(dynamics))]
    if name == "sampling":
        from derivations.ganzfried2022.sampling_outputs import write_sampling_outputs

        paths = write_sampling_outputs(out_root / "sampling", recompute=recompute)
        return [Written(out_root / "sampling", len(paths))]
    if name == "jeopardy_sweep":
        from derivations.ganzfried2022.jeopardy_sweep_outputs import write_sweep_outputs

        paths = write_sweep_outputs(out_root / "jeopardy" / "sweep", recompute=recompute, progress=progress)
        return [Written(out_root / "jeopardy" / "sweep", len(paths))]
    if name == "kuhn3":
        from derivations.szafron2013.kuhn3_outputs import write_kuhn3_outputs

        paths = write_kuhn3_outputs(out_root / "kuhn3", recompute=recompute, progress=progress)
        return [Written(out_root / "kuhn3", len(paths))]
    if name == "goofspiel":
        from derivations.rhoads2012.outputs import write_goofspiel_outputs

        paths = write_goofspiel_outputs(out_root / "goofspiel", pdf=pdf, recompute=recompute)
        return [Written(out_root / "goofspiel", len(paths))]
    from derivations.ganzfried2022.seeds import derive_family

    return [Written(r.directory, len(r.files), r.pdf.message,
                    r.pdf.path is None and pdf and "not found" not in r.pdf.message)
            for r in derive_family(name, out_root, pdf=pdf)]
