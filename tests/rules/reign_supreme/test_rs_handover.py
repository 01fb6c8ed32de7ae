"""Defeat in games of three or more: the Throne capturer takes over the loser's units (rules doc
§Victory; seed: Victory Conditions - "If there is more than two opponents, a player assumes
control over all remaining units of the opponent they have defeated"; Castle), and conceding
in the middle of the answer stack (rules doc §Answers, §Concede).

Standard board, three players: ann's Throne [7,0], bob's Castle around his Throne [0,-7] with
his Gate ``w2`` on [0,-6]-[0,-5], cat's Throne [-7,7].
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from rs_helpers import codes, move, of_type, play, position, refresh

from rules.errors import InvalidState
from rules.reign_supreme import GAME
from rules.reign_supreme.auras import prune_engaged
from rules.reign_supreme.state import THRONE_CAPTURE_DEPLOYS, clone

THREE = {"ann": ["knight"], "bob": ["wizard", "trebuchet", "infantry"], "cat": ["infantry"]}
# ann's knight on bob's Gate space inside his Castle, next to his Throne; bob's wizard and
# trebuchet elsewhere in his Kingdom, his infantry waiting to be deployed
THREE_AT = {"u1": [0, -6], "u2": [-1, -6], "u3": [1, -8], "u4": None, "u5": [-7, 7]}
PALISADE = "w55"  # after the 3 Gates and 3 x 17 Castle walls


def prepared(state: dict[str, Any]) -> dict[str, Any]:
    """bob's wizard has Teleport cooling down, his trebuchet is unpacking, and he has built a
    Palisade (``PALISADE``, the next wall id) inside his Castle."""
    s = clone(state)
    s["boards"]["bob"]["spells"] = [{"unit": "u2", "spell": "teleport", "left": 3}]
    s["boards"]["bob"]["packing"] = [{"unit": "u3", "to": "unpacked", "notch": 2}]
    s["units"]["u3"]["packing"] = "unpacking"
    s["wall_serial"] += 1
    assert f"w{s['wall_serial']}" == PALISADE
    s["walls"].append(
        {"id": PALISADE, "kind": "palisade", "owner": "bob", "edge": [[-1, -7], [-1, -6]], "hp": 4}
    )
    prune_engaged(s)
    refresh(s)
    GAME.check_state(s)
    return s


def capture(state: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    return play(state, move("ann", "move", unit="u1", to=[0, -7]))


def test_in_a_three_player_game_the_throne_capturer_takes_over_all_the_losers_units():
    s = prepared(position(THREE, THREE_AT, scenario="standard"))
    hand = list(s["hands"]["bob"])
    assert len(hand) == 4  # 2 spell and 2 tactics cards
    s, events = capture(s)
    assert s["hands"]["bob"] == [] and s["hands"]["ann"][-4:] == hand
    assert of_type(events, "throne_captured") == [
        {"type": "throne_captured", "player": "ann", "loser": "bob", "at": [0, -7]}
    ]
    defeated = of_type(events, "player_defeated")
    assert defeated == [
        {
            "type": "player_defeated",
            "player": "bob",
            "reason": "throne_captured",
            "units_removed": [],
            "by": "ann",
            "cards_passed": 4,
            "units_handed_over": ["u2", "u3", "u4"],
        }
    ]
    units = s["units"]
    assert {uid: (u["owner"], u["army"], u["at"]) for uid, u in units.items()} == {
        "u1": ("ann", "resistance", [0, -7]),
        "u2": ("ann", "greenskin", [-1, -6]),
        "u3": ("ann", "greenskin", [1, -8]),
        "u4": ("ann", "greenskin", None),
        "u5": ("cat", "undead", [-7, 7]),
    }
    assert s["status"] == "in_progress" and s["defeated"] == ["bob"] and s["turn"] == "ann"


def test_the_handed_over_units_keep_their_action_board_pins_and_the_walls_change_hands():
    s = prepared(position(THREE, THREE_AT, scenario="standard"))
    s, _ = capture(s)
    assert s["boards"]["ann"]["spells"] == [{"unit": "u2", "spell": "teleport", "left": 3}]
    assert s["boards"]["ann"]["packing"] == [{"unit": "u3", "to": "unpacked", "notch": 2}]
    assert s["boards"]["bob"]["spells"] == [] and s["boards"]["bob"]["packing"] == []
    assert s["units"]["u3"]["packing"] == "unpacking"
    gates = {w["id"]: w["owner"] for w in s["walls"] if w["kind"] != "castle_wall"}
    assert gates == {"w1": "ann", "w2": "ann", "w3": "cat", PALISADE: "ann"}
    castle_walls = {w["owner"] for w in s["walls"] if w["kind"] == "castle_wall"}
    assert castle_walls == {"ann", "cat"}  # bob's 17 Castle walls are ann's now
    assert s["boards"]["ann"]["deploys"] == THRONE_CAPTURE_DEPLOYS


def test_handed_over_units_act_from_the_capturers_next_turn():
    s = position(THREE, THREE_AT, scenario="standard")
    s, _ = capture(s)
    assert codes(s, move("ann", "move", unit="u2", to=[-2, -5])) == ["freshly_deployed"]
    assert not [m for m in GAME.legal_moves(s) if m.get("unit") in ("u2", "u3")]
    s, events = play(s, move("ann", "end_turn"))
    assert s["turn"] == "cat"  # bob is skipped
    s, _ = play(s, move("cat", "end_turn"))
    assert s["turn"] == "ann" and s["phase"] == "deployment"
    assert move("ann", "deploy", unit="u4", to=[0, -8]) in GAME.legal_moves(s)  # into bob's Castle
    s, _ = play(s, move("ann", "end_deployment"))
    assert move("ann", "move", unit="u2", to=[-2, -5]) in GAME.legal_moves(s)
    s, events = play(s, move("ann", "move", unit="u2", to=[-2, -5]))
    assert s["units"]["u2"]["at"] == [-2, -5]


def test_in_a_two_player_game_a_throne_capture_ends_the_game_and_nothing_is_handed_over():
    s = position(
        {"ann": ["knight"], "bob": ["wizard", "infantry"]},
        {"u1": [-6, 0], "u2": [-8, 1], "u3": None},
        scenario="standard",
    )
    s, events = play(s, move("ann", "move", unit="u1", to=[-7, 0]))
    defeated = of_type(events, "player_defeated")[0]
    assert defeated["units_removed"] == ["u2", "u3"] and "units_handed_over" not in defeated
    assert set(s["units"]) == {"u1"} and s["status"] == "finished"
    assert of_type(events, "game_over")[0]["winners"] == ["ann"]


def test_conceding_never_hands_units_over():
    s = position(THREE, {**THREE_AT, "u1": [3, 0]}, scenario="standard", first="bob")
    s, events = play(s, move("bob", "concede"))
    defeated = of_type(events, "player_defeated")[0]
    assert defeated == {
        "type": "player_defeated",
        "player": "bob",
        "reason": "concede",
        "units_removed": ["u2", "u3", "u4"],
    }
    assert set(s["units"]) == {"u1", "u5"} and s["turn"] == "cat"
    assert [w["owner"] for w in s["walls"] if w["kind"] == "gate"] == [
        "ann",
        "bob",
        "cat",
    ]  # bob's Gate stays his


def test_conceding_while_answering_takes_the_player_out_and_the_turn_player_is_active_again():
    # ann's knight attacks bob's infantry (Counterattack): bob is asked, and concedes instead
    s = position(
        {"ann": ["knight"], "bob": ["infantry"], "cat": ["infantry"]},
        {"u1": [0, 0], "u2": [1, 0], "u3": [-3, 0]},
        scenario="standard",
    )
    s, _ = play(s, move("ann", "attack", unit="u1", target="u2", mode="melee"))
    assert s["active_players"] == ["bob"] and s["pending"] is not None
    s, events = play(s, move("bob", "concede"))
    assert of_type(events, "player_defeated")[0]["units_removed"] == ["u2"]
    assert of_type(events, "attack_cancelled") == [
        {
            "type": "attack_cancelled",
            "player": "ann",
            "unit": "u1",
            "target": "u2",
            "reason": "target_gone",
        }
    ]
    assert (
        s["pending"] is None and s["active_players"] == ["ann", "cat"] and s["turn"] == "ann"
    )  # cat: cards
    assert s["units"]["u1"]["pins"] == 0 and s["status"] == "in_progress"


def test_a_capturer_may_hold_more_than_ten_palisades_and_the_state_stays_sound():
    # before, the hand-over gave ann 12 Palisades and the state check refused the very state
    # apply had just made (bad_walls: "more than 10"), so no other worker would take it back
    s = clone(position(THREE, THREE_AT, scenario="standard"))
    for owner, spaces in (("ann", range(-3, 3)), ("bob", range(-1, 5))):
        for q in spaces:
            s["wall_serial"] += 1
            edge = [[q, 0], [q, 1]] if owner == "ann" else [[q, -2], [q, -1]]
            wall = {"id": f"w{s['wall_serial']}", "kind": "palisade", "owner": owner}
            s["walls"].append(dict(wall, edge=edge, hp=4))
    prune_engaged(s)
    refresh(s)
    GAME.check_state(s)
    s, _ = capture(s)
    held = [w for w in s["walls"] if w["kind"] == "palisade" and w["owner"] == "ann"]
    assert len(held) == 12
    GAME.check_state(s)  # sound: a capturer holds up to 10 more per defeated player
    free = [(q, 2) for q in range(-4, 2)] + [(q, 3) for q in range(-4, -1)]
    for q, r in free:  # 21: more than one loser's Palisades could have brought
        s["wall_serial"] += 1
        s["walls"].append(dict(held[0], id=f"w{s['wall_serial']}", edge=[[q, r], [q, r + 1]]))
    with pytest.raises(InvalidState) as refused:
        GAME.check_state(s)
    assert [v.message for v in refused.value.violations] == ["A player has more than 20 Palisades."]


def test_a_player_who_concedes_while_answering_leaves_a_state_the_check_takes_back():
    """A fuzzer's game (seed 100081, four players): ann's Blast was counterspelled by dan, and
    ann, asked to answer, concedes. Her units leave the board with her Blast still on the stack
    (it fizzles when reached). Before, the state check refused the state apply had made
    (``bad_pending``: a declaration without its unit), so another worker, or a fork, could not go
    on from it."""
    game = json.loads((Path(__file__).parent / "concede_while_answering.json").read_text())
    s = GAME.setup(game["players"], game["seed"], game["options"])
    for m in game["moves"]:
        s, _ = play(s, m)
    assert s["pending"] is not None and s["active_players"] == ["ann"]
    s, _ = play(s, move("ann", "concede"))
    assert "ann" in s["defeated"] and s["pending"] is not None
    GAME.check_state(json.loads(json.dumps(s)))
    for answer in GAME.legal_moves(s):  # and the game goes on from it
        after, _ = GAME.apply(s, answer)
        GAME.check_state(after)


def test_a_captured_kingdom_is_no_enemy_kingdom_for_the_tactics_pin():
    """Seed, Cooldown: "If the player has units in an enemy Kingdom, move the Supply Pin over one
    additional notch." ann's Knight takes bob's Throne and stays there: bob is out, so his
    Kingdom is nobody's enemy Kingdom and ann's Cooldowns earn no extra notch for it."""
    base = GAME.setup(
        ["ann", "bob", "cat"],
        1,
        {"setup": "auto", "first_player": "ann", "army_lists": {"ann": ["knight"]}},
    )
    kingdom = base["kingdoms"]["bob"]
    throne = kingdom["throne"]
    beside = next(h for h in kingdom["castle"] if h != throne)
    s = position(
        {"ann": ["knight", "infantry"], "bob": ["infantry"], "cat": ["infantry"]},
        {"u1": beside, "u2": [0, 0], "u3": [1, 0], "u4": [0, 2]},
        scenario="standard",
        players=["ann", "bob", "cat"],
    )
    s, events = GAME.apply(s, move("ann", "move", unit="u1", to=throne))
    assert "bob" in s["defeated"]
    seen = []
    for _ in range(3):  # ann's turn ends, cat's, then ann's Cooldown
        s, events = GAME.apply(s, move(s["turn"], "end_turn"))
        seen += [
            e["in_enemy_kingdom"]
            for e in events
            if e["type"] == "cooldown" and e["player"] == "ann"
        ]
    assert seen and not any(seen)
