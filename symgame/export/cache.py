"""Content-hashed results of long studies, so that committed outputs can be checked without recomputing them.

A *study part* is a function that computes something expensive (minutes of LPs and proofs) and
returns JSON-ready data from which output files are rendered. Its **key** is a SHA-256 hash of

- the part's name and parameters,
- the source text of every ``symgame`` and ``derivations`` module the part's code can reach (the transitive closure of
  the imports, found by reading the modules' syntax trees, function-level imports included; see
  :func:`module_closure`),
- the versions of the numerical libraries whose arithmetic the results depend on.

A cached result is reused only under an equal key, so a change to any code a study runs (or to a
pinned library) makes it stale: a stale result is never reused. The freshness tests render the
committed files from the cache, check that every key matches the current code, and recompute the
cheap parts and a sample of the expensive ones for real.

Examples
--------
>>> deps = module_closure(["symgame.numeric.fictitious"])
>>> deps
['symgame.numeric.fictitious']
>>> len(content_key("demo", {"mesh": 21}, ["symgame.numeric.fictitious"]))
64
"""
from __future__ import annotations

import ast
import hashlib
import json
from importlib import metadata
from pathlib import Path
from typing import Any, Iterable, Mapping

PACKAGE_ROOT = Path(__file__).resolve().parents[1]
#: Libraries whose floating-point or exact arithmetic can change a study's results.
NUMERIC_LIBRARIES = ("numpy", "scipy", "sympy", "z3-solver", "python-flint", "mpmath")


#: Top-level packages whose modules count towards a key: the library and the paper studies.
TRACKED = ("symgame", "derivations")


def _package_root(top: str) -> Path | None:
    if top == "symgame":
        return PACKAGE_ROOT
    if top not in TRACKED:
        return None
    import importlib.util

    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0])


def _module_file(name: str) -> Path | None:
    parts = name.split(".")
    root = _package_root(parts[0])
    if root is None:
        return None
    base = root.joinpath(*parts[1:])
    if (base / "__init__.py").exists():
        return base / "__init__.py"
    if base.with_suffix(".py").exists():
        return base.with_suffix(".py")
    return None


def _imports(name: str, path: Path) -> set[str]:
    """Tracked modules imported anywhere in the module ``name`` (absolute and relative imports)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    package = name if is_package else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.split(".")[0] in TRACKED)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            if base.split(".")[0] not in TRACKED:
                continue
            found.add(base)
            for alias in node.names:
                if _module_file(f"{base}.{alias.name}") is not None:
                    found.add(f"{base}.{alias.name}")
    return found


def module_closure(roots: Iterable[str]) -> list[str]:
    """Every ``symgame`` or ``derivations`` module reachable from ``roots`` by imports, sorted.

    Parent packages count only where they are imported from (``from ..games import guts`` reads
    ``symgame/games/__init__.py``): the top-level ``symgame/__init__.py`` re-exports the public API
    and would otherwise put the whole package into every closure.
    """
    seen: set[str] = set()
    stack = list(roots)
    while stack:
        name = stack.pop()
        if name in seen:
            continue
        path = _module_file(name)
        if path is None:
            continue
        seen.add(name)
        stack.extend(_imports(name, path) - seen)
    return sorted(seen)


def library_versions() -> dict[str, str]:
    out = {}
    for name in NUMERIC_LIBRARIES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = "absent"
    return out


def content_key(part: str, parameters: Mapping[str, Any], roots: Iterable[str]) -> str:
    """The SHA-256 key of one study part (see the module docstring)."""
    digest = hashlib.sha256()
    digest.update(json.dumps({"part": part, "parameters": parameters, "libraries": library_versions()},
                             sort_keys=True, default=str).encode())
    for name in module_closure(roots):
        path = _module_file(name)
        assert path is not None          # module_closure keeps only modules with a file
        digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


class StudyCache:
    """A JSON file of ``{part: {"key": ..., "data": ...}}``, written deterministically."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.entries: dict[str, dict] = {}
        if self.path.exists():
            self.entries = json.loads(self.path.read_text(encoding="utf-8"))

    def get(self, part: str, key: str) -> Any | None:
        """The cached data of ``part`` if it was computed under ``key``, else None."""
        entry = self.entries.get(part)
        return entry["data"] if entry is not None and entry.get("key") == key else None

    def put(self, part: str, key: str, data: Any) -> None:
        self.entries[part] = {"key": key, "data": data}

    def save(self) -> Path:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(json.dumps(self.entries, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        return self.path
