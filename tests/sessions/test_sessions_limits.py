"""Session quotas (issue 13): a rate limit on creating sessions per client address, counted in
the session Redis (`limits`), a maximum stored state, and a cap on remembered
Idempotency-Key answers. Against real Redis servers (a standalone one, and the embedded one)."""

from __future__ import annotations

import redis

from api import create_app
from api.session_store import KEY_PREFIX

GAME = "reign-and-ruin"
BODY = {"game": GAME, "players": ["ann", "bob"], "open": True, "seed": 1}


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


def test_the_embedded_store_counts_the_limit_too(referee_data_dir):
    app = create_app(
        {
            "TESTING": True,
            "REDIS_URL": None,
            "REFEREE_DATA_DIR": str(referee_data_dir),
            "SESSION_CREATE_LIMIT": "2/minute",
        }
    )
    client = app.test_client()
    address = {"REMOTE_ADDR": "10.9.9.9"}
    statuses = [
        client.post("/v1/sessions", json=BODY, environ_base=address).status_code for _ in range(4)
    ]
    assert statuses == [201, 201, 429, 429], statuses


def test_a_state_over_the_stored_limit_is_refused_and_nothing_is_stored(redis_server, tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "REDIS_URL": redis_server.url,
            "REFEREE_DATA_DIR": str(tmp_path / "u"),
            "MAX_SESSION_STATE_BYTES": "2000",
        }
    )
    client = app.test_client()
    resp = client.post("/v1/sessions", json=BODY)
    assert resp.status_code == 422 and resp.mimetype == "application/problem+json"
    problem = resp.get_json()
    assert (
        problem["code"] == "state_too_large"
        and problem["limit"] == 2000
        and "2000" in problem["detail"]
    )
    assert redis.Redis(port=redis_server.port).keys(f"{KEY_PREFIX}*") == []


def test_remembered_answers_are_capped_oldest_first(redis_server, tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "REDIS_URL": redis_server.url,
            "REFEREE_DATA_DIR": str(tmp_path / "u"),
            "MAX_REMEMBERED_ANSWERS": "2",
        }
    )
    client = app.test_client()
    created = client.post(
        "/v1/sessions", json={**BODY, "players": ["ann", "bob", "cat"]}
    ).get_json()
    sid = created["session_id"]
    sent = []
    for player in ("ann", "bob", "cat"):  # the draft: everyone picks on their own
        auth = {"Authorization": f"Bearer {created['seats'][player]}"}
        move = client.get(f"/v1/sessions/{sid}/legal-moves", headers=auth).get_json()["moves"][0]
        headers = {**auth, "Idempotency-Key": f"{player}-1"}
        assert (
            client.post(
                f"/v1/sessions/{sid}/moves", json={"move": move}, headers=headers
            ).status_code
            == 200
        )
        sent.append((move, headers))
    store = redis.Redis(port=redis_server.port)
    assert (
        store.hlen(f"{KEY_PREFIX}{{{sid}}}:answers")
        == 2
        == store.llen(f"{KEY_PREFIX}{{{sid}}}:answer_keys")
    )
    for move, headers in sent[1:]:  # the two latest are still replayed
        again = client.post(f"/v1/sessions/{sid}/moves", json={"move": move}, headers=headers)
        assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    move, headers = sent[
        0
    ]  # the oldest is forgotten: ann's pick is now checked afresh (and refused)
    again = client.post(f"/v1/sessions/{sid}/moves", json={"move": move}, headers=headers)
    assert again.status_code == 422 and "Idempotent-Replayed" not in again.headers
    assert (
        client.delete(
            f"/v1/sessions/{sid}", headers={"Authorization": f"Bearer {created['admin_token']}"}
        ).status_code
        == 204
    )
    assert store.keys(f"{KEY_PREFIX}{{{sid}}}*") == [
        f"{KEY_PREFIX}{{{sid}}}:session".encode()
    ]  # the tombstone
    assert sorted(store.hkeys(f"{KEY_PREFIX}{{{sid}}}:session")) == [b"admin", b"seats"]


def test_the_limited_answer_says_how_much_is_left_and_nothing_else_is_counted(referee_data_dir):
    """``X-RateLimit-*`` on each answer of the limited endpoint; no hook runs before the other
    endpoints (the limit costs the stateless endpoints nothing: issue 14)."""
    app = create_app(
        {
            "TESTING": True,
            "REDIS_URL": None,
            "REFEREE_DATA_DIR": str(referee_data_dir),
            "SESSION_CREATE_LIMIT": "5/minute",
        }
    )
    client = app.test_client()
    address = {"REMOTE_ADDR": "10.9.9.10"}
    first = client.post("/v1/sessions", json=BODY, environ_base=address)
    second = client.post("/v1/sessions", json=BODY, environ_base=address)
    assert first.headers["X-RateLimit-Limit"] == "5"
    assert [first.headers["X-RateLimit-Remaining"], second.headers["X-RateLimit-Remaining"]] == [
        "4",
        "3",
    ]
    assert not app.before_request_funcs.get(None) and not app.after_request_funcs.get(None)
    stateless = client.post(
        f"/v1/games/{GAME}/setup", json={"players": ["a", "b"]}, environ_base=address
    )
    assert stateless.status_code == 200 and "X-RateLimit-Limit" not in stateless.headers


def test_the_spec_declares_the_limit_headers():
    """``X-RateLimit-*`` are in openapi.yaml on the answers that carry them: 201 and 429."""
    import yaml

    from api.ops import OPENAPI_PATH

    spec = yaml.safe_load(open(OPENAPI_PATH, encoding="utf-8"))
    created = spec["paths"]["/v1/sessions"]["post"]["responses"]["201"]["headers"]
    refused = spec["components"]["responses"]["TooManyRequests"]["headers"]
    names = {"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"}
    assert names <= set(created) and names | {"Retry-After"} <= set(refused)
