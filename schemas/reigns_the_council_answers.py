"""What the service answers in Reigns: The Council games: its events, the per-player view, the score
breakdown and the default content, declared once (never read by the service: ``openapi.yaml`` and
the tests are built from them)."""

from __future__ import annotations

from rules.reigns_the_council.content import GOAL_SIDES
from rules.reigns_the_council.ending import GAME_END_REASONS, POINT_KINDS, REIGN_ENDS
from rules.reigns_the_council.rounds import DECISIONS, ZONES
from rules.reigns_the_council.state import SCHEMA_VERSION
from rules.reigns_the_council.views import ROLES
from schemas.common import OUTCOME, PLAYER_ID, SCORES, STATUS, TO_MOVE
from schemas.fields import (
    BOOL,
    INT,
    STR,
    doc,
    integer,
    list_of,
    map_of,
    named,
    nullable,
    one_of,
    record,
    tagged,
)
from schemas.reigns_the_council import (
    CARD_ID,
    GOAL_ID,
    PHASE,
    STORY_POINT,
    CouncilPillar,
    CouncilReign,
    CouncilTracks,
)

__all__ = ["EVENT", "VIEW", "SCORE_BREAKDOWN", "CONTENT"]

CouncilReignStartedEvent = named(
    "CouncilReignStartedEvent",
    doc(
        record(
            {
                "type": one_of(("reign_started",)),
                "reign": integer(1, None),
                "monarch": PLAYER_ID,
                "decks": list_of(integer(0, None)),
            }
        ),
        "A reign was set up: decks sizes after the shuffle.",
        examples=[{"type": "reign_started", "reign": 2, "monarch": "cat", "decks": [24, 24, 24]}],
    ),
)

CouncilGoalDealtEvent = named(
    "CouncilGoalDealtEvent",
    doc(
        record({"type": one_of(("goal_dealt",)), "player": PLAYER_ID}, {"goal": GOAL_ID}),
        "An advisor got a secret goal (`goal` private to them).",
        examples=[{"type": "goal_dealt", "player": "ann", "goal": "weak-church-weak-people"}],
    ),
)

CouncilBack = named(
    "CouncilBack",
    doc(
        list_of(CouncilPillar),
        "A card's public back: the pillars it affects, in board order.",
        minItems=1,
        maxItems=4,
        uniqueItems=True,
        examples=[["church", "army"]],
    ),
)

CouncilCardDrawnEvent = named(
    "CouncilCardDrawnEvent",
    doc(
        record(
            {
                "type": one_of(("card_drawn",)),
                "player": PLAYER_ID,
                "deck": integer(0, None),
                "back": CouncilBack,
            },
            {"card": CARD_ID},
        ),
        "A card was drawn; its back is public, `card` private to the drawer.",
        examples=[
            {
                "type": "card_drawn",
                "player": "bob",
                "deck": 2,
                "back": ["church", "people"],
                "card": "p37",
            }
        ],
    ),
)

CouncilDecksRebuiltEvent = named(
    "CouncilDecksRebuiltEvent",
    doc(
        record({"type": one_of(("decks_rebuilt",)), "sizes": list_of(integer(0, None))}),
        "The discard pile was shuffled into three new decks.",
        examples=[{"type": "decks_rebuilt", "sizes": [4, 3, 3]}],
    ),
)

CouncilExchangeStartedEvent = named(
    "CouncilExchangeStartedEvent",
    doc(
        record({"type": one_of(("exchange_started",))}),
        "The advisors may now exchange cards.",
        examples=[{"type": "exchange_started"}],
    ),
)

CouncilExchangeChosenEvent = named(
    "CouncilExchangeChosenEvent",
    doc(
        record(
            {"type": one_of(("exchange_chosen",)), "player": PLAYER_ID}, {"cards": list_of(CARD_ID)}
        ),
        "An advisor chose (`cards` private to them).",
        examples=[
            {"type": "exchange_chosen", "player": "bob", "cards": ["p37", "p35", "p04", "p70"]}
        ],
    ),
)

CouncilCardsExchangedEvent = named(
    "CouncilCardsExchangedEvent",
    doc(
        record(
            {
                "type": one_of(("cards_exchanged",)),
                "player": PLAYER_ID,
                "count": integer(0, None),
            },
            {"cards": list_of(CARD_ID)},
        ),
        "Everyone chose: an advisor discarded `count` cards (ids private).",
        examples=[
            {
                "type": "cards_exchanged",
                "player": "bob",
                "count": 4,
                "cards": ["p37", "p35", "p04", "p70"],
            }
        ],
    ),
)

