"""Shapes of game records (issue 26): the record, and the request envelopes of ``/replay``,
``/fork`` and ``/takebacks``.

The record checker is the shape ``POST /v1/games/{game}/replay`` checks (400 when it fails: a
malformed record); whether the record is *true* is the replay's answer (200 ``valid: false``). A
move or event inside it is any JSON object here: a move that is not one of the game's is a
difference the replay reports at its version. The request's spec is this checker's own schema
(it allows exactly what the server accepts); the typed record a session answers
(``SessionRecord``, per game) is in ``schemas/openapi_base.yaml``, beside the other session
answers.
"""

from __future__ import annotations

from marshmallow import RAISE, Schema

from rules.records import FORMAT, FORMAT_VERSION
from schemas.common import PLAYER_ID
from schemas.fields import (
    BOOL,
    OBJECT,
    STR,
    Shape,
    at_most,
    integer,
    list_of,
    nullable,
    one_of,
    record,
    string,
)
from schemas.requests import MAX_SEED, MAX_VERSION

__all__ = [
    "RECORD",
    "MAX_RECORD_ENTRIES",
    "ReplayRequest",
    "ForkRequest",
    "TakebackRequest",
    "TakebackAnswerRequest",
    "REPLAY",
    "FORK",
    "TAKEBACK",
    "TAKEBACK_ANSWER",
    "ANSWERS",
]

MAX_RECORD_ENTRIES = 100_000
"""Entries a record sent to ``/replay`` may hold (``MAX_BODY_BYTES`` binds first)."""
HEX_DIGEST = string(64, 64)
VERSION = integer(0, MAX_VERSION)
ANSWERS = ("accept", "decline")

ENTRY = record(
    {
        "version": VERSION,
        "player": PLAYER_ID,
        "move": OBJECT,
        "events": list_of(OBJECT),
        "at": STR,
        "state_digest": nullable(HEX_DIGEST),  # null: an open game's running record
    },
    {
        "by": one_of(("clock", "takeback")),
        "clock": nullable(OBJECT),
        "takeback": record(
            {"takeback_id": STR, "to_version": VERSION, "accepted_by": list_of(PLAYER_ID)}
        ),
    },
)
FAIRNESS = record(
    {
        "open": BOOL,
        "seed_commitment": HEX_DIGEST,
        "seed": nullable(integer(0, MAX_SEED)),
        "salt": nullable(string(32, 32)),
    }
)
RECORD = record(
    {
        "format": one_of((FORMAT,)),
        "format_version": integer(FORMAT_VERSION, FORMAT_VERSION),
        "game": string(1, 64),
        "schema_version": integer(1, 1000),
        "options": OBJECT,
        "players": at_most(list_of(PLAYER_ID), 16),
        "fairness": FAIRNESS,
        "forked_from": nullable(record({"session_id": string(1, 64), "version": VERSION})),
        "start_digest": HEX_DIGEST,
        "entries": at_most(list_of(ENTRY), MAX_RECORD_ENTRIES),
    },
    {"start": OBJECT, "to_move": list_of(PLAYER_ID)},
)
"""A game record (``rules.records.record``), as ``/replay`` checks its shape."""


class _Envelope(Schema):
    class Meta:
        unknown = RAISE


class ReplayRequest(_Envelope):
    """``POST /v1/games/{game}/replay``: a whole record of a game of ``{game}``."""

    record = Shape(
        RECORD,
        required=True,
        description=(
            "A whole record (`GET /v1/sessions/{session_id}/record` of a finished game, or "
            "`reign-referee verify FILE`'s input)."
        ),
    )


class ForkRequest(_Envelope):
    """``POST /v1/sessions/{id}/fork``: the version to fork at, and whose knowledge."""

    version = Shape(
        VERSION,
        required=True,
        description="The version of the session the fork starts from (0 to the current one).",
    )
    as_ = Shape(
        PLAYER_ID,
        allow_none=True,
        data_key="as",
        description=(
            "A game still running forks only from one seat's knowledge: that seat (yours; "
            "omitted: your seat). Its view at `version` is kept, every hidden part drawn afresh. "
            "A finished game forks from the true state, whoever `as` names. A name that is no "
            "player of the session is a 422 `unknown_player`, running or finished."
        ),
    )


class TakebackRequest(_Envelope):
    """``POST /v1/sessions/{id}/takebacks``: the version to go back to."""

    to_version = Shape(
        VERSION,
        required=True,
        description=(
            "The version whose state the session returns to (before the current one, and not "
            "before the information horizon: 409 `past_information_horizon`)."
        ),
    )


class TakebackAnswerRequest(_Envelope):
    """``POST /v1/sessions/{id}/takebacks/{takeback_id}``: a seat's answer."""

    answer = Shape(
        one_of(ANSWERS),
        required=True,
        description="`accept` or `decline`; a seat's first answer stands.",
    )


REPLAY = ReplayRequest()
FORK = ForkRequest()
TAKEBACK = TakebackRequest()
TAKEBACK_ANSWER = TakebackAnswerRequest()
