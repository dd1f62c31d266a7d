"""The value and optimal strategies of a two-player zero-sum game tree as exact functions of one parameter.

The sequence form (Koller, Megiddo and von Stengel, "Efficient computation of equilibria for extensive
two-person games", Games and Economic Behavior 14(2), 247-259, 1996, section 3) turns the tree into two
linear programmes whose payoff matrix ``A(t)`` is a rational function of the parameter ``t``:

* player 0 (maximiser): ``max q_0``  s.t.  ``E x = e``, ``F' q <= A(t)' x``, ``x >= 0``;
* player 1 (minimiser): ``min p_0``  s.t.  ``F y = f``, ``E' p >= A(t) y``, ``y >= 0``.

At a rational point ``t0`` a simplex solution of each LP (HiGHS, floating point) names its positive
variables and tight constraints. Those equations are solved again *exactly with t symbolic* (sympy's
``DomainMatrix`` over ``QQ(t)``), giving ``x(t), q(t), y(t), p(t)``. The pair is optimal exactly where every
variable is nonnegative, every slack is nonnegative and ``q_0(t) = p_0(t)`` (weak duality makes the two
guarantees meet). Those are finitely many sign conditions on rational functions: their numerators and
denominators are factored, their real roots isolated exactly, and the conditions are decided in every cell
between consecutive roots by exact evaluation at a rational sample (a polynomial keeps its sign between
consecutive roots, so this is a proof on the whole cell). The piece is the largest run of valid cells
around ``t0``; the walk continues past its end until the domain is covered (a parametric LP in the style
of Gass and Saaty, with a matrix, not only a right-hand side, that depends on the parameter).

Examples
--------
>>> from symgame.model.treefile import tree_from_data
>>> data = {"game": "poker", "parameters": {"a": "[1/2, 4]"}, "players": ["A", "B"], "root": {"chance": [
...     {"prob": "1/2", "node": {"player": "A", "infoset": "high", "actions": {
...         "bet": {"player": "B", "infoset": "b", "actions": {"call": {"payoffs": ["a + 1", "-a - 1"]},
...                                                             "fold": {"payoffs": ["a", "-a"]}}},
...         "check": {"payoffs": ["a", "-a"]}}}},
...     {"prob": "1/2", "node": {"player": "A", "infoset": "low", "actions": {
...         "bet": {"player": "B", "infoset": "b", "actions": {"call": {"payoffs": ["-a - 1", "a + 1"]},
...                                                             "fold": {"payoffs": ["a", "-a"]}}},
...         "check": {"payoffs": ["-a", "a"]}}}}]}}
>>> result = parametric_tree_solve(tree_from_data(data))
>>> [(str(p.lower), str(p.upper), str(p.value)) for p in result.pieces]
[('1/2', '4', 'a/(2*a + 1)')]
>>> result.pieces[0].behaviour[1]["b"]["call"]
2*a/(2*a + 1)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import sympy as sp

from ..errors import InputError, NoResultError
from ..model.extensive import Chance, DecisionNode, Outcome, Terminal
from ..model.sequence_form import PlayerSequences

MAX_PIECES = 200
TOL = 1e-9


@dataclass
class ParametricSequenceForm:
    """Sequences of both players and the payoff to player 0 as sympy rational functions of ``parameter``."""

    name: str
    players: tuple[str, str]
    parameter: sp.Symbol
    lower: Any
    upper: Any
    sequences: tuple[PlayerSequences, PlayerSequences]
    payoff: dict[tuple[int, int], sp.Expr]
    constant: sp.Expr = sp.Integer(0)           # u0 + u1 at every leaf: player 1 gets constant - value
    lower_closed: bool = True                   # whether the domain contains its finite ends
    upper_closed: bool = True

    def at(self, t: Fraction):
        """The sequence form with exact numbers at a rational parameter value."""
        from ..model.sequence_form import SequenceForm

        point = sp.Rational(t.numerator, t.denominator)
        payoff = {}
        for key, v in self.payoff.items():
            x = sp.nsimplify(v.subs(self.parameter, point))
            if x != 0:
                payoff[key] = Fraction(int(sp.numer(x)), int(sp.denom(x)))
        return SequenceForm(self.name, self.sequences, payoff)


def parametric_sequence_form(tree) -> ParametricSequenceForm:
    """The sequence form of a :class:`~symgame.model.treefile.TreeFile` with at most one parameter.

    Raises
    ------
    InputError
        Not two players, not constant-sum (the same sum at every leaf), more than one parameter, or no
        perfect recall.
    """
    game = tree.game
    if len(game.players) != 2:
        raise InputError(f"{game.name}: the parametric sequence form takes two-player trees "
                         f"({len(game.players)} players here; use symgame atlas)")
    if len(tree.parameters) > 1:
        raise InputError(f"{game.name}: the parametric sequence form takes one parameter "
                         f"({len(tree.parameters)} here)")
    closed = (True, True)
    if tree.parameters:
        par = tree.parameters[0]
        t, lower, upper = par.symbol, par.lower, par.upper
        closed = (bool(par.lower_closed), bool(par.upper_closed))
    else:
        t, lower, upper = sp.Symbol("t"), sp.Integer(0), sp.Integer(0)
    players, payoff, constant = sequence_form_walk(game)
    return ParametricSequenceForm(game.name, (game.players[0], game.players[1]), t, lower, upper, players, payoff,
                                  constant, *closed)


def sequence_form_walk(game) -> tuple[tuple[PlayerSequences, PlayerSequences], dict[tuple[int, int], sp.Expr], sp.Expr]:
    """Both players' sequences, player 0's payoff by pair of sequences (chance folded in) and the constant sum
    of the payoffs, from one iterative walk of a two-player constant-sum tree with perfect recall."""
    players = (PlayerSequences(), PlayerSequences())
    payoff: dict[tuple[int, int], sp.Expr] = {}
    constant: sp.Expr | None = None              # the players' payoffs sum to this at every leaf
    stack: list[tuple[Any, sp.Expr, int, int, str]] = [(game.root, sp.Integer(1), 0, 0, "root")]
    while stack:
        node, chance, s0, s1, place = stack.pop()
        if isinstance(node, (Outcome, Terminal)):
            if isinstance(node, Outcome):
                u0, u1 = (sp.sympify(v) for v in node.payoffs)
                total = sp.cancel(u0 + u1)
                if constant is None:
                    constant = total
                elif sp.cancel(total - constant) != 0:
                    raise InputError(f"{game.name}: {place}: payoffs {u0}, {u1} sum to {total}, elsewhere to "
                                     f"{constant} (the parametric sequence form takes zero- or constant-sum trees; "
                                     "use symgame atlas)")
            else:
                u0 = sp.Rational(node.payoff)
            if u0 != 0:
                payoff[(s0, s1)] = payoff.get((s0, s1), sp.Integer(0)) + chance * u0
        elif isinstance(node, Chance):
            for k, (p, child) in enumerate(node.outcomes):
                stack.append((child, chance * sp.sympify(p), s0, s1, f"{place}.chance[{k}]"))
        elif isinstance(node, DecisionNode):
            own = players[node.player]
            try:
                own.register(node, s0 if node.player == 0 else s1)
            except ValueError as exc:
                raise InputError(f"{game.name}: {exc} (the sequence form needs perfect recall)") from None
            for label, child in reversed(node.actions):
                seq = own.index[(node.infoset, label)]
                where = f"{place}.{label}"
                stack.append((child, chance, seq, s1, where) if node.player == 0 else (child, chance, s0, seq, where))
        else:  # pragma: no cover - defensive
            raise TypeError(f"unknown node {node!r}")
    payoff = {k: sp.cancel(v) for k, v in payoff.items() if sp.cancel(v) != 0}
    return players, payoff, constant if constant is not None else sp.Integer(0)


@dataclass
class Piece:
    """One interval of the parameter on which one pair of strategies is optimal, with the value."""

    lower: Any                                  # exact (sympy): a rational, a radical, a CRootOf, or -oo
    upper: Any
    value: sp.Expr
    plans: tuple[list[sp.Expr], list[sp.Expr]]  # realization plans of both players, rational functions
    behaviour: tuple[dict[str, dict[str, sp.Expr]], dict[str, dict[str, sp.Expr]]]
    conditions: int                              # sign conditions proved on every cell of the interval
    roots: list[Any] = field(default_factory=list, repr=False)   # every real root of the conditions, sorted


@dataclass
class ParametricTreeSolution:
    """Pieces covering the parameter's domain, in increasing order, each certified on its whole interval."""

    form: ParametricSequenceForm
    pieces: list[Piece] = field(default_factory=list)
    checks: list = field(default_factory=list)          # point checks added by symgame.verify.treecheck

    def closed_ends(self, piece: Piece) -> tuple[bool, bool]:
        """Whether ``piece`` contains its lower and upper end (open only at an open end of the domain)."""
        return (not (piece.lower == self.form.lower and not self.form.lower_closed),
                not (piece.upper == self.form.upper and not self.form.upper_closed))

    def value_at(self, t: Fraction) -> Fraction:
        """The exact value at a rational point of the domain."""
        f = self.form
        if (t == f.lower and not f.lower_closed) or (t == f.upper and not f.upper_closed):
            raise InputError(f"{t} is outside the domain (an open end)")
        for piece in self.pieces:
            if _le(piece.lower, t) and _le(t, piece.upper):
                v = piece.value.subs(self.form.parameter, sp.Rational(t.numerator, t.denominator))
                return Fraction(int(sp.numer(v)), int(sp.denom(v)))
        raise InputError(f"{t} is outside the domain")

    def render_text(self) -> str:
        t = self.form.parameter
        lines = [f"{self.form.name}: value for {self.form.players[0]} and optimal behaviour strategies by {t}"]
        for piece in self.pieces:
            if piece.lower == piece.upper:
                where = f"at {t} = {_show(piece.lower)}" if self.form.lower != self.form.upper else "always"
            else:
                lo_closed, hi_closed = self.closed_ends(piece)
                lo = "" if piece.lower == -sp.oo else f"{_show(piece.lower)} {'<=' if lo_closed else '<'} "
                hi = "" if piece.upper == sp.oo else f" {'<=' if hi_closed else '<'} {_show(piece.upper)}"
                where = f"if {lo}{t}{hi}"
            other = "" if self.form.constant == 0 else f" ({self.form.players[1]}: {sp.factor(self.form.constant - piece.value)})"
            lines.append(f"{where}: value {piece.value}{other}")
            for who, beh in zip(self.form.players, piece.behaviour):
                for infoset, probs in beh.items():
                    shown = ", ".join(f"{a}: {p}" for a, p in probs.items())
                    lines.append(f"  {who} at {infoset}: {shown}")
        return "\n".join(lines)

    def to_data(self) -> dict:
        """JSON-ready: exact endpoints and formulas as strings."""
        return {"game": self.form.name, "players": list(self.form.players), "parameter": str(self.form.parameter),
                "constant_sum": str(self.form.constant),
                "pieces": [{"from": _show(p.lower), "to": _show(p.upper), "from_closed": self.closed_ends(p)[0],
                            "to_closed": self.closed_ends(p)[1], "value": str(p.value),
                            "behaviour": {who: {i: {a: str(v) for a, v in probs.items()} for i, probs in beh.items()}
                                          for who, beh in zip(self.form.players, p.behaviour)},
                            "conditions_proved": p.conditions, "certified": True}
                           for p in self.pieces],
                "checks": [{"piece": c.piece, "at": str(c.point), "value": str(c.value), "passed": c.passed}
                           for c in self.checks],
                "complete_cover": True}


