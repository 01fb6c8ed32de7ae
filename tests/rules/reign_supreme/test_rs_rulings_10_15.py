"""Rulings RS 10-15 (issue 16): acting outside your own turn, moves by others, Castle walls,
Palisades like Gates, magical attacks and Silence, Mines and Ruins passed over (rules doc:
§Outside your own turn, §Shooting, §Castles, §Gates and Palisades, §Auras, §Mines and Ruins).

Skirmish board unless said otherwise; unit ids ``u1``, ``u2``... in seat order then list order.
"""

from __future__ import annotations

from typing import Any

from rs_helpers import attacks, codes, destinations, move, of_type, play, position, refresh

from rules.reign_supreme import GAME
from rules.reign_supreme.state import clone


def construct(uid: str, action: str, target: Any, player: str = "ann") -> dict[str, Any]:
    return move(player, "construct", unit=uid, action=action, target=target)


# -- RS 11: moved by others ------------------------------------------------------------------------
def test_a_step_paid_by_construction_does_not_stop_shooting():
    """Ruling RS 11: the hastened Mangonel (movement 1) moves one step on the Engineer's point and
    may still shoot; a second step is its own movement and it may not."""
    s = position(
        {"ann": ["engineer", "mangonel"], "bob": ["knight"]},
        {"u1": [0, 0], "u2": [1, 0], "u3": [-3, 1]},
    )
    s, _ = play(s, construct("u1", "hasten", "u2"))
    one, _ = play(s, move("ann", "move", unit="u2", to=[1, 1]))
    assert ("u3", "shoot") in attacks(one, "u2")
    two, _ = play(s, move("ann", "move", unit="u2", to=[2, 1]))
    assert ("u3", "shoot") not in attacks(two, "u2")
    assert codes(two, move("ann", "attack", unit="u2", target="u3", mode="shoot")) == [
        "moved_this_turn"
    ]


# -- RS 15: Mines and Ruins ------------------------------------------------------------------------
def test_a_unit_knocked_onto_a_mine_takes_it_for_its_owner():
    """Ruling RS 15: a unit that Knockback puts on a Mine claims it (skirmish Mine [2, -1])."""
    s = position({"ann": ["general"], "bob": ["knight"]}, {"u1": [2, 1], "u2": [2, 0]})
    s, events = play(s, move("ann", "attack", unit="u1", target="u2", mode="melee", knockback=True))
    assert s["units"]["u2"]["at"] == [2, -1]
    assert of_type(events, "mine_taken") == [
        {"type": "mine_taken", "player": "bob", "at": [2, -1], "from": None}
    ]
    assert s["control"]["mines"] == ["bob", None]


def test_a_unit_teleporting_onto_a_ruin_takes_it():
    """Ruling RS 15: so does a unit that Teleport puts there (skirmish Ruin [1, 1])."""
    s = position({"ann": ["wizard"], "bob": ["knight"]}, {"u1": [0, 0], "u2": [-3, 1]})
    s, events = play(s, move("ann", "cast", unit="u1", spell="teleport", target=[1, 1]))
    assert of_type(events, "ruin_taken") == [
        {"type": "ruin_taken", "player": "ann", "at": [1, 1], "from": None}
    ]
    assert s["control"]["ruins"] == [None, "ann"]


# -- RS 14: magical attacks and Silence ------------------------------------------------------------
def test_a_magical_attack_cannot_be_made_from_inside_an_enemy_silence():
    """Ruling RS 14: the Wizard (Magic damage, range 4) inside bob's Warder's Silence cannot shoot;
    the Archer (Piercing) beside it can; from outside the aura the Wizard shoots into it."""
    s = position(
        {"ann": ["wizard", "archer"], "bob": ["warder", "knight"]},
        {"u1": [0, 0], "u2": [0, 1], "u3": [-3, 0], "u4": [-3, 2]},
    )
    assert ("u3", "shoot") not in attacks(s, "u1") and ("u4", "shoot") not in attacks(s, "u1")
    assert codes(s, move("ann", "attack", unit="u1", target="u3", mode="shoot")) == [
        "silenced_attack"
    ]
    assert ("u3", "shoot") in attacks(s, "u2")
    outside = position(
        {"ann": ["wizard", "archer"], "bob": ["warder", "knight"]},
        {"u1": [1, 0], "u2": [0, 1], "u3": [-3, 0], "u4": [-3, 2]},
    )
    assert ("u3", "shoot") in attacks(outside, "u1")  # from 4 spaces away, into the aura


def test_a_roster_entry_must_name_its_damage_type():
    from rules.reign_supreme.content import check_roster, default_roster

    units = {t: dict(s) for t, s in default_roster("demon").items()}
    del units["knight"]["damage"]
    units["archer"]["damage"] = "fire"
    found = check_roster("demon", {"units": units})
    assert [v.code for v in found] == ["bad_unit_stats", "bad_unit_stats"]
    assert all("damage" in v.message for v in found)


