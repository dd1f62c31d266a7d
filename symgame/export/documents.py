"""Deterministic JSON, Markdown and errata documents for an analysed game.

Everything here is a pure function of the analysis: same input, same bytes.
"""
from __future__ import annotations

import json
from typing import Any, Mapping

import sympy as sp

from .._version import __version__
from ..engine.derive import Derivation
from ..games.analysis import ClaimResult, GameAnalysis
from ..model.decide import Decision
from ..model.exprtree import to_tree
from ..model.game import NormalFormGame
from ..model.markup import markdown_text
from ..model.pdl import PDL
from ..verify.certify import Certificate, RationalFunctions
from ..verify.compare import Counterexample

_STATUS = {Decision.TRUE: "proved", Decision.FALSE: "refuted", Decision.UNDECIDED: "undecided"}


def point_dict(point: Mapping[str, Any]) -> dict[str, str]:
    return {k: str(v) for k, v in sorted(point.items())}


def pdl_json(pdl: PDL, game: NormalFormGame | None = None) -> list[dict[str, Any]]:
    """The ``pdl`` array of the JSON contract (with each rule's value for zero-sum games)."""
    rules = []
    for rule in pdl.rules:
        entry = {"when": rule.region.texts, "profile": rule.profile.as_dict(pdl.players), "label": rule.label}
        if rule.readable is not None:
            entry["readable"] = rule.condition_text
            entry["readable_proved"] = rule.readable.proved.value
        entry["machine"] = {
            "when": [{"expr": to_tree(a.expr), "rel": a.rel} for a in rule.region.atoms],
            "profile": {player.name: {a: to_tree(p) for a, p in zip(player.actions, strategy) if p != 0}
                        for player, strategy in zip(pdl.players, rule.profile.strategies)}}
        if game is not None and game.zero_sum:
            entry["value"] = sp.sstr(rule_value(game, rule.profile))
        rules.append(unique_conditions(entry))
    return rules


def unique_conditions(entry: dict[str, Any]) -> dict[str, Any]:
    """A rule of the ``pdl`` array with each condition once (an engine's region may state one twice, as in
    ``["2*p1 - 1 == 0", "2*p1 - 1 == 0"]``); ``when`` and ``machine.when`` stay aligned. Also applied to rules
    read back from a study cache, so stored and fresh results render alike.

    Parameters
    ----------
    entry : dict
        One rule as :func:`pdl_json` writes it.

    Returns
    -------
    dict
        The same rule, repeated conditions dropped (the first kept).

    Examples
    --------
    >>> unique_conditions({"when": ["x == 0", "y > 0", "x == 0"], "profile": {}})["when"]
    ['x == 0', 'y > 0']
    """
    texts = entry["when"]
    keep = [k for k, text in enumerate(texts) if text not in texts[:k]]
    if len(keep) == len(texts):
        return entry
    out = dict(entry, when=[texts[k] for k in keep])
    if "machine" in entry:
        out["machine"] = dict(entry["machine"], when=[entry["machine"]["when"][k] for k in keep])
    return out


def profile_payoffs(game: NormalFormGame, profile) -> tuple[sp.Expr, ...]:
    """Each player's expected payoff of a profile, in the game's stated units, factored (as :func:`rule_value`).

    Examples
    --------
    >>> from symgame import normal_form
    >>> game = normal_form([["a", "0"], ["0", "1"]], parameters={"a": "(0, oo)"}, zero_sum=True)
    >>> from symgame.model.pdl import Profile
    >>> import sympy as sp
    >>> half = (sp.Rational(1, 2), sp.Rational(1, 2))
    >>> profile_payoffs(game, Profile((half, half)))
    ((a + 1)/4, -(a + 1)/4)
    """
    strategies = tuple(profile.strategies)
    if len(strategies) == 1:
        strategies = (strategies[0], (sp.Integer(1),))
    x, y = strategies
    field = RationalFunctions(game.domain.names)
    out = []
    for m in game.stated_payoffs:
        total = field.zero
        for i in range(m.shape[0]):
            for j in range(m.shape[1]):
                if x[i] != 0 and y[j] != 0:
                    total = total + field(x[i]) * field(m[i, j]) * field(y[j])
        out.append(sp.factor(field.to_sympy(total.numer) / field.to_sympy(total.denom)))
    return tuple(out)


def rule_value(game: NormalFormGame, profile) -> sp.Expr:
    """The row player's expected payoff ``x^T A y`` of a profile, factored.

    The sum is formed in the field QQ(parameters) with FLINT's polynomials (common factors cancelled as it
    goes) and only its reduced numerator and denominator are factored by sympy: summing sympy expressions
    and then calling ``cancel`` took 163 of the 193 s of the decision list's JSON for Final Jeopardy (12, 11).
    """
    x, y = profile.strategies
    a = game.stated_payoffs[0]
    field = RationalFunctions(game.domain.names)
    total = field.zero
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            if x[i] != 0 and y[j] != 0:
                total = total + field(x[i]) * field(a[i, j]) * field(y[j])
    return sp.factor(field.to_sympy(total.numer) / field.to_sympy(total.denom))


