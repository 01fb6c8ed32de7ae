"""Build the Reign Absolute component schemas of openapi.yaml, with real examples.

The schemas are written here as data; every ``examples`` entry is produced by the rules
themselves (a seeded game played with random legal moves, plus the seed's worked example for
the combat events). ``test_ra_openapi.py`` checks that the block in openapi.yaml is what this
builds and that every example validates.

    cd /work/main && .venv/bin/python tests/rules/reign_absolute/make_openapi.py   # rewrite the block
"""
from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any


ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from tests.contract import spec_blocks  # noqa: E402
from tests.contract.spec_blocks import REF, ref  # noqa: E402
from rules.reign_absolute import GAME  # noqa: E402
from rules.reign_absolute.content import MAX_CARDS, MAX_RACES  # noqa: E402
from rules.reign_absolute.content import (ABILITY_EFFECTS, ACTION_EFFECTS, COMBAT_EFFECTS, MAX_LEAP,  # noqa: E402
                                          SETUP_EFFECTS, TURN_EFFECTS, WHEN)
from rules.reign_absolute.moves import MOVE_FIELDS  # noqa: E402

SPEC = ROOT / "openapi.yaml"
BEGIN = "    # BEGIN REIGN ABSOLUTE SCHEMAS (tests/rules/reign_absolute/make_openapi.py)\n"
END = "    # END REIGN ABSOLUTE SCHEMAS\n"
def obj(description: str, props: dict[str, Any], required: list[str] | None = None,
        closed: bool = True) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "description": description,
                              "required": list(props) if required is None else required}
    if closed:
        schema["additionalProperties"] = False
    schema["properties"] = props
    return schema


INT = {"type": "integer"}
STR = {"type": "string"}
BOOL = {"type": "boolean"}
NULL_STR = {"type": ["string", "null"]}
PLAYER = ref("PlayerId")
PLAYERS = {"type": "array", "items": ref("PlayerId")}
UNIT = ref("RAUnitId")
CARD = ref("RACardId")
CARDS = {"type": "array", "items": ref("RACardId")}
UNITS = {"type": "array", "items": ref("RAUnitId")}
CELL = ref("RACell")


def by_player(item: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "description": "Player id -> value.", "additionalProperties": item}


MOVE_DOCS = {
    "choose_race": "Race selection: choose a race nobody plays yet.",
    "place": "Placement: put the top unit of your race deck face down on this cell.",
    "move": "Action: move one of your units (with its reinforcements) to an empty orthogonal neighbour.",
    "attack": "Action: attack the enemy unit on an orthogonally adjacent cell; the combat resolves at once.",
    "doom": "Action: call Doom; every player, from your left and ending with you, discards a unit.",
    "pass": "Action: take no action (the reinforcement phase follows).",
    "doom_discard": "Doom: discard one of your units, with its reinforcements.",
    "bonus_unit": "Eradication bonus: a unit from your unit discard pile onto an empty cell next to one of your units.",
    "reinforce": "Reinforcement phase: put the combat card you drew face down under one of your units.",
    "play_turn_card": "Reinforcement phase: resolve the turn card you drew.",
    "discard_turn_card": "Reinforcement phase: discard the turn card you drew without effect.",
    "march": "Forced March: move one of your units to an empty orthogonal neighbour.",
    "race_action": "Action: one of your race's own actions (`action`: its id) with one of your units and a target cell "
                   "(rules doc, Race actions).",
}
PARAM_SCHEMAS = {"race": {"type": "string", "description": "A race id of the game."},
                 "action": {"type": "string", "description": "The id of one of your race's actions."},
                 "unit": UNIT, "x": INT, "y": INT}

