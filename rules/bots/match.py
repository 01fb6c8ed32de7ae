"""Bots against bots: one game with a level per seat (``reign-referee simulate --bots``).

Every move is chosen by :func:`rules.bots.core.suggest` from the mover's view, so a match is
also a test of the bots' blindness and legality. The search budget is a playout count, and a
match runs it in full (no wall-clock cut), so a match is reproducible from its seed on any
machine.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rules.bots.core import GameBot, suggest
from rules.engine_types import Move, PlayerId, Score

__all__ = ["BotGame", "play_bot_game", "seat_levels"]

MAX_MOVES = 20_000


@dataclass(frozen=True, slots=True)
class BotGame:
    players: tuple[PlayerId, ...]
    levels: tuple[str, ...]
    """The level at each seat."""
    seed: int
    moves: list[Move]
    score: Score


def seat_levels(levels: Sequence[str], game_index: int) -> tuple[str, ...]:
    """The levels rotated by one seat per game, so every level plays every seat in turn."""
    n = len(levels)
    return tuple(levels[(seat + game_index) % n] for seat in range(n))


def _never() -> float:
    return -math.inf


def play_bot_game(
    bot: GameBot,
    players: Sequence[PlayerId],
    levels: Sequence[str],
    seed: int,
    time_ms: int,
    options: dict[str, Any] | None = None,
) -> BotGame:
    """Set up a game with ``seed`` and play it to the end, seat ``i`` at ``levels[i]``.

    When several players are active at once (secret simultaneous choices), the first of them
    moves first; each bot's seed is derived from the game's seed and the move count.
    """
    game = bot.game
    state = game.setup(list(players), seed, dict(options or {}))
    level_of = dict(zip(players, levels, strict=True))
    moves: list[Move] = []
    for _ in range(MAX_MOVES):
        if state["status"] == "finished":
            return BotGame(tuple(players), tuple(levels), seed, moves, game.score(state))
        player = state["active_players"][0]
        chosen = suggest(
            bot,
            game.view(state, player),
            player,
            level_of[player],
            seed * 100_003 + state["move_count"],
            time_ms,
            clock=_never,
        )
        state, _ = game.apply(state, chosen.move)
        moves.append(chosen.move)
    raise RuntimeError(f"{game.id}: not finished after {MAX_MOVES} moves")
