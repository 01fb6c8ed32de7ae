"""Special abilities (rules doc §Special abilities; seed: Special Abilities, Special Rule
Terminology - Move Freely; the Siege, Mechanical and Packed kinds).

Statistics used (defaults, ann = Resistance, bob = Greenskin):
ann  knight atk 4 def 2 hp 8 (Charging); footman atk 3 def 1 (Ensnare); cavalry atk 3 def 0 mv 6
     (Flanking); skirmisher atk 2 range 3 mv 5 (Shooting, Flanking); archer atk 3 range 6 (Double
     Attack); general atk 3 def 1 hp 8 (Command, Knockback); assassin atk 4 def 0 (Stealth);
     mangonel atk 4 range 5 (Siege, Volley); enchanter (Enchant).
bob  infantry atk 4 def 2 hp 10 (Counterattack); footman atk 3 def 1 hp 8; knight atk 5 def 1 hp 8;
     cavalry def 0 hp 7; archer def 0 hp 5; assassin def 0 hp 5 (Stealth); shock_trooper def 2
     hp 10 (Mechanical); trebuchet def 0 hp 6 (Siege, Packed); wizard (Teleport).
"""

from __future__ import annotations

import copy
import json

from rs_helpers import attacks, codes, destinations, move, of_type, play, position, refresh

from rules.reign_supreme import GAME
from rules.reign_supreme.auras import engaged_pairs
from rules.reign_supreme.board import geometry, occupancy
from rules.reign_supreme.combat import offence_modifiers
from rules.reign_supreme.content import default_armies
from rules.reign_supreme.state import clone

PASS = {"player": "bob", "type": "pass"}


def atk(unit: str, target: str, mode: str = "melee", player: str = "ann", **flags: bool) -> dict:
    return move(player, "attack", unit=unit, target=target, mode=mode, **flags)


def at_start(s: dict) -> dict:
    """The position as if the turn had started with every unit where it stands (who is engaged in
    melee since the start of the turn)."""
    s = clone(s)
    s["engaged"] = engaged_pairs(s, occupancy(s))
    refresh(s)
    GAME.check_state(s)
    return s


def pos(lists: dict, at: dict, **options) -> dict:
    return at_start(position(lists, at, **options))


def roster(army: str, **changes: dict) -> dict:
    """``options.rosters`` entry: the default ``army`` with some unit types' fields replaced."""
    units = copy.deepcopy(default_armies()[army]["units"])
    for utype, fields in changes.items():
        units[utype].update(fields)
    return {army: {"title": army, "units": units}}


def end_turns(s: dict, *players: str) -> dict:
    for p in players:
        s, _ = play(s, move(p, "end_turn"))
    return s


def at(s: dict, uid: str) -> list[int]:
    return s["units"][uid]["at"]


# -- Counterattack ---------------------------------------------------------------------------------
def test_counterattack_is_offered_to_the_attacked_units_owner_and_worked_out_before_the_attack():
    s = pos({"ann": ["knight"], "bob": ["infantry"]}, {"u1": [0, 0], "u2": [1, 0]})
    s, events = play(s, atk("u1", "u2"))
    assert of_type(events, "attacked") == []
    assert s["active_players"] == ["bob"] and s["turn"] == "ann"
    assert GAME.legal_moves(s, "bob") == [
        {"player": "bob", "type": "counterattack", "unit": "u2"},
        PASS,
        {"player": "bob", "type": "concede"},
    ]
    assert codes(s, move("ann", "end_turn")) == ["not_your_turn"]
    s, events = play(s, move("bob", "counterattack", unit="u2"))
    assert [e["type"] for e in events if e["type"] in ("counterattacked", "attacked")] == [
        "counterattacked",
        "attacked",
    ]
    [c] = of_type(events, "counterattacked")
    # 4 - armour 2 = 2 on the knight; then the knight's 4 - 2 = 2 on the infantry
    assert (c["unit"], c["target"], c["damage"], c["pins"], c["hp"]) == ("u2", "u1", 2, 2, 8)
    assert of_type(events, "attacked")[0]["damage"] == 2
    assert s["units"]["u1"]["pins"] == 2 and s["units"]["u2"]["pins"] == 2
    assert (
        s["units"]["u2"]["countered"] is True
        and s["active_players"] == ["ann"]
        and s["pending"] is None
    )


