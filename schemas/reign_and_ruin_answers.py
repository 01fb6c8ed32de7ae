"""What the service answers in Reign & Ruin games: its events, the per-player view, the score
breakdown and the default content, declared once (never read by the service: ``openapi.yaml`` and
the tests are built from them)."""

from __future__ import annotations

from rules.reign_and_ruin.abilities import TOKENS
from rules.reign_and_ruin.scoring import TIE_BREAKS
from rules.reign_and_ruin.state import SCHEMA_VERSION
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
from schemas.reign_and_ruin import (
    ABILITY,
    CARD,
    CARD_ID,
    CARD_LIST,
    CARD_VALUE,
    DECK_CARD,
    DESTINATION,
    FACTION,
    FIGHTER,
    FINAL_ROUND,
    KURGOZ,
    PHASE,
)

__all__ = ["EVENT", "VIEW", "SCORE_BREAKDOWN", "CONTENT"]

RRCardId = CARD_ID

RRCardList = CARD_LIST

RRDraftPickEvent = named(
    "RRDraftPickEvent",
    doc(
        record({"type": one_of(("draft_pick",)), "player": PLAYER_ID}, {"cards": RRCardList}),
        "A player kept two cards this draft round. The cards are private to that player: in "
        "a\n"
        "session, everyone else gets the event without `cards`.",
    ),
)

RRPacketsPassedEvent = named(
    "RRPacketsPassedEvent",
    doc(
        record({"type": one_of(("packets_passed",)), "round": integer(1, None)}),
        "Every packet passed to the next seat; `round` is the draft round that begins.",
    ),
)

RRLastCardKeptEvent = named(
    "RRLastCardKeptEvent",
    doc(
        record({"type": one_of(("last_card_kept",)), "player": PLAYER_ID}, {"card": RRCardId}),
        "The last card of a packet was kept automatically. The card is private to that "
        "player: in\n"
        "a session, everyone else gets the event without `card`.",
    ),
)

RRDraftFinishedEvent = named(
    "RRDraftFinishedEvent",
    doc(
        record({"type": one_of(("draft_finished",)), "starting_player": PLAYER_ID}),
        "The draft is over; hands are formed and play begins.",
    ),
)

RRTurnStartedEvent = named(
    "RRTurnStartedEvent", record({"type": one_of(("turn_started",)), "player": PLAYER_ID})
)

RRFighterPlayedEvent = named(
    "RRFighterPlayedEvent",
    doc(
        record(
            {
                "type": one_of(("fighter_played",)),
                "player": PLAYER_ID,
                "card": RRCardId,
            }
        ),
        "A card was played as a fighter into the player's own army.",
    ),
)

RRAbilityUsedEvent = named(
    "RRAbilityUsedEvent",
    doc(
        record(
            {
                "type": one_of(("ability_used",)),
                "player": PLAYER_ID,
                "card": RRCardId,
                "ability": ABILITY,
            }
        ),
        "A card was played for its ability (`ability` is the move type).",
    ),
)

RRFighterDestroyedEvent = named(
    "RRFighterDestroyedEvent",
    doc(
        record(
            {
                "type": one_of(("fighter_destroyed",)),
                "player": PLAYER_ID,
                "owner": PLAYER_ID,
                "card": RRCardId,
                "kurgoz_returned": integer(0, 30),
                "cognitz_returned": BOOL,
            }
        ),
        "A fighter was discarded by an Alfenghast; its tokens went back to the supply.",
    ),
)

RRCardDrawnEvent = named(
    "RRCardDrawnEvent",
    doc(
        record({"type": one_of(("card_drawn",)), "player": PLAYER_ID}, {"card": RRCardId}),
        "A Hexen drew the top card of the draw pile. The card is private to the player: in "
        "a\n"
        "session, everyone else gets the event without `card`.",
    ),
)

RRTokenPlacedEvent = named(
    "RRTokenPlacedEvent",
    doc(
        record(
            {
                "type": one_of(("token_placed",)),
                "player": PLAYER_ID,
                "owner": PLAYER_ID,
                "card": RRCardId,
                "token": one_of(TOKENS),
                "kurgoz": KURGOZ,
            }
        ),
        "A Kurgoz or Cognitz token was put on a fighter; `kurgoz` is its Kurgoz count now.",
    ),
)

