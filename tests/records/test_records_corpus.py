"""The seeded corpus replays byte for byte, and a rules change that alters a recorded game fails
here unless it bumps the game's ``schema_version`` (then: ``python -m tests.records.corpus``)."""

from __future__ import annotations

import json

import pytest

from rules.records import replay
from rules.registry import get_game
from tests.records.corpus import SEEDS, path_of
from tests.records.games import PLAYERS, record_of


def schema_version(game_id: str) -> int:
    """The schema version of the states the rules make today."""
    return get_game(game_id).setup(PLAYERS[game_id], 1, {})["schema_version"]


CASES = [(game_id, seed) for game_id, seeds in SEEDS.items() for seed in seeds]


@pytest.mark.parametrize(("game_id", "seed"), CASES)
def test_the_recorded_game_replays_exactly(game_id, seed):
    record = json.loads(path_of(game_id, seed).read_text("utf-8"))
    game = get_game(game_id)
    if record["schema_version"] != schema_version(game_id):
        pytest.skip(
            f"{game_id} states are now schema version {schema_version(game_id)}, the corpus has "
            f"{record['schema_version']}: regenerate it with `python -m tests.records.corpus`"
        )
    assert record["entries"][-1]["events"][-1]["type"] == "game_over"
    difference = replay(game, record)
    assert difference is None, (
        f"{game_id} seed {seed}: the rules changed a recorded game at version "
        f"{difference.version} ({difference.detail}) without a bump of its schema_version"
    )


@pytest.mark.parametrize(("game_id", "seed"), CASES)
def test_the_corpus_is_what_the_seed_plays_today(game_id, seed):
    """The same seed still plays the same game (the random chooser and the rules agree)."""
    recorded = json.loads(path_of(game_id, seed).read_text("utf-8"))
    if recorded["schema_version"] != schema_version(game_id):
        pytest.skip("stale corpus: see test_the_recorded_game_replays_exactly")
    assert record_of(game_id, seed) == recorded
