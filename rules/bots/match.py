"""Bots against bots: one game with a level per seat (``reign-referee simulate --bots``).

Every move is chosen by :func:`rules.bots.core.suggest` from the mover's view, so a match is
also a test of the bots' blindness and legality. The search budget is a playout count, and a
match runs it in full (no wall-clock cut), so a match is reproducible from its seed on any
machine.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from rules.bots.core import GameBot, Suggestion, suggest
from rules.engine_types import Move, PlayerId, Score, State

__all__ = ["BotGame", "Turn", "bot_turns", "play_bot_game", "seat_levels"]

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


@dataclass(frozen=True, slots=True)
class Turn:
    """One move of a bot game: who moved, the bot's answer, the seconds it took (the mover's
    view and the suggestion, on ``time.perf_counter``: a measure only, never an input) and the
    state after it."""

    player: PlayerId
    suggestion: Suggestion
    seconds: float
    state: State


def bot_turns(
    bot: GameBot,
    state: State,
    level_of: dict[PlayerId, str],
    seed: int,
    time_ms: int,
    clock: Callable[[], float] = _never,
) -> Iterator[Turn]:
    """The moves of a game played on from ``state``, each player at ``level_of[player]``,
    until it is finished or ``MAX_MOVES`` moves were made.

    When several players are active at once (secret simultaneous choices), the first of them
    moves first; each bot's seed is derived from the game's seed and the move count. ``time_ms``
    counts on ``clock`` from before the mover's view is drawn, as the service counts it from a
    request's arrival; the default clock never moves, so the search runs its budget in full and
    the game is reproducible from its seed on any machine."""
    game = bot.game
    for _ in range(MAX_MOVES):
        if state["status"] == "finished":
            return
        player = state["active_players"][0]
        began = time.perf_counter()
        started = clock()  # before the view: a keyword argument is read after it
        chosen = suggest(
            bot,
            game.view(state, player),
            player,
            level_of[player],
            seed * 100_003 + state["move_count"],
            time_ms,
            clock=clock,
            started=started,
        )
        seconds = time.perf_counter() - began
        state, _ = game.apply(state, chosen.move)
        yield Turn(player, chosen, seconds, state)


def play_bot_game(
    bot: GameBot,
    players: Sequence[PlayerId],
    levels: Sequence[str],
    seed: int,
    time_ms: int,
    options: dict[str, Any] | None = None,
) -> BotGame:
    """Set up a game with ``seed`` and play it to the end (:func:`bot_turns`), seat ``i`` at
    ``levels[i]``."""
    game = bot.game
    state = game.setup(list(players), seed, dict(options or {}))
    level_of = dict(zip(players, levels, strict=True))
    moves: list[Move] = []
    for turn in bot_turns(bot, state, level_of, seed, time_ms):
        moves.append(turn.suggestion.move)
        state = turn.state
    if state["status"] != "finished":
        raise RuntimeError(f"{game.id}: not finished after {MAX_MOVES} moves")
    return BotGame(tuple(players), tuple(levels), seed, moves, game.score(state))
