"""Request envelopes: the body of each stateless endpoint, before any game looks at it.

They check the envelope only (``state`` is an object, ``players`` a list of player ids, ``seed``
an integer in range...); the game's own schemas (``schemas.for_game``) then check the shape of
``state``, ``move`` and ``options``. Unknown fields are an error (``RAISE``).
"""

from __future__ import annotations

from typing import Any

from marshmallow import RAISE, Schema, ValidationError, validates_schema

from rules.bots import LEVELS
from schemas.common import PLAYER_ID
from schemas.fields import (
    BOOL,
    OBJECT,
    Shape,
    doc,
    integer,
    list_of,
    map_of,
    named,
    one_of,
    string,
)

__all__ = [
    "MAX_SEED",
    "PLAYER_ID",
    "SetupRequest",
    "StateRequest",
    "StatePlayerRequest",
    "MoveRequest",
    "CreateSessionRequest",
    "BOT_SEATS",
    "SessionMoveRequest",
    "SETUP",
    "STATE",
    "STATE_PLAYER",
    "MOVE",
    "CREATE_SESSION",
    "SESSION_MOVE",
    "MAX_VERSION",
    "ENTITY_TAG",
    "ENTITY_TAGS",
]

MAX_SEED = (1 << 63) - 1

ENTITY_TAG = r'(W/)?"([\x21\x23-\x7E\x80-\xFF]*)"'
"""RFC 9110 §8.8.3: ``entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE`` (groups: weak flag, opaque tag)."""
ENTITY_TAGS = rf"^([ \t]*\*[ \t]*|[ \t,]*({ENTITY_TAG}([ \t]*,[ \t,]*{ENTITY_TAG})*[ \t,]*)?)$"
"""``If-Match`` and ``If-None-Match`` (RFC 9110 §13.1.1-2): ``"*" / #entity-tag``, a list that may
hold empty elements (§5.6.1.2). A regular expression both for Python (``fullmatch``) and for the
spec's ``pattern`` (ECMA-262); written so that no input makes it backtrack badly."""


class _Envelope(Schema):
    class Meta:
        unknown = RAISE


class SetupRequest(_Envelope):
    """``POST /v1/games/{game}/setup``: ``seed`` and ``options`` may be omitted (or null)."""

    players = Shape(
        list_of(PLAYER_ID),
        required=True,
        description=(
            "Player ids in clockwise seat order, each once; the count the game allows is in its setup request "
            "schema. Another count, an id outside the safe set (`PlayerId`), or one seat given twice "
            "(ids differing only by case or confusable characters), is a 422 `invalid_setup` "
            "naming `players.<i>`."
        ),
    )
    seed = Shape(
        integer(0, MAX_SEED),
        allow_none=True,
        description=(
            "Seed of the game's generator (0 to 2^63 - 1); omitted or null, the service draws one at random."
        ),
    )
    options = Shape(
        OBJECT,
        allow_none=True,
        description=(
            "The game's options; omitted or null (or `{}`), every option takes its default."
        ),
    )


class StateRequest(_Envelope):
    """``POST .../score``."""

    state = Shape(OBJECT, required=True)


class StatePlayerRequest(_Envelope):
    """``POST .../legal-moves`` and ``.../view``: ``player`` omitted or null means everyone
    active (legal moves) or a spectator (view)."""

    state = Shape(OBJECT, required=True)
    player = Shape(
        PLAYER_ID,
        allow_none=True,
        description=(
            "legal-moves: whose moves (omitted or null: every active player's); view: who is looking "
            "(omitted or null: a spectator). A player not in the game is a 422 `unknown_player`."
        ),
    )


class MoveRequest(_Envelope):
    """``POST .../validate`` and ``.../apply``."""

    state = Shape(OBJECT, required=True)
    move = Shape(OBJECT, required=True)


MAX_VERSION = (1 << 53) - 1
"""Session versions count moves; they stay exact integers for JavaScript clients."""


BOT_SEATS = named(
    "SessionBots",
    doc(
        map_of(one_of(LEVELS), key=string(1, 64)),
        (
            "The seats the service plays itself: player id to bot level (`{}` when none). A bot moves whenever "
            "the game waits on it, from its seat's view only, through the same history and event stream as "
            "any move."
        ),
        examples=[{"bob": "random"}],
    ),
)
"""``bots`` of a session: player id -> level. Which players and levels the game allows is a 422
(``invalid_bots``), checked against the game (its seats after setup, its ``bot_levels``)."""


class CreateSessionRequest(SetupRequest):
    """``POST /v1/sessions``: the setup body plus the ``game``, the bot seats and ``open``.

    The service draws a session's seed itself and commits to it (``api.fairness``); a ``seed``
    is allowed only with ``"open": true`` (a 400 naming ``seed`` otherwise), and such a session
    says ``open: true`` in every answer."""

    JSON_SCHEMA_EXTRA: dict[str, Any] = {
        "if": {"required": ["seed"], "properties": {"seed": {"type": "integer"}}},
        "then": {"required": ["open"], "properties": {"open": {"const": True}}},
    }
    """The ``seed`` rule below, for the spec (``schemas.openapi``): a seed needs ``open: true``."""

    seed = Shape(
        integer(0, MAX_SEED),
        allow_none=True,
        description=(
            'Only with `"open": true`: the seed of the game\'s generator (0 to 2^63 - 1). Omitted '
            "or null, the service draws one (CSPRNG) and commits to it (`fairness`). Given in a "
            "session that is not open: 400 naming `seed`."
        ),
    )
    open = Shape(
        BOOL,
        allow_none=True,
        description=(
            "True: an open session (tests, teaching): it may choose its `seed`, and shows its seed "
            "and salt from the start; every answer says `fairness.open: true`. Omitted, null or "
            "false: a fair session, whose seed the service draws and reveals only at the end."
        ),
    )

    game = Shape(string(1, 64), required=True, description="The game id (`GET /v1/games`).")
    bots = Shape(
        BOT_SEATS,
        allow_none=True,
        description=(
            'Seats the service plays itself, `{"<player>": "<level>"}`: each a player of this '
            "session, each level one of the game's `bot_levels`; every seat may be a bot (a game to "
            "watch). A bot seat gets no token; the service moves for it whenever the game waits on it "
            "(`SESSION_BOT_TIME_MS` per move), through the same history and event stream as any move. "
            "Omitted, null or `{}`: no bots. A player not in `players` or a level the game lacks is a "
            "422 `invalid_bots` naming `bots.<player>`."
        ),
    )

    @validates_schema
    def _seed_needs_open(self, data: dict[str, Any], **_: Any) -> None:
        if data.get("seed") is not None and data.get("open") is not True:
            raise ValidationError(
                'Only an open session ("open": true) chooses its seed; omit it and the service '
                "draws one and commits to it (fairness).",
                "seed",
            )


class SessionMoveRequest(_Envelope):
    """``POST /v1/sessions/{id}/moves``: the move, and optionally the version it was made on."""

    move = Shape(OBJECT, required=True)
    expected_version = Shape(
        integer(0, MAX_VERSION),
        allow_none=True,
        description=("The version the move was made on; 409 when the session is elsewhere."),
    )


# One instance of each, created once (schemas are stateless and thread-safe to load with).
SETUP = SetupRequest()
STATE = StateRequest()
STATE_PLAYER = StatePlayerRequest()
MOVE = MoveRequest()
CREATE_SESSION = CreateSessionRequest()
SESSION_MOVE = SessionMoveRequest()