def _show(x: Any) -> str:
    return str(x) if x not in (sp.oo, -sp.oo) else ("oo" if x == sp.oo else "-oo")


def _le(a: Any, b: Any) -> bool:
    return bool(sp.sympify(a) <= sp.sympify(b))


# --------------------------------------------------------------------------- the walk over the domain

def parametric_tree_solve(tree, max_pieces: int = MAX_PIECES) -> ParametricTreeSolution:
    """Cover the parameter's domain with certified pieces (see the module docstring).

    Raises
    ------
    InputError
        For trees outside the method (see :func:`parametric_sequence_form`).
    NoResultError
        If the walk needs more than ``max_pieces`` pieces or meets a degenerate point it cannot resolve.
    """
    form = parametric_sequence_form(tree)
    solver = _Solver(form)
    lo, hi = form.lower, form.upper
    if lo == hi:                                                 # no parameter: one point
        piece = solver.piece_at(Fraction(int(sp.numer(lo)), int(sp.denom(lo))))
        piece.lower, piece.upper = lo, hi
        return ParametricTreeSolution(form, [piece])
    result = ParametricTreeSolution(form)
    covered = lo                                                 # everything left of `covered` is covered
    target = _start(lo, hi)
    while True:
        if len(result.pieces) >= max_pieces:
            raise NoResultError(f"{form.name}: more than {max_pieces} pieces")
        piece = solver.piece_at(target)
        if not _le(piece.lower, covered):                        # a gap (covered, piece.lower): look inside it
            target = _between(covered, piece.lower)
            continue
        while result.pieces and _le(piece.lower, result.pieces[-1].lower):
            result.pieces.pop()                                  # the new piece covers that one entirely
        if result.pieces:
            piece.lower = result.pieces[-1].upper                # shown from where the last one ends
        _append(result.pieces, piece)
        covered = piece.upper
        if covered == hi:
            break
        target = _after(covered, next((r for r in piece.roots if r > covered), None), hi)
    return result


