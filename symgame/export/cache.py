"""Results of long studies stored under keys that follow the method, so committed outputs are checked, not recomputed.

A *study part* is a function that computes something expensive (minutes of LPs and proofs) and
returns JSON-ready data from which output files are rendered. Its **key** is a SHA-256 hash of

- the part's name and parameters,
- the **method version** the part declares (an integer that a change of its results must bump),
- the hashes of the data files it reads,
- the versions of the numerical libraries whose arithmetic the results depend on.

The code a part runs is *not* in the key: a refactor, a docstring or a type hint never costs a
recompute. It is recorded beside each result as **provenance**: a hash of the syntax trees of every
``symgame`` and ``derivations`` module the part can reach (the transitive closure of the imports; see
:func:`module_closure`), normalised so that comments, docstrings and annotations do not count
(:func:`code_fingerprint`). ``symgame derive --status`` lists the parts whose code changed since they
were computed (:func:`provenance_changes`); such a part is still reused under its key, and the
committed studies are re-verified and sampled for recomputation by the tests.

Examples
--------
>>> deps = module_closure(["symgame.numeric.fictitious"])
>>> deps
['symgame.numeric.fictitious']
>>> key = content_key("demo", {"mesh": 21}, ["symgame.numeric.fictitious"])
>>> len(key), key.provenance["roots"]
(64, ['symgame.numeric.fictitious'])
>>> key == content_key("demo", {"mesh": 21}, ["symgame.numeric.fictitious"], version=1)
True
>>> key == content_key("demo", {"mesh": 21}, ["symgame.numeric.fictitious"], version=2)
False
"""
from __future__ import annotations

import ast
import hashlib
import json
import os
from importlib import metadata
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from ..errors import StoreError

PACKAGE_ROOT = Path(__file__).resolve().parents[1]
#: Libraries whose floating-point or exact arithmetic can change a study's results.
NUMERIC_LIBRARIES = ("numpy", "scipy", "sympy", "z3-solver", "python-flint", "mpmath")


#: Modules that store results and compute none: left out of the provenance fingerprint.
STORAGE_MODULES = ("symgame.export.cache", "symgame.model.store")

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


def _stamp(path: Path) -> tuple[int, int]:
    """A file's (mtime in ns, size), the version the caches of this module are keyed to; (-1, -1) when it is gone
    (reading it then raises as before)."""
    try:
        info = path.stat()
    except OSError:
        return (-1, -1)
    return (info.st_mtime_ns, info.st_size)


_PARSED: dict[tuple[str, int, int], tuple[ast.AST, str]] = {}


def _parsed(path: Path) -> tuple[ast.AST, str]:
    """The syntax tree of ``path`` and the digest of its normalised form, parsed once per version of the file."""
    stamp = (str(path), *_stamp(path))
    if stamp not in _PARSED:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        imports = ast.Module(body=[n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))],
                             type_ignores=[])
        digest = hashlib.sha256(ast.dump(_strip(tree)).encode()).hexdigest()     # _strip edits the tree in place
        _PARSED[stamp] = (imports, digest)
    return _PARSED[stamp]


_IMPORTS: dict[tuple[str, tuple[str, int, int]], set[str]] = {}


def _imports(name: str, path: Path) -> set[str]:
    """Tracked modules imported anywhere in the module ``name`` (absolute and relative imports)."""
    stamp = (name, (str(path), *_stamp(path)))
    if stamp not in _IMPORTS:
        _IMPORTS[stamp] = _find_imports(name, path)
    return set(_IMPORTS[stamp])


def _find_imports(name: str, path: Path) -> set[str]:
    tree = _parsed(path)[0]
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


_VERSIONS: dict[tuple[str, ...], dict[str, str]] = {}


def library_versions() -> dict[str, str]:
    """The installed versions of :data:`NUMERIC_LIBRARIES` (``"absent"`` for a missing one).

    Read once per import path (``sys.path``) in a process: reading the packages' metadata took about 8 ms a call,
    and a sweep computes one key per pair.
    """
    import sys

    where = tuple(sys.path)
    if where not in _VERSIONS:
        out = {}
        for name in NUMERIC_LIBRARIES:
            try:
                out[name] = metadata.version(name)
            except metadata.PackageNotFoundError:
                out[name] = "absent"
        _VERSIONS[where] = out
    return dict(_VERSIONS[where])


