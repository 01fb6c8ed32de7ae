"""Turn clocks of sessions (issue 25): the arithmetic, pure (no Flask, no Redis, no clock read).

Every function takes the time ``now`` (milliseconds since the Unix epoch) from its caller, so the
tests drive it with any time they like. A session's clock is one JSON object stored beside its
state (``SessionStore``, field ``clock``), the :class:`Clock` below:

- ``control``: the time control as the creation request gave it: ``per_move`` (``seconds`` for
  each move), ``fischer`` (``initial_seconds`` in the bank, ``increment_seconds`` added after each
  of the seat's moves) or ``correspondence`` (``days`` for each move);
- ``on_timeout``: ``forfeit``, ``bot`` (with a ``level``) or ``pause``; ``grace_ms``: the
  reconnect grace;
- ``remaining_ms``: each seat's time, as of ``since`` for the seats whose clocks run;
- ``running``: the seats the game waits on (``Game.waiting_on``), in that order;
- ``paused``: nothing runs (an admin paused, or a ``pause`` timeout);
- ``graced``: the seats that have used their grace;
- ``version``: the session version the clock belongs to;
- ``added``: the admin's add-time, by the version it was given at (as a string) and seat (absent:
  none); a takeback keeps what was added since the version it returns to (the history's clocks
  do not show it apart).

Rules (README "Turn clocks"; lichess and Board Game Arena are the models):

- Clocks run from version 0 for every seat the game waits on, several at once in simultaneous
  phases. A seat's deadline is ``since + remaining``.
- After a move (:func:`after_move`) the seats charged are those whose clocks ran; the mover's
  per-move time starts again in full (``per_move``, ``correspondence``), a Fischer mover gains
  the increment if the move was made on its own running clock (not while paused, nor off its
  turn: lichess pays the increment for a move on one's clock); a seat still waited on and not
  the mover keeps running toward the same deadline; a seat no longer waited on stops (a
  per-move seat then starts the next time in full).
- A takeback (:func:`after_takeback`) gives every seat but its proposer its time at the version
  it returns to (never less than it has now), and the proposer none of the time it spent since;
  the admin's add-time since that version stays everyone's.
- A timeout (:func:`after_timeout`) is a move made by the clock: ``forfeit`` leaves the seat at 0;
  ``bot`` and ``pause`` start the seat's clock again as at the start of the game (the full
  per-move time, or Fischer's initial time), and ``pause`` also pauses every clock.
- Grace: once per seat and game, when its time first runs out, the seat gets ``grace_ms`` more
  instead of the timeout (:func:`with_grace`), as lichess waits for a disconnected player to
  come back before the opponent may claim the game.
- Downtime (:func:`past_downtime`): time the service could not referee (no timekeeper polled: a
  restart, a store outage) is nobody's time: the running clocks' deadlines move on by it. It
  makes no version, like the admin's add-time.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any, NotRequired, TypedDict, overload

__all__ = [
    "Clock",
    "CONTROL_TYPES",
    "TIMEOUT_ACTIONS",
    "allowance_ms",
    "start",
    "charged",
    "remaining_at",
    "deadlines",
    "due",
    "next_deadline",
    "after_move",
    "after_timeout",
    "after_takeback",
    "with_grace",
    "past_downtime",
    "pause",
    "resume",
    "add_time",
    "added_since",
    "public",
    "rfc3339",
]

CONTROL_TYPES = ("per_move", "fischer", "correspondence")
TIMEOUT_ACTIONS = ("forfeit", "bot", "pause")
_DAY_MS = 86_400_000


class Clock(TypedDict):
    control: dict[str, Any]
    on_timeout: dict[str, Any]
    grace_ms: int
    remaining_ms: dict[str, int]
    running: list[str]
    since: int
    paused: bool
    graced: list[str]
    version: int
    added: NotRequired[dict[str, dict[str, int]]]


def allowance_ms(control: dict[str, Any]) -> int:
    """The time a seat's clock starts with: a per-move time in full, or Fischer's initial time."""
    kind = control["type"]
    if kind == "per_move":
        return int(control["seconds"]) * 1000
    if kind == "correspondence":
        return int(control["days"]) * _DAY_MS
    return int(control["initial_seconds"]) * 1000


def _per_move(clock: Clock) -> bool:
    return clock["control"]["type"] != "fischer"


def start(
    control: dict[str, Any],
    on_timeout: dict[str, Any],
    grace_seconds: int,
    players: Sequence[str],
    waiting: Sequence[str],
    now: int,
) -> Clock:
    """The clock of a new session (version 0): every seat holds its starting time, and the clocks
    of the seats the game waits on run from ``now``."""
    full = allowance_ms(control)
    return {
        "control": dict(control),
        "on_timeout": dict(on_timeout),
        "grace_ms": grace_seconds * 1000,
        "remaining_ms": {p: full for p in players},
        "running": list(waiting),
        "since": now,
        "paused": False,
        "graced": [],
        "version": 0,
    }


def charged(clock: Clock, now: int) -> Clock:
    """The same clock with the running seats charged up to ``now`` (``since = now``); the
    deadlines do not move. A paused clock charges nothing. Time never runs below 0."""
    new: Clock = {**clock, "remaining_ms": dict(clock["remaining_ms"])}
    if not clock["paused"]:
        elapsed = max(0, now - clock["since"])
        for seat in clock["running"]:
            new["remaining_ms"][seat] = max(0, new["remaining_ms"][seat] - elapsed)
    new["since"] = max(now, clock["since"])
    return new


def remaining_at(clock: Clock, now: int) -> dict[str, int]:
    """Each seat's time left as of ``now``."""
    return charged(clock, now)["remaining_ms"]


