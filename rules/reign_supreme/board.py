"""The battlefield: which spaces exist, who stands where, Kingdoms, Castles, Thrones and melee
(seed: Battlefield, Kingdom, Midfield, Melee; ruling RS 2). Movement over it, which depends on
auras and walls, is :mod:`rules.reign_supreme.movement`.

Units stand one to a space. A unit "on the board" has ``at = [q, r]``; a unit waiting to be set
up or deployed has ``at = null``.
"""

from __future__ import annotations

import marshal
from typing import Any

from rules.engine_types import PlayerId, State
from rules.reign_supreme.content import default_roster
from rules.reign_supreme.hexes import Hex, neighbours

__all__ = [
    "Geometry",
    "geometry",
    "layout_key",
    "occupancy",
    "stats",
    "army_stats",
    "unit_hex",
    "enemies_adjacent",
    "in_melee",
    "units_of",
    "on_board",
]


class Geometry:
    """The static spaces of a game: the board, each player's Kingdom, Castles and Thrones."""

    __slots__ = (
        "board",
        "adjacent",
        "kingdom_of",
        "kingdoms",
        "castles",
        "castle_owner",
        "thrones",
        "mines",
        "ruins",
    )

    def __init__(self, state: State) -> None:
        scenario = state["scenario"]
        board: set[Hex] = {(h[0], h[1]) for h in scenario["midfield"]}
        self.kingdoms: dict[PlayerId, frozenset[Hex]] = {}
        self.kingdom_of: dict[Hex, PlayerId] = {}
        self.castles: dict[PlayerId, frozenset[Hex]] = {}
        self.castle_owner: dict[Hex, PlayerId] = {}
        self.thrones: dict[Hex, PlayerId] = {}
        for p, k in state["kingdoms"].items():
            hexes = frozenset((h[0], h[1]) for h in k["hexes"])
            self.kingdoms[p] = hexes
            board |= hexes
            for h in hexes:
                self.kingdom_of[h] = p
            if k["castle"] is not None:
                castle = frozenset((h[0], h[1]) for h in k["castle"])
                self.castles[p] = castle
                for h in castle:
                    self.castle_owner[h] = p
            if k["throne"] is not None:
                self.thrones[(k["throne"][0], k["throne"][1])] = p
        self.board: frozenset[Hex] = frozenset(board)
        self.adjacent: dict[Hex, tuple[Hex, ...]] = {
            h: tuple(n for n in neighbours(h) if n in board) for h in board
        }
        """Each board space's neighbours on the board."""
        self.mines: tuple[Hex, ...] = tuple((h[0], h[1]) for h in scenario["mines"])
        self.ruins: tuple[Hex, ...] = tuple((h[0], h[1]) for h in scenario["ruins"])


def layout_key(state: State) -> bytes:
    """What a game's board layout is made of, as one byte string: the scenario and the
    Kingdoms, which no move ever changes (only set-up writes them).

    ``marshal`` writes a value losslessly (``true`` apart from ``1``, ``1.0`` apart from ``1``),
    so only equal layouts share a key; the same layout with its keys in another order merely
    gets another key. Format version 2 writes no back-references, so the bytes do not depend on
    how objects happen to be shared in memory. It is several times faster than ``repr`` or
    ``json.dumps`` here, and a key is built on every request."""
    return marshal.dumps((state["scenario"], state["kingdoms"]), 2)


_CACHE: dict[bytes, Geometry] = {}
_CACHE_SIZE = 256
_last: tuple[Any, Any, Geometry] | None = None
"""The scenario and Kingdoms objects of the last call and their Geometry: a playout hands the
same two objects from state to state (``apply`` copies only what changes), so they are
recognised by identity without building the key."""


def geometry(state: State) -> Geometry:
    """The Geometry of ``state``, built once per board layout (:func:`layout_key`): over HTTP
    every request parses a new state, so the cache is keyed by content, not by object."""
    global _last
    scenario, kingdoms = state["scenario"], state["kingdoms"]
    last = _last
    if last is not None and last[0] is scenario and last[1] is kingdoms:
        return last[2]
    key = layout_key(state)
    geo = _CACHE.get(key)
    if geo is None:
        geo = Geometry(state)
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.clear()
        _CACHE[key] = geo
    _last = (scenario, kingdoms, geo)
    return geo


def stats(state: State, unit: dict[str, Any]) -> dict[str, Any]:
    """The statistics of ``unit``: its army's roster entry for its type (a unit handed over to
    another player keeps its army)."""
    army = unit["army"]
    roster = state["rosters"].get(army)
    if roster is None:
        return default_roster(army)[unit["type"]]
    return roster["units"][unit["type"]]


def army_stats(state: State, army: str) -> dict[str, dict[str, Any]]:
    """The statistics of ``army``'s units by unit type: what :func:`stats` reads a unit's in."""
    roster = state["rosters"].get(army)
    return default_roster(army) if roster is None else roster["units"]


def unit_hex(unit: dict[str, Any]) -> Hex | None:
    at = unit["at"]
    return None if at is None else (at[0], at[1])


def on_board(state: State) -> dict[str, dict[str, Any]]:
    """Units standing on the board, by id."""
    return {uid: u for uid, u in state["units"].items() if u["at"] is not None}


def units_of(state: State, player: PlayerId) -> list[tuple[str, dict[str, Any]]]:
    """``player``'s units (board and reserve), in id order."""
    return [(uid, u) for uid, u in state["units"].items() if u["owner"] == player]


def occupancy(state: State) -> dict[Hex, str]:
    """Space -> id of the unit on it."""
    return {(at[0], at[1]): uid for uid, u in state["units"].items() if (at := u["at"]) is not None}


def enemies_adjacent(state: State, occ: dict[Hex, str], h: Hex, owner: PlayerId) -> list[str]:
    """Ids of enemy units (any other player's) adjacent to space ``h``."""
    units = state["units"]
    return [occ[n] for n in neighbours(h) if n in occ and units[occ[n]]["owner"] != owner]


def in_melee(state: State, occ: dict[Hex, str], h: Hex, owner: PlayerId) -> bool:
    """Seed, Special Rule Terminology, Melee: units of opposing sides that are adjacent are in
    melee."""
    units = state["units"]
    for n in neighbours(h):
        uid = occ.get(n)
        if uid is not None and units[uid]["owner"] != owner:
            return True
    return False
