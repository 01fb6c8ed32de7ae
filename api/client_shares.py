"""A client address's share of a worker (``api.buffered_worker``): how many of its requests the
worker answers at once (``MAX_REQUESTS_PER_CLIENT``), the rest waiting their turn in the worker's
loop, holding no thread (:class:`ClientShares`); and how many request bytes the worker holds for
it and for everyone (:class:`ByteShares`); how many connections (:class:`ClientCounts`).

Without it, one client sending a hundred CPU-bound requests (expert ``suggest``s, say) had every
thread of a worker working for it, and every other client's request shared the interpreter with
all of them. With it, that client's requests beyond its share wait in order, and another client's
request goes to a thread at once, sharing the interpreter with that share only.

The address is the TCP peer, as the session-creation limit and the stream caps count it: behind a
reverse proxy every client shares the proxy's address, so such a deployment sets
``MAX_REQUESTS_PER_CLIENT=0`` (no share per address, of threads or of bytes). A long-lived
``/events`` stream stops counting once it streams (it has a cap of its own, ``api.stream_slots``).
This module does no I/O and is used by the worker's loop only (not thread-safe).
"""

from __future__ import annotations

import collections
import ipaddress
from typing import Generic, TypeVar

__all__ = ["client_key", "ClientCounts", "ClientShares", "ByteShares", "SMALL_REQUEST"]

Request = TypeVar("Request")

IPV6_CLIENT_PREFIX = 64
"""An IPv6 client is the /64 its address is in: a host is commonly given a whole /64, and could
otherwise take a new address, and a new share, for every connection."""


def client_key(address: str | None) -> str:
    """The client an address counts as, in every share and limit per client: an IPv4 address
    itself (an IPv4-mapped IPv6 one too), an IPv6 address's /64, anything else (a unix socket's
    empty peer) as it is."""
    if not address:
        return "unknown"
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, IPV6_CLIENT_PREFIX), strict=False))
    return str(ip)


class ClientShares(Generic[Request]):
    """At most ``per_client`` requests of one address answered at once (``0``: any number)."""

    def __init__(self, per_client: int) -> None:
        self.per_client = per_client
        self._answering = ClientCounts(per_client)  # requests being answered
        self._waiting: dict[str, collections.deque[Request]] = {}

    def admit(self, address: str, request: Request) -> bool:
        """True: answer ``request`` now (it counts until :meth:`done`); False: it waits its
        turn, and :meth:`done` gives it back when one of the address's requests is done."""
        if self._answering.admit(address):
            return True
        self._waiting.setdefault(address, collections.deque()).append(request)
        return False

    def done(self, address: str) -> Request | None:
        """One of ``address``'s requests no longer counts: its next waiting request, if any,
        which counts from now on."""
        waiting = self._waiting.get(address)
        if waiting:
            request = waiting.popleft()
            if not waiting:
                del self._waiting[address]
            return request
        self._answering.done(address)
        return None

    def answering(self, address: str) -> int:
        return self._answering.held(address)

    def waiting(self, address: str) -> int:
        return len(self._waiting.get(address, ()))


SMALL_REQUEST = 16 * 1024
"""The first bytes of a request always read, whatever the worker holds: a small request (a
session move, ``/healthz``) never waits for large ones to be answered."""


class ByteShares:
    """The request bytes a worker holds (gathered, waiting their turn, or being answered): at
    most ``total`` in all and ``per_client`` (``0``: no share) from one address, beyond each
    request's first :data:`SMALL_REQUEST` bytes.

    Without it, a client that opened connections and sent all but the last byte of a 1 MiB body
    on each had the worker hold every byte: 500 connections from one address took 500 MB of the
    workers' memory in a second, and ``WORKER_CONNECTIONS`` allows 4,096 a worker."""

    def __init__(self, total: int, per_client: int) -> None:
        self.total = total
        self.per_client = per_client
        self.held = 0
        self._by_address = ClientCounts()

    def free(self, address: str) -> int:
        """The bytes the worker may still take for ``address`` (0 or less: none)."""
        free = self.total - self.held
        if self.per_client:
            free = min(free, self.per_client - self._by_address.held(address))
        return free

    def room(self, address: str, holding: int) -> int:
        """How many more bytes a connection from ``address``, holding ``holding`` bytes of its
        request, may read now (0 or less: it waits until some are given back)."""
        return max(self.free(address), SMALL_REQUEST - holding)

    def take(self, address: str, size: int) -> None:
        self.held += size
        self._by_address.add(address, size)

    def give_back(self, address: str, size: int) -> None:
        self.held -= size
        self._by_address.done(address, size)

    def holding(self, address: str) -> int:
        return self._by_address.held(address)


class ClientCounts:
    """A count per client (connections, streams, bytes), only clients with one kept; at most
    ``per_client`` each through :meth:`admit` (``0``: no cap). Not thread-safe.

    As the worker's share of connections: without it, one address that opened more connections
    than ``WORKER_CONNECTIONS`` allows (8,400 idle ones from one address, opened again as they
    were closed) had every new client wait in the listen queue, and ``/healthz`` timed out."""

    def __init__(self, per_client: int = 0) -> None:
        self.per_client = per_client
        self._counts: dict[str, int] = {}

    def admit(self, client: str) -> bool:
        """Count one more for ``client``; False (not counted) past its cap."""
        if self.per_client and self.held(client) >= self.per_client:
            return False
        self.add(client)
        return True

    def add(self, client: str, amount: int = 1) -> None:
        self._counts[client] = self.held(client) + amount

    def done(self, client: str, amount: int = 1) -> None:
        left = self.held(client) - amount
        if left > 0:
            self._counts[client] = left
        else:
            self._counts.pop(client, None)

    def held(self, client: str) -> int:
        return self._counts.get(client, 0)

    def __len__(self) -> int:
        """How many clients have a count."""
        return len(self._counts)
