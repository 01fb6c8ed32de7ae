"""The timekeeper of session clocks: fires timeouts from the shared deadlines (issue 25).

One thread per process polls the deadline set (``api.clock_store``) every ``CLOCK_POLL_MS``,
claims the sessions whose wake-up time has come (each claim is one worker's, for a lease) and
hands them to a small pool (``CLOCK_THREADS``). For a claimed session the keeper reads it and
decides from its stored clock (``api.clock``) alone, so whichever worker or instance claims it
decides the same:

- nothing due (a move came first, a pause, a wake-up set early on purpose): hand it back with
  its next deadline;
- a seat's time is out and it has a grace left: the clock gives it (a clock-only compare-and-set;
  no history entry; the streams get it as ``event: clock``);
- else the clock moves for the seat (a bot seat: its own bot, :func:`clock_move`), by the
  session's ``on_timeout``: ``forfeit`` (the seat loses,
  ``rules.forfeit``), ``bot`` (``rules.bots.suggest`` at that level plays this one move from the
  seat's view; the seat stays human) or ``pause`` (an entry that changes no state and pauses the
  clocks). The entry has ``"by": "clock"`` and is committed by ``SessionStore.commit`` on the
  version the timeout was computed for, exactly like a move: a move that lands first makes it a
  conflict, and the keeper reads again (the deadline has moved on). So a timeout never fires
  twice and never after the move it would have replaced.

Nothing lives only in this process: a worker that dies holding a claim loses it when the lease
expires (``LEASE_MS``), and any other worker fires it then.

Time the service could not referee is nobody's time (README "Turn clocks", "Downtime"): each
poll is a heartbeat, and the poll that finds that no timekeeper polled for longer than
:func:`outage_ms` (a restart, a store outage) moves every running clock past that downtime
(``api.clock_downtime``) before any timekeeper claims a deadline again (``api.clock_store``).
A look whose time is more than that after its claim (the process stalled) judges nothing and
hands the session back, so no timeout found due across a downtime fires before the walk.

The thread starts when the worker starts (``reign-referee serve``, ``api.gunicorn_conf``) and,
in any other process, at the app's first request of any kind (``api.create_app``; an
orchestrator's ``/healthz`` is one) or when it first sees a clocked session, whichever comes
first.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from api import clock as clocks
from api import clock_downtime, rules_version, session_clocks
from api.bot_seats import move_seed, session_bot_seed
from api.clock_store import OUTAGE_MS, Claim, claimed_at
from api.session_store import Conflict, Session, SessionStore, StateTooLarge, history_entry
from api.store import StoreUnavailable
from rules.bots import BOTS, NoMoveToSuggest, suggest
from rules.engine import Game
from rules.engine_types import Event, Move, PlayerId, State
from rules.forfeit import forfeit
from rules.registry import get_game

__all__ = ["ClockKeeper", "TIMEOUT", "Fired", "clock_move", "outage_ms"]

log = logging.getLogger(__name__)

TIMEOUT = "timeout"
"""The move type of a ``pause`` timeout (it changes no state)."""
_ATTEMPTS = 8
"""Reads of one claimed session before it is handed back to be looked at again at once."""
CLAIM_BATCH = 64
STORE_RETRY_MAX_SECONDS = 10.0
"""The longest a keeper whose store fails waits before it tries again: the poll's wait doubles
with each failure in a row up to this, so a store that is down (or a worker of plain gunicorn that
reaches none, README) costs a try and a log line every 10 s, not every ``CLOCK_POLL_MS``."""
OTHER_RULES_MS = 5 * 60 * 1000
"""The least a session of other rules' deadline is put off when a keeper passes it by: a
referee of its own rules sharing the store fires it, at most this late."""
OUTAGE_POLLS = 3
"""A keeper's own polls that make a downtime at least, however seldom it polls."""


def outage_ms(poll_ms: int) -> int:
    """How long no timekeeper may have polled before a keeper polling every ``poll_ms`` takes
    that time for downtime: ``OUTAGE_MS``, or :data:`OUTAGE_POLLS` of its polls when longer (a
    ``CLOCK_POLL_MS`` set that high), so that its usual wait is never taken for one."""
    return max(OUTAGE_MS, OUTAGE_POLLS * poll_ms)