def test_a_passed_counterattack_leaves_only_the_attack():
    s = pos({"ann": ["knight"], "bob": ["infantry"]}, {"u1": [0, 0], "u2": [1, 0]})
    s, events = play(s, atk("u1", "u2"), PASS)
    assert of_type(events, "counterattacked") == []
    assert s["units"]["u1"]["pins"] == 0 and s["units"]["u2"]["pins"] == 2
    assert s["units"]["u2"]["countered"] is False


def test_an_attacker_killed_by_the_counterattack_does_no_damage():
    s = pos({"ann": ["knight"], "bob": ["infantry"]}, {"u1": [0, 0], "u2": [1, 0]})
    s["units"]["u1"]["pins"] = 6  # 2 hit points left; the counterattack deals 2
    s, events = play(s, atk("u1", "u2"), move("bob", "counterattack", unit="u2"))
    assert [e["unit"] for e in of_type(events, "unit_destroyed")] == ["u1"]
    assert of_type(events, "attack_cancelled") == [
        {
            "type": "attack_cancelled",
            "player": "ann",
            "unit": "u1",
            "target": "u2",
            "reason": "attacker_gone",
        }
    ]
    assert of_type(events, "attacked") == []
    assert "u1" not in s["units"] and s["units"]["u2"]["pins"] == 0


def test_counterattack_once_per_turn_and_again_next_turn():
    s = pos(
        {"ann": ["knight", "footman"], "bob": ["infantry"]},
        {"u1": [0, 0], "u2": [1, -1], "u3": [1, 0]},
    )
    s, _ = play(s, atk("u1", "u3"), move("bob", "counterattack", unit="u3"))
    s, events = play(s, atk("u2", "u3"))  # asks nobody: the Counterattack is used for this turn
    assert s["pending"] is None and s["active_players"] == ["ann"]
    assert of_type(events, "attacked")[0]["damage"] == 3 - 2
    s = end_turns(s, "ann", "bob")
    assert s["units"]["u3"]["countered"] is False
    s, _ = play(s, atk("u1", "u3"))
    assert s["active_players"] == ["bob"]
    assert {"player": "bob", "type": "counterattack", "unit": "u3"} in GAME.legal_moves(s)


def test_no_counterattack_against_shooting():
    s = pos({"ann": ["archer"], "bob": ["infantry"]}, {"u1": [0, 0], "u2": [3, 0]})
    s, events = play(s, atk("u1", "u2", "shoot"))
    assert s["pending"] is None and of_type(events, "counterattacked") == []
    assert of_type(events, "attacked")[0]["damage"] == 3 - 2


def test_no_counterattack_against_a_shot_even_within_its_reach():
    """bob's Infantry, next to bob's Enchanter, could melee at 2 spaces; a shot from 2 spaces is
    still not answered."""
    s = pos(
        {"ann": ["archer"], "bob": ["infantry", "enchanter"]},
        {"u1": [0, 0], "u2": [2, 0], "u3": [3, 0]},
    )
    s, events = play(s, atk("u1", "u2", "shoot"))
    assert s["pending"] is None and of_type(events, "counterattacked") == []


def test_a_counterattack_gets_no_charging_bonus():
    """A custom Greenskin Knight with Counterattack charged up to ann's Knight in bob's turn
    without attacking; when ann attacks it, its counterattack is a plain 5 - 2."""
    rosters = roster("greenskin", knight={"abilities": ["charging", "counterattack"]})
    s = pos({"ann": ["knight"], "bob": ["knight"]}, {"u1": [0, 0], "u2": [-3, 0]}, rosters=rosters)
    s = end_turns(s, "ann")
    s, _ = play(s, move("bob", "move", unit="u2", to=[-1, 0]), move("bob", "end_turn"))
    assert s["units"]["u2"]["charge"] is True and s["units"]["u2"]["steps"] == 2
    s, events = play(s, atk("u1", "u2"), move("bob", "counterattack", unit="u2"))
    [c] = of_type(events, "counterattacked")
    assert c["offence"] == [] and c["damage"] == 5 - 2


