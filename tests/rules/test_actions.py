"""The internal move form (``Game.legal_actions``, ``apply_action``, ``move_of``; issue 28 part
2): for every game, a playout through actions is exactly the playout through move dicts, and
each state lists the same moves in both forms, player by player."""

from __future__ import annotations

import itertools
import random

import pytest

from api.jsonio import dumps
from rules.playout import random_action_steps, random_steps
from rules.registry import GAMES, get_game

SHORT = {
    "reign-supreme": {"round_limit": 3},
    "reign-absolute": {"turn_limit": 12},
}
"""Options that keep the long games short."""
STEPS = 150
"""Steps compared per game: enough to pass through every phase of the short games."""


@pytest.mark.parametrize("game_id", sorted(GAMES))
@pytest.mark.parametrize("seed", [3, 11])
def test_a_playout_through_actions_is_the_playout_through_moves(game_id, seed):
    game = get_game(game_id)
    players = [f"p{i}" for i in range(game.min_players + seed % 2)]
    start = game.setup(players, seed, dict(SHORT.get(game_id, {})))
    by_moves = random_steps(game, start, random.Random(seed), concede=0.0)
    by_actions = random_action_steps(game, start, random.Random(seed), concede=0.0)
    count = 0
    for step, astep in itertools.islice(itertools.zip_longest(by_moves, by_actions), STEPS):
        assert step is not None and astep is not None, "one playout ended before the other"
        assert [game.move_of(a) for a in astep.legal] == step.legal
        assert game.move_of(astep.action) == step.move
        assert dumps(astep.after) == dumps(step.after)
        assert dumps(astep.events) == dumps(step.events)
        for p in step.before["players"]:
            moves = game.legal_moves(step.before, p)
            assert [game.move_of(a) for a in game.legal_actions(step.before, p)] == moves
        count += 1
    assert count > 10


def test_actions_without_drops_only_that_move_type():
    game = get_game("reign-and-ruin")
    state = game.setup(["ann", "bob"], 5, {})
    for step in random_action_steps(game, state, random.Random(5)):
        kept = game.actions_without(step.legal, "fighter")
        assert kept == [a for a in step.legal if game.move_of(a)["type"] != "fighter"]


@pytest.mark.parametrize("seed", [2, 7])
def test_every_listed_reign_supreme_action_applies_as_its_checked_move(seed):
    """Reign Supreme's ``apply_action`` skips the checks (``moves.resolve``): at every state of a
    playout, each listed action (not only the one a playout picks) gives exactly the state and
    events of ``apply`` of its move, including moves of the players not waited for."""
    game = get_game("reign-supreme")
    players = [f"p{i}" for i in range(2 + seed % 3)]
    start = game.setup(players, seed, {"round_limit": 3})
    compared = set()
    for step in itertools.islice(
        random_action_steps(game, start, random.Random(seed), concede=0.0), 100
    ):
        for action in step.legal:
            after, events = game.apply_action(step.before, action)
            checked_after, checked_events = game.apply(step.before, game.move_of(action))
            assert dumps(after) == dumps(checked_after)
            assert dumps(events) == dumps(checked_events)
            compared.add(game.move_of(action)["type"])
    assert {"place", "move", "attack", "cast", "end_turn", "concede"} <= compared, compared
