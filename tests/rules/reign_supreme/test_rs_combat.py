"""Attacks, shooting restrictions, damage and death (rules doc §Attacks, §Shooting, §Damage)."""

from __future__ import annotations

from rs_helpers import attacks, codes, move, of_type, play, position

from rules.reign_supreme import GAME
from rules.reign_supreme.state import clone

# ann = Resistance: knight atk 4 def 2 hp 8; archer atk 3 range 6; priest atk 1; infantry def 3.
# bob = Greenskin: infantry atk 4 def 2 hp 10; trebuchet atk 6 range 8 (Siege, Packed); mangonel atk
# 4 range 5.


def atk(unit: str, target: str, mode: str = "melee", player: str = "ann") -> dict:
    return move(player, "attack", unit=unit, target=target, mode=mode)


PASS = move("bob", "pass")
"""bob's Infantry have Counterattack: after a melee attack on one, bob answers (here: passes)."""


def test_melee_needs_an_adjacent_enemy():
    s = position({"ann": ["knight"], "bob": ["infantry"]}, {"u1": [0, 0], "u2": [1, 0]})
    assert attacks(s, "u1") == {("u2", "melee")}
    s = position({"ann": ["knight"], "bob": ["infantry"]}, {"u1": [0, 0], "u2": [2, 0]})
    assert attacks(s, "u1") == set()
    assert codes(s, atk("u1", "u2")) == ["not_adjacent"]
    assert codes(s, atk("u1", "u2", "shoot")) == ["cannot_shoot"]


def test_melee_damage_is_attack_minus_armour_and_pins_are_kept():
    s = position({"ann": ["knight"], "bob": ["infantry"]}, {"u1": [0, 0], "u2": [1, 0]})
    s, events = play(s, atk("u1", "u2"), PASS)
    [e] = of_type(events, "attacked")
    assert e == {
        "type": "attacked",
        "player": "ann",
        "unit": "u1",
        "target": "u2",
        "owner": "bob",
        "mode": "melee",
        "attack": 4,
        "offence": [],
        "defence": [{"source": "armour", "value": 2}],
        "damage": 2,
        "pins": 2,
        "hp": 10,
    }
    assert s["units"]["u2"]["pins"] == 2 and s["units"]["u1"]["attacked"] is True


def test_one_attack_per_turn_and_no_move_after_attacking():
    s = position({"ann": ["knight"], "bob": ["infantry"]}, {"u1": [0, 0], "u2": [1, 0]})
    s, _ = play(s, atk("u1", "u2"), PASS)
    assert codes(s, atk("u1", "u2")) == ["attacked_already"]
    assert codes(s, move("ann", "move", unit="u1", to=[-1, 0])) == ["attacked_already"]
    assert [m for m in GAME.legal_moves(s) if m.get("unit") == "u1"] == []


def test_move_then_attack():
    """The Knight moved up to the Spearmen and attacks: 4 + 1 (Charging) - 2 = 3."""
    s = position({"ann": ["knight"], "bob": ["infantry"]}, {"u1": [-3, 0], "u2": [1, 0]})
    s, _ = play(s, move("ann", "move", unit="u1", to=[0, 0]), atk("u1", "u2"), PASS)
    assert s["units"]["u2"]["pins"] == 3


def test_a_unit_moves_and_attacks_before_you_switch_to_another():
    """Seed, Combat Phase: "Players must move and then attack before switching units"."""
    s = position(
        {"ann": ["knight", "knight", "trebuchet"], "bob": ["infantry", "infantry"]},
        {"u1": [-2, 0], "u2": [-2, 2], "u3": [-1, -2], "u4": [1, 0], "u5": [1, 2]},
    )
    s = clone(s)
    s["units"]["u3"]["packing"] = "unpacked"
    s, _ = play(s, move("ann", "move", unit="u1", to=[0, 0]))
    assert ("u4", "melee") in attacks(s, "u1")
    s, _ = play(s, move("ann", "move", unit="u2", to=[0, 2]))
    assert s["units"]["u1"]["done"] is True and attacks(s, "u1") == set()
    assert codes(s, atk("u1", "u4")) == ["switched_units"]
    s, _ = play(s, atk("u2", "u5"), PASS)
    assert [m for m in GAME.legal_moves(s) if m.get("unit") in ("u1", "u2")] == []
    s, _ = play(s, atk("u3", "u4", "shoot"))  # attack and pack in the same turn
    assert [m["unit"] for m in GAME.legal_moves(s) if "unit" in m] == ["u3"]
    assert [m for m in GAME.legal_moves(s) if m.get("unit") == "u3"] == [
        move("ann", "pack", unit="u3")
    ]
    s = position(
        {"ann": ["trebuchet", "knight"], "bob": ["infantry"]},
        {"u1": [-1, -2], "u2": [-2, 2], "u3": [1, 0]},
    )
    s = clone(s)
    s["units"]["u1"]["packing"] = "unpacked"
    s, _ = play(s, atk("u1", "u3", "shoot"), move("ann", "move", unit="u2", to=[-1, 2]))
    assert codes(s, move("ann", "pack", unit="u1")) == ["cannot_pack"]


