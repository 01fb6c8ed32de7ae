"""Gates, Palisades and Construction (rules doc §Gates and Palisades, §Construction; seed: Units -
Gates, Palisades; Special Abilities - Construction; Castle).

Standard board, two players: ann's Gate ``w1`` on the edge [6,0]-[5,0], bob's ``w2`` on
[-6,0]-[-5,0] ([-6,0] is in bob's Castle). Numbers used (rosters): Resistance knight attack 4,
engineer attack 1 (Construction), mangonel attack 4 movement 1 (Siege, Shooting, range 5),
trebuchet (Siege, Packed), general (Command), archer attack 3 range 6; Greenskin knight attack 5,
infantry defence 2, mangonel movement 1, engineer; Resistance infantry defence 3.
"""

from __future__ import annotations

from typing import Any

from rs_helpers import attacks, codes, destinations, move, of_type, play, position, refresh

from rules.reign_supreme import GAME
from rules.reign_supreme.auras import prune_engaged
from rules.reign_supreme.hexes import distance
from rules.reign_supreme.state import clone

STANDARD = dict(scenario="standard")


def atk(
    uid: str, target: str, mode: str = "melee", player: str = "ann", **flags: Any
) -> dict[str, Any]:
    return move(player, "attack", unit=uid, target=target, mode=mode, **flags)


def build(uid: str, target: list[int], player: str = "ann") -> dict[str, Any]:
    return move(player, "construct", unit=uid, action="build", target=target)


def construct(uid: str, action: str, target: Any, player: str = "ann") -> dict[str, Any]:
    return move(player, "construct", unit=uid, action=action, target=target)


def edited(
    state: dict[str, Any],
    units: dict[str, dict[str, Any]] | None = None,
    walls: Any = None,
    **top: Any,
) -> dict[str, Any]:
    """A copy of ``state`` with unit fields changed, wall fields changed (``walls`` a dict by
    id) or the walls replaced (``walls`` a list), and top-level fields replaced."""
    new = clone(state)
    for uid, fields in (units or {}).items():
        new["units"][uid].update(fields)
    if isinstance(walls, list):
        new["walls"] = walls
    else:
        for w in new["walls"]:
            w.update((walls or {}).get(w["id"], {}))
    new.update(top)
    prune_engaged(new)
    refresh(new)
    GAME.check_state(new)
    return new


def wall(state: dict[str, Any], wid: str) -> dict[str, Any] | None:
    return next((w for w in state["walls"] if w["id"] == wid), None)


def constructions(state: dict[str, Any], uid: str) -> set[tuple[str, Any]]:
    return {
        (m["action"], tuple(m["target"]) if isinstance(m["target"], list) else m["target"])
        for m in GAME.legal_moves(state)
        if m["type"] == "construct" and m["unit"] == uid
    }


# -- Gates -----------------------------------------------------------------------------------------
def test_each_castle_has_a_gate_of_20_hit_points_on_the_scenarios_gate_edge():
    s = position({"ann": ["knight"], "bob": ["knight"]}, **STANDARD)
    assert s["walls"][:2] == [
        {"id": "w1", "kind": "gate", "owner": "ann", "edge": [[6, 0], [5, 0]], "hp": 20},
        {"id": "w2", "kind": "gate", "owner": "bob", "edge": [[-6, 0], [-5, 0]], "hp": 20},
    ]
    assert [w["kind"] for w in s["walls"][2:]] == ["castle_wall"] * 34 and s["wall_serial"] == 36
    assert position({"ann": ["knight"], "bob": ["knight"]})["walls"] == []  # skirmish: no castles