EVENT_DOCS: dict[str, tuple[str, dict[str, Any], list[str] | None]] = {
    "race_chosen": ("A player chose a race.", {"player": PLAYER, "race": STR}, None),
    "first_player_draw": ("One round of the first-player draw: each contender's card and its random number.",
                          {"round": INT, "draws": by_player(obj("A drawn card.", {"card": CARD, "number": INT}))},
                          None),
    "first_player_chosen": ("The first player is known.", {"player": PLAYER}, None),
    "placement_started": ("Placement begins with the first player.", {"player": PLAYER}, None),
    "unit_placed": ("A unit was placed face down (`unit` only for its owner).",
                    {"player": PLAYER, "unit": UNIT, "x": INT, "y": INT}, ["player", "x", "y"]),
    "placement_finished": ("Every unit is placed.", {}, None),
    "turn_started": ("A turn begins (`another_turn`: granted by an Another Turn card).",
                     {"player": PLAYER, "number": INT, "another_turn": BOOL}, None),
    "turn_ended": ("A turn ended.", {"player": PLAYER, "number": INT}, None),
    "passed": ("The player took no action.", {"player": PLAYER}, None),
    "race_action_taken": ("A race's own action (`unit`, and `other` for a swap, only for its owner).",
                          {"player": PLAYER, "action": STR, "effect": {"type": "string", "enum": list(ACTION_EFFECTS)},
                           "unit": UNIT, "other": UNIT, "from": CELL, "to": CELL},
                          ["player", "action", "effect", "from", "to"]),
    "setup_task": ("A race's post-Setup task begins (its cards follow as reinforcement_placed or "
                   "turn_card_discarded events).",
                   {"player": PLAYER, "effect": {"type": "string", "enum": ["reinforced_unit"]}, "count": INT}, None),
    "unit_moved": ("A unit moved (`unit` only for its owner; `march` for a Forced March).",
                   {"player": PLAYER, "unit": UNIT, "from": CELL, "to": CELL, "march": {"type": "boolean", "const": True}},
                   ["player", "from", "to"]),
    "combat_started": ("Combat step 1: the attacker moves onto the defender's cell.",
                       {"player": PLAYER, "from": CELL, "to": CELL, "defender": PLAYER}, None),
    "units_revealed": ("Combat step 2: both units and their reinforcements are revealed to everyone.",
                       {"attacker": ref("RACombatant"), "defender": ref("RACombatant")}, None),
    "ability_triggered": ("Combat step 3: a start-of-combat ability (a draw).",
                          {"side": ref("RASide"), "player": PLAYER, "unit": UNIT,
                           "effect": {"type": "string", "const": "draw"}, "count": INT}, None),
    "combat_card_drawn": ("Combat step 3: a card drawn into the combat (`source`: the unit or Draw card that drew "
                          "it). A turn card is discarded, a combat card joins its side.",
                          {"side": ref("RASide"), "player": PLAYER, "card": CARD, "source": STR,
                           "result": {"type": "string", "enum": ["joined", "discarded"]}}, None),
    "reinforcements_cancelled": ("Combat step 4: a Cancel (`by`) voids every reinforcement of `side`.",
                                 {"side": ref("RASide"), "player": PLAYER, "by": CARDS}, None),
    "combat_totals": ("Combat step 5: each side's total, explained; `winner` null on a tie (both defeated).",
                      {"attacker": ref("RACombatTotal"), "defender": ref("RACombatTotal"),
                       "winner": {"type": ["string", "null"], "enum": ["attacker", "defender", None]}}, None),
    "unit_defeated": ("Combat step 6: a unit is defeated and goes face up to its owner's unit discard pile.",
                      {"player": PLAYER, "unit": UNIT, "side": ref("RASide"), "x": INT, "y": INT, "liege": BOOL},
                      None),
    "unit_advanced": ("Combat step 6: the winning attacker moves into the cell.",
                      {"player": PLAYER, "unit": UNIT, "from": CELL, "to": CELL}, None),
    "reinforcements_discarded": ("Combat step 6: every reinforcement of both units goes to the discard.",
                                 {"cards": CARDS}, None),
    "player_eradicated": ("A Liege fell: the player's units leave the battlefield, their cards are discarded; "
                          "`by` is owed the bonus unit (null: nobody).",
                          {"player": PLAYER, "by": {"type": ["string", "null"]}, "units": UNITS, "cards": CARDS},
                          None),
    "bonus_unit_placed": ("The eradication bonus: a unit from the discard pile back on the battlefield.",
                          {"player": PLAYER, "unit": UNIT, "x": INT, "y": INT}, None),
    "bonus_skipped": ("The bonus is owed but impossible.",
                      {"player": PLAYER, "reason": {"type": "string", "enum": ["no_unit_in_discard", "no_free_cell"]}},
                      None),
    "doom_called": ("Doom: `order` is who discards, in order, ending with the caller.",
                    {"player": PLAYER, "order": PLAYERS}, None),
    "doom_discard": ("Doom: a player discarded a unit (public: it goes face up to the discard pile).",
                     {"player": PLAYER, "unit": UNIT, "x": INT, "y": INT, "cards": CARDS, "liege": BOOL}, None),
    "doom_ended": ("Every Doom discard is done; the caller's turn ends without reinforcement.",
                   {"caller": PLAYER}, None),
    "reinforcement_drawn": ("The reinforcement phase draw (`card` hidden from others for a combat card).",
                            {"player": PLAYER, "kind": {"type": "string", "enum": ["combat", "turn"]}, "card": CARD},
                            ["player", "kind"]),
    "reinforcement_placed": ("A combat card went under a unit (`unit` and `card` only for its owner; `count`: "
                             "cards now under it).",
                             {"player": PLAYER, "unit": UNIT, "card": CARD, "x": INT, "y": INT, "count": INT},
                             ["player", "x", "y", "count"]),
    "turn_card_played": ("A turn card was resolved.", {"player": PLAYER, "card": CARD,
                                                       "effect": {"type": "string", "enum": list(TURN_EFFECTS)}}, None),
    "turn_card_discarded": ("A turn card was discarded without effect.", {"player": PLAYER, "card": CARD}, None),
    "deck_reshuffled": ("The empty deck was refilled by shuffling the discard (`cards`: how many).",
                        {"cards": INT}, None),
    "deck_empty": ("Deck and discard are both empty: nothing was drawn.", {"player": PLAYER}, None),
    "game_over": ("The game is over.", {"winners": PLAYERS, "draw": BOOL,
                                        "reason": {"type": "string",
                                                   "enum": ["last_liege", "lieges_fell_together", "turn_limit"]}},
                  None),
}


