"""Rulings RS 10-15 (issue 16): acting outside your own turn, moves by others, Castle walls,
Palisades like Gates, magical attacks and Silence, Mines and Ruins passed over (rules doc:
§Outside your own turn, §Shooting, §Castles, §Gates and Palisades, §Auras, §Mines and Ruins).

Skirmish board unless said otherwise; unit ids ``u1``, ``u2``... in seat order then list order.
"""
from __future__ import annotations

from typing import Any

from rs_helpers import attacks, codes, destinations, move, of_type, play, position

from rules.reign_supreme import GAME
from rules.reign_supreme.state import clone


def construct(uid: str, action: str, target: Any, player: str = "ann") -> dict[str, Any]:
    return move(player, "construct", unit=uid, action=action, target=target)


# -- RS 11: moved by others ------------------------------------------------------------------------
def test_a_step_paid_by_construction_does_not_stop_shooting():
    """Ruling RS 11: the hastened Mangonel (movement 1) moves one step on the Engineer's point and
    may still shoot; a second step is its own movement and it may not."""
    s = position({"ann": ["engineer", "mangonel"], "bob": ["knight"]}, {"u1": [0, 0], "u2": [1, 0], "u3": [-3, 1]})
    s, _ = play(s, construct("u1", "hasten", "u2"))
    one, _ = play(s, move("ann", "move", unit="u2", to=[1, 1]))
    assert ("u3", "shoot") in attacks(one, "u2")
    two, _ = play(s, move("ann", "move", unit="u2", to=[2, 1]))
    assert ("u3", "shoot") not in attacks(two, "u2")
    assert codes(two, move("ann", "attack", unit="u2", target="u3", mode="shoot")) == ["moved_this_turn"]


# -- RS 15: Mines and Ruins --------------------------------------------------------------------------
def test_a_unit_knocked_onto_a_mine_takes_it_for_its_owner():
    """Ruling RS 15: a unit that Knockback puts on a Mine claims it (skirmish Mine [2, -1])."""
    s = position({"ann": ["general"], "bob": ["knight"]}, {"u1": [2, 1], "u2": [2, 0]})
    s, events = play(s, move("ann", "attack", unit="u1", target="u2", mode="melee", knockback=True))
    assert s["units"]["u2"]["at"] == [2, -1]
    assert of_type(events, "mine_taken") == [{"type": "mine_taken", "player": "bob", "at": [2, -1], "from": None}]
    assert s["control"]["mines"] == ["bob", None]


def test_a_unit_teleporting_onto_a_ruin_takes_it():
    """Ruling RS 15: so does a unit that Teleport puts there (skirmish Ruin [1, 1])."""
    s = position({"ann": ["wizard"], "bob": ["knight"]}, {"u1": [0, 0], "u2": [-3, 1]})
    s, events = play(s, move("ann", "cast", unit="u1", spell="teleport", target=[1, 1]))
    assert of_type(events, "ruin_taken") == [{"type": "ruin_taken", "player": "ann", "at": [1, 1], "from": None}]
    assert s["control"]["ruins"] == [None, "ann"]


# -- RS 14: magical attacks and Silence ----------------------------------------------------------------
def test_a_magical_attack_cannot_be_made_from_inside_an_enemy_silence():
    """Ruling RS 14: the Wizard (Magic damage, range 4) inside bob's Warder's Silence cannot shoot;
    the Archer (Piercing) beside it can; from outside the aura the Wizard shoots into it."""
    s = position({"ann": ["wizard", "archer"], "bob": ["warder", "knight"]},
                 {"u1": [0, 0], "u2": [0, 1], "u3": [-3, 0], "u4": [-3, 2]})
    assert ("u3", "shoot") not in attacks(s, "u1") and ("u4", "shoot") not in attacks(s, "u1")
    assert codes(s, move("ann", "attack", unit="u1", target="u3", mode="shoot")) == ["silenced_attack"]
    assert ("u3", "shoot") in attacks(s, "u2")
    outside = position({"ann": ["wizard", "archer"], "bob": ["warder", "knight"]},
                       {"u1": [1, 0], "u2": [0, 1], "u3": [-3, 0], "u4": [-3, 2]})
    assert ("u3", "shoot") in attacks(outside, "u1")  # from 4 spaces away, into the aura


def test_a_roster_entry_must_name_its_damage_type():
    from rules.reign_supreme.content import check_roster, default_roster

    units = {t: dict(s) for t, s in default_roster("demon").items()}
    del units["knight"]["damage"]
    units["archer"]["damage"] = "fire"
    found = check_roster("demon", {"units": units})
    assert [v.code for v in found] == ["bad_unit_stats", "bad_unit_stats"]
    assert all("damage" in v.message for v in found)
