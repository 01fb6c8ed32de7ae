"""Every game judges a listed move with any JSON value in any one field without crashing: the
checks past the player, the type and the phase, which arbitrary moves seldom reach."""

from __future__ import annotations

import random

import pytest

from rules.playout import random_steps
from rules.registry import get_game
from tests.rules.fuzzing import judged_without_crashing, moves_with_an_odd_field

GAME_IDS = ("reign-and-ruin", "reign-absolute", "reign-supreme", "reigns-the-council")
STATES_PER_GAME = 60


def sample_states(game_id: str) -> list[dict]:
    """States spread over random games of every player count, never conceded, in order."""
    game = get_game(game_id)
    states = []
    for n in range(game.min_players, game.max_players + 1):
        chooser = random.Random(n)
        state = game.setup([f"p{i}" for i in range(n)], n, {})
        steps = list(random_steps(game, state, chooser, concede=0.0))
        every = max(1, len(steps) // (STATES_PER_GAME // (game.max_players - game.min_players + 1)))
        states += [step.before for step in steps[::every]]
    return states


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_listed_move_with_any_value_in_one_field_is_judged_without_crashing(game_id):
    game = get_game(game_id)
    judged = 0
    for state in sample_states(game_id):
        for move in moves_with_an_odd_field(game, state):
            judged_without_crashing(game, state, move)
            judged += 1
    assert judged >= 500