def clock_move(
    game: Game,
    session: Session,
    clock: clocks.Clock,
    seat: PlayerId,
    bot_time_ms: int,
) -> tuple[State, list[Event], Move]:
    """The clock's move for ``seat`` whose time ran out: the state after, its events, the move.

    ``bot`` falls back to ``pause`` when the bot has no move to make (it never should: the game
    waits on the seat), so a session is never left with a seat out of time and nobody to move.
    A bot seat out of time plays its own move, whatever ``on_timeout`` says
    (:func:`session_clocks.timeout_action`)."""
    action, level = session_clocks.timeout_action(session, clock, seat)
    state = session.state
    if action == "forfeit":
        return forfeit(game, state, seat)
    if action == "bot":
        view = game.view(state, seat)
        seed = move_seed(session_bot_seed(int(state.get("seed", 0))), view, seat)
        try:
            chosen = suggest(
                BOTS[game.id],
                view,
                seat,
                level,
                seed,
                bot_time_ms,
            )
        except (NoMoveToSuggest, ValueError) as err:
            log.warning("clock bot for %s of session %s has no move: %r", seat, session.id, err)
        else:
            new, events = game.apply(state, chosen.move)
            return new, events, chosen.move
    return state, [], {"player": seat, "type": TIMEOUT}


class Fired:
    """What one look at a session did (tests and logs): timeouts committed, graces given."""

    def __init__(self) -> None:
        self.timeouts: list[tuple[int, PlayerId]] = []
        self.graces: list[PlayerId] = []


