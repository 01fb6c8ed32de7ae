"""The :class:`~rules.engine.Game` of Reign & Ruin: the public face of this package.

Each method delegates to the module that owns the concept: ``state`` (setup), ``draft``,
``abilities`` (plays), ``moves`` (dispatch), ``turns`` (turn order, final round),
``scoring``, ``views``, ``integrity``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.engine import Game, check_players
from rules.engine_types import Event, PlayerId, Score, State, View
from rules.reign_and_ruin import actions, integrity, moves, rulebook, scoring, views
from rules.reign_and_ruin.cards import FACTIONS, default_deck
from rules.reign_and_ruin.state import DEFAULT_OPTIONS, new_game

__all__ = ["ReignAndRuin"]


class ReignAndRuin(Game):
    """Reign & Ruin: draft a hand of seven, then play it card by card as fighters or abilities;
    the highest army total wins (seed 000_fe7cba912859082a; rules doc
    docs/rules/reign-and-ruin.md)."""

    id = "reign-and-ruin"
    title = rulebook.TITLE
    min_players = 2
    max_players = 4
    move_types = ("draft", "fighter", "destroy", "draw", "double", "protect", "swap", "revive")

    def default_options(self) -> dict[str, Any]:
        return dict(DEFAULT_OPTIONS)

    def content(self) -> dict[str, Any]:
        return {"deck": default_deck(), "factions": [dict(f) for f in FACTIONS]}

    def new_state(self, players: Sequence[PlayerId], seed: int, options: dict[str, Any]) -> State:
        check_players(self, players)
        return new_game(players, seed, options)

    def check_integrity(self, state: State) -> None:
        integrity.check_state(state)

    # The calls of every playout step are the module functions themselves (no extra frame per
    # call; ``apply`` and ``apply_action`` add only the engine's ``to_move``): see
    # rules.reign_and_ruin.moves. Actions are tuples (rules.reign_and_ruin.actions).
    legal_moves = staticmethod(moves.legal_moves)
    violations = staticmethod(moves.violations)
    next_state = staticmethod(moves.apply)
    legal_actions = staticmethod(moves.legal_actions)
    move_of = staticmethod(actions.public_move)
    actions_without = staticmethod(moves.actions_without)
    resolve = staticmethod(moves.resolve)

    def score(self, state: State) -> Score:
        return scoring.score(state)

    def view(self, state: State, player: PlayerId | None) -> View:
        return views.view(state, player)

    def view_event(self, event: Event, player: PlayerId | None) -> Event:
        return views.view_event(event, player)
