"""Shapes of ``POST /v1/games/{game}/suggest``: the request envelope and the answer.

The request is checked like every envelope (400 with ``errors`` keyed by field); the state
inside it then goes through the game's own state shape and ``check_state`` as everywhere.
The answer's shape is declared here too, so the spec and the tests derive it from one place.
"""

from __future__ import annotations

from marshmallow import RAISE, Schema

from rules.bots import LEVELS, MAX_TIME_MS
from schemas.fields import BOOL, INT, OBJECT, STR, Shape, integer, one_of
from schemas.requests import MAX_SEED, PLAYER_ID

__all__ = ["SuggestRequest", "SuggestAnswer", "SUGGEST"]


class SuggestRequest(Schema):
    """``{"state", "player", "level", "seed"?, "time_ms"?}``: the seat to suggest a move for, the
    bot level (one of the game's ``bot_levels``), the bot's seed (random when omitted; the answer
    says which) and its time limit in milliseconds (default ``DEFAULT_TIME_MS``), counted from the
    request's arrival."""

    class Meta:
        unknown = RAISE

    state = Shape(OBJECT, required=True)
    player = Shape(PLAYER_ID, required=True)
    level = Shape(one_of(LEVELS), required=True)
    seed = Shape(integer(0, MAX_SEED), allow_none=True)
    time_ms = Shape(integer(1, MAX_TIME_MS), allow_none=True)


class SuggestAnswer(Schema):
    """The answer: the move, and what helps a front end explain it."""

    move = Shape(OBJECT, required=True)
    level = Shape(one_of(LEVELS), required=True)
    seed = Shape(integer(0, MAX_SEED), required=True)
    time_ms = Shape(integer(1, MAX_TIME_MS), required=True)
    playouts = Shape(INT, required=True)
    considered = Shape(INT, required=True)
    complete = Shape(BOOL, required=True)
    reason = Shape(STR, required=True)


SUGGEST = SuggestRequest()
