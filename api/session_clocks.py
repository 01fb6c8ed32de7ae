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
from datetime import datetime
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
    "timeout_action",
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


def for_timeout(
    session: Session, game: Game, state: State, entry: dict[str, Any], now: int
) -> ClockWrite:
    """As :func:`for_move`, for the clock's own move for ``entry["player"]`` (a timeout)."""
    clock = parse(session.clock)
    assert clock is not None
    # A bot that found no move made a pause's entry: then the clocks pause too.
    if entry["move"].get("type") == "timeout":
        action = "pause"
    else:
        action = timeout_action(session, clock, entry["player"])[0]
    new = clocks.after_timeout(
        clock, entry["player"], game.waiting_on(state), entry["version"], now, action
    )
    entry["clock"] = clocks.public(new, now, state["players"])
    return write(session.clock or b"", new)


def timeout_action(session: Session, clock: clocks.Clock, seat: str) -> tuple[str, str]:
    """What the clock does for ``seat`` out of time, and the bot level it plays at: the session's
    ``on_timeout``, except for a bot seat, which plays its own bot's move and whose clock then
    starts again, as after any ``bot`` timeout (README "Turn clocks": a bot seat answers within
    ``SESSION_BOT_TIME_MS``, so its time runs out only while the store could not take its move,
    which is the service's fault, not the seat's to lose the game by, nor to pause it for)."""
    if seat in session.bots:
        return "bot", session.bots[seat]
    on_timeout = clock["on_timeout"]
    return on_timeout["action"], on_timeout.get("level", "")


def for_takeback(
    session: Session,
    game: Game,
    states: list[State],
    entries: list[dict[str, Any]],
    entry: dict[str, Any],
    now: int,
) -> ClockWrite | None:
    """As :func:`for_move`, for the takeback ``entry`` (``entry["takeback"]["to_version"]``;
    ``states`` and ``entries`` the session's so far): :func:`api.clock.after_takeback` with each
    seat's time at that version and the time the proposer's clock has run since."""
    clock = parse(session.clock)
    if clock is None:
        return None
    to_version = entry["takeback"]["to_version"]
    proposer = entry["player"]
    restored = _remaining_at(clock, entries, to_version, session.players)
    spent = _ran_since(clock, session, game, states, entries, to_version, proposer, now)
    waiting = game.waiting_on(states[to_version])
    new = clocks.after_takeback(
        clock, proposer, to_version, restored, spent, waiting, entry["version"], now
    )
    entry["clock"] = clocks.public(new, now, session.players)
    return write(session.clock or b"", new)


def _remaining_at(
    clock: clocks.Clock, entries: list[dict[str, Any]], version: int, players: list[str]
) -> dict[str, int]:
    """Each seat's time at ``version``: the clock its history entry shows (the latest earlier
    one when an entry has none), or every seat's starting time at version 0."""
    for entry in reversed(entries[:version]):
        shown = entry.get("clock")
        if shown is not None:
            return dict(shown["remaining_ms"])
    full = clocks.allowance_ms(clock["control"])
    return {p: full for p in players}


def _ran_since(
    clock: clocks.Clock,
    session: Session,
    game: Game,
    states: list[State],
    entries: list[dict[str, Any]],
    version: int,
    seat: str,
    now: int,
) -> int:
    """How long ``seat``'s clock has run since ``version`` (ms): for each version since, the time
    to the next one's entry if its clock ran then (the entry's ``running``: none while paused;
    without a clock shown, the seats the game waited on), then since the last entry as the clock
    charged it (the admin's pauses included, and its add-time since that entry not taken for
    time given back). The pauses and resumes between two earlier versions are not in the
    history: that time counts as run."""
    times = [_ms(session.created_at)] + [_ms(e["at"]) for e in entries]
    ran = 0
    for v in range(version, len(entries)):
        shown = entries[v - 1].get("clock") if v else None
        running = shown["running"] if shown is not None else game.waiting_on(states[v])
        began, ended = times[v], times[v + 1]
        if seat in running and began is not None and ended is not None:
            ran += max(0, ended - began)
    last = entries[-1].get("clock") if entries else None
    now_left = clocks.remaining_at(clock, now).get(seat, 0)
    if last is not None:
        added = clocks.added_since(clock, len(entries)).get(seat, 0)
        ran += max(0, last["remaining_ms"].get(seat, 0) + added - now_left)
    elif seat in clock["running"] and not clock["paused"]:
        ran += max(0, now - (times[-1] or now))
    return ran


def _ms(at: str | None) -> int | None:
    """A time stamp of ``session_store.now()`` in ms since the epoch; None when unknown."""
    if at is None:
        return None
    return round(datetime.fromisoformat(at.replace("Z", "+00:00")).timestamp() * 1000)


def public(session: Session, now: int | None = None) -> dict[str, Any] | None:
    """The session's clock as an answer shows it (``null`` without a clock)."""
    return clocks.public(parse(session.clock), now_ms() if now is None else now, session.players)


def answer_clock(raw: bytes | None, players: list[str]) -> dict[str, Any] | None:
    """The clock of an answer built from a stored clock ``raw``, as of now."""
    return clocks.public(parse(raw), now_ms(), players)