def test_damage_never_below_zero():
    """A Cleric (attack 1) against Pikemen (defence 3): 1 - 3 = -2, so 0 damage, and the pins the
    target already carries are not taken away."""
    s = position(
        {"ann": ["priest"], "bob": ["infantry"]},
        {"u1": [0, 0], "u2": [1, 0]},
        armies={"ann": "resistance", "bob": "resistance"},
    )
    s = clone(s)
    s["units"]["u2"]["pins"] = 4
    s, events = play(s, atk("u1", "u2"), PASS)
    e = of_type(events, "attacked")[0]
    assert (e["attack"], e["defence"], e["damage"]) == (1, [{"source": "armour", "value": 3}], 0)
    assert e["pins"] == 4 and s["units"]["u2"]["pins"] == 4


def test_a_unit_whose_pins_reach_its_hit_points_is_destroyed_and_the_kill_counts():
    s = position(
        {"ann": ["knight", "knight"], "bob": ["infantry", "archer"]},
        {"u1": [0, 0], "u3": [1, 0], "u4": [-3, 3]},
    )
    s = clone(s)
    s["units"]["u3"]["pins"] = 8  # 8 + (4 - 2) = 10 = hit points
    s, events = play(s, atk("u1", "u3"), PASS)
    assert "u3" not in s["units"]
    assert of_type(events, "unit_destroyed") == [
        {
            "type": "unit_destroyed",
            "player": "ann",
            "unit": "u3",
            "owner": "bob",
            "unit_type": "infantry",
            "at": [1, 0],
            "by": "melee",
        }
    ]
    assert s["kills"] == {"ann": 1, "bob": 0}
    assert s["status"] == "in_progress"


def test_shooting_at_range_but_not_adjacent_and_not_beyond_range():
    s = position({"ann": ["archer"], "bob": ["infantry"]}, {"u1": [0, 0], "u2": [3, 0]})
    assert attacks(s, "u1") == {("u2", "shoot")}
    s, events = play(s, atk("u1", "u2", "shoot"))
    assert of_type(events, "attacked")[0]["damage"] == 3 - 2
    s = position(
        {"ann": ["archer"], "bob": ["infantry"]}, {"u1": [-3, 0], "u2": [4, 0]}
    )  # distance 7 > range 6
    assert codes(s, atk("u1", "u2", "shoot")) == ["out_of_range"]
    s = position({"ann": ["archer"], "bob": ["infantry"]}, {"u1": [0, 0], "u2": [1, 0]})
    assert attacks(s, "u1") == {("u2", "melee")}
    assert codes(s, atk("u1", "u2", "shoot")) == ["adjacent_target"]


def test_no_shooting_after_moving():
    s = position({"ann": ["archer"], "bob": ["infantry"]}, {"u1": [0, 0], "u2": [3, 0]})
    s, _ = play(s, move("ann", "move", unit="u1", to=[-1, 0]))
    assert attacks(s, "u1") == set()
    assert codes(s, atk("u1", "u2", "shoot")) == ["moved_this_turn"]