class ClockKeeper:
    """The timekeeper of one process (see the module)."""

    def __init__(
        self,
        store: SessionStore,
        bot_time_ms: int,
        poll_ms: int = 100,
        threads: int = 4,
        now: Callable[[], int] = session_clocks.now_ms,
        nudge: Callable[[str, State, dict[str, str]], None] | None = None,
    ) -> None:
        self.store = store
        self.nudge = nudge
        """Called after each timeout lands (``BotSeats.nudge``: a bot seat may be due next)."""
        self.bot_time_ms = bot_time_ms
        self.poll_ms = poll_ms
        self.threads = threads
        self.outage_ms = outage_ms(poll_ms)
        self.now = now
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._pool: ThreadPoolExecutor | None = None
        self._other_rules = rules_version.Reported("clock keeper")
        """Sessions of other rules passed by (``api.rules_version``): logged once each."""

    # -- lifecycle ---------------------------------------------------------------------------
    def start(self) -> None:
        """Start polling (idempotent, cheap when started)."""
        if self._thread is not None or self._stop.is_set():
            return
        with self._lock:
            if self._thread is not None or self._stop.is_set():
                return
            self._pool = ThreadPoolExecutor(self.threads, thread_name_prefix="clock-keeper")
            thread = threading.Thread(target=self._poll, name="clock-poll", daemon=True)
            thread.start()
            self._thread = thread

    def stop(self) -> None:
        """Stop polling; claims held now come back to other workers when their lease ends."""
        self._stop.set()  # no lock: this may run in a signal handler (gunicorn's SIGTERM)
        if self._pool is not None:
            self._pool.shutdown(wait=False)

    # -- the loop ------------------------------------------------------------------------------
    def _poll(self) -> None:
        failures = 0  # in a row: each doubles the wait, up to STORE_RETRY_MAX_SECONDS
        while not self._stop.is_set():
            try:
                claim = self._claim()
                failures = 0
            except StoreUnavailable as err:
                failures += 1
                log.warning(
                    "clock keeper: the store failed (%s); trying again in %.1f s",
                    err,
                    self._wait_seconds(failures),
                )
                claim = Claim()
            except Exception:  # a bug: logged, and the next poll tries again
                log.exception("clock keeper: claim failed")
                claim = Claim()
            if claim.walker is not None:
                continue  # the clocks are past the downtime: claim what is due at once
            claimed = claim.sessions
            pool = self._pool
            for session_id, lease in claimed:
                if pool is None or self._stop.is_set():
                    break
                try:
                    pool.submit(self._look_safely, session_id, lease)
                except RuntimeError:  # shut down meanwhile; the lease brings it back elsewhere
                    break
            if len(claimed) < CLAIM_BATCH:
                self._stop.wait(self._wait_seconds(failures))

    def _claim(self) -> Claim:
        """One poll (``ClockDeadlines.claim``): the sessions claimed; or, when this poll took the
        walk past a downtime, none, once every running clock is past it (``walker`` set)."""
        claim = self.store.deadlines.claim(self.now(), CLAIM_BATCH, self.outage_ms)
        if claim.walker is not None:
            clock_downtime.move_past(self.store, claim.downtimes, claim.walker, self.now)
        return claim

    def _wait_seconds(self, failures: int) -> float:
        """The wait before the next poll after ``failures`` failures of the store in a row."""
        if failures == 0:
            return self.poll_ms / 1000
        return min(STORE_RETRY_MAX_SECONDS, self.poll_ms / 1000 * 2 ** min(failures, 20))

    def _look_safely(self, session_id: str, lease: Any) -> None:
        try:
            self.look(session_id, lease)
        except Exception:  # the lease expires and the session is looked at again
            log.exception("clock keeper: session %s failed", session_id)

    def tick(self) -> list[Fired]:
        """Claim and look at every session due now, on this thread (tests, benchmarks)."""
        done: list[Fired] = []
        while True:
            claim = self._claim()
            if claim.walker is not None:
                continue
            done.extend(self.look(session_id, lease) for session_id, lease in claim.sessions)
            if len(claim.sessions) < CLAIM_BATCH:
                return done

    # -- one session ---------------------------------------------------------------------------
    def look(self, session_id: str, lease: Any = None) -> Fired:
        """Fire what is due in the session now, then hand it back with its next deadline. A
        session of other rules (``api.rules_version``) is never fired here (a timeout is a move
        under these rules) but keeps its deadline, put off by :data:`OTHER_RULES_MS` at least:
        a referee of its own rules on the same store (or this one rolled back) still times it
        out, and here it is looked at every few minutes, not in a loop, and logged once."""
        fired = Fired()
        wake: int | None = self.now()  # attempts ran out: look again at once
        for _ in range(_ATTEMPTS):
            session = self.store.load(session_id)
            clock = session_clocks.parse(session.clock) if session else None
            if session is None or clock is None:
                wake = None
                break
            if rules_version.of_other_rules(session.state):
                self._other_rules.pass_by(session.id, session.state)
                deadline = clocks.next_deadline(clock)
                wake = None if deadline is None else max(deadline, self.now() + OTHER_RULES_MS)
                break
            now = self.now()
            if lease is not None and now - claimed_at(lease) > self.outage_ms:
                # Claimed before a stall as long as a downtime: one may have been found since,
                # and not walked yet. A poll claims it again, after any walk.
                wake = now
                break
            if clock["version"] != session.version:
                # A commit that did not carry the clock (a path added without it): the clock is
                # brought to the session's version, as after a move of nobody's, before any
                # timeout is judged from it, so no seat times out for a version gone by.
                self._resync(session, clock, now)
                continue
            due = clocks.due(clock, now)
            if not due:
                wake = clocks.next_deadline(clock)
                break
            try:
                self.fire(session, clock, due[0], now, fired)
            except (StoreUnavailable, StateTooLarge) as err:
                log.warning("clock keeper: session %s: %s; trying again soon", session_id, err)
                break
        if lease is not None:
            self.store.deadlines.release(session_id, lease, wake)
        elif wake is not None:
            self.store.deadlines.lower(session_id, wake)
        return fired

    def _resync(self, session: Session, clock: clocks.Clock, now: int) -> None:
        waiting = get_game(session.game).waiting_on(session.state)
        synced = clocks.after_move(clock, None, waiting, session.version, now)
        log.warning("clock of session %s was behind its version; brought up to it", session.id)
        self.store.set_clock(
            session.id, session.version, session_clocks.write(session.clock or b"", synced)
        )

    def fire(
        self, session: Session, clock: clocks.Clock, seat: PlayerId, now: int, fired: Fired
    ) -> bool:
        """The timeout of ``seat`` in ``session`` as read (its version): a grace given, or the
        clock's move committed on that version. False when the session moved on first."""
        game = get_game(session.game)
        graced = clocks.with_grace(clock, seat, now)
        if graced is not None:
            result = self.store.set_clock(
                session.id, session.version, session_clocks.write(session.clock or b"", graced)
            )
            if result == "ok":
                fired.graces.append(seat)
                # No version says it: the streams hear of the later deadline as the admin's are.
                public = clocks.public(graced, now, session.players)
                self.store.announce_clock(session.id, public)
            return result == "ok"
        state, events, move = clock_move(game, session, clock, seat, self.bot_time_ms)
        entry = history_entry(session.version + 1, seat, move, events, state)
        entry["by"] = "clock"
        write = session_clocks.for_timeout(session, game, state, entry, now)
        committed = self.store.commit(
            session.id, session.version, state, entry, entry["at"], None, None, write
        )
        if isinstance(committed, Conflict):
            return False
        fired.timeouts.append((entry["version"], seat))
        if self.nudge is not None:
            self.nudge(session.id, state, session.bots)
        log.info(
            "clock: %s of session %s ran out of time (%s)",
            seat,
            session.id,
            session_clocks.timeout_action(session, clock, seat)[0],
        )
        return True
