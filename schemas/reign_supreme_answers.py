"""What the service answers in Reign Supreme games: its events, the per-player view, the score
breakdown and the default content, declared once (never read by the service: ``openapi.yaml`` and
the tests are built from them)."""

from __future__ import annotations

from typing import Any

from rules.reign_supreme.cards import DECKS, FIZZLE_REASONS, TARGETS
from rules.reign_supreme.combat import ATTACK_MODES, CANCEL_REASONS
from rules.reign_supreme.content import ARMY_IDS, SPELLS
from rules.reign_supreme.responses import PENDING_KINDS
from rules.reign_supreme.scoring import TIE_BREAKS
from rules.reign_supreme.state import PACKING_ENDS, SCHEMA_VERSION, fresh_turn_flags
from rules.reign_supreme.turns import DEFEAT_REASONS, END_REASONS, PLAYING_PHASES
from rules.reign_supreme.walls import WALL_KINDS
from schemas.common import OUTCOME, PLAYER_ID, SCORES, STATUS, TO_MOVE, spectator_example
from schemas.fields import (
    ANY,
    BOOL,
    INT,
    OBJECT,
    STR,
    doc,
    either,
    integer,
    list_of,
    map_of,
    named,
    nullable,
    one_of,
    record,
    tagged,
)
from schemas.reign_supreme import (
    HEX,
    PHASE,
    RSActionBoard,
    RSKingdom,
    RSRoster,
    RSScenarioInPlay,
    RSUnit,
    RSUnitId,
    RSUnitStats,
    RSUnitType,
    RSWall,
)

__all__ = ["EVENT", "VIEW", "SCORE_BREAKDOWN", "CONTENT"]

RSUnitPlacedEvent = named(
    "RSUnitPlacedEvent",
    doc(
        record(
            {
                "type": one_of(("unit_placed",)),
                "player": PLAYER_ID,
                "unit": RSUnitId,
                "at": HEX,
            }
        ),
        "A unit was set up.",
        examples=[{"type": "unit_placed", "player": "bob", "unit": "u9", "at": [-6, 1]}],
    ),
)

RSSetupFinishedEvent = named(
    "RSSetupFinishedEvent",
    doc(
        record({"type": one_of(("setup_finished",))}),
        "Every player has set up.",
        examples=[{"type": "setup_finished"}],
    ),
)

RSTurnStartedEvent = named(
    "RSTurnStartedEvent",
    doc(
        record(
            {
                "type": one_of(("turn_started",)),
                "player": PLAYER_ID,
                "round": INT,
            }
        ),
        "A turn begins.",
        examples=[{"type": "turn_started", "player": "bob", "round": 1}],
    ),
)

RSCooldownEvent = named(
    "RSCooldownEvent",
    doc(
        record(
            {
                "type": one_of(("cooldown",)),
                "player": PLAYER_ID,
                "mines": integer(0, None),
                "ruins": integer(0, None),
                "in_enemy_kingdom": BOOL,
                "spell_pin": nullable(INT),
                "tactics_pin": nullable(INT),
                "reinforcement_pin": nullable(INT),
                "deploys_gained": integer(0, None),
            }
        ),
        "One player's pins moved in a Cooldown phase.",
        examples=[
            {
                "type": "cooldown",
                "player": "ann",
                "mines": 0,
                "ruins": 0,
                "in_enemy_kingdom": False,
                "spell_pin": None,
                "tactics_pin": None,
                "reinforcement_pin": None,
                "deploys_gained": 0,
            }
        ],
    ),
)

RSSpellReadyEvent = named(
    "RSSpellReadyEvent",
    doc(
        record(
            {
                "type": one_of(("spell_ready",)),
                "player": PLAYER_ID,
                "unit": RSUnitId,
                "spell": STR,
            }
        ),
        "A spell's cooldown ended.",
        examples=[{"type": "spell_ready", "player": "bob", "unit": "u12", "spell": "blast"}],
    ),
)

RSEffectEndedEvent = named(
    "RSEffectEndedEvent",
    doc(
        record(
            {
                "type": one_of(("effect_ended",)),
                "player": PLAYER_ID,
                "unit": nullable(RSUnitId),
                "effect": STR,
            }
        ),
        "An effect's duration ended.",
        examples=[{"type": "effect_ended", "player": "bob", "unit": "u3", "effect": "weaken"}],
    ),
)

RSPackingDoneEvent = named(
    "RSPackingDoneEvent",
    doc(
        record(
            {
                "type": one_of(("packing_done",)),
                "player": PLAYER_ID,
                "unit": RSUnitId,
                "now": one_of(PACKING_ENDS),
            }
        ),
        "A Packing pin completed.",
        examples=[{"type": "packing_done", "player": "ann", "unit": "u9", "now": "packed"}],
    ),
)

RSCardDrawnEvent = named(
    "RSCardDrawnEvent",
    doc(
        record(
            {
                "type": one_of(("card_drawn",)),
                "player": PLAYER_ID,
                "deck": one_of(DECKS),
            },
            {"card": STR},
        ),
        "A card was drawn (the card is private to the player).",
        examples=[{"type": "card_drawn", "player": "ann", "deck": "spell", "card": "weakness-2"}],
    ),
)

RSDeckEmptyEvent = named(
    "RSDeckEmptyEvent",
    doc(
        record(
            {
                "type": one_of(("deck_empty",)),
                "player": PLAYER_ID,
                "deck": one_of(DECKS),
            }
        ),
        "A draw found the deck and its discard pile empty.",
    ),
)

