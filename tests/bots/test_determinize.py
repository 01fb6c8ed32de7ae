"""The determinizers: a state imagined from a view is a valid state that gives the same view,
and the same legal moves for the viewer, as the real one; it depends on the view and the bot's
seed only."""

from __future__ import annotations

import random

import pytest

from rules.bots import BOTS
from tests.bots.positions import GAME_IDS, random_line


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("seed", [1, 2])
def test_imagined_state_is_valid_and_looks_the_same(game_id, seed):
    bot = BOTS[game_id]
    game = bot.game
    checked = 0
    every = 6 if game_id == "reign-supreme" else 3  # its legal moves cost the most
    for i, state in enumerate(random_line(game_id, seed, 400)):
        if i % every:
            continue
        for player in state["players"]:
            view = game.view(state, player)
            imagined = bot.determinize(view, random.Random(i))
            game.check_state(imagined)
            assert game.view(imagined, player) == view, (game_id, seed, i, player)
            real = sorted(map(repr, game.legal_moves(state, player)))
            assert sorted(map(repr, game.legal_moves(imagined, player))) == real
            checked += 1
    assert checked > 20


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_imagined_state_depends_on_the_view_and_seed_only(game_id):
    bot = BOTS[game_id]
    game = bot.game
    state = random_line(game_id, 3, 30)[-1]
    player = state["players"][1]
    view = game.view(state, player)
    other = bot.determinize(view, random.Random(5))  # same view, other hidden cards and generator
    assert game.view(other, player) == view
    assert other["rng"] != state["rng"]
    again = bot.determinize(game.view(other, player), random.Random(7))
    assert again == bot.determinize(view, random.Random(7))


def test_council_bot_refuses_a_custom_deck():
    bot = BOTS["reigns-the-council"]
    game = bot.game
    deck = [
        {"back": ["church"], "accept": {"church": 1}, "reject": {"church": -1}} for _ in range(40)
    ]
    state = game.setup(["ann", "bob", "cat"], 1, {"deck": deck})
    while state["phase"] == "deal":
        state, _ = game.apply(state, game.legal_moves(state)[0])
    advisor = state["active_players"][0] if state["active_players"] else "bob"
    with pytest.raises(ValueError, match="default deck"):
        bot.determinize(game.view(state, advisor), random.Random(1))
