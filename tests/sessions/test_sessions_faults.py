"""Redis stopping mid-test: session endpoints answer 503 problem+json, stateless endpoints and
``/healthz`` keep working, ``/readyz`` says not ready; when Redis is back, sessions work again.

Uses a standalone redis-server through ``REDIS_URL`` (the configuration for an external Redis).
"""

from __future__ import annotations

from api import create_app

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

    redis_server.start()  # the same port and data directory: the append-only file brings it all back
    assert client.get("/readyz").status_code == 200
    resp = client.get(f"/v1/sessions/{sid}")
    assert resp.status_code == 200 and resp.get_json()["version"] == 0
    resp = client.post(f"/v1/sessions/{sid}/moves", json={"move": move}, headers=ann)
    assert resp.status_code == 200 and resp.get_json()["version"] == 1
    assert (
        client.post("/v1/sessions", json={"game": GAME, "players": ["a", "b"]}).status_code == 201
    )
