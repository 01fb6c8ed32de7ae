"""States this process has already found sound: each state is checked once, not on every request.

A client of the stateless endpoints plays by sending states back: it asks for the legal moves of
a state, applies one to that same state, then does the same with the state the answer held.
Every such request used to check the state's shape and integrity again (``games.checked_state``),
the largest of the service's own costs (issue 14: 100 to 400 µs a request, a third of a Reign
Supreme request). A state is its JSON, so equal JSON is the same state and the same checks give
the same answer. ``checked_state`` therefore skips the checks for a state whose digest it knows:
the digest (BLAKE2b, 128 bits) of the game id and the state's canonical JSON (sorted keys, as the
service writes its answers), remembered for every state that passed the checks and every state
the rules dealt or produced (``setup``, ``apply``: the rules' own states are sound, which every
game's random-playout tests check with ``check_state`` on each step). A state never seen is
checked in full, as before: the checks stay complete and are not repeated.

Bounded: at most ``KNOWN_STATES`` digests per process (default 4096, under 1 MB; ``0`` turns it
off), the oldest forgotten first. Per process: under gunicorn each worker remembers its own, and a
client on a keep-alive connection stays with one worker. A digest costs 10 to 45 µs (Reign & Ruin
to Reign Supreme), against checks of 60 to 420 µs.
"""

from __future__ import annotations

import hashlib
import threading
from typing import Any

from api import jsonio

__all__ = ["KnownStates"]


class KnownStates:
    """A bounded, thread-safe set of state digests, oldest forgotten first."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._seen: dict[bytes, None] = {}
        self._lock = threading.Lock()

    def digest(self, game_id: str, state: Any) -> bytes | None:
        """The state's digest; None when it is off or the value cannot be written as JSON."""
        if not self._size:
            return None
        try:
            text = jsonio.dumps(state)
        except TypeError:  # orjson's JSONEncodeError is one
            return None
        hasher = hashlib.blake2b(game_id.encode(), digest_size=16)
        hasher.update(b"\0")
        hasher.update(text)
        return hasher.digest()

    def __contains__(self, digest: bytes | None) -> bool:
        return digest is not None and digest in self._seen

    def add(self, digest: bytes | None) -> None:
        if digest is None:
            return
        with self._lock:
            if digest in self._seen:
                return
            self._seen[digest] = None
            if len(self._seen) > self._size:
                del self._seen[next(iter(self._seen))]

    def remember(self, game_id: str, state: Any) -> None:
        """Remember a state the rules dealt or produced."""
        self.add(self.digest(game_id, state))
