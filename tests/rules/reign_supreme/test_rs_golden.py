"""Reign Supreme's golden playthroughs, replayed byte for byte: ``tests/rules/golden_files.py``."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.reign_supreme import GAME
from tests.rules.golden_files import Golden

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

GOLDEN = Golden(
    GAME, Path(__file__).resolve().parent / "golden", GAMES, never=("concede",), state_every=10
)


def test_golden_files_exist():
    assert [p.stem for p in GOLDEN.paths] == sorted(GAMES) and len(GAMES) >= 3


@pytest.mark.parametrize("path", GOLDEN.paths, ids=lambda p: p.stem)
def test_golden_playthrough_replays_exactly(path):
    GOLDEN.replay(path)