def test_a_counterattack_does_not_ensnare():
    """Ensnare is an Offensive Ability ("only during your combat phase"): a custom Greenskin
    Footman with Counterattack and Ensnare does not ensnare the unit it counterattacks."""
    rosters = roster("greenskin", footman={"abilities": ["ensnare", "counterattack"]})
    s = pos({"ann": ["knight"], "bob": ["footman"]}, {"u1": [0, 0], "u2": [1, 0]}, rosters=rosters)
    s, events = play(s, atk("u1", "u2"), move("bob", "counterattack", unit="u2"))
    assert of_type(events, "counterattacked")[0]["damage"] == 3 - 2
    assert of_type(events, "ensnared") == [] and s["units"]["u1"]["ensnared"] is False


def test_no_counterattack_while_packed():
    """A custom Counterattack unit of the Packed kind counterattacks only once unpacked."""
    rosters = roster("greenskin", infantry={"kinds": ["packed"]})
    s = pos({"ann": ["knight"], "bob": ["infantry"]}, {"u1": [0, 0], "u2": [1, 0]}, rosters=rosters)
    assert s["units"]["u2"]["packing"] == "packed"
    s1, _ = play(s, atk("u1", "u2"))
    assert s1["pending"] is None and s1["units"]["u2"]["pins"] == 2
    s["units"]["u2"]["packing"] = "unpacked"
    s2, _ = play(s, atk("u1", "u2"))
    assert s2["active_players"] == ["bob"]
    assert {"player": "bob", "type": "counterattack", "unit": "u2"} in GAME.legal_moves(s2)


def test_no_counterattack_against_a_stealth_attacker():
    s = pos({"ann": ["assassin"], "bob": ["infantry"]}, {"u1": [0, 0], "u2": [1, 0]})
    s, events = play(s, atk("u1", "u2"))
    assert s["pending"] is None and of_type(events, "attacked")[0]["damage"] == 4 - 2


def test_counterattack_reaches_two_spaces_only_in_an_enchant_aura():
    """ann's Knight, next to ann's Enchanter, attacks at 2 spaces; bob's Infantry can answer only
    when bob's own Enchanter stands next to it."""
    where = {"u1": [0, 0], "u2": [-1, 0], "u3": [2, 0], "u4": [3, -1]}
    s = pos({"ann": ["knight", "enchanter"], "bob": ["infantry", "enchanter"]}, where)
    assert ("u3", "melee") in attacks(s, "u1")
    s, events = play(s, atk("u1", "u3"), move("bob", "counterattack", unit="u3"))
    assert of_type(events, "counterattacked")[0]["damage"] == 4 - 2
    far = dict(where, u4=[3, -3])  # bob's Enchanter out of reach of its Infantry
    s = pos({"ann": ["knight", "enchanter"], "bob": ["infantry", "enchanter"]}, far)
    s, events = play(s, atk("u1", "u3"))
    assert s["pending"] is None and of_type(events, "counterattacked") == []


def test_counterattack_is_one_attack_even_for_a_double_attacker():
    rosters = roster("greenskin", infantry={"abilities": ["counterattack", "double_attack"]})
    s = pos({"ann": ["knight"], "bob": ["infantry"]}, {"u1": [0, 0], "u2": [1, 0]}, rosters=rosters)
    s, events = play(s, atk("u1", "u2"), move("bob", "counterattack", unit="u2"))
    assert len(of_type(events, "counterattacked")) == 1
    assert s["units"]["u1"]["pins"] == 4 - 2


