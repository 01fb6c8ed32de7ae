"""The session endpoints through the Flask test client, on a real (embedded) Redis server.

Each test makes its own session; the raw Redis client is used to look at what is stored.
"""

from __future__ import annotations

import hashlib

import pytest

from api.session_store import KEY_PREFIX
from rules.registry import GAMES, get_game

GAME = "reign-and-ruin"
PROBLEM = "application/problem+json"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def redis_client(app):
    return app.extensions["referee_store"].client()


@pytest.fixture
def session(client):
    resp = client.post(
        "/v1/sessions", json={"game": GAME, "players": ["ann", "bob"], "open": True, "seed": 11}
    )
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()


def path(session: dict, tail: str = "") -> str:
    return f"/v1/sessions/{session['session_id']}{tail}"


def first_move(client, session, player):
    resp = client.get(path(session, "/legal-moves"), headers=bearer(session["seats"][player]))
    assert resp.status_code == 200
    return resp.get_json()["moves"][0]


def play(client, session, player, **headers):
    move = first_move(client, session, player)
    return client.post(
        path(session, "/moves"),
        json={"move": move},
        headers={**bearer(session["seats"][player]), **headers},
    )


# -- create --------------------------------------------------------------------------------------
def test_create_gives_seats_admin_location_and_spectator_view(client, session):
    assert session["version"] == 0 and session["game"] == GAME
    assert set(session["seats"]) == {"ann", "bob"}
    tokens = list(session["seats"].values()) + [session["admin_token"]]
    assert len(set(tokens)) == 3 and all(len(t) >= 40 for t in tokens)
    expected = get_game(GAME).view(get_game(GAME).setup(["ann", "bob"], 11, {}), None)
    assert session["view"] == expected
    resp = client.get(path(session))
    assert resp.status_code == 200


def test_create_sets_location(client):
    resp = client.post("/v1/sessions", json={"game": GAME, "players": ["a", "b"]})
    assert resp.status_code == 201
    assert resp.headers["Location"] == f"/v1/sessions/{resp.get_json()['session_id']}"


@pytest.mark.parametrize(
    "body, status, code",
    [
        ({"game": "chess", "players": ["a", "b"]}, 404, "unknown_game"),
        ({"players": ["a", "b"]}, 400, "invalid_body"),
        ({"game": GAME, "players": ["a"]}, 422, "invalid_setup"),
        ({"game": GAME, "players": ["a", "a"]}, 422, "invalid_setup"),
        ({"game": GAME, "players": ["a", "b"], "seed": -1}, 400, "invalid_body"),
        ({"game": GAME, "players": ["a", "b"], "options": {"deck": 5}}, 400, "invalid_body"),
        ({"game": GAME, "players": ["a", "b"], "extra": 1}, 400, "invalid_body"),
    ],
)
def test_create_refuses_bad_bodies(client, body, status, code):
    resp = client.post("/v1/sessions", json=body)
    assert resp.status_code == status and resp.mimetype == PROBLEM
    assert resp.get_json()["code"] == code


def test_every_registered_game_can_be_a_session(client):
    for game_id, game in GAMES.items():
        players = [f"p{i}" for i in range(max(game.min_players, 2))]
        resp = client.post(
            "/v1/sessions", json={"game": game_id, "players": players, "open": True, "seed": 3}
        )
        assert resp.status_code == 201, (game_id, resp.get_json())
        assert resp.get_json()["view"] == game.view(game.setup(players, 3, {}), None)


# -- storage ---------------------------------------------------------------------------------------
def test_keys_share_one_hash_tag_and_tokens_are_stored_hashed(client, session, redis_client):
    play(client, session, "ann")
    sid = session["session_id"]
    keys = sorted(k.decode() for k in redis_client.scan_iter(match=f"{KEY_PREFIX}{{{sid}}}:*"))
    seats = len(session["seats"])  # the record's views: the public's and each seat's
    views = ["public", *map(str, range(seats))]
    assert keys == sorted(
        [f"{KEY_PREFIX}{{{sid}}}:{part}" for part in ("history", "session")]
        + [f"{KEY_PREFIX}{{{sid}}}:record:{view}" for view in views]
    )
    dump = b"".join(v for v in redis_client.hgetall(f"{KEY_PREFIX}{{{sid}}}:session").values())
    for token in [*session["seats"].values(), session["admin_token"]]:
        assert token.encode() not in dump
        assert hashlib.sha256(token.encode()).hexdigest().encode() in dump


