"""Pure rules for the four Reign games: no Flask, no Redis, no IO.

``rules.registry.GAMES`` maps each game id to its :class:`rules.engine.Game`.
"""

from rules.engine import Game
from rules.engine_types import Event, Move, Outcome, Score, State, View, Violation
from rules.errors import IllegalMove, InvalidSetup, InvalidState, RulesError, UnknownGame

__all__ = [
    "Game",
    "Event",
    "Move",
    "Outcome",
    "Score",
    "State",
    "View",
    "Violation",
    "RulesError",
    "UnknownGame",
    "InvalidSetup",
    "InvalidState",
    "IllegalMove",
]
