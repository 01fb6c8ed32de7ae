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

from collections.abc import Callable
from functools import lru_cache
from typing import Any, Generic, TypeVar, overload

from rules.engine_types import PlayerId, State
from rules.reign_supreme import effects
from rules.reign_supreme.auras import SILENCE_RADIUS, silence_sources, stealth_spaces, stealthy
from rules.reign_supreme.board import Geometry, army_stats, occupancy
from rules.reign_supreme.hexes import DIRECTIONS, Hex, disc
from rules.reign_supreme.state import catalog_of
from rules.reign_supreme.walls import blocked_edges, memo, wall_spaces

__all__ = ["Survey", "id_key", "open_steps"]

_NEAR_MAX = 2


@lru_cache(maxsize=4096)  # asked of every unit on the board at every listing; ids recur
def id_key(uid: str) -> tuple[int, str]:
    """A unit id's place in numeric order: ``u<n>`` by ``n``, anything else first, then by id."""
    digits = uid[1:]
    return (int(digits) if digits.isascii() and digits.isdigit() and len(digits) <= 9 else 0, uid)


_STEPS: dict[tuple[Geometry, frozenset[tuple[Hex, Hex]]], dict[Hex, tuple[Hex, ...]]] = {}
_STEPS_SIZE = 256


def open_steps(geo: Geometry, blocked: frozenset[tuple[Hex, Hex]]) -> dict[Hex, tuple[Hex, ...]]:
    """Each space's neighbours on the board (``geo.adjacent``, in its order) but those across an
    edge of ``blocked`` (:func:`walls.edge_key` pairs). Kept per board and set of walls: walls
    change seldom, and a listing searches the board from every unit."""
    key = (geo, blocked)
    found = _STEPS.get(key)
    if found is None:
        found = {
            h: tuple(n for n in ns if ((h, n) if h <= n else (n, h)) not in blocked)  # edge_key
            for h, ns in geo.adjacent.items()
        }
        if len(_STEPS) >= _STEPS_SIZE:
            _STEPS.clear()
        _STEPS[key] = found
    return found


_SHARED: dict[frozenset[Any], frozenset[Any]] = {}
_SHARED_SIZE = 1024


def shared(found: frozenset[Any]) -> frozenset[Any]:
    """``found``, or the equal set met before: equal sets worked out in state after state are
    then one object, so that a cache keyed by them (the search trees of
    :func:`movement.reachable`) finds them equal by identity instead of element by element."""
    kept = _SHARED.get(found)
    if kept is None:
        if len(_SHARED) >= _SHARED_SIZE:
            _SHARED.clear()
        kept = _SHARED[found] = found
    return kept


_T = TypeVar("_T")


class lazy(Generic[_T]):  # noqa: N801 - a decorator, named like the property it replaces
    """``functools.cached_property`` without its lock: a value worked out at its first read and
    kept in the instance's ``__dict__``, which later reads find first (this is a non-data
    descriptor). Python 3.11's ``cached_property`` takes a lock on every first read, which more
    than doubles its cost (3.12 dropped the lock), and a listing makes a new Survey and reads a
    dozen of its parts for the first time (issue 28). Two threads reading one Survey at once
    would at worst both work out the same value from the same unchanging state."""

    def __init__(self, func: Callable[[Any], _T]) -> None:
        self.func = func
        self.name = func.__name__
        self.__doc__ = func.__doc__

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> lazy[_T]: ...

    @overload
    def __get__(self, instance: object, owner: type | None = None) -> _T: ...

    def __get__(self, instance: object | None, owner: type | None = None) -> lazy[_T] | _T:
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.func(instance)
        return value


