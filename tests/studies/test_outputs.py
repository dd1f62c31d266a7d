"""Committed outputs are fresh, valid against the schema, deterministic, and compile."""
import json
import shutil
from pathlib import Path

import jsonschema
import pytest

from derivations.ganzfried2022.seeds import FAMILIES, GAMES
from symgame.export.pipeline import write_outputs
from symgame.games.analysis import analyse

SPECS = {spec.directory: spec for specs in FAMILIES.values() for spec in specs}

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "symgame" / "export" / "result.schema.json").read_text())
TEXT_FILES = ("result.json", "summary.md", "errata.md", "cheatsheet.tex")


@pytest.fixture(scope="session")     # see conftest.py: built once per worker
def analyses(request):
    cached = {"two_by_two": request.getfixturevalue("two_by_two_analysis"),
              "weakest_link": request.getfixturevalue("weakest_link_analysis")}
    return {name: cached.get(name) or analyse(spec) for name, spec in SPECS.items()}


@pytest.mark.pinned
@pytest.mark.parametrize("name", sorted(SPECS))
def test_committed_outputs_are_fresh(name, analyses, tmp_path):
    write_outputs(analyses[name], tmp_path, pdf=False)
    for file in TEXT_FILES:
        committed = ROOT / "outputs" / name / file
        assert committed.exists(), f"{committed} missing: run `symgame derive --all`"
        assert committed.read_bytes() == (tmp_path / file).read_bytes(), (
            f"{committed} is stale: run `symgame derive --all`")


@pytest.mark.parametrize("name", sorted(SPECS))
def test_result_json_matches_schema(name):
    data = json.loads((ROOT / "outputs" / name / "result.json").read_text())
    jsonschema.validate(data, SCHEMA)
    assert data["pdl"][-1]["when"] == []


def test_schema_rejects_broken_result():
    data = json.loads((ROOT / "outputs" / "two_by_two" / "result.json").read_text())
    del data["pdl"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, SCHEMA)


def test_derivation_is_byte_deterministic(tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    write_outputs(analyse(GAMES["weakest_link"]), first, pdf=False)
    write_outputs(analyse(GAMES["weakest_link"]), second, pdf=False)
    for file in TEXT_FILES:
        assert (first / file).read_bytes() == (second / file).read_bytes()


def test_regions_png_is_deterministic(analyses, tmp_path):
    write_outputs(analyses["jeopardy/5_3"], tmp_path, pdf=False)
    assert (tmp_path / "regions.png").read_bytes() == (ROOT / "outputs" / "jeopardy" / "5_3" / "regions.png").read_bytes()


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex not installed (CI installs it)")
@pytest.mark.parametrize("name", sorted(SPECS))
def test_cheatsheet_compiles(name, tmp_path):
    from symgame.export.latex import compile_pdf

    tex = tmp_path / "cheatsheet.tex"
    shutil.copyfile(ROOT / "outputs" / name / "cheatsheet.tex", tex)
    result = compile_pdf(tex)
    assert result.path is not None, result.message
    assert result.path.read_bytes().startswith(b"%PDF")


DOCUMENTS = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "outputs").rglob("*.tex")
                   if "\\documentclass" in p.read_text(encoding="utf-8"))


def test_every_cheat_sheet_is_checked():
    assert len(DOCUMENTS) >= 8          # the PDFs are not committed: the documents are compiled here


@pytest.mark.parametrize("tex", DOCUMENTS)
def test_cheat_sheet_reads_cleanly(tex, tmp_path):
    """Every committed LaTeX document compiled and read as a reader sees it (the PDF's text layer): no
    encoding artefacts such as the inverted question mark that ``>`` becomes in LaTeX text mode, no
    local paths to the seed papers."""
    import pypdf

    from symgame.export.latex import compile_pdf

    copy = tmp_path / Path(tex).name
    shutil.copyfile(ROOT / tex, copy)
    result = compile_pdf(copy)
    assert result.path is not None, result.message
    text = "".join(page.extract_text() for page in pypdf.PdfReader(str(result.path)).pages)
    assert len(text) > 200
    for artefact in ("¿", "¡", "../shared", "shared/seeds", "\ufffd"):
        assert artefact not in text, f"{tex}: {artefact!r} in the rendered text"


@pytest.mark.parametrize("tex", sorted(str(p.relative_to(ROOT)) for p in (ROOT / "outputs").rglob("*.tex")))
def test_committed_tex_has_no_relation_in_text_mode(tex):
    """``<`` and ``>`` typed in LaTeX text mode print as inverted marks: relations belong in math mode."""
    import re

    text = (ROOT / tex).read_text(encoding="utf-8")
    for pattern in (r"\\\[.*?\\\]", r"\$\$.*?\$\$", r"\$.*?\$", r"\\begin\{(align|equation|gather)\*?\}.*?\\end\{\1\*?\}"):
        text = re.sub(pattern, "", text, flags=re.S)
    offending = [line for line in text.splitlines() if re.search(r"(?<![\\-])[<>]", line) and "tabular" not in line]
    assert not offending, offending[:2]
