"""``/v1/sessions...``: games the service holds for front ends that keep no state.

Thin, like the stateless endpoints: parse, authenticate, call ``rules``, commit through
``api.session_store`` (one atomic compare-and-set per move), serialise. Every answer a seat or a
spectator gets is redacted for them by the game's ``view``, ``view_event`` and ``view_move``.

Auth: ``Authorization: Bearer <token>``. A seat token opens that seat; the admin token only
deletes. Without a token the caller is a spectator. ``/events`` also accepts ``?token=``,
because a browser's ``EventSource`` cannot send headers.
"""

from __future__ import annotations

import hashlib
import re
import select
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, current_app, request

import schemas
from api import jsonio, session_clocks
from api import session_access as access
from api.bot_seats import bot_violations, session_bot_seed
from api.client_shares import client_key
from api.clock_checks import check_clock
from api.errors import ApiError
from api.fairness import Fairness
from api.games import new_game, picture, read_body
from api.session_store import (
    DIGEST_CHARS,
    Committed,
    Conflict,
    Remembered,
    Replay,
    Session,
    SessionGone,
    SessionStore,
    StateTooLarge,
    history_entry,
    now,
)
from api.store import StoreUnavailable
from api.stream_slots import StreamSlots
from api.worker import STREAMING
from rules.engine import Game
from rules.engine_types import Violation
from rules.errors import IllegalMove
from rules.records import state_digest
from rules.registry import get_game
from schemas import requests as envelopes
from schemas.requests import MAX_VERSION

__all__ = ["bp", "STOPPING"]

bp = Blueprint("sessions", __name__, url_prefix="/v1/sessions")

HISTORY_PAGE = 500
"""History entries per page of ``/history`` (and per read when a stream catches up)."""
MOVE_ATTEMPTS = 20
"""A move sent without ``If-Match`` or ``expected_version`` is checked against the current
version; when another move lands first it is checked again, this many times at most."""
POLL_SECONDS = 1.0

STOPPING = threading.Event()
"""Set when this worker is shutting down: open streams end so the worker can exit."""


# -- helpers -------------------------------------------------------------------------------------
def _view_entry(
    game: Game, entry: dict[str, Any], viewer: str | None, whole: bool = False
) -> dict[str, Any]:
    """A history entry as ``viewer`` may see it; ``whole``: unredacted (a finished game)."""
    viewed = {
        "version": entry["version"],
        "player": entry["player"],
        "move": entry["move"] if whole else game.view_move(entry["move"], viewer),
        "events": (
            list(entry["events"])
            if whole
            else [game.view_event(event, viewer) for event in entry["events"]]
        ),
        "at": entry["at"],
        "clock": entry.get("clock"),  # the clock as of this version; null without one
    }
    if "by" in entry:  # "clock": a timeout (api.clock_keeper); "takeback": api.records
        viewed["by"] = entry["by"]
    if "takeback" in entry:  # an accepted takeback (api.records): public
        viewed["takeback"] = entry["takeback"]
    return viewed


_DIGITS = re.compile(r"[0-9]{1,16}")
"""A number in a query or header: ASCII digits only (``str.isdigit`` and ``int`` also take
``٣``, Arabic-Indic three, and ``int`` takes ``_`` and spaces). 16 digits hold any version."""


def _number(raw: str, name: str, minimum: int, maximum: int, code: str) -> int:
    """``raw`` as an integer from ``minimum`` to ``maximum``, written in ASCII digits; else a 400
    ``code`` naming ``name`` (a query parameter or a header)."""
    if _DIGITS.fullmatch(raw) is None or not minimum <= int(raw) <= maximum:
        kind = "header" if code == "invalid_header" else "query parameter"
        raise ApiError(
            400,
            code,
            f"The {kind} {name} must be an integer from {minimum} to {maximum} in ASCII digits.",
            errors={name: [f"Not an integer from {minimum} to {maximum} in ASCII digits (0-9)."]},
        )
    return int(raw)


