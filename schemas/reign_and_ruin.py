"""Reign & Ruin shapes: the state, each move type and the setup options (docs/architecture.md).

Shape only: JSON types, required fields, no unknown fields, the fixed vocabularies (move
``type``, ``to``). Whether an id is a known card, a value is in range or a phase is consistent
is the rules' business (``game.check_state``, ``game.violations``), answered with 422.

The records a state shares with the views (``named`` below, with their descriptions and
vocabularies) are declared here once; ``schemas/reign_and_ruin_answers.py`` imports them, and the
state checks only their shape (``shape_only``). Fixed lists come from the rules' constants.
"""

from __future__ import annotations

from typing import Any

from marshmallow import RAISE, Schema, fields

from rules.reign_and_ruin.abilities import DESTINATIONS, PLAY_TYPES
from rules.reign_and_ruin.cards import (
    FACTIONS,
    MAX_CARD_ID,
    MAX_DECK,
    MAX_KURGOZ,
    MAX_VALUE,
    MIN_VALUE,
    default_catalog,
)
from rules.reign_and_ruin.integrity import PHASES
from schemas.common import PLAYER, PLAYER_ID, CommonStateSchema, move_schema
from schemas.fields import (
    BOOL,
    INT,
    STR,
    Shape,
    doc,
    integer,
    known_or,
    list_of,
    map_of,
    named,
    one_of,
    record,
    shape_only,
)

__all__ = [
    "GAME_ID",
    "CARD_ID",
    "CARD_LIST",
    "DECK_CARD",
    "PHASE",
    "FACTION",
    "ABILITY",
    "DESTINATION",
    "CARD",
    "FIGHTER",
    "FINAL_ROUND",
    "StateSchema",
    "OptionsSchema",
    "MOVE_SCHEMAS",
]

GAME_ID = "reign-and-ruin"


CARD_ID = named(
    "RRCardId",
    doc(
        STR,
        "A card id, `<faction>-<value>` in the default deck (e.g. `hexen-4`).",
        minLength=1,
        examples=["hexen-4"],
    ),
)
CARD_LIST = named("RRCardList", list_of(CARD_ID))
_ids = CARD_LIST
_ids_by_player = map_of(_ids)

_PHASES_TEXT = (
    "`draft` (three rounds of keeping two cards and passing the packet), `play` (one card "
    "per turn), `final_round` (everyone else plays one last card), `finished`."
)
PHASE = doc(one_of(PHASES), _PHASES_TEXT)
FACTION = named(
    "RRFaction",
    doc(
        one_of([f["id"] for f in FACTIONS]),
        "A card's faction, which gives its ability: alfenghast destroys a fighter, hexen "
        "draws a\n"
        "card, kurgoz doubles a fighter, cognitz protects a fighter, crou swaps with a "
        "fighter,\n"
        "nomora revives a discarded card.",
    ),
)
ABILITY = one_of(t for t in PLAY_TYPES if t != "fighter")
"""The move types of the abilities, one per faction (``rules.reign_and_ruin.cards.FACTIONS``)."""
DESTINATION = one_of(DESTINATIONS)
CARD_VALUE = integer(MIN_VALUE, MAX_VALUE)
KURGOZ = doc(
    integer(0, MAX_KURGOZ),
    f"Kurgoz tokens; each doubles the fighter's worth again (at most {MAX_KURGOZ} "
    "on one fighter, a service limit; a `double` beyond it is refused with "
    "`token_limit`).",
)
CARD = named("RRCard", record({"faction": FACTION, "value": CARD_VALUE}))
FIGHTER = named(
    "RRFighter",
    doc(
        record(
            {
                "card": CARD_ID,
                "kurgoz": KURGOZ,
                "cognitz": doc(
                    BOOL, "A Cognitz token; a protected fighter is immune to every ability."
                ),
            }
        ),
        "A card in an army, with its tokens.",
    ),
)
FINAL_ROUND = named(
    "RRFinalRound",
    doc(
        record(
            {
                "ended_by": PLAYER_ID,
                "to_play": doc(
                    list_of(PLAYER_ID), "Players still to play their one last card, in order."
                ),
            }
        ),
        "The final round, once a player has played the last card of their hand.",
    ),
)
_draft = record(
    {"round": INT, "packets": _ids_by_player, "picks": _ids_by_player, "kept": _ids_by_player}
)
DECK_CARD = named(
    "ReignAndRuinDeckCard",
    doc(
        record({"faction": STR, "value": INT}, {"id": STR}),
        f"A card of a custom deck; `id` (1 to {MAX_CARD_ID} characters, no two alike) defaults to "
        "`<faction>-<value>`.",
    ),
)


