"""Random playouts: the engine under uniformly random legal moves.

Used by ``reign-referee simulate``, the random-playout tests and ``bench/``. The chooser's
randomness (``random.Random``) is separate from the game's own generator in the state.

:func:`random_steps` plays through the API's interface (move dicts, each checked by ``apply``);
:func:`random_action_steps` plays the same game through the game's internal move form
(``legal_actions`` + ``apply_action``, :mod:`rules.engine`), the steps ``bench/workloads.py`` times.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from rules.engine import Game
from rules.engine_types import Action, Event, Move, PlayerId, Score, State

__all__ = [
    "Step",
    "ActionStep",
    "Playout",
    "choose_move",
    "choose_action",
    "random_steps",
    "random_action_steps",
    "play_random_game",
]


class Step(NamedTuple):
    """One step of a playout. A NamedTuple rather than a frozen dataclass: it is built once per
    step on the benchmark's hot path, and a frozen dataclass's ``__init__`` costs several times
    more; it is just as immutable."""

    before: State
    move: Move
    after: State
    events: list[Event]
    legal: list[Move]


class ActionStep(NamedTuple):
    """One step of a playout in the game's internal move form (``Game.move_of`` gives the
    moves)."""

    before: State
    action: Action
    after: State
    events: list[Event]
    legal: list[Action]


@dataclass(frozen=True, slots=True)
class Playout:
    players: tuple[PlayerId, ...]
    seed: int
    final: State
    moves: list[Move]
    score: Score


def choose_move(legal: Sequence[Move], chooser: random.Random, concede: float = 1.0) -> Move:
    """A random move among ``legal``. ``concede`` (0 to 1) is how often the chooser considers
    ``concede`` moves at all: 1 is uniform among every legal move (and draws exactly as
    ``chooser.choice(legal)``), 0 never concedes while anything else is legal. A uniform chooser
    concedes within a few dozen moves in games with many concede-able turns; a small rate lets
    random games reach their late game."""
    if concede >= 1.0 or chooser.random() < concede:
        return chooser.choice(legal)
    others = [m for m in legal if m["type"] != "concede"]
    return chooser.choice(others or legal)


def choose_action(
    game: Game, legal: list[Action], chooser: random.Random, concede: float = 1.0
) -> Action:
    """:func:`choose_move` among actions: the action at the place of the move ``choose_move``
    picks among the same legal moves with the same ``chooser`` state."""
    if concede >= 1.0 or chooser.random() < concede:
        return chooser.choice(legal)
    others = game.actions_without(legal, "concede")
    return chooser.choice(others or legal)


def random_action_steps(
    game: Game, state: State, chooser: random.Random, max_steps: int = 100_000, concede: float = 1.0
) -> Iterator[ActionStep]:
    """:func:`random_steps` through the internal move form: the same game (the same moves, in
    ``Game.move_of``, and states and events), with no move dict built and no listed move checked
    again.

    Raises RuntimeError if the game has not ended after ``max_steps`` moves.
    """
    for _ in range(max_steps):
        if state["status"] == "finished":
            return
        legal = game.legal_actions(state)
        action = choose_action(game, legal, chooser, concede)
        after, events = game.apply_action(state, action)
        yield ActionStep(state, action, after, events, legal)
        state = after
    raise RuntimeError(f"{game.id}: not finished after {max_steps} moves")


def random_steps(
    game: Game, state: State, chooser: random.Random, max_steps: int = 100_000, concede: float = 1.0
) -> Iterator[Step]:
    """Yield each step of a random game from ``state`` until it finishes (moves by
    :func:`choose_move` with ``concede``).

    Raises RuntimeError if the game has not ended after ``max_steps`` moves.
    """
    for _ in range(max_steps):
        if state["status"] == "finished":
            return
        legal = game.legal_moves(state)
        move = choose_move(legal, chooser, concede)
        after, events = game.apply(state, move)
        yield Step(state, move, after, events, legal)
        state = after
    raise RuntimeError(f"{game.id}: not finished after {max_steps} moves")


def play_random_game(
    game: Game,
    players: Sequence[PlayerId],
    seed: int,
    options: dict[str, Any] | None = None,
    concede: float = 1.0,
) -> Playout:
    """Set up and play one game to the end with random legal moves (:func:`choose_move`)."""
    state = game.setup(list(players), seed, dict(options or {}))
    chooser = random.Random(seed)
    moves: list[Move] = []
    for step in random_steps(game, state, chooser, concede=concede):
        moves.append(step.move)
        state = step.after
    return Playout(tuple(players), seed, state, moves, game.score(state))
