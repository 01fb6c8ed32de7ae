"""Reign Absolute shapes: the state, each move type and the setup options (docs/architecture.md).

Shape only: JSON types, required fields, no unknown fields, the move ``type``. Whether an id is
a known unit, a cell is free or a phase is consistent is the rules' business
(``game.check_state``, ``game.violations``), answered with 422. Custom races and reinforcement
decks in ``options`` are checked by the rules too (422 ``invalid_setup`` naming the problem).

The records a state shares with the views (``named`` below, with their descriptions and
vocabularies) are declared here once; ``schemas/reign_absolute_answers.py`` imports them, and the
state checks only their shape (``shape_only``). Fixed lists come from the rules' constants.
"""

from __future__ import annotations

from marshmallow import RAISE, Schema

from rules.reign_absolute.content import (
    ABILITY_EFFECTS,
    ACTION_EFFECTS,
    CARD_KINDS,
    COMBAT_EFFECTS,
    MAX_CARDS,
    MAX_LEAP,
    MAX_RACES,
    SETUP_EFFECTS,
    TURN_EFFECTS,
    WHEN,
    default_catalogs,
)
from rules.reign_absolute.integrity import PHASES
from rules.reign_absolute.moves import MOVE_FIELDS
from rules.reign_absolute.state import MAX_TURN_LIMIT, MIN_TURN_LIMIT
from schemas.common import PLAYER_ID, CommonStateSchema, move_schema
from schemas.fields import (
    BOOL,
    INT,
    JSON_INT_MAX,
    JSON_INT_MIN,
    OBJECT,
    STR,
    Shape,
    custom,
    doc,
    integer,
    known_or,
    list_of,
    map_of,
    named,
    nullable,
    one_of,
    record,
    shape_only,
)

__all__ = [
    "GAME_ID",
    "PHASE",
    "RAUnitId",
    "RACardId",
    "RAEffect",
    "RARaceAction",
    "RA_RACE_RULES",
    "RARaceInfo",
    "RAUnitInfo",
    "RACardInfo",
    "RADoom",
    "StateSchema",
    "OptionsSchema",
    "MOVE_SCHEMAS",
]

GAME_ID = "reign-absolute"

_DEFAULT = default_catalogs()

_ids = list_of(STR)
_ids_by_player = map_of(_ids)


def _str_or_int(value: object) -> list[str] | None:
    """An effect parameter: a string (``effect``, ``when``) or an integer (``amount``,
    ``count``)."""
    return None if type(value) in (str, int) else ["Not a valid string or integer."]


_effect = map_of(
    custom(
        _str_or_int,
        {"type": ["string", "integer"], "minimum": JSON_INT_MIN, "maximum": JSON_INT_MAX},
    )
)
_entry = record({"x": INT, "y": INT, "owner": STR, "reinforcements": _ids})
_turn = record(
    {
        "player": STR,
        "number": INT,
        "stage": STR,
        "draws_left": INT,
        "drawn": nullable(STR),
        "marching": BOOL,
        "extra_turns": INT,
    }
)


RAUnitId = named(
    "RAUnitId", doc(STR, "A unit card id, e.g. `empire-archers-1`.", examples=["empire-archers-1"])
)

RACardId = named(
    "RACardId", doc(STR, "A reinforcement card id, e.g. `draw-2-1`.", examples=["draw-2-1"])
)

RAEffect = named(
    "RAEffect",
    doc(
        record(
            {
                "effect": one_of(
                    sorted(
                        {
                            *ABILITY_EFFECTS,
                            *COMBAT_EFFECTS,
                            *TURN_EFFECTS,
                            *ACTION_EFFECTS,
                            *SETUP_EFFECTS,
                        }
                    )
                )
            },
            {
                "amount": integer(-20, 20),
                "count": integer(1, 3),
                "distance": integer(2, MAX_LEAP),
                "unit": RAUnitId,
                "when": one_of(WHEN),
            },
        ),
        "An effect primitive (rules doc, Effect primitives): abilities of units and effects "
        "of cards.",
    ),
)

RARaceAction = named(
    "RARaceAction",
    doc(
        record({"id": STR, "name": STR, "effect": RAEffect}),
        "A race's own action (rules doc, Race actions): `effect` is `swap` or `leap`.",
    ),
)

RA_RACE_RULES = {
    "actions": doc(list_of(RARaceAction), maxItems=4),
    "setup": doc(
        list_of(RAEffect),
        "Setup requirements: `place_first` or `reinforced_unit` effects naming a unit of the race.",
        maxItems=4,
    ),
}

RARaceInfo = named(
    "RARaceInfo",
    doc(
        record({"name": STR, "units": list_of(RAUnitId), **RA_RACE_RULES}),
        "A race of the catalogue: its name, unit ids, own actions and setup requirements.",
    ),
)

