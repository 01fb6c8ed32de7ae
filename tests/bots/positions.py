"""Positions for the bot tests: states reached by random play with fixed seeds (cheap,
deterministic), never by ``concede`` so that Reign Supreme games last."""

from __future__ import annotations

import random

from rules.bots import BOTS
from rules.engine_types import State

PLAYERS = {
    "reign-and-ruin": ["ann", "bob", "cat"],
    "reign-absolute": ["ann", "bob", "cat"],
    "reign-supreme": ["ann", "bob"],
    "reigns-the-council": ["ann", "bob", "cat", "dan"],
}
"""Three seats where the game allows it (hidden information between several others)."""

GAME_IDS = sorted(BOTS)


def random_line(game_id: str, seed: int, steps: int) -> list[State]:
    """The states of one random game, up to ``steps`` moves (fewer if it ends)."""
    game = BOTS[game_id].game
    state = game.setup(PLAYERS[game_id], seed, {})
    chooser = random.Random(seed)
    states = [state]
    for _ in range(steps):
        if state["status"] == "finished":
            break
        moves = [m for m in game.legal_moves(state) if m["type"] != "concede"] or game.legal_moves(
            state
        )
        state, _ = game.apply(state, chooser.choice(moves))
        states.append(state)
    return states


def positions(game_id: str, seed: int = 1, steps: int = 120, every: int = 9) -> list[State]:
    """Every ``every``-th unfinished state of a random game: the draft, the middle, the end."""
    return [s for s in random_line(game_id, seed, steps)[::every] if s["status"] != "finished"]
