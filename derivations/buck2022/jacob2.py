"""The Jacob game II and its expansions (Buck et al., arXiv:2208.02788, 2022, Appendix C.3,
(C.5)-(C.7)).

A symmetric three-player zero-sum game: with pure choices ``s1, s2, s3``
player 1 receives ``A_{s1}[s2][s3]`` (printed matrices, one per own
choice); players 2 and 3 receive ``A_{s2}[s1][s3]`` and ``A_{s3}[s1][s2]``.
:func:`check_schedule` verifies the symmetry of every ``A_j`` and the
zero-sum identity the paper asks the reader to check by hand.

What is computed (all exact except the searches, whose finds are verified
exactly): the printed equilibria and their payoffs; whether each is a
*strong* equilibrium against every two-player coalition, including
correlated joint deviations (a separating weight vector proves that no joint
deviation helps both partners; otherwise an exact improving deviation is
shown); the synchronous coalition value of (C.7); where fictitious play goes
from seeded random starts; and a seeded multistart search for equilibria the
paper did not list.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from math import fsum
from typing import Sequence

import numpy as np
from scipy.optimize import linprog

from symgame.numeric.fictitious import fictitious_play

_L, _M = [-4, -4, -4, 2, 2, 2], [2, 2, 2, -4, -4, -4]
#: The printed payoff schedules: ``SCHEDULES[name][j][s2][s3]`` is player 1's payoff when she plays j.
SCHEDULES: dict[str, list] = {
    "C.5": [[[0, 0, 0], [0, 0, -2], [0, -2, 0]], [[0, 0, 1], [0, 0, -4], [1, -4, 16]],
            [[0, 1, 0], [1, 8, -8], [0, -8, 0]]],
    "C.6": [[[0, 0, 0, 2], [0, 0, -2, 2], [0, -2, 0, 2], [2, 2, 2, 0]],
            [[0, 0, 1, 2], [0, 0, -8, 2], [1, -8, 32, 2], [2, 2, 2, -4]],
            [[0, 1, 0, 2], [1, 16, -16, 2], [0, -16, 0, 2], [2, 2, 2, 2]],
            [[-4, -4, -4, 0], [-4, -4, -4, 2], [-4, -4, -4, -1], [0, 2, -1, 0]]],
    "C.7": [[[0, 0, 0, 2, 2, 2], [0, 0, -2, 2, 2, 2], [0, -2, 0, 2, 2, 2], _M, _M, _M],
            [[0, 0, 1, 2, 2, 2], [0, 0, -8, 2, 2, 2], [1, -8, 32, 2, 2, 2], _M, _M, _M],
            [[0, 1, 0, 2, 2, 2], [1, 16, -16, 2, 2, 2], [0, -16, 0, 2, 2, 2], _M, _M, _M],
            [_L, _L, _L, [2, 2, 2, 0, 0, 0], [2, 2, 2, 0, 0, -2], [2, 2, 2, 0, -2, 0]],
            [_L, _L, _L, [2, 2, 2, 0, 0, 1], [2, 2, 2, 0, 0, -8], [2, 2, 2, 1, -8, 32]],
            [_L, _L, _L, [2, 2, 2, 0, 1, 0], [2, 2, 2, 1, 16, -16], [2, 2, 2, 0, -16, 0]]],
}


def tensors(name: str) -> list[np.ndarray]:
    """Each player's payoff indexed by (s1, s2, s3), from the schedule by symmetry."""
    a = np.array(SCHEDULES[name], dtype=np.int64)
    m = a.shape[0]
    out = [np.zeros((m, m, m), dtype=np.int64) for _ in range(3)]
    for s in itertools.product(range(m), repeat=3):
        out[0][s] = a[s[0], s[1], s[2]]
        out[1][s] = a[s[1], s[0], s[2]]
        out[2][s] = a[s[2], s[0], s[1]]
    return out


@dataclass(frozen=True)
class ScheduleCheck:
    """The paper's consistency claims for one schedule."""

    symmetric_matrices: bool
    zero_sum_violations: tuple[tuple[int, int, int], ...]


def check_schedule(name: str) -> ScheduleCheck:
    a = np.array(SCHEDULES[name])
    m = a.shape[0]
    bad = tuple(tuple(int(v) + 1 for v in s) for s in itertools.product(range(m), repeat=3)
                if a[s] + a[s[1], s[0], s[2]] + a[s[2], s[0], s[1]] != 0)
    return ScheduleCheck(all((a[k] == a[k].T).all() for k in range(m)), bad)


Profile = tuple[tuple[Fraction, ...], ...]


