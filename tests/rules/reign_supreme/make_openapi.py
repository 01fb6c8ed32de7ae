"""Write the Reign Supreme component schemas of ``openapi.yaml`` (the ``RS…`` block).

The schemas are written here as data and their examples are produced by the rules themselves
(a seeded game of ann and bob), so every example is real. The block sits between the BEGIN/END
markers below; ``test_rs_openapi.py`` checks it is up to date.

    cd /work/main && .venv/bin/python tests/rules/reign_supreme/make_openapi.py          # rewrite
    cd /work/main && .venv/bin/python tests/rules/reign_supreme/make_openapi.py --check  # exit 1 if stale
"""
from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any


ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from tests.contract import spec_blocks  # noqa: E402
from tests.contract.spec_blocks import REF, nullable, ref  # noqa: E402
from rules.reign_supreme import GAME  # noqa: E402
from rules.reign_supreme.cards import MAX_DEFINITIONS  # noqa: E402
from rules.reign_supreme.content import (ABILITIES, ARMY_IDS, DAMAGE_TYPES, KINDS, MAX_BOARD, MAX_KINGDOMS,
                                         MAX_LIST, SPELLS,  # noqa: E402
                                         UNIT_TYPES)
from rules.reign_supreme.state import SCHEMA_VERSION  # noqa: E402
from rules.reign_supreme.walls import WALL_KINDS  # noqa: E402

SPEC = ROOT / "openapi.yaml"
BEGIN = "    # BEGIN REIGN SUPREME SCHEMAS (tests/rules/reign_supreme/make_openapi.py)\n"
END = "    # END REIGN SUPREME SCHEMAS\n"
def obj(props: dict[str, Any], required: list[str] | None = None, description: str | None = None,
        examples: list[Any] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "object"}
    if description:
        out["description"] = description
    out["required"] = list(props) if required is None else required
    out["additionalProperties"] = False
    out["properties"] = props
    if examples:
        out["examples"] = examples
    return out


PLAYER = ref("PlayerId")
PLAYERS = {"type": "array", "items": PLAYER}
HEX = ref("RSHex")
HEXES = {"type": "array", "items": HEX}
UNIT_ID = ref("RSUnitId")
INT0 = {"type": "integer", "minimum": 0}
STR_LIST = {"type": "array", "items": {"type": "string"}}


# -- a real game for the examples ---------------------------------------------------------------------
def sample() -> dict[str, Any]:
    """Play a seeded game; keep the first event of each type, a move of each type, a mid-game
    state, its views and the final score."""
    state = GAME.setup(["ann", "bob"], 7, {"scenario": "skirmish", "round_limit": 6})
    chooser = random.Random(3)
    events: dict[str, Any] = {}
    moves: dict[str, Any] = {}
    mid = None
    while state["status"] != "finished":
        legal = GAME.legal_moves(state)
        for m in legal:
            moves.setdefault(m["type"], m)
        if mid is None and state["round"] == 2 and state["phase"] == "combat":
            mid = state
        choice = [m for m in legal if m["type"] != "concede"]
        state, evs = GAME.apply(state, chooser.choice(choice))
        for e in evs:
            events.setdefault(e["type"], e)
    std = GAME.setup(["ann", "bob"], 7, {"setup": "auto"})
    chooser = random.Random(5)
    while std["status"] != "finished":
        legal = GAME.legal_moves(std)
        for m in legal:
            moves.setdefault(m["type"], m)
        std, evs = GAME.apply(std, chooser.choice([m for m in legal if m["type"] != "concede"]))
        for e in evs:
            events.setdefault(e["type"], e)
    lists = {"ann": ["engineer", "warder", "general", "mangonel", "cavalry", "wizard", "priest", "battlemage",
                     "trebuchet", "assault"],
             "bob": ["infantry", "footman", "knight", "archer", "enchanter", "provisioner", "assassin", "shock_trooper",
                     "skirmisher", "warder"]}
    mixed = GAME.setup(["ann", "bob"], 3, {"setup": "auto", "army_lists": lists, "round_limit": 10})
    chooser = random.Random(8)
    while mixed["status"] != "finished":
        legal = GAME.legal_moves(mixed)
        for m in legal:
            moves.setdefault(m["type"], m)
        mixed, evs = GAME.apply(mixed, chooser.choice([m for m in legal if m["type"] != "concede"]))
        for e in evs:
            events.setdefault(e["type"], e)
    conceded, evs = GAME.apply(mid, {"player": mid["turn"], "type": "concede"})
    for e in evs:
        events.setdefault(e["type"], e)
    return {"events": events, "moves": moves, "mid": mid, "final": state,
            "score": GAME.score(state).to_dict(), "view": GAME.view(mid, "ann"),
            "spectator": GAME.view(mid, None)}


