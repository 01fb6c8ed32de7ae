"""Write the golden playthroughs replayed by ``test_rs_golden.py``.

Each golden file holds one seeded game: its setup arguments, the state after setup, and for
every move (chosen by ``random.Random(chooser_seed)`` among the legal moves, conceding never)
the move, the events and the SHA-256 of the resulting state (canonical JSON), and the whole
state after every 10th move and after the last. The test replays the moves and compares every
event list and state digest, and the stored states byte for byte.

Regenerate ONLY after an intended rule change, and review the diff:

    cd /work/main && .venv/bin/python tests/rules/reign_supreme/make_golden.py
"""

from __future__ import annotations

import hashlib
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from rules.reign_supreme import GAME  # noqa: E402
from tests.rules.golden_files import compact, write_golden  # noqa: E402

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"

GAMES = {
    "skirmish_two_players": {
        "players": ["ann", "bob"],
        "seed": 2024,
        "chooser_seed": 1,
        "options": {"scenario": "skirmish", "round_limit": 8},
    },
    "standard_three_players": {
        "players": ["ann", "bob", "cat"],
        "seed": 7,
        "chooser_seed": 2,
        "options": {"round_limit": 4, "first_player": "cat"},
    },
    "standard_two_players_auto": {
        "players": ["ann", "bob"],
        "seed": 99,
        "chooser_seed": 3,
        "options": {"setup": "auto", "round_limit": 6, "armies": {"ann": "undead", "bob": "demon"}},
    },
}


def play(spec: dict) -> dict:
    """Play one game with the spec's chooser and record every step."""
    state = GAME.setup(spec["players"], spec["seed"], spec["options"])
    chooser = random.Random(spec["chooser_seed"])
    record = {**spec, "setup": state, "steps": []}
    while state["status"] != "finished":
        move = chooser.choice([m for m in GAME.legal_moves(state) if m["type"] != "concede"])
        state, events = GAME.apply(state, move)
        record["steps"].append({"move": move, "events": events, "sha256": digest(state)})
        if len(record["steps"]) % 10 == 0:
            record["steps"][-1]["state"] = state
    record["steps"][-1]["state"] = state
    return record


def digest(state: dict) -> str:
    return hashlib.sha256(compact(state).encode("utf-8")).hexdigest()


def main() -> None:
    write_golden(GOLDEN_DIR, GAMES, play)


if __name__ == "__main__":
    main()
