"""The Guts bot: the user plays player 1 of continuous Guts against an optimal N-player coalition.

Each round every player gets a hand uniform on [0, 1]; the coalition draws
one of its pure pseudo-bloc strategies from its optimal mixture (the
column strategy at the fixed point of the value map, computed by
:func:`symgame.games.guts.solve_coalition`) and its members hold above
their thresholds.  Accounting as in section 3 of the paper, times the
current stakes: a lone holder wins ``n - 1`` and the game ends; with
``r >= 2`` holders the best one wins ``n``, the other holders pay ``n``,
everybody gets the virtual ante ``r - 2`` and the stakes are multiplied
by ``r - 1``; if nobody holds the round is replayed.  The bot reads the
user's decisions as lines ``h``/``d`` from a text stream, so it is
scriptable through standard input.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator, TextIO

import numpy as np

from derivations.buck2022.coalitions import solve_coalition


@dataclass(frozen=True)
class RoundOutcome:
    holders: tuple[int, ...]
    winner: int | None
    user_return: float
    stakes_after: float
    finished: bool


def settle_round(hands: np.ndarray, hold: np.ndarray, stakes: float) -> RoundOutcome:
    """Player 0 is the user; returns are in antes times the current stakes."""
    n = len(hands)
    holders = tuple(int(k) for k in np.nonzero(hold)[0])
    r = len(holders)
    if r == 0:
        return RoundOutcome(holders, None, 0.0, stakes, False)
    if r == 1:
        winner = holders[0]
        user = (n - 1) if winner == 0 else -1
        return RoundOutcome(holders, winner, user * stakes, stakes, True)
    winner = max(holders, key=lambda k: hands[k])
    user = r - 2 + (n if winner == 0 else (-n if 0 in holders else 0))
    return RoundOutcome(holders, winner, user * stakes, stakes * (r - 1), False)


def play(opponents: int, seed: int, read: Callable[[], str | None], write: Callable[[str], None],
         games: int = 5, mesh: int = 101) -> float:
    """Play ``games`` games (or until the input ends); returns the user's final score in antes."""
    rng = np.random.default_rng(seed)
    result = solve_coalition(opponents, mesh, certify=False)
    strategies = [np.array(c) for c, _ in result.coalition_strategy]
    weights = np.array([w for _, w in result.coalition_strategy])
    weights = weights / weights.sum()
    n = opponents + 1
    write(f"Continuous Guts: you against a coalition of {opponents} (optimal pseudo-bloc play; value to you "
          f"{result.player1_value:+.4f} antes per game). Answer h (hold) or d (drop).")
    score = 0.0
    for game in range(1, games + 1):
        stakes, rnd = 1.0, 0
        write(f"Game {game}: everybody antes 1, the pot is {n} antes.")
        while True:
            rnd += 1
            hands = rng.random(n)
            thresholds = strategies[rng.choice(len(strategies), p=weights)]
            write(f"  round {rnd}, pot {n * stakes:g} antes: your hand is {hands[0]:.3f}. Hold or drop? [h/d]")
            answer = _decision(read, write)
            if answer is None:
                write(f"Input ended. Final score: {score:+g} antes.")
                return score
            hold = np.concatenate([[answer], hands[1:] > thresholds])
            out = settle_round(hands, hold, stakes)
            score += out.user_return
            shown = ", ".join(f"{h:.3f}{'*' if hold[k + 1] else ''}" for k, h in enumerate(hands[1:]))
            write(f"  coalition hands (* held): {shown}")
            if not out.holders:
                write("  nobody held: the round is replayed.")
            elif out.finished:
                who = "you" if out.winner == 0 else f"opponent {out.winner}"
                write(f"  {who} held alone and took the pot. Your return {out.user_return:+g}; score {score:+g}.")
                break
            else:
                who = "you" if out.winner == 0 else f"opponent {out.winner}"
                write(f"  {len(out.holders)} held; {who} had the best hand. Your return {out.user_return:+g}; "
                      f"score {score:+g}; stakes now x{out.stakes_after:g}.")
            stakes = out.stakes_after
    write(f"Final score after {games} games: {score:+g} antes.")
    return score


def _decision(read: Callable[[], str | None], write: Callable[[str], None]) -> bool | None:
    while True:
        line = read()
        if line is None:
            return None
        text = line.strip().lower()
        if text in ("h", "hold"):
            return True
        if text in ("d", "drop"):
            return False
        write("  please answer h (hold) or d (drop)")


def lines_from(stream: TextIO) -> Callable[[], str | None]:
    iterator: Iterator[str] = iter(stream)

    def read() -> str | None:
        return next(iterator, None)
    return read