RSPhaseStartedEvent = named(
    "RSPhaseStartedEvent",
    doc(
        record(
            {
                "type": one_of(("phase_started",)),
                "player": PLAYER_ID,
                "phase": one_of(PLAYING_PHASES),
            }
        ),
        "The Deployment or Combat phase began.",
        examples=[{"type": "phase_started", "player": "bob", "phase": "combat"}],
    ),
)

RSUnitDeployedEvent = named(
    "RSUnitDeployedEvent",
    doc(
        record(
            {
                "type": one_of(("unit_deployed",)),
                "player": PLAYER_ID,
                "unit": RSUnitId,
                "at": HEX,
                "deploys_left": integer(0, None),
            }
        ),
        "A unit was deployed.",
        examples=[
            {
                "type": "unit_deployed",
                "player": "ann",
                "unit": "u8",
                "at": [7, -1],
                "deploys_left": 1,
            }
        ],
    ),
)

RSUnitMovedEvent = named(
    "RSUnitMovedEvent",
    doc(
        record(
            {
                "type": one_of(("unit_moved",)),
                "player": PLAYER_ID,
                "unit": RSUnitId,
                "from": HEX,
                "to": HEX,
                "path": list_of(HEX),
            }
        ),
        "A unit moved along `path` (start and end included).",
        examples=[
            {
                "type": "unit_moved",
                "player": "bob",
                "unit": "u9",
                "from": [-6, 1],
                "to": [-2, -1],
                "path": [[-6, 1], [-5, 1], [-4, 0], [-3, 0], [-2, -1]],
            }
        ],
    ),
)

RSMineTakenEvent = named(
    "RSMineTakenEvent",
    doc(
        record(
            {
                "type": one_of(("mine_taken",)),
                "player": PLAYER_ID,
                "at": HEX,
                "from": nullable(PLAYER_ID),
            }
        ),
        "A player took control of a Mine.",
        examples=[{"type": "mine_taken", "player": "bob", "at": [-2, 1], "from": None}],
    ),
)

RSRuinTakenEvent = named(
    "RSRuinTakenEvent",
    doc(
        record(
            {
                "type": one_of(("ruin_taken",)),
                "player": PLAYER_ID,
                "at": HEX,
                "from": nullable(PLAYER_ID),
            }
        ),
        "A player took control of a Ruin.",
        examples=[{"type": "ruin_taken", "player": "ann", "at": [-1, -1], "from": None}],
    ),
)

RSThroneCapturedEvent = named(
    "RSThroneCapturedEvent",
    doc(
        record(
            {
                "type": one_of(("throne_captured",)),
                "player": PLAYER_ID,
                "loser": PLAYER_ID,
                "at": HEX,
            }
        ),
        "A unit moved onto an enemy Throne.",
    ),
)

RSPlayerDefeatedEvent = named(
    "RSPlayerDefeatedEvent",
    doc(
        record(
            {
                "type": one_of(("player_defeated",)),
                "player": PLAYER_ID,
                "reason": one_of(DEFEAT_REASONS),
                "units_removed": list_of(RSUnitId),
            },
            {
                "by": PLAYER_ID,
                "cards_passed": integer(0, None),
                "units_handed_over": list_of(RSUnitId),
            },
        ),
        "A player is out of the game.",
        examples=[
            {
                "type": "player_defeated",
                "player": "bob",
                "reason": "concede",
                "units_removed": ["u7", "u8", "u9", "u10", "u12"],
            }
        ],
    ),
)

# What raised (offence) or lowered (defence) an attack, one entry per source.
RSModifiers = list_of(
    record(
        {
            "source": doc(
                STR,
                "throne, command, charging, flanking, knockback, armour, castle, supply or a "
                "card effect",
            ),
            "value": INT,
        }
    )
)

RSAttackedEvent = named(
    "RSAttackedEvent",
    doc(
        record(
            {
                "type": one_of(("attacked",)),
                "player": PLAYER_ID,
                "unit": RSUnitId,
                "target": RSUnitId,
                "owner": PLAYER_ID,
                "mode": one_of(ATTACK_MODES),
                "attack": integer(0, None),
                "offence": RSModifiers,
                "defence": RSModifiers,
                "damage": integer(0, None),
                "pins": integer(0, None),
                "hp": integer(1, None),
            }
        ),
        "An attack and the damage it dealt.",
        examples=[
            {
                "type": "attacked",
                "player": "ann",
                "unit": "u5",
                "target": "u10",
                "owner": "bob",
                "mode": "melee",
                "attack": 3,
                "offence": [{"source": "command", "value": 1}],
                "defence": [],
                "damage": 4,
                "pins": 4,
                "hp": 7,
            }
        ],
    ),
)

RSUnitDestroyedEvent = named(
    "RSUnitDestroyedEvent",
    doc(
        record(
            {
                "type": one_of(("unit_destroyed",)),
                "player": PLAYER_ID,
                "unit": RSUnitId,
                "owner": PLAYER_ID,
                "unit_type": RSUnitType,
                "at": HEX,
                "by": doc(
                    STR,
                    "What dealt the blow: melee, shoot, a spell, counterattack, volley, "
                    "flaming_oil, reach_through or a card.",
                ),
            }
        ),
        "A unit's pins reached its hit points.",
        examples=[
            {
                "type": "unit_destroyed",
                "player": "bob",
                "unit": "u11",
                "owner": "bob",
                "unit_type": "archer",
                "at": [-5, 0],
                "by": "blast",
            }
        ],
    ),
)