CouncilRoundStartedEvent = named(
    "CouncilRoundStartedEvent",
    doc(
        record(
            {
                "type": one_of(("round_started",)),
                "reign": integer(1, None),
                "round": integer(1, None),
            }
        ),
        "A round began.",
        examples=[{"type": "round_started", "reign": 1, "round": 1}],
    ),
)

CouncilProposalPitchedEvent = named(
    "CouncilProposalPitchedEvent",
    doc(
        record({"type": one_of(("proposal_pitched",)), "player": PLAYER_ID}, {"card": CARD_ID}),
        "An advisor pitched (`card` private to them).",
        examples=[{"type": "proposal_pitched", "player": "bob", "card": "p08"}],
    ),
)

CouncilProposalsOnTableEvent = named(
    "CouncilProposalsOnTableEvent",
    doc(
        record({"type": one_of(("proposals_on_table",)), "backs": map_of(CouncilBack)}),
        "Everyone pitched: the backs of the face-down cards.",
        examples=[{"type": "proposals_on_table", "backs": {"bob": ["army"], "cat": ["church"]}}],
    ),
)

CouncilProposalsDecidedEvent = named(
    "CouncilProposalsDecidedEvent",
    doc(
        record(
            {
                "type": one_of(("proposals_decided",)),
                "accepted": list_of(PLAYER_ID),
                "rejected": list_of(PLAYER_ID),
            }
        ),
        "The Monarch's decision.",
        examples=[{"type": "proposals_decided", "accepted": ["bob"], "rejected": ["cat"]}],
    ),
)

CouncilPointsScoredEvent = named(
    "CouncilPointsScoredEvent",
    doc(
        record(
            {
                "type": one_of(("points_scored",)),
                "player": PLAYER_ID,
                "points": integer(0, None),
                "reason": one_of(POINT_KINDS),
            },
            {"pillars": map_of(integer(0, None), key=CouncilPillar)},
        ),
        "Points scored (`pillars`: goal points per pillar).",
        examples=[{"type": "points_scored", "player": "bob", "points": 1, "reason": "acceptance"}],
    ),
)

CouncilChanges = named(
    "CouncilChanges",
    doc(
        map_of(integer(-5, 5), key=CouncilPillar),
        "Signed changes per pillar (a zone of a card's front).",
        examples=[{"church": 2, "army": -1}],
    ),
)

CouncilProposalRevealedEvent = named(
    "CouncilProposalRevealedEvent",
    doc(
        record(
            {
                "type": one_of(("proposal_revealed",)),
                "advisor": PLAYER_ID,
                "card": CARD_ID,
                "decision": one_of(DECISIONS),
                "title": STR,
                "back": CouncilBack,
                "accept": CouncilChanges,
                "reject": CouncilChanges,
            }
        ),
        "A face-down card was revealed, front included.",
        examples=[
            {
                "type": "proposal_revealed",
                "advisor": "cat",
                "card": "p03",
                "decision": "rejected",
                "title": "Canonise the old hermit",
                "back": ["church"],
                "accept": {"church": 2},
                "reject": {"church": -1},
            }
        ],
    ),
)

CouncilMindChangedEvent = named(
    "CouncilMindChangedEvent",
    doc(
        record(
            {
                "type": one_of(("mind_changed",)),
                "advisor": PLAYER_ID,
                "card": CARD_ID,
                "decision": one_of(DECISIONS),
            }
        ),
        "The Monarch reversed the decision on the revealed card.",
        examples=[
            {"type": "mind_changed", "advisor": "cat", "card": "p03", "decision": "accepted"}
        ],
    ),
)

CouncilProposalResolvedEvent = named(
    "CouncilProposalResolvedEvent",
    doc(
        record(
            {
                "type": one_of(("proposal_resolved",)),
                "advisor": PLAYER_ID,
                "card": CARD_ID,
                "decision": one_of(DECISIONS),
                "zone": one_of(ZONES),
                "changes": CouncilChanges,
                "tracks": CouncilTracks,
            }
        ),
        "A zone was applied; `tracks` after it.",
        examples=[
            {
                "type": "proposal_resolved",
                "advisor": "cat",
                "card": "p03",
                "decision": "accepted",
                "zone": "white",
                "changes": {"church": 2},
                "tracks": {"church": 2, "army": 0, "people": 0, "wealth": 0},
            }
        ],
    ),
)

