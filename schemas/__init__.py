"""marshmallow schemas: request envelopes (``schemas.requests``) and, per game, the shapes of its
state, moves and setup options (``schemas.<game>``).

``for_game(game_id)`` gives a game's ``GameSchemas``; every loader raises marshmallow's
``ValidationError`` with messages keyed from the body root (``state.hands.ann.0``,
``move.target``, ``options.deck``), which the API turns into a 400.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from marshmallow import Schema, ValidationError

from schemas import reign_absolute, reign_and_ruin, reign_supreme, reigns_the_council
from schemas.fields import load

__all__ = ["GameSchemas", "MoveSchema", "for_game", "load", "SCHEMAS", "ValidationError"]

_MAX_ECHO = 40


def _short(text: str) -> str:
    return repr(text if len(text) <= _MAX_ECHO else text[:_MAX_ECHO] + "...")


class MoveSchema:
    """A move of one game: dispatches on ``type`` to that move type's schema."""

    def __init__(self, move_schemas: Mapping[str, type[Schema]]) -> None:
        self.schemas: dict[str, Schema] = {name: cls() for name, cls in move_schemas.items()}
        self.types = tuple(move_schemas)

    def load(self, move: Any) -> dict[str, Any]:
        if type(move) is not dict:
            raise ValidationError({"_schema": ["Not a valid mapping type."]})
        move_type = move.get("type")
        schema = self.schemas.get(move_type) if type(move_type) is str else None
        if schema is None:
            if "type" not in move:
                message = "Missing data for required field."
            elif type(move_type) is not str:
                message = "Not a valid string."
            else:
                message = (
                    f"Unknown move type {_short(move_type)}; expected one of: "
                    f"{', '.join(self.types)}."
                )
            raise ValidationError({"type": [message]})
        return load(schema, move)


@dataclass(frozen=True)
class GameSchemas:
    """The shapes of one game. ``load_*`` raise ValidationError keyed from the body root."""

    game_id: str
    state: Schema
    move: MoveSchema
    options: Schema

    def load_state(self, state: Any, prefix: str = "state") -> None:
        try:
            load(self.state, state)
        except ValidationError as err:
            raise ValidationError({prefix: err.messages}) from None

    def load_move(self, move: Any, prefix: str = "move") -> None:
        try:
            self.move.load(move)
        except ValidationError as err:
            raise ValidationError({prefix: err.messages}) from None

    def load_options(self, options: Any, prefix: str = "options") -> None:
        try:
            load(self.options, options)
        except ValidationError as err:
            raise ValidationError({prefix: err.messages}) from None


SCHEMAS: dict[str, GameSchemas] = {
    reign_absolute.GAME_ID: GameSchemas(
        reign_absolute.GAME_ID,
        reign_absolute.StateSchema(),
        MoveSchema(reign_absolute.MOVE_SCHEMAS),
        reign_absolute.OptionsSchema(),
    ),
    reign_and_ruin.GAME_ID: GameSchemas(
        reign_and_ruin.GAME_ID,
        reign_and_ruin.StateSchema(),
        MoveSchema(reign_and_ruin.MOVE_SCHEMAS),
        reign_and_ruin.OptionsSchema(),
    ),
    reign_supreme.GAME_ID: GameSchemas(
        reign_supreme.GAME_ID,
        reign_supreme.StateSchema(),
        MoveSchema(reign_supreme.MOVE_SCHEMAS),
        reign_supreme.OptionsSchema(),
    ),
    reigns_the_council.GAME_ID: GameSchemas(
        reigns_the_council.GAME_ID,
        reigns_the_council.StateSchema(),
        MoveSchema(reigns_the_council.MOVE_SCHEMAS),
        reigns_the_council.OptionsSchema(),
    ),
}
"""Game id -> its schemas, created once."""


def for_game(game_id: str) -> GameSchemas:
    """The schemas of ``game_id``; KeyError when the game has none."""
    return SCHEMAS[game_id]