# -- Ensnare ---------------------------------------------------------------------------------------
def test_ensnare_stops_the_target_moving_in_its_owners_next_turn_only():
    s = pos({"ann": ["footman"], "bob": ["knight"]}, {"u1": [0, 0], "u2": [1, 0]})
    s, events = play(s, atk("u1", "u2"))
    assert of_type(events, "ensnared") == [
        {"type": "ensnared", "player": "ann", "unit": "u2", "owner": "bob"}
    ]
    assert of_type(events, "attacked")[0]["damage"] == 3 - 1
    s, events = play(s, move("ann", "end_turn"))
    assert of_type(events, "ensnare_ended") == []  # ends with bob's turn, not ann's
    assert codes(s, move("bob", "move", unit="u2", to=[2, 0])) == ["ensnared"]
    assert destinations(s, "u2") == set()
    assert attacks(s, "u2") == {("u1", "melee")}  # it may still attack
    s, events = play(s, move("bob", "end_turn"))
    assert of_type(events, "ensnare_ended") == [
        {"type": "ensnare_ended", "player": "bob", "unit": "u2"}
    ]
    s = end_turns(s, "ann")
    assert (
        s["units"]["u2"]["ensnared"] is False
        and codes(s, move("bob", "move", unit="u2", to=[2, 0])) == []
    )


def test_ensnares_end_in_unit_id_order_whatever_the_key_order():
    """Two of ann's units ensnared at once, ``u9`` and ``u10``: their ``ensnare_ended`` events
    come in unit-id order, also from a state with sorted keys (``u10`` before ``u9``), as a
    session stores it; before, they came in key order, and the honest game's record failed its
    replay."""
    s = pos({"bob": ["infantry"] * 6, "ann": ["footman"] * 6}, {})  # bob u1-u6, ann u7-u12
    for uid in ("u9", "u10"):
        assert s["units"][uid]["owner"] == "ann"
        s["units"][uid]["ensnared"] = True
    expected = [{"type": "ensnare_ended", "player": "ann", "unit": uid} for uid in ("u9", "u10")]
    for state in (s, json.loads(json.dumps(s, sort_keys=True))):
        _, events = play(state, move("ann", "end_turn"))
        assert of_type(events, "ensnare_ended") == expected


def test_knockback_removes_ensnare():
    s = pos(
        {"ann": ["footman", "general"], "bob": ["knight"]},
        {"u1": [0, 0], "u2": [1, -1], "u3": [1, 0]},
    )
    s, _ = play(s, atk("u1", "u3"))
    assert s["units"]["u3"]["ensnared"] is True
    s, events = play(s, atk("u2", "u3", knockback=True))
    assert of_type(events, "knocked_back")[0]["to"] == [1, 1]
    assert s["units"]["u3"]["ensnared"] is False


def test_teleport_removes_ensnare_and_the_unit_may_move_again():
    s = pos({"ann": ["footman"], "bob": ["wizard"]}, {"u1": [0, 0], "u2": [1, 0]})
    s, _ = play(s, atk("u1", "u2"), PASS)  # bob could have teleported away instead
    assert s["units"]["u2"]["ensnared"] is True
    s = end_turns(s, "ann")
    assert codes(s, move("bob", "move", unit="u2", to=[2, 0])) == ["ensnared"]
    s, _ = play(s, move("bob", "cast", unit="u2", spell="teleport", target=[3, -2]))
    assert s["units"]["u2"]["ensnared"] is False and at(s, "u2") == [3, -2]
    assert codes(s, move("bob", "move", unit="u2", to=[3, -1])) == []


def test_a_stealth_unit_is_not_ensnared():
    s = pos({"ann": ["footman"], "bob": ["assassin"]}, {"u1": [0, 0], "u2": [1, 0]})
    s, events = play(s, atk("u1", "u2"))
    assert of_type(events, "ensnared") == [] and s["units"]["u2"]["ensnared"] is False
    assert s["units"]["u2"]["pins"] == 3


# -- Charging --------------------------------------------------------------------------------------
def test_charging_adds_one_after_moving_up_to_the_target():
    s = pos({"ann": ["knight"], "bob": ["footman"]}, {"u1": [-3, 0], "u2": [1, 0]})
    s, events = play(s, move("ann", "move", unit="u1", to=[0, 0]), atk("u1", "u2"))
    e = of_type(events, "attacked")[0]
    assert e["offence"] == [{"source": "charging", "value": 1}] and e["damage"] == 4 + 1 - 1


