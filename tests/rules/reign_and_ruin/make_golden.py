"""Write the golden playthroughs replayed by ``test_rr_golden.py``.

Each golden file holds one seeded game: its setup arguments, the state after setup, and for
every move (chosen by ``random.Random(chooser_seed)`` among the legal moves) the move, the
events and the resulting state. The test replays the moves and compares every state and event
list byte for byte (canonical JSON), so any change in the rules' behaviour shows up as a diff.

Regenerate ONLY after an intended rule change, and review the diff:

    cd /work/main && .venv/bin/python tests/rules/reign_and_ruin/make_golden.py
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from rules.reign_and_ruin import GAME  # noqa: E402
from tests.rules.golden_files import write_golden  # noqa: E402

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"

GAMES = {
    "two_players": {"players": ["ann", "bob"], "seed": 2024, "options": {}, "chooser_seed": 1},
    "three_players_starting_cat": {
        "players": ["ann", "bob", "cat"],
        "seed": 7,
        "options": {"starting_player": "cat"},
        "chooser_seed": 2,
    },
    "four_players_custom_deck": {
        "players": ["ann", "bob", "cat", "dan"],
        "seed": 987654321,
        "chooser_seed": 3,
        "options": {
            "deck": [
                {"faction": f, "value": v}
                for f in ("alfenghast", "hexen", "kurgoz", "cognitz", "crou", "nomora")
                for v in (1, 2, 2, 3, 5, 8, 13)
            ]
        },
    },
}


def play(spec: dict) -> dict:
    """Play one game with the spec's chooser and record every step."""
    state = GAME.setup(spec["players"], spec["seed"], spec["options"])
    chooser = random.Random(spec["chooser_seed"])
    record = {**spec, "setup": state, "steps": []}
    while state["status"] != "finished":
        move = chooser.choice(GAME.legal_moves(state))
        state, events = GAME.apply(state, move)
        record["steps"].append({"move": move, "events": events, "state": state})
    return record


def main() -> None:
    write_golden(GOLDEN_DIR, GAMES, play)


if __name__ == "__main__":
    main()
