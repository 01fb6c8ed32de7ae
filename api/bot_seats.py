"""Bot seats of sessions: the service moves for the seats a session gave to bots (issue 15).

``POST /v1/sessions`` with ``"bots": {"<player>": "<level>"}`` makes those seats the service's.
Whenever the game waits on a bot seat (``Game.waiting_on``: every active player in most games,
only ``active_players[0]`` in Reign Supreme, whose ruling RS 10 also lists players who merely
*may* act), the bot chooses a move from that seat's view only (``rules.bots.suggest``) and it is
committed through the same compare-and-set, history entry and event stream as a posted move
(``SessionStore.commit``), so nobody can tell a bot's move from a person's but by the seat.

Where it runs: never on a thread that answers requests. Each process has one small pool of
``BOT_THREADS`` threads; a request only *nudges* (:meth:`BotSeats.nudge`, a look at the state the
request has read anyway) and returns. A run plays the session's due bot moves one after the
other (several in a row when several bots are due), reading the session afresh before each; a
version conflict (a person's move, or another process's bot, landed first) just means reading
again and choosing again on the new version. A run plays at most ``RUN_MOVES`` moves, then
queues the session again behind the others, so a session of bots only (a game to watch) never
holds a thread for long. Each bot move thinks ``SESSION_BOT_TIME_MS`` at most.

Store faults: a run the store fails (unreachable, full, or an answer lost after a commit was
sent) is tried again by itself after a back-off (:data:`RETRY_SECONDS`, then every
``RETRY_SECONDS[-1]`` seconds, :data:`RETRIES` times in all: about five minutes), so a bot seat
never waits for someone to read the session once Redis is back (README "Faults": sessions resume
when Redis is back). A touch meanwhile runs it at once. Then it waits for its next touch (a read,
or its clock's timeout, which plays a bot seat's move): a store full for hours would otherwise
have every session whose bot was due choose its move again, up to ``SESSION_BOT_TIME_MS`` of
CPU, every 8 s. Each try reads the session afresh: a commit whose answer was
lost but which landed is simply the version it reads (the bot then moves only if it is due
again), and one that did not land is made again on the same version, with the same seed.

Restarts: nothing is remembered in the process. A session whose bot was due when its process
stopped moves on when it is next touched (any read of it, or a move), since every touch nudges;
an open ``/events`` stream touches its session at every idle heartbeat
(``api.session_access.toucher``), so a table that only watches sees the bot move within
``HEARTBEAT_SECONDS`` even when the process that queued it was killed. Several processes may
nudge one session: the compare-and-set lets exactly one move land.

Seeds: a session's ``bot_seed`` is derived from its setup seed (:func:`session_bot_seed`), and
each bot move's seed from that, the seat and the seat's view (:func:`move_seed`). So the same
session (same seed, options and bots) with the same human moves replays the same bot moves,
whichever process makes them (unless a search was cut short by ``SESSION_BOT_TIME_MS`` or a busy
machine: ``complete: false``). The seed never comes from the state's generator, nor from anything
the seat cannot see.

Takebacks: a bot facing, in its session, a state it already answered makes the move it made
there, not searched again, so a person cannot take back a bot's reply to fish for a better one,
whatever the time budget. Each bot move is remembered by the digest of the state it answered, in
the session hash, by the commit that makes it (``SessionStore.commit``'s ``reply_to``); before
choosing, the bot reads that one field for the state it is in (``SessionStore.reply``): one
small read per bot move, never the history. Replies made before they were kept are not
remembered (those are searched again, with the same seed).
"""

from __future__ import annotations

import hashlib
import heapq
import logging
import random
import threading
import time
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor

from api import rules_version, session_clocks
from api.session_clocks import now_ms
from api.session_store import Conflict, Session, SessionStore, StateTooLarge, history_entry
from api.store import StoreUnavailable
from rules.bots import BOTS, NoMoveToSuggest, refusal, suggest
from rules.engine import Game
from rules.engine_types import Move, PlayerId, State, View, Violation
from rules.records import state_digest
from rules.registry import get_game

