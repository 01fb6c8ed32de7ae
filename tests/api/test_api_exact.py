"""The server accepts exactly what openapi.yaml allows (issue 12, "exact"):

- ``If-Match``/``If-None-Match`` follow RFC 9110 §13.1.1-2: ``*`` or a list of entity tags; a
  well-formed tag that names no version simply does not match (If-None-Match: 200; If-Match: 412);
  a value that is not that syntax is a 400 ``invalid_header``, as the headers' ``pattern`` says;
- a state of another game gets one 422 ``invalid_state`` (violation ``wrong_game``) naming both
  games, not the field errors of this game's shape;
- an integral number written as a float (``12400387691.0``, ``1e3``) is an integer, as in JSON
  Schema: it deals the same game as the integer;
- ``suggest`` takes the levels of the game's own ``bot_levels``.
"""

from __future__ import annotations

import itertools
import json
import re

import pytest
import yaml
from helpers_api import assert_problem, post

from api.ops import OPENAPI_PATH
from rules.registry import GAMES, get_game
from schemas.openapi import game_prefix
from schemas.requests import ENTITY_TAGS


def _state(game_id: str, seed: int = 3) -> dict:
    game = get_game(game_id)
    return game.setup(["ann", "bob", "cat", "dan", "eve", "fay"][: game.min_players], seed, {})


# -- entity tags -----------------------------------------------------------------------------------
@pytest.fixture
def session(client):
    resp = client.post(
        "/v1/sessions",
        json={"game": "reign-and-ruin", "players": ["ann", "bob"], "open": True, "seed": 11},
    )
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()


@pytest.mark.parametrize(
    "header, status",
    [  # {tag}: the opaque tag of the answer, "0.<digest>" (tests/sessions/test_sessions_etags.py)
        ('"{tag}"', 304),
        ('W/"{tag}"', 304),
        ('"7", "{tag}"', 304),
        ("*", 304),
        (' , "{tag}",, ', 304),
        ('"a,b", W/"{tag}"', 304),
        ('"0"', 200),  # the version alone: another viewer's, clock's or takeback's copy too
        ('"0.000000000000"', 200),
        ('"{tag}0"', 200),
        ('"abc"', 200),
        ('"00"', 200),
        ('"99999999999999999999"', 200),
        ('""', 200),
        ("", 200),
        ('"1", W/"2"', 200),
    ],
)
def test_if_none_match_unknown_tags_do_not_match(client, session, header, status):
    path = f"/v1/sessions/{session['session_id']}"
    tag = client.get(path).headers["ETag"]
    assert re.fullmatch(r'"0\.[0-9a-f]{12}"', tag), tag
    resp = client.get(path, headers={"If-None-Match": header.format(tag=tag.strip('"'))})
    assert resp.status_code == status, resp.get_data(as_text=True)
    assert resp.headers["ETag"] == tag


@pytest.mark.parametrize(
    "header", ["junk", "0", '"0', 'W/ "0"', '"1" "2"', '"0", *', 'w/"0"', '"\x7f"']
)
def test_malformed_entity_tags_are_400(client, session, header):
    for name in ("If-None-Match", "If-Match"):
        if name == "If-None-Match":
            resp = client.get(f"/v1/sessions/{session['session_id']}", headers={name: header})
        else:
            move = client.get(
                f"/v1/sessions/{session['session_id']}/legal-moves",
                headers={"Authorization": f"Bearer {session['seats']['ann']}"},
            ).get_json()["moves"][0]
            resp = client.post(
                f"/v1/sessions/{session['session_id']}/moves",
                json={"move": move},
                headers={"Authorization": f"Bearer {session['seats']['ann']}", name: header},
            )
        body = assert_problem(resp, 400, "invalid_header")
        assert name in body["errors"]
        assert re.fullmatch(ENTITY_TAGS, header) is None  # the spec's pattern refuses it too


