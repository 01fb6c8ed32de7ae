"""A race's own actions and setup requirements (issue 16 item 8; rules doc "Race actions" and
"Race setup requirements"; seed: "Some Races have additional Actions available to them",
"Certain Races have specific Setup requirements"; rulings RA 6).

The default Dwarves (the service's own race) use every primitive: Shield Shift (``swap``),
Tunnel (``leap`` 2), the Anvil Guard placed first (``place_first``) and the Runesmith starting
with a reinforcement card under it (``reinforced_unit``)."""

from __future__ import annotations

import random

import pytest
from ra_helpers import all_of, apply, battle, codes, first, mv, types, unit

from rules.errors import InvalidSetup
from rules.reign_absolute import GAME


def dwarf_battle(deck=("plus-1-1",), **turn):
    return battle(
        {"ann": "dwarves", "bob": "orcs"},
        {
            "ann": [
                unit("dwarves-thane", 0, 0),
                unit("dwarves-axeman-1", 1, 0, "plus-2-1"),
                unit("dwarves-miner-1", 0, 1),
            ],
            "bob": [unit("orcs-chieftain", 5, 0), unit("orcs-grunt-1", 2, 0)],
        },
        deck=list(deck),
        **turn,
    )


def test_the_dwarves_carry_their_actions_and_setup_requirements_as_data():
    state = GAME.setup(["ann", "bob"], 1, {})
    dwarves = state["races"]["dwarves"]
    assert dwarves["actions"] == [
        {"id": "shield-shift", "name": "Shield Shift", "effect": {"effect": "swap"}},
        {"id": "tunnel", "name": "Tunnel", "effect": {"effect": "leap", "distance": 2}},
    ]
    assert dwarves["setup"] == [
        {"effect": "place_first", "unit": "dwarves-anvil-guard"},
        {"effect": "reinforced_unit", "unit": "dwarves-runesmith", "count": 1},
    ]
    assert all(
        state["races"][r]["actions"] == [] and state["races"][r]["setup"] == []
        for r in ("empire", "raiders", "elves", "orcs")
    )
    assert GAME.view(state, None)["races"]["dwarves"] == dwarves, "a race's rules are public"


def test_swap_trades_the_cells_of_two_adjacent_own_units_with_their_cards():
    state = dwarf_battle()
    legal = [m for m in GAME.legal_moves(state) if m["type"] == "race_action"]
    assert mv("ann", "race_action", action="shield-shift", unit="dwarves-thane", x=1, y=0) in legal
    assert not [m for m in legal if m["action"] == "shield-shift" and (m["x"], m["y"]) == (2, 0)], (
        "an enemy is no swap partner"
    )
    after, events = apply(
        state, mv("ann", "race_action", action="shield-shift", unit="dwarves-thane", x=1, y=0)
    )
    bf = after["battlefield"]
    assert (bf["dwarves-thane"]["x"], bf["dwarves-axeman-1"]["x"]) == (1, 0)
    assert bf["dwarves-axeman-1"]["reinforcements"] == ["plus-2-1"]
    taken = first(events, "race_action_taken")
    assert taken == {
        "type": "race_action_taken",
        "player": "ann",
        "action": "shield-shift",
        "effect": "swap",
        "unit": "dwarves-thane",
        "other": "dwarves-axeman-1",
        "from": {"x": 0, "y": 0},
        "to": {"x": 1, "y": 0},
    }
    assert GAME.view_event(taken, "bob") == {
        k: v for k, v in taken.items() if k not in ("unit", "other")
    }
    assert GAME.view_event(taken, "ann") == taken
    assert "reinforcement_drawn" in types(events), (
        "the Reinforcement Phase follows, as after a Move"
    )


def test_leap_jumps_two_cells_in_a_straight_line_over_any_unit_to_an_empty_cell():
    state = dwarf_battle()
    leaps = {
        (m["unit"], m["x"], m["y"])
        for m in GAME.legal_moves(state)
        if m["type"] == "race_action" and m["action"] == "tunnel"
    }
    assert ("dwarves-axeman-1", 3, 0) in leaps, "over the enemy Grunt"
    assert ("dwarves-thane", 2, 0) not in leaps, "never onto a unit"
    assert ("dwarves-thane", 1, 1) not in leaps and ("dwarves-thane", 0, 3) not in leaps, (
        "straight, 2 cells"
    )
    after, events = apply(
        state, mv("ann", "race_action", action="tunnel", unit="dwarves-axeman-1", x=3, y=0)
    )
    assert (
        after["battlefield"]["dwarves-axeman-1"]["x"],
        after["battlefield"]["dwarves-axeman-1"]["y"],
    ) == (3, 0)
    assert "units_revealed" not in types(events)