__all__ = [
    "BotSeats",
    "BOT_THREADS",
    "RUN_MOVES",
    "RETRY_SECONDS",
    "RETRIES",
    "due_bot",
    "bot_violations",
    "session_bot_seed",
    "move_seed",
]

log = logging.getLogger(__name__)

BOT_THREADS = 2
"""Threads per process that play bot seats (all sessions share them)."""
RUN_MOVES = 16
"""Moves (or conflicting attempts) one run makes before the session queues again behind others."""
RETRY_SECONDS = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0)
"""Back-off before a run the store failed is tried again: the n-th consecutive failure waits
``RETRY_SECONDS[n - 1]``, every later one the last (one read of the session each 8 s while the
store is down, for each session whose bot was due)."""
RETRIES = 40
"""Tries of a run the store failed, in a row, before it waits for the session's next touch: the
back-off's 15.75 s, then 34 of 8 s (about five minutes of an outage)."""
_SEED_MASK = (1 << 63) - 1


def due_bot(game: Game, state: State, bots: Mapping[PlayerId, str]) -> PlayerId | None:
    """The bot seat the game waits on now (the first of ``game.waiting_on`` that is a bot), or
    None: no bot is waited on, or the game is over. A bot merely *listed* as active (Reign
    Supreme, RS 10) is not waited on and never moves for that."""
    for player in game.waiting_on(state):
        if player in bots:
            return player
    return None


def _forced_concession(game: Game, state: State, player: PlayerId) -> Move | None:
    """The concession of a waited-on bot seat whose only legal move is to concede, else None.

    A bot never chooses to concede (``rules.bots.suggest``), but a seat the game waits on with no
    other legal move could otherwise never move, and the session would stall for everyone: at a
    real table that player would have to concede too. No game's rules lead there today (the
    waited-on player always has another move), so this is a guard, not a strategy."""
    moves = game.legal_moves(state, player)
    if len(moves) == 1 and moves[0]["type"] == "concede":
        log.info("bot seat %s has no legal move but conceding; it concedes", player)
        return moves[0]
    return None


def session_bot_seed(setup_seed: int) -> int:
    """A session's bot seed: 63 bits of SHA-256 of its setup seed (one way: the bots' seeds tell
    nothing of the game's generator). Secret and unguessable while the game goes on, because the
    setup seed is: the service draws it (CSPRNG) and reveals it only at the end (``api.fairness``);
    an open session, whose seed is public, is not a fair game and says so."""
    return _hash63(f"reign-referee bot seats\0{setup_seed}")


def move_seed(bot_seed: int, view: View, player: PlayerId) -> int:
    """The seed of the bot move ``player`` makes from ``view`` (its view of the state): 63 bits
    of SHA-256 of the session's bot seed, the seat and the view's digest."""
    return _hash63(f"{bot_seed}\0{player}\0{state_digest(view)}")


def _hash63(text: str) -> int:
    return (
        int.from_bytes(hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()[:8], "big")
        & _SEED_MASK
    )


def bot_violations(game: Game, state: State, bots: Mapping[str, str]) -> dict[str, Violation]:
    """Why ``bots`` cannot sit at ``state`` (a new game), by field (``bots.<player>``; the
    messages do not repeat it): a player
    not in the game, a level the game's bots lack, a seat whose view the bots cannot imagine
    (e.g. a Council game with a custom deck)."""
    rule = f"{game.id}#bots"
    found: dict[str, Violation] = {}
    for player, level in bots.items():
        where = f"bots.{player}"
        if player not in state["players"]:
            found[where] = Violation(
                "unknown_seat",
                f"{player[:64]!r} is not a player of this session; "
                f"the players are {', '.join(state['players'])}.",
                rule,
            )
        elif level not in game.bot_levels:
            levels = ", ".join(game.bot_levels) or "none"
            found[where] = Violation(
                "unknown_bot_level",
                f"{game.title} has no bot level {level!r} (its bot_levels: {levels}).",
                rule,
            )
        else:
            try:
                why = refusal(BOTS[game.id], state)
                if why is not None:
                    raise ValueError(why)
                BOTS[game.id].determinize(game.view(state, player), random.Random(0))
            except ValueError as err:
                found[where] = Violation(
                    "bot_unavailable", f"The bots cannot play this game: {err}.", rule
                )
    return found