RSAttackDeclaredEvent = named(
    "RSAttackDeclaredEvent",
    doc(
        record(
            {
                "type": one_of(("attack_declared",)),
                "player": PLAYER_ID,
                "unit": RSUnitId,
                "target": doc(STR, "A unit id or a wall id.", pattern="^[uw][1-9][0-9]*$"),
                "mode": one_of(ATTACK_MODES),
            },
            {
                "knockback": BOOL,
                "volley": BOOL,
                "on_the_move": BOOL,
            },
        ),
        "An attack was declared (answers may come before it lands).",
        examples=[
            {
                "type": "attack_declared",
                "player": "ann",
                "unit": "u5",
                "target": "u10",
                "mode": "melee",
                "knockback": True,
            }
        ],
    ),
)

RSAttackCancelledEvent = named(
    "RSAttackCancelledEvent",
    doc(
        record(
            {
                "type": one_of(("attack_cancelled",)),
                "player": PLAYER_ID,
                "unit": RSUnitId,
                "target": doc(STR, "A unit id or a wall id.", pattern="^[uw][1-9][0-9]*$"),
                "reason": one_of(CANCEL_REASONS),
            }
        ),
        "A declared attack did nothing.",
    ),
)

RSCounterattackedEvent = named(
    "RSCounterattackedEvent",
    doc(
        record(
            {
                "type": one_of(("counterattacked",)),
                "player": PLAYER_ID,
                "unit": RSUnitId,
                "target": RSUnitId,
                "owner": PLAYER_ID,
                "attack": integer(0, None),
                "offence": RSModifiers,
                "defence": RSModifiers,
                "damage": integer(0, None),
                "pins": integer(0, None),
                "hp": integer(1, None),
            }
        ),
        "A unit attacked back before the attack on it landed.",
    ),
)

RSSplashedEvent = named(
    "RSSplashedEvent",
    doc(
        record(
            {
                "type": one_of(("splashed",)),
                "player": PLAYER_ID,
                "unit": RSUnitId,
                "owner": PLAYER_ID,
                "source": STR,
                "damage": integer(0, None),
            }
        ),
        "A unit next to a target was hit too.",
        examples=[
            {
                "type": "splashed",
                "player": "ann",
                "unit": "u11",
                "owner": "bob",
                "source": "lightning",
                "damage": 1,
            }
        ],
    ),
)

RSKnockedBackEvent = named(
    "RSKnockedBackEvent",
    doc(
        record(
            {
                "type": one_of(("knocked_back",)),
                "player": PLAYER_ID,
                "unit": RSUnitId,
                "from": HEX,
                "to": HEX,
            }
        ),
        "Knockback pushed the target.",
        examples=[
            {"type": "knocked_back", "player": "ann", "unit": "u10", "from": [1, -1], "to": [1, -2]}
        ],
    ),
)

RSKnockbackBlockedEvent = named(
    "RSKnockbackBlockedEvent",
    doc(
        record(
            {
                "type": one_of(("knockback_blocked",)),
                "player": PLAYER_ID,
                "unit": RSUnitId,
            }
        ),
        "Knockback found no room.",
    ),
)

RSEnsnaredEvent = named(
    "RSEnsnaredEvent",
    doc(
        record(
            {
                "type": one_of(("ensnared",)),
                "player": PLAYER_ID,
                "unit": RSUnitId,
                "owner": PLAYER_ID,
            }
        ),
        "The target cannot move during its owner's next turn.",
        examples=[{"type": "ensnared", "player": "ann", "unit": "u15", "owner": "bob"}],
    ),
)

RSEnsnareEndedEvent = named(
    "RSEnsnareEndedEvent",
    doc(
        record(
            {
                "type": one_of(("ensnare_ended",)),
                "player": PLAYER_ID,
                "unit": RSUnitId,
            }
        ),
        "An Ensnare ended with its turn.",
        examples=[{"type": "ensnare_ended", "player": "bob", "unit": "u15"}],
    ),
)

RSWallAttackedEvent = named(
    "RSWallAttackedEvent",
    doc(
        record(
            {
                "type": one_of(("wall_attacked",)),
                "player": PLAYER_ID,
                "unit": RSUnitId,
                "wall": STR,
                "kind": one_of(WALL_KINDS),
                "mode": STR,
                "damage": integer(0, None),
                "hp": integer(0, None),
            }
        ),
        "An attack on a Gate, Castle wall or Palisade.",
    ),
)

RSWallDestroyedEvent = named(
    "RSWallDestroyedEvent",
    doc(
        record(
            {
                "type": one_of(("wall_destroyed",)),
                "player": PLAYER_ID,
                "wall": STR,
                "kind": one_of(WALL_KINDS),
                "owner": PLAYER_ID,
                "edge": list_of(HEX),
            }
        ),
        "A wall fell.",
    ),
)

RSReachedThroughEvent = named(
    "RSReachedThroughEvent",
    doc(
        record(
            {
                "type": one_of(("reached_through",)),
                "player": PLAYER_ID,
                "unit": RSUnitId,
                "owner": PLAYER_ID,
                "rest": integer(0, None),
                "defence": RSModifiers,
                "damage": integer(0, None),
            }
        ),
        "Damage beyond a destroyed Palisade hit the enemy behind it.",
    ),
)

