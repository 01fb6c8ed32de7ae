"""Session quotas (issue 13): a rate limit on creating sessions per client address, counted in
the session Redis (`limits`), a maximum stored state, and a memory limit on the embedded store
(issue 23). Against real Redis servers (a standalone one, and the embedded one). Remembered
Idempotency-Keys: ``test_sessions_idempotency.py``."""

from __future__ import annotations

import random
from typing import Any

import pytest
import redis

from api import codings, create_app, jsonio
from api.session_store import KEY_PREFIX
from rules.registry import get_game

GAME = "reign-and-ruin"
BODY = {"game": GAME, "players": ["ann", "bob"], "open": True, "seed": 1}


def _app_on(redis_server, data_dir, **settings: str) -> Any:
    """The app, testing, on the Redis server ``redis_server``, with ``settings``."""
    return create_app(
        {"TESTING": True, "REDIS_URL": redis_server.url, "REFEREE_DATA_DIR": str(data_dir)}
        | settings
    )


def test_session_creation_is_rate_limited_per_address_in_redis(redis_server, tmp_path):
    config = {
        "TESTING": True,
        "REDIS_URL": redis_server.url,
        "REFEREE_DATA_DIR": str(tmp_path / "unused"),
        "SESSION_CREATE_LIMIT": "3/minute",
    }
    first, second = (
        create_app(config).test_client(),
        create_app(config).test_client(),
    )  # two workers
    for client in (first, second, first):
        assert client.post("/v1/sessions", json=BODY).status_code == 201
    refused = second.post("/v1/sessions", json=BODY)  # the fourth from 127.0.0.1, counted in Redis
    assert refused.status_code == 429 and refused.mimetype == "application/problem+json"
    problem = refused.get_json()
    assert problem["code"] == "too_many_requests" and "at most 3/minute" in problem["detail"]
    assert 0 < int(refused.headers["Retry-After"]) <= 60
    assert (
        refused.headers["X-RateLimit-Limit"] == "3"
        and refused.headers["X-RateLimit-Remaining"] == "0"
    )
    other = first.post("/v1/sessions", json=BODY, environ_base={"REMOTE_ADDR": "10.0.0.2"})
    assert other.status_code == 201  # another address has its own count
    assert any(
        k.startswith(b"LIMITS") or b"referee-limits" in k
        for k in redis.Redis(port=redis_server.port).keys("*limits*")
    )
    # Only creation is limited: the stateless endpoints and reading sessions are not.
    assert first.post(f"/v1/games/{GAME}/setup", json={"players": ["a", "b"]}).status_code == 200


def test_a_fork_is_a_new_session_and_counts_towards_the_limit(redis_server, tmp_path):
    """A fork creates a session, stored as long as any: counted apart, forks of one session let
    one client fill the store (5,800 filled the embedded Redis, and every other client's new
    session got 507). Forks and new sessions share one count per address."""
    client = _app_on(redis_server, tmp_path, SESSION_CREATE_LIMIT="3/minute").test_client()
    address = {"REMOTE_ADDR": "10.7.7.7"}
    created = client.post("/v1/sessions", json=BODY, environ_base=address).get_json()

    def fork():
        return client.post(
            f"/v1/sessions/{created['session_id']}/fork",
            json={"version": 0, "as": "ann"},
            headers={"Authorization": f"Bearer {created['seats']['ann']}"},
            environ_base=address,
        )

    first, second, third = fork(), fork(), fork()
    assert [first.status_code, second.status_code] == [201, 201]
    assert [first.headers["X-RateLimit-Remaining"], second.headers["X-RateLimit-Remaining"]] == [
        "1",
        "0",
    ]
    assert third.status_code == 429 and third.mimetype == "application/problem+json"
    assert third.get_json()["code"] == "too_many_requests" and "Retry-After" in third.headers
    refused = client.post("/v1/sessions", json=BODY, environ_base=address)
    assert refused.status_code == 429


