"""A compact, serializable, seedable random generator (SplitMix64).

All chance in every game comes from one of these, stored in the state as 16 hex digits, so
``apply`` stays a pure function and a game replays exactly from its seed and moves. Only integer
arithmetic is used, so results are identical on every Python version (unlike ``random.Random``,
whose algorithms and state format are not a stable contract).
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

__all__ = ["Rng", "MAX_SEED"]

T = TypeVar("T")

_SPAN = 1 << 64
_MASK = _SPAN - 1
_SHORT = 1 << 32
"""The longest sequence :meth:`Rng.shuffle` takes (far more than any deck)."""
_SURELY_BELOW_LIMIT = _SPAN - _SHORT
"""A draw below this is below ``below(n)``'s rejection limit ``2**64 - 2**64 % n`` for every
``n <= _SHORT``, since ``2**64 % n < n``."""
_GOLDEN = 0x9E3779B97F4A7C15
MAX_SEED = (1 << 63) - 1
_HEX_DIGITS = frozenset("0123456789abcdef")


class Rng:
    """SplitMix64 (Steele, Lea and Flood, 2014). ``str(rng)`` is its whole state."""

    __slots__ = ("_state",)

    def __init__(self, state: int) -> None:
        self._state = state & _MASK

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        """A generator for ``seed``; distinct seeds give unrelated streams."""
        rng = cls(seed)
        rng._state = rng.next_u64()  # one scramble so small seeds do not start near each other
        return rng

    @classmethod
    def parse(cls, text: str) -> Rng:
        """Read a state written by ``str()``: exactly 16 lowercase hex digits."""
        if len(text) != 16 or not _HEX_DIGITS.issuperset(text):
            raise ValueError("an rng state is 16 lowercase hex digits")
        return cls(int(text, 16))

    def __str__(self) -> str:
        return f"{self._state:016x}"

    def next_u64(self) -> int:
        self._state = (self._state + _GOLDEN) & _MASK
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, without modulo bias (rejection sampling)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = _SPAN - _SPAN % n
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.below(len(seq))]

    def shuffle(self, seq: MutableSequence[T]) -> None:
        """Fisher–Yates, in place: for each index ``i`` from the last down to 1, swap with
        ``j = below(i + 1)``.

        Every game's setup shuffles a deck, so the steps of :meth:`below` and :meth:`next_u64`
        are written out here, on a local copy of the state, and the rejection limit is worked
        out only for a draw near the top of the range; ``tests/rules/test_rng.py`` checks that
        the result is exactly that of ``below``."""
        if len(seq) > _SHORT:
            raise ValueError(f"shuffle() takes at most {_SHORT} items")
        state = self._state
        for i in range(len(seq) - 1, 0, -1):
            n = i + 1
            while True:
                state = (state + _GOLDEN) & _MASK
                z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
                x = z ^ (z >> 31)
                if x < _SURELY_BELOW_LIMIT or x < _SPAN - _SPAN % n:
                    break
            j = x % n
            seq[i], seq[j] = seq[j], seq[i]
        self._state = state