RSSpellCastEvent = named(
    "RSSpellCastEvent",
    doc(
        record(
            {
                "type": one_of(("spell_cast",)),
                "player": PLAYER_ID,
                "unit": RSUnitId,
                "spell": one_of(SPELLS),
                "target": nullable(either(STR, HEX)),
            },
            {"cure": BOOL},
        ),
        "A field spell was cast (its pin is on the Action Board).",
        examples=[
            {
                "type": "spell_cast",
                "player": "bob",
                "unit": "u12",
                "spell": "blast",
                "target": [-5, 0],
            }
        ],
    ),
)

RSSpellFizzledEvent = named(
    "RSSpellFizzledEvent",
    doc(
        record(
            {
                "type": one_of(("spell_fizzled",)),
                "player": PLAYER_ID,
                "unit": RSUnitId,
                "spell": STR,
                "reason": STR,
            }
        ),
        "A spell found nothing to act on.",
    ),
)

RSSpellCounteredEvent = named(
    "RSSpellCounteredEvent",
    doc(
        record(
            {
                "type": one_of(("spell_countered",)),
                "player": PLAYER_ID,
                "unit": RSUnitId,
                "countered": OBJECT,
            }
        ),
        "A Counterspell stopped a declaration.",
        examples=[
            {
                "type": "spell_countered",
                "player": "bob",
                "unit": "u20",
                "countered": {"kind": "card", "player": "ann", "card": "weakness-1"},
            }
        ],
    ),
)

RSTeleportedEvent = named(
    "RSTeleportedEvent",
    doc(
        record(
            {
                "type": one_of(("teleported",)),
                "player": PLAYER_ID,
                "unit": RSUnitId,
                "from": HEX,
                "to": HEX,
            }
        ),
        "A unit teleported.",
        examples=[
            {"type": "teleported", "player": "ann", "unit": "u6", "from": [6, -1], "to": [3, -1]}
        ],
    ),
)

RSHealedEvent = named(
    "RSHealedEvent",
    doc(
        record(
            {
                "type": one_of(("healed",)),
                "player": PLAYER_ID,
                "unit": RSUnitId,
                "owner": PLAYER_ID,
                "pins_removed": integer(0, None),
                "pins": integer(0, None),
            }
        ),
        "Healing removed pins.",
        examples=[
            {
                "type": "healed",
                "player": "ann",
                "unit": "u1",
                "owner": "ann",
                "pins_removed": 1,
                "pins": 0,
            }
        ],
    ),
)

RSCuredEvent = named(
    "RSCuredEvent",
    doc(
        record(
            {
                "type": one_of(("cured",)),
                "player": PLAYER_ID,
                "unit": RSUnitId,
                "owner": PLAYER_ID,
            }
        ),
        "Healing removed a unit's afflictions.",
    ),
)

RSSpellHitEvent = named(
    "RSSpellHitEvent",
    doc(
        record(
            {
                "type": one_of(("spell_hit",)),
                "player": PLAYER_ID,
                "unit": RSUnitId,
                "spell": STR,
                "target": RSUnitId,
                "owner": PLAYER_ID,
                "at": HEX,
                "attack": integer(0, None),
                "offence": RSModifiers,
                "defence": RSModifiers,
                "damage": integer(0, None),
            }
        ),
        "A combat spell hit a unit in its area.",
        examples=[
            {
                "type": "spell_hit",
                "player": "bob",
                "unit": "u12",
                "spell": "blast",
                "target": "u11",
                "owner": "bob",
                "at": [-5, 0],
                "attack": 5,
                "offence": [],
                "defence": [],
                "damage": 5,
            }
        ],
    ),
)

RSSpellHitNothingEvent = named(
    "RSSpellHitNothingEvent",
    doc(
        record(
            {
                "type": one_of(("spell_hit_nothing",)),
                "player": PLAYER_ID,
                "unit": RSUnitId,
                "spell": STR,
            }
        ),
        "A combat spell's area held no unit.",
        examples=[{"type": "spell_hit_nothing", "player": "bob", "unit": "u18", "spell": "blast"}],
    ),
)

RSPassedEvent = named(
    "RSPassedEvent",
    doc(record({"type": one_of(("passed",)), "player": PLAYER_ID}), "A player gave no answer."),
)

RSCardPlayedEvent = named(
    "RSCardPlayedEvent",
    doc(
        record(
            {
                "type": one_of(("card_played",)),
                "player": PLAYER_ID,
                "card": STR,
                "name": STR,
                "target": nullable(either(STR, HEX)),
            }
        ),
        "A card was played (it is now public and in its discard pile).",
        examples=[
            {
                "type": "card_played",
                "player": "bob",
                "card": "forced_march-2",
                "name": "Forced March",
                "target": "u12",
            }
        ],
    ),
)

RSCardFizzledEvent = named(
    "RSCardFizzledEvent",
    doc(
        record(
            {
                "type": one_of(("card_fizzled",)),
                "player": PLAYER_ID,
                "card": STR,
                "reason": one_of(FIZZLE_REASONS),
            }
        ),
        "A played card found nothing to act on.",
    ),
)

