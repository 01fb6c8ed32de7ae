"""Eradication and victory (seed, Victory; rulings RA 11), and the turn limit."""

from __future__ import annotations

from ra_helpers import apply, battle, first, mv, play, types, unit

from rules.reign_absolute import GAME


def test_eradication_bonus_after_a_defensive_tie():
    state = battle(
        {"ann": "raiders", "bob": "empire", "cat": "elves"},
        {
            "ann": [unit("raiders-warlord", 0, 0), unit("raiders-scout-1", 5, 5)],
            "bob": [unit("empire-knight-1", 1, 0, "defence-plus-6-1"), unit("empire-king", 2, 0)],
            "cat": [unit("elves-queen", -9, 0)],
        },
        unit_discards={"bob": ["empire-archers-1"]},
    )
    # The Warlord (12) attacks the Knight (6 + 6 defending + 0) ... and ties: both fall.
    state, events = apply(state, mv("ann", "attack", unit="raiders-warlord", x=1, y=0))
    assert first(events, "combat_totals")["winner"] is None
    erad = first(events, "player_eradicated")
    assert erad["player"] == "ann" and erad["by"] == "bob"
    assert state["eradicated"] == ["ann"] and state["bonus_owed"] == ["bob"]
    assert not any(e["owner"] == "ann" for e in state["battlefield"].values())
    # bob, the defender, takes a unit of his choice from his discard pile (the Knight is there too).
    moves = GAME.legal_moves(state)
    assert state["active_players"] == ["bob"] and {m["unit"] for m in moves} == set(
        state["unit_discards"]["bob"]
    )
    assert "empire-knight-1" in {m["unit"] for m in moves}
    assert all(abs(m["x"] - 2) + abs(m["y"]) == 1 for m in moves)  # next to his only unit, the King
    state, events = apply(state, mv("bob", "bonus_unit", unit="empire-archers-1", x=2, y=1))
    assert first(events, "bonus_unit_placed")["unit"] == "empire-archers-1"
    assert state["battlefield"]["empire-archers-1"] == {
        "x": 2,
        "y": 1,
        "owner": "bob",
        "reinforcements": [],
    }
    # ann was eradicated on her own turn: the turn passes to bob without her reinforcement.
    assert state["turn"]["player"] == "bob" and "reinforcement_drawn" not in types(events)


def test_defender_wins_and_takes_the_bonus():
    state = battle(
        {"ann": "raiders", "bob": "empire", "cat": "elves"},
        {
            "ann": [unit("raiders-warlord", 0, 0), unit("raiders-scout-1", 5, 5)],
            "bob": [unit("empire-king", 1, 0, "plus-6-1", "plus-4-1")],
            "cat": [unit("elves-queen", -9, 0)],
        },
    )
    state, events = apply(state, mv("ann", "attack", unit="raiders-warlord", x=1, y=0))
    assert first(events, "combat_totals")["winner"] == "defender"  # King 5 + 10 against Warlord 12
    assert first(events, "player_eradicated")["by"] == "bob"
    assert state["active_players"] == ["bob"] and state["bonus_owed"] == ["bob"]
    assert (
        state["battlefield"]["empire-king"]["reinforcements"] == []
    )  # the winner's cards are discarded too
    pick = GAME.legal_moves(state)[0]
    assert pick["type"] == "bonus_unit" and pick["unit"] in state["unit_discards"]["bob"]
    state, events = apply(state, pick)
    assert state["battlefield"][pick["unit"]] == {
        "x": pick["x"],
        "y": pick["y"],
        "owner": "bob",
        "reinforcements": [],
    }
    assert abs(pick["x"] - 1) + abs(pick["y"]) == 1
    assert state["turn"]["player"] == "bob"  # ann's turn ended when she was eradicated