CouncilMonarchDiedEvent = named(
    "CouncilMonarchDiedEvent",
    doc(
        record(
            {
                "type": one_of(("monarch_died",)),
                "monarch": PLAYER_ID,
                "advisor": PLAYER_ID,
                "card": CARD_ID,
                "pillars": list_of(CouncilPillar),
            }
        ),
        "A token reached an end space.",
        examples=[
            {
                "type": "monarch_died",
                "monarch": "ann",
                "advisor": "cat",
                "card": "p46",
                "pillars": ["wealth"],
            }
        ],
    ),
)

CouncilProposalsDiscardedEvent = named(
    "CouncilProposalsDiscardedEvent",
    doc(
        record({"type": one_of(("proposals_discarded",)), "advisors": list_of(PLAYER_ID)}),
        "These advisors' cards were discarded unrevealed.",
        examples=[{"type": "proposals_discarded", "advisors": ["bob"]}],
    ),
)

CouncilStoryVoteStartedEvent = named(
    "CouncilStoryVoteStartedEvent",
    doc(
        record({"type": one_of(("story_vote_started",)), "advisor": PLAYER_ID}),
        "The others vote on the story point.",
        examples=[{"type": "story_vote_started", "advisor": "cat"}],
    ),
)

CouncilStoryVoteCastEvent = named(
    "CouncilStoryVoteCastEvent",
    doc(
        record({"type": one_of(("story_vote_cast",)), "player": PLAYER_ID}, {"approve": BOOL}),
        "A player voted (`approve` private to them).",
        examples=[{"type": "story_vote_cast", "player": "bob", "approve": True}],
    ),
)

CouncilStoryVoteResultEvent = named(
    "CouncilStoryVoteResultEvent",
    doc(
        record(
            {
                "type": one_of(("story_vote_result",)),
                "advisor": PLAYER_ID,
                "votes": map_of(BOOL),
                "awarded": BOOL,
            }
        ),
        "Everyone voted on the story point.",
        examples=[
            {
                "type": "story_vote_result",
                "advisor": "cat",
                "votes": {"ann": True, "bob": True},
                "awarded": True,
            }
        ],
    ),
)

CouncilMonarchAbdicatedEvent = named(
    "CouncilMonarchAbdicatedEvent",
    doc(
        record(
            {
                "type": one_of(("monarch_abdicated",)),
                "monarch": PLAYER_ID,
                "pile": integer(0, None),
            }
        ),
        "The Monarch abdicated with `pile` cards.",
        examples=[{"type": "monarch_abdicated", "monarch": "cat", "pile": 12}],
    ),
)

CouncilGoalsRevealedEvent = named(
    "CouncilGoalsRevealedEvent",
    doc(
        record({"type": one_of(("goals_revealed",)), "goals": map_of(GOAL_ID)}),
        "After a death, every advisor's goal.",
        examples=[
            {
                "type": "goals_revealed",
                "goals": {"bob": "strong-people-strong-wealth", "cat": "strong-church-weak-wealth"},
            }
        ],
    ),
)

CouncilReignEndedEvent = named(
    "CouncilReignEndedEvent",
    doc(
        record(
            {
                "type": one_of(("reign_ended",)),
                "reign": integer(1, None),
                "monarch": PLAYER_ID,
                "cause": one_of(REIGN_ENDS),
                "points": map_of(integer(0, None)),
            }
        ),
        "A reign ended; `points` per player in it.",
        examples=[
            {
                "type": "reign_ended",
                "reign": 1,
                "monarch": "ann",
                "cause": "death",
                "points": {"ann": 8, "bob": 6, "cat": 8},
            }
        ],
    ),
)

CouncilEndVoteStartedEvent = named(
    "CouncilEndVoteStartedEvent",
    doc(
        record({"type": one_of(("end_vote_started",))}),
        "Everyone votes on ending the game early.",
        examples=[{"type": "end_vote_started"}],
    ),
)