def limited_app(referee_data_dir, limit: str):
    """An app on the embedded store (in ``referee_data_dir``) whose session creation is limited
    to ``limit`` a client address."""
    return create_app(
        {
            "TESTING": True,
            "REDIS_URL": None,
            "REFEREE_DATA_DIR": str(referee_data_dir),
            "SESSION_CREATE_LIMIT": limit,
        }
    )


def test_the_embedded_store_counts_the_limit_too(referee_data_dir):
    app = limited_app(referee_data_dir, "2/minute")
    client = app.test_client()
    address = {"REMOTE_ADDR": "10.9.9.9"}
    statuses = [
        client.post("/v1/sessions", json=BODY, environ_base=address).status_code for _ in range(4)
    ]
    assert statuses == [201, 201, 429, 429], statuses


def test_a_state_over_the_stored_limit_is_refused_and_nothing_is_stored(redis_server, tmp_path):
    client = _app_on(redis_server, tmp_path, MAX_SESSION_STATE_BYTES="2000").test_client()
    resp = client.post("/v1/sessions", json=BODY)
    assert resp.status_code == 422 and resp.mimetype == "application/problem+json"
    problem = resp.get_json()
    assert (
        problem["code"] == "state_too_large"
        and problem["limit"] == 2000
        and "2000" in problem["detail"]
    )
    assert redis.Redis(port=redis_server.port).keys(f"{KEY_PREFIX}*") == []


def test_a_session_created_at_the_limit_plays_to_its_end_and_no_answer_tells_a_size(
    redis_server, tmp_path
):
    """Issue 28 (a leak): how large a state is depends on hidden choices (Reign & Ruin keeps a
    round's picks twice until the round ends), and a refused move wrote nothing, so it could be
    probed. A session is created with at most ``MAX_SESSION_STATE_BYTES``; its moves may make
    twice that (``PLAY_GROWTH``), which no game's state comes near: a session created right at
    the limit plays every move to the end, past the limit. No answer tells a state's size."""

    def app_with(limit: str) -> Any:
        return _app_on(redis_server, tmp_path, MAX_SESSION_STATE_BYTES=limit)

    first = app_with("262144")
    created = first.test_client().post("/v1/sessions", json=BODY).get_json()
    size = len(jsonio.dumps(first.extensions["referee_sessions"].load(created["session_id"]).state))

    refused = app_with(str(size - 1)).test_client().post("/v1/sessions", json=BODY)
    assert refused.status_code == 422 and refused.get_json()["code"] == "state_too_large"
    assert str(size) not in refused.get_json()["detail"]

    app = app_with(str(size))
    client = app.test_client()
    created = client.post("/v1/sessions", json=BODY).get_json()
    sid, game, store = created["session_id"], get_game(GAME), app.extensions["referee_sessions"]
    chooser = random.Random(3)
    largest = size
    while (session := store.load(sid)).state["status"] != "finished":
        player = game.waiting_on(session.state)[0]
        legal = [m for m in game.legal_moves(session.state, player) if m["type"] != "concede"]
        resp = client.post(
            f"/v1/sessions/{sid}/moves",
            json={"move": chooser.choice(legal)},
            headers={"Authorization": f"Bearer {created['seats'][player]}"},
        )
        assert resp.status_code == 200, resp.get_json()
        largest = max(largest, len(jsonio.dumps(store.load(sid).state)))
    assert largest > size  # the states grew past the limit the session was created with