# -- RS 12: Castle walls ---------------------------------------------------------------------------
# Standard board, two players: ann's Castle [6,0] [6,1] [7,-1] [7,0] (Throne) [7,1] [8,-1] [8,0],
# her
# Gate w1 on [6,0]-[5,0]; Castle walls w3 [6,0]-[5,1], w5 [6,1]-[5,1], w7 [6,1]-[6,2].
STANDARD = {"scenario": "standard"}


def wall(state: dict, wid: str) -> dict | None:
    return next((w for w in state["walls"] if w["id"] == wid), None)


def test_every_outer_castle_edge_but_the_gates_is_a_castle_wall_of_20_hit_points():
    s = position({"ann": ["infantry"], "bob": ["knight"]}, **STANDARD)
    castle = {tuple(h) for h in s["kingdoms"]["ann"]["castle"]}
    mine = [w for w in s["walls"] if w["owner"] == "ann" and w["kind"] == "castle_wall"]
    assert len(mine) == 17 and all(w["hp"] == 20 for w in mine)  # 18 outer edges, one is the Gate
    assert all((tuple(w["edge"][0]) in castle) != (tuple(w["edge"][1]) in castle) for w in mine)
    assert [w["edge"] for w in mine[:3]] == [[[6, 0], [5, 1]], [[6, 0], [6, -1]], [[6, 1], [5, 1]]]
    assert (wall(s, "w3")["edge"], wall(s, "w7")["edge"]) == ([[6, 0], [5, 1]], [[6, 1], [6, 2]])


def test_nobody_crosses_a_castle_wall_its_owner_included_the_gate_is_the_way():
    """RS 12: ann's infantry (movement 2) in her Castle leaves by her Gate only; bob's knight
    outside cannot get in past the walls or her Gate (the issue's walk round the Gate)."""
    s = position(
        {"ann": ["infantry"], "bob": ["knight"]}, {"u1": [6, 1], "u2": [-8, 1]}, **STANDARD
    )
    dests = destinations(s, "u1")
    assert (5, 0) in dests and (6, 2) not in dests and (5, 1) not in dests
    assert codes(s, move("ann", "move", unit="u1", to=[6, 2])) == ["out_of_reach"]
    s = position(
        {"ann": ["infantry"], "bob": ["knight"]},
        {"u1": [8, 1], "u2": [5, 1]},
        first="bob",
        **STANDARD,
    )
    castle = {tuple(h) for h in s["kingdoms"]["ann"]["castle"]}
    assert not destinations(s, "u2") & castle


def test_a_castle_wall_is_attacked_like_a_gate_and_once_destroyed_opens_its_edge():
    """RS 12: bob's knight (attack 5) on [5,1] hits the wall w5: 5, no modifiers; at 0 the edge is
    open and it walks in; no damage reaches through."""
    s = position(
        {"ann": ["infantry"], "bob": ["knight"]},
        {"u1": [8, 1], "u2": [5, 1]},
        first="bob",
        **STANDARD,
    )
    assert ("w5", "melee") in attacks(s, "u2")
    hit, events = play(s, move("bob", "attack", unit="u2", target="w5", mode="melee"))
    assert of_type(events, "wall_attacked")[0]["damage"] == 5 and wall(hit, "w5")["hp"] == 15
    weak = clone(s)
    wall(weak, "w5")["hp"] = 5
    GAME.check_state(weak)
    gone, events = play(weak, move("bob", "attack", unit="u2", target="w5", mode="melee"))
    assert (
        of_type(events, "wall_destroyed")[0]["kind"] == "castle_wall" and wall(gone, "w5") is None
    )
    gone, _ = play(gone, move("bob", "end_turn"), move("ann", "end_turn"))
    assert (6, 1) in destinations(gone, "u2")


def test_a_castle_wall_is_repaired_by_3_and_gives_no_stealth():
    s = position(
        {"ann": ["engineer", "archer"], "bob": ["infantry"]},
        {"u1": [6, 1], "u2": [2, 1], "u3": [5, 1]},
        **STANDARD,
    )
    worn = clone(s)
    wall(worn, "w7")["hp"] = 10
    _, events = play(worn, construct("u1", "repair", "w7"))
    assert events[0]["hp"] == 13 and events[0]["gained"] == 3
    assert ("u3", "shoot") in attacks(
        s, "u2"
    )  # bob's infantry on a Castle wall's space: no Stealth


def test_a_custom_castles_gate_must_open_onto_its_kingdom_or_the_midfield():
    from rules.errors import InvalidSetup
    from rules.reign_supreme.content import default_scenarios

    scenario = default_scenarios()["standard"]
    k1 = scenario["kingdoms"][0]
    assert k1["gate"] == [[6, 0], [5, 0]]
    k1["hexes"] = [h for h in k1["hexes"] if h != [5, 0]]
    try:
        GAME.setup(["ann", "bob"], 1, {"scenario": scenario})
    except InvalidSetup as err:
        assert [v.code for v in err.violations] == ["bad_scenario"]
        assert "open onto" in err.violations[0].message
    else:
        raise AssertionError("a sealed Castle was accepted")


# -- RS 10: outside your own turn ------------------------------------------------------------------
def wounded(state: dict, **pins: int) -> dict:
    s = clone(state)
    for uid, n in pins.items():
        s["units"][uid]["pins"] = n
    refresh(s)
    GAME.check_state(s)
    return s