def test_no_shooting_while_in_melee_unless_siege():
    s = position(
        {"ann": ["archer"], "bob": ["infantry", "infantry"]},
        {"u1": [0, 0], "u2": [0, 1], "u3": [3, 0]},
    )
    assert attacks(s, "u1") == {("u2", "melee")}
    assert codes(s, atk("u1", "u3", "shoot")) == ["shooter_in_melee"]
    # bob's unpacked Trebuchet (Siege) shoots while in melee, but not at the adjacent unit
    s = position(
        {"ann": ["infantry", "infantry"], "bob": ["trebuchet"]},
        {"u1": [0, 1], "u2": [3, 0], "u3": [0, 0]},
        first="bob",
    )
    s = clone(s)
    s["units"]["u3"]["packing"] = "unpacked"
    assert attacks(s, "u3") == {("u2", "shoot")}
    assert codes(s, atk("u3", "u1", "melee", "bob")) == ["siege_no_melee"]
    assert codes(s, atk("u3", "u1", "shoot", "bob")) == ["adjacent_target"]


def test_a_packed_trebuchet_cannot_attack_and_an_unpacked_one_cannot_move():
    s = position(
        {"ann": ["infantry"], "bob": ["trebuchet"]}, {"u1": [3, 0], "u2": [0, 0]}, first="bob"
    )
    assert attacks(s, "u2") == set()
    assert codes(s, atk("u2", "u1", "shoot", "bob")) == ["not_unpacked"]
    s = clone(s)
    s["units"]["u2"]["packing"] = "unpacked"
    assert codes(s, move("bob", "move", unit="u2", to=[-1, 0])) == ["not_packed"]
    assert attacks(s, "u2") == {("u1", "shoot")}


def test_you_cannot_attack_your_own_units():
    s = position({"ann": ["knight", "infantry"], "bob": ["infantry"]}, {"u1": [0, 0], "u2": [1, 0]})
    assert codes(s, atk("u1", "u2")) == ["own_unit"]
    assert codes(s, atk("u1", "u9")) == ["unknown_target"]


CASTLE_GAME = dict(scenario="standard")


def test_worked_example_castle_defence():
    """Rules doc §Damage: a Resistance Human Knight (attack 4) against Greenskin Orc Spearmen
    (defence 2) standing in a Castle: 4 - 2 - 1 = 1 pin."""
    s = position(
        {"ann": ["knight"], "bob": ["infantry"]}, {"u1": [-5, 0], "u2": [-6, 0]}, **CASTLE_GAME
    )
    assert [-6, 0] in s["kingdoms"]["bob"]["castle"]
    # The Knight stands next to bob's Gate, so it has Stealth: no Counterattack is possible.
    s, events = play(s, atk("u1", "u2"))
    e = of_type(events, "attacked")[0]
    assert e["defence"] == [{"source": "armour", "value": 2}, {"source": "castle", "value": 1}]
    assert e["damage"] == 1


def test_a_unit_on_a_throne_gets_plus_one_attack():
    s = position(
        {"ann": ["knight"], "bob": ["infantry"]}, {"u1": [7, 0], "u2": [6, 0]}, **CASTLE_GAME
    )
    assert s["kingdoms"]["ann"]["throne"] == [7, 0]
    s, events = play(s, atk("u1", "u2"), PASS)
    e = of_type(events, "attacked")[0]
    assert e["offence"] == [{"source": "throne", "value": 1}]
    assert e["damage"] == 4 + 1 - 2 - 1


def test_siege_targets_take_no_defence_modifiers():
    s = position(
        {"ann": ["knight"], "bob": ["trebuchet"]}, {"u1": [-5, 0], "u2": [-6, 0]}, **CASTLE_GAME
    )
    s, events = play(s, atk("u1", "u2"))
    e = of_type(events, "attacked")[0]
    assert e["defence"] == [] and e["damage"] == 4


def test_a_kill_moves_the_reinforcement_pin():
    s = position(
        {"ann": ["knight"], "bob": ["infantry", "archer"]},
        {"u1": [0, 0], "u2": [1, 0], "u3": [-2, 3]},
        **CASTLE_GAME,
    )
    s = clone(s)
    s["units"]["u2"]["pins"] = 9
    before = s["boards"]["ann"]["reinforcement_pin"]
    s, events = play(s, atk("u1", "u2"), PASS)
    assert s["boards"]["ann"]["reinforcement_pin"] == before - 1
    assert of_type(events, "reinforcement_pin_moved")[0]["reinforcement_pin"] == before - 1
