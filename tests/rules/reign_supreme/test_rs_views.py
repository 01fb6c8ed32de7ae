"""Views show the board to everyone and each hand only to its owner (rules doc §Hidden
information)."""

from __future__ import annotations

import json

import pytest

from rules.errors import InvalidState
from rules.reign_supreme import GAME


@pytest.fixture(scope="module")
def state():
    return GAME.setup(["ann", "bob", "cat"], 4, {"setup": "auto"})


def test_a_player_sees_their_own_hand_and_counts_of_the_others(state):
    v = GAME.view(state, "ann")
    assert v["viewer"] == "ann" and v["hand"] == state["hands"]["ann"]
    assert v["hand_counts"] == {p: len(h) for p, h in state["hands"].items()}
    text = json.dumps(v)
    for p in ("bob", "cat"):
        for card in state["hands"][p]:
            assert f'"{card}"' not in text or card in state["hands"]["ann"]


def test_a_spectator_sees_no_hand(state):
    v = GAME.view(state, None)
    assert "hand" not in v and v["viewer"] is None
    text = json.dumps(v)
    for hand in state["hands"].values():
        for card in hand:
            assert f'"{card}"' not in text


def test_views_never_hold_the_generator_the_seed_or_deck_order(state):
    for viewer in (None, "ann", "bob", "cat"):
        v = GAME.view(state, viewer)
        assert "rng" not in v and "seed" not in v and "decks" not in v
        assert v["deck_counts"] == {
            "spell": len(state["decks"]["spell"]),
            "tactics": len(state["decks"]["tactics"]),
        }
        text = json.dumps(v)
        for card in state["decks"]["spell"] + state["decks"]["tactics"]:
            assert f'"{card}"' not in text


def test_the_board_is_public(state):
    v = GAME.view(state, "bob")
    assert (
        v["units"] == state["units"]
        and v["boards"] == state["boards"]
        and v["control"] == state["control"]
    )


def test_a_view_is_a_new_object(state):
    v = GAME.view(state, "ann")
    v["units"]["u1"]["pins"] = 5
    v["hand"].append("x")
    assert state["units"]["u1"]["pins"] == 0 and "x" not in state["hands"]["ann"]


def test_unknown_viewer_is_refused(state):
    with pytest.raises(InvalidState):
        GAME.view(state, "zed")


def test_drawn_cards_are_redacted_for_others():
    event = {"type": "card_drawn", "player": "ann", "deck": "spell", "card": "fireball-1"}
    assert GAME.view_event(event, "ann") == event
    assert GAME.view_event(event, "bob") == {"type": "card_drawn", "player": "ann", "deck": "spell"}
    assert GAME.view_event(event, None) == {"type": "card_drawn", "player": "ann", "deck": "spell"}
    moved = {
        "type": "unit_moved",
        "player": "ann",
        "unit": "u1",
        "from": [0, 0],
        "to": [1, 0],
        "path": [],
    }
    assert GAME.view_event(moved, "bob") == moved


def test_session_histories_show_every_move_whole():
    """RS 9: the board is public, so nobody's move is hidden from anyone (rules doc, Hidden
    information)."""
    from rules.reign_supreme import GAME

    move = {"player": "ann", "type": "move", "unit": "u3", "to": [1, -2]}
    for viewer in ("ann", "bob", None):
        assert GAME.view_move(move, viewer) == move
