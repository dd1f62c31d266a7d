"""Reading and writing what symgame stores, safely: bounded reads, atomic writes, no links, no code.

Everything symgame persists (study caches, checkpoints, output files) goes through these functions:

- :func:`write_atomic` writes a file through a temporary file in the same folder (written, flushed, synced,
  then renamed over the destination), so a kill at any moment leaves the old file or the new one, never a
  part of either; it refuses to write through a symbolic link;
- :func:`safe_name` accepts a file name taken from stored data only if it is a plain name (no folder
  separator, no ``..``, no control or bidirectional characters), so stored data never chooses where a
  file is written;
- :func:`read_limited` reads a regular file (never a device, a FIFO or a folder) up to a size limit,
  and :func:`load_json` parses one; both fail with a :class:`~symgame.errors.StoreError` whose one-line
  message names the file.

Stored files are untrusted input: none of the formats read here can run code (JSON, JSON lines and
NumPy arrays loaded with ``allow_pickle=False``).

Examples
--------
>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> path = write_atomic(folder / "result.json", '{"value": "-1/18"}\\n')
>>> load_json(path)
{'value': '-1/18'}
>>> safe_name("../x")
Traceback (most recent call last):
...
symgame.errors.StoreError: '../x': not a plain file name (stored data never chooses a folder)
"""
from __future__ import annotations

import contextlib
import gc
import json
import os
import stat
import tempfile
import unicodedata
from pathlib import Path
from typing import Any, Iterator

from ..errors import StoreError

#: Default cap on the bytes read from one stored file (the largest committed study cache is about 40 MB).
READ_LIMIT = 512 * 1024 * 1024

__all__ = ["READ_LIMIT", "check_label", "load_json", "read_capped", "read_limited", "safe_name", "write_atomic"]


def check_label(text: object, what: str) -> str:
    """``text`` if it can be written into every output format (text, Markdown, LaTeX, JSON), else an InputError.

    Names of players, actions, strategies and parameters end up in terminals, Markdown tables and LaTeX;
    control characters (a newline, NUL), invisible format characters (U+202E right-to-left override, zero
    widths) and line or paragraph separators (U+2028, U+2029) would change what a reader sees or break the
    file, so they are refused where the name is read.

    Parameters
    ----------
    text : str
    what : str
        What the name is, for the message (``"player name"``).

    Returns
    -------
    str

    Raises
    ------
    InputError
        For a non-string or a string with such characters, naming the first one.

    Examples
    --------
    >>> check_label("Ann sees H", "player name")
    'Ann sees H'
    >>> check_label("Ann\u202eH", "player name")
    Traceback (most recent call last):
    ...
    symgame.errors.InputError: player name 'Ann\u202eH': the character U+202E is not allowed in a name
    """
    from ..errors import InputError

    if not isinstance(text, str):
        raise InputError(f"{what} {text!r}: a name must be a string")
    for ch in text:
        if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp", "Cs"):
            raise InputError(f"{what} {text!r}: the character U+{ord(ch):04X} is not allowed in a name")
    return text


def read_capped(path: Path | str, limit: int) -> bytes | None:
    """At most ``limit`` bytes of ``path`` (a file, a FIFO or a device), or None when it holds more.

    The cap is applied while reading, not by ``stat`` (a device or a pipe reports size 0), so ``/dev/zero``
    costs ``limit + 1`` bytes, not all the memory.

    Parameters
    ----------
    path : path
    limit : int

    Returns
    -------
    bytes or None

    Raises
    ------
    OSError
        When the path cannot be opened or read (a folder included); readers turn it into their own one line.

    Examples
    --------
    >>> read_capped("/dev/zero", 10) is None
    True
    """
    with open(path, "rb") as handle:
        raw = handle.read(limit + 1)
    return None if len(raw) > limit else raw