@pytest.mark.parametrize(
    "header, status",
    [
        ('"0"', 200),
        ('"1", "0"', 200),
        ("*", 200),
        ('"0.3f2a9c41d0e7"', 200),  # a view's tag (a read's ETag) names its version
        ('"1.3f2a9c41d0e7", "0.abc"', 200),
        ('"abc"', 412),
        ('W/"0"', 412),
        ('W/"0.3f2a9c41d0e7"', 412),
        ('"1.3f2a9c41d0e7"', 412),
        ('"00"', 412),
        ('"00.3f2a9c41d0e7"', 412),
        ('"0x"', 412),
        ("", 412),
    ],
)
def test_if_match_compares_strongly_and_unknown_tags_fail(client, session, header, status):
    auth = {"Authorization": f"Bearer {session['seats']['ann']}"}
    sid = session["session_id"]
    move = client.get(f"/v1/sessions/{sid}/legal-moves", headers=auth).get_json()["moves"][0]
    resp = client.post(
        f"/v1/sessions/{sid}/moves", json={"move": move}, headers={**auth, "If-Match": header}
    )
    assert resp.status_code == status, resp.get_data(as_text=True)
    assert client.get(f"/v1/sessions/{sid}").get_json()["version"] == (1 if status == 200 else 0)


def test_delete_refuses_a_wrong_token_and_a_seat(client, session):
    """schemathesis.toml turns ``ignored_auth`` off for DELETE (its probes come after the session
    is gone): the refusals it would probe are here."""
    sid = session["session_id"]
    assert_problem(client.delete(f"/v1/sessions/{sid}"), 401, "unauthorized")
    assert_problem(
        client.delete(f"/v1/sessions/{sid}", headers={"Authorization": "Bearer nope"}),
        401,
        "unauthorized",
    )
    assert_problem(
        client.delete(
            f"/v1/sessions/{sid}", headers={"Authorization": f"Bearer {session['seats']['ann']}"}
        ),
        403,
        "forbidden",
    )
    assert (
        client.delete(
            f"/v1/sessions/{sid}", headers={"Authorization": f"Bearer {session['admin_token']}"}
        ).status_code
        == 204
    )


def test_the_header_pattern_is_the_servers():
    spec = yaml.safe_load(OPENAPI_PATH.read_text("utf-8"))
    assert spec["components"]["schemas"]["EntityTags"]["pattern"] == ENTITY_TAGS


# -- a state of another game -----------------------------------------------------------------------
@pytest.mark.parametrize("sent, endpoint", list(itertools.permutations(sorted(GAMES), 2)))
def test_a_state_of_another_game_gets_one_error_naming_both(client, sent, endpoint):
    state = _state(sent)
    for action, body in (
        ("view", {"state": state}),
        ("score", {"state": state}),
        ("apply", {"state": state, "move": get_game(sent).legal_moves(state)[0]}),
        ("suggest", {"state": state, "player": state["players"][0], "level": "random"}),
    ):
        resp = post(client, f"/v1/games/{endpoint}/{action}", body)
        problem = assert_problem(resp, 422, "invalid_state")
        assert [v["code"] for v in problem["violations"]] == ["wrong_game"], problem["violations"]
        assert (
            f"{sent} state" in problem["detail"]
            and f"endpoint is {endpoint}'s" in problem["detail"]
        )
        assert len(resp.get_data()) < 1000


# -- integral floats -------------------------------------------------------------------------------
@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_an_integral_float_seed_is_the_integer(client, game_id):
    players = ["ann", "bob", "cat", "dan", "eve", "fay"][: get_game(game_id).min_players]

    def setup(seed_text: str) -> dict:
        resp = post(
            client,
            f"/v1/games/{game_id}/setup",
            raw=f'{{"players": {json.dumps(players)}, "seed": {seed_text}}}'.encode(),
        )
        assert resp.status_code == 200, resp.get_data(as_text=True)
        return resp.get_json()["state"]

    assert setup("12400387691.0") == setup("12400387691")
    assert setup("1e3") == setup("1000") == setup("1000.000")


def test_non_integral_numbers_stay_refused(client):
    for seed in ("5.5", "1e-3", "1e19", "-1.0"):
        resp = post(
            client,
            "/v1/games/reign-and-ruin/setup",
            raw=f'{{"players": ["a", "b"], "seed": {seed}}}'.encode(),
        )
        assert_problem(resp, 400, "invalid_body")
    resp = post(
        client, "/v1/games/reign-and-ruin/setup", raw=b'{"players": ["a", "b"], "seed": "1.0"}'
    )
    assert_problem(resp, 400, "invalid_body")  # a string is never a number


