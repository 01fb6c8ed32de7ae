"""Reign Absolute shapes: the state, each move type and the setup options (docs/architecture.md).

Shape only: JSON types, required fields, no unknown fields, the move ``type``. Whether an id is
a known unit, a cell is free or a phase is consistent is the rules' business
(``game.check_state``, ``game.violations``), answered with 422. Custom races and reinforcement
decks in ``options`` are checked by the rules too (422 ``invalid_setup`` naming the problem).
"""
from __future__ import annotations

from marshmallow import RAISE, Schema

from rules.reign_absolute.content import MAX_CARDS, MAX_RACES, default_catalogs
from rules.reign_absolute.moves import MOVE_FIELDS
from schemas.common import CommonStateSchema, move_schema
from schemas.fields import (BOOL, INT, JSON_INT_MAX, JSON_INT_MIN, OBJECT, STR, Shape, custom, known_or, list_of, map_of,
                            nullable, record)

__all__ = ["GAME_ID", "StateSchema", "OptionsSchema", "MOVE_SCHEMAS"]

GAME_ID = "reign-absolute"

_DEFAULT = default_catalogs()

_ids = list_of(STR)
_ids_by_player = map_of(_ids)


def _str_or_int(value: object) -> list[str] | None:
    """An effect parameter: a string (``effect``, ``when``) or an integer (``amount``, ``count``)."""
    return None if type(value) in (str, int) else ["Not a valid string or integer."]


_effect = map_of(custom(_str_or_int, {"type": ["string", "integer"], "minimum": JSON_INT_MIN, "maximum": JSON_INT_MAX}))
_unit = record({"race": STR, "name": STR, "strength": INT, "liege": BOOL, "abilities": list_of(_effect)})
_race_action = record({"id": STR, "name": STR, "effect": _effect})
_race = record({"name": STR, "units": _ids, "actions": list_of(_race_action), "setup": list_of(_effect)})
_card = record({"name": STR, "kind": STR, "number": INT, "effect": _effect})
_entry = record({"x": INT, "y": INT, "owner": STR, "reinforcements": _ids})
_turn = record({"player": STR, "number": INT, "stage": STR, "draws_left": INT, "drawn": nullable(STR),
                "marching": BOOL, "extra_turns": INT})
_doom = record({"caller": STR, "to_discard": _ids})


class StateSchema(CommonStateSchema):
    """A whole Reign Absolute state, hidden parts included."""

    phase = Shape(STR, required=True)
    turn_limit = Shape(INT, required=True)
    races = Shape(known_or(_DEFAULT["races"], map_of(_race)), required=True)
    units = Shape(known_or(_DEFAULT["units"], map_of(_unit)), required=True)
    cards = Shape(known_or(_DEFAULT["cards"], map_of(_card)), required=True)
    race_of = Shape(map_of(nullable(STR)), required=True)
    first_player = Shape(STR, required=True, allow_none=True)
    first_player_draws = Shape(list_of(map_of(STR)), required=True)
    unit_decks = Shape(_ids_by_player, required=True)
    battlefield = Shape(map_of(_entry), required=True)
    unit_discards = Shape(_ids_by_player, required=True)
    deck = Shape(_ids, required=True)
    discard = Shape(_ids, required=True)
    eradicated = Shape(_ids, required=True)
    placer = Shape(STR, required=True, allow_none=True)
    turn = Shape(_turn, required=True, allow_none=True)
    doom = Shape(_doom, required=True, allow_none=True)
    bonus_owed = Shape(_ids, required=True)


class OptionsSchema(Schema):
    """Setup options; each may be omitted or null for its default. The content of ``races`` and
    ``reinforcements`` is validated by the rules (422 ``invalid_setup``)."""

    class Meta:
        unknown = RAISE

    races = Shape(list_of(OBJECT, max_items=MAX_RACES), allow_none=True,
                  description=f"Custom races: at most {MAX_RACES}, otherwise 422.")
    reinforcements = Shape(list_of(OBJECT, max_items=MAX_CARDS), allow_none=True,
                           description=f"A custom reinforcement deck: at most {MAX_CARDS} cards, otherwise 422.")
    races_by_player = Shape(map_of(STR), allow_none=True)
    turn_limit = Shape(INT, allow_none=True)


# -- moves ------------------------------------------------------------------------------------------
_PARAMS = {"race": STR, "action": STR, "unit": STR, "x": INT, "y": INT}


def _move_schema(move_type: str) -> type[Schema]:
    params = {name: Shape(_PARAMS[name], required=True) for name in MOVE_FIELDS[move_type]}
    return move_schema("RA", move_type, **params)


MOVE_SCHEMAS: dict[str, type[Schema]] = {kind: _move_schema(kind) for kind in MOVE_FIELDS}
"""Move type -> the schema of that move (``player``, ``type`` and its parameters)."""
