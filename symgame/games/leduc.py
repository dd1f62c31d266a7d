"""Leduc hold'em: the field's standard small poker benchmark (Southey et al., "Bayes' bluff: opponent
modelling in poker", UAI 2005, section 5), in the variant of OpenSpiel's ``leduc_poker``.

Two players ante 1. The deck has ``ranks`` ranks in ``suits`` suits (3 and 2: six cards); each player gets
one private card. A betting round follows (player 0 first; check or call, raise by 2, fold only when facing a
raise; at most two raises), then one public card and a second round with raises of 4. A player whose private
card pairs the public card wins the showdown; otherwise the higher rank wins and equal ranks split the pot.
Payoffs are player 0's net winnings; an information set is a player's private rank, the public rank once
dealt, and the betting so far.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from ..model.extensive import Chance, DecisionNode, ExtensiveGame, Node, Terminal

RAISES = (2, 4)            # raise size in the first and the second round
MAX_RAISES = 2             # per round


def build_game(ranks: int = 3, suits: int = 2) -> ExtensiveGame:
    """The Leduc tree with a deck of ``ranks`` x ``suits`` cards (OpenSpiel's default: 3 x 2).

    Parameters
    ----------
    ranks, suits : int
        The deck; at least three cards are needed (two private, one public).

    Returns
    -------
    ExtensiveGame
        Two-player zero-sum, exact chance probabilities.

    Raises
    ------
    ValueError
        For a deck of fewer than three cards.

    Examples
    --------
    >>> from symgame.model.sequence_form import build_sequence_form
    >>> form = build_sequence_form(build_game())
    >>> len(form.players[0].infosets), len(form.players[1].infosets)
    (468, 468)
    """
    deck = list(range(ranks * suits))                   # card k has rank k // suits, as in OpenSpiel
    names = [f"{'JQKA23456789T'[k // suits] if ranks <= 13 else k // suits}{'shdc'[k % suits] if suits <= 4 else k % suits}"
             for k in deck]
    if ranks < 1 or suits < 1 or ranks * suits < 3:
        raise ValueError(f"Leduc needs a deck of at least 3 cards, got {ranks} ranks x {suits} suits")

    @lru_cache(maxsize=None)
    def betting(c0: int, c1: int, public: int, rnd: int, past: str, history: str, paid: tuple[int, int]) -> Node:
        player = len(history) % 2
        facing = paid[1 - player] > paid[player]
        raises = history.count("r")
        card = c0 if player == 0 else c1
        seen = f"{names[card]}" + (f"|{names[public]}" if rnd == 1 else "")
        infoset = f"P{player}:{seen}:{past + '/' if rnd else ''}{history}"
        actions: list[tuple[str, Node]] = []
        if facing:
            actions.append(("fold", Terminal(Fraction(-paid[0] if player == 0 else paid[1]))))
        after_call = (max(paid), max(paid))
        if history and (history[-1] == "c" or facing):     # a check after a check, or a call: the round ends
            actions.append(("call", _round_end(c0, c1, public, rnd, history + "c", after_call)))
        else:
            actions.append(("call", betting(c0, c1, public, rnd, past, history + "c", after_call)))
        if raises < MAX_RAISES:
            raised = list(after_call)
            raised[player] += RAISES[rnd]
            actions.append(("raise", betting(c0, c1, public, rnd, past, history + "r", (raised[0], raised[1]))))
        return DecisionNode(player, infoset, tuple(actions))

    def _round_end(c0: int, c1: int, public: int, rnd: int, history: str, paid: tuple[int, int]) -> Node:
        if rnd == 0:
            return public_card(c0, c1, history, paid)
        return Terminal(Fraction(_showdown(c0 // suits, c1 // suits, public // suits) * paid[0]))

    @lru_cache(maxsize=None)
    def public_card(c0: int, c1: int, past: str, paid: tuple[int, int]) -> Node:
        rest = list(deck)
        rest.remove(c0)
        rest.remove(c1)
        p = Fraction(1, len(rest))
        return Chance(tuple((p, betting(c0, c1, card, 1, past, "", paid)) for card in rest))

    def private(c0: int) -> Node:
        rest = list(deck)
        rest.remove(c0)
        p = Fraction(1, len(rest))
        return Chance(tuple((p, betting(c0, c1, -1, 0, "", "", (1, 1))) for c1 in rest))

    p0 = Fraction(1, len(deck))
    return ExtensiveGame(f"leduc_{ranks}x{suits}", ("P0", "P1"), Chance(tuple((p0, private(c)) for c in deck)),
                         description=f"Leduc hold'em, {ranks} ranks x {suits} suits, ante 1, raises {RAISES}, "
                                     f"at most {MAX_RAISES} per round (OpenSpiel's leduc_poker).")


def _showdown(c0: int, c1: int, public: int) -> int:
    """+1 when player 0 wins, -1 when player 1 wins, 0 for a split."""
    if c0 == public:
        return 1
    if c1 == public:
        return -1
    return (c0 > c1) - (c0 < c1)
