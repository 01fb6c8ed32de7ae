"""Cooldown phase, Duration Control, Packing, the Reinforcement pin and the Deployment phase
(rules doc §Cooldown phase, §Duration Control, §Packed units, §Deployment phase, §Turn)."""

from __future__ import annotations

from rs_helpers import codes, move, of_type, play, position

from rules.reign_supreme import GAME
from rules.reign_supreme.state import clone

STANDARD = dict(scenario="standard")


def end(state):
    return play(state, move(state["turn"], "end_turn"))


def cooldown_of(events, player):
    return next(e for e in events if e["type"] == "cooldown" and e["player"] == player)


def test_every_players_pins_move_one_notch_each_turn():
    s = position({"ann": ["infantry"], "bob": ["infantry"]}, first="bob", **STANDARD)
    assert s["boards"]["ann"]["spell_pin"] == 4  # bob's first turn had a Cooldown phase already
    s, events = end(s)
    assert [e["player"] for e in of_type(events, "cooldown")] == ["ann", "bob"]
    for p in ("ann", "bob"):
        b = s["boards"][p]
        assert (b["spell_pin"], b["tactics_pin"], b["reinforcement_pin"]) == (3, 8, 8)


def test_mines_ruins_and_an_enemy_kingdom_move_pins_further():
    s = position(
        {"ann": ["infantry", "knight"], "bob": ["infantry"]},
        {"u2": [-5, 0]},
        first="bob",
        **STANDARD,
    )
    assert [-5, 0] in s["kingdoms"]["bob"]["hexes"]
    s = clone(s)
    s["control"] = {"mines": ["ann", None, None], "ruins": ["ann", "ann", None, "bob"]}
    s, events = end(s)
    e = cooldown_of(events, "ann")
    assert (e["mines"], e["ruins"], e["in_enemy_kingdom"]) == (1, 2, True)
    b = s["boards"]["ann"]
    assert b["spell_pin"] == 4 - (1 + 2)
    assert b["tactics_pin"] == 9 - (1 + 1 + 1)
    assert b["reinforcement_pin"] == 9 - (1 + 1 + 2)
    b = s["boards"]["bob"]
    assert (b["spell_pin"], b["tactics_pin"], b["reinforcement_pin"]) == (4 - 2, 9 - 1, 9 - 2)


def test_the_enemy_kingdom_extra_is_one_notch_however_many_units_are_there():
    s = position(
        {"ann": ["infantry", "knight", "knight"], "bob": ["infantry"]},
        {"u2": [-5, 0], "u3": [-6, 1]},
        first="bob",
        **STANDARD,
    )
    kingdom = s["kingdoms"]["bob"]["hexes"]
    assert [-5, 0] in kingdom and [-6, 1] in kingdom
    s, events = end(s)
    assert cooldown_of(events, "ann")["in_enemy_kingdom"] is True
    assert s["boards"]["ann"]["tactics_pin"] == 9 - (1 + 1)
    assert (
        cooldown_of(events, "bob")["in_enemy_kingdom"] is False
        and s["boards"]["bob"]["tactics_pin"] == 9 - 1
    )


def test_a_defeated_players_pins_stay_put():
    s = position({"ann": ["infantry"], "bob": ["infantry"], "cat": ["infantry"]}, **STANDARD)
    before = s["boards"]["ann"]
    s, events = play(s, move("ann", "concede"))
    assert s["turn"] == "bob"
    assert [e["player"] for e in of_type(events, "cooldown")] == ["bob", "cat"]
    assert s["boards"]["ann"]["spell_pin"] == before["spell_pin"]
    assert s["boards"]["ann"]["tactics_pin"] == before["tactics_pin"]
    assert s["boards"]["ann"]["reinforcement_pin"] == before["reinforcement_pin"]


