"""States this process has already found sound: each state is checked once, not on every request.

A client of the stateless endpoints plays by sending states back: it asks for the legal moves of
a state, applies one to that same state, then does the same with the state the answer held.
Every such request used to check the state's shape and integrity again (``games.checked_state``),
the largest of the service's own costs (issue 14: 100 to 400 µs a request, a third of a Reign
Supreme request). ``checked_state`` therefore skips the checks for a state whose *text* it knows.

A state is known by its bytes, exactly as written: the digest of the game id and the state's JSON
text, remembered for every state that passed the checks (the text the client sent) and every state
the rules dealt or produced (``setup``, ``apply``: the text of the answer, compact with sorted
keys; the rules' own states are sound, which every game's random-playout tests check with
``check_state`` on each step). Equal bytes parse to the same state, so they get the same verdict.
Other bytes, a state with its keys reordered, spaced out or with ``\\u`` escapes (a client that
writes JSON its own way), are looked up by the state's canonical JSON, written for that miss only
(``canonical_digest``): a state the service wrote or checked is found so; anything else is
checked in full. Either way those bytes are known from then on. Issue 28: knowing a state only by
its canonical JSON cost a serialisation of the state (orjson, sorted keys) per request on top of
the answer's own; reading the digest off the bytes that are there anyway costs none. The digest is
the interpreter's own keyed hash of the bytes, ``hash()`` of ``bytes`` (SipHash, 64 bits, under a
128-bit key drawn at random when the interpreter starts; gunicorn's workers share their master's),
with the game id beside it: 2.4 µs for a 14 KB state, where SHA-256 took 7 to 17 µs (its speed
depends on the bytes' alignment, and a state's bytes begin 9 bytes into a body), twice per ``apply``
(issue 28: Reign Absolute's apply sat at 74.6% of the echo, under its 75%). A digest two states
share would let the second skip its checks; finding one takes the key, which never leaves the
process (SipHash is a keyed pseudorandom function; without the key, a tampered state matches one
of 4,096 known digests once in 2^52 tries). Where the key is not secret or the hash is weaker (a
set ``PYTHONHASHSEED``, as ``bench/steps.py`` uses; a build with another hash; 32-bit hashes), the
digest is SHA-256's (``_KEYED_HASH``).

Remembered bytes hold no float token, so a known state's bytes need no scan for integral floats
(``api.jsonio``; the scan of a 14 KB state cost as much as 40 µs, ``games.read_state_body`` skips
it): the service's own answers hold none (the rules deal in integers), the canonical JSON of a
checked state holds none (its floats were read as integers first), and a client's bytes that may
hold one are never remembered, only their canonical form.

``state_span`` finds those bytes in a request body, and only where it can prove them to be the
whole ``state`` member: after a top-level ``"state":`` key, up to a top-level member boundary, with
no other top-level ``state`` key before or after (orjson keeps the last of duplicate keys). It
proves this by parsing what lies around the state (the envelope's other members: a move, a
player), never the state itself: a comma followed by a key is structural (inside a string, a
quote is escaped), and ``{`` plus the rest of the body parses as one object only when that comma
separates the body's own members. A layout it cannot prove gives None: the state is then checked
in full and not remembered. Whatever it returns, the state the body holds is a function of those
bytes alone, so a tampered state (one changed byte) never rides on a known digest.

Bounded: at most ``KNOWN_STATES`` digests per process (default 4096, under 1 MB; ``0`` turns it
off), the oldest forgotten first; thread-safe (one lock around the changes). Per process: under
gunicorn each worker remembers its own, and a client on a keep-alive connection stays with one
worker.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
import threading
from typing import Any

from api import jsonio

__all__ = ["KnownStates", "state_span"]

_WHITESPACE = b" \t\n\r"  # RFC 8259 section 2: insignificant whitespace
_STATE_FIRST = re.compile(rb'[ \t\n\r]*\{[ \t\n\r]*"state"[ \t\n\r]*:[ \t\n\r]*')
_COLON = re.compile(rb"[ \t\n\r]*:[ \t\n\r]*")
_STATE_KEY = b'"state"'
_TRIES = 4
_KEYED_HASH = (
    (sys.flags.ignore_environment or os.environ.get("PYTHONHASHSEED", "random") == "random")
    and sys.hash_info.algorithm.startswith("siphash")
    and sys.hash_info.hash_bits >= 64
    and sys.hash_info.cutoff == 0  # a build with a cutoff hashes short inputs otherwise
)
"""Whether ``hash()`` of bytes is SipHash under a key drawn at random when this interpreter
started (any set ``PYTHONHASHSEED`` but ``random`` fixes the key, unless ``-E`` ignored it)."""

Digest = tuple[str, int]
"""A game id and the hash of a state's JSON text."""


