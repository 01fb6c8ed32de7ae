"""Every error status of the contract that applies to the stateless endpoints, as problem+json."""

from __future__ import annotations

import copy
import gzip
import json
import random

import pytest
from helpers_api import BASE, GAME, PLAYERS, assert_problem, post, setup_state

from api import create_app
from rules.playout import random_steps
from rules.registry import get_game

POST_ENDPOINTS = ["setup", "legal-moves", "validate", "apply", "score", "view"]


def mid_game(seed=11):
    game = get_game(GAME)
    chooser = random.Random(seed)
    history = list(random_steps(game, game.setup(PLAYERS, seed, {}), chooser))
    step = history[len(history) // 2]
    return step.before, step.legal


def play_state():
    """A state in the play phase (after the draft) and its legal moves."""
    game = get_game(GAME)
    chooser = random.Random(5)
    for step in random_steps(game, game.setup(PLAYERS, 5, {}), chooser):
        if step.before["phase"] == "play":
            return step.before, step.legal
    raise AssertionError("no play phase")


# -- 400 -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("endpoint", POST_ENDPOINTS)
@pytest.mark.parametrize(
    "raw",
    [
        b"{not json",
        b"",
        b"\xff\xfe\x00",
        b'{"state": NaN}',
        b"[1, 2,]",
        b'{"players": ["a", "b"], "seed": Infinity}',
        b"1" * 5000,
    ],
)
def test_broken_json_is_400(client, endpoint, raw):
    body = assert_problem(post(client, f"{BASE}/{endpoint}", raw=raw), 400, "malformed_json")
    assert "errors" not in body or isinstance(body["errors"], dict)


def test_deeply_nested_json_is_400_not_500(client):
    raw = b"[" * 100_000 + b"]" * 100_000
    body = assert_problem(post(client, f"{BASE}/apply", raw=raw), 400)
    assert body["code"] in ("malformed_json", "too_deep")
    raw = b'{"state": ' + b'{"a": ' * 5000 + b"1" + b"}" * 5000 + b', "move": {}}'
    assert_problem(post(client, f"{BASE}/apply", raw=raw), 400)


@pytest.mark.parametrize("endpoint", POST_ENDPOINTS)
@pytest.mark.parametrize("body", [[], [1, 2], "text", 3, None, True])
def test_body_not_an_object_is_400(client, endpoint, body):
    problem = assert_problem(post(client, f"{BASE}/{endpoint}", body), 400, "invalid_body")
    assert problem["errors"] == {"_body": ["Invalid input type."]}


def test_missing_fields_are_named(client):
    problem = assert_problem(post(client, f"{BASE}/apply", {"move": {}}), 400, "invalid_body")
    assert problem["errors"] == {"state": ["Missing data for required field."]}
    problem = assert_problem(post(client, f"{BASE}/setup", {}), 400, "invalid_body")
    assert problem["errors"] == {"players": ["Missing data for required field."]}


def test_unknown_envelope_field_is_400(client):
    problem = assert_problem(post(client, f"{BASE}/setup", {"players": ["a", "b"], "sede": 3}), 400)
    assert problem["errors"] == {"sede": ["Unknown field."]}


@pytest.mark.parametrize(
    "body, path",
    [
        ({"players": "ab"}, "players"),
        ({"players": ["a", 2]}, "players.1"),
        ({"players": ["a", ""]}, "players.1"),
        ({"players": ["a", "b" * 65]}, "players.1"),
        ({"players": ["a", "b"], "seed": -1}, "seed"),
        ({"players": ["a", "b"], "seed": 2**63}, "seed"),
        ({"players": ["a", "b"], "seed": 1.5}, "seed"),
        ({"players": ["a", "b"], "seed": True}, "seed"),
        ({"players": ["a", "b"], "seed": "7"}, "seed"),
        ({"players": ["a", "b"], "options": []}, "options"),
        ({"players": ["a", "b"], "options": {"colour": "red"}}, "options.colour"),
        ({"players": ["a", "b"], "options": {"starting_player": 1}}, "options.starting_player"),
        ({"players": ["a", "b"], "options": {"deck": {}}}, "options.deck"),
        (
            {"players": ["a", "b"], "options": {"deck": [{"faction": "hexen", "value": True}]}},
            "options.deck.0.value",
        ),
        (
            {"players": ["a", "b"], "options": {"deck": [{"faction": "hexen"}]}},
            "options.deck.0.value",
        ),
    ],
)
def test_setup_shape_errors_name_the_field(client, body, path):
    problem = assert_problem(post(client, f"{BASE}/setup", body), 400, "invalid_body")
    assert path in problem["errors"], problem["errors"]
    assert all(isinstance(m, str) for msgs in problem["errors"].values() for m in msgs)


def test_state_shape_errors_are_keyed_from_the_body_root(client):
    state = setup_state(client)
    bad = copy.deepcopy(state)
    bad["hands"]["ann"] = ["hexen-4", 5]
    bad["cards"]["hexen-4"]["value"] = "4"
    bad["draft"]["packets"]["bob"] = "nope"
    bad["move_count"] = True
    bad["extra"] = 1
    del bad["rng"]
    problem = assert_problem(post(client, f"{BASE}/score", {"state": bad}), 400, "invalid_body")
    assert problem["errors"] == {
        "state.hands.ann.1": ["Not a valid string."],
        "state.cards.hexen-4.value": ["Not a valid integer."],
        "state.draft.packets.bob": ["Not a valid list."],
        "state.move_count": ["Not a valid integer."],
        "state.extra": ["Unknown field."],
        "state.rng": ["Missing data for required field."],
    }


@pytest.mark.parametrize("endpoint", ["legal-moves", "validate", "apply", "score", "view"])
def test_state_not_an_object_is_400(client, endpoint):
    body = {"state": [1, 2], "move": {}} if endpoint in ("validate", "apply") else {"state": [1, 2]}
    problem = assert_problem(post(client, f"{BASE}/{endpoint}", body), 400)
    assert "state" in problem["errors"]


def test_unknown_move_type_is_400(client):
    state, legal = play_state()
    move = dict(legal[0], type="teleport")
    for endpoint in ("apply", "validate"):
        problem = assert_problem(
            post(client, f"{BASE}/{endpoint}", {"state": state, "move": move}), 400
        )
        assert list(problem["errors"]) == ["move.type"]
        assert "teleport" in problem["errors"]["move.type"][0]


@pytest.mark.parametrize(
    "change, path",
    [
        (lambda m: m.pop("card"), "move.card"),
        (lambda m: m.update(card=3), "move.card"),
        (lambda m: m.update(card=None), "move.card"),
        (lambda m: m.update(card=["hexen-4"]), "move.card"),
        (lambda m: m.update(bonus=1), "move.bonus"),
        (lambda m: m.pop("player"), "move.player"),
        (lambda m: m.update(player=7), "move.player"),
        (lambda m: m.pop("type"), "move.type"),
        (lambda m: m.update(type=1), "move.type"),
    ],
)
def test_move_shape_errors_name_the_field(client, change, path):
    state, legal = play_state()
    move = copy.deepcopy(next(m for m in legal if m["type"] == "fighter"))
    change(move)
    for endpoint in ("apply", "validate"):
        problem = assert_problem(
            post(client, f"{BASE}/{endpoint}", {"state": state, "move": move}), 400
        )
        assert path in problem["errors"], problem["errors"]


def test_move_type_specific_fields(client):
    state, legal = play_state()
    base = {"player": state["active_players"][0], "card": "hexen-1"}
    cases = [
        ({"type": "destroy"}, "move.target"),
        ({"type": "draft", "cards": "ab"}, "move.cards"),
        ({"type": "draft", "cards": ["a", 1]}, "move.cards.1"),
        ({"type": "swap", "opponent": "bob", "to": "pocket"}, "move.to"),
        ({"type": "revive", "target": "x"}, "move.to"),
        ({"type": "revive", "target": "x", "to": "army", "army": 3}, "move.army"),
    ]
    for extra, path in cases:
        move = dict(base, **extra)
        if extra["type"] == "draft":
            move.pop("card")
        problem = assert_problem(post(client, f"{BASE}/apply", {"state": state, "move": move}), 400)
        assert path in problem["errors"], (extra, problem["errors"])


# -- 404 / 405 -----------------------------------------------------------------------------------
def test_unknown_game_is_404(client):
    problem = assert_problem(
        post(client, "/v1/games/no-such-game/setup", {"players": ["a", "b"]}), 404, "unknown_game"
    )
    assert problem["violations"][0]["code"] == "unknown_game"
    assert_problem(client.get("/v1/games/no-such-game"), 404, "unknown_game")
    for endpoint in POST_ENDPOINTS:
        assert_problem(post(client, f"/v1/games/nope/{endpoint}", {}), 404, "unknown_game")


@pytest.mark.parametrize(
    "path",
    [
        "/nope",
        "/v1",
        "/v1/games/reign-and-ruin/nope",
        "/v1/sessions/x/nope",
        "/docs/no-such-asset.js",
        "/v1/games/reign-and-ruin/apply/x",
        "/v1//games",
        f"/v1/games/{GAME}//legal-moves",
        "/v1/sessions//x",
    ],
)
def test_unknown_path_is_404(client, path):
    """A doubled slash too: werkzeug merged it with a 308 to an absolute URL built from the
    client's Host header, in HTML."""
    resp = client.get(path)
    assert_problem(resp, 404, "not_found")
    assert "Location" not in resp.headers


@pytest.mark.parametrize(
    "method, path, allowed",
    [
        ("GET", f"{BASE}/apply", {"POST", "OPTIONS"}),
        ("PUT", f"{BASE}/setup", {"POST", "OPTIONS"}),
        ("DELETE", "/v1/games", {"GET", "HEAD", "OPTIONS"}),
        ("POST", "/healthz", {"GET", "HEAD", "OPTIONS"}),
        ("POST", f"/v1/games/{GAME}", {"GET", "HEAD", "OPTIONS"}),
    ],
)
def test_wrong_method_is_405_with_allow(client, method, path, allowed):
    resp = client.open(path, method=method)
    assert_problem(resp, 405, "method_not_allowed")
    assert {m.strip() for m in resp.headers["Allow"].split(",")} == allowed


# -- 413 / 415 -----------------------------------------------------------------------------------
def test_body_over_limit_is_413(referee_data_dir):
    app = create_app(
        {
            "TESTING": True,
            "REDIS_URL": None,
            "REFEREE_DATA_DIR": str(referee_data_dir),
            "MAX_BODY_BYTES": 1000,
        }
    )
    client = app.test_client()
    body = json.dumps({"players": ["a" * 60] * 50})
    assert len(body) > 1000
    problem = assert_problem(
        post(client, f"{BASE}/setup", raw=body.encode()), 413, "payload_too_large"
    )
    assert "1000" in problem["detail"]
    small = post(client, f"{BASE}/setup", {"players": ["a", "b"]})
    assert small.status_code == 200


def test_default_limit_is_one_mebibyte(client):
    big = b'{"players": ["' + b"a" * (1024 * 1024) + b'"]}'
    assert_problem(post(client, f"{BASE}/setup", raw=big), 413, "payload_too_large")


def test_chunked_body_over_limit_is_413(referee_data_dir):
    """A body without Content-Length (chunked) is cut off at the limit too."""
    import io

    app = create_app(
        {
            "TESTING": True,
            "REDIS_URL": None,
            "REFEREE_DATA_DIR": str(referee_data_dir),
            "MAX_BODY_BYTES": 1000,
        }
    )
    client = app.test_client()
    stream = io.BytesIO(b'{"players": ["' + b"a" * 5000 + b'"]}')
    resp = client.post(
        f"{BASE}/setup",
        input_stream=stream,
        content_type="application/json",
        headers={"Transfer-Encoding": "chunked"},
        environ_overrides={"wsgi.input_terminated": True},
    )
    assert_problem(resp, 413, "payload_too_large")


@pytest.mark.parametrize(
    "content_type",
    [
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/xml",
        "",
    ],
)
@pytest.mark.parametrize("endpoint", POST_ENDPOINTS)
def test_not_json_is_415(client, endpoint, content_type):
    resp = client.post(
        f"{BASE}/{endpoint}",
        data=b'{"players": ["a", "b"]}',
        headers={"Content-Type": content_type} if content_type else {},
    )
    assert_problem(resp, 415, "unsupported_media_type")


def test_no_body_no_content_type_is_415(client):
    assert_problem(client.post(f"{BASE}/setup"), 415, "unsupported_media_type")


SETUP_BODY = json.dumps({"players": ["a", "b"], "seed": 3}).encode()
GZIPPED = gzip.compress(SETUP_BODY, mtime=0)


@pytest.mark.parametrize(
    "coding, raw",
    [
        ("gzip", GZIPPED),  # was 400 malformed_json: read as if not coded
        ("gzip", SETUP_BODY),  # plain JSON labelled gzip: was accepted
        ("br", SETUP_BODY),
        ("deflate", SETUP_BODY),
        ("identity, gzip", GZIPPED),
        ("GZIP", GZIPPED),
    ],
    ids=["gzip", "plain-labelled-gzip", "br", "deflate", "identity-then-gzip", "upper-case"],
)
def test_content_coded_body_is_415_with_accept_encoding(client, coding, raw):
    """RFC 9110 section 15.5.16: the service decodes no content coding, and says which it takes."""
    resp = post(client, f"{BASE}/setup", raw=raw, headers={"Content-Encoding": coding})
    problem = assert_problem(resp, 415, "unsupported_media_type")
    assert f"Content-Encoding: {coding}" in problem["detail"]
    assert resp.headers["Accept-Encoding"] == "identity"


def test_content_coded_session_request_is_415(client):
    body = {"game": GAME, "players": ["a", "b"]}
    resp = post(client, "/v1/sessions", body, headers={"Content-Encoding": "gzip"})
    assert_problem(resp, 415, "unsupported_media_type")


@pytest.mark.parametrize("coding", ["identity", "", "Identity"])
def test_identity_content_coding_is_no_coding(client, coding):
    resp = post(client, f"{BASE}/setup", raw=SETUP_BODY, headers={"Content-Encoding": coding})
    assert resp.status_code == 200, resp.get_json()


@pytest.mark.parametrize("method, path", [("POST", f"{BASE}/setup"), ("GET", "/v1/games")])
@pytest.mark.parametrize("coding", ["gzip, chunked", "deflate, chunked", "compress, chunked"])
def test_transfer_coding_but_chunked_is_501(client, method, path, coding):
    """RFC 9112 section 6.1: a transfer coding the server does not decode is 501 (gunicorn lets
    these through to the app, reading the chunks only), on every path."""
    resp = client.open(
        path,
        method=method,
        data=SETUP_BODY,
        content_type="application/json",
        headers={"Transfer-Encoding": coding},
    )
    problem = assert_problem(resp, 501, "not_implemented")
    assert f"Transfer-Encoding: {coding}" in problem["detail"]


# -- 422 -----------------------------------------------------------------------------------------
def test_illegal_move_is_422_with_violations_naming_a_rule(client):
    state, legal = play_state()
    mover = state["active_players"][0]
    waiting = next(p for p in state["players"] if p != mover)
    move = dict(next(m for m in legal if m["type"] == "fighter"), player=waiting)
    problem = assert_problem(
        post(client, f"{BASE}/apply", {"state": state, "move": move}), 422, "illegal_move"
    )
    assert problem["violations"]
    for v in problem["violations"]:
        assert set(v) == {"code", "message", "rule"}
        assert v["rule"].startswith(f"{GAME}#")
    assert problem["violations"][0]["code"] == "not_your_turn"
    assert problem["detail"] == problem["violations"][0]["message"]


def test_card_not_in_hand_is_422(client):
    state, legal = play_state()
    mover = state["active_players"][0]
    foreign = next(c for c in state["cards"] if c not in state["hands"][mover])
    move = {"player": mover, "type": "fighter", "card": foreign}
    problem = assert_problem(
        post(client, f"{BASE}/apply", {"state": state, "move": move}), 422, "illegal_move"
    )
    assert problem["violations"]


def test_player_not_in_game_is_rejected(client):
    state, legal = play_state()
    move = dict(legal[0], player="nobody-at-this-table")
    problem = assert_problem(
        post(client, f"{BASE}/apply", {"state": state, "move": move}), 422, "illegal_move"
    )
    assert problem["violations"][0]["code"] == "unknown_player"


def test_validate_by_a_player_not_in_the_game_is_422_like_legal_moves_and_view(client):
    """Issue 24: ``validate`` answered 200 ``legal: false`` for a stranger's move where
    legal-moves and view answer 422 ``unknown_player``; now it answers like them. A move of a
    player of the game that breaks a rule stays a 200 verdict."""
    state, legal = play_state()
    stranger = dict(legal[0], player="zed")
    problem = assert_problem(
        post(client, f"{BASE}/validate", {"state": state, "move": stranger}), 422, "unknown_player"
    )
    assert problem["violations"] == [
        {"code": "unknown_player", "message": problem["detail"], "rule": f"{GAME}#players"}
    ]
    other = next(p for p in state["players"] if p not in state["active_players"])
    verdict = post(
        client, f"{BASE}/validate", {"state": state, "move": dict(legal[0], player=other)}
    )
    assert verdict.status_code == 200 and verdict.get_json()["legal"] is False


@pytest.mark.parametrize("endpoint", ["view", "legal-moves"])
def test_unknown_player_is_422(client, endpoint):
    state, _ = play_state()
    problem = assert_problem(
        post(client, f"{BASE}/{endpoint}", {"state": state, "player": "zed"}), 422, "unknown_player"
    )
    assert problem["violations"] == [
        {"code": "unknown_player", "message": problem["detail"], "rule": f"{GAME}#players"}
    ]


@pytest.mark.parametrize(
    "mutate",
    [
        lambda s: s["hands"][s["players"][0]].append(s["draw_pile"][0]),  # a card in two places
        lambda s: s["draw_pile"].append("unicorn-12"),  # an unknown card
        lambda s: s.update(phase="banquet"),
        lambda s: s.update(game="reign-supreme"),
        lambda s: s.update(rng="xyz"),
        lambda s: s.update(move_count=-1),
        lambda s: s.update(players=["ann"]),
        lambda s: s.update(status="finished"),
    ],
)
@pytest.mark.parametrize("endpoint", ["legal-moves", "validate", "apply", "score", "view"])
def test_integrity_failure_is_422_invalid_state(client, endpoint, mutate):
    state, legal = mid_game()
    bad = copy.deepcopy(state)
    mutate(bad)
    body = {"state": bad, "move": legal[0]} if endpoint in ("validate", "apply") else {"state": bad}
    problem = assert_problem(post(client, f"{BASE}/{endpoint}", body), 422, "invalid_state")
    assert problem["violations"]
    assert all(v["rule"].startswith(f"{GAME}#") for v in problem["violations"])


@pytest.mark.parametrize(
    "body, code",
    [
        ({"players": ["solo"]}, "player_count"),
        ({"players": []}, "player_count"),
        ({"players": ["a", "b", "c", "d", "e"]}, "player_count"),
        ({"players": ["a", "a", "b"]}, "duplicate_player"),
        ({"players": ["a", "b"], "options": {"starting_player": "zed"}}, None),
        ({"players": ["a", "b"], "options": {"deck": [{"faction": "hexen", "value": 1}]}}, None),
        (
            {"players": ["a", "b"], "options": {"deck": [{"faction": "pirates", "value": 1}] * 14}},
            None,
        ),
        (
            {"players": ["a", "b"], "options": {"deck": [{"faction": "hexen", "value": 0}] * 14}},
            None,
        ),
    ],
)
def test_invalid_setup_is_422(client, body, code):
    problem = assert_problem(post(client, f"{BASE}/setup", body), 422, "invalid_setup")
    assert problem["violations"]
    if code:
        assert code in [v["code"] for v in problem["violations"]]


# -- the format ----------------------------------------------------------------------------------
def test_problem_format(client):
    resp = post(client, f"{BASE}/setup", {"players": ["solo"]})
    body = assert_problem(resp, 422, "invalid_setup")
    assert resp.headers["Content-Type"] == "application/problem+json"
    assert body["type"] == "https://reign-referee.dev/problems/invalid-setup"
    assert body["title"] == "Invalid setup"
    assert set(body) == {"type", "title", "status", "detail", "code", "violations"}


def test_unexpected_exception_is_a_500_problem(app, monkeypatch, caplog):
    """A bug still answers in the contract's format, and its traceback is logged."""
    game = get_game(GAME)

    def broken(state, player=None):
        raise ZeroDivisionError("boom")

    state, _ = mid_game()
    monkeypatch.setattr(game, "legal_moves", broken)
    client = app.test_client()
    resp = post(client, f"{BASE}/legal-moves", {"state": state})
    body = assert_problem(resp, 500, "internal_error")
    assert "boom" not in body["detail"]
    assert any("ZeroDivisionError" in (r.exc_text or "") or r.exc_info for r in caplog.records)


def test_huge_bodies_of_mistakes_give_bounded_answers(client):
    resp = post(client, f"{BASE}/setup", {"players": [1] * 200_000})
    problem = assert_problem(resp, 400, "invalid_body")
    assert len(problem["errors"]) <= 100 and "more" in problem["detail"]
    assert len(resp.data) < 20_000
    resp = post(client, f"{BASE}/setup", {"players": ["a"] * 200_000})
    problem = assert_problem(resp, 422, "invalid_setup")
    assert [v["code"] for v in problem["violations"]] == ["player_count"]  # ids not checked
    bad_deck = [{"faction": "pirates", "value": 1}] * 1000  # the most cards a custom deck holds
    resp = post(client, f"{BASE}/setup", {"players": ["a", "b"], "options": {"deck": bad_deck}})
    problem = assert_problem(resp, 422, "invalid_setup")
    assert len(problem["violations"]) == 100 and "(and 995 more)" in problem["detail"]
    assert len(resp.data) < 50_000


HUGE = "\x7f" * 150_000
"""150,000 DEL characters (900 KB of JSON escapes): ``repr`` writes each as four."""


@pytest.mark.parametrize(
    "path, body",
    [
        # a custom unit type's name is quoted by Reign Supreme's roster check, several times
        (
            "reign-supreme/setup",
            {"players": PLAYERS, "options": {"rosters": {"demon": {"units": {HUGE: {}}}}}},
        ),
        ("reign-supreme/setup", {"players": PLAYERS, "options": {"scenario": HUGE}}),
        # an unknown key of the body or of the options is the path of a schema error
        ("reign-supreme/setup", {"players": PLAYERS, "options": {HUGE: 1}}),
        ("reign-supreme/setup", {"players": PLAYERS, "options": {"x" * 900_000: 1}}),
        ("reign-and-ruin/setup", {"players": PLAYERS, HUGE: 1}),
    ],
)
def test_text_a_client_sent_comes_back_cut_short(client, path, body):
    """Messages quote the id, key or name a client sent; a body of it answers a few KB, not
    several times as much (``repr`` of a DEL character is four times its size)."""
    resp = post(client, f"/v1/games/{path}", body)
    assert resp.status_code in (400, 422)
    assert len(resp.data) < 20_000
