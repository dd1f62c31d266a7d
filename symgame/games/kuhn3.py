"""Three-player Kuhn poker, every card active, built from the rules.

The game of Abou Risk and Szafron ("Using counterfactual regret minimization to create competitive
multiplayer poker agents", AAMAS 2010, section 4) and of Szafron, Gibson and Sturtevant ("A
parameterized family of equilibrium profiles for three-player Kuhn poker", AAMAS 2013, section 2):
a deck of ``cards`` ranks (4 in the standard game), one card to each of three players, a pot ``P``
(the three antes of 1: ``P = 3`` in the standard game), one bet of 1.  Players act in turn: each checks
or bets while nobody has bet; after a bet every other player, in turn from the bettor's left, calls or
folds, seeing the earlier responses; the highest card among the players still in wins the pot and
every bet.  Payoffs are net of each player's share ``P/3`` of the pot (as in
:mod:`symgame.games.billingham`, whose game is this one with the lowest card forced to check or
fold and further restrictions).

Every information set has two actions; its variable is the probability of the first one (bet when
nobody has bet, call when facing a bet) and is named ``<card><player>_<history>``: ``A1_o`` is player
1 betting an ace first to act, ``K2_b`` player 2 calling a king after player 1's bet, ``K3_bf`` player 3
calling a king after player 1's bet and player 2's fold; the history uses ``x`` check, ``b`` bet, ``c`` call,
``f`` fold (``o``: nothing yet).
"""
from __future__ import annotations

import itertools
from fractions import Fraction

import sympy as sp

from ..model.behaviour_poly import compile_payoffs
from ..model.extensive import Chance, DecisionNode, ExtensiveGame, Node, Outcome
from ..model.parameters import parameter_symbol, parse_domain
from ..model.polygame import PolynomialGame, PolyPlayer
from ..references import cite

RANKS = "JQKA98765432"  # J < Q < K < A in the four-card game; lower ranks are added below J
STANDARD_POT = Fraction(3)
SOURCE = cite("szafron2013", "section 2")


def card_names(cards: int) -> tuple[str, ...]:
    """Card names from lowest to highest: ``J Q K A`` for four cards, then 10, 9, ... below J."""
    if not 3 <= cards <= 12:
        raise ValueError(f"three-player Kuhn poker needs 3 to 12 cards, got {cards}")
    low = ["T", "9", "8", "7", "6", "5", "4", "3"][: cards - 4] if cards > 4 else []
    high = ["J", "Q", "K", "A"][4 - min(cards, 4):]
    return tuple(list(reversed(low)) + high)


def variable_name(player: int, card: str, history: str) -> str:
    return f"{card}{player}_{history or 'o'}"


def build_tree(cards: int = 4) -> ExtensiveGame:
    """The game tree: ``cards * (cards-1) * (cards-2)`` equally likely deals, then the betting."""
    names = card_names(cards)
    rank = {c: k for k, c in enumerate(names)}
    P = parameter_symbol("P")

    def showdown(hand: dict[int, str], live: list[int], stakes: dict[int, int]) -> Outcome:
        winner = max(live, key=lambda i: rank[hand[i]])
        pay = [-stakes[i] - P / 3 for i in (1, 2, 3)]
        pay[winner - 1] += P + sum(stakes.values())
        return Outcome(tuple(pay))

    def respond(hand, responders: list[int], history: str, live: list[int], stakes: dict[int, int]) -> Node:
        if not responders:
            return showdown(hand, live, stakes)
        r, rest = responders[0], responders[1:]
        called = dict(stakes)
        called[r] = 1
        options = (("call", respond(hand, rest, history + "c", live + [r], called)),
                   ("fold", respond(hand, rest, history + "f", live, stakes)))
        return DecisionNode(r - 1, variable_name(r, hand[r], history), options)

    def opening(hand, actor: int, history: str) -> Node:
        if actor == 4:
            return showdown(hand, [1, 2, 3], {1: 0, 2: 0, 3: 0})
        after = [actor % 3 + 1, (actor + 1) % 3 + 1]
        bet = respond(hand, after, history + "b", [actor], {1: int(actor == 1), 2: int(actor == 2), 3: int(actor == 3)})
        return DecisionNode(actor - 1, variable_name(actor, hand[actor], history),
                            (("bet", bet), ("check", opening(hand, actor + 1, history + "x"))))

    deals = list(itertools.permutations(names, 3))
    weight = Fraction(1, len(deals))
    root = Chance(tuple((weight, opening(dict(zip((1, 2, 3), deal)), 1, "")) for deal in deals))
    return ExtensiveGame(f"kuhn3_{cards}", ("1", "2", "3"), root,
                         description=f"three-player Kuhn poker, {cards} cards, pot P, bets of 1")


def build_game(cards: int = 4, fixed: dict[str, int] | None = None) -> PolynomialGame:
    """The polynomial game in the behaviour probabilities, pot ``P`` in ``[2, oo)``.

    ``fixed`` maps variable names to 0 or 1 (for instance the choices proved dominant by
    :func:`symgame.engine.polyreduce.dominant_choices`); those information sets leave the game.
    """
    tree = build_tree(cards)
    labels = sorted({n.infoset for n in _decision_nodes(tree.root)}, key=_order_key)
    fixed = dict(fixed or {})
    unknown = set(fixed) - set(labels)
    if unknown:
        raise ValueError(f"unknown variables {sorted(unknown)}")
    compiled = compile_payoffs(tree, {label: label for label in labels if label not in fixed},
                               fixed={label: sp.Integer(v) for label, v in fixed.items()})
    players = tuple(PolyPlayer(str(k + 1), compiled.variables[k], compiled.payoffs[k]) for k in range(3))
    return PolynomialGame(f"kuhn3_{cards}", (parse_domain("P", "[2, oo)"),), players,
                          f"Three-player Kuhn poker with {cards} cards, pot P, bets of 1 ({SOURCE})",
                          tuple(sorted((k, sp.Integer(v)) for k, v in fixed.items())))


def _order_key(label: str) -> tuple[int, int, str, int]:
    """Player, then situation (shorter histories first), then card: ``A1_o`` is card A, player 1, history o."""
    history = label[3:]
    return (int(label[1]), len(history), history, "3456789TJQKA".index(label[0]))


def _decision_nodes(root: Node):
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, DecisionNode):
            yield node
            stack.extend(child for _, child in node.actions)
        elif isinstance(node, Chance):
            stack.extend(child for _, child in node.outcomes)
