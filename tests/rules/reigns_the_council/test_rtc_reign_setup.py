"""Reign setup: drawing seven with a deck choice per draw, visible top backs, and the
simultaneous one-time exchange (seed §Game setup 7, §A new Monarch!; rulings RtC 5)."""

from __future__ import annotations

from rtc_helpers import apply, codes, draw_all, first, fresh, move, types

from rules.reigns_the_council import GAME


def test_each_draw_is_a_move_choosing_the_deck_round_robin():
    state = fresh(3)
    assert GAME.legal_moves(state) == [move("bob", "draw", deck=i) for i in range(3)]
    top = state["decks"][2][0]
    state, events = apply(state, move("bob", "draw", deck=2))
    assert state["hands"]["bob"] == [top]
    assert events == [
        {
            "type": "card_drawn",
            "player": "bob",
            "deck": 2,
            "back": state["cards"][top]["back"],
            "card": top,
        }
    ]
    assert state["active_players"] == ["cat"]
    assert codes(state, move("bob", "draw", deck=0)) == ["not_your_turn"]
    assert codes(state, move("cat", "draw", deck=3)) == ["unknown_deck"]
    assert codes(state, move("cat", "draw", deck=True)) == ["unknown_deck"]


def test_an_empty_deck_cannot_be_chosen():
    deck = [
        {"back": ["church"], "accept": {"church": 1}, "reject": {"church": -1}} for _ in range(30)
    ]
    state = fresh(3, deck=deck)  # three decks of 10
    for _ in range(10):
        state, _ = apply(state, move(state["active_players"][0], "draw", deck=0))
    p = state["active_players"][0]
    assert state["decks"][0] == [] and state["phase"] == "deal"
    assert codes(state, move(p, "draw", deck=0)) == ["empty_deck"]
    assert GAME.legal_moves(state) == [move(p, "draw", deck=1), move(p, "draw", deck=2)]


def test_seven_cards_each_then_a_simultaneous_exchange():
    state = draw_all(fresh(4))
    assert state["phase"] == "exchange"
    assert all(len(state["hands"][p]) == 7 for p in ("bob", "cat", "dan"))
    assert state["active_players"] == ["bob", "cat", "dan"]
    assert len(GAME.legal_moves(state, "bob")) == 128  # any subset of seven cards
    bob = state["hands"]["bob"]
    state, events = apply(state, move("bob", "exchange", cards=[bob[3], bob[0]]))
    assert state["hands"]["bob"] == bob, "cards stay in hand until everyone has chosen"
    assert state["exchange"]["bob"] == [bob[0], bob[3]]
    assert state["active_players"] == ["cat", "dan"]
    assert codes(state, move("bob", "exchange", cards=[])) == ["already_chosen"]
    assert codes(state, move("ann", "exchange", cards=[])) == ["not_advisor"]
    assert codes(state, move("cat", "exchange", cards=[bob[1]])) == ["card_not_in_hand"]
    cat = state["hands"]["cat"]
    assert codes(state, move("cat", "exchange", cards=[cat[0], cat[0]])) == ["duplicate_card"]
    state, _ = apply(state, move("cat", "exchange", cards=[]))
    dan = state["hands"]["dan"]
    state, events = apply(state, move("dan", "exchange", cards=dan[:3]))
    assert [e["count"] for e in events if e["type"] == "cards_exchanged"] == [2, 0, 3]
    assert state["discard"] == [bob[0], bob[3]] + dan[:3]
    assert state["phase"] == "redraw"
    assert state["draw_queue"] == ["bob", "dan", "bob", "dan", "dan"]
    state = draw_all(state, deck=1)
    assert state["phase"] == "pitch"
    assert all(len(state["hands"][p]) == 7 for p in ("bob", "cat", "dan"))
    assert state["round"]["number"] == 1


def test_nobody_exchanging_starts_the_first_round():
    state = draw_all(fresh(3))
    state, _ = apply(state, move("bob", "exchange", cards=[]))
    state, events = apply(state, move("cat", "exchange", cards=[]))
    assert state["phase"] == "pitch" and "round_started" in types(events)
    assert first(events, "round_started") == {"type": "round_started", "reign": 1, "round": 1}


def test_exchange_is_once_per_reign():
    state = draw_all(fresh(3))
    for p in ("bob", "cat"):
        state, _ = apply(state, move(p, "exchange", cards=[]))
    assert codes(state, move("bob", "exchange", cards=[])) == ["wrong_phase"]
