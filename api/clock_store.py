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
any move, so it never lands twice nor after the move it would have replaced.

Time the service could not referee is nobody's time (README "Turn clocks", "Downtime"). Every
claim is also the timekeepers' heartbeat: :data:`HEARTBEAT`, a hash beside the set, holds ``at``,
the time of the last poll of any timekeeper. A claim that finds ``at`` older than the outage
threshold (:data:`OUTAGE_MS`) records a downtime, field ``downtime:<at>`` = its own time, in the
same atomic step as it moves ``at`` on, so however many timekeepers poll at once, one downtime
is recorded, once. While a downtime is recorded, no claim claims anything: the claim that finds
it first takes the walk for a lease (field ``walker``, as a claim takes a session) and gets the
downtimes to move every running clock past (``api.clock_downtime``); the others claim nothing
until the walker says it is done (:data:`_WALKED`), or its lease ends and the next claim takes
the walk over. So no timeout found due while the heartbeat was stale fires before the clocks
have moved past it. The first claim on a store without a heartbeat records none (first start).

The set and the heartbeat are two keys of one Redis Cluster slot: the heartbeat's name has the
set's whole name as its hash tag. The scripts touch those two keys only.

A session's keys expire when it has been idle for ``SESSION_TTL_SECONDS``, but a running clock
must outlive its next deadline, however far the admin's add-time or Fischer's increments have
pushed it: every write of a clock that runs keeps the session's keys alive for that idle time
counted from the deadline (:func:`lifetime_s`; the commit of a move or timeout, the creation,
and :data:`_SET_CLOCK`, which only ever lengthens a key's life). Else the session would vanish
(404) instead of timing out. Counted from the deadline, not a fixed margin past it: the deadline
is when the session next acts, by its timekeeper's write, and a timekeeper that cannot write then
(the store full or down: downtime, nobody's time) must find the session there when it can, however
long that took within the idle time (a full store lasted minutes in a hunt, and a minute's margin
lost the session).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

import redis

from api.store import guarded, guarded_write

__all__ = [
    "DEADLINES",
    "HEARTBEAT",
    "LEASE_MS",
    "OUTAGE_MS",
    "ClockWrite",
    "ClockDeadlines",
    "Claim",
    "Downtime",
    "claimed_at",
    "lifetime_s",
]

DEADLINES = "referee:clock:deadlines"
HEARTBEAT = "{referee:clock:deadlines}:heartbeat"
"""The timekeepers' heartbeat and the downtimes not yet walked (see the module). Its hash tag is
the deadline set's whole name, so both keys live on one Redis Cluster slot and one script may
touch both."""
LEASE_MS = 5_000
"""How long a claim holds a session for its worker; a dead worker's claims come back after it.
The walk over a downtime is held the same way."""
OUTAGE_MS = 10_000
"""The outage threshold: a poll that finds that no timekeeper has polled for longer than this
records the time since as downtime, nobody's time (see the module). Well above ``CLOCK_POLL_MS``
(100 ms by default; a keeper that polls less often waits longer, ``clock_keeper.outage_ms``), a
GC pause and a store blip the timekeepers ride out: time as usual."""

_CLAIM = """
local now = tonumber(ARGV[1])
local at = redis.call('HGET', KEYS[2], 'at')
if at and now - tonumber(at) > tonumber(ARGV[4]) then
  redis.call('HSET', KEYS[2], 'downtime:' .. at, ARGV[1])
end
if not at or now > tonumber(at) then
  redis.call('HSET', KEYS[2], 'at', ARGV[1])
end
local fields = redis.call('HGETALL', KEYS[2])
local found = {'walk'}
local walker = nil
for i = 1, #fields, 2 do
  if string.sub(fields[i], 1, 9) == 'downtime:' then
    found[#found + 1] = string.sub(fields[i], 10)
    found[#found + 1] = fields[i + 1]
  elseif fields[i] == 'walker' then
    walker = fields[i + 1]
  end
end
if #found > 1 then
  if walker and tonumber(walker) > now then
    return {'wait'}
  end
  redis.call('HSET', KEYS[2], 'walker', ARGV[5])
  return found
end
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
for _, member in ipairs(due) do
  redis.call('ZADD', KEYS[1], ARGV[2], member)
end
table.insert(due, 1, 'claim')
return due
"""

_RENEW_WALK = """
if redis.call('HGET', KEYS[1], 'walker') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'walker', ARGV[2])
local at = redis.call('HGET', KEYS[1], 'at')
if not at or tonumber(ARGV[3]) > tonumber(at) then
  redis.call('HSET', KEYS[1], 'at', ARGV[3])
end
return 1
"""

_WALKED = """
if redis.call('HGET', KEYS[1], 'walker') ~= ARGV[1] then return 0 end
for i = 2, #ARGV do
  redis.call('HDEL', KEYS[1], 'downtime:' .. ARGV[i])
end
redis.call('HDEL', KEYS[1], 'walker')
return 1
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
    is ``wake`` is written: its idle time-to-live ``ttl_s``, counted from that deadline when it
    is later (see the module)."""
    if wake is None:
        return ttl_s
    return ttl_s + max(0, -(-(wake - now) // 1000))


def claimed_at(lease: str) -> int:
    """When the claim that took ``lease`` (:meth:`ClockDeadlines.claim`) polled: its time (ms
    since the epoch), and the heartbeat it left."""
    return int(lease.split(".", 1)[0]) - LEASE_MS


def _lease(now: int) -> str:
    """A lease from ``now``: its end, and a random fraction of a millisecond that tells this
    claim's lease from another worker's."""
    return f"{now + LEASE_MS}.{secrets.randbelow(10**6):06d}"


@dataclass(frozen=True, slots=True)
class Downtime:
    """Time no timekeeper polled (ms since the epoch): from the last poll before (``start``) to
    the poll that found it (``end``)."""

    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Claim:
    """What a poll of the deadline set got: the sessions it claimed, each with its lease; or,
    while downtimes are recorded, none, and with ``walker`` (a lease) the downtimes this poll
    must move the running clocks past (``api.clock_downtime``) before anything is claimed, or
    without (another timekeeper walks) nothing to do."""

    sessions: list[tuple[str, str]] = field(default_factory=list)
    downtimes: list[Downtime] = field(default_factory=list)
    walker: str | None = None


def _claim(found: list[bytes], lease: str, walker: str) -> Claim:
    """The :class:`Claim` of the claim script's answer (``found``)."""
    kind, rest = found[0].decode(), [item.decode() for item in found[1:]]
    if kind == "claim":
        return Claim(sessions=[(member, lease) for member in rest])
    if kind == "wait":
        return Claim()
    pairs = sorted((int(rest[i]), int(rest[i + 1])) for i in range(0, len(rest), 2))
    return Claim(downtimes=[Downtime(start, end) for start, end in pairs], walker=walker)


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

    def claim(self, now: int, limit: int, outage_ms: int = OUTAGE_MS) -> Claim:
        """One poll of a timekeeper at ``now``: its heartbeat, and a downtime recorded when no
        timekeeper polled for more than ``outage_ms``; then, unless a downtime is recorded and
        not yet walked, up to ``limit`` sessions whose wake-up time has come, claimed (see the
        module)."""
        lease, walker = _lease(now), _lease(now)
        script = self._script("claim", _CLAIM)
        client = self._client()
        args = [now, lease, limit, outage_ms, walker]
        found = guarded(lambda: script(keys=[DEADLINES, HEARTBEAT], args=args, client=client))
        return _claim(found, lease, walker)

    def renew_walk(self, walker: str, now: int) -> str | None:
        """The walker's lease from ``now`` (its heartbeat too), or None when the walk is no longer
        its own (its lease ended and another timekeeper took the walk over)."""
        renewed = _lease(now)
        script = self._script("renew_walk", _RENEW_WALK)
        client = self._client()
        args = [walker, renewed, now]
        done = guarded(lambda: script(keys=[HEARTBEAT], args=args, client=client))
        return renewed if done else None

    def walked(self, walker: str, downtimes: list[Downtime]) -> bool:
        """Every running clock is past ``downtimes``: forget them and end the walk, if the walk
        is still ``walker``'s (else another timekeeper walks them again, which moves nothing
        twice: ``api.clock.past_downtime``)."""
        script = self._script("walked", _WALKED)
        client = self._client()
        args = [walker, *(d.start for d in downtimes)]
        return bool(guarded(lambda: script(keys=[HEARTBEAT], args=args, client=client)))

    def scan(self, cursor: int, count: int) -> tuple[int, list[str]]:
        """A batch of the set's members (``ZSCAN``: every member there from the first call to the
        last is returned at least once), and the cursor of the next batch (0: the last)."""
        client = self._client()
        following, found = guarded(lambda: client.zscan(DEADLINES, cursor, count=count))
        return int(following), [member.decode() for member, _ in found]

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
        the session's ``keys`` that expires sooner then lives ``keep_s`` seconds, never less than
        before (``lifetime_s``: a running clock keeps its session for the idle time-to-live
        counted from its next deadline, whoever writes it; a pause writes no deadline, and so
        keeps nothing longer)."""
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
