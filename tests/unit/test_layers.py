"""Layers import in one direction: model <- engine <- numeric <- verify <- games <- export <- cli."""
import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "symgame"
RANK = {"model": 0, "engine": 1, "numeric": 2, "verify": 3, "games": 4, "export": 5, "cli": 6}


def imported_layers(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    layers = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level >= 1 and node.module:
            top = node.module.split(".")[0]
            if node.level == 2 or (node.level == 1 and path.parent == PACKAGE):
                layers.add(top)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("symgame."):
            layers.add(node.module.split(".")[1])
    return {layer for layer in layers if layer in RANK}


def test_layers_import_downwards_only():
    offences = []
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE)
        own = "cli" if rel.name == "cli.py" else rel.parts[0]
        if own not in RANK:
            continue
        for layer in imported_layers(path):
            if RANK[layer] > RANK[own] or (RANK[layer] == RANK[own] and layer != own):
                offences.append(f"{rel} imports {layer}")
    assert not offences, offences


def test_engine_never_imports_a_concrete_game():
    for path in (PACKAGE / "engine").rglob("*.py"):
        assert "games" not in imported_layers(path), path


def test_the_light_catalogue_agrees_with_the_studies_and_the_game_modules():
    from derivations import CATALOGUE
    from derivations.ganzfried2022.seeds import FAMILIES
    from symgame.cli import DEFAULT_BUDGET
    from symgame.engine.atlas import DEFAULT_BUDGET as ENGINE_BUDGET
    from symgame.games import billingham, goofspiel, guts, kuhn

    assert DEFAULT_BUDGET == ENGINE_BUDGET
    assert list(CATALOGUE) == list(FAMILIES) + ["jeopardy_sweep", "kuhn", "guts", "billingham", "kuhn3",
                                                "goofspiel", "sampling"]
    from derivations.ganzfried2022 import jeopardy_sweep_outputs

    assert CATALOGUE["jeopardy_sweep"][1] == jeopardy_sweep_outputs.SOURCE
    for name, specs in FAMILIES.items():
        title, source, outputs = CATALOGUE[name]
        assert specs[0].title.startswith(title) and specs[0].source == source
        assert outputs == tuple(spec.directory for spec in specs)
    for name, module in (("kuhn", kuhn), ("guts", guts), ("billingham", billingham), ("goofspiel", goofspiel)):
        assert CATALOGUE[name][1] == module.SOURCE
    assert CATALOGUE["billingham"][0].startswith(billingham.TITLE)
    from derivations.ganzfried2022 import sampling

    assert CATALOGUE["sampling"][1].startswith(sampling.SOURCE.split(",")[0])
    from derivations.szafron2013 import kuhn3_outputs

    assert CATALOGUE["kuhn3"][1].startswith(kuhn3_outputs.SOURCE)


def test_the_package_never_imports_the_paper_studies():
    """``symgame`` reaches ``derivations`` only through ``symgame._studies`` (the CLI's study commands)."""
    offences = []
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("derivations"):
                offences.append(str(path.relative_to(PACKAGE)))
            elif isinstance(node, ast.Import) and any(a.name.startswith("derivations") for a in node.names):
                offences.append(str(path.relative_to(PACKAGE)))
    assert not offences, offences


def test_a_missing_derivations_folder_is_one_line_and_exit_2(tmp_path, monkeypatch, capsys):
    import sys

    from symgame import _studies
    from symgame.cli import main

    monkeypatch.setattr(_studies, "_root", lambda: None)
    monkeypatch.chdir(tmp_path)
    for name in [m for m in sys.modules if m == "derivations" or m.startswith("derivations.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", ".", str(PACKAGE.parent))])
    assert main(["derive", "kuhn"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "derivations/ folder" in err
    # without the repository (an installed wheel) `symgame list` still lists the packaged examples
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "  pennies" in out and "in the source repository's derivations/ folder" in out


def test_the_command_line_starts_without_the_heavy_libraries():
    import subprocess
    import sys

    code = ("import sys; from symgame.cli import main; main(['list']); "
            "heavy = [m for m in ('sympy', 'scipy', 'z3', 'numpy') if m in sys.modules]; "
            "print('HEAVY', heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "HEAVY []" in out and "billingham" in out
