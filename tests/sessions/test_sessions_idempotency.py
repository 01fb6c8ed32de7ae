"""Idempotency-Keys that never double (issue 24 item 2), remembered compactly (issue 23 item 4).

A key is remembered for ``IDEMPOTENCY_WINDOW_SECONDS`` after its move, whatever other keys come
in between (the old cap of 32 let the 33rd keyed move make a retry land twice); what is kept is
the version the move made and a digest of the request, and a retry's answer is rebuilt from the
history. Against the embedded Redis, with the store's clock moved on by the test (no sleeping).
"""

from __future__ import annotations

import pytest

from api import create_app
from api.session_store import DIGEST_CHARS, KEY_PREFIX

GAME = "reign-supreme"  # long games: many keyed moves in a row


class Clock:
    """The session store's clock, moved on by hand."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def idem_app(referee_data_dir):
    app = create_app(
        {
            "TESTING": True,
            "REDIS_URL": None,
            "REFEREE_DATA_DIR": str(referee_data_dir),
            "IDEMPOTENCY_WINDOW_SECONDS": "3600",
        }
    )
    app.extensions["referee_sessions"].clock = Clock()
    yield app
    app.extensions["referee_bot_seats"].stop()


def _auth(created, player):
    return {"Authorization": f"Bearer {created['seats'][player]}"}


def _create(client, seed=4):
    resp = client.post(
        "/v1/sessions", json={"game": GAME, "players": ["ann", "bob"], "open": True, "seed": seed}
    )
    assert resp.status_code == 201
    return resp.get_json()


def _next_move(client, created):
    """A move of whichever seat can move (not a concession: the game must go on)."""
    sid = created["session_id"]
    for player in ("ann", "bob"):
        moves = client.get(
            f"/v1/sessions/{sid}/legal-moves", headers=_auth(created, player)
        ).get_json()["moves"]
        moves = [m for m in moves if m["type"] != "concede"]
        if moves:
            return player, moves[-1]
    raise AssertionError("nobody can move")


def _post(client, created, player, move, key):
    return client.post(
        f"/v1/sessions/{created['session_id']}/moves",
        json={"move": move},
        headers={**_auth(created, player), "Idempotency-Key": key},
    )


def _keys(app, sid):
    raw = app.extensions["referee_store"].client()
    return raw, f"{KEY_PREFIX}{{{sid}}}:idempotency", f"{KEY_PREFIX}{{{sid}}}:idempotency_at"


def test_a_retry_never_doubles_whatever_other_keys_came_in_between(idem_app):
    """Issue 24's case: a retry without If-Match after 40 other keyed moves from both seats
    still gets its first move's version and events, and nothing is applied again."""
    client = idem_app.test_client()
    created = _create(client)
    sid = created["session_id"]
    player, move = _next_move(client, created)
    first = _post(client, created, player, move, "the-first")
    assert first.status_code == 200 and first.get_json()["version"] == 1
    for i in range(40):
        other, other_move = _next_move(client, created)
        assert _post(client, created, other, other_move, f"other-{i}").status_code == 200
    raw, fields, times = _keys(idem_app, sid)
    assert raw.hlen(fields) == raw.zcard(times) == 41

    again = _post(client, created, player, move, "the-first")
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    body = again.get_json()
    assert body["version"] == 1 and body["events"] == first.get_json()["events"]
    # The view is the seat's view now (documented), tagged with the current version.
    now = client.get(f"/v1/sessions/{sid}", headers=_auth(created, player))
    assert body["view"] == now.get_json()["view"] and again.headers["ETag"] == '"41"'
    history = client.get(f"/v1/sessions/{sid}/history").get_json()
    assert history["version"] == 41 and len(history["entries"]) == 41  # applied once


def test_a_replay_without_moves_since_is_the_first_answer(idem_app):
    client = idem_app.test_client()
    created = _create(client, seed=5)
    player, move = _next_move(client, created)
    first = _post(client, created, player, move, "k")
    again = _post(client, created, player, move, "k")
    assert again.get_json() == first.get_json()
    assert again.headers["ETag"] == first.headers["ETag"] == '"1"'


