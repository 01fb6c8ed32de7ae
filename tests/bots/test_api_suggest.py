"""``POST /v1/games/{game}/suggest`` and ``bot_levels`` in the catalogue."""

from __future__ import annotations

import json
import random

import pytest

from rules.bots import BOTS, LEVELS
from rules.registry import get_game
from tests.api.helpers_api import assert_problem, post
from tests.bots.positions import GAME_IDS, positions
from tests.council_decks import CUSTOM_COUNCIL_DECKS


def _suggest(client, game_id, body):
    return post(client, f"/v1/games/{game_id}/suggest", body)


def test_bot_levels_are_listed(client):
    games = client.get("/v1/games").get_json()["games"]
    assert {g["id"]: g["bot_levels"] for g in games} == {g: list(LEVELS) for g in GAME_IDS}
    assert client.get("/v1/games/reign-supreme").get_json()["bot_levels"] == list(LEVELS)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_suggestion_is_legal_reproducible_and_blind(client, game_id):
    """The whole pipeline never lets the hidden parts in: a twin state with the same view for
    the player (other hidden cards, other generator) gets the same answer."""
    bot = BOTS[game_id]
    game = bot.game
    state = positions(game_id, seed=6)[1]
    player = state["active_players"][0]
    twin = bot.determinize(game.view(state, player), random.Random(8))
    assert twin["rng"] != state["rng"]
    for level in LEVELS:
        body = {"state": state, "player": player, "level": level, "seed": 21, "time_ms": 50}
        resp = _suggest(client, game_id, body)
        assert resp.status_code == 200, resp.get_json()
        answer = resp.get_json()
        assert set(answer) == {
            "move",
            "level",
            "seed",
            "time_ms",
            "playouts",
            "considered",
            "complete",
            "reason",
        }
        assert answer["level"] == level and answer["seed"] == 21 and answer["time_ms"] == 50
        assert game.violations(state, answer["move"]) == []
        again = _suggest(client, game_id, body).get_json()
        blind = _suggest(client, game_id, dict(body, state=twin)).get_json()
        if (
            answer["complete"] and again["complete"] and blind["complete"]
        ):  # a slow machine may cut it short
            assert again == answer and blind == answer


def test_seed_is_drawn_and_told_when_omitted(client):
    state = positions("reign-and-ruin")[0]
    answer = _suggest(
        client, "reign-and-ruin", {"state": state, "player": "ann", "level": "random"}
    ).get_json()
    assert isinstance(answer["seed"], int) and answer["time_ms"] == 1000
    again = _suggest(
        client,
        "reign-and-ruin",
        {"state": state, "player": "ann", "level": "random", "seed": answer["seed"]},
    ).get_json()
    assert again["move"] == answer["move"]


@pytest.mark.parametrize(
    "change, field",
    [
        ({"level": "grandmaster"}, "level"),
        ({"level": None}, "level"),
        ({"time_ms": 0}, "time_ms"),
        ({"time_ms": 10_001}, "time_ms"),
        ({"seed": -1}, "seed"),
        ({"player": None}, "player"),
        ({"extra": 1}, "extra"),
    ],
)
def test_malformed_requests_are_400_naming_the_field(client, change, field):
    state = positions("reign-and-ruin")[0]
    body = dict({"state": state, "player": "ann", "level": "random"}, **change)
    problem = assert_problem(_suggest(client, "reign-and-ruin", body), 400, "invalid_body")
    assert field in problem["errors"]


def test_meaning_errors_are_422(client):
    state = positions("reign-supreme")[1]
    idle = next(p for p in state["players"] if p not in state["active_players"])
    problem = assert_problem(
        _suggest(client, "reign-supreme", {"state": state, "player": idle, "level": "expert"}),
        422,
        "no_move_to_suggest",
    )
    assert problem["violations"][0]["rule"] == "reign-supreme#bots"
    assert_problem(
        _suggest(client, "reign-supreme", {"state": state, "player": "zed", "level": "random"}),
        422,
        "unknown_player",
    )
    broken = dict(state, move_count=-1)
    assert_problem(
        _suggest(client, "reign-supreme", {"state": broken, "player": "ann", "level": "random"}),
        422,
    )
    assert_problem(
        _suggest(client, "no-such-game", {"state": state, "player": "ann", "level": "random"}), 404
    )


