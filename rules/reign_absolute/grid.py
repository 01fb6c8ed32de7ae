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
    "neighbours",
    "occupancy",
    "units_of",
    "empty_cells_next_to",
    "cell_of",
]

Cell = tuple[int, int]
MIDDLE: Cell = (0, 0)
COORD_LIMIT = 100_000
"""No cell is farther than this from the middle (a bound for integrity checks; the turn limit
keeps real games far inside it)."""
STEPS = ((0, -1), (1, 0), (0, 1), (-1, 0))
"""The four orthogonal directions: up, right, down, left."""


def neighbours(cell: Cell) -> list[Cell]:
    """The four orthogonal neighbours of ``cell`` (up, right, down, left)."""
    x, y = cell
    return [(x + dx, y + dy) for dx, dy in STEPS]


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