def schemas(s: dict[str, Any]) -> dict[str, Any]:
    ev = s["events"]
    mv = s["moves"]
    unit_stats = obj({
        "name": {"type": "string"}, "movement": {"type": "integer", "minimum": 0, "maximum": 99},
        "hp": {"type": "integer", "minimum": 1, "maximum": 99},
        "attack": {"type": "integer", "minimum": 0, "maximum": 99},
        "defence": {"type": "integer", "minimum": 0, "maximum": 99},
        "range": {"type": "integer", "minimum": 1, "maximum": 99},
        "damage": {"type": "string", "enum": list(DAMAGE_TYPES),
                   "description": "The type of damage the unit's attack deals; magic is magical (ruling RS 14)."},
        "kinds": {"type": "array", "uniqueItems": True, "items": {"type": "string", "enum": list(KINDS)}},
        "abilities": {"type": "array", "uniqueItems": True, "items": {"type": "string", "enum": list(ABILITIES)}},
        "spells": {"type": "array", "uniqueItems": True, "items": {"type": "string", "enum": list(SPELLS)}},
    }, description="The statistics of one unit type in one army: movement (spaces), hit points, attack, "
                   "defence (subtracted from damage taken), range (shooting), kind flags, and the abilities "
                   "and spells the seed gives the type (rules doc: Special abilities, Auras, Kinds, Field spells).")
    roster = obj({"title": {"type": "string"},
                  "units": {"type": "object", "description": "Unit type to its statistics.",
                            "propertyNames": {"enum": list(UNIT_TYPES)}, "additionalProperties": ref("RSUnitStats")}},
                 required=["units"], description="A custom army: its title and its unit types (must include the "
                                                  "one Assault).")
    flag = {"type": "boolean"}
    unit = obj({
        "owner": {"description": "Who controls it now (a Throne capture in a game of 3+ hands units over).", **PLAYER},
        "army": {"type": "string", "description": "Its army (its statistics come from this army's roster)."},
        "type": ref("RSUnitType"),
        "at": {"description": "The space it stands on; null while waiting to be set up or deployed.",
               **nullable(HEX)},
        "pins": {"type": "integer", "minimum": 0, "description": "Damage taken; always below the unit's hp."},
        "moved": {"type": "boolean", "description": "Moved this turn (no shooting, no second move)."},
        "steps": {"type": "integer", "minimum": 0, "description": "Spaces moved this turn."},
        "charge": {"type": "boolean", "description": "Began its movement out of melee (Charging may apply)."},
        "bonus": {"type": "integer", "minimum": 0, "description": "Extra movement this turn (Construction)."},
        "attacked": {"type": "boolean", "description": "Attacked this turn."},
        "attacks": {"type": "integer", "minimum": 0, "maximum": 2, "description": "Attacks made this turn "
                                                                                  "(two with Double Attack)."},
        "mode": {"description": "The type of attack made this turn (one type per turn).",
                 **nullable({"type": "string", "enum": ["melee", "shoot", "spell"]})},
        "on_the_move": {"type": "boolean", "description": "Its last attack was a Flanking attack while moving."},
        "knocked": {"type": "boolean", "description": "Used Knockback this turn."},
        "acted": {"type": "boolean", "description": "Did anything this turn (the unit-switching rule)."},
        "done": {"type": "boolean", "description": "Cannot act any more this turn (freshly deployed or handed "
                                                    "over, started packing/unpacking, built, or another unit "
                                                    "acted after it had)."},
        "ensnared": {"type": "boolean", "description": "Cannot move during its owner's next (or current) turn."},
        "countered": {"type": "boolean", "description": "Has counterattacked this turn."},
        "packing": {"type": "string", "enum": ["packed", "unpacked", "packing", "unpacking"],
                    "description": "Packed units only: packed units move, unpacked units attack, units in "
                                   "between do neither."},
    }, required=["owner", "army", "type", "at", "pins", "moved", "steps", "charge", "bonus", "attacked", "attacks",
                 "mode", "on_the_move", "knocked", "acted", "done", "ensnared", "countered"],
        description="A unit in play.")
    wall = obj({"id": {"type": "string", "pattern": "^w[1-9][0-9]*$"},
                "kind": {"type": "string", "enum": list(WALL_KINDS)}, "owner": PLAYER,
                "edge": {**HEXES, "minItems": 2, "maxItems": 2, "description": "The two spaces it stands between."},
                "hp": {"type": "integer", "minimum": 1, "maximum": 20}},
               description="A Gate (20 hit points) or Palisade (at most 6) on the edge between two spaces; other "
                           "players' units cannot cross it.")
    entry = obj({
        "kind": {"type": "string", "enum": ["attack", "spell", "card"]}, "player": PLAYER,
        "move": {"type": "object", "description": "The declaring move."},
        "asked": {**PLAYERS, "description": "Players who have answered or passed."},
        "unit": UNIT_ID, "at": nullable(HEX), "spell": {"type": "boolean"}, "target_unit": nullable(UNIT_ID),
        "evaded": {"description": "The target teleported away.", "oneOf": [{"type": "boolean"}, UNIT_ID]},
    }, required=["kind", "player", "move", "asked"], description="A declared attack, spell or card waiting for "
                                                                 "answers.")
    board = obj({
        "spell_pin": {"description": "Duration Control Spell pin (cards only): 1 to 10, at 0 reset to 10 "
                                     "and draw a Spell card.", **nullable({"type": "integer", "minimum": 1, "maximum": 10})},
        "tactics_pin": {"description": "Duration Control Tactics pin (cards only).",
                        **nullable({"type": "integer", "minimum": 1, "maximum": 10})},
        "reinforcement_pin": {"description": "Reinforcement pin (deployment scenarios): at 0 reset to 10 and "
                                             "2 more deployments.",
                              **nullable({"type": "integer", "minimum": 1, "maximum": 10})},
        "deploys": {"type": "integer", "minimum": 0, "maximum": 99, "description": "Units the player may deploy."},
        "packing": {"type": "array", "description": "Packing pins on the board (5 notches).", "items": obj(
            {"unit": UNIT_ID, "to": {"type": "string", "enum": ["packed", "unpacked"]},
             "notch": {"type": "integer", "minimum": 0, "maximum": 4}})},
        "spells": {"type": "array", "description": "Spell pins on cooldown.", "items": obj(
            {"unit": UNIT_ID, "spell": {"type": "string", "enum": list(SPELLS)},
             "left": {"type": "integer", "minimum": 1, "maximum": 99}})},
        "effects": {"type": "array", "description": "Card effects with a duration (Cooldown phases left).",
                    "items": obj({"effect": {"type": "string"}, "unit": nullable(UNIT_ID),
                                  "left": {"type": "integer", "minimum": 1, "maximum": 99},
                                  "value": {"type": "integer"}})},
    }, description="A player's Action Board.")
    scenario = obj({
        "id": {"type": "string"}, "castles": {"type": "boolean"}, "cards": {"type": "boolean"},
        "deployment": {"type": "boolean"},
        "initial_units": nullable({"type": "integer", "minimum": 1, "maximum": 20}),
        "victory": {"type": "string", "enum": ["last_standing", "throne"]},
        "round_limit": {"type": "integer", "minimum": 1, "maximum": 200},
        "midfield": HEXES, "mines": HEXES, "ruins": HEXES,
    }, description="The scenario in play (the Midfield, Mines and Ruins, rules switches and the round limit).")
    kingdom = obj({"id": {"type": "string"}, "hexes": HEXES, "castle": nullable(HEXES),
                   "throne": nullable(HEX), "gate": nullable(HEXES)},
                  description="A player's Kingdom: its spaces and, with castles, the 7 Castle spaces, the "
                              "Throne and the Gate (a Castle space and the space it faces).")
    piles = obj({"spell": STR_LIST, "tactics": STR_LIST})
    common = {
        "game": {"type": "string", "const": "reign-supreme"},
        "schema_version": {"type": "integer", "const": SCHEMA_VERSION},
        "players": {"type": "array", "minItems": 2, "maxItems": 4, "uniqueItems": True, "items": PLAYER},
        "status": {"type": "string", "enum": ["in_progress", "finished"]},
        "active_players": {**PLAYERS, "description": "The player whose turn (or set-up) it is, or who must answer "
                                                     "the pending declaration; [] once finished."},
        "move_count": {"type": "integer", "minimum": 0, "maximum": 9007199254740991},
        "outcome": nullable(ref("Outcome")),
        "scenario": ref("RSScenarioInPlay"),
        "kingdoms": {"type": "object", "additionalProperties": ref("RSKingdom")},
        "armies": {"type": "object", "description": "Player to army id.", "additionalProperties": {"type": "string"}},
        "rosters": {"type": "object", "description": "Custom rosters in play ({} with the default armies).",
                    "additionalProperties": ref("RSRoster")},
        "units": {"type": "object", "description": "Unit id (u1, u2...) to unit; destroyed units are removed.",
                  "additionalProperties": ref("RSUnit")},
        "first_player": PLAYER,
        "round": {"type": "integer", "minimum": 1, "maximum": 200},
        "phase": {"type": "string", "enum": ["setup", "deployment", "combat", "finished"]},
        "turn": {"description": "Whose turn (or set-up) it is; null once finished.", **nullable(PLAYER)},
        "pending": {"description": "Declarations waiting for answers (Counterattack, Teleport, Counterspell); "
                                   "null when nothing waits.",
                    **nullable(obj({"stack": {"type": "array", "minItems": 1, "items": ref("RSPendingEntry")}}))},
        "walls": {"type": "array", "items": ref("RSWall")},
        "wall_serial": {"type": "integer", "minimum": 0, "description": "Walls made so far (the last wall id)."},
        "engaged": {"type": "array", "description": "Pairs of enemy units engaged in melee since the start of the "
                                                    "turn (who may attack a Stealth unit).",
                    "items": {"type": "array", "minItems": 2, "maxItems": 2, "items": UNIT_ID}},
        "cards": {"type": "array", "description": "The card set in play ([] without cards).",
                  "items": ref("RSCard")},
        "boards": {"type": "object", "additionalProperties": ref("RSActionBoard")},
        "control": obj({"mines": {"type": "array", "items": nullable(PLAYER)},
                        "ruins": {"type": "array", "items": nullable(PLAYER)}},
                       description="Who controls each Mine and Ruin (same order as the scenario's lists)."),
        "kills": {"type": "object", "additionalProperties": INT0},
        "defeated": {**PLAYERS, "description": "Players out of the game, in the order they fell."},
        "zones": {"type": "object", "description": "Player to the players whose Castles they captured (extra "
                                                   "deployment zones).", "additionalProperties": PLAYERS},
    }
    state_props = {**common, "seed": ref("Seed"),
                   "rng": {"type": "string", "pattern": "^[0-9a-f]{16}$"},
                   "decks": piles, "discards": piles,
                   "hands": {"type": "object", "additionalProperties": STR_LIST}}
    state = obj(state_props, description="The whole state of a Reign Supreme game, hidden information "
                "included. Send it back as you received it; a state that fails the integrity check is a 422.",
                examples=[s["mid"]])
    view_props = {**common, "viewer": nullable(PLAYER),
                  "deck_counts": obj({"spell": INT0, "tactics": INT0}),
                  "discards": piles,
                  "hand_counts": {"type": "object", "additionalProperties": INT0},
                  "hand": STR_LIST}
    view_required = [k for k in view_props if k != "hand"]
    view = obj(view_props, required=view_required,
               description="A state as `viewer` sees it (null: a spectator). The board is public; hands and "
                           "deck order are not: `hand` is the viewer's own (absent for spectators).",
               examples=[s["view"], s["spectator"]])
    view["if"] = {"properties": {"viewer": {"type": "string"}}, "required": ["viewer"]}
    view["then"] = {"required": ["hand"]}
    view["else"] = {"not": {"required": ["hand"]}}

    def move(kind: str, description: str, optional: tuple[str, ...] = (), **params: Any) -> dict[str, Any]:
        props = {"player": PLAYER, "type": {"type": "string", "const": kind}, **params}
        required = [k for k in props if k not in optional]
        return obj(props, required=required, description=description, examples=[mv[kind]] if kind in mv else None)

    target_id = {"type": "string", "pattern": "^[uw][1-9][0-9]*$", "description": "A unit id or a wall id."}
    any_target = {"oneOf": [{"type": "null"}, {"type": "string"}, HEX]}

    moves = {
        "place": move("place", "Set-up: put a waiting unit on an empty space of your Kingdom.", unit=UNIT_ID, to=HEX),
        "deploy": move("deploy", "Deployment phase: put a waiting unit on an empty Castle space (not while an "
                       "enemy is in that Kingdom); it cannot act this turn.", unit=UNIT_ID, to=HEX),
        "end_deployment": move("end_deployment", "Stop deploying; the Combat phase starts."),
        "move": move("move", "Combat phase: move a unit up to its movement (passing friends, not enemies; a unit "
                     "next to an enemy steps only away from every enemy, and a unit in melee may not end in "
                     "melee).", unit=UNIT_ID, to=HEX),
        "attack": move("attack", "Combat phase: the unit's attack (two with Double Attack), melee (adjacent; 2 in an "
                       "Enchant aura) or shoot (Shooting units, distance 2 to range, not after moving unless "
                       "Flanking, not while in melee unless Siege), at an enemy unit or wall. Declarations: "
                       "knockback, volley, on_the_move (Flanking, -1 damage, may move on).",
                       ("knockback", "volley", "on_the_move"),
                       unit=UNIT_ID, target=target_id, mode={"type": "string", "enum": ["melee", "shoot"]},
                       knockback=flag, volley=flag, on_the_move=flag),
        "cast": move("cast", "Cast a field spell: Teleport (target: a space), Healing (target: a unit; cure: true "
                     "removes afflictions instead), Blast/Cone/Arc (target: an adjacent space; the unit's attack). "
                     "Answering: Teleport with the attacked unit, or Counterspell (target: the countered "
                     "spell's target space).", ("cure",),
                     unit=UNIT_ID, spell={"type": "string", "enum": list(SPELLS)}, target=any_target, cure=flag),
        "construct": move("construct", "A Construction unit's action instead of attacking: repair (a unit or wall "
                          "id), build (a Palisade towards an adjacent space), hasten (a unit id), speed_packing "
                          "(a unit id).", unit=UNIT_ID,
                          action={"type": "string", "enum": ["repair", "build", "hasten", "speed_packing"]},
                          target={"oneOf": [{"type": "string"}, HEX]}),
        "play": move("play", "Your Combat phase: play a card from your hand (target: a unit id, a space or null, "
                     "as the card says).", card={"type": "string"}, target=any_target),
        "counterattack": move("counterattack", "Answer a melee attack on this unit: it attacks back first.",
                              unit=UNIT_ID),
        "pass": move("pass", "Give no answer to the pending declaration."),
        "pack": move("pack", "A Packed unit starts packing (or reverses unpacking).", unit=UNIT_ID),
        "unpack": move("unpack", "A Packed unit starts unpacking (or reverses packing).", unit=UNIT_ID),
        "end_turn": move("end_turn", "End your turn."),
        "concede": move("concede", "Leave the game (legal whenever you are active)."),
    }
    names = {k: "RS" + "".join(p.capitalize() for p in k.split("_")) + "Move" for k in moves}
    out: dict[str, Any] = {
        "RSHex": {"type": "array", "description": "A space in axial coordinates [q, r].", "minItems": 2,
                  "maxItems": 2, "items": {"type": "integer"}, "examples": [[0, 0], [-5, 1]]},
        "RSUnitId": {"type": "string", "pattern": "^u[1-9][0-9]*$", "examples": ["u7"]},
        "RSUnitType": {"type": "string", "enum": list(UNIT_TYPES)},
        "RSUnitStats": unit_stats,
        "RSRoster": roster,
        "RSUnit": unit,
        "RSActionBoard": board,
        "RSScenarioInPlay": scenario,
        "RSKingdom": kingdom,
        "RSWall": wall,
        "RSPendingEntry": entry,
        "RSCard": card_schema(),
        "ReignSupremeState": state,
        "ReignSupremeView": view,
        "ReignSupremeMove": {"description": "A Reign Supreme move; `type` selects the parameters.",
                             "oneOf": [ref(names[k]) for k in moves],
                             "discriminator": {"propertyName": "type",
                                               "mapping": {k: REF + names[k] for k in moves}}},
    }
    for k, schema in moves.items():
        out[names[k]] = schema

    def event(kind: str, description: str, props: dict[str, Any], required: list[str] | None = None) -> dict:
        full = {"type": {"type": "string", "const": kind}, **props}
        req = ["type", *(list(props) if required is None else required)]
        return obj(full, required=req, description=description, examples=[ev[kind]] if kind in ev else None)

    pins = nullable({"type": "integer"})
    mod = {"type": "array", "items": obj({"source": {"type": "string", "description": "throne, command, charging, "
                                                                          "flanking, knockback, armour, castle, "
                                                                          "supply or a card effect"},
                                          "value": {"type": "integer"}})}
    hit = {"attack": INT0, "offence": mod, "defence": mod, "damage": INT0}
    events = {
        "unit_placed": event("unit_placed", "A unit was set up.", {"player": PLAYER, "unit": UNIT_ID, "at": HEX}),
        "setup_finished": event("setup_finished", "Every player has set up.", {}),
        "turn_started": event("turn_started", "A turn begins.", {"player": PLAYER, "round": {"type": "integer"}}),
        "cooldown": event("cooldown", "One player's pins moved in a Cooldown phase.", {
            "player": PLAYER, "mines": INT0, "ruins": INT0, "in_enemy_kingdom": {"type": "boolean"},
            "spell_pin": pins, "tactics_pin": pins, "reinforcement_pin": pins, "deploys_gained": INT0}),
        "spell_ready": event("spell_ready", "A spell's cooldown ended.", {"player": PLAYER, "unit": UNIT_ID,
                                                                           "spell": {"type": "string"}}),
        "effect_ended": event("effect_ended", "An effect's duration ended.", {"player": PLAYER, "unit": nullable(UNIT_ID),
                                                                              "effect": {"type": "string"}}),
        "packing_done": event("packing_done", "A Packing pin completed.", {
            "player": PLAYER, "unit": UNIT_ID, "now": {"type": "string", "enum": ["packed", "unpacked"]}}),
        "card_drawn": event("card_drawn", "A card was drawn (the card is private to the player).", {
            "player": PLAYER, "deck": {"type": "string", "enum": ["spell", "tactics"]}, "card": {"type": "string"}},
            required=["player", "deck"]),
        "deck_empty": event("deck_empty", "A draw found the deck and its discard pile empty.", {
            "player": PLAYER, "deck": {"type": "string", "enum": ["spell", "tactics"]}}),
        "phase_started": event("phase_started", "The Deployment or Combat phase began.", {
            "player": PLAYER, "phase": {"type": "string", "enum": ["deployment", "combat"]}}),
        "unit_deployed": event("unit_deployed", "A unit was deployed.", {
            "player": PLAYER, "unit": UNIT_ID, "at": HEX, "deploys_left": INT0}),
        "unit_moved": event("unit_moved", "A unit moved along `path` (start and end included).", {
            "player": PLAYER, "unit": UNIT_ID, "from": HEX, "to": HEX, "path": HEXES}),
        "mine_taken": event("mine_taken", "A player took control of a Mine.", {
            "player": PLAYER, "at": HEX, "from": nullable(PLAYER)}),
        "ruin_taken": event("ruin_taken", "A player took control of a Ruin.", {
            "player": PLAYER, "at": HEX, "from": nullable(PLAYER)}),
        "throne_captured": event("throne_captured", "A unit moved onto an enemy Throne.", {
            "player": PLAYER, "loser": PLAYER, "at": HEX}),
        "player_defeated": event("player_defeated", "A player is out of the game.", {
            "player": PLAYER, "reason": {"type": "string", "enum": ["concede", "no_units", "throne_captured"]},
            "units_removed": {"type": "array", "items": UNIT_ID}, "by": PLAYER, "cards_passed": INT0,
            "units_handed_over": {"type": "array", "items": UNIT_ID}},
            required=["player", "reason", "units_removed"]),
        "attacked": event("attacked", "An attack and the damage it dealt.", {
            "player": PLAYER, "unit": UNIT_ID, "target": UNIT_ID, "owner": PLAYER,
            "mode": {"type": "string", "enum": ["melee", "shoot"]}, "attack": INT0, "offence": mod, "defence": mod,
            "damage": INT0, "pins": INT0, "hp": {"type": "integer", "minimum": 1}}),
        "unit_destroyed": event("unit_destroyed", "A unit's pins reached its hit points.", {
            "player": PLAYER, "unit": UNIT_ID, "owner": PLAYER, "unit_type": ref("RSUnitType"), "at": HEX,
            "by": {"type": "string", "description": "What dealt the blow: melee, shoot, a spell, counterattack, "
                                                   "volley, flaming_oil, reach_through or a card."}}),
        "attack_declared": event("attack_declared", "An attack was declared (answers may come before it lands).", {
            "player": PLAYER, "unit": UNIT_ID, "target": target_id, "mode": {"type": "string", "enum": ["melee", "shoot"]},
            "knockback": flag, "volley": flag, "on_the_move": flag}, required=["player", "unit", "target", "mode"]),
        "attack_cancelled": event("attack_cancelled", "A declared attack did nothing.", {
            "player": PLAYER, "unit": UNIT_ID, "target": target_id,
            "reason": {"type": "string", "enum": ["attacker_gone", "evaded", "target_gone"]}}),
        "counterattacked": event("counterattacked", "A unit attacked back before the attack on it landed.", {
            "player": PLAYER, "unit": UNIT_ID, "target": UNIT_ID, "owner": PLAYER, **hit, "pins": INT0,
            "hp": {"type": "integer", "minimum": 1}}),
        "splashed": event("splashed", "A unit next to a target was hit too.", {
            "player": PLAYER, "unit": UNIT_ID, "owner": PLAYER, "source": {"type": "string"}, "damage": INT0}),
        "knocked_back": event("knocked_back", "Knockback pushed the target.", {
            "player": PLAYER, "unit": UNIT_ID, "from": HEX, "to": HEX}),
        "knockback_blocked": event("knockback_blocked", "Knockback found no room.", {"player": PLAYER, "unit": UNIT_ID}),
        "ensnared": event("ensnared", "The target cannot move during its owner's next turn.", {
            "player": PLAYER, "unit": UNIT_ID, "owner": PLAYER}),
        "ensnare_ended": event("ensnare_ended", "An Ensnare ended with its turn.", {"player": PLAYER, "unit": UNIT_ID}),
        "wall_attacked": event("wall_attacked", "An attack on a Gate, Castle wall or Palisade.", {
            "player": PLAYER, "unit": UNIT_ID, "wall": {"type": "string"},
            "kind": {"type": "string", "enum": list(WALL_KINDS)}, "mode": {"type": "string"}, "damage": INT0,
            "hp": INT0}),
        "wall_destroyed": event("wall_destroyed", "A wall fell.", {
            "player": PLAYER, "wall": {"type": "string"}, "kind": {"type": "string", "enum": list(WALL_KINDS)},
            "owner": PLAYER, "edge": HEXES}),
        "reached_through": event("reached_through", "Damage beyond a destroyed Palisade hit the enemy behind it.", {
            "player": PLAYER, "unit": UNIT_ID, "owner": PLAYER, "rest": INT0, "defence": mod, "damage": INT0}),
        "spell_cast": event("spell_cast", "A field spell was cast (its pin is on the Action Board).", {
            "player": PLAYER, "unit": UNIT_ID, "spell": {"type": "string", "enum": list(SPELLS)},
            "target": any_target, "cure": flag}, required=["player", "unit", "spell", "target"]),
        "spell_fizzled": event("spell_fizzled", "A spell found nothing to act on.", {
            "player": PLAYER, "unit": UNIT_ID, "spell": {"type": "string"}, "reason": {"type": "string"}}),
        "spell_countered": event("spell_countered", "A Counterspell stopped a declaration.", {
            "player": PLAYER, "unit": UNIT_ID, "countered": {"type": "object"}}),
        "teleported": event("teleported", "A unit teleported.", {"player": PLAYER, "unit": UNIT_ID, "from": HEX,
                                                                  "to": HEX}),
        "healed": event("healed", "Healing removed pins.", {"player": PLAYER, "unit": UNIT_ID, "owner": PLAYER,
                                                             "pins_removed": INT0, "pins": INT0}),
        "cured": event("cured", "Healing removed a unit's afflictions.", {"player": PLAYER, "unit": UNIT_ID,
                                                                           "owner": PLAYER}),
        "spell_hit": event("spell_hit", "A combat spell hit a unit in its area.", {
            "player": PLAYER, "unit": UNIT_ID, "spell": {"type": "string"}, "target": UNIT_ID, "owner": PLAYER,
            "at": HEX, **hit}),
        "spell_hit_nothing": event("spell_hit_nothing", "A combat spell's area held no unit.", {
            "player": PLAYER, "unit": UNIT_ID, "spell": {"type": "string"}}),
        "passed": event("passed", "A player gave no answer.", {"player": PLAYER}),
        "card_played": event("card_played", "A card was played (it is now public and in its discard pile).", {
            "player": PLAYER, "card": {"type": "string"}, "name": {"type": "string"}, "target": any_target}),
        "card_fizzled": event("card_fizzled", "A played card found nothing to act on.", {
            "player": PLAYER, "card": {"type": "string"},
            "reason": {"type": "string", "enum": ["evaded", "target_gone", "bad_target", "player_out"]}}),
        "card_hit": event("card_hit", "A card put pins on a unit.", {
            "player": PLAYER, "card": {"type": "string"}, "unit": UNIT_ID, "owner": PLAYER, "damage": INT0,
            "pins": INT0, "hp": {"type": "integer", "minimum": 1}}),
        "card_healed": event("card_healed", "A card removed pins.", {
            "player": PLAYER, "card": {"type": "string"}, "unit": UNIT_ID, "owner": PLAYER, "pins_removed": INT0,
            "pins": INT0}),
        "card_repaired": event("card_repaired", "A card repaired a Siege or Mechanical unit.", {
            "player": PLAYER, "card": {"type": "string"}, "unit": UNIT_ID, "owner": PLAYER, "pins_removed": INT0,
            "pins": INT0}),
        "effect_added": event("effect_added", "A card put an effect with a duration on a unit.", {
            "player": PLAYER, "card": {"type": "string"}, "unit": UNIT_ID, "owner": PLAYER,
            "effect": {"type": "string"}, "value": {"type": "integer"}, "left": INT0}),
        "unit_may_move_again": event("unit_may_move_again", "Forced March: the unit's movement is fresh.", {
            "player": PLAYER, "card": {"type": "string"}, "unit": UNIT_ID}),
        "wall_sabotaged": event("wall_sabotaged", "A card damaged a wall.", {
            "player": PLAYER, "card": {"type": "string"}, "wall": {"type": "string"},
            "kind": {"type": "string", "enum": list(WALL_KINDS)}, "damage": INT0, "hp": INT0}),
        "constructed": event("constructed", "A Construction action.", {
            "player": PLAYER, "unit": UNIT_ID, "action": {"type": "string"}, "target": {"oneOf": [{"type": "string"},
                                                                                              HEX]},
            "hp": INT0, "gained": INT0, "pins_removed": INT0, "pins": INT0, "wall": {"type": "string"},
            "edge": HEXES, "bonus": INT0, "notch": INT0}, required=["player", "unit", "action", "target"]),
        "reinforcement_pin_moved": event("reinforcement_pin_moved", "A kill moved the Reinforcement pin.", {
            "player": PLAYER, "reinforcement_pin": {"type": "integer"}, "deploys_gained": INT0}),
        "packing_started": event("packing_started", "A Packing pin went onto the Action Board.", {
            "player": PLAYER, "unit": UNIT_ID, "to": {"type": "string", "enum": ["packed", "unpacked"]},
            "notch": INT0}),
        "turn_ended": event("turn_ended", "A turn ended.", {"player": PLAYER}),
        "game_over": event("game_over", "The game ended.", {
            "winners": PLAYERS, "draw": {"type": "boolean"}, "scores": ref("Scores"),
            "reason": {"type": "string", "enum": ["last_standing", "round_limit"]}}),
    }
    enames = {k: "RS" + "".join(p.capitalize() for p in k.split("_")) + "Event" for k in events}
    out["ReignSupremeEvent"] = {"description": "Something that happened in a Reign Supreme game.",
                                "oneOf": [ref(enames[k]) for k in events],
                                "discriminator": {"propertyName": "type",
                                                  "mapping": {k: REF + enames[k] for k in events}}}
    for k, schema in events.items():
        out[enames[k]] = schema
    scenario_option = {"description": "`standard`, `skirmish`, or a custom scenario object (format of "
                                      "`content.scenarios.standard`; validated, 422 when wrong; at most "
                                      f"{MAX_BOARD} spaces, Midfield and Kingdoms together, and {MAX_KINGDOMS} "
                                      "Kingdoms).",
                       "oneOf": [{"type": "null"}, {"type": "string"}, {"type": "object"}]}
    out["ReignSupremeOptions"] = obj({
        "scenario": scenario_option,
        "armies": nullable({"type": "object", "additionalProperties": {"type": "string"}}),
        "army_lists": nullable({"type": "object", "additionalProperties": {"type": "array", "maxItems": MAX_LIST,
                                                                          "items": {"type": "string"}}}),
        "rosters": nullable({"type": "object", "additionalProperties": {"type": "object"}}),
        "round_limit": nullable({"type": "integer"}),
        "first_player": nullable({"type": "string"}),
        "setup": nullable({"type": "string", "enum": ["manual", "auto"]}),
        "cards": nullable({"type": "array", "items": ref("RSCard"), "maxItems": MAX_DEFINITIONS,
                           "description": f"A custom card set (at most {MAX_DEFINITIONS} definitions, otherwise 422)."}),
    }, required=[], description="Reign Supreme options; each may be omitted or null for its default.",
        examples=[GAME.default_options(), {"scenario": "skirmish", "round_limit": 10, "setup": "auto",
                                           "armies": {"ann": "undead", "bob": "demon"}}])
    player_score = obj({"strength": INT0, "units_on_board": INT0, "units_waiting": INT0, "kills": INT0,
                        "mines": INT0, "ruins": INT0, "defeated": {"type": "boolean"}})
    out["ReignSupremeScoreBreakdown"] = obj({
        "players": {"type": "object", "additionalProperties": player_score},
        "ranking": PLAYERS,
        "tie_break": nullable({"type": "string", "enum": ["kills", "draw"]}),
        "round": {"type": "integer", "minimum": 1}, "round_limit": {"type": "integer", "minimum": 1},
    }, description="Strength is the hit points left on a player's living units (0 once defeated); at the round "
                   "limit the strongest player wins, then the one with most kills, else a shared draw.",
        examples=[s["score"]["breakdown"]])
    out["ReignSupremeContent"] = obj({
        "armies": {"type": "object", "propertyNames": {"enum": list(ARMY_IDS)}, "additionalProperties": obj({
            "title": {"type": "string"},
            "units": {"type": "object", "additionalProperties": ref("RSUnitStats")},
            "lists": {"type": "object", "additionalProperties": {"type": "array", "items": ref("RSUnitType")}}})},
        "scenarios": {"type": "object", "additionalProperties": {"type": "object"}},
        "cards": {"type": "array", "items": ref("RSCard")},
        "spells": {"type": "object", "additionalProperties": obj({"range": {"type": "integer"},
                                                                  "cooldown": {"type": "integer"},
                                                                  "kind": {"type": "string"},
                                                                  "damage": {"type": "integer"},
                                                                  "heals": {"type": "integer"}},
                                                                 required=["range", "cooldown", "kind"])},
    }, description="The default content: four armies of the nineteen unit types with their default lists, the "
                   "standard and skirmish scenarios, the card set and the field spells.")
    return out


