"""Movement ranges, blocking and the melee lock (rules doc §Movement, §Melee, §Board)."""

from __future__ import annotations

from itertools import pairwise

from rs_helpers import codes, destinations, move, of_type, play, position

from rules.reign_supreme import GAME
from rules.reign_supreme.hexes import distance, hex_of

# Resistance (ann): infantry movement 2, knight 5, footman 3. Greenskin (bob): infantry 2.
LINE = {
    "id": "line",
    "castles": False,
    "cards": False,
    "deployment": False,
    "initial_units": None,
    "army_list": "skirmish",
    "victory": "last_standing",
    "mines": [],
    "ruins": [],
    "midfield": [[q, 0] for q in range(0, 8)],
    "kingdoms": [
        {"id": "west", "hexes": [[-2, 0], [-1, 0]]},
        {"id": "east", "hexes": [[8, 0], [9, 0]]},
    ],
}


def test_a_unit_reaches_every_space_within_its_movement_on_open_ground():
    s = position({"ann": ["infantry"], "bob": ["infantry"]}, {"u1": [0, 0]})
    expected = {
        h
        for h in [(q, r) for q in range(-3, 4) for r in range(-3, 4)]
        if 1 <= distance(h, (0, 0)) <= 2
    }
    assert destinations(s, "u1") == expected
    assert len(expected) == 18


def test_movement_is_limited_by_speed():
    s = position({"ann": ["knight"], "bob": ["infantry"]}, {"u1": [0, 0]})
    assert max(distance(h, (0, 0)) for h in destinations(s, "u1")) == 5
    assert codes(s, move("ann", "move", unit="u1", to=[-3, 3])) == []
    s2 = position({"ann": ["infantry"], "bob": ["infantry"]}, {"u1": [0, 0]})
    assert codes(s2, move("ann", "move", unit="u1", to=[3, 0])) == ["out_of_reach"]


def test_enemy_units_block_the_way_and_friends_do_not():
    s = position(
        {"ann": ["infantry", "footman"], "bob": ["infantry"]},
        {"u1": [0, 0], "u2": [1, 0], "u3": [5, 0]},
        scenario=LINE,
    )
    # friend on [1,0]: the infantry passes through it to [2,0] but cannot stop on it
    assert destinations(s, "u1") == {(2, 0), (-1, 0), (-2, 0)}
    assert codes(s, move("ann", "move", unit="u1", to=[1, 0])) == ["space_taken"]
    # enemy on [3,0]: the footman (movement 3) from [1,0] cannot pass it to [4,0]
    s = position(
        {"ann": ["infantry", "footman"], "bob": ["infantry"]},
        {"u1": [-2, 0], "u2": [1, 0], "u3": [3, 0]},
        scenario=LINE,
    )
    assert destinations(s, "u2") == {(0, 0), (-1, 0), (2, 0)}
    assert codes(s, move("ann", "move", unit="u2", to=[4, 0])) == ["out_of_reach"]


def test_off_board_spaces_are_refused():
    s = position({"ann": ["infantry"], "bob": ["infantry"]}, {"u1": [0, 0]}, scenario=LINE)
    assert codes(s, move("ann", "move", unit="u1", to=[0, 1])) == ["off_board"]
    assert codes(s, move("ann", "move", unit="u1", to=[0])) == ["bad_space"]


def test_a_space_is_a_list_of_exactly_two_integers():
    """What a move's ``to`` and a cast's target must be to name a space (``hexes.hex_of``)."""
    assert hex_of([1, -2]) == (1, -2)
    for value in ([1], [1, 2, 3], [1.0, 2], [True, 2], [1, None], (1, 2), "1,2", {"q": 1}, None):
        assert hex_of(value) is None, value


def test_a_unit_moves_once_and_the_event_gives_its_path():
    s = position({"ann": ["infantry"], "bob": ["infantry"]}, {"u1": [0, 0]}, scenario=LINE)
    s, events = play(s, move("ann", "move", unit="u1", to=[2, 0]))
    assert events == [
        {
            "type": "unit_moved",
            "player": "ann",
            "unit": "u1",
            "from": [0, 0],
            "to": [2, 0],
            "path": [[0, 0], [1, 0], [2, 0]],
        }
    ]
    assert s["units"]["u1"]["at"] == [2, 0] and s["units"]["u1"]["moved"] is True
    assert destinations(s, "u1") == set()
    assert codes(s, move("ann", "move", unit="u1", to=[3, 0])) == ["already_moved"]


def test_a_unit_in_melee_cannot_end_its_move_in_melee():
    s = position({"ann": ["infantry"], "bob": ["infantry"]}, {"u1": [0, 0], "u2": [1, 0]})
    dests = destinations(s, "u1")
    assert dests, "it may still leave the melee"
    for h in dests:
        assert distance(h, (1, 0)) > 1
    assert codes(s, move("ann", "move", unit="u1", to=[0, 1])) == ["melee_lock"]
    assert codes(s, move("ann", "move", unit="u1", to=[-1, 0])) == []