def test_enemy_units_cannot_move_past_a_gate_and_its_owner_can():
    s = position(
        {"ann": ["mangonel"], "bob": ["mangonel", "knight"]},
        {"u1": [-5, 0], "u2": [-4, 1], "u3": [-8, 1]},
        **STANDARD,
    )
    assert (-6, 0) not in destinations(s, "u1") and (-6, 1) in destinations(s, "u1")
    assert codes(s, move("ann", "move", unit="u1", to=[-6, 0])) == ["out_of_reach"]
    s = position(
        {"ann": ["knight"], "bob": ["mangonel", "knight"]},
        {"u1": [3, 0], "u2": [-5, 0], "u3": [-8, 1]},
        first="bob",
        **STANDARD,
    )
    assert (-6, 0) in destinations(s, "u2")


def test_units_next_to_a_gate_on_either_side_have_stealth_while_it_stands():
    s = position(
        {"ann": ["archer"], "bob": ["infantry", "infantry", "infantry"]},
        {"u1": [-2, 0], "u2": [-5, 0], "u3": [-6, 0], "u4": [-5, -1]},
        **STANDARD,
    )
    assert {a for a in attacks(s, "u1") if a[0][0] == "u"} == {("u4", "shoot")} and (
        "w2",
        "shoot",
    ) in attacks(s, "u1")
    assert codes(s, atk("u1", "u2", "shoot")) == ["stealth_target"]
    s = edited(s, walls={"w2": {"hp": 1}})
    s, _ = play(s, atk("u1", "w2", "shoot"))
    assert wall(s, "w2") is None
    assert {("u2", "shoot"), ("u3", "shoot"), ("u4", "shoot")} <= attacks(
        s, "u1"
    )  # Double Attack: a second shot


def test_a_gate_takes_plus_1_damage_from_siege_attackers_and_no_other_modifier():
    # the knight stands on the Gate's outer space, next to its Command general: still 4
    s = position(
        {"ann": ["knight", "general", "mangonel"], "bob": ["knight"]},
        {"u1": [-5, 0], "u2": [-4, 0], "u3": [-2, 0], "u4": [-8, 1]},
        **STANDARD,
    )
    s2, events = play(s, atk("u1", "w2"))
    assert of_type(events, "wall_attacked") == [
        {
            "type": "wall_attacked",
            "player": "ann",
            "unit": "u1",
            "wall": "w2",
            "kind": "gate",
            "mode": "melee",
            "damage": 4,
            "hp": 16,
        }
    ]
    # the mangonel (attack 4) shoots it from 3 spaces from its nearer space: 4 + 1
    s3, events = play(s, atk("u3", "w2", "shoot"))
    assert of_type(events, "wall_attacked")[0]["damage"] == 5 and wall(s3, "w2")["hp"] == 15


def test_a_wall_is_attacked_in_melee_only_from_one_of_its_two_spaces():
    # [-5,-1] touches both of the Gate's spaces but is not one of them
    s = position(
        {"ann": ["knight"], "bob": ["knight"]}, {"u1": [-5, -1], "u2": [-8, 1]}, **STANDARD
    )
    assert ("w2", "melee") not in attacks(s, "u1")
    assert codes(s, atk("u1", "w2")) == ["not_adjacent"]
    assert codes(s, atk("u1", "w1")) == ["own_unit"]
    s = position({"ann": ["knight"], "bob": ["knight"]}, {"u1": [-6, 0], "u2": [-8, 1]}, **STANDARD)
    assert ("w2", "melee") in attacks(s, "u1")


def test_a_wall_is_shot_at_when_one_of_its_spaces_is_in_range():
    # the archer (range 6) is 6 from the Gate's outer space [-5,0], then 7
    s = position({"ann": ["archer"], "bob": ["knight"]}, {"u1": [1, 0], "u2": [-8, 1]}, **STANDARD)
    assert ("w2", "shoot") in attacks(s, "u1")
    s = position({"ann": ["archer"], "bob": ["knight"]}, {"u1": [2, 0], "u2": [-8, 1]}, **STANDARD)
    assert ("w2", "shoot") not in attacks(s, "u1")
    assert codes(s, atk("u1", "w2", "shoot")) == ["out_of_range"]
    # from a space beside the Gate (not on it) a shot is not at an adjacent target
    s = position(
        {"ann": ["archer"], "bob": ["knight"]}, {"u1": [-5, -1], "u2": [-8, 1]}, **STANDARD
    )
    assert ("w2", "shoot") in attacks(s, "u1")