CouncilEndVoteCastEvent = named(
    "CouncilEndVoteCastEvent",
    doc(
        record({"type": one_of(("end_vote_cast",)), "player": PLAYER_ID}, {"end": BOOL}),
        "A player voted (`end` private to them).",
        examples=[{"type": "end_vote_cast", "player": "bob", "end": True}],
    ),
)

CouncilEndVoteResultEvent = named(
    "CouncilEndVoteResultEvent",
    doc(
        record(
            {
                "type": one_of(("end_vote_result",)),
                "votes": map_of(BOOL),
                "ended": BOOL,
            }
        ),
        "Everyone voted; `ended` when all voted to end.",
        examples=[
            {
                "type": "end_vote_result",
                "votes": {"ann": False, "bob": True, "cat": True},
                "ended": False,
            }
        ],
    ),
)

CouncilMonarchNamedEvent = named(
    "CouncilMonarchNamedEvent",
    doc(
        record(
            {
                "type": one_of(("monarch_named",)),
                "by": PLAYER_ID,
                "monarch": PLAYER_ID,
            }
        ),
        "The outgoing Monarch named the next.",
        examples=[{"type": "monarch_named", "by": "ann", "monarch": "cat"}],
    ),
)

CouncilGameOverEvent = named(
    "CouncilGameOverEvent",
    doc(
        record(
            {
                "type": one_of(("game_over",)),
                "winners": list_of(PLAYER_ID),
                "draw": BOOL,
                "scores": SCORES,
                "reason": one_of(GAME_END_REASONS),
            }
        ),
        "The game ended.",
        examples=[
            {
                "type": "game_over",
                "winners": ["cat"],
                "draw": False,
                "scores": {"ann": 21, "bob": 16, "cat": 24},
                "reason": "game_end",
            }
        ],
    ),
)

ReignsTheCouncilEvent = named(
    "ReignsTheCouncilEvent",
    doc(
        tagged(
            "type",
            {
                "reign_started": CouncilReignStartedEvent,
                "goal_dealt": CouncilGoalDealtEvent,
                "card_drawn": CouncilCardDrawnEvent,
                "decks_rebuilt": CouncilDecksRebuiltEvent,
                "exchange_started": CouncilExchangeStartedEvent,
                "exchange_chosen": CouncilExchangeChosenEvent,
                "cards_exchanged": CouncilCardsExchangedEvent,
                "round_started": CouncilRoundStartedEvent,
                "proposal_pitched": CouncilProposalPitchedEvent,
                "proposals_on_table": CouncilProposalsOnTableEvent,
                "proposals_decided": CouncilProposalsDecidedEvent,
                "points_scored": CouncilPointsScoredEvent,
                "proposal_revealed": CouncilProposalRevealedEvent,
                "mind_changed": CouncilMindChangedEvent,
                "proposal_resolved": CouncilProposalResolvedEvent,
                "monarch_died": CouncilMonarchDiedEvent,
                "proposals_discarded": CouncilProposalsDiscardedEvent,
                "story_vote_started": CouncilStoryVoteStartedEvent,
                "story_vote_cast": CouncilStoryVoteCastEvent,
                "story_vote_result": CouncilStoryVoteResultEvent,
                "monarch_abdicated": CouncilMonarchAbdicatedEvent,
                "goals_revealed": CouncilGoalsRevealedEvent,
                "reign_ended": CouncilReignEndedEvent,
                "end_vote_started": CouncilEndVoteStartedEvent,
                "end_vote_cast": CouncilEndVoteCastEvent,
                "end_vote_result": CouncilEndVoteResultEvent,
                "monarch_named": CouncilMonarchNamedEvent,
                "game_over": CouncilGameOverEvent,
            },
        ),
        "Something that happened in a Reigns: The Council game.",
    ),
)

CouncilCardFace = named(
    "CouncilCardFace",
    doc(
        record(
            {
                "id": CARD_ID,
                "title": STR,
                "back": CouncilBack,
                "accept": CouncilChanges,
                "reject": CouncilChanges,
            }
        ),
        "A card shown with its front, to those who may see it.",
    ),
)

