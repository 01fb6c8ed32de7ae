"""Walls: Gates, Castle walls and Palisades (seed: Units - Gates, Palisades; Special Abilities -
Construction; Castle; rulings RS 12, RS 13).

A wall stands on the edge between two spaces (``edge``: the two spaces), not on a space. It
belongs to a player (``owner``: the Castle's player for a Gate, the builder for a Palisade) and
has hit points (``hp``). "Enemy units cannot move past gates until they are destroyed, but a
player can move freely past his own gate"; Palisades "work just like Gates".

- **Gate**: 20 hit points; "no modifiers when taking damage except for +1 damage from
  Artillery" (Siege attackers); units directly next to it (on either of its two spaces) have
  Stealth while it stands; Construction repairs it by 3, up to 20.
- **Castle wall** (ruling RS 12): every outer edge of a Castle but the Gate's, owned by the
  Kingdom's player, 20 hit points, attacked and repaired like a Gate; **nobody** crosses it, its
  owner included (the Gate is the way in and out); no Stealth; destroyed, its edge is open.
- **Palisade**: built by a Construction unit with 4 hit points on an edge of its own space, or
  given 4 more (at most 6); works just like a Gate (ruling RS 13: Stealth, no damage modifiers
  but +1 from Artillery); at most 10 per player on the board; destroyed, the rest of the damage
  reaches through to an enemy unit on the other side.

**Decisions:** attacking a wall: "at a range of 1, you must be directly next to it" (standing on
one of its two spaces); "at a range of 2 and up, you only have to hit one of the spaces adjacent
to it", so from anywhere else the wall is as far as the nearer of its two spaces, and at least
2 (a range-1 unit beside one of its spaces but not on it cannot reach it). Walls block
movement only, not attacks or spells (the game has no line of sight), and Teleport, not being
movement, ignores them. Knockback cannot push a unit across a wall.
"""

from __future__ import annotations

from typing import Any

from rules.engine_types import PlayerId, State
from rules.reign_supreme.hexes import Hex, distance, neighbours

__all__ = [
    "edge_key",
    "wall_spaces",
    "blocked_edges",
    "crosses_wall",
    "wall_distance",
    "edge_distance",
    "wall_by_id",
    "GATE_HP",
    "PALISADE_BUILD",
    "PALISADE_MAX",
    "PALISADE_LIMIT",
    "REPAIR",
    "far_side",
    "WALL_KINDS",
    "MAX_HP",
    "castle_wall_edges",
    "own_walls",
    "own_wall",
    "memo",
]

WALL_KINDS = ("gate", "castle_wall", "palisade")
GATE_HP = 20
PALISADE_BUILD = 4
PALISADE_MAX = 6
PALISADE_LIMIT = 10
REPAIR = 3


MAX_HP = {"gate": GATE_HP, "castle_wall": GATE_HP, "palisade": PALISADE_MAX}
"""A wall's most hit points by kind: Castle walls are "attacked and repaired like a Gate"."""


def castle_wall_edges(
    castle: frozenset[Hex] | set[Hex], gate: tuple[Hex, Hex], board: frozenset[Hex] | set[Hex]
) -> list[tuple[Hex, Hex]]:
    """Ruling RS 12: the Castle walls of ``castle``, every edge between one of its spaces and a
    board space outside it except the Gate's, as ``(inside, outside)``, sorted."""
    gate_key = edge_key(*gate)
    return sorted(
        (h, n)
        for h in castle
        for n in neighbours(h)
        if n in board and n not in castle and edge_key(h, n) != gate_key
    )


def edge_key(a: Hex, b: Hex) -> tuple[Hex, Hex]:
    """The edge between two adjacent spaces, the same whichever way round."""
    return (a, b) if a <= b else (b, a)


def wall_spaces(wall: dict[str, Any]) -> tuple[Hex, Hex]:
    (q1, r1), (q2, r2) = wall["edge"]
    return (q1, r1), (q2, r2)