def pure(*actions: int, m: int) -> Profile:
    """The pure profile in which player k plays ``actions[k]`` (1-based, as printed)."""
    return tuple(tuple(Fraction(int(a == s - 1)) for a in range(m)) for s in actions)


def action_values(ts: Sequence[np.ndarray], profile: Profile, player: int) -> list[Fraction]:
    """Exact expected payoff of each pure action of ``player`` against the others' mixed strategies."""
    m = ts[0].shape[0]
    values = [Fraction(0)] * m
    for s in itertools.product(range(m), repeat=3):
        u = int(ts[player][s])
        if not u:
            continue
        w = Fraction(1)
        for k in range(3):
            if k != player:
                w *= profile[k][s[k]]
        values[s[player]] += u * w
    return values


def payoffs(ts: Sequence[np.ndarray], profile: Profile) -> tuple[Fraction, ...]:
    return tuple(sum((p * v for p, v in zip(profile[k], action_values(ts, profile, k))), Fraction(0))
                 for k in range(3))


def regret(ts: Sequence[np.ndarray], profile: Profile) -> Fraction:
    """Largest gain of any player from a pure deviation (0 exactly at a Nash equilibrium)."""
    own = payoffs(ts, profile)
    return max(max(action_values(ts, profile, k)) - own[k] for k in range(3))


@dataclass(frozen=True)
class CoalitionCheck:
    """Can players ``pair`` jointly deviate (correlated) so that both gain, the third held fixed?

    ``separating_weights`` (exact, non-negative, summing to 1) proves they cannot: every joint
    pure action has weighted gain <= 0.  Otherwise ``improving`` is a distribution over joint pure
    actions (1-based) with exact positive ``gains`` for both; ``pure_improving`` says whether a
    single joint pure action already helps both (an independent, "traitorous" deviation).
    """

    pair: tuple[int, int]
    strong: bool
    separating_weights: tuple[Fraction, Fraction] | None
    improving: tuple[tuple[tuple[int, int], Fraction], ...] | None
    gains: tuple[Fraction, Fraction] | None
    pure_improving: bool


def coalition_check(ts: Sequence[np.ndarray], profile: Profile, pair: tuple[int, int]) -> CoalitionCheck:
    """Strong-equilibrium test for one pair at a profile whose third player is pure."""
    i, j = pair
    k = 3 - i - j
    m = ts[0].shape[0]
    base = payoffs(ts, profile)
    third = profile[k].index(Fraction(1))
    gains = {}
    for a, b in itertools.product(range(m), repeat=2):
        s = [0, 0, 0]
        s[i], s[j], s[k] = a, b, third
        gains[(a, b)] = (int(ts[i][tuple(s)]) - base[i], int(ts[j][tuple(s)]) - base[j])
    for ab, (gi, gj) in sorted(gains.items()):
        if gi > 0 and gj > 0:
            return CoalitionCheck(pair, False, None, (((ab[0] + 1, ab[1] + 1), Fraction(1)),), (gi, gj), True)
    # separating weights: minimise max_a (w gi + (1 - w) gj) over w in [0, 1]; exact check afterwards
    for w in _candidate_weights(gains):
        if all(w * gi + (1 - w) * gj <= 0 for gi, gj in gains.values()):
            return CoalitionCheck(pair, True, (w, 1 - w), None, None, False)
    q, both = _improving_distribution(gains)
    return CoalitionCheck(pair, False, None, q, both, False)


def _improving_distribution(gains: dict) -> tuple[tuple, tuple[Fraction, Fraction]]:
    """A correlated joint deviation raising both partners' payoffs (LP, then exact)."""
    keys = sorted(gains)
    g = np.array([[float(gains[k][0]), float(gains[k][1])] for k in keys])
    n = len(keys)
    res = linprog(np.r_[np.zeros(n), -1.0], A_ub=np.c_[-g.T, np.ones(2)], b_ub=np.zeros(2),
                  A_eq=np.r_[np.ones(n), 0.0][None, :], b_eq=[1.0], bounds=[(0, None)] * n + [(None, 1.0)],
                  method="highs")
    q = [Fraction(x).limit_denominator(100) for x in res.x[:n]]
    q[int(np.argmax(res.x[:n]))] += 1 - sum(q)
    both = (sum((p * gains[k][0] for p, k in zip(q, keys)), Fraction(0)),
            sum((p * gains[k][1] for p, k in zip(q, keys)), Fraction(0)))
    if not (both[0] > 0 and both[1] > 0 and min(q) >= 0):
        raise RuntimeError("no exact improving distribution recovered from the LP")
    return tuple(((a + 1, b + 1), p) for (a, b), p in zip(keys, q) if p), both