def test_duration_control_draws_a_card_and_resets_to_ten_at_zero():
    s = position({"ann": ["infantry"], "bob": ["infantry"]}, first="bob", **STANDARD)
    s = clone(s)
    s["boards"]["ann"]["spell_pin"] = 1
    s["boards"]["ann"]["tactics_pin"] = 1
    top_spell, top_tactics = s["decks"]["spell"][0], s["decks"]["tactics"][0]
    hand = list(s["hands"]["ann"])
    s, events = end(s)
    assert s["boards"]["ann"]["spell_pin"] == 10 and s["boards"]["ann"]["tactics_pin"] == 10
    assert [e for e in of_type(events, "card_drawn") if e["player"] == "ann"] == [
        {"type": "card_drawn", "player": "ann", "deck": "spell", "card": top_spell},
        {"type": "card_drawn", "player": "ann", "deck": "tactics", "card": top_tactics},
    ]
    assert s["hands"]["ann"] == hand + [top_spell, top_tactics]
    assert top_spell not in s["decks"]["spell"]


def test_extra_notches_carry_over_past_zero():
    s = position({"ann": ["infantry"], "bob": ["infantry"]}, first="bob", **STANDARD)
    s = clone(s)
    s["boards"]["ann"]["spell_pin"] = 1
    s["control"]["ruins"] = ["ann", "ann", None, None]
    s, events = end(s)
    assert s["boards"]["ann"]["spell_pin"] == 8
    assert len([e for e in of_type(events, "card_drawn") if e["player"] == "ann"]) == 1


def test_an_empty_deck_is_refilled_from_its_discard_pile():
    s = position({"ann": ["infantry"], "bob": ["infantry"]}, first="bob", **STANDARD)
    s = clone(s)
    s["discards"]["spell"] = s["decks"]["spell"]
    s["decks"]["spell"] = []
    s["boards"]["ann"]["spell_pin"] = 1
    s, events = end(s)
    assert len([e for e in of_type(events, "card_drawn") if e["player"] == "ann"]) == 1
    assert s["discards"]["spell"] == []
    GAME.check_state(s)


def test_no_cards_no_duration_control_in_the_skirmish():
    s = position({"ann": ["infantry"], "bob": ["infantry"]})
    b = s["boards"]["ann"]
    assert (b["spell_pin"], b["tactics_pin"], b["reinforcement_pin"]) == (None, None, None)
    assert s["hands"] == {"ann": [], "bob": []}


def test_spell_cooldowns_and_effects_run_down_in_the_cooldown_phase():
    s = position({"ann": ["wizard"], "bob": ["infantry"]}, first="bob", **STANDARD)
    s = clone(s)
    s["boards"]["ann"]["spells"] = [{"unit": "u1", "spell": "teleport", "left": 1}]
    s["boards"]["ann"]["effects"] = [{"effect": "haste", "unit": "u1", "left": 2, "value": 2}]
    GAME.check_state(s)
    s, events = end(s)
    assert of_type(events, "spell_ready") == [
        {"type": "spell_ready", "player": "ann", "unit": "u1", "spell": "teleport"}
    ]
    assert s["boards"]["ann"]["spells"] == []
    assert s["boards"]["ann"]["effects"] == [
        {"effect": "haste", "unit": "u1", "left": 1, "value": 2}
    ]


def test_packing_takes_five_cooldown_phases_and_blocks_the_unit_meanwhile():
    s = position(
        {"ann": ["trebuchet"], "bob": ["infantry"]}, {"u1": [0, 0], "u2": [4, -4]}, **STANDARD
    )
    s, events = play(s, move("ann", "move", unit="u1", to=[1, 0]), move("ann", "unpack", unit="u1"))
    assert of_type(events, "packing_started")[0]["to"] == "unpacked"
    assert s["units"]["u1"]["packing"] == "unpacking"
    assert s["boards"]["ann"]["packing"] == [{"unit": "u1", "to": "unpacked", "notch": 0}]
    for _ in range(4):
        s, _ = end(s)
        assert s["units"]["u1"]["packing"] == "unpacking"
    assert s["turn"] == "ann"  # four Cooldown phases later: still unpacking, it may only reverse
    assert [m for m in GAME.legal_moves(s) if m.get("unit") == "u1"] == [
        move("ann", "pack", unit="u1")
    ]
    s, events = end(s)
    assert of_type(events, "packing_done") == [
        {"type": "packing_done", "player": "ann", "unit": "u1", "now": "unpacked"}
    ]
    assert s["units"]["u1"]["packing"] == "unpacked" and s["boards"]["ann"]["packing"] == []