def test_idle_ttl_is_set_and_refreshed_by_moves(app, client, session, redis_client):
    ttl = app.config["REFEREE_SETTINGS"].session_ttl
    key = f"{KEY_PREFIX}{{{session['session_id']}}}:session"
    assert 0 < redis_client.ttl(key) <= ttl
    redis_client.expire(key, 100)
    assert play(client, session, "ann").status_code == 200
    assert redis_client.ttl(key) > ttl - 10
    assert redis_client.ttl(f"{KEY_PREFIX}{{{session['session_id']}}}:history") > ttl - 10


def test_an_expired_session_is_gone(client, session, redis_client):
    for key in redis_client.scan_iter(match=f"{KEY_PREFIX}{{{session['session_id']}}}:*"):
        redis_client.delete(key)
    assert client.get(path(session)).status_code == 404


# -- read ------------------------------------------------------------------------------------------
def test_seat_view_spectator_view_and_etag(client, session):
    game = get_game(GAME)
    state = game.setup(["ann", "bob"], 11, {})
    resp = client.get(path(session), headers=bearer(session["seats"]["ann"]))
    body = resp.get_json()
    assert body["seat"] == "ann" and body["view"] == game.view(state, "ann")
    assert resp.headers["ETag"].startswith('"0.') and "Authorization" in resp.headers["Vary"]
    spectator = client.get(path(session)).get_json()
    assert spectator["seat"] is None and spectator["view"] == game.view(state, None)
    assert spectator["view"] != body["view"]


def test_if_none_match(client, session):
    tag = client.get(path(session)).headers["ETag"]  # '"0.<digest>"' (test_sessions_etags)
    assert client.get(path(session), headers={"If-None-Match": tag}).status_code == 304
    assert client.get(path(session), headers={"If-None-Match": f"W/{tag}"}).status_code == 304
    assert client.get(path(session), headers={"If-None-Match": f'"7", {tag}'}).status_code == 304
    assert client.get(path(session), headers={"If-None-Match": "*"}).status_code == 304
    assert play(client, session, "ann").status_code == 200
    resp = client.get(path(session), headers={"If-None-Match": tag})
    assert resp.status_code == 200 and resp.headers["ETag"].startswith('"1.')
    assert client.get(path(session), headers={"If-None-Match": "junk"}).status_code == 400


@pytest.mark.parametrize("sid", ["does-not-exist", "x" * 65, "a b", "é"])
def test_unknown_session_is_404(client, sid):
    for method, tail in [
        ("GET", ""),
        ("GET", "/legal-moves"),
        ("GET", "/history"),
        ("DELETE", ""),
        ("POST", "/moves"),
        ("GET", "/events"),
    ]:
        resp = client.open(f"/v1/sessions/{sid}{tail}", method=method, json={"move": {}})
        assert resp.status_code == 404 and resp.get_json()["code"] == "unknown_session", (
            method,
            tail,
        )


# -- tokens ----------------------------------------------------------------------------------------
def test_legal_moves_need_a_seat(client, session):
    resp = client.get(path(session, "/legal-moves"))
    assert resp.status_code == 401 and resp.mimetype == PROBLEM
    assert resp.headers["WWW-Authenticate"].startswith("Bearer")
    assert client.get(path(session, "/legal-moves"), headers=bearer("nope")).status_code == 401
    assert (
        client.get(
            path(session, "/legal-moves"), headers={"Authorization": "Basic abc"}
        ).status_code
        == 401
    )
    assert (
        client.get(
            path(session, "/legal-moves"), headers=bearer(session["admin_token"])
        ).status_code
        == 403
    )
    resp = client.get(path(session, "/legal-moves"), headers=bearer(session["seats"]["bob"]))
    state = get_game(GAME).setup(["ann", "bob"], 11, {})
    assert resp.get_json()["moves"] == get_game(GAME).legal_moves(state, "bob")


def test_a_wrong_token_is_refused_not_downgraded_to_spectator(client, session):
    assert client.get(path(session), headers=bearer("wrong")).status_code == 401


def test_a_token_opens_only_its_own_session(client, session):
    other = client.post(
        "/v1/sessions", json={"game": GAME, "players": ["ann", "bob"], "open": True, "seed": 11}
    ).get_json()
    resp = client.get(path(other, "/legal-moves"), headers=bearer(session["seats"]["ann"]))
    assert resp.status_code == 401


def test_a_seat_cannot_move_for_another(client, session):
    move = first_move(client, session, "bob")
    resp = client.post(
        path(session, "/moves"), json={"move": move}, headers=bearer(session["seats"]["ann"])
    )
    assert resp.status_code == 403 and resp.get_json()["code"] == "forbidden"
    assert client.get(path(session)).get_json()["version"] == 0


