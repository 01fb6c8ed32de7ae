"""Rate limits (Flask-Limiter), counted in the session Redis (issue 13: no quotas before).

One limit today: ``POST /v1/sessions`` per client address, ``SESSION_CREATE_LIMIT`` (default
``60/minute``; empty for none). The counters live in the same Redis as the sessions: the
``REDIS_URL`` server, or the embedded one through its unix socket (``redis+unix://`` in the
``limits`` library), unless ``RATE_LIMIT_STORAGE_URI`` names another (e.g. ``redis+cluster://``
for a Redis Cluster). Every worker and every process shares them.

Over the limit: 429 problem+json ``too_many_requests`` with ``Retry-After`` (and the
``X-RateLimit-*`` headers on every limited answer). When the store is unreachable the limit is
not enforced (the request then meets the store's own 503). The client address is the TCP peer
(``REMOTE_ADDR``): behind a reverse proxy, every client shares the proxy's address.

Tests run without the limit (``TESTING``) unless their config names ``SESSION_CREATE_LIMIT``.
"""
from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from flask import Flask
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

from api.config import Settings
from api.embedded import socket_path_for

__all__ = ["storage_uri", "init_rate_limits", "KEY_PREFIX"]

KEY_PREFIX = "referee-limits"


def storage_uri(settings: Settings) -> str:
    """Where the counters live: ``RATE_LIMIT_STORAGE_URI``, else the session Redis."""
    if settings.rate_limit_storage_uri:
        return settings.rate_limit_storage_uri
    url = settings.redis_url or f"unix://{socket_path_for(settings.data_dir)}"
    if url.startswith("unix://"):
        return "redis+unix://" + url[len("unix://"):]
    return url


def init_rate_limits(app: Flask, settings: Settings, config: Mapping[str, Any]) -> Limiter | None:
    """Limit session creation on ``app`` (after its blueprints and its store are set up); None
    when off."""
    rate = settings.session_create_limit
    if app.config.get("TESTING") and "SESSION_CREATE_LIMIT" not in config:
        rate = ""
    if not rate:
        return None
    limiter = Limiter(get_remote_address, app=app, storage_uri=storage_uri(settings), key_prefix=KEY_PREFIX,
                      headers_enabled=True, swallow_errors=True, strategy="fixed-window",
                      storage_options={"socket_connect_timeout": 2, "socket_timeout": settings.store_timeout})
    endpoint = "sessions.create_session"
    limited = limiter.limit(rate, error_message=f"Too many sessions created from this address: at most {rate}.")(
        app.view_functions[endpoint])
    store = app.extensions["referee_store"]

    @functools.wraps(limited)
    def store_first(*args: Any, **kwargs: Any) -> Any:
        store.client()  # the counters live in the store: start (or reach) it before counting
        return limited(*args, **kwargs)

    app.view_functions[endpoint] = store_first
    return limiter
