"""Mines and Ruins: who holds them (seed: Midfield; ruling RS 15).

"At the beginning of the game, no one owns these points, but when a player moves a unit over the
space, they gain and maintain control of it until another player claims it by moving over the
space." Ruling RS 15: any unit that enters the space claims it for its owner, passing through
included, and so does a unit that a card, Knockback or Teleport puts there. Standing on it is not
needed to keep it. ``state["control"]`` lists each Mine's and Ruin's holder (None: nobody), in the
scenario's order.
"""

from __future__ import annotations

from collections.abc import Iterable

from rules.engine_types import Event, State
from rules.reign_supreme.board import Geometry
from rules.reign_supreme.hexes import Hex, as_json

__all__ = ["claim"]


def claim(state: State, geo: Geometry, uid: str, spaces: Iterable[Hex]) -> list[Event]:
    """Unit ``uid`` has entered ``spaces`` (in order): its owner takes each Mine and Ruin among
    them that another player (or nobody) holds. Mutates ``state``; returns ``mine_taken`` and
    ``ruin_taken`` events."""
    owner = state["units"][uid]["owner"]
    control = state["control"]
    events: list[Event] = []
    for h in spaces:
        for key, spots, kind in (
            ("mines", geo.mines, "mine_taken"),
            ("ruins", geo.ruins, "ruin_taken"),
        ):
            for i, spot in enumerate(spots):
                if spot == h and control[key][i] != owner:
                    before = control[key][i]
                    control[key][i] = owner
                    events.append({"type": kind, "player": owner, "at": as_json(h), "from": before})
    return events