def event_name(kind: str) -> str:
    return "RA" + "".join(p.capitalize() for p in kind.split("_")) + "Event"


def move_name(kind: str) -> str:
    return "RA" + "".join(p.capitalize() for p in kind.split("_")) + "Move"


# -- examples from real play ------------------------------------------------------------------------
def collect() -> dict[str, Any]:
    """A mid-game state and view, a first move of each type, a first event of each type."""
    from ra_helpers import battle, unit  # the test helper that builds exact states

    moves: dict[str, dict] = {}
    events: dict[str, dict] = {}
    mid_state = mid_view = breakdown = None
    for seed in range(1, 60):
        players = ["ann", "bob", "cat"][: 2 + seed % 2]
        state = GAME.setup(players, seed, {})
        chooser = random.Random(seed)
        while state["status"] != "finished":
            move = chooser.choice(GAME.legal_moves(state))
            moves.setdefault(move["type"], move)
            before = state
            state, evs = GAME.apply(state, move)
            for e in evs:
                events.setdefault(e["type"], e)
            if mid_state is None and state["phase"] == "play" and state["turn"]["number"] >= 12 \
                    and state["doom"] is None and not state["bonus_owed"] and before["turn"]["drawn"] is not None:
                mid_state = state
        if len(moves) == len(MOVE_FIELDS) and len(events) >= len(EVENT_DOCS) - 1 and mid_state is not None:
            break
    example = battle({"ann": "empire", "bob": "elves"}, {
        "ann": [unit("empire-archers-1", 0, 0, "plus-3-1", "defence-plus-6-1"), unit("empire-king", -5, 0)],
        "bob": [unit("elves-enchantress", 1, 0, "plus-2-1", "plus-2-2"), unit("elves-queen", 6, 0)],
    }, deck=["another-turn-1", "draw-2-1", "plus-4-1", "cancel-1"])
    _, evs = GAME.apply(example, {"player": "ann", "type": "attack", "unit": "empire-archers-1", "x": 1, "y": 0})
    for e in evs:
        events[e["type"]] = e  # the seed's worked example wins
    events.setdefault("deck_empty", {"type": "deck_empty", "player": "ann"})
    mid_view = GAME.view(mid_state, mid_state["players"][0])
    breakdown = GAME.score(mid_state).breakdown
    return {"state": mid_state, "view": mid_view, "moves": moves, "events": events, "breakdown": breakdown}


