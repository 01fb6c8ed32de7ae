"""Reign Absolute's golden playthroughs, replayed byte for byte: ``tests/rules/golden_files.py``."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.reign_absolute import GAME
from tests.rules.golden_files import Golden

GAMES = {
    "two_players": {"players": ["ann", "bob"], "seed": 2024, "options": {}, "chooser_seed": 1},
    "three_players_assigned_races": {
        "players": ["ann", "bob", "cat"],
        "seed": 7,
        "chooser_seed": 2,
        "options": {
            "races_by_player": {"ann": "orcs", "bob": "empire", "cat": "elves"},
            "turn_limit": 40,
        },
    },
    "four_players": {
        "players": ["ann", "bob", "cat", "dan"],
        "seed": 987654321,
        "options": {"turn_limit": 24},
        "chooser_seed": 3,
    },
}

GOLDEN = Golden(
    GAME, Path(__file__).resolve().parent / "golden", GAMES, catalogues=("races", "units", "cards")
)


def test_golden_files_exist():
    assert [p.stem for p in GOLDEN.paths] == sorted(GAMES) and len(GAMES) >= 3


@pytest.mark.parametrize("path", GOLDEN.paths, ids=lambda p: p.stem)
def test_golden_playthrough_replays_exactly(path):
    GOLDEN.replay(path)
