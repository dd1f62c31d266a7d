"""Enumerating best-response sub-cases of a polynomial game, with pruning.

Billingham ("Full street simplified three player Kuhn poker", arXiv:1707.01392,
2017, section 3) lists for every frequency ``x``
of player ``i`` three sub-conditions on ``g_x = ∂E_i/∂x``: ``g_x > 0`` and
``x = 1``; ``g_x < 0`` and ``x = 0``; ``g_x = 0``.  This module enumerates
those combinations for any :class:`~symgame.model.polygame.PolynomialGame`
without hand pruning:

* **Structure.**  Variables are split automatically into *leaders* and
  *responders*: a responder's derivative does not depend on any responder,
  and no derivative multiplies two responders.  (In Billingham's game the
  responders are the six calling frequencies ``c_i, d_i``.)  A leader is
  split by *face* (``x = 0`` with ``g_x ≤ 0``, ``x = 1`` with ``g_x ≥ 0``,
  ``0 < x < 1`` with ``g_x = 0``); a responder by the *sign* of its
  derivative (``< 0``: ``x = 0``; ``> 0``: ``x = 1``; ``= 0``: ``x`` free in
  ``[0, 1]``).  Both splits partition the strategy box, so every
  equilibrium lies in exactly one case, and the free responders of a case
  form a polytope once the leaders are known.
* **Pruning.**  A depth-first search fixes one variable at a time and cuts a
  branch as soon as one of its sign conditions is impossible on a box in
  which undecided variables range over ``[0, 1]`` and the parameter over a
  piece of its domain.  Bounds come from interval arithmetic on the
  monomials, rounded outward, so a cut is always sound; a case survives
  when it survives on at least one piece.  An unbounded parameter domain
  ends with a tail piece handled in ``Q = 1/P`` (polynomials are
  homogenised), so no box contains infinity.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any, Callable, Iterable, Mapping, Sequence

import numpy as np
import sympy as sp

from ..model.polygame import PolynomialGame

LEADER_FACES = ("L", "U", "I")       # x = 0 (g <= 0), x = 1 (g >= 0), 0 < x < 1 (g = 0)
RESPONDER_SIGNS = ("-", "+", "0")    # g < 0 (x = 0), g > 0 (x = 1), g = 0 (x free in [0, 1])
MAX_STRUCTURE_SEARCH = 16
_ROUND = 1e-9
CONTRACTION_ROUNDS = 4
CONTRACTION_GAIN = 1e-3
#: boxes of bisection per single choice or pair tried by :meth:`CaseSearch.learn_nogoods`
NOGOOD_BOXES = 64
#: choice letters in the order of the compiled kernel's codes
CHOICE_CODES = "LUI-+0"


@dataclass(frozen=True)
class Structure:
    """Leaders and responders of a polynomial game (see module docstring)."""

    leaders: tuple[str, ...]
    responders: tuple[str, ...]

    @property
    def order(self) -> tuple[str, ...]:
        """The order in which the search fixes variables: leaders first."""
        return self.leaders + self.responders


def detect_structure(game: PolynomialGame) -> Structure:
    """The largest set of responders (ties broken by variable order).

    A set ``R`` qualifies when no ``g_r`` (``r`` in ``R``) depends on a
    member of ``R`` and no monomial of any derivative contains two members
    of ``R``; then each ``g_x`` is affine in the responders.
    """
    names = game.variables
    gens = game.generators
    depends = {x: {str(gens[i]) for mon in g.monoms() for i, e in enumerate(mon) if e}
               for x, g in game.derivatives.items()}
    together: set[tuple[str, str]] = set()
    for g in game.derivatives.values():
        for mon in g.monoms():
            used = [str(gens[i]) for i, e in enumerate(mon) if e and str(gens[i]) in names]
            if any(mon[gens.index(sp.Symbol(u, real=True))] > 1 for u in used):
                together.update((u, u) for u in used if mon[gens.index(sp.Symbol(u, real=True))] > 1)
            together.update(itertools.combinations(sorted(used), 2))

    def valid(subset: Sequence[str]) -> bool:
        chosen = set(subset)
        if any(depends[r] & chosen for r in subset):
            return False
        return not any((u, v) in together for u in subset for v in subset if u <= v)

    if len(names) > MAX_STRUCTURE_SEARCH:
        chosen: list[str] = []
        for x in names:
            if valid(chosen + [x]):
                chosen.append(x)
        return _structure(names, chosen)
    for size in range(len(names), -1, -1):
        for subset in itertools.combinations(names, size):
            if valid(subset):
                return _structure(names, list(subset))
    return _structure(names, [])  # pragma: no cover - the empty set is always valid


def _structure(names: Sequence[str], responders: Sequence[str]) -> Structure:
    chosen = set(responders)
    return Structure(tuple(x for x in names if x not in chosen), tuple(x for x in names if x in chosen))


# --------------------------------------------------------------------------- boxes

@dataclass(frozen=True)
class ParameterPiece:
    """A closed piece ``[lower, upper]`` of the parameter's domain.

    ``tail`` pieces stand for ``[lower, ∞)`` and are searched in ``Q = 1/P``
    over ``[0, 1/lower]``.
    """

    lower: Fraction
    upper: Fraction | None
    tail: bool = False

    @property
    def label(self) -> str:
        return f"[{self.lower}, oo)" if self.tail else f"[{self.lower}, {self.upper}]"


def parameter_pieces(game: PolynomialGame, pieces: int = 8) -> list[ParameterPiece]:
    """Split the (single) parameter's domain into search pieces."""
    if len(game.parameters) != 1:
        raise ValueError("the case-splitting engine needs exactly one parameter, "
                         f"got {len(game.parameters)}")
    param = game.parameters[0]
    lo = Fraction(str(param.lower)) if param.lower.is_finite else None
    hi = Fraction(str(param.upper)) if param.upper.is_finite else None
    if lo is None:
        raise ValueError(f"parameter {param.name} needs a finite lower bound for the case search")
    if hi is None:
        edges = [lo + k for k in range(pieces + 1)]
        out = [ParameterPiece(a, b) for a, b in zip(edges, edges[1:])]
        return out + [ParameterPiece(edges[-1], None, tail=True)]
    edges = [lo + (hi - lo) * Fraction(k, pieces) for k in range(pieces + 1)]
    return [ParameterPiece(a, b) for a, b in zip(edges, edges[1:])]


