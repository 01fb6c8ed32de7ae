"""Reigns: The Council shapes: the state, each move type and the setup options
(docs/architecture.md, Reigns: The Council section).

Shape only: JSON types, required fields, no unknown fields, fixed vocabularies (move ``type``).
Whether an id is a known card, a value is in range or a phase is consistent is the rules'
business (``game.check_state``, ``game.violations``), answered with 422.

The records a state shares with the views (``named`` below, with their descriptions and
vocabularies) are declared here once; ``schemas/reigns_the_council_answers.py`` imports them,
and the state checks only their shape (``shape_only``). Fixed lists come from the rules'
constants.
"""

from __future__ import annotations

from marshmallow import RAISE, Schema, fields

from rules.reigns_the_council.content import (
    MAX_DECK,
    PILLARS,
    TRACK_MAX,
    TRACK_MIN,
    default_catalog,
)
from rules.reigns_the_council.ending import REIGN_ENDS
from rules.reigns_the_council.integrity import PHASES
from rules.reigns_the_council.state import STORY_MODES
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
    nullable,
    one_of,
    record,
    shape_only,
)

__all__ = [
    "GAME_ID",
    "GOAL_ID",
    "CARD_ID",
    "PHASE",
    "STORY_POINT",
    "CouncilPillar",
    "CouncilTracks",
    "CouncilReign",
    "StateSchema",
    "OptionsSchema",
    "MOVE_SCHEMAS",
]

GAME_ID = "reigns-the-council"


_ids = list_of(STR)
_changes = map_of(INT)
_card = record({"title": STR, "back": _ids, "accept": _changes, "reject": _changes})
GOAL_ID = doc(
    STR,
    "A secret goal id, e.g. `weak-church-strong-army`.",
    pattern="^(strong|weak)-[a-z]+-(strong|weak)-[a-z]+$",
)
CARD_ID = doc(STR, "A proposal card id (`p01`…`p72` in the default deck).")
PHASE = one_of(PHASES)
STORY_POINT = doc(
    one_of(STORY_MODES),
    "When a Monarch dies, the advisor whose card killed them scores the "
    "story point at once (`auto`) or after the other players vote on it "
    "(`vote`).",
)
_revealed = record({"advisor": STR, "card": STR, "decision": STR, "changed": BOOL})
_pending = record({"advisor": STR, "card": STR, "decision": STR})
_round = record(
    {
        "number": INT,
        "pitches": nullable(map_of(nullable(STR))),
        "table": map_of(STR),
        "accepted": nullable(_ids),
        "revealed": list_of(_revealed),
        "pending": nullable(_pending),
        "mind_changed": BOOL,
        "discarded": _ids,
    }
)


CouncilPillar = named(
    "CouncilPillar",
    doc(one_of(PILLARS), "A pillar of society: The Church, The Army, The People, Wealth."),
)

CouncilTracks = named(
    "CouncilTracks",
    doc(
        record({pillar: integer(TRACK_MIN, TRACK_MAX) for pillar in PILLARS}),
        "The token of each pillar, -5..+5 (±5 are the end spaces).",
        examples=[{"church": -2, "army": 5, "people": 0, "wealth": 1}],
    ),
)

CouncilReign = named(
    "CouncilReign",
    doc(
        record(
            {
                "number": integer(1, None),
                "monarch": PLAYER_ID,
                "end": nullable(one_of(REIGN_ENDS)),
                "goals": nullable(
                    doc(map_of(GOAL_ID), "Each advisor's goal, revealed after a death.")
                ),
                "tracks": nullable(CouncilTracks),
                "points": doc(
                    map_of(
                        record(
                            {
                                "acceptance": integer(0, None),
                                "story": integer(0, None),
                                "pile": integer(0, None),
                                "goal": doc(
                                    map_of(integer(0, None), key=CouncilPillar),
                                    "Goal points per pillar of the goal (after a death).",
                                ),
                            }
                        )
                    ),
                    "Each player's points in this reign.",
                ),
            }
        ),
        "One reign: its Monarch, how it ended (null while it goes on), the goals revealed "
        "after a death, the tracks at its end and the points scored in it.",
    ),
)