def test_packing_can_be_reversed():
    s = position({"ann": ["trebuchet"], "bob": ["infantry"]}, {"u1": [0, 0]}, **STANDARD)
    s, _ = play(s, move("ann", "unpack", unit="u1"))
    s, _ = end(s)
    s, _ = end(s)  # ann's turn again: two Cooldown phases, notch 2
    assert s["boards"]["ann"]["packing"][0]["notch"] == 2
    assert codes(s, move("ann", "unpack", unit="u1")) == ["cannot_unpack"]
    s, events = play(s, move("ann", "pack", unit="u1"))
    assert s["boards"]["ann"]["packing"] == [{"unit": "u1", "to": "packed", "notch": 3}]
    assert s["units"]["u1"]["packing"] == "packing"


def test_attack_and_pack_in_the_same_turn():
    s = position({"ann": ["trebuchet"], "bob": ["infantry"]}, {"u1": [0, 0], "u2": [3, 0]})
    s = clone(s)
    s["units"]["u1"]["packing"] = "unpacked"
    s, _ = play(s, move("ann", "attack", unit="u1", target="u2", mode="shoot"))
    assert [m for m in GAME.legal_moves(s) if m.get("unit") == "u1"] == [
        move("ann", "pack", unit="u1")
    ]
    s, events = play(s, move("ann", "pack", unit="u1"))
    assert of_type(events, "packing_started") == [
        {"type": "packing_started", "player": "ann", "unit": "u1", "to": "packed", "notch": 0}
    ]
    assert s["units"]["u1"]["packing"] == "packing"
    assert codes(s, move("ann", "unpack", unit="u1")) == [
        "cannot_unpack"
    ]  # starting either ends its turn


def test_only_packed_units_pack():
    s = position({"ann": ["knight"], "bob": ["infantry"]})
    assert codes(s, move("ann", "pack", unit="u1")) == ["not_packed_unit"]


# -- deployment ------------------------------------------------------------------------------------
def deploy_ready(**at):
    """Standard game, bob's turn; ann has 6 units (5 set up, 1 waiting) and 1 deployment earned."""
    s = position(
        {"ann": ["infantry"] * 5 + ["knight"], "bob": ["infantry"]}, at, first="bob", **STANDARD
    )
    s = clone(s)
    s["boards"]["ann"]["deploys"] = 1
    return s


def test_deployment_phase_deploys_into_the_castle_and_fresh_units_cannot_act():
    s = deploy_ready()
    assert s["units"]["u6"]["at"] is None
    s, events = end(s)
    assert s["phase"] == "deployment" and s["turn"] == "ann"
    castle = {tuple(h) for h in s["kingdoms"]["ann"]["castle"]}
    free = castle - {tuple(u["at"]) for u in s["units"].values() if u["at"] is not None}
    legal = GAME.legal_moves(s)
    assert {tuple(m["to"]) for m in legal if m["type"] == "deploy"} == free
    assert {m["type"] for m in legal} == {"deploy", "end_deployment", "concede"}
    outside = next(h for h in s["kingdoms"]["ann"]["hexes"] if tuple(h) not in castle)
    assert codes(s, move("ann", "deploy", unit="u6", to=outside)) == ["not_a_deployment_space"]
    assert codes(s, move("ann", "move", unit="u1", to=[0, 0])) == ["wrong_phase"]
    to = sorted(free)[0]
    s, events = play(s, move("ann", "deploy", unit="u6", to=list(to)))
    assert s["units"]["u6"]["at"] == list(to) and s["boards"]["ann"]["deploys"] == 0
    assert s["phase"] == "combat"  # nothing more to deploy: the Combat phase starts
    assert codes(s, move("ann", "move", unit="u6", to=[4, 0])) == ["freshly_deployed"]
    assert [m for m in GAME.legal_moves(s) if m.get("unit") == "u6"] == []