# --------------------------------------------------------------------------- interval polynomials

@dataclass(frozen=True)
class IntervalPoly:
    """A polynomial as ``(coefficient, ((index, exponent), ...))`` terms over box slots."""

    terms: tuple[tuple[float, tuple[tuple[int, int], ...]], ...]

    @cached_property
    def flat(self) -> tuple[tuple[float, tuple[int, ...]], ...]:
        """Terms as ``(coefficient, slots repeated by exponent)``."""
        return tuple((coef, tuple(i for i, e in factors for _ in range(e))) for coef, factors in self.terms)

    def bounds(self, lo: Sequence[float], hi: Sequence[float]) -> tuple[float, float]:
        """Outward-rounded enclosure of the range over the box ``[lo, hi]``."""
        if min(lo) >= 0.0:
            return self._bounds_nonnegative(lo, hi)
        low = high = 0.0
        scale = 0.0
        for coef, factors in self.terms:
            a = b = coef
            for i, e in factors:
                p, q = _power_bounds(lo[i], hi[i], e)
                cands = (a * p, a * q, b * p, b * q)
                a, b = min(cands), max(cands)
            low += a
            high += b
            scale += abs(a) + abs(b)
        pad = _ROUND * (1.0 + scale)
        return low - pad, high + pad


    def _bounds_nonnegative(self, lo: Sequence[float], hi: Sequence[float]) -> tuple[float, float]:
        """:meth:`bounds` on a box in the nonnegative orthant: monomials are monotone."""
        low = high = scale = 0.0
        for coef, slots in self.flat:
            a = b = 1.0
            for i in slots:
                a *= lo[i]
                b *= hi[i]
            if coef >= 0.0:
                low += coef * a
                high += coef * b
                scale += coef * (a + b)
            else:
                low += coef * b
                high += coef * a
                scale -= coef * (a + b)
        pad = _ROUND * (1.0 + scale)
        return low - pad, high + pad