def _candidate_weights(gains: dict) -> list[Fraction]:
    """Weights where two gain lines cross, plus the ends: the minimax weight is among them."""
    lines = sorted(set(gains.values()))
    out = {Fraction(0), Fraction(1)}
    for (a1, b1), (a2, b2) in itertools.combinations(lines, 2):
        den = (a1 - b1) - (a2 - b2)
        if den:
            w = Fraction(b2 - b1, 1) / den
            if 0 <= w <= 1:
                out.add(w)
    return sorted(out)


def synchronous_coalition_value(ts: Sequence[np.ndarray], opponent: int) -> tuple[Fraction, tuple]:
    """Best joint payoff of the other two players when they correlate against ``opponent``'s best reply.

    LP over distributions on the pair's joint actions (HiGHS), then the value is recomputed
    exactly at the rounded distribution and at the opponent's exact best reply.
    """
    m = ts[0].shape[0]
    pair = [p for p in range(3) if p != opponent]
    joint = list(itertools.product(range(m), repeat=2))
    loss = np.zeros((m, len(joint)))
    for r in range(m):
        for c, (a, b) in enumerate(joint):
            s = [0, 0, 0]
            s[opponent], s[pair[0]], s[pair[1]] = r, a, b
            loss[r, c] = ts[opponent][tuple(s)]
    # minimise v subject to loss @ q <= v (the opponent's best payoff), q a distribution
    n = len(joint)
    res = linprog(np.r_[np.zeros(n), 1.0], A_ub=np.c_[loss, -np.ones(m)], b_ub=np.zeros(m),
                  A_eq=np.r_[np.ones(n), 0.0][None, :], b_eq=[1.0], bounds=[(0, None)] * n + [(None, None)],
                  method="highs")
    q = [Fraction(x).limit_denominator(1000) for x in res.x[:n]]
    q[-1] = 1 - sum(q[:-1])
    opponent_best = max(sum((int(loss[r, c]) * q[c] for c in range(n)), Fraction(0)) for r in range(m))
    support = tuple(((a + 1, b + 1), q[c]) for c, (a, b) in enumerate(joint) if q[c])
    return -opponent_best, support


@dataclass(frozen=True)
class FictitiousPlayEnd:
    """Where fictitious play ends from one random start: each player's empirical mixture, rounded."""

    start: tuple[int, int, int]
    mixtures: tuple[tuple[float, ...], ...]


def fictitious_play_ends(name: str, starts: int, steps: int, seed: int) -> list[FictitiousPlayEnd]:
    ts = tensors(name)
    m = ts[0].shape[0]
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(starts):
        start = tuple(int(v) for v in rng.integers(0, m, size=3))
        trace = fictitious_play(ts, steps, start)
        out.append(FictitiousPlayEnd(start, tuple(tuple(round(float(x), 2) for x in mix) for mix in trace.mixtures)))
    return out


def search_equilibria(name: str, starts: int, seed: int, denominator: int = 60) -> list[Profile]:
    """Seeded multistart minimisation of the squared positive regrets; finds verified exactly.

    Each local minimum is rounded to rationals (denominators <= ``denominator``) and kept only
    if its exact regret is 0, so every returned profile is an equilibrium; the search can miss some.
    The set returned is closed under the game's symmetry (a permutation of the players maps an
    equilibrium to an equilibrium; each image is checked exactly).

    The search is reproducible bit for bit on any machine: the starting points are uniform
    variates of NumPy's PCG64 generator (integer arithmetic), and the optimiser
    (:func:`_bfgs`, on the squared-regret function of :func:`_regret_objective`) runs in plain
    Python floats — IEEE-754 multiplications and divisions, sums by ``math.fsum`` (correctly rounded), with
    no BLAS, no vectorised ``exp`` and no library line search, whose results differ between CPUs
    and thread counts. (With SciPy's BFGS the set of equilibria found changed between machines.)
    """
    ts = tensors(name)
    m = ts[0].shape[0]
    own_first = _own_first_tensors(ts)
    rng = np.random.default_rng(seed)
    found: set[Profile] = set()
    for _ in range(starts):
        z0 = [0.05 + float(v) for v in rng.random(3 * m)]
        z = _bfgs(lambda x: _regret_objective(own_first, x, m), z0)
        profile = tuple(_round_simplex(np.array(_from_squares(z[k * m:(k + 1) * m])), denominator) for k in range(3))
        if regret(ts, profile) == 0:
            found.add(profile)
    closed = set(found)
    for profile in found:
        for perm in itertools.permutations(range(3)):
            image = tuple(profile[perm[k]] for k in range(3))
            if image not in closed and regret(ts, image) == 0:
                closed.add(image)
    return sorted(closed)


