"""The equilibrium atlas of a one-parameter polynomial game.

Pipeline (each stage exact or sound):

1. :class:`~symgame.engine.casesplit.CaseSearch` enumerates all
   ``3**n`` leader-face / responder-sign combinations with interval pruning
   on pieces of the parameter domain;
2. each survivor is refuted, if possible, by interval bisection on every
   piece where it survived, then by z3 over the whole domain;
3. the rest are solved exactly (:mod:`symgame.engine.parametric`) and their
   ranges derived (:mod:`symgame.engine.ranges`);
4. branches with the same leader formulas are merged into families.

Work is split into independent units run by a pluggable ``map`` (serial,
local processes, or Dask); finished units are appended to a checkpoint file
so that an interrupted run resumes without repeating them.
"""
from __future__ import annotations

import itertools
import json
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

import sympy as sp

from ..errors import LimitError, SymgameError
from ..model.decide import Decision
from ..model.markup import MarkdownDisplay
from ..model.polygame import PolynomialGame
from ..model.z3env import z3
from .casesplit import CaseSearch, SearchTask, Structure, detect_structure, parameter_pieces, total_cases
from .parametric import CaseBranch, fixed_values, solve_case
from .ranges import BranchRange, ParamInterval, branch_range
from .z3terms import Z3Encoder, model_values, polynomial_term

Mapper = Callable[[Callable, Sequence], list]
DEFAULT_BUDGET = 3**14
Z3_FILTER_MS = 300
Z3_QUICK_MS = 20        # first pass: most cases are refuted in a few milliseconds, the rest go to bisection
#: boxes of interval bisection tried before any z3 call when the search is compiled: on Billingham's atlas 256
#: boxes refute 261 of the 1,889 surviving cases in 0.54 s of CPU in all, whose quick z3 calls took 2.1 s
#: (``benchmarks/bench_atlas.py --compare-search``); the Python bisection costs about ten times more
BISECTION_FIRST_BOXES = 256


class CaseSpaceTooLarge(LimitError):
    """The raw case space exceeds the budget (``needed``: the budget that would admit it)."""

    def __init__(self, message: str, needed: int):
        super().__init__(message)
        self.needed = needed


@dataclass(frozen=True)
class SolvedBranch:
    branch: CaseBranch
    range: BranchRange


@dataclass(frozen=True)
class CaseVerdict:
    """What happened to one surviving case."""

    case: str
    stage: str                 # "bisection", "z3", "solved", "empty"; "timeout", "crashed", "open", "fibres"
    #                            (atlas_from_cases; "fibres": solved from fibres, one component per numeric point)
    branches: tuple[SolvedBranch, ...] = ()
    unsolved: tuple[str, ...] = ()
    seconds: tuple[float, float, float] = field(default=(0.0, 0.0, 0.0), compare=False)  # refute, solve, range


@dataclass(frozen=True)
class Family:
    """Branches sharing the same leader formulas, with the union of their ranges."""

    ident: str
    leaders: tuple[tuple[str, sp.Expr], ...]
    point: sp.Rational | None
    members: tuple[SolvedBranch, ...]

    @property
    def intervals(self) -> list[ParamInterval]:
        return [iv for m in self.members for iv in m.range.intervals]

    @property
    def continuum(self) -> bool:
        return any(m.branch.free for m in self.members)


@dataclass
class AtlasStats:
    raw_cases: int = 0
    search_nodes: int = 0
    search_pruned: int = 0
    survivors: int = 0
    refuted_bisection: int = 0
    refuted_z3: int = 0
    solved: int = 0
    seconds: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Atlas(MarkdownDisplay):
    """Equilibrium families of a one-parameter polynomial game with their exact ranges.

    ``complete`` is true when the families come from the exhaustive case search (:func:`build_atlas`: every
    equilibrium for every parameter value lies in one of them); false when they come from the cases of
    numerically found equilibria (:func:`seed_case` and :func:`atlas_from_cases`: each family is exact, the list
    may miss some).
    """

    game: PolynomialGame
    structure: Structure
    families: tuple[Family, ...]
    verdicts: tuple[CaseVerdict, ...]
    stats: AtlasStats
    complete: bool = True

    def __repr__(self) -> str:
        return (f"Atlas({self.game.name!r}, families={len(self.families)}, "
                f"parameter={self.game.parameter_names[0]!r}, complete={self.complete})")

    def to_markdown(self) -> str:
        """Each family with its leaders' formulas and its exact range, in Markdown; a notebook shows it.
        """
        from ..model.markup import markdown_text

        name = self.game.parameter_names[0]
        count = len(self.families)
        lines = [f"**{markdown_text(self.game.name)}**: {count} equilibrium {'family' if count == 1 else 'families'} "
                 + ("(every equilibrium at every parameter value lies in one)" if self.complete else
                    "(from numerically found equilibria; the list may miss some)"), "",
                 f"| family | leaders | range of {name} |", "|---|---|---|"]
        for family in self.families:
            leaders = ", ".join(f"`{x} = {sp.sstr(v, order='lex')}`" for x, v in family.leaders) or "—"
            ranges = "; ".join(iv.text(name) for iv in family.intervals)
            lines.append(f"| {family.ident}{' (continuum)' if family.continuum else ''} | {leaders} | {ranges} |")
        if self.unsolved:
            lines += ["", f"{len(self.unsolved)} cases unsolved (see `.unsolved`)."]
        return "\n".join(lines)

    @property
    def unsolved(self) -> list[str]:
        return [f"{v.case}: {u}" for v in self.verdicts for u in v.unsolved]

    def members_at(self, value: Fraction, every: bool = False) -> list[tuple[Family, SolvedBranch]]:
        """For each family valid at the parameter ``value``, its first member valid there (all with ``every``)."""
        out = []
        for family in self.families:
            for member in family.members:
                if any(iv.contains(value) for iv in member.range.intervals):
                    out.append((family, member))
                    if not every:
                        break
        return out


def branch_witness(game: PolynomialGame, member: SolvedBranch, value: Fraction,
                   timeout_ms: int = 20_000) -> dict[str, sp.Expr] | None:
    """Exact values of every variable of ``member`` at the parameter ``value``.

    Free variables take a point of their (polyhedral) set found by z3; the
    result is None only if z3 gives up. A member tied by a polynomial equation of degree >= 2 in one free
    variable (an algebraic family) is tried first on a grid, exactly (:func:`_algebraic_choice`): the tied
    variable is then a root of a polynomial (``CRootOf``) and the profile lies in its number field.
    """
    P = game.symbol(game.parameter_names[0])
    v = sp.Rational(value.numerator, value.denominator)
    values = {x: sp.radsimp(sp.sympify(e).subs(P, v)) for x, e in member.branch.values}
    free = list(member.branch.free)
    if free:
        chosen = _algebraic_choice(game, member, v)
        if chosen is None:                  # not an algebraic member (or no grid point): a point of z3's
            enc = Z3Encoder()
            formulas = [enc.condition(e, rel) for e, rel in ((expr.subs(P, v), rel)
                                                           for expr, rel in member.branch.conditions)
                        if not e.is_number]
            chosen = model_values(formulas, enc, free, timeout_ms)
        if chosen is None:
            return None
        subs = {game.symbol(z): chosen[z] for z in free}
        values = {x: sp.radsimp(e.subs(subs)) for x, e in values.items()}
    return {x: values[x] for x in game.variables}


