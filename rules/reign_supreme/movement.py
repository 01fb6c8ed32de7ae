"""Movement over the board (seed: Movement, Melee, Move Freely, Stealth, Gates; rules doc
§Movement, §Melee).

Above :mod:`board` (spaces, occupancy) and :mod:`auras` (Stealth) and :mod:`walls` (what blocks
the way): the search of the spaces a unit may end its move on, and the path it takes.
"""

from __future__ import annotations

from itertools import filterfalse
from typing import Any

from rules.engine_types import PlayerId, State
from rules.reign_supreme.hexes import Hex
from rules.reign_supreme.survey import Survey

__all__ = ["reachable", "path_to"]


def reachable(
    state: State, survey: Survey, uid: str, speed: int, move_freely: bool = False
) -> tuple[list[Hex], dict[Hex, Hex | None]]:
    """Every space ``uid`` may end its movement on, with the breadth-first parent links.

    Seed, Movement: a unit moves up to as many spaces as its movement. Ruling (rules doc
    §Movement): a step goes to an adjacent space of the board; a unit may pass through spaces
    of its own side's units but never through an enemy unit, and ends on an empty space.
    Seed, Melee: "a unit in Melee cannot move to another space and still be in melee", which
    holds for every step (rules doc §Melee: the seed's Stealth lets enemies "move around it
    without the Melee restrictions", so moving around a unit is restricted otherwise): from a
    space next to an enemy a unit may only step to a space next to no enemy, so a unit that
    comes into melee stops there or breaks away; and a unit that starts in melee may not end in
    melee. ``move_freely`` lifts the Melee restrictions (seed, Move Freely: Flanking and Stealth
    units); a Stealth enemy not in melee since the start of the turn imposes none. Another
    player's wall (Gate, Palisade) cannot be crossed (seed, Gates). Returns the destinations
    (sorted; never the start) and the search tree ``{space: parent}``, which is shared
    (:func:`_search`): read it, never change it.
    """
    unit = state["units"][uid]
    at = unit["at"]
    parents, ends = _search(survey, unit["owner"], (at[0], at[1]), speed, move_freely)
    # the ends but those a unit stands on (filtered in C: a listing filters every unit's ends)
    return list(filterfalse(survey.occ.__contains__, ends)), parents


_Key = tuple[Any, ...]
_Tree = tuple[dict[Hex, Hex | None], list[Hex]]
_TREES: dict[_Key, _Tree] = {}
_TREES_SIZE = 1024
"""Trees kept at most (a few hundred kilobytes to a few megabytes): a listing looks up about one
tree per unit of the mover, and a playout finds most of them among the last few states."""


def _search(survey: Survey, owner: PlayerId, start: Hex, speed: int, move_freely: bool) -> _Tree:
    """The breadth-first search tree of :func:`reachable` from ``start`` and the spaces where
    the move may end but for the units on them (sorted): a unit that starts in melee (next to an
    enemy that imposes the Melee restrictions, unless it moves freely) may not end in melee. Both
    are shared, never to be changed. They depend only on the board, the walls ``owner`` may not
    cross, the enemies' spaces, the spaces of those that impose the restrictions, ``start`` and
    ``speed``, so they are kept per those: a move changes few of them, and the next listing (and
    ``apply``'s check of a listed move) finds most units' trees unchanged (issue 28)."""
    geo = survey.geo
    blocked = survey.blocked(owner)
    enemies = survey.enemy_spaces(owner)
    # Seed, Stealth: "If the stealth unit is not in Melee that turn, enemy units can move around
    # it without the Melee restrictions" (Survey.imposing leaves such a unit out).
    imposing: frozenset[Hex] = frozenset() if move_freely else survey.imposing(owner)
    key = (geo, blocked, enemies, imposing, start, speed)
    found = _TREES.get(key)
    if found is not None:
        return found
    # the spaces next to those enemies: a step from one may only go to a space next to none
    engaged: frozenset[Hex] = frozenset() if move_freely else survey.restricting(owner)
    steps = survey.steps(owner)  # the board's neighbours, but across no wall it may not cross
    parents: dict[Hex, Hex | None] = {start: None}
    frontier = [start]
    for _ in range(speed):
        nxt = []
        for h in frontier:
            held = h in engaged
            for n in steps.get(h, ()):
                if n not in parents and n not in enemies and not (held and n in engaged):
                    parents[n] = h
                    nxt.append(n)
        if not nxt:
            break
        frontier = nxt
    if start in engaged:  # a unit that starts in melee may not end in melee
        ends = [h for h in parents if h not in engaged]  # never the start, which is in it
    else:
        ends = list(parents)
        del ends[0]  # the start, reached first
    ends.sort()
    if len(_TREES) >= _TREES_SIZE:
        _TREES.clear()
    _TREES[key] = (parents, ends)
    return parents, ends


def path_to(tree: dict[Hex, Hex | None], dest: Hex) -> list[Hex]:
    """The shortest path (start first) through the search tree of :func:`reachable`."""
    path = [dest]
    while tree[path[-1]] is not None:
        path.append(tree[path[-1]])  # type: ignore[arg-type]
    path.reverse()
    return path