def _power_bounds(lo: float, hi: float, e: int) -> tuple[float, float]:
    if e == 1:
        return lo, hi
    a, b = lo ** e, hi ** e
    if e % 2 == 0 and lo < 0 < hi:
        return 0.0, max(a, b)
    return min(a, b), max(a, b)


def homogenise_tail(poly: sp.Poly) -> sp.Poly:
    """``Q**d * poly(P = 1/Q)`` with ``Q`` in the parameter slot (the last generator).

    ``d`` is the degree in ``P``; the result has the sign of ``poly`` for
    ``Q = 1/P > 0``.
    """
    nvars = len(poly.gens) - 1
    degree = max((m[nvars] for m in poly.monoms()), default=0)
    terms = {mon[:nvars] + (degree - mon[nvars],): coef for mon, coef in poly.terms()}
    return sp.Poly.from_dict(terms, *poly.gens, domain="QQ")


def interval_poly(poly: sp.Poly) -> IntervalPoly:
    """Compile ``poly`` for interval evaluation over box slots (one per generator)."""
    terms = []
    for mon, coef in poly.terms():
        factors = tuple((i, e) for i, e in enumerate(mon) if e)
        terms.append((float(Fraction(int(coef.numerator), int(coef.denominator))), factors))
    return IntervalPoly(tuple(terms))


def _with_generators(poly: sp.Poly, gens: Sequence[sp.Symbol]) -> sp.Poly:
    """``poly`` as a polynomial over QQ in ``gens`` (reordered when they are its generators)."""
    if len(gens) == len(poly.gens) and set(gens) == set(poly.gens):
        return poly.reorder(*gens).set_domain("QQ")
    return sp.Poly(poly.as_expr(), *gens, domain="QQ")


def _linear_parts(poly: sp.Poly) -> list[tuple[int, IntervalPoly, IntervalPoly]]:
    """For each slot ``u`` in which ``poly`` has degree 1: ``poly = A*u + B``."""
    out = []
    terms = poly.as_dict()
    for slot, gen in enumerate(poly.gens):
        if poly.degree(gen) != 1:
            continue
        # A = the terms with u (u removed), B = the terms without u: read off the monomials (forming
        # poly.diff(u) and poly(u = 0) through expressions took most of a large game's set-up)
        a = {mon[:slot] + (0,) + mon[slot + 1:]: c for mon, c in terms.items() if mon[slot] == 1}
        b = {mon: c for mon, c in terms.items() if mon[slot] == 0}
        out.append((slot, interval_poly(sp.Poly.from_dict(a, *poly.gens, domain="QQ")),
                    interval_poly(sp.Poly.from_dict(b, *poly.gens, domain="QQ"))))
    return out


def _contract(choice: str, a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float] | None:
    """Bounds on ``u`` implied by the sign condition on ``A*u + B`` (HC4-style revise).

    Returns ``None`` when nothing can be implied (the coefficient interval
    contains zero).
    """
    a_lo, a_hi = a
    if a_lo <= 0.0 <= a_hi:
        return None
    quotients = [-b_val / a_val for a_val in (a_lo, a_hi) for b_val in b]
    q_lo, q_hi = min(quotients), max(quotients)
    pad = _ROUND * (1.0 + abs(q_lo) + abs(q_hi))
    q_lo, q_hi = q_lo - pad, q_hi + pad
    positive = a_lo > 0.0
    if choice in ("I", "0"):
        return q_lo, q_hi
    if choice in ("U", "+"):        # A*u + B >= 0
        return (q_lo, math.inf) if positive else (-math.inf, q_hi)
    return (-math.inf, q_hi) if positive else (q_lo, math.inf)   # "L", "-": A*u + B <= 0