def test_a_destroyed_gate_is_removed_and_enemies_pass_and_no_damage_reaches_through():
    s = position(
        {"ann": ["archer", "mangonel"], "bob": ["archer", "knight"]},
        {"u1": [-2, 0], "u2": [-5, 0], "u3": [-6, 0], "u4": [-8, 1]},
        **STANDARD,
    )
    s = edited(s, walls={"w2": {"hp": 2}})
    assert (-6, 0) not in destinations(edited(s, units={"u3": {"at": [-7, 1]}}), "u2")
    s, events = play(s, atk("u1", "w2", "shoot"))  # 3 damage, 1 more than it has
    assert [e["type"] for e in events if e["type"] != "attack_declared"] == [
        "wall_attacked",
        "wall_destroyed",
    ]
    assert of_type(events, "wall_destroyed")[0] == {
        "type": "wall_destroyed",
        "player": "ann",
        "wall": "w2",
        "kind": "gate",
        "owner": "bob",
        "edge": [[-6, 0], [-5, 0]],
    }
    assert s["units"]["u3"]["pins"] == 0 and [
        w["id"] for w in s["walls"] if w["kind"] == "gate"
    ] == ["w1"]
    s = edited(s, units={"u3": {"at": [-7, 1]}})
    assert (-6, 0) in destinations(s, "u2")


# -- Palisades -------------------------------------------------------------------------------------
def test_construction_builds_a_palisade_of_4_on_an_edge_of_its_own_space_and_ends_its_turn():
    s = position({"ann": ["engineer"], "bob": ["knight"]}, {"u1": [0, 0], "u2": [-3, 0]})
    assert {t for a, t in constructions(s, "u1") if a == "build"} == {
        (1, 0),
        (1, -1),
        (0, -1),
        (-1, 0),
        (-1, 1),
        (0, 1),
    }
    assert codes(s, build("u1", [2, 0])) == ["bad_construction_target"]
    s, events = play(s, build("u1", [1, 0]))
    assert events == [
        {
            "type": "constructed",
            "player": "ann",
            "unit": "u1",
            "action": "build",
            "target": [1, 0],
            "wall": "w1",
            "edge": [[0, 0], [1, 0]],
            "hp": 4,
        }
    ]
    assert s["walls"] == [
        {"id": "w1", "kind": "palisade", "owner": "ann", "edge": [[0, 0], [1, 0]], "hp": 4}
    ]
    assert s["units"]["u1"]["done"] and destinations(s, "u1") == set()
    assert codes(s, move("ann", "move", unit="u1", to=[0, 1])) == ["unit_done"]


def test_construction_may_follow_a_move_but_not_an_attack():
    s = position({"ann": ["engineer"], "bob": ["knight"]}, {"u1": [0, 0], "u2": [-3, 0]})
    s2, _ = play(s, move("ann", "move", unit="u1", to=[-1, 0]), build("u1", [-2, 0]))
    assert s2["walls"][0]["edge"] == [[-2, 0], [-1, 0]]
    s = position({"ann": ["engineer"], "bob": ["knight"]}, {"u1": [0, 0], "u2": [-1, 0]})
    s, _ = play(s, atk("u1", "u2"))
    assert constructions(s, "u1") == set()
    assert codes(s, build("u1", [1, 0])) == ["unit_done"]


def palisade(
    state: dict[str, Any], owner: str, edge: list[list[int]], hp: int = 4, wid: str = "w1"
) -> dict[str, Any]:
    """A copy of ``state`` with one more Palisade."""
    new = clone(state)
    new["walls"].append({"id": wid, "kind": "palisade", "owner": owner, "edge": edge, "hp": hp})
    new["wall_serial"] = max(new["wall_serial"], int(wid[1:]))
    refresh(new)
    GAME.check_state(new)
    return new


