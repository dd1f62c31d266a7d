"""Layers import in one direction: model <- engine <- numeric <- verify <- games <- export <- cli."""
import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "symgame"
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