RRFighterJoinedEvent = named(
    "RRFighterJoinedEvent",
    doc(
        record(
            {
                "type": one_of(("fighter_joined",)),
                "player": PLAYER_ID,
                "army": PLAYER_ID,
                "card": RRCardId,
            }
        ),
        "A Crou joined an opponent's army.",
    ),
)

RRFighterTakenEvent = named(
    "RRFighterTakenEvent",
    doc(
        record(
            {
                "type": one_of(("fighter_taken",)),
                "player": PLAYER_ID,
                "owner": PLAYER_ID,
                "card": RRCardId,
                "to": DESTINATION,
                "kurgoz_returned": integer(0, 30),
            }
        ),
        "After a Crou, a fighter was taken from `owner`'s army, its tokens removed.",
    ),
)

RRCardRevivedEvent = named(
    "RRCardRevivedEvent",
    doc(
        record(
            {
                "type": one_of(("card_revived",)),
                "player": PLAYER_ID,
                "card": RRCardId,
                "to": DESTINATION,
            },
            {"army": PLAYER_ID},
        ),
        "A Nomora took a card from the discard pile into an army (`army`) or the player's hand.",
    ),
)

RRFinalRoundStartedEvent = named(
    "RRFinalRoundStartedEvent",
    doc(
        record(
            {
                "type": one_of(("final_round_started",)),
                "ended_by": PLAYER_ID,
                "to_play": list_of(PLAYER_ID),
            }
        ),
        "A player played the last card of their hand; the others play one more card each.",
    ),
)

RRGameOverEvent = named(
    "RRGameOverEvent",
    record(
        {
            "type": one_of(("game_over",)),
            "winners": list_of(PLAYER_ID),
            "draw": BOOL,
            "scores": SCORES,
        }
    ),
)

ReignAndRuinEvent = named(
    "ReignAndRuinEvent",
    doc(
        tagged(
            "type",
            {
                "draft_pick": RRDraftPickEvent,
                "packets_passed": RRPacketsPassedEvent,
                "last_card_kept": RRLastCardKeptEvent,
                "draft_finished": RRDraftFinishedEvent,
                "turn_started": RRTurnStartedEvent,
                "fighter_played": RRFighterPlayedEvent,
                "ability_used": RRAbilityUsedEvent,
                "fighter_destroyed": RRFighterDestroyedEvent,
                "card_drawn": RRCardDrawnEvent,
                "token_placed": RRTokenPlacedEvent,
                "fighter_joined": RRFighterJoinedEvent,
                "fighter_taken": RRFighterTakenEvent,
                "card_revived": RRCardRevivedEvent,
                "final_round_started": RRFinalRoundStartedEvent,
                "game_over": RRGameOverEvent,
            },
        ),
        "Something that happened in a Reign & Ruin game.",
    ),
)


RRViewDraft = named(
    "RRViewDraft",
    doc(
        record(
            {
                "round": integer(1, 3),
                "packet_counts": map_of(integer(0, None)),
                "picked": doc(map_of(BOOL), "Player id to whether they have picked this round."),
                "kept_counts": map_of(integer(0, None)),
            },
            {
                "packet": RRCardList,
                "picks": RRCardList,
                "kept": RRCardList,
            },
        ),
        "The draft as the viewer may see it. `packet`, `picks` and `kept` are the viewer's "
        "own and absent for spectators.",
    ),
)

