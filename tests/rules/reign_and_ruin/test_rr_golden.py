"""Reign and Ruin's golden playthroughs, replayed byte for byte: ``tests/rules/golden_files.py``."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.reign_and_ruin import GAME
from tests.rules.golden_files import Golden

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

GOLDEN = Golden(GAME, Path(__file__).resolve().parent / "golden", GAMES)


def test_golden_files_exist():
    assert [p.stem for p in GOLDEN.paths] == sorted(GAMES) and len(GAMES) >= 3


@pytest.mark.parametrize("path", GOLDEN.paths, ids=lambda p: p.stem)
def test_golden_playthrough_replays_exactly(path):
    GOLDEN.replay(path)