def game_header(game: NormalFormGame) -> dict[str, Any]:
    return {
        "game": game.name,
        "parameters": [{"name": p.name, "domain": p.domain_text} for p in game.domain.parameters],
        "assumptions": [a.text for a in game.domain.assumptions],
        "players": [{"name": p.name, "actions": list(p.actions)} for p in game.players],
        "zero_sum": game.zero_sum,
        "payoffs": {p.name: [[sp.sstr(m[i, j]) for j in range(m.shape[1])] for i in range(m.shape[0])]
                    for p, m in zip(game.players, game.stated_payoffs)},
        **({"payoff_scaling": [
            {"player": p.name, "factor": sp.sstr(f),
             "note": "solved with this player's payoffs multiplied by the factor, positive on the domain "
                     "(clears denominators; best responses unchanged)"}
            for p, f in zip(game.players, game.scales)]} if game.scales else {}),
    }


SELECTION_TEXT = {
    "default": "where several equilibria exist, pure equilibria and smaller supports first; a branch valid on "
               "the whole domain first",
    "symmetric": "the symmetric equilibrium wherever one exists, else the default order",
    "welfare": "the equilibrium with the largest sum of expected payoffs (ties: the default order)",
    "all": "the default list, and under all_equilibria every equilibrium branch valid in each region",
}


def all_equilibria_json(derivation: Derivation) -> list[dict[str, Any]] | None:
    """``select="all"``: each region (first match) with every equilibrium branch valid there."""
    if derivation.all_equilibria is None:
        return None
    game = derivation.game
    return [{"when": r.region.texts, "readable": r.readable.text if r.readable else "",
             "profiles": [derivation.branches[k].profile.as_dict(game.players) for k in r.branches]}
            for r in derivation.all_equilibria]


def render_all_equilibria(derivation: Derivation) -> str:
    """Text: each region and every equilibrium there (``symgame solve --select all``)."""
    data = all_equilibria_json(derivation) or []
    regions = derivation.all_equilibria or ()
    game = derivation.game
    lines = []
    for k, entry in enumerate(data):
        head = ("If " if k == 0 else "Else if ") + entry["readable"] if entry["readable"] else \
            ("Always" if k == 0 else "Else")
        lines.append(f"{head}: {len(entry['profiles'])} equilibri{'um' if len(entry['profiles']) == 1 else 'a'}")
        for branch in (derivation.branches[i] for i in regions[k].branches):
            lines.append("  - " + branch.profile.describe(game.players))
    return "\n".join(lines)


def derivation_json(derivation: Derivation) -> dict[str, Any]:
    """JSON of a derivation alone (what ``symgame solve`` prints)."""
    game = derivation.game
    out = {"symgame_version": __version__, **game_header(derivation.game)}
    out["symbols"] = game.domain.names
    out["description"] = game.description
    out["selection"] = {"method": derivation.selection, "description": SELECTION_TEXT[derivation.selection]}
    every = all_equilibria_json(derivation)
    if every is not None:
        out["all_equilibria"] = every
    out["pdl"] = pdl_json(derivation.pdl, game)
    if derivation.stats is not None:
        s = derivation.stats
        out["engine"] = {"method": "dominance reduction + sample-guided discovery + proved cover",
                         "kept_actions": {p.name: [p.actions[i] for i in kept]
                                          for p, kept in zip(game.players, derivation.kept)},
                         "sample_points": s.sample_points, "kernels_proposed": s.kernels_proposed,
                         "branches_derived": s.branches_derived, "coverage_rounds": s.coverage_rounds}
    else:
        out["engine"] = {"method": "support enumeration over all equal-size support pairs"}
    out["coverage"] = _STATUS[derivation.coverage.status]
    out["branches"] = [
        {"supports": {p.name: [p.actions[i] for i in s] for p, s in zip(game.players, b.supports)},
         "profile": b.profile.as_dict(game.players),
         "region": b.region.texts,
         "nonempty": "proved" if b.emptiness is Decision.FALSE else "undecided"}
        for b in derivation.branches]
    return out


def certificate_json(certificate: Certificate) -> dict[str, Any]:
    return {"status": _STATUS[certificate.status], "requirements_checked": certificate.checked_requirements,
            "violations": [{"rule": v.rule_index, "requirement": v.requirement,
                            "point": point_dict(v.point) if v.point else None}
                           for v in certificate.violations]}


