"""The reinforcement phase and turn cards (seed, Reinforcement Phase; rulings RA 10)."""

from __future__ import annotations

from ra_helpers import all_of, apply, battle, codes, first, mv, play, types, unit

from rules.reign_absolute import GAME


def duel(**kwargs):
    return battle(
        {"ann": "empire", "bob": "elves"},
        {
            "ann": [unit("empire-king", 0, 0), unit("empire-knight-1", 1, 0)],
            "bob": [unit("elves-queen", 5, 0), unit("elves-warden-1", 6, 0)],
        },
        **kwargs,
    )


def test_a_drawn_combat_card_goes_under_a_unit_of_the_players_choice():
    state, events = apply(duel(deck=["plus-4-1"]), mv("ann", "pass"))
    assert first(events, "reinforcement_drawn") == {
        "type": "reinforcement_drawn",
        "player": "ann",
        "kind": "combat",
        "card": "plus-4-1",
    }
    assert GAME.legal_moves(state) == [
        mv("ann", "reinforce", unit="empire-king"),
        mv("ann", "reinforce", unit="empire-knight-1"),
    ]
    assert codes(state, mv("ann", "reinforce", unit="elves-queen")) == ["not_your_unit"]
    state, events = apply(state, mv("ann", "reinforce", unit="empire-knight-1"))
    assert state["battlefield"]["empire-knight-1"]["reinforcements"] == ["plus-4-1"]
    assert types(events)[:3] == ["reinforcement_placed", "turn_ended", "turn_started"]
    assert state["turn"]["player"] == "bob"


def test_a_unit_can_hold_several_reinforcements_and_moves_with_them():
    state = battle(
        {"ann": "empire", "bob": "elves"},
        {
            "ann": [unit("empire-king", 0, 0, "plus-1-1"), unit("empire-knight-1", 1, 0)],
            "bob": [unit("elves-queen", 5, 0), unit("elves-warden-1", 6, 0)],
        },
        deck=["plus-2-1"],
    )
    state, _ = play(
        state,
        mv("ann", "move", unit="empire-king", x=0, y=1),
        mv("ann", "reinforce", unit="empire-king"),
    )
    assert state["battlefield"]["empire-king"] == {
        "x": 0,
        "y": 1,
        "owner": "ann",
        "reinforcements": ["plus-1-1", "plus-2-1"],
    }


def test_moves_go_to_empty_orthogonal_cells_only():
    state = duel()
    assert codes(state, mv("ann", "move", unit="empire-king", x=1, y=0)) == ["cell_occupied"]
    assert codes(state, mv("ann", "move", unit="empire-king", x=1, y=1)) == ["not_adjacent"]
    moves = [m for m in GAME.legal_moves(state) if m["type"] == "move"]
    assert mv("ann", "move", unit="empire-king", x=-1, y=0) in moves
    assert all(
        abs(m["x"] - state["battlefield"][m["unit"]]["x"])
        + abs(m["y"] - state["battlefield"][m["unit"]]["y"])
        == 1
        for m in moves
    )


def test_a_turn_card_may_be_discarded():
    state, _ = apply(duel(deck=["another-turn-1"]), mv("ann", "pass"))
    assert GAME.legal_moves(state) == [mv("ann", "play_turn_card"), mv("ann", "discard_turn_card")]
    state, events = apply(state, mv("ann", "discard_turn_card"))
    assert state["discard"][-1] == "another-turn-1"
    assert state["turn"]["player"] == "bob"


def test_another_turn_gives_the_same_player_one_more_full_turn():
    state, _ = apply(duel(deck=["another-turn-1", "plus-1-1"]), mv("ann", "pass"))
    state, events = apply(state, mv("ann", "play_turn_card"))
    assert first(events, "turn_started") == {
        "type": "turn_started",
        "player": "ann",
        "number": 6,
        "another_turn": True,
    }
    assert state["turn"]["stage"] == "action" and state["turn"]["player"] == "ann"
    state, _ = play(state, mv("ann", "pass"), mv("ann", "reinforce", unit="empire-king"))
    assert state["turn"]["player"] == "bob"


def test_supply_drop_draws_another_card_now():
    state, _ = apply(duel(deck=["supply-drop-1", "plus-3-1"]), mv("ann", "pass"))
    state, events = apply(state, mv("ann", "play_turn_card"))
    assert first(events, "reinforcement_drawn")["card"] == "plus-3-1"
    assert state["active_players"] == ["ann"] and state["turn"]["drawn"] == "plus-3-1"


def test_forced_march_moves_one_unit_and_is_not_playable_without_a_free_cell():
    state, _ = apply(duel(deck=["forced-march-1"]), mv("ann", "pass"))
    state, _ = apply(state, mv("ann", "play_turn_card"))
    marches = GAME.legal_moves(state)
    assert marches and {m["type"] for m in marches} == {"march"}
    state, events = apply(state, mv("ann", "march", unit="empire-king", x=0, y=-1))
    assert first(events, "unit_moved")["march"] is True
    assert state["turn"]["player"] == "bob"


def test_an_empty_deck_is_refilled_by_shuffling_the_discard():
    state = duel(deck=[], leftover="discard")
    assert state["deck"] == []
    discard = list(state["discard"])
    state, events = apply(state, mv("ann", "pass"))
    reshuffle = first(events, "deck_reshuffled")
    assert reshuffle["cards"] == len(discard)
    drawn = first(events, "reinforcement_drawn")["card"]
    assert state["discard"] == [] and sorted(state["deck"] + [drawn]) == sorted(discard)
    assert types(events).index("deck_reshuffled") < types(events).index("reinforcement_drawn")


def test_combat_draws_reshuffle_the_discard_too():
    state = battle(
        {"ann": "empire", "bob": "elves"},
        {
            "ann": [unit("empire-king", 0, 0), unit("empire-knight-1", 1, 0)],
            "bob": [unit("elves-queen", 5, 0), unit("elves-enchantress", 2, 0)],
        },
        deck=["plus-1-1"],
        leftover="discard",
    )
    state["deck"] = ["plus-1-1"]
    _, events = apply(state, mv("ann", "attack", unit="empire-knight-1", x=2, y=0))
    assert len(all_of(events, "combat_card_drawn")) == 2
    assert "deck_reshuffled" in types(events)


def test_forced_march_cannot_be_played_when_no_unit_can_move():
    state = battle(
        {"ann": "empire", "bob": "elves"},
        {
            "ann": [unit("empire-king", 0, 0)],
            "bob": [
                unit("elves-queen", 1, 0),
                unit("elves-warden-1", -1, 0),
                unit("elves-warden-2", 0, 1),
                unit("elves-druid-1", 0, -1),
            ],
        },
        deck=["forced-march-1"],
    )
    state, _ = apply(state, mv("ann", "pass"))
    assert GAME.legal_moves(state) == [mv("ann", "discard_turn_card")]
    assert codes(state, mv("ann", "play_turn_card")) == ["cannot_resolve"]
    state, events = apply(state, mv("ann", "discard_turn_card"))
    assert first(events, "turn_card_discarded")["card"] == "forced-march-1"
    assert state["turn"]["player"] == "bob"
