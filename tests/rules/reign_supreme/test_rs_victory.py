"""Throne capture, last player standing, the round limit and its tie-break, concede
(rules doc §Castles, §Victory, §Round limit, §Concede)."""

from __future__ import annotations

from rs_helpers import codes, move, of_type, play, position

from rules.reign_supreme import GAME
from rules.reign_supreme.state import clone

STANDARD = dict(scenario="standard")


def test_moving_onto_an_enemy_throne_defeats_its_owner_two_players():
    s = position(
        {"ann": ["knight"], "bob": ["infantry", "archer"]},
        {"u1": [-6, 0], "u2": [-9, 0], "u3": [-9, 1]},
        **STANDARD,
    )
    throne = s["kingdoms"]["bob"]["throne"]
    assert throne == [-7, 0]
    s, events = play(s, move("ann", "move", unit="u1", to=throne))
    assert of_type(events, "throne_captured") == [
        {"type": "throne_captured", "player": "ann", "loser": "bob", "at": [-7, 0]}
    ]
    defeat = of_type(events, "player_defeated")[0]
    assert defeat["reason"] == "throne_captured" and defeat["by"] == "ann"
    assert s["status"] == "finished" and s["outcome"]["winners"] == ["ann"]
    assert s["outcome"]["reason"] == "last_standing"
    assert not any(u["owner"] == "bob" for u in s["units"].values())
    assert GAME.legal_moves(s) == []


def test_a_captured_throne_passes_cards_mines_and_ruins_and_gives_three_deployments():
    s = position(
        {"ann": ["knight"], "bob": ["infantry"], "cat": ["infantry"]},
        {"u1": [0, -6], "u2": [0, -9]},
        **STANDARD,
    )
    assert s["kingdoms"]["bob"]["throne"] == [0, -7]
    s = clone(s)
    s["control"]["mines"] = ["bob", "cat", None]
    s["control"]["ruins"] = ["bob", None, None, None]
    bob_hand = list(s["hands"]["bob"])
    ann_hand = list(s["hands"]["ann"])
    s, events = play(s, move("ann", "move", unit="u1", to=[0, -7]))
    assert s["defeated"] == ["bob"] and s["status"] == "in_progress"
    assert (
        s["hands"]["ann"][: len(ann_hand)] == ann_hand
        and s["hands"]["ann"][len(ann_hand) :] == bob_hand
    )
    assert s["hands"]["bob"] == []
    assert s["control"]["mines"] == ["ann", "cat", None] and s["control"]["ruins"] == [
        "ann",
        None,
        None,
        None,
    ]
    assert s["boards"]["ann"]["deploys"] == 3
    assert s["zones"]["ann"] == ["bob"]
    assert s["turn"] == "ann" and s["active_players"] == [
        "ann",
        "cat",
    ]  # cat may play a card (RS 10)


def capture_with_a_unit_waiting(cat_at=None):
    """3 players (ann k1, bob k3, cat k5): ann's knight takes bob's Throne while ann's infantry
    waits to deploy; then cat's turn, then ann's."""
    at = {"u1": [0, -6], "u2": None, "u3": [1, -9]}
    if cat_at is not None:
        at["u4"] = cat_at
    s = position(
        {"ann": ["knight", "infantry"], "bob": ["infantry"], "cat": ["infantry"]}, at, **STANDARD
    )
    s, _ = play(
        s,
        move("ann", "move", unit="u1", to=[0, -7]),
        move("ann", "end_turn"),
        move("cat", "end_turn"),
    )
    return s


def test_the_capturer_deploys_into_the_captured_castle():
    s = capture_with_a_unit_waiting()
    assert s["turn"] == "ann" and s["phase"] == "deployment" and s["boards"]["ann"]["deploys"] == 3
    spaces = {tuple(m["to"]) for m in GAME.legal_moves(s) if m["type"] == "deploy"}
    own = {tuple(h) for h in s["kingdoms"]["ann"]["castle"]}
    captured = {tuple(h) for h in s["kingdoms"]["bob"]["castle"]} - {
        (0, -7)
    }  # ann's knight is on the Throne
    assert spaces == own | captured
    s, _ = play(s, move("ann", "deploy", unit="u2", to=[0, -8]))
    assert s["units"]["u2"]["at"] == [0, -8]


def test_a_captured_castle_is_no_deployment_zone_while_another_player_is_in_that_kingdom():
    s = capture_with_a_unit_waiting(cat_at=[0, -9])
    assert [0, -9] in s["kingdoms"]["bob"]["hexes"] and s["phase"] == "deployment"
    spaces = {tuple(m["to"]) for m in GAME.legal_moves(s) if m["type"] == "deploy"}
    assert spaces == {tuple(h) for h in s["kingdoms"]["ann"]["castle"]}
    assert codes(s, move("ann", "deploy", unit="u2", to=[0, -8])) == ["not_a_deployment_space"]


def test_own_throne_is_not_a_capture():
    s = position({"ann": ["knight"], "bob": ["infantry"]}, {"u1": [6, 0]}, **STANDARD)
    s, events = play(s, move("ann", "move", unit="u1", to=[7, 0]))
    assert of_type(events, "throne_captured") == [] and s["status"] == "in_progress"


