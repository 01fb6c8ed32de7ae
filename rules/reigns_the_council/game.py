"""The :class:`~rules.engine.Game` of Reigns: The Council: the public face of this package.

Each method delegates to the module that owns the concept: ``state`` (setup), ``reign``
(reign setup, draws, exchange), ``rounds`` (pitch, decision, reveal, change of mind),
``ending`` (death, abdication, scoring a reign, votes, succession), ``moves`` (dispatch),
``scoring``, ``views``, ``integrity``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.engine import Game, check_players
from rules.engine_types import Event, Move, PlayerId, Score, State, View
from rules.reigns_the_council import integrity, moves, rulebook, scoring, views
from rules.reigns_the_council.content import GOALS, PILLAR_INFO, TRACK_MAX, TRACK_MIN, default_deck
from rules.reigns_the_council.state import DEFAULT_OPTIONS, new_game

__all__ = ["ReignsTheCouncil"]


class ReignsTheCouncil(Game):
    """Reigns: The Council: advisors pitch proposals, the Monarch accepts or rejects them, and
    the four pillars move until the Monarch dies or abdicates; everyone reigns once (seed
    004_418326d9c7b636cd; rules doc docs/rules/reigns-the-council.md)."""

    id = "reigns-the-council"
    title = rulebook.TITLE
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

    def new_state(self, players: Sequence[PlayerId], seed: int, options: dict[str, Any]) -> State:
        check_players(self, players)
        return new_game(players, seed, options)

    def check_integrity(self, state: State) -> None:
        integrity.check_state(state)

    legal_moves = staticmethod(moves.legal_moves)
    violations = staticmethod(moves.violations)
    next_state = staticmethod(moves.apply)

    def score(self, state: State) -> Score:
        return scoring.score(state)

    def view(self, state: State, player: PlayerId | None) -> View:
        return views.view(state, player)

    def view_event(self, event: Event, player: PlayerId | None) -> Event:
        return views.view_event(event, player)

    def view_move(self, move: Move, player: PlayerId | None) -> Move:
        return views.view_move(move, player)
