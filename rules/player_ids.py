"""Player ids: the safe set every game's setup accepts, and when two ids are the same seat.

A player id is shown to other players (views, events, errors, history), so it must not be able
to lie about itself. The safe set (issue 24):

- **PRECIS** (RFC 8264, profile ``UsernameCasePreserved`` of RFC 8265 §3.4): letters, digits
  and the ASCII punctuation and symbols of the IdentifierClass; no control characters (NUL,
  newlines), no format characters (bidi overrides, zero-width joiners), no spaces, no
  compatibility characters (fullwidth forms, ligatures), the Bidi Rule of RFC 5893.
- **Stable**: the id must already be what the profile's enforcement makes of it (in particular
  NFC). It is refused, never silently normalised, so an id round-trips byte for byte.
- **Distinct**: two ids are the same seat when they differ only by case or by confusable
  characters: their Unicode TR 39 skeletons (§4, the confusables data), of the id, of its case
  fold and of its skeleton's case fold, meet. ``ann``, ``Ann`` and ``аnn`` (Cyrillic а) are one
  seat; ``I1`` and ``l1`` too; ``bob`` and ``Вob`` (Cyrillic В) too.

Pure: the confusables data is the ``confusable-homoglyphs`` package's (Unicode's
``confusables.txt`` as JSON), read once.
"""

from __future__ import annotations

import functools
import json
import unicodedata
from collections.abc import Sequence
from importlib import resources

import precis_i18n

__all__ = ["PROFILE", "id_problem", "skeleton", "look_alike_keys", "look_alikes", "LookAlikes"]

PROFILE = "UsernameCasePreserved"
"""The PRECIS profile (RFC 8265 §3.4) a player id must be stable under."""
_LRM = "\u200e"
"""The confusables JSON wraps right-to-left characters in LEFT-TO-RIGHT MARKs for display."""


@functools.cache
def _profile() -> precis_i18n.profile.Profile:
    return precis_i18n.get_profile(PROFILE)


_CACHED_IDS = 1024
"""How many ids' answers :func:`id_problem` and :func:`look_alike_keys` remember: the same few
ids come back in every setup of a session, of a benchmark or of a test (both are pure)."""


@functools.lru_cache(maxsize=_CACHED_IDS)
def id_problem(player: str) -> str | None:
    """Why ``player`` is not a safe player id (a sentence without the id), or None when it is.

    PRECIS ``UsernameCasePreserved`` (RFC 8265 §3.4) decides the characters; an id that its
    enforcement would change (not NFC, fullwidth letters...) is refused rather than changed."""
    try:
        enforced = _profile().enforce(player)
    except UnicodeError as err:  # UnicodeEncodeError: which character, and why (DISALLOWED/...)
        reason = getattr(err, "reason", str(err))
        start = getattr(err, "start", None)
        char = player[start] if isinstance(start, int) and start < len(player) else None
        where = f" at position {start} (U+{ord(char):04X})" if char is not None else ""
        return f"holds a character outside the PRECIS username set{where}: {reason}"
    if enforced != player:
        return (
            "is not in its PRECIS form (RFC 8265 UsernameCasePreserved: NFC, no fullwidth or "
            f"compatibility characters); it would read {enforced[:64]!r}"
        )
    return None


@functools.cache
def _prototypes() -> dict[str, str]:
    """Character -> its TR 39 prototype (the skeleton of that one character).

    ``confusables.json`` lists, for each prototype, the characters confusable with it, and for
    each such character its prototype; so every pair links a character to its class. The
    classes (union-find over single characters) are ``confusables.txt``'s: a prototype with its
    sources. A character whose prototype is a sequence maps to that sequence. Which member
    stands for a class does not matter: only equality of skeletons is used."""
    raw = json.loads(
        resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8")
    )
    parent: dict[str, str] = {}

    def find(c: str) -> str:
        parent.setdefault(c, c)
        while parent[c] != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    sequences: dict[str, str] = {}
    for key, homoglyphs in raw.items():
        key = key.replace(_LRM, "")
        for entry in homoglyphs:
            other = entry["c"].replace(_LRM, "")
            if len(key) == 1 and len(other) == 1:
                a, b = find(key), find(other)
                if a != b:
                    parent[max(a, b)] = min(a, b)
            elif len(key) == 1 and other:
                sequences.setdefault(key, other)
            elif len(other) == 1 and key:
                sequences.setdefault(other, key)
    table = {c: find(c) for c in parent}
    table.update(sequences)
    return table


def skeleton(text: str) -> str:
    """The Unicode TR 39 §4 skeleton: NFD, each character replaced by its prototype, NFD again.
    Two strings are confusable when their skeletons are equal."""
    table = _prototypes()
    mapped = "".join(table.get(c, c) for c in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


@functools.lru_cache(maxsize=_CACHED_IDS)
def look_alike_keys(player: str) -> frozenset[str]:
    """The keys under which ``player`` collides with another id: the skeleton of the id, of its
    case fold, and of its skeleton's case fold (so ``Ann`` meets ``ann``, ``Ian`` meets ``lan``,
    and ``Вob``, Cyrillic В, meets ``bob``: its skeleton is ``Bob``, while its case fold ``вob``
    is like no Latin letter)."""
    shape = skeleton(player)
    return frozenset({shape, skeleton(player.casefold()), skeleton(shape.casefold())})


class LookAlikes:
    """The ids of one kind given so far, each under its :func:`look_alike_keys`, to tell which
    earlier id a new one would be taken for."""

    def __init__(self) -> None:
        self._first: dict[str, tuple[int, str]] = {}  # key -> (order given, the id)

    def like(self, text: str) -> str | None:
        """The earliest id given that ``text`` equals or looks like, or None."""
        found = [self._first[k] for k in look_alike_keys(text) if k in self._first]
        return min(found)[1] if found else None

    def add(self, text: str) -> None:
        order = len(self._first)
        for key in look_alike_keys(text):
            self._first.setdefault(key, (order, text))


def look_alikes(players: Sequence[str]) -> list[tuple[int, int]]:
    """``(i, j)`` for each id ``players[i]`` that is the same seat as an earlier ``players[j]``
    (equal, or differing only by case or confusable characters), ``j`` the first such."""
    keys = [look_alike_keys(player) for player in players]
    if len(frozenset().union(*keys)) == sum(map(len, keys)):
        return []  # no key shared, so no two ids alike: every setup's case, found at once
    given = LookAlikes()
    found: list[tuple[int, int]] = []
    for i, player in enumerate(players):
        earlier = given.like(player)
        if earlier is not None:
            found.append((i, players.index(earlier)))
        given.add(player)
    return found