def test_an_integral_float_in_a_state_and_a_session(client):
    state = _state("reign-and-ruin")
    version = state["schema_version"]
    text = json.dumps({"state": state}).replace(
        f'"schema_version": {version}', f'"schema_version": {version}.0'
    )
    assert f'"schema_version": {version}.0' in text
    resp = post(client, "/v1/games/reign-and-ruin/view", raw=text.encode())
    assert resp.status_code == 200, resp.get_data(as_text=True)
    resp = post(
        client,
        "/v1/sessions",
        raw=b'{"game": "reign-and-ruin", "players": ["a", "b"], "open": true, "seed": 7.0}',
    )
    assert resp.status_code == 201, resp.get_data(as_text=True)


def test_a_state_with_a_float_is_read_as_integers_every_time_it_comes(client):
    """The float scan skips a known state's bytes, so bytes that held a float are never known:
    the same bytes sent again are read as integers again (and answered with integers)."""
    state = _state("reign-and-ruin")
    version = state["schema_version"]
    move = get_game("reign-and-ruin").legal_moves(state, None)[0]
    text = json.dumps({"state": state, "move": move}, separators=(",", ":")).replace(
        f'"schema_version":{version}', f'"schema_version":{version}.0'
    )
    assert f'"schema_version":{version}.0' in text
    for _ in range(3):
        resp = post(client, "/v1/games/reign-and-ruin/apply", raw=text.encode())
        assert resp.status_code == 200, resp.get_data(as_text=True)
        answer = resp.get_data(as_text=True)
        assert f'"schema_version":{version},' in answer and f"{version}.0" not in answer


def test_a_float_beside_a_known_state_is_read_as_an_integer(client):
    """A known state's bytes are not scanned; the rest of the body (here a suggest's seed and
    time_ms) still is."""
    state = _state("reign-and-ruin")
    answer = post(
        client, "/v1/games/reign-and-ruin/setup", {"players": state["players"], "seed": 3}
    )
    known = answer.get_data()  # the service's own bytes: known from now on
    state_bytes = known[known.index(b'"state":') + len(b'"state":') : -1]
    assert json.loads(state_bytes) == state

    def suggest(seed: str, time_ms: str) -> dict:
        body = b'{"state":%s,"player":"ann","level":"random","seed":%s,"time_ms":%s}' % (
            state_bytes,
            seed.encode(),
            time_ms.encode(),
        )
        resp = post(client, "/v1/games/reign-and-ruin/suggest", raw=body)
        assert resp.status_code == 200, resp.get_data(as_text=True)
        return resp.get_json()

    assert suggest("7.0", "1e2") == suggest("7", "100")


# -- suggest levels --------------------------------------------------------------------------------
def test_suggest_levels_are_each_games_own(client, monkeypatch):
    spec = yaml.safe_load(OPENAPI_PATH.read_text("utf-8"))["components"]["schemas"]
    for game_id, game in GAMES.items():
        for name in ("SuggestRequest", "SuggestResponse"):
            assert spec[game_prefix(game_id) + name]["properties"]["level"]["enum"] == list(
                game.bot_levels
            )
    game = get_game("reign-supreme")
    monkeypatch.setattr(game, "bot_levels", ("random",))
    state = _state("reign-supreme")
    body = {
        "state": state,
        "player": state["players"][0],
        "level": "greedy",
        "seed": 1,
        "time_ms": 50,
    }
    problem = assert_problem(
        post(client, "/v1/games/reign-supreme/suggest", body), 400, "invalid_body"
    )
    assert list(problem["errors"]) == ["level"]


def test_a_move_of_another_game_in_a_session_is_422_naming_both(client, session):
    """A session's move is any game's move in the spec (the path does not name the game): a
    well-formed move of another game is illegal here (422), a move of no game is malformed (400)."""
    sid, auth = session["session_id"], {"Authorization": f"Bearer {session['seats']['ann']}"}
    resp = client.post(
        f"/v1/sessions/{sid}/moves",
        json={"move": {"type": "concede", "player": "ann"}},
        headers=auth,
    )
    problem = assert_problem(resp, 422, "illegal_move")
    assert [v["code"] for v in problem["violations"]] == ["wrong_game"]
    assert "reign-and-ruin" in problem["detail"] and "reign-supreme" in problem["detail"]
    resp = client.post(
        f"/v1/sessions/{sid}/moves", json={"move": {"type": "fly", "player": "ann"}}, headers=auth
    )
    assert_problem(resp, 400, "invalid_body")
    assert client.get(f"/v1/sessions/{sid}").get_json()["version"] == 0
