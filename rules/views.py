"""What every game's views share: who the viewer is, the fields all viewers see whole, and
copying JSON so that a view never aliases the state it shows.

Contract, Fairness: a view is the state as one player (or a spectator) may see it, with
hidden information removed; every view says who it is for (``viewer``) and has ``to_move``.
"""

from __future__ import annotations

from typing import Any

from rules.engine_types import PlayerId, State

__all__ = ["SHARED_FIELDS", "viewer_of", "shared_fields", "copy_json"]

SHARED_FIELDS = ("players", "status", "phase", "active_players", "to_move", "move_count")
"""The fields of every game's state that every viewer sees whole, in the order views show
them (after ``game``, ``schema_version`` and ``viewer``)."""


def viewer_of(state: State, player: PlayerId | None) -> PlayerId | None:
    """The player a view is for: ``player`` when it is one of the game's players, else None (a
    spectator sees only what everyone sees; an unknown id is never one of the players)."""
    return player if isinstance(player, str) and player in state["players"] else None


def shared_fields(state: State) -> dict[str, Any]:
    """The :data:`SHARED_FIELDS` of ``state`` (or of a view), copied."""
    return {k: copy_json(state[k]) for k in SHARED_FIELDS}


def copy_json(value: Any) -> Any:
    """A deep copy of JSON data (lists, dicts and scalars): faster than ``copy.deepcopy``, which
    also handles what JSON cannot hold."""
    if isinstance(value, list):
        return [copy_json(v) for v in value]
    if isinstance(value, dict):
        return {k: copy_json(v) for k, v in value.items()}
    return value
