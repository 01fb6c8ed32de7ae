"""Reign Supreme shapes: the state, each move type and the setup options (docs/architecture.md).

Shape only: JSON types, required fields, no unknown fields, fixed vocabularies (move ``type``,
attack ``mode``). Whether a unit id exists, a space is on the board or a phase is consistent is
the rules' business (``game.check_state``, ``game.violations``), answered with 422.

The records a state shares with the views (``named`` below, with their descriptions and
vocabularies) are declared here once; ``schemas/reign_supreme_answers.py`` imports them, and the
state checks only their shape (``shape_only``). Fixed lists come from the rules' constants.
"""

from __future__ import annotations

from typing import Any

from marshmallow import RAISE, Schema, fields

from rules.reign_supreme.cards import MAX_DEFINITIONS
from rules.reign_supreme.combat import ATTACK_MODES, TURN_MODES
from rules.reign_supreme.construction import ACTIONS
from rules.reign_supreme.content import (
    ABILITIES,
    DAMAGE_TYPES,
    KINDS,
    MAX_BOARD,
    MAX_KINGDOMS,
    MAX_LIST,
    MAX_ROSTERS,
    SPELLS,
    UNIT_TYPES,
    VICTORIES,
)
from rules.reign_supreme.integrity import PACKING, PHASES
from rules.reign_supreme.setup import SETUP_MODES
from rules.reign_supreme.state import MAX_ROUND_LIMIT, PACKING_ENDS
from rules.reign_supreme.walls import WALL_KINDS
from schemas.common import PLAYER, PLAYER_ID, CommonStateSchema, move_schema
from schemas.fields import (
    ANY,
    BOOL,
    INT,
    JSON_INT_MAX,
    JSON_INT_MIN,
    OBJECT,
    STR,
    Checker,
    Errors,
    Shape,
    custom,
    doc,
    integer,
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
    "HEX",
    "PHASE",
    "RSUnitId",
    "RSUnitType",
    "RSScenarioInPlay",
    "RSKingdom",
    "RSUnitStats",
    "RSRoster",
    "RSUnit",
    "RSWall",
    "RSActionBoard",
    "StateSchema",
    "OptionsSchema",
    "MOVE_SCHEMAS",
]

GAME_ID = "reign-supreme"


def _pair(value: Any) -> Errors | None:
    """A hex ``[q, r]``: a list of exactly two integers."""
    if (
        type(value) is not list
        or len(value) != 2
        or type(value[0]) is not int
        or type(value[1]) is not int
    ):
        return ["Not a hex: a list of two integers [q, r]."]
    return None


HEX: Checker = named(
    "RSHex",
    custom(
        _pair,
        {
            "type": "array",
            "description": "A space `[q, r]` in axial coordinates (rules doc: Board).",
            "items": {"type": "integer", "minimum": JSON_INT_MIN, "maximum": JSON_INT_MAX},
            "minItems": 2,
            "maxItems": 2,
            "examples": [[0, 0], [-5, 1]],
        },
    ),
)
_hexes = list_of(HEX)
PHASE = one_of(PHASES)
_ids = list_of(STR)
_nullable_str = nullable(STR)
_nullable_int = nullable(INT)

_control = record({"mines": list_of(_nullable_str), "ruins": list_of(_nullable_str)})
_piles = record({"spell": _ids, "tactics": _ids})


RSUnitId = named("RSUnitId", doc(STR, pattern="^u[1-9][0-9]*$", examples=["u7"]))

RSUnitType = named("RSUnitType", one_of(UNIT_TYPES))

RSScenarioInPlay = named(
    "RSScenarioInPlay",
    doc(
        record(
            {
                "id": STR,
                "castles": BOOL,
                "cards": BOOL,
                "deployment": BOOL,
                "initial_units": nullable(integer(1, 20)),
                "victory": one_of(VICTORIES),
                "round_limit": integer(1, 200),
                "midfield": list_of(HEX),
                "mines": list_of(HEX),
                "ruins": list_of(HEX),
            }
        ),
        "The scenario in play (the Midfield, Mines and Ruins, rules switches and the round limit).",
    ),
)

