"""Sample-guided exact derivation: discover supports numerically, derive and cover exactly.

Naive support enumeration derives every equal-size support pair, which is
``sum_k C(m,k) C(n,k)`` pairs (about 5·10^5 for a 13x9 Final Jeopardy game).
Here a numeric solver proposes support pairs at sample points; each
proposal is derived exactly (:class:`~symgame.engine.support_enumeration.BranchSolver`);
then z3 looks for a point of the domain not covered by any derived region.
If there is one, its kernels are proposed and derived, and the loop repeats:
first the floating-point proposals there, then (when none of them is new and
valid) proposals asked at the exact rational point, which a zero-sum game's
finder (:func:`symgame.numeric.kernels.game_kernels`) checks in rationals.
The result is exact and its cover is proved; sampling only steers the search.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Mapping, Sequence

import sympy as sp

from ..model.decide import Z3Context
from ..model.game import NormalFormGame
from .pdl_builder import Coverage, prove_coverage
from .support_enumeration import Branch, BranchSolver

Kernel = tuple[tuple[int, ...], tuple[int, ...]]
GAP_KERNELS = 12  # proposals tried at a coverage gap (degenerate points have several)
KernelFinder = Callable[..., Sequence[Kernel]]  # (game, point, limit) -> kernels


@dataclass(frozen=True)
class DiscoveryStats:
    """How much work the discovery loop did."""

    sample_points: int
    kernels_proposed: int
    branches_derived: int
    coverage_rounds: int


@dataclass(frozen=True)
class Discovery:
    branches: tuple[Branch, ...]
    coverage: Coverage
    stats: DiscoveryStats


def discover_branches(game: NormalFormGame, points: Sequence[Mapping[str, float]],
                      find_kernels: KernelFinder, max_rounds: int = 50,
                      timeout_ms: int = 20_000) -> Discovery:
    """Derive exactly the branches proposed at ``points`` and at coverage gaps.

    Parameters
    ----------
    game : NormalFormGame
    points : sequence of dict
        Floating-point parameter points where ``find_kernels`` is asked.
    find_kernels : callable
        ``(game, point, limit) -> [(rows, cols), ...]`` proposals; ``point`` holds floats, or
        :class:`~fractions.Fraction` values at a coverage gap's exact point.
    max_rounds : int
        Limit on coverage-gap rounds; when reached the coverage is reported
        as it stands (``undecided`` or refuted with a witness).
    """
    solver = BranchSolver(game, timeout_ms)
    ctx = Z3Context(game.domain)
    tried: set[Kernel] = set()
    branches: dict[Kernel, Branch] = {}
    proposed = 0

    def derive(kernels: Sequence[Kernel]) -> int:
        nonlocal proposed
        added = 0
        for kernel in kernels:
            proposed += 1
            if kernel in tried:
                continue
            tried.add(kernel)
            branch = solver.branch(*kernel)
            if branch is not None:
                branches[kernel] = branch
                added += 1
        return added

    for point in points:
        derive(find_kernels(game, point, 1))
    rounds = 0
    while True:
        ordered = order_branches(branches)
        coverage = prove_coverage(ctx, [b.region for b in ordered], timeout_ms)
        if coverage.proved or coverage.witness is None or rounds >= max_rounds:
            break
        rounds += 1
        gap = {k: float(sp.N(v, 30)) for k, v in coverage.witness.items()}
        if derive(find_kernels(game, gap, GAP_KERNELS)) == 0 and \
                derive(find_kernels(game, _rational_point(coverage.witness), GAP_KERNELS)) == 0 and \
                derive(_neighbour_kernels(game, gap, find_kernels)) == 0:
            break
    stats = DiscoveryStats(len(points), proposed, len(branches), rounds)
    return Discovery(tuple(order_branches(branches)), coverage, stats)


def _rational_point(witness: Mapping[str, sp.Expr]) -> dict[str, Fraction]:
    """The witness itself when rational, else a rational within 1e-30 of it (a proposal point only)."""
    return {k: Fraction(int(v.p), int(v.q)) if isinstance(v, sp.Rational) else Fraction(str(sp.N(v, 30)))
            for k, v in witness.items()}


def _neighbour_kernels(game: NormalFormGame, point: Mapping[str, float],
                       find_kernels: KernelFinder) -> list[Kernel]:
    """Kernels at points just around ``point`` (its own may be too degenerate)."""
    kernels: list[Kernel] = []
    for name in point:
        for delta in (1e-4, -1e-4):
            moved = dict(point)
            moved[name] = point[name] + delta
            kernels.extend(find_kernels(game, moved, GAP_KERNELS))
    return kernels


def order_branches(branches: Mapping[Kernel, Branch]) -> list[Branch]:
    """Smaller supports first, then lexicographic: the order of the enumeration."""
    return [branches[k] for k in sorted(branches, key=lambda k: (len(k[0]), k))]


def unit_grid(names: Sequence[str], steps: int) -> list[dict[str, float]]:
    """Cell centres ``(k + 1/2)/steps`` of a grid on [0, 1]^d (generic points;
    the degenerate edges are reached through the coverage loop)."""
    from itertools import product

    values = [(k + 0.5) / steps for k in range(steps)]
    return [dict(zip(names, combo)) for combo in product(values, repeat=len(names))]
