"""Who sits where in the current reign: the Monarch and the advisors in seat order.

Seed 004 §Game setup ("The player to the left of the Monarch ...") and rulings RtC 1, and the
seating convention of the rulings (``players`` is in clockwise seat order, "the player on your
left" is the next seat). The lowest floor of the package's rules: it reads the state and
imports no other module of the package.
"""

from __future__ import annotations

from rules.engine import seats_after
from rules.engine_types import PlayerId, State

__all__ = ["monarch", "advisors"]


def monarch(state: State) -> PlayerId:
    """The Monarch of the current reign."""
    return state["reigns"][-1]["monarch"]


def advisors(state: State) -> list[PlayerId]:
    """Every player but the Monarch, in seat order from the Monarch's left. This is the order
    in which advisors draw and in which simultaneous choices are listed."""
    return seats_after(state["players"], monarch(state))
