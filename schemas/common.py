"""Shapes every game shares: the common fields of a state and the frame of a move
(``../shared/docs/api-contract.md``, "Core ideas"). Each game's ``StateSchema`` extends
:class:`CommonStateSchema` with its own fields, and builds its move schemas with
:func:`move_schema`."""
from __future__ import annotations

from marshmallow import RAISE, Schema, fields

from schemas.fields import (BOOL, INT, NUMBER, STR, Shape, doc, list_of, map_of, named, one_of, record,
                            string)

__all__ = ["PLAYER_ID", "IDS", "SCORES", "OUTCOME", "CommonStateSchema", "move_schema"]

PLAYER_ID = named("PlayerId", doc(string(1, 64), "A player id, chosen by the client at setup.", examples=["ann"]))
"""A player id: a string of 1 to 64 characters."""
IDS = list_of(STR)
SCORES = named("Scores", doc(map_of(NUMBER), "Player id to score."))
OUTCOME = named("Outcome", doc(record({
    "winners": doc(list_of(PLAYER_ID), "The winners; several when they share a draw."),
    "draw": doc(BOOL, "True when several players share the win."),
    "scores": SCORES,
    "reason": doc(STR, "Why the game ended (`game_end` for a game played to its end).", examples=["game_end"]),
}), "How a finished game ended."))


class CommonStateSchema(Schema):
    """The fields of every game's state: ``game``, ``schema_version``, ``players`` (seat order),
    ``status``, ``active_players``, ``move_count``, ``outcome`` (null until finished), ``seed``
    and ``rng`` (the generator)."""

    class Meta:
        unknown = RAISE

    game = Shape(STR, required=True)
    schema_version = Shape(INT, required=True)
    players = Shape(list_of(PLAYER_ID), required=True)
    status = Shape(STR, required=True)
    active_players = Shape(IDS, required=True)
    move_count = Shape(INT, required=True)
    outcome = Shape(OUTCOME, required=True, allow_none=True)
    seed = Shape(INT, required=True)
    rng = Shape(doc(STR, pattern="^[0-9a-f]{16}$"), required=True,
                description="The generator's state: SplitMix64, 16 lowercase hex digits.")


def move_schema(prefix: str, move_type: str, **params: fields.Field) -> type[Schema]:
    """The schema of one move type: ``player``, ``type`` (exactly ``move_type``) and ``params``;
    nothing else. ``prefix`` keeps class names apart between games (``RSMoveMoveSchema``)."""
    attrs: dict[str, object] = {
        "Meta": type("Meta", (), {"unknown": RAISE}),
        "player": Shape(PLAYER_ID, required=True),
        "type": Shape(one_of((move_type,)), required=True),
        **params,
    }
    name = prefix + "".join(part.capitalize() for part in move_type.split("_")) + "MoveSchema"
    return type(name, (Schema,), attrs)