class Survey:
    """One state's board, read once: see the module docstring. Each part is worked out at its
    first use (:class:`lazy`), so a Survey costs nothing for what a listing never asks."""

    def __init__(self, state: State, geo: Geometry) -> None:
        self.state = state
        self.geo = geo
        self.units: dict[str, dict[str, Any]] = state["units"]
        self._enemy_units: dict[PlayerId, list[tuple[str, Hex]]] = {}
        self._enemies: dict[PlayerId, frozenset[Hex]] = {}
        self._imposing: dict[PlayerId, frozenset[Hex]] = {}
        self._restricting: dict[PlayerId, frozenset[Hex]] = {}
        self._blocked: dict[PlayerId, frozenset[tuple[Hex, Hex]]] = {}
        self._auras: dict[tuple[PlayerId, str], frozenset[Hex]] = {}

    @lazy
    def occ(self) -> dict[Hex, str]:
        """Space -> id of the unit on it (:func:`board.occupancy`), in ``state["units"]`` order:
        every unit on the board once, as units stand one to a space (a state with two on one is
        refused, :mod:`integrity`'s ``two_units_one_space``)."""
        return occupancy(self.state)

    @lazy
    def ids_on_board(self) -> list[str]:
        """The ids of the units on the board, by number (``u2`` before ``u10``; :func:`id_key`)."""
        return sorted(self.occ.values(), key=id_key)

    @lazy
    def _on_board_by_owner(self) -> dict[PlayerId, list[str]]:
        """Player -> the ids of their units on the board, in ``state["units"]`` order."""
        found: dict[PlayerId, list[str]] = {}
        for uid, u in self.units.items():
            if u["at"] is not None:
                ids = found.get(owner := u["owner"])
                if ids is None:
                    found[owner] = [uid]
                else:
                    ids.append(uid)
        return found

    def on_board_of(self, owner: PlayerId) -> list[str]:
        """The ids of ``owner``'s units on the board, in ``state["units"]`` order: one pass over
        the units for every player, where the mover's units are listed and then each other
        active player's casts and cards ask again."""
        return self._on_board_by_owner.get(owner, [])

    @lazy
    def order(self) -> dict[str, int]:
        """Unit id -> its place in ``state["units"]``."""
        return {uid: i for i, uid in enumerate(self.units)}

    def near(self, h: Hex, radius: int) -> list[str]:
        """The ids of the units on the board within ``radius`` of ``h`` (and maybe farther), in
        ``state["units"]`` order. Near a space, the few spaces around it are looked up; far,
        every unit is read (a Shooting unit's reach covers much of the board)."""
        occ = self.occ
        if radius > _NEAR_MAX:
            return list(occ.values())  # every unit on the board, in state order
        q, r = h
        found = [occ[s] for dq, dr in disc(radius) if (s := (q + dq, r + dr)) in occ]
        found.sort(key=self.order.__getitem__)
        return found

    @lazy
    def walls_by_id(self) -> dict[str, dict[str, Any]]:
        """Wall id -> the wall (:func:`walls.wall_by_id`: the first of that id)."""
        found: dict[str, dict[str, Any]] = {}
        for w in self.state["walls"]:
            found.setdefault(w["id"], w)
        return found

    @lazy
    def catalog(self) -> dict[str, dict[str, Any]]:
        """Card instance id -> its definition (:func:`state.catalog_of`)."""
        return catalog_of(self.state)

    @lazy
    def stats(self) -> dict[str, dict[str, Any]]:
        """Unit id -> its statistics (:func:`board.stats`), looked up in each army's table
        (:func:`board.army_stats`), which is found once per army instead of once per unit."""
        state, units = self.state, self.units
        tables = {army: army_stats(state, army) for army in {u["army"] for u in units.values()}}
        return {uid: tables[u["army"]][u["type"]] for uid, u in units.items()}

    @lazy
    def affected(self) -> frozenset[str]:
        """The ids of the units that an effect on some Action Board names (the entries that
        :func:`effects.entries` reads): any other unit has none (most units, at most listings)."""
        boards = self.state["boards"]
        return frozenset(e["unit"] for p in self.state["players"] for e in boards[p]["effects"])

    def movement_bonus(self, uid: str) -> int:
        """:func:`effects.movement_bonus` of unit ``uid``."""
        return effects.movement_bonus(self.state, uid) if uid in self.affected else 0

    def is_stealthy(self, uid: str) -> bool:
        """:func:`auras.stealthy` of unit ``uid``."""
        return uid in self.hidden

    @lazy
    def hidden(self) -> frozenset[str]:
        """The ids of the units that have Stealth (:func:`auras.stealthy`). Worked out for every
        unit at once: a listing asks of nearly every unit on the board (as a target, or as an
        enemy that may impose the Melee restrictions), most of them more than once."""
        state, geo, stats_of, spaces = self.state, self.geo, self.stats, self.stealth_spaces
        return frozenset(
            uid for uid, u in self.units.items() if stealthy(state, geo, u, stats_of[uid], spaces)
        )

    @lazy
    def stealth_spaces(self) -> frozenset[Hex]:
        """The spaces next to a standing Gate or Palisade (:func:`auras.stealth_spaces`)."""
        return stealth_spaces(self.state["walls"])

    @lazy
    def silence(self) -> list[tuple[Hex, PlayerId]]:
        """The active Silence auras (:func:`auras.silence_sources`)."""
        return silence_sources(self.state)

    @lazy
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

    def aura(self, owner: PlayerId, ability: str) -> frozenset[Hex]:
        """The spaces where a unit of ``owner`` stands in an allied ``ability`` aura: those of
        ``owner``'s units on the board that have it, and the spaces next to them (units stand
        one to a space, so a unit on one of them has it or stands next to one of its own side
        that has it). Worked out once per player and ability from their units, instead of six
        neighbours read for every unit asked: a listing asks of every unit that may attack."""
        key = (owner, ability)
        found = self._auras.get(key)
        if found is None:
            spaces = set()
            units = self.units
            for uid in self.on_board_of(owner):
                if self.has(uid, ability):
                    q, r = units[uid]["at"]
                    spaces.add((q, r))
                    spaces.update((q + dq, r + dr) for dq, dr in DIRECTIONS)
            found = self._auras[key] = frozenset(spaces)
        return found

    def enemies(self, owner: PlayerId) -> list[tuple[str, Hex]]:
        """The ids and spaces of the units of every player but ``owner`` on the board, in
        ``state["units"]`` order: what a search for targets or Melee restrictions goes through."""
        found = self._enemy_units.get(owner)
        if found is None:
            units = self.units
            # occ: the units on the board in state order, with their spaces
            found = self._enemy_units[owner] = [
                (uid, h) for h, uid in self.occ.items() if units[uid]["owner"] != owner
            ]
        return found

    def in_melee(self, owner: PlayerId, h: Hex) -> bool:
        """:func:`board.in_melee`: a unit of another player than ``owner`` stands next to the
        board space ``h`` (units stand only on the board)."""
        return not self.enemy_spaces(owner).isdisjoint(self.geo.adjacent[h])

    def enemy_spaces(self, owner: PlayerId) -> frozenset[Hex]:
        """The spaces of the units of every player but ``owner``."""
        found = self._enemies.get(owner)
        if found is None:
            found = self._enemies[owner] = shared(frozenset(h for _, h in self.enemies(owner)))
        return found

    def imposing(self, owner: PlayerId) -> frozenset[Hex]:
        """The spaces of the enemies that impose the Melee restrictions on ``owner``'s units:
        every enemy but a Stealth one not in melee since the start of the turn (seed, Stealth)."""
        found = self._imposing.get(owner)
        if found is None:
            in_melee_at_start = {uid for pair in self.engaged for uid in pair}
            hidden = self.hidden
            found = self._imposing[owner] = shared(
                frozenset(
                    h
                    for uid, h in self.enemies(owner)
                    if uid in in_melee_at_start or uid not in hidden
                )
            )
        return found

    def restricting(self, owner: PlayerId) -> frozenset[Hex]:
        """For ``owner``'s units, the spaces next to an enemy that imposes the Melee restrictions
        (:meth:`imposing`)."""
        found = self._restricting.get(owner)
        if found is None:
            found = self._restricting[owner] = frozenset(
                {(q + dq, r + dr) for q, r in self.imposing(owner) for dq, dr in DIRECTIONS}
            )
        return found

    def blocked(self, owner: PlayerId) -> frozenset[tuple[Hex, Hex]]:
        """:func:`walls.blocked_edges` of ``owner``."""
        found = self._blocked.get(owner)
        if found is None:
            found = self._blocked[owner] = shared(blocked_edges(self.state, owner))
        return found

    def steps(self, owner: PlayerId) -> dict[Hex, tuple[Hex, ...]]:
        """Each board space's neighbours that ``owner``'s units may step to from it: those of
        ``Geometry.adjacent`` but across the edges of :meth:`blocked`."""
        return open_steps(self.geo, self.blocked(owner))

    def enemy_walls(self, owner: PlayerId) -> list[tuple[str, Hex, Hex]]:
        """The walls of every player but ``owner``, as (id, space, space), in state order (kept
        per walls list, :func:`walls.memo`: walls change seldom)."""
        walls = self.state["walls"]
        kept = memo(walls)
        found = kept.get(("enemy", owner))
        if found is None:
            found = kept[("enemy", owner)] = [
                (w["id"], *wall_spaces(w)) for w in walls if w["owner"] != owner
            ]
        return found

    def enemy_wall_spaces(self, owner: PlayerId) -> frozenset[Hex]:
        """The two spaces of each of :meth:`enemy_walls` (kept per walls list, as those)."""
        kept = memo(self.state["walls"])
        found = kept.get(("enemy_spaces", owner))
        if found is None:
            found = kept[("enemy_spaces", owner)] = frozenset(
                h for _, a, b in self.enemy_walls(owner) for h in (a, b)
            )
        return found

    def walls_near(self, owner: PlayerId, h: Hex, radius: int) -> list[tuple[str, Hex, Hex]]:
        """Those of :meth:`enemy_walls` with a space within ``radius`` of ``h`` (all of them when
        ``radius`` is over 2), in state order: every wall that can be within ``radius`` of ``h``
        for attacking it (:func:`walls.edge_distance` is the distance to the nearer space, or
        more), and usually a few of many Castle walls."""
        walls = self.enemy_walls(owner)
        if radius > _NEAR_MAX:
            return walls
        q, r = h
        spaces = {(q + dq, r + dr) for dq, dr in disc(radius)}
        return [w for w in walls if w[1] in spaces or w[2] in spaces]
