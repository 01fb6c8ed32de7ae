"""Sessions in Redis: the data model and its atomic operations. No Flask here.

Every key of one session carries the session id as a Redis Cluster hash tag, so a session lives
on one slot and a Lua script may touch all of its keys:

| key                                   | type   | holds                                                  |
| ------------------------------------- | ------ | ------------------------------------------------------ |
| ``referee:{<id>}:session``            | hash   | ``seats`` (player -> token hash, human seats only), ``admin`` (token hash), ``version``, ``state``, ``created_at``, ``updated_at``, ``bots`` (player -> level; absent: none), ``bot_seed``, ``fairness`` (seed, salt, open: ``api.fairness``; shown only as its public part), ``options`` (as created), ``clock`` (``api.clock``; absent: none), ``origin`` (what a record needs besides the history: start digest and rules version, a fork's start, ``forked_from``), ``takeback`` (the pending takeback) and ``takeback:<id>:<seat>`` (its answers), ``reply:<seat>:<digest>`` (the move, as JSON, a bot seat made at the state of that ``rules.records.state_digest``: ``api.bot_seats`` makes it again there; one per bot move, about 200 bytes); after DELETE only the tombstone: ``admin`` and ``seats``, no ``version`` (so ``load`` finds no session) |
| ``referee:{<id>}:history``            | list   | one entry per move; entry ``i`` made version ``i + 1``  |
| ``referee:{<id>}:record:public``       | list   | entry ``i`` as the public sees it (``""``: as in the history); only when kept from version 0 |
| ``referee:{<id>}:record:<n>``          | list   | entry ``i`` as the seat ``players[n]`` sees it (``""``: as the public, ``"*"``: as in the history); ``n`` < ``RECORD_SEATS`` |
| ``referee:{<id>}:idempotency``        | hash   | ``answer_field(seat, Idempotency-Key)`` -> ``"<version> <request digest>"``: the version its move (or takeback) made |
| ``referee:{<id>}:idempotency_at``     | zset   | the same fields, scored by when their move landed (ms since the epoch) |

Remembered answers are compact (issues 23 and 24): a key costs its 32-character field twice, the
version and a 32-character digest of the request, whatever the answer's size. A retry rebuilds
the answer from the history entry of that version (its events, redacted for the seat) and the
session as it is now (``api.sessions``). A key is remembered for ``idempotency_window`` seconds
(24 h by default) after its move, however many other keys come in between; every commit forgets
keys older than that (oldest first, at most ``PRUNE_BATCH`` a commit), and a key older than the
window counts as unknown even before it is pruned. Versions before these keys kept whole answers
in ``answers``/``answer_keys``; those are no longer read, expire with their session, and are
deleted with it.

A deleted session leaves its tombstone (the token hashes, nothing else) for one time-to-live, so
a token-needing request to it can still tell a stranger (401) from its own seat or admin (404).

Beside them, two keys for all sessions: ``referee:clock:deadlines`` and the timekeepers'
heartbeat ``{referee:clock:deadlines}:heartbeat`` (``api.clock_store``).

The ``record`` lists are what each reader's record shows of each version, kept at commit time
(``rules.records.entry_views``): a view depends only on the entry and its reader, so it never
changes once written, and a record is read in one script (``record_entries``) instead of being
parsed and redacted again on each export (``docs/records.md``, "Cost"). Most views are the same
as another one (Reign Supreme's moves are public; a seat sees its own moves whole), and those are
one or zero bytes. A session whose lists do not hold every version (created before they were kept)
is redacted from its history instead.

And the pub/sub channel ``referee:{<id>}:events`` carries each new history entry (or
``{"deleted": true}``, a takeback's ``takeback_news``, a clock's ``clock_news``). All of a
session's keys share one idle time-to-live, refreshed by every move; a session whose clock runs
lives at least until its next deadline can fire (``api.clock_store.lifetime_s``), whatever wrote
the clock (a move, the admin, a grace).

A move is committed by one Lua script: it checks that the version is still the one the move was
computed on (compare-and-set), and that the Idempotency-Key has not been answered meanwhile,
then writes state, version, history entry and remembered key and publishes the entry. So two
racing moves can never both land, and a retried request never applies twice. Its first write is
the session hash: a store over ``maxmemory`` refuses that one (``OOM``) before anything is
written, whereas a script that has written something is let through to its end (Redis cannot
stop it midway), so nothing that frees memory may come first.
"""  # noqa: E501 - a Markdown table above keeps one row a line

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, NamedTuple

import redis
from redis.typing import EncodableT, FieldT

from api import jsonio
from api.clock_store import ClockDeadlines, ClockWrite, lifetime_s
from api.store import Store, StoreUnavailable, guarded, guarded_write
from rules.records import entry_views, make_entry
from rules.registry import get_game

log = logging.getLogger(__name__)

__all__ = [
    "SessionStore",
    "Session",
    "Tombstone",
    "SessionGone",
    "Committed",
    "Conflict",
    "Replay",
    "Withdrawn",
    "TakebackAnswers",
    "Remembered",
    "DIGEST_CHARS",
    "PRUNE_BATCH",
    "RECORD_SEATS",
    "record_views",
    "StateTooLarge",
    "PLAY_GROWTH",
    "new_token",
    "token_hash",
    "valid_session_id",
    "KEY_PREFIX",
    "now",
    "history_entry",
]

