"""Every error the rules can raise, in one place.

The tree, by meaning (the API maps each to an HTTP status):

    RulesError
    ├── UnknownGame      no game has that id                       -> 404
    ├── InvalidSetup     players or options break a setup rule      -> 422 invalid_setup
    ├── InvalidState     a client-sent state fails integrity        -> 422 invalid_state
    └── IllegalMove      a well-formed move the rules forbid        -> 422 illegal_move

A *malformed* request (wrong JSON shape, missing field, wrong type) never reaches the rules:
the marshmallow schemas in ``schemas/`` reject it first (400). So every error here is about
meaning, never about shape.
"""

from __future__ import annotations

from collections.abc import Iterable

from rules.engine_types import Violation

__all__ = ["RulesError", "UnknownGame", "InvalidSetup", "InvalidState", "IllegalMove"]


class RulesError(Exception):
    """Base of every rules error. ``code`` is the machine-readable problem code."""

    code = "rules_error"

    def __init__(self, violations: Iterable[Violation]) -> None:
        self.violations: tuple[Violation, ...] = tuple(violations)
        if not self.violations:
            raise ValueError("a rules error needs at least one violation")
        super().__init__("; ".join(v.message for v in self.violations))


class UnknownGame(RulesError, LookupError):
    code = "unknown_game"

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        super().__init__(
            [Violation("unknown_game", f"There is no game called {game_id!r}.", "games")]
        )


class InvalidSetup(RulesError):
    code = "invalid_setup"


class InvalidState(RulesError):
    code = "invalid_state"


class IllegalMove(RulesError):
    code = "illegal_move"