def deadlines(clock: Clock) -> dict[str, int]:
    """When each running seat's time runs out (ms since the epoch); none while paused."""
    if clock["paused"]:
        return {}
    return {seat: clock["since"] + clock["remaining_ms"][seat] for seat in clock["running"]}


def next_deadline(clock: Clock) -> int | None:
    """The earliest deadline, None when no clock runs."""
    found = deadlines(clock).values()
    return min(found) if found else None


def due(clock: Clock, now: int) -> list[str]:
    """The running seats whose time has run out at ``now``, earliest deadline first (seat order
    on a tie)."""
    found = [(at, i, seat) for i, (seat, at) in enumerate(deadlines(clock).items()) if at <= now]
    return [seat for _, _, seat in sorted(found)]


def after_move(
    clock: Clock, mover: str | None, waiting: Sequence[str], version: int, now: int
) -> Clock:
    """The clock once ``mover``'s move has made ``version`` and the game waits on ``waiting``.

    A Fischer increment is paid only for a move made on the mover's own running clock: a move
    while the clocks are paused, or off the mover's turn (a Reign Supreme card played in another
    seat's turn), cost it no time and earns none (README "Turn clocks"; lichess pays the
    increment for a move on one's clock), else a seat could bank time without limit."""
    new = charged(clock, now)
    remaining = new["remaining_ms"]
    full = allowance_ms(clock["control"])
    if _per_move(clock):
        for seat in clock["running"]:
            if seat == mover or seat not in waiting:
                remaining[seat] = full  # the next move of this seat gets its full time
        if mover is not None:
            remaining[mover] = full
    elif mover is not None and _on_its_clock(clock, mover):
        remaining[mover] = remaining[mover] + int(clock["control"]["increment_seconds"]) * 1000
    new["running"] = list(waiting)
    new["version"] = version
    return new


def _on_its_clock(clock: Clock, seat: str) -> bool:
    """Whether ``seat``'s clock runs now (the game waits on it, nothing paused)."""
    return not clock["paused"] and seat in clock["running"]


def after_takeback(
    clock: Clock,
    proposer: str,
    to_version: int,
    restored: dict[str, int],
    spent_ms: int,
    waiting: Sequence[str],
    version: int,
    now: int,
) -> Clock:
    """The clock once ``proposer``'s takeback has made ``version``, whose state is
    ``to_version``'s, where the game waits on ``waiting``. ``restored`` is each seat's time at
    ``to_version`` (as the history shows it); ``spent_ms`` how long the proposer's clock has run
    since then (docs/records.md, "Takebacks and clocks"; lichess is the model):

    - the admin's add-time since ``to_version`` (:func:`added_since`) stays every seat's, the
      proposer's too: the history's clocks do not show it, and a takeback is no admin's act;
    - every other seat gets its time at ``to_version`` back, plus that add-time, and never less
      than it has now: the positions it spent time on were taken back, and not by it (lichess
      gives the side to move its thinking time back), so no seat can run down another's clock
      (nor take away the increments it earned meanwhile) with takebacks;
    - the proposer gets none of its time back: its time at ``to_version`` less ``spent_ms`` (at
      least 0), plus that add-time, so the moves taken back earn no increment and a per-move
      time does not start again in full (else a seat could take its own move back to think on,
      time and again);
    - the clocks of the seats waited on run from ``now``, as after a move; a paused clock stays
      paused and a grace used stays used."""
    new = charged(clock, now)
    remaining = new["remaining_ms"]
    added = added_since(clock, to_version)
    for seat, ms in restored.items():
        if seat not in remaining:
            continue
        kept = added.get(seat, 0)
        if seat == proposer:
            remaining[seat] = max(0, ms - spent_ms) + kept
        else:
            remaining[seat] = max(ms + kept, remaining[seat])
    new["running"] = list(waiting)
    new["version"] = version
    return new