def test_no_charging_bonus_for_a_unit_that_did_not_move():
    s = pos({"ann": ["knight"], "bob": ["footman"]}, {"u1": [0, 0], "u2": [1, 0]})
    s, events = play(s, atk("u1", "u2"))
    e = of_type(events, "attacked")[0]
    assert e["offence"] == [] and e["damage"] == 4 - 1


def test_stealth_units_charge_but_not_when_they_started_their_move_in_melee():
    s = pos({"ann": ["assassin"], "bob": ["footman"]}, {"u1": [-2, 0], "u2": [1, 0]})
    s, events = play(s, move("ann", "move", unit="u1", to=[0, 0]), atk("u1", "u2"))
    assert of_type(events, "attacked")[0]["offence"] == [{"source": "charging", "value": 1}]
    assert s["units"]["u2"]["pins"] == 4 + 1 - 1
    # started next to the Footman: it moves (Move Freely) to another space next to it, no bonus
    s = pos({"ann": ["assassin"], "bob": ["footman"]}, {"u1": [0, 0], "u2": [1, 0]})
    s, events = play(s, move("ann", "move", unit="u1", to=[1, -1]), atk("u1", "u2"))
    assert of_type(events, "attacked")[0]["offence"] == [] and s["units"]["u2"]["pins"] == 4 - 1


def test_no_charging_bonus_against_a_stealth_target():
    """A charge at a Stealth unit cannot come up in play (an attacker must have stood next to it
    since the start of the turn), so the rule is checked on the modifiers themselves."""
    s = pos(
        {"ann": ["knight"], "bob": ["assassin", "footman"]},
        {"u1": [0, 0], "u2": [1, 0], "u3": [-1, 0]},
    )
    s["units"]["u1"].update(moved=True, steps=2, charge=True)
    geo, occ = geometry(s), occupancy(s)
    assert offence_modifiers(s, geo, occ, "u1", s["units"]["u2"], "melee") == []
    assert offence_modifiers(s, geo, occ, "u1", s["units"]["u3"], "melee") == [
        {"source": "charging", "value": 1}
    ]


# -- Flanking and Move Freely ----------------------------------------------------------------------
def test_flanking_attack_while_moving_deals_one_less_and_the_unit_moves_on():
    s = pos({"ann": ["cavalry"], "bob": ["footman"]}, {"u1": [-3, 0], "u2": [1, 0]})
    s, events = play(
        s, move("ann", "move", unit="u1", to=[0, 0]), atk("u1", "u2", on_the_move=True)
    )
    e = of_type(events, "attacked")[0]
    assert e["offence"] == [{"source": "flanking", "value": -1}] and e["damage"] == 3 - 1 - 1
    assert destinations(s, "u1") and max(abs(h[0]) for h in destinations(s, "u1")) <= 3
    s, _ = play(s, move("ann", "move", unit="u1", to=[-3, 0]))  # the 3 steps left
    assert s["units"]["u1"]["steps"] == 6 and destinations(s, "u1") == set()
    assert codes(s, atk("u1", "u2")) == ["attacked_already"]


def test_a_flanking_attack_not_declared_on_the_move_ends_the_movement():
    s = pos({"ann": ["cavalry"], "bob": ["footman"]}, {"u1": [-3, 0], "u2": [1, 0]})
    s, events = play(s, move("ann", "move", unit="u1", to=[0, 0]), atk("u1", "u2"))
    assert of_type(events, "attacked")[0]["damage"] == 3 - 1
    assert codes(s, move("ann", "move", unit="u1", to=[-3, 0])) == ["attacked_already"]


def test_a_flanking_unit_may_attack_on_the_move_before_moving():
    s = pos({"ann": ["cavalry"], "bob": ["footman"]}, {"u1": [0, 0], "u2": [1, 0]})
    s, _ = play(s, atk("u1", "u2", on_the_move=True))
    assert s["units"]["u2"]["pins"] == 3 - 1 - 1
    s, _ = play(s, move("ann", "move", unit="u1", to=[-3, 0]))
    assert at(s, "u1") == [-3, 0]


