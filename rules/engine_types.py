"""Plain data types shared by every game: JSON aliases, Violation, Outcome, Score."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "JSON",
    "State",
    "Move",
    "Action",
    "Event",
    "View",
    "PlayerId",
    "Violation",
    "MAX_MESSAGE",
    "Outcome",
    "Score",
    "STATUSES",
]

JSON = Any
State = dict[str, Any]
"""A game state: a JSON object holding everything needed to continue the game."""
Move = dict[str, Any]
"""A move: ``{"player": id, "type": move type, ...parameters}``."""
Action = Any
"""A move in a game's internal form (:meth:`rules.engine.Game.legal_actions`): whatever is
cheapest for the game to list and to apply, such as a tuple. A game without one uses its
:data:`Move` dicts as actions. Only the game reads an action; :meth:`rules.engine.Game.move_of`
turns it into the public move."""
Event = dict[str, Any]
"""Something that happened: ``{"type": "fighter_destroyed", ...}``."""
View = dict[str, Any]
"""A state as one player (or a spectator) may see it."""
PlayerId = str
STATUSES = ("in_progress", "finished")
"""Every game's ``status``: going on, or over."""


MAX_MESSAGE = 500
"""The most characters of a :class:`Violation`'s message; a longer one is cut and ends "..."."""


@dataclass(frozen=True, slots=True)
class Violation:
    """Why something is not allowed.

    ``code`` is snake_case and stable; ``message`` is a sentence a player understands;
    ``rule`` points into the project's rules docs (``docs/rules/<game>.md#<anchor>``), written
    as ``"<game>#<anchor>"``.
    """

    code: str
    message: str
    rule: str

    def __post_init__(self) -> None:
        # Messages quote what a client sent (an id, a key, a name), and every answer's cost is
        # bounded: a megabyte key must not come back several times over (issue 28's hunt).
        if len(self.message) > MAX_MESSAGE:
            object.__setattr__(self, "message", self.message[:MAX_MESSAGE] + "...")

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message, "rule": self.rule}


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended. ``draw`` is true when several players share the win."""

    winners: tuple[PlayerId, ...]
    draw: bool
    scores: Mapping[PlayerId, int | float]  # read-only here, so a dict[str, int] is one too
    reason: str = "game_end"

    def to_dict(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "draw": self.draw,
            "scores": dict(self.scores),
            "reason": self.reason,
        }


@dataclass(frozen=True, slots=True)
class Score:
    """Standings, final or provisional, with a game-specific ``breakdown`` explaining them.
    ``winners`` and ``draw`` are the result once ``finished``; before, they are who leads now
    by the game's own ranking (several when tied)."""

    finished: bool
    scores: Mapping[PlayerId, int | float]
    winners: tuple[PlayerId, ...]
    draw: bool
    breakdown: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The ``/score`` answer. An unfinished game's standings are provisional (contract,
        Fairness: "`/score` of an unfinished game: ... 200 with `"provisional": true`"): nobody
        has won yet, so ``winners`` is ``[]`` and ``draw`` false, and ``leaders`` names who is
        ahead now (issue 24: every player used to be a winner of a game just set up, with
        ``draw: true``). Once finished, ``leaders`` equals ``winners``."""
        return {
            "finished": self.finished,
            "provisional": not self.finished,
            "scores": dict(self.scores),
            "winners": list(self.winners) if self.finished else [],
            "draw": self.draw if self.finished else False,
            "leaders": list(self.winners),
            "breakdown": self.breakdown,
        }
