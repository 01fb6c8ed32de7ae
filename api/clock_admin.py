"""``POST /v1/sessions/{id}/clock``: the admin pauses and resumes the clocks, or gives a seat more
time (lichess's add-time). Issue 25.

Only the clock changes: no version, no history entry (the answer and every later answer show
it, and the session's ``/events`` streams get it as ``event: clock``, so an open table stops or
starts its countdown: README "Turn clocks"). The write is a compare-and-set on the version and
the clock as read (``api.clock_store``), so it never undoes a move or a timeout that landed
meanwhile; it is computed again on what landed.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import current_app

from api import clock as clocks
from api import session_access as access
from api import session_clocks
from api.errors import ApiError
from api.games import read_body
from api.session_store import SessionStore
from api.sessions import bp
from api.store import StoreUnavailable
from rules.registry import get_game
from schemas import requests as envelopes

__all__ = ["set_clock"]

_ATTEMPTS = 20
log = logging.getLogger(__name__)


@bp.post("/<session_id>/clock")
def set_clock(session_id: str):
    sessions: SessionStore = current_app.extensions["referee_sessions"]
    session = access.load_session(session_id, needs_token=True, plays=True)
    token = access.bearer()
    if token is None:
        raise access.unauthorized(
            "The clock needs the admin token: 'Authorization: Bearer <admin token>'."
        )
    if not session.is_admin(token):
        if session.seat_of(token) is None:  # a stranger's token: 401, as for every operation
            raise access.unauthorized("The token is not this session's admin token.")
        raise ApiError(403, "forbidden", "Only the session's admin token sets its clock.")
    body = read_body(envelopes.SESSION_CLOCK_REQUEST)
    access.check_if_match(session.version)
    action = body["action"]
    if action == "add_time":
        missing = [name for name in ("player", "seconds") if body.get(name) is None]
        if missing:
            raise ApiError(
                400,
                "invalid_body",
                f"add_time needs {' and '.join(missing)}.",
                errors={name: ["Missing data for required field."] for name in missing},
            )
    elif body.get("player") is not None or body.get("seconds") is not None:
        extra = [name for name in ("player", "seconds") if body.get(name) is not None]
        raise ApiError(
            400,
            "invalid_body",
            f"{action} takes no {' or '.join(extra)}.",
            errors={name: [f"Only add_time takes {name}."] for name in extra},
        )
    for _ in range(_ATTEMPTS):
        clock = session_clocks.parse(session.clock)
        if clock is None:
            raise ApiError(409, "no_clock", "This session has no clock.")
        if session.state["status"] == "finished":  # its clocks stopped with the game for good
            raise ApiError(
                409, "game_finished", "The game is over: its clock can no longer be changed."
            )
        if action == "add_time" and body["player"] not in session.players:
            message = f"{body['player'][:64]!r} is not a player of this session."
            raise ApiError(422, "unknown_player", message, errors={"player": [message]})
        now = session_clocks.now_ms()
        if action == "pause":
            new = clocks.pause(clock, now)
        elif action == "resume":
            new = clocks.resume(clock, now)
        else:
            new = clocks.add_time(clock, body["player"], body["seconds"], now)
        wake = clocks.next_deadline(new)
        if wake is not None:
            sessions.deadlines.lower(session.id, wake)  # before the clock: never late
        result = sessions.set_clock(
            session.id, session.version, session_clocks.write(session.clock or b"", new)
        )
        if result == "ok":
            current_app.extensions["referee_clocks"].start()
            public = clocks.public(new, now, session.players)
            _announce(sessions, session.id, public)
            return (
                {
                    "session_id": session.id,
                    "game": session.game,
                    "version": session.version,
                    "clock": public,
                    **access.table(get_game(session.game), session.state, access.fairness(session)),
                },
                200,
                {"Cache-Control": "no-store"},
            )
        # a move, a timeout or another admin call came first
        session = access.load_session(session.id, plays=True)
    raise ApiError(409, "version_conflict", "The clock kept changing; send the request again.")


def _announce(sessions: SessionStore, session_id: str, clock: dict[str, Any]) -> None:
    """Send the new clock to the session's streams (``event: clock``). The clock is written by
    then, so a store that fails here only delays the news until a page's next read: the answer
    is still the 200 of a change made (a 503 would invite an ``add_time`` sent twice)."""
    try:
        sessions.announce_clock(session_id, clock)
    except StoreUnavailable as err:
        log.warning("clock of session %s changed but not announced: %s", session_id, err)
