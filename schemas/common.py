"""Shapes every game shares: the common fields of a state and the frame of a move
(``../shared/docs/api-contract.md``, "Core ideas"). Each game's ``StateSchema`` extends
:class:`CommonStateSchema` with its own fields, and builds its move schemas with
:func:`move_schema`."""

from __future__ import annotations

from typing import Any

from marshmallow import RAISE, Schema, fields

from rules.engine_types import STATUSES
from rules.rng import MAX_SEED
from schemas.fields import (
    BOOL,
    INT,
    NUMBER,
    STR,
    Shape,
    doc,
    list_of,
    map_of,
    named,
    one_of,
    record,
    shape_only,
    string,
)

__all__ = [
    "PLAYER_ID",
    "PLAYER",
    "IDS",
    "SCORES",
    "OUTCOME",
    "STATUS",
    "TO_MOVE",
    "MAX_MOVE_COUNT",
    "CommonStateSchema",
    "move_schema",
    "spectator_example",
]

PLAYER_ID = named(
    "PlayerId",
    doc(
        string(1, 64),
        (
            "A player id, chosen by the client at setup: 1 to 64 characters of the safe set, "
            "stable under PRECIS UsernameCasePreserved (RFC 8265: no control, format or space "
            "characters, NFC). Ids that differ only by case or by confusable characters "
            "(Unicode TR 39) are the same seat. Setup refuses others with a 422 "
            "`invalid_setup` naming `players.<i>`; an id is never changed."
        ),
        examples=["ann"],
    ),
)
"""A player id: a string of 1 to 64 characters; the safe set is ``rules.player_ids``'."""
PLAYER = shape_only(PLAYER_ID)
"""A player id inside a state or a move: a string (who it names is the rules' 422)."""
STATUS = one_of(STATUSES)
TO_MOVE = named(
    "ToMove",
    doc(
        list_of(PLAYER_ID),
        "Whom the game waits on: the players of `active_players` it cannot go on without, in "
        "the same order; `[]` once finished. A client moves when its player is in `to_move`. "
        "Anyone else in `active_players` may act now but is not waited for (Reign Supreme, "
        "ruling RS 10: Teleport, Healing and cards outside your own turn).",
        examples=[["ann"]],
    ),
)
"""``to_move`` of every state and view (contract, Fairness): ``Game.waiting_on`` of the state."""
MAX_MOVE_COUNT = 2**53 - 1
"""The most moves a game counts: every JSON client reads the count exactly."""
IDS = list_of(STR)
SCORES = named("Scores", doc(map_of(NUMBER), "Player id to score."))
OUTCOME = named(
    "Outcome",
    doc(
        record(
            {
                "winners": doc(list_of(PLAYER_ID), "The winners; several when they share a draw."),
                "draw": doc(BOOL, "True when several players share the win."),
                "scores": SCORES,
                "reason": doc(
                    STR,
                    "Why the game ended (`game_end` for a game played to its end).",
                    examples=["game_end"],
                ),
            }
        ),
        "How a finished game ended.",
    ),
)


class CommonStateSchema(Schema):
    """The fields of every game's state: ``game``, ``schema_version``, ``players`` (seat order),
    ``status``, ``active_players``, ``to_move`` (whom the game waits on), ``move_count``,
    ``outcome`` (null until finished), ``seed`` and ``rng`` (the generator)."""

    class Meta:
        unknown = RAISE

    game = Shape(STR, required=True)
    schema_version = Shape(INT, required=True)
    players = Shape(
        list_of(PLAYER_ID), required=True, description="Player ids in clockwise seat order."
    )
    status = Shape(
        shape_only(STATUS),
        required=True,
        description="`finished` exactly when the game is over (`outcome` set).",
    )
    active_players = Shape(
        shape_only(list_of(PLAYER_ID)),
        required=True,
        description="Who may move now, in seat order; `[]` once finished.",
    )
    to_move = Shape(shape_only(TO_MOVE), required=True)
    move_count = Shape(
        doc(INT, minimum=0, maximum=MAX_MOVE_COUNT),
        required=True,
        description="Moves applied so far (at most 2^53 − 1, so every JSON client reads it "
        "exactly).",
    )
    outcome = Shape(
        OUTCOME, required=True, allow_none=True, description="Null until the game is finished."
    )
    seed = Shape(
        doc(INT, minimum=0, maximum=MAX_SEED),
        required=True,
        description="Seed of the state's generator (0 to 2^63 − 1).",
    )
    rng = Shape(
        doc(STR, pattern="^[0-9a-f]{16}$"),
        required=True,
        description="The generator's state: SplitMix64, 16 lowercase hex digits.",
    )


def move_schema(prefix: str, move_type: str, **params: fields.Field) -> type[Schema]:
    """The schema of one move type: ``player``, ``type`` (exactly ``move_type``) and ``params``;
    nothing else. ``prefix`` keeps class names apart between games (``RSMoveMoveSchema``)."""
    attrs: dict[str, object] = {
        "Meta": type("Meta", (), {"unknown": RAISE}),
        "player": Shape(PLAYER_ID, required=True, description="Who makes the move."),
        "type": Shape(one_of((move_type,)), required=True),
        **params,
    }
    name = prefix + "".join(part.capitalize() for part in move_type.split("_")) + "MoveSchema"
    return type(name, (Schema,), attrs)


def spectator_example(seat_view: dict[str, Any]) -> dict[str, Any]:
    """The example of a spectator's view of the same moment as ``seat_view``: no viewer, and no
    hand of its own (a view's examples are one seat's and a spectator's, declared once)."""
    spectator = {key: value for key, value in seat_view.items() if key != "hand"}
    spectator["viewer"] = None
    return spectator