def _append(pieces: list[Piece], piece: Piece) -> None:
    if pieces and pieces[-1].value == piece.value and pieces[-1].plans == piece.plans:
        pieces[-1].upper = piece.upper
        pieces[-1].conditions += piece.conditions
    else:
        pieces.append(piece)


def _rational_near(x: Any, side: int) -> Fraction:
    """A rational within 1e-30 of the exact real number ``x``, strictly on the given side (+1 above, -1 below)."""
    approx = Fraction(str(sp.N(x, 60)))            # |approx - x| < 1e-50 for the numbers met here
    return approx + side * Fraction(1, 10 ** 30)


def _start(lo: Any, hi: Any) -> Fraction:
    if lo == -sp.oo:
        return Fraction(-10 ** 6) if hi == sp.oo else _rational_near(hi, -1) - 1
    return _after(lo, None, hi)


def _after(x: Any, next_root: Any, hi: Any) -> Fraction:
    """A rational just above ``x``: below the next root of the current piece's conditions and the end."""
    limit = next_root if next_root is not None else hi
    if limit == sp.oo or limit is None:
        return _rational_near(x, 1) + Fraction(1, 10 ** 6) if x != -sp.oo else Fraction(-10 ** 6)
    return _between(x, limit)


def _between(a: Any, b: Any) -> Fraction:
    """A rational strictly between the exact numbers ``a < b`` (closer to ``a``)."""
    gap = sp.N(b - a, 30) if a != -sp.oo else sp.Integer(10 ** 6)
    width = Fraction(str(min(float(gap) / 16, 1e-3))) if float(gap) > 0 else Fraction(1, 10 ** 15)
    q = _rational_near(a, 1) if a != -sp.oo else _rational_near(b, -1) - Fraction(10 ** 6)
    candidate = q + width
    while not sp.Rational(candidate.numerator, candidate.denominator) < b:
        width /= 2
        candidate = q + width
    return candidate


