"""The battlefield: an unbounded square grid of integer cells (rulings RA 1).

"The middle" is ``(0, 0)``; *adjacent* means orthogonally next to (seed: "There is no diagonal
utilisation in this game"). ``state["battlefield"]`` maps a unit id to ``{"x", "y", "owner",
"reinforcements"}``; these helpers answer questions about it.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "MIDDLE",
    "COORD_LIMIT",
    "STEPS",
    "Cell",
    "in_bounds",
    "near_the_edge",
    "neighbours",
    "occupancy",
    "units_of",
    "empty_cells_next_to",
    "cell_of",
]

Cell = tuple[int, int]
MIDDLE: Cell = (0, 0)
COORD_LIMIT = 100_000
"""No cell is farther than this from the middle, along either axis: the service's bound on the
unbounded grid of the rulings, checked in every state and kept by every move (nothing steps,
leaps or is placed past it); the turn limit keeps real games far inside it."""
STEPS = ((0, -1), (1, 0), (0, 1), (-1, 0))
"""The four orthogonal directions: up, right, down, left."""


def in_bounds(cell: Cell) -> bool:
    """Whether ``cell`` is within ``COORD_LIMIT`` of the middle along both axes."""
    return abs(cell[0]) <= COORD_LIMIT and abs(cell[1]) <= COORD_LIMIT


def near_the_edge(cell: Cell) -> bool:
    """Whether a neighbour of ``cell`` may lie past ``COORD_LIMIT``."""
    return abs(cell[0]) >= COORD_LIMIT or abs(cell[1]) >= COORD_LIMIT


def neighbours(cell: Cell) -> list[Cell]:
    """The orthogonal neighbours of ``cell`` (up, right, down, left): four, but at the edge of
    the service's battlefield (``COORD_LIMIT``)."""
    x, y = cell
    found = [(x + dx, y + dy) for dx, dy in STEPS]
    return [c for c in found if in_bounds(c)] if near_the_edge(cell) else found


def occupancy(battlefield: dict[str, dict[str, Any]]) -> dict[Cell, str]:
    """Cell -> the unit standing there."""
    return {(e["x"], e["y"]): uid for uid, e in battlefield.items()}


def cell_of(entry: dict[str, Any]) -> Cell:
    return entry["x"], entry["y"]


def units_of(battlefield: dict[str, dict[str, Any]], player: str) -> list[str]:
    """``player``'s units on the battlefield, sorted by id."""
    return sorted(uid for uid, e in battlefield.items() if e["owner"] == player)


def empty_cells_next_to(cells: list[Cell], occupied: dict[Cell, str]) -> list[Cell]:
    """The empty cells orthogonally next to any of ``cells``, sorted."""
    found = {n for c in cells for n in neighbours(c) if n not in occupied}
    return sorted(found)
