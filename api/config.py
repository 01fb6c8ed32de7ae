"""Settings from environment variables, each with a documented default.

| variable           | default          | meaning                                                     |
| ------------------ | ---------------- | ----------------------------------------------------------- |
| `HOST`             | `127.0.0.1`      | address `reign-referee serve` binds                         |
| `PORT`             | `8000`           | port `reign-referee serve` binds                            |
| `WEB_CONCURRENCY`  | `2`              | gunicorn worker processes                                   |
| `THREADS`          | `8`              | threads per worker (gthread)                                |
| `MAX_BODY_BYTES`   | `1048576`        | largest accepted request body; larger gets 413              |
| `REDIS_URL`        | unset            | Redis for sessions; unset starts an embedded server         |
| `REFEREE_DATA_DIR` | `.referee-data`  | where the embedded Redis keeps its data                     |
| `LOG_LEVEL`        | `info`           | `debug`, `info`, `warning`, `error`, `critical`             |
| `SESSION_TTL_SECONDS` | `604800`      | a session idle this long (no move) expires (7 days)         |
| `MAX_STREAMS`      | `64`             | open `/events` streams per worker; each has its own thread; beyond: 503 `too_many_streams` |
| `MAX_STREAMS_PER_CLIENT` | `8`        | open `/events` streams per worker from one client address (the TCP peer, as `SESSION_CREATE_LIMIT`); beyond: 429 `too_many_client_streams`; `0`: no cap per address (behind a reverse proxy, where every client has the proxy's address) |
| `MAX_REQUESTS_PER_CLIENT` | `4`       | requests from one client address a worker answers at once; more wait their turn in the worker's loop, holding no thread (`api.client_shares`; an `/events` stream stops counting once it streams); `0`: no share per address, of threads, request bytes or connections (behind a reverse proxy) |
| `HEARTBEAT_SECONDS`| `15`             | idle `/events` streams get a comment line this often        |
| `MAX_STREAM_SECONDS` | `3600`         | an `/events` stream ends after this long (the client reconnects with `Last-Event-ID`), so no stream holds its slot for good; `0`: never |
| `STORE_TIMEOUT_SECONDS` | `5`         | wait this long for Redis to answer (a write then: 503 `outcome_unknown`) |
| `MAX_SESSION_STATE_BYTES` | `262144`  | largest state a session is created with (JSON bytes; during play its states may grow to twice it); larger: 422 `state_too_large` |
| `IDEMPOTENCY_WINDOW_SECONDS` | `86400` | an Idempotency-Key is remembered this long after its move (24 h), whatever other keys come in between |
| `STORE_MAX_MEMORY` | `256mb`          | the embedded Redis's `maxmemory` (bytes, or with `kb`/`mb`/`gb`; `0`: no limit), no eviction: full, writes get 507 `store_full` |
| `STORE_APPENDFSYNC` | `always`        | the embedded Redis's fsync policy: `always`, `everysec` or `no` (README "Storage") |
| `SESSION_CREATE_LIMIT` | `60/minute`  | sessions one client address may create, forks included (`limits` syntax; empty: no limit); beyond: 429 |
| `RATE_LIMIT_STORAGE_URI` | derived    | where the limits are counted: the session Redis (`REDIS_URL`, or the embedded one) |
| `SESSION_BOT_TIME_MS` | `300`        | a session's bot seat thinks this long per move at most (`time_ms` of `rules.bots.suggest`) |
| `CLOCK_POLL_MS`    | `100`            | how often each worker looks for session clocks out of time (`api.clock_keeper`) |
| `CLOCK_THREADS`    | `4`              | threads per worker that apply timeouts (a `bot` timeout thinks `SESSION_BOT_TIME_MS`) |
| `KNOWN_STATES`     | `4096`           | digests of checked states each worker remembers, so a state sent again is not checked again (`api.known_states`); `0`: off |
| `REQUEST_DEADLINE_SECONDS` | `10`     | a request (head and body) must arrive whole this long after its connection opened (or, kept alive, after its first byte); later: 408 `request_timeout`, closed (`api.buffered_worker`); an answer not read whole within it: closed (`api.answer_writer`) |
| `WORKER_CONNECTIONS` | `4096`         | open connections per worker (waiting ones cost a descriptor, not a thread); beyond, new ones wait in the listen queue |
"""  # noqa: E501 - a Markdown table above keeps one row a line

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["Settings", "LOG_LEVELS", "APPENDFSYNC_POLICIES", "parse_bytes"]

LOG_LEVELS = ("debug", "info", "warning", "error", "critical")
APPENDFSYNC_POLICIES = ("always", "everysec", "no")
_UNITS = {"": 1, "b": 1, "kb": 1024, "mb": 1024**2, "gb": 1024**3}


def parse_bytes(name: str, raw: str) -> int:
    """A memory size as Redis writes it: bytes, or a number with ``kb``, ``mb`` or ``gb``
    (powers of 1024, any case: ``256mb``, ``1GB``)."""
    text = raw.strip().lower()
    number = text.rstrip("kmgb")
    unit = text[len(number) :]
    if not number.isdigit() or unit not in _UNITS:
        raise ValueError(f"{name} must be bytes or a size like '256mb', not {raw!r}")
    return int(number) * _UNITS[unit]


