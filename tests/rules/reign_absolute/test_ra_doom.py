"""Doom (seed, Doom Action and Doom Example A; rulings RA 9)."""

from __future__ import annotations

from ra_helpers import apply, battle, codes, first, mv, play, types, unit

from rules.reign_absolute import GAME


def test_seed_doom_example_a():
    # Player A (ann) has 3 units, Player B (bob) has 2.
    state = battle(
        {"ann": "empire", "bob": "raiders"},
        {
            "ann": [
                unit("empire-king", 0, 0),
                unit("empire-knight-1", 1, 0),
                unit("empire-soldier-1", 0, 5),
            ],
            "bob": [unit("raiders-warlord", 2, 0), unit("raiders-scout-1", 9, 9)],
        },
        deck=["plus-1-1"],
    )
    deck_before = len(state["deck"])
    # A calls Doom: B discards first, then A.
    state, events = apply(state, mv("ann", "doom"))
    assert first(events, "doom_called")["order"] == ["bob", "ann"]
    assert state["active_players"] == ["bob"]
    assert [m["unit"] for m in GAME.legal_moves(state, "bob")] == [
        "raiders-scout-1",
        "raiders-warlord",
    ]
    state, _ = apply(state, mv("bob", "doom_discard", unit="raiders-scout-1"))
    assert state["active_players"] == ["ann"]
    state, events = apply(state, mv("ann", "doom_discard", unit="empire-soldier-1"))
    # B is left with only the Liege, A with 2 units; A drew no reinforcement.
    owners = sorted(e["owner"] for e in state["battlefield"].values())
    assert (
        owners == ["ann", "ann", "bob"]
        and state["battlefield"]["raiders-warlord"]["owner"] == "bob"
    )
    assert len(state["deck"]) == deck_before
    assert "reinforcement_drawn" not in types(events)
    assert state["turn"]["player"] == "bob" and state["active_players"] == ["bob"]
    # B attacks with the Warlord and defeats one of A's units.
    state, events = play(
        state,
        mv("bob", "attack", unit="raiders-warlord", x=1, y=0),
        mv("bob", "reinforce", unit="raiders-warlord"),
    )
    assert first(events, "combat_totals")["winner"] == "attacker"
    mine = lambda p: [u for u, e in state["battlefield"].items() if e["owner"] == p]  # noqa: E731
    assert mine("ann") == ["empire-king"] and mine("bob") == ["raiders-warlord"]
    # A calls Doom again: B must discard the Liege and is eradicated; A wins at once.
    state, _ = apply(state, mv("ann", "doom"))
    assert GAME.legal_moves(state) == [mv("bob", "doom_discard", unit="raiders-warlord")]
    state, events = apply(state, mv("bob", "doom_discard", unit="raiders-warlord"))
    assert first(events, "player_eradicated")["player"] == "bob"
    assert state["status"] == "finished"
    assert state["outcome"]["winners"] == ["ann"] and state["outcome"]["draw"] is False
    assert state["battlefield"]["empire-king"]  # A never had to discard the King


def three_players():
    return battle(
        {"ann": "empire", "bob": "raiders", "cat": "elves"},
        {
            "ann": [unit("empire-king", 0, 0), unit("empire-knight-1", 1, 0)],
            "bob": [unit("raiders-warlord", 5, 0), unit("raiders-scout-1", 6, 0, "plus-1-1")],
            "cat": [unit("elves-queen", -5, 0), unit("elves-druid-1", -6, 0)],
        },
        turn_player="bob",
        unit_discards={"bob": ["raiders-raider-1"]},
    )


def test_doom_goes_clockwise_from_the_callers_left_and_ends_with_the_caller():
    state, events = apply(three_players(), mv("bob", "doom"))
    assert first(events, "doom_called")["order"] == ["cat", "ann", "bob"]
    assert state["active_players"] == ["cat"]
    assert codes(state, mv("ann", "doom_discard", unit="empire-knight-1")) == ["not_your_turn"]


def test_doom_discard_takes_the_reinforcements_with_the_unit():
    state, _ = play(
        three_players(),
        mv("bob", "doom"),
        mv("cat", "doom_discard", unit="elves-druid-1"),
        mv("ann", "doom_discard", unit="empire-knight-1"),
    )
    state, events = apply(state, mv("bob", "doom_discard", unit="raiders-scout-1"))
    assert first(events, "doom_discard")["cards"] == ["plus-1-1"]
    assert "plus-1-1" in state["discard"]
    assert state["turn"]["player"] == "cat"


def test_a_liege_discarded_in_doom_eradicates_and_the_caller_takes_the_bonus_at_once():
    state, _ = apply(three_players(), mv("bob", "doom"))
    state, events = apply(state, mv("cat", "doom_discard", unit="elves-queen"))
    assert first(events, "player_eradicated") == {
        "type": "player_eradicated",
        "player": "cat",
        "by": "bob",
        "units": ["elves-druid-1"],
        "cards": [],
    }
    assert "elves-druid-1" in state["unit_discards"]["cat"]
    # The caller places the bonus unit before Doom goes on to ann.
    assert state["active_players"] == ["bob"] and state["bonus_owed"] == ["bob"]
    bonus = GAME.legal_moves(state)
    assert {m["type"] for m in bonus} == {"bonus_unit"} and {m["unit"] for m in bonus} == set(
        state["unit_discards"]["bob"]
    )
    state, events = apply(state, mv("bob", "bonus_unit", unit="raiders-raider-1", x=5, y=1))
    assert state["battlefield"]["raiders-raider-1"]["owner"] == "bob"
    assert state["active_players"] == ["ann"]
    state, _ = play(
        state,
        mv("ann", "doom_discard", unit="empire-knight-1"),
        mv("bob", "doom_discard", unit="raiders-scout-1"),
    )
    assert state["turn"]["player"] == "ann"  # cat is skipped from now on


def test_the_caller_discarding_their_own_liege_is_eradicated():
    state = battle(
        {"ann": "empire", "bob": "raiders", "cat": "elves"},
        {
            "ann": [unit("empire-king", 0, 0)],
            "bob": [unit("raiders-warlord", 5, 0), unit("raiders-scout-1", 6, 0)],
            "cat": [unit("elves-queen", -5, 0), unit("elves-druid-1", -6, 0)],
        },
    )
    state, _ = play(
        state,
        mv("ann", "doom"),
        mv("bob", "doom_discard", unit="raiders-scout-1"),
        mv("cat", "doom_discard", unit="elves-druid-1"),
    )
    state, events = apply(state, mv("ann", "doom_discard", unit="empire-king"))
    assert first(events, "player_eradicated")["by"] is None
    assert state["bonus_owed"] == [] and state["eradicated"] == ["ann"]
    assert state["turn"]["player"] == "bob"