def test_another_player_who_can_heal_is_active_in_your_combat_phase_with_only_those_moves():
    """Ruling RS 10: in ann's Combat phase bob's Priest may heal his wounded Infantry; bob is
    active after ann, and his moves are the cast and concede."""
    s = position(
        {"ann": ["knight"], "bob": ["priest", "infantry"]},
        {"u1": [0, 0], "u2": [-3, 1], "u3": [-3, 2]},
    )
    assert s["active_players"] == ["ann"]  # nothing to heal yet
    s = wounded(s, u3=2)
    assert s["active_players"] == ["ann", "bob"]
    heal = move("bob", "cast", unit="u2", spell="healing", target="u3")
    assert GAME.legal_moves(s, "bob") == [heal, move("bob", "concede")]
    assert {m["player"] for m in GAME.legal_moves(s)} == {"ann", "bob"}
    for other in (
        move("bob", "move", unit="u3", to=[-2, 2]),
        move("bob", "end_turn"),
        move("bob", "attack", unit="u3", target="u1", mode="melee"),
    ):
        assert codes(s, other) == ["not_your_turn"]
    flags = {k: v for k, v in s["units"]["u2"].items() if k != "pins"}
    s, events = play(s, heal)
    assert of_type(events, "healed")[0]["pins"] == 0 and s["units"]["u2"] == flags | {"pins": 0}
    assert s["active_players"] == ["ann"] and s["turn"] == "ann"  # Healing cools down: bob is done


def test_nobody_is_waited_for_the_turn_player_goes_on_and_end_turn_ends_the_chance():
    s = position(
        {"ann": ["knight"], "bob": ["priest", "infantry"]},
        {"u1": [0, 0], "u2": [-3, 1], "u3": [-3, 2]},
    )
    s = wounded(s, u3=2)
    s, _ = play(s, move("ann", "move", unit="u1", to=[1, 0]))
    assert s["active_players"] == ["ann", "bob"]  # still his chance, the game did not wait
    s, _ = play(s, move("ann", "end_turn"))
    assert s["turn"] == "bob" and s["active_players"] == ["bob"]  # ann has no spell to cast
    assert move("bob", "cast", unit="u2", spell="healing", target="u3") in GAME.legal_moves(
        s, "bob"
    )


def test_outside_your_turn_no_blast_cone_or_arc_and_a_teleport_keeps_the_units_turn():
    """Ruling RS 10: combat spells stay the casting unit's own move; Teleport may be cast, and
    the unit's own next turn is whole."""
    s = position(
        {"ann": ["knight"], "bob": ["battlemage", "wizard"]},
        {"u1": [0, 0], "u2": [1, 0], "u3": [-3, 1]},
    )
    assert codes(s, move("bob", "cast", unit="u2", spell="blast", target=[0, 0])) == [
        "combat_spell_own_move"
    ]
    assert not [m for m in GAME.legal_moves(s, "bob") if m.get("spell") == "blast"]
    s, events = play(s, move("bob", "cast", unit="u3", spell="teleport", target=[-3, 3]))
    assert of_type(events, "teleported")[0]["to"] == [-3, 3] and s["units"]["u3"]["acted"] is False
    s, _ = play(s, move("ann", "end_turn"))
    assert {
        m["to"][0] for m in GAME.legal_moves(s, "bob") if m["type"] == "move" and m["unit"] == "u3"
    }


def test_a_cast_outside_your_turn_is_answered_like_any_other():
    """Ruling RS 10: ann's Warder may Counterspell bob's Healing cast in ann's turn; then ann is
    active again, and bob (spell spent) is not."""
    s = position(
        {"ann": ["warder"], "bob": ["priest", "infantry"]},
        {"u1": [1, 1], "u2": [-3, 1], "u3": [-3, 2]},
    )
    s = wounded(s, u3=2)
    s, _ = play(s, move("bob", "cast", unit="u2", spell="healing", target="u3"))
    assert s["active_players"] == ["ann"] and s["pending"] is not None
    s, events = play(s, move("ann", "cast", unit="u1", spell="counterspell", target=[-3, 2]))
    assert of_type(events, "spell_countered") and s["units"]["u3"]["pins"] == 2
    assert s["active_players"] == ["ann"] and s["pending"] is None


def test_active_players_tell_nothing_about_a_hand():
    """RS 10 and hidden information: a player holding any card is active in another player's
    Combat phase, whether or not it can be played now (a lone Haste cannot, a Fireball can), so
    active_players (public) depends only on public facts; with no card and no spell to cast he is
    not. (Hands are set directly: only who is active is looked at.)"""
    s = position(
        {"ann": ["knight"], "bob": ["infantry"]}, {"u1": [0, 0], "u2": [-3, 1]}, scenario="standard"
    )

    def active_with(hand: list[str]) -> list[str]:
        held = clone(s)
        held["hands"]["bob"] = hand
        refresh(held)
        return held["active_players"]

    assert active_with(["haste-1"]) == active_with(["fireball-1"]) == ["ann", "bob"]
    assert active_with([]) == ["ann"]
