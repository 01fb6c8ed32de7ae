"""Small helpers every determinizer uses: an unseen pool dealt out with the bot's generator.

The pool is always built in an order fixed by the view (sorted ids), then shuffled with the
bot's own ``random.Random``: so a determinization depends on the view and the bot's seed only.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable

from rules.engine_types import State
from rules.rng import MAX_SEED

__all__ = ["Pool", "fresh_chance", "spread"]


class Pool:
    """The cards (or units) a viewer cannot place, shuffled, dealt from the top."""

    def __init__(self, ids: Iterable[str], rng: random.Random) -> None:
        self._ids = sorted(ids)
        rng.shuffle(self._ids)

    def take(self, count: int) -> list[str]:
        """``count`` ids; ValueError when the view promised more than there are (a bad view)."""
        if count > len(self._ids):
            raise ValueError(f"the view needs {count} unseen ids, only {len(self._ids)} are left")
        taken, self._ids = self._ids[:count], self._ids[count:]
        return taken

    def take_where(self, accept: Callable[[str], bool]) -> str:
        """The first id ``accept`` likes (the pool is shuffled, so a random one)."""
        for i, cid in enumerate(self._ids):
            if accept(cid):
                return self._ids.pop(i)
        raise ValueError("no unseen id fits the view")

    def left(self) -> int:
        return len(self._ids)


def fresh_chance(state: State, rng: random.Random) -> State:
    """``state`` with a ``seed`` and generator of the bot's own: the real ones are never seen."""
    state["seed"] = rng.randrange(MAX_SEED + 1)
    state["rng"] = f"{rng.getrandbits(64):016x}"
    return state


def spread(value: float, scale: float) -> float:
    """A score difference mapped into (0, 1): 0.5 when even, near 1 when far ahead."""
    return 0.5 + 0.5 * math.tanh(value / scale)