def test_the_last_liege_wins():
    state = battle(
        {"ann": "raiders", "bob": "empire"},
        {
            "ann": [unit("raiders-warlord", 0, 0)],
            "bob": [unit("empire-king", 1, 0), unit("empire-knight-1", 5, 5)],
        },
    )
    state, events = apply(state, mv("ann", "attack", unit="raiders-warlord", x=1, y=0))
    assert state["status"] == "finished" and state["outcome"]["winners"] == ["ann"]
    assert state["outcome"]["reason"] == "last_liege" and state["active_players"] == []
    assert events[-1]["type"] == "game_over"
    assert GAME.score(state).winners == ("ann",)


def test_the_last_lieges_falling_together_is_a_draw():
    state = battle(
        {"ann": "orcs", "bob": "empire"},
        {
            "ann": [unit("orcs-chieftain", 0, 0)],  # 8 + 2 = 10
            "bob": [
                unit("empire-king", 1, 0, "plus-3-1"),
                unit("empire-soldier-1", 2, 0),
            ],  # 5 + 2 + 3 = 10
        },
    )
    state, events = apply(state, mv("ann", "attack", unit="orcs-chieftain", x=1, y=0))
    assert first(events, "combat_totals")["winner"] is None
    assert state["outcome"] == {
        "winners": ["ann", "bob"],
        "draw": True,
        "scores": {"ann": 0, "bob": 0},
        "reason": "lieges_fell_together",
    }


def test_turn_limit_ends_the_game_with_the_tie_break():
    state = battle(
        {"ann": "raiders", "bob": "empire"},
        {
            "ann": [unit("raiders-warlord", 0, 0)],
            "bob": [unit("empire-king", 5, 0), unit("empire-knight-1", 5, 5)],
        },
        number=10,
        turn_limit=10,
        deck=["plus-1-1"],
    )
    state, events = play(state, mv("ann", "pass"), mv("ann", "reinforce", unit="raiders-warlord"))
    assert state["status"] == "finished"
    assert state["outcome"]["reason"] == "turn_limit" and state["outcome"]["winners"] == ["bob"]


def test_turn_limit_tie_on_units_goes_to_strength_then_draw():
    state = battle(
        {"ann": "raiders", "bob": "empire"},
        {
            "ann": [unit("raiders-warlord", 0, 0)],
            "bob": [unit("empire-king", 5, 0)],
        },
        number=3,
        turn_limit=3,
        deck=["plus-1-1"],
    )
    state, _ = play(state, mv("ann", "pass"), mv("ann", "reinforce", unit="raiders-warlord"))
    # One unit each: the Warlord's strength 12 beats the King's 5.
    assert state["outcome"]["winners"] == ["ann"] and state["outcome"]["reason"] == "turn_limit"
    # Two units each and 9 base strength each (Chieftain 8 + Goblin 1, King 5 + Soldier 4): a draw.
    state = battle(
        {"ann": "orcs", "bob": "empire"},
        {
            "ann": [unit("orcs-chieftain", 0, 0), unit("orcs-goblin-1", 0, 1)],
            "bob": [unit("empire-king", 5, 0, "plus-6-1"), unit("empire-soldier-1", 5, 1)],
        },
        number=3,
        turn_limit=3,
        deck=["plus-1-1"],
    )
    state, _ = play(state, mv("ann", "pass"), mv("ann", "reinforce", unit="orcs-goblin-1"))
    assert state["outcome"] == {
        "winners": ["ann", "bob"],
        "draw": True,
        "scores": {"ann": 2, "bob": 2},
        "reason": "turn_limit",
    }


def test_score_mid_game_is_provisional():
    state = battle(
        {"ann": "raiders", "bob": "empire"},
        {
            "ann": [unit("raiders-warlord", 0, 0)],
            "bob": [unit("empire-king", 5, 0), unit("empire-knight-1", 5, 5)],
        },
    )
    score = GAME.score(state)
    assert score.finished is False and score.scores == {"ann": 1, "bob": 2}
    assert score.breakdown["players"]["ann"]["strength_in_play"] == 12
    assert score.winners == ("bob",)