RSKingdom = named(
    "RSKingdom",
    doc(
        record(
            {
                "id": STR,
                "hexes": list_of(HEX),
                "castle": nullable(list_of(HEX)),
                "throne": nullable(HEX),
                "gate": nullable(list_of(HEX)),
            }
        ),
        "A player's Kingdom: its spaces and, with castles, the 7 Castle spaces, the Throne "
        "and the Gate (a Castle space and the space it faces).",
    ),
)

RSUnitStats = named(
    "RSUnitStats",
    doc(
        record(
            {
                "name": STR,
                "movement": integer(0, 99),
                "hp": integer(1, 99),
                "attack": integer(0, 99),
                "defence": integer(0, 99),
                "range": integer(1, 99),
                "damage": doc(
                    one_of(DAMAGE_TYPES),
                    "The type of damage the unit's attack deals; magic is magical (ruling RS 14).",
                ),
                "kinds": doc(list_of(one_of(KINDS)), uniqueItems=True),
                "abilities": doc(list_of(one_of(ABILITIES)), uniqueItems=True),
                "spells": doc(list_of(one_of(SPELLS)), uniqueItems=True),
            }
        ),
        "The statistics of one unit type in one army: movement (spaces), hit points, attack, "
        "defence (subtracted from damage taken), range (shooting), kind flags, and the "
        "abilities and spells the seed gives the type (rules doc: Special abilities, Auras, "
        "Kinds, Field spells).",
    ),
)

RSRoster = named(
    "RSRoster",
    doc(
        record(
            {
                "title": STR,
                "units": doc(
                    map_of(RSUnitStats, key=doc(ANY, enum=list(UNIT_TYPES))),
                    "Unit type to its statistics.",
                ),
            }
        ),
        "A custom army: its title and its unit types (must include the one Assault).",
    ),
)

RSUnit = named(
    "RSUnit",
    doc(
        record(
            {
                "owner": doc(
                    PLAYER_ID,
                    "Who controls it now (a Throne capture in a game of 3+ hands units over).",
                ),
                "army": doc(STR, "Its army (its statistics come from this army's roster)."),
                "type": RSUnitType,
                "at": doc(
                    nullable(HEX),
                    "The space it stands on; null while waiting to be set up or deployed.",
                ),
                "pins": doc(integer(0, None), "Damage taken; always below the unit's hp."),
                "moved": doc(BOOL, "Moved this turn (no shooting, no second move)."),
                "steps": doc(integer(0, None), "Spaces moved this turn."),
                "charge": doc(BOOL, "Began its movement out of melee (Charging may apply)."),
                "bonus": doc(integer(0, None), "Extra movement this turn (Construction)."),
                "attacked": doc(BOOL, "Attacked this turn."),
                "attacks": doc(integer(0, 2), "Attacks made this turn (two with Double Attack)."),
                "mode": doc(
                    nullable(one_of(TURN_MODES)),
                    "The type of attack made this turn (one type per turn).",
                ),
                "on_the_move": doc(BOOL, "Its last attack was a Flanking attack while moving."),
                "knocked": doc(BOOL, "Used Knockback this turn."),
                "acted": doc(BOOL, "Did anything this turn (the unit-switching rule)."),
                "done": doc(
                    BOOL,
                    "Cannot act any more this turn (freshly deployed or handed over, started "
                    "packing/unpacking, built, or another unit acted after it had).",
                ),
                "ensnared": doc(BOOL, "Cannot move during its owner's next (or current) turn."),
                "countered": doc(BOOL, "Has counterattacked this turn."),
            },
            {
                "packing": doc(
                    one_of(PACKING),
                    "Packed units only: packed units move, unpacked units attack, units in "
                    "between do neither.",
                )
            },
        ),
        "A unit in play.",
    ),
)

RSWall = named(
    "RSWall",
    doc(
        record(
            {
                "id": doc(STR, pattern="^w[1-9][0-9]*$"),
                "kind": one_of(WALL_KINDS),
                "owner": PLAYER_ID,
                "edge": doc(
                    list_of(HEX), "The two spaces it stands between.", minItems=2, maxItems=2
                ),
                "hp": integer(1, 20),
            }
        ),
        "A Gate (20 hit points) or Palisade (at most 6) on the edge between two spaces; other "
        "players' units cannot cross it.",
    ),
)

