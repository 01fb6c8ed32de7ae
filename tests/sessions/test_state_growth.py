"""How much a game's state grows during play: the ground for ``api.session_store.PLAY_GROWTH``.

A session is created with a state of at most ``MAX_SESSION_STATE_BYTES`` and its moves may make
states of up to twice that. The margin must hold whatever the players choose, hidden choices
included (a refusal would tell them apart), so every game is played here with the longest ids its
custom content allows (where the ids of hidden cards are what a state's size depends on) and the
smallest deck the game takes (where those ids weigh the most), in random games with every number
of players, and no state may reach 1.5 times the first one."""

from __future__ import annotations

import random

import pytest

from api.jsonio import dumps
from api.session_store import PLAY_GROWTH
from rules.playout import choose_move
from rules.registry import get_game
from rules.reign_and_ruin.cards import CARDS_PER_PLAYER, MAX_CARD_ID, default_deck
from rules.reigns_the_council.content import min_deck_size

MARGIN = 1.5
"""The most a state may grow here: well inside :data:`PLAY_GROWTH`."""
STEPS = 600
"""Moves per game at most (a whole game of each but Reign Supreme and Reign Absolute)."""


def _padded(card_id: str, length: int, fill: str = "x") -> str:
    return card_id + fill * (length - len(card_id))


def _long_ids(game_id: str, players: int) -> dict:
    """Options with the game's custom content, every id of the longest length it allows, and
    (with cards dealt to hands) the smallest deck it takes for ``players``."""
    content = get_game(game_id).content()
    if game_id == "reign-and-ruin":
        deck = default_deck()[: CARDS_PER_PLAYER * players]
        return {"deck": [dict(c, id=_padded(c["id"], MAX_CARD_ID)) for c in deck]}
    if game_id == "reigns-the-council":
        deck = content["deck"][: min_deck_size(players)]
        return {"deck": [dict(c, id=_padded(c["id"], 64)) for c in deck]}
    if game_id == "reign-supreme":
        cards = [dict(c, id=_padded(c["id"], 32, "_")) for c in content["cards"]]
        return {"cards": cards, "setup": "auto"}
    return {}  # Reign Absolute: no hidden card; its hidden units' ids are the rules' own


@pytest.mark.parametrize(
    "game_id", ["reign-and-ruin", "reign-absolute", "reign-supreme", "reigns-the-council"]
)
def test_no_state_grows_by_half_whatever_is_chosen(game_id):
    game = get_game(game_id)
    chooser = random.Random(7)
    assert MARGIN < PLAY_GROWTH
    for players in range(game.min_players, game.max_players + 1):
        options = _long_ids(game_id, players)
        for seed in range(3):
            state = game.setup([f"p{i}" for i in range(players)], seed, options)
            first = largest = len(dumps(state))
            for _ in range(STEPS):
                if state["status"] == "finished":
                    break
                state, _ = game.apply(state, choose_move(game.legal_moves(state), chooser, 0.0))
                largest = max(largest, len(dumps(state)))
            assert largest < MARGIN * first, (players, seed, first, largest)
