"""Random playouts: the engine under uniformly random legal moves.

Used by ``reign-referee simulate``, the random-playout tests and ``bench/``. The chooser's
randomness (``random.Random``) is separate from the game's own generator in the state.
"""
from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from rules.engine import Game
from rules.engine_types import Event, Move, PlayerId, Score, State

__all__ = ["Step", "Playout", "random_steps", "play_random_game"]


class Step(NamedTuple):
    """One step of a playout. A NamedTuple rather than a frozen dataclass: it is built once per
    step on the benchmark's hot path, and a frozen dataclass's ``__init__`` costs several times
    more; it is just as immutable."""

    before: State
    move: Move
    after: State
    events: list[Event]
    legal: list[Move]


@dataclass(frozen=True, slots=True)
class Playout:
    players: tuple[PlayerId, ...]
    seed: int
    final: State
    moves: list[Move]
    score: Score


def random_steps(game: Game, state: State, chooser: random.Random, max_steps: int = 100_000,
                 avoid: frozenset[str] = frozenset()) -> Iterator[Step]:
    """Yield each step of a random game from ``state`` until it finishes.

    Moves whose type is in ``avoid`` are chosen only when nothing else is legal (``bench/``
    avoids Reign Supreme's ``concede``, which would end most random games in a few moves).
    Raises RuntimeError if the game has not ended after ``max_steps`` moves.
    """
    for _ in range(max_steps):
        if state["status"] == "finished":
            return
        legal = game.legal_moves(state)
        choices = [m for m in legal if m["type"] not in avoid] or legal if avoid else legal
        move = chooser.choice(choices)
        after, events = game.apply(state, move)
        yield Step(state, move, after, events, legal)
        state = after
    raise RuntimeError(f"{game.id}: not finished after {max_steps} moves")


def play_random_game(game: Game, players: Sequence[PlayerId], seed: int,
                     options: dict[str, Any] | None = None) -> Playout:
    """Set up and play one game to the end with uniformly random legal moves."""
    state = game.setup(list(players), seed, dict(options or {}))
    chooser = random.Random(seed)
    moves: list[Move] = []
    for step in random_steps(game, state, chooser):
        moves.append(step.move)
        state = step.after
    return Playout(tuple(players), seed, state, moves, game.score(state))
