"""Hidden information in views, events and messages (seed, Key Concepts; rulings RA 12)."""

from __future__ import annotations

import json
import random

import pytest
from ra_helpers import apply, battle, mv, play, unit

from rules.reign_absolute import GAME


def state_with_secrets():
    return battle(
        {"ann": "empire", "bob": "elves"},
        {
            "ann": [unit("empire-king", 0, 0, "plus-4-1"), unit("empire-archers-1", 1, 0)],
            "bob": [
                unit("elves-queen", 5, 0, "cancel-1", "plus-1-1"),
                unit("elves-enchantress", 2, 0),
            ],
        },
        deck=["plus-6-1"],
        unit_discards={"bob": ["elves-druid-1"]},
    )


def test_own_units_and_cards_visible_enemy_units_only_owner_cell_and_count():
    state = state_with_secrets()
    view = GAME.view(state, "ann")
    by_cell = {(u["x"], u["y"]): u for u in view["battlefield"]}
    assert by_cell[(0, 0)] == {
        "x": 0,
        "y": 0,
        "owner": "ann",
        "reinforcement_count": 1,
        "unit": "empire-king",
        "reinforcements": ["plus-4-1"],
    }
    assert by_cell[(5, 0)] == {"x": 5, "y": 0, "owner": "bob", "reinforcement_count": 2}
    for secret in ("elves-queen", "elves-enchantress", "cancel-1", "plus-6-1", "0123456789abcdef"):
        # Catalogues list every unit and card id (the composition is public), so check the
        # places, not the catalogue.
        placed = json.dumps({k: v for k, v in view.items() if k not in ("units", "races", "cards")})
        assert secret not in placed, secret
    assert "seed" not in view and "rng" not in view and "deck" not in view
    assert view["deck_count"] == len(state["deck"])
    assert view["unit_discards"]["bob"][0] == "elves-druid-1"  # discards are public


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
    assert "card" not in GAME.view_event(drawn, "bob") and "card" not in GAME.view_event(
        drawn, None
    )
    assert GAME.view(state, "bob")["turn"]["drawn"] == {"kind": "combat"}
    assert GAME.view(state, "ann")["turn"]["drawn"] == {"kind": "combat", "card": "plus-6-1"}
    state, events = apply(state, mv("ann", "reinforce", unit="empire-archers-1"))
    placed = events[0]
    assert placed["type"] == "reinforcement_placed"
    redacted = GAME.view_event(placed, "bob")
    assert (
        "unit" not in redacted
        and "card" not in redacted
        and redacted["x"] == 1
        and redacted["count"] == 1
    )
    turn_state = battle(
        {"ann": "empire", "bob": "elves"},
        {"ann": [unit("empire-king", 0, 0)], "bob": [unit("elves-queen", 5, 0)]},
        deck=["another-turn-1"],
    )
    turn_state, events = apply(turn_state, mv("ann", "pass"))
    drawn = next(e for e in events if e["type"] == "reinforcement_drawn")
    assert GAME.view_event(drawn, "bob")["card"] == "another-turn-1"


def test_moves_and_placements_hide_the_unit_from_others():
    state, events = apply(state_with_secrets(), mv("ann", "move", unit="empire-king", x=0, y=1))
    moved = events[0]
    assert moved["type"] == "unit_moved" and moved["unit"] == "empire-king"
    assert GAME.view_event(moved, "bob") == {
        "type": "unit_moved",
        "player": "ann",
        "from": {"x": 0, "y": 0},
        "to": {"x": 0, "y": 1},
    }
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
    combat = [e for e in events if e["type"] != "reinforcement_drawn"]
    assert [e["type"] for e in combat][:2] == ["combat_started", "units_revealed"]
    assert "combat_totals" in [e["type"] for e in combat] and "unit_defeated" in [
        e["type"] for e in combat
    ]
    for e in combat:
        assert GAME.view_event(e, None) == e and GAME.view_event(e, "bob") == e


def test_error_messages_do_not_reveal_enemy_units():
    state = state_with_secrets()
    enemy = GAME.violations(state, mv("ann", "move", unit="elves-queen", x=5, y=1))
    unknown = GAME.violations(state, mv("ann", "move", unit="no-such-unit", x=5, y=1))
    discarded = GAME.violations(state, mv("ann", "move", unit="elves-druid-1", x=5, y=1))
    assert (
        [v.code for v in enemy]
        == [v.code for v in unknown]
        == [v.code for v in discarded]
        == ["not_your_unit"]
    )
    assert enemy[0].message.replace("elves-queen", "X") == unknown[0].message.replace(
        "no-such-unit", "X"
    )
    attack = GAME.violations(state, mv("ann", "attack", unit="empire-archers-1", x=1, y=1))
    for v in attack:
        assert "enchantress" not in v.message and "queen" not in v.message


def test_unknown_viewer_is_a_spectator_in_the_rules():
    assert GAME.view(state_with_secrets(), "zed")["viewer"] is None


