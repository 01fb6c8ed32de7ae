"""Combat (seed, Attack Action and Attack Example; rulings RA 8)."""

from __future__ import annotations

from ra_helpers import all_of, apply, battle, first, mv, types, unit

EMPIRE_ELVES = {"ann": "empire", "bob": "elves"}


def archers_against_enchantress():
    """The seed's example: Archers (4, +4 attacking) with +3 and +6-when-defending attack the
    Enchantress (4, draws 2 at the start of combat) with +2 and +2; she draws Another Turn
    (discarded) and Draw 2, which draws +4 and Cancel."""
    return battle(
        EMPIRE_ELVES,
        {
            "ann": [
                unit("empire-archers-1", 0, 0, "plus-3-1", "defence-plus-6-1"),
                unit("empire-king", -5, 0),
            ],
            "bob": [
                unit("elves-enchantress", 1, 0, "plus-2-1", "plus-2-2"),
                unit("elves-queen", 6, 0),
            ],
        },
        deck=["another-turn-1", "draw-2-1", "plus-4-1", "cancel-1"],
    )


def test_seed_attack_example_archers_8_against_enchantress_12():
    state = archers_against_enchantress()
    after, events = apply(state, mv("ann", "attack", unit="empire-archers-1", x=1, y=0))
    drawn = all_of(events, "combat_card_drawn")
    assert [(e["card"], e["result"], e["source"]) for e in drawn] == [
        ("another-turn-1", "discarded", "elves-enchantress"),
        ("draw-2-1", "joined", "elves-enchantress"),
        ("plus-4-1", "joined", "draw-2-1"),
        ("cancel-1", "joined", "draw-2-1"),
    ]
    assert all(e["side"] == "defender" for e in drawn)
    totals = first(events, "combat_totals")
    assert totals["attacker"]["total"] == 8
    assert totals["attacker"]["base"] == 4 and totals["attacker"]["ability_bonus"] == 4
    assert totals["attacker"]["cancelled"] is True and totals["attacker"]["card_bonus"] == 0
    assert totals["defender"]["total"] == 12
    assert totals["winner"] == "defender"
    assert "empire-archers-1" not in after["battlefield"]
    assert after["unit_discards"]["ann"][-1] == "empire-archers-1"
    assert after["battlefield"]["elves-enchantress"] == {
        "x": 1,
        "y": 0,
        "owner": "bob",
        "reinforcements": [],
    }
    for card in (
        "another-turn-1",
        "plus-3-1",
        "defence-plus-6-1",
        "plus-2-1",
        "plus-2-2",
        "draw-2-1",
        "plus-4-1",
        "cancel-1",
    ):
        assert card in after["discard"], card
    # 4 + 2 + 2 + 4: the Draw 2 and the Cancel add nothing themselves.
    defender = totals["defender"]
    assert (defender["base"], defender["ability_bonus"], defender["card_bonus"]) == (4, 0, 8)
    assert {c["card"]: c["status"] for c in defender["cards"]} == {
        "plus-2-1": "counted",
        "plus-2-2": "counted",
        "draw-2-1": "no_strength",
        "plus-4-1": "counted",
        "cancel-1": "no_strength",
    }
    assert {c["card"]: c["status"] for c in totals["attacker"]["cards"]} == {
        "plus-3-1": "cancelled",
        "defence-plus-6-1": "cancelled",
    }
    # Another Turn was ignored: nobody gets an extra turn; ann goes on to her reinforcement.
    assert after["turn"]["player"] == "ann" and after["turn"]["extra_turns"] == 0
    assert "turn_card_played" not in types(events)


def test_without_the_draws_the_archers_would_win_11_to_8():
    state = battle(
        EMPIRE_ELVES,
        {
            "ann": [
                unit("empire-archers-1", 0, 0, "plus-3-1", "defence-plus-6-1"),
                unit("empire-king", -5, 0),
            ],
            "bob": [
                unit("elves-warden-1", 1, 0, "plus-2-1", "plus-2-2"),
                unit("elves-queen", 6, 0),
            ],
        },
    )
    after, events = apply(state, mv("ann", "attack", unit="empire-archers-1", x=1, y=0))
    totals = first(events, "combat_totals")
    # Warden 5 + 2 + 2 = 9 against Archers 4 + 4 + 3 = 11 (the +6 counts only when defending).
    assert (totals["attacker"]["total"], totals["defender"]["total"]) == (11, 9)
    statuses = {c["card"]: c["status"] for c in totals["attacker"]["cards"]}
    assert statuses == {"plus-3-1": "counted", "defence-plus-6-1": "wrong_role"}
    assert totals["winner"] == "attacker"
    assert after["battlefield"]["empire-archers-1"] == {
        "x": 1,
        "y": 0,
        "owner": "ann",
        "reinforcements": [],
    }
    assert "elves-warden-1" in after["unit_discards"]["bob"]
    assert first(events, "unit_advanced")["to"] == {"x": 1, "y": 0}