RSActionBoard = named(
    "RSActionBoard",
    doc(
        record(
            {
                "spell_pin": doc(
                    nullable(integer(1, 10)),
                    "Duration Control Spell pin (cards only): 1 to 10, at 0 reset to 10 and "
                    "draw a Spell card.",
                ),
                "tactics_pin": doc(
                    nullable(integer(1, 10)), "Duration Control Tactics pin (cards only)."
                ),
                "reinforcement_pin": doc(
                    nullable(integer(1, 10)),
                    "Reinforcement pin (deployment scenarios): at 0 reset to 10 and 2 more "
                    "deployments.",
                ),
                "deploys": doc(integer(0, 99), "Units the player may deploy."),
                "packing": doc(
                    list_of(
                        record(
                            {"unit": RSUnitId, "to": one_of(PACKING_ENDS), "notch": integer(0, 5)}
                        )
                    ),
                    "Packing pins on the board (5 notches); a pin at notch 5 was completed by "
                    "Construction outside the Cooldown phase and frees its unit in the next one "
                    "(ruling RS 16).",
                ),
                "spells": doc(
                    list_of(
                        record({"unit": RSUnitId, "spell": one_of(SPELLS), "left": integer(1, 99)})
                    ),
                    "Spell pins on cooldown.",
                ),
                "effects": doc(
                    list_of(
                        record(
                            {
                                "effect": STR,
                                "unit": nullable(RSUnitId),
                                "left": integer(1, 99),
                                "value": INT,
                            }
                        )
                    ),
                    "Card effects with a duration (Cooldown phases left).",
                ),
            }
        ),
        "A player's Action Board.",
    ),
)


class StateSchema(CommonStateSchema):
    """A whole Reign Supreme state, hidden parts included."""

    scenario = Shape(shape_only(RSScenarioInPlay), required=True)
    kingdoms = Shape(
        shape_only(map_of(RSKingdom)), required=True, description="Player id to their Kingdom."
    )
    armies = Shape(
        map_of(STR),
        required=True,
        description="Player id to their army (`resistance`, `greenskin`, "
        "`undead`, `demon` or a custom roster's id).",
    )
    rosters = Shape(
        shape_only(map_of(RSRoster)),
        required=True,
        description="Custom armies by id (`{}` without).",
    )
    units = Shape(shape_only(map_of(RSUnit)), required=True, description="Unit id to the unit.")
    first_player = Shape(
        PLAYER, required=True, description="Who set up first and plays first each round."
    )
    round = Shape(
        doc(INT, minimum=1, maximum=MAX_ROUND_LIMIT),
        required=True,
        description="The round going on.",
    )
    phase = Shape(shape_only(PHASE), required=True)
    turn = Shape(
        PLAYER,
        required=True,
        allow_none=True,
        description="Whose turn (or set-up) it is; null once finished.",
    )
    pending = Shape(
        OBJECT,
        required=True,
        allow_none=True,
        description="Declarations waiting for answers (Counterattack, Teleport, "
        "Counterspell); null when nothing waits.",
    )
    walls = Shape(shape_only(list_of(RSWall)), required=True)
    wall_serial = Shape(
        doc(INT, minimum=0), required=True, description="Walls made so far (the last wall id)."
    )
    engaged = Shape(
        list_of(_ids),
        required=True,
        description="Pairs of enemy units engaged in melee since the start "
        "of the turn (who may attack a Stealth unit).",
    )
    cards = Shape(
        list_of(OBJECT), required=True, description="The card set in play ([] without cards)."
    )
    boards = Shape(
        shape_only(map_of(RSActionBoard)),
        required=True,
        description="Player id to their Action Board.",
    )
    control = Shape(
        _control,
        required=True,
        description="Who controls each Mine and Ruin (same order as the scenario's lists).",
    )
    kills = Shape(
        map_of(INT), required=True, description="Player id to the enemy units they destroyed."
    )
    defeated = Shape(
        _ids, required=True, description="Players out of the game, in the order they fell."
    )
    zones = Shape(
        map_of(_ids),
        required=True,
        description="Player to the players whose Castles they captured (extra deployment zones).",
    )
    decks = Shape(_piles, required=True)
    discards = Shape(_piles, required=True)
    hands = Shape(map_of(_ids), required=True)


