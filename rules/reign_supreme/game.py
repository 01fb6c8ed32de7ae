"""The :class:`~rules.engine.Game` of Reign Supreme: the public face of this package.

Each method delegates to the module that owns the concept: ``setup`` (a new game), ``moves``
(dispatch), ``board`` (spaces, movement, melee), ``combat`` (attacks, damage), ``cooldown``
(Action Board), ``turns`` (phases, defeat, the end), ``scoring``, ``views``, ``integrity``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.engine import Game
from rules.engine_types import Event, Move, PlayerId, Score, State, View
from rules.reign_supreme import actors, integrity, moves, rulebook, scoring, views
from rules.reign_supreme.content import (
    default_armies,
    default_cards,
    default_scenarios,
    spell_table,
)
from rules.reign_supreme.setup import DEFAULT_OPTIONS, new_game
from rules.reign_supreme.state import SCHEMA_VERSION

__all__ = ["ReignSupreme"]


class ReignSupreme(Game):
    """Reign Supreme: hex-board wargame of four armies; move, fight, hold Mines and Ruins, take
    Thrones (seed 003_03e2ba03e336101c; rules doc docs/rules/reign-supreme.md)."""

    id = "reign-supreme"
    title = rulebook.TITLE
    schema_version = SCHEMA_VERSION
    min_players = 2
    max_players = 4
    move_types = moves.MOVE_TYPES

    def default_options(self) -> dict[str, Any]:
        return dict(DEFAULT_OPTIONS)

    def content(self) -> dict[str, Any]:
        return {
            "armies": default_armies(),
            "scenarios": default_scenarios(),
            "cards": default_cards(),
            "spells": spell_table(),
        }

    def new_state(self, players: Sequence[PlayerId], seed: int, options: dict[str, Any]) -> State:
        return new_game(players, seed, options)

    def check_integrity(self, state: State) -> None:
        integrity.check_state(state)

    legal_moves = staticmethod(moves.legal_moves)
    waiting_on = staticmethod(
        actors.waiting_on
    )  # ruling RS 10: only active_players[0] is waited for
    violations = staticmethod(moves.violations)
    next_state = staticmethod(moves.apply)

    def resolve(self, state: State, action: Move) -> tuple[State, list[Event]]:
        """A listed move applied without its checks: Reign Supreme's actions are its move
        dicts (the engine's defaults for ``legal_actions``, ``move_of``, ``actions_without``)."""
        return moves.resolve(state, action)

    def score(self, state: State) -> Score:
        return scoring.score(state)

    def view(self, state: State, player: PlayerId | None) -> View:
        return views.view(state, player)

    def view_event(self, event: Event, player: PlayerId | None) -> Event:
        return views.view_event(event, player)

    def view_move(self, move: Move, player: PlayerId | None) -> Move:
        """Every Reign Supreme move is public (the board is public, RS 9): shown whole."""
        return dict(move)
