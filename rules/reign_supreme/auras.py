"""Auras and the qualities a unit has from where it stands (seed: Special Rule Terminology, Aura,
Move Freely; Special Abilities: Command, Supply, Enchant, Silence, Stealth; Castle and Gates).

"This ability is considered on all the time ... It may (and often does) effect more than one
unit. The aura is consistent; if a unit moves out of the aura at any time, they lose the bonus."
So nothing here is stored: every aura is read off the board when it matters.

- **Command**: the unit and all adjacent allied units get +1 to offence.
- **Supply**: the unit and all adjacent allied units get +1 to defence.
- **Enchant**: the unit and all adjacent allied units get +1 range (melee at 2 spaces); it
  does not change spells.
- **Silence**: no enemy spell can be cast within 3 spaces of the unit; two or more Silence
  units within 3 spaces of each other cancel each other.
- **Stealth**: Move Freely; may not be directly attacked unless engaged in melee since the start
  of the turn; immune to Knockback, Flanking, Charge, Ensnare and Counterattack. Units directly
  next to a Gate or a Palisade (ruling RS 13) have Stealth while it stands.

**Decision:** auras of the same kind do not stack (two Commanders still give +1). "Allied" means
the same player's units.
"""

from __future__ import annotations

from typing import Any

from rules.engine_types import PlayerId, State
from rules.reign_supreme.board import Geometry, stats
from rules.reign_supreme.hexes import DIRECTIONS, Hex, as_hex, distance, neighbours
from rules.reign_supreme.state import LastSeen
from rules.reign_supreme.walls import memo

__all__ = [
    "has",
    "in_aura",
    "range_bonus",
    "silence_sources",
    "uncancelled",
    "silenced",
    "stealthy",
    "stealth_spaces",
    "engaged_pairs",
    "engaged",
    "prune_engaged",
    "SILENCE_RADIUS",
    "STEALTH_WALLS",
]

SILENCE_RADIUS = 3


def has(state: State, unit: dict[str, Any], ability: str, s: dict[str, Any] | None = None) -> bool:
    """Whether ``unit``'s statistics give it ``ability`` (an ability, a kind or a spell). ``s``:
    those statistics, when at hand."""
    if s is None:
        s = stats(state, unit)
    return ability in s["abilities"] or ability in s["kinds"] or ability in s["spells"]


def in_aura(state: State, occ: dict[Hex, str], unit: dict[str, Any], ability: str) -> bool:
    """Whether ``unit`` stands in an allied ``ability`` aura: it has the aura itself or an
    adjacent unit of the same player has it (Command, Supply, Enchant)."""
    if has(state, unit, ability):
        return True
    units = state["units"]
    for n in neighbours(as_hex(unit["at"])):
        other = occ.get(n)
        if (
            other is not None
            and units[other]["owner"] == unit["owner"]
            and has(state, units[other], ability)
        ):
            return True
    return False


def range_bonus(state: State, occ: dict[Hex, str], unit: dict[str, Any]) -> int:
    """Enchant: +1 range to melee and shooting (not to spells)."""
    return 1 if in_aura(state, occ, unit, "enchant") else 0


def silence_sources(state: State) -> list[tuple[Hex, PlayerId]]:
    """Active Silence auras as (space, owner): Silence units on the board with no other Silence
    unit (of any side) within 3 spaces ("their effect cancel and the aura is lost")."""
    silent = _SILENT_KINDS.kept(state["rosters"])
    found = []
    for u in state["units"].values():
        if u["at"] is None:
            continue
        kind = (u["army"], u["type"])
        has_it = silent.get(kind)
        if has_it is None:
            has_it = silent[kind] = has(state, u, "silence")
        if has_it:
            found.append((as_hex(u["at"]), u["owner"]))
    return uncancelled(found)


_SILENT_KINDS = LastSeen()
"""Per rosters: (army, unit type) -> whether such a unit has Silence (:func:`has`), filled in
as :func:`silence_sources` asks (a unit's statistics depend only on its army, its type and the
rosters; every spell cast and answer asks)."""