def test_the_limited_answer_says_how_much_is_left_and_nothing_else_is_counted(referee_data_dir):
    """``X-RateLimit-*`` on each answer of the limited endpoint; the limit adds no hook before the
    other endpoints (it costs the stateless endpoints nothing: issue 14). The hooks every request
    runs are the app's own two, each a header or flag check: ``api.codings``' refusal of transfer
    codings and the timekeeper's start (``api.create_app``)."""
    app = limited_app(referee_data_dir, "5/minute")
    client = app.test_client()
    address = {"REMOTE_ADDR": "10.9.9.10"}
    first = client.post("/v1/sessions", json=BODY, environ_base=address)
    second = client.post("/v1/sessions", json=BODY, environ_base=address)
    assert first.headers["X-RateLimit-Limit"] == "5"
    assert [first.headers["X-RateLimit-Remaining"], second.headers["X-RateLimit-Remaining"]] == [
        "4",
        "3",
    ]
    keeper = app.extensions["referee_clocks"]
    assert app.before_request_funcs.get(None) == [codings.refuse_transfer_codings, keeper.start]
    assert not app.after_request_funcs.get(None)
    stateless = client.post(
        f"/v1/games/{GAME}/setup", json={"players": ["a", "b"]}, environ_base=address
    )
    assert stateless.status_code == 200 and "X-RateLimit-Limit" not in stateless.headers


def test_only_a_session_created_counts_and_every_answer_says_what_is_left(referee_data_dir):
    """README, "Quotas": the limit counts sessions created, forks included; a request refused
    (400, 401, 404, 422) creates nothing and counts nothing (each used to count: a client's
    typos used up its quota). Every answer of the two endpoints, errors included, carries the
    ``X-RateLimit-*`` headers (the 4xx carried none)."""
    app = limited_app(referee_data_dir, "2/minute")
    client = app.test_client()
    address = {"REMOTE_ADDR": "10.9.9.11"}
    first = client.post("/v1/sessions", json=BODY, environ_base=address)
    assert first.status_code == 201 and first.headers["X-RateLimit-Remaining"] == "1"
    created = first.get_json()
    fork = f"/v1/sessions/{created['session_id']}/fork"
    admin = {"Authorization": f"Bearer {created['admin_token']}"}
    refused = [
        ("/v1/sessions", {"game": GAME, "players": ["ann", "bob"], "seed": 1}, {}),  # 400 seed
        ("/v1/sessions", {"game": GAME, "players": ["ann"]}, {}),  # 422 invalid_setup
        (fork, {"version": 99}, admin),  # 422 unknown_version
        (fork, {"version": 0}, {}),  # 401: no token
        (fork, {"version": 0, "as": "zed"}, admin),  # 422 unknown_player
        ("/v1/sessions/no-such-session/fork", {"version": 0}, admin),  # 404
    ]
    answers = [
        client.post(where, json=body, headers=headers, environ_base=address)
        for where, body, headers in refused
    ]
    assert [a.status_code for a in answers] == [400, 422, 422, 401, 422, 404]
    for answer in answers:
        assert answer.mimetype == "application/problem+json"
        assert answer.headers["X-RateLimit-Limit"] == "2"
        assert answer.headers["X-RateLimit-Remaining"] == "1"  # nothing counted
        assert int(answer.headers["X-RateLimit-Reset"]) > 0
    ann = {"Authorization": f"Bearer {created['seats']['ann']}"}
    second = client.post(fork, json={"version": 0}, headers=ann, environ_base=address)
    assert second.status_code == 201 and second.headers["X-RateLimit-Remaining"] == "0"
    over = client.post("/v1/sessions", json=BODY, environ_base=address)
    assert over.status_code == 429 and over.headers["X-RateLimit-Remaining"] == "0"


def test_the_spec_declares_the_limit_headers():
    """``X-RateLimit-*`` are in openapi.yaml on the answers that carry them: 201 and 429."""
    import yaml

    from api.ops import OPENAPI_PATH

    spec = yaml.safe_load(open(OPENAPI_PATH, encoding="utf-8"))
    created = spec["paths"]["/v1/sessions"]["post"]["responses"]["201"]["headers"]
    refused = spec["components"]["responses"]["TooManyRequests"]["headers"]
    names = {"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"}
    assert names <= set(created) and names | {"Retry-After"} <= set(refused)


@pytest.fixture
def small_store(tmp_path):
    """An app whose embedded Redis holds at most 4 MB (``STORE_MAX_MEMORY``), with no eviction;
    that Redis is stopped afterwards."""
    from api.store import start_embedded, stop_embedded

    app = create_app(
        {
            "TESTING": True,
            "REDIS_URL": None,
            "REFEREE_DATA_DIR": str(tmp_path),
            "STORE_MAX_MEMORY": "4mb",
        }
    )
    yield app
    stop_embedded(start_embedded(str(tmp_path)))