# --------------------------------------------------------------------------- the search

@dataclass(frozen=True)
class SearchTask:
    """One unit of work: a parameter piece and a prefix of fixed choices."""

    piece_index: int
    prefix: str


@dataclass(frozen=True)
class Nogoods:
    """Sets of choices that no point of a piece satisfies together, each proved by bisection
    (:meth:`CaseSearch.learn_nogoods`, :meth:`CaseSearch.learn_from_case`).

    Attributes
    ----------
    piece_index : int
    cuts : tuple of tuples of (variable, choice)
        Each a nogood, its choices in the search order.
    """

    piece_index: int
    cuts: tuple[tuple[tuple[str, str], ...], ...] = ()

    def __len__(self) -> int:
        return len(self.cuts)

    @cached_property
    def by_last(self) -> dict[tuple[str, str], tuple[tuple[tuple[str, str], ...], ...]]:
        """The nogoods by their last choice in the search order (the rest of each)."""
        out: dict[tuple[str, str], list[tuple[tuple[str, str], ...]]] = {}
        for cut in self.cuts:
            out.setdefault(cut[-1], []).append(cut[:-1])
        return {k: tuple(v) for k, v in out.items()}


@dataclass(frozen=True)
class TreeEstimate:
    """Knuth's estimate of a search tree (:meth:`CaseSearch.estimate`).

    Attributes
    ----------
    nodes : float
        Estimated surviving nodes (the root included).
    cases : float
        Estimated surviving cases (leaves at full depth).
    tried : int
        Children the probes tried (each one propagation).
    probes : int
    """

    nodes: float
    cases: float
    tried: int
    probes: int


@dataclass(frozen=True)
class SearchResult:
    """Surviving cases of one task and how many nodes were visited and cut."""

    task: SearchTask
    survivors: tuple[str, ...]
    nodes: int
    pruned: int