def test_moves_need_a_seat_token(client, session):
    move = first_move(client, session, "ann")
    assert client.post(path(session, "/moves"), json={"move": move}).status_code == 401
    resp = client.post(
        path(session, "/moves"), json={"move": move}, headers=bearer(session["admin_token"])
    )
    assert resp.status_code == 403


# -- moves -----------------------------------------------------------------------------------------
def test_a_move_answers_version_events_and_the_movers_view(client, session):
    game = get_game(GAME)
    move = first_move(client, session, "ann")
    resp = client.post(
        path(session, "/moves"), json={"move": move}, headers=bearer(session["seats"]["ann"])
    )
    assert resp.status_code == 200 and resp.headers["ETag"] == '"1"'
    body = resp.get_json()
    state, events = game.apply(game.setup(["ann", "bob"], 11, {}), move)
    assert body == {
        "game": GAME,
        "version": 1,
        "events": [game.view_event(e, "ann") for e in events],
        "view": game.view(state, "ann"),
        "outcome": None,
        "fairness": session["fairness"],
        "to_move": game.waiting_on(state),
        "clock": None,
    }


def test_if_match_stale_is_412_and_changes_nothing(client, session):
    assert play(client, session, "ann", **{"If-Match": '"0"'}).status_code == 200
    resp = play(client, session, "bob", **{"If-Match": '"0"'})
    assert resp.status_code == 412 and resp.get_json()["code"] == "precondition_failed"
    assert resp.get_json()["current_version"] == 1
    assert client.get(path(session)).get_json()["version"] == 1
    assert play(client, session, "bob", **{"If-Match": '"1"'}).status_code == 200
    assert play(client, session, "ann", **{"If-Match": "*"}).status_code == 200


def test_expected_version_stale_is_409(client, session):
    move = first_move(client, session, "ann")
    auth = bearer(session["seats"]["ann"])
    assert (
        client.post(
            path(session, "/moves"), json={"move": move, "expected_version": 0}, headers=auth
        ).status_code
        == 200
    )
    move = first_move(client, session, "bob")
    resp = client.post(
        path(session, "/moves"),
        json={"move": move, "expected_version": 0},
        headers=bearer(session["seats"]["bob"]),
    )
    assert resp.status_code == 409 and resp.get_json()["code"] == "version_conflict"
    assert resp.get_json()["current_version"] == 1


def test_a_move_without_precondition_is_checked_on_the_current_version(client, session):
    assert play(client, session, "ann").status_code == 200
    assert play(client, session, "bob").status_code == 200
    assert client.get(path(session)).get_json()["version"] == 2


def test_illegal_and_malformed_moves_change_nothing(client, session):
    auth = bearer(session["seats"]["ann"])
    resp = client.post(
        path(session, "/moves"),
        json={"move": {"player": "ann", "type": "draft", "cards": ["nope-1", "nope-2"]}},
        headers=auth,
    )
    assert resp.status_code == 422 and resp.get_json()["code"] == "illegal_move"
    resp = client.post(
        path(session, "/moves"), json={"move": {"player": "ann", "type": "fly"}}, headers=auth
    )
    assert resp.status_code == 400 and "move.type" in resp.get_json()["errors"]
    resp = client.post(
        path(session, "/moves"),
        json={"move": {"player": "ann", "type": "draft"}, "expected_version": -1},
        headers=auth,
    )
    assert resp.status_code == 400 and "expected_version" in resp.get_json()["errors"]
    resp = client.post(
        path(session, "/moves"), data="{", headers={**auth, "Content-Type": "application/json"}
    )
    assert resp.status_code == 400
    resp = client.post(
        path(session, "/moves"),
        json={"move": first_move(client, session, "ann")},
        headers={**auth, "If-Match": "five"},
    )
    assert resp.status_code == 400 and resp.get_json()["code"] == "invalid_header"
    assert client.get(path(session)).get_json()["version"] == 0
    assert client.get(path(session, "/history")).get_json()["entries"] == []


def test_idempotency_key_replays_the_first_answer_and_applies_once(client, session):
    move = first_move(client, session, "ann")
    headers = {**bearer(session["seats"]["ann"]), "Idempotency-Key": "try-1"}
    first = client.post(path(session, "/moves"), json={"move": move}, headers=headers)
    again = client.post(path(session, "/moves"), json={"move": move}, headers=headers)
    assert first.status_code == again.status_code == 200
    assert again.get_json() == first.get_json() and again.headers["Idempotent-Replayed"] == "true"
    assert client.get(path(session)).get_json()["version"] == 1
    other = {**headers, "Idempotency-Key": "try-2"}
    resp = client.post(path(session, "/moves"), json={"move": move}, headers=other)
    assert resp.status_code == 422  # a new key is a new request: the pick is no longer possible