def test_defence_only_bonus_counts_for_the_defender():
    state = battle(
        EMPIRE_ELVES,
        {
            "ann": [unit("empire-knight-1", 0, 0, "attack-plus-4-1"), unit("empire-king", -5, 0)],
            "bob": [unit("elves-warden-1", 1, 0, "defence-plus-3-1"), unit("elves-queen", 6, 0)],
        },
    )
    _, events = apply(state, mv("ann", "attack", unit="empire-knight-1", x=1, y=0))
    totals = first(events, "combat_totals")
    assert (totals["attacker"]["total"], totals["defender"]["total"]) == (10, 8)


def test_equal_totals_defeat_both_units():
    state = battle(
        EMPIRE_ELVES,
        {
            "ann": [unit("empire-soldier-1", 0, 0, "plus-1-1"), unit("empire-king", -5, 0)],
            "bob": [unit("elves-warden-1", 1, 0), unit("elves-queen", 6, 0)],
        },
    )
    after, events = apply(state, mv("ann", "attack", unit="empire-soldier-1", x=1, y=0))
    assert first(events, "combat_totals")["winner"] is None
    assert len(all_of(events, "unit_defeated")) == 2
    assert (
        "empire-soldier-1" not in after["battlefield"]
        and "elves-warden-1" not in after["battlefield"]
    )
    assert (
        "empire-soldier-1" in after["unit_discards"]["ann"]
        and "elves-warden-1" in after["unit_discards"]["bob"]
    )
    assert "plus-1-1" in after["discard"]


def test_two_opposing_cancels_void_both_sides():
    state = battle(
        EMPIRE_ELVES,
        {
            "ann": [
                unit("empire-soldier-1", 0, 0, "cancel-1", "plus-6-1"),
                unit("empire-king", -5, 0),
            ],
            "bob": [unit("elves-warden-1", 1, 0, "cancel-2"), unit("elves-queen", 6, 0)],
        },
    )
    _, events = apply(state, mv("ann", "attack", unit="empire-soldier-1", x=1, y=0))
    totals = first(events, "combat_totals")
    assert totals["attacker"]["cancelled"] and totals["defender"]["cancelled"]
    assert (totals["attacker"]["total"], totals["defender"]["total"]) == (4, 5)
    assert len(all_of(events, "reinforcements_cancelled")) == 2


def test_a_draw_2_under_a_unit_draws_when_it_takes_part():
    state = battle(
        EMPIRE_ELVES,
        {
            "ann": [unit("empire-soldier-1", 0, 0, "draw-2-1"), unit("empire-king", -5, 0)],
            "bob": [unit("elves-warden-1", 1, 0), unit("elves-queen", 6, 0)],
        },
        deck=["plus-3-1", "forced-march-1"],
    )
    after, events = apply(state, mv("ann", "attack", unit="empire-soldier-1", x=1, y=0))
    drawn = all_of(events, "combat_card_drawn")
    assert [(e["card"], e["side"], e["result"]) for e in drawn] == [
        ("plus-3-1", "attacker", "joined"),
        ("forced-march-1", "attacker", "discarded"),
    ]
    assert first(events, "combat_totals")["attacker"]["total"] == 7
    assert "forced-march-1" in after["discard"]


def test_the_winner_loses_its_reinforcements_too():
    state = battle(
        EMPIRE_ELVES,
        {
            "ann": [unit("empire-knight-1", 0, 0, "plus-2-1"), unit("empire-king", -5, 0)],
            "bob": [unit("elves-druid-1", 1, 0, "plus-1-1"), unit("elves-queen", 6, 0)],
        },
        deck=["plus-1-2"],
    )
    after, events = apply(state, mv("ann", "attack", unit="empire-knight-1", x=1, y=0))
    assert after["battlefield"]["empire-knight-1"]["reinforcements"] == []
    assert set(first(events, "reinforcements_discarded")["cards"]) == {
        "plus-2-1",
        "plus-1-1",
        "plus-1-2",
    }


def test_king_gains_defence_for_each_adjacent_friend():
    state = battle(
        {"ann": "raiders", "bob": "empire"},
        {
            "ann": [unit("raiders-berserker-1", 0, 0), unit("raiders-warlord", -9, 0)],
            "bob": [
                unit("empire-king", 1, 0),
                unit("empire-soldier-1", 2, 0),
                unit("empire-soldier-2", 1, 1),
                unit("empire-soldier-3", 1, -1),
                unit("empire-knight-1", 2, 1),
            ],
        },
    )
    _, events = apply(state, mv("ann", "attack", unit="raiders-berserker-1", x=1, y=0))
    totals = first(events, "combat_totals")
    # King 5 + 2 per adjacent friend (3; the diagonal knight does not count) = 11 against 5 + 3.
    assert totals["defender"]["ability_bonus"] == 6 and totals["defender"]["total"] == 11
    assert totals["attacker"]["total"] == 8