def test_race_actions_are_refused_with_the_reason_named():
    state = dwarf_battle()
    assert codes(state, mv("ann", "race_action", action="fly", unit="dwarves-thane", x=0, y=2)) == [
        "unknown_action"
    ]
    assert codes(
        state, mv("ann", "race_action", action="tunnel", unit="dwarves-thane", x=0, y=1)
    ) == ["bad_action_target"]
    assert codes(
        state, mv("ann", "race_action", action="shield-shift", unit="dwarves-thane", x=0, y=-1)
    ) == ["bad_action_target"]
    assert codes(
        state, mv("ann", "race_action", action="tunnel", unit="orcs-grunt-1", x=4, y=0)
    ) == ["not_your_unit"]
    assert codes(state, mv("ann", "race_action", action=["x"], unit="dwarves-thane", x=0, y=2)) == [
        "unknown_action"
    ]
    orcs = battle(
        {"ann": "orcs", "bob": "dwarves"},
        {"ann": [unit("orcs-chieftain", 0, 0)], "bob": [unit("dwarves-thane", 5, 0)]},
    )
    assert not [m for m in GAME.legal_moves(orcs) if m["type"] == "race_action"]
    assert codes(
        orcs, mv("ann", "race_action", action="tunnel", unit="orcs-chieftain", x=2, y=0)
    ) == ["unknown_action"], "another race's action"
    drawing = dwarf_battle(deck=(), stage="reinforcement", drawn="plus-1-1")
    assert codes(
        drawing, mv("ann", "race_action", action="tunnel", unit="dwarves-thane", x=0, y=-2)
    ) == ["wrong_step"], "an action of the Action Phase only"


def _placed_dwarves(seed: int, first_player: str):
    """A two-player game with the Dwarves, played through placement with random legal moves."""
    state = GAME.setup(
        ["ann", "bob"], seed, {"races_by_player": {"ann": "dwarves", "bob": "elves"}}
    )
    dwarves = "ann"
    assert state["unit_decks"][dwarves][0] == "dwarves-anvil-guard", (
        "place_first: on top after the shuffle"
    )
    chooser = random.Random(seed)
    events = []
    placed = []
    while state["phase"] == "placement":
        move = chooser.choice(GAME.legal_moves(state))
        state, more = apply(state, move)
        placed += [e["unit"] for e in more if e["type"] == "unit_placed" and e["player"] == dwarves]
        events += more
    return state, events, placed


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_setup_requirements_anvil_guard_first_and_a_reinforced_runesmith(seed):
    state, events, placed = _placed_dwarves(seed, "ann")
    assert placed[0] == "dwarves-anvil-guard"
    tail = types(events)[types(events).index("placement_finished") :]
    assert tail[:2] == ["placement_finished", "setup_task"] and tail[-1] == "turn_started", (
        "post-Setup tasks come after placement, before the first turn"
    )
    task = first(events, "setup_task")
    assert task == {"type": "setup_task", "player": "ann", "effect": "reinforced_unit", "count": 1}
    under = state["battlefield"]["dwarves-runesmith"]["reinforcements"]
    placed_events = all_of(events, "reinforcement_placed")
    discarded = [e for e in all_of(events, "turn_card_discarded") if e["player"] == "ann"]
    assert len(placed_events) + len(discarded) == 1
    if placed_events:
        assert (
            under == [placed_events[0]["card"]] and placed_events[0]["unit"] == "dwarves-runesmith"
        )
        hidden = GAME.view_event(placed_events[0], "bob")
        assert "card" not in hidden and "unit" not in hidden and hidden["count"] == 1
    else:
        assert under == [] and discarded[0]["card"] in state["discard"], (
            "a turn card is discarded unplayed"
        )
    assert state["phase"] == "play" and state["turn"]["number"] == 1


def test_a_drawn_turn_card_is_discarded_by_the_setup_task():
    state = GAME.setup(["ann", "bob"], 1, {"races_by_player": {"ann": "dwarves", "bob": "elves"}})
    turn_cards = [c for c in state["deck"] if state["cards"][c]["kind"] == "turn"]
    state["deck"] = turn_cards[:1] + [c for c in state["deck"] if c != turn_cards[0]]
    GAME.check_state(state)
    while state["phase"] == "placement":
        state, events = apply(state, GAME.legal_moves(state)[0])
    assert state["battlefield"]["dwarves-runesmith"]["reinforcements"] == []
    assert {"type": "turn_card_discarded", "player": "ann", "card": turn_cards[0]} in events
    assert turn_cards[0] in state["discard"]


BASE = {
    "id": "x",
    "name": "X",
    "units": [
        {"id": "x-king", "name": "K", "strength": 3, "liege": True},
        {"id": "x-1", "name": "S", "strength": 2, "liege": False},
    ],
}
OTHER = {
    "id": "y",
    "name": "Y",
    "units": [{"id": "y-king", "name": "K", "strength": 3, "liege": True}],
}