RAUnitInfo = named(
    "RAUnitInfo",
    doc(
        record(
            {
                "race": STR,
                "name": STR,
                "strength": integer(0, 99),
                "liege": BOOL,
                "abilities": list_of(RAEffect),
            }
        ),
        "A unit card of the catalogue.",
    ),
)

RACardInfo = named(
    "RACardInfo",
    doc(
        record({"name": STR, "kind": one_of(CARD_KINDS), "number": INT, "effect": RAEffect}),
        "A reinforcement card of the catalogue; `number` is its random number.",
    ),
)

RADoom = named(
    "RADoom",
    doc(
        record({"caller": PLAYER_ID, "to_discard": list_of(PLAYER_ID)}),
        "A Doom in progress: who still has to discard, in order.",
    ),
)


PHASE = one_of(PHASES)
_TURN_LIMIT = doc(INT, minimum=MIN_TURN_LIMIT, maximum=MAX_TURN_LIMIT)
_CONTENT = {RAEffect: _effect}
"""Effects in a state are checked by the rules (``rules.reign_absolute.content``), custom ones
included."""


class StateSchema(CommonStateSchema):
    """A whole Reign Absolute state, hidden parts included."""

    phase = Shape(shape_only(PHASE), required=True)
    turn_limit = Shape(
        _TURN_LIMIT,
        required=True,
        description="After this many turns the game ends (`turn_limit` outcome).",
    )
    races = Shape(
        known_or(_DEFAULT["races"], shape_only(map_of(RARaceInfo), _CONTENT)),
        required=True,
        description="Race id to the race: the catalogue of this game, custom races included.",
    )
    units = Shape(
        known_or(_DEFAULT["units"], shape_only(map_of(RAUnitInfo), _CONTENT)),
        required=True,
        description="Unit id to the unit card.",
    )
    cards = Shape(
        known_or(_DEFAULT["cards"], shape_only(map_of(RACardInfo), _CONTENT)),
        required=True,
        description="Reinforcement card id to the card.",
    )
    race_of = Shape(
        map_of(nullable(STR)),
        required=True,
        description="Player id to their race (null until chosen).",
    )
    first_player = Shape(STR, required=True, allow_none=True)
    first_player_draws = Shape(list_of(map_of(STR)), required=True)
    unit_decks = Shape(
        _ids_by_player,
        required=True,
        description="Player id to their face-down units still to place (hidden).",
    )
    battlefield = Shape(
        map_of(_entry),
        required=True,
        description="Unit id to where it stands, its owner and the "
        "reinforcement cards under it (hidden).",
    )
    unit_discards = Shape(
        _ids_by_player, required=True, description="Player id to their defeated units, face up."
    )
    deck = Shape(_ids, required=True)
    discard = Shape(_ids, required=True)
    eradicated = Shape(_ids, required=True)
    placer = Shape(STR, required=True, allow_none=True)
    turn = Shape(
        _turn,
        required=True,
        allow_none=True,
        description="The current turn. `stage`: action, reinforcement (drawing, placing or "
        "resolving cards) or doom; `drawn`: the card being dealt with; "
        "`extra_turns`: Another Turns still due.",
    )
    doom = Shape(shape_only(RADoom), required=True, allow_none=True)
    bonus_owed = Shape(_ids, required=True)


class OptionsSchema(Schema):
    """Setup options; each may be omitted or null for its default. The content of ``races`` and
    ``reinforcements`` is validated by the rules (422 ``invalid_setup``)."""

    class Meta:
        unknown = RAISE

    races = Shape(
        list_of(OBJECT, max_items=MAX_RACES),
        allow_none=True,
        description=f"Custom races: at most {MAX_RACES}, otherwise 422.",
    )
    reinforcements = Shape(
        list_of(OBJECT, max_items=MAX_CARDS),
        allow_none=True,
        description=f"A custom reinforcement deck: at most {MAX_CARDS} cards, otherwise 422.",
    )
    races_by_player = Shape(
        map_of(STR), allow_none=True, description="Player id to a race id: no race selection."
    )
    turn_limit = Shape(
        _TURN_LIMIT, allow_none=True, description="After this many turns the game ends."
    )


# -- moves -----------------------------------------------------------------------------------------
_PARAMS = {
    "race": doc(STR, "A race id of the game."),
    "action": doc(STR, "A race action id of the game."),
    "unit": shape_only(RAUnitId),
    "x": doc(INT, "A column; 0 is the middle."),
    "y": doc(INT, "A row; 0 is the middle."),
}


def _move_schema(move_type: str) -> type[Schema]:
    params = {name: Shape(_PARAMS[name], required=True) for name in MOVE_FIELDS[move_type]}
    return move_schema("RA", move_type, **params)


MOVE_SCHEMAS: dict[str, type[Schema]] = {kind: _move_schema(kind) for kind in MOVE_FIELDS}
"""Move type -> the schema of that move (``player``, ``type`` and its parameters)."""