#: Largest denominator of the grid of rational values of the untied free variables of an algebraic member
#: (:func:`_algebraic_choice`), with one untied variable and with two. With one, the multiples of 1/1000 follow
#: (the widened ranges fix free variables at fractions of denominator 10, 100 or 1000, :data:`WIDEN_DENOMINATORS`:
#: a pot inside such an interval has a witness among them).
WITNESS_GRID = {0: 1, 1: 24, 2: 8}


def _algebraic_choice(game: PolynomialGame, member: SolvedBranch, v: sp.Rational) -> dict[str, sp.Expr] | None:
    """Free values of a member tied by a polynomial equation of degree >= 2 in one free variable (the primitive
    unknown of an algebraic family), found exactly: the other free variables on a grid of simple rationals
    (simplest first), the tied one at each real root of the equation there (an algebraic number), every
    condition decided exactly in that root's number field. ``None`` when the member has no such equation or no
    grid point works. Deterministic (no solver budget decides it)."""
    from .algebraic import _T, NumberField, rational_field

    free = list(member.branch.free)
    syms = {game.symbol(z): z for z in free}
    P = game.symbol(game.parameter_names[0])
    from .ranges import tied_free

    equations = [e.subs(P, v) for e, rel in member.branch.conditions if rel == "==" and e.free_symbols & set(syms)]
    tied = list(tied_free(member.branch))       # the primitive unknown (the one widening keeps free)
    if not tied or not any(sp.Poly(e, game.symbol(tied[0])).degree() >= 2 for e in equations) or \
            len(free) - 1 not in WITNESS_GRID:
        return None
    u = game.symbol(tied[0])
    others = [game.symbol(z) for z in free if z != tied[0]]
    conditions = []
    for e, rel in member.branch.conditions:
        num, den = sp.fraction(sp.together(e.subs(P, v)))
        conditions.append((num, den, rel, sp.lambdify([u] + others, e.subs(P, v), "math")))
    # the tie as a polynomial in u whose coefficients are polynomials in the others (evaluated per grid point)
    tie = sp.Poly(next(e for e in equations if u in e.free_symbols), u)
    coefficients = [sp.Poly(c, *others) if others else sp.Poly(c, u) for c in tie.all_coeffs()]
    limit = WITNESS_GRID[len(others)]
    simple = sorted({Fraction(n, d) for d in range(1, limit + 1) for n in range(d + 1)},
                    key=lambda q: (q.denominator, q.numerator))
    if len(others) == 1:
        finest = max(WIDEN_DENOMINATORS)
        simple += sorted({Fraction(n, finest) for n in range(finest + 1)} - set(simple),
                         key=lambda q: (q.denominator, q.numerator))
    for zs in itertools.product(simple, repeat=len(others)):
        sub = {z: sp.Rational(q.numerator, q.denominator) for z, q in zip(others, zs)}
        values = list(sub.values())
        g = sp.Poly([c(*values) if others else c.as_expr() for c in coefficients], u, domain=sp.QQ)
        if g.is_zero or g.degree() < 1:
            continue
        for factor, _ in g.factor_list()[1]:
            factor = factor.monic()
            for k, ((lo, hi), _m) in enumerate(factor.intervals()):
                lo, hi = Fraction(str(lo)), Fraction(str(hi))
                if factor.degree() == 1:
                    field = rational_field(lo)
                else:
                    field = NumberField(sp.Poly(factor.as_expr().subs(u, _T), _T, domain=sp.QQ), lo, hi)
                approx = float(field.approx(sp.Poly(_T, _T, domain=sp.QQ))) if factor.degree() > 1 else float(lo)
                point = [approx] + [float(q) for q in zs]
                if not all(_plausible(fn, point, rel) for _, _, rel, fn in conditions):
                    continue
                if all(_holds(num, den, rel, field, u, sub) for num, den, rel, _ in conditions):
                    root = sp.Rational(lo.numerator, lo.denominator) if factor.degree() == 1 \
                        else sp.CRootOf(factor.as_expr(), k)
                    return {tied[0]: root, **{syms[z]: q for z, q in sub.items()}}
    return None


def _plausible(fn: Callable, point: list[float], rel: str) -> bool:
    """A float pre-filter of an inequality (generous: the exact test decides; a candidate it drops only moves
    the search to the next grid point). Equations pass: a root's residual in floats can be large."""
    if rel == "==":
        return True
    try:
        value = float(fn(*point))
    except (ZeroDivisionError, OverflowError, ValueError):
        return True
    return value > -1e-6


def _holds(num: sp.Expr, den: sp.Expr, rel: str, field, u: sp.Symbol, sub: dict) -> bool:
    """Whether ``num / den rel 0`` holds exactly with ``u`` the field's generator and ``sub`` substituted."""
    from .algebraic import _T

    def sign(e: sp.Expr) -> int:
        poly = sp.Poly(e.subs(sub).subs(u, _T), _T, domain=sp.QQ).rem(field.minpoly)
        return field.sign(poly)

    d = sign(den)
    if d == 0:
        return False
    s = sign(num) * d
    return s > 0 if rel == ">" else (s >= 0 if rel == ">=" else s == 0)


# --------------------------------------------------------------------------- work units

def run_search_task(game: PolynomialGame, structure: Structure, task: SearchTask):
    return case_search(game, structure).run(task)


def analyse_case(game: PolynomialGame, structure: Structure, case: str, pieces: tuple[int, ...]) -> CaseVerdict:
    """Refute (a short interval bisection when the search is compiled, z3 with a very short budget, then a long
    interval bisection, then z3 with a longer budget) or solve one surviving case. Every refutation is exact, so
    the budgets decide only how long a case takes, never what is found (an unrefuted infeasible case is solved and
    has no solutions).

    ``pieces`` are the parameter pieces on which the case survived the search.
    """
    t0 = time.perf_counter()
    search = case_search(game, structure)
    if search.compiled_search and all(search.refute(k, case, BISECTION_FIRST_BOXES) for k in pieces):
        return CaseVerdict(case, "bisection", seconds=(time.perf_counter() - t0, 0.0, 0.0))
    feasible = z3_case_feasibility(game, structure, case, Z3_QUICK_MS)
    if feasible is Decision.UNDECIDED:
        if all(search.refute(k, case) for k in pieces):
            return CaseVerdict(case, "bisection", seconds=(time.perf_counter() - t0, 0.0, 0.0))
        feasible = z3_case_feasibility(game, structure, case, Z3_FILTER_MS)
    if feasible is Decision.FALSE:
        return CaseVerdict(case, "z3", seconds=(time.perf_counter() - t0, 0.0, 0.0))
    t1 = time.perf_counter()
    solution = solve_case(game, structure, case)
    t2 = time.perf_counter()
    param = game.parameters[0]
    solved = []
    for b in solution.branches:
        r = branch_range(b, param)
        if r.intervals or r.undecided_cells or not r.complete:
            solved.append(SolvedBranch(b, r))
    stage = "solved" if solved or solution.unsolved else "empty"
    return CaseVerdict(case, stage, tuple(solved), solution.unsolved,
                       (t1 - t0, t2 - t1, time.perf_counter() - t2))


