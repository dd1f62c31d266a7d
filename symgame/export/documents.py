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
from ..model.game import NormalFormGame
from ..model.pdl import PDL
from ..verify.certify import Certificate
from ..verify.compare import Counterexample

_STATUS = {Decision.TRUE: "proved", Decision.FALSE: "refuted", Decision.UNDECIDED: "undecided"}


def point_dict(point: Mapping[str, Any]) -> dict[str, str]:
    return {k: str(v) for k, v in sorted(point.items())}


def pdl_json(pdl: PDL, game: NormalFormGame | None = None) -> list[dict[str, Any]]:
    """The ``pdl`` array of the JSON contract (with each rule's value for zero-sum games)."""
    rules = []
    for rule in pdl.rules:
        entry = {"when": rule.region.texts, "profile": rule.profile.as_dict(pdl.players), "label": rule.label}
        if game is not None and game.zero_sum:
            entry["value"] = sp.sstr(rule_value(game, rule.profile))
        rules.append(entry)
    return rules


def rule_value(game: NormalFormGame, profile) -> sp.Expr:
    """The row player's expected payoff ``x^T A y`` of a profile, factored."""
    x, y = profile.strategies
    a = game.payoffs[0]
    total = sum(x[i] * a[i, j] * y[j] for i in range(a.shape[0]) for j in range(a.shape[1])
                if x[i] != 0 and y[j] != 0)
    return sp.factor(sp.cancel(sp.together(total)))


def game_header(game: NormalFormGame) -> dict[str, Any]:
    return {
        "game": game.name,
        "parameters": [{"name": p.name, "domain": p.domain_text} for p in game.domain.parameters],
        "assumptions": [a.text for a in game.domain.assumptions],
        "players": [{"name": p.name, "actions": list(p.actions)} for p in game.players],
        "zero_sum": game.zero_sum,
        "payoffs": {p.name: [[sp.sstr(m[i, j]) for j in range(m.shape[1])] for i in range(m.shape[0])]
                    for p, m in zip(game.players, game.payoffs)},
    }


def derivation_json(derivation: Derivation) -> dict[str, Any]:
    """JSON of a derivation alone (what ``symgame solve`` prints)."""
    game = derivation.game
    out = {"symgame_version": __version__, **game_header(derivation.game)}
    out["description"] = game.description
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
    lines = []
    for k, rule in enumerate(pdl.rules):
        action = rule.profile.describe(pdl.players)
        if k == len(pdl.rules) - 1:
            lines.append(f"{k + 1}. {'Else' if k else 'Always'}: {action}")
        else:
            cond = " and ".join(f"`{a.pretty}`" for a in rule.region.atoms)
            lines.append(f"{k + 1}. {'If' if k == 0 else 'Else if'} {cond}: {action}")
    return "\n".join(lines)


def summary_markdown(analysis: GameAnalysis, data: dict[str, Any]) -> str:
    """summary.md; ``data`` is :func:`analysis_json` of the same analysis."""
    d = analysis.derivation
    game = d.game
    ver = data["verification"]
    lines = [f"# {analysis.spec.title}", "", f"Source: {analysis.spec.source}.", "", game.description, "",
             "## Parameters", ""]
    lines += [f"- `{p['name']}` in {p['domain']}" for p in data["parameters"]]
    lines += [f"- assumption `{a}`" for a in data["assumptions"]]
    lines += ["", "## Parametric decision list (derived from the rules)", "", pdl_markdown(d.pdl), "",
              "## Verification", "",
              f"- Whole-domain certificate (z3, exact): **{ver['certificate']['status']}** "
              f"({ver['certificate']['requirements_checked']} requirements).",
              f"- Coverage of the domain by the rules: **{data['coverage']}**.",
              f"- Sample points: {ver['sample_points']['count']} rational points, "
              f"{ver['sample_points']['exact_nash']} exact equilibria (regret 0), "
              f"{ver['sample_points']['numeric_agree']} agree with the numeric solver "
              f"({'; '.join(ver['sample_points']['numeric_solvers'])})."]
    if "exhaustive_grid" in ver:
        g = ver["exhaustive_grid"]
        values = g["values"] if len(g["values"]) <= 8 else g["values"][:3] + ["..."] + g["values"][-1:]
        lines.append(f"- Every game with parameters in {{{', '.join(values)}}}: {g['points']} games, "
                     f"{g['failures']} failures (exact).")
    if "random_games" in ver:
        r = ver["random_games"]
        lines.append(f"- {r['samples']} random games, parameters uniform in [{r['uniform'][0]}, "
                     f"{r['uniform'][1]}] (seed {r['seed']}): {r['failures']} with regret above "
                     f"{r['tolerance']} (floating point).")
    if "player_pdls" in data:
        lines += ["", "## Each player's list", ""]
        for player, pdl in zip(game.players, analysis.player_pdls):
            lines += [f"**{player.name}**", "", pdl_markdown(pdl), ""]
    if game.zero_sum:
        lines += ["## Game value (row player) by rule", ""]
        lines += [f"{k + 1}. `{rule['value']}`" for k, rule in enumerate(data["pdl"])]
        lines.append("")
    engine = data["engine"]
    lines += ["", f"Engine: {engine['method']}; {len(d.branches)} equilibrium branches derived exactly."]
    if "kept_actions" in engine:
        kept = "; ".join(f"{name}: {', '.join(actions)}" for name, actions in engine["kept_actions"].items())
        lines += [f"Actions left after proved dominance elimination: {kept}. "
                  f"{engine['sample_points']} sample points, {engine['kernels_proposed']} support pairs proposed, "
                  f"{engine['branches_derived']} derived, {engine['coverage_rounds']} coverage rounds."]
    if analysis.published:
        lines += ["", "## The published result", "", pdl_markdown(analysis.published.pdl), "",
                  f"Certificate on the game derived from the rules: "
                  f"**{data['published']['certificate']['status']}**; same profiles as the derived PDL: "
                  f"**{data['published']['same_profiles_as_derived']}**. See errata.md."]
    if analysis.claims:
        lines += ["", "## Claims checked", ""]
        lines += [f"- {c['statement']}: **{c['status']}**" for c in data["claims"]]
    return "\n".join(lines) + "\n"


