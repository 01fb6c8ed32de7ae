"""Field spells and the answer stack (rules doc §Field spells, §Answers; seed: Spells - Field
Spells, Spell Cooldowns; Special Rule Terminology - Area of Effect, Defensive Ability; Special
Abilities - Silence; Castle).

Armies by seat: ann Resistance, bob Greenskin, cat Undead. Numbers used here (rosters):
Resistance battlemage (Blast), assault (Cone), shock_trooper (Arc, Mechanical), wizard
(Teleport), priest (Healing), warder (Silence, Counterspell), infantry defence 3 hp 10,
footman defence 1 hp 7; Greenskin infantry defence 2 hp 10 (Counterattack), footman defence 1
hp 8, archer defence 0 hp 5, wizard hp 4 (Teleport), warder (Counterspell); Undead warder.
"""

from __future__ import annotations

from typing import Any

from rs_helpers import codes, move, of_type, play, position, refresh

from rules.reign_supreme import GAME
from rules.reign_supreme.hexes import distance
from rules.reign_supreme.state import clone

PASS_BOB = move("bob", "pass")

# A Midfield of radius 5 around [0, 0] and three Kingdoms of 7 spaces just outside it: room to
# keep Warders' Silence out of the way while their Counterspell (range 4) still reaches.
_RING = [(q, r) for q in range(-5, 6) for r in range(-5, 6) if distance((q, r), (0, 0)) <= 5]


