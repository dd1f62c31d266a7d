"""Three-player Kuhn poker as OpenSpiel implements it, against symgame's builder and the study's families.

OpenSpiel's ``kuhn_poker(players=3)`` (Lanctot et al., "OpenSpiel: A Framework for Reinforcement Learning in
Games", arXiv:1908.09453, 2019), written as a Gambit tree by OpenSpiel 2.0.2's ``export_gambit``
(:data:`EFG`, ``openspiel_kuhn3.efg`` beside this module), is an implementation of the rules independent of
:mod:`symgame.games.kuhn3`. :func:`openspiel_side` and :func:`symgame_side` read both trees as leaves keyed by
deal and action history, and the information sets by player, card and history, so that they can be compared
leaf by leaf (the tests do) and an equilibrium of one can be read in the variables of the other.

:func:`openspiel_equilibrium` is an experiment: one exact equilibrium of OpenSpiel's tree
(:func:`symgame.api.behaviour_point_json`: logit path, rounding, exact regret 0), read in the study's variables,
projected onto the frequencies the study fixes by dominance, checked for exact regret 0 in symgame's game at
P = 3, and compared with the study's families valid at P = 3; its case is then solved exactly.
"""
from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path
from typing import Any

CARDS = "JQKA"          # OpenSpiel's cards 0 < 1 < 2 < 3
#: OpenSpiel 2.0.2's export of ``kuhn_poker(players=3)`` (``pyspiel.load_game("kuhn_poker(players=3)")`` through
#: ``open_spiel.python.algorithms.gambit.export_gambit``)
EFG = Path(__file__).with_name("openspiel_kuhn3.efg")


def openspiel_side(path: Path) -> tuple[dict, dict]:
    """``{(deal, history): (probability, payoffs)}`` (history: p pass, b bet, as OpenSpiel names the actions)
    and ``{(player, card, history): (player, infoset number)}`` for every decision node of the Gambit tree."""
    from symgame.model.gambit import load_efg

    tree = load_efg(path)
    leaves, infosets = {}, {}
    for leaf in tree.leaves():
        deal: list[str] = []
        history = ""
        for player, number, action in leaf.path:
            info = tree.infosets[(player, number)]
            if player == 0:
                deal.append(CARDS[int(info.actions[action].split(":")[1])])
            else:
                infosets[(player, deal[player - 1], history)] = (player, number)
                history += {"Pass": "p", "Bet": "b"}[info.actions[action]]
        leaves[(tuple(deal), history)] = (leaf.chance, leaf.payoffs)
    return leaves, infosets


def symgame_side(pot: int) -> tuple[dict, dict]:
    """The same from :func:`symgame.games.kuhn3.build_tree` at pot ``pot`` (bet and call are b, check and fold
    p), with each decision node's variable name."""
    import sympy as sp

    from symgame.games import kuhn3
    from symgame.model.extensive import DecisionNode
    from symgame.model.parameters import parameter_symbol

    tree = kuhn3.build_tree(4)
    P = parameter_symbol("P")
    leaves, infosets = {}, {}
    for deal, (probability, opening) in zip(itertools.permutations(kuhn3.card_names(4), 3), tree.root.outcomes):
        stack = [(opening, "")]
        while stack:
            node, history = stack.pop()
            if isinstance(node, DecisionNode):
                player = node.player + 1
                if not node.infoset.startswith(f"{deal[player - 1]}{player}_"):
                    raise AssertionError(f"deal {deal}: node {node.infoset} is not player {player}'s card")
                infosets[(player, deal[player - 1], history)] = node.infoset
                for action, child in node.actions:
                    stack.append((child, history + ("b" if action in ("bet", "call") else "p")))
            else:
                leaves[(deal, history)] = (probability, tuple(Fraction(str(sp.sympify(p).subs(P, pot)))
                                                              for p in node.payoffs))
    return leaves, infosets


def openspiel_point(path: Path, fixed: dict[str, int]) -> tuple[dict[str, Any], dict[str, Fraction],
                                                                 dict[str, Fraction]]:
    """One exact equilibrium of OpenSpiel's tree (:func:`symgame.api.behaviour_point_json`: logit path,
    rounding, exact regret 0) in the study's variables at P = 3: the point as found, and projected onto the
    frequencies ``fixed`` by dominance. Returns the JSON of the point, the profile and the projection."""
    from symgame.api import behaviour_point_json
    from symgame.model.gambit import load_efg

    point = behaviour_point_json(load_efg(path), str(path))["equilibria"][0]
    (_, theirs), (_, ours) = openspiel_side(path), symgame_side(3)
    variable = {theirs[key]: ours[key] for key in ours}
    profile = {variable[(k + 1, int(key.split(":")[1]))]: Fraction(probs["Bet"])
               for k, infos in enumerate(point["behaviour"].values()) for key, probs in infos.items()}
    return point, profile, dict(profile, **{x: Fraction(v) for x, v in fixed.items()})


def openspiel_equilibrium(path: Path, study: dict[str, Any]) -> dict[str, Any]:
    """The experiment of the module docstring; ``study`` is the kuhn3 study's data (its cache's ``kuhn3`` part)."""
    import sympy as sp

    from symgame.engine.atlas import atlas_from_cases, seed_case
    from symgame.engine.casesplit import detect_structure
    from symgame.games import kuhn3
    from symgame.verify.polycert import exact_regret

    from .kuhn3 import reduced_game
    from .kuhn3_certify import member_sets

    fixed = study["dominance"]["fixed"]
    point, profile, projected = openspiel_point(path, fixed)
    off = {x: str(profile[x]) for x, v in fixed.items() if profile[x] != v}
    regret = exact_regret(kuhn3.build_game(4), {x: sp.Rational(v.numerator, v.denominator) for x, v in projected.items()},
                          {"P": sp.Integer(3)})
    game, members = member_sets(study)
    P = game.symbol("P")
    inside = []
    for family, case, pset, intervals in members:
        if not any(iv.contains(Fraction(3)) for iv in intervals):
            continue
        subs = {P: sp.Integer(3)}
        subs.update({game.symbol(z): sp.Rational(projected[z].numerator, projected[z].denominator) for z in pset.free})
        if all(sp.nsimplify(e.subs(subs)) == sp.Rational(projected[x].numerator, projected[x].denominator)
               for x, e in pset.values if x not in pset.free) and \
                all(e.subs(subs) >= 0 for e, rel in pset.constraints if rel in (">", ">=")):
            inside.append(family)
    reduced = reduced_game(fixed)
    case = seed_case(reduced, detect_structure(reduced), 3.0, {x: float(projected[x]) for x in reduced.variables})
    atlas = atlas_from_cases(reduced, [case])
    return {"payoffs": point.get("payoffs"), "dominance_fixes_not_followed": off,
            "regret_after_projection": [str(g) for g in regret.gains], "families_containing_it": inside,
            "case": case, "case_in_study": case in study["discovery"]["cases"],
            "case_verdict": atlas.verdicts[0].stage,
            "new_families": [[f.ident, [iv.text("P") for m in f.members for iv in m.range.intervals]]
                             for f in atlas.families]}


if __name__ == "__main__":
    import json

    root = Path(__file__).resolve().parents[2]
    data = json.loads((root / "outputs" / "kuhn3" / "study_cache.json").read_text())["kuhn3"]["data"]
    print(json.dumps(openspiel_equilibrium(EFG, data), indent=1))
