"""The :class:`~rules.engine.Game` of Reign & Ruin: the public face of this package.

Each method delegates to the module that owns the concept: ``state`` (setup), ``draft``,
``abilities`` (plays), ``moves`` (dispatch), ``turns`` (turn order, final round),
``scoring``, ``views``, ``integrity``.
"""

from __future__ import annotations

from typing import Any

from rules import forfeit
from rules.engine import Game
from rules.engine_types import State
from rules.reign_and_ruin import actions, integrity, moves, rulebook, scoring, views
from rules.reign_and_ruin.cards import FACTIONS, default_deck
from rules.reign_and_ruin.state import DEFAULT_OPTIONS, SCHEMA_VERSION, new_game

__all__ = ["ReignAndRuin"]


class ReignAndRuin(Game):
    """Reign & Ruin: draft a hand of seven, then play it card by card as fighters or abilities;
    the highest army total wins (seed 000_fe7cba912859082a; rules doc
    docs/rules/reign-and-ruin.md)."""

    id = "reign-and-ruin"
    title = rulebook.TITLE
    schema_version = SCHEMA_VERSION
    min_players = 2
    max_players = 4
    move_types = ("draft", "fighter", "destroy", "draw", "double", "protect", "swap", "revive")

    def default_options(self) -> dict[str, Any]:
        return dict(DEFAULT_OPTIONS)

    def content(self) -> dict[str, Any]:
        return {"deck": default_deck(), "factions": [dict(f) for f in FACTIONS]}

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
    legal_moves = staticmethod(moves.legal_moves)
    violations = staticmethod(moves.violations)
    next_state = staticmethod(moves.apply)
    # Actions are tuples (rules.reign_and_ruin.actions; see rules.reign_and_ruin.moves).
    legal_actions = staticmethod(moves.legal_actions)
    move_of = staticmethod(actions.public_move)
    actions_without = staticmethod(moves.actions_without)
    resolve = staticmethod(moves.resolve)
    score = staticmethod(scoring.score)
    view = staticmethod(views.view)
    view_event = staticmethod(views.view_event)