@pytest.mark.parametrize("stage", ["action", "doom", "reinforce", "march"])
def test_refusals_read_the_same_for_an_enemy_unit_a_discarded_unit_and_no_unit(stage):
    state = state_with_secrets()
    kind = {"action": "move", "doom": "doom_discard", "reinforce": "reinforce", "march": "march"}[
        stage
    ]
    if stage == "doom":
        state, _ = play(
            state, mv("ann", "doom"), mv("bob", "doom_discard", unit="elves-enchantress")
        )
    elif stage == "reinforce":
        state, _ = apply(state, mv("ann", "pass"))
    elif stage == "march":
        state = battle(
            {"ann": "empire", "bob": "elves"},
            {
                "ann": [unit("empire-king", 0, 0)],
                "bob": [unit("elves-queen", 5, 0), unit("elves-druid-2", 2, 0)],
            },
            deck=["forced-march-1"],
            unit_discards={"bob": ["elves-druid-1"]},
        )
        state, _ = play(state, mv("ann", "pass"), mv("ann", "play_turn_card"))
    fields = {"x": 5, "y": 1} if kind in ("move", "march") else {}
    answers = []
    for uid in ("elves-queen", "elves-druid-1", "no-such-unit"):
        found = GAME.violations(state, mv("ann", kind, unit=uid, **fields))
        answers.append([(v.code, v.message.replace(repr(uid), "X"), v.rule) for v in found])
    assert answers[0] and answers[0] == answers[1] == answers[2]


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def _learn(event, public_units, public_cards, known_cards):
    """What an event makes public (for everyone) or known (to its player)."""
    kind = event["type"]
    if kind == "units_revealed":
        for side in (event["attacker"], event["defender"]):
            public_units.add(side["unit"])
            public_cards.update(side["reinforcements"])
    elif kind in ("combat_card_drawn", "turn_card_played", "turn_card_discarded"):
        public_cards.add(event["card"])
    elif kind == "first_player_draw":
        public_cards.update(d["card"] for d in event["draws"].values())
    elif kind in ("doom_discard", "player_eradicated"):
        public_units.update([event["unit"]] if "unit" in event else event["units"])
        public_cards.update(event["cards"])
    elif kind in ("unit_defeated", "bonus_unit_placed", "unit_advanced"):
        public_units.add(event["unit"])
    elif (
        kind == "reinforcement_placed" and "card" in event
    ):  # a setup task's card: its owner saw it
        known_cards[event["player"]].add(event["card"])
    elif kind == "reinforcement_drawn":
        (public_cards if event["kind"] == "turn" else known_cards[event["player"]]).add(
            event["card"]
        )


def test_random_games_never_show_a_hidden_unit_or_card():
    """Over whole random games: no view or redacted event names another player's hidden unit, or
    a card its viewer has not seen, and enemy units show only owner, cell and count."""
    checked = 0
    for seed in range(6):
        players = ["ann", "bob", "cat", "dan"][: 2 + seed % 3]
        state = GAME.setup(players, seed, {})
        chooser = random.Random(seed)
        public_units: set[str] = set()
        public_cards: set[str] = set()
        known_cards = {p: set() for p in players}
        while state["status"] != "finished":
            state, events = GAME.apply(state, chooser.choice(GAME.legal_moves(state)))
            own = {
                p: set(state["races"][r]["units"]) if (r := state["race_of"][p]) else set()
                for p in players
            }
            for event in events:
                _learn(event, public_units, public_cards, known_cards)
                for viewer in players + [None]:
                    shown = GAME.view_event(event, viewer)
                    mine = own[viewer] if viewer else set()
                    for s in _strings(shown):
                        if s in state["units"]:
                            assert s in mine or s in public_units, (event, viewer)
                        if s in state["cards"]:
                            assert s in public_cards or (viewer and s in known_cards[viewer]), (
                                event,
                                viewer,
                            )
                    checked += 1
            if state["move_count"] % 7:
                continue
            for viewer in players + [None]:
                view = GAME.view(state, viewer)
                for shown in view["battlefield"]:
                    if shown["owner"] != viewer:
                        assert set(shown) == {"x", "y", "owner", "reinforcement_count"}
                hidden = {
                    k: v
                    for k, v in view.items()
                    if k
                    not in (
                        "units",
                        "races",
                        "cards",
                        "first_player_draws",
                        "discard",
                        "unit_discards",
                    )
                }
                mine = {u for u, e in state["battlefield"].items() if e["owner"] == viewer}
                under = {c for u in mine for c in state["battlefield"][u]["reinforcements"]}
                drawn = state["turn"]["drawn"] if state["turn"] else None
                if drawn and (
                    state["cards"][drawn]["kind"] == "turn" or state["turn"]["player"] == viewer
                ):
                    under.add(drawn)
                nxt = [view.get("next_unit")] if viewer and state["placer"] == viewer else []
                for s in _strings(hidden):
                    assert s not in state["units"] or s in mine or s in nxt, (s, viewer)
                    assert s not in state["cards"] or s in under, (s, viewer)
    assert checked > 5000


def test_session_histories_show_others_only_who_moved_and_the_move_type():
    """The engine's default ``view_move``: a placement, a move or a reinforcement of another
    player shows no unit and no cell in a session's history."""
    for move in (
        mv("ann", "place", x=0, y=1),
        mv("ann", "move", unit="empire-king", x=0, y=1),
        mv("ann", "reinforce", unit="empire-king"),
        mv("ann", "march", unit="empire-king", x=1, y=1),
    ):
        assert GAME.view_move(move, "bob") == {"player": "ann", "type": move["type"]}
        assert GAME.view_move(move, None) == {"player": "ann", "type": move["type"]}
        assert GAME.view_move(move, "ann") == move