class _Solver:
    """Optimal bases of the two sequence-form LPs, solved exactly over QQ(parameters)."""

    def __init__(self, form: ParametricSequenceForm, symbols: tuple[sp.Symbol, ...] | None = None):
        self.form = form
        self.t = form.parameter
        self.symbols = symbols if symbols is not None else (self.t,)
        self.field = sp.QQ.frac_field(*self.symbols)
        self.n0, self.n1 = (len(p.sequences) for p in form.sequences)
        self.E = _constraints(form.sequences[0])
        self.F = _constraints(form.sequences[1])
        self.A = {k: self.field.from_sympy(v) for k, v in form.payoff.items()}

    def numeric(self, point: "Fraction | dict[sp.Symbol, Fraction]"):
        values = point if isinstance(point, dict) else {self.t: point}
        subs = {s: sp.Rational(v.numerator, v.denominator) for s, v in values.items()}
        a = np.zeros((self.n0, self.n1))
        for (i, j), v in self.form.payoff.items():
            a[i, j] = float(v.subs(subs))
        # player 0: max q_0  s.t.  E x = e, F'q - A'x <= 0;  player 1: min p_0  s.t.  F y = f, A y - E'p <= 0
        r0 = _side_lp(self.E, self.F, a.T, 1)
        r1 = _side_lp(self.F, self.E, a, -1)
        where = ", ".join(f"{s} = {v}" for s, v in values.items())
        if r0.status != 0 or r1.status != 0:
            raise NoResultError(f"{self.form.name}: the LP at {where} failed ({r0.message}; {r1.message})")
        return a, r0.x, r1.x

    def piece_at(self, t0: Fraction) -> Piece:
        xs, ys, value, conditions = self.basis_at(t0)
        lower, upper, count, roots = self._interval(conditions, t0)
        shown, plans, behaviour = self.strategies(xs, ys, value)
        return Piece(lower, upper, shown, plans, behaviour, count, roots)

    def strategies(self, xs, ys, value):
        """``(value, plans, behaviour)`` as sympy expressions from exact field elements."""
        to = self.field.to_sympy
        plans = ([sp.factor(to(v)) for v in xs], [sp.factor(to(v)) for v in ys])
        behaviour = (_behaviour(self.form.sequences[0], plans[0]), _behaviour(self.form.sequences[1], plans[1]))
        return sp.factor(to(value)), plans, behaviour

    def basis_at(self, point: "Fraction | dict[sp.Symbol, Fraction]"):
        """Both plans, the value and every condition ``c >= 0`` of the optimal basis the LPs find at ``point``,
        exactly as elements of QQ(parameters)."""
        a, z0, z1 = self.numeric(point)
        x, q = z0[:self.n0], z0[self.n0:]
        y, p = z1[:self.n1], z1[self.n1:]
        support0 = [s for s in range(self.n0) if x[s] > TOL]
        support1 = [r for r in range(self.n1) if y[r] > TOL]
        slack0 = a.T @ x - np.array(self.F, dtype=float).T @ q          # >= 0, tight where 0
        slack1 = np.array(self.E, dtype=float).T @ p - a @ y            # >= 0
        tight1 = [r for r in range(self.n1) if abs(slack0[r]) < 1e-7]
        tight0 = [s for s in range(self.n0) if abs(slack1[s]) < 1e-7]
        side0 = self._side(self.E, self.F, support0, tight1, transpose=True)
        side1 = self._side(self.F, self.E, support1, tight0, transpose=False)
        if side0 is None or side1 is None:
            raise NoResultError(f"{self.form.name}: degenerate optimal basis at {point}")
        xs, qs, conds0 = side0
        ys, ps, conds1 = side1
        if qs[0] != ps[0]:
            raise NoResultError(f"{self.form.name}: the two sides' bases do not meet at {point}")
        return xs, ys, qs[0], [c for c in conds0 + conds1 if c != 0]

    def _side(self, own_c, other_c, support, tight, transpose: bool):
        """One player's plan and the opponent's information-set values, exactly, with the parameter symbolic.

        Player 0 (``transpose``): plan ``x`` with ``E x = e``, zero off ``support``; values ``q`` with
        ``slack_r = (A' x - F' q)_r = 0`` on ``tight``. Player 1: plan ``y`` with ``F y = f``; values ``p`` with
        ``slack_s = (E' p - A y)_s = 0`` on ``tight``. Returns the plan, the values and every condition
        ``c >= 0`` (plan entries on the support, every slack), or ``None`` if the equations do not determine
        a unique solution.
        """
        from sympy.polys.matrices import DomainMatrix

        K = self.field
        n_own, n_other = len(own_c[0]), len(other_c[0])
        m_own, m_other = len(own_c), len(other_c)
        unknowns = n_own + m_other
        sign = 1 if transpose else -1
        rows: list[list[Any]] = []
        for i in range(m_own):
            rows.append([K(own_c[i][s]) for s in range(n_own)] + [K(0)] * m_other + [K(int(i == 0))])
        for s in range(n_own):
            if s not in support:
                rows.append([K(int(k == s)) for k in range(n_own)] + [K(0)] * m_other + [K(0)])
        slack_rows = []
        for r in range(n_other):
            coeffs = [sign * self._a(s, r, transpose) for s in range(n_own)] + \
                     [K(-sign * other_c[j][r]) for j in range(m_other)]
            slack_rows.append(coeffs)
            if r in tight:
                rows.append(coeffs + [K(0)])
        reduced, pivots = DomainMatrix(rows, (len(rows), unknowns + 1), K).rref()
        if len(pivots) != unknowns or unknowns in pivots:         # underdetermined or inconsistent
            return None
        dense = reduced.to_Matrix()
        values = [K(0)] * unknowns
        for row_index, col in enumerate(pivots):
            values[col] = K.from_sympy(dense[row_index, unknowns])
        plan, duals = values[:n_own], values[n_own:]
        conditions = [v for s, v in enumerate(plan) if s in support]
        for coeffs in slack_rows:
            conditions.append(sum((c * v for c, v in zip(coeffs, values)), K(0)))
        return plan, duals, conditions

    def _a(self, own: int, other: int, transpose: bool):
        """``A(s, r)`` with ``own`` the index of the solving player's sequence."""
        key = (own, other) if transpose else (other, own)
        return self.A.get(key, self.field(0))

    def _interval(self, conditions: list, t0: Fraction) -> tuple[Any, Any, int, list[Any]]:
        """The largest interval around ``t0`` on which every condition ``c(t) >= 0`` holds, proved cell by cell."""
        t = self.t
        polys: list[sp.Poly] = []
        denominators: list[sp.Poly] = []
        for c in conditions:
            num, den = sp.fraction(sp.cancel(self.field.to_sympy(c)))
            for poly, bucket in ((num, polys), (den, denominators)):
                pp = sp.Poly(poly, t)
                if pp.degree() > 0:
                    bucket.append(pp)
        roots = _real_roots(polys + denominators, self.form.lower, self.form.upper)
        lo, hi = self.form.lower, self.form.upper
        cells = [lo] + roots + [hi]            # alternate: boundary, root, root, ..., boundary
        position = 0
        t0s = sp.Rational(t0.numerator, t0.denominator)
        while position < len(roots) and roots[position] < t0s:
            position += 1
        if position < len(roots) and roots[position] == t0s:
            raise NoResultError(f"the sample point {t0} is a root of a condition")
        # open cell number `position` is (cells[position], cells[position + 1])
        checked = 0

        def cell_ok(k: int) -> bool:
            nonlocal checked
            left, right = cells[k], cells[k + 1]
            sample = _sample(left, right)
            checked += len(conditions)
            return all(_sign_at(c, self.field, t, sample) >= 0 for c in conditions)

        def root_ok(r: Any) -> bool:         # closed conditions hold at a root if no denominator vanishes there
            return all(d.eval(r) != 0 if r.is_Rational else sp.gcd(d.as_expr(), _minpoly(r, t)) == 1
                       for d in denominators)

        if not cell_ok(position):
            raise NoResultError(f"the LP's basis at {t} = {t0} is not certified on its own cell")
        left_k, right_k = position, position
        while right_k + 1 < len(cells) - 1 and root_ok(cells[right_k + 1]) and cell_ok(right_k + 1):
            right_k += 1
        while left_k > 0 and root_ok(cells[left_k]) and cell_ok(left_k - 1):
            left_k -= 1
        lower, upper = cells[left_k], cells[right_k + 1]
        for end in (lower, upper):
            if end not in (sp.oo, -sp.oo) and end not in (lo, hi) and not root_ok(end):
                raise NoResultError(f"a denominator vanishes at the end {end} of a piece")
        return lower, upper, checked, roots