def test_the_last_player_with_units_on_the_board_wins():
    s = position({"ann": ["knight"], "bob": ["infantry"]}, {"u1": [0, 0], "u2": [1, 0]})
    s = clone(s)
    s["units"]["u2"]["pins"] = 9
    s, events = play(
        s, move("ann", "attack", unit="u1", target="u2", mode="melee"), move("bob", "pass")
    )
    assert of_type(events, "player_defeated")[0]["reason"] == "no_units"
    assert events[-1]["type"] == "game_over"
    assert s["outcome"]["winners"] == ["ann"] and s["outcome"]["draw"] is False
    assert s["outcome"]["scores"] == {"ann": 8, "bob": 0}


def test_units_waiting_to_deploy_do_not_keep_a_player_in():
    s = position(
        {"ann": ["knight"], "bob": ["infantry", "archer"]},
        {"u1": [0, 0], "u2": [1, 0], "u3": None},
        **STANDARD,
    )
    s = clone(s)
    s["units"]["u2"]["pins"] = 9
    s, events = play(
        s, move("ann", "attack", unit="u1", target="u2", mode="melee"), move("bob", "pass")
    )
    assert s["status"] == "finished" and s["outcome"]["winners"] == ["ann"]


def test_the_round_limit_ends_the_game_and_strength_decides():
    s = position({"ann": ["knight"], "bob": ["infantry"]}, round_limit=1)
    s, _ = play(s, move("ann", "end_turn"))
    assert s["status"] == "in_progress" and s["turn"] == "bob"
    s, events = play(s, move("bob", "end_turn"))
    assert s["status"] == "finished" and s["outcome"]["reason"] == "round_limit"
    assert s["outcome"]["scores"] == {"ann": 8, "bob": 10}
    assert s["outcome"]["winners"] == ["bob"]
    assert GAME.score(s).breakdown["tie_break"] is None


def test_round_limit_tie_break_kills_then_draw():
    s = position(
        {"ann": ["knight"], "bob": ["knight"]},
        round_limit=1,
        armies={"ann": "resistance", "bob": "resistance"},
    )
    s = clone(s)
    s["kills"] = {"ann": 0, "bob": 2}
    s, _ = play(s, move("ann", "end_turn"), move("bob", "end_turn"))
    assert s["outcome"]["winners"] == ["bob"] and GAME.score(s).breakdown["tie_break"] == "kills"
    s = position(
        {"ann": ["knight"], "bob": ["knight"]},
        round_limit=1,
        armies={"ann": "resistance", "bob": "resistance"},
    )
    s, _ = play(s, move("ann", "end_turn"), move("bob", "end_turn"))
    assert s["outcome"]["winners"] == ["ann", "bob"] and s["outcome"]["draw"] is True
    assert GAME.score(s).breakdown["tie_break"] == "draw"


def test_strength_counts_units_waiting_to_deploy():
    s = position(
        {"ann": ["knight", "knight"], "bob": ["infantry"]}, {"u2": None}, round_limit=1, **STANDARD
    )
    assert GAME.score(s).breakdown["players"]["ann"]["units_waiting"] == 1
    s, _ = play(s, move("ann", "end_turn"), move("bob", "end_turn"))
    assert s["outcome"]["reason"] == "round_limit"
    assert s["outcome"]["scores"] == {"ann": 8 + 8, "bob": 10} and s["outcome"]["winners"] == [
        "ann"
    ]


def test_a_conceding_player_loses_mines_ruins_and_cards():
    s = position({"ann": ["knight"], "bob": ["infantry"], "cat": ["infantry"]}, **STANDARD)
    s = clone(s)
    s["control"]["mines"] = ["ann", "bob", None]
    s["control"]["ruins"] = [None, "ann", None, None]
    hand = list(s["hands"]["ann"])
    s, events = play(s, move("ann", "concede"))
    assert of_type(events, "player_defeated")[0]["reason"] == "concede"
    assert s["control"] == {"mines": [None, "bob", None], "ruins": [None, None, None, None]}
    assert s["hands"]["ann"] == [] and set(hand) <= set(
        s["discards"]["spell"] + s["discards"]["tactics"]
    )


def test_the_default_round_limit_is_thirty():
    s = position({"ann": ["knight"], "bob": ["infantry"]})
    assert s["scenario"]["round_limit"] == 30
    while s["status"] != "finished":
        s, _ = play(s, move(s["turn"], "end_turn"))
    assert s["round"] == 30 and s["outcome"]["reason"] == "round_limit"


def test_concede_is_listed_for_the_active_player_in_every_phase():
    s = GAME.setup(["ann", "bob"], 3, {"first_player": "ann"})
    assert {"player": "ann", "type": "concede"} in GAME.legal_moves(s)
    assert codes(s, move("bob", "concede")) == ["not_your_turn"]
    s2, events = play(s, move("ann", "concede"))
    assert s2["status"] == "finished" and s2["outcome"]["winners"] == ["bob"]
    s = position({"ann": ["knight"], "bob": ["infantry"], "cat": ["infantry"]})
    s, events = play(s, move("ann", "concede"))
    assert s["defeated"] == ["ann"] and s["turn"] == "bob" and s["status"] == "in_progress"
    assert not any(u["owner"] == "ann" for u in s["units"].values())
    assert codes(s, move("ann", "end_turn")) == ["defeated"]
    assert GAME.legal_moves(s, "ann") == []


def test_conceding_during_set_up_passes_set_up_on():
    s = GAME.setup(["ann", "bob", "cat"], 3, {"first_player": "ann", "scenario": "skirmish"})
    s, _ = play(s, move("ann", "concede"))
    assert s["phase"] == "setup" and s["turn"] == "bob"
