"""Reign Supreme shapes: the state, each move type and the setup options (docs/architecture.md).

Shape only: JSON types, required fields, no unknown fields, fixed vocabularies (move ``type``,
attack ``mode``). Whether a unit id exists, a space is on the board or a phase is consistent is
the rules' business (``game.check_state``, ``game.violations``), answered with 422.
"""
from __future__ import annotations

from typing import Any

from marshmallow import RAISE, Schema, fields

from rules.reign_supreme.cards import MAX_DEFINITIONS
from rules.reign_supreme.content import MAX_BOARD, MAX_KINGDOMS, MAX_LIST
from schemas.common import CommonStateSchema, move_schema
from schemas.fields import (ANY, BOOL, INT, JSON_INT_MAX, JSON_INT_MIN, OBJECT, STR, Checker, Errors, Shape, custom, list_of,
                            map_of, named, nullable, one_of, record)

__all__ = ["GAME_ID", "StateSchema", "OptionsSchema", "MOVE_SCHEMAS"]

GAME_ID = "reign-supreme"



def _pair(value: Any) -> Errors | None:
    """A hex ``[q, r]``: a list of exactly two integers."""
    if type(value) is not list or len(value) != 2 or type(value[0]) is not int or type(value[1]) is not int:
        return ["Not a hex: a list of two integers [q, r]."]
    return None


HEX: Checker = named("RSHex", custom(_pair, {
    "type": "array", "description": "A space `[q, r]` in axial coordinates (rules doc: Board).",
    "items": {"type": "integer", "minimum": JSON_INT_MIN, "maximum": JSON_INT_MAX}, "minItems": 2, "maxItems": 2}))
_hexes = list_of(HEX)
_ids = list_of(STR)
_nullable_str = nullable(STR)
_nullable_int = nullable(INT)

_scenario = record({
    "id": STR, "castles": BOOL, "cards": BOOL, "deployment": BOOL, "initial_units": _nullable_int,
    "victory": STR, "round_limit": INT, "midfield": _hexes, "mines": _hexes, "ruins": _hexes,
})
_kingdom = record({"id": STR, "hexes": _hexes, "castle": nullable(_hexes), "throne": nullable(HEX),
                   "gate": nullable(_hexes)})
_unit_stats = record({"name": STR, "movement": INT, "hp": INT, "attack": INT, "defence": INT, "range": INT,
                      "damage": STR, "kinds": _ids, "abilities": _ids, "spells": _ids})
_roster = record({"title": STR, "units": map_of(_unit_stats)})
_unit = record({"owner": STR, "army": STR, "type": STR, "at": nullable(HEX), "pins": INT, "moved": BOOL,
                "steps": INT, "charge": BOOL, "bonus": INT, "attacked": BOOL, "attacks": INT,
                "mode": nullable(STR), "on_the_move": BOOL, "knocked": BOOL, "acted": BOOL, "done": BOOL,
                "ensnared": BOOL, "countered": BOOL}, {"packing": STR})
_wall = record({"id": STR, "kind": STR, "owner": STR, "edge": list_of(HEX), "hp": INT})
_board = record({
    "spell_pin": _nullable_int, "tactics_pin": _nullable_int, "reinforcement_pin": _nullable_int, "deploys": INT,
    "packing": list_of(record({"unit": STR, "to": STR, "notch": INT})),
    "spells": list_of(record({"unit": STR, "spell": STR, "left": INT})),
    "effects": list_of(record({"effect": STR, "unit": _nullable_str, "left": INT, "value": INT})),
})
_control = record({"mines": list_of(_nullable_str), "ruins": list_of(_nullable_str)})
_piles = record({"spell": _ids, "tactics": _ids})