def _fill(client: redis.Redis) -> int:
    """Write filler keys until Redis refuses one for being over ``maxmemory``, then set the limit
    a megabyte below what is used.

    Filling alone leaves the store over its limit by a few bytes, and Redis's own memory moves by
    kilobytes on its own (client buffers shrink, the AOF buffer drains): a write could land a
    moment later. The lower limit keeps the store full by a wide margin until the test raises
    it again."""
    count = 0
    try:
        while True:
            client.set(f"filler:{count}", b"x" * 10_000)
            count += 1
    except redis.exceptions.OutOfMemoryError:
        pass
    used = int(client.info("memory")["used_memory"])
    client.config_set("maxmemory", used - 1024 * 1024)
    return count


def test_a_full_store_refuses_moves_and_sessions_with_nothing_written(small_store):
    """``STORE_MAX_MEMORY`` with no eviction (issue 23): over it, a move or a new session is a 507
    ``store_full`` problem with ``Retry-After``; the session keeps its version, state and history;
    reading and deleting still work, and once space is freed moves land again."""
    app = small_store
    client = app.test_client()
    created = client.post("/v1/sessions", json=BODY).get_json()
    sid = created["session_id"]
    ann = {"Authorization": f"Bearer {created['seats']['ann']}"}
    raw = app.extensions["referee_store"].client()
    config = raw.config_get("maxmemory*")
    assert (config["maxmemory"], config["maxmemory-policy"]) == (
        str(4 * 1024 * 1024),
        "noeviction",
    )
    move = client.get(f"/v1/sessions/{sid}/legal-moves", headers=ann).get_json()["moves"][0]
    before = raw.hgetall(f"{KEY_PREFIX}{{{sid}}}:session")
    history = raw.lrange(f"{KEY_PREFIX}{{{sid}}}:history", 0, -1)
    assert _fill(raw) > 0

    for headers in (ann, {**ann, "Idempotency-Key": "k1"}):
        resp = client.post(f"/v1/sessions/{sid}/moves", json={"move": move}, headers=headers)
        assert resp.status_code == 507 and resp.mimetype == "application/problem+json"
        assert resp.get_json()["code"] == "store_full" and int(resp.headers["Retry-After"]) > 0
    assert raw.hgetall(f"{KEY_PREFIX}{{{sid}}}:session") == before  # version, state, times
    assert raw.lrange(f"{KEY_PREFIX}{{{sid}}}:history", 0, -1) == history
    assert raw.keys(f"{KEY_PREFIX}{{{sid}}}:idempotency*") == []
    keys = len(raw.keys(f"{KEY_PREFIX}*"))
    resp = client.post("/v1/sessions", json=BODY)
    assert resp.status_code == 507 and resp.get_json()["code"] == "store_full"
    assert len(raw.keys(f"{KEY_PREFIX}*")) == keys  # no half-made session
    assert client.get(f"/v1/sessions/{sid}", headers=ann).get_json()["version"] == 0

    raw.delete(*raw.keys("filler:*"))  # sessions end, space comes back
    raw.config_set("maxmemory", "4mb")
    resp = client.post(f"/v1/sessions/{sid}/moves", json={"move": move}, headers=ann)
    assert resp.status_code == 200 and resp.get_json()["version"] == 1