def _history_entry(
    game: Game, session: Session, entry: dict[str, Any], viewer: str | None
) -> dict[str, Any]:
    """A ``/history`` entry for ``viewer``: redacted while the game goes on; once it is finished,
    whole for everyone (every move and event as it happened), so that with the revealed seed
    anyone can replay and check the game (``reign-referee verify``). Hidden information is
    hidden "never before the end" (docs/architecture.md, "Fair sessions")."""
    if session.state["status"] == "finished":
        return _view_entry(game, entry, viewer, whole=True)
    return _view_entry(game, entry, viewer)


def _int_arg(name: str, default: int, minimum: int, maximum: int) -> int:
    raw = request.args.get(name)
    if raw is None or raw == "":
        return default
    return _number(raw, name, minimum, maximum, "invalid_query")


def _cursor_within(after: int, version: int, name: str) -> None:
    """A history or stream cursor names a version the session has reached: one past the
    current version would wait for versions the history will never number that way (a stream
    would skip every move up to it), so it is a 400 naming the parameter, never silence."""
    if after > version:
        code = "invalid_header" if name == "Last-Event-ID" else "invalid_query"
        raise ApiError(
            400,
            code,
            f"{name} is {after}, past the session's version {version}; "
            f"use a version from 0 to {version}.",
            errors={name: [f"Past the session's version ({version})."]},
            current_version=version,
        )


# -- create, read, delete --------------------------------------------------------------------------
@bp.post("")
def create_session():
    body = read_body(envelopes.CREATE_SESSION)
    game = get_game(body["game"])  # 404 unknown_game
    fairness = Fairness.new(body.get("seed"), body.get("open") is True)  # seed: open only (400)
    state = new_game(game, dict(body, seed=fairness.seed))
    bots = body.get("bots") or {}
    _check_bots(game, state, bots)
    check_clock(game, state, body, access.store().ttl)  # 400/422 naming the field
    clock = session_clocks.new_clock(game, state, body, session_clocks.now_ms())
    # what the record needs besides the history: version 0's digest and rules version
    origin = {"start_digest": state_digest(state), "schema_version": state["schema_version"]}
    try:
        session_id, seats, admin = access.store().create(
            state,
            now(),
            bots,
            session_bot_seed(fairness.seed),
            fairness.to_stored(),
            body.get("options") or {},
            clock=clock[1] if clock else None,
            origin=origin,
        )
    except StateTooLarge as err:
        raise access.too_large(err) from None
    if clock is not None:
        current_app.extensions["referee_clocks"].start()
    access.bot_seats().nudge(session_id, state, bots)
    location = f"/v1/sessions/{session_id}"
    payload = {
        "session_id": session_id,
        "game": game.id,
        "version": 0,
        "seats": seats,
        "bots": bots,
        "admin_token": admin,
        "view": game.view(state, None),
        **access.table(game, state, fairness),
        "clock": session_clocks.answer_clock(clock[1].new if clock else None, state["players"]),
    }
    return payload, 201, {"Location": location, "ETag": access.etag(0), "Cache-Control": "no-store"}


def _check_bots(game: Game, state: dict[str, Any], bots: dict[str, str]) -> None:
    """422 ``invalid_bots`` naming each bad ``bots.<player>`` (``api.bot_seats.bot_violations``)."""
    found = bot_violations(game, state, bots)
    if found:
        violations = [
            Violation(v.code, f"{where}: {v.message}", v.rule).to_dict()
            for where, v in found.items()
        ]
        raise ApiError(
            422,
            "invalid_bots",
            " ".join(v["message"] for v in violations),
            violations=violations,
            errors={where: [v.message] for where, v in found.items()},
        )


def _not_modified(tag: str) -> bool:
    """Whether the request's ``If-None-Match`` names the answer's opaque ``tag`` (or is ``*``):
    the caller's copy is current, 304 (RFC 9110, section 13.1.2). Only the whole tag matches: the
    version alone (``"3"``) may be another viewer's copy, or one from before a pause or a takeback
    proposal."""
    wanted = request.headers.get("If-None-Match")
    if wanted is None:
        return False
    tags = access.entity_tags(wanted, "If-None-Match", weak=True)
    return tags is None or tag in tags  # None: "*"