def test_a_unit_in_melee_cannot_leave_it_for_another_melee():
    """Locked by bob's u2 on [1,0], ann's infantry may not end next to bob's u3 on [-2,0] either."""
    s = position(
        {"ann": ["infantry"], "bob": ["infantry", "infantry"]},
        {"u1": [0, 0], "u2": [1, 0], "u3": [-2, 0]},
    )
    dests = destinations(s, "u1")
    assert dests and (-1, 1) in dests
    for h in dests:
        assert distance(h, (1, 0)) > 1 and distance(h, (-2, 0)) > 1, h
    assert codes(s, move("ann", "move", unit="u1", to=[-1, 0])) == ["melee_lock"]
    assert codes(s, move("ann", "move", unit="u1", to=[-1, 1])) == []


def test_a_unit_that_comes_into_melee_stops_or_breaks_away():
    """Melee holds at every step: from a space next to an enemy a unit steps only to a space next
    to no enemy, so it cannot slide along the enemy's side to get past it (rules doc §Melee)."""
    s = position(
        {"ann": ["infantry", "knight"], "bob": ["infantry"]},
        {"u1": [-1, 0], "u2": [-2, 0], "u3": [1, 0]},
    )
    dests = destinations(s, "u2")
    assert {(0, 0), (0, 1), (1, -1)} <= dests  # the knight may come into melee ...
    assert (2, 0) not in dests  # ... but not slide round the enemy to the space behind it (5 steps)
    assert codes(s, move("ann", "move", unit="u2", to=[2, 0])) == ["melee_lock"]
    for h in sorted(dests):
        _, events = play(s, move("ann", "move", unit="u2", to=list(h)))
        path = [tuple(x) for x in events[0]["path"]]
        assert len(path) - 1 <= 5
        for a, b in pairwise(path):
            assert not (distance(a, (1, 0)) == 1 and distance(b, (1, 0)) == 1), path


def test_a_unit_not_in_melee_may_move_into_melee():
    s = position({"ann": ["infantry"], "bob": ["infantry"]}, {"u1": [-2, 0], "u2": [1, 0]})
    assert (0, 0) in destinations(s, "u1")
    s, _ = play(s, move("ann", "move", unit="u1", to=[0, 0]))
    assert s["units"]["u1"]["at"] == [0, 0]


def test_only_your_units_in_your_turn():
    s = position({"ann": ["infantry"], "bob": ["infantry"]}, {"u1": [0, 0], "u2": [2, 0]})
    assert codes(s, move("ann", "move", unit="u2", to=[2, 1])) == ["not_your_unit"]
    assert codes(s, move("bob", "move", unit="u2", to=[2, 1])) == ["not_your_turn"]
    assert codes(s, move("ann", "move", unit="u99", to=[2, 1])) == ["unknown_unit"]
    assert GAME.legal_moves(s, "bob") == []


def test_mines_and_ruins_change_hands_when_a_unit_ends_its_move_on_them():
    s = position({"ann": ["knight"], "bob": ["knight"]}, {"u1": [0, 0], "u2": [-3, 2]})
    assert s["scenario"]["mines"][0] == [2, -1] and s["control"] == {
        "mines": [None, None],
        "ruins": [None, None],
    }
    s, events = play(s, move("ann", "move", unit="u1", to=[2, -1]))
    assert s["control"]["mines"] == ["ann", None]
    assert [e for e in events if e["type"] == "mine_taken"] == [
        {"type": "mine_taken", "player": "ann", "at": [2, -1], "from": None}
    ]
    s, _ = play(s, move("ann", "end_turn"))
    s, events = play(s, move("bob", "move", unit="u2", to=[1, -1]))  # adjacent, not on it
    assert s["control"]["mines"] == ["ann", None]
    s, _ = play(s, move("bob", "end_turn"), move("ann", "move", unit="u1", to=[1, 1]))
    assert s["control"] == {
        "mines": ["ann", None],
        "ruins": [None, "ann"],
    }  # a Mine stays taken after leaving
    s, _ = play(s, move("ann", "end_turn"))
    s, events = play(s, move("bob", "move", unit="u2", to=[2, -1]))
    assert s["control"]["mines"] == ["bob", None]
    assert [e for e in events if e["type"] == "mine_taken"][0]["from"] == "ann"


def test_passing_over_a_mine_takes_it():
    """Ruling RS 15: "when a player moves a unit over the space", passing through included."""
    line = dict(LINE, mines=[[3, 0]])
    s = position(
        {"ann": ["knight"], "bob": ["knight"]}, {"u1": [2, 0], "u2": [7, 0]}, scenario=line
    )
    s, events = play(s, move("ann", "move", unit="u1", to=[4, 0]))
    assert events[0]["path"] == [[2, 0], [3, 0], [4, 0]]
    assert s["control"]["mines"] == ["ann"]
    assert of_type(events, "mine_taken") == [
        {"type": "mine_taken", "player": "ann", "at": [3, 0], "from": None}
    ]