KEY_PREFIX = "referee:"
DIGEST_CHARS = 32
"""Hex characters (128 bits) of SHA-256 kept for an Idempotency-Key's field and its request's
digest: collisions are out of reach, and a field and a value stay short enough for Redis's
compact encoding of small hashes (64 bytes)."""
PRUNE_BATCH = 64
"""Keys past the idempotency window that one commit forgets at most (the rest at the next)."""
RECORD_SEATS = 4
"""Seats whose record views a session keeps (every game seats at most four; a session with more
would be redacted from its history on each export)."""
AS_PUBLIC = b""
"""A seat's kept view that is the public one (and a public view that is the history's entry)."""
AS_WHOLE = b"*"
"""A seat's kept view that is the history's entry (its own move, say): never JSON (``{``)."""

_COMMIT = """
local field = ARGV[6]
if field ~= '' then
  local prior = redis.call('HGET', KEYS[3], field)
  if prior then
    local at = redis.call('ZSCORE', KEYS[4], field)
    if at and tonumber(at) >= tonumber(ARGV[10]) then return {'replay', prior} end
  end
end
local version = redis.call('HGET', KEYS[1], 'version')
if not version then return {'missing', ''} end
if version ~= ARGV[1] then return {'conflict', version} end
if ARGV[12] ~= '' and redis.call('HGET', KEYS[1], 'clock') ~= ARGV[12] then
  return {'conflict', version}
end
if ARGV[14] ~= '' then
  local pending = redis.call('HGET', KEYS[1], 'takeback')
  if not pending or cjson.decode(pending)['takeback_id'] ~= ARGV[14] then
    return {'withdrawn', version}
  end
end
local made = tostring(tonumber(version) + 1)
local ttl = tonumber(ARGV[5])
-- The first write: one HSET (a full store refuses it before anything is written).
local fields = {'version', made, 'state', ARGV[2], 'updated_at', ARGV[3]}
if ARGV[12] ~= '' then
  table.insert(fields, 'clock')
  table.insert(fields, ARGV[13])
end
if ARGV[15] ~= '' then
  table.insert(fields, ARGV[15])
  table.insert(fields, ARGV[16])
end
redis.call('HSET', KEYS[1], unpack(fields))
redis.call('RPUSH', KEYS[2], ARGV[4])
redis.call('EXPIRE', KEYS[1], ttl)
redis.call('EXPIRE', KEYS[2], ttl)
local views = tonumber(ARGV[17])
if views > 0 and redis.call('LLEN', KEYS[5]) == tonumber(version) then
  for i = 0, views - 1 do
    redis.call('RPUSH', KEYS[5 + i], ARGV[18 + i])
    redis.call('EXPIRE', KEYS[5 + i], ttl)
  end
end
local old = redis.call('ZRANGEBYSCORE', KEYS[4], '-inf', '(' .. ARGV[10], 'LIMIT', 0, ARGV[11])
if #old > 0 then
  redis.call('HDEL', KEYS[3], unpack(old))
  redis.call('ZREM', KEYS[4], unpack(old))
end
if field ~= '' then
  redis.call('HSET', KEYS[3], field, made .. ' ' .. ARGV[7])
  redis.call('ZADD', KEYS[4], ARGV[9], field)
end
redis.call('EXPIRE', KEYS[3], ttl)
redis.call('EXPIRE', KEYS[4], ttl)
redis.call('PUBLISH', ARGV[8], ARGV[4])
return {'ok', made}
"""

_RECORD = """
local v = tonumber(ARGV[1])
local history = redis.call('LRANGE', KEYS[1], 0, v - 1)
if #history < v then return {-1, ''} end
if ARGV[2] == 'whole' then return {1, table.concat(history, ',')} end
local public = redis.call('LRANGE', KEYS[2], 0, v - 1)
if #public < v then return {0, ''} end
local seat = nil
if #KEYS > 2 then
  seat = redis.call('LRANGE', KEYS[3], 0, v - 1)
  if #seat < v then return {0, ''} end
end
local out = {}
for i = 1, v do
  local shown = seat and seat[i] or ''
  if shown == '*' then
    shown = history[i]
  elseif shown == '' then
    shown = public[i]
    if shown == '' then shown = history[i] end
  end
  out[i] = shown
end
return {1, table.concat(out, ',')}
"""

_PROPOSE = """
local version = redis.call('HGET', KEYS[1], 'version')
if not version then return 3 end
if version ~= ARGV[1] then return 0 end
local prior = redis.call('HGET', KEYS[1], 'takeback')
local old = prior and cjson.decode(prior)
if old then
  local mark = old['proposal']
  if ARGV[3] ~= '' and type(mark) == 'string' and string.match(mark, '^(%S+)') == ARGV[3] then
    return 2
  end
end
-- The HSET first: a full store refuses a script's first write that needs memory (and nothing
-- is written); a deletion first would let the rest through.
redis.call('HSET', KEYS[1], 'takeback', ARGV[2])
if old then
  for _, seat in ipairs(old['waiting_on']) do
    redis.call('HDEL', KEYS[1], 'takeback:' .. old['takeback_id'] .. ':' .. seat)
  end
end
return 1
"""

