"""The text of custom content that every player is shown: its ids and its names.

A custom deck, card set, race or roster is written by one client (a session's creator) and then
shown to every player of the game: in views, events, errors, records and pictures. Like a player
id (:mod:`rules.player_ids`, issue 24), it must not be able to lie about itself:

- **An id** (a card's, a race's, a unit's) is from the player ids' safe set: PRECIS
  ``UsernameCasePreserved`` (RFC 8265 §3.4), already in its enforced form (no control, format or
  space characters, NFC). And no two ids of one kind look alike: two ids that differ only by
  case or by confusable characters (Unicode TR 39 skeletons, of the id and of its case fold)
  would let ``hexen-4`` and ``hехen-4`` (Cyrillic е) name two cards of different values.
- **A name** (a title, a description, a card's text) is free text, but holds no control,
  format, private-use, surrogate or unassigned character (Unicode general categories Cc, Cf,
  Co, Cs, Cn): no newline to forge a line of a log or a picture, no bidirectional override to
  make it read backwards, no zero-width character to hide in it.

Each game keeps its own violation codes and limits; the rule of what is safe is this module's.
"""

from __future__ import annotations

import unicodedata

from rules.player_ids import id_problem, look_alike_keys

__all__ = ["id_problem", "text_problem", "LookAlikes", "taken"]

_UNSHOWN = frozenset({"Cc", "Cf", "Co", "Cs", "Cn"})
"""The general categories a name may not hold (see the module docstring)."""


def text_problem(text: str) -> str | None:
    """Why ``text`` may not be shown as a name (a sentence without the text), or None when it
    may: the first character of a category in :data:`_UNSHOWN`."""
    for i, char in enumerate(text):
        if unicodedata.category(char) in _UNSHOWN:
            return (
                f"holds a control, format or unassigned character at position {i} "
                f"(U+{ord(char):04X})"
            )
    return None


class LookAlikes:
    """The ids of one kind given so far, each under its look-alike keys
    (:func:`rules.player_ids.look_alike_keys`), to tell which one a new id would be taken for."""

    def __init__(self) -> None:
        self._first: dict[str, str] = {}

    def like(self, text: str) -> str | None:
        """The first id given that ``text`` equals or looks like, or None."""
        for key in look_alike_keys(text):
            found = self._first.get(key)
            if found is not None:
                return found
        return None

    def add(self, text: str) -> None:
        for key in look_alike_keys(text):
            self._first.setdefault(key, text)


def taken(text: str, other: str, owner: str) -> str:
    """The end of a sentence that says why the id ``text`` cannot be given: ``other``, the id
    :meth:`LookAlikes.like` found, of ``owner`` (``"another card"``), is the same or looks
    like it."""
    if text == other:
        return f"is used by {owner}"
    return (
        f"looks like {other!r}, the id of {owner}: they differ only by case or by confusable "
        "characters (Unicode TR 39)"
    )
