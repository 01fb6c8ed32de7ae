"""How many requests of each client address a worker answers at once (``MAX_REQUESTS_PER_CLIENT``),
the rest waiting their turn in the worker's loop, holding no thread (``api.buffered_worker``).

Without it, one client sending a hundred CPU-bound requests (expert ``suggest``s, say) had every
thread of a worker working for it, and every other client's request shared the interpreter with
all of them. With it, that client's requests beyond its share wait in order, and another client's
request goes to a thread at once, sharing the interpreter with that share only.

The address is the TCP peer, as the session-creation limit and the stream caps count it: behind a
reverse proxy every client shares the proxy's address, so such a deployment sets
``MAX_REQUESTS_PER_CLIENT=0`` (no share per address). A long-lived ``/events`` stream stops
counting once it streams (it has a cap of its own, ``api.stream_slots``). This module does no I/O
and is used by the worker's loop only (not thread-safe).
"""

from __future__ import annotations

import collections
from typing import Generic, TypeVar

__all__ = ["ClientShares"]

Request = TypeVar("Request")


class ClientShares(Generic[Request]):
    """At most ``per_client`` requests of one address answered at once (``0``: any number)."""

    def __init__(self, per_client: int) -> None:
        self.per_client = per_client
        self._answering: dict[str, int] = {}  # only addresses with a request being answered
        self._waiting: dict[str, collections.deque[Request]] = {}

    def admit(self, address: str, request: Request) -> bool:
        """True: answer ``request`` now (it counts until :meth:`done`); False: it waits its
        turn, and :meth:`done` gives it back when one of the address's requests is done."""
        answering = self._answering.get(address, 0)
        if self.per_client and answering >= self.per_client:
            self._waiting.setdefault(address, collections.deque()).append(request)
            return False
        self._answering[address] = answering + 1
        return True

    def done(self, address: str) -> Request | None:
        """One of ``address``'s requests no longer counts: its next waiting request, if any,
        which counts from now on."""
        waiting = self._waiting.get(address)
        if waiting:
            request = waiting.popleft()
            if not waiting:
                del self._waiting[address]
            return request
        left = self._answering[address] - 1
        if left:
            self._answering[address] = left
        else:
            del self._answering[address]
        return None

    def answering(self, address: str) -> int:
        return self._answering.get(address, 0)

    def waiting(self, address: str) -> int:
        return len(self._waiting.get(address, ()))