_ANSWER = """
if not redis.call('HGET', KEYS[1], 'version') then return {'gone'} end
local raw = redis.call('HGET', KEYS[1], 'takeback')
if not raw then return {} end
local takeback = cjson.decode(raw)
if takeback['takeback_id'] ~= ARGV[1] then return {} end
local prefix = 'takeback:' .. ARGV[1] .. ':'
local recorded = '0'
if ARGV[2] ~= '' and not redis.call('HGET', KEYS[1], prefix .. ARGV[2]) then
  redis.call('HSET', KEYS[1], prefix .. ARGV[2], ARGV[3])
  recorded = '1'
end
local out = {raw, redis.call('HGET', KEYS[1], 'version') or '', recorded}
for _, seat in ipairs(takeback['waiting_on']) do
  table.insert(out, redis.call('HGET', KEYS[1], prefix .. seat) or '')
end
return out
"""

_DELETE = """
local admin = redis.call('HGET', KEYS[1], 'admin')
local seats = redis.call('HGET', KEYS[1], 'seats')
local gone = redis.call('DEL', unpack(KEYS))
if admin then
  redis.call('HSET', KEYS[1], 'admin', admin, 'seats', seats or '{}')
  redis.call('EXPIRE', KEYS[1], tonumber(ARGV[3]))
end
redis.call('PUBLISH', ARGV[1], ARGV[2])
return gone
"""


def _reads(client: Any, *commands: tuple[Any, ...]) -> list[Any]:
    """The answers of read ``commands``, sent in one round trip and run in order. Not a MULTI
    transaction: Redis refuses every command queued in one while it is over ``maxmemory``, reads
    included, and a full store must still be read (README, "Memory": reading, streaming
    and a retry's first answer keep working). Each caller says why its reads need no
    isolation."""
    with client.pipeline(transaction=False) as pipe:
        for command in commands:
            pipe.execute_command(*command)
        return list(pipe.execute())


def new_token() -> str:
    """An unguessable bearer token (256 random bits)."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """What is stored instead of a token. Tokens carry 256 random bits, so a plain SHA-256
    (no salt, no stretching) cannot be reversed or guessed."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def now() -> str:
    """The time stamp of history entries and of the session hash: UTC, milliseconds, ``Z``."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def history_entry(
    version: int,
    player: str,
    move: dict[str, Any],
    events: list[dict[str, Any]],
    state: dict[str, Any],
) -> dict[str, Any]:
    """The history entry (and stream message) of the move that makes ``version``, ``state`` the
    state it makes; the same for a seat's posted move and a bot seat's. It is the record's entry
    (``rules.records.make_entry``): the state's digest is kept with it (never shown in the
    history; the record shows it)."""
    return make_entry(version, player, move, events, now(), state)


def record_views(state: dict[str, Any], entry: dict[str, Any]) -> list[bytes]:
    """What ``SessionStore.commit`` keeps of ``entry`` (made ``state``) for the record: the
    public view, then each seat's, in ``players`` order, each ``AS_PUBLIC``/``AS_WHOLE`` when it
    is the same as that one (so most are empty). ``[]`` for more than ``RECORD_SEATS`` seats.
    ValueError when the history's entry is not exactly its own whole view (a field the record
    does not know): a finished game's record is read straight from the history."""
    players = state["players"]
    if len(players) > RECORD_SEATS:
        return []
    whole, public, seats = entry_views(get_game(state["game"]), entry, players)
    stored, whole_json = jsonio.dumps(entry), jsonio.dumps(whole)
    if whole_json != stored:
        raise ValueError("a history entry must be exactly its record entry (rules.records)")
    public_json = jsonio.dumps(public)
    views = [AS_PUBLIC if public_json == stored else public_json]
    for seat in seats:
        seat_json = jsonio.dumps(seat)
        views.append(
            AS_PUBLIC
            if seat_json == public_json
            else AS_WHOLE
            if seat_json == stored
            else seat_json
        )
    return views


def valid_session_id(session_id: str) -> bool:
    return 1 <= len(session_id) <= 64 and all(
        c.isascii() and (c.isalnum() or c in "-_") for c in session_id
    )


@dataclass(frozen=True, slots=True)
class Session:
    """One session as read from Redis (the state already parsed)."""

    id: str
    seat_hashes: dict[str, str]
    admin_hash: str
    version: int
    state: dict[str, Any]
    bots: dict[str, str] = field(default_factory=dict)
    """The bot seats: player -> level (``api.bot_seats`` moves for them)."""
    bot_seed: int = 0
    """Where the bot seats' seeds come from (``api.bot_seats.move_seed``)."""
    fairness: bytes | None = None
    """The stored seed, salt and openness (``api.fairness.Fairness.from_stored``); secret."""
    options: dict[str, Any] = field(default_factory=dict)
    """The options the session was created with (public: the game everyone agreed to play)."""
    clock: bytes | None = None
    """The session's turn clock as stored (JSON of ``api.clock.Clock``); None without one."""
    origin: dict[str, Any] = field(default_factory=dict)
    """What the record needs besides the history (``api.records``): ``start_digest`` and
    ``schema_version`` (version 0's rules version; not kept before it was), and for a fork
    ``start`` and ``forked_from``; ``{}`` for a session created before records."""
    created_at: str | None = None
    """When version 0 was written (``now()``'s form); the time the clocks started."""

    @property
    def game(self) -> str:
        return self.state["game"]

    @property
    def players(self) -> list[str]:
        return self.state["players"]

    def seat_of(self, token: str) -> str | None:
        """The player whose seat ``token`` opens, compared in constant time; None if none."""
        presented = token_hash(token)
        found = None
        for player, stored in self.seat_hashes.items():
            if hmac.compare_digest(presented, stored):  # no early exit: every seat is compared
                found = player
        return found

    def is_admin(self, token: str) -> bool:
        return hmac.compare_digest(token_hash(token), self.admin_hash)