def _view_headers(tag: str) -> dict[str, str]:
    """The headers of a view's answer (200 or 304): its tag, and that it is the caller's."""
    return {"ETag": access.quoted(tag), "Vary": "Authorization", "Cache-Control": "no-cache"}


@bp.get("/<session_id>")
def read_session(session_id: str):
    """The session as the caller may see it. Its tag holds all the answer depends on besides the
    version that may change without one: the viewer, the clock as stored (paused, resumed, time
    added, a timeout; not the time that passes, or a poll would never get a 304: ``remaining_ms``
    is as of the answer) and the pending takeback (README, "How sessions behave")."""
    session = access.load_session(session_id)
    viewer = access.viewer(session)
    takeback = access.store().pending_takeback(session.id, session.version)
    stored_clock = session_clocks.parse(session.clock)
    tag = access.view_etag_value(session.version, viewer, stored_clock, takeback)
    headers = _view_headers(tag)
    if _not_modified(tag):
        return Response(status=304, headers=headers)
    game = get_game(session.game)
    return (
        {
            "session_id": session.id,
            "game": session.game,
            "version": session.version,
            "players": session.players,
            "bots": session.bots,
            "seat": viewer,
            "status": session.state["status"],
            "options": session.options,
            "view": game.view(session.state, viewer),
            **access.table(game, session.state, access.fairness(session)),
            "clock": session_clocks.public(session),
            "takeback": takeback,
        },
        200,
        headers,
    )


@bp.delete("/<session_id>")
def delete_session(session_id: str):
    session = access.load_session(session_id, needs_token=True)
    token = access.bearer()
    if token is None:
        raise access.unauthorized(
            "Deleting a session needs its admin token: 'Authorization: Bearer <admin token>'."
        )
    if not session.is_admin(token):
        if session.seat_of(token) is None:  # a stranger's token: 401, as for every operation
            raise access.unauthorized("The token is not this session's admin token.")
        raise ApiError(403, "forbidden", "Only the session's admin token deletes it.")
    access.check_if_match(session.version)
    access.store().delete(session.id)
    return Response(status=204)


@bp.get("/<session_id>/board.svg")
def board_picture(session_id: str):
    """The picture of the caller's view: a seat's with its token, the spectator's without. It is
    drawn from the state and the viewer only (``api.games.picture``): its tag holds the viewer."""
    session = access.load_session(session_id)
    viewer = access.viewer(session)
    tag = access.view_etag_value(session.version, viewer)
    headers = _view_headers(tag)
    if _not_modified(tag):  # a front end polling the picture redraws nothing
        return Response(status=304, headers=headers)
    answer = picture(get_game(session.game), session.state, viewer)
    answer.headers.update(headers)
    return answer


# -- a seat's moves --------------------------------------------------------------------------------
@bp.get("/<session_id>/legal-moves")
def session_legal_moves(session_id: str):
    session = access.load_session(session_id, needs_token=True, plays=True)
    seat = access.seat(session)
    game = get_game(session.game)
    return (
        {
            "session_id": session.id,
            "game": session.game,
            "version": session.version,
            "player": seat,
            "moves": game.legal_moves(session.state, seat),
            **access.table(game, session.state, access.fairness(session)),
            "clock": session_clocks.public(session),
        },
        200,
        {"ETag": access.etag(session.version), "Cache-Control": "no-store"},
    )


def _move_answer(
    game: Game,
    version: int,
    entry: dict[str, Any],
    state: dict[str, Any],
    seat: str,
    fairness: Fairness,
) -> dict[str, Any]:
    return {
        "game": game.id,
        "version": version,
        "events": [game.view_event(e, seat) for e in entry["events"]],
        "view": game.view(state, seat),
        "outcome": state.get("outcome"),
        **access.table(game, state, fairness),
        "clock": entry.get("clock"),
    }


