"""The Construction ability (seed: Special Abilities - Construction; Units - Engineer, Gates,
Palisades).

"If a unit with Construction is adjacent to a Siege unit, Mechanical unit or Wall, it may use
its turn to repair it for 3 HP. Construction units may also build Palisades ... on adjacent
space edges, between two spaces with 4 HP or add 4 HP to an existing Palisade ... Construction
units can also spend their turn to give a Mechanical or Siege (but not an unpacked Trebuchet)
another movement point for the turn. Construction units may also spend their turn to move a pin
on the action board of an adjacent Packing unit."

A ``construct`` move ``{unit, action, target}`` is the unit's action for the turn instead of an
attack (it may move first); its activation then ends. Actions:

- ``repair``: an adjacent Siege or Mechanical unit of its own side loses up to 3 pins; a Gate or
  Castle wall it stands next to gets 3 hit points back (at most 20), a Palisade 4 (at most 6);
  ``target`` is the unit or wall id;
- ``build``: a Palisade of 4 hit points on the edge between its space and the adjacent space
  ``target`` (at most 10 of the player's own Palisades on the board); adding to an existing
  Palisade is ``repair``;
- ``hasten``: an adjacent Siege or Mechanical unit of its own side that can still move this
  turn (has not moved, attacked or finished its activation; not a Packed unit that is not
  packed) gets +1 movement this turn;
- ``speed_packing``: the Packing pin of an adjacent unit of its own side moves one notch; a
  pin it brings to the end of the board completes only in the next Cooldown phase (RS 16).

**Decisions:** "adjacent" to a wall means standing on one of its two spaces; the units it
repairs, hastens or packs are its own side's (walls of any side, as the seed says for
Palisades); every hasten adds one point.
"""

from __future__ import annotations

from typing import Any

from rules.engine_types import Event, Move, PlayerId, State, Violation
from rules.reign_supreme import rulebook
from rules.reign_supreme.board import Geometry, stats
from rules.reign_supreme.hexes import Hex, as_hex, as_json, distance, neighbours
from rules.reign_supreme.state import PACKING_NOTCHES
from rules.reign_supreme.walls import (
    MAX_HP,
    PALISADE_BUILD,
    PALISADE_LIMIT,
    REPAIR,
    crosses_wall,
    own_wall,
    own_walls,
    wall_by_id,
    wall_spaces,
)

__all__ = ["ACTIONS", "construct_moves", "check_construct", "apply_construct"]

ACTIONS = ("repair", "build", "hasten", "speed_packing")
_GAIN = {"gate": REPAIR, "castle_wall": REPAIR, "palisade": PALISADE_BUILD}


def _repairable(state: State, unit: dict[str, Any]) -> bool:
    kinds = stats(state, unit)["kinds"]
    return "siege" in kinds or "mechanical" in kinds


def _neighbours_own(state: State, p: PlayerId, here: Hex) -> list[tuple[str, dict[str, Any]]]:
    return [
        (uid, u)
        for uid, u in state["units"].items()
        if u["owner"] == p and u["at"] is not None and distance(here, as_hex(u["at"])) == 1
    ]


def construct_moves(state: State, geo: Geometry, p: PlayerId, uid: str) -> list[Move]:
    """Every construction action ``uid`` may take now."""
    unit = state["units"][uid]
    if (
        unit["at"] is None
        or unit["done"]
        or unit["attacks"]
        or "construction" not in stats(state, unit)["abilities"]
    ):
        return []
    here = as_hex(unit["at"])
    out: list[Move] = []

    def add(action: str, target: Any) -> None:
        out.append(
            {"player": p, "type": "construct", "unit": uid, "action": action, "target": target}
        )

    for tid, t in _neighbours_own(state, p, here):
        if _repairable(state, t) and t["pins"] > 0:
            add("repair", tid)
    for wall in state["walls"]:
        if here in wall_spaces(wall) and wall["hp"] < MAX_HP[wall["kind"]]:
            add("repair", wall["id"])
    if (
        sum(1 for w in state["walls"] if w["kind"] == "palisade" and w["owner"] == p)
        < PALISADE_LIMIT
    ):
        for n in sorted(neighbours(here)):
            if n in geo.board and crosses_wall(state, here, n) is None:
                add("build", as_json(n))
    for tid, t in _neighbours_own(state, p, here):
        if (
            _repairable(state, t)
            and not t["moved"]
            and not t["attacked"]
            and not t["done"]
            and t.get("packing", "packed") == "packed"
        ):
            add("hasten", tid)
    # A pin already at the end of the board waits for the next Cooldown phase (RS 16): it
    # cannot be moved further.
    pins = {pin["unit"] for pin in state["boards"][p]["packing"] if pin["notch"] < PACKING_NOTCHES}
    for tid, _ in _neighbours_own(state, p, here):
        if tid in pins:
            add("speed_packing", tid)
    return out


