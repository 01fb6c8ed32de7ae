"""Write the golden playthroughs replayed by ``test_rtc_golden.py``.

Each golden file holds one seeded game: its setup arguments, the state after setup, and for
every move (chosen by ``random.Random(chooser_seed)`` among the legal moves) the move, the
events and the resulting state (without the card catalogue ``cards``, which no move changes). The
test replays the moves and compares every state and event
list byte for byte (canonical JSON), so any change in the rules' behaviour shows up as a diff.

Regenerate ONLY after an intended rule change, and review the diff:

    cd /work/main && .venv/bin/python tests/rules/reigns_the_council/make_golden.py
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from rules.reigns_the_council import GAME  # noqa: E402
from tests.rules.golden_files import write_golden  # noqa: E402

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"

GAMES = {
    "three_players": {
        "players": ["ann", "bob", "cat"],
        "seed": 2024,
        "options": {},
        "chooser_seed": 1,
    },
    "four_players_story_vote": {
        "players": ["ann", "bob", "cat", "dan"],
        "seed": 7,
        "options": {"first_monarch": "cat", "story_point": "vote"},
        "chooser_seed": 2,
    },
    "three_players_custom_deck": {
        "players": ["ann", "bob", "cat"],
        "seed": 987654321,
        "chooser_seed": 3,
        "options": {
            "deck": [
                {
                    "back": ["church", "army"],
                    "accept": {"church": 2, "army": -1},
                    "reject": {"army": 1},
                }
            ]
            * 9
            + [
                {
                    "id": f"w{i}",
                    "title": "Tax the mills",
                    "back": ["people", "wealth"],
                    "accept": {"wealth": 2},
                    "reject": {"people": -2, "wealth": -1},
                }
                for i in range(9)
            ]
            + [{"back": ["people"], "accept": {"people": 1}, "reject": {"people": -1}}] * 9
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
        record["steps"].append({"move": move, "events": events, "state": without_cards(state)})
    return record


def without_cards(state: dict) -> dict:
    """The state without its card catalogue, which no move changes (the setup holds it)."""
    return {k: v for k, v in state.items() if k != "cards"}


def main() -> None:
    write_golden(GOLDEN_DIR, GAMES, play)


if __name__ == "__main__":
    main()
