"""``POST /v1/games/{game}/suggest``: a bot's move for one seat.

The pipeline of every stateless endpoint (docs/architecture.md): envelope (400), the game's
state shape (400), ``check_state`` (422), then the bot. The bot is handed the seat's *view*,
never the state (``rules.bots``), so its move can reveal nothing the seat may not see.
"""

from __future__ import annotations

import secrets
import time

from flask import Blueprint, request

from api import jsonio
from api.errors import ApiError
from api.games import checked_state, read_state_body
from api.worker import ARRIVED
from rules.bots import BOTS, DEFAULT_TIME_MS, NoMoveToSuggest, refusal, suggest
from rules.engine_types import Violation
from rules.registry import get_game
from schemas.bots import SUGGEST
from schemas.requests import MAX_SEED

__all__ = ["bp"]

bp = Blueprint("bots", __name__, url_prefix="/v1/games")


def _refuse(code: str, message: str, rule: str) -> ApiError:
    return ApiError(422, code, message, violations=[Violation(code, message, rule).to_dict()])


_clock = time.monotonic
"""The bots' clock (a test may stub it)."""


@bp.post("/<game_id>/suggest")
def suggest_move(game_id: str):
    # ``time_ms`` is the time to the answer, so it counts from the request's arrival: when
    # ``serve``'s worker read its first bytes (it stamps the environ), else from here. Waiting
    # in the worker for a thread, reading the body, checking the state and drawing the view are
    # part of it (a 50 ms answer under load used to spend them on top).
    arrived = request.environ.get(ARRIVED)
    if arrived is None:
        arrived = _clock()
    game = get_game(game_id)  # UnknownGame -> 404
    body = read_state_body(SUGGEST)
    fields = body.value
    if fields["level"] not in game.bot_levels:  # the spec lists each game's own levels
        raise ApiError(
            400,
            "invalid_body",
            f"The bots of {game.id} play at {', '.join(game.bot_levels) or 'no level'}, "
            f"not {fields['level']}.",
            errors={"level": [f"Must be one of: {', '.join(game.bot_levels)}."]},
        )
    state = checked_state(game, body)  # 400 shape, 422 invalid_state
    # The state with its keys in the service's own order (sorted, as every answer writes them):
    # a client that orders a state's keys its own way sends the same state, and the same seed
    # must give it the same move (some games list moves in the state's key order).
    state = jsonio.loads(jsonio.dumps(state))
    player = fields["player"]
    if player not in state["players"]:
        raise _refuse(
            "unknown_player",
            f"There is no player {player!r} in this game; the players are "
            f"{', '.join(state['players'])}.",
            f"{game.id}#players",
        )
    why = refusal(BOTS[game.id], state)
    if why is not None:
        raise _refuse(
            "bot_unavailable", f"The bots cannot play this state: {why}.", f"{game.id}#bots"
        )
    seed = fields.get("seed")
    if seed is None:
        seed = secrets.randbelow(MAX_SEED + 1)
    time_ms = fields.get("time_ms") or DEFAULT_TIME_MS
    try:
        chosen = suggest(
            BOTS[game.id],
            game.view(state, player),
            player,
            fields["level"],
            seed,
            time_ms,
            clock=_clock,
            started=arrived,
        )
    except NoMoveToSuggest:
        raise _refuse(
            "no_move_to_suggest",
            f"{player} has no move to make now (not their turn, or the game is over).",
            f"{game.id}#bots",
        ) from None
    except ValueError as err:  # the view cannot be imagined (e.g. a custom Council deck)
        raise _refuse(
            "bot_unavailable", f"The bots cannot play this state: {err}.", f"{game.id}#bots"
        ) from None
    return {
        "move": chosen.move,
        "level": chosen.level,
        "seed": seed,
        "time_ms": time_ms,
        "playouts": chosen.playouts,
        "considered": chosen.considered,
        "complete": chosen.complete,
        "reason": chosen.reason,
    }
