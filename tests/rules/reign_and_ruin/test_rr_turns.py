"""Turns and the end of the game (seed §4; rulings R&R 4 and R&R 10, rules doc §Final round)."""

from __future__ import annotations

import pytest
from rr_helpers import apply, codes, event_types, first, move, play_state

from rules.errors import InvalidState
from rules.reign_and_ruin import GAME
from rules.reign_and_ruin.turns import end_turn


def test_turns_go_clockwise_and_nobody_may_pass():
    state = play_state(
        {
            "ann": ["hexen-1", "hexen-2"],
            "bob": ["hexen-3", "hexen-4"],
            "cat": ["hexen-5", "crou-1"],
        },
        active="bob",
    )
    assert {m["player"] for m in GAME.legal_moves(state)} == {"bob"}
    assert GAME.legal_moves(state, "ann") == [] and GAME.legal_moves(state, "zed") == []
    assert all(m["type"] != "pass" for m in GAME.legal_moves(state))
    assert codes(state, move("ann", "fighter", card="hexen-1")) == ["not_your_turn"]
    state, _ = apply(state, move("bob", "fighter", card="hexen-3"))
    assert state["active_players"] == ["cat"]
    state, _ = apply(state, move("cat", "fighter", card="hexen-5"))
    assert state["active_players"] == ["ann"]


def test_last_card_starts_the_final_round_others_play_once_in_seat_order():
    state = play_state(
        {
            "ann": ["hexen-1", "hexen-2"],
            "bob": ["hexen-3"],
            "cat": ["hexen-5", "hexen-6"],
            "dan": ["hexen-7", "crou-1"],
        },
        active="bob",
    )
    state, events = apply(state, move("bob", "fighter", card="hexen-3"))
    assert event_types(events) == ["fighter_played", "final_round_started", "turn_started"]
    assert first(events, "final_round_started") == {
        "type": "final_round_started",
        "ended_by": "bob",
        "to_play": ["cat", "dan", "ann"],
    }
    assert state["phase"] == "final_round"
    assert state["final_round"] == {"ended_by": "bob", "to_play": ["cat", "dan", "ann"]}
    assert state["active_players"] == ["cat"]
    found = GAME.violations(state, move("bob", "fighter", card="hexen-4"))
    assert [(v.code, v.rule) for v in found] == [("not_your_turn", "reign-and-ruin#final-round")]
    assert codes(state, move("dan", "fighter", card="hexen-7")) == ["not_your_turn"]
    state, events = apply(state, move("cat", "fighter", card="hexen-5"))
    assert state["final_round"]["to_play"] == ["dan", "ann"]
    assert events[-1] == {"type": "turn_started", "player": "dan"}
    assert codes(state, move("cat", "fighter", card="hexen-6")) == ["not_your_turn"]
    state, _ = apply(state, move("dan", "fighter", card="hexen-7"))
    assert state["active_players"] == ["ann"]
    state, events = apply(state, move("ann", "fighter", card="hexen-1"))
    assert state["status"] == "finished" and state["phase"] == "finished"
    assert state["active_players"] == []
    assert state["final_round"] == {"ended_by": "bob", "to_play": []}
    assert state["hands"]["cat"] == ["hexen-6"]  # one card each, however many they still hold
    assert event_types(events) == ["fighter_played", "game_over"]
    assert state["outcome"] == {
        "winners": ["dan"],
        "draw": False,
        "scores": {"ann": 1, "bob": 3, "cat": 5, "dan": 7},
        "reason": "game_end",
    }
    assert events[-1] == {
        "type": "game_over",
        "winners": ["dan"],
        "draw": False,
        "scores": {"ann": 1, "bob": 3, "cat": 5, "dan": 7},
    }
    assert GAME.legal_moves(state) == []
    assert codes(state, move("cat", "fighter", card="hexen-6")) == ["game_finished"]


def test_the_player_who_ended_it_is_told_so():
    state = play_state({"ann": ["hexen-1"], "bob": ["hexen-3", "hexen-4"]})
    state, _ = apply(state, move("ann", "fighter", card="hexen-1"))
    found = GAME.violations(state, move("ann", "fighter", card="hexen-3"))
    assert [v.code for v in found] == ["not_your_turn"]
    assert found[0].rule == "reign-and-ruin#final-round"
    assert "last card" in found[0].message


def test_hexen_as_the_last_card_starts_the_final_round_and_its_draw_grants_no_play():
    """Ruling R&R 10: "The card that empties the hand starts the final round even when its own
    ability brings a card back into that hand (a Hexen draw ...): that player has played their
    last card, and plays no more." """
    state = play_state(
        {"ann": ["hexen-1"], "bob": ["hexen-3", "hexen-4"], "cat": ["hexen-5"]},
        draw=["kurgoz-9"],
    )
    state, events = apply(state, move("ann", "draw", card="hexen-1"))
    assert state["hands"]["ann"] == ["kurgoz-9"]
    assert event_types(events)[-2:] == ["final_round_started", "turn_started"]
    assert state["phase"] == "final_round"
    assert state["final_round"] == {"ended_by": "ann", "to_play": ["bob", "cat"]}
    assert state["active_players"] == state["to_move"] == ["bob"]
    assert GAME.legal_moves(state, "ann") == []
    found = GAME.violations(state, move("ann", "fighter", card="kurgoz-9"))
    assert [(v.code, v.rule) for v in found] == [("not_your_turn", "reign-and-ruin#final-round")]
    state, _ = apply(state, move("bob", "fighter", card="hexen-3"))
    state, _ = apply(state, move("cat", "fighter", card="hexen-5"))
    assert state["status"] == "finished" and state["hands"]["ann"] == ["kurgoz-9"]
    GAME.check_state(state)  # the drawn card stays in ann's hand, unplayed and unscored


