"""Hidden information in views, events and messages (seed, Key Concepts; rulings RA 12)."""
from __future__ import annotations

import json

import pytest

from ra_helpers import apply, battle, mv, unit
from rules.reign_absolute import GAME

ALL_UNIT_IDS = None


def state_with_secrets():
    return battle({"ann": "empire", "bob": "elves"}, {
        "ann": [unit("empire-king", 0, 0, "plus-4-1"), unit("empire-archers-1", 1, 0)],
        "bob": [unit("elves-queen", 5, 0, "cancel-1", "plus-1-1"), unit("elves-enchantress", 2, 0)],
    }, deck=["plus-6-1"], unit_discards={"bob": ["elves-druid-1"]})


def test_own_units_and_cards_visible_enemy_units_only_owner_cell_and_count():
    state = state_with_secrets()
    view = GAME.view(state, "ann")
    by_cell = {(u["x"], u["y"]): u for u in view["battlefield"]}
    assert by_cell[(0, 0)] == {"x": 0, "y": 0, "owner": "ann", "reinforcement_count": 1, "unit": "empire-king",
                               "reinforcements": ["plus-4-1"]}
    assert by_cell[(5, 0)] == {"x": 5, "y": 0, "owner": "bob", "reinforcement_count": 2}
    text = json.dumps(view)
    for secret in ("elves-queen", "elves-enchantress", "cancel-1", "plus-6-1", "0123456789abcdef"):
        # Catalogues list every unit and card id (the composition is public), so check the
        # places, not the catalogue.
        placed = json.dumps({k: v for k, v in view.items() if k not in ("units", "races", "cards")})
        assert secret not in placed, secret
    assert "seed" not in view and "rng" not in view and "deck" not in view
    assert view["deck_count"] == len(state["deck"])
    assert view["unit_discards"]["bob"][0] == "elves-druid-1"  # discards are public
    assert text


@pytest.mark.parametrize("viewer", ["ann", "bob", None])
def test_every_role_sees_exactly_its_own(viewer):
    state = state_with_secrets()
    view = GAME.view(state, viewer)
    for shown in view["battlefield"]:
        assert ("unit" in shown) == (viewer is not None and shown["owner"] == viewer)
        assert ("reinforcements" in shown) == ("unit" in shown)
    assert ("next_unit" in view) == (viewer is not None)


def test_a_drawn_combat_card_is_hidden_from_others_a_turn_card_is_not():
    state, events = apply(state_with_secrets(), mv("ann", "pass"))
    drawn = next(e for e in events if e["type"] == "reinforcement_drawn")
    assert GAME.view_event(drawn, "ann")["card"] == "plus-6-1"
    assert "card" not in GAME.view_event(drawn, "bob") and "card" not in GAME.view_event(drawn, None)
    assert GAME.view(state, "bob")["turn"]["drawn"] == {"kind": "combat"}
    assert GAME.view(state, "ann")["turn"]["drawn"] == {"kind": "combat", "card": "plus-6-1"}
    state, events = apply(state, mv("ann", "reinforce", unit="empire-archers-1"))
    placed = events[0]
    assert placed["type"] == "reinforcement_placed"
    redacted = GAME.view_event(placed, "bob")
    assert "unit" not in redacted and "card" not in redacted and redacted["x"] == 1 and redacted["count"] == 1
    turn_state = battle({"ann": "empire", "bob": "elves"}, {
        "ann": [unit("empire-king", 0, 0)], "bob": [unit("elves-queen", 5, 0)]}, deck=["another-turn-1"])
    turn_state, events = apply(turn_state, mv("ann", "pass"))
    drawn = next(e for e in events if e["type"] == "reinforcement_drawn")
    assert GAME.view_event(drawn, "bob")["card"] == "another-turn-1"


def test_moves_and_placements_hide_the_unit_from_others():
    state, events = apply(state_with_secrets(), mv("ann", "move", unit="empire-king", x=0, y=1))
    moved = events[0]
    assert moved["type"] == "unit_moved" and moved["unit"] == "empire-king"
    assert GAME.view_event(moved, "bob") == {"type": "unit_moved", "player": "ann", "from": {"x": 0, "y": 0},
                                             "to": {"x": 0, "y": 1}}
    setup = GAME.setup(["ann", "bob"], 4, {"races_by_player": {"ann": "empire", "bob": "elves"}})
    fp = setup["first_player"]
    other = "bob" if fp == "ann" else "ann"
    assert GAME.view(setup, fp)["next_unit"] == setup["unit_decks"][fp][0]
    assert GAME.view(setup, other)["next_unit"] is None
    _, events = apply(setup, mv(fp, "place", x=0, y=0))
    assert "unit" not in GAME.view_event(events[0], other)


def test_combat_reveals_are_public():
    state = state_with_secrets()
    _, events = apply(state, mv("ann", "attack", unit="empire-archers-1", x=2, y=0))
    for e in events:
        assert GAME.view_event(e, None) == e or e["type"] in ("reinforcement_drawn", "unit_moved")


def test_error_messages_do_not_reveal_enemy_units():
    state = state_with_secrets()
    enemy = GAME.violations(state, mv("ann", "move", unit="elves-queen", x=5, y=1))
    unknown = GAME.violations(state, mv("ann", "move", unit="no-such-unit", x=5, y=1))
    discarded = GAME.violations(state, mv("ann", "move", unit="elves-druid-1", x=5, y=1))
    assert [v.code for v in enemy] == [v.code for v in unknown] == [v.code for v in discarded] == ["not_your_unit"]
    assert enemy[0].message.replace("elves-queen", "X") == unknown[0].message.replace("no-such-unit", "X")
    attack = GAME.violations(state, mv("ann", "attack", unit="empire-archers-1", x=1, y=1))
    for v in attack:
        assert "enchantress" not in v.message and "queen" not in v.message


def test_unknown_viewer_is_a_spectator_in_the_rules():
    assert GAME.view(state_with_secrets(), "zed")["viewer"] is None
