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
from rules.reign_supreme.content import ABILITIES, ARMY_IDS, KINDS, SPELLS, UNIT_TYPES  # noqa: E402

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
        "kinds": {"type": "array", "uniqueItems": True, "items": {"type": "string", "enum": list(KINDS)}},
        "abilities": {"type": "array", "uniqueItems": True, "items": {"type": "string", "enum": list(ABILITIES)}},
        "spells": {"type": "array", "uniqueItems": True, "items": {"type": "string", "enum": list(SPELLS)}},
    }, description="The statistics of one unit type in one army: movement (spaces), hit points, attack, "
                   "defence (subtracted from damage taken), range (shooting), kind flags, and the abilities "
                   "and spells the seed gives the type (their effects are part 2 of the rules).")
    roster = obj({"title": {"type": "string"},
                  "units": {"type": "object", "description": "Unit type to its statistics.",
                            "propertyNames": {"enum": list(UNIT_TYPES)}, "additionalProperties": ref("RSUnitStats")}},
                 required=["units"], description="A custom army: its title and its unit types (must include the "
                                                  "one Assault).")
    unit = obj({
        "owner": PLAYER, "type": ref("RSUnitType"),
        "at": {"description": "The space it stands on; null while waiting to be set up or deployed.",
               **nullable(HEX)},
        "pins": {"type": "integer", "minimum": 0, "description": "Damage taken; always below the unit's hp."},
        "moved": {"type": "boolean", "description": "Moved this turn (no shooting, no second move)."},
        "attacked": {"type": "boolean", "description": "Attacked this turn."},
        "done": {"type": "boolean", "description": "Cannot act any more this turn (freshly deployed, "
                                                    "started packing/unpacking, or another unit acted after "
                                                    "it had moved or attacked)."},
        "packing": {"type": "string", "enum": ["packed", "unpacked", "packing", "unpacking"],
                    "description": "Packed units only: packed units move, unpacked units attack, units in "
                                   "between do neither."},
    }, required=["owner", "type", "at", "pins", "moved", "attacked", "done"], description="A unit in play.")
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
        "spells": {"type": "array", "description": "Spell pins on cooldown (part 2 casts spells).", "items": obj(
            {"unit": UNIT_ID, "spell": {"type": "string", "enum": list(SPELLS)},
             "left": {"type": "integer", "minimum": 1, "maximum": 99}})},
        "effects": {"type": "array", "description": "Effect durations (part 2).", "items": obj(
            {"effect": {"type": "string"}, "unit": nullable(UNIT_ID),
             "left": {"type": "integer", "minimum": 1, "maximum": 99}})},
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
        "schema_version": {"type": "integer", "const": 1},
        "players": {"type": "array", "minItems": 2, "maxItems": 4, "uniqueItems": True, "items": PLAYER},
        "status": {"type": "string", "enum": ["in_progress", "finished"]},
        "active_players": {**PLAYERS, "description": "The player whose turn (or set-up) it is; [] once finished."},
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
        "pending": {"description": "A declared action waiting for a response (part 2: Counterattack, Teleport, "
                                   "Counterspell); always null in this version.", **nullable({"type": "object"})},
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

    def move(kind: str, description: str, **params: Any) -> dict[str, Any]:
        props = {"player": PLAYER, "type": {"type": "string", "const": kind}, **params}
        return obj(props, description=description, examples=[mv[kind]] if kind in mv else None)

    moves = {
        "place": move("place", "Set-up: put a waiting unit on an empty space of your Kingdom.", unit=UNIT_ID, to=HEX),
        "deploy": move("deploy", "Deployment phase: put a waiting unit on an empty Castle space (not while an "
                       "enemy is in that Kingdom); it cannot act this turn.", unit=UNIT_ID, to=HEX),
        "end_deployment": move("end_deployment", "Stop deploying; the Combat phase starts."),
        "move": move("move", "Combat phase: move a unit up to its movement (passing friends, not enemies; a unit "
                     "next to an enemy steps only away from every enemy, and a unit in melee may not end in "
                     "melee).", unit=UNIT_ID, to=HEX),
        "attack": move("attack", "Combat phase: the unit's one attack, melee (adjacent) or shoot (Shooting units, "
                       "distance 2 to range, not after moving, not while in melee unless Siege).",
                       unit=UNIT_ID, target=UNIT_ID, mode={"type": "string", "enum": ["melee", "shoot"]}),
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
    mod = {"type": "array", "items": obj({"source": {"type": "string", "enum": ["throne", "armour", "castle"]},
                                          "value": {"type": "integer"}})}
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
            "units_removed": {"type": "array", "items": UNIT_ID}, "by": PLAYER, "cards_passed": INT0},
            required=["player", "reason", "units_removed"]),
        "attacked": event("attacked", "An attack and the damage it dealt.", {
            "player": PLAYER, "unit": UNIT_ID, "target": UNIT_ID, "owner": PLAYER,
            "mode": {"type": "string", "enum": ["melee", "shoot"]}, "attack": INT0, "offence": mod, "defence": mod,
            "damage": INT0, "pins": INT0, "hp": {"type": "integer", "minimum": 1}}),
        "unit_destroyed": event("unit_destroyed", "A unit's pins reached its hit points.", {
            "player": PLAYER, "unit": UNIT_ID, "owner": PLAYER, "unit_type": ref("RSUnitType"), "at": HEX}),
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
                                      "`content.scenarios.standard`; validated, 422 when wrong).",
                       "oneOf": [{"type": "null"}, {"type": "string"}, {"type": "object"}]}
    out["ReignSupremeOptions"] = obj({
        "scenario": scenario_option,
        "armies": nullable({"type": "object", "additionalProperties": {"type": "string"}}),
        "army_lists": nullable({"type": "object", "additionalProperties": {"type": "array",
                                                                          "items": {"type": "string"}}}),
        "rosters": nullable({"type": "object", "additionalProperties": {"type": "object"}}),
        "round_limit": nullable({"type": "integer"}),
        "first_player": nullable({"type": "string"}),
        "setup": nullable({"type": "string", "enum": ["manual", "auto"]}),
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
        "cards": {"type": "array", "items": obj({"id": {"type": "string"}, "deck": {"type": "string",
                                                                                   "enum": ["spell", "tactics"]},
                                                 "name": {"type": "string"}, "text": {"type": "string"},
                                                 "copies": {"type": "integer", "minimum": 1}})},
        "spells": {"type": "object", "additionalProperties": obj({"range": {"type": "integer"},
                                                                  "cooldown": {"type": "integer"},
                                                                  "kind": {"type": "string"}})},
    }, description="The default content: four armies of the nineteen unit types with their default lists, the "
                   "standard and skirmish scenarios, the card set and the field spells.")
    return out


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