@pytest.mark.parametrize("deck", ["forty", "renumbered", "swapped"])
def test_custom_council_deck_is_refused(client, deck):
    game = BOTS["reigns-the-council"].game
    deck = CUSTOM_COUNCIL_DECKS[deck]
    state = game.setup(["ann", "bob", "cat"], 1, {"deck": deck})
    player = state["active_players"][0]
    problem = assert_problem(
        _suggest(
            client, "reigns-the-council", {"state": state, "player": player, "level": "random"}
        ),
        422,
        "bot_unavailable",
    )
    assert problem["violations"][0]["rule"] == "reigns-the-council#bots"


def test_time_ms_counts_from_the_requests_arrival(client, monkeypatch):
    """Issue 28: the bot's deadline counts from the request's arrival, so time spent reading and
    checking the state is inside ``time_ms``. A stub clock makes that check take all of
    ``time_ms``: the greedy pass then values its first move only (``complete`` false), where
    the same request with a clock that never moves values them all."""
    import api.bots as bots_api

    game_id = "reign-supreme"
    state = positions(game_id, seed=6, every=15)[1]
    player = state["active_players"][0]
    body = {"state": state, "player": player, "level": "greedy", "seed": 3, "time_ms": 50}
    now = [0.0]
    monkeypatch.setattr(bots_api, "_clock", lambda: now[0])
    whole = _suggest(client, game_id, body).get_json()
    assert whole["complete"] and whole["playouts"] > BOTS[game_id].greedy_samples

    checked = bots_api.checked_state

    def slow_check(*args):
        now[0] += 0.050  # the state check takes the whole 50 ms
        return checked(*args)

    monkeypatch.setattr(bots_api, "checked_state", slow_check)
    late = _suggest(client, game_id, body).get_json()
    assert not late["complete"] and late["playouts"] == BOTS[game_id].greedy_samples
    assert BOTS[game_id].game.violations(state, late["move"]) == []


def test_time_ms_counts_from_the_arrival_the_worker_stamped(client, monkeypatch):
    """A request ``serve``'s worker stamped on arrival (``ARRIVED`` in its environ: when its first
    bytes were read) counts ``time_ms`` from that stamp, so time spent queued in the worker before
    the app sees the request is inside it. With a clock that never moves, a stamp already
    ``time_ms`` old leaves the greedy pass its first move only (``complete`` false); a fresh stamp
    leaves it every move."""
    import api.bots as bots_api
    from api.worker import ARRIVED

    game_id = "reign-supreme"
    state = positions(game_id, seed=6, every=15)[1]
    player = state["active_players"][0]
    body = {"state": state, "player": player, "level": "greedy", "seed": 3, "time_ms": 50}
    monkeypatch.setattr(bots_api, "_clock", lambda: 100.0)
    path = f"/v1/games/{game_id}/suggest"

    def suggest_arrived(at: float) -> dict:
        resp = client.post(path, json=body, environ_base={ARRIVED: at})
        assert resp.status_code == 200, resp.get_json()
        return resp.get_json()

    fresh = suggest_arrived(100.0)
    assert fresh["complete"] and fresh["playouts"] > BOTS[game_id].greedy_samples
    queued = suggest_arrived(100.0 - 0.050)  # queued for all of time_ms before the app saw it
    assert not queued["complete"] and queued["playouts"] == BOTS[game_id].greedy_samples
    assert BOTS[game_id].game.violations(state, queued["move"]) == []


@pytest.mark.parametrize("game_id", ["reign-absolute", "reign-supreme"])
def test_the_same_state_with_its_keys_in_another_order_gets_the_same_move(client, game_id):
    # JSON objects are unordered: a client that sorts a state's keys (or keeps the rules' own
    # order) sends the same state. Before, these games listed some moves in the state's key
    # order, and the same seed gave another move for about one state in ten (10 s: greedy's pass
    # completes, so the clock plays no part)
    game = get_game(game_id)
    compared = 0
    for seed in range(3):
        chooser = random.Random(seed)
        state = game.setup(["ann", "bob"], seed, {})
        for _ in range(40):
            player = game.waiting_on(state)[0]
            for level in ("random", "greedy"):
                asked = {"player": player, "level": level, "seed": 5, "time_ms": 10000}
                moves = [
                    client.post(
                        f"/v1/games/{game_id}/suggest",
                        data=json.dumps({"state": shown, **asked}, sort_keys=keys_sorted),
                        content_type="application/json",
                    ).get_json()["move"]
                    for shown, keys_sorted in ((state, False), (state, True))
                ]
                assert moves[0] == moves[1], (game_id, seed, level)
                compared += 1
            legal = [m for m in game.legal_moves(state) if m["type"] != "concede"]
            state, _ = game.apply(state, chooser.choice(legal))
            if state["status"] == "finished":
                break
    assert compared >= 100