def test_a_flanking_shooter_that_moved_must_shoot_on_the_move():
    s = pos({"ann": ["skirmisher"], "bob": ["cavalry"]}, {"u1": [-3, 0], "u2": [1, 0]})
    assert attacks(s, "u1") == set()
    s1, _ = play(s, move("ann", "move", unit="u1", to=[-2, 0]))
    assert codes(s1, atk("u1", "u2", "shoot")) == ["must_attack_on_the_move"]
    assert [m for m in GAME.legal_moves(s1) if m["type"] == "attack"] == [
        atk("u1", "u2", "shoot", on_the_move=True)
    ]
    s1, events = play(s1, atk("u1", "u2", "shoot", on_the_move=True))
    assert of_type(events, "attacked")[0]["damage"] == 2 - 1
    # standing still it shoots normally
    s2 = pos({"ann": ["skirmisher"], "bob": ["cavalry"]}, {"u1": [-1, 0], "u2": [1, 0]})
    s2, events = play(s2, atk("u1", "u2", "shoot"))
    assert of_type(events, "attacked")[0]["damage"] == 2


def test_move_freely_flanking_and_stealth_units_ignore_the_melee_lock():
    where = {"u1": [0, 0], "u2": [1, 0]}
    for unit_type in ("cavalry", "assassin"):
        s = pos({"ann": [unit_type], "bob": ["footman"]}, where)
        assert codes(s, move("ann", "move", unit="u1", to=[1, -1])) == [], unit_type
    s = pos({"ann": ["knight"], "bob": ["footman"]}, where)
    assert codes(s, move("ann", "move", unit="u1", to=[1, -1])) == ["melee_lock"]


def test_no_flanking_attack_against_a_stealth_unit():
    s = pos({"ann": ["cavalry"], "bob": ["assassin"]}, {"u1": [0, 0], "u2": [1, 0]})
    assert codes(s, atk("u1", "u2", on_the_move=True)) == ["not_flanking"]
    s, events = play(s, atk("u1", "u2"))
    assert of_type(events, "attacked")[0]["damage"] == 3


# -- Double Attack ---------------------------------------------------------------------------------
def test_double_attack_two_attacks_of_the_same_type_at_different_targets():
    s = pos(
        {"ann": ["archer"], "bob": ["knight", "footman"]},
        {"u1": [-1, 0], "u2": [2, 0], "u3": [1, -3]},
    )
    s, events = play(s, atk("u1", "u2", "shoot"), atk("u1", "u3", "shoot"))
    assert [(e["target"], e["damage"]) for e in of_type(events, "attacked")] == [
        ("u2", 2),
        ("u3", 2),
    ]
    assert codes(s, atk("u1", "u2", "shoot")) == ["attacked_already"]


def test_double_attack_refuses_a_second_attack_of_another_type():
    """With an Enchanter next to it, the Archer may shoot or melee at 2 spaces, but not both."""
    s = pos(
        {"ann": ["archer", "enchanter"], "bob": ["knight"]},
        {"u1": [0, 0], "u2": [-1, 0], "u3": [2, 0]},
    )
    assert attacks(s, "u1") == {("u3", "melee"), ("u3", "shoot")}
    s, _ = play(s, atk("u1", "u3", "shoot"))
    assert codes(s, atk("u1", "u3", "melee")) == ["one_attack_type"]
    s, _ = play(s, atk("u1", "u3", "shoot"))
    assert s["units"]["u3"]["pins"] == 4


# -- Knockback -------------------------------------------------------------------------------------
def test_knockback_pushes_the_target_straight_back_one_space():
    s = pos({"ann": ["general"], "bob": ["knight"]}, {"u1": [0, 0], "u2": [0, 1]})
    s, events = play(s, atk("u1", "u2", knockback=True))
    assert of_type(events, "attacked")[0]["damage"] == 3 + 1 - 1  # Command (its own aura)
    assert of_type(events, "knocked_back") == [
        {"type": "knocked_back", "player": "ann", "unit": "u2", "from": [0, 1], "to": [0, 2]}
    ]
    assert at(s, "u2") == [0, 2] and s["units"]["u1"]["knocked"] is True
    # without the declaration the target stays
    s = pos({"ann": ["general"], "bob": ["knight"]}, {"u1": [0, 0], "u2": [0, 1]})
    s, events = play(s, atk("u1", "u2"))
    assert at(s, "u2") == [0, 1] and of_type(events, "knocked_back") == []


