"""Redis stopping mid-test: session endpoints answer 503 problem+json, stateless endpoints and
``/healthz`` keep working, ``/readyz`` says not ready; when Redis is back, sessions work again.

Uses a standalone redis-server through ``REDIS_URL`` (the configuration for an external Redis),
and the embedded one under ``serve``, killed and brought back by the service's supervisor.
"""

from __future__ import annotations

import os
import signal
import time

from sessions_served import Served, bearer, http

from api import create_app, jsonio
from api.session_store import KEY_PREFIX

GAME = "reign-and-ruin"


def test_store_down_then_back(redis_server, tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "REDIS_URL": redis_server.url,
            "REFEREE_DATA_DIR": str(tmp_path / "unused"),
        }
    )
    client = app.test_client()
    created = client.post(
        "/v1/sessions", json={"game": GAME, "players": ["ann", "bob"], "open": True, "seed": 1}
    ).get_json()
    sid, ann = created["session_id"], {"Authorization": f"Bearer {created['seats']['ann']}"}
    move = client.get(f"/v1/sessions/{sid}/legal-moves", headers=ann).get_json()["moves"][0]
    assert client.get("/readyz").status_code == 200

    redis_server.stop()
    for method, path, body in [
        ("GET", f"/v1/sessions/{sid}", None),
        ("GET", f"/v1/sessions/{sid}/legal-moves", None),
        ("POST", f"/v1/sessions/{sid}/moves", {"move": move}),
        ("GET", f"/v1/sessions/{sid}/history", None),
        ("GET", f"/v1/sessions/{sid}/events", None),
        ("POST", "/v1/sessions", {"game": GAME, "players": ["a", "b"]}),
    ]:
        resp = client.open(path, method=method, json=body, headers=ann)
        assert resp.status_code == 503, (method, path, resp.get_json())
        assert resp.mimetype == "application/problem+json"
        assert resp.get_json()["code"] == "store_unavailable" and resp.headers["Retry-After"]
    assert client.get("/readyz").status_code == 503
    assert client.get("/healthz").status_code == 200
    resp = client.post(f"/v1/games/{GAME}/setup", json={"players": ["a", "b"], "seed": 1})
    assert resp.status_code == 200

    # the same port and data directory: the append-only file brings it all back
    redis_server.start()
    assert client.get("/readyz").status_code == 200
    resp = client.get(f"/v1/sessions/{sid}")
    assert resp.status_code == 200 and resp.get_json()["version"] == 0
    resp = client.post(f"/v1/sessions/{sid}/moves", json={"move": move}, headers=ann)
    assert resp.status_code == 200 and resp.get_json()["version"] == 1
    assert (
        client.post("/v1/sessions", json={"game": GAME, "players": ["a", "b"]}).status_code == 201
    )


def test_a_killed_embedded_redis_comes_back_with_every_acknowledged_move(tmp_path):
    """Issue 23: ``kill -9`` of the embedded redis-server under ``serve`` (gunicorn, 2 workers).
    The master's supervisor starts it again on the same data, the workers reconnect by
    themselves, and every move acknowledged before the kill, the last one right before it, is
    in the history. (How fast it comes back is measured by ``bench/faults.py --embedded``, not
    here.)"""
    served = Served(tmp_path / "data", tmp_path / "serve.log").start()
    try:
        base = served.base
        status, _, created = http(
            base,
            "POST",
            "/v1/sessions",
            {"game": GAME, "players": ["ann", "bob"], "open": True, "seed": 2},
        )
        assert status == 201
        sid = created["session_id"]
        acknowledged = []
        for _ in range(12):
            for player, token in sorted(created["seats"].items()):
                auth = bearer(token)
                status, _, listed = http(
                    base, "GET", f"/v1/sessions/{sid}/legal-moves", headers=auth
                )
                if status != 200 or not listed["moves"]:
                    continue
                status, _, answer = http(
                    base, "POST", f"/v1/sessions/{sid}/moves", {"move": listed["moves"][0]}, auth
                )
                assert status == 200, answer
                acknowledged.append((answer["version"], player, listed["moves"][0]))
        redis_pid = int(served.redis().info("server")["process_id"])
        os.kill(redis_pid, signal.SIGKILL)  # right after the last acknowledgement

        deadline = time.monotonic() + 60
        while http(base, "GET", "/readyz")[0] != 200:
            assert time.monotonic() < deadline, "the embedded Redis never came back"
            time.sleep(0.05)
        assert int(served.redis().info("server")["process_id"]) != redis_pid
        assert http(base, "GET", "/healthz")[0] == 200
        status, _, history = http(base, "GET", f"/v1/sessions/{sid}/history")
        assert status == 200 and history["version"] == len(acknowledged)
        stored = served.redis().lrange(f"{KEY_PREFIX}{{{sid}}}:history", 0, -1)  # unredacted
        entries = [jsonio.loads(e) for e in stored]
        assert [(e["version"], e["player"], e["move"]) for e in entries] == acknowledged
        # Both workers write again (each answers some of these).
        for _ in range(4):
            status, _, made = http(
                base, "POST", "/v1/sessions", {"game": GAME, "players": ["a", "b"]}
            )
            assert status == 201, made
    finally:
        served.stop()
