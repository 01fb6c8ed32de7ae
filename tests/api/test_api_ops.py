"""Operations endpoints: health, readiness with a real embedded Redis, the spec and the docs."""

from __future__ import annotations

import re
import socket
from pathlib import Path

import pytest
import redis
from helpers_api import assert_problem

from api import create_app, ops
from api.store import Store, StoreUnavailable


def test_healthz(client):
    resp = client.get("/healthz")
    assert resp.status_code == 200
    assert resp.get_json() == {"status": "ok"}


def test_readyz_with_embedded_store(client, app):
    resp = client.get("/readyz")
    assert resp.status_code == 200, resp.get_json()
    assert resp.get_json() == {"status": "ready", "store": "ok"}
    # A real Redis server, not a stand-in: it keeps data.
    store = app.extensions["referee_store"]
    assert store.embedded
    store.client().set("referee:test", "1")
    assert store.client().get("referee:test") == b"1"


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]  # closed again when the socket is


@pytest.mark.parametrize("url", [None, "redis://:x@/nonsense", "ftp://example.invalid/0"])
def test_readyz_503_when_store_unreachable(tmp_path, url):
    url = url or f"redis://127.0.0.1:{_closed_port()}/0"
    app = create_app({"TESTING": True, "REDIS_URL": url, "REFEREE_DATA_DIR": str(tmp_path)})
    client = app.test_client()
    resp = client.get("/readyz")
    body = assert_problem(resp, 503, "store_unavailable")
    assert "x@" not in body["detail"]
    # Stateless endpoints keep working without the store.
    assert client.get("/v1/games").status_code == 200
    resp = client.post("/v1/games/reign-and-ruin/setup", json={"players": ["a", "b"], "seed": 1})
    assert resp.status_code == 200


def test_stateless_endpoints_never_touch_the_store(tmp_path, monkeypatch):
    def refuse(self):
        raise AssertionError("the store was used")

    monkeypatch.setattr(Store, "client", refuse)
    app = create_app(
        {"TESTING": True, "REDIS_URL": None, "REFEREE_DATA_DIR": str(tmp_path / "unused")}
    )
    client = app.test_client()
    state = client.post(
        "/v1/games/reign-and-ruin/setup", json={"players": ["a", "b"], "seed": 1}
    ).get_json()["state"]
    for endpoint in ("legal-moves", "score", "view"):
        assert (
            client.post(f"/v1/games/reign-and-ruin/{endpoint}", json={"state": state}).status_code
            == 200
        )
    assert not (tmp_path / "unused").exists()


def test_store_with_url_uses_that_server(app):
    """REDIS_URL points at a server: here the embedded one, reached by its unix socket."""
    embedded = app.extensions["referee_store"]
    embedded.ping()
    server_socket = embedded.client().connection_pool.connection_kwargs["path"]
    store = Store(f"unix://{server_socket}", "unused")
    store.ping()
    assert isinstance(store.client(), redis.Redis)


def test_store_unavailable_is_an_exception():
    store = Store(f"redis://127.0.0.1:{_closed_port()}/0", "unused")
    with pytest.raises(StoreUnavailable):
        store.ping()


def test_openapi_yaml_is_served(client, tmp_path, monkeypatch):
    spec = tmp_path / "openapi.yaml"
    spec.write_text("openapi: 3.1.0\ninfo: {title: T, version: '1'}\npaths: {}\n")
    monkeypatch.setattr(ops, "_spec", ops._SpecCache(spec))
    resp = client.get("/openapi.yaml")
    assert resp.status_code == 200
    assert resp.mimetype == "application/yaml"
    assert resp.data == spec.read_bytes()
    # Edits are picked up (the file is re-read only when it changes).
    spec.write_text("openapi: 3.1.0\ninfo: {title: T2, version: '1'}\npaths: {}\n")
    assert b"T2" in client.get("/openapi.yaml").data


def test_the_spec_as_json_is_converted_once_per_version_of_the_file(client, tmp_path, monkeypatch):
    """A client preferring JSON (Swagger UI, generated clients) gets the same spec as JSON; the
    YAML is parsed once per version of the file, not once a request, and both answers say they
    vary with ``Accept``."""
    spec = tmp_path / "openapi.yaml"
    spec.write_text("openapi: 3.1.0\ninfo: {title: T, version: '1'}\npaths: {}\n")
    monkeypatch.setattr(ops, "_spec", ops._SpecCache(spec))
    parsed = []
    real_load = ops.yaml.load
    monkeypatch.setattr(ops.yaml, "load", lambda *a, **k: parsed.append(1) or real_load(*a, **k))
    as_json = {"Accept": "application/json,*/*"}
    for _ in range(3):
        resp = client.get("/openapi.yaml", headers=as_json)
        assert resp.mimetype == "application/json" and resp.get_json()["info"]["title"] == "T"
        assert "Accept" in resp.vary
    assert len(parsed) == 1
    assert "Accept" in client.get("/openapi.yaml").vary
    spec.write_text("openapi: 3.1.0\ninfo: {title: T2, version: '1'}\npaths: {}\n")
    assert client.get("/openapi.yaml", headers=as_json).get_json()["info"]["title"] == "T2"
    assert len(parsed) == 2


def test_openapi_yaml_missing_is_404_problem(client, tmp_path, monkeypatch):
    monkeypatch.setattr(ops, "_spec", ops._SpecCache(tmp_path / "absent.yaml"))
    assert_problem(client.get("/openapi.yaml"), 404, "not_found")


def test_the_repository_spec_is_served(client):
    resp = client.get("/openapi.yaml")
    assert resp.status_code == 200
    assert resp.data == Path(ops.OPENAPI_PATH).read_bytes()


def _local_urls(html: str) -> list[str]:
    return re.findall(r'(?:src|href)\s*=\s*"([^"]*)"', html)


def test_docs_html_uses_only_local_assets(client):
    resp = client.get("/docs", follow_redirects=True)
    assert resp.status_code == 200
    assert resp.mimetype == "text/html"
    html = resp.get_data(as_text=True)
    urls = _local_urls(html)
    assert urls, html
    for url in urls:
        assert url.startswith("/docs/"), url
        asset = client.get(url)
        assert asset.status_code == 200, url
    assert "http://" not in html and "https://" not in html and "//" not in "".join(urls)
    assert '"url": "/openapi.yaml"' in html
    assert '"validatorUrl": null' in html


def test_docs_assets_are_the_packaged_swagger_ui(client):
    js = client.get("/docs/swagger-ui-bundle.js")
    assert js.status_code == 200 and len(js.data) > 100_000
    assert client.get("/docs/swagger-ui.css").status_code == 200
    assert client.get("/docs/oauth2-redirect.html").status_code == 200
