"""Parametric decision lists (Ganzfried 2022, section 3).

A PDL is an ordered list of rules ``if theta in R_1 then s_1, else if theta in
R_2 then s_2, ..., else s_t``.  Each ``s_k`` is a strategy profile whose
probabilities are exact expressions in the parameters.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Mapping, Sequence

import numpy as np
import sympy as sp

from .expr import compile_exact, raw_point, to_fraction
from .game import Player
from .markup import MarkdownDisplay
from .readable import Readable, pretty
from .region import Domain, Region

Strategy = tuple[sp.Expr, ...]


@dataclass(frozen=True)
class Profile:
    """Mixed strategies of all players, aligned with each player's actions."""

    strategies: tuple[Strategy, ...]

    @cached_property
    def _evaluators(self):
        # compiled as they stand: expanding a factored rational function first took 19 of the 25 s of the
        # point checks of Final Jeopardy (10, 9) and only makes the evaluator longer
        return [[compile_exact(p) for p in s] for s in self.strategies]

    def at(self, point: Mapping[str, Fraction]) -> tuple[tuple[Fraction, ...], ...]:
        """Exact probabilities at a rational parameter point."""
        return tuple(tuple(to_fraction(p) for p in s) for s in self.at_raw(raw_point(point)))

    def at_raw(self, point) -> tuple[tuple, ...]:
        """:meth:`at` on python-flint ``fmpq`` values."""
        return tuple(tuple(f.raw(point) for f in s) for s in self._evaluators)

    def as_dict(self, players: Sequence[Player], omit_zero: bool = True) -> dict[str, dict[str, str]]:
        """``{player: {action: "probability"}}`` in plain sympy syntax."""
        out: dict[str, dict[str, str]] = {}
        for player, strategy in zip(players, self.strategies):
            out[player.name] = {a: pretty(p) for a, p in zip(player.actions, strategy)
                                if not (omit_zero and p == 0)}
        return out

    def describe(self, players: Sequence[Player]) -> str:
        parts = []
        for player, strategy in zip(players, self.strategies):
            mix = [f"{a}: {pretty(p)}" if p != 1 else a
                   for a, p in zip(player.actions, strategy) if p != 0]
            parts.append(f"{player.name} plays " + (mix[0] if len(mix) == 1 else "{" + ", ".join(mix) + "}"))
        return "; ".join(parts)


@dataclass(frozen=True)
class Rule:
    """``if region then profile``; ``label`` says where the rule came from.

    ``readable`` is the region as a person writes it, proved equivalent on the domain
    (:func:`symgame.model.readable.readable_region`), when the engine computed one.
    """

    region: Region
    profile: Profile
    label: str = ""
    readable: Readable | None = None

    @property
    def condition_text(self) -> str:
        """The readable condition when proved, else the engine's conditions joined by ``and``."""
        if self.readable is not None and self.readable.proved.value == "true":
            return self.readable.text
        return " and ".join(a.pretty for a in self.region.atoms)


@dataclass(frozen=True)
class Choice:
    """The outcome of evaluating a PDL: which rule fired and the exact profile."""

    rule_index: int
    strategies: tuple[tuple[Fraction, ...], ...]


