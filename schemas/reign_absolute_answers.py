"""What the service answers in Reign Absolute games: its events, the per-player view, the score
breakdown and the default content, declared once (never read by the service: ``openapi.yaml`` and
the tests are built from them)."""

from __future__ import annotations

from rules.reign_absolute.combat import CARD_STATUSES, DRAW_RESULTS, SIDES
from rules.reign_absolute.content import ACTION_EFFECTS, CARD_KINDS, SETUP_TASKS, TURN_EFFECTS
from rules.reign_absolute.flow import BONUS_SKIP_REASONS, END_REASONS
from rules.reign_absolute.state import SCHEMA_VERSION
from schemas.common import OUTCOME, PLAYER_ID, STATUS, TO_MOVE
from schemas.fields import (
    ANY,
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
from schemas.reign_absolute import (
    PHASE,
    RA_RACE_RULES,
    RACardId,
    RACardInfo,
    RADoom,
    RAEffect,
    RARaceInfo,
    RAUnitId,
    RAUnitInfo,
)

__all__ = ["EVENT", "VIEW", "SCORE_BREAKDOWN", "CONTENT"]

RARaceChosenEvent = named(
    "RARaceChosenEvent",
    doc(
        record(
            {
                "type": one_of(("race_chosen",)),
                "player": PLAYER_ID,
                "race": STR,
            }
        ),
        "A player chose a race.",
        examples=[{"type": "race_chosen", "player": "ann", "race": "raiders"}],
    ),
)

RAFirstPlayerDrawEvent = named(
    "RAFirstPlayerDrawEvent",
    doc(
        record(
            {
                "type": one_of(("first_player_draw",)),
                "round": INT,
                "draws": doc(
                    map_of(doc(record({"card": RACardId, "number": INT}), "A drawn card.")),
                    "Player id -> value.",
                ),
            }
        ),
        "One round of the first-player draw: each contender's card and its random number.",
        examples=[
            {
                "type": "first_player_draw",
                "round": 1,
                "draws": {
                    "ann": {"card": "plus-1-4", "number": 10},
                    "bob": {"card": "plus-2-2", "number": 12},
                    "cat": {"card": "defence-plus-3-1", "number": 9},
                },
            }
        ],
    ),
)

RAFirstPlayerChosenEvent = named(
    "RAFirstPlayerChosenEvent",
    doc(
        record({"type": one_of(("first_player_chosen",)), "player": PLAYER_ID}),
        "The first player is known.",
        examples=[{"type": "first_player_chosen", "player": "bob"}],
    ),
)

RAPlacementStartedEvent = named(
    "RAPlacementStartedEvent",
    doc(
        record({"type": one_of(("placement_started",)), "player": PLAYER_ID}),
        "Placement begins with the first player.",
        examples=[{"type": "placement_started", "player": "bob"}],
    ),
)

RAUnitPlacedEvent = named(
    "RAUnitPlacedEvent",
    doc(
        record(
            {
                "type": one_of(("unit_placed",)),
                "player": PLAYER_ID,
                "x": INT,
                "y": INT,
            },
            {"unit": RAUnitId},
        ),
        "A unit was placed face down (`unit` only for its owner).",
        examples=[{"type": "unit_placed", "player": "bob", "unit": "orcs-grunt-3", "x": 0, "y": 0}],
    ),
)

RAPlacementFinishedEvent = named(
    "RAPlacementFinishedEvent",
    doc(
        record({"type": one_of(("placement_finished",))}),
        "Every unit is placed.",
        examples=[{"type": "placement_finished"}],
    ),
)

RATurnStartedEvent = named(
    "RATurnStartedEvent",
    doc(
        record(
            {
                "type": one_of(("turn_started",)),
                "player": PLAYER_ID,
                "number": INT,
                "another_turn": BOOL,
            }
        ),
        "A turn begins (`another_turn`: granted by an Another Turn card).",
        examples=[{"type": "turn_started", "player": "bob", "number": 1, "another_turn": False}],
    ),
)

RATurnEndedEvent = named(
    "RATurnEndedEvent",
    doc(
        record(
            {
                "type": one_of(("turn_ended",)),
                "player": PLAYER_ID,
                "number": INT,
            }
        ),
        "A turn ended.",
        examples=[{"type": "turn_ended", "player": "bob", "number": 1}],
    ),
)

RAPassedEvent = named(
    "RAPassedEvent",
    doc(
        record({"type": one_of(("passed",)), "player": PLAYER_ID}),
        "The player took no action.",
        examples=[{"type": "passed", "player": "cat"}],
    ),
)

RACell = named(
    "RACell", doc(record({"x": INT, "y": INT}), "A battlefield cell; `(0, 0)` is the middle.")
)

RAUnitMovedEvent = named(
    "RAUnitMovedEvent",
    doc(
        record(
            {
                "type": one_of(("unit_moved",)),
                "player": PLAYER_ID,
                "from": RACell,
                "to": RACell,
            },
            {
                "unit": RAUnitId,
                "march": doc(BOOL, const=True),
            },
        ),
        "A unit moved (`unit` only for its owner; `march` for a Forced March).",
        examples=[
            {
                "type": "unit_moved",
                "player": "cat",
                "unit": "empire-soldier-3",
                "from": {"x": -1, "y": 0},
                "to": {"x": -2, "y": 0},
            }
        ],
    ),
)

RACombatStartedEvent = named(
    "RACombatStartedEvent",
    doc(
        record(
            {
                "type": one_of(("combat_started",)),
                "player": PLAYER_ID,
                "from": RACell,
                "to": RACell,
                "defender": PLAYER_ID,
            }
        ),
        "Combat step 1: the attacker moves onto the defender's cell.",
        examples=[
            {
                "type": "combat_started",
                "player": "ann",
                "from": {"x": 0, "y": 0},
                "to": {"x": 1, "y": 0},
                "defender": "bob",
            }
        ],
    ),
)

RACombatant = named(
    "RACombatant",
    doc(
        record(
            {
                "player": PLAYER_ID,
                "unit": RAUnitId,
                "x": INT,
                "y": INT,
                "reinforcements": list_of(RACardId),
            }
        ),
        "A unit revealed in combat.",
    ),
)

RAUnitsRevealedEvent = named(
    "RAUnitsRevealedEvent",
    doc(
        record(
            {
                "type": one_of(("units_revealed",)),
                "attacker": RACombatant,
                "defender": RACombatant,
            }
        ),
        "Combat step 2: both units and their reinforcements are revealed to everyone.",
        examples=[
            {
                "type": "units_revealed",
                "attacker": {
                    "player": "ann",
                    "unit": "empire-archers-1",
                    "x": 0,
                    "y": 0,
                    "reinforcements": ["plus-3-1", "defence-plus-6-1"],
                },
                "defender": {
                    "player": "bob",
                    "unit": "elves-enchantress",
                    "x": 1,
                    "y": 0,
                    "reinforcements": ["plus-2-1", "plus-2-2"],
                },
            }
        ],
    ),
)

RASide = named("RASide", one_of(SIDES))

RAAbilityTriggeredEvent = named(
    "RAAbilityTriggeredEvent",
    doc(
        record(
            {
                "type": one_of(("ability_triggered",)),
                "side": RASide,
                "player": PLAYER_ID,
                "unit": RAUnitId,
                "effect": one_of(("draw",)),
                "count": INT,
            }
        ),
        "Combat step 3: a start-of-combat ability (a draw).",
        examples=[
            {
                "type": "ability_triggered",
                "side": "defender",
                "player": "bob",
                "unit": "elves-enchantress",
                "effect": "draw",
                "count": 2,
            }
        ],
    ),
)

RACombatCardDrawnEvent = named(
    "RACombatCardDrawnEvent",
    doc(
        record(
            {
                "type": one_of(("combat_card_drawn",)),
                "side": RASide,
                "player": PLAYER_ID,
                "card": RACardId,
                "source": STR,
                "result": one_of(DRAW_RESULTS),
            }
        ),
        "Combat step 3: a card drawn into the combat (`source`: the unit or Draw card that "
        "drew it). A turn card is discarded, a combat card joins its side.",
        examples=[
            {
                "type": "combat_card_drawn",
                "side": "defender",
                "player": "bob",
                "card": "cancel-1",
                "source": "draw-2-1",
                "result": "joined",
            }
        ],
    ),
)

RAReinforcementsCancelledEvent = named(
    "RAReinforcementsCancelledEvent",
    doc(
        record(
            {
                "type": one_of(("reinforcements_cancelled",)),
                "side": RASide,
                "player": PLAYER_ID,
                "by": list_of(RACardId),
            }
        ),
        "Combat step 4: a Cancel (`by`) voids every reinforcement of `side`.",
        examples=[
            {
                "type": "reinforcements_cancelled",
                "side": "attacker",
                "player": "ann",
                "by": ["cancel-1"],
            }
        ],
    ),
)

RACombatTotal = named(
    "RACombatTotal",
    doc(
        record(
            {
                "player": PLAYER_ID,
                "unit": RAUnitId,
                "base": INT,
                "abilities": list_of(
                    doc(record({"effect": STR, "value": INT}), "An ability's part.")
                ),
                "ability_bonus": INT,
                "cards": list_of(
                    doc(
                        record(
                            {
                                "card": RACardId,
                                "value": INT,
                                "status": one_of(CARD_STATUSES),
                            }
                        ),
                        "A card's part.",
                    )
                ),
                "card_bonus": INT,
                "cancelled": BOOL,
                "total": INT,
            }
        ),
        "One side's combat total: base + ability bonus + counted cards.",
    ),
)

RACombatTotalsEvent = named(
    "RACombatTotalsEvent",
    doc(
        record(
            {
                "type": one_of(("combat_totals",)),
                "attacker": RACombatTotal,
                "defender": RACombatTotal,
                "winner": doc(ANY, enum=[*SIDES, None], type=["string", "null"]),
            }
        ),
        "Combat step 5: each side's total, explained; `winner` null on a tie (both defeated).",
        examples=[
            {
                "type": "combat_totals",
                "attacker": {
                    "player": "ann",
                    "unit": "empire-archers-1",
                    "base": 4,
                    "abilities": [{"effect": "strength", "value": 4}],
                    "ability_bonus": 4,
                    "cards": [
                        {"card": "plus-3-1", "value": 0, "status": "cancelled"},
                        {"card": "defence-plus-6-1", "value": 0, "status": "cancelled"},
                    ],
                    "card_bonus": 0,
                    "cancelled": True,
                    "total": 8,
                },
                "defender": {
                    "player": "bob",
                    "unit": "elves-enchantress",
                    "base": 4,
                    "abilities": [],
                    "ability_bonus": 0,
                    "cards": [
                        {"card": "plus-2-1", "value": 2, "status": "counted"},
                        {"card": "plus-2-2", "value": 2, "status": "counted"},
                        {"card": "draw-2-1", "value": 0, "status": "no_strength"},
                        {"card": "plus-4-1", "value": 4, "status": "counted"},
                        {"card": "cancel-1", "value": 0, "status": "no_strength"},
                    ],
                    "card_bonus": 8,
                    "cancelled": False,
                    "total": 12,
                },
                "winner": "defender",
            }
        ],
    ),
)

RAUnitDefeatedEvent = named(
    "RAUnitDefeatedEvent",
    doc(
        record(
            {
                "type": one_of(("unit_defeated",)),
                "player": PLAYER_ID,
                "unit": RAUnitId,
                "side": RASide,
                "x": INT,
                "y": INT,
                "liege": BOOL,
            }
        ),
        "Combat step 6: a unit is defeated and goes face up to its owner's unit discard pile.",
        examples=[
            {
                "type": "unit_defeated",
                "player": "ann",
                "unit": "empire-archers-1",
                "side": "attacker",
                "x": 0,
                "y": 0,
                "liege": False,
            }
        ],
    ),
)

RAUnitAdvancedEvent = named(
    "RAUnitAdvancedEvent",
    doc(
        record(
            {
                "type": one_of(("unit_advanced",)),
                "player": PLAYER_ID,
                "unit": RAUnitId,
                "from": RACell,
                "to": RACell,
            }
        ),
        "Combat step 6: the winning attacker moves into the cell.",
        examples=[
            {
                "type": "unit_advanced",
                "player": "bob",
                "unit": "orcs-chieftain",
                "from": {"x": -3, "y": 1},
                "to": {"x": -3, "y": 0},
            }
        ],
    ),
)

RAReinforcementsDiscardedEvent = named(
    "RAReinforcementsDiscardedEvent",
    doc(
        record({"type": one_of(("reinforcements_discarded",)), "cards": list_of(RACardId)}),
        "Combat step 6: every reinforcement of both units goes to the discard.",
        examples=[
            {
                "type": "reinforcements_discarded",
                "cards": [
                    "plus-3-1",
                    "defence-plus-6-1",
                    "plus-2-1",
                    "plus-2-2",
                    "draw-2-1",
                    "plus-4-1",
                    "cancel-1",
                ],
            }
        ],
    ),
)

RAPlayerEradicatedEvent = named(
    "RAPlayerEradicatedEvent",
    doc(
        record(
            {
                "type": one_of(("player_eradicated",)),
                "player": PLAYER_ID,
                "by": doc(ANY, type=["string", "null"]),
                "units": list_of(RAUnitId),
                "cards": list_of(RACardId),
            }
        ),
        "A Liege fell: the player's units leave the battlefield, their cards are discarded; "
        "`by` is owed the bonus unit (null: nobody).",
        examples=[
            {
                "type": "player_eradicated",
                "player": "cat",
                "by": "bob",
                "units": [
                    "empire-knight-2",
                    "empire-pikemen-1",
                    "empire-pikemen-2",
                    "empire-soldier-1",
                    "empire-soldier-2",
                ],
                "cards": ["plus-3-2", "plus-2-4", "plus-1-2", "draw-2-3", "attack-plus-3-1"],
            }
        ],
    ),
)

RABonusUnitPlacedEvent = named(
    "RABonusUnitPlacedEvent",
    doc(
        record(
            {
                "type": one_of(("bonus_unit_placed",)),
                "player": PLAYER_ID,
                "unit": RAUnitId,
                "x": INT,
                "y": INT,
            }
        ),
        "The eradication bonus: a unit from the discard pile back on the battlefield.",
        examples=[
            {"type": "bonus_unit_placed", "player": "bob", "unit": "orcs-goblin-1", "x": 0, "y": 3}
        ],
    ),
)

RABonusSkippedEvent = named(
    "RABonusSkippedEvent",
    doc(
        record(
            {
                "type": one_of(("bonus_skipped",)),
                "player": PLAYER_ID,
                "reason": one_of(BONUS_SKIP_REASONS),
            }
        ),
        "The bonus is owed but impossible.",
        examples=[{"type": "bonus_skipped", "player": "bob", "reason": "no_unit_in_discard"}],
    ),
)

RADoomCalledEvent = named(
    "RADoomCalledEvent",
    doc(
        record(
            {
                "type": one_of(("doom_called",)),
                "player": PLAYER_ID,
                "order": list_of(PLAYER_ID),
            }
        ),
        "Doom: `order` is who discards, in order, ending with the caller.",
        examples=[{"type": "doom_called", "player": "ann", "order": ["bob", "ann"]}],
    ),
)

RADoomDiscardEvent = named(
    "RADoomDiscardEvent",
    doc(
        record(
            {
                "type": one_of(("doom_discard",)),
                "player": PLAYER_ID,
                "unit": RAUnitId,
                "x": INT,
                "y": INT,
                "cards": list_of(RACardId),
                "liege": BOOL,
            }
        ),
        "Doom: a player discarded a unit (public: it goes face up to the discard pile).",
        examples=[
            {
                "type": "doom_discard",
                "player": "bob",
                "unit": "orcs-goblin-2",
                "x": 3,
                "y": 2,
                "cards": ["attack-plus-4-1"],
                "liege": False,
            }
        ],
    ),
)

RADoomEndedEvent = named(
    "RADoomEndedEvent",
    doc(
        record({"type": one_of(("doom_ended",)), "caller": PLAYER_ID}),
        "Every Doom discard is done; the caller's turn ends without reinforcement.",
        examples=[{"type": "doom_ended", "caller": "ann"}],
    ),
)

RAReinforcementDrawnEvent = named(
    "RAReinforcementDrawnEvent",
    doc(
        record(
            {
                "type": one_of(("reinforcement_drawn",)),
                "player": PLAYER_ID,
                "kind": one_of(CARD_KINDS),
            },
            {"card": RACardId},
        ),
        "The reinforcement phase draw (`card` hidden from others for a combat card).",
        examples=[
            {"type": "reinforcement_drawn", "player": "ann", "kind": "combat", "card": "plus-1-1"}
        ],
    ),
)

RAReinforcementPlacedEvent = named(
    "RAReinforcementPlacedEvent",
    doc(
        record(
            {
                "type": one_of(("reinforcement_placed",)),
                "player": PLAYER_ID,
                "x": INT,
                "y": INT,
                "count": INT,
            },
            {"unit": RAUnitId, "card": RACardId},
        ),
        "A combat card went under a unit (`unit` and `card` only for its owner; `count`: "
        "cards now under it).",
        examples=[
            {
                "type": "reinforcement_placed",
                "player": "bob",
                "unit": "orcs-goblin-1",
                "card": "plus-3-4",
                "x": 2,
                "y": 0,
                "count": 1,
            }
        ],
    ),
)

RATurnCardPlayedEvent = named(
    "RATurnCardPlayedEvent",
    doc(
        record(
            {
                "type": one_of(("turn_card_played",)),
                "player": PLAYER_ID,
                "card": RACardId,
                "effect": one_of(TURN_EFFECTS),
            }
        ),
        "A turn card was resolved.",
        examples=[
            {
                "type": "turn_card_played",
                "player": "cat",
                "card": "another-turn-1",
                "effect": "another_turn",
            }
        ],
    ),
)

RATurnCardDiscardedEvent = named(
    "RATurnCardDiscardedEvent",
    doc(
        record(
            {
                "type": one_of(("turn_card_discarded",)),
                "player": PLAYER_ID,
                "card": RACardId,
            }
        ),
        "A turn card was discarded without effect.",
        examples=[{"type": "turn_card_discarded", "player": "cat", "card": "supply-drop-1"}],
    ),
)

RADeckReshuffledEvent = named(
    "RADeckReshuffledEvent",
    doc(
        record({"type": one_of(("deck_reshuffled",)), "cards": INT}),
        "The empty deck was refilled by shuffling the discard (`cards`: how many).",
        examples=[{"type": "deck_reshuffled", "cards": 26}],
    ),
)

RADeckEmptyEvent = named(
    "RADeckEmptyEvent",
    doc(
        record({"type": one_of(("deck_empty",)), "player": PLAYER_ID}),
        "Deck and discard are both empty: nothing was drawn.",
        examples=[{"type": "deck_empty", "player": "ann"}],
    ),
)

RAGameOverEvent = named(
    "RAGameOverEvent",
    doc(
        record(
            {
                "type": one_of(("game_over",)),
                "winners": list_of(PLAYER_ID),
                "draw": BOOL,
                "reason": one_of(END_REASONS),
            }
        ),
        "The game is over.",
        examples=[{"type": "game_over", "winners": ["bob"], "draw": False, "reason": "last_liege"}],
    ),
)

RARaceActionTakenEvent = named(
    "RARaceActionTakenEvent",
    doc(
        record(
            {
                "type": one_of(("race_action_taken",)),
                "player": PLAYER_ID,
                "action": STR,
                "effect": one_of(ACTION_EFFECTS),
                "from": RACell,
                "to": RACell,
            },
            {"unit": RAUnitId, "other": RAUnitId},
        ),
        "A race's own action (`unit`, and `other` for a swap, only for its owner).",
    ),
)

RASetupTaskEvent = named(
    "RASetupTaskEvent",
    doc(
        record(
            {
                "type": one_of(("setup_task",)),
                "player": PLAYER_ID,
                "effect": one_of(SETUP_TASKS),
                "count": INT,
            }
        ),
        "A race's post-Setup task begins (its cards follow as reinforcement_placed or "
        "turn_card_discarded events).",
    ),
)

ReignAbsoluteEvent = named(
    "ReignAbsoluteEvent",
    doc(
        tagged(
            "type",
            {
                "race_chosen": RARaceChosenEvent,
                "first_player_draw": RAFirstPlayerDrawEvent,
                "first_player_chosen": RAFirstPlayerChosenEvent,
                "placement_started": RAPlacementStartedEvent,
                "unit_placed": RAUnitPlacedEvent,
                "placement_finished": RAPlacementFinishedEvent,
                "turn_started": RATurnStartedEvent,
                "turn_ended": RATurnEndedEvent,
                "passed": RAPassedEvent,
                "unit_moved": RAUnitMovedEvent,
                "race_action_taken": RARaceActionTakenEvent,
                "setup_task": RASetupTaskEvent,
                "combat_started": RACombatStartedEvent,
                "units_revealed": RAUnitsRevealedEvent,
                "ability_triggered": RAAbilityTriggeredEvent,
                "combat_card_drawn": RACombatCardDrawnEvent,
                "reinforcements_cancelled": RAReinforcementsCancelledEvent,
                "combat_totals": RACombatTotalsEvent,
                "unit_defeated": RAUnitDefeatedEvent,
                "unit_advanced": RAUnitAdvancedEvent,
                "reinforcements_discarded": RAReinforcementsDiscardedEvent,
                "player_eradicated": RAPlayerEradicatedEvent,
                "bonus_unit_placed": RABonusUnitPlacedEvent,
                "bonus_skipped": RABonusSkippedEvent,
                "doom_called": RADoomCalledEvent,
                "doom_discard": RADoomDiscardEvent,
                "doom_ended": RADoomEndedEvent,
                "reinforcement_drawn": RAReinforcementDrawnEvent,
                "reinforcement_placed": RAReinforcementPlacedEvent,
                "turn_card_played": RATurnCardPlayedEvent,
                "turn_card_discarded": RATurnCardDiscardedEvent,
                "deck_reshuffled": RADeckReshuffledEvent,
                "deck_empty": RADeckEmptyEvent,
                "game_over": RAGameOverEvent,
            },
        ),
        "Something that happened in Reign Absolute. Events are in order; a combat is a "
        "sequence (combat_started, units_revealed, ability_triggered, combat_card_drawn, "
        "reinforcements_cancelled, combat_totals, unit_defeated, unit_advanced, "
        "reinforcements_discarded, player_eradicated) a front end can animate step by step. "
        "Fields private to the event's player are absent for others once redacted.",
    ),
)


RAViewUnit = named(
    "RAViewUnit",
    doc(
        record(
            {
                "x": INT,
                "y": INT,
                "owner": PLAYER_ID,
                "reinforcement_count": INT,
            },
            {"unit": RAUnitId, "reinforcements": list_of(RACardId)},
        ),
        "A unit on the battlefield as the viewer sees it: `unit` and `reinforcements` only "
        "for the viewer's own units.",
    ),
)

RAViewTurn = named(
    "RAViewTurn",
    doc(
        record(
            {
                "player": PLAYER_ID,
                "number": INT,
                "stage": STR,
                "extra_turns": INT,
                "marching": BOOL,
                "drawn": nullable(
                    doc(
                        record({"kind": one_of(CARD_KINDS)}, {"card": RACardId}),
                        "The card being dealt with.",
                    )
                ),
            }
        ),
        "The turn as the viewer sees it: `drawn.card` only for a turn card or the drawer.",
    ),
)

ReignAbsoluteView = named(
    "ReignAbsoluteView",
    doc(
        record(
            {
                "game": one_of(("reign-absolute",)),
                "schema_version": doc(INT, const=SCHEMA_VERSION),
                "viewer": doc(ANY, type=["string", "null"]),
                "players": list_of(PLAYER_ID),
                "status": STATUS,
                "phase": PHASE,
                "active_players": list_of(PLAYER_ID),
                "to_move": TO_MOVE,
                "move_count": INT,
                "outcome": nullable(OUTCOME),
                "turn_limit": INT,
                "races": map_of(RARaceInfo),
                "units": map_of(RAUnitInfo),
                "cards": map_of(RACardInfo),
                "race_of": doc(map_of(doc(ANY, type=["string", "null"])), "Player id -> value."),
                "first_player": doc(ANY, type=["string", "null"]),
                "first_player_draws": list_of(doc(map_of(RACardId), "Player id -> value.")),
                "unit_deck_counts": doc(map_of(INT), "Player id -> value."),
                "battlefield": doc(list_of(RAViewUnit), "Sorted by y, then x."),
                "unit_discards": doc(map_of(list_of(RAUnitId)), "Player id -> value."),
                "deck_count": INT,
                "discard": list_of(RACardId),
                "eradicated": list_of(PLAYER_ID),
                "placer": doc(ANY, type=["string", "null"]),
                "turn": nullable(RAViewTurn),
                "doom": nullable(RADoom),
                "bonus_owed": list_of(PLAYER_ID),
            },
            {
                "next_unit": doc(
                    ANY, "Viewer only: the unit they are about to place.", type=["string", "null"]
                )
            },
        ),
        "A Reign Absolute state as one player (or a spectator, `viewer: null`) may see it: "
        "enemy units are owner, cell and reinforcement count only; never the deck order, "
        "`seed` or `rng`.",
        examples=[
            {
                "game": "reign-absolute",
                "schema_version": SCHEMA_VERSION,
                "viewer": "ann",
                "players": ["ann", "bob", "cat"],
                "status": "in_progress",
                "phase": "play",
                "active_players": ["cat"],
                "to_move": ["cat"],
                "move_count": 55,
                "outcome": None,
                "turn_limit": 200,
                "races": {
                    "empire": {
                        "name": "Empire",
                        "units": [
                            "empire-king",
                            "empire-archers-1",
                            "empire-archers-2",
                            "empire-knight-1",
                            "empire-knight-2",
                            "empire-pikemen-1",
                            "empire-pikemen-2",
                            "empire-soldier-1",
                            "empire-soldier-2",
                            "empire-soldier-3",
                        ],
                        "actions": [],
                        "setup": [],
                    },
                    "raiders": {
                        "name": "Raiders",
                        "units": [
                            "raiders-warlord",
                            "raiders-berserker-1",
                            "raiders-berserker-2",
                            "raiders-raider-1",
                            "raiders-raider-2",
                            "raiders-raider-3",
                            "raiders-scout-1",
                            "raiders-scout-2",
                            "raiders-shaman",
                        ],
                        "actions": [],
                        "setup": [],
                    },
                    "elves": {
                        "name": "Elves",
                        "units": [
                            "elves-queen",
                            "elves-enchantress",
                            "elves-ranger-1",
                            "elves-ranger-2",
                            "elves-sentinel-1",
                            "elves-sentinel-2",
                            "elves-warden-1",
                            "elves-warden-2",
                            "elves-druid-1",
                            "elves-druid-2",
                        ],
                        "actions": [],
                        "setup": [],
                    },
                    "orcs": {
                        "name": "Orcs",
                        "units": [
                            "orcs-chieftain",
                            "orcs-troll",
                            "orcs-brute-1",
                            "orcs-brute-2",
                            "orcs-grunt-1",
                            "orcs-grunt-2",
                            "orcs-grunt-3",
                            "orcs-wolf-rider-1",
                            "orcs-wolf-rider-2",
                            "orcs-goblin-1",
                            "orcs-goblin-2",
                        ],
                        "actions": [],
                        "setup": [],
                    },
                },
                "units": {
                    "empire-king": {
                        "race": "empire",
                        "name": "King",
                        "strength": 5,
                        "liege": True,
                        "abilities": [
                            {
                                "effect": "strength_per_adjacent_friend",
                                "amount": 2,
                                "when": "defending",
                            }
                        ],
                    },
                    "empire-archers-1": {
                        "race": "empire",
                        "name": "Archers",
                        "strength": 4,
                        "liege": False,
                        "abilities": [{"effect": "strength", "amount": 4, "when": "attacking"}],
                    },
                    "empire-archers-2": {
                        "race": "empire",
                        "name": "Archers",
                        "strength": 4,
                        "liege": False,
                        "abilities": [{"effect": "strength", "amount": 4, "when": "attacking"}],
                    },
                    "empire-knight-1": {
                        "race": "empire",
                        "name": "Knight",
                        "strength": 6,
                        "liege": False,
                        "abilities": [],
                    },
                    "empire-knight-2": {
                        "race": "empire",
                        "name": "Knight",
                        "strength": 6,
                        "liege": False,
                        "abilities": [],
                    },
                    "empire-pikemen-1": {
                        "race": "empire",
                        "name": "Pikemen",
                        "strength": 3,
                        "liege": False,
                        "abilities": [{"effect": "strength", "amount": 3, "when": "defending"}],
                    },
                    "empire-pikemen-2": {
                        "race": "empire",
                        "name": "Pikemen",
                        "strength": 3,
                        "liege": False,
                        "abilities": [{"effect": "strength", "amount": 3, "when": "defending"}],
                    },
                    "empire-soldier-1": {
                        "race": "empire",
                        "name": "Soldier",
                        "strength": 4,
                        "liege": False,
                        "abilities": [],
                    },
                    "empire-soldier-2": {
                        "race": "empire",
                        "name": "Soldier",
                        "strength": 4,
                        "liege": False,
                        "abilities": [],
                    },
                    "empire-soldier-3": {
                        "race": "empire",
                        "name": "Soldier",
                        "strength": 4,
                        "liege": False,
                        "abilities": [],
                    },
                    "raiders-warlord": {
                        "race": "raiders",
                        "name": "Warlord",
                        "strength": 12,
                        "liege": True,
                        "abilities": [],
                    },
                    "raiders-berserker-1": {
                        "race": "raiders",
                        "name": "Berserker",
                        "strength": 5,
                        "liege": False,
                        "abilities": [{"effect": "strength", "amount": 3, "when": "attacking"}],
                    },
                    "raiders-berserker-2": {
                        "race": "raiders",
                        "name": "Berserker",
                        "strength": 5,
                        "liege": False,
                        "abilities": [{"effect": "strength", "amount": 3, "when": "attacking"}],
                    },
                    "raiders-raider-1": {
                        "race": "raiders",
                        "name": "Raider",
                        "strength": 4,
                        "liege": False,
                        "abilities": [],
                    },
                    "raiders-raider-2": {
                        "race": "raiders",
                        "name": "Raider",
                        "strength": 4,
                        "liege": False,
                        "abilities": [],
                    },
                    "raiders-raider-3": {
                        "race": "raiders",
                        "name": "Raider",
                        "strength": 4,
                        "liege": False,
                        "abilities": [],
                    },
                    "raiders-scout-1": {
                        "race": "raiders",
                        "name": "Scout",
                        "strength": 2,
                        "liege": False,
                        "abilities": [],
                    },
                    "raiders-scout-2": {
                        "race": "raiders",
                        "name": "Scout",
                        "strength": 2,
                        "liege": False,
                        "abilities": [],
                    },
                    "raiders-shaman": {
                        "race": "raiders",
                        "name": "Shaman",
                        "strength": 3,
                        "liege": False,
                        "abilities": [{"effect": "draw", "count": 1, "when": "always"}],
                    },
                    "elves-queen": {
                        "race": "elves",
                        "name": "Queen",
                        "strength": 6,
                        "liege": True,
                        "abilities": [{"effect": "draw", "count": 1, "when": "defending"}],
                    },
                    "elves-enchantress": {
                        "race": "elves",
                        "name": "Enchantress",
                        "strength": 4,
                        "liege": False,
                        "abilities": [{"effect": "draw", "count": 2, "when": "always"}],
                    },
                    "elves-ranger-1": {
                        "race": "elves",
                        "name": "Ranger",
                        "strength": 4,
                        "liege": False,
                        "abilities": [{"effect": "strength", "amount": 3, "when": "attacking"}],
                    },
                    "elves-ranger-2": {
                        "race": "elves",
                        "name": "Ranger",
                        "strength": 4,
                        "liege": False,
                        "abilities": [{"effect": "strength", "amount": 3, "when": "attacking"}],
                    },
                    "elves-sentinel-1": {
                        "race": "elves",
                        "name": "Sentinel",
                        "strength": 5,
                        "liege": False,
                        "abilities": [{"effect": "strength", "amount": 2, "when": "defending"}],
                    },
                    "elves-sentinel-2": {
                        "race": "elves",
                        "name": "Sentinel",
                        "strength": 5,
                        "liege": False,
                        "abilities": [{"effect": "strength", "amount": 2, "when": "defending"}],
                    },
                    "elves-warden-1": {
                        "race": "elves",
                        "name": "Warden",
                        "strength": 5,
                        "liege": False,
                        "abilities": [],
                    },
                    "elves-warden-2": {
                        "race": "elves",
                        "name": "Warden",
                        "strength": 5,
                        "liege": False,
                        "abilities": [],
                    },
                    "elves-druid-1": {
                        "race": "elves",
                        "name": "Druid",
                        "strength": 3,
                        "liege": False,
                        "abilities": [{"effect": "draw", "count": 1, "when": "always"}],
                    },
                    "elves-druid-2": {
                        "race": "elves",
                        "name": "Druid",
                        "strength": 3,
                        "liege": False,
                        "abilities": [{"effect": "draw", "count": 1, "when": "always"}],
                    },
                    "orcs-chieftain": {
                        "race": "orcs",
                        "name": "Chieftain",
                        "strength": 8,
                        "liege": True,
                        "abilities": [{"effect": "strength", "amount": 2, "when": "always"}],
                    },
                    "orcs-troll": {
                        "race": "orcs",
                        "name": "Troll",
                        "strength": 8,
                        "liege": False,
                        "abilities": [],
                    },
                    "orcs-brute-1": {
                        "race": "orcs",
                        "name": "Brute",
                        "strength": 7,
                        "liege": False,
                        "abilities": [],
                    },
                    "orcs-brute-2": {
                        "race": "orcs",
                        "name": "Brute",
                        "strength": 7,
                        "liege": False,
                        "abilities": [],
                    },
                    "orcs-grunt-1": {
                        "race": "orcs",
                        "name": "Grunt",
                        "strength": 4,
                        "liege": False,
                        "abilities": [],
                    },
                    "orcs-grunt-2": {
                        "race": "orcs",
                        "name": "Grunt",
                        "strength": 4,
                        "liege": False,
                        "abilities": [],
                    },
                    "orcs-grunt-3": {
                        "race": "orcs",
                        "name": "Grunt",
                        "strength": 4,
                        "liege": False,
                        "abilities": [],
                    },
                    "orcs-wolf-rider-1": {
                        "race": "orcs",
                        "name": "Wolf Rider",
                        "strength": 5,
                        "liege": False,
                        "abilities": [{"effect": "strength", "amount": 2, "when": "attacking"}],
                    },
                    "orcs-wolf-rider-2": {
                        "race": "orcs",
                        "name": "Wolf Rider",
                        "strength": 5,
                        "liege": False,
                        "abilities": [{"effect": "strength", "amount": 2, "when": "attacking"}],
                    },
                    "orcs-goblin-1": {
                        "race": "orcs",
                        "name": "Goblin",
                        "strength": 1,
                        "liege": False,
                        "abilities": [],
                    },
                    "orcs-goblin-2": {
                        "race": "orcs",
                        "name": "Goblin",
                        "strength": 1,
                        "liege": False,
                        "abilities": [],
                    },
                },
                "cards": {
                    "plus-1-1": {
                        "name": "+1",
                        "kind": "combat",
                        "number": 1,
                        "effect": {"effect": "strength", "amount": 1, "when": "always"},
                    },
                    "plus-1-2": {
                        "name": "+1",
                        "kind": "combat",
                        "number": 8,
                        "effect": {"effect": "strength", "amount": 1, "when": "always"},
                    },
                    "plus-1-3": {
                        "name": "+1",
                        "kind": "combat",
                        "number": 3,
                        "effect": {"effect": "strength", "amount": 1, "when": "always"},
                    },
                    "plus-1-4": {
                        "name": "+1",
                        "kind": "combat",
                        "number": 10,
                        "effect": {"effect": "strength", "amount": 1, "when": "always"},
                    },
                    "plus-2-1": {
                        "name": "+2",
                        "kind": "combat",
                        "number": 5,
                        "effect": {"effect": "strength", "amount": 2, "when": "always"},
                    },
                    "plus-2-2": {
                        "name": "+2",
                        "kind": "combat",
                        "number": 12,
                        "effect": {"effect": "strength", "amount": 2, "when": "always"},
                    },
                    "plus-2-3": {
                        "name": "+2",
                        "kind": "combat",
                        "number": 7,
                        "effect": {"effect": "strength", "amount": 2, "when": "always"},
                    },
                    "plus-2-4": {
                        "name": "+2",
                        "kind": "combat",
                        "number": 2,
                        "effect": {"effect": "strength", "amount": 2, "when": "always"},
                    },
                    "plus-2-5": {
                        "name": "+2",
                        "kind": "combat",
                        "number": 9,
                        "effect": {"effect": "strength", "amount": 2, "when": "always"},
                    },
                    "plus-3-1": {
                        "name": "+3",
                        "kind": "combat",
                        "number": 4,
                        "effect": {"effect": "strength", "amount": 3, "when": "always"},
                    },
                    "plus-3-2": {
                        "name": "+3",
                        "kind": "combat",
                        "number": 11,
                        "effect": {"effect": "strength", "amount": 3, "when": "always"},
                    },
                    "plus-3-3": {
                        "name": "+3",
                        "kind": "combat",
                        "number": 6,
                        "effect": {"effect": "strength", "amount": 3, "when": "always"},
                    },
                    "plus-3-4": {
                        "name": "+3",
                        "kind": "combat",
                        "number": 1,
                        "effect": {"effect": "strength", "amount": 3, "when": "always"},
                    },
                    "plus-4-1": {
                        "name": "+4",
                        "kind": "combat",
                        "number": 8,
                        "effect": {"effect": "strength", "amount": 4, "when": "always"},
                    },
                    "plus-4-2": {
                        "name": "+4",
                        "kind": "combat",
                        "number": 3,
                        "effect": {"effect": "strength", "amount": 4, "when": "always"},
                    },
                    "plus-4-3": {
                        "name": "+4",
                        "kind": "combat",
                        "number": 10,
                        "effect": {"effect": "strength", "amount": 4, "when": "always"},
                    },
                    "plus-6-1": {
                        "name": "+6",
                        "kind": "combat",
                        "number": 5,
                        "effect": {"effect": "strength", "amount": 6, "when": "always"},
                    },
                    "attack-plus-3-1": {
                        "name": "+3 when attacking",
                        "kind": "combat",
                        "number": 12,
                        "effect": {"effect": "strength", "amount": 3, "when": "attacking"},
                    },
                    "attack-plus-4-1": {
                        "name": "+4 when attacking",
                        "kind": "combat",
                        "number": 7,
                        "effect": {"effect": "strength", "amount": 4, "when": "attacking"},
                    },
                    "attack-plus-4-2": {
                        "name": "+4 when attacking",
                        "kind": "combat",
                        "number": 2,
                        "effect": {"effect": "strength", "amount": 4, "when": "attacking"},
                    },
                    "defence-plus-3-1": {
                        "name": "+3 when defending",
                        "kind": "combat",
                        "number": 9,
                        "effect": {"effect": "strength", "amount": 3, "when": "defending"},
                    },
                    "defence-plus-3-2": {
                        "name": "+3 when defending",
                        "kind": "combat",
                        "number": 4,
                        "effect": {"effect": "strength", "amount": 3, "when": "defending"},
                    },
                    "defence-plus-6-1": {
                        "name": "+6 when defending",
                        "kind": "combat",
                        "number": 11,
                        "effect": {"effect": "strength", "amount": 6, "when": "defending"},
                    },
                    "defence-plus-6-2": {
                        "name": "+6 when defending",
                        "kind": "combat",
                        "number": 6,
                        "effect": {"effect": "strength", "amount": 6, "when": "defending"},
                    },
                    "cancel-1": {
                        "name": "Cancel",
                        "kind": "combat",
                        "number": 1,
                        "effect": {"effect": "cancel"},
                    },
                    "cancel-2": {
                        "name": "Cancel",
                        "kind": "combat",
                        "number": 8,
                        "effect": {"effect": "cancel"},
                    },
                    "cancel-3": {
                        "name": "Cancel",
                        "kind": "combat",
                        "number": 3,
                        "effect": {"effect": "cancel"},
                    },
                    "draw-2-1": {
                        "name": "Draw 2",
                        "kind": "combat",
                        "number": 10,
                        "effect": {"effect": "draw", "count": 2},
                    },
                    "draw-2-2": {
                        "name": "Draw 2",
                        "kind": "combat",
                        "number": 5,
                        "effect": {"effect": "draw", "count": 2},
                    },
                    "draw-2-3": {
                        "name": "Draw 2",
                        "kind": "combat",
                        "number": 12,
                        "effect": {"effect": "draw", "count": 2},
                    },
                    "another-turn-1": {
                        "name": "Another Turn",
                        "kind": "turn",
                        "number": 7,
                        "effect": {"effect": "another_turn"},
                    },
                    "another-turn-2": {
                        "name": "Another Turn",
                        "kind": "turn",
                        "number": 2,
                        "effect": {"effect": "another_turn"},
                    },
                    "another-turn-3": {
                        "name": "Another Turn",
                        "kind": "turn",
                        "number": 9,
                        "effect": {"effect": "another_turn"},
                    },
                    "forced-march-1": {
                        "name": "Forced March",
                        "kind": "turn",
                        "number": 4,
                        "effect": {"effect": "forced_march"},
                    },
                    "forced-march-2": {
                        "name": "Forced March",
                        "kind": "turn",
                        "number": 11,
                        "effect": {"effect": "forced_march"},
                    },
                    "forced-march-3": {
                        "name": "Forced March",
                        "kind": "turn",
                        "number": 6,
                        "effect": {"effect": "forced_march"},
                    },
                    "supply-drop-1": {
                        "name": "Supply Drop",
                        "kind": "turn",
                        "number": 1,
                        "effect": {"effect": "supply_drop"},
                    },
                    "supply-drop-2": {
                        "name": "Supply Drop",
                        "kind": "turn",
                        "number": 8,
                        "effect": {"effect": "supply_drop"},
                    },
                },
                "race_of": {"ann": "raiders", "bob": "orcs", "cat": "empire"},
                "first_player": "bob",
                "first_player_draws": [
                    {"ann": "plus-1-4", "bob": "plus-2-2", "cat": "defence-plus-3-1"}
                ],
                "unit_deck_counts": {"ann": 0, "bob": 0, "cat": 0},
                "battlefield": [
                    {"x": -1, "y": -3, "owner": "cat", "reinforcement_count": 0},
                    {
                        "x": 0,
                        "y": -3,
                        "owner": "ann",
                        "reinforcement_count": 0,
                        "unit": "raiders-berserker-1",
                        "reinforcements": [],
                    },
                    {
                        "x": 1,
                        "y": -3,
                        "owner": "ann",
                        "reinforcement_count": 0,
                        "unit": "raiders-warlord",
                        "reinforcements": [],
                    },
                    {"x": -4, "y": -2, "owner": "cat", "reinforcement_count": 1},
                    {"x": -3, "y": -2, "owner": "cat", "reinforcement_count": 0},
                    {"x": -1, "y": -2, "owner": "cat", "reinforcement_count": 0},
                    {
                        "x": 0,
                        "y": -2,
                        "owner": "ann",
                        "reinforcement_count": 0,
                        "unit": "raiders-shaman",
                        "reinforcements": [],
                    },
                    {
                        "x": 3,
                        "y": -2,
                        "owner": "ann",
                        "reinforcement_count": 1,
                        "unit": "raiders-scout-1",
                        "reinforcements": ["plus-1-3"],
                    },
                    {"x": -5, "y": -1, "owner": "cat", "reinforcement_count": 1},
                    {"x": -3, "y": -1, "owner": "cat", "reinforcement_count": 0},
                    {"x": -2, "y": -1, "owner": "cat", "reinforcement_count": 0},
                    {"x": -1, "y": -1, "owner": "cat", "reinforcement_count": 0},
                    {
                        "x": 0,
                        "y": -1,
                        "owner": "ann",
                        "reinforcement_count": 1,
                        "unit": "raiders-scout-2",
                        "reinforcements": ["plus-1-1"],
                    },
                    {
                        "x": 1,
                        "y": -1,
                        "owner": "ann",
                        "reinforcement_count": 1,
                        "unit": "raiders-raider-2",
                        "reinforcements": ["draw-2-2"],
                    },
                    {
                        "x": 3,
                        "y": -1,
                        "owner": "ann",
                        "reinforcement_count": 0,
                        "unit": "raiders-berserker-2",
                        "reinforcements": [],
                    },
                    {"x": -3, "y": 0, "owner": "bob", "reinforcement_count": 0},
                    {"x": 2, "y": 0, "owner": "bob", "reinforcement_count": 0},
                    {
                        "x": 4,
                        "y": 0,
                        "owner": "ann",
                        "reinforcement_count": 0,
                        "unit": "raiders-raider-1",
                        "reinforcements": [],
                    },
                    {"x": -2, "y": 1, "owner": "bob", "reinforcement_count": 0},
                    {"x": -1, "y": 1, "owner": "bob", "reinforcement_count": 1},
                    {"x": 0, "y": 1, "owner": "bob", "reinforcement_count": 0},
                    {"x": -1, "y": 2, "owner": "bob", "reinforcement_count": 0},
                    {"x": 0, "y": 2, "owner": "bob", "reinforcement_count": 0},
                    {"x": 1, "y": 2, "owner": "bob", "reinforcement_count": 0},
                    {"x": 2, "y": 2, "owner": "bob", "reinforcement_count": 1},
                ],
                "unit_discards": {
                    "ann": ["raiders-raider-3"],
                    "bob": ["orcs-goblin-1", "orcs-grunt-3"],
                    "cat": ["empire-knight-1", "empire-soldier-3"],
                },
                "deck_count": 24,
                "discard": [
                    "plus-1-4",
                    "plus-2-2",
                    "defence-plus-3-1",
                    "plus-3-4",
                    "defence-plus-3-2",
                    "another-turn-1",
                    "plus-4-3",
                ],
                "eradicated": [],
                "placer": None,
                "turn": {
                    "player": "cat",
                    "number": 12,
                    "stage": "action",
                    "extra_turns": 0,
                    "marching": False,
                    "drawn": None,
                },
                "doom": None,
                "bonus_owed": [],
                "next_unit": None,
            }
        ],
    ),
)

ReignAbsoluteScoreBreakdown = named(
    "ReignAbsoluteScoreBreakdown",
    doc(
        record(
            {
                "players": doc(
                    map_of(
                        doc(
                            record(
                                {
                                    "eradicated": BOOL,
                                    "units_in_play": INT,
                                    "strength_in_play": INT,
                                    "units_in_discard": INT,
                                }
                            ),
                            "A player's standing.",
                        )
                    ),
                    "Player id -> value.",
                ),
                "ranking": list_of(PLAYER_ID),
                "decided_by": doc(ANY, enum=[*END_REASONS, None], type=["string", "null"]),
            }
        ),
        "Scores are units in play. `decided_by`: how the game ended (null while it goes on); "
        "mid-game the winners are the leaders by the turn-limit tie-break (units in play, "
        "then strength in play).",
        examples=[
            {
                "players": {
                    "ann": {
                        "eradicated": False,
                        "units_in_play": 8,
                        "strength_in_play": 37,
                        "units_in_discard": 1,
                    },
                    "bob": {
                        "eradicated": False,
                        "units_in_play": 9,
                        "strength_in_play": 49,
                        "units_in_discard": 2,
                    },
                    "cat": {
                        "eradicated": False,
                        "units_in_play": 8,
                        "strength_in_play": 33,
                        "units_in_discard": 2,
                    },
                },
                "ranking": ["bob", "ann", "cat"],
                "decided_by": None,
            }
        ],
    ),
)

RAUnitSpec = named(
    "RAUnitSpec",
    doc(
        record(
            {
                "id": RAUnitId,
                "name": STR,
                "strength": integer(0, 99),
                "liege": BOOL,
            },
            {"abilities": doc(list_of(RAEffect), maxItems=4)},
        ),
        "A unit card in custom content (`options.races`).",
    ),
)

RARaceSpec = named(
    "RARaceSpec",
    doc(
        record(
            {
                "id": STR,
                "name": STR,
                "units": doc(list_of(RAUnitSpec), minItems=1, maxItems=30),
            },
            RA_RACE_RULES,
        ),
        "A race in custom content: exactly one unit has `liege: true`; `actions` and `setup` "
        "optional.",
    ),
)

RACardSpec = named(
    "RACardSpec",
    doc(
        record(
            {
                "id": RACardId,
                "name": STR,
                "kind": one_of(CARD_KINDS),
                "number": integer(0, 99),
                "effect": RAEffect,
            }
        ),
        "A reinforcement card in custom content.",
    ),
)

ReignAbsoluteContent = named(
    "ReignAbsoluteContent",
    doc(
        record({"races": list_of(RARaceSpec), "reinforcements": list_of(RACardSpec)}),
        "The default content: five races and the reinforcement deck.",
    ),
)

EVENT = ReignAbsoluteEvent
VIEW = ReignAbsoluteView
SCORE_BREAKDOWN = ReignAbsoluteScoreBreakdown
CONTENT = ReignAbsoluteContent
