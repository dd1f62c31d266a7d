"""What ``symgame dynamics`` prints: a gradient-dynamics long run (:class:`~symgame.numeric.dynamics.LongRun`) or a
replicator run (:class:`~symgame.numeric.replicator.ReplicatorRun`) as JSON-ready data and as text. Renderers
only: nothing here integrates.

Examples
--------
>>> import symgame
>>> pd = symgame.normal_form(([[3, 0], [5, 1]], [[3, 5], [0, 1]]), players=[("Ann", ["cooperate", "defect"]),
...                                                                    ("Bob", ["cooperate", "defect"])])
>>> data = replicator_json(pd, symgame.api.replicator_dynamics(pd, until=200), 200, False)
>>> data["kind"], data["extinct"]
('absorbed at a face', {'Ann': ['cooperate'], 'Bob': ['cooperate']})
"""
from __future__ import annotations

from typing import Any, Sequence


def _names(game: Any) -> tuple[str, list[str], list[tuple[str, ...]]]:
    """Title, player names and each player's strategies, of a normal-form or a Gambit strategic game."""
    if hasattr(game, "strategies"):
        return game.title, list(game.players), [tuple(s) for s in game.strategies]
    return game.name, [p.name for p in game.players], [tuple(p.actions) for p in game.players]


def replicator_json(game: Any, run: Any, until: float, single_population: bool) -> dict[str, Any]:
    """The replicator run as data: kind, section spread, frequencies, payoff rates, extinct actions, final state."""
    title, players, strategies = _names(game)
    if single_population:
        players = players[:1]
    final = {p: dict(zip(strategies[i], (float(v) for v in run.states[i][-1]))) for i, p in enumerate(players)}
    return {"game": title, "dynamics": "replicator" + (" (one population)" if single_population else ""),
            "until": until, "kind": run.kind, "section_spread": run.section_spread,
            "frequencies": list(run.frequencies), "payoff_rates": dict(zip(players, run.payoff_rates)),
            "extinct": {p: [strategies[i][a] for a in run.extinct[i]] for i, p in enumerate(players)},
            "final": final}


def replicator_text(data: dict[str, Any]) -> str:
    """Text of :func:`replicator_json`."""
    lines = [f"{data['game']}: replicator dynamics, {data['kind']} (t <= {data['until']:g})",
             "payoff rates: " + ", ".join(f"{p} {r:.5f}" for p, r in data["payoff_rates"].items())]
    lines += [f"final {p}: " + ", ".join(f"{a} {v:.4f}" for a, v in probs.items()) for p, probs in data["final"].items()]
    return "\n".join(lines)


def long_run_json(game: Any, run: Any, value: Any, start: Sequence[float], until: float) -> dict[str, Any]:
    """A gradient-dynamics long run as data (``value``: the parameter's value, or ``None``)."""
    return {"game": game.name, "parameter": {game.parameter_names[0]: str(value)} if value is not None else {},
            "start": dict(zip(game.variables, start)), "until": until, "kind": run.kind,
            "lyapunov_exponent": run.lyapunov,
            "transient_lyapunov_exponent": None if run.transient_lyapunov != run.transient_lyapunov
            else run.transient_lyapunov,
            "absorbed_at": run.absorbed_at, "section_spread": run.section_spread, "amplitude": run.amplitude,
            "frequencies": list(run.frequencies),
            "profit_rates": {p.name: r for p, r in zip(game.players, run.profit_rates)},
            "final": dict(zip(game.variables, run.final))}


def long_run_text(data: dict[str, Any]) -> str:
    """Text of :func:`long_run_json`."""
    absorbed = f"; every frequency at 0 or 1 from t = {data['absorbed_at']:g}" if data["absorbed_at"] else ""
    return "\n".join([
        f"{data['game']}: {data['kind']} (t <= {data['until']:g}; largest Lyapunov exponent "
        f"{data['lyapunov_exponent']:.4g}{absorbed})",
        "profit rates: " + ", ".join(f"{p} {r:.5f}" for p, r in data["profit_rates"].items()),
        "final: " + ", ".join(f"{x} = {v:.4f}" for x, v in data["final"].items())])