def _bytes(env: Mapping[str, str], name: str, default: int) -> int:
    raw = env.get(name, "").strip()
    return parse_bytes(name, raw) if raw else default


def _choice(env: Mapping[str, str], name: str, default: str, choices: tuple[str, ...]) -> str:
    value = env.get(name, "").strip().lower() or default
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(choices)}, not {value!r}")
    return value


def _int(env: Mapping[str, str], name: str, default: int, minimum: int) -> int:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ValueError(f"{name} must be an integer, not {raw!r}") from None
    if value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, not {value}")
    return value


def _rate(env: Mapping[str, str], name: str, default: str) -> str:
    """A rate limit in the syntax of `limits` (``60/minute``, ``10 per second``); empty: none."""
    if name not in env:
        return default
    raw = env[name].strip()
    if raw:
        from limits import parse_many

        try:
            parse_many(raw)
        except ValueError:
            raise ValueError(f"{name} must be a rate limit like '60/minute', not {raw!r}") from None
    return raw


def _bot_time(env: Mapping[str, str]) -> int:
    from rules.bots import MAX_TIME_MS

    value = _int(env, "SESSION_BOT_TIME_MS", Settings.session_bot_time_ms, 1)
    if value > MAX_TIME_MS:
        raise ValueError(f"SESSION_BOT_TIME_MS must be at most {MAX_TIME_MS}, not {value}")
    return value


@dataclass(frozen=True)
class Settings:
    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = 2
    threads: int = 8
    max_body_bytes: int = 1_048_576
    redis_url: str | None = None
    data_dir: str = ".referee-data"
    log_level: str = "info"
    session_ttl: int = 604_800
    max_streams: int = 64
    max_streams_per_client: int = 8
    max_requests_per_client: int = 4
    heartbeat: int = 15
    max_stream_seconds: int = 3600
    store_timeout: int = 5
    max_session_state_bytes: int = 262_144
    idempotency_window: int = 86_400
    store_max_memory: int = 256 * 1024**2
    store_appendfsync: str = "always"
    session_create_limit: str = "60/minute"
    rate_limit_storage_uri: str | None = None
    session_bot_time_ms: int = 300
    known_states: int = 4096
    request_deadline: int = 10
    worker_connections: int = 4096
    clock_poll_ms: int = 100
    clock_threads: int = 4

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        log_level = (env.get("LOG_LEVEL", "").strip() or "info").lower()
        if log_level not in LOG_LEVELS:
            raise ValueError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {log_level!r}")
        return cls(
            host=env.get("HOST", "").strip() or cls.host,
            port=_int(env, "PORT", cls.port, 0),
            workers=_int(env, "WEB_CONCURRENCY", cls.workers, 1),
            threads=_int(env, "THREADS", cls.threads, 1),
            max_body_bytes=_int(env, "MAX_BODY_BYTES", cls.max_body_bytes, 1),
            redis_url=env.get("REDIS_URL", "").strip() or None,
            data_dir=env.get("REFEREE_DATA_DIR", "").strip() or cls.data_dir,
            log_level=log_level,
            session_ttl=_int(env, "SESSION_TTL_SECONDS", cls.session_ttl, 1),
            max_streams=_int(env, "MAX_STREAMS", cls.max_streams, 0),
            max_streams_per_client=_int(
                env, "MAX_STREAMS_PER_CLIENT", cls.max_streams_per_client, 0
            ),
            max_requests_per_client=_int(
                env, "MAX_REQUESTS_PER_CLIENT", cls.max_requests_per_client, 0
            ),
            heartbeat=_int(env, "HEARTBEAT_SECONDS", cls.heartbeat, 1),
            max_stream_seconds=_int(env, "MAX_STREAM_SECONDS", cls.max_stream_seconds, 0),
            store_timeout=_int(env, "STORE_TIMEOUT_SECONDS", cls.store_timeout, 1),
            max_session_state_bytes=_int(
                env, "MAX_SESSION_STATE_BYTES", cls.max_session_state_bytes, 1024
            ),
            idempotency_window=_int(env, "IDEMPOTENCY_WINDOW_SECONDS", cls.idempotency_window, 1),
            store_max_memory=_bytes(env, "STORE_MAX_MEMORY", cls.store_max_memory),
            store_appendfsync=_choice(
                env, "STORE_APPENDFSYNC", cls.store_appendfsync, APPENDFSYNC_POLICIES
            ),
            session_create_limit=_rate(env, "SESSION_CREATE_LIMIT", cls.session_create_limit),
            rate_limit_storage_uri=env.get("RATE_LIMIT_STORAGE_URI", "").strip() or None,
            session_bot_time_ms=_bot_time(env),
            known_states=_int(env, "KNOWN_STATES", cls.known_states, 0),
            request_deadline=_int(env, "REQUEST_DEADLINE_SECONDS", cls.request_deadline, 1),
            worker_connections=_int(env, "WORKER_CONNECTIONS", cls.worker_connections, 1),
            clock_poll_ms=_int(env, "CLOCK_POLL_MS", cls.clock_poll_ms, 10),
            clock_threads=_int(env, "CLOCK_THREADS", cls.clock_threads, 1),
        )
