"""Writing every artefact of an analysed game into ``outputs/<game>/``."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..games.analysis import GameAnalysis
from ..model.store import write_atomic
from .documents import analysis_json, dumps, errata_markdown, rule_value, summary_markdown
from .latex import PdfResult, cheatsheet_tex, compile_pdf
from .plots import plot_rule_regions


@dataclass(frozen=True)
class ExportResult:
    """Files written for one game and the outcome of the PDF compilation."""

    directory: Path
    files: tuple[Path, ...]
    pdf: PdfResult


def verification_sentence(analysis: GameAnalysis) -> str:
    cert = analysis.certificate
    checks = analysis.crosscheck.checks
    status = {"true": "proved", "false": "refuted"}.get(cert.status.value, cert.status.value)
    return (f"whole-domain z3 certificate {status} ({cert.checked_requirements} requirements); "
            f"exact regret 0 at {sum(c.exact_nash for c in checks)} of {len(checks)} rational sample points; "
            f"numeric solver agrees at {sum(c.numeric_agrees for c in checks)}"
            + (f" (skipped at {analysis.crosscheck.numeric_skipped}: payoffs beyond floating point)."
               if analysis.crosscheck.numeric_skipped else "."))


def rule_values(derivation) -> list | None:
    """The value of each PDL rule for zero-sum games, else ``None``."""
    game = derivation.game
    if not game.zero_sum:
        return None
    return [rule_value(game, rule.profile) for rule in derivation.pdl.rules]


def write_outputs(analysis: GameAnalysis, directory: Path, pdf: bool = True) -> ExportResult:
    """Write result.json, summary.md, errata.md, cheatsheet.tex (and .pdf)."""
    directory.mkdir(parents=True, exist_ok=True)
    data = analysis_json(analysis)
    texts = {
        "result.json": dumps(data),
        "summary.md": summary_markdown(analysis, data),
        "errata.md": errata_markdown(analysis, data),
        "cheatsheet.tex": cheatsheet_tex(analysis.spec.title, analysis.spec.source,
                                         analysis.derivation.pdl, verification_sentence(analysis),
                                         rule_values(analysis.derivation)),
    }
    files = []
    for name, text in texts.items():
        files.append(write_atomic(directory / name, text))
    png = plot_rule_regions(analysis.derivation.pdl, directory / "regions.png",
                            f"{analysis.spec.title}: rule firing at each point")
    if png is not None:
        files.append(png)
    result = compile_pdf(directory / "cheatsheet.tex") if pdf else PdfResult(None, "skipped")
    return ExportResult(directory, tuple(files), result)
