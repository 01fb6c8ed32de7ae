"""Whom the game waits on (issue 24 item 4; contract, Fairness: "Every state, view and session
answer has `to_move`: the players the game waits on (a subset of `active_players`, who may act
now). A client loop moves when it is in `to_move`."), and the one concede design of all four
games: ``concede`` is listed last, and a player in ``to_move`` always has another move, so a
naive loop (take the first legal move whenever you are in ``to_move``) never concedes by
accident. Every rules document states both in its "To move" section."""

from __future__ import annotations

import random

import pytest

from rules.engine import Game
from rules.engine_types import State
from rules.playout import random_steps
from rules.registry import GAMES, get_game

SHORT = {
    "reign-supreme": {"round_limit": 3},
    "reign-absolute": {"turn_limit": 12},
}
"""Options that keep the long games short: the invariants do not depend on the game's length."""


def _players(game: Game, count: int) -> list[str]:
    return [f"p{i}" for i in range(count)]


def _check_to_move(game: Game, state: State) -> None:
    """Every invariant of ``to_move`` and of ``concede`` in the lists, for one state."""
    to_move = state["to_move"]
    assert to_move == game.waiting_on(state), "to_move is what the rules say"
    active = state["active_players"]
    assert [p for p in active if p in to_move] == to_move, "a subset of active_players, in order"
    if state["status"] == "finished":
        assert to_move == []
        return
    assert to_move, "an unfinished game waits on someone"
    for p in active:
        moves = game.legal_moves(state, p)
        assert moves, f"{p} is active and has a legal move"
        kinds = [m["type"] for m in moves]
        if "concede" in kinds:
            assert kinds.index("concede") == len(kinds) - 1, "concede is listed last, once"
        if p in to_move:
            assert kinds[0] != "concede", f"{p} is waited on: their first move is not concede"
    for viewer in [*state["players"], None]:
        assert game.view(state, viewer)["to_move"] == to_move, "every view shows to_move"


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_to_move_in_every_state_and_view_of_random_games(game_id):
    """Random games of every player count: in every state, ``to_move`` is ``waiting_on``, a
    subset of ``active_players``, shown in every view; ``concede`` comes last in every list and
    never first for a player the game waits on."""
    game = get_game(game_id)
    for count in range(game.min_players, game.max_players + 1):
        state = game.setup(_players(game, count), count, dict(SHORT.get(game_id, {})))
        _check_to_move(game, state)
        for i, step in enumerate(random_steps(game, state, random.Random(count), concede=0.0)):
            if i % 3 == 0 or step.after["status"] == "finished":
                game.check_state(step.after)
                _check_to_move(game, step.after)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_naive_loop_that_moves_when_in_to_move_never_concedes(game_id):
    """The README's loop: whenever your player is in ``to_move``, send the first legal move.
    Every seat doing so plays the game to its end, and nobody concedes (issue 24: a client that
    moved "whenever it had legal moves" conceded a Reign Supreme game at version 12, as a seat
    listed outside its turn whose only move was ``concede``)."""
    game = get_game(game_id)
    players = _players(game, game.max_players)
    state = game.setup(players, 12, dict(SHORT.get(game_id, {})))
    for _ in range(5000):
        if state["status"] == "finished":
            break
        seat = next(p for p in players if p in state["to_move"])
        move = game.legal_moves(state, seat)[0]
        assert move["type"] != "concede"
        state, _ = game.apply(state, move)
    assert state["status"] == "finished"


def test_reign_supreme_lists_a_card_holder_outside_their_turn_but_does_not_wait_on_them():
    """RS 10: in the turn player's Combat phase a player holding a card is active (their hand is
    private, so a card that cannot be played now still lists them) and may have nothing but
    ``concede``; ``to_move`` is the turn player alone, so a loop that moves in ``to_move`` never
    plays for them."""
    game = get_game("reign-supreme")
    state = game.setup(["ann", "bob"], 3, {})
    chooser = random.Random(3)
    seen_only_concede = False
    for step in random_steps(game, state, chooser, max_steps=4000, concede=0.0):
        after = step.after
        if after["status"] == "finished" or after["phase"] != "combat" or after["pending"]:
            continue
        assert after["to_move"] == [after["turn"]]
        for p in after["active_players"][1:]:
            assert p not in after["to_move"]
            if [m["type"] for m in game.legal_moves(after, p)] == ["concede"]:
                seen_only_concede = True
        if seen_only_concede:
            break
    assert seen_only_concede, "the case of issue 24 (a seat with only concede) was reached"
