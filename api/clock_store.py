"""Session clocks in Redis: the deadlines every worker and instance shares (issue 25). No Flask.

A clock itself is the ``clock`` field of the session hash (JSON, ``api.clock.Clock``), written by
the same Lua compare-and-set as the move that changes it (``SessionStore.commit``) or, when only
the clock changes (an admin's pause, resume or add-time, a grace given), by :data:`_SET_CLOCK`,
which compares the version and the clock as read.

The deadlines live in one sorted set, ``referee:clock:deadlines``: member a session id, score a
time (ms since the epoch) at which some worker must look at that session. It is a wake-up list,
not the truth: the truth is the clock in the session hash, and the worker that looks decides from
it. Two invariants make it safe:

- **never late**: before anything that may bring a deadline closer is written, the score is
  lowered to that deadline (``ZADD LT``; it never raises a score), so a crash between the two
  writes leaves an early wake-up (harmless: the worker finds nothing due and sets the right time),
  never a missed one;
- **claimed once**: a worker claims the due members with :data:`_CLAIM`, which moves each one's
  score to a lease (now + ``LEASE_MS`` and a random tie-breaker) in the same atomic step. Only
  that worker looks during the lease; if it dies (``kill -9``), the lease expires and another
  worker claims the member again. It then releases with :data:`_RELEASE`: the next deadline
  (or removal) if the score is still its lease, else only a lowering (another write came
  meanwhile and its wake-up must stand).

A timeout itself is committed by ``SessionStore.commit`` on the version it was computed for, like
any move, so it never lands twice nor after the move it would have replaced. The set is one key
(one Redis Cluster slot); the claim and release scripts touch that key only.

A session's keys expire when it has been idle for ``SESSION_TTL_SECONDS``, but a running clock
must outlive its next deadline, however far the admin's add-time or Fischer's increments have
pushed it: every write of a clock that runs keeps the session's keys alive until that deadline
plus :data:`EXPIRY_MARGIN_MS` at least (:func:`lifetime_s`; the commit of a move or timeout, the
creation, and :data:`_SET_CLOCK`, which only ever lengthens a key's life). Else the session
would vanish (404) instead of timing out.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

import redis

from api.store import guarded, guarded_write

__all__ = [
    "DEADLINES",
    "LEASE_MS",
    "EXPIRY_MARGIN_MS",
    "ClockWrite",
    "ClockDeadlines",
    "lifetime_s",
]

DEADLINES = "referee:clock:deadlines"
LEASE_MS = 5_000
"""How long a claim holds a session for its worker; a dead worker's claims come back after it."""
EXPIRY_MARGIN_MS = 60_000
"""How long a session with a running clock lives at least past its next deadline: time for a
timekeeper to poll, for a dead worker's lease (``LEASE_MS``) to end and for a store blip to pass
before the timeout is committed (which sets the session's life again)."""

_CLAIM = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
for _, member in ipairs(due) do
  redis.call('ZADD', KEYS[1], ARGV[2], member)
end
return due
"""

_RELEASE = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) == tonumber(ARGV[2]) then
  if ARGV[3] == '' then
    redis.call('ZREM', KEYS[1], ARGV[1])
  else
    redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
  end
  return 1
end
if ARGV[3] ~= '' then
  redis.call('ZADD', KEYS[1], 'LT', ARGV[3], ARGV[1])
end
return 0
"""

_SET_CLOCK = """
local current = redis.call('HMGET', KEYS[1], 'version', 'clock')
if not current[1] then return 'missing' end
if current[1] ~= ARGV[1] or current[2] ~= ARGV[2] then return 'conflict' end
redis.call('HSET', KEYS[1], 'clock', ARGV[3])
if ARGV[4] ~= '' then
  local keep = tonumber(ARGV[4])
  for _, key in ipairs(KEYS) do
    local left = redis.call('TTL', key)
    if left >= 0 and left < keep then redis.call('EXPIRE', key, keep) end
  end
end
return 'ok'
"""


def lifetime_s(ttl_s: int, wake: int | None, now: int) -> int:
    """How long (s) a session's keys must live from ``now`` (ms) when a clock whose next deadline
    is ``wake`` is written: its idle time-to-live ``ttl_s``, or up to that deadline plus
    :data:`EXPIRY_MARGIN_MS` when that is later (see the module)."""
    if wake is None:
        return ttl_s
    return max(ttl_s, -(-(wake - now + EXPIRY_MARGIN_MS) // 1000))


@dataclass(frozen=True, slots=True)
class ClockWrite:
    """The clock a commit writes with its move: ``old`` as read (the commit also compares it, so
    a pause or add-time meanwhile is never overwritten), ``new``, and ``wake`` its next deadline
    (ms since the epoch; None when no clock runs)."""

    old: bytes
    new: bytes
    wake: int | None


class ClockDeadlines:
    """The shared deadline set over a Redis client factory (``Store.client`` or ``.writer``)."""

    def __init__(self, client: Any) -> None:
        self._client = client
        self._scripts: dict[str, Any] = {}

    def _script(self, name: str, source: str) -> Any:
        script = self._scripts.get(name)
        if script is None:
            script = self._scripts[name] = self._client().register_script(source)
        return script

    def lower(self, session_id: str, at: int) -> None:
        """Have a worker look at the session at ``at`` at the latest (never raises a score)."""
        client: redis.Redis = self._client()
        guarded(lambda: client.zadd(DEADLINES, {session_id: at}, lt=True))

    def claim(self, now: int, limit: int) -> list[tuple[str, str]]:
        """Claim up to ``limit`` sessions whose wake-up time has come: (session id, lease)."""
        lease = now + LEASE_MS
        # A random fraction of a millisecond tells this claim's lease from another worker's.
        score = f"{lease}.{secrets.randbelow(10**6):06d}"
        script = self._script("claim", _CLAIM)
        client = self._client()
        found = guarded(lambda: script(keys=[DEADLINES], args=[now, score, limit], client=client))
        return [(member.decode(), score) for member in found]

    def release(self, session_id: str, lease: Any, wake: int | None) -> None:
        """Hand the session back: look again at ``wake`` (None: no clock runs, forget it)."""
        script = self._script("release", _RELEASE)
        client = self._client()
        args = [session_id, lease, "" if wake is None else wake]
        guarded(lambda: script(keys=[DEADLINES], args=args, client=client))

    def set_clock(
        self, keys: list[str], version: int, old: bytes, new: bytes, keep_s: int | None
    ) -> str:
        """Write only the clock of the session hash ``keys[0]`` if its version and clock are still
        ``version`` and ``old``: ``ok``, ``conflict`` or ``missing``. With ``keep_s``, each of
        the session's ``keys`` that expires sooner then lives ``keep_s`` seconds (never less than
        before: an admin's call is no move, and does not refresh the idle time-to-live)."""
        script = self._script("set_clock", _SET_CLOCK)
        client = self._client()
        args = [str(version), old, new, "" if keep_s is None else str(keep_s)]
        # an answer lost after the script was sent is OutcomeUnknown: add-time sent again on a
        # 503 that said "nothing was written" gave the seat its time twice
        found = guarded_write(lambda: script(keys=keys, args=args, client=client))
        return found.decode() if isinstance(found, bytes) else str(found)

    def score(self, session_id: str) -> float | None:
        """The session's wake-up time (tests, bench)."""
        client: redis.Redis = self._client()
        return guarded(lambda: client.zscore(DEADLINES, session_id))
