"""Playing cards (seed: Cards; ruling RS 7). (Stub: filled in by the cards work.)"""
from __future__ import annotations

from typing import Any

from rules.engine_types import Event, Move, PlayerId, State, Violation

__all__ = ["check_cards", "card_moves", "check_play", "declare", "resolve"]


def check_cards(cards: Any) -> list[Violation]:
    return []


def card_moves(state: State, player: PlayerId) -> list[Move]:
    return []


def check_play(state: State, move: Move) -> list[Violation]:
    from rules.reign_supreme import rulebook
    return [Violation("cannot_play", "Cards cannot be played yet.", rulebook.CARDS)]


def declare(state: State, geo: Any, move: Move) -> dict[str, Any]:
    raise NotImplementedError


def resolve(state: State, geo: Any, entry: dict[str, Any]) -> list[Event]:
    return []
