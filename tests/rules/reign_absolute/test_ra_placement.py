"""Placement (seed, Setup; rulings RA 5)."""

from __future__ import annotations

from ra_helpers import apply, codes, first, mv

from rules.reign_absolute import GAME

TINY = [
    {
        "id": "a",
        "name": "A",
        "units": [
            {"id": "a-liege", "name": "Liege", "strength": 5, "liege": True},
            {"id": "a-1", "name": "One", "strength": 3, "liege": False},
            {"id": "a-2", "name": "Two", "strength": 3, "liege": False},
            {"id": "a-3", "name": "Three", "strength": 3, "liege": False},
            {"id": "a-4", "name": "Four", "strength": 3, "liege": False},
            {"id": "a-5", "name": "Five", "strength": 3, "liege": False},
        ],
    },
    {
        "id": "b",
        "name": "B",
        "units": [
            {"id": "b-liege", "name": "Liege", "strength": 5, "liege": True},
            {"id": "b-1", "name": "One", "strength": 3, "liege": False},
        ],
    },
]


def start(players=("ann", "bob"), seed=1, races=None):
    options = {
        "races_by_player": dict(zip(players, ("empire", "elves", "orcs", "raiders"), strict=False))
    }
    if races:
        options = {"races": races, "races_by_player": dict(zip(players, ("a", "b"), strict=True))}
    return GAME.setup(list(players), seed, options)


def test_first_unit_in_the_middle_then_next_to_an_enemy_then_next_to_own():
    state = start()
    first_player = state["first_player"]
    other = "bob" if first_player == "ann" else "ann"
    assert GAME.legal_moves(state) == [mv(first_player, "place", x=0, y=0)]
    assert codes(state, mv(first_player, "place", x=1, y=0)) == ["must_place_in_middle"]
    top = state["unit_decks"][first_player][0]
    state, events = apply(state, mv(first_player, "place", x=0, y=0))
    assert events[0] == {"type": "unit_placed", "player": first_player, "unit": top, "x": 0, "y": 0}
    assert {(m["x"], m["y"]) for m in GAME.legal_moves(state)} == {(0, -1), (1, 0), (0, 1), (-1, 0)}
    state, _ = apply(state, mv(other, "place", x=1, y=0))
    cells = {(m["x"], m["y"]) for m in GAME.legal_moves(state)}
    assert cells == {(0, -1), (0, 1), (-1, 0)}  # next to its own unit at (0, 0), not (2, 0)
    assert codes(state, mv(first_player, "place", x=2, y=0)) == ["must_place_next_to_own"]
    assert codes(state, mv(first_player, "place", x=1, y=0)) == ["cell_occupied"]


def test_placement_fallback_when_own_units_are_enclosed():
    # ann: one unit at (0, 0); bob's units all around it. ann's next unit may go next to any unit.
    custom = [
        {
            "id": "b",
            "name": "B",
            "units": [
                {"id": f"b-{i}", "name": "x", "strength": 1, "liege": i == 0} for i in range(5)
            ],
        },
        TINY[0],
    ]
    state = GAME.setup(
        ["ann", "bob"], 1, {"races": custom, "races_by_player": {"ann": "a", "bob": "b"}}
    )
    b = list(state["unit_decks"]["bob"])
    a = list(state["unit_decks"]["ann"])
    field = {
        a[0]: (0, 0, "ann"),
        b[0]: (0, -1, "bob"),
        b[1]: (1, 0, "bob"),
        b[2]: (0, 1, "bob"),
        b[3]: (-1, 0, "bob"),
    }
    state["battlefield"] = {
        u: {"x": x, "y": y, "owner": o, "reinforcements": []} for u, (x, y, o) in field.items()
    }
    state["unit_decks"] = {"ann": a[1:], "bob": b[4:]}
    state["placer"] = "ann"
    state["active_players"] = state["to_move"] = ["ann"]
    GAME.check_state(state)
    cells = {(m["x"], m["y"]) for m in GAME.legal_moves(state)}
    assert cells == {
        (x, y) for x, y in [(1, -1), (-1, -1), (0, -2), (2, 0), (1, 1), (-1, 1), (0, 2), (-2, 0)]
    }
    state, _ = apply(state, mv("ann", "place", x=2, y=0))
    assert state["battlefield"][a[1]]["x"] == 2


def test_players_with_empty_decks_are_skipped_and_play_starts_with_the_first_player():
    state = start(races=TINY)
    fp = state["first_player"]
    order = []
    while state["phase"] == "placement":
        m = GAME.legal_moves(state)[0]
        order.append(m["player"])
        state, events = apply(state, m)
    assert len(order) == 8
    other = "bob" if fp == "ann" else "ann"
    deck_size = {"ann": 6, "bob": 2}
    expected = []
    left = dict(deck_size)
    p = fp
    while any(left.values()):
        if left[p]:
            expected.append(p)
            left[p] -= 1
        p = other if p == fp else fp
    assert order == expected
    assert first(events, "turn_started")["player"] == fp
    assert state["phase"] == "play" and state["turn"]["number"] == 1