def test_idempotency_key_with_a_different_request_is_refused(client, session):
    moves = client.get(
        path(session, "/legal-moves"), headers=bearer(session["seats"]["ann"])
    ).get_json()["moves"]
    headers = {**bearer(session["seats"]["ann"]), "Idempotency-Key": "k"}
    assert (
        client.post(path(session, "/moves"), json={"move": moves[0]}, headers=headers).status_code
        == 200
    )
    resp = client.post(path(session, "/moves"), json={"move": moves[1]}, headers=headers)
    assert resp.status_code == 422 and resp.get_json()["code"] == "idempotency_key_reused"


def test_idempotency_keys_are_per_seat(client, session):
    assert play(client, session, "ann", **{"Idempotency-Key": "same"}).status_code == 200
    resp = play(client, session, "bob", **{"Idempotency-Key": "same"})
    assert resp.status_code == 200 and "Idempotent-Replayed" not in resp.headers
    assert resp.get_json()["version"] == 2


def test_idempotency_key_length(client, session):
    assert play(client, session, "ann", **{"Idempotency-Key": "x" * 256}).status_code == 400


# -- history ---------------------------------------------------------------------------------------
def test_history_is_redacted_for_the_caller(client, session):
    game = get_game(GAME)
    ann_move = first_move(client, session, "ann")
    client.post(
        path(session, "/moves"), json={"move": ann_move}, headers=bearer(session["seats"]["ann"])
    )
    _, events = game.apply(game.setup(["ann", "bob"], 11, {}), ann_move)
    own = client.get(
        path(session, "/history?after=0"), headers=bearer(session["seats"]["ann"])
    ).get_json()
    other = client.get(
        path(session, "/history?after=0"), headers=bearer(session["seats"]["bob"])
    ).get_json()
    spectator = client.get(path(session, "/history")).get_json()
    assert own["entries"][0]["move"] == ann_move
    assert own["entries"][0]["events"] == [game.view_event(e, "ann") for e in events]
    for seen, viewer in ((other, "bob"), (spectator, None)):
        entry = seen["entries"][0]
        assert entry["move"] == {"player": "ann", "type": "draft"}
        assert entry["events"] == [game.view_event(e, viewer) for e in events]
        for card in ann_move["cards"]:
            assert card not in str(entry)


def test_history_after_and_limit(client, session):
    for player in ("ann", "bob", "ann", "bob"):
        assert play(client, session, player).status_code == 200
    body = client.get(path(session, "/history?after=2")).get_json()
    assert (
        [e["version"] for e in body["entries"]] == [3, 4]
        and body["version"] == 4
        and not body["more"]
    )
    body = client.get(path(session, "/history?after=0&limit=3")).get_json()
    assert [e["version"] for e in body["entries"]] == [1, 2, 3] and body["more"]
    assert client.get(path(session, "/history?after=4")).get_json()["entries"] == []
    for bad in ("-1", "x", "1.5", "", "\u0663", "+1", " 1", "1_0", "9"):  # 9: past version 4
        resp = client.get(path(session, f"/history?after={bad}"))
        assert resp.status_code == (200 if bad == "" else 400)
    assert client.get(path(session, "/history?limit=0")).status_code == 400


# -- delete ----------------------------------------------------------------------------------------
def test_delete_needs_the_admin_token(client, session, redis_client):
    assert client.delete(path(session)).status_code == 401
    assert client.delete(path(session), headers=bearer(session["seats"]["ann"])).status_code == 403
    stranger = client.delete(path(session), headers=bearer("a-token-of-another-session"))
    assert stranger.status_code == 401 and stranger.get_json()["code"] == "unauthorized"
    play(client, session, "ann", **{"Idempotency-Key": "k"})
    assert client.delete(path(session), headers=bearer(session["admin_token"])).status_code == 204
    assert client.get(path(session)).status_code == 404
    keys = [
        k.decode()
        for k in redis_client.scan_iter(match=f"{KEY_PREFIX}{{{session['session_id']}}}:*")
    ]
    assert keys == [f"{KEY_PREFIX}{{{session['session_id']}}}:session"]  # the tombstone only
    assert sorted(redis_client.hkeys(keys[0])) == [
        b"admin",
        b"seats",
    ]  # no state, version, history or answers
    assert 0 < redis_client.ttl(keys[0]) <= client.application.extensions["referee_sessions"].ttl