def test_end_deployment_keeps_the_deployments_for_later():
    s = deploy_ready()
    s, _ = end(s)
    s, _ = play(s, move("ann", "end_deployment"))
    assert s["phase"] == "combat" and s["boards"]["ann"]["deploys"] == 1


def test_no_deployment_while_an_enemy_is_in_your_kingdom():
    s = deploy_ready(u7=[9, 0])
    assert [9, 0] in s["kingdoms"]["ann"]["hexes"] and [9, 0] not in s["kingdoms"]["ann"]["castle"]
    s, _ = end(s)
    assert s["turn"] == "ann" and s["phase"] == "combat"
    assert s["boards"]["ann"]["deploys"] == 1
    assert codes(s, move("ann", "deploy", unit="u6", to=[7, 0])) == ["wrong_phase"]


def test_the_reinforcement_pin_earns_two_deployments_at_zero():
    s = position(
        {"ann": ["infantry"] * 5 + ["knight"], "bob": ["infantry"]}, first="bob", **STANDARD
    )
    s = clone(s)
    s["boards"]["ann"]["reinforcement_pin"] = 1
    s, events = end(s)
    assert cooldown_of(events, "ann")["deploys_gained"] == 2
    assert s["boards"]["ann"]["reinforcement_pin"] == 10 and s["boards"]["ann"]["deploys"] == 2
    assert s["phase"] == "deployment"


def test_without_waiting_units_there_is_no_deployment_phase():
    s = position({"ann": ["infantry"], "bob": ["infantry"]}, first="bob", **STANDARD)
    s = clone(s)
    s["boards"]["ann"]["deploys"] = 4
    s, _ = end(s)
    assert s["phase"] == "combat"


def test_rounds_count_turns_of_every_player():
    s = position({"ann": ["infantry"], "bob": ["infantry"], "cat": ["infantry"]}, first="bob")
    assert s["round"] == 1
    s, _ = end(s)
    assert (s["turn"], s["round"]) == ("cat", 1)
    s, _ = end(s)
    assert (s["turn"], s["round"]) == ("ann", 1)
    s, _ = end(s)
    assert (s["turn"], s["round"]) == ("bob", 2)


def test_deployments_earned_while_nothing_waits_stop_at_99_and_the_state_stays_sound():
    # before, the Reinforcement pin kept adding 2 every reset: ann, holding every Mine and Ruin
    # with nothing left to deploy, reached 100 in round 22 and the state check refused the state
    # apply had made (bad_pin: "deploys must be 0 to 99")
    s = clone(position({p: ["infantry"] * 3 for p in ("ann", "bob", "cat")}, scenario="standard"))
    s["control"] = {"mines": ["ann"] * 3, "ruins": ["ann"] * 4}
    s["boards"]["ann"]["deploys"] = 97
    GAME.check_state(s)
    resets = []  # deployments gained each time ann's pin went round
    pin = s["boards"]["ann"]["reinforcement_pin"]
    while len(resets) < 4:
        s, events = play(s, move(s["turn"], "end_turn"))
        GAME.check_state(s)
        for e in of_type(events, "cooldown"):
            if e["player"] == "ann":
                if e["reinforcement_pin"] > pin:
                    resets.append(e["deploys_gained"])
                pin = e["reinforcement_pin"]
    assert resets == [2, 0, 0, 0] and s["boards"]["ann"]["deploys"] == 99