def card_schema() -> dict[str, Any]:
    """A card definition (rules doc §Cards)."""
    return obj({"id": {"type": "string", "pattern": "^[a-z][a-z0-9_]{0,31}$"},
                "deck": {"type": "string", "enum": ["spell", "tactics"]},
                "name": {"type": "string"}, "text": {"type": "string"},
                "copies": {"type": "integer", "minimum": 1, "maximum": 4},
                "target": {"type": "string", "enum": ["own_unit", "enemy_unit", "any_unit", "enemy_siege_or_wall",
                                                      "none"]},
                "range": nullable({"type": "integer", "minimum": 0, "maximum": 100}),
                "effect": {"type": "object", "required": ["kind"],
                           "description": "An effect primitive {kind, amount, splash?, turns?} (rules doc §Cards)."}},
               description="A card: its deck, what it targets, its range from your units and its effect.")


def render(schemas_: dict[str, Any]) -> str:
    """This game's block, between its BEGIN/END lines."""
    return spec_blocks.render(schemas_, BEGIN, END)


def splice(text: str, block: str) -> str:
    return spec_blocks.splice(text, block, BEGIN, END)


def main() -> int:
    text = SPEC.read_text("utf-8")
    fresh = splice(text, render(schemas(sample())))
    if "--check" in sys.argv:
        return 0 if fresh == text else 1
    SPEC.write_text(fresh, "utf-8")
    print("openapi.yaml: Reign Supreme schemas written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
