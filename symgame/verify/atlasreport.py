"""Everything checked about one derived atlas, gathered for export.

:func:`analyse_atlas` takes a game and its atlas (built by
:func:`symgame.engine.atlas.build_atlas`), the printed solutions and
statements of a paper, and sample parameter values; it runs every check of
:mod:`symgame.verify.atlascheck` and :mod:`symgame.verify.printed`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Sequence

import sympy as sp

from ..engine.atlas import Atlas, Family
from ..model.decide import Decision
from .atlascheck import (
    CoexistenceCell,
    MemberCertificate,
    NumericMatch,
    Subsumption,
    certify_atlas,
    coexistence,
    numeric_crosscheck,
    subsumed_families,
)
from .printed import (
    CoverageVerdict,
    PrintedSolution,
    PrintedStatement,
    PrintedVerdict,
    StatementVerdict,
    check_coverage,
    check_printed,
    check_statement,
    family_point_value,
)


@dataclass(frozen=True)
class AtlasAnalysis:
    atlas: Atlas
    certificates: tuple[MemberCertificate, ...]
    subsumed: tuple[Subsumption, ...]
    cells: tuple[CoexistenceCell, ...]
    printed: tuple[PrintedVerdict, ...]
    coverage: tuple[CoverageVerdict, ...]
    statements: tuple[StatementVerdict, ...]
    numeric: tuple[NumericMatch, ...]
    #: profits already simplified, per (family, member): the summary, the cheat sheet and the dynamics study
    #: each ask for them (sympy's simplify, about 0.2 s a family)
    _profits: dict[tuple[str, int], tuple[sp.Expr, ...]] = field(default_factory=dict, init=False, repr=False,
                                                                 compare=False, hash=False)

    @property
    def all_proved(self) -> bool:
        return all(c.proved for c in self.certificates)

    @property
    def numeric_agrees(self) -> bool:
        return all(m.family is not None for m in self.numeric)

    def profits(self, family: Family, member: int = 0) -> tuple[sp.Expr, ...]:
        """Each player's expected profit on the family's member ``member`` (default the first), simplified."""
        known = self._profits.get((family.ident, member))
        ours = any(f is family for f in self.atlas.families)     # another family with the same name is not cached
        if known is not None and ours:
            return known
        game = self.atlas.game
        branch = family.members[member].branch
        subs = {game.symbol(x): v for x, v in branch.values}
        point = family_point_value(family)
        if point is not None:
            subs = {k: sp.sympify(v).subs(game.symbol(game.parameter_names[0]), point) for k, v in subs.items()}
            subs[game.symbol(game.parameter_names[0])] = point
        out = tuple(sp.factor(sp.radsimp(sp.simplify(p.payoff.subs(subs)))) for p in game.players)
        if ours:
            self._profits[(family.ident, member)] = out
        return out

    def printed_labels(self, family: Family) -> tuple[str, ...]:
        return tuple(sorted({v.solution.label for v in self.printed if family.ident in v.families},
                            key=_label_key))


def analyse_atlas(atlas: Atlas, printed: Sequence[PrintedSolution] = (),
                  statements: Sequence[PrintedStatement] = (), numeric_values: Sequence[Fraction] = (),
                  numeric_starts: int = 6) -> AtlasAnalysis:
    """Certify the atlas and check it against the paper and an independent numeric search."""
    game = atlas.game
    subsumed = tuple(subsumed_families(atlas))
    return AtlasAnalysis(
        atlas=atlas,
        certificates=tuple(certify_atlas(atlas)),
        subsumed=subsumed,
        cells=tuple(coexistence(atlas, [s.family for s in subsumed])),
        printed=tuple(check_printed(game, atlas, printed)),
        coverage=tuple(check_coverage(game, atlas, printed)) if printed else (),
        statements=tuple(check_statement(game, atlas, s) for s in statements),
        numeric=tuple(numeric_crosscheck(atlas, numeric_values, starts=numeric_starts)),
    )


def decision_word(decision: Decision) -> str:
    return {Decision.TRUE: "proved", Decision.FALSE: "refuted", Decision.UNDECIDED: "undecided"}[decision]


def _label_key(label: str) -> tuple[int, str]:
    digits = "".join(ch for ch in label if ch.isdigit())
    return (int(digits) if digits else 0, label)
