"""The integrity checks every game shares (rules/integrity.py), and that every registered game
uses them: the common fields of a state are judged alike, with the same codes, in every game."""

from __future__ import annotations

import pytest

from rules.errors import InvalidSetup, InvalidState
from rules.integrity import common_problems, guarded, is_int, is_seed
from rules.registry import GAMES, get_game
from rules.rng import MAX_SEED

BASE = {
    "game": "g",
    "schema_version": 1,
    "players": ["a", "b"],
    "move_count": 0,
    "seed": 5,
    "rng": "0123456789abcdef",
}


def codes(state, **limits):
    options = dict(
        game_id="g",
        schema_version=1,
        min_players=2,
        max_players=4,
        max_move_count=100,
        rule="g#integrity",
    )
    options.update(limits)
    found, players_ok = common_problems(state, **options)
    return [v.code for v in found], players_ok


@pytest.mark.parametrize(
    "change, code",
    [
        ({"game": "h"}, "wrong_game"),
        ({"schema_version": 2}, "schema_version"),
        ({"players": ["a"]}, "bad_players"),
        ({"players": ["a", "a"]}, "bad_players"),
        ({"players": "ab"}, "bad_players"),
        ({"move_count": -1}, "bad_move_count"),
        ({"move_count": 101}, "bad_move_count"),
        ({"move_count": True}, "bad_move_count"),
        ({"seed": -1}, "bad_seed"),
        ({"seed": 2**63}, "bad_seed"),
        ({"seed": "5"}, "bad_seed"),
        ({"seed": True}, "bad_seed"),
        ({"rng": "0123456789ABCDEF"}, "bad_rng"),
        ({"rng": "01"}, "bad_rng"),
        ({"rng": 5}, "bad_rng"),
    ],
)
def test_each_common_field_is_checked(change, code):
    found, players_ok = codes({**BASE, **change})
    assert found == [code]
    assert players_ok == (code != "bad_players")


@pytest.mark.parametrize(
    "players, code",
    [
        (["ann", "bob\u202e"], "invalid_player_id"),  # a bidi override: outside PRECIS
        (["ann", "a nn"], "invalid_player_id"),  # a space
        (["bob", "\u0412ob"], "duplicate_player"),  # a Cyrillic capital Ve: bob's look-alike
        (["ann", "Ann"], "duplicate_player"),  # case alone
    ],
)
def test_a_states_player_ids_follow_the_rules_setup_follows(players, code):
    """The contract: "Player ids follow the same rules wherever players are given"; a state
    sent back gives them too, and one setup would refuse is refused as a state."""
    found, players_ok = codes({**BASE, "players": players})
    assert found == [code] and players_ok is False
    game = get_game("reign-and-ruin")
    with pytest.raises(InvalidSetup, match="players"):
        game.setup(players, 1, {})


def test_a_sound_envelope_has_no_problems():
    assert codes(BASE) == ([], True)
    assert is_int(3) and not is_int(True) and not is_int(3.0)
    assert is_seed(0) and is_seed(MAX_SEED)
    assert not any(is_seed(v) for v in (-1, MAX_SEED + 1, True, False, 1.0, "1", None))


def test_guarded_turns_an_unreadable_state_into_one_violation():
    def problems(state):
        return [] if state["deep"]["er"] else []

    check = guarded(problems, "g#integrity")
    found = check({"secret": "hexen-4"})
    assert [v.code for v in found] == ["malformed_state"] and "hexen-4" not in found[0].message


@pytest.mark.parametrize("game_id", sorted(GAMES))
@pytest.mark.parametrize(
    "change, code",
    [
        ({"rng": "nope"}, "bad_rng"),
        ({"seed": -3}, "bad_seed"),
        ({"move_count": -1}, "bad_move_count"),
        ({"game": "chess"}, "wrong_game"),
    ],
)
def test_every_game_refuses_a_broken_common_field(game_id, change, code):
    game = get_game(game_id)
    state = game.setup([f"p{i}" for i in range(game.min_players)], 1, {})
    with pytest.raises(InvalidState) as err:
        game.check_state({**state, **change})
    assert code in [v.code for v in err.value.violations]


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_game_refuses_a_to_move_the_rules_do_not_give(game_id):
    """``to_move`` is derived (``Game.waiting_on``), never chosen: a state that waits on someone
    else, on nobody, or on a stranger is a 422 ``bad_to_move`` pointing at the rules doc's "To
    move" section (contract, Fairness)."""
    game = get_game(game_id)
    players = [f"p{i}" for i in range(game.min_players)]
    state = game.setup(players, 1, {})
    assert state["to_move"] == game.waiting_on(state) != []
    game.check_state(state)
    others = [p for p in players if p not in state["to_move"]]
    for wrong in ([], others, ["stranger"], state["to_move"] * 2):
        with pytest.raises(InvalidState) as err:
            game.check_state({**state, "to_move": wrong})
        assert [(v.code, v.rule) for v in err.value.violations] == [
            ("bad_to_move", f"{game_id}#to-move")
        ]
