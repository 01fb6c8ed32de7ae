"""``rules.forfeit``: a seat loses without a move of its own, in every game (issue 25)."""

from __future__ import annotations

import pytest

from rules.forfeit import FORFEIT, forfeit
from rules.registry import GAMES, get_game
from tests.contract.oapi import check_component

SEATS = {"reigns-the-council": ["ann", "bob", "cy"]}


def _new(game_id: str, players: list[str] | None = None):
    game = get_game(game_id)
    players = players or SEATS.get(game_id, ["ann", "bob"])
    return game, game.setup(players, 7, {})


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_forfeit_makes_the_seat_lose_and_every_view_still_shows_the_game(game_id):
    game, state = _new(game_id)
    seat = game.waiting_on(state)[0]
    new, events, move = forfeit(game, state, seat)
    assert new["status"] == "finished" and game.waiting_on(new) == []
    assert seat not in new["outcome"]["winners"] and new["outcome"]["winners"]
    assert game.legal_moves(new) == []
    assert state["status"] == "in_progress"  # the state given is not changed
    prefix = "".join(part.title() for part in game_id.split("-"))
    for viewer in [None, *new["players"]]:
        check_component(f"{prefix}View", game.view(new, viewer))
    if move["type"] == FORFEIT:
        assert move == {"player": seat, "type": FORFEIT} and events == []
        assert new["outcome"]["reason"] == "forfeit"
    else:
        assert move == {"player": seat, "type": "concede"} and events


def test_a_game_without_concede_ends_with_the_others_sharing_the_win():
    game, state = _new("reign-and-ruin", ["ann", "bob", "cy"])
    seat = game.waiting_on(state)[0]
    new, _, _ = forfeit(game, state, seat)
    others = [p for p in ["ann", "bob", "cy"] if p != seat]
    assert new["outcome"]["winners"] == others and new["outcome"]["draw"] is True


def test_reign_supreme_forfeits_by_conceding_and_a_larger_game_goes_on():
    game, state = _new("reign-supreme", ["ann", "bob", "cy"])
    seat = game.waiting_on(state)[0]
    new, events, move = forfeit(game, state, seat)
    assert move["type"] == "concede" and new["status"] == "in_progress"
    assert seat not in game.waiting_on(new)
    assert any(e["type"] == "player_defeated" and e["player"] == seat for e in events)


def test_forfeit_refuses_a_stranger_and_a_finished_game():
    game, state = _new("reign-and-ruin")
    with pytest.raises(ValueError):
        forfeit(game, state, "zed")
    done, _, _ = forfeit(game, state, "ann")
    with pytest.raises(ValueError):
        forfeit(game, done, "bob")