def own_walls(state: State) -> list[dict[str, Any]]:
    """``state["walls"]`` made the state's own, to be changed: a copy of the list and of each
    wall. :func:`state.successor` shares the walls with the state before (few moves change them,
    and what is worked out from them is kept per list, :func:`memo`), so whatever
    changes a wall or the list calls this first, on the state being built."""
    walls = state["walls"] = [dict(w) for w in state["walls"]]
    return walls


def own_wall(state: State, wall: dict[str, Any]) -> dict[str, Any]:
    """The state's own copy of ``wall``, one of ``state["walls"]`` (:func:`own_walls`)."""
    i = next(i for i, w in enumerate(state["walls"]) if w is wall)
    return own_walls(state)[i]


def wall_by_id(state: State, wid: Any) -> dict[str, Any] | None:
    for w in state["walls"]:
        if w["id"] == wid:
            return w
    return None


_MEMO: tuple[Any, int, dict[Any, Any]] = (None, -1, {})
"""The walls list last asked about, its length and what was worked out from it (:func:`memo`)."""


def memo(walls: list[dict[str, Any]]) -> dict[Any, Any]:
    """A dict in which to keep what is worked out from ``walls`` alone (each user its own keys),
    the same dict while ``walls`` is the last list asked about: a playout's states share one
    list until a move changes a wall (:func:`own_walls`, which makes a new list), and every
    listing asks. The length guards against a list added to in place. Its size is bounded by
    what its users key it with (players, spaces, radii), and it is dropped with its list."""
    global _MEMO
    last = _MEMO  # read once: another thread may ask meanwhile
    if last[0] is not walls or last[1] != len(walls):
        last = _MEMO = (walls, len(walls), {})
    return last[2]


def blocked_edges(state: State, player: PlayerId) -> frozenset[tuple[Hex, Hex]]:
    """Edges ``player``'s units may not cross: every wall of another player, and every Castle
    wall, their own included (ruling RS 12)."""
    walls = state["walls"]
    kept = memo(walls)
    found = kept.get(("blocked", player))
    if found is None:
        found = kept[("blocked", player)] = _blocked_edges(walls, player)
    return found


def _blocked_edges(walls: list[dict[str, Any]], player: PlayerId) -> frozenset[tuple[Hex, Hex]]:
    found = set()
    for w in walls:
        if w["owner"] != player or w["kind"] == "castle_wall":
            (q1, r1), (q2, r2) = w["edge"]  # wall_spaces and edge_key, inlined: asked per listing
            a, b = (q1, r1), (q2, r2)
            found.add((a, b) if a <= b else (b, a))
    return frozenset(found)


def crosses_wall(state: State, a: Hex, b: Hex) -> dict[str, Any] | None:
    """The wall on the edge between ``a`` and ``b``, if any."""
    key = edge_key(a, b)
    for w in state["walls"]:
        if edge_key(*wall_spaces(w)) == key:
            return w
    return None


def wall_distance(h: Hex, wall: dict[str, Any]) -> int:
    """How far a wall is from space ``h`` for attacking it (:func:`edge_distance` of its edge)."""
    a, b = wall_spaces(wall)
    return edge_distance(h, a, b)


def edge_distance(h: Hex, a: Hex, b: Hex) -> int:
    """How far the wall between spaces ``a`` and ``b`` is from space ``h`` for attacking it: 1
    from either of its two spaces ("at a range of 1, you must be directly next to it"); from
    anywhere else the distance to the nearer of them ("at a range of 2 and up, you only have to
    hit one of the space[s] adjacent to a Gate"), but at least 2."""
    if h == a or h == b:
        return 1
    q, r = h
    dq, dr = q - a[0], r - a[1]
    da = (
        abs(dq) + abs(dr) + abs(dq + dr)
    ) // 2  # hexes.distance, inlined: a listing asks thousands of times
    dq, dr = q - b[0], r - b[1]
    db = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
    d = da if da < db else db
    return d if d > 2 else 2


def far_side(wall: dict[str, Any], attacker: Hex) -> Hex | None:
    """The space on the other side of a wall from ``attacker``: the farther of its two spaces;
    None when both are as far (nothing "on the other side")."""
    a, b = wall_spaces(wall)
    da, db = distance(attacker, a), distance(attacker, b)
    if da == db:
        return None
    return a if da > db else b
