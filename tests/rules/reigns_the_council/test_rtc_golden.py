"""Reigns the Council's golden playthroughs, replayed byte for byte: ``golden_files.py``."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.reigns_the_council import GAME
from tests.rules.golden_files import Golden

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

GOLDEN = Golden(GAME, Path(__file__).resolve().parent / "golden", GAMES, catalogues=("cards",))


def test_golden_files_exist():
    assert [p.stem for p in GOLDEN.paths] == sorted(GAMES) and len(GAMES) >= 3


@pytest.mark.parametrize("path", GOLDEN.paths, ids=lambda p: p.stem)
def test_golden_playthrough_replays_exactly(path):
    GOLDEN.replay(path)