def z3_case_feasibility(game: PolynomialGame, structure: Structure, case: str, timeout_ms: int) -> Decision:
    """Exact satisfiability of the raw case system over the whole domain."""
    return case_encoding(game).feasibility(structure, case, timeout_ms)


class CaseEncoding:
    """The game's first-order conditions as z3 terms, translated once per process.

    A case then costs only a substitution of its pinned variables and one
    nlsat call (translating sympy expressions case by case cost ten times
    more than solving).
    """

    def __init__(self, game: PolynomialGame):
        self.vars = {str(g): z3.Real(str(g)) for g in game.generators}
        ordered = [self.vars[str(g)] for g in game.generators]
        self.derivative = {x: polynomial_term(game.derivatives[x], ordered) for x in game.variables}
        enc = Z3Encoder(names=dict(self.vars))
        self.domain = [enc.condition(e, r) for p in game.parameters for e, r in p.bound_conditions()]

    def feasibility(self, structure: Structure, case: str, timeout_ms: int) -> Decision:
        solver = z3.SolverFor("QF_NRA")
        solver.set("timeout", timeout_ms)
        solver.add(*self.domain)
        for x, value in fixed_values(structure, case).items():     # pins as equations: z3 eliminates them
            solver.add(self.vars[x] == z3.RealVal(value))          # (cheaper than substituting in Python)
        for x, c in zip(structure.order, case):
            g = self.derivative[x]
            v = self.vars[x]
            solver.add({"L": g <= 0, "U": g >= 0, "-": g < 0, "+": g > 0}.get(c, g == 0))
            if c == "I":
                solver.add(v > 0, v < 1)
            elif c == "0":
                solver.add(v >= 0, v <= 1)
        answer = solver.check()
        if answer == z3.unsat:
            return Decision.FALSE
        return Decision.TRUE if answer == z3.sat else Decision.UNDECIDED


_PROCESS_CACHE: dict[tuple[str, str], tuple[object, object]] = {}


def _cached(kind: str, game: PolynomialGame, build: Callable[[], object]):
    """One compiled object per game and process.

    Work units arrive with a freshly unpickled copy of the game, so the
    cache compares games by value, not identity.
    """
    key = (kind, game.name)
    hit = _PROCESS_CACHE.get(key)
    if hit is None or (hit[0] is not game and hit[0] != game):
        hit = (game, build())
        _PROCESS_CACHE[key] = hit
    return hit[1]


def case_encoding(game: PolynomialGame) -> CaseEncoding:
    """The :class:`CaseEncoding` of ``game``, cached for the life of the process."""
    return _cached("z3", game, lambda: CaseEncoding(game))


def case_search(game: PolynomialGame, structure: Structure) -> CaseSearch:
    """The compiled :class:`CaseSearch` of ``game``, cached for the life of the process."""
    return _cached("search", game, lambda: CaseSearch(game, structure, parameter_pieces(game)))


# --------------------------------------------------------------------------- executors

def serial_map(fn: Callable, items: Sequence) -> list:
    return [fn(*item) for item in items]


@dataclass(frozen=True)
class SharedArray:
    """A read-only NumPy array handed to a :class:`ProcessMapper`'s workers as a file they memory-map (one
    write and one page-cache copy for every work unit, instead of one pickled copy per batch of units).
    ``generation`` names the ``share`` call it came from: a worker keeps only one generation's arrays open, so
    the files the mapper removed at the next call are unmapped there too."""

    path: str
    token: str
    generation: str = ""


_OPENED: dict[str, Any] = {}          # token -> memory-mapped array, all of the generation below
_OPENED_GENERATION: list[str] = [""]


def share(mapper: Any, *values: Any) -> tuple:
    """``values`` (NumPy arrays) as the mapper's workers best receive them in many work units.

    Parameters
    ----------
    mapper : callable
        A mapper (:func:`serial_map`, :class:`ProcessMapper`, :class:`DaskMapper` or any callable).
    *values : numpy.ndarray
        Read-only data that many work units of the next calls need.

    Returns
    -------
    tuple
        One handle per value: a :class:`SharedArray` for a :class:`ProcessMapper` (which removes the files of
        its previous ``share`` now), a scattered future on Dask, the value itself for any other mapper. A work
        unit reads a handle back with :func:`shared_value`.

    Examples
    --------
    >>> import numpy as np
    >>> table = np.arange(6.0)
    >>> share(serial_map, table)[0] is table
    True
    >>> with ProcessMapper(1) as mapper:
    ...     (handle,) = share(mapper, table)
    ...     float(shared_value(handle)[5])
    5.0
    """
    how = getattr(mapper, "share", None)
    return tuple(how(*values)) if how is not None else values


def shared_value(value: Any) -> Any:
    """The array behind a :class:`SharedArray`; any other value unchanged (the arrays of the latest ``share`` call
    seen are kept open per process).

    Parameters
    ----------
    value : object
        What a work unit received for a shared argument.

    Returns
    -------
    object
        The array, memory-mapped read-only, or ``value``.
    """
    if not isinstance(value, SharedArray):
        return value
    opened = _OPENED.get(value.token)
    if opened is None:
        import numpy as np

        if _OPENED_GENERATION[0] != value.generation:
            _OPENED.clear()
            _OPENED_GENERATION[0] = value.generation
        opened = np.load(value.path, mmap_mode="r", allow_pickle=False)
        _OPENED[value.token] = opened
    return opened


def process_map(fn: Callable, items: Sequence, workers: int | None = None) -> list:
    """``[fn(*item) for item in items]`` on ``workers`` local processes, in order.

    Workers ignore Ctrl-C; on an interrupt (or any error) in the parent, queued work is cancelled and every
    worker is terminated before the exception propagates, so the command exits within seconds instead of
    waiting for the pool. A pool of its own per call (:class:`ProcessMapper` keeps one for many calls).
    """
    with ProcessMapper(workers) as mapper:
        return mapper(fn, items)


