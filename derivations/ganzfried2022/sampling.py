"""Parameter sampling against decision lists: Ganzfried's Figure 1 experiment, re-run and extended.

Ganzfried, "Parametric decision lists and sampling for two-player zero-sum games" (the seed paper of
:data:`symgame.references` key ``ganzfried2022``), section 4 (Theorem 1, Lemmas 1-4) and section 5 (Figure 1):
random 2x2 zero-sum games with the row player's payoffs ``(a, c, e, g)`` uniform in ``[-1, 1]``; the first
``k`` of 100,000 training games are solved; each of 10,000 fresh test games plays the equilibrium of the
nearest training game (L2 distance on ``(a, c, e, g)``); the average exploitability is plotted against ``k``.
Printed: 0.0129 at ``k = 2``, a peak of 0.159 at ``k = 20``, 0.0077 at ``k = 100,000``.

Conventions the paper leaves open, and what is done here (every one is reported):

* *exploitability* of a profile ``(x, y)`` in a game of value ``v``: the row player's ``v - min_j (x A)_j``,
  the column player's ``max_i (A y)_i - v``; we report the row player's (``row``), the sum (``sum``) and the
  mean of the two (``mean``);
* test games are drawn afresh for every ``k`` (as the paper says), from one seeded generator;
* ties (a game with several equilibria) have probability 0 and are not treated specially.

Everything is seeded (``numpy.random.default_rng``); floats only (this is an experiment, not a derivation).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
from scipy.cluster.vq import kmeans2
from scipy.spatial import cKDTree

from symgame.references import cite

SOURCE = cite("ganzfried2022", "section 4, Theorem 1 and Lemma 4; section 5, Figure 1")
PRINTED = {2: 0.0129, 20: 0.159, 100_000: 0.0077}
KS = (1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 70, 100, 200, 500, 1000, 2000, 5000, 10_000,
      20_000, 50_000, 100_000)
CONVENTIONS = ("row", "sum", "mean")


# --------------------------------------------------------------------------- 2x2 zero-sum games, vectorised

def random_games(rng: np.random.Generator, n: int) -> np.ndarray:
    """``n`` games: rows ``(a, c, e, g)`` uniform in [-1, 1] (the matrix is ``[[a, c], [e, g]]``)."""
    return rng.uniform(-1.0, 1.0, size=(n, 4))


def solve_games(games: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Equilibrium ``(x, y, v)`` of each game: ``x = P(row plays T)``, ``y = P(column plays L)``, value."""
    a, c, e, g = games.T
    A = np.stack([np.stack([a, c], 1), np.stack([e, g], 1)], 1)  # (n, 2, 2)
    n = len(games)
    x = np.full(n, np.nan)
    y = np.full(n, np.nan)
    v = np.full(n, np.nan)
    for i in (0, 1):
        for j in (0, 1):
            saddle = (A[:, i, j] >= A[:, 1 - i, j]) & (A[:, i, j] <= A[:, i, 1 - j]) & np.isnan(x)
            x[saddle] = 1.0 - i
            y[saddle] = 1.0 - j
            v[saddle] = A[saddle, i, j]
    mixed = np.isnan(x)
    den = a - c - e + g
    x[mixed] = ((g - e) / den)[mixed]
    y[mixed] = ((g - c) / den)[mixed]
    v[mixed] = ((a * g - c * e) / den)[mixed]
    return x, y, v