def test_a_palisade_blocks_enemy_units_but_not_its_owners():
    s = position({"ann": ["mangonel"], "bob": ["knight"]}, {"u1": [0, 0], "u2": [-3, 3]})
    assert (1, 0) in destinations(palisade(s, "ann", [[0, 0], [1, 0]]), "u1")
    blocked = palisade(s, "bob", [[0, 0], [1, 0]])
    assert (1, 0) not in destinations(blocked, "u1") and (1, -1) in destinations(blocked, "u1")
    assert codes(blocked, move("ann", "move", unit="u1", to=[1, 0])) == ["out_of_reach"]


def test_a_player_has_at_most_10_palisades_on_the_board():
    s = position({"ann": ["engineer"], "bob": ["knight"]}, {"u1": [0, 0], "u2": [-3, 3]})
    edges = (
        [[[q, 2], [q, 3]] for q in range(-3, 1)]
        + [[[q, -3], [q, -2]] for q in range(0, 4)]
        + [[[3, -1], [3, 0]], [[-3, 1], [-3, 2]]]
    )
    ten = [
        {"id": f"w{i + 1}", "kind": "palisade", "owner": "ann", "edge": e, "hp": 4}
        for i, e in enumerate(edges)
    ]
    s = edited(s, walls=ten, wall_serial=10)
    assert not any(a == "build" for a, _ in constructions(s, "u1"))
    assert codes(s, build("u1", [1, 0])) == ["palisade_limit"]
    # bob's Palisades do not count against ann's
    s = edited(s, walls={"w10": {"owner": "bob"}})
    assert codes(s, build("u1", [1, 0])) == []


def test_a_destroyed_palisade_lets_the_rest_of_the_damage_reach_an_enemy_unit_on_the_other_side():
    # bob's knight (attack 5) on [1,0] destroys ann's 1-hit-point Palisade: 4 reach ann's infantry
    # (defence 3) on [0,0]: 1 pin
    s = position(
        {"ann": ["infantry"], "bob": ["knight"]}, {"u1": [0, 0], "u2": [1, 0]}, first="bob"
    )
    s = palisade(s, "ann", [[0, 0], [1, 0]], hp=1)
    s, events = play(s, atk("u2", "w1", player="bob"))
    assert [e["type"] for e in events if e["type"] != "attack_declared"] == [
        "wall_attacked",
        "wall_destroyed",
        "reached_through",
    ]
    assert of_type(events, "wall_attacked")[0]["damage"] == 5
    assert of_type(events, "reached_through") == [
        {
            "type": "reached_through",
            "player": "bob",
            "unit": "u1",
            "owner": "ann",
            "rest": 4,
            "defence": [{"source": "armour", "value": 3}],
            "damage": 1,
        }
    ]
    assert s["units"]["u1"]["pins"] == 1 and s["walls"] == []


def test_a_palisade_takes_no_modifiers_but_plus_one_from_artillery_like_a_gate():
    """Ruling RS 13: Palisades work just like Gates: the knight's Command aura adds nothing (5 of
    6 hit points), a Siege attacker adds 1 (Mangonel 4 + 1)."""
    s = position(
        {"ann": ["infantry"], "bob": ["knight", "general", "mangonel"]},
        {"u1": [0, 0], "u2": [1, 0], "u3": [2, 0], "u4": [3, -1]},
        first="bob",
    )
    s = palisade(s, "ann", [[0, 0], [1, 0]], hp=6)
    after, events = play(s, atk("u2", "w1", player="bob"))
    assert of_type(events, "wall_attacked")[0]["damage"] == 5 and after["walls"][0]["hp"] == 1
    _, events = play(s, atk("u4", "w1", "shoot", player="bob"))
    assert of_type(events, "wall_attacked")[0]["damage"] == 5