def _side_lp(own_c: list[list[int]], other_c: list[list[int]], payoff: np.ndarray, sign: int):
    """One player's sequence-form LP in HiGHS (dual simplex, so the answer is a vertex): variables ``[z, w]``
    with ``own_c z = (1, 0, ...)``, ``z >= 0``, ``sign (other_c' w - payoff z) <= 0``; maximise ``sign w_0``."""
    from scipy.optimize import linprog

    own, other = np.array(own_c, dtype=float), np.array(other_c, dtype=float)
    n, k = own.shape[1], other.shape[0]
    cost = np.zeros(n + k)
    cost[n] = -sign
    a_ub = sign * np.hstack([-payoff, other.T])
    a_eq = np.hstack([own, np.zeros((own.shape[0], k))])
    b_eq = np.zeros(own.shape[0])
    b_eq[0] = 1.0
    return linprog(cost, A_ub=a_ub, b_ub=np.zeros(other.shape[1]), A_eq=a_eq, b_eq=b_eq,
                   bounds=[(0, None)] * n + [(None, None)] * k, method="highs-ds")


def _constraints(own: PlayerSequences) -> list[list[int]]:
    """Rows of ``E``: ``x_0 = 1`` and, per information set, ``sum_a x_(I, a) - x_parent(I) = 0``."""
    n = len(own.sequences)
    rows = [[1] + [0] * (n - 1)]
    for infoset in own.infosets:
        row = [0] * n
        row[own.parent[infoset]] = -1
        for s in own.children(infoset):
            row[s] = 1
        rows.append(row)
    return rows


