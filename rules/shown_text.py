"""The text of custom content that every player is shown: its ids and its names.

A custom deck, card set, race or roster is written by one client (a session's creator) and then
shown to every player of the game: in views, events, errors, records and pictures. Like a player
id (:mod:`rules.player_ids`, issue 24), it must not be able to lie about itself:

- **An id** (a card's, a race's, a unit's) is from the player ids' safe set: PRECIS
  ``UsernameCasePreserved`` (RFC 8265 §3.4), already in its enforced form (no control, format or
  space characters, NFC). And no two ids of one kind look alike: two ids that differ only by
  case or by confusable characters (Unicode TR 39 skeletons, as for player ids:
  :func:`rules.player_ids.look_alike_keys`) would let ``hexen-4`` and ``hехen-4`` (Cyrillic е)
  name two cards of different values.
- **A name** (a title, a description, a card's text) is free text, but holds no control,
  format, private-use, surrogate or unassigned character, nor a line or paragraph separator
  (Unicode general categories Cc, Cf, Co, Cs, Cn, Zl, Zp): no newline to forge a line of a log
  or a picture, no bidirectional override to
  make it read backwards, no zero-width character to hide in it.

Each game keeps its own violation codes and limits; the rule of what is safe is this module's.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from rules.engine_types import Violation
from rules.player_ids import LookAlikes, id_problem

__all__ = ["id_problem", "text_problem", "LookAlikes", "taken", "id_violation"]

_UNSHOWN = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})
"""The general categories a name may not hold (see the module docstring)."""


def text_problem(text: str) -> str | None:
    """Why ``text`` may not be shown as a name (a sentence without the text), or None when it
    may: the first character of a category in :data:`_UNSHOWN`."""
    for i, char in enumerate(text):
        if unicodedata.category(char) in _UNSHOWN:
            return (
                f"holds a control, format, separator or unassigned character at position {i} "
                f"(U+{ord(char):04X})"
            )
    return None


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


def id_violation(
    where: str,
    value: Any,
    kind: str,
    given: LookAlikes,
    codes: tuple[str, str],
    rule: str,
    longest: int,
) -> Violation | None:
    """Why ``value`` may not be the id at ``where`` of a custom ``kind`` (``"card"``): the first
    code of ``codes`` when it is not a string of 1 to ``longest`` characters of the safe set, the
    second when it is like an id of ``given`` (the ids of that kind so far). None when it may: it
    is then one of ``given``."""
    bad, duplicate = codes
    if not isinstance(value, str) or not 1 <= len(value) <= longest:
        return Violation(bad, f"{where} must be a string of 1 to {longest} characters.", rule)
    problem = id_problem(value)
    if problem is not None:
        return Violation(bad, f"{where} {value!r} {problem}.", rule)
    other = given.like(value)
    if other is not None:
        return Violation(
            duplicate, f"{where} {value!r} {taken(value, other, f'another {kind}')}.", rule
        )
    given.add(value)
    return None
