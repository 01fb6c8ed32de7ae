"""Rate limits, counted in the session Redis with ``limits`` (the library Flask-Limiter is built
on).

One limit today: the sessions a client address creates, ``SESSION_CREATE_LIMIT`` (default
``60/minute``; empty for none; several limits separated by ``;``), by ``POST /v1/sessions`` and by
``POST /v1/sessions/{id}/fork`` alike, in one count: a fork is a new session, stored as long, and
forks counted apart let one client fill the store (5,800 forks of one session filled the embedded
Redis's 256 MB in two minutes, and every other client's new session got 507).

Only what creates a session is counted: a request is tested against the count before its view
runs (429 when no room is left) and counted once its answer is a 2xx; one refused (a 400, a 401,
a 422 ``invalid_setup`` or ``unknown_version``, a 503: nothing stored, or nothing anyone can use)
leaves the count as it was. The price of counting after the fact: requests from one address in
flight at once are each tested before any is counted, so a burst of concurrent creates may
overshoot the limit by up to the number of those requests less one (at most a worker's threads
times the workers); the count still takes them all, and the address gets nothing more until the
window ends. The ``limits`` library has no atomic test-and-reserve that a failure could give
back.

The counters live in the same Redis as the sessions: the ``REDIS_URL`` server, or the embedded
one through its unix socket (``redis+unix://`` in ``limits``), unless ``RATE_LIMIT_STORAGE_URI``
names another (e.g. ``redis+cluster://`` for a Redis Cluster). Every worker and every process
shares them.

Over the limit: 429 problem+json ``too_many_requests`` with ``Retry-After``. Every answer of the
limited endpoints carries the ``X-RateLimit-*`` headers, errors included (a 422 says how many
creates are left as a 201 does). When the store is unreachable the limit is not enforced (the
request then meets the store's own 503). The client address is the TCP peer (``REMOTE_ADDR``; an
IPv6 one's /64: ``api.client_shares.client_key``): behind a reverse proxy, every client shares
the proxy's address.

Why not Flask-Limiter's extension: it checks every request of the app in a ``before_request``
hook, only to find that the endpoint has no limit. That cost about 80 µs, 13% of a stateless
Council legal-moves request (issue 14), for a limit on two endpoints. So the limited views count
their own requests, with the same fixed-window strategy and the same storage URIs.

Tests run without the limit (``TESTING``) unless their config names ``SESSION_CREATE_LIMIT``.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, after_this_request, request
from limits import RateLimitItem, parse_many
from limits.storage import storage_from_string
from limits.strategies import FixedWindowRateLimiter

from api.client_shares import client_key
from api.config import Settings
from api.embedded import socket_path_for
from api.errors import ApiError

__all__ = ["storage_uri", "init_rate_limits", "AddressLimit", "KEY_PREFIX"]

KEY_PREFIX = "referee-limits"
LIMITED_ENDPOINTS = ("sessions.create_session", "records.fork")
"""The views that create a session, counted together per address."""
_COUNT = "sessions.create_session"
"""The count's name in the store (from when it counted ``POST /v1/sessions`` alone)."""


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

    def check(self, address: str) -> None:
        """A 429 ``ApiError`` when ``address`` has no room left under one of the limits; counts
        nothing (:meth:`count` does, once the request created a session). An unreachable store
        checks nothing (logged)."""
        ids = (KEY_PREFIX, _COUNT, address)
        try:
            for item in self.items:
                if not self._counter.test(item, *ids):
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
        except ApiError:
            raise
        except Exception as err:  # the store is down: the request meets the store's own 503
            self._logger.warning("rate limit not checked (store unreachable): %s", err)

    def count(self, address: str, created: bool) -> dict[str, str]:
        """Count one session ``created`` by ``address`` (a request that created none counts
        nothing), and the ``X-RateLimit-*`` headers of its answer, either way (for the limit
        nearest its end). An unreachable store counts nothing and gives no headers (logged)."""
        ids = (KEY_PREFIX, _COUNT, address)
        try:
            if created:
                for item in self.items:
                    self._counter.hit(item, *ids)  # over it already: a burst (module docstring)
            return min(
                (self._headers(item, ids)[0] for item in self.items),
                key=lambda h: int(h["X-RateLimit-Remaining"]),
            )
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
    """Limit session creation on ``app`` (:data:`LIMITED_ENDPOINTS`, after its blueprints and
    its store are set up); None when off."""
    rate = settings.session_create_limit
    if app.config.get("TESTING") and "SESSION_CREATE_LIMIT" not in config:
        rate = ""
    if not rate:
        return None
    limit = AddressLimit(rate, storage_uri(settings), settings.store_timeout, app.logger)
    store = app.extensions["referee_store"]
    for endpoint in LIMITED_ENDPOINTS:
        app.view_functions[endpoint] = _counted(app.view_functions[endpoint], limit, store)
    return limit


def _counted(view: Any, limit: AddressLimit, store: Any) -> Any:
    """``view``, each of its requests checked by ``limit`` first (429 when no room is left) and
    counted when its answer is a 2xx (a session created); its answer, an error's too, carries
    the ``X-RateLimit-*`` headers (``after_this_request`` also runs on the answer an error
    handler makes of an exception the view raised)."""

    @functools.wraps(view)
    def counted(*args: Any, **kwargs: Any) -> Any:
        store.client()  # the counters live in the store: start (or reach) it before counting
        address = client_key(request.remote_addr)
        limit.check(address)

        @after_this_request
        def count(response: Response) -> Response:
            created = 200 <= response.status_code < 300
            response.headers.update(limit.count(address, created))
            return response

        return view(*args, **kwargs)  # both views are sync

    return counted