_TRACKS = map_of(INT)
"""A state's tracks: which pillars they hold is the rules' 422 (``bad_tracks``)."""


class StateSchema(CommonStateSchema):
    """A whole Reigns: The Council state, hidden parts included."""

    phase = Shape(shape_only(PHASE), required=True)
    story_point = Shape(shape_only(STORY_POINT), required=True)
    cards = Shape(
        known_or(default_catalog(), map_of(_card)),
        required=True,
        description="The card catalogue: id to card (never changes during a game).",
    )
    tracks = Shape(shape_only(CouncilTracks, {CouncilTracks: _TRACKS}), required=True)
    decks = Shape(list_of(_ids), required=True, description="The three decks, top card first.")
    discard = Shape(_ids, required=True)
    discard_revealed = Shape(_ids, required=True)
    hands = Shape(
        map_of(_ids), required=True, description="Each player's hand (the Monarch's is empty)."
    )
    pile = Shape(_ids, required=True, description="The Monarch's pile of accepted proposals.")
    goals = Shape(
        shape_only(map_of(GOAL_ID)),
        required=True,
        description="Each advisor's secret goal this reign.",
    )
    draw_queue = Shape(
        _ids, required=True, description="Who draws next, one entry per card still to draw."
    )
    exchange = Shape(
        map_of(nullable(_ids)),
        required=True,
        allow_none=True,
        description="During the exchange: each advisor's secret choice.",
    )
    round = Shape(
        _round, required=True, allow_none=True, description="The current (or last) round."
    )
    votes = Shape(
        map_of(nullable(BOOL)),
        required=True,
        allow_none=True,
        description="During a vote: each voter's secret vote (null: not yet).",
    )
    story = Shape(record({"advisor": STR}), required=True, allow_none=True)
    reigns = Shape(
        shape_only(list_of(CouncilReign), {CouncilTracks: _TRACKS}),
        required=True,
        description="Every reign so far, the one going on last.",
    )


class OptionsSchema(Schema):
    """Setup options; each may be omitted or null for its default."""

    class Meta:
        unknown = RAISE

    first_monarch = Shape(STR, allow_none=True)
    story_point = Shape(STORY_POINT, allow_none=True)
    deck = Shape(
        list_of(
            record(
                {"back": _ids, "accept": _changes, "reject": _changes}, {"id": STR, "title": STR}
            ),
            max_items=MAX_DECK,
        ),
        allow_none=True,
        description=f"A custom deck: at most {MAX_DECK} cards, otherwise 422.",
    )


# -- moves -----------------------------------------------------------------------------------------
def _move_schema(move_type: str, **params: fields.Field) -> type[Schema]:
    return move_schema("Rtc", move_type, **params)


MOVE_SCHEMAS: dict[str, type[Schema]] = {
    "draw": _move_schema("draw", deck=Shape(doc(INT, "0, 1 or 2."), required=True)),
    "exchange": _move_schema("exchange", cards=Shape(_ids, required=True)),
    "pitch": _move_schema("pitch", card=Shape(shape_only(CARD_ID), required=True)),
    "decide": _move_schema("decide", accept=Shape(_ids, required=True)),
    "reveal": _move_schema("reveal", advisor=Shape(PLAYER, required=True)),
    "change_mind": _move_schema("change_mind"),
    "keep_decision": _move_schema("keep_decision"),
    "story_vote": _move_schema("story_vote", approve=Shape(BOOL, required=True)),
    "end_vote": _move_schema("end_vote", end=Shape(BOOL, required=True)),
    "name_monarch": _move_schema("name_monarch", monarch=Shape(PLAYER, required=True)),
}
"""Move type -> the schema of that move (``player``, ``type`` and its parameters)."""