class BotSeats:
    """The bot seats of every session this process touches, played on a small thread pool."""

    def __init__(
        self,
        store: SessionStore,
        time_ms: int,
        threads: int = BOT_THREADS,
        retry_seconds: tuple[float, ...] = RETRY_SECONDS,
    ) -> None:
        self.store = store
        self.time_ms = time_ms
        self.retry_seconds = retry_seconds
        """The back-off after runs the store failed (:data:`RETRY_SECONDS`; tests: zeros)."""
        self._pool = ThreadPoolExecutor(threads, thread_name_prefix="bot-seats")
        self._lock = threading.Condition()
        self._runs: dict[str, bool] = {}
        """Sessions queued or running -> whether to look again when the run ends (a nudge came
        while it ran, so it may have missed the version that nudge saw)."""
        self._failures: dict[str, int] = {}
        """Sessions whose last runs the store failed -> how many in a row."""
        self._retry_at: dict[str, float] = {}
        """Sessions backing off -> when (``time.monotonic``) their run is tried again."""
        self._retries: list[tuple[float, str]] = []
        """The same as a heap; an entry no longer in ``_retry_at`` is void (a touch ran it)."""
        self._retrier: threading.Thread | None = None
        self._stopped = False
        self._other_rules = rules_version.Reported("bot seats")
        """Sessions of other rules passed by (``api.rules_version``): logged once each."""

    # -- from request threads: cheap, never waits on a bot ------------------------------------
    def nudge(self, session_id: str, state: State, bots: Mapping[PlayerId, str]) -> None:
        """Queue the session if, in ``state`` (which the request read anyway), the game waits on
        one of its ``bots``. Never waits for a bot. A session of other rules
        (``api.rules_version``) is passed by: its bots never move here (logged once)."""
        if not bots:
            return
        if rules_version.of_other_rules(state):
            self._other_rules.pass_by(session_id, state)
        elif due_bot(get_game(state["game"]), state, bots) is not None:
            self._queue(session_id)

    def _queue(self, session_id: str) -> None:
        with self._lock:
            if self._stopped:
                return
            self._retry_at.pop(session_id, None)  # backing off: the touch runs it now
            if session_id in self._runs:
                self._runs[session_id] = True
                return
            self._submit(session_id)

    def _submit(self, session_id: str) -> None:
        """Queue a run of the session on the pool (the lock held)."""
        self._runs[session_id] = False
        try:
            self._pool.submit(self._run, session_id)
        except RuntimeError:  # stop() shut the pool down meanwhile
            del self._runs[session_id]

    # -- on the pool --------------------------------------------------------------------------
    def _run(self, session_id: str) -> None:
        more = failed = False
        try:
            if not self._stopped:
                more = self.play(session_id, RUN_MOVES)
        except StoreUnavailable as err:  # tried again after a back-off, touched or not
            failed = True
            log.warning("bot seats of session %s: the store failed (%s)", session_id, err)
        except Exception:  # a bug: logged, and the session waits for its next touch
            log.exception("bot seats of session %s failed", session_id)
        with self._lock:
            again = self._runs.pop(session_id) or more
            failures = self._failures.pop(session_id, 0) + 1 if failed else 0
            if failures:
                self._failures[session_id] = failures
            if self._stopped:
                pass
            elif again:
                self._submit(session_id)
            elif failures > RETRIES:
                del self._failures[session_id]
                log.warning("bot seats of session %s wait for its next touch", session_id)
            elif failures:
                self._retry_later(session_id, self._backoff(failures))
            self._lock.notify_all()

    def _backoff(self, failures: int) -> float:
        """Seconds to wait after ``failures`` runs in a row the store failed (bounded)."""
        return self.retry_seconds[min(failures, len(self.retry_seconds)) - 1]

    def _retry_later(self, session_id: str, delay: float) -> None:
        """Run the session again in ``delay`` seconds (the lock held)."""
        when = time.monotonic() + delay
        self._retry_at[session_id] = when
        heapq.heappush(self._retries, (when, session_id))
        if self._retrier is None:
            self._retrier = threading.Thread(
                target=self._retry_due, name="bot-seats-retry", daemon=True
            )
            self._retrier.start()

    def _retry_due(self) -> None:
        """The retrier thread: queues each session backing off when its time comes."""
        with self._lock:
            while not self._stopped:
                now = time.monotonic()
                while self._retries and self._retries[0][0] <= now:
                    when, session_id = heapq.heappop(self._retries)
                    if self._retry_at.get(session_id) == when:
                        del self._retry_at[session_id]
                        self._submit(session_id)
                wait = self._retries[0][0] - now if self._retries else None
                self._lock.wait(wait)

    def play(self, session_id: str, limit: int) -> bool:
        """Make the session's due bot moves, at most ``limit`` attempts; True when a bot may still
        be due after them. Runs on the pool (tests may call it directly). Raises StoreUnavailable
        (StoreFull, OutcomeUnknown) when the store failed: the run is tried again later."""
        for _ in range(limit):
            session = self.store.load(session_id)
            if session is None or not session.bots:
                return False
            if rules_version.of_other_rules(session.state):  # refereed by its own rules only
                self._other_rules.pass_by(session.id, session.state)
                return False
            game = get_game(session.game)
            player = due_bot(game, session.state, session.bots)
            if player is None:
                return False
            answered = state_digest(session.state)
            # Made at this very state before (a takeback came back to it): legal, made again.
            move = self.store.reply(session.id, player, answered)
            if move is None:
                move = self._choose(game, session, player)
            if move is None:
                return False
            state, events = game.apply(session.state, move)
            entry = history_entry(session.version + 1, player, move, events, state)
            clock = session_clocks.for_move(session, game, state, entry, now_ms())
            try:
                result = self.store.commit(
                    session.id,
                    session.version,
                    state,
                    entry,
                    entry["at"],
                    None,
                    None,
                    clock,
                    reply_to=answered,
                )
            except StateTooLarge as err:
                log.warning("bot seats of session %s stop: %s", session_id, err)
                return False
            if isinstance(result, Conflict) and result.current is None:
                return False  # deleted meanwhile
            # Committed: another bot may be due next; Conflict: choose again on the new version.
        return True

    def _choose(self, game: Game, session: Session, player: PlayerId) -> Move | None:
        """The bot's move, from ``player``'s view only; None when it has none to make."""
        view = game.view(session.state, player)
        seed = move_seed(session.bot_seed, view, player)
        try:
            chosen = suggest(
                BOTS[game.id],
                view,
                player,
                session.bots[player],
                seed,
                self.time_ms,
            )
        except NoMoveToSuggest:
            return _forced_concession(game, session.state, player)
        except ValueError as err:
            log.warning(
                "bot seat %s of session %s cannot move at version %d: %r",
                player,
                session.id,
                session.version,
                err,
            )
            return None
        return chosen.move

    # -- lifecycle and tests ------------------------------------------------------------------
    def wait_idle(self, timeout: float) -> bool:
        """Wait until no session is queued, running or backing off here (tests); False on
        ``timeout``."""
        with self._lock:
            return self._lock.wait_for(lambda: not self._runs and not self._retry_at, timeout)

    def stop(self) -> None:
        """Stop taking work (worker shutdown, tests of a restart): queued runs end at once, a
        running move finishes, retries are dropped. What was due moves on when the session is
        next touched."""
        self._stopped = True  # no lock: this may run in a signal handler (gunicorn's SIGTERM)
        self._pool.shutdown(wait=False)
