"""Attacks and damage (seed: Combat Phase - Attack, Melee, Shooting, Siege; ruling RS 4).

A unit makes at most one attack per turn, after its movement:

- **melee** against an adjacent enemy (distance 1), by any unit except Siege units;
- **shoot** (Shooting units) against an enemy at distance 2 up to the unit's range, only if
  the unit has not moved this turn, never at an adjacent unit, and not while the shooter is in
  melee unless it is a Siege unit.

Damage is the attacker's attack plus its offence modifiers minus the target's defence
modifiers, never below 0, kept as pins on the target; a unit whose pins reach its hit points
is destroyed. Part 1 modifiers: the target's defence, +1 defence in any Castle, +1 attack on
any Throne; a Siege target takes no defence modifiers.
"""
from __future__ import annotations

from typing import Any

from rules.engine_types import Event, PlayerId, State
from rules.reign_supreme.board import Geometry, in_melee, stats
from rules.reign_supreme.hexes import Hex, distance

__all__ = ["attack_options", "attack_modes", "damage", "can_attack", "resolve_attack", "MELEE_RANGE"]

MELEE_RANGE = 1


def can_attack(state: State, unit: dict[str, Any]) -> bool:
    """Whether ``unit`` may still attack this turn: on the board, not yet attacked, not freshly
    deployed or busy packing, and (Packed units) unpacked."""
    if unit["at"] is None or unit["attacked"] or unit["done"]:
        return False
    return unit.get("packing", "unpacked") == "unpacked"


def attack_options(state: State, occ: dict[Hex, str], unit: dict[str, Any]) -> list[tuple[str, str]]:
    """Every attack ``unit`` may make now, as (target id, mode), targets in id order. The unit
    must be able to attack (:func:`can_attack`)."""
    s = stats(state, unit)
    here = (unit["at"][0], unit["at"][1])
    kinds = s["kinds"]
    siege = "siege" in kinds
    melee_ok = not siege
    shoot_ok = ("shooting" in kinds and not unit["moved"]
                and (siege or not in_melee(state, occ, here, unit["owner"])))
    reach = s["range"]
    owner = unit["owner"]
    out: list[tuple[str, str]] = []
    for tid, target in state["units"].items():
        if target["owner"] == owner or target["at"] is None:
            continue
        d = distance(here, (target["at"][0], target["at"][1]))
        if d <= MELEE_RANGE and melee_ok:
            out.append((tid, "melee"))
        if shoot_ok and 2 <= d <= reach:
            out.append((tid, "shoot"))
    return out


def attack_modes(state: State, occ: dict[Hex, str], unit: dict[str, Any], target_id: str) -> list[str]:
    """The attacks ``unit`` may make on ``target_id`` now: a sub-list of ["melee", "shoot"]."""
    return [mode for tid, mode in attack_options(state, occ, unit) if tid == target_id]


def damage(state: State, geo: Geometry, attacker: dict[str, Any], target: dict[str, Any]) -> dict[str, Any]:
    """The damage ``attacker`` deals to ``target``, with the modifiers that made it.

    ``{"attack", "offence": [{"source", "value"}], "defence": [...], "damage"}``.
    """
    a = stats(state, attacker)
    t = stats(state, target)
    offence = []
    if (attacker["at"][0], attacker["at"][1]) in geo.thrones:
        offence.append({"source": "throne", "value": 1})
    defence = []
    if "siege" not in t["kinds"]:
        if t["defence"]:
            defence.append({"source": "armour", "value": t["defence"]})
        if (target["at"][0], target["at"][1]) in geo.castle_owner:
            defence.append({"source": "castle", "value": 1})
    total = a["attack"] + sum(m["value"] for m in offence) - sum(m["value"] for m in defence)
    return {"attack": a["attack"], "offence": offence, "defence": defence, "damage": max(0, total)}


def resolve_attack(state: State, geo: Geometry, player: PlayerId, uid: str, tid: str, mode: str) -> list[Event]:
    """Carry out a legal attack (mutates ``state``): pins on the target, death, the kill."""
    from rules.reign_supreme.cooldown import advance_reinforcement

    units = state["units"]
    attacker, target = units[uid], units[tid]
    result = damage(state, geo, attacker, target)
    attacker["attacked"] = True
    hp = stats(state, target)["hp"]
    pins = min(hp, target["pins"] + result["damage"])
    target["pins"] = pins
    events: list[Event] = [{"type": "attacked", "player": player, "unit": uid, "target": tid,
                            "owner": target["owner"], "mode": mode, **result, "pins": pins, "hp": hp}]
    if pins >= hp:
        at = target["at"]
        del units[tid]
        state["kills"][player] += 1
        events.append({"type": "unit_destroyed", "player": player, "unit": tid, "owner": target["owner"],
                       "unit_type": target["type"], "at": at})
        board = state["boards"][player]
        for pin_list in ("packing", "spells", "effects"):
            b = state["boards"][target["owner"]]
            b[pin_list] = [x for x in b[pin_list] if x.get("unit") != tid]
        gained = advance_reinforcement(board, 1)
        if board["reinforcement_pin"] is not None:
            events.append({"type": "reinforcement_pin_moved", "player": player,
                           "reinforcement_pin": board["reinforcement_pin"], "deploys_gained": gained})
    return events
