"""What the benchmarks feed the service: random playouts and request bodies from mid-game.

Shared by ``bench/bench.py`` (timings) and ``bench/profile.py`` (where the time goes), so both
measure the same work.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable

from rules.engine import Game
from rules.playout import choose_action, random_steps
from rules.registry import GAMES, get_game

__all__ = ["GAME_IDS", "random_players", "play_for", "request_bodies"]

GAME_IDS: tuple[str, ...] = tuple(GAMES)
CONCEDE: dict[str, float] = {"reign-supreme": 0.0}
"""How often a random playout considers ``concede`` (``rules.playout.choose_move``): Reign
Supreme's would end most random games within a few moves, which measures set-up rather than play
(issue 14: "without concede")."""


def random_players(game: Game, chooser: random.Random) -> list[str]:
    return [f"p{i}" for i in range(chooser.randint(game.min_players, game.max_players))]


def play_for(
    game_id: str,
    seconds: float,
    seed: int = 1,
    progress: Callable[[int, float], None] | None = None,
) -> dict:
    """Random playouts for ``seconds``: steps (``legal_actions`` + ``apply_action``, the game's
    Python interface in its internal move form) per second.

    Each step is written out here, as ``bench.py`` plays OpenSpiel's games, so that neither side
    pays for a generator or a step record the other does not: the moves are those of
    ``rules.playout.random_action_steps``.

    ``progress(steps, elapsed)`` is called about once a second."""
    game = get_game(game_id)
    concede = CONCEDE.get(game_id, 1.0)
    chooser = random.Random(seed)
    steps = games = 0
    started = time.perf_counter()
    deadline = started + seconds
    tick = started + 1.0
    while True:
        now = time.perf_counter()
        if now >= deadline:
            break
        if progress is not None and now >= tick:
            progress(steps, now - started)
            tick = now + 1.0
        state = game.setup(random_players(game, chooser), chooser.randrange(1 << 32), {})
        while state["status"] != "finished":
            legal = game.legal_actions(state)
            if concede >= 1.0:  # choose_action's own first draw, as OpenSpiel's are played
                action = chooser.choice(legal)
            else:
                action = choose_action(game, legal, chooser, concede)
            state, _ = game.apply_action(state, action)
            steps += 1
        games += 1
    elapsed = time.perf_counter() - started
    return {
        "steps": steps,
        "games": games,
        "seconds": round(elapsed, 2),
        "steps_per_second": round(steps / elapsed),
    }


def request_bodies(game_id: str, endpoint: str, count: int, seed: int = 2) -> list[bytes]:
    """``count`` request bodies for ``POST /v1/games/{game}/{endpoint}`` from the middle third of
    random games: ``{"state", "move"}`` for ``apply``, ``{"state"}`` for ``legal-moves``."""
    game = get_game(game_id)
    concede = CONCEDE.get(game_id, 1.0)
    chooser = random.Random(seed)
    bodies: list[bytes] = []
    while len(bodies) < count:
        state = game.setup(random_players(game, chooser), chooser.randrange(1 << 32), {})
        steps = list(random_steps(game, state, chooser, concede=concede))
        for step in steps[len(steps) // 3 : 2 * len(steps) // 3 : 3]:
            body = (
                {"state": step.before, "move": step.move}
                if endpoint == "apply"
                else {"state": step.before}
            )
            bodies.append(json.dumps(body, separators=(",", ":")).encode())
    return bodies[:count]
