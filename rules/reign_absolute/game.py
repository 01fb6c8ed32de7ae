"""The :class:`~rules.engine.Game` of Reign Absolute: the public face of this package.

Each method delegates to the module that owns the concept: ``state`` (setup), ``moves``
(legal moves, violations, apply), ``combat``, ``flow`` (turns, eradication, victory),
``scoring``, ``views``, ``integrity``.
"""

from __future__ import annotations

from typing import Any

from rules import forfeit
from rules.engine import Game
from rules.engine_types import State
from rules.reign_absolute import flow, integrity, moves, rulebook, scoring, views
from rules.reign_absolute.content import default_cards, default_races
from rules.reign_absolute.state import DEFAULT_OPTIONS, SCHEMA_VERSION, new_game

__all__ = ["ReignAbsolute"]


class ReignAbsolute(Game):
    """Reign Absolute: hidden units on a grid; find and defeat every enemy Liege
    (seeds 001_652be7af15affa1b and 002_f9840845574dba9b; rules doc
    docs/rules/reign-absolute.md)."""

    id = "reign-absolute"
    title = rulebook.TITLE
    schema_version = SCHEMA_VERSION
    min_players = 2
    max_players = 4
    move_types = moves.MOVE_TYPES

    def default_options(self) -> dict[str, Any]:
        return dict(DEFAULT_OPTIONS)

    def content(self) -> dict[str, Any]:
        return {"races": default_races(), "reinforcements": default_cards()}

    def check_integrity(self, state: State) -> None:
        # a state a forfeit ended keeps neither its phase nor who was active: checked for what
        # the forfeit makes of a sound state (rules/forfeit.py), not as a phase of its own. A
        # method, not the integrity module's function: no playout step checks a state.
        forfeit.check_integrity(
            self, state, integrity.check_state, integrity.PHASES, integrity.phase_problems
        )

    # Each method is the function of the module that owns its concept, itself: no wrapper, so
    # no extra frame in a playout step (``apply`` and ``apply_action`` add only ``to_move``).
    new_state = staticmethod(new_game)
    in_the_game = staticmethod(flow.alive)  # an eradicated player is out (seed 001, Victory)
    legal_moves = staticmethod(moves.legal_moves)
    violations = staticmethod(moves.violations)
    next_state = staticmethod(moves.apply)
    score = staticmethod(scoring.score)
    view = staticmethod(views.view)
    view_event = staticmethod(views.view_event)
