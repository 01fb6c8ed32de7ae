"""Reign & Ruin shapes: the state, each move type and the setup options (docs/architecture.md).

Shape only: JSON types, required fields, no unknown fields, the fixed vocabularies (move
``type``, ``to``). Whether an id is a known card, a value is in range or a phase is consistent
is the rules' business (``game.check_state``, ``game.violations``), answered with 422.
"""
from __future__ import annotations

from marshmallow import RAISE, Schema, fields

from rules.reign_and_ruin.cards import MAX_DECK, default_catalog
from schemas.common import PLAYER_ID, CommonStateSchema, move_schema
from schemas.fields import (BOOL, INT, STR, Shape, doc, known_or, list_of, map_of, named, one_of, record)

__all__ = ["GAME_ID", "CARD_ID", "CARD_LIST", "DECK_CARD", "StateSchema", "OptionsSchema", "MOVE_SCHEMAS"]

GAME_ID = "reign-and-ruin"


CARD_ID = named("RRCardId", doc(STR, "A card id, `<faction>-<value>` in the default deck (e.g. `hexen-4`).",
                                minLength=1, examples=["hexen-4"]))
CARD_LIST = named("RRCardList", list_of(CARD_ID))
_ids = CARD_LIST
_ids_by_player = map_of(_ids)

_card = record({"faction": STR, "value": INT})
_fighter = record({"card": STR, "kurgoz": INT, "cognitz": BOOL})
_draft = record({"round": INT, "packets": _ids_by_player, "picks": _ids_by_player, "kept": _ids_by_player})
DECK_CARD = named("ReignAndRuinDeckCard", doc(record({"faction": STR, "value": INT}, {"id": STR}),
                                              "A card of a custom deck; `id` defaults to `<faction>-<value>`."))
_final_round = record({"ended_by": STR, "to_play": _ids})


class StateSchema(CommonStateSchema):
    """A whole Reign & Ruin state, hidden parts included."""

    phase = Shape(doc(STR, enum=["draft", "play", "final_round", "finished"]), required=True,
                  description="Another phase is the rules' 422 `invalid_state` (integrity), not a shape error.")
    cards = Shape(known_or(default_catalog(), map_of(_card)), required=True)
    starting_player = Shape(STR, required=True, allow_none=True)
    draw_pile = Shape(_ids, required=True)
    discard_pile = Shape(_ids, required=True)
    draft = Shape(_draft, required=True, allow_none=True)
    hands = Shape(_ids_by_player, required=True)
    armies = Shape(map_of(list_of(_fighter)), required=True)
    final_round = Shape(_final_round, required=True, allow_none=True)


class OptionsSchema(Schema):
    """Setup options; each may be omitted or null for its default."""

    class Meta:
        unknown = RAISE

    starting_player = Shape(STR, allow_none=True)
    deck = Shape(list_of(DECK_CARD, max_items=MAX_DECK), allow_none=True,
                 description=f"A custom deck: at most {MAX_DECK} cards, otherwise 422.")


# -- moves ------------------------------------------------------------------------------------------
def _move_schema(move_type: str, **params: fields.Field) -> type[Schema]:
    return move_schema('', move_type, **params)


def _id(**kwargs: object) -> Shape:
    return Shape(CARD_ID, required=True, **kwargs)


DraftMoveSchema = _move_schema("draft", cards=Shape(_ids, required=True))
FighterMoveSchema = _move_schema("fighter", card=_id())
DestroyMoveSchema = _move_schema("destroy", card=_id(), target=_id())
DrawMoveSchema = _move_schema("draw", card=_id())
DoubleMoveSchema = _move_schema("double", card=_id(), target=_id())
ProtectMoveSchema = _move_schema("protect", card=_id(), target=_id())
SwapMoveSchema = _move_schema("swap", card=_id(), opponent=Shape(PLAYER_ID, required=True),
                              take=Shape(CARD_ID), to=Shape(one_of(("army", "hand"))))
ReviveMoveSchema = _move_schema("revive", card=_id(), target=_id(), to=Shape(one_of(("army", "hand")), required=True),
                                army=Shape(PLAYER_ID))

MOVE_SCHEMAS: dict[str, type[Schema]] = {
    "draft": DraftMoveSchema,
    "fighter": FighterMoveSchema,
    "destroy": DestroyMoveSchema,
    "draw": DrawMoveSchema,
    "double": DoubleMoveSchema,
    "protect": ProtectMoveSchema,
    "swap": SwapMoveSchema,
    "revive": ReviveMoveSchema,
}
"""Move type -> the schema of that move (``player``, ``type`` and its parameters)."""

__all__ += [cls.__name__ for cls in MOVE_SCHEMAS.values()]