class KnownStates:
    """A bounded, thread-safe set of state digests, oldest forgotten first."""

    def __init__(self, size: int) -> None:
        self.size = size
        """At most this many digests; 0: off."""
        self._seen: dict[Digest, None] = {}
        self._lock = threading.Lock()

    def digest(self, game_id: str, text: bytes | None) -> Digest | None:
        """The digest of a state's JSON ``text``; None when it is off or there is no text. The
        text is ``bytes``: a ``memoryview`` of a slice would hash the whole buffer it views
        first (CPython's ``memory_hash``), twice the cost of copying the slice out."""
        if not self.size or text is None:
            return None
        if _KEYED_HASH:
            return game_id, hash(text)
        return game_id, int.from_bytes(hashlib.sha256(text).digest())

    def canonical_digest(self, game_id: str, state: Any) -> Digest | None:
        """The digest of ``state`` written as the service writes its answers (compact, sorted
        keys): the digest its own bytes had when the service answered it. One serialisation, for
        a request whose bytes are not known."""
        try:
            return self.digest(game_id, jsonio.dumps(state))
        except TypeError:  # orjson's JSONEncodeError is one: not a value JSON can hold
            return None

    def __contains__(self, digest: Digest | None) -> bool:
        return digest is not None and digest in self._seen

    def add(self, digest: Digest | None) -> None:
        if digest is None:
            return
        with self._lock:
            if digest in self._seen:
                return
            self._seen[digest] = None
            if len(self._seen) > self.size:
                del self._seen[next(iter(self._seen))]


def state_span(data: bytes, body: dict[str, Any]) -> slice | None:
    """Where the bytes of the member ``state`` of the JSON object ``data`` (``body`` is ``data``
    parsed) are, exactly as written; None when its layout does not prove where they are.

    The state may come first (``{"state": ..., "move": ...}``, as clients build bodies) or after
    the other members (``{"move": ..., "state": ...}``, sorted keys); either way the other
    members are parsed again (they are small) to show that no other ``state`` key hides there.
    The bytes run from the value after ``"state":`` to a proven boundary between top-level
    members; in a body with duplicate keys they may hold more members than the state's (say
    ``{"a":1},"state":{"a":2}``), and the state the body holds is still theirs alone (orjson
    keeps the last duplicate), so the same bytes always hold the same state."""
    others = len(body) - 1
    first = _STATE_FIRST.match(data)
    if first is not None:
        start = first.end()
    else:
        after = _after_members(data)
        if after is None:
            return None
        start, before = after
        others -= before
    end = len(data.rstrip(_WHITESPACE)) - 1  # the body's closing brace
    if others:  # members follow the state: they start at the first top-level comma after it
        end = _tail_start(data, start, end, [k for k in body if k != "state"])
        if end < 0:
            return None
    while end > start and data[end - 1] in _WHITESPACE:
        end -= 1
    return slice(start, end) if end > start and data[start] == 0x7B else None  # '{': an object


def _after_members(data: bytes) -> tuple[int, int] | None:
    """Where the state's value begins when other members come first, and how many they are.

    Its key is one of the last few ``"state"`` strings preceded by a comma (the state itself may
    hold such a key), and ``{`` plus what precedes that comma must parse as an object: a comma
    nested deeper leaves a bracket open, and so fails."""
    end = len(data)
    for _ in range(_TRIES):
        key = data.rfind(_STATE_KEY, 0, end)
        if key < 0:
            return None
        end = key
        comma = _before_whitespace(data, key)
        colon = _COLON.match(data, key + len(_STATE_KEY))
        if comma >= 0 and data[comma] == 0x2C and colon is not None:  # ','
            head = _members(data[:comma] + b"}")
            if head is not None:
                return colon.end(), len(head)
    return None


def _before_whitespace(data: bytes, at: int) -> int:
    """The index of the last byte before ``at`` that is not whitespace (-1: none)."""
    at -= 1
    while at >= 0 and data[at] in _WHITESPACE:
        at -= 1
    return at


def _members(text: bytes) -> dict[str, Any] | None:
    """``text`` parsed, when it is an object without a ``state`` member; else None."""
    try:
        value = jsonio.loads(text)
    except jsonio.JSONDecodeError:
        return None
    return value if type(value) is dict and "state" not in value else None


def _tail_start(data: bytes, start: int, end: int, keys: list[str]) -> int:
    """Where the members after the state begin (their comma), or -1 if not found and proven.

    The first of them has one of ``keys`` (the body's other keys). The candidates are the last
    few occurrences of those keys as strings preceded by a comma (the members after a state are
    short); ``{`` plus what follows the comma must parse as exactly the other members (a comma
    nested deeper leaves bytes over, and so fails)."""
    names = [b'"' + key.encode() + b'"' for key in keys]
    for _ in range(_TRIES):
        end = max(data.rfind(name, start, end) for name in names)
        if end < 0:
            return -1
        comma = _before_whitespace(data, end)
        if comma >= start and data[comma] == 0x2C:  # ','
            tail = _members(b"{" + data[comma + 1 :])
            if tail is not None and len(tail) == len(keys):
                return comma
    return -1
