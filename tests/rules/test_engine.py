"""The shared engine: seats, player checks, the Game helpers, errors, value types, registry."""

from __future__ import annotations

import pytest

from rules.engine import check_players, next_seat, seats_after
from rules.engine_types import Outcome, Score, Violation
from rules.errors import IllegalMove, InvalidSetup, InvalidState, RulesError, UnknownGame
from rules.registry import GAMES, get_game

GAME = get_game("reign-and-ruin")


def test_next_seat_is_the_next_index_wrapping():
    players = ["ann", "bob", "cat"]
    assert [next_seat(players, p) for p in players] == ["bob", "cat", "ann"]
    assert next_seat(["a", "b"], "b") == "a"
    assert seats_after(players, "bob") == ["cat", "ann"]
    assert seats_after(["a", "b"], "b") == ["a"]


@pytest.mark.parametrize("players", [["a", "b"], ["a", "b", "c"], ["a", "b", "c", "d"]])
def test_check_players_accepts_the_range(players):
    check_players(GAME, players)


@pytest.mark.parametrize(
    "players, codes",
    [
        ([], ["player_count"]),
        (["a"], ["player_count"]),
        (["a", "b", "c", "d", "e"], ["player_count"]),
        (["a", "a"], ["duplicate_player"]),
        (["a", "b", "a", "b"], ["duplicate_player", "duplicate_player"]),
        (["a", "a", "a", "a", "a"], ["player_count"]),
    ],
)
def test_check_players_refuses(players, codes):
    with pytest.raises(InvalidSetup) as caught:
        check_players(GAME, players)
    assert [v.code for v in caught.value.violations] == codes
    assert all(v.rule == "reign-and-ruin#players" for v in caught.value.violations)


def test_a_wrong_count_is_refused_before_any_id_is_checked(monkeypatch):
    """An id costs its PRECIS and confusables work: a list of 100,000 ids took over a second to
    refuse (a hunt). A wrong count is refused on its own, whatever the ids."""
    checked: list[object] = []
    monkeypatch.setattr(
        "rules.engine.player_id_violations", lambda *args: checked.append(args) or []
    )
    with pytest.raises(InvalidSetup) as caught:
        check_players(GAME, [f"p{i}" for i in range(100_000)])
    assert [v.code for v in caught.value.violations] == ["player_count"]
    assert checked == []
    check_players(GAME, ["a", "b"])
    assert len(checked) == 1  # a right count: its ids are checked


def test_error_tree_and_codes():
    v = Violation("x", "Because.", "reign-and-ruin#turn")
    for cls, code in (
        (InvalidSetup, "invalid_setup"),
        (InvalidState, "invalid_state"),
        (IllegalMove, "illegal_move"),
    ):
        err = cls([v])
        assert isinstance(err, RulesError) and err.code == code and err.violations == (v,)
        assert str(err) == "Because."
    with pytest.raises(ValueError):
        IllegalMove([])
    unknown = UnknownGame("chess")
    assert isinstance(unknown, LookupError) and unknown.code == "unknown_game"
    assert unknown.violations[0].code == "unknown_game"


def test_registry():
    assert GAMES["reign-and-ruin"] is GAME
    with pytest.raises(UnknownGame):
        get_game("chess")


def test_value_types_serialise():
    assert Violation("a", "b", "c").to_dict() == {"code": "a", "message": "b", "rule": "c"}
    assert Outcome(("ann",), False, {"ann": 3}).to_dict() == {
        "winners": ["ann"],
        "draw": False,
        "scores": {"ann": 3},
        "reason": "game_end",
    }
    assert Score(True, {"ann": 1}, ("ann",), False, {"k": 1}).to_dict() == {
        "finished": True,
        "scores": {"ann": 1},
        "winners": ["ann"],
        "draw": False,
        "breakdown": {"k": 1},
        "provisional": False,
        "leaders": ["ann"],
    }


def test_default_view_move_shows_a_move_whole_only_to_its_own_player():
    from rules.reign_and_ruin import GAME

    move = {"player": "ann", "type": "draft", "cards": ["hexen-4", "crou-2"]}
    assert GAME.view_move(move, "ann") == move
    assert GAME.view_move(move, "bob") == {"player": "ann", "type": "draft"}
    assert GAME.view_move(move, None) == {"player": "ann", "type": "draft"}
