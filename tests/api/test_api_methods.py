"""Wrong methods are 405 everywhere (api-contract.md): every rule of the app's URL map, ``/docs``,
its assets and ``/openapi.yaml`` included, answers each method it does not list with a 405
problem whose ``Allow`` names exactly the methods that path serves."""

from __future__ import annotations

import pytest

from api import create_app

#: Methods a client may send; TRACE and CONNECT included (nothing here serves them).
METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT")
#: A value for each URL converter, so that the path reaches the rule (not a 404 before routing).
SAMPLES = {
    "game_id": "reign-supreme",
    "session_id": "no-such-session",
    "takeback_id": "no-such-takeback",
    "path": "index.css",
}


@pytest.fixture(scope="module")
def app(referee_data_dir):
    return create_app(
        {"TESTING": True, "REDIS_URL": None, "REFEREE_DATA_DIR": str(referee_data_dir)}
    )


def _paths(app) -> dict[str, set[str]]:
    """Each concrete path of the URL map and the methods its rules serve together."""
    served: dict[str, set[str]] = {}
    for rule in app.url_map.iter_rules():
        path = rule.build({name: SAMPLES[name] for name in rule.arguments})[1]
        served.setdefault(path, set()).update(rule.methods or ())
    return served


def test_the_walk_covers_the_docs_and_the_spec(app):
    paths = _paths(app)
    assert {
        "/docs",
        "/docs/",
        "/docs/index.css",
        "/openapi.yaml",
        "/v1/sessions/no-such-session",
    } <= set(paths)
    assert "/static/<path:filename>" not in {r.rule for r in app.url_map.iter_rules()}


def test_every_unlisted_method_is_405_with_allow(app):
    client = app.test_client()
    checked = 0
    for path, allowed in sorted(_paths(app).items()):
        for method in METHODS:
            if method in allowed:
                continue
            resp = client.open(path, method=method)
            assert resp.status_code == 405, (method, path, resp.status_code)
            assert set(resp.headers["Allow"].split(", ")) == allowed, (method, path)
            if method != "HEAD":
                assert resp.mimetype == "application/problem+json", (method, path)
                assert resp.get_json()["code"] == "method_not_allowed", (method, path)
            checked += 1
    assert checked > 80, checked


def test_trace_docs_is_405_and_get_docs_redirects(app):
    client = app.test_client()
    resp = client.open("/docs", method="TRACE")
    assert resp.status_code == 405
    assert set(resp.headers["Allow"].split(", ")) == {"GET", "HEAD", "OPTIONS"}
    resp = client.get("/docs")
    assert resp.status_code == 308 and resp.headers["Location"].endswith("/docs/")