@dataclass(frozen=True, slots=True)
class Tombstone:
    """What a deleted session leaves: its token hashes only (no state, history or answers)."""

    seat_hashes: dict[str, str]
    admin_hash: str

    def knows(self, token: str) -> bool:
        """Whether ``token`` was the deleted session's admin or one of its seat tokens."""
        presented = token_hash(token)
        known = hmac.compare_digest(presented, self.admin_hash)
        for stored in self.seat_hashes.values():
            known = hmac.compare_digest(presented, stored) or known
        return known


class SessionGone(Exception):
    """The session was deleted or expired while a request was reading it: its version is gone,
    or its history is shorter than its version says (a session's keys go together, so only a
    session that went leaves a short read). Raised by the reads of a session's history and
    takebacks instead of an answer that is short or empty; the API answers it as for any
    session that is not there, 404 ``unknown_session`` (contract: a deleted or expired session
    is 404)."""

    def __init__(self, session_id: str) -> None:
        super().__init__(f"session {session_id} was deleted or expired while it was read")
        self.session_id = session_id


@dataclass(frozen=True, slots=True)
class Committed:
    version: int


@dataclass(frozen=True, slots=True)
class Conflict:
    current: int | None
    """The version the session is at now; None when the session is gone."""


class TakebackAnswers(NamedTuple):
    """A pending takeback as ``SessionStore.answer_takeback`` reads it."""

    takeback: dict[str, Any]
    version: int
    """The session's version."""
    answers: dict[str, str]
    """Seat -> ``accept`` or ``decline``, for the seats that answered."""
    recorded: bool
    """Whether this call recorded its seat's answer (a seat's first answer stands)."""


@dataclass(frozen=True, slots=True)
class Withdrawn:
    """The takeback a commit was to land is no longer the session's pending one: a new proposal
    replaced it after its last accept was recorded (nothing was written)."""


@dataclass(frozen=True, slots=True)
class Remembered:
    """What a session remembers of an Idempotency-Key: the version its move made, and the digest
    of the request that made it (a retry must be the same request)."""

    version: int
    digest: str

    @classmethod
    def parse(cls, raw: bytes) -> Remembered:
        version, _, digest = raw.decode().partition(" ")
        return cls(int(version), digest)


@dataclass(frozen=True, slots=True)
class Replay:
    remembered: Remembered
    """The Idempotency-Key was answered meanwhile (by another request with it)."""


PLAY_GROWTH = 2
"""A session's state may grow during play to this many times ``max_state_bytes``, the limit of
the state a session is created with (issue 28, a leak): a limit on the state a move makes would
refuse one move and not another by the state's size, which depends on hidden choices (Reign &
Ruin keeps a round's draft picks twice until the round ends; a custom deck's ids may differ in
length), and the refusal, probed without writing anything, told another player which cards were
kept. No game's state comes near twice its size at the start (``tests/sessions/
test_state_growth.py`` plays each with the longest ids its custom content allows), so a refusal of
a move is only a safety net against a runaway state, never the answer to a hidden choice."""


class StateTooLarge(Exception):
    """A session state over the stored-state limit (``MAX_SESSION_STATE_BYTES`` for a new
    session, :data:`PLAY_GROWTH` times it for a move); nothing written. The size is for the
    service's log only: it can tell hidden choices apart, so no answer carries it."""

    def __init__(self, size: int, limit: int) -> None:
        super().__init__(f"the state is {size} bytes; a session stores at most {limit}")
        self.size = size
        self.limit = limit


_LOADED = (
    "seats",
    "admin",
    "version",
    "state",
    "bots",
    "bot_seed",
    "fairness",
    "options",
    "clock",
    "origin",
    "created_at",
)
"""The fields of the session hash a ``Session`` is made of, in ``_session``'s order (never a
bot's remembered replies: ``SessionStore.reply`` reads one)."""


def _session(session_id: str, values: list[Any]) -> Session | None:
    """The ``Session`` of the ``_LOADED`` fields read; None when it has no version (none, or
    deleted: a tombstone)."""
    seats, admin, version, state, bots, bot_seed, fairness, options, clock, origin, created = values
    if version is None:
        return None
    return Session(
        session_id,
        jsonio.loads(seats),
        admin.decode(),
        int(version),
        jsonio.loads(state),
        jsonio.loads(bots) if bots else {},
        int(bot_seed or 0),
        fairness,
        jsonio.loads(options) if options else {},
        clock,
        jsonio.loads(origin) if origin else {},
        created.decode() if created else None,
    )


_COMMITTED = 5 + RECORD_SEATS
"""The keys the commit script takes: session, history, idempotency, idempotency_at, the public
record view and the seats' record views."""