RSCardHitEvent = named(
    "RSCardHitEvent",
    doc(
        record(
            {
                "type": one_of(("card_hit",)),
                "player": PLAYER_ID,
                "card": STR,
                "unit": RSUnitId,
                "owner": PLAYER_ID,
                "damage": integer(0, None),
                "pins": integer(0, None),
                "hp": integer(1, None),
            }
        ),
        "A card put pins on a unit.",
        examples=[
            {
                "type": "card_hit",
                "player": "ann",
                "card": "lightning-2",
                "unit": "u12",
                "owner": "bob",
                "damage": 3,
                "pins": 3,
                "hp": 8,
            }
        ],
    ),
)

RSCardHealedEvent = named(
    "RSCardHealedEvent",
    doc(
        record(
            {
                "type": one_of(("card_healed",)),
                "player": PLAYER_ID,
                "card": STR,
                "unit": RSUnitId,
                "owner": PLAYER_ID,
                "pins_removed": integer(0, None),
                "pins": integer(0, None),
            }
        ),
        "A card removed pins.",
        examples=[
            {
                "type": "card_healed",
                "player": "bob",
                "card": "mend-1",
                "unit": "u12",
                "owner": "bob",
                "pins_removed": 3,
                "pins": 0,
            }
        ],
    ),
)

RSCardRepairedEvent = named(
    "RSCardRepairedEvent",
    doc(
        record(
            {
                "type": one_of(("card_repaired",)),
                "player": PLAYER_ID,
                "card": STR,
                "unit": RSUnitId,
                "owner": PLAYER_ID,
                "pins_removed": integer(0, None),
                "pins": integer(0, None),
            }
        ),
        "A card repaired a Siege or Mechanical unit.",
        examples=[
            {
                "type": "card_repaired",
                "player": "bob",
                "card": "field_repairs-2",
                "unit": "u19",
                "owner": "bob",
                "pins_removed": 2,
                "pins": 0,
            }
        ],
    ),
)

RSEffectAddedEvent = named(
    "RSEffectAddedEvent",
    doc(
        record(
            {
                "type": one_of(("effect_added",)),
                "player": PLAYER_ID,
                "card": STR,
                "unit": RSUnitId,
                "owner": PLAYER_ID,
                "effect": STR,
                "value": INT,
                "left": integer(0, None),
            }
        ),
        "A card put an effect with a duration on a unit.",
        examples=[
            {
                "type": "effect_added",
                "player": "bob",
                "card": "weakness-1",
                "unit": "u3",
                "owner": "ann",
                "effect": "weaken",
                "value": 2,
                "left": 2,
            }
        ],
    ),
)

RSUnitMayMoveAgainEvent = named(
    "RSUnitMayMoveAgainEvent",
    doc(
        record(
            {
                "type": one_of(("unit_may_move_again",)),
                "player": PLAYER_ID,
                "card": STR,
                "unit": RSUnitId,
            }
        ),
        "Forced March: the unit's movement is fresh.",
        examples=[
            {
                "type": "unit_may_move_again",
                "player": "bob",
                "card": "forced_march-2",
                "unit": "u12",
            }
        ],
    ),
)

RSWallSabotagedEvent = named(
    "RSWallSabotagedEvent",
    doc(
        record(
            {
                "type": one_of(("wall_sabotaged",)),
                "player": PLAYER_ID,
                "card": STR,
                "wall": STR,
                "kind": one_of(WALL_KINDS),
                "damage": integer(0, None),
                "hp": integer(0, None),
            }
        ),
        "A card damaged a wall.",
        examples=[
            {
                "type": "wall_sabotaged",
                "player": "ann",
                "card": "sabotage-1",
                "wall": "w2",
                "kind": "gate",
                "damage": 2,
                "hp": 18,
            }
        ],
    ),
)

RSConstructedEvent = named(
    "RSConstructedEvent",
    doc(
        record(
            {
                "type": one_of(("constructed",)),
                "player": PLAYER_ID,
                "unit": RSUnitId,
                "action": STR,
                "target": either(STR, HEX),
            },
            {
                "hp": integer(0, None),
                "gained": integer(0, None),
                "pins_removed": integer(0, None),
                "pins": integer(0, None),
                "wall": STR,
                "edge": list_of(HEX),
                "bonus": integer(0, None),
                "notch": integer(0, None),
            },
        ),
        "A Construction action.",
        examples=[
            {
                "type": "constructed",
                "player": "ann",
                "unit": "u1",
                "action": "build",
                "target": [9, 0],
                "wall": "w3",
                "edge": [[9, -1], [9, 0]],
                "hp": 4,
            }
        ],
    ),
)

RSReinforcementPinMovedEvent = named(
    "RSReinforcementPinMovedEvent",
    doc(
        record(
            {
                "type": one_of(("reinforcement_pin_moved",)),
                "player": PLAYER_ID,
                "reinforcement_pin": INT,
                "deploys_gained": integer(0, None),
            }
        ),
        "A kill moved the Reinforcement pin.",
        examples=[
            {
                "type": "reinforcement_pin_moved",
                "player": "ann",
                "reinforcement_pin": 5,
                "deploys_gained": 0,
            }
        ],
    ),
)

RSPackingStartedEvent = named(
    "RSPackingStartedEvent",
    doc(
        record(
            {
                "type": one_of(("packing_started",)),
                "player": PLAYER_ID,
                "unit": RSUnitId,
                "to": one_of(PACKING_ENDS),
                "notch": integer(0, None),
            }
        ),
        "A Packing pin went onto the Action Board.",
        examples=[
            {"type": "packing_started", "player": "ann", "unit": "u9", "to": "unpacked", "notch": 0}
        ],
    ),
)

