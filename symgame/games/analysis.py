"""The full treatment of one game: derive, certify, cross-check, compare with the paper.

This module only orchestrates; every mathematical step lives in the engine
and verify layers.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Mapping, Sequence

from ..engine.derive import Derivation, derive_equilibria
from ..engine.pdl_builder import player_pdl
from ..engine.selection import welfare_violations
from ..model.game import NormalFormGame
from ..model.pdl import PDL, Profile, Rule
from ..model.region import Atom, Domain, Region
from ..verify.certify import Certificate, certify_pdl
from ..verify.compare import Agreement, Counterexample, first_counterexample, pdls_agree
from ..verify.crosscheck import (
    CrossCheckReport,
    GridCheck,
    RandomNumericCheck,
    check_points,
    exhaustive_grid_check,
    random_domain_points,
    random_numeric_check,
    rule_witness_points,
)

Point = Mapping[str, Fraction]


@dataclass(frozen=True)
class Claim:
    """A printed claim: under ``hypothesis``, the strategy ``profile`` is optimal."""

    statement: str
    hypothesis: Atom
    profile: Profile


@dataclass(frozen=True)
class ClaimResult:
    claim: Claim
    certificate: Certificate
    counterexample: Counterexample | None


@dataclass(frozen=True)
class PrintedGameCheck:
    """The paper's PDL checked against the paper's own (printed) payoff matrix."""

    differences: tuple[tuple[int, int, str, str], ...]  # (row, col, printed, from the rules)
    certificate: Certificate
    counterexample: Counterexample | None


@dataclass(frozen=True)
class PublishedCheck:
    """The paper's PDL checked against the game derived from the rules."""

    pdl: PDL
    certificate: Certificate
    agreement: Agreement
    counterexample: Counterexample | None
    printed: PrintedGameCheck | None = None


@dataclass(frozen=True)
class GameSpec:
    """What symgame knows about a seed game: how to build it and what the paper printed."""

    name: str
    title: str
    source: str
    build: Callable[[], NormalFormGame]
    published: Callable[[NormalFormGame], PDL] | None = None
    claims: Callable[[NormalFormGame], Sequence[Claim]] = lambda game: ()
    counterexample_points: Callable[[], Sequence[Point]] = lambda: ()
    exhaustive_values: tuple[Fraction, ...] = ()
    random_games: int = 0
    sample_points: int = 40
    notes: str = ""
    derive: Callable[[NormalFormGame], Derivation] = derive_equilibria
    printed_game: Callable[[], NormalFormGame] | None = None
    output_dir: str = ""

    @property
    def directory(self) -> str:
        """Folder under outputs/ (``jeopardy/5_3`` for a family member)."""
        return self.output_dir or self.name


@dataclass(frozen=True)
class GameAnalysis:
    spec: GameSpec
    derivation: Derivation
    certificate: Certificate
    crosscheck: CrossCheckReport
    published: PublishedCheck | None
    claims: tuple[ClaimResult, ...] = field(default_factory=tuple)
    grid: GridCheck | None = None
    random: RandomNumericCheck | None = None
    player_pdls: tuple[PDL, ...] = ()
    welfare_violations: tuple[Mapping[str, Fraction], ...] | None = None


def analyse(spec: GameSpec, seed: int = 20221) -> GameAnalysis:
    """Derive the PDL of a game and check it in every way symgame knows."""
    game = spec.build()
    derivation = spec.derive(game)
    return analyse_derivation(spec, derivation, seed)


def analyse_derivation(spec: GameSpec, derivation: Derivation, seed: int = 20221) -> GameAnalysis:
    game, pdl = derivation.game, derivation.pdl
    certificate = certify_pdl(game, pdl)
    points = rule_witness_points(pdl) + random_domain_points(game.domain, spec.sample_points, seed)
    crosscheck = check_points(game, pdl, points)
    published = check_published(spec, game, pdl) if spec.published else None
    claims = tuple(check_claim(spec, game, c) for c in spec.claims(game))
    grid = exhaustive_grid_check(game, pdl, spec.exhaustive_values) if spec.exhaustive_values else None
    random = random_numeric_check(game, pdl, spec.random_games, seed) if spec.random_games else None
    players = tuple(player_pdl(pdl, k) for k in range(len(game.players))) if len(game.players) == 2 else ()
    welfare = (tuple(welfare_violations(game, derivation.branches, pdl, points))
               if derivation.selection == "welfare" else None)
    return GameAnalysis(spec, derivation, certificate, crosscheck, published, claims, grid, random, players, welfare)


def check_published(spec: GameSpec, game: NormalFormGame, derived: PDL) -> PublishedCheck:
    """Certify the paper's PDL on the real game and compare it with the derived one."""
    assert spec.published is not None
    printed = spec.published(game)
    certificate = certify_pdl(game, printed)
    agreement = pdls_agree(derived, printed)
    counterexample = None
    if certificate.violations:
        candidates = list(spec.counterexample_points())
        counterexample = (first_counterexample(game, printed, candidates, strict_rules_only=True)
                          or first_counterexample(game, printed, candidates)
                          or first_counterexample(game, printed, _violation_points(certificate)))
    printed_check = check_printed_game(spec, game, printed) if spec.printed_game else None
    return PublishedCheck(printed, certificate, agreement, counterexample, printed_check)


def check_printed_game(spec: GameSpec, game: NormalFormGame, printed_pdl: PDL) -> PrintedGameCheck:
    """Compare the printed matrix with the rules and certify the printed PDL on it."""
    import sympy as sp

    assert spec.printed_game is not None
    printed_game = spec.printed_game()
    differences = []
    ours, theirs = game.payoffs[0], printed_game.payoffs[0]
    for i in range(ours.shape[0]):
        for j in range(ours.shape[1]):
            if sp.expand(ours[i, j] - theirs[i, j]) != 0:
                differences.append((i, j, sp.sstr(theirs[i, j]), sp.sstr(ours[i, j])))
    pdl = PDL(printed_game.players, printed_game.domain, printed_pdl.rules)
    certificate = certify_pdl(printed_game, pdl)
    counterexample = None
    if certificate.violations:
        counterexample = (first_counterexample(printed_game, pdl, spec.counterexample_points(),
                                               strict_rules_only=True)
                          or first_counterexample(printed_game, pdl, _violation_points(certificate)))
    return PrintedGameCheck(tuple(differences), certificate, counterexample)


def check_claim(spec: GameSpec, game: NormalFormGame, claim: Claim) -> ClaimResult:
    """Prove or refute 'under the hypothesis, this strategy is always optimal'."""
    domain = Domain(game.domain.parameters, game.domain.assumptions + (claim.hypothesis,))
    pdl = PDL(game.players, domain, (Rule(Region(()), claim.profile, claim.statement),))
    certificate = certify_pdl(game, pdl)
    counterexample = None
    if certificate.violations:
        counterexample = (first_counterexample(game, pdl, spec.counterexample_points(), strict_rules_only=True)
                          or first_counterexample(game, pdl, _violation_points(certificate)))
    return ClaimResult(claim, certificate, counterexample)


def _violation_points(certificate: Certificate) -> list[dict[str, Fraction]]:
    points = []
    for v in certificate.violations:
        if v.point is not None and all(x.is_Rational for x in v.point.values()):
            points.append({k: Fraction(int(x.p), int(x.q)) for k, x in v.point.items()})
    return points