class StateSchema(CommonStateSchema):
    """A whole Reign & Ruin state, hidden parts included."""

    phase = Shape(
        doc(
            shape_only(PHASE),
            f"{_PHASES_TEXT} Another phase is the rules' 422 "
            "`invalid_state` (integrity), not a shape error.",
        ),
        required=True,
    )
    cards = Shape(
        known_or(default_catalog(), shape_only(map_of(CARD))),
        required=True,
        description="Card id to its faction and value: the whole deck of this game.",
    )
    starting_player = Shape(
        PLAYER,
        required=True,
        allow_none=True,
        description="Null until the draft ends (a random player unless the options name one).",
    )
    draw_pile = Shape(_ids, required=True, description="Hidden: the draw pile, top card first.")
    discard_pile = Shape(
        _ids, required=True, description="Public: the discard pile, the last card discarded last."
    )
    draft = Shape(
        _draft,
        required=True,
        allow_none=True,
        description="The draft while it goes on (null once play begins): the round (1 to 3), each "
        "player's packet, this round's picks and the cards kept so far.",
    )
    hands = Shape(
        _ids_by_player, required=True, description="Player id to the cards in their hand (hidden)."
    )
    armies = Shape(
        shape_only(map_of(list_of(FIGHTER))),
        required=True,
        description="Player id to their army: fighters in the order they were played.",
    )
    final_round = Shape(shape_only(FINAL_ROUND), required=True, allow_none=True)


class OptionsSchema(Schema):
    """Setup options; each may be omitted or null for its default."""

    class Meta:
        unknown = RAISE

    starting_player = Shape(
        PLAYER,
        allow_none=True,
        description="Who plays first after the draft; a random player when omitted.",
    )
    deck = Shape(
        list_of(DECK_CARD, max_items=MAX_DECK),
        allow_none=True,
        description=f"A custom deck: at most {MAX_DECK} cards, otherwise 422.",
    )


# -- moves -----------------------------------------------------------------------------------------
def _move_schema(move_type: str, **params: fields.Field) -> type[Schema]:
    return move_schema("", move_type, **params)


def _id(**kwargs: Any) -> Shape:
    return Shape(CARD_ID, required=True, **kwargs)


DraftMoveSchema = _move_schema(
    "draft",
    cards=Shape(
        _ids,
        required=True,
        description=(
            "Two distinct card ids from your packet (another count or a repeated id is a 422)."
        ),
    ),
)
FighterMoveSchema = _move_schema("fighter", card=_id())
DestroyMoveSchema = _move_schema("destroy", card=_id(), target=_id())
DrawMoveSchema = _move_schema("draw", card=_id())
DoubleMoveSchema = _move_schema("double", card=_id(), target=_id())
ProtectMoveSchema = _move_schema("protect", card=_id(), target=_id())
SwapMoveSchema = _move_schema(
    "swap",
    card=_id(),
    opponent=Shape(PLAYER_ID, required=True),
    take=Shape(CARD_ID),
    to=Shape(DESTINATION, description="Where the taken fighter goes."),
)
ReviveMoveSchema = _move_schema(
    "revive", card=_id(), target=_id(), to=Shape(DESTINATION, required=True), army=Shape(PLAYER_ID)
)

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