RSTurnEndedEvent = named(
    "RSTurnEndedEvent",
    doc(
        record({"type": one_of(("turn_ended",)), "player": PLAYER_ID}),
        "A turn ended.",
        examples=[{"type": "turn_ended", "player": "bob"}],
    ),
)

RSGameOverEvent = named(
    "RSGameOverEvent",
    doc(
        record(
            {
                "type": one_of(("game_over",)),
                "winners": list_of(PLAYER_ID),
                "draw": BOOL,
                "scores": SCORES,
                "reason": one_of(END_REASONS),
            }
        ),
        "The game ended.",
        examples=[
            {
                "type": "game_over",
                "winners": ["ann"],
                "draw": False,
                "scores": {"ann": 41, "bob": 24},
                "reason": "round_limit",
            }
        ],
    ),
)

ReignSupremeEvent = named(
    "ReignSupremeEvent",
    doc(
        tagged(
            "type",
            {
                "unit_placed": RSUnitPlacedEvent,
                "setup_finished": RSSetupFinishedEvent,
                "turn_started": RSTurnStartedEvent,
                "cooldown": RSCooldownEvent,
                "spell_ready": RSSpellReadyEvent,
                "effect_ended": RSEffectEndedEvent,
                "packing_done": RSPackingDoneEvent,
                "card_drawn": RSCardDrawnEvent,
                "deck_empty": RSDeckEmptyEvent,
                "phase_started": RSPhaseStartedEvent,
                "unit_deployed": RSUnitDeployedEvent,
                "unit_moved": RSUnitMovedEvent,
                "mine_taken": RSMineTakenEvent,
                "ruin_taken": RSRuinTakenEvent,
                "throne_captured": RSThroneCapturedEvent,
                "player_defeated": RSPlayerDefeatedEvent,
                "attacked": RSAttackedEvent,
                "unit_destroyed": RSUnitDestroyedEvent,
                "attack_declared": RSAttackDeclaredEvent,
                "attack_cancelled": RSAttackCancelledEvent,
                "counterattacked": RSCounterattackedEvent,
                "splashed": RSSplashedEvent,
                "knocked_back": RSKnockedBackEvent,
                "knockback_blocked": RSKnockbackBlockedEvent,
                "ensnared": RSEnsnaredEvent,
                "ensnare_ended": RSEnsnareEndedEvent,
                "wall_attacked": RSWallAttackedEvent,
                "wall_destroyed": RSWallDestroyedEvent,
                "reached_through": RSReachedThroughEvent,
                "spell_cast": RSSpellCastEvent,
                "spell_fizzled": RSSpellFizzledEvent,
                "spell_countered": RSSpellCounteredEvent,
                "teleported": RSTeleportedEvent,
                "healed": RSHealedEvent,
                "cured": RSCuredEvent,
                "spell_hit": RSSpellHitEvent,
                "spell_hit_nothing": RSSpellHitNothingEvent,
                "passed": RSPassedEvent,
                "card_played": RSCardPlayedEvent,
                "card_fizzled": RSCardFizzledEvent,
                "card_hit": RSCardHitEvent,
                "card_healed": RSCardHealedEvent,
                "card_repaired": RSCardRepairedEvent,
                "effect_added": RSEffectAddedEvent,
                "unit_may_move_again": RSUnitMayMoveAgainEvent,
                "wall_sabotaged": RSWallSabotagedEvent,
                "constructed": RSConstructedEvent,
                "reinforcement_pin_moved": RSReinforcementPinMovedEvent,
                "packing_started": RSPackingStartedEvent,
                "turn_ended": RSTurnEndedEvent,
                "game_over": RSGameOverEvent,
            },
        ),
        "Something that happened in a Reign Supreme game.",
    ),
)

RSPendingEntry = named(
    "RSPendingEntry",
    doc(
        record(
            {
                "kind": one_of(PENDING_KINDS),
                "player": PLAYER_ID,
                "move": doc(OBJECT, "The declaring move."),
                "asked": doc(list_of(PLAYER_ID), "Players who have answered or passed."),
            },
            {
                "unit": RSUnitId,
                "at": nullable(HEX),
                "spell": BOOL,
                "target_unit": nullable(RSUnitId),
                "evaded": doc(either(BOOL, RSUnitId), "The target teleported away."),
            },
        ),
        "A declared attack, spell or card waiting for answers.",
    ),
)

RSCard = named(
    "RSCard",
    doc(
        record(
            {
                "id": doc(STR, pattern="^[a-z][a-z0-9_]{0,31}$"),
                "deck": one_of(DECKS),
                "name": STR,
                "text": STR,
                "copies": integer(1, 4),
                "target": one_of(TARGETS),
                "range": nullable(integer(0, 100)),
                "effect": doc(
                    OBJECT,
                    "An effect primitive {kind, amount, splash?, turns?} (rules doc §Cards).",
                    required=["kind"],
                ),
            }
        ),
        "A card: its deck, what it targets, its range from your units and its effect.",
    ),
)


def _unit(owner: str, army: str, kind: str, at: list[int], **done: Any) -> dict[str, Any]:
    """A unit of the example as the state holds it: nothing done this turn
    (``fresh_turn_flags``), unpinned, not ensnared or countered, but for what ``done`` says."""
    return {
        "owner": owner,
        "army": army,
        "type": kind,
        "at": at,
        "pins": 0,
        **fresh_turn_flags(),
        "ensnared": False,
        "countered": False,
        **done,
    }