def after_timeout(
    clock: Clock,
    seat: str,
    waiting: Sequence[str],
    version: int,
    now: int,
    action: str | None = None,
) -> Clock:
    """The clock once the clock's move for ``seat`` (its timeout) has made ``version``; ``action``
    is the session's ``on_timeout`` unless given (a ``bot`` with no move to make pauses)."""
    new = after_move(clock, seat, waiting, version, now)
    action = action or clock["on_timeout"]["action"]
    if action == "forfeit":
        new["remaining_ms"][seat] = 0
    else:  # bot, pause: the seat's clock starts again, the seat stays human
        new["remaining_ms"][seat] = allowance_ms(clock["control"])
    if action == "pause":
        new["paused"] = True
    return new


def with_grace(clock: Clock, seat: str, now: int) -> Clock | None:
    """The clock with ``seat``'s grace given (its deadline ``grace_ms`` later, however late the
    timeout is noticed), or None when there is no grace or the seat has used it: then the timeout
    fires."""
    if clock["grace_ms"] <= 0 or seat in clock["graced"]:
        return None
    deadline = deadlines(clock).get(seat, now)
    new = charged(clock, now)
    new["remaining_ms"][seat] = max(0, deadline + clock["grace_ms"] - new["since"])
    new["graced"] = [*clock["graced"], seat]
    return new


def past_downtime(clock: Clock, start: int, end: int) -> Clock | None:
    """The clock moved past a downtime from ``start`` (the last poll of any timekeeper before it)
    to ``end`` (the poll that found it), or None when it has nothing to move (README "Turn
    clocks", "Downtime").

    The running seats are charged up to ``start`` and their clocks run again from ``end``, so
    each running deadline moves on by the downtime (and a grace, counted from the deadline, with
    it). A clock written after ``start`` (a move a worker answered after its timekeeper stopped
    on SIGTERM, or one answered after the service came back, before a poll found the downtime)
    runs again from ``end`` too: the time from its write to ``end`` is not counted. A paused
    clock, or one with no seat running, has no deadline to move; one written from ``end`` on was
    written by a service that was back. So moving a clock past a downtime twice (two
    timekeepers, or a walk taken over after a crash) moves it once: it then runs from ``end``."""
    if clock["paused"] or not clock["running"] or clock["since"] >= end:
        return None
    new = charged(clock, start)
    new["since"] = end
    return new


def pause(clock: Clock, now: int) -> Clock:
    """Every clock stops where it is (idempotent)."""
    if clock["paused"]:
        return clock
    new = charged(clock, now)
    new["paused"] = True
    return new


def resume(clock: Clock, now: int) -> Clock:
    """The clocks run again from ``now`` with the time they had when paused (idempotent)."""
    if not clock["paused"]:
        return charged(clock, now)
    return {**clock, "since": max(now, clock["since"]), "paused": False}


def add_time(clock: Clock, seat: str, seconds: int, now: int) -> Clock:
    """``seat`` gets ``seconds`` more (lichess's add-time); a running seat's deadline moves. The
    time is noted in ``added`` under the clock's version, for takebacks to keep it."""
    new = charged(clock, now)
    new["remaining_ms"][seat] = new["remaining_ms"][seat] + seconds * 1000
    added = {at: dict(seats) for at, seats in clock.get("added", {}).items()}
    at_version = added.setdefault(str(clock["version"]), {})
    at_version[seat] = at_version.get(seat, 0) + seconds * 1000
    new["added"] = added
    return new


def added_since(clock: Clock, version: int) -> dict[str, int]:
    """The admin's add-time per seat given since ``version`` was made (at that version or a
    later one): what the history's clock of ``version`` does not hold yet."""
    total: dict[str, int] = {}
    for at, seats in clock.get("added", {}).items():
        if int(at) >= version:
            for seat, ms in seats.items():
                total[seat] = total.get(seat, 0) + ms
    return total


def rfc3339(ms: int) -> str:
    """``ms`` since the epoch as an RFC 3339 UTC time with milliseconds (as history's ``at``)."""
    moment = datetime.fromtimestamp(ms / 1000, UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


@overload
def public(clock: Clock, now: int, players: Iterable[str] | None = None) -> dict[str, Any]: ...
@overload
def public(clock: None, now: int, players: Iterable[str] | None = None) -> None: ...
@overload
def public(
    clock: Clock | None, now: int, players: Iterable[str] | None = None
) -> dict[str, Any] | None: ...


def public(clock: Clock | None, now: int, players: Iterable[str] | None = None) -> dict | None:
    """What every session answer, view and event shows (the contract's ``clock``): time left per
    seat as of ``now``, whose clocks run (none while paused), each running deadline, ``paused``.
    None without a clock. Nothing here is hidden information: every seat's time is public."""
    if clock is None:
        return None
    remaining = remaining_at(clock, now)
    order = list(players) if players is not None else list(remaining)
    return {
        "remaining_ms": {p: remaining[p] for p in order if p in remaining},
        "running": [] if clock["paused"] else list(clock["running"]),
        "deadlines": {seat: rfc3339(at) for seat, at in deadlines(clock).items()},
        "paused": clock["paused"],
    }