def test_an_eradicated_player_loses_every_unit_and_their_reinforcements_are_discarded():
    state = battle(
        {"ann": "raiders", "bob": "empire", "cat": "elves"},
        {
            "ann": [unit("raiders-warlord", 0, 0)],
            "bob": [
                unit("empire-king", 1, 0),
                unit("empire-soldier-1", 9, 9, "plus-3-1", "cancel-1"),
                unit("empire-knight-1", -9, 9, "draw-2-1"),
            ],
            "cat": [unit("elves-queen", -9, 0)],
        },
    )
    state, events = apply(state, mv("ann", "attack", unit="raiders-warlord", x=1, y=0))
    erad = first(events, "player_eradicated")
    assert erad == {
        "type": "player_eradicated",
        "player": "bob",
        "by": "ann",
        "units": ["empire-knight-1", "empire-soldier-1"],
        "cards": ["draw-2-1", "plus-3-1", "cancel-1"],
    }
    assert not any(e["owner"] == "bob" for e in state["battlefield"].values())
    assert {"empire-king", "empire-knight-1", "empire-soldier-1"} <= set(
        state["unit_discards"]["bob"]
    )
    assert {"draw-2-1", "plus-3-1", "cancel-1"} <= set(state["discard"])
    assert state["status"] == "in_progress" and state["bonus_owed"] == ["ann"]


def test_the_bonus_is_skipped_when_the_unit_discard_pile_is_empty():
    raiders = [
        "raiders-warlord",
        "raiders-berserker-1",
        "raiders-berserker-2",
        "raiders-raider-1",
        "raiders-raider-2",
        "raiders-raider-3",
        "raiders-scout-1",
        "raiders-scout-2",
        "raiders-shaman",
    ]
    state = battle(
        {"ann": "raiders", "bob": "empire", "cat": "elves"},
        {
            "ann": [unit(u, 0, -i) for i, u in enumerate(raiders)],
            "bob": [unit("empire-king", 1, 0)],
            "cat": [unit("elves-queen", -9, 0)],
        },
        deck=["plus-1-1"],
    )
    assert state["unit_discards"]["ann"] == []
    state, events = apply(state, mv("ann", "attack", unit="raiders-warlord", x=1, y=0))
    assert first(events, "player_eradicated")["by"] == "ann"
    assert first(events, "bonus_skipped") == {
        "type": "bonus_skipped",
        "player": "ann",
        "reason": "no_unit_in_discard",
    }
    assert state["bonus_owed"] == [] and "bonus_unit" not in {
        m["type"] for m in GAME.legal_moves(state)
    }
    # ann goes on with her reinforcement phase.
    assert state["active_players"] == ["ann"] and state["turn"]["drawn"] == "plus-1-1"


def test_eradicated_players_get_no_more_turns():
    # bob's Warlord (12) eradicates cat (Queen 6, drawing +1 when defending); cat sits after bob.
    state = battle(
        {"ann": "empire", "bob": "raiders", "cat": "elves"},
        {
            "ann": [unit("empire-king", -9, 0)],
            "bob": [unit("raiders-warlord", 0, 0)],
            "cat": [unit("elves-queen", 1, 0)],
        },
        turn_player="bob",
        number=7,
        deck=["plus-1-1", "plus-2-1"],
    )
    state, events = apply(state, mv("bob", "attack", unit="raiders-warlord", x=1, y=0))
    assert first(events, "player_eradicated")["player"] == "cat"
    bonus = GAME.legal_moves(state)[0]
    state, _ = apply(state, bonus)
    state, events = apply(state, mv("bob", "reinforce", unit="raiders-warlord"))
    assert [(e["player"], e["number"]) for e in events if e["type"] == "turn_started"] == [
        ("ann", 8)
    ]
    assert state["turn"]["player"] == "ann" and state["turn"]["number"] == 8