ReignAndRuinView = named(
    "ReignAndRuinView",
    doc(
        record(
            {
                "game": one_of(("reign-and-ruin",)),
                "schema_version": doc(INT, const=SCHEMA_VERSION),
                "viewer": nullable(PLAYER_ID),
                "players": list_of(PLAYER_ID),
                "status": STATUS,
                "phase": PHASE,
                "active_players": list_of(PLAYER_ID),
                "to_move": TO_MOVE,
                "move_count": integer(0, 9007199254740991),
                "outcome": nullable(OUTCOME),
                "cards": map_of(CARD),
                "starting_player": doc(
                    nullable(PLAYER_ID),
                    "Null until the draft ends (a random player unless the options name one).",
                ),
                "draw_pile_count": integer(0, None),
                "discard_pile": RRCardList,
                "armies": map_of(list_of(FIGHTER)),
                "final_round": nullable(FINAL_ROUND),
                "hand_counts": map_of(integer(0, None)),
                "draft": nullable(RRViewDraft),
            },
            {"hand": RRCardList},
        ),
        "A Reign & Ruin state as `viewer` may see it (`viewer` null: a spectator). Never "
        "holds\n"
        "`rng`, `seed`, the draw pile order, other players' hands, packets, picks or kept "
        "cards.\n"
        "`hand` is present for a player, absent for a spectator.",
        **{"if": {"properties": {"viewer": {"type": "string"}}, "required": ["viewer"]}},
        then={
            "required": ["hand"],
            "properties": {
                "draft": {
                    "oneOf": [
                        {"type": "null"},
                        {"type": "object", "required": ["packet", "picks", "kept"]},
                    ]
                }
            },
        },
        **{
            "else": {
                "not": {"required": ["hand"]},
                "properties": {
                    "draft": {
                        "oneOf": [
                            {"type": "null"},
                            {
                                "type": "object",
                                "not": {
                                    "anyOf": [
                                        {"required": ["packet"]},
                                        {"required": ["picks"]},
                                        {"required": ["kept"]},
                                    ]
                                },
                            },
                        ]
                    }
                },
            }
        },
    ),
)

RRFighterScore = named(
    "RRFighterScore",
    record(
        {
            "card": RRCardId,
            "faction": FACTION,
            "value": CARD_VALUE,
            "kurgoz": KURGOZ,
            "worth": doc(integer(1, None), "value × 2^kurgoz"),
        }
    ),
)

RRSeriesScore = named(
    "RRSeriesScore",
    record(
        {
            "faction": FACTION,
            "cards": RRCardList,
            "sum": doc(integer(0, None), "The sum of the fighters' worths."),
            "value": doc(integer(0, None), "The doubled sum."),
        }
    ),
)

RRPlayerScore = named(
    "RRPlayerScore",
    record(
        {
            "fighters": list_of(RRFighterScore),
            "series": list_of(RRSeriesScore),
            "total": doc(integer(0, None), "The army total."),
            "best_series": doc(integer(0, None), "The highest series value (0 without a series)."),
            "fighter_count": integer(0, None),
        }
    ),
)

ReignAndRuinScoreBreakdown = named(
    "ReignAndRuinScoreBreakdown",
    doc(
        record(
            {
                "players": map_of(RRPlayerScore),
                "ranking": doc(list_of(PLAYER_ID), "Player ids, best first."),
                "tie_break": doc(
                    nullable(one_of(TIE_BREAKS)),
                    "The tie-break that decided the winner, or null when none was needed.",
                ),
            }
        ),
        "How each army total came about. A fighter is worth its value doubled once per "
        "Kurgoz\n"
        "token; three or more fighters of one faction form a series whose sum is doubled. "
        "Ties\n"
        "are broken by the best series value, then the fighter count, else a shared draw.",
    ),
)

RRFactionInfo = named(
    "RRFactionInfo",
    doc(
        record(
            {
                "id": FACTION,
                "name": doc(STR, examples=["Alfenghast"]),
                "colour": doc(STR, examples=["purple"]),
                "ability": doc(ABILITY, "The move type of the faction's ability."),
                "ability_name": doc(STR, examples=["Destroy a Fighter"]),
                "description": STR,
            }
        ),
        "A faction and its ability.",
    ),
)

ReignAndRuinContent = named(
    "ReignAndRuinContent",
    doc(
        record({"deck": list_of(DECK_CARD), "factions": list_of(RRFactionInfo)}),
        "The default deck of Reign & Ruin (54 cards, six factions, values 1 to 9) and the "
        "factions' abilities.",
    ),
)

EVENT = ReignAndRuinEvent
VIEW = ReignAndRuinView
SCORE_BREAKDOWN = ReignAndRuinScoreBreakdown
CONTENT = ReignAndRuinContent