def _own_first_tensors(ts: Sequence[np.ndarray]) -> list[list]:
    """``U[k][a][b][c]``: player k's payoff for own action a, the lower-numbered other's b, the other's c."""
    m = ts[0].shape[0]
    axes = ((0, 1, 2), (1, 0, 2), (2, 0, 1))
    out = []
    for k in range(3):
        t = np.transpose(ts[k], axes[k])
        out.append([[[float(t[a, b, c]) for c in range(m)] for b in range(m)] for a in range(m)])
    return out


def _from_squares(z: Sequence[float]) -> list[float]:
    total = fsum(v * v for v in z)
    return [v * v / total for v in z]


def _regret_objective(U: list, x: Sequence[float], m: int) -> tuple[float, list[float]]:
    """Σ_k Σ_a max(u_k(a) - u_k(p), 0)² and its gradient, with p_k = z_k² / |z_k|² (plain floats)."""
    z = [list(x[k * m:(k + 1) * m]) for k in range(3)]
    p = [_from_squares(zk) for zk in z]
    grad_p = [[0.0] * m for _ in range(3)]
    total = 0.0
    others = ((1, 2), (0, 2), (0, 1))
    for k in range(3):
        i, j = others[k]
        Uk, pi, pj = U[k], p[i], p[j]
        Mi = [[fsum(Uk[a][b][c] * pj[c] for c in range(m)) for b in range(m)] for a in range(m)]
        Mj = [[fsum(Uk[a][b][c] * pi[b] for b in range(m)) for c in range(m)] for a in range(m)]
        v = [fsum(Mi[a][b] * pi[b] for b in range(m)) for a in range(m)]
        w = fsum(p[k][a] * v[a] for a in range(m))
        r = [max(v[a] - w, 0.0) for a in range(m)]
        total += fsum(ra * ra for ra in r)
        R = fsum(r)
        for a in range(m):
            grad_p[k][a] -= 2.0 * R * v[a]
        coef = [2.0 * (r[a] - R * p[k][a]) for a in range(m)]
        for b in range(m):
            grad_p[i][b] += fsum(coef[a] * Mi[a][b] for a in range(m))
            grad_p[j][b] += fsum(coef[a] * Mj[a][b] for a in range(m))
    grad = []
    for k in range(3):
        scale = fsum(zz * zz for zz in z[k])
        mean = fsum(g * q for g, q in zip(grad_p[k], p[k]))
        grad += [2.0 * z[k][b] / scale * (grad_p[k][b] - mean) for b in range(m)]
    return total, grad


def _bfgs(fun, x0: Sequence[float], iterations: int = 400, tolerance: float = 1e-22) -> list[float]:
    """A plain-Python BFGS with Armijo backtracking; deterministic to the last bit on any IEEE machine."""
    n = len(x0)
    x = list(x0)
    f, g = fun(x)
    H = [[float(i == j) for j in range(n)] for i in range(n)]
    for _ in range(iterations):
        if f <= tolerance:
            break
        d = [-fsum(H[i][j] * g[j] for j in range(n)) for i in range(n)]
        slope = fsum(di * gi for di, gi in zip(d, g))
        if slope >= 0:      # not a descent direction: restart from steepest descent
            H = [[float(i == j) for j in range(n)] for i in range(n)]
            d, slope = [-gi for gi in g], -fsum(gi * gi for gi in g)
        step = 1.0
        for _ in range(50):
            trial = [xi + step * di for xi, di in zip(x, d)]
            f_new, g_new = fun(trial)
            if f_new <= f + 1e-4 * step * slope:
                break
            step *= 0.5
        else:
            break
        s_vec = [t - xi for t, xi in zip(trial, x)]
        y_vec = [a - b for a, b in zip(g_new, g)]
        sy = fsum(a * b for a, b in zip(s_vec, y_vec))
        x, f, g = trial, f_new, g_new
        if sy > 1e-150:   # (sy squared must not underflow)
            Hy = [fsum(H[i][j] * y_vec[j] for j in range(n)) for i in range(n)]
            yHy = fsum(a * b for a, b in zip(y_vec, Hy))
            c1 = (sy + yHy) / (sy * sy)
            for i in range(n):
                for j in range(n):
                    H[i][j] += c1 * s_vec[i] * s_vec[j] - (Hy[i] * s_vec[j] + s_vec[i] * Hy[j]) / sy
    return x


def _round_simplex(row: np.ndarray, denominator: int) -> tuple[Fraction, ...]:
    out = [Fraction(float(x)).limit_denominator(denominator) for x in row]
    out = [x if x > Fraction(1, 10**6) else Fraction(0) for x in out]
    top = max(range(len(out)), key=lambda a: out[a])
    out[top] += 1 - sum(out)
    return tuple(out)