class StateSchema(CommonStateSchema):
    """A whole Reign Supreme state, hidden parts included."""

    scenario = Shape(_scenario, required=True)
    kingdoms = Shape(map_of(_kingdom), required=True)
    armies = Shape(map_of(STR), required=True)
    rosters = Shape(map_of(_roster), required=True)
    units = Shape(map_of(_unit), required=True)
    first_player = Shape(STR, required=True)
    round = Shape(INT, required=True)
    phase = Shape(STR, required=True)
    turn = Shape(STR, required=True, allow_none=True)
    pending = Shape(OBJECT, required=True, allow_none=True)
    walls = Shape(list_of(_wall), required=True)
    wall_serial = Shape(INT, required=True)
    engaged = Shape(list_of(_ids), required=True)
    cards = Shape(list_of(OBJECT), required=True)
    boards = Shape(map_of(_board), required=True)
    control = Shape(_control, required=True)
    kills = Shape(map_of(INT), required=True)
    defeated = Shape(_ids, required=True)
    zones = Shape(map_of(_ids), required=True)
    decks = Shape(_piles, required=True)
    discards = Shape(_piles, required=True)
    hands = Shape(map_of(_ids), required=True)


class OptionsSchema(Schema):
    """Setup options; each may be omitted or null for its default. Custom content (a scenario
    object, rosters, army lists) is validated by the rules (422 invalid_setup)."""

    class Meta:
        unknown = RAISE

    scenario = Shape(ANY, allow_none=True,
                     description=f"A scenario id or a custom board: at most {MAX_BOARD} spaces, Midfield and "
                                 f"Kingdoms together, and {MAX_KINGDOMS} Kingdoms, otherwise 422.")
    armies = Shape(map_of(STR), allow_none=True)
    army_lists = Shape(map_of(list_of(STR, max_items=MAX_LIST)), allow_none=True,
                       description=f"Army lists: at most {MAX_LIST} unit types each, otherwise 422.")
    rosters = Shape(map_of(OBJECT), allow_none=True)
    round_limit = Shape(INT, allow_none=True)
    first_player = Shape(STR, allow_none=True)
    setup = Shape(one_of(("manual", "auto")), allow_none=True)
    cards = Shape(list_of(OBJECT, max_items=MAX_DEFINITIONS), allow_none=True,
                  description=f"Card definitions: at most {MAX_DEFINITIONS} definitions, otherwise 422.")


# -- moves ------------------------------------------------------------------------------------------
def _move_schema(move_type: str, **params: fields.Field) -> type[Schema]:
    return move_schema('RS', move_type, **params)


def _id() -> Shape:
    return Shape(STR, required=True)


def _to() -> Shape:
    return Shape(HEX, required=True)


def _target(value: Any) -> Errors | None:
    """A unit or wall id, a space [q, r], or null (a card or Counterspell without one)."""
    if value is None or type(value) is str or _pair(value) is None:
        return None
    return ["Not a target: a unit or wall id, a hex [q, r], or null."]


_TARGET = custom(_target, {"oneOf": [{"type": "string"}, HEX], "description": "A unit or wall id, or a space [q, r]."})


def _flag() -> Shape:
    return Shape(BOOL)


MOVE_SCHEMAS: dict[str, type[Schema]] = {
    "place": _move_schema("place", unit=_id(), to=_to()),
    "deploy": _move_schema("deploy", unit=_id(), to=_to()),
    "end_deployment": _move_schema("end_deployment"),
    "move": _move_schema("move", unit=_id(), to=_to()),
    "attack": _move_schema("attack", unit=_id(), target=_id(), mode=Shape(one_of(("melee", "shoot")), required=True),
                           knockback=_flag(), volley=_flag(), on_the_move=_flag()),
    "pack": _move_schema("pack", unit=_id()),
    "unpack": _move_schema("unpack", unit=_id()),
    "cast": _move_schema("cast", unit=_id(), spell=Shape(STR, required=True),
                         target=Shape(_TARGET, required=True, allow_none=True), cure=_flag()),
    "construct": _move_schema("construct", unit=_id(), action=Shape(STR, required=True),
                              target=Shape(_TARGET, required=True)),
    "play": _move_schema("play", card=_id(), target=Shape(_TARGET, required=True, allow_none=True)),
    "counterattack": _move_schema("counterattack", unit=_id()),
    "pass": _move_schema("pass"),
    "end_turn": _move_schema("end_turn"),
    "concede": _move_schema("concede"),
}
"""Move type -> the schema of that move (``player``, ``type`` and its parameters)."""
