"""The computed parts of the Goofspiel study (JSON-ready), apart from their rendering so that the cache
keys of ``outputs/goofspiel/study_cache.json`` change only when the computation does.

* ``exact``: the amount objective in exact arithmetic for N = 1..EXACT_MAX, every matrix game certified;
* ``float``: the amount objective in floating point for N = EXACT_MAX + 1..FLOAT_MAX (two processes), with the
  range of each first-move probability over every optimal first move (HiGHS);
* ``win``: the win objective, P(win) - P(loss), exactly for N <= WIN_EXACT_MAX and in floats to WIN_FLOAT_MAX;
* ``compare``: the two objectives' strategies played against each other and against best responses;
* ``unique``: whether Table 1's first moves are the only optimal ones (exact vertex enumeration at N = 5).
"""
from __future__ import annotations

import time
from fractions import Fraction
from typing import Sequence

EXACT_MAX = 7
FLOAT_MAX = 13                 # Table 2's N (about 10 minutes on 2 cores in all)
WIN_EXACT_MAX = 6
WIN_FLOAT_MAX = 8
COMPARE = (2, 3, 4, 5)


def _two_processes(fn, items):
    from symgame.engine.atlas import process_map  # workers end at once on Ctrl-C

    return process_map(fn, items, 2)


EXACT_CHARS = 300


def _exact_text(p: Fraction) -> str:
    """An exact number as ``p/q`` when short; else ``~`` and its decimal to 45 places, truncated (N >= 6 gives
    probabilities of thousands to millions of digits, which the cache does not keep; exact zeros stay exact)."""
    if p.numerator.bit_length() + p.denominator.bit_length() < EXACT_CHARS * 3:
        return str(p)
    scaled = abs(p.numerator) * 10 ** 45 // p.denominator          # a small quotient: fast even for huge p
    whole, frac = divmod(scaled, 10 ** 45)
    return f"~{'-' if p < 0 else ''}{whole}.{frac:045d}"


def prob(text: str) -> Fraction:
    """A cached probability: exact, or the 40-digit decimal of an exact one (``~``)."""
    return Fraction(text[1:]) if text.startswith("~") else Fraction(text)


def _row_json(solution) -> dict:
    return {str(c): {str(b): _exact_text(p) if solution.exact else repr(float(p)) for b, p in row.items()}
            for c, row in solution.first_move.items()}


def _solve_part(cards: int, objective: str, exact: bool, mapper=None) -> dict:
    import resource

    from symgame.games.goofspiel import solve

    t0 = time.perf_counter()
    s = solve(cards, exact=exact, objective=objective, mapper=mapper)
    seconds = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    extra: dict = {}
    if objective == "amount" and not exact:
        extra["range"] = _first_move_ranges(s)
    if objective == "amount" and cards == 9:
        # section 5: after upcard 9, human bid 1 against the computer's 9, the rest of the game is worth to the human
        rest = tuple(range(1, 9))
        extra["n9_after_1_vs_9"] = repr(float(s.subgame_value(tuple(range(2, 10)), rest, rest)) - 9.0)
    return {"cards": cards, "objective": objective, "exact": exact,
            "value": _exact_text(s.value) if exact else repr(float(s.value)),
            "first_move": _row_json(s), "states": s.states, "matrix_games": s.matrix_games,
            "saddle_points": s.saddle_points, "seconds": round(seconds, 2), "peak_mb": peak, **extra}


RANGE_DIGITS = 6


def _first_move_ranges(solution) -> dict:
    """Per upcard and bet, ``[low, high]``: the bet's probability over every optimal first move (within 1e-9 of
    the value; :func:`symgame.numeric.solvers.optimal_strategy_ranges`), rounded to RANGE_DIGITS places."""
    import numpy as np

    from symgame.numeric.solvers import optimal_strategy_ranges

    hand = tuple(range(1, solution.cards + 1))
    out = {}
    for c in hand:
        ranges = optimal_strategy_ranges(np.array(solution.matrix(hand, hand, hand, c), dtype=float))
        out[str(c)] = {str(b): [round(float(lo), RANGE_DIGITS), round(float(hi), RANGE_DIGITS)]
                       for b, (lo, hi) in zip(hand, ranges)}
    return out


def part_exact(cards: Sequence[int]) -> list[dict]:
    return [_solve_part(n, "amount", True, _two_processes if n >= 6 else None) for n in cards]


def part_float(cards: Sequence[int]) -> list[dict]:
    from symgame.engine.atlas import ProcessMapper  # one pool; each level's table shared as a file, not pickled

    with ProcessMapper(2) as mapper:
        return [_solve_part(n, "amount", False, mapper) for n in cards]


def part_win(exact_cards: Sequence[int], float_cards: Sequence[int]) -> list[dict]:
    return [_solve_part(n, "win", True) for n in exact_cards] + [_solve_part(n, "win", False) for n in float_cards]


def part_compare(cards: Sequence[int]) -> list[dict]:
    from symgame.games.goofspiel import evaluate, solve

    rows = []
    for n in cards:
        exact = n <= 4
        amount, win = solve(n, exact=exact), solve(n, exact=exact, objective="win")
        for o in (evaluate(amount, win), evaluate(amount, None, "win"), evaluate(win, None, "amount"),
                  evaluate(win, None, "win")):
            rows.append({"cards": n, "exact": exact, "player1": o.player1, "player2": o.player2,
                         **{k: _exact_text(getattr(o, k)) if exact else repr(float(getattr(o, k)))
                            for k in ("win", "tie", "loss", "amount")}})
    return rows


def part_unique(cards: int = 5) -> dict:
    """Every optimal first move at N (exact vertex enumeration of each upcard's matrix game): the number of
    extreme optimal strategies of player 1 and the range of each bet's probability over them."""
    from symgame.engine.enummixed import enummixed_solve
    from symgame.games.goofspiel import solve

    s = solve(cards, exact=True)
    hand = tuple(range(1, cards + 1))
    out = {}
    for c in hand:
        x = [[Fraction(int(e.p), int(e.q)) for e in r] for r in s.matrix(hand, hand, hand, c)]
        rows = sorted({e.row for e in enummixed_solve(x, [[-v for v in r] for r in x]).equilibria})
        out[str(c)] = {"extreme": len(rows),
                       "range": {str(b): [_exact_text(min(r[k] for r in rows)), _exact_text(max(r[k] for r in rows))]
                                 for k, b in enumerate(hand)}}
    return {"cards": cards, "upcards": out}


PARTS = {
    "exact": (part_exact, {"cards": list(range(1, EXACT_MAX + 1))}),
    "float": (part_float, {"cards": list(range(EXACT_MAX + 1, FLOAT_MAX + 1))}),
    "win": (part_win, {"exact_cards": list(range(1, WIN_EXACT_MAX + 1)),
                       "float_cards": list(range(WIN_EXACT_MAX + 1, WIN_FLOAT_MAX + 1))}),
    "compare": (part_compare, {"cards": list(COMPARE)}),
    "unique": (part_unique, {"cards": 5}),
}