class SessionStore:
    """Sessions over a :class:`~api.store.Store` (a lazily connected Redis client).

    Quotas (issue 13): a session is created with a state of at most ``max_state_bytes`` of JSON,
    and its states grow to at most :data:`PLAY_GROWTH` times that. An Idempotency-Key
    is remembered for ``idempotency_window`` seconds after its move (issue 24: never forgotten
    for other keys coming in), compactly (issue 23). ``clock`` gives the time in seconds since
    the epoch (tests move it on)."""

    def __init__(
        self,
        store: Store,
        ttl_seconds: int,
        max_state_bytes: int = 262_144,
        idempotency_window: int = 86_400,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.ttl = ttl_seconds
        self.max_state_bytes = max_state_bytes
        self.idempotency_window = idempotency_window
        self.clock = clock
        self._scripts: dict[str, Any] = {}
        self.deadlines = ClockDeadlines(store.writer)
        """The clocks' shared deadline set (``api.clock_store``)."""

    # -- keys -----------------------------------------------------------------------------
    @staticmethod
    def key(session_id: str, part: str) -> str:
        return f"{KEY_PREFIX}{{{session_id}}}:{part}"

    def channel(self, session_id: str) -> str:
        return self.key(session_id, "events")

    def keys(self, session_id: str) -> list[str]:
        """Every key of a session: the ones the commit script takes (``_COMMITTED``), in its
        order, then the remembered answers of earlier versions (deleted with the session)."""
        return [
            self.key(session_id, "session"),
            self.key(session_id, "history"),
            self.key(session_id, "idempotency"),
            self.key(session_id, "idempotency_at"),
            self.key(session_id, "record:public"),
            *(self.key(session_id, f"record:{n}") for n in range(RECORD_SEATS)),
            self.key(session_id, "answers"),
            self.key(session_id, "answer_keys"),
        ]

    @staticmethod
    def answer_field(player: str, idempotency_key: str) -> str:
        """The field of a seat's Idempotency-Key: keys are per seat, and neither the key nor the
        seat is stored as such."""
        return hashlib.sha256(
            f"{player}\0{idempotency_key}".encode("utf-8", "surrogatepass")
        ).hexdigest()[:DIGEST_CHARS]

    def _window(self) -> tuple[int, int]:
        """Now and the start of the idempotency window, in ms since the epoch."""
        now_ms = int(self.clock() * 1000)
        return now_ms, now_ms - self.idempotency_window * 1000

    def _script(self, name: str, source: str) -> Any:
        script = self._scripts.get(name)
        if script is None:
            script = self._scripts[name] = self._client().register_script(source)
        return script

    def _client(self) -> redis.Redis:
        return self.store.client()

    # -- create, read, delete ------------------------------------------------------------------
    def create(
        self,
        state: dict[str, Any],
        now: str,
        bots: Mapping[str, str] | None = None,
        bot_seed: int = 0,
        fairness: bytes | None = None,
        options: Mapping[str, Any] | None = None,
        clock: ClockWrite | None = None,
        origin: Mapping[str, Any] | None = None,
    ) -> tuple[str, dict[str, str], str]:
        """A new session at version 0: its id, a token per human seat and the admin token.
        ``bots`` (player -> level) are the seats the service plays; they get no token. A
        ``clock`` is stored with it, its first deadline in the shared set first. ``origin`` is
        kept for the session's record (``Session.origin``). Written through ``Store.writer()``
        (never retried): StoreUnavailable when it surely was not written, OutcomeUnknown when
        Redis stopped answering after it was sent (the session may exist; its id and tokens are
        in this answer only)."""
        stored = self._stored(state, self.max_state_bytes)
        bots = dict(bots or {})
        seats = {player: new_token() for player in state["players"] if player not in bots}
        admin = new_token()
        session_id = secrets.token_urlsafe(16)  # 128 random bits: ids never collide
        key = self.key(session_id, "session")
        fields: dict[FieldT, EncodableT] = {
            "seats": jsonio.dumps({p: token_hash(t) for p, t in seats.items()}),
            "admin": token_hash(admin),
            "version": "0",
            "state": stored,
            "created_at": now,
            "updated_at": now,
        }
        if bots:
            fields.update({"bots": jsonio.dumps(bots), "bot_seed": str(bot_seed)})
        if fairness is not None:
            fields["fairness"] = fairness
        if options:
            fields["options"] = jsonio.dumps(dict(options))
        if clock is not None:
            fields["clock"] = clock.new
            if clock.wake is not None:
                self.deadlines.lower(session_id, clock.wake)
        if origin:
            fields["origin"] = jsonio.dumps(dict(origin))
        writer = self.store.writer()
        ttl = self._lifetime(clock)

        def write() -> None:
            with writer.pipeline(transaction=True) as pipe:
                pipe.hset(key, mapping=fields)
                pipe.expire(key, ttl)
                pipe.execute()

        guarded_write(write)  # an answer lost after the write was sent: OutcomeUnknown
        return session_id, seats, admin

    def _lifetime(self, clock: ClockWrite | None) -> int:
        """The seconds a session's keys live from a write of ``clock``: the idle time-to-live,
        or longer when the clock's next deadline is later (``api.clock_store``)."""
        wake = clock.wake if clock is not None else None
        return lifetime_s(self.ttl, wake, int(self.clock() * 1000))

    def set_clock(self, session_id: str, version: int, clock: ClockWrite) -> str:
        """Write only the session's clock (``clock.new``) if its version and clock are still
        ``version`` and ``clock.old`` (the admin's ``/clock``, a grace): ``ok``, ``conflict`` or
        ``missing``. Its keys then live until the clock's next deadline can fire, at least."""
        keep = None if clock.wake is None else self._lifetime(clock)
        return self.deadlines.set_clock(self.keys(session_id), version, clock.old, clock.new, keep)

    @staticmethod
    def _stored(state: dict[str, Any], limit: int) -> bytes:
        """The state as stored; StateTooLarge over ``limit`` bytes."""
        stored = jsonio.dumps(state)
        if len(stored) > limit:
            raise StateTooLarge(len(stored), limit)
        return stored

    def load(self, session_id: str) -> Session | None:
        """The session, or None when there is none (never created, expired or deleted)."""
        if not valid_session_id(session_id):
            return None
        client = self._client()
        values = guarded(lambda: client.hmget(self.key(session_id, "session"), _LOADED))
        return _session(session_id, values)

    def stored_clock(self, session_id: str) -> tuple[int, bytes] | None:
        """The session's version and clock as stored, for a clock-only write (``set_clock``);
        two fields, not the state. None for a session without a clock, or none at all."""
        client = self._client()
        key = self.key(session_id, "session")
        values: list[Any] = guarded(lambda: client.hmget(key, ("version", "clock")))
        version, clock = values
        if version is None or clock is None:
            return None
        return int(version), clock

    def tombstone(self, session_id: str) -> Tombstone | None:
        """The tombstone of a deleted session; None for a live, expired or never-created one."""
        if not valid_session_id(session_id):
            return None
        client = self._client()
        names = ("seats", "admin", "version")
        values: list[Any] = guarded(lambda: client.hmget(self.key(session_id, "session"), names))
        seats, admin, version = values
        if admin is None or version is not None:
            return None
        return Tombstone(jsonio.loads(seats or b"{}"), admin.decode())

    def delete(self, session_id: str) -> None:
        """Deletes the session's state, history and answers, leaving its tombstone for one TTL."""
        client = self._client()

        script = self._script("delete", _DELETE)
        args = [self.channel(session_id), jsonio.dumps({"deleted": True}), str(self.ttl)]
        guarded(lambda: script(keys=self.keys(session_id), args=args, client=client))

    # -- history ---------------------------------------------------------------------------
    def history(self, session_id: str, after: int, limit: int) -> tuple[int, list[dict[str, Any]]]:
        """The current version and up to ``limit`` history entries of versions after ``after``,
        read together. SessionGone when the session has no version (deleted or expired), or
        fewer entries than its version says exist: never a short page for a session that went.
        """
        client = self._client()
        version, entries = guarded(
            lambda: _reads(
                client,
                ("HGET", self.key(session_id, "session"), "version"),
                ("LRANGE", self.key(session_id, "history"), after, after + limit - 1),
            )
        )
        if version is None or len(entries) < min(limit, int(version) - after):
            raise SessionGone(session_id)
        # A version that landed between the two reads may have added an entry: the history
        # only grows, so the entries up to the version read are those it had then.
        entries = entries[: max(0, int(version) - after)]
        return int(version), [jsonio.loads(e) for e in entries]

    def all_history(self, session_id: str, version: int) -> list[dict[str, Any]]:
        """The entries of versions 1 to ``version`` (a version the session has reached), in pages.
        SessionGone when the session went meanwhile (``history``): never fewer entries."""
        entries: list[dict[str, Any]] = []
        while len(entries) < version:
            _, page = self.history(session_id, len(entries), min(version - len(entries), 1000))
            entries.extend(page)
        return entries[:version]

    def exists(self, session_id: str) -> bool:
        """Whether the session is still there (it has a version: not deleted, not expired); one
        field of its hash read, for a stream's heartbeat (``api.session_access.toucher``)."""
        client = self._client()
        key = self.key(session_id, "session")
        return bool(guarded(lambda: client.hexists(key, "version")))

    def record_entries(
        self, session_id: str, version: int, whole: bool, seat: int | None
    ) -> bytes | None:
        """The JSON of the entries of versions 1 to ``version``, comma-separated (a JSON array's
        inside), as the record shows them: ``whole`` (the history itself), else as the seat at
        index ``seat`` of ``players`` sees them, or the public (``seat`` None). One script, no
        entry parsed. None when the session did not keep its views from version 0 (then the
        caller redacts the history); SessionGone when its history is shorter than ``version``
        (it was deleted or expired since it was read at that version)."""
        if version == 0:
            return b""
        keys = [self.key(session_id, "history"), self.key(session_id, "record:public")]
        if seat is not None:
            if seat >= RECORD_SEATS:
                return None
            keys.append(self.key(session_id, f"record:{seat}"))
        script = self._script("record", _RECORD)
        args = [str(version), "whole" if whole else ""]
        found, joined = guarded(lambda: script(keys=keys, args=args, client=self._client()))
        if found == -1:
            raise SessionGone(session_id)
        return joined if found == 1 else None

    # -- takebacks -------------------------------------------------------------------------
    def propose_takeback(
        self, session_id: str, version: int, takeback: dict[str, Any], key_field: str = ""
    ) -> str:
        """Keep ``takeback`` as the session's pending takeback (replacing any other) if the session
        is still at ``version``: ``proposed``; ``moved_on`` when it is not; ``same_key`` (nothing
        replaced) when the pending one was proposed with the same Idempotency-Key (``key_field``,
        ``answer_field``): a retry sent while the first was on its way; SessionGone when the
        session was deleted or expired. A write whose outcome matters (through
        ``Store.writer()``): OutcomeUnknown when Redis stopped answering after it was sent."""
        script = self._script("propose", _PROPOSE)
        args = [str(version), jsonio.dumps(takeback), key_field]
        key = [self.key(session_id, "session")]
        writer = self.store.writer()
        found = guarded_write(lambda: script(keys=key, args=args, client=writer))
        if int(found) == 3:
            raise SessionGone(session_id)
        return {0: "moved_on", 1: "proposed", 2: "same_key"}[int(found)]

    def answer_takeback(
        self, session_id: str, takeback_id: str, seat: str | None = None, answer: str = ""
    ) -> TakebackAnswers | None:
        """Record ``seat``'s ``answer`` to the pending takeback ``takeback_id`` (a seat's first
        answer stands), and read it: the takeback, the session's version, the answers given so
        far (seat -> ``accept``/``decline``) and whether this call recorded its answer. None
        when it is not the pending one; SessionGone when the session was deleted or expired
        (nothing written). Without a seat, only reads. With one, a write whose outcome matters
        (``Store.writer()``): OutcomeUnknown when Redis stopped answering after it was sent."""
        script = self._script("answer", _ANSWER)
        args = [takeback_id, seat or "", answer]
        key = [self.key(session_id, "session")]
        if seat:
            writer = self.store.writer()
            out = guarded_write(lambda: script(keys=key, args=args, client=writer))
        else:
            out = guarded(lambda: script(keys=key, args=args, client=self._client()))
        if out == [b"gone"]:
            raise SessionGone(session_id)
        if not out:
            return None
        takeback = jsonio.loads(out[0])
        answers = {
            seat: value.decode()
            for seat, value in zip(takeback["waiting_on"], out[3:], strict=True)
            if value
        }
        return TakebackAnswers(takeback, int(out[1] or 0), answers, out[2] == b"1")

    def withdraw_answer(self, session_id: str, takeback_id: str, seat: str) -> bool:
        """Forget ``seat``'s answer to the takeback ``takeback_id``, which its request recorded
        before failing (a deletion: a full store allows it). Whether it is surely gone: False
        when the store failed here too (logged)."""
        client = self._client()
        key = self.key(session_id, "session")
        field = f"takeback:{takeback_id}:{seat}"
        try:
            guarded(lambda: client.hdel(key, field))
        except StoreUnavailable as err:
            log.warning("takeback answer of %s not withdrawn: %s", seat[:64], err)
            return False
        return True

    def pending_takeback(self, session_id: str, version: int) -> dict[str, Any] | None:
        """The takeback still waiting for answers at ``version``: proposed at that version, not
        declined, with the seats that have not accepted yet in ``waiting_on``. None when there
        is none (never proposed, declined, or made stale by a later version)."""
        latest = self.latest_takeback(session_id)
        if latest is None or latest["at_version"] != version:
            return None
        found = self.answer_takeback(session_id, latest["takeback_id"])
        if found is None or found.version != version or "decline" in found.answers.values():
            return None  # replaced, moved on or declined meanwhile
        takeback, answers = found.takeback, found.answers
        waiting = [p for p in takeback["waiting_on"] if answers.get(p) != "accept"]
        public = ("takeback_id", "to_version", "proposed_by")
        return {**{name: takeback[name] for name in public}, "waiting_on": waiting}

    def latest_takeback(self, session_id: str) -> dict[str, Any] | None:
        """The session's latest takeback proposal as stored, whatever became of it (pending,
        declined, stale or landed); None when none was proposed. A newer one replaces it."""
        client = self._client()
        key = self.key(session_id, "session")
        raw = guarded(lambda: client.hget(key, "takeback"))
        return None if raw is None else jsonio.loads(raw)

    def announce_takeback(self, session_id: str, takeback_id: str, status: str) -> None:
        """Tell the session's live streams that a takeback was proposed or declined (one that is
        accepted makes a version, announced as every version is)."""
        client = self._client()
        # Not "takeback": a committed takeback entry, published as every entry is, has that key.
        news = {"takeback_id": takeback_id, "status": status}
        message = jsonio.dumps({"takeback_news": news})
        guarded(lambda: client.publish(self.channel(session_id), message))

    def announce_clock(self, session_id: str, clock: dict[str, Any]) -> None:
        """Tell the session's live streams that its clock changed without a version (the admin's
        pause, resume or add_time; a grace): ``clock`` as an answer of that moment shows it
        (``api.clock.public``). A change that makes a version is in that version's entry."""
        client = self._client()
        # Not "clock": every history entry, published as it is committed, has that key.
        message = jsonio.dumps({"clock_news": clock})
        guarded(lambda: client.publish(self.channel(session_id), message))

    # -- moves -----------------------------------------------------------------------------
    @staticmethod
    def reply_field(seat: str, digest: str) -> str:
        """The session hash's field of ``seat``'s reply at the state of ``digest`` (a state
        digest ends the field: a seat with a ``:`` in its name cannot be read as another)."""
        return f"reply:{seat}:{digest}"

    def reply(self, session_id: str, seat: str, digest: str) -> dict[str, Any] | None:
        """The move the bot seat ``seat`` made the last time the session was at the state of
        ``digest`` (``commit``'s ``reply_to``), one field read; None when it never moved
        there (or the session is gone, or the move was made before replies were kept)."""
        client = self._client()
        key = self.key(session_id, "session")
        raw = guarded(lambda: client.hget(key, self.reply_field(seat, digest)))
        return None if raw is None else jsonio.loads(raw)

    def remembered(self, session_id: str, player: str, idempotency_key: str) -> Remembered | None:
        """What the session remembers of ``player``'s ``idempotency_key``; None when nothing, or
        when its move is older than the window."""
        client = self._client()
        field = self.answer_field(player, idempotency_key)
        _, since = self._window()
        # A key's field and its time are written together, and forgotten together; a key past
        # the window is written anew by the next request that uses it. Its time is read first:
        # a time from before such a rewrite is past the window (None), and a key forgotten
        # between the reads has no field (None). Read the other way round, an old field could
        # come with a new time.
        at, raw = guarded(
            lambda: _reads(
                client,
                ("ZSCORE", self.key(session_id, "idempotency_at"), field),
                ("HGET", self.key(session_id, "idempotency"), field),
            )
        )
        if raw is None or at is None or float(at) < since:
            return None
        return Remembered.parse(raw)

    def replay_source(self, session_id: str, version: int) -> tuple[Session, dict[str, Any]] | None:
        """The session now and the history entry that made ``version``, read together (what a
        replayed answer is rebuilt from); None when the session is gone."""
        client = self._client()
        # A history entry never changes once written; the session is read as of now anyway.
        values, entry = guarded(
            lambda: _reads(
                client,
                ("HMGET", self.key(session_id, "session"), *_LOADED),
                ("LINDEX", self.key(session_id, "history"), version - 1),
            )
        )
        session = _session(session_id, values)
        if session is None or entry is None:
            return None
        return session, jsonio.loads(entry)

    def commit(
        self,
        session_id: str,
        base_version: int,
        state: dict[str, Any],
        entry: dict[str, Any],
        now: str,
        idem: tuple[str, str] | None,
        digest: str | None,
        clock: ClockWrite | None = None,
        takeback_id: str = "",
        reply_to: str = "",
    ) -> Committed | Conflict | Replay | Withdrawn:
        """Write the move made on ``base_version``, atomically, unless the session moved on
        (``Conflict``) or the Idempotency-Key ``idem`` = (player, key) was answered meanwhile
        (``Replay``); ``digest`` (``DIGEST_CHARS`` hex characters) identifies the request, for
        a retry to be checked against. With a ``clock``, the clock is written too, and the
        session also counts as moved on when its clock is no longer ``clock.old`` (an admin
        paused it, say); the clock's next deadline goes into the shared set first
        (``api.clock_store``). With a ``takeback_id``, the commit lands that pending takeback:
        ``Withdrawn`` when it is pending no more (a proposal replaced it). With ``reply_to``, the
        digest of the state the move was made at (a bot seat's move), the move is remembered as
        the seat's reply there (``reply``), in the same first write. Raises
        StoreUnavailable when it surely did not happen (StoreFull when the store is over its
        memory limit), OutcomeUnknown when Redis stopped answering after the script was sent
        (it may have been applied)."""
        writer = self.store.writer()
        script = self._script("commit", _COMMIT)
        now_ms, since = self._window()
        args = [
            str(base_version),
            self._stored(state, self.max_state_bytes * PLAY_GROWTH),
            now,
            jsonio.dumps(entry),
            str(self._lifetime(clock)),
            self.answer_field(*idem) if idem else "",
            (digest or "")[:DIGEST_CHARS],
            self.channel(session_id),
            str(now_ms),
            str(since),
            str(PRUNE_BATCH),
            clock.old if clock else "",
            clock.new if clock else "",
            takeback_id,
            self.reply_field(entry["player"], reply_to) if reply_to else "",
            jsonio.dumps(entry["move"]) if reply_to else "",
        ]
        views = record_views(state, entry)
        args.extend([str(len(views)), *views])
        if clock is not None and clock.wake is not None:
            self.deadlines.lower(session_id, clock.wake)
        status, value = guarded_write(
            lambda: script(keys=self.keys(session_id)[:_COMMITTED], args=args, client=writer)
        )
        status = status.decode()
        if status == "ok":
            return Committed(int(value))
        if status == "replay":
            return Replay(Remembered.parse(value))
        if status == "missing":
            return Conflict(None)
        if status == "withdrawn":
            return Withdrawn()
        return Conflict(int(value))

    # -- live events -----------------------------------------------------------------------
    def subscribe(self, session_id: str) -> Any:
        """A pub/sub connection subscribed to the session's channel (the caller closes it)."""
        client = self._client()

        def open_() -> Any:
            pubsub = client.pubsub(ignore_subscribe_messages=True)
            pubsub.subscribe(self.channel(session_id))
            return pubsub

        return guarded(open_)

    @staticmethod
    def messages(pubsub: Any, timeout: float) -> Iterator[dict[str, Any] | None]:
        """Messages from ``pubsub`` as parsed JSON; None after ``timeout`` seconds of silence.
        Raises StoreUnavailable when the connection breaks."""
        while True:
            message = guarded(lambda: pubsub.get_message(timeout=timeout))
            if message is None:
                yield None
            elif message.get("type") == "message":
                yield jsonio.loads(message["data"])