ReignsTheCouncilView = named(
    "ReignsTheCouncilView",
    doc(
        record(
            {
                "game": one_of(("reigns-the-council",)),
                "schema_version": doc(INT, const=SCHEMA_VERSION),
                "viewer": nullable(PLAYER_ID),
                "role": nullable(one_of(ROLES)),
                "players": doc(list_of(PLAYER_ID), minItems=3, maxItems=4),
                "status": STATUS,
                "phase": PHASE,
                "active_players": list_of(PLAYER_ID),
                "to_move": TO_MOVE,
                "move_count": integer(0, 9007199254740991),
                "outcome": nullable(OUTCOME),
                "story_point": STORY_POINT,
                "reign": integer(1, None),
                "monarch": PLAYER_ID,
                "tracks": CouncilTracks,
                "decks": doc(
                    list_of(record({"count": integer(0, None), "top": nullable(CouncilBack)})),
                    minItems=3,
                    maxItems=3,
                ),
                "discard_count": integer(0, None),
                "discard_revealed": doc(
                    list_of(CouncilCardFace),
                    "The rejected proposals revealed face up that still lie in the discard "
                    "pile, in discard order (the rest of the pile is face down).",
                ),
                "pile": list_of(CouncilCardFace),
                "hands": doc(
                    map_of(record({"count": integer(0, None), "backs": list_of(CouncilBack)})),
                    "Each advisor's hand size and card backs.",
                ),
                "draw_queue": list_of(PLAYER_ID),
                "exchange": nullable(record({"chosen": map_of(BOOL)}, {"mine": list_of(CARD_ID)})),
                "round": nullable(
                    doc(
                        record(
                            {
                                "number": integer(1, None),
                                "pitched": nullable(
                                    doc(map_of(BOOL), "During the pitch: who has pitched.")
                                ),
                                "table": doc(
                                    map_of(CouncilBack),
                                    "Advisor to the back of their face-down card.",
                                ),
                                "accepted": nullable(list_of(PLAYER_ID)),
                                "revealed": list_of(
                                    record(
                                        {
                                            "advisor": PLAYER_ID,
                                            "card": CouncilCardFace,
                                            "decision": one_of(DECISIONS),
                                            "changed": BOOL,
                                        }
                                    )
                                ),
                                "pending": nullable(
                                    record(
                                        {
                                            "advisor": PLAYER_ID,
                                            "card": CouncilCardFace,
                                            "decision": one_of(DECISIONS),
                                        }
                                    )
                                ),
                                "mind_changed": BOOL,
                                "discarded": list_of(PLAYER_ID),
                            },
                            {"mine": nullable(CouncilCardFace)},
                        ),
                        "The round as the viewer sees it; `mine` (players only) is the "
                        "viewer's own pitched card.",
                    )
                ),
                "votes": nullable(record({"voted": map_of(BOOL)}, {"mine": BOOL})),
                "story": nullable(record({"advisor": PLAYER_ID})),
                "reigns": list_of(CouncilReign),
                "scores": SCORES,
            },
            {
                "hand": doc(list_of(CouncilCardFace), "The viewer's own hand (advisors only)."),
                "goal": nullable(
                    record(
                        {
                            "id": GOAL_ID,
                            "sides": map_of(doc(INT, enum=list(GOAL_SIDES)), key=CouncilPillar),
                        }
                    )
                ),
            },
        ),
        "A state as `viewer` sees it (null: a spectator). An advisor sees their hand's fronts "
        "and goal; everyone sees hand backs, each deck's top back, pitched backs, revealed "
        "cards, tracks and scores; secret choices show only who has chosen.",
        examples=[
            {
                "game": "reigns-the-council",
                "schema_version": SCHEMA_VERSION,
                "viewer": "bob",
                "role": "advisor",
                "players": ["ann", "bob", "cat"],
                "status": "in_progress",
                "phase": "pitch",
                "active_players": ["bob", "cat"],
                "to_move": ["bob", "cat"],
                "move_count": 26,
                "outcome": None,
                "story_point": "auto",
                "reign": 1,
                "monarch": "ann",
                "tracks": {"church": 0, "army": 0, "people": 0, "wealth": 0},
                "decks": [
                    {"count": 15, "top": ["people"]},
                    {"count": 19, "top": ["wealth"]},
                    {"count": 14, "top": ["people"]},
                ],
                "discard_count": 10,
                "discard_revealed": [],
                "pile": [],
                "hands": {
                    "bob": {
                        "count": 7,
                        "backs": [
                            ["army", "wealth"],
                            ["church", "army"],
                            ["church", "wealth"],
                            ["army"],
                            ["army", "wealth"],
                            ["army"],
                            ["army"],
                        ],
                    },
                    "cat": {
                        "count": 7,
                        "backs": [
                            ["people", "wealth"],
                            ["church", "army"],
                            ["church"],
                            ["church"],
                            ["wealth"],
                            ["wealth"],
                            ["wealth"],
                        ],
                    },
                },
                "draw_queue": [],
                "exchange": None,
                "round": {
                    "number": 1,
                    "pitched": {"bob": False, "cat": False},
                    "table": {},
                    "accepted": None,
                    "revealed": [],
                    "pending": None,
                    "mind_changed": False,
                    "discarded": [],
                    "mine": None,
                },
                "votes": None,
                "story": None,
                "reigns": [
                    {
                        "number": 1,
                        "monarch": "ann",
                        "end": None,
                        "goals": None,
                        "tracks": None,
                        "points": {
                            "ann": {"acceptance": 0, "story": 0, "pile": 0, "goal": {}},
                            "bob": {"acceptance": 0, "story": 0, "pile": 0, "goal": {}},
                            "cat": {"acceptance": 0, "story": 0, "pile": 0, "goal": {}},
                        },
                    }
                ],
                "scores": {"ann": 0, "bob": 0, "cat": 0},
                "hand": [
                    {
                        "id": "p60",
                        "title": "Buy cannons from the east",
                        "back": ["army", "wealth"],
                        "accept": {"army": 1, "wealth": -2},
                        "reject": {"wealth": 2},
                    },
                    {
                        "id": "p32",
                        "title": "Draft the choirboys",
                        "back": ["church", "army"],
                        "accept": {"church": -1, "army": -2},
                        "reject": {"army": 2},
                    },
                    {
                        "id": "p45",
                        "title": "Tax holy relics",
                        "back": ["church", "wealth"],
                        "accept": {"church": -2, "wealth": 1},
                        "reject": {"church": 1, "wealth": -1},
                    },
                    {
                        "id": "p11",
                        "title": "Forge new pikes",
                        "back": ["army"],
                        "accept": {"army": 3},
                        "reject": {"army": -2},
                    },
                    {
                        "id": "p57",
                        "title": "Hire foreign mercenaries",
                        "back": ["army", "wealth"],
                        "accept": {"army": 2, "wealth": 1},
                        "reject": {"army": -1, "wealth": -1},
                    },
                    {
                        "id": "p10",
                        "title": "Pension the veterans",
                        "back": ["army"],
                        "accept": {"army": -2},
                        "reject": {"army": 1},
                    },
                    {
                        "id": "p08",
                        "title": "Disband the border guard",
                        "back": ["army"],
                        "accept": {"army": -1},
                        "reject": {"army": 1},
                    },
                ],
                "goal": {"id": "strong-people-strong-wealth", "sides": {"people": 1, "wealth": 1}},
            },
            {
                "game": "reigns-the-council",
                "schema_version": SCHEMA_VERSION,
                "viewer": "ann",
                "role": "monarch",
                "players": ["ann", "bob", "cat"],
                "status": "in_progress",
                "phase": "decide",
                "active_players": ["ann"],
                "to_move": ["ann"],
                "move_count": 28,
                "outcome": None,
                "story_point": "auto",
                "reign": 1,
                "monarch": "ann",
                "tracks": {"church": 0, "army": 0, "people": 0, "wealth": 0},
                "decks": [
                    {"count": 15, "top": ["people"]},
                    {"count": 19, "top": ["wealth"]},
                    {"count": 14, "top": ["people"]},
                ],
                "discard_count": 10,
                "discard_revealed": [],
                "pile": [],
                "hands": {
                    "bob": {
                        "count": 6,
                        "backs": [
                            ["army", "wealth"],
                            ["church", "army"],
                            ["church", "wealth"],
                            ["army"],
                            ["army", "wealth"],
                            ["army"],
                        ],
                    },
                    "cat": {
                        "count": 6,
                        "backs": [
                            ["people", "wealth"],
                            ["church", "army"],
                            ["church"],
                            ["wealth"],
                            ["wealth"],
                            ["wealth"],
                        ],
                    },
                },
                "draw_queue": [],
                "exchange": None,
                "round": {
                    "number": 1,
                    "pitched": None,
                    "table": {"bob": ["army"], "cat": ["church"]},
                    "accepted": None,
                    "revealed": [],
                    "pending": None,
                    "mind_changed": False,
                    "discarded": [],
                    "mine": None,
                },
                "votes": None,
                "story": None,
                "reigns": [
                    {
                        "number": 1,
                        "monarch": "ann",
                        "end": None,
                        "goals": None,
                        "tracks": None,
                        "points": {
                            "ann": {"acceptance": 0, "story": 0, "pile": 0, "goal": {}},
                            "bob": {"acceptance": 0, "story": 0, "pile": 0, "goal": {}},
                            "cat": {"acceptance": 0, "story": 0, "pile": 0, "goal": {}},
                        },
                    }
                ],
                "scores": {"ann": 0, "bob": 0, "cat": 0},
            },
            {
                "game": "reigns-the-council",
                "schema_version": SCHEMA_VERSION,
                "viewer": None,
                "role": None,
                "players": ["ann", "bob", "cat"],
                "status": "in_progress",
                "phase": "reveal",
                "active_players": ["ann"],
                "to_move": ["ann"],
                "move_count": 29,
                "outcome": None,
                "story_point": "auto",
                "reign": 1,
                "monarch": "ann",
                "tracks": {"church": 0, "army": 0, "people": 0, "wealth": 0},
                "decks": [
                    {"count": 15, "top": ["people"]},
                    {"count": 19, "top": ["wealth"]},
                    {"count": 14, "top": ["people"]},
                ],
                "discard_count": 10,
                "discard_revealed": [],
                "pile": [],
                "hands": {
                    "bob": {
                        "count": 6,
                        "backs": [
                            ["army", "wealth"],
                            ["church", "army"],
                            ["church", "wealth"],
                            ["army"],
                            ["army", "wealth"],
                            ["army"],
                        ],
                    },
                    "cat": {
                        "count": 6,
                        "backs": [
                            ["people", "wealth"],
                            ["church", "army"],
                            ["church"],
                            ["wealth"],
                            ["wealth"],
                            ["wealth"],
                        ],
                    },
                },
                "draw_queue": [],
                "exchange": None,
                "round": {
                    "number": 1,
                    "pitched": None,
                    "table": {"bob": ["army"], "cat": ["church"]},
                    "accepted": ["bob"],
                    "revealed": [],
                    "pending": None,
                    "mind_changed": False,
                    "discarded": [],
                },
                "votes": None,
                "story": None,
                "reigns": [
                    {
                        "number": 1,
                        "monarch": "ann",
                        "end": None,
                        "goals": None,
                        "tracks": None,
                        "points": {
                            "ann": {"acceptance": 0, "story": 0, "pile": 0, "goal": {}},
                            "bob": {"acceptance": 1, "story": 0, "pile": 0, "goal": {}},
                            "cat": {"acceptance": 0, "story": 0, "pile": 0, "goal": {}},
                        },
                    }
                ],
                "scores": {"ann": 0, "bob": 1, "cat": 0},
            },
        ],
    ),
)

