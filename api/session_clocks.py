"""The glue between sessions and their clocks (issue 25): what a commit writes, what an answer
shows, what the clock's own moves are. No Flask; Redis only through ``SessionStore``.

The arithmetic is ``api.clock`` (pure); the shared deadlines are ``api.clock_store``; the worker
thread that fires timeouts is ``api.clock_keeper``. Every path that commits a move
(``api.sessions`` for a seat, ``api.bot_seats`` for a bot seat, ``api.clock_keeper`` for the
clock) passes :func:`for_move`'s :class:`~api.clock_store.ClockWrite` to ``SessionStore.commit``,
so the clock changes in the same compare-and-set as the state.
"""

from __future__ import annotations

import time
from typing import Any

from api import clock as clocks
from api import jsonio
from api.clock_store import ClockWrite
from api.session_store import Session
from rules.engine import Game
from rules.engine_types import State

__all__ = [
    "now_ms",
    "parse",
    "new_clock",
    "for_move",
    "for_takeback",
    "for_timeout",
    "write",
    "public",
    "answer_clock",
]


def now_ms() -> int:
    """Server time in milliseconds since the Unix epoch (the time every clock is kept in)."""
    return time.time_ns() // 1_000_000


def parse(raw: bytes | None) -> clocks.Clock | None:
    return None if raw is None else jsonio.loads(raw)


def write(old: bytes, new: clocks.Clock) -> ClockWrite:
    """The clock write of a commit: as read, as it will be, its next deadline."""
    return ClockWrite(old, jsonio.dumps(new), clocks.next_deadline(new))


def new_clock(
    game: Game, state: State, body: dict[str, Any], now: int
) -> tuple[clocks.Clock, ClockWrite] | None:
    """The clock the creation ``body`` asks for (``clock``, ``on_timeout``, ``grace_seconds``;
    already checked by ``schemas.requests``), None without ``clock``."""
    control = body.get("clock")
    if control is None:
        return None
    on_timeout = body.get("on_timeout") or {"action": "forfeit"}
    clock = clocks.start(
        control,
        on_timeout,
        body.get("grace_seconds") or 0,
        state["players"],
        game.waiting_on(state),
        now,
    )
    return clock, ClockWrite(b"", jsonio.dumps(clock), clocks.next_deadline(clock))


def for_move(
    session: Session, game: Game, state: State, entry: dict[str, Any], now: int
) -> ClockWrite | None:
    """The clock after the move of ``entry`` (made by ``entry["player"]``, leading to ``state``);
    records the clock as of the move in ``entry["clock"]``. None for a session without a clock."""
    clock = parse(session.clock)
    if clock is None:
        return None
    new = clocks.after_move(clock, entry["player"], game.waiting_on(state), entry["version"], now)
    entry["clock"] = clocks.public(new, now, state["players"])
    return write(session.clock or b"", new)


def for_takeback(
    session: Session, game: Game, state: State, entry: dict[str, Any], now: int
) -> ClockWrite | None:
    """As :func:`for_move`, for an accepted takeback (``api.records``), which returns the game to
    ``state``: a move of nobody's, so no seat gains an increment or a fresh per-move time by it
    (time spent stays spent, as on lichess); the clocks that ran are charged, and the seats the
    restored state waits on run. Without it the clock ran on for the seat that was to move
    before, which could time out while the game waited on another."""
    clock = parse(session.clock)
    if clock is None:
        return None
    new = clocks.after_move(clock, None, game.waiting_on(state), entry["version"], now)
    entry["clock"] = clocks.public(new, now, state["players"])
    return write(session.clock or b"", new)


def for_timeout(
    session: Session, game: Game, state: State, entry: dict[str, Any], now: int
) -> ClockWrite:
    """As :func:`for_move`, for the clock's own move for ``entry["player"]`` (a timeout)."""
    clock = parse(session.clock)
    assert clock is not None
    # A bot that found no move made a pause's entry: then the clocks pause too.
    action = "pause" if entry["move"].get("type") == "timeout" else None
    new = clocks.after_timeout(
        clock, entry["player"], game.waiting_on(state), entry["version"], now, action
    )
    entry["clock"] = clocks.public(new, now, state["players"])
    return write(session.clock or b"", new)


def public(session: Session, now: int | None = None) -> dict[str, Any] | None:
    """The session's clock as an answer shows it (``null`` without a clock)."""
    return clocks.public(parse(session.clock), now_ms() if now is None else now, session.players)


def answer_clock(raw: bytes | None, players: list[str]) -> dict[str, Any] | None:
    """The clock of an answer built from a stored clock ``raw``, as of now."""
    return clocks.public(parse(raw), now_ms(), players)