class CaseSearch:
    """Depth-first enumeration of the sub-cases of one polynomial game.

    A case is a string with one character per variable in
    :attr:`Structure.order`: a face (``L``, ``U``, ``I``) for a leader, a
    sign (``-``, ``+``, ``0``) for a responder.
    """

    #: the compiled search when Numba imports (same survivors, nodes and cuts); False forces the Python one
    use_compiled = True

    def __init__(self, game: PolynomialGame, structure: Structure, pieces: Sequence[ParameterPiece]):
        self.game = game
        self.structure = structure
        self.pieces = list(pieces)
        order = structure.order
        self.slot = {x: k for k, x in enumerate(order)}
        #: learned nogoods per piece index (:meth:`learn_nogoods`); none by default
        self.nogoods: dict[int, Nogoods] = {}
        self._tables: dict[int, tuple] = {}
        gens = [game.symbol(x) for x in order] + [game.symbol(game.parameter_names[0])]
        self.polys = {x: _with_generators(game.derivatives[x], gens) for x in order}
        self.compiled = []
        self.linear_parts = []
        for piece in self.pieces:
            polys = {x: homogenise_tail(self.polys[x]) if piece.tail else self.polys[x] for x in order}
            self.compiled.append({x: interval_poly(polys[x]) for x in order})
            self.linear_parts.append({x: _linear_parts(polys[x]) for x in order})

    @cached_property
    def _kernel(self) -> Any:
        """The compiled search (:mod:`symgame.engine._search_kernel`) and its arrays per piece, or ``None``
        without Numba. Built in the process that searches (not pickled with the search)."""
        from ..errors import optional_module

        kernel = optional_module("symgame.engine._search_kernel")
        if kernel is None:
            return None
        data = []
        for piece in range(len(self.pieces)):
            polys: list[IntervalPoly] = []
            conditions, linear = [], []
            for x in self.structure.order:
                conditions.append(len(polys))
                polys.append(self.compiled[piece][x])
                parts = []
                for slot, a, b in self.linear_parts[piece][x]:
                    parts.append((slot, len(polys), len(polys) + 1))
                    polys += [a, b]
                linear.append(parts)
            data.append(kernel.flatten(polys, conditions, linear))
        return kernel, data

    @property
    def compiled_search(self) -> bool:
        """Whether :meth:`run` and :meth:`refute` run compiled (Numba imports and :attr:`use_compiled`)."""
        return bool(self.use_compiled and self._kernel is not None)

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state.pop("_kernel", None)
        return state

    def choices(self, variable: str) -> tuple[str, ...]:
        return LEADER_FACES if variable in self.structure.leaders else RESPONDER_SIGNS

    def tasks(self, prefix_length: int = 2) -> list[SearchTask]:
        """Split the search into tasks: every piece × every prefix of choices."""
        order = self.structure.order[:prefix_length]
        prefixes = ["".join(c) for c in itertools.product(*(self.choices(x) for x in order))]
        return [SearchTask(k, p) for k in range(len(self.pieces)) for p in prefixes]

    def box(self, piece: ParameterPiece) -> tuple[list[float], list[float]]:
        n = len(self.structure.order)
        if piece.tail:
            plo, phi = 0.0, 1.0 / float(piece.lower)
        else:
            assert piece.upper is not None
            plo, phi = float(piece.lower), float(piece.upper)
        return [0.0] * n + [plo], [1.0] * n + [phi]

    def propagate(self, piece_index: int, case: str, lo: list[float], hi: list[float]) -> bool:
        """Check and contract the box for the sign conditions of ``case`` (a prefix).

        Returns False when some condition is impossible on the box (a sound
        cut); otherwise narrows ``lo``/``hi`` in place (HC4-style revise on
        every slot in which a condition is linear) and returns True.
        """
        return self._propagate(piece_index, list(zip(self.structure.order, case)), lo, hi)

    def _propagate(self, piece_index: int, assignment: Sequence[tuple[str, str]], lo: list[float],
                   hi: list[float]) -> bool:
        """:meth:`propagate` for the conditions of any variables, ``(variable, choice)`` in that order."""
        compiled = self.compiled[piece_index]
        parts = self.linear_parts[piece_index]
        for _ in range(CONTRACTION_ROUNDS):
            changed = False
            for y, c in assignment:
                low, high = compiled[y].bounds(lo, hi)
                if not _sign_possible(c, low, high):
                    return False
                for slot, a_poly, b_poly in parts[y]:
                    narrowed = _contract(c, a_poly.bounds(lo, hi), b_poly.bounds(lo, hi))
                    if narrowed is None:
                        continue
                    new_lo, new_hi = max(lo[slot], narrowed[0]), min(hi[slot], narrowed[1])
                    if new_lo > new_hi:
                        return False
                    if new_lo > lo[slot] + CONTRACTION_GAIN or new_hi < hi[slot] - CONTRACTION_GAIN:
                        changed = True
                    lo[slot], hi[slot] = new_lo, new_hi
            if not changed:
                break
        return True

    def case_box(self, piece_index: int, case: str) -> tuple[list[float], list[float]]:
        lo, hi = self.box(self.pieces[piece_index])
        for k, c in enumerate(case):
            lo[k], hi[k] = _value_range(c)
        return lo, hi

    def refute(self, piece_index: int, case: str, max_boxes: int = 4000) -> bool:
        """Try to prove ``case`` infeasible on a piece by bisecting its box.

        Returns True when every sub-box is cut (a proof of infeasibility);
        False when the budget of ``max_boxes`` boxes runs out or a box
        narrower than 1e-6 survives.
        """
        return self.refute_partial(piece_index, dict(zip(self.structure.order, case)), max_boxes)

    def refute_partial(self, piece_index: int, assignment: Mapping[str, str], max_boxes: int = 4000) -> bool:
        """:meth:`refute` for the choices of some variables only (the others range over ``[0, 1]``).

        Parameters
        ----------
        piece_index : int
        assignment : mapping of variable to choice letter
        max_boxes : int
            The bisection's budget.

        Returns
        -------
        bool
            True proves that no case containing these choices has a point on the piece (a nogood,
            :meth:`learn_nogoods`); False decides nothing.
        """
        order = self.structure.order
        pairs = sorted(((self.slot[x], c) for x, c in assignment.items()))
        lo, hi = self.box(self.pieces[piece_index])
        for k, c in pairs:
            lo[k], hi[k] = _value_range(c)
        compiled = self._kernel if self.use_compiled else None
        if compiled is not None:
            kernel, data = compiled
            sel = np.array([k for k, _ in pairs], dtype=np.int64)
            codes = np.array([kernel.CODES[c] for _, c in pairs], dtype=np.int64)
            return bool(kernel.refute(np.array(lo), np.array(hi), sel, codes, max_boxes, data[piece_index]))
        named = [(order[k], c) for k, c in pairs]
        stack = [(lo, hi)]
        boxes = 0
        while stack:
            lo, hi = stack.pop()
            boxes += 1
            if boxes > max_boxes:
                return False
            if not self._propagate(piece_index, named, lo, hi):
                continue
            widths = [h - l for l, h in zip(lo, hi)]
            k = max(range(len(widths)), key=widths.__getitem__)
            if widths[k] < 1e-6:
                return False
            mid = (lo[k] + hi[k]) / 2
            left_hi, right_lo = hi[:], lo[:]
            left_hi[k], right_lo[k] = mid, mid
            stack.append((right_lo, hi[:]))
            stack.append((lo[:], left_hi))
        return True

    def learn_nogoods(self, piece_index: int, max_boxes: int = NOGOOD_BOXES) -> Nogoods:
        """Learn the single choices and the pairs of choices of one piece that bisection refutes.

        Every single choice, then every pair of choices of two variables (neither a nogood alone), is
        refuted by bisection (:meth:`refute_partial`) with the other variables free in ``[0, 1]``; a
        refuted one is a nogood: a proof that no case containing it has a point on the piece. Every later
        :meth:`run` on the piece cuts a branch as soon as its choices contain a nogood.

        Parameters
        ----------
        piece_index : int
        max_boxes : int
            The bisection's budget per single choice or pair.

        Returns
        -------
        Nogoods
            All nogoods of the piece so far (those learned before included).
        """
        order = self.structure.order
        cuts: list[tuple[tuple[str, str], ...]] = []
        for x in order:
            for c in self.choices(x):
                if self.refute_partial(piece_index, {x: c}, max_boxes):
                    cuts.append(((x, c),))
        excluded = {cut[0] for cut in cuts}
        for i, x in enumerate(order):
            for y in order[i + 1:]:
                for c in self.choices(x):
                    for d in self.choices(y):
                        if (x, c) not in excluded and (y, d) not in excluded and \
                                self.refute_partial(piece_index, {x: c, y: d}, max_boxes):
                            cuts.append(((x, c), (y, d)))
        return self._add_nogoods(piece_index, cuts)

    def learn_from_case(self, piece_index: int, case: str, max_boxes: int = NOGOOD_BOXES) -> tuple | None:
        """Refute a surviving ``case`` by bisection and learn why: its smallest refuted core.

        Returns ``None`` when bisection does not refute ``case`` within ``max_boxes`` boxes. Otherwise the
        choices of ``case`` are dropped one at a time, from the last, as long as the rest is still refuted
        (:meth:`refute_partial`); what remains is a nogood (every case that contains it is infeasible on
        the piece, proved), added to the piece's nogoods and returned. This is clause learning in the
        manner of a SAT solver's, with bisection as the refutation: one refuted case cuts every branch of
        the search that shares its core.

        Parameters
        ----------
        piece_index : int
        case : str
            A case (or a prefix of one) in the search order.
        max_boxes : int
            The bisection's budget per refutation.

        Returns
        -------
        tuple of (variable, choice) or None
            The core learned, in the search order.
        """
        order = self.structure.order
        core = dict(zip(order, case))
        if not self.refute_partial(piece_index, core, max_boxes):
            return None
        for x in reversed(order[: len(case)]):
            trial = {y: c for y, c in core.items() if y != x}
            if trial and self.refute_partial(piece_index, trial, max_boxes):
                core = trial
        cut = tuple((x, core[x]) for x in order if x in core)
        self._add_nogoods(piece_index, [cut])
        return cut

    def _add_nogoods(self, piece_index: int, cuts: Iterable[tuple[tuple[str, str], ...]]) -> Nogoods:
        known = self.nogoods.get(piece_index, Nogoods(piece_index))
        new = tuple(dict.fromkeys(known.cuts + tuple(cuts)))
        self.nogoods[piece_index] = Nogoods(piece_index, new)
        self._tables.pop(piece_index, None)
        return self.nogoods[piece_index]

    def nogood_tables(self, piece_index: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The nogoods of a piece as the compiled kernel's arrays (``_search_kernel._excluded``)."""
        if piece_index in self._tables:
            return self._tables[piece_index]
        n = len(self.structure.order)
        learned = self.nogoods.get(piece_index, Nogoods(piece_index))
        ending: list[list[tuple[tuple[str, str], ...]]] = [[] for _ in range(6 * n)]
        for cut in learned.cuts:
            x, c = cut[-1]
            ending[6 * self.slot[x] + CHOICE_CODES.index(c)].append(cut[:-1])
        start, item_start = [0], [0]
        item_depth: list[int] = []
        item_code: list[int] = []
        for rest in ending:
            for items in rest:
                item_depth.extend(self.slot[y] for y, _ in items)
                item_code.extend(CHOICE_CODES.index(d) for _, d in items)
                item_start.append(len(item_depth))
            start.append(len(item_start) - 1)
        tables = tuple(np.array(v, dtype=np.int64) for v in (start, item_start, item_depth, item_code))
        self._tables[piece_index] = tables
        return tables  # type: ignore[return-value]

    def set_nogoods(self, piece_index: int, nogoods: Nogoods) -> None:
        """Replace the learned nogoods of a piece (for instance by an earlier :class:`Nogoods` of it).

        Parameters
        ----------
        piece_index : int
        nogoods : Nogoods
        """
        self.nogoods[piece_index] = nogoods
        self._tables.pop(piece_index, None)

    def contains_nogood(self, piece_index: int, case: Sequence[str]) -> bool:
        """Whether a case (or a prefix of one, in the search order) contains a learned nogood of the piece: the
        search would cut it.

        Parameters
        ----------
        piece_index : int
        case : str or sequence of choice letters

        Returns
        -------
        bool
        """
        return any(self.excluded(piece_index, case[: d + 1]) for d in range(len(case)))

    def excluded(self, piece_index: int, choice: Sequence[str]) -> bool:
        """Whether the last of ``choice`` (a case or a prefix of one, in the search order) completes a learned
        nogood of the piece.

        Parameters
        ----------
        piece_index : int
        choice : str or sequence of choice letters

        Returns
        -------
        bool
        """
        learned = self.nogoods.get(piece_index)
        if learned is None:
            return False
        order = self.structure.order
        rests = learned.by_last.get((order[len(choice) - 1], choice[-1]), ())
        return any(all(choice[self.slot[y]] == d for y, d in rest) for rest in rests)

    def estimate(self, piece_index: int, probes: int = 1000, seed: int = 17) -> TreeEstimate:
        """Knuth's estimate of the size of the search on one piece, with the learned nogoods.

        D. E. Knuth, "Estimating the efficiency of backtrack programs", Mathematics of Computation
        29(129), 121-136 (1975): each probe walks from the root to a leaf (or a dead end) through a
        uniformly drawn surviving child; the products of the numbers of surviving children met are
        unbiased estimates of the number of surviving nodes and of surviving cases.

        Parameters
        ----------
        piece_index : int
        probes : int
            Random walks (their mean is the estimate).
        seed : int
            The walks' seed: the same seed gives the same estimate.

        Returns
        -------
        TreeEstimate

        Raises
        ------
        ValueError
            Without the compiled search (Numba), which the estimate needs to be affordable.
        """
        if not self.compiled_search:
            raise ValueError("the tree estimate needs the compiled search (Numba)")
        kernel, data = self._kernel
        lo, hi = self.box(self.pieces[piece_index])
        nodes, cases, tried = kernel.knuth(np.array(lo), np.array(hi), len(self.structure.leaders),
                                           len(self.structure.order), data[piece_index],
                                           self.nogood_tables(piece_index), probes, seed)
        return TreeEstimate(float(nodes.mean()), float(cases.mean()), int(tried), probes)

    def run(self, task: SearchTask) -> SearchResult:
        """Enumerate the cases under ``task`` that survive interval pruning."""
        lo, hi = self.box(self.pieces[task.piece_index])
        compiled = self._kernel if self.use_compiled else None
        if compiled is not None:
            kernel, data = compiled
            prefix = np.array([kernel.CODES[c] for c in task.prefix], dtype=np.int64)
            found, nodes, pruned = kernel.run(np.array(lo), np.array(hi), len(self.structure.leaders),
                                              len(self.structure.order), prefix, data[task.piece_index],
                                              self.nogood_tables(task.piece_index))
            cases = tuple("".join(kernel.LETTERS[int(c)] for c in row) for row in found)
            return SearchResult(task, cases, int(nodes), int(pruned))
        order = self.structure.order
        survivors: list[str] = []
        counters = [0, 0]
        choice: list[str] = []

        def visit(depth: int) -> None:
            if depth == len(order):
                survivors.append("".join(choice))
                return
            x = order[depth]
            fixed = task.prefix[depth] if depth < len(task.prefix) else None
            for c in self.choices(x):
                if fixed is not None and c != fixed:
                    continue
                counters[0] += 1
                saved = lo[:], hi[:]
                value = _value_range(c)
                lo[depth], hi[depth] = max(lo[depth], value[0]), min(hi[depth], value[1])
                choice.append(c)
                if self.excluded(task.piece_index, choice):
                    counters[1] += 1
                elif lo[depth] <= hi[depth] and self.propagate(task.piece_index, "".join(choice), lo, hi):
                    visit(depth + 1)
                else:
                    counters[1] += 1
                choice.pop()
                lo[:], hi[:] = saved

        visit(0)
        return SearchResult(task, tuple(survivors), counters[0], counters[1])


def _value_range(choice: str) -> tuple[float, float]:
    if choice in ("L", "-"):
        return 0.0, 0.0
    if choice in ("U", "+"):
        return 1.0, 1.0
    return 0.0, 1.0


def _sign_possible(choice: str, low: float, high: float) -> bool:
    """Whether the sign condition of ``choice`` can hold for a value in ``[low, high]``."""
    if choice == "L":
        return low <= 0.0
    if choice == "U":
        return high >= 0.0
    if choice in ("I", "0"):
        return low <= 0.0 <= high
    if choice == "-":
        return low < 0.0
    return high > 0.0  # "+"


Executor = Callable[[Callable[[SearchTask], SearchResult], Iterable[SearchTask]], list[SearchResult]]


def serial_map(fn: Callable, items: Iterable) -> list:
    """The serial executor: a plain ordered map."""
    return [fn(item) for item in items]


def total_cases(structure: Structure) -> int:
    return math.prod(3 for _ in structure.order)
