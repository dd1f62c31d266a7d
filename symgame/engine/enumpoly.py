"""Every Nash equilibrium of a finite game with any number of players, exactly: support enumeration on
polynomial systems.

For every support profile :math:`S = (S_1, \\ldots, S_n)` the equilibria with exactly that support solve

.. math::  u_i(a, \\sigma_{-i}) = u_i(a_0, \\sigma_{-i})\\ (a \\in S_i),\\qquad
           \\sigma_i(a) > 0\\ (a \\in S_i),\\qquad u_i(b, \\sigma_{-i}) \\le u_i(a_0, \\sigma_{-i})\\ (b \\notin S_i)

with :math:`\\sum_a \\sigma_i(a) = 1` (McKelvey and McLennan, "Computation of equilibria in finite games",
*Handbook of Computational Economics* I, 1996, Section 6; the method of Gambit's ``enumpoly``). symgame
decides each support exactly instead of by floating-point homotopy:

1. strictly dominated strategies are removed (iteratively, by pure strategies), and a support is skipped
   when one of its strategies is strictly dominated against the opponents' supports ("conditional
   dominance", ibid.);
2. a linear relaxation rules out most of the rest exactly: replacing the product of the mixtures by any
   distribution on the support's pure profiles, with each player's conditions required against the others'
   part of it given each of the player's own support strategies (true of a product), makes every condition
   linear, and when even that has no solution (z3's rational simplex) neither has the system (for two
   players the relaxation is the system);
3. z3's nonlinear real arithmetic (a complete decision procedure, Jovanović and de Moura, "Solving
   non-linear arithmetic", IJCAR 2012) decides whether the system has a real solution at all;
4. when it has, a Gröbner basis decides whether the equations have finitely many complex solutions; if so
   every real one is found exactly (:func:`symgame.engine.algebraic.real_solutions`) and the strict and weak
   inequalities are decided exactly, giving isolated equilibria with rational or real algebraic coordinates.
   Supports past the size of those Gröbner bases (more than :data:`MAX_VARIABLES` unknowns, or past FLINT's
   limits) are parametrized by msolve when it is installed (:mod:`symgame.engine.msolve`; every solution checked
   exactly, their completeness resting on msolve, listed in ``msolve_supports``);
5. when the equations have infinitely many complex solutions, those where a support probability vanishes do
   not matter: with msolve installed the system is solved again with ``u * p = 1`` for a new unknown ``u``
   per support probability ``p`` (Rabinowitsch's trick, which saturates the ideal by the probabilities), and
   when that has finitely many solutions (or none) they are checked as in step 4 -- in the Jacob game II
   (C.7) this turns each of the 20 supports reported as families into one isolated equilibrium and decides
   253 of the 293 supports z3 could not;
6. what is still positive-dimensional goes back to z3, first in other coordinates: each player's weights
   unnormalized, one of them fixed to 1 (every condition is homogeneous in each player's weights, so each
   such *chart* is equivalent; z3 often decides one at once where the sum-to-one form runs out of time; see
   ``_charts_decide``), and parts of the conditions that involve only some of the unknowns (when one has no
   solution neither has the whole; see ``_subsystems_exclude``), then in the sum-to-one form for
   ``timeout_ms``;
7. otherwise the equilibria with that support form a *family* (a semialgebraic set of positive dimension
   over the complex numbers, also after step 5): it is reported as such, with its equations and one exact
   member found by fixing free coordinates at rationals.

The list is *complete* when every support was decided; a support z3 could not decide in its time limits
(:data:`QUICK_MS`; for positive-dimensional ones :data:`CHART_MS` per chart and per part, ``timeout_ms``, then
``long_ms`` if given) is named in ``undecided``. Every equilibrium is checked by exact regret on the whole game.

Examples
--------
>>> from symgame.model.gambit import read_nfg
>>> game = read_nfg('''NFG 1 R "Three players" { "1" "2" "3" } { 2 2 2 }
... 3 1 3  0 0 3  0 3 3  3 1 1  2 3 1  2 1 0  3 1 3  1 1 2''')
>>> result = enumpoly_solve(game)
>>> result.complete, len(result.equilibria), len(result.families)
(True, 1, 0)
>>> [[str(p) for p in mix] for mix in result.equilibria[0].profile]
[['-2 + sqrt(7)', '3 - sqrt(7)'], ['5/18 - sqrt(7)/18', 'sqrt(7)/18 + 13/18'], ['11/19 - sqrt(7)/19', 'sqrt(7)/19 + 8/19']]
>>> result.equilibria[0].verified
True
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations, islice, permutations, product
from math import prod
from typing import Any, Callable, Iterator, Sequence

import sympy as sp

from ..errors import LimitError, SymgameError
from ..model.gambit import StrategicGame
from ..model.z3env import z3
from .algebraic import Algebraic, NumberField, rational_field, real_solutions
from .msolve import MsolveError

#: Largest number of support profiles (after dominance) the enumeration will try.
MAX_SUPPORTS = 200_000
#: z3's time per support, in milliseconds, for the existence of a family member.
SUPPORT_TIMEOUT_MS = 10_000
#: z3's time for the first test of a support (most supports have no solution and are settled here).
QUICK_MS = 1_000
#: z3's time for the nonlinear screen of a support the linear relaxation leaves: it rules out about half of
#: those in a few hundredths of a second each; the rest it cannot settle in any short time and go to the
#: Gröbner bases (5x4x3.nfg of Gambit's catalogue: 52 of 107 ruled out; 52 open after 1 s as after 0.25 s).
SCREEN_MS = 250
#: With msolve installed, supports with more unknowns than this go to msolve first: FLINT's Buchberger takes
#: 2-30 s on the 7- and 8-unknown systems of 5x4x3.nfg where msolve takes 0.1-1.7 s (same solutions).
FLINT_VARIABLES = 6
#: Largest number of unknown probabilities of a support whose equations are solved by Gröbner bases here;
#: a larger support z3 cannot rule out quickly goes to msolve (:mod:`symgame.engine.msolve`), or is reported
#: as undecided when msolve is not installed.
MAX_VARIABLES = 8
#: z3's time per chart in :func:`_charts_decide` (milliseconds), and the most charts tried per support.
CHART_MS = 500
MAX_CHARTS = 64
#: The most parts of a support's conditions :func:`_subsystems_exclude` gives to z3.
MAX_SUBSYSTEMS = 64
#: A good ``long_ms`` for :func:`enumpoly_solve` when completeness matters more than time: z3's last try on a
#: positive-dimensional support the first two left open. It settles one support of the Jacob game II (C.6) in
#: 24 s; on Gambit's ``condjury.efg`` it decides 5 of 6 open supports (families) but takes the run from 102 s
#: to 260 s, hence not the default.
LONG_MS = 60_000

Support = tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class PolyEquilibrium:
    """One equilibrium with exact (rational or real algebraic) probabilities.

    Attributes
    ----------
    profile : tuple of tuples of Algebraic
        Each player's probabilities over their strategies (all of them, in the game's order).
    payoffs : tuple of Algebraic
        Each player's expected payoff.
    regret : tuple of int
        The sign of each player's largest gain from deviating (0: none), computed on the whole game.
    """

    profile: tuple[tuple[Algebraic, ...], ...]
    payoffs: tuple[Algebraic, ...]
    regret: tuple[int, ...]

    @property
    def verified(self) -> bool:
        """Exact regret 0 for every player."""
        return all(r == 0 for r in self.regret)

    @property
    def support(self) -> Support:
        return tuple(tuple(k for k, p in enumerate(mix) if p.sign() > 0) for mix in self.profile)

    def approx(self) -> tuple[tuple[float, ...], ...]:
        return tuple(tuple(float(p) for p in mix) for mix in self.profile)


@dataclass(frozen=True)
class EquilibriumFamily:
    """The equilibria with one support when their equations have infinitely many complex solutions.

    Attributes
    ----------
    support : Support
        Each player's strategies played with positive probability.
    equations : tuple of str
        The indifference equations as a reduced Gröbner basis (variables ``p<player>_<strategy>``, numbered
        from 1, each player's first support strategy eliminated through the sum 1). The family is the set of
        their real solutions with every support probability positive and no profitable deviation.
    witness : PolyEquilibrium or None
        One exact member (``None`` if none could be pinned down; the family still exists: z3 found a point).
    inequalities : tuple of str
        No profitable deviation to a strategy outside the support, in the same variables (``... <= 0``; those
        that hold everywhere are left out).
    """

    support: Support
    equations: tuple[str, ...]
    witness: PolyEquilibrium | None
    inequalities: tuple[str, ...] = ()


@dataclass(frozen=True)
class EnumPolyResult:
    """What :func:`enumpoly_solve` found.

    Attributes
    ----------
    equilibria : tuple of PolyEquilibrium
        The isolated equilibria (each the only one with its support, up to finitely many).
    families : tuple of EquilibriumFamily
        Supports whose equilibria form a set of positive dimension.
    undecided : tuple of Support
        Supports z3 could not decide in time.
    supports : int
        Support profiles examined after dominance.
    pruned : int
        Of those, skipped by conditional dominance.
    removed : tuple of tuples of int
        Strategies removed as strictly dominated, per player (with their duplicates).
    merged : tuple of tuples of tuples of int
        Per player, groups of strategies with identical payoffs (to every player, against everything): only
        the first of a group is enumerated; moving its probability to the others of the group gives the
        same outcome and is an equilibrium as well (not listed separately).
    orbits : int
        With ``symmetry``: the support profiles actually solved, one per orbit of the players' symmetries
        (0 without).
    symmetries : int
        The number of player permutations used (1: none but the identity).
    msolve_supports : tuple of Support
        Supports solved by msolve (:mod:`symgame.engine.msolve`): too large for the Gröbner bases here, or
        saturated by their probabilities (step 5 of the module text). Every solution it lists is checked
        exactly, but that it lists all of them (or that there are none) rests on msolve's multi-modular
        algorithm (very likely, not proved). Empty when msolve was not needed or not installed.
    certified_supports : tuple of Support
        With ``certify``: supports msolve answered whose answer was proved (no longer in ``msolve_supports``):
        by :func:`certify_support`, or, where it found no equilibrium, by
        :func:`symgame.engine.supportlift.no_equilibrium_certificate`.
    relaxed : int
        Of the supports left by conditional dominance, those ruled out exactly by a linear relaxation (no
        distribution on the support's pure profiles, correlated or not, satisfies the conditions; see step 2 of
        the module text) before any polynomial system was built.
    """

    equilibria: tuple[PolyEquilibrium, ...]
    families: tuple[EquilibriumFamily, ...]
    undecided: tuple[Support, ...]
    supports: int
    pruned: int
    removed: tuple[tuple[int, ...], ...]
    merged: tuple[tuple[tuple[int, ...], ...], ...] = ()
    orbits: int = 0                                  # support profiles solved, one per orbit (with symmetry)
    symmetries: int = 1                              # size of the group of player symmetries used
    msolve_supports: tuple[Support, ...] = ()        # supports whose solution list comes from msolve
    relaxed: int = 0                                 # supports ruled out by the linear relaxation
    certified_supports: tuple[Support, ...] = ()     # msolve's answers proved by certify_support

    @property
    def complete(self) -> bool:
        """True when every support was decided (the isolated equilibria and families are all of them)."""
        return not self.undecided


@dataclass
class _Tables:
    game: StrategicGame
    shape: tuple[int, ...]
    payoff: dict[tuple[int, ...], tuple[Fraction, ...]] = field(default_factory=dict)

    @classmethod
    def of(cls, game: StrategicGame) -> "_Tables":
        tables = cls(game, game.shape)
        for profile in game.profiles():
            tables.payoff[profile] = game.payoff(profile)
        return tables

    def u(self, player: int, profile: tuple[int, ...]) -> Fraction:
        return self.payoff[profile][player]


def _with(profile: Sequence[int], player: int, action: int) -> tuple[int, ...]:
    out = list(profile)
    out[player] = action
    return tuple(out)


def _others(alive: Sequence[Sequence[int]], player: int) -> Iterator[tuple[int, ...]]:
    """Profiles of the other players' strategies from ``alive`` (the player's own entry is 0)."""
    pools = [(0,) if j == player else tuple(a) for j, a in enumerate(alive)]
    yield from product(*pools)


def _dominated(t: _Tables, alive: Sequence[Sequence[int]], player: int, a: int, among: Sequence[int]) -> bool:
    """Whether strategy ``a`` is strictly dominated by a pure strategy in ``among`` against ``alive``."""
    rest = list(_others(alive, player))
    for b in among:
        if b != a and all(t.u(player, _with(s, player, b)) > t.u(player, _with(s, player, a)) for s in rest):
            return True
    return False


def duplicates(t: _Tables) -> list[list[tuple[int, ...]]]:
    """Per player, groups of strategies with the same payoffs (to every player) against every profile of
    the others; the first of each group stands for the group."""
    groups: list[list[tuple[int, ...]]] = []
    full = [list(range(n)) for n in t.shape]
    for i, n in enumerate(t.shape):
        rest = list(_others(full, i))
        seen: dict[tuple, list[int]] = {}
        for a in range(n):
            seen.setdefault(tuple(t.payoff[_with(s, i, a)] for s in rest), []).append(a)
        groups.append([tuple(g) for g in seen.values()])
    return groups


def iterated_dominance(t: _Tables, start: Sequence[Sequence[int]] | None = None) -> list[list[int]]:
    """Strategies that survive iterated removal of strictly dominated strategies (by pure strategies)."""
    alive = [list(a) for a in start] if start is not None else [list(range(n)) for n in t.shape]
    changed = True
    while changed:
        changed = False
        for i in range(len(alive)):
            for a in list(alive[i]):
                if len(alive[i]) > 1 and _dominated(t, alive, i, a, alive[i]):
                    alive[i].remove(a)
                    changed = True
    return alive


def _support_profiles(alive: Sequence[Sequence[int]]) -> Iterator[Support]:
    """Every support profile from the surviving strategies, smallest total size first."""
    sizes = [len(a) for a in alive]
    for total in range(len(alive), sum(sizes) + 1):
        for split in product(*(range(1, s + 1) for s in sizes)):
            if sum(split) != total:
                continue
            yield from product(*(combinations(a, k) for a, k in zip(alive, split)))


@dataclass
class _System:
    """The polynomial system of one support profile."""

    symbols: list[sp.Symbol]
    probs: list[dict[int, sp.Expr]]          # player -> strategy -> probability (an expression)
    equations: list[sp.Expr]
    positive: list[sp.Expr]
    weak: list[sp.Expr]                      # each <= 0


def _system(t: _Tables, alive: Sequence[Sequence[int]], support: Support) -> _System:
    symbols: list[sp.Symbol] = [sp.Symbol(f"p{i + 1}_{a + 1}") for i, s in enumerate(support) for a in s[1:]]
    ring, *gens = sp.ring(symbols or [sp.Symbol("_unused")], sp.QQ)    # products in sympy's sparse polynomials
    unknowns = iter(gens)
    probs: list[dict[int, Any]] = []
    for s in support:
        mine = {a: next(unknowns) for a in s[1:]}
        probs.append({s[0]: 1 - sum(mine.values(), ring.zero), **mine})
    equations: list[Any] = []
    weak: list[Any] = []
    for i, s in enumerate(support):
        weights = []
        for others in _others(support, i):
            weight = ring.one
            for j, b in enumerate(others):
                if j != i:
                    weight = weight * probs[j][b]
            weights.append((others, weight))

        def value(a: int, i: int = i) -> Any:
            return sum((weight * t.u(i, _with(others, i, a)) for others, weight in weights), ring.zero)
        base = value(s[0])
        equations.extend(value(a) - base for a in s[1:])
        weak.extend(value(b) - base for b in alive[i] if b not in s)
    return _System(symbols, [{a: p.as_expr() for a, p in mix.items()} for mix in probs],
                   [e.as_expr() for e in equations if e], [p.as_expr() for mix in probs for p in mix.values()
                                                           if len(mix) > 1], [w.as_expr() for w in weak])


def _relaxation_excludes(t: _Tables, alive: Sequence[Sequence[int]], support: Support,
                         conditioned: bool = True) -> bool:
    """Whether the support is ruled out by a linear relaxation, decided exactly (z3's simplex over the
    rationals, :data:`QUICK_MS`).

    The product of the players' mixtures is one distribution ``q`` on the support's pure profiles whose
    marginals are positive. Under a product, the others' strategies are independent of a player's own: for
    each of player ``i``'s support strategies ``c``, the part ``q(c, .)`` is ``sigma_i(c)`` times the others'
    joint mixture, so player ``i``'s conditions (indifference on the support, nothing better outside) hold for
    ``q(c, .)`` on its own, and they are linear in ``q``. When no distribution at all satisfies every player's
    conditions for every own strategy, no product does. Summing over ``c`` gives the weaker relaxation by the
    others' marginal alone; conditioning on the own strategy rules out 1,827 instead of 1,345 of a seeded
    sample of 2,000 support profiles of the Jacob game II (C.7).
    A necessary condition only: passing it proves nothing (for two players it is the support system itself).
    ``conditioned=False`` gives the weaker relaxation (kept for ``benchmarks/bench_enumpoly_relaxation.py``).
    """
    profiles = list(product(*support))
    names = [f"q{k}" for k in range(len(profiles))]
    lines = [f"(declare-const {q} Real)" for q in names]
    lines += [f"(assert (>= {q} 0))" for q in names]
    lines.append(f"(assert (= (+ 0 {' '.join(names)}) 1))")
    for i, s in enumerate(support):
        scale = math.lcm(*(t.u(i, _with(r, i, b)).denominator for r in profiles for b in alive[i]))
        own = [[(q, r) for q, r in zip(names, profiles) if r[i] == c] for c in s]    # q(c, .) for each c
        lines += [f"(assert (> (+ 0 {' '.join(q for q, _ in mine)}) 0))" for mine in own]
        for mine in own if conditioned else [list(zip(names, profiles))]:
            for b in alive[i]:
                if b == s[0]:
                    continue
                terms = []
                for q, r in mine:
                    gain = int((t.u(i, _with(r, i, b)) - t.u(i, _with(r, i, s[0]))) * scale)   # b over s[0]
                    if gain:
                        terms.append(f"(* {gain} {q})" if gain > 0 else f"(* (- {-gain}) {q})")
                relation = "=" if b in s else "<="
                lines.append(f"(assert ({relation} (+ 0 {' '.join(terms)}) 0))")
    solver = z3.SolverFor("QF_LRA")
    solver.set("timeout", QUICK_MS)
    solver.from_string("\n".join(lines))        # SMT-LIB text: z3's Python term builders cost more than solving
    return solver.check() == z3.unsat


def _z3(expr: sp.Expr, names: dict[sp.Symbol, z3.ArithRef]) -> z3.ArithRef:
    poly = sp.Poly(expr, *names) if names else None
    if poly is None:
        return z3.RealVal(str(sp.Rational(expr)))
    terms = []
    for monom, coeff in poly.terms():
        term: z3.ArithRef = z3.RealVal(f"{sp.Rational(coeff).p}/{sp.Rational(coeff).q}")
        for sym, k in zip(names, monom):
            for _ in range(k):
                term = term * names[sym]
        terms.append(term)
    return z3.Sum(terms) if terms else z3.RealVal(0)


def _decide(system: _System, extra: Sequence[tuple[sp.Symbol, Fraction]] = (),
            timeout_ms: int = SUPPORT_TIMEOUT_MS) -> tuple[z3.CheckSatResult, dict[sp.Symbol, Fraction] | None]:
    names = {s: z3.Real(str(s)) for s in system.symbols}
    solver = z3.SolverFor("QF_NRA")
    solver.set("timeout", timeout_ms)
    solver.add(*[_z3(e, names) == 0 for e in system.equations])
    solver.add(*[_z3(e, names) > 0 for e in system.positive])
    solver.add(*[_z3(e, names) <= 0 for e in system.weak])
    solver.add(*[names[s] == z3.RealVal(f"{v.numerator}/{v.denominator}") for s, v in extra])
    verdict = solver.check()
    if verdict != z3.sat:
        return verdict, None
    model = solver.model()
    return verdict, {s: _model_fraction(model, names[s]) for s in system.symbols}


def _model_fraction(model: Any, term: Any) -> Fraction:
    """The value of ``term`` in a z3 model: exact when rational, else a nearby fraction (denominator <= 10^6)."""
    value = model.eval(term, model_completion=True)
    if z3.is_rational_value(value):
        return Fraction(value.numerator_as_long(), value.denominator_as_long())
    return Fraction(value.approx(30).as_fraction()).limit_denominator(10 ** 6)


def _chart_weights(support: Support, chart: Sequence[int]) -> list[dict[int, Any]]:
    """Each player's weights in a chart: z3 unknowns ``s<player>_<strategy>``, the chart's strategy fixed to 1."""
    return [{a: z3.RealVal(1) if a == chart[j] else z3.Real(f"s{j + 1}_{a + 1}") for a in s}
            for j, s in enumerate(support)]


def _chart_difference(t: _Tables, support: Support, weight: list[dict[int, Any]], chart: Sequence[int], i: int,
                      a: int, b: int) -> tuple[Any, frozenset[str]]:
    """Player ``i``'s payoff from ``a`` minus that from ``b`` in a chart's weights, and the unknowns it involves
    (terms where the two payoffs agree cancel before they are built)."""
    terms: list[Any] = []
    names: set[str] = set()
    for others in _others(support, i):
        u = t.u(i, _with(others, i, a)) - t.u(i, _with(others, i, b))
        if u:
            terms.append(prod((weight[j][c] for j, c in enumerate(others) if j != i),
                              start=z3.RealVal(f"{u.numerator}/{u.denominator}")))
            names.update(f"s{j + 1}_{c + 1}" for j, c in enumerate(others) if j != i and c != chart[j])
    return (z3.Sum(terms) if terms else z3.RealVal(0)), frozenset(names)


def _charts_decide(t: _Tables, alive: Sequence[Sequence[int]], support: Support, timeout_ms: int = CHART_MS,
                   max_charts: int = MAX_CHARTS, skip: int = 0
                   ) -> tuple[z3.CheckSatResult, dict[sp.Symbol, Fraction] | None]:
    """z3 on the support's conditions written in other coordinates: each player's unnormalized weights
    ``s_j(a) > 0`` with one weight fixed to 1 (a *chart*), instead of probabilities that sum to 1.

    Every condition is homogeneous of degree 1 in each other player's weights (a player's payoff from a pure
    strategy is multilinear in the others' mixtures), so scaling each player's weights by a positive number
    changes no condition: the system has a solution in one chart exactly when it has one with probabilities.
    z3's nonlinear arithmetic, though, often decides a chart at once where the sum-to-one form runs out of
    time (in the Jacob game II (C.7), 36 of the 40 supports left open after saturation). The charts
    (``product(*support)``: the weight fixed to 1 per player) are tried in order, at most ``max_charts`` of
    them (after the first ``skip``), ``timeout_ms`` each; the first verdict ends it. Returns ``(verdict,
    probabilities)`` like :func:`_decide` (``unknown`` when no chart decided).
    """
    for chart in islice(product(*support), skip, max_charts):
        weight = _chart_weights(support, chart)
        solver = z3.SolverFor("QF_NRA")
        solver.set("timeout", timeout_ms)
        solver.add(*[w > 0 for j, mix in enumerate(weight) for a, w in mix.items() if a != chart[j]])
        for i, s in enumerate(support):
            solver.add(*[_chart_difference(t, support, weight, chart, i, a, s[0])[0] == 0 for a in s[1:]])
            solver.add(*[_chart_difference(t, support, weight, chart, i, b, s[0])[0] <= 0
                         for b in alive[i] if b not in s])
        verdict = solver.check()
        if verdict == z3.unsat:
            return verdict, None
        if verdict == z3.sat:
            model = solver.model()
            probabilities: dict[sp.Symbol, Fraction] = {}
            for j, mix in enumerate(weight):
                values = {a: _model_fraction(model, w) for a, w in mix.items()}
                total = sum(values.values())
                probabilities.update({sp.Symbol(f"p{j + 1}_{a + 1}"): values[a] / total for a in support[j][1:]})
            return verdict, probabilities
    return z3.unknown, None


def _subsystems_exclude(t: _Tables, alive: Sequence[Sequence[int]], support: Support,
                        timeout_ms: int = CHART_MS, max_tries: int = MAX_SUBSYSTEMS) -> bool:
    """Whether part of the support's conditions already has no solution (so the support holds no equilibrium).

    In the first chart (see :func:`_charts_decide`) every condition the equilibria satisfy is listed with the
    unknowns it involves after cancellation: each pair of a player's support strategies pays the same, and
    each strategy outside the support pays at most each one inside. For a set ``V`` of unknowns (the unknowns
    of one, two or three conditions together) the conditions that involve only ``V``, with ``V`` positive, are
    a relaxation of the support's system; z3 is asked about the distinct ones, fewest conditions first, at most
    ``max_tries`` of them, ``timeout_ms`` each. A game made of blocks (in the Jacob game II (C.7), two copies of
    (C.5) and a minority game between them) has such parts: the conditions between strategies of one block
    involve that block's weights only, and z3 refutes those at once where it cannot refute the whole (6 supports
    of (C.7), among them 4 that no chart decides).
    """
    chart = tuple(s[0] for s in support)
    weight = _chart_weights(support, chart)
    conditions: list[tuple[frozenset[str], Any]] = []
    for i, s in enumerate(support):
        for a, b in combinations(s, 2):
            expr, names = _chart_difference(t, support, weight, chart, i, a, b)
            conditions.append((names, expr == 0))
        for a in s:
            for b in alive[i]:
                if b not in s:
                    expr, names = _chart_difference(t, support, weight, chart, i, b, a)
                    conditions.append((names, expr <= 0))
    positive = {f"s{j + 1}_{a + 1}": w > 0 for j, mix in enumerate(weight) for a, w in mix.items() if a != chart[j]}
    variable_sets = sorted({names for names, _ in conditions}, key=lambda v: (len(v), sorted(v)))
    parts: set[tuple[int, ...]] = set()
    for r in (1, 2, 3):
        for group in combinations(variable_sets, r):
            union = frozenset().union(*group)
            part = tuple(k for k, (names, _) in enumerate(conditions) if names <= union)
            if 2 <= len(part) < len(conditions):
                parts.add(part)
    for part in islice(sorted(parts, key=lambda p: (len(p), p)), max_tries):
        solver = z3.SolverFor("QF_NRA")
        solver.set("timeout", timeout_ms)
        solver.add(*[conditions[k][1] for k in part])
        solver.add(*[positive[v] for v in sorted(frozenset().union(*(conditions[k][0] for k in part)))])
        if solver.check() == z3.unsat:
            return True
    return False


def _points(system: _System, t: _Tables, fixed: Sequence[tuple[sp.Symbol, Fraction]] = ()
            ) -> list[PolyEquilibrium] | None:
    """The equilibria among the finitely many solutions of the system (``None``: infinitely many)."""
    values = {s: sp.Rational(v) for s, v in fixed}
    free = [s for s in system.symbols if s not in values]
    equations = [sp.expand(e.subs(values)) for e in system.equations]
    if any(e.is_number and e != 0 for e in equations):
        return []
    if free and all(e.is_number for e in equations):
        return None
    solutions = real_solutions([e for e in equations if not e.is_number], free)
    if solutions is None:
        return None
    return _equilibria(system, t, values, free, solutions)


def _saturated(system: _System) -> tuple[list[sp.Expr], list[sp.Symbol]]:
    """The system's equations and unknowns with ``u * p - 1`` and a new unknown ``u`` per support probability ``p``
    (Rabinowitsch's trick: the ideal saturated by the probabilities; see :func:`_positive_points`)."""
    inverses = [sp.Symbol(f"_u{k}") for k in range(len(system.positive))]
    return (list(system.equations) + [u * p - 1 for u, p in zip(inverses, system.positive)],
            list(system.symbols) + inverses)


def _msolve_points(system: _System, t: _Tables, saturate: bool = False) -> list[PolyEquilibrium] | None:
    """As :func:`_points` with the solutions from msolve (raises :class:`MsolveError` when it cannot help); with
    ``saturate``, only the solutions with every support probability nonzero (see :func:`_positive_points`)."""
    from .algebraic import real_parametrized_points
    from .msolve import parametrize

    equations, symbols = _saturated(system) if saturate else (list(system.equations), list(system.symbols))
    found = parametrize(equations, symbols)
    if found is None:
        return []
    if isinstance(found, str):
        return None
    coordinates = list(found.coordinates[:len(system.symbols)])          # the inverses are not needed
    return _equilibria(system, t, {}, list(system.symbols), real_parametrized_points(found.eliminant, coordinates))


def _positive_points(system: _System, t: _Tables) -> list[PolyEquilibrium] | None:
    """The equilibria of a support whose equations have infinitely many complex solutions, when only finitely
    many of those have every support probability nonzero (``None`` when infinitely many have; raises
    :class:`MsolveError` when msolve cannot help).

    Every equilibrium with this support has each support probability ``p`` positive, so it solves
    ``u * p = 1`` for a new unknown ``u`` per probability (Rabinowitsch's trick: the system's ideal saturated by
    the probabilities). The components of the solution set that lie where some probability vanishes (in the
    Jacob game II (C.7), for instance, a player's strategies in a block of actions nobody else plays are free
    there) drop out, and what is left is often empty or finite: msolve decides it, and the finitely many points
    are checked exactly as in :func:`_points`.
    """
    return _msolve_points(system, t, saturate=True)


@dataclass(frozen=True)
class SupportCertificate:
    """The equilibria of one support proved complete without trusting msolve (see :func:`certify_support`).

    Attributes
    ----------
    support : Support
        Each player's strategies played with positive probability.
    kind : str
        ``"empty"``: ``1`` lies in the saturated ideal (no complex solution with every support probability
        nonzero); ``"parametrized"``: the eliminating polynomial and every coordinate of msolve's
        parametrization lie in it (every such solution is a parametrized point).
    solutions : int
        The complex solutions with every support probability nonzero (the eliminating polynomial's distinct
        roots; 0 when empty).
    equilibria : tuple of PolyEquilibrium
        The equilibria among them, each checked by exact regret on the whole game.
    terms : int
        The terms of all cofactors of the certificate (its size).
    """

    support: Support
    kind: str
    solutions: int
    equilibria: tuple[PolyEquilibrium, ...]
    terms: int


def certify_support(game: StrategicGame, support: Support, timeout_s: float | None = None,
                    attempt: Callable[[int, int], bool] | None = None) -> SupportCertificate | None:
    """Prove which equilibria one support profile holds, by exact ideal-membership identities.

    The support's system (step 4 of the module text) is saturated by its probabilities (``u * p = 1`` for a
    new unknown ``u`` per support probability ``p``) and parametrized by msolve; Singular's ``lift`` then
    writes ``1`` (no solution) or the parametrization's eliminating polynomial and coordinates as
    combinations of the equations, and those identities are checked exactly by FLINT
    (:mod:`symgame.engine.membership`). Neither program is trusted: msolve's points are checked to solve the
    system, Singular's cofactors to give the identities. What follows is a proof that the equilibria returned
    are *all* those with this support.

    Parameters
    ----------
    game : StrategicGame
    support : Support
        Each player's strategies (numbered from 0), as in :attr:`EnumPolyResult.msolve_supports`.
    timeout_s : float, optional
        Seconds Singular may run (``None``: no limit).
    attempt : callable, optional
        Called with a parametrized support's number of unknowns and of complex solutions (the degree of msolve's
        eliminating polynomial); the support is certified only when it returns true (the cofactors of a
        parametrization can grow fast with both). An empty support is always certified.

    Returns
    -------
    SupportCertificate or None
        ``None`` when the saturated system has infinitely many complex solutions (nothing to certify here),
        or when ``attempt`` declined.

    Raises
    ------
    SymgameError
        When msolve or Singular is missing or fails (:class:`~symgame.engine.msolve.MsolveError`,
        :class:`~symgame.engine.membership.SingularError`), or a certificate does not check.

    Examples
    --------
    >>> from symgame.model.gambit import read_nfg
    >>> game = read_nfg('''NFG 1 R "Three players" { "1" "2" "3" } { 2 2 2 }
    ... 3 1 3  0 0 3  0 3 3  3 1 1  2 3 1  2 1 0  3 1 3  1 1 2''')
    >>> cert = certify_support(game, ((0, 1), (0, 1), (0, 1)))
    >>> cert.kind, cert.solutions, len(cert.equilibria), cert.equilibria[0].verified
    ('parametrized', 2, 1, True)
    """
    return _certify(_Tables.of(game), support, timeout_s, attempt)


def _certify(t: _Tables, support: Support, timeout_s: float | None, attempt: Callable[[int, int], bool] | None
             ) -> SupportCertificate | None:
    """:func:`certify_support` on the game's payoff tables (built once by the caller)."""
    from .algebraic import real_parametrized_points
    from .membership import check_certificate, find_certificate
    from .msolve import parametrize

    system = _system(t, [list(range(n)) for n in t.shape], support)
    generators, symbols = _saturated(system)
    found = parametrize(generators, symbols)
    if isinstance(found, str):
        return None
    equilibria: list[PolyEquilibrium] = []
    if found is None:
        targets: list[sp.Expr] = [sp.Integer(1)]
        kind, count = "empty", 0
    elif attempt is not None and not attempt(len(system.symbols), found.eliminant.degree()):
        return None
    else:
        T = sp.Symbol("_T")
        generators.append(T - sum(c * s for c, s in zip(found.form, symbols)))
        symbols.append(T)
        targets = [found.eliminant.as_expr().xreplace({found.eliminant.gen: T})]
        targets += [x - v.as_expr().xreplace({v.gen: T}) for x, v in zip(system.symbols, found.coordinates)]
        w = found.eliminant                           # distinct roots of w: distinct points (t is a function of them)
        kind, count = "parametrized", w.degree() - w.gcd(w.diff()).degree()
        equilibria = _equilibria(system, t, {}, list(system.symbols),
                                 real_parametrized_points(found.eliminant,
                                                          list(found.coordinates[:len(system.symbols)])))
    certificate = find_certificate(generators, symbols, targets, timeout_s)
    if not check_certificate(generators, symbols, targets, certificate):
        raise SymgameError(f"the membership certificate of support {support} does not check")
    return SupportCertificate(support, kind, count, tuple(equilibria),
                              sum(len(c) for row in certificate for c in row))


def _equilibria(system: _System, t: _Tables, values: dict, free: list, solutions) -> list[PolyEquilibrium]:
    found = []
    for number_field, coords in solutions:
        point = {s: number_field.element(sp.Poly(values[s], sp.Symbol("_T"), domain=sp.QQ)) for s in values}
        point.update(zip(free, coords))
        if all(_evaluate(e, point, number_field).sign() > 0 for e in system.positive) and \
                all(_evaluate(e, point, number_field).sign() <= 0 for e in system.weak):
            profile = tuple(tuple(_evaluate(mix[a], point, number_field) if a in mix else number_field.rational(0)
                                  for a in range(n)) for mix, n in zip(system.probs, t.shape))
            found.append(verify(t.game, profile))
    return found


def _evaluate(expr: sp.Expr, point: dict[sp.Symbol, Algebraic], number_field: NumberField) -> Algebraic:
    if not point:
        return number_field.rational(Fraction(int(sp.Rational(expr).p), int(sp.Rational(expr).q)))
    poly = sp.Poly(expr, *point)
    total = number_field.rational(0)
    for monom, coeff in poly.terms():
        term = number_field.rational(Fraction(int(sp.Rational(coeff).p), int(sp.Rational(coeff).q)))
        for sym, k in zip(point, monom):
            for _ in range(k):
                term = term * point[sym]
        total = total + term
    return total


def verify(game: StrategicGame, profile: Sequence[Sequence[Algebraic]]) -> PolyEquilibrium:
    """Exact regret of a profile on the whole game: each player's best pure deviation against the payoff
    of the profile, signs decided exactly. Probabilities must be non-negative and sum to 1 (else
    ``ValueError``)."""
    number_field = profile[0][0].field
    for mix in profile:
        if any(p.sign() < 0 for p in mix) or sum(mix, number_field.rational(0)).poly != \
                number_field.rational(1).poly:
            raise ValueError("not a mixed profile")
    n = len(profile)
    shape = game.shape
    values = [[number_field.rational(0) for _ in range(shape[i])] for i in range(n)]
    for pure in game.profiles():
        payoff = game.payoff(pure)
        for i in range(n):
            weight = number_field.rational(1)
            for j in range(n):
                if j != i:
                    weight = weight * profile[j][pure[j]]
                    if weight.poly.is_zero:
                        break
            if not weight.poly.is_zero and payoff[i] != 0:
                values[i][pure[i]] = values[i][pure[i]] + weight * payoff[i]
    payoffs = tuple(sum((p * v for p, v in zip(profile[i], values[i])), number_field.rational(0))
                    for i in range(n))
    regret = tuple(max((v - payoffs[i]).sign() for v in values[i]) for i in range(n))
    return PolyEquilibrium(tuple(tuple(mix) for mix in profile), payoffs, regret)


def _witness(system: _System, t: _Tables, start: dict[sp.Symbol, Fraction]) -> PolyEquilibrium | None:
    """One exact member of a family: fix coordinates at nearby rationals while z3 still finds a solution,
    then solve the remaining (finite) system."""
    fixed: list[tuple[sp.Symbol, Fraction]] = []
    for s in system.symbols:
        for guess in (start[s], start[s].limit_denominator(100), start[s].limit_denominator(10)):
            verdict, model = _decide(system, fixed + [(s, guess)], timeout_ms=2_000)
            if verdict == z3.sat and model is not None:
                fixed.append((s, guess))
                start = model
                break
        found = _points(system, t, fixed)
        if found:
            return found[0]
    return None


def _basis_text(system: _System) -> tuple[str, ...]:
    """The equations of a family as its reduced Gröbner basis (grevlex; each polynomial made monic): the same
    set, written without redundancy. Factors that z3 proves nonzero wherever the support's probabilities
    are positive are divided out first (``(p - 1/2)(q + 1) = 0`` becomes ``p - 1/2 = 0``)."""
    if not system.equations:
        return ()
    names = {s: z3.Real(str(s)) for s in system.symbols}
    positive = [_z3(e, names) > 0 for e in system.positive]
    basis = sp.groebner(system.equations, *system.symbols, order="grevlex", domain=sp.QQ, method="f5b").exprs
    for _round in range(3):
        kept = []
        for g in basis:
            product_ = sp.Integer(1)
            for factor, _k in sp.factor_list(g, *system.symbols)[1]:
                solver = z3.SolverFor("QF_NRA")
                solver.set("timeout", QUICK_MS)
                solver.add(*positive, _z3(factor, names) == 0)
                if solver.check() != z3.unsat:
                    product_ *= factor
            kept.append(product_)
        if any(k.is_number and k != 0 for k in kept):        # pragma: no cover - the family would be empty
            break
        reduced = sp.groebner(kept, *system.symbols, order="grevlex", domain=sp.QQ, method="f5b").exprs
        if reduced == basis:
            break
        basis = reduced
    return tuple(f"{sp.Poly(g, *system.symbols).monic().as_expr()} = 0" for g in basis)


def player_symmetries(game: StrategicGame) -> tuple[tuple[int, ...], ...]:
    """The permutations ``pi`` of the players under which the game is invariant: relabelling player ``j`` as
    ``pi[j]`` (strategies kept) maps every payoff of player ``j`` to the same payoff of player ``pi[j]``.
    The identity is always among them; a symmetric game has all of them."""
    t = _Tables.of(game)
    n = len(t.shape)
    found = []
    for pi in permutations(range(n)):
        if any(t.shape[pi[j]] != t.shape[j] for j in range(n)):
            continue
        if all(_permuted_profile(s, pi) in t.payoff and
               all(t.payoff[_permuted_profile(s, pi)][pi[j]] == t.payoff[s][j] for j in range(n))
               for s in t.payoff):
            found.append(tuple(pi))
    return tuple(found)


def _permuted_profile(profile: Sequence, pi: Sequence[int]) -> tuple:
    """The profile after relabelling player ``j`` as ``pi[j]``."""
    out: list = [None] * len(pi)
    for j, item in enumerate(profile):
        out[pi[j]] = item
    return tuple(out)


@dataclass(frozen=True)
class _Outcome:
    """What one support profile gave (see :func:`_solve_support`)."""

    kind: str                                  # "pruned", "relaxed", "none", "points", "family", "undecided"
    equilibria: tuple[PolyEquilibrium, ...] = ()
    family: EquilibriumFamily | None = None
    msolve: bool = False                       # the points come from msolve


def _solve_support(t: _Tables, alive: Sequence[Sequence[int]], support: Support, timeout_ms: int, long_ms: int,
                   msolve: bool) -> _Outcome:
    """Decide one support profile (steps 1-7 of the module text)."""
    if any(_dominated(t, support, i, a, alive[i]) for i, s in enumerate(support) if len(s) > 1 for a in s):
        return _Outcome("pruned")
    if _relaxation_excludes(t, alive, support):
        return _Outcome("relaxed")
    system = _system(t, alive, support)
    verdict, model = _decide(system, timeout_ms=SCREEN_MS)
    if verdict == z3.unsat:
        return _Outcome("none")
    relied = False
    try:
        if len(system.symbols) > (FLINT_VARIABLES if msolve else MAX_VARIABLES):
            raise LimitError(f"{len(system.symbols)} unknowns")
        found = _points(system, t)
    except LimitError:
        try:
            found = _msolve_points(system, t)
        except (MsolveError, LimitError):
            return _Outcome("undecided")
        relied = True
    if found is None and msolve and system.positive:
        try:
            found = _positive_points(system, t)
        except (MsolveError, LimitError):
            found = None
        relied = relied or found is not None
    if found is not None:
        return _Outcome("points" if found else "none", tuple(found), msolve=relied)
    if verdict != z3.sat:                       # step 6: the first chart, its parts, the other charts
        verdict, model = _charts_decide(t, alive, support, max_charts=1)
        if verdict == z3.unknown and _subsystems_exclude(t, alive, support):
            verdict = z3.unsat
        if verdict == z3.unknown:
            verdict, model = _charts_decide(t, alive, support, skip=1)
    if verdict == z3.unknown:
        verdict, model = _decide(system, timeout_ms=timeout_ms)
    if verdict == z3.unknown and long_ms > timeout_ms:
        verdict, model = _decide(system, timeout_ms=long_ms)
    if verdict == z3.unsat:
        return _Outcome("none")
    if verdict != z3.sat or model is None:
        return _Outcome("undecided")
    return _Outcome("family", family=EquilibriumFamily(support, _basis_text(system), _witness(system, t, model),
                                                       tuple(f"{e} <= 0" for e in system.weak if not e.is_number)))


def _solve_chunk(game: StrategicGame, alive: Sequence[Sequence[int]], supports: Sequence[Support],
                 timeout_ms: int, long_ms: int, msolve: bool) -> list[_Outcome]:
    """One work unit: consecutive support profiles, decided in order (run in a worker process)."""
    t = _Tables.of(game)
    return [_solve_support(t, alive, s, timeout_ms, long_ms, msolve) for s in supports]


#: Support profiles per work unit when :func:`enumpoly_solve` runs on several processes or keeps a checkpoint.
CHUNK = 200


class _EnumCheckpoint:
    """Append-only JSON lines: one record per finished chunk with one letter per support (:data:`_LETTER`), so a
    rerun skips the supports that gave nothing or were left undecided; supports that gave equilibria or a family
    are decided again on resume (their exact data is not stored)."""

    def __init__(self, path, key: str):
        import json
        from pathlib import Path

        from ..errors import InputError

        self.path = Path(path)
        self.done: dict[int, dict] = {}
        if self.path.exists():
            for number, line in enumerate(self.path.read_text(encoding="utf-8").splitlines(), 1):
                try:
                    record = json.loads(line)
                except json.JSONDecodeError:
                    continue                            # a torn last line from an interrupted write
                if not isinstance(record, dict):
                    raise InputError(f"{self.path}: line {number}: not a checkpoint record")
                if "game" in record:
                    if record["game"] != key:
                        raise InputError(f"{self.path}: line {number}: a checkpoint of another game or "
                                         "enumeration (delete it or choose another file)")
                elif isinstance(record.get("chunk"), int) and isinstance(record.get("kinds"), str):
                    self.done[record["chunk"]] = record
        else:
            self._append({"game": key})

    def _append(self, record: dict) -> None:
        import json

        with self.path.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(record, sort_keys=True) + "\n")

    def add(self, chunk: int, outcomes: Sequence[_Outcome]) -> None:
        self._append({"chunk": chunk, "kinds": "".join(_LETTER[o.kind] for o in outcomes)})


