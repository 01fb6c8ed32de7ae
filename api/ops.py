"""Operations: ``/healthz``, ``/readyz``, ``/openapi.yaml`` and the ``/docs`` Swagger UI."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import yaml
from flask import Blueprint, Flask, Response, current_app, redirect, request
from flask_swagger_ui import get_swaggerui_blueprint

from api.errors import problem
from api.store import Store, StoreUnavailable

__all__ = ["bp", "register_docs", "OPENAPI_PATH", "DOCS_URL", "SPEC_URL"]

bp = Blueprint("ops", __name__)

# The spec ships inside this package (package data), so an installed wheel serves it wherever it
# runs; the repository's top-level ``openapi.yaml`` is a symlink to this one generated file.
OPENAPI_PATH = Path(__file__).resolve().parent / "openapi.yaml"
DOCS_URL = "/docs"
SPEC_URL = "/openapi.yaml"


class _SpecCache:
    """The spec file's bytes, re-read only when its modification time or size changes, and the
    same spec as JSON, converted once per version of the file: parsing the 900 KB of YAML takes
    about a second (``CSafeLoader``; three with the pure-Python loader), which a client asking
    for JSON again and again must not make every request pay."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._key: tuple[int, int] | None = None
        self._data = b""
        self._json: bytes | None = None
        self._lock = threading.Lock()

    def read(self) -> bytes | None:
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        key = (st.st_mtime_ns, st.st_size)
        if key != self._key:
            with self._lock:
                if key != self._key:
                    try:
                        self._data = self.path.read_bytes()
                    except OSError:
                        return None
                    self._json = None
                    self._key = key
        return self._data

    def read_json(self) -> bytes | None:
        data = self.read()
        if data is None:
            return None
        with self._lock:  # one conversion at a time, and once per version of the file
            if self._json is None:
                loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
                self._json = json.dumps(yaml.load(self._data, Loader=loader)).encode()
            return self._json


_spec = _SpecCache(OPENAPI_PATH)


@bp.get("/healthz")
def healthz():
    """Liveness: 200 while the process can serve. 503 ``store_failed`` when the embedded Redis
    died and its supervisor could not bring it back (``api.embedded``; read from its status
    file, so every worker knows): restarting the service is then the cure, and an orchestrator
    (or the Dockerfile's HEALTHCHECK) should see it. An external Redis (``REDIS_URL``) being
    down never fails it: a restart would not help; ``/readyz`` reports that."""
    store: Store = current_app.extensions["referee_store"]
    failure = store.failure()
    if failure is not None:
        current_app.logger.error(
            "liveness check failed: %s is down for good: %s", store.describe(), failure
        )
        return problem(
            503,
            "store_failed",
            "The embedded session store stopped and could not be restarted; restart the service.",
            store="failed",
        )
    return {"status": "ok"}


@bp.get("/readyz")
def readyz():
    store: Store = current_app.extensions["referee_store"]
    try:
        store.ping()
    except StoreUnavailable as err:
        current_app.logger.warning(
            "readiness check failed: %s unreachable: %s", store.describe(), err
        )
        return problem(
            503,
            "store_unavailable",
            "The session store is unreachable; stateless endpoints keep working.",
            store="unreachable",
            headers={"Retry-After": "5"},
        )
    return {"status": "ready", "store": "ok"}


@bp.get(SPEC_URL)
def openapi_yaml():
    """The spec as YAML, or as JSON for a client that prefers ``application/json`` (generated
    clients read JSON only)."""
    as_json = (
        request.accept_mimetypes.best_match(("application/yaml", "application/json"))
        == "application/json"
    )
    data = _spec.read_json() if as_json else _spec.read()
    if data is None:
        return problem(404, "not_found", "The OpenAPI document is not available on this server.")
    response = Response(data, mimetype="application/json" if as_json else "application/yaml")
    response.vary.add("Accept")  # the same URL answers YAML or JSON (RFC 9110 §12.5.5)
    return response


def register_docs(app: Flask) -> None:
    """Swagger UI at ``/docs/``, every asset served from the flask-swagger-ui package (no CDN),
    reading the spec from ``/openapi.yaml``. ``validatorUrl: null`` keeps the page from calling
    the public swagger.io validator; the OAuth redirect is a relative URL, so the page names no
    host at all."""
    docs = get_swaggerui_blueprint(
        DOCS_URL,
        SPEC_URL,
        config={
            "app_name": "Reign Referee API",
            "validatorUrl": None,
            "oauth2RedirectUrl": DOCS_URL + "/oauth2-redirect.html",
        },
    )
    app.register_blueprint(docs)
    # ``/docs`` without the slash: its own rule, so that GET is redirected and any other method is
    # a 405 with ``Allow`` like everywhere (werkzeug's implicit slash redirect answers only GET's
    # methods and leaves the rest 404).
    app.add_url_rule(
        DOCS_URL, "docs_redirect", lambda: redirect(DOCS_URL + "/", 308), methods=["GET"]
    )