def dumps_by_part(entries: Mapping[str, Any]) -> str:
    """``entries`` as one JSON object with one sorted top-level key per line, each value compact with sorted keys.

    Examples
    --------
    >>> print(dumps_by_part({"b": {"y": [1, 2], "x": None}, "a": 1}), end="")
    {
    "a":1,
    "b":{"x":null,"y":[1,2]}
    }
    >>> json.loads(dumps_by_part({"b": {"y": [1, 2]}, "a": 1})) == {"b": {"y": [1, 2]}, "a": 1}
    True
    """
    lines = [json.dumps(name) + ":" + json.dumps(entries[name], sort_keys=True, separators=(",", ":"))
             for name in sorted(entries)]
    return "{\n" + ",\n".join(lines) + ("\n}\n" if lines else "}\n")


class CacheKey(str):
    """A part's key (64 hex digits) carrying the provenance of the code that computed it.

    ``provenance`` is ``{"roots": [...], "code": <hex>}``: the modules the part starts from and
    :func:`code_fingerprint` of their closure. :meth:`StudyCache.put` stores it beside the data.
    """

    provenance: dict[str, Any]

    def __new__(cls, value: str, provenance: dict[str, Any]) -> "CacheKey":
        made = super().__new__(cls, value)
        made.provenance = provenance
        return made