def test_crou_or_nomora_bringing_a_card_to_hand_as_the_last_card_start_the_final_round():
    """Ruling R&R 10: a Crou take or a Nomora revive into the hand of the card that emptied it
    starts the final round too; the card brought back grants no play."""
    state = play_state({"ann": ["crou-1"], "bob": ["hexen-3"]}, {"bob": ["hexen-9"]})
    for to in ("hand", "army"):
        after, _ = apply(
            state, move("ann", "swap", card="crou-1", opponent="bob", take="hexen-9", to=to)
        )
        assert after["phase"] == "final_round"
        assert after["final_round"] == {"ended_by": "ann", "to_play": ["bob"]}
    assert after["hands"]["ann"] == []
    state = play_state({"ann": ["nomora-1"], "bob": ["hexen-3"]}, discard=["hexen-9"])
    after, _ = apply(state, move("ann", "revive", card="nomora-1", target="hexen-9", to="hand"))
    assert after["phase"] == "final_round" and after["hands"]["ann"] == ["hexen-9"]
    assert GAME.legal_moves(after, "ann") == []


def test_the_player_who_ended_the_game_holds_at_most_the_card_their_last_play_brought_back():
    state = play_state(
        {"ann": ["hexen-1"], "bob": ["hexen-3", "hexen-4"], "cat": ["hexen-5"]},
        draw=["kurgoz-9", "kurgoz-8"],
    )
    state, _ = apply(state, move("ann", "draw", card="hexen-1"))
    broken = {**state, "hands": {**state["hands"], "ann": ["kurgoz-9", "kurgoz-8"]}}
    broken["draw_pile"] = [c for c in state["draw_pile"] if c != "kurgoz-8"]
    with pytest.raises(InvalidState) as err:
        GAME.check_state(broken)
    assert "inconsistent_final_round" in [v.code for v in err.value.violations]


def test_hexen_last_card_on_an_empty_pile_must_be_a_fighter_and_ends():
    state = play_state({"ann": ["hexen-1"], "bob": ["hexen-3"]}, leftover="discard")
    assert GAME.legal_moves(state) == [move("ann", "fighter", card="hexen-1")]
    state, events = apply(state, move("ann", "fighter", card="hexen-1"))
    assert state["phase"] == "final_round"


def test_cards_gained_in_the_final_round_grant_no_further_plays():
    state = play_state(
        {"ann": ["hexen-1"], "bob": ["hexen-3", "hexen-4"], "cat": ["crou-5", "nomora-2"]},
        {"ann": ["kurgoz-8"]},
        draw=["alfenghast-9"],
        discard=["cognitz-1"],
    )
    state, _ = apply(state, move("ann", "fighter", card="hexen-1"))
    assert state["final_round"]["to_play"] == ["bob", "cat"]
    state, _ = apply(state, move("bob", "draw", card="hexen-3"))
    assert state["hands"]["bob"] == ["hexen-4", "alfenghast-9"]
    assert state["active_players"] == ["cat"]
    assert GAME.legal_moves(state, "bob") == []
    state, _ = apply(
        state, move("cat", "swap", card="crou-5", opponent="ann", take="kurgoz-8", to="hand")
    )
    assert state["status"] == "finished"
    assert state["hands"]["cat"] == ["nomora-2", "kurgoz-8"]
    assert GAME.legal_moves(state) == []


def test_two_players_final_round():
    state = play_state({"ann": ["hexen-1", "hexen-2"], "bob": ["hexen-3"]}, active="bob")
    state, events = apply(state, move("bob", "fighter", card="hexen-3"))
    assert first(events, "final_round_started")["to_play"] == ["ann"]
    state, events = apply(state, move("ann", "fighter", card="hexen-2"))
    assert state["status"] == "finished"
    assert state["outcome"]["winners"] == ["bob"]


def test_players_without_cards_are_skipped_and_nobody_left_ends_at_once():
    """In a real game every other hand holds a card when the final round starts (hands only
    shrink on their owner's turn), so the skip is exercised on the turn logic directly."""
    base = {
        "players": ["ann", "bob", "cat"],
        "phase": "play",
        "status": "in_progress",
        "hands": {"ann": [], "bob": [], "cat": ["hexen-1"]},
        "final_round": None,
        "armies": {"ann": [], "bob": [], "cat": []},
        "cards": {"hexen-1": {"faction": "hexen", "value": 1}},
        "active_players": ["ann"],
        "outcome": None,
    }
    state, events = dict(base), []
    end_turn(state, "ann", events, emptied=True)
    assert state["final_round"] == {"ended_by": "ann", "to_play": ["cat"]}
    assert state["active_players"] == ["cat"]
    state, events = dict(base, hands={"ann": [], "bob": [], "cat": []}), []
    end_turn(state, "ann", events, emptied=True)
    assert event_types(events) == ["final_round_started", "game_over"]
    assert state["status"] == "finished" and state["final_round"] == {
        "ended_by": "ann",
        "to_play": [],
    }


def test_an_empty_hand_during_play_is_an_invalid_state():
    state = play_state({"ann": ["hexen-1"], "bob": ["hexen-3"]})
    broken = {
        **state,
        "hands": {"ann": ["hexen-1"], "bob": []},
        "draw_pile": state["draw_pile"] + ["hexen-3"],
    }
    with pytest.raises(InvalidState):
        GAME.check_state(broken)