_SEAT_VIEW_EXAMPLE: dict[str, Any] = {
    "game": "reign-supreme",
    "schema_version": SCHEMA_VERSION,
    "viewer": "ann",
    "players": ["ann", "bob"],
    "status": "in_progress",
    "active_players": ["bob"],
    "to_move": ["bob"],
    "move_count": 27,
    "outcome": None,
    "scenario": {
        "id": "skirmish",
        "castles": False,
        "cards": False,
        "deployment": False,
        "initial_units": None,
        "victory": "last_standing",
        "round_limit": 6,
        "midfield": [
            [-3, 0],
            [-3, 1],
            [-3, 2],
            [-3, 3],
            [-2, -1],
            [-2, 0],
            [-2, 1],
            [-2, 2],
            [-2, 3],
            [-1, -2],
            [-1, -1],
            [-1, 0],
            [-1, 1],
            [-1, 2],
            [-1, 3],
            [0, -3],
            [0, -2],
            [0, -1],
            [0, 0],
            [0, 1],
            [0, 2],
            [0, 3],
            [1, -3],
            [1, -2],
            [1, -1],
            [1, 0],
            [1, 1],
            [1, 2],
            [2, -3],
            [2, -2],
            [2, -1],
            [2, 0],
            [2, 1],
            [3, -3],
            [3, -2],
            [3, -1],
            [3, 0],
        ],
        "mines": [[2, -1], [-2, 1]],
        "ruins": [[-1, -1], [1, 1]],
    },
    "kingdoms": {
        "ann": {
            "id": "k1",
            "hexes": [[4, 0], [4, 1], [5, -1], [5, 0], [5, 1], [6, -1], [6, 0]],
            "castle": None,
            "throne": None,
            "gate": None,
        },
        "bob": {
            "id": "k4",
            "hexes": [[-6, 0], [-6, 1], [-5, -1], [-5, 0], [-5, 1], [-4, -1], [-4, 0]],
            "castle": None,
            "throne": None,
            "gate": None,
        },
    },
    "armies": {"ann": "resistance", "bob": "greenskin"},
    "rosters": {},
    "units": {
        "u1": _unit("ann", "resistance", "infantry", [5, 0]),
        "u2": _unit(
            "ann",
            "resistance",
            "knight",
            [2, -2],
            moved=True,
            steps=5,
            charge=True,
            acted=True,
            done=True,
        ),
        "u3": _unit(
            "ann",
            "resistance",
            "archer",
            [4, 1],
            moved=True,
            steps=2,
            charge=True,
            acted=True,
            done=True,
        ),
        "u4": _unit(
            "ann",
            "resistance",
            "footman",
            [2, 1],
            moved=True,
            steps=2,
            charge=True,
            acted=True,
            done=True,
        ),
        "u5": _unit(
            "ann",
            "resistance",
            "general",
            [1, 0],
            moved=True,
            steps=4,
            charge=True,
            attacked=True,
            attacks=1,
            mode="melee",
            knocked=True,
            acted=True,
        ),
        "u6": _unit(
            "ann",
            "resistance",
            "wizard",
            [6, -1],
            moved=True,
            steps=4,
            charge=True,
            acted=True,
            done=True,
        ),
        "u7": _unit("bob", "greenskin", "infantry", [-5, 0]),
        "u8": _unit("bob", "greenskin", "footman", [-3, 0]),
        "u9": _unit("bob", "greenskin", "knight", [-2, -1]),
        "u10": _unit("bob", "greenskin", "cavalry", [1, -2], pins=4),
        "u12": _unit("bob", "greenskin", "battlemage", [-5, 1]),
    },
    "first_player": "bob",
    "round": 2,
    "phase": "combat",
    "turn": "bob",
    "pending": None,
    "walls": [],
    "wall_serial": 0,
    "engaged": [["u10", "u2"]],
    "cards": [],
    "boards": {
        "ann": {
            "spell_pin": None,
            "tactics_pin": None,
            "reinforcement_pin": None,
            "deploys": 0,
            "packing": [],
            "spells": [{"unit": "u6", "spell": "teleport", "left": 4}],
            "effects": [],
        },
        "bob": {
            "spell_pin": None,
            "tactics_pin": None,
            "reinforcement_pin": None,
            "deploys": 0,
            "packing": [],
            "spells": [{"unit": "u12", "spell": "blast", "left": 2}],
            "effects": [],
        },
    },
    "control": {"mines": [None, None], "ruins": [None, None]},
    "kills": {"ann": 0, "bob": 0},
    "defeated": [],
    "zones": {"ann": [], "bob": []},
    "deck_counts": {"spell": 0, "tactics": 0},
    "discards": {"spell": [], "tactics": []},
    "hand_counts": {"ann": 0, "bob": 0},
    "hand": [],
}


