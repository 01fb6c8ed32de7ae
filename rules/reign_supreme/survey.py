"""What a legal-move listing reads again and again, worked out once per listing (issue 14).

Above :mod:`board`, :mod:`auras` and :mod:`walls`; below the routines that list moves
(:mod:`movement`, :mod:`combat`, :mod:`spells`, :mod:`cards`). A listing asks the same
questions of every unit of the mover: who stands where, each unit's statistics, who has Stealth,
which Silence auras are active, which spaces are next to an enemy, which edges a player may not
cross. Each answer depends only on the state, which a listing never changes, so a
:class:`Survey` works each out once (or at the first question) instead of once per unit. It
applies no rule of its own: every answer is the rule function's (:func:`auras.stealthy`,
:func:`auras.silence_sources`, :func:`walls.blocked_edges`, ...) on the same state.

A Survey is only valid for the state it was made from, while that state does not change: make
a new one for every listing or check, never keep one across ``apply``.
"""
from __future__ import annotations

from functools import cached_property
from typing import Any

from rules.engine_types import PlayerId, State
from rules.reign_supreme.auras import SILENCE_RADIUS, silence_sources, stealthy
from rules.reign_supreme.board import Geometry, occupancy, stats
from rules.reign_supreme.hexes import DIRECTIONS, Hex
from rules.reign_supreme.walls import blocked_edges, wall_spaces

__all__ = ["Survey"]


class Survey:
    """One state's board, read once: see the module docstring. Each part is worked out at its
    first use (``cached_property``), so a Survey costs nothing for what a listing never asks."""

    def __init__(self, state: State, geo: Geometry) -> None:
        self.state = state
        self.geo = geo
        self.units: dict[str, dict[str, Any]] = state["units"]
        self._zones: dict[PlayerId, tuple[frozenset[Hex], frozenset[Hex], frozenset[Hex]]] = {}
        self._blocked: dict[PlayerId, frozenset[tuple[Hex, Hex]]] = {}
        self._walls: dict[PlayerId, list[tuple[str, Hex, Hex]]] = {}

    @cached_property
    def occ(self) -> dict[Hex, str]:
        """Space -> id of the unit on it (:func:`board.occupancy`)."""
        return occupancy(self.state)

    @cached_property
    def stats(self) -> dict[str, dict[str, Any]]:
        """Unit id -> its statistics (:func:`board.stats`)."""
        state = self.state
        return {uid: stats(state, u) for uid, u in self.units.items()}

    @cached_property
    def stealthy(self) -> frozenset[str]:
        """Ids of the units with Stealth now (:func:`auras.stealthy`)."""
        state, geo = self.state, self.geo
        return frozenset(uid for uid, u in self.units.items() if stealthy(state, geo, u))

    @cached_property
    def silence(self) -> list[tuple[Hex, PlayerId]]:
        """The active Silence auras (:func:`auras.silence_sources`)."""
        return silence_sources(self.state)

    @cached_property
    def engaged(self) -> frozenset[tuple[str, str]]:
        """The pairs engaged in melee since the start of the turn (``state["engaged"]``)."""
        return frozenset((a, b) for a, b in self.state["engaged"])

    def has(self, uid: str, ability: str) -> bool:
        """:func:`auras.has` of unit ``uid``."""
        s = self.stats[uid]
        return ability in s["abilities"] or ability in s["kinds"] or ability in s["spells"]

    def is_engaged(self, a: str, b: str) -> bool:
        """:func:`auras.engaged`."""
        return ((a, b) if a < b else (b, a)) in self.engaged

    def silenced(self, h: Hex, player: PlayerId) -> bool:
        """:func:`auras.silenced`: ``h`` lies within 3 spaces of another player's active Silence."""
        q, r = h
        for (sq, sr), owner in self.silence:
            if owner != player:
                dq, dr = q - sq, r - sr
                if (abs(dq) + abs(dr) + abs(dq + dr)) // 2 <= SILENCE_RADIUS:
                    return True
        return False

    def in_aura(self, uid: str, ability: str) -> bool:
        """:func:`auras.in_aura`: the unit or an adjacent unit of the same player has ``ability``."""
        if self.has(uid, ability):
            return True
        unit = self.units[uid]
        owner = unit["owner"]
        q, r = unit["at"]
        occ, units = self.occ, self.units
        for dq, dr in DIRECTIONS:
            other = occ.get((q + dq, r + dr))
            if other is not None and units[other]["owner"] == owner and self.has(other, ability):
                return True
        return False

    def zone(self, owner: PlayerId) -> tuple[frozenset[Hex], frozenset[Hex], frozenset[Hex]]:
        """For ``owner``'s units: the spaces of enemy units; the spaces next to an enemy that
        imposes the Melee restrictions (every enemy but a Stealth one not in melee since the start
        of the turn: seed, Stealth); the spaces next to any enemy (melee)."""
        found = self._zones.get(owner)
        if found is None:
            units = self.units
            in_melee_at_start = {uid for pair in self.engaged for uid in pair}
            enemies = []
            restricting: set[Hex] = set()
            melee: set[Hex] = set()
            for h, other in self.occ.items():
                if units[other]["owner"] == owner:
                    continue
                enemies.append(h)
                q, r = h
                around = [(q + dq, r + dr) for dq, dr in DIRECTIONS]
                melee.update(around)
                if other in in_melee_at_start or other not in self.stealthy:
                    restricting.update(around)
            found = (frozenset(enemies), frozenset(restricting), frozenset(melee))
            self._zones[owner] = found
        return found

    def blocked(self, owner: PlayerId) -> frozenset[tuple[Hex, Hex]]:
        """:func:`walls.blocked_edges` of ``owner``."""
        found = self._blocked.get(owner)
        if found is None:
            found = self._blocked[owner] = blocked_edges(self.state, owner)
        return found

    def enemy_walls(self, owner: PlayerId) -> list[tuple[str, Hex, Hex]]:
        """The walls of every player but ``owner``, as (id, space, space), in state order."""
        found = self._walls.get(owner)
        if found is None:
            found = self._walls[owner] = [(w["id"], *wall_spaces(w)) for w in self.state["walls"]
                                          if w["owner"] != owner]
        return found
