"""One call from a parametrized game to its derivation (branches, PDL, coverage)."""
from __future__ import annotations

from dataclasses import dataclass

from ..model import second_opinion
from ..model.game import NormalFormGame
from ..model.pdl import PDL
from ..model.rational import clear_denominators
from .discovery import DiscoveryStats, KernelFinder, discover_branches, unit_grid
from .dominance import reduce_by_dominance
from .pdl_builder import Coverage, CoverageError, build_pdl
from .selection import RegionEquilibria, all_by_region
from .support_enumeration import Branch, enumerate_branches


@dataclass(frozen=True)
class Derivation:
    """Every derived equilibrium branch of a game and the PDL built from them.

    ``kept`` lists, per player, the actions left after dominance elimination
    (all of them when no reduction was made); ``stats`` describes the
    discovery loop when one was used.
    """

    game: NormalFormGame
    branches: tuple[Branch, ...]
    pdl: PDL
    coverage: Coverage
    kept: tuple[tuple[int, ...], ...]
    stats: DiscoveryStats | None = None
    selection: str = "default"
    all_equilibria: tuple[RegionEquilibria, ...] | None = None


def derive_equilibria(game: NormalFormGame, timeout_ms: int = 30_000, select: str = "default") -> Derivation:
    """Parametric support enumeration over all equal-size support pairs, then a PDL.

    Payoffs that are rational functions of the parameters are first multiplied, player by player, by
    a denominator positive on the domain (:func:`symgame.model.rational.clear_denominators`).
    ``select`` is one of :data:`symgame.engine.selection.SELECTIONS`; with ``"all"`` the derivation
    also lists, region by region, every branch valid there (:attr:`Derivation.all_equilibria`).
    """
    game = clear_denominators(game)
    branches = enumerate_branches(game, timeout_ms)
    pdl, coverage = build_pdl(game, branches, timeout_ms, select)
    kept = tuple(tuple(range(len(p.actions))) for p in game.players)
    every = tuple(all_by_region(game, branches, timeout_ms)) if select == "all" else None
    return Derivation(game, tuple(branches), pdl, coverage, kept, None, select, every)


def derive_by_discovery(game: NormalFormGame, find_kernels: KernelFinder, grid_steps: int = 10,
                        timeout_ms: int = 30_000) -> Derivation:
    """Dominance reduction, sample-guided exact derivation, proved cover, PDL.

    Requires a box domain of parameters in [0, 1] for the sample grid
    (other domains: use :func:`derive_equilibria`).
    """
    with second_opinion.background():
        return _derive_by_discovery(game, find_kernels, grid_steps, timeout_ms)


def _derive_by_discovery(game: NormalFormGame, find_kernels: KernelFinder, grid_steps: int,
                         timeout_ms: int) -> Derivation:
    probes = unit_grid(game.domain.names, 4)
    reduction = reduce_by_dominance(game, probes, timeout_ms)
    reduced = reduction.game
    discovery = discover_branches(reduced, unit_grid(reduced.domain.names, grid_steps), find_kernels,
                                  timeout_ms=timeout_ms)
    if not discovery.coverage.proved:
        raise CoverageError(discovery.coverage.status, discovery.coverage.witness)
    pdl, coverage = build_pdl(reduced, discovery.branches, timeout_ms)
    branches = tuple(reduction.lift_branch(game, b) for b in discovery.branches)
    return Derivation(game, branches, reduction.lift_pdl(game, pdl), coverage, reduction.kept,
                      discovery.stats)