def enumpoly_solve(game: StrategicGame, timeout_ms: int = SUPPORT_TIMEOUT_MS,
                   symmetry: bool = False, long_ms: int = 0, workers: int = 1, checkpoint=None,
                   progress=None, certify: bool = False) -> EnumPolyResult:
    """Every Nash equilibrium of a finite strategic game of any number of players (see the module text).

    With ``symmetry`` the players' symmetries (:func:`player_symmetries`) are used: only one support profile of
    each orbit is solved, and every isolated equilibrium found is returned with all its images (the image of an
    equilibrium under a symmetry of the game is an equilibrium with the image support, so the list stays
    complete). Families and undecided supports are then listed for the orbit representatives only.
    ``long_ms`` (for instance :data:`LONG_MS`) gives z3 a last, longer try on positive-dimensional supports that
    ``timeout_ms`` left open.

    ``workers`` > 1 decides the support profiles on that many local processes, in work units of :data:`CHUNK`;
    ``checkpoint`` (a file path) records each finished unit, and a rerun with the same file resumes without
    deciding again the supports that gave nothing or were left undecided (a checkpoint of another game or
    enumeration is refused);
    ``progress(done, total)`` is called after each unit. The result does not depend on either.
    With ``certify`` every support msolve answered is proved afterwards where possible (one where msolve found no
    equilibrium by the exact linear certificate of :func:`symgame.engine.supportlift.no_equilibrium_certificate`
    first; the others, with Singular installed, by :func:`certify_support`, no time limit: it can take far longer
    than the enumeration) and moves from
    ``msolve_supports`` to ``certified_supports``; a certificate whose equilibria differ from the enumeration's
    raises :class:`~symgame.errors.SymgameError`.

    Raises :class:`~symgame.errors.LimitError` when more than :data:`MAX_SUPPORTS` support profiles
    remain after dominance (orbits, with ``symmetry``).
    """
    t = _Tables.of(game)
    groups = duplicates(t)
    alive = iterated_dominance(t, [[g[0] for g in player] for player in groups])
    count = prod(2 ** len(a) - 1 for a in alive)
    group = player_symmetries(game) if symmetry else ((tuple(range(len(alive))),))
    group = tuple(pi for pi in group if all(alive[pi[j]] == alive[j] for j in range(len(alive))))
    orbits = count if len(group) == 1 else sum(
        1 for s in _support_profiles(alive) if s == min(_permuted_profile(s, pi) for pi in group))
    if orbits > MAX_SUPPORTS:
        raise LimitError(f"{count} support profiles after removing dominated strategies (more than "
                         f"{MAX_SUPPORTS}); strategies per player: {', '.join(str(len(a)) for a in alive)}")
    from .msolve import msolve_program
    msolve = msolve_program() is not None
    todo = [s for s in _support_profiles(alive)
            if len(group) == 1 or s == min(_permuted_profile(s, pi) for pi in group)]
    outcomes: list[_Outcome] = []
    if workers <= 1 and checkpoint is None and progress is None:
        outcomes = [_solve_support(t, alive, s, timeout_ms, long_ms, msolve) for s in todo]
    else:
        outcomes = _solve_chunks(game, alive, todo, (timeout_ms, long_ms, msolve, symmetry, len(group)), workers,
                                 checkpoint, progress)
    equilibria: list[PolyEquilibrium] = [e for o in outcomes for e in o.equilibria]
    families = [o.family for o in outcomes if o.family is not None]
    undecided = [s for s, o in zip(todo, outcomes) if o.kind == "undecided"]
    relied = [s for s, o in zip(todo, outcomes) if o.msolve]
    pruned = sum(o.kind == "pruned" for o in outcomes)
    relaxed = sum(o.kind == "relaxed" for o in outcomes)
    removed = tuple(tuple(k for k in range(n) if k not in a and not any(k in g[1:] and g[0] in a for g in groups[i]))
                    for i, (n, a) in enumerate(zip(t.shape, alive)))
    merged = tuple(tuple(g for g in player if len(g) > 1 and g[0] in alive[i]) for i, player in enumerate(groups))
    if len(group) > 1:
        images: dict[tuple, PolyEquilibrium] = {}
        for eq in equilibria:
            for pi in group:
                image = PolyEquilibrium(_permuted_profile(eq.profile, pi), _permuted_profile(eq.payoffs, pi),
                                        _permuted_profile(eq.regret, pi))
                images.setdefault(image.profile, image)
        equilibria = list(images.values())
    certified = _certify_relied(game, relied, todo, outcomes) if certify else []
    relied = [s for s in relied if s not in certified]
    return EnumPolyResult(tuple(equilibria), tuple(families), tuple(undecided), count, pruned, removed, merged,
                          orbits if len(group) > 1 else 0, len(group), tuple(relied), relaxed, tuple(certified))