def test_knockback_blocked_by_a_unit_the_board_edge_or_a_wall():
    blocked = [
        (
            {"ann": ["general"], "bob": ["knight", "footman"]},
            {"u1": [0, 0], "u2": [1, 0], "u3": [2, 0]},
        ),
        ({"ann": ["general"], "bob": ["knight"]}, {"u1": [0, -2], "u2": [0, -3]}),
    ]
    for lists, where in blocked:
        s = pos(lists, where)
        before = at(s, "u2")
        s, events = play(s, atk("u1", "u2", knockback=True))
        assert of_type(events, "knockback_blocked") == [
            {"type": "knockback_blocked", "player": "ann", "unit": "u2"}
        ]
        assert at(s, "u2") == before and s["units"]["u2"]["pins"] == 3
    # a wall: bob's knight in ann's Castle on [6,1], pushed from [6,0] towards [6,2] across the
    # Castle wall w7 (a Palisade would give the knight Stealth, and Stealth units are not pushed)
    s = pos(
        {"ann": ["general"], "bob": ["knight"]}, {"u1": [6, 0], "u2": [6, 1]}, scenario="standard"
    )
    assert [w for w in s["walls"] if w["id"] == "w7"][0]["edge"] == [[6, 1], [6, 2]]
    s, events = play(s, atk("u1", "u2", knockback=True))
    assert of_type(events, "knockback_blocked") == [
        {"type": "knockback_blocked", "player": "ann", "unit": "u2"}
    ]
    assert at(s, "u2") == [6, 1]


def test_knockback_deals_two_more_to_mechanical_and_three_more_to_siege_instead_of_moving():
    s = pos({"ann": ["general"], "bob": ["shock_trooper"]}, {"u1": [0, 0], "u2": [1, 0]})
    s, events = play(s, atk("u1", "u2", knockback=True))
    e = of_type(events, "attacked")[0]
    assert e["offence"] == [{"source": "command", "value": 1}, {"source": "knockback", "value": 2}]
    assert e["damage"] == 3 + 1 + 2 - 2 and at(s, "u2") == [1, 0]
    assert of_type(events, "knocked_back") == of_type(events, "knockback_blocked") == []
    s = pos({"ann": ["general"], "bob": ["trebuchet"]}, {"u1": [0, 0], "u2": [1, 0]})
    s, events = play(s, atk("u1", "u2", knockback=True))
    e = of_type(events, "attacked")[0]
    assert e["offence"] == [{"source": "command", "value": 1}, {"source": "knockback", "value": 3}]
    assert e["defence"] == [] and e["damage"] == 3 + 1 + 3
    assert [d["unit"] for d in of_type(events, "unit_destroyed")] == ["u2"]


def test_knockback_once_per_turn_per_unit():
    """A custom General with Double Attack: its second attack cannot knock back again."""
    rosters = roster("resistance", general={"abilities": ["command", "knockback", "double_attack"]})
    s = pos(
        {"ann": ["general"], "bob": ["knight", "footman"]},
        {"u1": [0, 0], "u2": [1, 0], "u3": [-1, 0]},
        rosters=rosters,
    )
    s, _ = play(s, atk("u1", "u2", knockback=True))
    assert codes(s, atk("u1", "u3", knockback=True)) == ["no_knockback"]
    s, events = play(s, atk("u1", "u3"))
    assert at(s, "u3") == [-1, 0]


