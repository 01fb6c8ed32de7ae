"""The ``/events`` streams one worker holds: at most ``MAX_STREAMS`` in all (each holds a thread
of its own) and at most ``MAX_STREAMS_PER_CLIENT`` of them from one client address, so that one
client cannot take every stream there is (it could: 140 unread streams from one address held 125
of the 128 of two workers, and everyone else got 503 until it let go).

The address is the TCP peer's (``REMOTE_ADDR``; an IPv6 one's /64:
``api.client_shares.client_key``), as the session-creation limit counts it (``api.ratelimit``):
behind a reverse proxy every client shares the proxy's address, so such a deployment sets
``MAX_STREAMS_PER_CLIENT=0`` (no cap per address) and caps clients at the proxy.

The counts are the worker's own (a stream is a thread of this process; nothing to share, nothing
left behind in Redis by a worker that dies): with ``WEB_CONCURRENCY`` workers one address may
hold up to ``MAX_STREAMS_PER_CLIENT`` on each, depending on which worker accepted each stream.

Over the address's share: 429 ``too_many_client_streams`` (the client's own doing; ``limit``
names the cap); over the worker's: 503 ``too_many_streams`` (the server is full). Both with
``Retry-After``. A slot is given back when its stream ends, however it ends (the response's
close, which gunicorn calls after the last write or a failed one).
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from api.client_shares import ClientCounts
from api.errors import ApiError

__all__ = ["StreamSlots", "RETRY_AFTER"]

RETRY_AFTER = "5"
"""Seconds a refused client waits before asking again (a stream ends within about a second of
its client hanging up)."""


class StreamSlots:
    """At most ``total`` streams, at most ``per_client`` of them (``0``: any number) from one
    address. Thread-safe."""

    def __init__(self, total: int, per_client: int) -> None:
        self.total = total
        self.per_client = per_client
        self._lock = threading.Lock()
        self._open = 0
        self._by_address = ClientCounts()

    def take(self, address: str) -> Callable[[], None]:
        """A slot for a stream from ``address``, and the function that gives it back (once,
        however often it is called). ``ApiError`` 429 when the address holds its share, 503
        when the worker holds ``total``."""
        with self._lock:
            held = self._by_address.held(address)
            client_full = bool(self.per_client) and held >= self.per_client
            full = self._open >= self.total
            if not (client_full or full):
                self._open += 1
                self._by_address.add(address)
        if client_full:
            raise ApiError(
                429,
                "too_many_client_streams",
                f"This client address already holds {self.per_client} live streams on this "
                "server process, the most one address may (MAX_STREAMS_PER_CLIENT). Close one "
                "(a stream ends when its connection closes), then retry.",
                headers={"Retry-After": RETRY_AFTER},
                limit=self.per_client,
            )
        if full:
            raise ApiError(
                503,
                "too_many_streams",
                "This server holds as many live streams as it can; retry soon.",
                headers={"Retry-After": RETRY_AFTER},
            )
        given_back = False

        def give_back() -> None:
            nonlocal given_back
            with self._lock:
                if given_back:
                    return
                given_back = True
                self._open -= 1
                self._by_address.done(address)

        return give_back

    def held(self, address: str | None = None) -> int:
        """How many streams are open (from ``address``, or in all)."""
        with self._lock:
            return self._open if address is None else self._by_address.held(address)
