"""Effects with a duration on the Action Board (seed: Global Cooldowns, Effects): what cards put
on units, read by combat and movement. (Stub: filled in by the cards work.)"""
from __future__ import annotations

from typing import Any

from rules.engine_types import Event, State

EFFECT_KINDS = ("offence", "defence", "weakness", "haste", "ambush", "flaming_oil")

__all__ = ["EFFECT_KINDS", "offence_modifiers", "defence_modifiers", "movement_bonus", "after_attack", "oil_splash",
           "afflicted", "cure", "remove_unit_effects"]


def offence_modifiers(state: State, uid: str) -> list[dict[str, Any]]:
    return []


def defence_modifiers(state: State, uid: str) -> list[dict[str, Any]]:
    return []


def movement_bonus(state: State, uid: str) -> int:
    return 0


def after_attack(state: State, uid: str, mode: str) -> None:
    return None


def oil_splash(state: State, uid: str) -> int:
    return 0


def afflicted(state: State, uid: str) -> bool:
    return False


def cure(state: State, uid: str) -> list[Event]:
    return []


def remove_unit_effects(state: State, uid: str) -> None:
    for board in state["boards"].values():
        board["effects"] = [e for e in board["effects"] if e.get("unit") != uid]