def exploitability(games: np.ndarray, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The row and column player's exploitability of ``(x, y)`` in each game."""
    a, c, e, g = games.T
    v = solve_games(games)[2]
    row_worst = np.minimum(x * a + (1 - x) * e, x * c + (1 - x) * g)
    col_worst = np.maximum(y * a + (1 - y) * c, y * e + (1 - y) * g)
    return np.maximum(v - row_worst, 0.0), np.maximum(col_worst - v, 0.0)


def _convention(row: np.ndarray, col: np.ndarray) -> dict[str, float]:
    return {"row": float(row.mean()), "sum": float((row + col).mean()), "mean": float(((row + col) / 2).mean())}


# --------------------------------------------------------------------------- the experiment

@dataclass(frozen=True)
class CurvePoint:
    k: int
    exploitability: dict[str, float]
    lemma4_worst: float          # max over test games of exploitability / (2 * Linf distance); <= 1 by Lemma 4


@dataclass(frozen=True)
class SmallK:
    """The spread over independent training draws of the average exploitability at a small ``k``."""

    k: int
    draws: int
    quantiles: dict[str, float]
    printed: float
    share_at_most_printed: float


@dataclass(frozen=True)
class Method:
    name: str
    k: int | None
    exploitability: dict[str, float]
    microseconds_per_game: float


@dataclass(frozen=True)
class TheoremCheck:
    """Theorem 1 on a one-parameter family: measured E[eps_t] against the bound of its proof."""

    t: int
    measured: float
    bound_corrected: float
    bound_printed: float


@dataclass(frozen=True)
class SamplingStudy:
    seed: int
    train: int
    test: int
    curve: tuple[CurvePoint, ...]
    small_k: tuple[SmallK, ...]
    methods: tuple[Method, ...]
    theorem: tuple[TheoremCheck, ...]
    pdl_exact_checks: int
    pdl_text: str
    seconds: float = field(default=0.0, compare=False)


def figure1_curve(seed: int = 2022, train: int = 100_000, test: int = 10_000,
                  ks: tuple[int, ...] = KS) -> tuple[CurvePoint, ...]:
    """The Figure 1 curve: average exploitability of nearest-sample play against ``k``."""
    rng = np.random.default_rng(seed)
    training = random_games(rng, train)
    x, y, _ = solve_games(training)
    out = []
    for k in ks:
        if k > train:
            break
        tests = random_games(rng, test)
        _, idx = cKDTree(training[:k]).query(tests)
        row, col = exploitability(tests, x[idx], y[idx])
        dist = np.max(np.abs(training[idx] - tests), axis=1)
        ratio = np.max(np.maximum(row, col) / np.maximum(2 * dist, 1e-300))
        out.append(CurvePoint(k, _convention(row, col), float(ratio)))
    return tuple(out)


def small_k_spread(seed: int = 7, draws: int = 400, test: int = 10_000) -> tuple[SmallK, ...]:
    """How the small-``k`` averages depend on which training games were drawn (row convention)."""
    rng = np.random.default_rng(seed)
    out = []
    for k in (2, 20):
        values = []
        for _ in range(draws):
            training = random_games(rng, k)
            x, y, _ = solve_games(training)
            tests = random_games(rng, test)
            _, idx = cKDTree(training).query(tests)
            row, _ = exploitability(tests, x[idx], y[idx])
            values.append(row.mean())
        arr = np.array(values)
        qs = {f"q{int(q * 100):02d}": float(np.quantile(arr, q)) for q in (0.01, 0.1, 0.5, 0.9, 0.99)}
        out.append(SmallK(k, draws, qs, PRINTED[k], float((arr <= PRINTED[k]).mean())))
    return tuple(out)


def compare_methods(pdl, seed: int = 11, train: int = 100_000, test: int = 10_000,
                    ks: tuple[int, ...] = (2, 20, 1000, 100_000)) -> tuple[Method, ...]:
    """The derived PDL against nearest-sample and k-means play on the same test games."""
    rng = np.random.default_rng(seed)
    training = random_games(rng, train)
    tests = random_games(rng, test)
    x, y, _ = solve_games(training)
    out = []
    cols = {"a": tests[:, 0], "c": tests[:, 1], "e": tests[:, 2], "g": tests[:, 3],
            "b": -tests[:, 0], "d": -tests[:, 1], "f": -tests[:, 2], "h": -tests[:, 3]}
    t0 = time.perf_counter()
    row_p, col_p = pdl.profiles_numeric(cols)
    pdl_us = (time.perf_counter() - t0) / test * 1e6
    row, col = exploitability(tests, row_p[:, 0], col_p[:, 0])
    out.append(Method("decision list (derived)", None, _convention(row, col), pdl_us))
    for k in ks:
        tree = cKDTree(training[:k])
        t0 = time.perf_counter()
        _, idx = tree.query(tests)
        us = (time.perf_counter() - t0) / test * 1e6
        row, col = exploitability(tests, x[idx], y[idx])
        out.append(Method("nearest sample", k, _convention(row, col), us))
    for k in ks[:-1]:
        centres, _ = kmeans2(training, k, seed=np.random.default_rng(seed + k), minit="++")
        cx, cy, _ = solve_games(centres)
        tree = cKDTree(centres)
        t0 = time.perf_counter()
        _, idx = tree.query(tests)
        us = (time.perf_counter() - t0) / test * 1e6
        row, col = exploitability(tests, cx[idx], cy[idx])
        out.append(Method("k-means centres", k, _convention(row, col), us))
    return tuple(out)


def _family(lam: np.ndarray) -> np.ndarray:
    """A one-parameter family with payoffs in [0, 1], Lipschitz constant 2: ``[[l, 1-l], [(1-l)^2, l^2]]``."""
    return np.stack([lam, 1 - lam, (1 - lam) ** 2, lam ** 2], 1)


def theorem1_check(seed: int = 5, ts: tuple[int, ...] = (1, 2, 5, 10, 20, 50, 100, 1000), test: int = 20_000,
                   repeats: int = 20) -> tuple[TheoremCheck, ...]:
    """Measured ``E[eps_t]`` (row convention) and the proof's bound ``min_d 2 L d + 2 (1 - w d)^t``.

    ``w = 2`` is the proof's probability (printed); ``w = 1`` is the correct one near the ends of [0, 1].
    """
    rng = np.random.default_rng(seed)
    L = 2.0
    deltas = np.linspace(1e-4, 0.5, 5000)
    out = []
    for t in ts:
        vals = []
        for _ in range(repeats):
            samples = rng.uniform(0, 1, t)
            x, y, _ = solve_games(_family(samples))
            lam = rng.uniform(0, 1, test)
            idx = np.abs(lam[:, None] - samples[None, :]).argmin(axis=1) if t <= 1000 else None
            row, _ = exploitability(_family(lam), x[idx], y[idx])
            vals.append(row.mean())
        corrected = float(np.min(2 * L * deltas + 2 * (1 - deltas) ** t))
        printed = float(np.min(2 * L * deltas + 2 * np.clip(1 - 2 * deltas, 0, 1) ** t))
        out.append(TheoremCheck(t, float(np.mean(vals)), corrected, printed))
    return tuple(out)


def pdl_exact_zero(pdl, seed: int = 3, games: int = 200) -> int:
    """Exploitability of the decision list's profile is exactly 0 at random rational zero-sum games."""
    from fractions import Fraction

    rng = np.random.default_rng(seed)
    checked = 0
    for _ in range(games):
        a, c, e, g = (Fraction(int(v), 1000) for v in rng.integers(-1000, 1001, 4))
        point = {"a": a, "c": c, "e": e, "g": g, "b": -a, "d": -c, "f": -e, "h": -g}
        choice = pdl.evaluate(point)
        (xT, xB), (yL, yR) = choice.strategies
        row_worst = min(xT * a + xB * e, xT * c + xB * g)
        col_best = max(yL * a + yR * c, yL * e + yR * g)
        if row_worst != col_best:  # value attained by both sides: both exploitabilities are 0
            raise AssertionError(f"decision list profile exploitable at {point}")
        checked += 1
    return checked


def sampling_study(pdl, quick: bool = False) -> SamplingStudy:
    """Run everything against the 2x2 decision list ``pdl`` (``quick``: small sizes, for tests)."""
    t0 = time.perf_counter()
    if quick:
        curve = figure1_curve(train=2000, test=1000, ks=(1, 2, 20, 2000))
        small = small_k_spread(draws=20, test=1000)
        methods = compare_methods(pdl, train=2000, test=1000, ks=(2, 20, 2000))
        theorem = theorem1_check(ts=(1, 10, 100), test=2000, repeats=3)
        exact = pdl_exact_zero(pdl, games=20)
        train, test = 2000, 1000
    else:
        curve = figure1_curve()
        small = small_k_spread()
        methods = compare_methods(pdl)
        theorem = theorem1_check()
        exact = pdl_exact_zero(pdl)
        train, test = 100_000, 10_000
    return SamplingStudy(2022, train, test, curve, small, methods, theorem, exact, pdl.render_text(),
                         time.perf_counter() - t0)