def safe_name(name: Any) -> str:
    """``name`` if it is a plain file name, else a :class:`~symgame.errors.StoreError`.

    Parameters
    ----------
    name : str
        A file name that came from stored or user data.

    Returns
    -------
    str
        The name, unchanged.

    Raises
    ------
    StoreError
        For anything but a non-empty string without folder separators, ``.``/``..``, control, format
        (bidirectional) or line-separator characters.

    Examples
    --------
    >>> safe_name("values.csv")
    'values.csv'
    """
    bad = not isinstance(name, str) or not name or name in (".", "..") or len(name) > 255
    if not bad:
        bad = any(ch in "/\\" or unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") for ch in name)
    if bad:
        raise StoreError(f"{name!r}: not a plain file name (stored data never chooses a folder)")
    return name


def write_atomic(path: Path | str, data: str | bytes) -> Path:
    """Write ``data`` to ``path`` atomically: temporary file in the same folder, flush, sync, rename.

    Parameters
    ----------
    path : path
        The destination. Its folder is created if missing.
    data : str or bytes
        Text is written as UTF-8.

    Returns
    -------
    Path
        ``path``.

    Raises
    ------
    StoreError
        When ``path`` is a symbolic link, a folder or a special file, or cannot be written (one line with
        the reason, for instance a read-only folder or a full disk).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = write_atomic(pathlib.Path(tempfile.mkdtemp()) / "a.txt", "x")
    >>> p.read_text()
    'x'
    """
    path = Path(path)
    raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise StoreError(f"{path}: cannot write ({exc.strerror or exc})") from None
    if info is not None:
        if stat.S_ISLNK(info.st_mode):
            raise StoreError(f"{path}: is a symbolic link; symgame does not write through links")
        if not stat.S_ISREG(info.st_mode):
            raise StoreError(f"{path}: not a regular file; refusing to replace it")
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        with os.fdopen(fd, "wb") as handle:
            handle.write(raw)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
        tmp = None
    except OSError as exc:
        raise StoreError(f"{path}: cannot write ({exc.strerror or exc})") from None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
    return path


def read_limited(path: Path | str, limit: int = READ_LIMIT) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them.

    Parameters
    ----------
    path : path
    limit : int
        The largest size accepted; a longer file (or stream) is refused after ``limit + 1`` bytes are read,
        whatever ``stat`` says (devices report size 0).

    Returns
    -------
    bytes

    Raises
    ------
    StoreError
        For a missing file, a folder, a device, a FIFO or socket, an unreadable file or one past the limit.

    Examples
    --------
    >>> read_limited("/dev/zero")
    Traceback (most recent call last):
    ...
    symgame.errors.StoreError: /dev/zero: not a regular file
    """
    path = Path(path)
    try:
        info = os.stat(path)
    except OSError as exc:
        raise StoreError(f"{path}: cannot read ({exc.strerror or exc})") from None
    if not stat.S_ISREG(info.st_mode):
        raise StoreError(f"{path}: not a regular file")
    try:
        raw = read_capped(path, limit)
    except OSError as exc:
        raise StoreError(f"{path}: cannot read ({exc.strerror or exc})") from None
    if raw is None:
        raise StoreError(f"{path}: larger than the limit of {limit} bytes")
    return raw


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector for a block that builds many containers and no cycles.

    Parsing a large JSON document or reading its formula trees creates millions of lists, dicts and closures and
    no reference cycles, yet each allocation burst triggers collections that traverse every live container:
    reading the Final Jeopardy sweep's cache (then 60 MB) took 2.0 s with the collector on and 0.2 s without, and
    compiling its stored formulas 6.0 s against 1.3 s. Reference counting still frees everything; the collector
    runs again after the block (it stays off if it was off before).

    Examples
    --------
    >>> import gc
    >>> with gc_paused():
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def load_json(path: Path | str, limit: int = READ_LIMIT) -> Any:
    """Parse the JSON file ``path`` (bounded read; one-line :class:`~symgame.errors.StoreError` if broken).

    Parameters
    ----------
    path : path
    limit : int
        See :func:`read_limited`.

    Returns
    -------
    object
        The parsed value.

    Raises
    ------
    StoreError
        When the file cannot be read or is not valid UTF-8 JSON (truncated, bit-flipped, empty).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "broken.json"
    >>> _ = p.write_text('{"a": [1, 2')
    >>> load_json(p)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    symgame.errors.StoreError: ...broken.json: not valid JSON (truncated or corrupted: ...)
    """
    raw = read_limited(path, limit)
    try:
        with gc_paused():
            return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise StoreError(f"{path}: not valid JSON (truncated or corrupted: {reason})") from None