def uncancelled(found: list[tuple[Hex, PlayerId]]) -> list[tuple[Hex, PlayerId]]:
    """Of the Silence units ``found`` (space, owner) on the board, those with no other within 3
    spaces: "their effect cancel and the aura is lost"."""
    return [
        (h, p)
        for h, p in found
        if not any(o != h and distance(h, o) <= SILENCE_RADIUS for o, _ in found)
    ]


def silenced(state: State, h: Hex, player: PlayerId) -> bool:
    """Whether ``player`` may not cast a spell from or into space ``h``: it lies within 3 spaces
    of an active Silence aura of another player."""
    return any(
        owner != player and distance(h, src) <= SILENCE_RADIUS
        for src, owner in silence_sources(state)
    )


STEALTH_WALLS = ("gate", "palisade")
"""Walls whose two spaces give Stealth: Gates (seed) and Palisades, which "work just like Gates"
(ruling RS 13); Castle walls give none (ruling RS 12)."""


def stealthy(
    state: State,
    geo: Geometry,
    unit: dict[str, Any],
    s: dict[str, Any] | None = None,
    spaces: frozenset[Hex] | None = None,
) -> bool:
    """Stealth: the unit has it, or it stands directly next to a standing Gate or Palisade
    (either side). ``s``: the unit's statistics, and ``spaces``: :func:`stealth_spaces` of the
    state's walls, when at hand (a listing asks of every unit)."""
    if "stealth" in (stats(state, unit) if s is None else s)["kinds"]:
        return True
    at = unit["at"]
    if at is None:
        return False
    return (at[0], at[1]) in (stealth_spaces(state["walls"]) if spaces is None else spaces)


def stealth_spaces(walls: list[dict[str, Any]]) -> frozenset[Hex]:
    """The spaces of the standing Gates and Palisades of ``walls``, kept per walls list
    (:func:`walls.memo`; a legal-move listing asks thousands of times)."""
    kept = memo(walls)
    spaces = kept.get("stealth")
    if spaces is None:
        spaces = kept["stealth"] = frozenset(
            (h[0], h[1]) for w in walls if w["kind"] in STEALTH_WALLS for h in w["edge"]
        )
    return spaces


def engaged_pairs(state: State, occ: dict[Hex, str]) -> list[list[str]]:
    """Every pair of enemy units standing next to each other, each pair ``[a, b]`` with
    ``a < b`` by id, sorted: who is engaged in melee now (kept from the start of each turn).
    A pair is found from both its units' spaces; it is taken from the space of ``a``."""
    units = state["units"]
    pairs = []
    for (q, r), uid in occ.items():
        owner = units[uid]["owner"]
        for dq, dr in DIRECTIONS:
            other = occ.get((q + dq, r + dr))
            if other is not None and uid < other and units[other]["owner"] != owner:
                pairs.append([uid, other])
    pairs.sort()
    return pairs


def engaged(state: State, a: str, b: str) -> bool:
    """Whether units ``a`` and ``b`` have been engaged in melee since the start of the turn."""
    return [min(a, b), max(a, b)] in state["engaged"]


def prune_engaged(state: State, mover: str | None = None, path: list[Hex] | None = None) -> None:
    """Drop the pairs that are no longer next to each other ("remained engaged in Melee since
    the beginning of the turn"): call after any unit changes space or leaves the board.

    ``mover`` and ``path`` (start first) name a unit that has just moved along ``path``: a pair
    of it is dropped too when any space of the path is not next to the other unit, because a
    unit that stepped out of the melee on its way did not remain engaged, even if it ends next
    to the same enemy again (fix: only the end space used to be checked)."""
    units = state["units"]
    keep = []
    for a, b in state["engaged"]:
        ua, ub = units.get(a), units.get(b)
        if (
            ua is None
            or ub is None
            or ua["at"] is None
            or ub["at"] is None
            or distance(as_hex(ua["at"]), as_hex(ub["at"])) != 1
            or ua["owner"] == ub["owner"]
        ):
            continue
        if path is not None and mover in (a, b):
            other = as_hex(ub["at"]) if mover == a else as_hex(ua["at"])
            if any(distance(h, other) != 1 for h in path):
                continue
        keep.append([a, b])
    state["engaged"] = keep