def test_remembered_keys_are_compact_and_kept_for_the_window_only(idem_app):
    client = idem_app.test_client()
    clock = idem_app.extensions["referee_sessions"].clock
    created = _create(client, seed=6)
    sid = created["session_id"]
    raw, fields, times = _keys(idem_app, sid)
    player, move = _next_move(client, created)
    assert _post(client, created, player, move, "early").status_code == 200
    # What a key costs: a short field and "<version> <digest>", never the answer itself.
    [(field, value)] = raw.hgetall(fields).items()
    assert len(field) == DIGEST_CHARS and value.split(b" ")[0] == b"1"
    assert len(value) == len(b"1 ") + DIGEST_CHARS

    clock.now += 3599  # within the window: a retry is a replay
    assert _post(client, created, player, move, "early").headers["Idempotent-Replayed"] == "true"
    clock.now += 2  # past it: the key is forgotten, the request is new (and stale now)
    resp = _post(client, created, player, move, "early")
    assert "Idempotent-Replayed" not in resp.headers and resp.status_code in (409, 412, 422)
    assert raw.hexists(fields, field)  # not pruned yet: no commit since
    other, other_move = _next_move(client, created)
    assert _post(client, created, other, other_move, "late").status_code == 200
    assert not raw.hexists(fields, field) and raw.zscore(times, field) is None  # pruned
    assert raw.hlen(fields) == raw.zcard(times) == 1
    assert raw.ttl(fields) > 0 and raw.ttl(times) > 0  # they expire with the session

    admin = {"Authorization": f"Bearer {created['admin_token']}"}
    assert client.delete(f"/v1/sessions/{sid}", headers=admin).status_code == 204
    assert raw.keys(f"{KEY_PREFIX}{{{sid}}}*") == [f"{KEY_PREFIX}{{{sid}}}:session".encode()]


def test_the_same_key_with_another_request_is_refused_naming_the_header(idem_app):
    client = idem_app.test_client()
    created = _create(client, seed=7)
    player, move = _next_move(client, created)
    assert _post(client, created, player, move, "once").status_code == 200
    other = client.post(
        f"/v1/sessions/{created['session_id']}/moves",
        json={"move": move, "expected_version": 1},  # another request: another body
        headers={**_auth(created, player), "Idempotency-Key": "once"},
    )
    assert other.status_code == 422 and other.mimetype == "application/problem+json"
    problem = other.get_json()
    assert problem["code"] == "idempotency_key_reused" and "Idempotency-Key" in problem["errors"]
    assert client.get(f"/v1/sessions/{created['session_id']}").get_json()["version"] == 1


def test_a_key_rewritten_between_its_two_reads_is_never_read_old(idem_app, monkeypatch):
    """A key past the window is written anew (field and time) by the next request that uses it.
    Its two reads (``SessionStore.remembered``) are not a transaction (a full store refuses
    those, reads included): a rewrite landing between them must never pair the old field with
    the new time (the retry of the new request got the old one's answer, or 422
    ``idempotency_key_reused``). The time is read first: an old time is past the window."""
    import api.session_store as session_store

    store = idem_app.extensions["referee_sessions"]
    client = idem_app.test_client()
    created = _create(client)
    sid = created["session_id"]
    field = store.answer_field("ann", "k")
    keys = (store.key(sid, "idempotency"), store.key(sid, "idempotency_at"))
    raw = idem_app.extensions["referee_store"].client()
    now_ms, since = store._window()
    raw.hset(keys[0], field, "1 old")
    raw.zadd(keys[1], {field: since - 1})  # past the window
    real_reads = session_store._reads

    def rewritten_between(client_, *commands):  # the rewrite lands between the two reads
        first = real_reads(client_, commands[0])
        raw.hset(keys[0], field, "3 new")
        raw.zadd(keys[1], {field: now_ms})
        return first + real_reads(client_, *commands[1:])

    monkeypatch.setattr(session_store, "_reads", rewritten_between)
    found = store.remembered(sid, "ann", "k")
    assert found is None or found == session_store.Remembered(3, "new")
