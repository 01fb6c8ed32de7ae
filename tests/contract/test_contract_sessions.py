"""Sessions against the spec: every request and response of session play, for every registered
game, validated by openapi-core (status documented, headers, body schema), errors included."""

from __future__ import annotations

import random

import pytest

from rules.registry import GAMES, get_game

MOVES = 40


def auth(token: str, **extra: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", **extra}


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_session_play_matches_the_spec(contract, game_id):
    game = get_game(game_id)
    players = ["north", "east", "south", "west"][: max(game.min_players, 2)]
    created = contract.call(
        "POST",
        "/v1/sessions",
        {"game": game_id, "players": players, "open": True, "seed": 4},
        expect=201,
    ).json
    path = f"/v1/sessions/{created['session_id']}"
    seats = created["seats"]
    rng = random.Random(4)
    for _ in range(MOVES):
        movers = {
            p: contract.call("GET", path + "/legal-moves", headers=auth(seats[p]), expect=200).json
            for p in players
        }
        movers = {p: listed for p, listed in movers.items() if listed["moves"]}
        if not movers:
            break
        player = rng.choice(sorted(movers))
        listed = movers[player]
        move = rng.choice(listed["moves"])
        contract.call(
            "POST",
            path + "/moves",
            {"move": move},
            headers=auth(seats[player], **{"If-Match": f'"{listed["version"]}"'}),
            expect=200,
        )
        for seat in (*players, None):
            contract.call("GET", path, headers=auth(seats[seat]) if seat else {}, expect=200)
    for seat in (*players, None):
        contract.call(
            "GET", path + "/history?after=0", headers=auth(seats[seat]) if seat else {}, expect=200
        )
    contract.call("DELETE", path, headers=auth(created["admin_token"]), expect=204)


def test_session_errors_match_the_spec(contract):
    created = contract.call(
        "POST",
        "/v1/sessions",
        {"game": "reign-and-ruin", "players": ["ann", "bob"], "open": True, "seed": 2},
        expect=201,
    ).json
    # A seed without "open": true: the spec refuses it too (its if/then), and the answer is a
    # 400 naming `seed`.
    refused = contract.call(
        "POST",
        "/v1/sessions",
        {"game": "reign-and-ruin", "players": ["ann", "bob"], "seed": 2},
        expect=400,
        valid_request=False,
    ).json
    assert list(refused["errors"]) == ["seed"]
    path = f"/v1/sessions/{created['session_id']}"
    ann, bob = auth(created["seats"]["ann"]), auth(created["seats"]["bob"])
    move = contract.call("GET", path + "/legal-moves", headers=ann, expect=200).json["moves"][0]
    tag = contract.call("GET", path, expect=200).response.headers["ETag"]
    contract.call("GET", path, headers={"If-None-Match": tag}, expect=304)
    contract.call(
        "GET", path, headers={"If-None-Match": "nonsense"}, expect=400, valid_request=False
    )
    contract.call("GET", path + "/legal-moves", expect=401, valid_request=False)
    contract.call("GET", path + "/legal-moves", headers=auth(created["admin_token"]), expect=403)
    contract.call("POST", path + "/moves", {"move": move}, headers=bob, expect=403)
    contract.call(
        "POST",
        path + "/moves",
        {"move": {"player": "ann", "type": "draft", "cards": ["x", "y"]}},
        headers=ann,
        expect=422,
    )
    contract.call(
        "POST",
        path + "/moves",
        {"move": {"player": "ann"}},
        headers=ann,
        expect=400,
        valid_request=False,
    )
    first = contract.call(
        "POST", path + "/moves", {"move": move}, headers={**ann, "Idempotency-Key": "a"}, expect=200
    )
    again = contract.call(
        "POST", path + "/moves", {"move": move}, headers={**ann, "Idempotency-Key": "a"}, expect=200
    )
    assert again.json == first.json and again.response.headers["Idempotent-Replayed"] == "true"
    contract.call(
        "POST",
        path + "/moves",
        {"move": move, "expected_version": 9},
        headers={**ann, "Idempotency-Key": "a"},
        expect=422,
    )
    contract.call(
        "POST", path + "/moves", {"move": move}, headers={**ann, "If-Match": '"0"'}, expect=412
    )
    contract.call(
        "POST", path + "/moves", {"move": move, "expected_version": 0}, headers=ann, expect=409
    )
    contract.call("POST", path + "/moves", raw=b"{", headers=ann, expect=400, valid_request=False)
    contract.call(
        "POST",
        path + "/moves",
        {"move": move},
        content_type="text/plain",
        headers=ann,
        expect=415,
        valid_request=False,
    )
    contract.call("GET", path + "/history?after=x", expect=400, valid_request=False)
    contract.call("DELETE", path, headers=bob, expect=403)
    contract.call("DELETE", path, expect=401, valid_request=False)
    contract.call("GET", "/v1/sessions/nope", expect=404)
    contract.call(
        "POST",
        "/v1/sessions",
        {"game": "nope", "players": ["a", "b"]},
        expect=404,
        valid_request=False,
    )
    contract.call(
        "POST",
        "/v1/sessions",
        {"game": "reign-and-ruin", "players": ["a"]},
        expect=422,
        valid_request=False,
    )  # the spec states each game's player counts


def test_a_session_of_other_rules_is_refused_as_the_spec_says(contract, contract_app):
    """A session stored under the previous version of its game's rules (``api.rules_version``):
    each refusal is the documented 409 ``rules_version_changed``, and the fork of its current
    version the documented 201."""
    from api import jsonio
    from api.session_store import KEY_PREFIX

    created = contract.call(
        "POST",
        "/v1/sessions",
        {
            "game": "reign-supreme",
            "players": ["ann", "bob"],
            "open": True,
            "seed": 3,
            "clock": {"type": "per_move", "seconds": 60},
        },
        expect=201,
    ).json
    path = f"/v1/sessions/{created['session_id']}"
    first = created["to_move"][0]
    seat = auth(created["seats"][first])
    move = contract.call("GET", path + "/legal-moves", headers=seat, expect=200).json["moves"][0]
    redis = contract_app.extensions["referee_store"].client()
    key = f"{KEY_PREFIX}{{{created['session_id']}}}:session"
    state = jsonio.loads(redis.hget(key, "state"))
    redis.hset(key, "state", jsonio.dumps(dict(state, schema_version=state["schema_version"] - 1)))

    admin = auth(created["admin_token"])
    for method, tail, body, headers in [
        ("POST", "/moves", {"move": move}, seat),
        ("GET", "/legal-moves", None, seat),
        ("POST", "/takebacks", {"to_version": 0}, seat),
        ("POST", "/takebacks/some-id", {"answer": "accept"}, seat),
        ("POST", "/clock", {"action": "pause"}, admin),
    ]:
        refused = contract.call(method, path + tail, body, headers=headers, expect=409).json
        assert refused["code"] == "rules_version_changed", tail
    # (a read of it is as stored: its view is the previous version's, which this spec does not
    # describe; tests/sessions/test_sessions_rules_version.py reads it)
    forked = contract.call("POST", path + "/fork", {"version": 0}, headers=seat, expect=201).json
    assert forked["view"]["schema_version"] == state["schema_version"]