def counterexample_json(game: NormalFormGame, pdl: PDL, cx: Counterexample | None) -> dict[str, Any] | None:
    """A counterexample with each action's exact payoff (in the game it refutes)."""
    if cx is None:
        return None
    values = cx.action_payoffs
    return {
        "point": point_dict(cx.point),
        "rule": cx.rule_index,
        "profile": {p.name: dict(zip(p.actions, map(str, s))) for p, s in zip(pdl.players, cx.strategies)},
        "action_payoffs": {p.name: dict(zip(p.actions, map(str, v))) for p, v in zip(game.players, values)},
        "regret": {p.name: str(r) for p, r in zip(game.players, cx.regret.regrets)},
    }


def analysis_json(analysis: GameAnalysis) -> dict[str, Any]:
    """The full ``result.json`` (the JSON contract plus verification and errata)."""
    d = analysis.derivation
    out = derivation_json(d)
    if analysis.player_pdls:
        out["player_pdls"] = {p.name: pdl_json(pdl) for p, pdl in zip(d.game.players, analysis.player_pdls)}
    if analysis.welfare_violations is not None:
        out["selection"]["checked_points"] = len(analysis.crosscheck.checks)
        out["selection"]["violations"] = [point_dict(p) for p in analysis.welfare_violations]
    out["title"] = analysis.spec.title
    out["source"] = analysis.spec.source
    checks = analysis.crosscheck
    out["verification"] = {
        "certificate": certificate_json(analysis.certificate),
        "sample_points": {
            "count": len(checks.checks),
            "rules_hit": checks.rules_hit(),
            "exact_nash": sum(c.exact_nash for c in checks.checks),
            "numeric_agree": sum(c.numeric_agrees for c in checks.checks),
            "numeric_solvers": sorted({c.numeric_note for c in checks.checks}),
        },
    }
    if checks.numeric_skipped:
        out["verification"]["sample_points"]["numeric_skipped"] = checks.numeric_skipped
    if analysis.grid:
        g = analysis.grid
        out["verification"]["exhaustive_grid"] = {
            "values": [str(v) for v in g.values], "points": g.points, "failures": g.failures}
    if analysis.random:
        r = analysis.random
        out["verification"]["random_games"] = {
            "samples": r.samples, "seed": r.seed, "uniform": [r.low, r.high],
            "failures": r.failures, "tolerance": r.tolerance}
    if analysis.published:
        pub = analysis.published
        out["published"] = {
            "pdl": pdl_json(pub.pdl),
            "certificate": certificate_json(pub.certificate),
            "same_profiles_as_derived": _STATUS[pub.agreement.status],
            "counterexample": counterexample_json(d.game, pub.pdl, pub.counterexample),
        }
        if pub.printed is not None:
            printed = pub.printed
            out["published"]["printed_matrix"] = {
                "differences": [{"row": d.game.players[0].actions[i], "column": d.game.players[1].actions[j],
                                 "printed": a, "from_rules": b} for i, j, a, b in printed.differences],
                "certificate_on_printed_matrix": certificate_json(printed.certificate),
                "counterexample_on_printed_matrix": counterexample_json(d.game, pub.pdl, printed.counterexample),
            }
    out["claims"] = [claim_json(d.game, c) for c in analysis.claims]
    return out


def claim_json(game: NormalFormGame, result: ClaimResult) -> dict[str, Any]:
    return {"statement": result.claim.statement, "hypothesis": result.claim.hypothesis.text,
            "status": _STATUS[result.certificate.status],
            "counterexample": counterexample_json(game, _claim_pdl(game, result), result.counterexample)}


def _claim_pdl(game: NormalFormGame, result: ClaimResult) -> PDL:
    from ..model.pdl import Rule
    from ..model.region import Region

    return PDL(game.players, game.domain, (Rule(Region(()), result.claim.profile),))


def dumps(data: Any) -> str:
    """Canonical JSON text: sorted keys, two-space indent, trailing newline."""
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


# ---------------------------------------------------------------------------
# Markdown
# ---------------------------------------------------------------------------
def pdl_markdown(pdl: PDL) -> str:
    """The decision list as a numbered Markdown list (:meth:`symgame.model.pdl.PDL.to_markdown`)."""
    return pdl.to_markdown()


_MARKDOWN = None


def render_markdown(template: str, **context: Any) -> str:
    """Render one of the package's Markdown templates (``templates/*.md.j2``, standard jinja2 syntax)."""
    global _MARKDOWN
    if _MARKDOWN is None:
        from ..errors import optional_import

        jinja2 = optional_import("jinja2", "Markdown summaries")

        _MARKDOWN = jinja2.Environment(loader=jinja2.PackageLoader("symgame.export", "templates"),
                                       trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                                       autoescape=False, undefined=jinja2.StrictUndefined)
        _MARKDOWN.filters["md"] = markdown_text
    return _MARKDOWN.get_template(template).render(**context).rstrip() + "\n"


