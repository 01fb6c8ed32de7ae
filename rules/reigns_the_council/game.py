"""The :class:`~rules.engine.Game` of Reigns: The Council: the public face of this package.

Each method delegates to the module that owns the concept: ``state`` (setup), ``reign``
(reign setup, draws, exchange), ``rounds`` (pitch, decision, reveal, change of mind),
``ending`` (death, abdication, scoring a reign, votes, succession), ``moves`` (dispatch),
``scoring``, ``views``, ``integrity``.
"""

from __future__ import annotations

from typing import Any

from rules import forfeit
from rules.engine import Game
from rules.engine_types import State
from rules.reigns_the_council import integrity, moves, rulebook, scoring, views
from rules.reigns_the_council.content import GOALS, PILLAR_INFO, TRACK_MAX, TRACK_MIN, default_deck
from rules.reigns_the_council.state import DEFAULT_OPTIONS, SCHEMA_VERSION, new_game

__all__ = ["ReignsTheCouncil"]


class ReignsTheCouncil(Game):
    """Reigns: The Council: advisors pitch proposals, the Monarch accepts or rejects them, and
    the four pillars move until the Monarch dies or abdicates; everyone reigns once (seed
    004_418326d9c7b636cd; rules doc docs/rules/reigns-the-council.md)."""

    id = "reigns-the-council"
    title = rulebook.TITLE
    schema_version = SCHEMA_VERSION
    min_players = 3
    max_players = 4
    move_types = moves.MOVE_TYPES

    def default_options(self) -> dict[str, Any]:
        return dict(DEFAULT_OPTIONS)

    def content(self) -> dict[str, Any]:
        return {
            "pillars": [dict(p) for p in PILLAR_INFO],
            "track": {"min": TRACK_MIN, "max": TRACK_MAX, "start": 0},
            "deck": default_deck(),
            "goals": [{"id": g, "sides": dict(s)} for g, s in GOALS.items()],
        }

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
    score = staticmethod(scoring.score)
    view = staticmethod(views.view)
    view_event = staticmethod(views.view_event)
    view_move = staticmethod(views.view_move)
