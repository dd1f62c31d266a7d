"""One call from a parametrized game to its verified-ready derivation."""
from __future__ import annotations

from dataclasses import dataclass

from ..model.game import NormalFormGame
from ..model.pdl import PDL
from .pdl_builder import Coverage, build_pdl
from .support_enumeration import Branch, enumerate_branches


@dataclass(frozen=True)
class Derivation:
    """Every equilibrium branch of a game and the PDL built from them."""

    game: NormalFormGame
    branches: tuple[Branch, ...]
    pdl: PDL
    coverage: Coverage


def derive_equilibria(game: NormalFormGame, timeout_ms: int = 30_000) -> Derivation:
    """Parametric support enumeration followed by PDL construction."""
    branches = enumerate_branches(game, timeout_ms)
    pdl, coverage = build_pdl(game, branches, timeout_ms)
    return Derivation(game, tuple(branches), pdl, coverage)
