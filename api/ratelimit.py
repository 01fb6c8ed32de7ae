"""Rate limits, counted in the session Redis with ``limits`` (the library Flask-Limiter is built
on).

One limit today: ``POST /v1/sessions`` per client address, ``SESSION_CREATE_LIMIT`` (default
``60/minute``; empty for none; several limits separated by ``;``). The counters live in the same
Redis as the sessions: the ``REDIS_URL`` server, or the embedded one through its unix socket
(``redis+unix://`` in ``limits``), unless ``RATE_LIMIT_STORAGE_URI`` names another (e.g.
``redis+cluster://`` for a Redis Cluster). Every worker and every process shares them.

Over the limit: 429 problem+json ``too_many_requests`` with ``Retry-After`` (and the
``X-RateLimit-*`` headers on every answer of the limited endpoint). When the store is unreachable
the limit is not enforced (the request then meets the store's own 503). The client address is the
TCP peer (``REMOTE_ADDR``): behind a reverse proxy, every client shares the proxy's address.

Why not Flask-Limiter's extension: it checks every request of the app in a ``before_request``
hook, only to find that the endpoint has no limit. That cost about 80 µs, 13% of a stateless
Council legal-moves request (issue 14), for a limit on one endpoint. So the one limited view
counts its own requests, with the same fixed-window strategy and the same storage URIs.

Tests run without the limit (``TESTING``) unless their config names ``SESSION_CREATE_LIMIT``.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, request
from limits import RateLimitItem, parse_many
from limits.storage import storage_from_string
from limits.strategies import FixedWindowRateLimiter

from api.config import Settings
from api.embedded import socket_path_for
from api.errors import ApiError

__all__ = ["storage_uri", "init_rate_limits", "AddressLimit", "KEY_PREFIX"]

KEY_PREFIX = "referee-limits"
LIMITED_ENDPOINT = "sessions.create_session"


def storage_uri(settings: Settings) -> str:
    """Where the counters live: ``RATE_LIMIT_STORAGE_URI``, else the session Redis."""
    if settings.rate_limit_storage_uri:
        return settings.rate_limit_storage_uri
    url = settings.redis_url or f"unix://{socket_path_for(settings.data_dir)}"
    if url.startswith("unix://"):
        return "redis+unix://" + url[len("unix://") :]
    return url


class AddressLimit:
    """``rate`` (``60/minute``, ``10/second;100/hour``) per client address, counted in ``uri``."""

    def __init__(self, rate: str, uri: str, timeout: float, logger: Any) -> None:
        self.rate = rate
        self.items: list[RateLimitItem] = parse_many(rate)
        self._counter = FixedWindowRateLimiter(
            storage_from_string(uri, socket_connect_timeout=2, socket_timeout=timeout)
        )
        self._logger = logger

    def count(self, address: str) -> dict[str, str]:
        """Count one request from ``address``: the ``X-RateLimit-*`` headers of its answer (for
        the limit nearest its end), or a 429 ``ApiError`` over a limit. An unreachable store
        counts nothing (logged)."""
        ids = (KEY_PREFIX, LIMITED_ENDPOINT, address)
        try:
            for item in self.items:
                if not self._counter.hit(item, *ids):
                    headers, reset = self._headers(item, ids)
                    raise ApiError(
                        429,
                        "too_many_requests",
                        f"Too many sessions created from this address: at most {self.rate}.",
                        headers={
                            **headers,
                            "Retry-After": str(max(1, math.ceil(reset - time.time()))),
                        },
                    )
            return min(
                (self._headers(item, ids)[0] for item in self.items),
                key=lambda h: int(h["X-RateLimit-Remaining"]),
            )
        except ApiError:
            raise
        except Exception as err:  # the store is down: the request meets the store's own 503
            self._logger.warning("rate limit not counted (store unreachable): %s", err)
            return {}

    def _headers(self, item: RateLimitItem, ids: tuple[str, ...]) -> tuple[dict[str, str], float]:
        """The headers for ``item``'s window, and when it resets (epoch seconds)."""
        stats = self._counter.get_window_stats(item, *ids)
        return (
            {
                "X-RateLimit-Limit": str(item.amount),
                "X-RateLimit-Remaining": str(stats.remaining),
                "X-RateLimit-Reset": str(math.ceil(stats.reset_time)),
            },
            stats.reset_time,
        )


def init_rate_limits(
    app: Flask, settings: Settings, config: Mapping[str, Any]
) -> AddressLimit | None:
    """Limit session creation on ``app`` (after its blueprints and its store are set up); None
    when off."""
    rate = settings.session_create_limit
    if app.config.get("TESTING") and "SESSION_CREATE_LIMIT" not in config:
        rate = ""
    if not rate:
        return None
    limit = AddressLimit(rate, storage_uri(settings), settings.store_timeout, app.logger)
    view = app.view_functions[LIMITED_ENDPOINT]
    store = app.extensions["referee_store"]

    @functools.wraps(view)
    def counted(*args: Any, **kwargs: Any) -> Response:
        store.client()  # the counters live in the store: start (or reach) it before counting
        headers = limit.count(request.remote_addr or "unknown")
        # flask types a view as sync or async; this one (sessions.create) is sync
        response = app.make_response(view(*args, **kwargs))  # type: ignore[arg-type]
        response.headers.update(headers)
        return response

    app.view_functions[LIMITED_ENDPOINT] = counted
    return limit