# -- the schemas ------------------------------------------------------------------------------------
def build() -> dict[str, Any]:
    ex = collect()
    effect_names = sorted(set(ABILITY_EFFECTS) | set(COMBAT_EFFECTS) | set(TURN_EFFECTS) | set(ACTION_EFFECTS)
                          | set(SETUP_EFFECTS))
    s: dict[str, Any] = {}
    s["RAUnitId"] = {"type": "string", "description": "A unit card id, e.g. `empire-archers-1`.",
                     "examples": ["empire-archers-1"]}
    s["RACardId"] = {"type": "string", "description": "A reinforcement card id, e.g. `draw-2-1`.",
                     "examples": ["draw-2-1"]}
    s["RACell"] = obj("A battlefield cell; `(0, 0)` is the middle.", {"x": INT, "y": INT})
    s["RASide"] = {"type": "string", "enum": ["attacker", "defender"]}
    s["RAEffect"] = obj("An effect primitive (rules doc, Effect primitives): abilities of units and effects of cards.",
                        {"effect": {"type": "string", "enum": effect_names},
                         "amount": {"type": "integer", "minimum": -20, "maximum": 20},
                         "count": {"type": "integer", "minimum": 1, "maximum": 3},
                         "distance": {"type": "integer", "minimum": 2, "maximum": MAX_LEAP},
                         "unit": UNIT,
                         "when": {"type": "string", "enum": list(WHEN)}}, required=["effect"])
    s["RARaceAction"] = obj("A race's own action (rules doc, Race actions): `effect` is `swap` or `leap`.",
                            {"id": STR, "name": STR, "effect": ref("RAEffect")})
    race_rules = {"actions": {"type": "array", "maxItems": 4, "items": ref("RARaceAction")},
                  "setup": {"type": "array", "maxItems": 4, "description": "Setup requirements: `place_first` or "
                            "`reinforced_unit` effects naming a unit of the race.", "items": ref("RAEffect")}}
    s["RAUnitInfo"] = obj("A unit card of the catalogue.", {
        "race": STR, "name": STR, "strength": {"type": "integer", "minimum": 0, "maximum": 99}, "liege": BOOL,
        "abilities": {"type": "array", "items": ref("RAEffect")}})
    s["RARaceInfo"] = obj("A race of the catalogue: its name, unit ids, own actions and setup requirements.",
                          {"name": STR, "units": UNITS, **race_rules})
    s["RACardInfo"] = obj("A reinforcement card of the catalogue; `number` is its random number.", {
        "name": STR, "kind": {"type": "string", "enum": ["combat", "turn"]}, "number": INT, "effect": ref("RAEffect")})
    s["RAUnitSpec"] = obj("A unit card in custom content (`options.races`).", {
        "id": UNIT, "name": STR, "strength": {"type": "integer", "minimum": 0, "maximum": 99}, "liege": BOOL,
        "abilities": {"type": "array", "maxItems": 4, "items": ref("RAEffect")}},
        required=["id", "name", "strength", "liege"])
    s["RARaceSpec"] = obj("A race in custom content: exactly one unit has `liege: true`; `actions` and `setup` "
                          "optional.", {
        "id": STR, "name": STR, "units": {"type": "array", "minItems": 1, "maxItems": 30, "items": ref("RAUnitSpec")},
        **race_rules}, required=["id", "name", "units"])
    s["RACardSpec"] = obj("A reinforcement card in custom content.", {
        "id": CARD, "name": STR, "kind": {"type": "string", "enum": ["combat", "turn"]},
        "number": {"type": "integer", "minimum": 0, "maximum": 99}, "effect": ref("RAEffect")})
    s["RABattlefieldUnit"] = obj("A unit on the battlefield with the combat cards under it (first placed first).", {
        "x": INT, "y": INT, "owner": PLAYER, "reinforcements": CARDS})
    s["RATurn"] = obj("The current turn. `stage`: action, reinforcement (drawing, placing or resolving cards) or "
                      "doom; `drawn`: the card being dealt with; `extra_turns`: Another Turns still due.", {
        "player": PLAYER, "number": {"type": "integer", "minimum": 1}, "stage": {"type": "string",
                                                                                "enum": ["action", "reinforcement", "doom"]},
        "draws_left": {"type": "integer", "minimum": 0}, "drawn": {"type": ["string", "null"]},
        "marching": BOOL, "extra_turns": {"type": "integer", "minimum": 0}})
    s["RADoom"] = obj("A Doom in progress: who still has to discard, in order.", {"caller": PLAYER,
                                                                                 "to_discard": PLAYERS})
    state_props = {
        "game": {"type": "string", "const": "reign-absolute"},
        "schema_version": {"type": "integer", "const": 2},
        "players": {"type": "array", "minItems": 2, "maxItems": 4, "uniqueItems": True, "items": PLAYER},
        "status": {"type": "string", "enum": ["in_progress", "finished"]},
        "phase": {"type": "string", "enum": ["race_selection", "placement", "play", "finished"]},
        "active_players": {"type": "array", "maxItems": 1, "items": PLAYER},
        "move_count": {"type": "integer", "minimum": 0},
        "outcome": {"oneOf": [ref("Outcome"), {"type": "null"}]},
        "seed": ref("Seed"),
        "rng": {"type": "string", "pattern": "^[0-9a-f]{16}$"},
        "turn_limit": {"type": "integer", "minimum": 1, "maximum": 2000},
        "races": {"type": "object", "additionalProperties": ref("RARaceInfo")},
        "units": {"type": "object", "additionalProperties": ref("RAUnitInfo")},
        "cards": {"type": "object", "additionalProperties": ref("RACardInfo")},
        "race_of": by_player(NULL_STR),
        "first_player": {"type": ["string", "null"]},
        "first_player_draws": {"type": "array", "items": by_player(CARD)},
        "unit_decks": by_player(UNITS),
        "battlefield": {"type": "object", "description": "Unit id -> where it stands.",
                        "additionalProperties": ref("RABattlefieldUnit")},
        "unit_discards": by_player(UNITS),
        "deck": CARDS,
        "discard": CARDS,
        "eradicated": PLAYERS,
        "placer": {"type": ["string", "null"]},
        "turn": {"oneOf": [ref("RATurn"), {"type": "null"}]},
        "doom": {"oneOf": [ref("RADoom"), {"type": "null"}]},
        "bonus_owed": PLAYERS,
    }
    s["ReignAbsoluteState"] = obj(
        "The whole state of a Reign Absolute game, hidden information included (unit identities, the cards under "
        "units, the deck order, the generator). Send it back as you received it; a state that fails the integrity "
        "check is a 422. `deck[0]` is the top card.", state_props)
    s["ReignAbsoluteState"]["examples"] = [ex["state"]]
    s["ReignAbsoluteContent"] = obj("The default content: five races and the reinforcement deck.", {
        "races": {"type": "array", "items": ref("RARaceSpec")},
        "reinforcements": {"type": "array", "items": ref("RACardSpec")}})
    s["ReignAbsoluteOptions"] = obj("Reign Absolute setup options; each may be omitted or null for its default.", {
        "races": {"oneOf": [{"type": "array", "items": ref("RARaceSpec"), "maxItems": MAX_RACES}, {"type": "null"}]},
        "reinforcements": {"oneOf": [{"type": "array", "items": ref("RACardSpec"), "maxItems": MAX_CARDS},
                                      {"type": "null"}]},
        "races_by_player": {"oneOf": [by_player(STR), {"type": "null"}]},
        "turn_limit": {"oneOf": [{"type": "integer", "minimum": 1, "maximum": 2000}, {"type": "null"}]}},
        required=[])
    s["ReignAbsoluteOptions"]["examples"] = [{"races_by_player": {"ann": "empire", "bob": "elves"},
                                              "turn_limit": 100}]
    # moves
    s["ReignAbsoluteMove"] = {
        "description": "A Reign Absolute move; `type` selects the parameters.",
        "oneOf": [ref(move_name(k)) for k in MOVE_FIELDS],
        "discriminator": {"propertyName": "type", "mapping": {k: REF + move_name(k) for k in MOVE_FIELDS}}}
    for kind, params in MOVE_FIELDS.items():
        props = {"player": PLAYER, "type": {"type": "string", "const": kind}}
        props.update({p: PARAM_SCHEMAS[p] for p in params})
        s[move_name(kind)] = obj(MOVE_DOCS[kind], props)
        if kind in ex["moves"]:
            s[move_name(kind)]["examples"] = [ex["moves"][kind]]
    # events
    s["ReignAbsoluteEvent"] = {
        "description": "Something that happened in Reign Absolute. Events are in order; a combat is a sequence "
                       "(combat_started, units_revealed, ability_triggered, combat_card_drawn, "
                       "reinforcements_cancelled, combat_totals, unit_defeated, unit_advanced, "
                       "reinforcements_discarded, player_eradicated) a front end can animate step by step. "
                       "Fields private to the event's player are absent for others once redacted.",
        "oneOf": [ref(event_name(k)) for k in EVENT_DOCS],
        "discriminator": {"propertyName": "type", "mapping": {k: REF + event_name(k) for k in EVENT_DOCS}}}
    for kind, (doc, props, required) in EVENT_DOCS.items():
        full = {"type": {"type": "string", "const": kind}, **props}
        s[event_name(kind)] = obj(doc, full, required=["type", *(list(props) if required is None else required)])
        if kind in ex["events"]:
            s[event_name(kind)]["examples"] = [ex["events"][kind]]
    s["RACombatant"] = obj("A unit revealed in combat.", {"player": PLAYER, "unit": UNIT, "x": INT, "y": INT,
                                                          "reinforcements": CARDS})
    s["RACombatTotal"] = obj("One side's combat total: base + ability bonus + counted cards.", {
        "player": PLAYER, "unit": UNIT, "base": INT,
        "abilities": {"type": "array", "items": obj("An ability's part.", {"effect": STR, "value": INT})},
        "ability_bonus": INT,
        "cards": {"type": "array", "items": obj("A card's part.", {
            "card": CARD, "value": INT,
            "status": {"type": "string", "enum": ["counted", "cancelled", "wrong_role", "no_strength"]}})},
        "card_bonus": INT, "cancelled": BOOL, "total": INT})
    # view
    s["RAViewUnit"] = obj("A unit on the battlefield as the viewer sees it: `unit` and `reinforcements` only for "
                          "the viewer's own units.", {"x": INT, "y": INT, "owner": PLAYER,
                                                      "reinforcement_count": INT, "unit": UNIT,
                                                      "reinforcements": CARDS},
                          required=["x", "y", "owner", "reinforcement_count"])
    s["RAViewTurn"] = obj("The turn as the viewer sees it: `drawn.card` only for a turn card or the drawer.", {
        "player": PLAYER, "number": INT, "stage": STR, "extra_turns": INT, "marching": BOOL,
        "drawn": {"oneOf": [obj("The card being dealt with.", {"kind": {"type": "string", "enum": ["combat", "turn"]},
                                                               "card": CARD}, required=["kind"]),
                            {"type": "null"}]}})
    view_props = {
        "game": {"type": "string", "const": "reign-absolute"}, "schema_version": {"type": "integer", "const": 2},
        "viewer": {"type": ["string", "null"]},
        "players": PLAYERS, "status": state_props["status"], "phase": state_props["phase"],
        "active_players": PLAYERS, "move_count": INT, "outcome": state_props["outcome"], "turn_limit": INT,
        "races": state_props["races"], "units": state_props["units"], "cards": state_props["cards"],
        "race_of": state_props["race_of"], "first_player": state_props["first_player"],
        "first_player_draws": state_props["first_player_draws"], "unit_deck_counts": by_player(INT),
        "battlefield": {"type": "array", "description": "Sorted by y, then x.", "items": ref("RAViewUnit")},
        "unit_discards": by_player(UNITS), "deck_count": INT, "discard": CARDS, "eradicated": PLAYERS,
        "placer": state_props["placer"], "turn": {"oneOf": [ref("RAViewTurn"), {"type": "null"}]},
        "doom": state_props["doom"], "bonus_owed": PLAYERS,
        "next_unit": {"type": ["string", "null"], "description": "Viewer only: the unit they are about to place."}}
    s["ReignAbsoluteView"] = obj("A Reign Absolute state as one player (or a spectator, `viewer: null`) may see it: "
                                 "enemy units are owner, cell and reinforcement count only; never the deck order, "
                                 "`seed` or `rng`.", view_props,
                                 required=[k for k in view_props if k != "next_unit"])
    s["ReignAbsoluteView"]["examples"] = [ex["view"]]
    player_score = obj("A player's standing.", {"eradicated": BOOL, "units_in_play": INT, "strength_in_play": INT,
                                                "units_in_discard": INT})
    s["ReignAbsoluteScoreBreakdown"] = obj(
        "Scores are units in play. `decided_by`: how the game ended (null while it goes on); mid-game the winners "
        "are the leaders by the turn-limit tie-break (units in play, then strength in play).", {
            "players": by_player(player_score), "ranking": PLAYERS,
            "decided_by": {"type": ["string", "null"], "enum": ["last_liege", "lieges_fell_together", "turn_limit", None]}})
    s["ReignAbsoluteScoreBreakdown"]["examples"] = [ex["breakdown"]]
    return s


def render(schemas_: dict[str, Any]) -> str:
    """This game's block, between its BEGIN/END lines."""
    return spec_blocks.render(schemas_, BEGIN, END)


def splice(text: str, block: str) -> str:
    return spec_blocks.splice(text, block, BEGIN, END)


def main() -> None:
    block = render(build())
    SPEC.write_text(splice(SPEC.read_text("utf-8"), block), "utf-8")
    print(f"{SPEC}: Reign Absolute schemas written ({block.count(chr(10))} lines)")


if __name__ == "__main__":
    main()