ReignSupremeView = named(
    "ReignSupremeView",
    doc(
        record(
            {
                "game": one_of(("reign-supreme",)),
                "schema_version": doc(INT, const=SCHEMA_VERSION),
                "players": doc(list_of(PLAYER_ID), minItems=2, maxItems=4, uniqueItems=True),
                "status": STATUS,
                "active_players": doc(
                    list_of(PLAYER_ID),
                    "The player whose turn (or set-up) it is, or who must answer the pending "
                    "declaration; [] once finished.",
                ),
                "to_move": TO_MOVE,
                "move_count": integer(0, 9007199254740991),
                "outcome": nullable(OUTCOME),
                "scenario": RSScenarioInPlay,
                "kingdoms": map_of(RSKingdom),
                "armies": doc(map_of(STR), "Player to army id."),
                "rosters": doc(
                    map_of(RSRoster), "Custom rosters in play ({} with the default armies)."
                ),
                "units": doc(
                    map_of(RSUnit), "Unit id (u1, u2...) to unit; destroyed units are removed."
                ),
                "first_player": PLAYER_ID,
                "round": integer(1, 200),
                "phase": PHASE,
                "turn": doc(
                    nullable(PLAYER_ID), "Whose turn (or set-up) it is; null once finished."
                ),
                "pending": doc(
                    nullable(record({"stack": doc(list_of(RSPendingEntry), minItems=1)})),
                    "Declarations waiting for answers (Counterattack, Teleport, "
                    "Counterspell); null when nothing waits.",
                ),
                "walls": list_of(RSWall),
                "wall_serial": doc(integer(0, None), "Walls made so far (the last wall id)."),
                "engaged": doc(
                    list_of(doc(list_of(RSUnitId), minItems=2, maxItems=2)),
                    "Pairs of enemy units engaged in melee since the start of the turn (who "
                    "may attack a Stealth unit).",
                ),
                "cards": doc(list_of(RSCard), "The card set in play ([] without cards)."),
                "boards": map_of(RSActionBoard),
                "control": doc(
                    record(
                        {
                            "mines": list_of(nullable(PLAYER_ID)),
                            "ruins": list_of(nullable(PLAYER_ID)),
                        }
                    ),
                    "Who controls each Mine and Ruin (same order as the scenario's lists).",
                ),
                "kills": map_of(integer(0, None)),
                "defeated": doc(
                    list_of(PLAYER_ID), "Players out of the game, in the order they fell."
                ),
                "zones": doc(
                    map_of(list_of(PLAYER_ID)),
                    "Player to the players whose Castles they captured (extra deployment zones).",
                ),
                "viewer": nullable(PLAYER_ID),
                "deck_counts": record({"spell": integer(0, None), "tactics": integer(0, None)}),
                "discards": record({"spell": list_of(STR), "tactics": list_of(STR)}),
                "hand_counts": map_of(integer(0, None)),
            },
            {"hand": list_of(STR)},
        ),
        "A state as `viewer` sees it (null: a spectator). The board is public; hands and deck "
        "order are not: `hand` is the viewer's own (absent for spectators).",
        examples=[_SEAT_VIEW_EXAMPLE, spectator_example(_SEAT_VIEW_EXAMPLE)],
        **{"if": {"properties": {"viewer": {"type": "string"}}, "required": ["viewer"]}},
        then={"required": ["hand"]},
        **{"else": {"not": {"required": ["hand"]}}},
    ),
)

ReignSupremeScoreBreakdown = named(
    "ReignSupremeScoreBreakdown",
    doc(
        record(
            {
                "players": map_of(
                    record(
                        {
                            "strength": integer(0, None),
                            "units_on_board": integer(0, None),
                            "units_waiting": integer(0, None),
                            "kills": integer(0, None),
                            "mines": integer(0, None),
                            "ruins": integer(0, None),
                            "defeated": BOOL,
                        }
                    )
                ),
                "ranking": list_of(PLAYER_ID),
                "tie_break": nullable(one_of(TIE_BREAKS)),
                "round": integer(1, None),
                "round_limit": integer(1, None),
            }
        ),
        "Strength is the hit points left on a player's living units (0 once defeated); at the "
        "round limit the strongest player wins, then the one with most kills, else a shared "
        "draw.",
        examples=[
            {
                "players": {
                    "ann": {
                        "strength": 41,
                        "units_on_board": 6,
                        "units_waiting": 0,
                        "kills": 1,
                        "mines": 0,
                        "ruins": 1,
                        "defeated": False,
                    },
                    "bob": {
                        "strength": 24,
                        "units_on_board": 4,
                        "units_waiting": 0,
                        "kills": 0,
                        "mines": 1,
                        "ruins": 0,
                        "defeated": False,
                    },
                },
                "ranking": ["ann", "bob"],
                "tie_break": None,
                "round": 6,
                "round_limit": 6,
            }
        ],
    ),
)

ReignSupremeContent = named(
    "ReignSupremeContent",
    doc(
        record(
            {
                "armies": map_of(
                    record(
                        {
                            "title": STR,
                            "units": map_of(RSUnitStats),
                            "lists": map_of(list_of(RSUnitType)),
                        }
                    ),
                    key=doc(ANY, enum=list(ARMY_IDS)),
                ),
                "scenarios": map_of(OBJECT),
                "cards": list_of(RSCard),
                "spells": map_of(
                    record(
                        {
                            "range": INT,
                            "cooldown": INT,
                            "kind": STR,
                        },
                        {"damage": INT, "heals": INT},
                    )
                ),
            }
        ),
        "The default content: four armies of the nineteen unit types with their default "
        "lists, the standard and skirmish scenarios, the card set and the field spells.",
    ),
)

EVENT = ReignSupremeEvent
VIEW = ReignSupremeView
SCORE_BREAKDOWN = ReignSupremeScoreBreakdown
CONTENT = ReignSupremeContent