def _fingerprint(move: Any, expected: int | None, if_match: str | None) -> str:
    """What makes two requests with one Idempotency-Key the same request: the digest of the move,
    ``expected_version`` and ``If-Match`` (``DIGEST_CHARS`` hex characters of SHA-256)."""
    return hashlib.sha256(jsonio.dumps([move, expected, if_match])).hexdigest()[:DIGEST_CHARS]


@bp.post("/<session_id>/moves")
def submit_move(session_id: str):
    store = access.store()
    session = access.load_session(session_id, needs_token=True)  # plays: after the key
    seat = access.seat(session)
    body = read_body(envelopes.SESSION_MOVE)
    move = body["move"]
    expected = body.get("expected_version")
    if_match_header = request.headers.get("If-Match")
    if_match = access.if_match_tags()
    game = get_game(session.game)
    _load_session_move(game, move)
    if move["player"] != seat:
        raise ApiError(
            403,
            "forbidden",
            f"This seat token is {seat!r}'s; it cannot move for {move['player'][:64]!r}.",
        )
    key = access.idempotency_key()
    idem = None if key is None else (seat, key)
    fingerprint = _fingerprint(move, expected, if_match_header)
    if idem is not None and _a_takeback_proposals_key(store, session.id, idem):
        raise access.key_reused()

    for _ in range(MOVE_ATTEMPTS):
        if idem is not None:
            prior = store.remembered(session.id, *idem)
            if prior is not None:
                return _replay(store, game, session.id, seat, prior, fingerprint)
        access.check_plays(session)
        access.check_preconditions(session.version, if_match, expected)
        state, events = game.apply(session.state, move)  # 422 illegal_move, nothing written
        version = session.version + 1
        entry = history_entry(version, seat, move, events, state)
        clock = session_clocks.for_move(session, game, state, entry, session_clocks.now_ms())
        answer = _move_answer(game, version, entry, state, seat, access.fairness(session))
        try:
            result = store.commit(
                session.id,
                session.version,
                state,
                entry,
                entry["at"],
                idem,
                fingerprint,
                clock,
            )
        except StateTooLarge as err:
            raise access.too_large(err) from None
        if isinstance(result, Committed):
            access.bot_seats().nudge(
                session.id, state, session.bots
            )  # a bot's reply lands after this answer
            return answer, 200, {"ETag": access.etag(result.version), "Cache-Control": "no-store"}
        if isinstance(result, Replay):
            return _replay(store, game, session.id, seat, result.remembered, fingerprint)
        assert isinstance(result, Conflict)
        if result.current is None:
            raise ApiError(404, "unknown_session", "The session was deleted or expired.")
        access.check_preconditions(result.current, if_match, expected)
        # no precondition: check the move again on the new version
        session = access.load_session(session.id)
    raise ApiError(
        409,
        "version_conflict",
        "Other moves kept landing first; send the move again.",
        current_version=session.version,
    )


def _load_session_move(game: Game, move: Any) -> None:
    """``move`` shape-checked for the session's game (400, keyed ``move.<field>``). The spec's
    session move is any game's move (a session's game is not in its path), so a move that is
    well-formed for another game is not malformed: it is a 422 ``illegal_move`` naming both
    games."""
    try:
        schemas.for_game(game.id).load_move(move)
    except schemas.ValidationError:
        for other, shapes in schemas.SCHEMAS.items():
            if other != game.id and _loads(shapes, move):
                message = (
                    f"This session plays {game.id}, which has no such move; this is a move of "
                    f"{other} (type {str(move['type'])[:40]!r})."
                )
                violation = Violation("wrong_game", message, f"{game.id}#moves")
                raise IllegalMove([violation]) from None
        raise


def _loads(shapes: schemas.GameSchemas, move: Any) -> bool:
    try:
        shapes.load_move(move)
    except schemas.ValidationError:
        return False
    return True


def _a_takeback_proposals_key(store: SessionStore, session_id: str, idem: tuple[str, str]) -> bool:
    """Whether the session's latest takeback proposal (one that waited on seats; one that landed
    at once is remembered as a move's key is) was made with this seat's key: that key is a
    takeback's, not a move's (docs/records.md, "Retries")."""
    latest = store.latest_takeback(session_id)
    mark = "" if latest is None else latest.get("proposal", "")
    return mark.partition(" ")[0] == store.answer_field(*idem)


