"""Determinism (api-contract §Determinism): setup and apply are pure functions of their input."""

from __future__ import annotations

import random

from api.jsonio import dumps
from rules.playout import play_random_game, random_steps
from rules.reign_and_ruin import GAME

CUSTOM = {
    "starting_player": "cat",
    "deck": [
        {"faction": f, "value": v}
        for f in ("hexen", "crou", "nomora")
        for v in (2, 2, 5, 7, 11, 13, 20)
    ],
}


def test_same_setup_gives_the_same_bytes():
    for players, seed, options in (
        (["ann", "bob"], 1, {}),
        (["ann", "bob", "cat"], 123456789, CUSTOM),
        (["a", "b", "c", "d"], 2**63 - 1, {"starting_player": "d"}),
    ):
        assert dumps(GAME.setup(players, seed, options)) == dumps(
            GAME.setup(players, seed, dict(options))
        )


def test_setup_does_not_keep_or_change_the_options():
    options = {"deck": [dict(c) for c in CUSTOM["deck"]], "starting_player": "ann"}
    before = dumps(options)
    state = GAME.setup(["ann", "bob", "cat"], 5, options)
    assert dumps(options) == before
    options["deck"][0]["value"] = 99
    assert dumps(state) == dumps(
        GAME.setup(["ann", "bob", "cat"], 5, {"deck": CUSTOM["deck"], "starting_player": "ann"})
    )


def test_apply_is_pure_and_repeatable_over_whole_games():
    for seed in range(12):
        players = ["ann", "bob", "cat", "dan"][: 2 + seed % 3]
        state = GAME.setup(players, seed, CUSTOM if seed % 4 == 0 and len(players) == 3 else {})
        for step in random_steps(GAME, state, random.Random(seed)):
            before = dumps(step.before)
            again, events = GAME.apply(step.before, step.move)
            assert dumps(step.before) == before, "apply mutated its input"
            assert dumps(again) == dumps(step.after)
            assert dumps(events) == dumps(step.events)


def test_a_game_replays_from_seed_and_moves():
    played = play_random_game(GAME, ["ann", "bob", "cat"], 77)
    state = GAME.setup(["ann", "bob", "cat"], 77, {})
    for m in played.moves:
        state, _ = GAME.apply(state, m)
    assert dumps(state) == dumps(played.final)