def summary_markdown(analysis: GameAnalysis, data: dict[str, Any]) -> str:
    """summary.md (template ``summary.md.j2``); ``data`` is :func:`analysis_json` of the same analysis."""
    d = analysis.derivation
    game = d.game
    ver = data["verification"]
    grid = ver.get("exhaustive_grid")
    grid_values = None
    if grid is not None:
        grid_values = grid["values"] if len(grid["values"]) <= 8 else grid["values"][:3] + ["..."] + grid["values"][-1:]
    engine = data["engine"]
    kept = ("; ".join(f"{markdown_text(name)}: {', '.join(map(markdown_text, actions))}"
                      for name, actions in engine["kept_actions"].items())
            if "kept_actions" in engine else None)
    return render_markdown(
        "summary.md.j2", title=analysis.spec.title, source=analysis.spec.source, description=game.description,
        data=data, ver=ver, pdl=pdl_markdown(d.pdl), grid=grid, grid_values=grid_values,
        random=ver.get("random_games"),
        player_pdls=[(markdown_text(p.name), pdl_markdown(pdl)) for p, pdl in zip(game.players, analysis.player_pdls)]
        if "player_pdls" in data else [],
        zero_sum=game.zero_sum, engine=engine, branches=len(d.branches), kept=kept,
        published=pdl_markdown(analysis.published.pdl) if analysis.published else None)


def errata_markdown(analysis: GameAnalysis, data: dict[str, Any]) -> str:
    """Where the paper and the derivation disagree, with exact counterexamples (template ``errata.md.j2``).

    ``data`` is :func:`analysis_json` of the same analysis; every sentence is chosen by a computed status.
    """
    game = analysis.derivation.game
    pub = data.get("published")
    published = analysis.published
    refuted = pub is not None and published is not None and pub["certificate"]["status"] != "proved"
    relation = None
    if pub is not None and published is not None and not refuted:
        relation = {"proved": "It prescribes the same profile as the derived PDL at every point (proved).",
                    "refuted": "It differs from the derived PDL at some points; both are equilibria there "
                               "(the game has several), and the derived list has "
                               f"{len(analysis.derivation.pdl.rules)} rules against the printed "
                               f"{len(published.pdl.rules)}.",
                    "undecided": "Whether it prescribes the same profiles as the derived PDL is undecided."
                    }[pub["same_profiles_as_derived"]]
    printed = (pub or {}).get("printed_matrix")
    matrix = None
    if printed is not None and published is not None:
        status = printed["certificate_on_printed_matrix"]["status"]
        matrix = {"differences": printed["differences"], "on_printed": _STATUS_WORDS[status],
                  "on_rules": _STATUS_WORDS[_STATUS[published.certificate.status]], "refuted": status == "refuted",
                  "counterexample": _counterexample_context(game, printed["counterexample_on_printed_matrix"])}
    claims = [{"statement": c["statement"], "status": c["status"],
               "counterexample": _counterexample_context(game, c["counterexample"])} for c in data["claims"]]
    found = (refuted or any(c["status"] == "refuted" for c in claims)
             or (printed is not None and (bool(printed["differences"])
                                          or printed["certificate_on_printed_matrix"]["status"] != "proved")))
    return render_markdown(
        "errata.md.j2", title=analysis.spec.title, source=analysis.spec.source, notes=analysis.spec.notes,
        printed_refuted=refuted, printed_pdl=pdl_markdown(published.pdl) if published else "",
        derived_pdl=pdl_markdown(analysis.derivation.pdl),
        printed_counterexample=_counterexample_context(game, pub["counterexample"]) if refuted and pub else None,
        printed_relation=relation, matrix=matrix, claims=claims, found=found)


_STATUS_WORDS = {"proved": "an equilibrium everywhere (proved)", "refuted": "refuted",
                 "undecided": "undecided"}


def _counterexample_context(game: NormalFormGame, cx: dict[str, Any] | None) -> dict[str, Any] | None:
    if cx is None:
        return None
    return {"point_text": ", ".join(f"{k} = {v}" for k, v in cx["point"].items()),
            "players": [{"name": markdown_text(player.name),
                         "profile": ", ".join(f"{markdown_text(a)}: {p}"
                                              for a, p in cx["profile"][player.name].items()),
                         "payoffs": ", ".join(f"{markdown_text(a)}: {v}"
                                              for a, v in cx["action_payoffs"][player.name].items()),
                         "regret": cx["regret"][player.name]} for player in game.players]}
