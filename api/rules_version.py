"""Sessions of other rules: a session is refereed only under the rules it began with (README,
"How sessions behave"; docs/records.md, "Sessions of other rules").

Every state carries ``schema_version``, the version of its game's rules that made it
(``Game.schema_version``). A session whose stored state has another version than the one this
referee plays for its game (the service was upgraded, or rolled back, since the session began) is
*a session of other rules* here. Played on, it would mix two rule books in one game: the new
rules would make its states while they kept the old number, a takeback or a fork would replay its
history under rules it was not played by, and its record would verify on no release. So:

- whatever would advance or change it is refused with 409 ``rules_version_changed``
  (``api.session_access.load_session`` with ``plays``: a move, the legal moves, a takeback or
  its answer, the admin's clock), and the clock keeper and the bot seats pass it by, logging it
  once (:class:`Reported`);
- reads keep working, and show it as stored;
- its current version may be forked (``api.records``): the fork starts from the stored state
  stamped with this referee's version (:func:`restamped`), when that position passes this
  version's checks (:func:`unfit`), and is then an ordinary session of these rules.

No Flask here: the details are written here, the 409 is ``api.session_access``'s.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict

import schemas
from rules.engine_types import State
from rules.errors import RulesError
from rules.registry import get_game

__all__ = [
    "REPORTED_LIMIT",
    "Reported",
    "began_under",
    "of_other_rules",
    "refusal",
    "only_current_forks",
    "restamped",
    "unfit",
    "unfit_detail",
]

log = logging.getLogger(__name__)

REPORTED_LIMIT = 4096
"""Sessions of other rules a background worker remembers having logged (:class:`Reported`)."""


def began_under(state: State) -> int:
    """The version of its game's rules a session's ``state`` was made by, which is the version
    the session began under: nothing played here changes it (this referee writes no state of a
    session of other rules)."""
    return state["schema_version"]


def of_other_rules(state: State) -> bool:
    """Whether ``state``, a session's as stored, was made under another version of its game's
    rules than the one this referee plays."""
    return began_under(state) != get_game(state["game"]).schema_version


def _versions(state: State) -> tuple[str, int, int]:
    """The game's title, the version the session began under, and the one played here."""
    game = get_game(state["game"])
    return game.title, began_under(state), game.schema_version


def refusal(session_id: str, state: State) -> str:
    """The detail of a refused move, legal-moves, takeback or clock change: both versions, and
    the ways out (a fork of the current version here, or a referee of the session's version)."""
    title, then, now = _versions(state)
    return (
        f"This game began under version {then} of {title}'s rules; this referee plays version "
        f"{now}. Fork its current version to play on under version {now} (POST "
        f"/v1/sessions/{session_id}/fork), or finish it on a referee of version {then}."
    )


def only_current_forks(state: State, version: int, current: int) -> str:
    """The detail of a fork of an earlier ``version`` of a session of other rules: reaching it
    means replaying the history, which only the rules it was played by may do."""
    title, then, now = _versions(state)
    return (
        f"This game began under version {then} of {title}'s rules; this referee plays version "
        f"{now}, and reaching version {version} would mean replaying its history under rules it "
        f"was not played by. Only its current version ({current}) can be forked here; fork "
        f"version {version} on a referee of version {then}."
    )


def restamped(state: State) -> State:
    """``state`` (a session's of other rules) as a position of the rules played here: the same
    state, its ``schema_version`` this referee's. A fork's start when it passes :func:`unfit`."""
    return dict(state, schema_version=get_game(state["game"]).schema_version)


def unfit(state: State) -> str | None:
    """Why ``state`` (:func:`restamped`) is no position of the rules played here: its game's
    state shape, then ``Game.check_state``, as the replay checks a fork's start
    (``rules.records.replay``); None when it is one."""
    try:
        schemas.for_game(state["game"]).load_state(state)
    except schemas.ValidationError as err:
        return f"its shape: {str(err.messages)[:300]}"
    try:
        get_game(state["game"]).check_state(state)
    except RulesError as err:
        return f"its integrity checks: {str(err)[:300]}"
    return None


def unfit_detail(state: State, why: str) -> str:
    """The detail of a fork refused because the current position, ``state`` as stored, does not
    fit the rules played here (``why``: :func:`unfit`)."""
    title, then, now = _versions(state)
    return (
        f"This game began under version {then} of {title}'s rules; its current position does "
        f"not fit version {now}'s, which this referee plays (it fails {why}), so it cannot be "
        f"forked to play on here. Finish it on a referee of version {then}."
    )


class Reported:
    """The sessions of other rules a background worker (the clock keeper, the bot seats) has
    logged passing by, so that it logs each once, however often it meets it (every read of a
    session nudges its bot seats). Bounded: past ``limit`` the oldest are forgotten, and logged
    again if met again. Thread-safe."""

    def __init__(self, worker: str, limit: int = REPORTED_LIMIT) -> None:
        self.worker = worker
        self.limit = limit
        self._seen: OrderedDict[str, None] = OrderedDict()
        self._lock = threading.Lock()

    def pass_by(self, session_id: str, state: State) -> None:
        """Log, the first time, that the worker passes ``session_id`` by (``state``: as read)."""
        with self._lock:
            if session_id in self._seen:
                return
            self._seen[session_id] = None
            if len(self._seen) > self.limit:
                self._seen.popitem(last=False)
        title, then, now = _versions(state)
        log.warning(
            "%s: session %s began under version %d of %s's rules and this referee plays %d: "
            "passed by (it may be forked, or finished on a referee of version %d)",
            self.worker,
            session_id,
            then,
            title,
            now,
            then,
        )