def test_a_deleted_session_tells_strangers_401_and_its_own_tokens_404(client, session):
    """The tombstone: token-needing operations keep refusing strangers (401) after DELETE;
    the deleted session's own admin and seat tokens learn it is gone (404). Reads stay 404."""
    admin, seat = bearer(session["admin_token"]), bearer(session["seats"]["ann"])
    assert client.delete(path(session), headers=admin).status_code == 204
    stranger = bearer("not-a-token-of-this-session")
    token_needing = [
        lambda h: client.delete(path(session), headers=h),
        lambda h: client.get(path(session, "/legal-moves"), headers=h),
        lambda h: client.post(path(session, "/moves"), json={"move": {}}, headers=h),
    ]
    for call in token_needing:
        assert call({}).status_code == 401 and call(stranger).status_code == 401
        for own in (admin, seat):
            resp = call(own)
            assert resp.status_code == 404 and resp.get_json()["code"] == "unknown_session"
    for read in ("", "/history", "/events"):
        assert client.get(path(session, read), headers=stranger).status_code == 404
    never = "A" * 22
    for call in (client.delete, client.get):
        assert call(f"/v1/sessions/{never}", headers=stranger).status_code == 404


@pytest.mark.parametrize("how", ["deleted", "expired"])
@pytest.mark.parametrize("read", ["/history", "/events"])
def test_a_history_read_of_a_session_gone_since_its_load_is_a_404(
    app, client, session, monkeypatch, read, how
):
    """The session goes (its admin's DELETE, its time-to-live) between the request's load and
    its read of the history: ``/history`` is 404 ``unknown_session`` (it answered 200 with
    ``version: 0`` and no entries), and a stream says ``deleted`` and ends (it streamed
    heartbeats of nothing)."""
    for seat in ("ann", "bob", "ann"):
        assert play(client, session, seat).status_code == 200
    sessions = app.extensions["referee_sessions"]
    load = sessions.load

    def loaded_then_gone(session_id):
        found = load(session_id)
        if how == "deleted":
            sessions.delete(session_id)
        else:  # every key at once, nothing published
            sessions.store.client().delete(*sessions.keys(session_id))
        return found

    monkeypatch.setattr(sessions, "load", loaded_then_gone)
    resp = client.get(path(session, f"{read}?after=0"))
    if read == "/history":
        assert resp.status_code == 404 and resp.mimetype == PROBLEM
        assert resp.get_json()["code"] == "unknown_session"
        return
    assert resp.status_code == 200  # the stream began before the session went
    chunks = iter(resp.response)  # read event by event: a stream that goes on fails, not hangs
    assert next(chunks).startswith(b"retry:")
    assert next(chunks) == b"event: deleted\ndata: {}\n\n"
    assert list(chunks) == []  # its end
    resp.close()


def test_wrong_methods(client, session):
    assert client.put(path(session)).status_code == 405
    assert client.get("/v1/sessions").status_code == 405
    assert client.get(path(session, "/moves")).status_code == 405


def test_a_session_shows_no_drawn_starting_player_during_the_draft(client):
    """Issue 16 item 9 (rules doc reign-and-ruin#starting-player): without
    ``options.starting_player`` no seat's view, no answer to a move and no history entry names
    a starting player before the draft ends; ``draft_finished`` then names it for everyone."""
    resp = client.post(
        "/v1/sessions", json={"game": GAME, "players": ["ann", "bob"], "open": True, "seed": 5}
    )
    created = resp.get_json()
    assert created["view"]["starting_player"] is None
    game = get_game(GAME)
    state = game.setup(["ann", "bob"], 5, {})
    finished = None
    while state["phase"] == "draft":
        for seat in ("ann", "bob", None):
            headers = bearer(created["seats"][seat]) if seat else {}
            assert (
                client.get(path(created), headers=headers).get_json()["view"]["starting_player"]
                is None
            )
        move = game.legal_moves(state)[0]
        answer = client.post(
            path(created, "/moves"),
            json={"move": move},
            headers=bearer(created["seats"][move["player"]]),
        ).get_json()
        state, events = game.apply(state, move)
        if state["phase"] == "draft":
            assert answer["view"]["starting_player"] is None
            assert all("starting_player" not in e for e in answer["events"])
        else:
            finished = answer
    starting = state["starting_player"]
    assert finished["view"]["starting_player"] == starting
    assert {"type": "draft_finished", "starting_player": starting} in finished["events"]
    for seat in ("ann", "bob", None):
        headers = bearer(created["seats"][seat]) if seat else {}
        entries = client.get(path(created, "/history?after=0"), headers=headers).get_json()[
            "entries"
        ]
        named = [e["version"] for e in entries for ev in e["events"] if "starting_player" in ev]
        assert named == [len(entries)], (seat, named)
