"""Every public name of the API documents itself in numpydoc sections (Parameters, Returns, Raises where it
raises on purpose, Examples), as the documentation site claims."""
from __future__ import annotations

import inspect

import pytest

import symgame


def _public() -> list[tuple[str, object]]:
    out = []
    for name in symgame.__all__:
        obj = getattr(symgame, name)
        if isinstance(obj, type) and issubclass(obj, BaseException) or not callable(obj):
            continue
        out.append((name, obj))
        if isinstance(obj, type):
            out += [(f"{name}.{m}", f) for m, f in vars(obj).items()
                    if not m.startswith("_") and (inspect.isfunction(f) or isinstance(f, classmethod))]
    return out


@pytest.mark.parametrize("name, obj", _public(), ids=[n for n, _ in _public()])
def test_public_names_have_numpydoc_sections(name, obj):
    function = obj.__func__ if isinstance(obj, classmethod) else obj
    doc = inspect.getdoc(function) or ""
    assert "Examples\n--------" in doc, f"{name}: no Examples section"
    if inspect.isfunction(function):
        signature = inspect.signature(function)
        takes = [p for p in signature.parameters if p not in ("self", "cls")]
        if takes:
            assert "Parameters\n----------" in doc, f"{name}: no Parameters section"
        if signature.return_annotation not in (None, "None", inspect.Signature.empty):
            assert "Returns\n-------" in doc, f"{name}: no Returns section"
        if "raise " in inspect.getsource(function) and takes:
            assert "Raises\n------" in doc, f"{name}: raises but has no Raises section"