def check_construct(state: State, geo: Geometry, move: Move) -> list[Violation]:
    """Why a ``construct`` move is illegal ([] when legal)."""
    rule = rulebook.CONSTRUCTION
    unit = state["units"][move["unit"]]
    if "construction" not in stats(state, unit)["abilities"]:
        return [
            Violation("no_construction", f"Unit {move['unit']} has no Construction ability.", rule)
        ]
    if move["action"] not in ACTIONS:
        return [
            Violation("unknown_action", f"Construction actions are {', '.join(ACTIONS)}.", rule)
        ]
    if unit["at"] is None:
        return [Violation("not_on_board", f"Unit {move['unit']} is not on the board.", rule)]
    if unit["done"] or unit["attacks"]:
        return [
            Violation(
                "unit_done",
                "Construction takes the unit's action for the turn; it has none left.",
                rule,
            )
        ]
    if (
        move["action"] == "build"
        and sum(
            1 for w in state["walls"] if w["kind"] == "palisade" and w["owner"] == move["player"]
        )
        >= PALISADE_LIMIT
    ):
        return [
            Violation(
                "palisade_limit",
                f"A player may have at most {PALISADE_LIMIT} Palisades on the board.",
                rulebook.WALLS,
            )
        ]
    target = move["target"]
    key = tuple(target) if type(target) is list else target
    listed = {
        (m["action"], tuple(m["target"]) if type(m["target"]) is list else m["target"])
        for m in construct_moves(state, geo, move["player"], move["unit"])
    }
    if (move["action"], key) not in listed:
        return [
            Violation(
                "bad_construction_target",
                f"Unit {move['unit']} cannot {move['action'].replace('_', ' ')} "
                f"{target!r} from where it stands.",
                rule,
            )
        ]
    return []


def apply_construct(state: State, geo: Geometry, move: Move) -> list[Event]:
    """Carry out a legal construction action (mutates ``state``)."""
    p, uid, action, target = move["player"], move["unit"], move["action"], move["target"]
    unit = state["units"][uid]
    unit["acted"] = True
    unit["done"] = True
    base = {"type": "constructed", "player": p, "unit": uid, "action": action, "target": target}
    if action == "repair":
        wall = wall_by_id(state, target)
        if wall is not None:
            wall = own_wall(state, wall)
            before = wall["hp"]
            wall["hp"] = min(MAX_HP[wall["kind"]], before + _GAIN[wall["kind"]])
            return [{**base, "hp": wall["hp"], "gained": wall["hp"] - before}]
        t = state["units"][target]
        removed = min(t["pins"], REPAIR)
        t["pins"] -= removed
        return [{**base, "pins_removed": removed, "pins": t["pins"]}]
    if action == "build":
        state["wall_serial"] += 1
        wid = f"w{state['wall_serial']}"
        here = as_hex(unit["at"])
        edge = sorted([list(here), list(target)])
        own_walls(state).append(
            {"id": wid, "kind": "palisade", "owner": p, "edge": edge, "hp": PALISADE_BUILD}
        )
        return [{**base, "wall": wid, "edge": edge, "hp": PALISADE_BUILD}]
    if action == "hasten":
        state["units"][target]["bonus"] += 1
        return [{**base, "bonus": state["units"][target]["bonus"]}]
    # speed_packing. Ruling RS 16: a pin this moves to the end of the Action Board stays there
    # (notch 5) and the unit stays packing or unpacking: it gets its attack or its movement back
    # only after the next Cooldown phase, which completes the pin (``packing_done``).
    pin = next(x for x in state["boards"][p]["packing"] if x["unit"] == target)
    pin["notch"] += 1
    return [{**base, "notch": pin["notch"]}]
