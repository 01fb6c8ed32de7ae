"""Who is asking, and about which session: the request-level helpers every session blueprint
shares (``api.sessions``, ``api.records``, ``api.clock_admin``).

A session is looked up (404 when there is none), a bearer token read (401 when malformed), the
seat it opens found (403 for the admin token where a seat is needed), and the fields every
session answer carries besides its own (``table``).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from typing import Any

from flask import current_app, request

from api import jsonio, rules_version
from api.bot_seats import BotSeats
from api.errors import ApiError
from api.fairness import Fairness
from api.session_store import Session, SessionStore, StateTooLarge
from rules.engine import Game
from schemas.requests import ENTITY_TAG, ENTITY_TAGS

__all__ = [
    "bearer",
    "bot_seats",
    "etag",
    "etag_value",
    "fairness",
    "check_if_match",
    "check_preconditions",
    "entity_tags",
    "idempotency_key",
    "if_match_tags",
    "key_reused",
    "load_session",
    "check_plays",
    "names_version",
    "quoted",
    "rules_version_changed",
    "seat",
    "store",
    "table",
    "too_large",
    "toucher",
    "unauthorized",
    "view_etag_value",
    "viewer",
]


def store() -> SessionStore:
    return current_app.extensions["referee_sessions"]


def bot_seats() -> BotSeats:
    return current_app.extensions["referee_bot_seats"]


def load_session(session_id: str, needs_token: bool = False, plays: bool = False) -> Session:
    """The session, 404 when there is none. Every request that reads a session touches it: if
    the game waits on one of its bot seats, the bot is queued (``api.bot_seats``; never run on
    this thread), so a bot that was due when a process stopped moves on now.

    For an operation that ``needs_token``, a deleted session still checks the token against its
    tombstone: no token or a stranger's is 401, as for a live session; only its own admin or seat
    tokens learn that it is gone (404). An open stream touches its session again at each idle
    heartbeat (:func:`toucher`).

    An operation that ``plays`` the game under this referee's rules (a move, the legal moves, a
    takeback or its answer, the admin's clock) is refused, whoever asks, for a session that began
    under another version of its game's rules: 409 ``rules_version_changed``
    (``api.rules_version``; README, "How sessions behave"). The one place it is checked: every
    such operation loads its session here, and so do their reads again after a conflict."""
    session = store().load(session_id)
    if session is None:
        tombstone = store().tombstone(session_id) if needs_token else None
        if tombstone is not None:
            token = bearer()
            if token is None or not tombstone.knows(token):
                raise unauthorized("The token does not open this session.")
        raise ApiError(
            404, "unknown_session", "There is no such session (never created, expired, or deleted)."
        )
    bot_seats().nudge(session.id, session.state, session.bots)
    if session.clock is not None:
        current_app.extensions["referee_clocks"].start()  # this process keeps time too
    if plays:
        check_plays(session)
    return session


def check_plays(session: Session) -> None:
    """409 ``rules_version_changed`` when ``session`` began under another version of its game's
    rules (:func:`load_session`'s ``plays``). An operation with an ``Idempotency-Key`` loads its
    session without ``plays`` and asks this after looking for the key: a retry of a move that
    landed before an upgrade gets its first answer, as every retry does."""
    if rules_version.of_other_rules(session.state):
        raise rules_version_changed(session, rules_version.refusal(session.id, session.state))


def rules_version_changed(session: Session, detail: str) -> ApiError:
    """409 ``rules_version_changed``: ``session`` began under another version of its game's rules
    than this referee plays (``api.rules_version``), and ``detail`` says what cannot be done and
    what can. Tagged with the session's version, as every 409 is; ``current_version`` is the one
    version a fork may start from here."""
    return ApiError(
        409,
        "rules_version_changed",
        detail,
        current_version=session.version,
        headers={"ETag": etag(session.version)},
    )


def toucher(session: Session) -> Callable[[], bool]:
    """A touch of ``session`` for later, outside the request (``api.sessions``: each idle
    heartbeat of an open stream): whether the session is still there, so that a stream learns
    that its session expired (an expiry, unlike a DELETE, says nothing on the channel) and ends,
    giving its slot back. A session with bot seats is read again and its bots nudged, as
    :func:`load_session` does, so a bot that was due when another process stopped (its queue is
    memory, ``api.bot_seats``) moves for a table that only watches; one without is only looked
    for (``SessionStore.exists``: one field). Made within the request (it holds the app's store
    and bot seats), called without an app context. Raises StoreUnavailable as a read does: a
    fault, never taken for the session's end."""
    sessions, session_id = store(), session.id
    if not session.bots:
        return lambda: sessions.exists(session_id)
    seats = bot_seats()

    def touch() -> bool:
        found = sessions.load(session_id)
        if found is None:  # deleted or expired
            return False
        seats.nudge(found.id, found.state, found.bots)
        return True

    return touch


def bearer(allow_query: bool = False) -> str | None:
    """The bearer token of the request, or None when it carries none. 401 when malformed."""
    header = request.headers.get("Authorization")
    if header is None:
        token = request.args.get("token") if allow_query else None
        return token or None
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise unauthorized("The Authorization header must be 'Bearer <token>'.")
    return token


def unauthorized(detail: str) -> ApiError:
    return ApiError(
        401, "unauthorized", detail, headers={"WWW-Authenticate": 'Bearer realm="reign-referee"'}
    )


def viewer(session: Session, allow_query: bool = False) -> str | None:
    """The seat the request's token opens; None (a spectator) without a token. 401 for a token
    that opens no seat, 403 for the admin token (it runs the clock, forks and deletes; it does
    not sit at the table, so it reads nothing a seat's token or no token would not)."""
    token = bearer(allow_query)
    if token is None:
        return None
    seat = session.seat_of(token)
    if seat is not None:
        return seat
    if session.is_admin(token):
        raise ApiError(
            403,
            "forbidden",
            "The admin token does not sit at the table (it runs the clock, forks and deletes the "
            "session): read with a seat's token, or with none as a spectator.",
        )
    raise unauthorized("The token does not open any seat of this session.")


def seat(session: Session) -> str:
    seat = viewer(session)
    if seat is None:
        raise unauthorized("This needs a seat token: 'Authorization: Bearer <seat token>'.")
    return seat


MAX_IDEMPOTENCY_KEY = 255


def idempotency_key() -> str | None:
    """The request's ``Idempotency-Key`` (a move's, a takeback proposal's), or None; 400
    ``invalid_header`` naming it when it is not 1 to ``MAX_IDEMPOTENCY_KEY`` characters."""
    key = request.headers.get("Idempotency-Key")
    if key is not None and not 1 <= len(key) <= MAX_IDEMPOTENCY_KEY:
        raise ApiError(
            400,
            "invalid_header",
            f"Idempotency-Key must be 1 to {MAX_IDEMPOTENCY_KEY} characters.",
            errors={"Idempotency-Key": ["Not 1 to 255 characters."]},
        )
    return key


def key_reused() -> ApiError:
    """422 ``idempotency_key_reused``: the request's Idempotency-Key was already used for another
    request (a move's, or a takeback proposal's)."""
    return ApiError(
        422,
        "idempotency_key_reused",
        "This Idempotency-Key was already used for a different request.",
        errors={"Idempotency-Key": ["Already used for a different request."]},
    )


def etag_value(version: int) -> str:
    """The opaque tag of a session version: its number. The tag of every answer about a version
    that does not depend on who asks or on what changes between versions (a move's answer, the
    legal moves, a 412 or 409, a new session or fork); ``view_etag_value`` is the others'."""
    return str(version)


def etag(version: int) -> str:
    return quoted(etag_value(version))


def quoted(opaque: str) -> str:
    """An opaque tag as an ``ETag`` header sends it: a strong entity tag (RFC 9110 §8.8.3)."""
    return f'"{opaque}"'


VIEW_TAG_CHARS = 12
"""Hex characters of SHA-256 in a view's tag (``view_etag_value``): enough that two answers of one
version a client holds never share a tag by chance."""


def view_etag_value(version: int, *depends_on: Any) -> str:
    """The opaque tag of an answer about ``version`` that also depends on ``depends_on`` (JSON
    values): ``<version>.<digest>``, the digest ``VIEW_TAG_CHARS`` hex characters of SHA-256 of
    them. A strong validator changes whenever the representation does (RFC 9110 §8.8.1), and
    ``GET /v1/sessions/{id}`` changes without a new version (the viewer, a clock the admin
    pauses, a pending takeback: README, "How sessions behave"): its tag holds them all. The
    version part still names the version, so the tag is also an ``If-Match`` of a move
    (``names_version``)."""
    digest = hashlib.sha256(jsonio.dumps(list(depends_on))).hexdigest()[:VIEW_TAG_CHARS]
    return f"{version}.{digest}"


def names_version(opaque: str, version: int) -> bool:
    """Whether an opaque tag names ``version``: its version tag (``"3"``), or a view's tag of it
    (``"3.<digest>"``, whatever the digest: a move is made on the version, not on a view of it).
    Compared exactly, as ASCII (``"03"`` and ``"٣"`` name no version)."""
    wanted = etag_value(version)
    return opaque == wanted or opaque.startswith(wanted + ".")


_ENTITY_TAGS = re.compile(ENTITY_TAGS)
_ENTITY_TAG = re.compile(ENTITY_TAG)


def entity_tags(header: str, name: str, weak: bool) -> set[str] | None:
    """The entity tags an ``If-Match``/``If-None-Match`` header lists, None for ``*``; 400 when
    the header is not that syntax. Weak tags count only when ``weak`` (If-None-Match compares
    weakly, If-Match strongly: RFC 9110 §13.1.1-2). A well-formed tag that names no version of
    the session (``"abc"``, ``"12345678901234567890"``) is kept: it simply matches nothing."""
    if _ENTITY_TAGS.fullmatch(header) is None:
        raise ApiError(
            400,
            "invalid_header",
            f'{name} must be * or a list of entity tags (RFC 9110), like "3" or W/"3", "4".',
            errors={name: ['Expected * or entity tags like "3".']},
        )
    if header.strip(" \t") == "*":
        return None
    return {opaque for is_weak, opaque in _ENTITY_TAG.findall(header) if weak or not is_weak}


def check_preconditions(current: int, if_match: set[str] | None, expected: int | None) -> None:
    """412 when ``If-Match`` names another version, 409 when ``expected_version`` does.
    ``if_match`` None: no If-Match, or ``*`` (any current version). A tag names a version as
    ``"3"`` or as a view's tag of it (``"3.<digest>"``, the ``ETag`` of a session read: a client
    that echoes it moves on the version it read; the rest of the tag is not the move's concern)."""
    if if_match is not None and not any(names_version(tag, current) for tag in if_match):
        raise ApiError(
            412,
            "precondition_failed",
            'If-Match names no tag of the current version (a weak tag, W/"3", never '
            f"matches: If-Match compares strongly); the session is at version {current}.",
            current_version=current,
            headers={"ETag": etag(current)},
        )
    if expected is not None and expected != current:
        raise ApiError(
            409,
            "version_conflict",
            f"expected_version is {expected}, but the session is at version {current}.",
            current_version=current,
            headers={"ETag": etag(current)},
        )


def check_if_match(current: int) -> None:
    """412 unless the request's ``If-Match``, when it has one, names version ``current``: every
    write to a session evaluates it before anything else (RFC 9110 §13.1.1: "An origin server
    that receives an If-Match header field MUST evaluate the condition"), a move with
    ``expected_version`` besides (:func:`check_preconditions`)."""
    check_preconditions(current, if_match_tags(), None)


def if_match_tags() -> set[str] | None:
    """The strong entity tags of the request's ``If-Match`` (:func:`entity_tags`); None without
    one or for ``*``: no condition on the version."""
    header = request.headers.get("If-Match")
    return None if header is None else entity_tags(header, "If-Match", weak=False)


def table(game: Game, state: dict[str, Any], fairness: Fairness) -> dict[str, Any]:
    """What every session answer carries besides its own fields (contract, "Fairness"): the
    ``fairness`` commitment (seed and salt once the game is finished, or from the start when
    open) and ``to_move``, the players the game waits on (``Game.waiting_on``)."""
    return {
        "fairness": fairness.public(state["status"] == "finished"),
        "to_move": game.waiting_on(state),
    }


def fairness(session: Session) -> Fairness:
    return Fairness.from_stored(session.fairness, session.state)


def too_large(err: StateTooLarge) -> ApiError:
    """The 422 of a state over its limit; never with the state's size, which can tell hidden
    choices apart (``api.session_store.PLAY_GROWTH``)."""
    return ApiError(
        422,
        "state_too_large",
        f"The session's state would be over {err.limit} bytes of JSON, the most a session "
        "stores (MAX_SESSION_STATE_BYTES; during play, twice it). Nothing was written.",
        limit=err.limit,
    )