def test_knockback_is_cancelled_when_the_knocker_dies_to_the_counterattack():
    s = pos({"ann": ["general"], "bob": ["infantry"]}, {"u1": [0, 0], "u2": [1, 0]})
    s["units"]["u1"]["pins"] = 5  # 3 left; the counterattack deals 4 - 1 = 3
    s, events = play(s, atk("u1", "u2", knockback=True), move("bob", "counterattack", unit="u2"))
    assert of_type(events, "attack_cancelled")[0]["reason"] == "attacker_gone"
    assert (
        of_type(events, "knocked_back") == []
        and at(s, "u2") == [1, 0]
        and s["units"]["u2"]["pins"] == 0
    )


def test_no_knockback_against_a_stealth_unit():
    s = pos({"ann": ["general"], "bob": ["assassin"]}, {"u1": [0, 0], "u2": [1, 0]})
    assert codes(s, atk("u1", "u2", knockback=True)) == ["no_knockback"]
    assert atk("u1", "u2", knockback=True) not in GAME.legal_moves(s)


# -- Volley ----------------------------------------------------------------------------------------
def test_volley_hits_every_unit_next_to_the_target_allies_included():
    lists = {"ann": ["mangonel", "knight"], "bob": ["knight", "footman"]}
    where = {"u1": [-3, 0], "u2": [1, 1], "u3": [1, 0], "u4": [2, 0]}
    s = pos(lists, where)
    s, events = play(s, atk("u1", "u3", "shoot", volley=True))
    assert of_type(events, "attacked")[0]["damage"] == 4 - 1
    assert sorted((e["unit"], e["owner"], e["damage"]) for e in of_type(events, "splashed")) == [
        ("u2", "ann", 4 - 2),
        ("u4", "bob", 4 - 1),
    ]
    assert [s["units"][u]["pins"] for u in ("u2", "u3", "u4")] == [2, 3, 3]
    s = pos(lists, where)
    s, events = play(s, atk("u1", "u3", "shoot"))
    assert of_type(events, "splashed") == [] and s["units"]["u2"]["pins"] == 0


def test_volley_reaches_a_stealth_unit_next_to_the_target():
    """ "Areas of Effect can still damage the unit": bob's Assassin next to the target is hit."""
    s = pos(
        {"ann": ["mangonel"], "bob": ["knight", "assassin"]},
        {"u1": [-3, 0], "u2": [1, 0], "u3": [2, 0]},
    )
    s, events = play(s, atk("u1", "u2", "shoot", volley=True))
    assert [(e["unit"], e["damage"]) for e in of_type(events, "splashed")] == [("u3", 4)]


def test_volley_only_on_a_shot():
    s = pos({"ann": ["knight"], "bob": ["knight"]}, {"u1": [0, 0], "u2": [1, 0]})
    assert codes(s, atk("u1", "u2", volley=True)) == ["no_volley"]


# -- Siege and Mechanical --------------------------------------------------------------------------
def test_siege_units_have_no_melee_attack():
    s = pos(
        {"ann": ["mangonel"], "bob": ["footman", "knight"]},
        {"u1": [0, 0], "u2": [1, 0], "u3": [-3, 0]},
    )
    assert attacks(s, "u1") == {("u3", "shoot")}  # it shoots while in melee, but never melees
    assert codes(s, atk("u1", "u2")) == ["siege_no_melee"]


def test_siege_and_mechanical_units_cannot_be_healed():
    """ann's Priest next to three of ann's damaged units heals only the Knight; the Trebuchet
    (Siege) and the Shock Trooper (Mechanical) are repaired, not healed."""
    s = pos(
        {"ann": ["priest", "trebuchet", "shock_trooper", "knight"], "bob": ["footman"]},
        {"u1": [0, 0], "u2": [1, 0], "u3": [-1, 0], "u4": [0, 1], "u5": [-3, 3]},
    )
    for uid in ("u2", "u3", "u4"):
        s["units"][uid]["pins"] = 3
    assert [m["target"] for m in GAME.legal_moves(s) if m.get("spell") == "healing"] == ["u4"]
    for uid in ("u2", "u3"):
        assert codes(s, move("ann", "cast", unit="u1", spell="healing", target=uid)) == [
            "bad_spell_target"
        ]
    s, _ = play(s, move("ann", "cast", unit="u1", spell="healing", target="u4"))
    assert s["units"]["u4"]["pins"] == 3 - 2