def test_reveal_event_shows_both_units_and_their_cards():
    state = archers_against_enchantress()
    _, events = apply(state, mv("ann", "attack", unit="empire-archers-1", x=1, y=0))
    assert types(events)[:2] == ["combat_started", "units_revealed"]
    reveal = events[1]
    assert reveal["attacker"]["unit"] == "empire-archers-1"
    assert reveal["attacker"]["reinforcements"] == ["plus-3-1", "defence-plus-6-1"]
    assert reveal["defender"]["unit"] == "elves-enchantress"
    assert first(events, "ability_triggered")["unit"] == "elves-enchantress"


def test_attack_needs_an_adjacent_enemy():
    state = archers_against_enchantress()
    from ra_helpers import codes

    assert codes(state, mv("ann", "attack", unit="empire-archers-1", x=0, y=1)) == [
        "no_enemy_there"
    ]
    assert codes(state, mv("ann", "attack", unit="empire-archers-1", x=2, y=0)) == ["not_adjacent"]
    assert codes(state, mv("ann", "attack", unit="empire-archers-1", x=-1, y=0)) == [
        "no_enemy_there"
    ]


def test_an_attack_only_bonus_does_not_count_for_the_defender():
    state = battle(
        EMPIRE_ELVES,
        {
            "ann": [unit("empire-soldier-1", 0, 0), unit("empire-king", -5, 0)],
            "bob": [unit("elves-warden-1", 1, 0, "attack-plus-4-1"), unit("elves-queen", 6, 0)],
        },
    )
    after, events = apply(state, mv("ann", "attack", unit="empire-soldier-1", x=1, y=0))
    totals = first(events, "combat_totals")
    assert totals["defender"]["cards"] == [
        {"card": "attack-plus-4-1", "value": 0, "status": "wrong_role"}
    ]
    # Warden 5 (the +4 when attacking does not count) against Soldier 4: the Warden still wins.
    assert (totals["attacker"]["total"], totals["defender"]["total"]) == (4, 5)
    assert totals["winner"] == "defender" and "attack-plus-4-1" in after["discard"]


def test_start_of_combat_abilities_resolve_attacker_first():
    # Raiders Shaman (3, draws 1) attacks the Elf Druid (3, draws 1): the attacker draws the top
    # card.
    state = battle(
        {"ann": "raiders", "bob": "elves"},
        {
            "ann": [unit("raiders-shaman", 0, 0), unit("raiders-warlord", -5, 0)],
            "bob": [unit("elves-druid-1", 1, 0), unit("elves-queen", 6, 0)],
        },
        deck=["plus-1-1", "plus-6-1"],
    )
    _, events = apply(state, mv("ann", "attack", unit="raiders-shaman", x=1, y=0))
    assert [e["side"] for e in all_of(events, "ability_triggered")] == ["attacker", "defender"]
    assert [(e["side"], e["card"]) for e in all_of(events, "combat_card_drawn")] == [
        ("attacker", "plus-1-1"),
        ("defender", "plus-6-1"),
    ]
    totals = first(events, "combat_totals")
    assert (totals["attacker"]["total"], totals["defender"]["total"]) == (4, 9)


def test_a_draw_ability_acts_only_in_its_role():
    # The Elf Queen draws 1 only when defending: attacking, she draws nothing.
    state = battle(
        {"ann": "elves", "bob": "empire"},
        {
            "ann": [unit("elves-queen", 0, 0)],
            "bob": [unit("empire-soldier-1", 1, 0), unit("empire-king", 6, 0)],
        },
        deck=["plus-6-1"],
    )
    after, events = apply(state, mv("ann", "attack", unit="elves-queen", x=1, y=0))
    assert "ability_triggered" not in types(events) and "combat_card_drawn" not in types(events)
    assert first(events, "combat_totals")["attacker"]["total"] == 6
    assert (
        first(events, "reinforcement_drawn")["card"] == "plus-6-1"
    )  # still on top for her own draw
    # Defending, she draws it into the combat.
    state = battle(
        {"ann": "empire", "bob": "elves"},
        {
            "ann": [unit("empire-soldier-1", 0, 0), unit("empire-king", -6, 0)],
            "bob": [unit("elves-queen", 1, 0)],
        },
        deck=["plus-6-1"],
    )
    _, events = apply(state, mv("ann", "attack", unit="empire-soldier-1", x=1, y=0))
    assert first(events, "ability_triggered")["unit"] == "elves-queen"
    assert first(events, "combat_totals")["defender"]["total"] == 12