@pytest.mark.parametrize(
    "extra, code, field",
    [
        (
            {"actions": [{"id": "a", "name": "A", "effect": {"effect": "teleport"}}]},
            "bad_effect",
            "actions.0.effect",
        ),
        (
            {"actions": [{"id": "a", "name": "A", "effect": {"effect": "leap", "distance": 9}}]},
            "bad_effect",
            "actions.0.effect.distance",
        ),
        (
            {"actions": [{"id": "a", "name": "A", "effect": {"effect": "swap", "distance": 2}}]},
            "bad_effect",
            "actions.0.effect",
        ),
        (
            {"actions": [{"id": "a", "name": "A", "effect": {"effect": "swap"}}] * 2},
            "bad_action",
            "actions.1.id",
        ),
        ({"actions": [{"id": "a", "effect": {"effect": "swap"}}]}, "bad_action", "actions.0"),
        ({"actions": "swap"}, "bad_action", "actions"),
        ({"setup": [{"effect": "place_first", "unit": "y-king"}]}, "bad_setup", "setup.0.unit"),
        ({"setup": [{"effect": "place_first"}]}, "bad_effect", "setup.0.unit"),
        (
            {"setup": [{"effect": "reinforced_unit", "unit": "x-1", "count": 4}]},
            "bad_effect",
            "setup.0.count",
        ),
        (
            {
                "setup": [
                    {"effect": "place_first", "unit": "x-1"},
                    {"effect": "place_first", "unit": "x-king"},
                ]
            },
            "bad_setup",
            "setup",
        ),
        ({"setup": [{"effect": "swap"}]}, "bad_effect", "setup.0"),
    ],
)
def test_custom_race_rules_are_validated_with_the_field_named(extra, code, field):
    with pytest.raises(InvalidSetup) as err:
        GAME.setup(["ann", "bob"], 1, {"races": [{**BASE, **extra}, OTHER]})
    found = [v for v in err.value.violations if v.code == code]
    assert found, err.value.violations
    assert f"options.races.0.{field}" in found[0].message
    assert found[0].rule in (
        "reign-absolute#effect-primitives",
        "reign-absolute#race-actions",
        "reign-absolute#race-setup-requirements",
    )


def test_custom_race_rules_play():
    races = [
        {
            **BASE,
            "actions": [{"id": "hop", "name": "Hop", "effect": {"effect": "leap", "distance": 3}}],
            "setup": [
                {"effect": "place_first", "unit": "x-king"},
                {"effect": "reinforced_unit", "unit": "x-1", "count": 2},
            ],
        },
        OTHER,
    ]
    state = GAME.setup(
        ["ann", "bob"], 4, {"races": races, "races_by_player": {"ann": "x", "bob": "y"}}
    )
    assert state["unit_decks"]["ann"][0] == "x-king"
    while state["phase"] == "placement":
        state, events = apply(state, GAME.legal_moves(state)[0])
    assert first(events, "setup_task")["count"] == 2
    assert (
        len(all_of(events, "reinforcement_placed"))
        + len([e for e in all_of(events, "turn_card_discarded")])
        == 2
    )
    while state["turn"]["player"] != "ann":
        state, _ = apply(
            state,
            [
                m
                for m in GAME.legal_moves(state)
                if m["type"] in ("pass", "reinforce", "discard_turn_card")
            ][0],
        )
    hops = [m for m in GAME.legal_moves(state) if m["type"] == "race_action"]
    assert hops and {m["action"] for m in hops} == {"hop"}
    assert {
        abs(m["x"] - state["battlefield"][m["unit"]]["x"])
        + abs(m["y"] - state["battlefield"][m["unit"]]["y"])
        for m in hops
    } == {2, 3}


def test_the_post_setup_task_leaves_the_state_it_was_given_untouched():
    """``apply`` is pure (contract, Determinism): the Runesmith's setup card goes under a new
    battlefield entry, not into the entry the previous state shares with the new one. The
    four-player golden game (seed 987654321, chooser 3) places the Runesmith long before the
    last unit, so the last placement's input held the entry the task fills."""
    state = GAME.setup(["ann", "bob", "cat", "dan"], 987654321, {"turn_limit": 24})
    chooser = random.Random(3)
    events: list[dict] = []
    while "placement_finished" not in types(events):
        last = state
        state, events = apply(state, chooser.choice(GAME.legal_moves(state)))  # checks the input
    assert "setup_task" in types(events)
    placed = first(events, "reinforcement_placed")
    assert last["battlefield"][placed["unit"]]["reinforcements"] == []
    assert state["battlefield"][placed["unit"]]["reinforcements"] == [placed["card"]]
