"""What a clocked session's creation request must hold beyond its shape (issue 25).

The shapes and the documented bounds are ``schemas.requests`` (400 naming the field, e.g.
``clock.seconds``). Here: what needs the other fields or the game, in the same words:

- ``on_timeout`` and ``grace_seconds`` mean nothing without ``clock``: 422 ``invalid_clock``
  naming them (well-formed, so not a 400: the spec allows each field on its own);
- a ``bot`` timeout needs a level this game's bots have, and a game the bots can play from a
  seat's view (Council with a custom deck cannot): 422 ``invalid_clock`` naming
  ``on_timeout.level``;
- a per-move time (or Fischer's initial time) with its grace may not be longer than the
  session's idle time-to-live (``SESSION_TTL_SECONDS``), the operator's bound on how long a
  session waits for a move: 422 ``invalid_clock`` naming the clock's field. (That the session
  outlives its clock's deadlines, with add-time and Fischer's increments too, is not this
  check's: every clock write keeps the session alive past its next deadline,
  ``api.clock_store.lifetime_s``.)
"""

from __future__ import annotations

from typing import Any

from api.bot_seats import bot_violations
from api.clock import allowance_ms
from api.errors import ApiError
from rules.engine import Game
from rules.engine_types import State, Violation

__all__ = ["check_clock"]

_TIME_FIELD = {"per_move": "seconds", "fischer": "initial_seconds", "correspondence": "days"}


def check_clock(game: Game, state: State, body: dict[str, Any], ttl_seconds: int) -> None:
    """Raise the 400 or 422 for a creation ``body`` whose clock cannot run (see the module)."""
    control = body.get("clock")
    rule = f"{game.id}#clocks"
    if control is None:
        for name in ("on_timeout", "grace_seconds"):
            if body.get(name) is not None:
                _invalid(name, Violation("invalid_clock", f"{name} needs a `clock`.", rule))
        return
    on_timeout = body.get("on_timeout") or {}
    if on_timeout.get("action") == "bot":
        level = on_timeout["level"]
        found = bot_violations(game, state, {state["players"][0]: level})
        if found:
            (violation,) = found.values()
            _invalid("on_timeout.level", Violation("invalid_clock", violation.message, rule))
    needed = allowance_ms(control) + (body.get("grace_seconds") or 0) * 1000
    if needed > ttl_seconds * 1000:
        where = f"clock.{_TIME_FIELD[control['type']]}"
        message = (
            f"A move may take {needed // 1000} s, longer than a session lives without a move "
            f"(SESSION_TTL_SECONDS = {ttl_seconds})."
        )
        _invalid(where, Violation("invalid_clock", message, rule))


def _invalid(where: str, violation: Violation) -> None:
    raise ApiError(
        422,
        "invalid_clock",
        f"{where}: {violation.message}",
        violations=[violation.to_dict()],
        errors={where: [violation.message]},
    )