def test_a_palisade_gives_stealth_to_the_units_on_its_two_spaces():
    """Ruling RS 13: a unit next to a Palisade (on either of its spaces) has Stealth while it
    stands: an enemy that was not engaged with it since the start of the turn cannot attack it."""
    s = position({"ann": ["archer"], "bob": ["infantry"]}, {"u1": [-3, 0], "u2": [0, 0]})
    assert ("u2", "shoot") in attacks(s, "u1")
    walled = palisade(s, "bob", [[0, 0], [1, 0]])
    assert ("u2", "shoot") not in attacks(walled, "u1")
    assert codes(walled, atk("u1", "u2", "shoot")) == ["stealth_target"]


def test_repairing_a_palisade_adds_4_up_to_6_whoever_built_it():
    s = position({"ann": ["engineer"], "bob": ["knight"]}, {"u1": [0, 0], "u2": [-3, 3]})
    one = palisade(s, "bob", [[0, 0], [1, 0]], hp=1)
    assert ("repair", "w1") in constructions(one, "u1")
    _, events = play(one, construct("u1", "repair", "w1"))
    assert events == [
        {
            "type": "constructed",
            "player": "ann",
            "unit": "u1",
            "action": "repair",
            "target": "w1",
            "hp": 5,
            "gained": 4,
        }
    ]
    _, events = play(palisade(s, "ann", [[0, 0], [1, 0]], hp=4), construct("u1", "repair", "w1"))
    assert events[0]["hp"] == 6 and events[0]["gained"] == 2
    full = palisade(s, "ann", [[0, 0], [1, 0]], hp=6)
    assert ("repair", "w1") not in constructions(full, "u1")
    assert codes(full, construct("u1", "repair", "w1")) == ["bad_construction_target"]
    # building on an edge that already has a wall is refused: adding to it is a repair
    assert codes(full, build("u1", [1, 0])) == ["bad_construction_target"]


def test_repairing_a_gate_adds_3_up_to_20_from_one_of_its_spaces():
    s = position(
        {"ann": ["engineer"], "bob": ["knight"]}, {"u1": [6, 0], "u2": [-8, 1]}, **STANDARD
    )
    _, events = play(edited(s, walls={"w1": {"hp": 15}}), construct("u1", "repair", "w1"))
    assert events[0]["hp"] == 18 and events[0]["gained"] == 3
    _, events = play(edited(s, walls={"w1": {"hp": 19}}), construct("u1", "repair", "w1"))
    assert events[0]["hp"] == 20 and events[0]["gained"] == 1
    assert ("repair", "w1") not in constructions(s, "u1")  # at 20
    away = edited(s, units={"u1": {"at": [7, 0]}}, walls={"w1": {"hp": 15}})
    assert codes(away, construct("u1", "repair", "w1")) == ["bad_construction_target"]


def test_repairing_an_adjacent_own_siege_or_mechanical_unit_removes_3_pins():
    s = position(
        {
            "ann": ["engineer", "mangonel", "shock_trooper", "infantry"],
            "bob": ["mangonel", "knight"],
        },
        {"u1": [0, 0], "u2": [1, 0], "u3": [0, 1], "u4": [-1, 0], "u5": [0, -1], "u6": [-3, 3]},
    )
    s = edited(
        s, units={"u2": {"pins": 5}, "u3": {"pins": 2}, "u4": {"pins": 2}, "u5": {"pins": 2}}
    )
    assert {t for a, t in constructions(s, "u1") if a == "repair"} == {
        "u2",
        "u3",
    }  # not infantry, not bob's
    s2, events = play(s, construct("u1", "repair", "u2"))
    assert events == [
        {
            "type": "constructed",
            "player": "ann",
            "unit": "u1",
            "action": "repair",
            "target": "u2",
            "pins_removed": 3,
            "pins": 2,
        }
    ]
    _, events = play(s, construct("u1", "repair", "u3"))
    assert events[0]["pins_removed"] == 2 and events[0]["pins"] == 0
    assert codes(s, construct("u1", "repair", "u5")) == ["bad_construction_target"]


