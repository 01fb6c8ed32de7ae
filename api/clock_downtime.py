"""Downtime is nobody's time: the walk that moves every running clock past it (README "Turn
clocks", "Downtime"). No Flask; Redis only through ``SessionStore``.

A seat cannot move while the service is down (a restart: SIGTERM, some seconds, start again) or
while its store is (moves answered 503), so that time is not the seat's to lose the game by, nor
its grace. Every poll of a timekeeper is a heartbeat (``api.clock_store``): the poll that finds
that no timekeeper polled for longer than ``OUTAGE_MS`` records that time as a downtime, and
before any timekeeper claims a deadline again, the one that took the walk calls
:func:`move_past`:

- it walks the sessions whose clock may run, the members of the deadline set, in batches of
  :data:`WALK_BATCH` (``ZSCAN``): a cost bounded by the clocked sessions, not all sessions;
- for each, it reads the version and the clock (two fields) and writes the clock moved past
  every downtime (:func:`past_downtimes`) with the compare-and-set of a clock-only write
  (``SessionStore.set_clock``): a move that lands meanwhile makes it read again. A paused clock
  and a clock no seat runs on are left as they are;
- after each batch it renews its lease on the walk (and the heartbeat with it); when all is
  walked it forgets the downtimes, and the timekeepers claim again.

A walk cut short (the process killed, the store failing) is taken over when its lease ends, and
moves nothing twice: a clock moved past a downtime runs from its end (``api.clock.past_downtime``).
The deadline scores stay as they were: each moved deadline is later, so its score is an early
wake-up, which the keeper's look hands back with the right time ("never late").

The move makes no version and no history entry (the admin's add-time does not either): an entry's
``clock`` is as of its version, and the downtime shows in the next one.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from api import clock as clocks
from api import session_clocks
from api.clock_store import Downtime
from api.session_store import SessionStore
from api.store import StoreUnavailable

__all__ = ["WALK_BATCH", "move_past", "move_session_past", "past_downtimes"]

log = logging.getLogger(__name__)

WALK_BATCH = 64
"""Sessions of the deadline set read a batch (``ZSCAN``'s count; then the walk's lease)."""
_ATTEMPTS = 8
"""Reads of one session before the walk leaves it (each conflict is a write that landed)."""


def past_downtimes(clock: clocks.Clock, downtimes: Sequence[Downtime]) -> clocks.Clock | None:
    """The clock moved past each of ``downtimes`` in turn (earliest first), or None when none
    moves it (:func:`api.clock.past_downtime`)."""
    moved: clocks.Clock | None = None
    for downtime in downtimes:
        after = clocks.past_downtime(moved or clock, downtime.start, downtime.end)
        if after is not None:
            moved = after
    return moved


def move_session_past(
    store: SessionStore,
    session_id: str,
    downtimes: Sequence[Downtime],
    now: Callable[[], int] = session_clocks.now_ms,
) -> bool:
    """Move the session's clock past ``downtimes``; whether it moved (it had a seat running, not
    paused, written before the last downtime was found). The session's live streams hear of the
    moved clock as of ``now`` (``event: clock``), as of an admin's change: an open table counts
    down again from the time given back."""
    for _ in range(_ATTEMPTS):
        found = store.stored_clock(session_id)
        if found is None:
            return False
        version, raw = found
        clock = session_clocks.parse(raw)
        moved = past_downtimes(clock, downtimes) if clock is not None else None
        if moved is None:
            return False
        result = store.set_clock(session_id, version, session_clocks.write(raw, moved))
        if result == "ok":
            _announce(store, session_id, moved, now())
        if result != "conflict":
            return result == "ok"
    log.warning("clocks: session %s kept changing; not moved past the downtime", session_id)
    return False


def _announce(store: SessionStore, session_id: str, clock: clocks.Clock, now: int) -> None:
    """Send the moved clock to the session's streams; a store that fails here only delays the
    news to a page's next read (the clock is written)."""
    try:
        store.announce_clock(session_id, clocks.public(clock, now))
    except StoreUnavailable as err:
        log.warning("clock of session %s moved past a downtime, not announced: %s", session_id, err)


def _move_safely(
    store: SessionStore, session_id: str, downtimes: Sequence[Downtime], now: Callable[[], int]
) -> bool:
    """:func:`move_session_past`, where a bug in one session is logged and the walk goes on (a
    walk that never ended would stop every timeout); a store that fails stops the walk."""
    try:
        return move_session_past(store, session_id, downtimes, now)
    except StoreUnavailable:
        raise
    except Exception:
        log.exception("clocks: session %s not moved past the downtime", session_id)
        return False


def move_past(
    store: SessionStore, downtimes: Sequence[Downtime], walker: str, now: Callable[[], int]
) -> int:
    """Move every running clock past ``downtimes`` (a poll's ``Claim``, whose walk is
    ``walker``'s), then forget them; how many clocks moved. Stops early when the walk is no
    longer its own (its lease ended: whoever took it over walks again)."""
    moved = 0
    cursor = 0
    while True:
        cursor, members = store.deadlines.scan(cursor, WALK_BATCH)
        moved += sum(_move_safely(store, session_id, downtimes, now) for session_id in members)
        renewed = store.deadlines.renew_walk(walker, now())
        if renewed is None:
            log.warning("clocks: the walk past a downtime was taken over; leaving it")
            return moved
        walker = renewed
        if cursor == 0:
            break
    store.deadlines.walked(walker, list(downtimes))
    seconds = sum(d.end - d.start for d in downtimes) / 1000
    log.warning("clocks: %d running clocks moved past %.1f s of downtime", moved, seconds)
    return moved