def _strip(tree: ast.AST) -> ast.AST:
    """The syntax tree without docstrings and annotations (they never change what a part computes)."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                node.body = body[1:] or [ast.Pass()]
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            node.returns = None
        if isinstance(node, ast.arg):
            node.annotation = None
        if isinstance(node, ast.AnnAssign):
            node.annotation = ast.Constant(value="")      # the field stays (dataclasses need it), its type goes
    return tree


def code_fingerprint(roots: Iterable[str]) -> str:
    """SHA-256 of the normalised syntax trees of every module reachable from ``roots``.

    Comments, docstrings, annotations, blank lines and formatting do not count; any change to what the
    code does (a statement, an expression, a constant, a name) does.

    Parameters
    ----------
    roots : iterable of str
        Dotted module names (``symgame.*`` or ``derivations.*``).

    Returns
    -------
    str
        64 hex digits.

    Raises
    ------
    LookupError
        When a root is not a module on the path (a study's ``derivations.*`` outside the repository).

    Examples
    --------
    >>> a = code_fingerprint(["symgame.numeric.fictitious"])
    >>> len(a) == 64 and a == code_fingerprint(["symgame.numeric.fictitious"])
    True
    """
    roots = list(roots)
    missing = [name for name in roots if _module_file(name) is None]
    if missing:                             # the empty closure's hash would pass for a fingerprint
        raise LookupError(f"cannot fingerprint {', '.join(missing)}: no such module on the path "
                          f"(run from the repository's root, or install it)")
    known = _FINGERPRINTS.get(tuple(roots))
    if known is not None and all(_module_file(name) == path and _stamp(path) == stamp
                                 for name, path, stamp in known[0]):
        return known[1]
    digest = hashlib.sha256()
    stamps = []
    for name in module_closure(roots):
        path = _module_file(name)
        assert path is not None          # module_closure keeps only modules with a file
        stamps.append((name, path, _stamp(path)))
        if name in STORAGE_MODULES:
            continue
        digest.update(name.encode() + b"\0" + _parsed(path)[1].encode() + b"\0")
    _FINGERPRINTS[tuple(roots)] = (tuple(stamps), digest.hexdigest())
    return digest.hexdigest()


#: code_fingerprint's answers per tuple of roots, with the file and (mtime, size) of every module of the closure
#: they read: a later call only checks that each module is still that file with that stamp (a moved or changed
#: file recomputes it; it took about 7 ms a call). A new module file that an unchanged file imports under a name
#: that was not a module before is not noticed within the process.
_FINGERPRINTS: dict[tuple[str, ...], tuple[tuple[tuple[str, Path, tuple[int, int]], ...], str]] = {}


def content_key(part: str, parameters: Mapping[str, Any], roots: Iterable[str], version: int = 1,
                data_files: Iterable[Path | str] = ()) -> CacheKey:
    """The key of one study part (see the module docstring), with the code's provenance attached.

    Parameters
    ----------
    part : str
        The part's name.
    parameters : mapping
        JSON-ready parameters of the computation.
    roots : iterable of str
        The modules the part's code starts from (for the provenance only).
    version : int
        The part's method version: bump it whenever a change of the code changes the part's results.
    data_files : iterable of path
        Files the part reads (their bytes count towards the key).

    Returns
    -------
    CacheKey
        64 hex digits, with ``.provenance``.
    """
    roots = sorted(set(roots))
    files = {}
    for f in data_files:
        path = Path(f)
        files[path.name] = hashlib.sha256(path.read_bytes()).hexdigest()
    method = {"part": part, "parameters": parameters, "version": version, "libraries": library_versions()}
    if files:
        method["data_files"] = files
    digest = hashlib.sha256(json.dumps(method, sort_keys=True, default=str).encode())
    return CacheKey(digest.hexdigest(), {"roots": roots, "code": code_fingerprint(roots)})


def _valid_roots(roots: Any) -> bool:
    return isinstance(roots, list) and all(
        isinstance(r, str) and r.split(".")[0] in TRACKED and all(p.isidentifier() for p in r.split("."))
        for r in roots)


def provenance_changes(path: Path | str) -> list[str]:
    """The parts of the study cache ``path`` whose code changed since they were computed.

    A part without recorded provenance is listed too. The parts stay usable under their keys; the list
    says which ones a careful maintainer recomputes (``symgame derive GAME --recompute``).

    Parameters
    ----------
    path : path
        A study cache file.

    Returns
    -------
    list of str
        Part names, sorted.

    Raises
    ------
    StoreError
        When the file is not a study cache.
    """
    return _changed_parts(StudyCache(path))


def _changed_parts(cache: "StudyCache") -> list[str]:
    """:func:`provenance_changes` of a cache already read."""
    changed = []
    fingerprints: dict[tuple[str, ...], str] = {}
    for part, entry in sorted(cache.entries.items()):
        prov = entry.get("provenance")
        if not isinstance(prov, dict) or not _valid_roots(prov.get("roots")):
            changed.append(part)
            continue
        roots = tuple(prov["roots"])
        if roots not in fingerprints:
            try:
                fingerprints[roots] = code_fingerprint(roots)
            except LookupError:             # a module that is not there (renamed, or a forged record)
                fingerprints[roots] = ""
        if fingerprints[roots] != prov.get("code"):
            changed.append(part)
    return changed


class StudyCache:
    """A JSON file of ``{part: {"key": ..., "data": ...}}``, written deterministically and atomically.

    The file is untrusted input: it is read with a size cap and checked for its shape (a truncated,
    corrupted or forged file is a one-line :class:`~symgame.errors.StoreError` naming it), and saved through
    a temporary file and a rename, never through a symbolic link.

    Parameters
    ----------
    path : path
        The cache file; a missing file is an empty cache.

    Raises
    ------
    StoreError
        When the file exists but is not a study cache.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> cache = StudyCache(pathlib.Path(tempfile.mkdtemp()) / "study_cache.json")
    >>> k1, k2 = "1" * 64, "2" * 64
    >>> cache.put("demo", k1, {"value": "-1/18"})
    >>> _ = cache.save()
    >>> StudyCache(cache.path).get("demo", k1), StudyCache(cache.path).get("demo", k2)
    ({'value': '-1/18'}, None)
    """

    def __init__(self, path: Path | str):
        self.path = Path(path)
        self.entries: dict[str, dict] = {}
        if os.path.lexists(self.path):
            from ..model.store import load_json

            entries = load_json(self.path)
            if not isinstance(entries, dict):
                raise StoreError(f"{self.path}: not a study cache (expected an object of parts)")
            for part, entry in entries.items():
                if not (isinstance(entry, dict) and {"key", "data"} <= set(entry) <= {"key", "data", "provenance"}
                        and isinstance(entry["key"], str)
                        and len(entry["key"]) == 64 and all(c in "0123456789abcdef" for c in entry["key"])):
                    raise StoreError(f"{self.path}: part {part!r} is not a cache record "
                                     "(expected {\"key\": <64 hex digits>, \"data\": ...})")
            self.entries = entries

    def get(self, part: str, key: str) -> Any | None:
        """The cached data of ``part`` if it was computed under ``key``, else None."""
        entry = self.entries.get(part)
        return entry["data"] if entry is not None and entry.get("key") == key else None

    def put(self, part: str, key: str, data: Any) -> None:
        """Store ``data`` under ``key`` (and the key's provenance when it is a :class:`CacheKey`)."""
        entry: dict[str, Any] = {"key": str(key), "data": data}
        provenance = getattr(key, "provenance", None)
        if provenance is not None:
            entry["provenance"] = provenance
        self.entries[part] = entry

    def save(self) -> Path:
        """Write the cache atomically (see :func:`symgame.model.store.write_atomic`) and return its path.

        One JSON object, one part per line in compact form, parts and keys sorted: a change of one part is a
        change of one line, and the Final Jeopardy sweep's cache takes 13.5 MB instead of the 60 MB it took
        indented (three quarters of it were spaces and line breaks of its formula trees).
        """
        from ..model.store import write_atomic

        return write_atomic(self.path, dumps_by_part(self.entries))

    def adopt(self, other: "StudyCache", part: str) -> None:
        """Copy ``part``'s record (data, key and provenance) from ``other`` unchanged."""
        self.entries[part] = other.entries[part]


#: Stored records this process has re-verified: (part, key, check, SHA-256 of the record's canonical JSON).
#: The same bytes under the same key, read again by the same check (a test session reads a committed study in
#: a fixture and again while rendering it), are not re-verified twice; a record that differs in one character
#: has another digest and is checked. Only passed checks are recorded; nothing is kept across processes.
_VERIFIED: set[tuple[str, str, str, str]] = set()


def _check_name(check: Callable[[Any], None]) -> str | None:
    """A plain function's module and qualified name with the values its closure captured and its defaults
    (``lambda d: f(d, x)``); None (never treated as seen) for anything else or values with no JSON form."""
    import types

    if not isinstance(check, types.FunctionType):
        return None
    try:
        captured = [_digest(cell.cell_contents) for cell in check.__closure__ or ()]
        captured.append(_digest(list(check.__defaults__ or ())))
    except (TypeError, ValueError):
        return None
    return ":".join([check.__module__, check.__qualname__, *captured])


def _digest(data: Any) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def cached(cache: StudyCache | None, part: str, key: str, compute: Callable[[], Any], *, recompute: bool = False,
           check: Callable[[Any], None] | None = None, save: bool = True) -> Any:
    """The one load/compute/store step of every study: reuse ``part`` under ``key`` or compute and store it.

    Parameters
    ----------
    cache : StudyCache or None
        Where the part is kept (None: always compute, store nothing).
    part : str
        The part's name in the cache.
    key : str
        Its key (a :class:`CacheKey` also stores the provenance).
    compute : callable
        ``compute()`` returns the part's JSON-ready data.
    recompute : bool
        Ignore a stored result.
    check : callable, optional
        ``check(data)`` re-verifies a stored result before it is used (the cheap half of its certificate)
        and raises :class:`~symgame.errors.StoreError` when it does not hold; it is not applied to a fresh
        computation, nor again to a record this process has already verified (the same part, key, check
        and canonical JSON).
    save : bool
        Write the cache after a computation.

    Returns
    -------
    object
        The data.

    Raises
    ------
    StoreError
        When the stored result fails ``check``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> store = StudyCache(pathlib.Path(tempfile.mkdtemp()) / "study_cache.json")
    >>> key = content_key("demo", {"n": 3}, [])
    >>> cached(store, "demo", key, lambda: {"value": "-1/18"})
    {'value': '-1/18'}
    >>> cached(store, "demo", key, lambda: 1 / 0)          # reused: compute is not called
    {'value': '-1/18'}
    """
    data = None if cache is None or recompute else cache.get(part, key)
    if data is not None:
        if check is not None:
            name = _check_name(check)
            seen = (part, str(key), name, _digest(data)) if name is not None else None
            if seen is None or seen not in _VERIFIED:
                check(data)
                if seen is not None:
                    _VERIFIED.add(seen)
        return data
    data = compute()
    if cache is not None:
        cache.put(part, key, data)
        if save:
            cache.save()
    return data


def cache_status(root: Path | str) -> list[tuple[Path, int, list[str]]]:
    """For every study cache under ``root``: its path, its number of parts and the parts whose code changed.

    Parameters
    ----------
    root : path
        An output folder (``outputs``).

    Returns
    -------
    list of (Path, int, list of str)
        Sorted by path; see :func:`provenance_changes`.

    Raises
    ------
    StoreError
        When a cache file is not a study cache.
    """
    found = []
    for path in sorted(Path(root).rglob("*cache.json")):
        if path.is_file() and not path.is_symlink():
            cache = StudyCache(path)                   # read once (the sweep's cache is 60 MB)
            found.append((path, len(cache.entries), _changed_parts(cache)))
    return found