def _profile_text(eq: PolyEquilibrium) -> list[list[str]]:
    return [[str(p) for p in mix] for mix in eq.profile]


def _certify_relied(game: StrategicGame, relied: list[Support], todo: list[Support], outcomes: list[_Outcome]
                    ) -> list[Support]:
    """The supports of ``relied`` proved: where msolve found no equilibrium, first by an exact certificate of no
    equilibrium (:func:`symgame.engine.supportlift.no_equilibrium_certificate`: a linear program, no external
    program needed); the others, and those it cannot prove, by :func:`certify_support` when Singular is installed
    and finds cofactors within its output bound (its equilibria checked against the enumeration's for that
    support); a support neither proves stays on msolve."""
    from .membership import SingularError, singular_program
    from .supportlift import no_equilibrium_certificate

    found = dict(zip(todo, outcomes))
    singular = singular_program() is not None
    t = _Tables.of(game)
    certified = []
    for support in relied:
        if not found[support].equilibria and no_equilibrium_certificate(game, support) is not None:
            certified.append(support)
            continue
        if not singular:
            continue
        try:
            cert = _certify(t, support, None, None)
        except (SingularError, LimitError):   # no cofactors (a target outside a non-radical ideal) or too large
            continue
        if cert is None:
            continue
        if sorted(map(_profile_text, cert.equilibria)) != sorted(map(_profile_text, found[support].equilibria)):
            raise SymgameError(f"support {support}: the certified equilibria differ from the enumeration's")
        certified.append(support)
    return certified