def test_hasten_gives_an_adjacent_siege_unit_that_has_not_moved_one_more_movement():
    s = position(
        {"ann": ["engineer", "mangonel"], "bob": ["knight"]},
        {"u1": [0, 0], "u2": [1, 0], "u3": [-3, 3]},
    )
    assert {distance(h, (1, 0)) for h in destinations(s, "u2")} == {1}  # movement 1
    s, events = play(s, construct("u1", "hasten", "u2"))
    assert events == [
        {
            "type": "constructed",
            "player": "ann",
            "unit": "u1",
            "action": "hasten",
            "target": "u2",
            "bonus": 1,
        }
    ]
    assert (3, 0) in destinations(s, "u2")
    s, _ = play(s, move("ann", "move", unit="u2", to=[3, 0]))
    assert s["units"]["u2"]["steps"] == 2
    s, _ = play(s, move("ann", "end_turn"), move("bob", "end_turn"))
    assert s["units"]["u2"]["bonus"] == 0  # for the turn only


def test_hasten_not_a_unit_that_has_moved_nor_an_unpacked_trebuchet():
    s = position(
        {"ann": ["engineer", "mangonel", "trebuchet"], "bob": ["knight"]},
        {"u1": [0, 0], "u2": [0, -1], "u3": [0, 1], "u4": [-3, 3]},
    )
    assert {t for a, t in constructions(s, "u1") if a == "hasten"} == {
        "u2",
        "u3",
    }  # packed Trebuchet: yes
    s2 = edited(s, units={"u3": {"packing": "unpacked"}})
    assert {t for a, t in constructions(s2, "u1") if a == "hasten"} == {"u2"}
    assert codes(s2, construct("u1", "hasten", "u3")) == ["bad_construction_target"]
    s3, _ = play(s, move("ann", "move", unit="u2", to=[1, -1]))
    assert ("hasten", "u2") not in constructions(s3, "u1")
    # a Siege unit that has shot can no longer move: nothing to hasten
    s4 = position(
        {"ann": ["engineer", "mangonel"], "bob": ["knight"]},
        {"u1": [0, 0], "u2": [0, -1], "u3": [-3, 3]},
    )
    s4, _ = play(s4, atk("u2", "u3", "shoot"))
    assert ("hasten", "u2") not in constructions(s4, "u1")
    assert codes(s4, construct("u1", "hasten", "u2")) == ["bad_construction_target"]


def test_speed_packing_moves_an_adjacent_units_packing_pin_one_notch():
    s = position(
        {"ann": ["engineer", "trebuchet"], "bob": ["knight"]},
        {"u1": [0, 0], "u2": [1, 0], "u3": [-3, 3]},
    )
    assert ("speed_packing", "u2") not in constructions(s, "u1")  # no pin on the Action Board
    s, _ = play(s, move("ann", "unpack", unit="u2"))
    assert s["boards"]["ann"]["packing"] == [{"unit": "u2", "to": "unpacked", "notch": 0}]
    s1, events = play(s, construct("u1", "speed_packing", "u2"))
    assert events == [
        {
            "type": "constructed",
            "player": "ann",
            "unit": "u1",
            "action": "speed_packing",
            "target": "u2",
            "notch": 1,
        }
    ]
    # A pin it brings to the end completes only in the next Cooldown phase: test_rs_ruling_16.py.


def test_only_construction_units_construct():
    s = position(
        {"ann": ["engineer", "knight"], "bob": ["knight"]},
        {"u1": [0, 0], "u2": [1, 0], "u3": [-3, 3]},
    )
    assert codes(s, build("u2", [2, 0])) == ["no_construction"]
    assert codes(s, construct("u1", "dig", [1, -1])) == ["unknown_action"]
    assert codes(s, build("u3", [2, 0])) == ["not_your_unit"]