def _replay(
    store: SessionStore,
    game: Game,
    session_id: str,
    seat: str,
    prior: Remembered,
    fingerprint: str,
) -> Any:
    """The answer to a retry of a remembered Idempotency-Key, rebuilt (issues 23, 24): the
    ``version`` its move made and that history entry's ``events`` redacted for the seat, as the
    first answer had them; the ``view`` (and ``outcome``) of the session *now*, which is the
    first answer's when no move landed since. ``ETag`` is the current version (``"<version>"``,
    as a move's answer). Another request with the key: 422 ``idempotency_key_reused``, naming the
    header."""
    if prior.digest != fingerprint:
        raise access.key_reused()
    source = store.replay_source(session_id, prior.version)
    if source is None:
        raise ApiError(404, "unknown_session", "The session was deleted or expired.")
    session, entry = source
    body = _move_answer(game, prior.version, entry, session.state, seat, access.fairness(session))
    return (
        body,
        200,
        {
            "ETag": access.etag(session.version),
            "Idempotent-Replayed": "true",
            "Cache-Control": "no-store",
        },
    )


# -- history and live events -----------------------------------------------------------------------
@bp.get("/<session_id>/history")
def history(session_id: str):
    session = access.load_session(session_id)
    viewer = access.viewer(session)
    after = _int_arg("after", 0, 0, MAX_VERSION)
    _cursor_within(after, session.version, "after")
    limit = _int_arg("limit", HISTORY_PAGE, 1, HISTORY_PAGE)
    version, entries = access.store().history(session.id, after, limit)
    game = get_game(session.game)
    return (
        {
            "session_id": session.id,
            "game": session.game,
            "version": version,
            "seat": viewer,
            "entries": [_history_entry(game, session, e, viewer) for e in entries],
            "more": bool(entries) and entries[-1]["version"] < version,
            **access.table(game, session.state, access.fairness(session)),
            "clock": session_clocks.public(session),
        },
        200,
        {"Vary": "Authorization"},
    )


