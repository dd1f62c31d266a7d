"""LaTeX cheat sheets (jinja2 template) and their compilation with pdflatex."""
from __future__ import annotations

import functools
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import sympy as sp

from .._version import __version__
from ..errors import optional_import
from ..model.pdl import PDL


@functools.lru_cache(maxsize=1)
def _env():
    """The templates' jinja2 environment (Jinja2 is an optional dependency: ``symgame[export]``)."""
    jinja2 = optional_import("jinja2", "LaTeX cheat sheets")
    return jinja2.Environment(
        loader=jinja2.PackageLoader("symgame.export", "templates"),
        block_start_string="((*", block_end_string="*))",
        variable_start_string="<<", variable_end_string=">>",
        comment_start_string="((#", comment_end_string="#))",
        trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True, autoescape=False,
    )


_SPECIALS = {"&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
             "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "\\": r"\textbackslash{}"}


_RELATIONS = {">=": r"$\geq$", "<=": r"$\leq$", "!=": r"$\neq$", "<": r"\textless{}", ">": r"\textgreater{}",
              "|": r"\textbar{}", "`": "", '"': "''"}


def escape(text: str) -> str:
    r"""Escape plain text for LaTeX: special characters, and relations in math mode.

    In text mode with the default font encoding ``>`` and ``<`` print as an inverted question
    mark and exclamation mark, so ``>=`` becomes ``$\geq$``.

    Examples
    --------
    >>> escape("for every n >= 3, 50% of x_1 < 2")
    'for every n $\\geq$ 3, 50\\% of x\\_1 \\textless{} 2'
    """
    out, k = [], 0
    while k < len(text):
        pair = text[k:k + 2]
        if pair in _RELATIONS:
            out.append(_RELATIONS[pair])
            k += 2
            continue
        ch = text[k]
        out.append(_RELATIONS.get(ch, _SPECIALS.get(ch, ch)))
        k += 1
    return "".join(out)


def render(template: str, **context) -> str:
    """Render one of the package's LaTeX templates (``((* *))`` blocks, ``<< >>`` variables)."""
    return _env().get_template(template).render(version=__version__, **context)


def rule_lines(pdl: PDL, rule) -> list[str]:
    lines = []
    for player, strategy in zip(pdl.players, rule.profile.strategies):
        parts = [escape(a) if p == 1 else f"{escape(a)} with probability $\\displaystyle {sp.latex(p)}$"
                 for a, p in zip(player.actions, strategy) if p != 0]
        lines.append(f"\\textbf{{{escape(player.name)}}} plays " + ", ".join(parts))
    return lines


def cheatsheet_tex(title: str, source: str, pdl: PDL, verification: str,
                   values: list[sp.Expr] | None = None) -> str:
    """The cheat sheet of a PDL as a complete LaTeX document.

    ``values``: the game value under each rule (zero-sum games), shown with it.
    """
    rules = []
    for k, rule in enumerate(pdl.rules):
        readable = rule.readable is not None and rule.readable.proved.value == "true"
        conditions = (rule.readable.latex if readable and rule.region.atoms else  # type: ignore[union-attr]
                      r" \;\wedge\; ".join(a.latex() for a in rule.region.atoms))
        lines = rule_lines(pdl, rule)
        if values is not None:
            lines.append(f"value for {escape(pdl.players[0].name)}: $\\displaystyle {sp.latex(values[k])}$")
        rules.append({"conditions": conditions, "keyword": "Otherwise" if k else "Always", "players": lines})
    params = "; ".join(f"${sp.latex(p.symbol)} \\in {_interval_latex(p.domain_text)}$"
                       for p in pdl.domain.parameters)
    for atom in pdl.domain.assumptions:
        params += f"; ${atom.latex()}$"
    return _env().get_template("cheatsheet.tex.j2").render(
        title=escape(title), source=escape(source), version=__version__, parameters=params,
        rules=rules, verification=escape(verification))


def _interval_latex(text: str) -> str:
    return text.replace("-oo", r"-\infty").replace("oo", r"\infty").replace(" integer", r"\cap\mathbb{Z}")


@dataclass(frozen=True)
class PdfResult:
    """Outcome of a pdflatex run: the PDF path, or why there is none."""

    path: Path | None
    message: str


def compile_pdf(tex_path: Path) -> PdfResult:
    """Compile ``tex_path`` next to itself with pdflatex (reproducible settings)."""
    exe = shutil.which("pdflatex")
    if exe is None:
        return PdfResult(None, "pdflatex not found; .tex written only")
    env = dict(os.environ, SOURCE_DATE_EPOCH="0", FORCE_SOURCE_DATE="1")
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run([exe, "-interaction=nonstopmode", "-halt-on-error", "-output-directory",
                               tmp, str(tex_path)], capture_output=True, text=True, env=env, timeout=120)
        pdf = Path(tmp) / (tex_path.stem + ".pdf")
        if proc.returncode != 0 or not pdf.exists():
            tail = "\n".join(proc.stdout.splitlines()[-15:])
            return PdfResult(None, f"pdflatex failed on {tex_path}:\n{tail}")
        target = tex_path.with_suffix(".pdf")
        shutil.copyfile(pdf, target)
        return PdfResult(target, "ok")