#: One letter per outcome in a checkpoint; supports whose outcome carries no data (all but equilibria and
#: families) are not decided again on resume.
_LETTER = {"pruned": "d", "relaxed": "r", "none": "n", "points": "e", "family": "f", "undecided": "u"}
_NOTHING = {"d": "pruned", "r": "relaxed", "n": "none", "u": "undecided"}


def _solve_chunks(game: StrategicGame, alive: Sequence[Sequence[int]], todo: list[Support], settings: tuple,
                  workers: int, checkpoint, progress) -> list[_Outcome]:
    """The outcomes of ``todo`` in order, decided in chunks on ``workers`` processes, resumable."""
    import hashlib

    timeout_ms, long_ms, msolve = settings[:3]
    chunks = [todo[k:k + CHUNK] for k in range(0, len(todo), CHUNK)]
    key = hashlib.sha256(repr((game.players, game.strategies, game.payoffs, alive, settings, CHUNK)).encode()).hexdigest()
    store = _EnumCheckpoint(checkpoint, key) if checkpoint is not None else None
    results: dict[int, list[_Outcome]] = {}
    pending: dict[int, list[int]] = {}               # chunk -> positions still to decide
    for k, chunk in enumerate(chunks):
        record = store.done.get(k) if store is not None else None
        if record is not None and len(record["kinds"]) == len(chunk):
            results[k] = [_Outcome(_NOTHING[c]) if c in _NOTHING else _Outcome("again") for c in record["kinds"]]
            again = [j for j, c in enumerate(record["kinds"]) if c not in _NOTHING]
            if again:
                pending[k] = again
        else:
            pending[k] = list(range(len(chunk)))
    finished = len(chunks) - len(pending)

    def _done(k: int, got: list[_Outcome]) -> None:
        nonlocal finished
        if k not in results:
            results[k] = got
        else:
            slots = iter(got)
            results[k] = [next(slots) if o.kind == "again" else o for o in results[k]]
        if store is not None and len(pending[k]) == len(chunks[k]):
            store.add(k, results[k])
        finished += 1
        if progress is not None:
            progress(finished, len(chunks))

    units = [(k, [chunks[k][j] for j in positions]) for k, positions in pending.items()]
    if workers <= 1:
        for k, supports in units:
            _done(k, _solve_chunk(game, alive, supports, timeout_ms, long_ms, msolve))
    else:
        from concurrent.futures import ProcessPoolExecutor, as_completed

        from ..model.isolated import end_pool, ignore_interrupts

        pool = ProcessPoolExecutor(max_workers=workers, initializer=ignore_interrupts)
        try:
            futures = {pool.submit(_solve_chunk, game, alive, supports, timeout_ms, long_ms, msolve): k
                       for k, supports in units}
            for future in as_completed(futures):
                _done(futures[future], future.result())
        except BaseException:
            end_pool(pool)
            raise
        pool.shutdown(wait=True)
    return [o for k in range(len(chunks)) for o in results[k]]


def profile_field(values: Sequence[Sequence[Fraction]]) -> list[list[Algebraic]]:
    """A rational profile as field elements (for :func:`verify`)."""
    number_field = rational_field(Fraction(0))
    return [[number_field.rational(v) for v in mix] for mix in values]