@dataclass(frozen=True)
class PDL(MarkdownDisplay):
    """An ordered list of rules; the last rule's region is empty (``else``)."""

    players: tuple[Player, ...]
    domain: Domain
    rules: tuple[Rule, ...]

    def __post_init__(self) -> None:
        if not self.rules:
            raise ValueError("a PDL needs at least one rule")
        if self.rules[-1].region.atoms:
            raise ValueError("the last rule of a PDL must be an unconditional else")

    def select_raw(self, point) -> int:
        """Index of the first rule whose region contains ``point`` (python-flint ``fmpq`` values)."""
        for index, rule in enumerate(self.rules):
            if rule.region.contains_raw(point):
                return index
        raise AssertionError("unreachable: the last rule is unconditional")

    def evaluate(self, point: Mapping[str, Fraction]) -> Choice:
        """Exact strategy profile prescribed at a rational parameter point."""
        raw = raw_point(point)
        index = self.select_raw(raw)
        strategies = self.rules[index].profile.at_raw(raw)
        return Choice(index, tuple(tuple(to_fraction(p) for p in s) for s in strategies))

    @cached_property
    def _numeric(self):
        symbols = [sp.Symbol(n, real=True) for n in self.domain.names]
        conditions = [[(sp.lambdify(symbols, sp.expand(a.expr), "numpy"), a.rel)
                       for a in rule.region.atoms] for rule in self.rules]
        profiles = [[[sp.lambdify(symbols, p, "numpy") for p in s] for s in rule.profile.strategies]
                    for rule in self.rules]
        return conditions, profiles

    def select_numeric(self, columns: Mapping[str, np.ndarray]) -> np.ndarray:
        """Vectorised rule selection for many floating-point parameter points.

        Floating point can misjudge points on region boundaries; use
        :meth:`evaluate` for exact answers.
        """
        conditions, _ = self._numeric
        args = [np.asarray(columns[n], dtype=float) for n in self.domain.names]
        size = len(args[0]) if args else 1
        chosen = np.full(size, -1)
        for index, atoms in enumerate(conditions):
            mask = chosen < 0
            for func, rel in atoms:
                value = np.broadcast_to(func(*args), (size,))
                mask &= {">": value > 0, ">=": value >= 0, "==": value == 0, "!=": value != 0}[rel]
            chosen[mask] = index
        return chosen

    def profiles_numeric(self, columns: Mapping[str, np.ndarray]) -> list[np.ndarray]:
        """Vectorised profiles: one array ``(points, actions)`` per player."""
        _, profiles = self._numeric
        args = [np.asarray(columns[n], dtype=float) for n in self.domain.names]
        chosen = self.select_numeric(columns)
        size = len(chosen)
        out = [np.zeros((size, len(p.actions))) for p in self.players]
        with np.errstate(divide="ignore", invalid="ignore"):
            for index, funcs in enumerate(profiles):
                mask = chosen == index
                for k, strategy in enumerate(funcs):
                    for a, func in enumerate(strategy):
                        out[k][mask, a] = np.broadcast_to(func(*args), (size,))[mask]
        return out

    def __repr__(self) -> str:
        return (f"PDL(rules={len(self.rules)}, players={tuple(p.name for p in self.players)!r}, "
                f"parameters={tuple(self.domain.names)!r})")

    def to_markdown(self) -> str:
        """The list as numbered Markdown (conditions as code, names escaped); a notebook shows it.

        Returns
        -------
        str

        Examples
        --------
        >>> import sympy as sp
        >>> from symgame.model.region import Domain, Region
        >>> half = sp.Rational(1, 2)
        >>> pdl = PDL((Player("Row", ("a", "b")),), Domain(()), (Rule(Region(()), Profile(((half, half),))),))
        >>> print(pdl.to_markdown())
        1. Always: Row plays {a: 1/2, b: 1/2}
        >>> pdl
        PDL(rules=1, players=('Row',), parameters=())
        """
        from .markup import markdown_players

        players = markdown_players(self.players)
        lines = []
        for k, rule in enumerate(self.rules):
            action = rule.profile.describe(players)
            if k == len(self.rules) - 1:
                lines.append(f"{k + 1}. {'Else' if k else 'Always'}: {action}")
            else:
                lines.append(f"{k + 1}. {'If' if k == 0 else 'Else if'} `{rule.condition_text}`: {action}")
        return "\n".join(lines)

    def render_text(self) -> str:
        """Human-readable ``If ... / Else if ... / Else ...`` listing."""
        lines = []
        for index, rule in enumerate(self.rules):
            action = rule.profile.describe(self.players)
            if index == len(self.rules) - 1:
                lines.append(f"{'Else' if index else 'Always'}: {action}")
            else:
                keyword = "If" if index == 0 else "Else if"
                lines.append(f"{keyword} {rule.condition_text}: {action}")
        return "\n".join(lines)
