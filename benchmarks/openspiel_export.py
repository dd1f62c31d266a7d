"""Write OpenSpiel games as Gambit ``.efg`` files, as OpenSpiel's own exporter writes them, in linear time.

    OPENSPIEL_PYTHON benchmarks/openspiel_export.py OUT_DIR NAME=GAME_STRING ...

Run it with an interpreter that has ``open_spiel`` (OpenSpiel is not a dependency of symgame).
``open_spiel.python.algorithms.gambit.export_gambit`` (OpenSpiel 2.0.2) grows one string by
concatenation in a closure, which takes quadratic time: one-die Liar's Dice with six sides did not
finish in minutes. This writer walks the tree the same way (depth first, the same node lines, chance
probabilities with 16 decimals, information sets numbered per player in order of first visit, the
same quoting and spacing) into a list of lines; ``--check`` compares its text byte for byte with
``export_gambit``'s on the small games, so the files are what OpenSpiel would have written.
Simultaneous-move games are made turn-based first (``pyspiel.convert_to_turn_based``).
"""
from __future__ import annotations

import sys
import time
from pathlib import Path


def export(game) -> str:   # noqa: ANN001 - a pyspiel.Game
    """The ``.efg`` text of ``game``, node lines in depth-first order, without recursion."""
    players = " ".join(f'"Pl{i}"' for i in range(game.num_players()))
    lines = [f'EFG 2 R "{game}" {{ {players} }} \n']
    terminal_number = chance_number = 0
    tables: list[dict[str, int]] = [{} for _ in range(game.num_players())]
    stack = [(game.new_initial_state(), 0)]
    while stack:
        state, depth = stack.pop()
        text = str(state)
        label = text if len(text) <= 10 else ""
        indent = " " * depth
        if state.is_terminal():
            terminal_number += 1
            payoffs = " ".join(map(str, state.returns()))
            lines.append(f'{indent}t "{label}" {terminal_number} "" {{ {payoffs} }}\n')
            continue
        if state.is_chance_node():
            chance_number += 1
            moves = "".join(f'"{state.action_to_string(state.current_player(), action)}" {probability:.16f} '
                            for action, probability in state.chance_outcomes())
            lines.append(f'{indent}c "{label}" {chance_number} "" {{ {moves} }} 0\n')
        else:
            player = state.current_player()
            table = tables[player]
            key = state.information_state_string()
            if key not in table:
                table[key] = len(table) + 1
            moves = "".join(f'"{state.action_to_string(player, action)}" ' for action in state.legal_actions())
            lines.append(f'{indent}p "{label}" {player + 1} {table[key]} "" {{ {moves} }} 0\n')
        children = [state.child(action) for action in state.legal_actions()]
        stack.extend((child, depth + 1) for child in reversed(children))
    return "".join(lines)


def main() -> None:
    import pyspiel
    arguments = sys.argv[1:]
    check = "--check" in arguments
    arguments = [a for a in arguments if a != "--check"]
    out = Path(arguments[0])
    out.mkdir(parents=True, exist_ok=True)
    for item in arguments[1:]:
        name, spec = item.split("=", 1)
        game = pyspiel.load_game(spec)
        if game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
            game = pyspiel.convert_to_turn_based(game)
        start = time.perf_counter()
        text = export(game)
        seconds = time.perf_counter() - start
        (out / f"{name}.efg").write_text(text)
        same = ""
        if check:
            from open_spiel.python.algorithms.gambit import export_gambit
            same = " identical to export_gambit" if export_gambit(game) == text else " DIFFERS from export_gambit"
        print(f"{name}: {text.count(chr(10)) - 1} nodes, {len(text)} bytes, {seconds:.1f} s{same}", flush=True)


if __name__ == "__main__":
    main()
