"""A compact, serializable, seedable random generator (SplitMix64).

All chance in every game comes from one of these, stored in the state as 16 hex digits, so
``apply`` stays a pure function and a game replays exactly from its seed and moves. Only integer
arithmetic is used, so results are identical on every Python version (unlike ``random.Random``,
whose algorithms and state format are not a stable contract).
"""

from __future__ import annotations

import functools
import sys
from array import array
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

        Every game's setup shuffles a deck, a sixth of a Reign & Ruin playout's time when each
        draw was worked out alone (issue 28), so the draws are made all at once
        (:func:`_outputs`). A draw :meth:`below` would reject (odds under ``2**-32`` each)
        ends that: the rest of the shuffle goes on one :meth:`below` at a time, from the state
        after the rejected draw. ``tests/rules/test_rng.py`` checks that the permutation and the
        state after are exactly those of ``below``, a rejection included."""
        if len(seq) > _SHORT:
            raise ValueError(f"shuffle() takes at most {_SHORT} items")
        last = len(seq) - 1
        start = self._state
        for i, x in zip(range(last, 0, -1), _outputs(start, last), strict=True):
            if x >= _SURELY_BELOW_LIMIT and x >= _SPAN - _SPAN % (i + 1):
                drawn = last - i + 1  # this rejected draw included
                self._state = (start + drawn * _GOLDEN) & _MASK
                for k in range(i, 0, -1):
                    j = self.below(k + 1)
                    seq[k], seq[j] = seq[j], seq[k]
                return
            j = x % (i + 1)
            seq[i], seq[j] = seq[j], seq[i]
        self._state = (start + max(last, 0) * _GOLDEN) & _MASK


_LANES = 64
"""At most this many outputs are worked out at once by :func:`_outputs`: a deck's worth, in a
few KB of integer."""


@functools.lru_cache(maxsize=_LANES)
def _lanes(count: int) -> tuple[int, int, int]:
    """For :func:`_outputs`: three integers of ``count`` 128-bit lanes each, lane ``k`` (from
    the lowest, 0-based) holding 1, ``(k + 1) * _GOLDEN`` and ``_MASK``."""
    ones = int.from_bytes((b"\x01" + bytes(15)) * count, "little")
    steps = b"".join(((k + 1) * _GOLDEN).to_bytes(16, "little") for k in range(count))
    return ones, int.from_bytes(steps, "little"), _MASK * ones


def _outputs(state: int, count: int) -> array[int]:
    """The next ``count`` outputs of :meth:`Rng.next_u64` from ``state``, up to ``_LANES`` at
    a time.

    The steps of ``next_u64`` are done once on one integer that holds each output in its own
    128-bit lane: a lane's value is below ``2**64``, so its product with a 64-bit constant still
    fits in the lane, a shift's bits from the next lane land where the lane mask clears them,
    and masking every lane to 64 bits is each step's ``& _MASK``."""
    draws = array("Q")
    while len(draws) < count:
        lanes = min(count - len(draws), _LANES)
        ones, steps, low = _lanes(lanes)
        z = (state * ones + steps) & low
        z = ((z ^ ((z >> 30) & low)) * 0xBF58476D1CE4E5B9) & low
        z = ((z ^ ((z >> 27) & low)) * 0x94D049BB133111EB) & low
        z ^= (z >> 31) & low
        words = array("Q", z.to_bytes(16 * lanes, "little"))
        if sys.byteorder == "big":
            words.byteswap()
        draws += words[::2]
        state = (state + lanes * _GOLDEN) & _MASK
    return draws