class ProcessMapper:
    """A mapper on ``workers`` local processes that keeps one pool for all its calls (a ``with`` block).

    :func:`process_map` starts and ends a pool per call; the atlas calls its mapper once per checkpointed
    chunk (16 times); a kept pool saves the start of every further pool and keeps each worker's compiled search
    and z3 encoding, and :meth:`imap` lets the atlas stream all its work units through one pool with no barrier
    between chunks (on Billingham's atlas the kept pool alone saved about 0.5 s of 10, the stream a further
    2.5 s; ``benchmarks/bench_atlas.py --compare``). On an interrupt or an error inside the block the workers are
    ended at once.

    Examples
    --------
    >>> with ProcessMapper(2) as mapper:
    ...     mapper(pow, [(2, 3), (3, 2)])
    [8, 9]
    """

    def __init__(self, workers: int | None = None):
        self.workers = workers
        self._pool: Any = None
        self._folder: Any = None
        self._shared = 0
        self._calls = 0

    def share(self, *values: Any) -> list:
        """Each value (a NumPy array; anything else is returned as it is) written once to a private temporary
        folder for the workers to memory-map (removed when the block ends; the previous call's files are
        removed now): see :func:`share`."""
        import os
        import tempfile

        import numpy as np

        if self._folder is None:
            self._folder = tempfile.mkdtemp(prefix="symgame-shared-")
        for old in os.listdir(self._folder):
            os.unlink(os.path.join(self._folder, old))
        self._calls += 1
        generation = f"{os.getpid()}-{id(self)}-{self._calls}"
        out = []
        for value in values:
            if not isinstance(value, np.ndarray):
                out.append(value)
                continue
            self._shared += 1
            path = os.path.join(self._folder, f"{self._shared}.npy")
            np.save(path, np.ascontiguousarray(value), allow_pickle=False)
            out.append(SharedArray(path, f"{generation}-{self._shared}", generation))
        return out

    def __call__(self, fn: Callable, items: Sequence) -> list:
        return list(self.imap(fn, items))

    def imap(self, fn: Callable, items: Sequence) -> Iterator:
        """``fn(*item)`` for each item, in order, each yielded as soon as it and those before it are done."""
        from concurrent.futures import ProcessPoolExecutor

        from ..model.isolated import end_pool, ignore_interrupts

        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=self.workers, initializer=ignore_interrupts)
        try:
            yield from self._pool.map(_star, [(fn, item) for item in items], chunksize=max(1, len(items) // 64))
        except BaseException:
            pool, self._pool = self._pool, None
            if pool is not None:
                end_pool(pool)
            raise

    def __enter__(self) -> "ProcessMapper":
        return self

    def __exit__(self, kind: Any, value: Any, traceback: Any) -> None:
        import shutil

        from ..model.isolated import end_pool

        pool, self._pool = self._pool, None
        if pool is not None:
            if kind is None:
                pool.shutdown(wait=True)
            else:
                end_pool(pool)
        folder, self._folder = self._folder, None
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)


class SchedulerError(SymgameError):
    """A distributed scheduler that cannot be reached or has no workers (exit status 2 on the command line)."""


class DaskMapper:
    """A mapper that runs work units on a Dask distributed scheduler.

    One client is opened on first use and kept until :meth:`close` (or the
    end of a ``with`` block); ``address`` may also be a ``LocalCluster``.
    """

    #: Seconds to wait for the scheduler to answer, and for at least one worker to join it.
    CONNECT_SECONDS = 20
    WORKER_SECONDS = 60

    def __init__(self, address):
        self.address = address
        self._client = None

    def __call__(self, fn: Callable, items: Sequence) -> list:
        if self._client is None:
            self._client = self._connect()
        futures = self._client.map(_star, [(fn, item) for item in items], pure=False)
        try:
            return self._client.gather(futures)
        except BaseException:
            self._client.cancel(futures)
            raise

    def _connect(self):
        """A client of the scheduler with at least one worker, or a one-line :class:`SchedulerError`."""
        from distributed import Client

        where = self.address if isinstance(self.address, str) else "the given cluster"
        try:
            client = Client(self.address, timeout=f"{self.CONNECT_SECONDS}s")
        except (OSError, TimeoutError) as exc:
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise SchedulerError(f"cannot reach the Dask scheduler at {where} within {self.CONNECT_SECONDS} s "
                                 f"({reason[:120]})") from None
        try:
            client.wait_for_workers(1, timeout=self.WORKER_SECONDS)
        except (OSError, TimeoutError):
            client.close()
            raise SchedulerError(f"the Dask scheduler at {where} has no workers (waited {self.WORKER_SECONDS} s); "
                                 "start one with `dask worker ADDRESS`") from None
        return client

    def share(self, *values: Any) -> list:
        """Each value scattered to every worker once (futures that Dask resolves in each work unit)."""
        if self._client is None:
            self._client = self._connect()
        return [self._client.scatter(value, broadcast=True, hash=False) for value in values]

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None

    def __enter__(self) -> "DaskMapper":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _star(pair):
    fn, item = pair
    return fn(*item)


# --------------------------------------------------------------------------- the pipeline

def build_atlas(game: PolynomialGame, mapper: Mapper = serial_map, checkpoint: Path | None = None,
                budget: int = DEFAULT_BUDGET, progress: bool = False,
                case_filter: Callable[[Structure, str], bool] | None = None) -> Atlas:
    """Derive every equilibrium family of ``game`` for every parameter value.

    ``case_filter`` restricts the case space (e.g. to a paper's hand-pruned
    cases, for comparison); ``raw_cases`` then counts only the admitted cases.
    """
    structure = detect_structure(game)
    raw = total_cases(structure)
    if raw > budget:
        raise CaseSpaceTooLarge(f"{raw} raw cases (3^{len(structure.order)}) exceed the budget of {budget}; "
                                f"a budget of {raw} would admit them", raw)
    stats = AtlasStats(raw_cases=raw)
    search = case_search(game, structure)
    tasks = search.tasks(prefix_length=2)
    store = _Checkpoint(checkpoint, game, [_Checkpoint.search_key(t) for t in tasks], len(structure.order))
    t0 = time.perf_counter()
    pending = [t for t in tasks if store.search_key(t) not in store.search]
    for k, r in enumerate(_stream(mapper, run_search_task, [(game, structure, t) for t in pending]), 1):
        store.add_search(r)
        if _eighth(k, len(pending)):
            _say(progress, f"search: {len(store.search)}/{len(tasks)} tasks done")
    survivors: dict[str, list[int]] = defaultdict(list)
    for t in tasks:
        rec = store.search[store.search_key(t)]
        stats.search_nodes += rec["nodes"]
        stats.search_pruned += rec["pruned"]
        for c in rec["survivors"]:
            survivors[c].append(t.piece_index)
    if case_filter is not None:
        survivors = defaultdict(list, {c: k for c, k in survivors.items() if case_filter(structure, c)})
        stats.raw_cases = sum(1 for c in _all_cases(search, structure) if case_filter(structure, c))
    stats.survivors = len(survivors)
    stats.seconds["search"] = time.perf_counter() - t0
    _say(progress, f"search: {raw} raw cases, {len(survivors)} survive interval pruning")
    t0 = time.perf_counter()
    units = [(game, structure, c, tuple(sorted(set(survivors[c])))) for c in sorted(survivors)]
    todo = [u for u in units if u[2] not in store.refuted]
    verdicts = []
    for v in _stream(mapper, analyse_case, todo):
        store.add_verdict(v)
        verdicts.append(v)
        if _eighth(len(verdicts), len(todo)):
            _say(progress, f"cases: {len(verdicts)}/{len(todo)} analysed")
    all_verdicts = _tally(stats, verdicts, t0)
    for case, stage in store.refuted.items():
        if case not in {v.case for v in verdicts}:
            stats.refuted_bisection += stage == "bisection"
            stats.refuted_z3 += stage == "z3"
    _say(progress, f"cases: {stats.refuted_bisection} refuted by bisection, {stats.refuted_z3} by z3, "
                   f"{stats.solved} with solutions")
    families = merge_families(game, structure, all_verdicts)
    return Atlas(game, structure, tuple(families), tuple(sorted(all_verdicts, key=lambda v: v.case)), stats)


def _tally(stats: AtlasStats, verdicts: list[CaseVerdict], t0: float) -> list[CaseVerdict]:
    """Count the refutations and the solved cases of ``verdicts`` and their CPU seconds into ``stats``; the
    solved verdicts in canonical form (pickling between processes rewrites sympy expressions, 1/2*(t + 1)
    comes back as t/2 + 1/2, so every executor must give byte-identical results)."""
    solved = [canonical_verdict(v) for v in verdicts if v.stage in SOLVED_STAGES]
    stats.refuted_bisection += sum(v.stage == "bisection" for v in verdicts)
    stats.refuted_z3 += sum(v.stage == "z3" for v in verdicts)
    stats.solved = len(solved)
    stats.seconds["cases"] = time.perf_counter() - t0
    for k, name in enumerate(("refute_cpu", "solve_cpu", "range_cpu")):
        stats.seconds[name] = sum(v.seconds[k] for v in verdicts)
    return solved


def seed_case(game: PolynomialGame, structure: Structure, value: float, profile: Mapping[str, float],
              tol: float = 1e-4) -> str:
    """The case (leader faces, responder signs) of a floating-point equilibrium at parameter ``value``.

    A leader within ``tol`` of 0 or 1 is on that face, otherwise interior; a responder's sign is that of its
    derivative beyond ``tol`` (zero within it).  Only a proposal: the case is then derived exactly.
    """
    derivatives = _float_derivatives(game)
    point = [float(profile[x]) for x in game.variables] + [float(value)]
    choices = []
    for x in structure.order:
        if x in structure.leaders:
            v = float(profile[x])
            choices.append("L" if v <= tol else "U" if v >= 1 - tol else "I")
        else:
            g = derivatives[x](*point)
            choices.append("-" if g < -tol else "+" if g > tol else "0")
    return "".join(choices)


def _float_derivatives(game: PolynomialGame) -> dict[str, Callable]:
    return _cached("float_derivatives", game, lambda: {
        x: sp.lambdify(game.generators, g.as_expr(), "math") for x, g in game.derivatives.items()})


#: Verdicts whose branches enter the families.
SOLVED_STAGES = ("solved", "fibres")


def fibre_verdict(game: PolynomialGame, structure: Structure, case: str,
                  points: Sequence[tuple[float, Mapping[str, float]]], widen: bool = False,
                  algebraic: bool = True, through_points: bool = False) -> CaseVerdict:
    """Solve ``case`` from fibres (:mod:`symgame.engine.fibres`): one component per distinct set of free
    unknowns through the numeric ``points`` (parameter value, profile) of the case
    (:func:`~symgame.engine.fibres.free_at_point`; where no proposal passes through its point, the nearest set
    with finite generic fibres, :func:`~symgame.engine.fibres.choose_free`), each proved on the case's
    equations and ranged exactly like a branch of :func:`~symgame.engine.parametric.solve_case`.

    Where the generic fibre of a free set through a point is empty, the component exists at special values of
    the parameter only: it is solved at the point's own value (rounded to the nearest fraction of denominator at
    most :data:`POINT_DENOMINATOR`; numeric points come from pots chosen as simple rationals) with the parameter
    fixed (``fibre_family(..., at=value)``), a member holding at that value alone when its conditions hold
    there exactly.

    Returns a verdict of stage ``"fibres"`` with the components found that have an exact range, or ``"open"``
    when none has; the reasons for the free sets that gave nothing (fibres of higher degree or dimension, a
    range that could not be derived) are in ``unsolved``. With ``widen``, a component whose range cannot be
    derived is kept on the intervals :func:`widen_range` proves through the points (flagged incomplete).

    A free set whose generic fibre has several points is solved as an algebraic family
    (:func:`~symgame.engine.fibres.algebraic_family`: a primitive unknown tied by its minimal polynomial, the
    others polynomials in it, proved); with ``algebraic`` it is kept with its range (exact when nothing else is
    free, else widened through the points), without it the proved formulas are only reported in ``unsolved``.

    With ``through_points``, a component with free unknowns whose family cannot be derived over the parameter
    and all of them (formulas of too high a degree to interpolate) is solved through each of its numeric points
    instead: its free unknowns fixed at the nearest fractions of denominator at most :data:`POINT_DENOMINATOR`
    to the point's values, the rest solved over the parameter alone (``fixed`` of
    :func:`~symgame.engine.fibres.fibre_family` and :func:`~symgame.engine.fibres.algebraic_family`), each a
    sub-family of the component with an exact range in the parameter (a proved inner bound of the component,
    noted in ``unsolved``).
    """
    from .fibres import choose_free, fibre_branch, free_at_point, free_from_jacobian

    t0 = time.perf_counter()
    # free set -> what its generic fibre was found to be (None: not probed, it passes through a point)
    chosen: dict[tuple[str, ...], int | str | None] = {}
    # free set -> the parameter values of the points it passes through
    values_of: dict[tuple[str, ...], list[Fraction]] = {}
    # free set -> the numeric points it passes through
    points_of: dict[tuple[str, ...], list[tuple[float, Mapping[str, float]]]] = {}
    for value, profile in points:
        free = free_at_point(game, structure, case, value, profile)
        if free is not None:
            chosen.setdefault(free, None)
            values_of.setdefault(free, []).append(Fraction(value).limit_denominator(POINT_DENOMINATOR))
            points_of.setdefault(free, []).append((value, profile))
        else:
            # no proposal passes through the point: the nearest set with finite generic fibres
            near, kind = choose_free(game, structure, case, free_from_jacobian(game, structure, case, value, profile))
            chosen.setdefault(near, kind)
    param = game.parameters[0]
    solved, unsolved = [], []
    for free in sorted(chosen, key=lambda f: (len(f), f)):
        points_in_fibre = chosen[free]
        if points_in_fibre is not None and not isinstance(points_in_fibre, int):
            unsolved.append(f"case {case}: free {', '.join(free) or 'none'}: the generic fibre is {points_in_fibre}")
            continue
        families = _component_families(game, structure, case, free, values_of.get(free, []), algebraic, unsolved,
                                       points_of.get(free, []) if through_points else [])
        for family in families:
            branch = fibre_branch(game, structure, family)
            # an algebraic family's range is not derived as a whole (its primitive unknown and a free one enter
            # non-linearly): only widened through sub-branches
            r = branch_range(branch, param) if family.primitive is None or not family.free else \
                BranchRange((), False, 0)
            where = "" if family.point is None else f" at {param.name} = {family.point}"
            if family.fixed:
                where += " with " + ", ".join(f"{x} = {v}" for x, v in family.fixed)
            if not r.complete and widen:
                r = widen_range(branch, r, param, points)
            if not r.complete and (not r.intervals or not widen):
                # without widening, a family is only kept with an exact range
                unsolved.append(f"case {case}: free {', '.join(free)}{where}: formulas proved, range not derived "
                                "(two free frequencies or more enter the conditions non-linearly)")
            elif r.intervals:
                if not r.complete:
                    unsolved.append(f"case {case}: free {', '.join(free)}{where}: range not derived (two free "
                                    "frequencies or more enter the conditions non-linearly); kept on the intervals "
                                    "proved through sub-families at its numeric points")
                if family.fixed:
                    unsolved.append(f"case {case}: free {', '.join(free)}{where}: kept as a sub-family through a "
                                    f"numeric point ({family.primitive or 'every frequency'} over {param.name} "
                                    "alone; a proved part of the component, not all of it)")
                solved.append(SolvedBranch(branch, r))
                if r.undecided_cells:
                    unsolved.append(f"case {case}: free {', '.join(free)}: {r.undecided_cells} cell(s) of the "
                                    "range undecided (left out of its intervals)")
            elif family.point is not None or family.fixed:
                unsolved.append(f"case {case}: free {', '.join(free) or 'none'}{where}: the conditions do not hold "
                                "there" + (" (undecided)" if r.undecided_cells else ""))
    t1 = time.perf_counter()
    return CaseVerdict(case, "fibres" if solved else "open", tuple(solved), tuple(unsolved), (0.0, t1 - t0, 0.0))


def _component_families(game: PolynomialGame, structure: Structure, case: str, free: tuple[str, ...],
                        values: Sequence[Fraction], algebraic: bool, unsolved: list[str],
                        through: Sequence[tuple[float, Mapping[str, float]]] = ()) -> list:
    """The proved families of the component of ``case`` with ``free`` free: rational over the parameter, else
    algebraic (kept only with ``algebraic``, else reported; where it cannot be derived, its sub-families
    through the numeric points ``through``, :func:`_through_points`), else at the ``values`` of its points when
    its generic fibre is empty. What gives nothing is appended to ``unsolved``."""
    from .fibres import algebraic_family, fibre_family, fibre_points
    from .parametric import UnsolvedCase

    try:
        return [fibre_family(game, structure, case, free)]
    except UnsolvedCase as exc:
        failure = str(exc)
    named = f"case {case}: free {', '.join(free) or 'none'}"
    degree = fibre_points(game, structure, case, free)
    if isinstance(degree, int) and degree > 1:
        try:
            found = algebraic_family(game, structure, case, free)
        except UnsolvedCase as exc_alg:
            reason = str(exc_alg).removeprefix(f"case {case}: ")
            unsolved.append(f"{named}: the generic fibre has {degree} points; as an algebraic family: {reason}")
            return _through_points(game, structure, case, free, through, unsolved) if algebraic else []
        if algebraic:
            return [found]
        unsolved.append(f"{named}: the generic fibre has {degree} points; proved as an algebraic family "
                        f"({found.primitive} a root of a polynomial of degree {degree} in it, the other frequencies "
                        "polynomials in it; coefficients rational functions of total degree up to "
                        f"{max(found.degrees.values(), default=0)}), not ranged")
        return []
    if not values or degree != "empty":
        unsolved.append(failure)
        return []
    # through a point, yet empty at generic values: solved at the points' own values
    out = []
    for at in sorted(set(values)):
        try:
            out.append(fibre_family(game, structure, case, free, at=at))
        except UnsolvedCase as exc_at:
            unsolved.append(f"{exc_at} (at {game.parameter_names[0]} = {at})")
    return out


def _through_points(game: PolynomialGame, structure: Structure, case: str, free: tuple[str, ...],
                    through: Sequence[tuple[float, Mapping[str, float]]], unsolved: list[str]) -> list:
    """Sub-families of an algebraic component through numeric points: at each point, ``free`` fixed at the
    nearest fractions of denominator at most :data:`POINT_DENOMINATOR` to its values, the rest solved over the
    parameter alone as an algebraic family. What gives nothing is appended to ``unsolved``."""
    from .fibres import algebraic_family
    from .parametric import UnsolvedCase

    out = []
    seen: set = set()
    for value, profile in through:
        fixed = {z: Fraction(float(profile[z])).limit_denominator(POINT_DENOMINATOR) for z in free}
        key = tuple(sorted(fixed.items()))
        if key in seen:
            continue
        seen.add(key)
        try:
            out.append(algebraic_family(game, structure, case, (), fixed=fixed))
        except UnsolvedCase as exc:
            where = ", ".join(f"{z} = {v}" for z, v in key)
            unsolved.append(f"{exc} (through the point at {game.parameter_names[0]} = "
                            f"{Fraction(value).limit_denominator(POINT_DENOMINATOR)}, with {where})")
    return out


#: Largest denominators of the rounded free values of a numeric point in :func:`widen_range`, tried in turn.
WIDEN_DENOMINATORS = (10, 100, 1000)


def widen_range(branch: CaseBranch, found: BranchRange, param,
                points: Sequence[tuple[float, Mapping[str, float]]]) -> BranchRange:
    """An incomplete range widened by the sub-branches through numeric points of the case.

    Where a branch's range cannot be derived (free variables enter its conditions non-linearly), each numeric
    point whose parameter value the range does not hold yet seeds a sub-branch: the variables of
    :func:`~symgame.engine.ranges.sub_branch_fixing` are fixed at the point's values (rounded to fractions of
    denominators at most those of :data:`WIDEN_DENOMINATORS` in turn), every condition is then linear in the others and the
    sub-branch's range is exact (:func:`~symgame.engine.ranges.inner_range`). Every profile of a sub-branch is a
    profile of the branch, so the union is proved, but only an inner bound: the result stays flagged incomplete.
    (A point of another branch of the case usually gives an empty sub-branch; whatever a sub-branch gives is
    proved all the same.) Deterministic: no witness search, the points are the seeds.

    Parameters
    ----------
    branch : CaseBranch
        The branch.
    found : BranchRange
        Its range as derived (returned unchanged when complete).
    param : Parameter
        The parameter.
    points : sequence of (float, mapping)
        Numeric points (parameter value, profile) of the branch's case.

    Returns
    -------
    BranchRange

    Examples
    --------
    ``a^2 b^2 > p`` with ``a, b`` in [0, 1]: both enter non-linearly, so the range is not derived; a numeric
    point at ``p = 1/2`` with ``a = 0.9`` fixes ``a = 9/10``, and ``81 b^2 / 100 > p`` has the exact range
    ``p < 81/100``:

    >>> import sympy as sp
    >>> from symgame.model.parameters import parse_domain
    >>> a, b, p = (sp.Symbol(n, real=True) for n in "abp")
    >>> branch = CaseBranch("I", None, (("a", a), ("b", b)), ("a", "b"),
    ...                     ((a**2 * b**2 - p, ">"), (a, ">="), (1 - a, ">="), (b, ">="), (1 - b, ">=")))
    >>> found = widen_range(branch, BranchRange((), False, 0), parse_domain("p", "[0, 2]"),
    ...                     [(0.5, {"a": 0.9, "b": 0.95})])
    >>> [iv.text("p") for iv in found.intervals], found.complete
    (['0 <= p < 81/100'], False)
    """
    from .ranges import _union, inner_range, sub_branch_fixing

    if found.complete:
        return found
    # a free variable tied by an equation (the primitive unknown of an algebraic family) is never fixed: the
    # sub-branch keeps it as its one free variable, whose range is exact by the equational projection
    fixing = sub_branch_fixing(branch)
    intervals = list(found.intervals)
    for value, profile in points:
        v = Fraction(value).limit_denominator(POINT_DENOMINATOR)
        if any(iv.contains(v) for iv in intervals) or any(z not in profile for z in fixing):
            continue
        for denominator in WIDEN_DENOMINATORS:       # the simplest values first: simpler ends of the intervals
            chosen = {z: sp.Rational(Fraction(float(profile[z])).limit_denominator(denominator)) for z in fixing}
            inner = inner_range(branch, param, [v], lambda _: chosen, fixing=fixing).intervals
            if inner:
                intervals += inner
                break
    if len(intervals) == len(found.intervals):
        return found
    return BranchRange(tuple(_union(intervals)), False, found.undecided_cells)


#: Largest denominator of the parameter value a fibre at a special value is solved at (the numeric points'
#: values are floats of simple rational pots).
POINT_DENOMINATOR = 1000


def atlas_from_cases(game: PolynomialGame, cases: Iterable[str], case_seconds: float | None = None,
                     progress: bool = False, open_cases: Iterable[str] = (),
                     limit_is_error: bool = False,
                     fibre_points: Mapping[str, Sequence[tuple[float, Mapping[str, float]]]] | None = None,
                     widen: bool = False, algebraic: bool = True) -> Atlas:
    """The families of the given cases, each refuted or solved exactly with its ranges (not complete).

    Each case is treated as in :func:`build_atlas`, on every piece of the parameter domain, so a family is
    valid wherever its range says, also far from where its case was proposed.  With ``case_seconds`` each
    case runs in its own process and one that takes longer is reported with the stage ``"timeout"`` (its
    case stays open; the atlas says so), or, with ``limit_is_error``, stops the run with a
    :class:`~symgame.errors.TimeLimitError` (so that no record depends on the machine's speed). Cases in
    ``open_cases`` (declared beyond reach of the lex Gröbner basis) are not attempted that way: stage
    ``"open"``, or, when ``fibre_points`` gives numeric points of the case, solved from fibres through those
    points (:func:`fibre_verdict`, stage ``"fibres"``). A case solved and found empty that has numeric points
    in ``fibre_points`` is solved from fibres through them too (the lex basis over Q(P) does not split off
    components that exist at special values of the parameter only; a refutation by z3 or bisection is a proof
    and is kept). With ``widen``, every branch whose range cannot be derived is widened through the case's
    points in ``fibre_points`` (:func:`widen_range`); ``algebraic`` is passed to :func:`fibre_verdict`. The atlas
    is marked ``complete=False``.
    """
    from ..errors import TimeLimitError

    structure = detect_structure(game)
    stats = AtlasStats(raw_cases=total_cases(structure))
    pieces = tuple(range(len(parameter_pieces(game))))
    cases = sorted(set(cases))
    declared = set(open_cases)
    stats.survivors = len(cases)
    t0 = time.perf_counter()
    verdicts = []
    for k, case in enumerate(cases):
        if case in declared and fibre_points and fibre_points.get(case):
            verdicts.append(fibre_verdict(game, structure, case, fibre_points[case], widen, algebraic))
        elif case in declared:
            verdicts.append(CaseVerdict(case, "open"))
        elif case_seconds is None:
            verdicts.append(analyse_case(game, structure, case, pieces))
        else:
            verdicts.append(_analyse_with_limit(game, structure, case, pieces, case_seconds))
            if limit_is_error and verdicts[-1].stage == "timeout":
                raise TimeLimitError(f"case {case} was not solved within {case_seconds:g} s: declare it open "
                                     "or raise the limit")
        if verdicts[-1].stage == "empty" and fibre_points and fibre_points.get(case):
            # solved and empty, yet numeric equilibria lie in the case: the lex basis over Q(P) misses
            # components that exist at special values of the parameter only; solved from fibres through them
            found = fibre_verdict(game, structure, case, fibre_points[case], widen, algebraic)
            if found.branches:
                verdicts[-1] = found
        elif widen and fibre_points and fibre_points.get(case) and verdicts[-1].stage == "solved":
            v = verdicts[-1]
            param = game.parameters[0]
            verdicts[-1] = CaseVerdict(v.case, v.stage, tuple(
                SolvedBranch(b.branch, widen_range(b.branch, b.range, param, fibre_points[case]))
                for b in v.branches), v.unsolved, v.seconds)
        _say(progress, f"cases: {k + 1}/{len(cases)} analysed ({verdicts[-1].stage})")
    solved = _tally(stats, verdicts, t0)
    families = merge_families(game, structure, solved)
    others = [CaseVerdict(v.case, v.stage, unsolved=v.unsolved) for v in verdicts if v.stage not in SOLVED_STAGES]
    return Atlas(game, structure, tuple(families), tuple(sorted(solved + others, key=lambda v: v.case)), stats,
                 complete=False)


def _analyse_with_limit(game: PolynomialGame, structure: Structure, case: str, pieces: tuple[int, ...],
                        seconds: float) -> CaseVerdict:
    """:func:`analyse_case` in its own process, stopped after ``seconds`` (stage ``"timeout"``); a process that
    dies without a result (a native crash) is run again twice, then reported with stage ``"crashed"``."""
    from ..model.isolated import run_isolated

    outcome = next(run_isolated(lambda item: analyse_case(*item), [(game, structure, case, pieces)], workers=1,
                                timeout=seconds))
    if outcome.ok:
        return outcome.value
    if outcome.error is not None and outcome.error.startswith("timed out"):
        return CaseVerdict(case, "timeout", seconds=(seconds, 0.0, 0.0))
    if outcome.crashed:
        return CaseVerdict(case, "crashed", seconds=(outcome.seconds, 0.0, 0.0))
    raise RuntimeError(f"case {case}: {outcome.error}")


def canonical_expr(expr: sp.Expr) -> sp.Expr:
    """One printed form per rational function (square roots: rationalised denominators)."""
    expr = sp.sympify(expr)
    if expr.is_number and expr.is_Rational or expr.is_Symbol:
        return expr
    if expr.has(sp.Pow) and any(a.exp.is_Rational and not a.exp.is_Integer for a in expr.atoms(sp.Pow)):
        return sp.radsimp(sp.together(expr))
    return sp.factor(sp.cancel(expr))


def canonical_verdict(verdict: CaseVerdict) -> CaseVerdict:
    branches = []
    for sb in verdict.branches:
        b = sb.branch
        branch = CaseBranch(b.case, b.point, tuple((x, canonical_expr(e)) for x, e in b.values), b.free,
                            tuple((canonical_expr(e), rel) for e, rel in b.conditions))
        branches.append(SolvedBranch(branch, sb.range))
    return CaseVerdict(verdict.case, verdict.stage, tuple(branches), verdict.unsolved)


def merge_families(game: PolynomialGame, structure: Structure, verdicts: Iterable[CaseVerdict]) -> list[Family]:
    """Group branches by their leader formulas (and point, for special values)."""
    groups: dict[tuple, list[SolvedBranch]] = defaultdict(list)
    for v in verdicts:
        for sb in v.branches:
            if not sb.range.intervals:
                continue
            values = sb.branch.value_map
            key = (str(sb.branch.point), tuple(sp.srepr(sp.simplify(values[x])) for x in structure.leaders))
            groups[key].append(sb)
    families = []
    for key, members in groups.items():
        first = members[0].branch
        leaders = tuple((x, first.value_map[x]) for x in structure.leaders)
        families.append((members, leaders, first.point))
    families.sort(key=lambda f: (min(float(iv.lower) for m in f[0] for iv in m.range.intervals),
                                 f[1].__repr__()))
    return [Family(f"F{k + 1}", leaders, point, tuple(sorted(members, key=lambda m: m.branch.case)))
            for k, (members, leaders, point) in enumerate(families)]


def _all_cases(search: CaseSearch, structure: Structure) -> Iterable[str]:
    return ("".join(c) for c in itertools.product(*(search.choices(x) for x in structure.order)))


def _chunks(items: list, parts: int = 8) -> list[list]:
    size = max(1, -(-len(items) // parts))
    return [items[k:k + size] for k in range(0, len(items), size)]


def _stream(mapper: Mapper, fn: Callable, items: list) -> Iterator:
    """``fn`` over ``items``, in order, each result as soon as it and those before it are done: in one pass on a
    mapper that streams (an ``imap`` method, as :class:`ProcessMapper` has; one barrier instead of eight cost
    Billingham's atlas 2.5 s of 10), else chunk by chunk, so that finished work reaches the checkpoint."""
    imap = getattr(mapper, "imap", None)
    if imap is not None:
        yield from imap(fn, items)
        return
    for chunk in _chunks(items):
        yield from mapper(fn, chunk)


def _eighth(done: int, total: int) -> bool:
    """Whether ``done`` of ``total`` is a moment to report progress (about every eighth, and the end)."""
    return done == total or done % max(1, -(-total // 8)) == 0


def _say(progress: bool, text: str) -> None:
    if progress:
        print(text, file=sys.stderr, flush=True)


#: Version of the atlas checkpoint format and of the meaning of its records.
CHECKPOINT_VERSION = 2


def game_key(game: PolynomialGame) -> str:
    """SHA-256 of the game's mathematical content (parameters with their domains, players, variables, payoffs).

    Two games with the same variable names but other payoffs or domains get different keys.
    """
    import hashlib

    content = {
        "parameters": [[p.name, str(p.lower), str(p.upper), repr(p)] for p in game.parameters],
        "players": [[pl.name, list(pl.variables), sp.srepr(sp.expand(pl.payoff))] for pl in game.players],
        "fixed": [[name, sp.srepr(sp.expand(value))] for name, value in game.fixed],
    }
    return hashlib.sha256(json.dumps(content, sort_keys=True).encode()).hexdigest()


class _Checkpoint:
    """Append-only JSON-lines record of finished search tasks and refuted cases, keyed to its game.

    The first line is a header ``{"kind": "header", "game": <game_key>, "version": ..., "budget": ...}``; a
    checkpoint of another game or version is refused. Every record is checked on load (its kind, the
    task it belongs to, cases of the right length over ``LUI``, counts); a malformed line is refused in
    one line naming the file and the line, except a torn last line without its newline (an interrupted
    append), which is dropped.
    """

    STAGES = ("bisection", "z3", "empty")

    def __init__(self, path: Path | None, game: PolynomialGame | None = None, tasks: Iterable[str] = (),
                 case_length: int = 0):
        self.path = path
        self.search: dict[str, dict] = {}
        self.refuted: dict[str, str] = {}
        self._started = False                   # the file holds this game's header
        self.header: dict[str, object] = {"kind": "header", "game": game_key(game) if game is not None else "",
                       "version": CHECKPOINT_VERSION}
        if path is None:
            return
        import os

        from ..errors import StoreError
        from ..model.store import read_limited

        if not os.path.lexists(path):
            return
        if os.path.islink(path):
            raise StoreError(f"{path}: is a symbolic link; symgame does not write through links")
        raw = read_limited(path).decode("utf-8", errors="replace")
        lines = raw.split("\n")
        torn = lines.pop()                      # "" when the file ends with a newline
        del torn                                # an unterminated last line is an interrupted append: dropped
        known = set(tasks)

        def bad(number: int, why: str) -> StoreError:
            return StoreError(f"{path}: line {number}: {why}; remove the file to start again")

        for number, line in enumerate(lines, start=1):
            try:
                rec = json.loads(line)
            except ValueError:
                raise bad(number, "not a JSON record") from None
            if not isinstance(rec, dict):
                raise bad(number, "not a JSON object")
            if number == 1:
                if rec.get("kind") != "header":
                    raise bad(1, "no header (a checkpoint of an older symgame, or not a checkpoint)")
                if rec != self.header:
                    raise StoreError(f"{path}: checkpoint of another game or version "
                                     f"(game key {str(rec.get('game'))[:12]}…, version {rec.get('version')}), "
                                     f"not of this one ({str(self.header['game'])[:12]}…); use another file")
                continue
            kind = rec.get("kind")
            if kind == "search":
                if set(rec) != {"kind", "key", "survivors", "nodes", "pruned"} or rec["key"] not in known \
                        or not _counts(rec["nodes"], rec["pruned"]) or not _cases(rec["survivors"], case_length):
                    raise bad(number, "not a search record of this game's tasks")
                self.search[rec["key"]] = rec
            elif kind == "refuted":
                if set(rec) != {"kind", "case", "stage"} or rec["stage"] not in self.STAGES \
                        or not _cases([rec["case"]], case_length):
                    raise bad(number, "not a refuted-case record of this game")
                self.refuted[rec["case"]] = rec["stage"]
            else:
                raise bad(number, f"unknown record kind {kind!r}")
        self._started = bool(lines)

    @staticmethod
    def search_key(task: SearchTask) -> str:
        return f"{task.piece_index}:{task.prefix}"

    def _append(self, rec: dict) -> None:
        if self.path is None:
            return
        import os

        from ..errors import StoreError

        if os.path.islink(self.path):
            raise StoreError(f"{self.path}: is a symbolic link; symgame does not write through links")
        try:
            with self.path.open("a" if self._started and os.path.lexists(self.path) else "w") as fh:
                if fh.mode == "w":
                    fh.write(json.dumps(self.header, sort_keys=True) + "\n")
                    self._started = True
                fh.write(json.dumps(rec, sort_keys=True) + "\n")
                fh.flush()
                os.fsync(fh.fileno())
        except OSError as exc:
            raise StoreError(f"{self.path}: cannot write the checkpoint ({exc.strerror or exc})") from None

    def add_search(self, result) -> None:
        rec = {"kind": "search", "key": self.search_key(result.task), "survivors": list(result.survivors),
               "nodes": result.nodes, "pruned": result.pruned}
        self.search[rec["key"]] = rec
        self._append(rec)

    def add_verdict(self, verdict: CaseVerdict) -> None:
        if verdict.stage in self.STAGES:
            self.refuted[verdict.case] = verdict.stage
            self._append({"kind": "refuted", "case": verdict.case, "stage": verdict.stage})


def _counts(*values: object) -> bool:
    return all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in values)


def _cases(cases: object, length: int) -> bool:
    return isinstance(cases, list) and all(
        isinstance(c, str) and (length == 0 or len(c) == length) and set(c) <= set("LUI-+0") for c in cases)