@bp.get("/<session_id>/events")
def events(session_id: str):
    session = access.load_session(session_id)
    viewer = access.viewer(session, allow_query=True)
    last = request.headers.get("Last-Event-ID", "").strip(" \t")
    if last:  # an EventSource sends the last id it saw; ours are versions
        after = _number(last, "Last-Event-ID", 0, MAX_VERSION, "invalid_header")
        _cursor_within(after, session.version, "Last-Event-ID")
    else:
        after = _int_arg("after", session.version, 0, MAX_VERSION)
        _cursor_within(after, session.version, "after")
    settings = current_app.config["REFEREE_SETTINGS"]
    slots: StreamSlots = current_app.extensions["referee_stream_slots"]
    # The client as every limit counts it (api.client_shares.client_key; README "Quotas").
    give_back = slots.take(client_key(request.remote_addr))
    pubsub: Any = None

    def close() -> None:  # the stream ended, however it did (the worker's server calls this)
        try:
            if pubsub is not None:
                pubsub.close()
        finally:
            give_back()  # once, however often it is called

    try:
        store = access.store()
        pubsub = store.subscribe(session.id)  # before reading the backlog, so nothing falls between
        game = get_game(session.game)
        client_gone = _hangup_detector(request.environ.get("gunicorn.socket"))
        ends = (
            time.monotonic() + settings.max_stream_seconds if settings.max_stream_seconds else None
        )
        body = _stream(
            store,
            game,
            session.id,
            viewer,
            after,
            pubsub,
            settings.heartbeat,
            lambda: client_gone() or (ends is not None and time.monotonic() >= ends),
            access.toucher(session),
        )
        response = Response(
            body,
            mimetype="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )
        response.call_on_close(close)
    except BaseException:  # no stream after all (the store is down, say): no slot held either
        close()
        raise
    streaming = request.environ.get(STREAMING)
    if streaming is not None:  # capped as a stream now (slots), no longer as a request
        streaming()
    return response


def _sse(entry: dict[str, Any]) -> bytes:
    return b"id: %d\nevent: move\ndata: %s\n\n" % (entry["version"], jsonio.dumps(entry))


def _hangup_detector(sock: Any):
    """A function telling whether the client of ``sock`` has hung up (its end of the connection
    reads as closed). Without it a dead stream would hold its thread until the next heartbeat
    write fails. Servers that do not expose the socket get a function that always says no."""
    if sock is None:
        return lambda: False

    def gone() -> bool:
        try:
            readable, _, _ = select.select([sock], [], [], 0)
            return bool(readable) and sock.recv(1, socket.MSG_PEEK) == b""
        except (OSError, ValueError):
            return True

    return gone


def _touch(touch: Callable[[], bool]) -> bool:
    """A heartbeat's touch of the streamed session: whether it is still there. One the store
    failed says yes, and is not the stream's end (a fault is not a session gone): the next
    heartbeat touches again, and a store that is down ends the stream through its own read of
    the channel, as before."""
    try:
        return touch()
    except StoreUnavailable:
        return True


_DELETED = b"event: deleted\ndata: {}\n\n"
"""The stream's last event when its session goes: deleted (the DELETE publishes it) or expired
(a heartbeat or a history read finds it gone; an expiry publishes nothing)."""


def _stream(
    store: SessionStore,
    game: Game,
    session_id: str,
    viewer: str | None,
    after: int,
    pubsub: Any,
    heartbeat: int,
    stop: Callable[[], bool],
    touch: Callable[[], bool],
):
    """The event stream: history after ``after``, then each new version as it lands; a comment
    line every ``heartbeat`` idle seconds, each followed by a ``touch()`` of the session
    (``access.toucher``: a bot due since a process that queued it died moves for whoever
    watches, within a heartbeat); ``event: takeback`` when a takeback is proposed or declined,
    ``event: clock`` when the clock changes without a version (the admin's, a grace: README "Turn
    clocks"); ``event: deleted`` and the end when the session goes, deleted
    (its DELETE says so on the channel) or expired (nothing is said: the next heartbeat's touch,
    or a read of the history, finds it gone), so its stream's slot comes back then.
    It also ends when ``stop()`` says so (the client hung up, or ``MAX_STREAM_SECONDS`` passed:
    the client reconnects with ``Last-Event-ID`` and misses nothing)."""
    last = after
    yield b"retry: 2000\n: connected\n\n"
    try:
        while True:  # the backlog, page by page
            _, entries = store.history(session_id, last, HISTORY_PAGE)
            for entry in entries:
                yield _sse(_view_entry(game, entry, viewer))
                last = entry["version"]
            if len(entries) < HISTORY_PAGE:
                break
        quiet_since = time.monotonic()
        for message in store.messages(pubsub, POLL_SECONDS):
            if STOPPING.is_set() or stop():
                return
            if message is None:
                if time.monotonic() - quiet_since >= heartbeat:
                    quiet_since = time.monotonic()
                    yield b": heartbeat\n\n"
                    if not _touch(touch):
                        yield _DELETED
                        return
                continue
            quiet_since = time.monotonic()
            if message.get("deleted"):
                yield _DELETED
                return
            if "takeback_news" in message:  # proposed or declined: no version of its own
                yield b"event: takeback\ndata: %s\n\n" % jsonio.dumps(message["takeback_news"])
                continue
            if "clock_news" in message:  # the admin's change, a grace: no version of its own
                yield b"event: clock\ndata: %s\n\n" % jsonio.dumps(message["clock_news"])
                continue
            version = message["version"]
            if version <= last:
                continue
            if version > last + 1:  # missed some (a reconnect of the pub/sub link): fill in
                _, missing = store.history(session_id, last, version - 1 - last)
                for entry in missing:
                    yield _sse(_view_entry(game, entry, viewer))
                    last = entry["version"]
            yield _sse(_view_entry(game, message, viewer))
            last = version
    except SessionGone:
        yield _DELETED
    except StoreUnavailable:
        return  # the client reconnects with Last-Event-ID once the store is back
