"""Hex geometry in axial coordinates (ruling RS 2: "hex grid, axial coordinates").

A hex is ``(q, r)``; in JSON it is the two-item list ``[q, r]``. The six neighbours differ by
the six axial directions; the distance between two hexes is the number of steps between them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cache
from typing import Any

__all__ = ["Hex", "DIRECTIONS", "neighbours", "distance", "disc", "as_hex", "hex_of", "as_json"]

Hex = tuple[int, int]

DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
"""The six axial directions, counter-clockwise from "east"."""


def neighbours(h: Hex) -> Iterator[Hex]:
    """The six hexes adjacent to ``h`` (whether on the board or not)."""
    q, r = h
    for dq, dr in DIRECTIONS:
        yield (q + dq, r + dr)


def distance(a: Hex, b: Hex) -> int:
    """Steps from ``a`` to ``b`` on an unobstructed hex grid."""
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


@cache
def disc(radius: int) -> tuple[Hex, ...]:
    """The offsets of the hexes within ``radius`` steps of a hex (itself included), sorted
    (``spells._teleport_spaces`` lists its spaces in this order)."""
    return tuple(
        (dq, dr)
        for dq in range(-radius, radius + 1)
        for dr in range(-radius, radius + 1)
        if (abs(dq) + abs(dr) + abs(dq + dr)) // 2 <= radius
    )


def as_hex(value: Iterable[int]) -> Hex:
    """A JSON ``[q, r]`` as a hex tuple."""
    q, r = value
    return (q, r)


def hex_of(value: Any) -> Hex | None:
    """A client's JSON value as a hex if it is a space ``[q, r]`` (two integers); else None."""
    if value.__class__ is list and len(value) == 2 and all(type(x) is int for x in value):
        return (value[0], value[1])
    return None


def as_json(h: Hex) -> list[int]:
    """A hex as its JSON ``[q, r]``."""
    return [h[0], h[1]]
