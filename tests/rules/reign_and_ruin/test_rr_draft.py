"""The simultaneous secret draft (seed §2; rulings R&R 2): keep 2 of the packet in front of you,
pass the rest to the next seat once everyone has chosen, 7 → 5 → 3 → 1, the last card kept."""

from __future__ import annotations

import json

import pytest
from rr_helpers import apply, codes, event_types, move, play_state

from rules.errors import IllegalMove
from rules.reign_and_ruin import GAME

PLAYERS = ["ann", "bob", "cat"]


def new(players=PLAYERS, starting="bob"):
    return GAME.setup(players, 11, {"starting_player": starting})


def pick_first_two(state, player):
    packet = state["draft"]["packets"][player]
    return apply(state, move(player, "draft", cards=packet[:2]))


def test_everyone_chooses_at_once():
    state = new()
    assert state["active_players"] == PLAYERS
    legal = GAME.legal_moves(state)
    assert {m["player"] for m in legal} == set(PLAYERS)
    assert len(legal) == 3 * 21  # C(7, 2) pairs per packet
    for p in PLAYERS:
        mine = GAME.legal_moves(state, p)
        packet = state["draft"]["packets"][p]
        assert len(mine) == 21
        assert all(m["cards"][0] in packet and m["cards"][1] in packet for m in mine)
        assert all(packet.index(m["cards"][0]) < packet.index(m["cards"][1]) for m in mine)


def test_players_may_choose_in_any_order_and_picks_wait():
    state = new()
    packets = state["draft"]["packets"]
    state, events = pick_first_two(state, "cat")
    assert events == [{"type": "draft_pick", "player": "cat", "cards": packets["cat"][:2]}]
    assert state["active_players"] == ["ann", "bob"]
    assert state["draft"]["picks"]["cat"] == packets["cat"][:2]
    assert state["draft"]["packets"] == packets  # nothing passes until everyone has chosen
    assert state["draft"]["round"] == 1
    assert GAME.legal_moves(state, "cat") == []
    state, _ = pick_first_two(state, "ann")
    assert state["active_players"] == ["bob"]


def test_choosing_twice_is_refused():
    state, _ = pick_first_two(new(), "ann")
    packet = state["draft"]["packets"]["ann"]
    assert codes(state, move("ann", "draft", cards=packet[2:4])) == ["already_picked"]
    with pytest.raises(IllegalMove):
        GAME.apply(state, move("ann", "draft", cards=packet[2:4]))


def test_pick_order_does_not_matter():
    state = new()
    packet = state["draft"]["packets"]["ann"]
    a, _ = apply(state, move("ann", "draft", cards=[packet[0], packet[3]]))
    b, _ = apply(state, move("ann", "draft", cards=[packet[3], packet[0]]))
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
    assert a["draft"]["picks"]["ann"] == [packet[0], packet[3]]


def test_bad_picks():
    state = new()
    mine = state["draft"]["packets"]["ann"]
    theirs = state["draft"]["packets"]["bob"]
    assert codes(state, move("ann", "draft", cards=[mine[0]])) == ["wrong_pick_count"]
    assert codes(state, move("ann", "draft", cards=mine[:3])) == ["wrong_pick_count"]
    assert codes(state, move("ann", "draft", cards=[mine[0], mine[0]])) == ["duplicate_pick"]
    assert codes(state, move("ann", "draft", cards=[mine[0], theirs[0]])) == ["card_not_in_packet"]
    assert codes(state, move("ann", "draft", cards=[mine[0], state["draw_pile"][0]])) == [
        "card_not_in_packet"
    ]
    assert codes(state, move("ann", "draft", cards=mine[:2], card=mine[0])) == ["unexpected_field"]
    assert codes(state, move("ann", "fighter", card=mine[0])) == ["wrong_phase"]
    assert codes(state, move("zed", "draft", cards=mine[:2])) == ["unknown_player"]


def test_message_for_a_card_elsewhere_does_not_say_where_it_is():
    state = new()
    theirs = state["draft"]["packets"]["bob"][0]
    found = GAME.violations(
        state, move("ann", "draft", cards=[state["draft"]["packets"]["ann"][0], theirs])
    )
    assert "bob" not in found[0].message and "draw" not in found[0].message


def test_packets_pass_to_the_next_seat_when_everyone_has_chosen():
    state = new()
    before = state["draft"]["packets"]
    state, _ = pick_first_two(state, "ann")
    state, _ = pick_first_two(state, "bob")
    state, events = pick_first_two(state, "cat")
    assert event_types(events) == ["draft_pick", "packets_passed"]
    assert events[1] == {"type": "packets_passed", "round": 1}
    draft = state["draft"]
    assert draft["round"] == 2
    assert draft["packets"]["bob"] == before["ann"][2:]  # ann's packet goes to her left (bob)
    assert draft["packets"]["cat"] == before["bob"][2:]
    assert draft["packets"]["ann"] == before["cat"][2:]  # wrapping round the table
    assert draft["kept"] == {p: before[p][:2] for p in PLAYERS}
    assert draft["picks"] == {p: [] for p in PLAYERS}
    assert state["active_players"] == PLAYERS


def test_seven_five_three_one_and_the_last_card_is_kept():
    state = new()
    sizes = []
    kept_by_hand: dict[str, list[str]] = {p: [] for p in PLAYERS}
    for round_no in (1, 2, 3):
        assert state["draft"]["round"] == round_no
        sizes.append(len(state["draft"]["packets"]["ann"]))
        for p in PLAYERS:
            kept_by_hand[p] += state["draft"]["packets"][p][:2]
            state, events = pick_first_two(state, p)
    assert sizes == [7, 5, 3]
    assert event_types(events) == [
        "draft_pick",
        "packets_passed",
        "last_card_kept",
        "last_card_kept",
        "last_card_kept",
        "draft_finished",
        "turn_started",
    ]
    lasts = {e["player"]: e["card"] for e in events if e["type"] == "last_card_kept"}
    for p in PLAYERS:
        assert state["hands"][p] == kept_by_hand[p] + [lasts[p]]
        assert len(state["hands"][p]) == 7
    assert state["draft"] is None
    assert state["phase"] == "play"
    assert state["active_players"] == ["bob"]
    assert events[-2:] == [
        {"type": "draft_finished", "starting_player": "bob"},
        {"type": "turn_started", "player": "bob"},
    ]
    GAME.check_state(state)
    assert codes(state, move("ann", "draft", cards=state["hands"]["ann"][:2])) == ["wrong_phase"]


def test_two_players_swap_packets_back_and_forth():
    state = new(["ann", "bob"], "ann")
    first_ann = state["draft"]["packets"]["ann"]
    state, _ = pick_first_two(state, "bob")
    state, _ = pick_first_two(state, "ann")
    assert state["draft"]["packets"]["bob"] == first_ann[2:]


def test_draft_move_after_the_draft_is_refused():
    state = play_state({"ann": ["hexen-1", "hexen-2"], "bob": ["crou-1"]})
    assert codes(state, move("ann", "draft", cards=["hexen-1", "hexen-2"])) == ["wrong_phase"]


def test_four_player_draft_gives_everyone_seven():
    state = GAME.setup(["a", "b", "c", "d"], 3, {})
    while state["phase"] == "draft":
        state, _ = apply(state, GAME.legal_moves(state)[-1])
    assert all(len(h) == 7 for h in state["hands"].values())
    assert len(state["draw_pile"]) == 54 - 28