def _behaviour(own: PlayerSequences, plan: list[sp.Expr]) -> dict[str, dict[str, sp.Expr]]:
    out = {}
    for infoset in own.infosets:
        reach = plan[own.parent[infoset]]
        if reach == 0:
            out[infoset] = {a: sp.Symbol("unreached") for a in own.actions[infoset]}
            continue
        out[infoset] = {a: sp.factor(sp.cancel(plan[own.index[(infoset, a)]] / reach)) for a in own.actions[infoset]}
    return out


def _real_roots(polys: list[sp.Poly], lo: Any, hi: Any) -> list[Any]:
    """Distinct real roots, inside the open domain, of the given polynomials, exact and sorted."""
    found: set = set()
    for poly in polys:
        for factor, _ in poly.factor_list()[1]:
            if factor.degree() <= 0:
                continue
            for root in (sp.roots(factor, multiple=True) if factor.degree() <= 2 else factor.real_roots()):
                if root.is_real and (lo == -sp.oo or root > lo) and (hi == sp.oo or root < hi):
                    found.add(sp.nsimplify(root) if root.is_Rational else sp.radsimp(root))
    return sorted(found, key=lambda r: sp.N(r, 50))


def _minpoly(r: Any, t: sp.Symbol) -> sp.Expr:
    return sp.minimal_polynomial(r, t)


def _sample(left: Any, right: Any) -> sp.Rational:
    """A rational strictly inside the open interval (left, right) of exact numbers."""
    if left == -sp.oo and right == sp.oo:
        return sp.Integer(0)
    if left == -sp.oo:
        return sp.floor(right) - 1
    if right == sp.oo:
        return sp.floor(left) + 1
    a, b = sp.N(left, 50), sp.N(right, 50)
    mid = sp.nsimplify((a + b) / 2, rational=True, tolerance=float(b - a) / 8)
    if not (left < mid < right):
        mid = sp.Rational(str((a + b) / 2))
    return mid


def _sign_at(c, field, t: sp.Symbol, point: sp.Rational) -> int:
    v = field.to_sympy(c).subs(t, point)
    return int(sp.sign(v))