class OptionsSchema(Schema):
    """Setup options; each may be omitted or null for its default. Custom content (a scenario
    object, rosters, army lists) is validated by the rules (422 invalid_setup)."""

    class Meta:
        unknown = RAISE

    scenario = Shape(
        ANY,
        allow_none=True,
        description=f"A scenario id or a custom board: at most {MAX_BOARD} spaces, Midfield and "
        f"Kingdoms together, and {MAX_KINGDOMS} Kingdoms, otherwise 422.",
    )
    armies = Shape(map_of(STR), allow_none=True)
    army_lists = Shape(
        map_of(list_of(STR, max_items=MAX_LIST)),
        allow_none=True,
        description=f"Army lists: at most {MAX_LIST} unit types each, otherwise 422.",
    )
    rosters = Shape(
        map_of(OBJECT, max_items=MAX_ROSTERS),
        allow_none=True,
        description=f"Custom rosters: at most {MAX_ROSTERS}, otherwise 422.",
    )
    round_limit = Shape(INT, allow_none=True)
    first_player = Shape(STR, allow_none=True)
    setup = Shape(one_of(SETUP_MODES), allow_none=True)
    cards = Shape(
        list_of(OBJECT, max_items=MAX_DEFINITIONS),
        allow_none=True,
        description=f"Card definitions: at most {MAX_DEFINITIONS} definitions, otherwise 422.",
    )


# -- moves -----------------------------------------------------------------------------------------
def _move_schema(move_type: str, **params: fields.Field) -> type[Schema]:
    return move_schema("RS", move_type, **params)


def _id() -> Shape:
    return Shape(STR, required=True)


def _unit() -> Shape:
    return Shape(shape_only(RSUnitId), required=True)


def _to() -> Shape:
    return Shape(HEX, required=True)


def _target(value: Any) -> Errors | None:
    """A unit or wall id, a space [q, r], or null (a card or Counterspell without one)."""
    if value is None or type(value) is str or _pair(value) is None:
        return None
    return ["Not a target: a unit or wall id, a hex [q, r], or null."]


_TARGET = custom(
    _target,
    {"oneOf": [{"type": "string"}, HEX], "description": "A unit or wall id, or a space [q, r]."},
)


def _flag() -> Shape:
    return Shape(BOOL)


MOVE_SCHEMAS: dict[str, type[Schema]] = {
    "place": _move_schema("place", unit=_unit(), to=_to()),
    "deploy": _move_schema("deploy", unit=_unit(), to=_to()),
    "end_deployment": _move_schema("end_deployment"),
    "move": _move_schema("move", unit=_unit(), to=_to()),
    "attack": _move_schema(
        "attack",
        unit=_unit(),
        target=Shape(
            doc(STR, "A unit id or a wall id.", pattern="^[uw][1-9][0-9]*$"), required=True
        ),
        mode=Shape(one_of(ATTACK_MODES), required=True),
        knockback=_flag(),
        volley=_flag(),
        on_the_move=_flag(),
    ),
    "pack": _move_schema("pack", unit=_unit()),
    "unpack": _move_schema("unpack", unit=_unit()),
    "cast": _move_schema(
        "cast",
        unit=_unit(),
        spell=Shape(shape_only(one_of(SPELLS)), required=True),
        target=Shape(_TARGET, required=True, allow_none=True),
        cure=_flag(),
    ),
    "construct": _move_schema(
        "construct",
        unit=_unit(),
        action=Shape(shape_only(one_of(ACTIONS)), required=True),
        target=Shape(_TARGET, required=True),
    ),
    "play": _move_schema("play", card=_id(), target=Shape(_TARGET, required=True, allow_none=True)),
    "counterattack": _move_schema("counterattack", unit=_unit()),
    "pass": _move_schema("pass"),
    "end_turn": _move_schema("end_turn"),
    "concede": _move_schema("concede"),
}
"""Move type -> the schema of that move (``player``, ``type`` and its parameters)."""
