"""A state is checked once per process, not on every request (``api.known_states``, issue 14):
the states the rules dealt or produced and the states that passed the checks are remembered by
digest; anything else, a changed copy included, is checked in full."""

from __future__ import annotations

import random

import pytest

from api import create_app
from api.known_states import KnownStates
from rules.registry import get_game

GAME = "reign-supreme"


@pytest.fixture
def counted(monkeypatch):
    """The game, with a count of its ``check_state`` calls."""
    game = get_game(GAME)
    calls = []
    real = game.check_state
    monkeypatch.setattr(game, "check_state", lambda state: calls.append(1) or real(state))
    return game, calls


def _app(referee_data_dir, **config):
    return create_app(
        {"TESTING": True, "REDIS_URL": None, "REFEREE_DATA_DIR": str(referee_data_dir), **config}
    )


def test_a_state_the_service_answered_is_not_checked_again(referee_data_dir, counted):
    game, calls = counted
    client = _app(referee_data_dir).test_client()
    state = client.post(
        f"/v1/games/{GAME}/setup",
        json={"players": ["ann", "bob"], "seed": 4, "options": {"setup": "auto"}},
    ).get_json()["state"]
    for _ in range(5):  # the play loop: legal moves of a state, apply one, go on with the answer
        moves = client.post(f"/v1/games/{GAME}/legal-moves", json={"state": state}).get_json()[
            "moves"
        ]
        move = random.Random(1).choice([m for m in moves if m["type"] != "concede"])
        state = client.post(
            f"/v1/games/{GAME}/apply", json={"state": state, "move": move}
        ).get_json()["state"]
    assert calls == []


def test_a_state_never_seen_is_checked_once_and_a_changed_copy_again(referee_data_dir, counted):
    game, calls = counted
    client = _app(referee_data_dir).test_client()
    state = game.setup(
        ["ann", "bob"], 9, {"setup": "auto"}
    )  # dealt in process: the app never saw it
    for _ in range(3):
        assert (
            client.post(f"/v1/games/{GAME}/legal-moves", json={"state": state}).status_code == 200
        )
    assert len(calls) == 1
    changed = dict(state, move_count=state["move_count"] + 1)
    assert client.post(f"/v1/games/{GAME}/score", json={"state": changed}).status_code in (200, 422)
    assert len(calls) == 2
    broken = dict(state, rng=5)  # a shape error: never remembered, refused every time
    assert [
        client.post(f"/v1/games/{GAME}/score", json={"state": broken}).status_code for _ in range(2)
    ] == [400, 400]
    unsound = dict(state, players=["ann", "zed"])  # an integrity error, likewise
    statuses = [
        client.post(f"/v1/games/{GAME}/score", json={"state": unsound}).status_code
        for _ in range(2)
    ]
    assert statuses == [422, 422] and len(calls) == 4


def test_with_known_states_off_every_request_checks_its_state(referee_data_dir, counted):
    game, calls = counted
    client = _app(referee_data_dir, KNOWN_STATES=0).test_client()
    state = client.post(
        f"/v1/games/{GAME}/setup", json={"players": ["ann", "bob"], "seed": 4}
    ).get_json()["state"]
    for _ in range(3):
        client.post(f"/v1/games/{GAME}/legal-moves", json={"state": state})
    assert len(calls) == 3


def test_known_states_are_bounded_oldest_first_and_told_apart_by_game():
    known = KnownStates(2)
    a, b, c = ({"n": i} for i in range(3))
    for state in (a, b, c):
        known.remember(GAME, state)
    assert known.digest(GAME, a) not in known
    assert known.digest(GAME, b) in known and known.digest(GAME, c) in known
    assert known.digest("reign-and-ruin", c) not in known
    assert known.digest(GAME, {"n": 2}) == known.digest(GAME, dict(c))  # by content, keys sorted