def errata_markdown(analysis: GameAnalysis, data: dict[str, Any]) -> str:
    """Where the paper and the derivation disagree, with exact counterexamples.

    ``data`` is :func:`analysis_json` of the same analysis.
    """
    game = analysis.derivation.game
    lines = [f"# Errata: {analysis.spec.title}", "", f"Source checked: {analysis.spec.source}.", ""]
    pub = data.get("published")
    found = False
    published = analysis.published
    if pub is not None and published is not None and pub["certificate"]["status"] != "proved":
        found = True
        lines += ["## The printed decision list is not an equilibrium", ""]
        if analysis.spec.notes:
            lines += [analysis.spec.notes, ""]
        lines += ["Printed rule (as reconstructed):", "", pdl_markdown(published.pdl), "",
                  "Corrected rule derived by symgame:", "", pdl_markdown(analysis.derivation.pdl), ""]
        lines += _counterexample_lines(game, pub["counterexample"])
    elif pub is not None and published is not None:
        same = pub["same_profiles_as_derived"]
        relation = {"proved": "It prescribes the same profile as the derived PDL at every point (proved).",
                    "refuted": "It differs from the derived PDL at some points; both are equilibria there "
                               "(the game has several), and the derived list has "
                               f"{len(analysis.derivation.pdl.rules)} rules against the printed "
                               f"{len(published.pdl.rules)}.",
                    "undecided": "Whether it prescribes the same profiles as the derived PDL is undecided."}[same]
        lines += ["## The printed decision list", "",
                  "No error in the list itself: the printed PDL was proved (z3, whole domain) to give a "
                  f"Nash equilibrium of the game derived from the rules at every point. {relation}", ""]
    printed = (pub or {}).get("printed_matrix")
    if printed is not None:
        lines += _printed_matrix_lines(analysis, printed)
        found = found or bool(printed["differences"]) or printed["certificate_on_printed_matrix"]["status"] != "proved"
    for claim in data["claims"]:
        lines += [f"## Claim: {claim['statement']}", "", f"Status: **{claim['status']}**.", ""]
        if claim["status"] == "refuted":
            found = True
            lines += _counterexample_lines(game, claim["counterexample"])
    if not found:
        lines += ["No disagreement with the paper was found.", ""]
    return "\n".join(lines).rstrip() + "\n"


def _printed_matrix_lines(analysis: GameAnalysis, printed: dict[str, Any]) -> list[str]:
    lines = ["## The printed payoff matrix", ""]
    if printed["differences"]:
        if analysis.spec.notes:
            lines += [analysis.spec.notes, ""]
        lines += ["| row | column | printed | from the rules |", "|---|---|---|---|"]
        lines += [f"| {d['row']} | {d['column']} | `{d['printed']}` | `{d['from_rules']}` |"
                  for d in printed["differences"]]
        lines.append("")
    else:
        lines += ["The printed matrix agrees with the rules.", ""]
    status = printed["certificate_on_printed_matrix"]["status"]
    assert analysis.published is not None
    lines += [f"The printed decision list, certified on the printed matrix: **{_STATUS_WORDS[status]}**; "
              f"on the matrix derived from the rules: **{_STATUS_WORDS[_STATUS[analysis.published.certificate.status]]}**.", ""]
    if status == "refuted":
        lines += ["So the paper's own verification (which works with the printed matrix) cannot be right: "
                  "on the printed matrix its profile has a profitable deviation.", ""]
        lines += _counterexample_lines(analysis.derivation.game, printed["counterexample_on_printed_matrix"])
    return lines


_STATUS_WORDS = {"proved": "an equilibrium everywhere (proved)", "refuted": "refuted",
                 "undecided": "undecided"}


def _counterexample_lines(game: NormalFormGame, cx: dict[str, Any] | None) -> list[str]:
    if cx is None:
        return ["(z3 refuted the statement but no rational counterexample was found on the search grid.)", ""]
    point = ", ".join(f"{k} = {v}" for k, v in cx["point"].items())
    lines = [f"Exact counterexample: {point}.", ""]
    for player in game.players:
        prof = ", ".join(f"{a}: {p}" for a, p in cx["profile"][player.name].items())
        pays = ", ".join(f"{a}: {v}" for a, v in cx["action_payoffs"][player.name].items())
        lines += [f"- {player.name} is told to play ({prof}); expected payoff of each action: {pays}; "
                  f"regret {cx['regret'][player.name]}."]
    return lines + [""]