ReignsTheCouncilScoreBreakdown = named(
    "ReignsTheCouncilScoreBreakdown",
    doc(
        record(
            {
                "reigns": list_of(
                    record(
                        {
                            "reign": integer(1, None),
                            "monarch": PLAYER_ID,
                            "end": nullable(one_of(REIGN_ENDS)),
                            "goals": nullable(map_of(GOAL_ID)),
                            "players": map_of(
                                record(
                                    {
                                        "acceptance": integer(0, None),
                                        "story": integer(0, None),
                                        "pile": integer(0, None),
                                        "goal": map_of(integer(0, None), key=CouncilPillar),
                                        "goal_total": integer(0, None),
                                        "total": integer(0, None),
                                    }
                                )
                            ),
                        }
                    )
                ),
                "totals": map_of(
                    record(
                        {
                            "acceptance": integer(0, None),
                            "story": integer(0, None),
                            "pile": integer(0, None),
                            "goal": map_of(integer(0, None), key=CouncilPillar),
                            "goal_total": integer(0, None),
                            "total": integer(0, None),
                        }
                    )
                ),
                "ranking": list_of(PLAYER_ID),
            }
        ),
        "Per reign and in total: acceptance points, story points, pile points and goal points "
        "(per pillar, in each reign and summed over the reigns).",
        examples=[
            {
                "reigns": [
                    {
                        "reign": 1,
                        "monarch": "ann",
                        "end": "death",
                        "goals": {
                            "bob": "strong-people-strong-wealth",
                            "cat": "strong-church-weak-wealth",
                        },
                        "players": {
                            "ann": {
                                "acceptance": 0,
                                "story": 0,
                                "pile": 8,
                                "goal": {},
                                "goal_total": 0,
                                "total": 8,
                            },
                            "bob": {
                                "acceptance": 6,
                                "story": 0,
                                "pile": 0,
                                "goal": {"people": 0, "wealth": 0},
                                "goal_total": 0,
                                "total": 6,
                            },
                            "cat": {
                                "acceptance": 2,
                                "story": 1,
                                "pile": 0,
                                "goal": {"church": 0, "wealth": 5},
                                "goal_total": 5,
                                "total": 8,
                            },
                        },
                    },
                    {
                        "reign": 2,
                        "monarch": "cat",
                        "end": "death",
                        "goals": {
                            "ann": "weak-church-weak-people",
                            "bob": "weak-people-strong-wealth",
                        },
                        "players": {
                            "ann": {
                                "acceptance": 5,
                                "story": 0,
                                "pile": 0,
                                "goal": {"church": 0, "people": 0},
                                "goal_total": 0,
                                "total": 5,
                            },
                            "bob": {
                                "acceptance": 4,
                                "story": 1,
                                "pile": 0,
                                "goal": {"people": 0, "wealth": 0},
                                "goal_total": 0,
                                "total": 5,
                            },
                            "cat": {
                                "acceptance": 0,
                                "story": 0,
                                "pile": 9,
                                "goal": {},
                                "goal_total": 0,
                                "total": 9,
                            },
                        },
                    },
                    {
                        "reign": 3,
                        "monarch": "bob",
                        "end": "death",
                        "goals": {
                            "cat": "strong-army-strong-wealth",
                            "ann": "strong-army-strong-people",
                        },
                        "players": {
                            "ann": {
                                "acceptance": 3,
                                "story": 1,
                                "pile": 0,
                                "goal": {"army": 0, "people": 4},
                                "goal_total": 4,
                                "total": 8,
                            },
                            "bob": {
                                "acceptance": 0,
                                "story": 0,
                                "pile": 5,
                                "goal": {},
                                "goal_total": 0,
                                "total": 5,
                            },
                            "cat": {
                                "acceptance": 4,
                                "story": 0,
                                "pile": 0,
                                "goal": {"army": 0, "wealth": 3},
                                "goal_total": 3,
                                "total": 7,
                            },
                        },
                    },
                ],
                "totals": {
                    "ann": {
                        "acceptance": 8,
                        "story": 1,
                        "pile": 8,
                        "goal": {"church": 0, "army": 0, "people": 4},
                        "goal_total": 4,
                        "total": 21,
                    },
                    "bob": {
                        "acceptance": 10,
                        "story": 1,
                        "pile": 5,
                        "goal": {"people": 0, "wealth": 0},
                        "goal_total": 0,
                        "total": 16,
                    },
                    "cat": {
                        "acceptance": 6,
                        "story": 1,
                        "pile": 9,
                        "goal": {"church": 0, "army": 0, "wealth": 8},
                        "goal_total": 8,
                        "total": 24,
                    },
                },
                "ranking": ["cat", "ann", "bob"],
            }
        ],
    ),
)

ReignsTheCouncilContent = named(
    "ReignsTheCouncilContent",
    doc(
        record(
            {
                "pillars": list_of(record({"id": CouncilPillar, "name": STR})),
                "track": record(
                    {
                        "min": INT,
                        "max": INT,
                        "start": INT,
                    }
                ),
                "deck": list_of(CouncilCardFace),
                "goals": list_of(
                    record(
                        {
                            "id": GOAL_ID,
                            "sides": map_of(doc(INT, enum=list(GOAL_SIDES)), key=CouncilPillar),
                        }
                    )
                ),
            }
        ),
        "The default content: the four pillars, the track, the 72 proposals and the 24 secret "
        "goals.",
    ),
)

EVENT = ReignsTheCouncilEvent
VIEW = ReignsTheCouncilView
SCORE_BREAKDOWN = ReignsTheCouncilScoreBreakdown
CONTENT = ReignsTheCouncilContent