def _patch(c: tuple[int, int]) -> list[list[int]]:
    return [
        [c[0] + dq, c[1] + dr]
        for dq, dr in ((0, 0), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
    ]


BIG = {
    "id": "big",
    "castles": False,
    "cards": False,
    "deployment": False,
    "initial_units": None,
    "army_list": "skirmish",
    "victory": "last_standing",
    "mines": [],
    "ruins": [],
    "midfield": [list(h) for h in _RING],
    "kingdoms": [
        {"id": "east", "hexes": _patch((7, 0))},
        {"id": "west", "hexes": _patch((-7, 0))},
        {"id": "south", "hexes": _patch((0, 7))},
    ],
}


def cast(player: str, uid: str, spell: str, target: Any, **extra: Any) -> dict[str, Any]:
    return move(player, "cast", unit=uid, spell=spell, target=target, **extra)


def with_units(state: dict[str, Any], **changes: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``state`` with unit fields changed (``u2={"pins": 3}``)."""
    new = clone(state)
    for uid, fields in changes.items():
        new["units"][uid].update(fields)
    refresh(new)
    GAME.check_state(new)
    return new


def casts(state: dict[str, Any], uid: str, spell: str) -> list[dict[str, Any]]:
    return [
        m
        for m in GAME.legal_moves(state)
        if m["type"] == "cast" and m["unit"] == uid and m["spell"] == spell
    ]


def end_turns(state: dict[str, Any], *players: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    return play(state, *(move(p, "end_turn") for p in players))


# -- Teleport --------------------------------------------------------------------------------------
def test_teleport_reaches_every_empty_space_up_to_4_away_and_pins_a_cooldown_of_5():
    s = position({"ann": ["wizard"], "bob": ["infantry"]}, {"u1": [0, 0], "u2": [-3, 0]})
    geo_board = {tuple(h) for h in s["scenario"]["midfield"]} | {
        tuple(h) for k in s["kingdoms"].values() for h in k["hexes"]
    }
    expected = {h for h in geo_board if 1 <= distance(h, (0, 0)) <= 4} - {(-3, 0)}
    listed = [tuple(m["target"]) for m in casts(s, "u1", "teleport")]
    assert set(listed) == expected and listed == sorted(expected)  # spaces by q, then r
    assert codes(s, cast("ann", "u1", "teleport", [-3, 0])) == ["bad_spell_target"]  # occupied
    assert codes(s, cast("ann", "u1", "teleport", [5, 0])) == ["bad_spell_target"]  # 5 away
    s, events = play(s, cast("ann", "u1", "teleport", [4, 0]))
    assert events == [
        {
            "type": "spell_cast",
            "player": "ann",
            "unit": "u1",
            "spell": "teleport",
            "target": [4, 0],
        },
        {"type": "teleported", "player": "ann", "unit": "u1", "from": [0, 0], "to": [4, 0]},
    ]
    assert s["units"]["u1"]["at"] == [4, 0]
    assert s["boards"]["ann"]["spells"] == [{"unit": "u1", "spell": "teleport", "left": 5}]
    assert codes(s, cast("ann", "u1", "teleport", [3, 0])) == ["spell_cooling_down"]


def test_teleport_is_ready_again_after_five_cooldown_phases():
    s = position({"ann": ["wizard"], "bob": ["infantry"]}, {"u1": [0, 0], "u2": [-3, 0]})
    s, _ = play(s, cast("ann", "u1", "teleport", [1, 0]))
    s, events = end_turns(
        s, "ann", "bob", "ann", "bob"
    )  # four Cooldown phases (every player's turn)
    assert of_type(events, "spell_ready") == [] and s["boards"]["ann"]["spells"][0]["left"] == 1
    assert codes(s, cast("ann", "u1", "teleport", [0, 0])) == ["spell_cooling_down"]
    s, events = end_turns(s, "ann")
    assert of_type(events, "spell_ready") == [
        {"type": "spell_ready", "player": "ann", "unit": "u1", "spell": "teleport"}
    ]
    assert s["boards"]["ann"]["spells"] == []
    s, _ = end_turns(s, "bob")
    assert casts(s, "u1", "teleport")


def test_teleport_does_not_stop_shooting_or_moving():
    # wizard range 4: bob's archer 6 away is out of range until the wizard teleports 2 closer
    s = position({"ann": ["wizard"], "bob": ["archer"]}, {"u1": [3, 0], "u2": [-3, 0]})
    s, _ = play(s, cast("ann", "u1", "teleport", [1, 0]))
    assert not s["units"]["u1"]["moved"]
    s2, events = play(s, move("ann", "attack", unit="u1", target="u2", mode="shoot"))
    assert of_type(events, "attacked")[0]["damage"] == 5 and of_type(events, "unit_destroyed")
    s3, events = play(s, move("ann", "move", unit="u1", to=[-1, 3]))
    assert s3["units"]["u1"]["at"] == [-1, 3] and s3["units"]["u1"]["steps"] == 3


def test_teleport_is_not_movement_onto_another_players_throne_but_may_end_on_ones_own():
    s = position(
        {"ann": ["wizard"], "bob": ["infantry"]},
        {"u1": [-4, 0], "u2": [-8, 1]},
        scenario="standard",
    )
    targets = {tuple(m["target"]) for m in casts(s, "u1", "teleport")}
    assert (-7, 0) not in targets and (-6, 0) in targets
    assert codes(s, cast("ann", "u1", "teleport", [-7, 0])) == ["bad_spell_target"]
    s = position(
        {"ann": ["wizard"], "bob": ["infantry"]}, {"u1": [4, 0], "u2": [-8, 1]}, scenario="standard"
    )
    assert codes(s, cast("ann", "u1", "teleport", [7, 0])) == []


def test_teleport_removes_ensnare():
    s = position({"ann": ["wizard"], "bob": ["infantry"]}, {"u1": [0, 0], "u2": [-3, 0]})
    s = with_units(s, u1={"ensnared": True})
    assert codes(s, move("ann", "move", unit="u1", to=[1, 0])) == ["ensnared"]
    s, _ = play(s, cast("ann", "u1", "teleport", [2, 0]))
    assert s["units"]["u1"]["ensnared"] is False
    s, _ = play(s, move("ann", "move", unit="u1", to=[3, -1]))


def test_teleport_answers_an_attack_on_the_unit_and_the_attack_does_nothing():
    s = position({"ann": ["knight"], "bob": ["wizard"]}, {"u1": [0, 0], "u2": [1, 0]})
    s, events = play(s, move("ann", "attack", unit="u1", target="u2", mode="melee"))
    assert s["active_players"] == ["bob"] and s["turn"] == "ann" and not of_type(events, "attacked")
    answers = [m for m in GAME.legal_moves(s) if m["type"] == "cast"]
    assert (
        answers
        and {m["unit"] for m in answers} == {"u2"}
        and all(m["spell"] == "teleport" for m in answers)
    )
    s, events = play(s, cast("bob", "u2", "teleport", [-3, 0]))
    assert [e["type"] for e in events] == ["spell_cast", "teleported", "attack_cancelled"]
    assert events[-1] == {
        "type": "attack_cancelled",
        "player": "ann",
        "unit": "u1",
        "target": "u2",
        "reason": "evaded",
    }
    assert s["units"]["u2"]["pins"] == 0 and s["units"]["u2"]["at"] == [-3, 0]
    assert s["boards"]["bob"]["spells"] == [{"unit": "u2", "spell": "teleport", "left": 5}]
    assert s["active_players"] == ["ann"] and s["pending"] is None
    assert s["units"]["u1"]["attacks"] == 1  # the attack was used


def test_teleport_answers_a_combat_spell_aimed_at_the_unit():
    s = position({"ann": ["battlemage"], "bob": ["wizard"]}, {"u1": [0, 0], "u2": [1, 0]})
    s, events = play(s, cast("ann", "u1", "blast", [1, 0]))
    assert s["active_players"] == ["bob"]
    # teleporting further along the Blast's line does not get it hit: it escaped the spell
    s, events = play(s, cast("bob", "u2", "teleport", [3, 0]))
    assert [e["type"] for e in events] == ["spell_cast", "teleported", "spell_hit_nothing"]
    assert s["units"]["u2"]["pins"] == 0


def test_an_attacked_unit_without_a_ready_teleport_is_not_asked():
    s = position(
        {"ann": ["knight"], "bob": ["wizard", "infantry"]},
        {"u1": [0, 0], "u2": [1, 0], "u3": [-3, 0]},
    )
    s["boards"]["bob"]["spells"].append({"unit": "u2", "spell": "teleport", "left": 3})
    s, events = play(s, move("ann", "attack", unit="u1", target="u2", mode="melee"))
    assert of_type(events, "attacked")[0]["damage"] == 4 and s["active_players"] == ["ann"]


# -- Healing ---------------------------------------------------------------------------------------
HEAL = {"ann": ["priest", "infantry", "shock_trooper", "mangonel"], "bob": ["infantry", "footman"]}
HEAL_AT = {"u1": [0, 0], "u2": [-1, 0], "u3": [0, 1], "u4": [0, -1], "u5": [1, 0], "u6": [2, 0]}


def test_healing_removes_two_pins_from_itself_or_an_adjacent_unit_of_any_side_cooldown_2():
    s = position(HEAL, HEAL_AT)
    s = with_units(
        s,
        u1={"pins": 1},
        u2={"pins": 1},
        u3={"pins": 2},
        u4={"pins": 2},
        u5={"pins": 3},
        u6={"pins": 3},
    )
    # not Mechanical (u3), not Siege (u4), not 2 spaces away (u6)
    assert {m["target"] for m in casts(s, "u1", "healing")} == {"u1", "u2", "u5"}
    assert codes(s, cast("ann", "u1", "healing", "u3")) == ["bad_spell_target"]
    assert codes(s, cast("ann", "u1", "healing", "u4")) == ["bad_spell_target"]
    assert codes(s, cast("ann", "u1", "healing", "u6")) == ["bad_spell_target"]
    s2, events = play(s, cast("ann", "u1", "healing", "u5"))
    assert of_type(events, "healed") == [
        {
            "type": "healed",
            "player": "ann",
            "unit": "u5",
            "owner": "bob",
            "pins_removed": 2,
            "pins": 1,
        }
    ]
    assert s2["boards"]["ann"]["spells"] == [{"unit": "u1", "spell": "healing", "left": 2}]
    s3, events = play(s, cast("ann", "u1", "healing", "u1"))
    assert of_type(events, "healed")[0]["pins_removed"] == 1 and s3["units"]["u1"]["pins"] == 0


def test_healing_a_unit_without_pins_is_refused():
    s = position(HEAL, HEAL_AT)
    assert casts(s, "u1", "healing") == []
    assert codes(s, cast("ann", "u1", "healing", "u2")) == ["bad_spell_target"]


def test_healing_with_cure_removes_ensnare_and_does_not_heal():
    s = position(HEAL, HEAL_AT)
    s = with_units(s, u2={"pins": 3, "ensnared": True})
    assert {(m["target"], m.get("cure", False)) for m in casts(s, "u1", "healing")} == {
        ("u2", False),
        ("u2", True),
    }
    s, events = play(s, cast("ann", "u1", "healing", "u2", cure=True))
    assert of_type(events, "cured") == [
        {"type": "cured", "player": "ann", "unit": "u2", "owner": "ann"}
    ]
    assert s["units"]["u2"]["ensnared"] is False and s["units"]["u2"]["pins"] == 3
    assert codes(s, move("ann", "move", unit="u2", to=[-2, 0])) == []
    s = position(HEAL, HEAL_AT)
    s = with_units(s, u2={"pins": 3})
    assert codes(s, cast("ann", "u1", "healing", "u2", cure=True)) == [
        "bad_spell_target"
    ]  # nothing to cure
    assert codes(s, cast("ann", "u1", "healing", "u2", cure=False)) == []


# -- Combat spells ---------------------------------------------------------------------------------
def test_blast_deals_5_to_every_unit_within_3_in_a_straight_line_allies_included():
    s = position(
        {"ann": ["battlemage", "infantry", "footman"], "bob": ["infantry", "archer", "footman"]},
        {"u1": [0, 0], "u4": [1, 0], "u2": [2, 0], "u5": [3, 0], "u3": [-1, 0], "u6": [4, 0]},
    )
    s, events = play(s, cast("ann", "u1", "blast", [1, 0]))
    hits = {e["target"]: e["damage"] for e in of_type(events, "spell_hit")}
    assert hits == {"u4": 5 - 2, "u2": 5 - 3, "u5": 5}  # not u3 behind the caster, not u6 4 away
    assert [e["unit"] for e in of_type(events, "unit_destroyed")] == ["u5"]  # archer hp 5
    assert s["units"]["u4"]["pins"] == 3 and s["units"]["u2"]["pins"] == 2
    assert s["boards"]["ann"]["spells"] == [{"unit": "u1", "spell": "blast", "left": 4}]


def test_cone_deals_4_to_the_target_and_the_3_spaces_behind_it():
    s = position(
        {
            "ann": ["assault", "footman"],
            "bob": ["infantry", "footman", "archer", "infantry", "infantry"],
        },
        {
            "u1": [0, 0],
            "u2": [1, 1],
            "u3": [1, 0],
            "u4": [2, 0],
            "u5": [2, -1],
            "u6": [0, 1],
            "u7": [3, 0],
        },
    )
    s, events = play(s, cast("ann", "u1", "cone", [1, 0]))
    hits = {e["target"]: e["damage"] for e in of_type(events, "spell_hit")}
    assert hits == {"u3": 4 - 2, "u4": 4 - 1, "u5": 4, "u2": 4 - 1}  # not u6 beside, not u7 3 away


def test_arc_deals_4_to_the_target_and_the_2_spaces_next_to_both_it_and_the_caster():
    s = position(
        {"ann": ["shock_trooper", "footman"], "bob": ["infantry", "archer", "footman"]},
        {"u1": [0, 0], "u2": [0, 1], "u3": [1, 0], "u4": [1, -1], "u5": [2, 0]},
    )
    s, events = play(s, cast("ann", "u1", "arc", [1, 0]))
    hits = {e["target"]: e["damage"] for e in of_type(events, "spell_hit")}
    assert hits == {"u3": 4 - 2, "u4": 4, "u2": 4 - 1}


def test_a_combat_spell_is_the_units_attack_for_the_turn():
    s = position(
        {"ann": ["shock_trooper"], "bob": ["infantry", "infantry"]},
        {"u1": [0, 0], "u2": [1, 0], "u3": [-1, 0]},
    )
    s2, _ = play(s, cast("ann", "u1", "arc", [1, 0]))
    assert s2["units"]["u1"]["attacked"] and s2["units"]["u1"]["mode"] == "spell"
    # Double Attack allows a second attack of the same type only: no melee after the Arc
    assert codes(s2, move("ann", "attack", unit="u1", target="u3", mode="melee")) == [
        "one_attack_type"
    ]
    s3, _ = play(
        s, move("ann", "attack", unit="u1", target="u3", mode="melee"), move("bob", "pass")
    )
    assert casts(s3, "u1", "arc") == []
    assert codes(s3, cast("ann", "u1", "arc", [1, 0])) == ["cannot_attack"]


def test_a_combat_spell_cannot_be_cast_after_moving_on_to_another_unit():
    s = position(
        {"ann": ["battlemage", "infantry"], "bob": ["infantry"]},
        {"u1": [0, 0], "u2": [-2, 0], "u3": [3, 0]},
    )
    s, _ = play(
        s, move("ann", "move", unit="u1", to=[1, 0]), move("ann", "move", unit="u2", to=[-1, 0])
    )
    assert codes(s, cast("ann", "u1", "blast", [2, 0])) == ["unit_done"]


def test_a_combat_spell_is_ready_again_after_its_cooldown():
    s = position({"ann": ["battlemage"], "bob": ["infantry"]}, {"u1": [0, 0], "u2": [-3, 0]})
    s, _ = play(s, cast("ann", "u1", "blast", [1, 0]))
    s, events = end_turns(s, "ann", "bob")  # two Cooldown phases: 2 left
    assert of_type(events, "spell_ready") == [] and s["boards"]["ann"]["spells"][0]["left"] == 2
    assert codes(s, cast("ann", "u1", "blast", [1, 0])) == ["spell_cooling_down"]
    s, events = end_turns(s, "ann", "bob")
    assert of_type(events, "spell_ready") == [
        {"type": "spell_ready", "player": "ann", "unit": "u1", "spell": "blast"}
    ]
    assert codes(s, cast("ann", "u1", "blast", [1, 0])) == []


def test_a_combat_spell_targets_an_adjacent_stealth_unit_only_if_engaged_since_turn_start():
    s = position({"ann": ["battlemage"], "bob": ["assassin"]}, {"u1": [0, 0], "u2": [1, 0]})
    assert [1, 0] in [m["target"] for m in casts(s, "u1", "blast")]
    s = position({"ann": ["battlemage"], "bob": ["assassin"]}, {"u1": [-1, 0], "u2": [1, 0]})
    s, _ = play(s, move("ann", "move", unit="u1", to=[0, 0]))
    assert codes(s, cast("ann", "u1", "blast", [1, 0])) == ["bad_spell_target"]


# -- Silence ---------------------------------------------------------------------------------------
def test_no_spell_can_be_cast_from_within_an_enemy_silence():
    s = position({"ann": ["battlemage"], "bob": ["warder"]}, {"u1": [0, 0], "u2": [-3, 0]})
    assert casts(s, "u1", "blast") == []
    assert codes(s, cast("ann", "u1", "blast", [1, 0])) == ["silenced"]


def test_no_spell_can_be_cast_into_an_enemy_silence_but_the_area_reaches_in():
    s = position(
        {"ann": ["battlemage", "priest", "infantry"], "bob": ["warder", "infantry"]},
        {"u1": [1, 0], "u2": [1, -1], "u3": [0, 0], "u4": [-3, 0], "u5": [-1, 0]},
    )
    s = with_units(s, u3={"pins": 2})
    # [0,0] is 3 from the Warder: the Blast may not be aimed there, nor the Healing cast on u3
    assert codes(s, cast("ann", "u1", "blast", [0, 0])) == ["silenced"]
    assert codes(s, cast("ann", "u2", "healing", "u3")) == ["silenced"]
    assert codes(s, cast("ann", "u2", "healing", "u2")) == ["bad_spell_target"]
    s = position(
        {"ann": ["battlemage"], "bob": ["warder", "infantry"]},
        {"u1": [3, 0], "u2": [-3, 0], "u3": [0, 0]},
    )
    s, events = play(s, cast("ann", "u1", "blast", [2, 0]))
    assert {e["target"]: e["damage"] for e in of_type(events, "spell_hit")} == {"u3": 5 - 2}


def test_ones_own_silence_does_not_stop_ones_spells():
    s = position(
        {"ann": ["battlemage", "warder"], "bob": ["infantry"]},
        {"u1": [0, 0], "u2": [-1, 0], "u3": [1, 0]},
    )
    s, events = play(s, cast("ann", "u1", "blast", [1, 0]))
    assert of_type(events, "spell_hit")[0]["damage"] == 5 - 2


def test_teleport_is_stopped_by_silence():
    # bob's wizard is 3 from ann's Warder: it cannot teleport away, so bob is not even asked
    s = position(
        {"ann": ["knight", "warder"], "bob": ["wizard", "infantry"]},
        {"u1": [0, 0], "u2": [-2, 0], "u3": [1, 0], "u4": [-3, 3]},
        scenario=BIG,
    )
    s, events = play(s, move("ann", "attack", unit="u1", target="u3", mode="melee"))
    assert of_type(events, "attacked")[0]["damage"] == 4 and s["active_players"] == ["ann"]


# -- Castle ----------------------------------------------------------------------------------------
def test_no_area_of_effect_spell_is_cast_from_outside_into_a_castle_and_the_area_stops_at_it():
    # bob's Castle: [-8,0] [-8,1] [-7,-1] [-7,0] [-7,1] [-6,-1] [-6,0]; the Cone from [-5,0] at
    # [-5,-1] covers [-5,-1] and the spaces behind it on the board: [-5,-2] and [-6,-1] (Castle)
    s = position(
        {"ann": ["assault"], "bob": ["infantry", "infantry", "infantry"]},
        {"u1": [-5, 0], "u2": [-5, -1], "u3": [-6, -1], "u4": [-5, -2]},
        scenario="standard",
    )
    assert codes(s, cast("ann", "u1", "cone", [-6, 0])) == ["bad_spell_target"]
    assert [m["target"] for m in casts(s, "u1", "cone")] == [
        [-6, 1],
        [-5, -1],
        [-4, 0],
    ]  # not [-6, 0]
    s, events = play(s, cast("ann", "u1", "cone", [-5, -1]))
    assert {e["target"]: e["damage"] for e in of_type(events, "spell_hit")} == {
        "u2": 4 - 2,
        "u4": 4 - 2,
    }
    assert s["units"]["u3"]["pins"] == 0


def test_area_of_effect_spells_may_be_cast_from_inside_a_castle_out():
    s = position(
        {"ann": ["assault"], "bob": ["infantry", "infantry", "infantry"]},
        {"u1": [-7, -1], "u2": [-6, -1], "u3": [-5, -1], "u4": [-6, 0]},
        scenario="standard",
    )
    s, events = play(s, cast("ann", "u1", "cone", [-6, -1]))
    hits = {e["target"]: e["damage"] for e in of_type(events, "spell_hit")}
    assert hits == {"u2": 4 - 2 - 1, "u3": 4 - 2, "u4": 4 - 2 - 1}  # +1 defence in the Castle


# -- Counterspell and the answer stack -------------------------------------------------------------
def test_counterspell_is_only_an_answer():
    s = position({"ann": ["warder"], "bob": ["infantry"]}, {"u1": [0, 0], "u2": [-3, 0]})
    assert casts(s, "u1", "counterspell") == []
    assert codes(s, cast("ann", "u1", "counterspell", [1, 0])) == ["counterspell_is_an_answer"]


def test_counterspell_stops_a_spell_and_both_casters_keep_their_cooldown():
    s = position(
        {"ann": ["battlemage"], "bob": ["infantry", "warder"]},
        {"u1": [0, 0], "u2": [1, 0], "u3": [-4, 0]},
        scenario=BIG,
    )
    s, events = play(s, cast("ann", "u1", "blast", [1, 0]))
    assert s["active_players"] == ["bob"] and s["pending"] is not None
    answer = [m for m in GAME.legal_moves(s) if m["type"] == "cast"]
    assert answer == [cast("bob", "u3", "counterspell", [1, 0])]
    s, events = play(s, answer[0])
    assert [e["type"] for e in events] == ["spell_cast", "spell_countered"]
    assert events[1] == {
        "type": "spell_countered",
        "player": "bob",
        "unit": "u3",
        "countered": {"kind": "spell", "player": "ann", "unit": "u1", "spell": "blast"},
    }
    assert s["units"]["u2"]["pins"] == 0
    assert s["boards"]["ann"]["spells"] == [{"unit": "u1", "spell": "blast", "left": 4}]
    assert s["boards"]["bob"]["spells"] == [{"unit": "u3", "spell": "counterspell", "left": 5}]
    assert s["units"]["u1"]["attacked"] and s["active_players"] == ["ann"] and s["pending"] is None


def test_counterspell_reaches_4_from_the_caster_or_from_the_target():
    lists = {"ann": ["battlemage"], "bob": ["infantry", "warder"]}
    # 4 from the target [1,0], 5 from the caster
    s = position(lists, {"u1": [0, 0], "u2": [-3, 0], "u3": [5, 0]}, scenario=BIG)
    s, _ = play(s, cast("ann", "u1", "blast", [1, 0]))
    assert s["active_players"] == ["bob"]
    # 5 from both: nobody can answer, the spell takes effect at once
    s = position(lists, {"u1": [0, 0], "u2": [2, 0], "u3": [-5, 0]}, scenario=BIG)
    s, events = play(s, cast("ann", "u1", "blast", [1, 0]))
    assert s["pending"] is None and s["active_players"] == ["ann"]
    assert [e["type"] for e in events] == ["spell_cast", "spell_hit"] and events[1][
        "damage"
    ] == 5 - 2


def test_a_counterspell_can_be_counterspelled():
    s = position(
        {"ann": ["battlemage", "warder"], "bob": ["infantry", "warder"]},
        {"u1": [0, 0], "u2": [1, -4], "u3": [1, 0], "u4": [-4, 0]},
        scenario=BIG,
    )
    # ann's Warder: 4 from the target (the counterspell's too), 5 from bob's Warder (whose own
    # Silence keeps it from being targeted at bob's Warder)
    s, _ = play(s, cast("ann", "u1", "blast", [1, 0]), cast("bob", "u4", "counterspell", [1, 0]))
    assert s["active_players"] == ["ann"] and len(s["pending"]["stack"]) == 2
    assert [m for m in GAME.legal_moves(s) if m["type"] == "cast"] == [
        cast("ann", "u2", "counterspell", [1, 0])
    ]
    s, events = play(s, cast("ann", "u2", "counterspell", [1, 0]))
    assert [e["type"] for e in events] == ["spell_cast", "spell_countered", "spell_hit"]
    assert events[1]["countered"] == {
        "kind": "spell",
        "player": "bob",
        "unit": "u4",
        "spell": "counterspell",
    }
    assert events[2]["target"] == "u3" and events[2]["damage"] == 5 - 2
    assert s["boards"]["bob"]["spells"] == [{"unit": "u4", "spell": "counterspell", "left": 5}]
    assert {(e["unit"], e["spell"]) for e in s["boards"]["ann"]["spells"]} == {
        ("u1", "blast"),
        ("u2", "counterspell"),
    }


def test_counterspell_can_be_cast_near_another_warder_because_the_silences_cancel():
    # bob's Warder 2 from ann's Warder: both Silences are lost, so it may cast
    s = position(
        {"ann": ["battlemage", "warder"], "bob": ["infantry", "warder"]},
        {"u1": [0, 0], "u2": [-4, 2], "u3": [1, 0], "u4": [-4, 0]},
        scenario=BIG,
    )
    s, _ = play(s, cast("ann", "u1", "blast", [1, 0]))
    assert [m for m in GAME.legal_moves(s) if m["type"] == "cast"] == [
        cast("bob", "u4", "counterspell", [1, 0])
    ]


def test_a_counterspell_may_not_be_cast_into_an_enemy_silence():
    # ann's Warder stands 1 from the Blast's caster and from its target, 5 from bob's Warder
    s = position(
        {"ann": ["battlemage", "warder"], "bob": ["infantry", "warder"]},
        {"u1": [0, 0], "u2": [1, -1], "u3": [1, 0], "u4": [-4, 0]},
        scenario=BIG,
    )
    s, events = play(s, cast("ann", "u1", "blast", [1, 0]))
    assert s["pending"] is None and of_type(events, "spell_hit")[0]["damage"] == 5 - 2
    # ann's Warder 3 from the target but 4 from the caster: bob may cast it at the caster
    s = position(
        {"ann": ["battlemage", "warder"], "bob": ["infantry", "warder"]},
        {"u1": [0, 0], "u2": [4, -1], "u3": [1, 0], "u4": [-4, 0]},
        scenario=BIG,
    )
    s, events = play(s, cast("ann", "u1", "blast", [1, 0]))
    assert s["active_players"] == ["bob"]
    assert [m["unit"] for m in GAME.legal_moves(s) if m["type"] == "cast"] == ["u4"]


def test_answers_are_asked_in_seat_order_from_the_declarers_left_each_once():
    lists = {"ann": ["battlemage"], "bob": ["infantry", "warder"], "cat": ["warder"]}
    # bob's and cat's Warders, 2 apart, cancel each other's Silence; both 4 from ann's caster
    s = position(lists, {"u1": [0, 0], "u2": [1, 0], "u3": [-4, 0], "u4": [-4, 2]}, scenario=BIG)
    s, _ = play(s, cast("ann", "u1", "blast", [1, 0]))
    assert s["active_players"] == ["bob"]
    assert GAME.legal_moves(s, "cat") == [] and GAME.legal_moves(s, "ann") == []
    s, events = play(s, PASS_BOB)
    assert events == [{"type": "passed", "player": "bob"}] and s["active_players"] == ["cat"]
    s, events = play(s, cast("cat", "u4", "counterspell", [1, 0]))
    # cat's counterspell is a new declaration: asked from cat's left, ann (nothing) then bob
    assert s["active_players"] == ["bob"] and len(s["pending"]["stack"]) == 2
    s, events = play(s, PASS_BOB)
    assert [e["type"] for e in events] == ["passed", "spell_countered"]
    assert s["active_players"] == ["ann"] and s["pending"] is None and s["turn"] == "ann"
    assert s["units"]["u2"]["pins"] == 0


def test_only_answers_or_pass_while_a_declaration_waits():
    s = position(
        {"ann": ["knight"], "bob": ["wizard", "infantry"]},
        {"u1": [0, 0], "u2": [1, 0], "u3": [-3, 0]},
    )
    s, _ = play(s, move("ann", "attack", unit="u1", target="u2", mode="melee"))
    assert codes(s, move("bob", "move", unit="u3", to=[-2, 0])) == ["answer_pending"]
    assert codes(s, move("ann", "end_turn")) == ["not_your_turn"]
    assert codes(s, cast("bob", "u2", "teleport", [0, 0])) == ["bad_answer"]  # taken
    assert codes(s, move("bob", "counterattack", unit="u2")) == ["bad_answer"]  # no Counterattack
    assert codes(s, move("bob", "pass")) == []


def test_a_teleport_answer_can_be_counterspelled_and_the_attack_then_hits():
    # ann's Warder is 4 from bob's wizard: outside its Silence, within Counterspell range
    s = position(
        {"ann": ["knight", "warder"], "bob": ["wizard", "infantry"]},
        {"u1": [0, 0], "u2": [-3, 0], "u3": [1, 0], "u4": [-3, 3]},
    )
    s, _ = play(
        s,
        move("ann", "attack", unit="u1", target="u3", mode="melee"),
        cast("bob", "u3", "teleport", [4, 0]),
    )
    assert s["active_players"] == ["ann"] and s["units"]["u3"]["at"] == [1, 0]
    s, events = play(s, cast("ann", "u2", "counterspell", [1, 0]))
    assert [e["type"] for e in events] == [
        "spell_cast",
        "spell_countered",
        "attacked",
        "unit_destroyed",
    ]
    assert events[1]["countered"] == {
        "kind": "spell",
        "player": "bob",
        "unit": "u3",
        "spell": "teleport",
    }
    assert events[2]["damage"] == 4 and "u3" not in s["units"]
    assert s["boards"]["ann"]["spells"] == [{"unit": "u2", "spell": "counterspell", "left": 5}]
    assert s["active_players"] == ["ann"] and s["pending"] is None


def test_healing_cannot_single_out_an_enemy_stealth_unit_it_is_not_engaged_with():
    # seed, Stealth: "it cannot specifically target stealthed unit"; before, a Priest that had
    # just stepped next to an enemy Assassin (not engaged since the start of the turn) could heal it
    s = position(
        {"ann": ["priest"], "bob": ["assassin"]},
        {"u1": [-2, 0], "u2": [1, 0]},
        armies={"ann": "resistance", "bob": "demon"},
    )
    s = clone(s)
    s["units"]["u2"]["pins"] = 2
    s, _ = play(s, move("ann", "move", unit="u1", to=[0, 0]))
    heal = move("ann", "cast", unit="u1", spell="healing", target="u2")
    assert heal not in GAME.legal_moves(s, "ann")
    assert codes(s, heal) == ["bad_spell_target"]
    engaged = position(  # next to each other since the start of the turn: engaged
        {"ann": ["priest"], "bob": ["assassin"]},
        {"u1": [0, 0], "u2": [1, 0]},
        armies={"ann": "resistance", "bob": "demon"},
    )
    engaged = clone(engaged)
    engaged["units"]["u2"]["pins"] = 2
    assert heal in GAME.legal_moves(engaged, "ann") and codes(engaged, heal) == []