def test_a_full_store_still_reads_streams_and_replays_a_landed_moves_first_answer(small_store):
    """README "Memory": when the store is full, reading and streaming keep working, and a retry
    of a move that landed gets its first answer. Redis refuses every command queued in a MULTI
    transaction while it is over ``maxmemory``, reads included: the history, every new
    ``/events`` stream (it ended at once, and a table reconnected every 2 s) and the retry were
    507 ``store_full`` (found by a hunt; ``session_store._reads``)."""
    app = small_store
    client = app.test_client()
    created = client.post("/v1/sessions", json=BODY).get_json()
    sid = created["session_id"]
    ann = {"Authorization": f"Bearer {created['seats']['ann']}", "Idempotency-Key": "k2"}
    raw = app.extensions["referee_store"].client()
    move = client.get(f"/v1/sessions/{sid}/legal-moves", headers=ann).get_json()["moves"][0]
    first = client.post(f"/v1/sessions/{sid}/moves", json={"move": move}, headers=ann)
    assert first.status_code == 200 and first.get_json()["version"] == 1
    assert _fill(raw) > 0
    assert client.post("/v1/sessions", json=BODY).status_code == 507  # full indeed

    history = client.get(f"/v1/sessions/{sid}/history", headers=ann)
    assert history.status_code == 200, history.get_json()
    assert [e["version"] for e in history.get_json()["entries"]] == [1]
    again = client.post(f"/v1/sessions/{sid}/moves", json={"move": move}, headers=ann)
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first.get_json()
    stream = client.get(f"/v1/sessions/{sid}/events?after=0", buffered=False)
    try:
        read = b""
        for chunk in stream.response:
            read += chunk
            if b"event: move" in read:
                break
        assert b"event: move" in read and b"id: 1\n" in read
    finally:
        stream.close()


def test_every_write_a_full_store_refuses_is_a_507_the_spec_declares(small_store):
    """A generated client raises on a status its operation does not declare: every session
    write is 507 ``store_full`` when the store is full (a fork, a takeback, its answer and the
    admin's clock as well as a move and a new session), and the spec says so for each (it did
    for the last two only)."""
    import yaml

    from api.ops import OPENAPI_PATH

    app = small_store
    client = app.test_client()
    body = {
        "game": "reign-supreme",
        "players": ["ann", "bob"],
        "clock": {"type": "fischer", "initial_seconds": 300, "increment_seconds": 5},
    }
    created = client.post("/v1/sessions", json=body).get_json()
    base = f"/v1/sessions/{created['session_id']}"
    seat = {p: {"Authorization": f"Bearer {t}"} for p, t in created["seats"].items()}
    admin = {"Authorization": f"Bearer {created['admin_token']}"}
    for _ in range(7):  # set-up placements (both seats place), which may be taken back
        mover = client.get(base, headers=seat["ann"]).get_json()["to_move"][0]
        move = client.get(f"{base}/legal-moves", headers=seat[mover]).get_json()["moves"][0]
        assert (
            client.post(f"{base}/moves", json={"move": move}, headers=seat[mover]).status_code
            == 200
        )
    last = client.get(f"{base}/history").get_json()["entries"]
    proposer = last[-1]["player"]
    other = next(p for p in seat if p != proposer)
    to_version = max(e["version"] for e in last if e["player"] == other) - 1
    pending = client.post(
        f"{base}/takebacks", json={"to_version": to_version}, headers=seat[proposer]
    ).get_json()
    assert pending["status"] == "pending", pending
    raw = app.extensions["referee_store"].client()
    spec = yaml.safe_load(open(OPENAPI_PATH, encoding="utf-8"))["paths"]
    writes = [
        ("/v1/sessions/{session_id}/fork", f"{base}/fork", {"version": 1}, seat["ann"]),
        (
            "/v1/sessions/{session_id}/takebacks",
            f"{base}/takebacks",
            {"to_version": 0},
            seat[proposer],
        ),
        (
            "/v1/sessions/{session_id}/takebacks/{takeback_id}",
            f"{base}/takebacks/{pending['takeback_id']}",
            {"answer": "decline"},
            seat[other],
        ),
        ("/v1/sessions/{session_id}/clock", f"{base}/clock", {"action": "pause"}, admin),
    ]
    assert _fill(raw) > 0
    for template, url, payload, headers in writes:
        resp = client.post(url, json=payload, headers=headers)
        assert resp.status_code == 507, (url, resp.get_json())
        assert resp.get_json()["code"] == "store_full"
        assert "507" in spec[template]["post"]["responses"], template
