"""The cards: the six factions and their abilities, the default deck, custom decks.

Seed §Card Abilities; rulings R&R 1 (default deck of 54 cards, the six factions with values 1
to 9 each; a custom deck may be given in ``options``).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from typing import Any

from rules.engine_types import Violation
from rules.integrity import is_int
from rules.reign_and_ruin import rulebook
from rules.shown_text import LookAlikes, id_violation

__all__ = [
    "FACTIONS",
    "FACTION_IDS",
    "ABILITY_FACTION",
    "FACTION_ABILITY",
    "MIN_VALUE",
    "MAX_VALUE",
    "MAX_KURGOZ",
    "CARDS_PER_PLAYER",
    "MAX_DECK",
    "MAX_CARD_ID",
    "CardSpec",
    "default_cards",
    "default_catalog",
    "default_deck",
    "build_deck",
    "catalogue",
]

FACTIONS: tuple[dict[str, str], ...] = tuple(
    json.loads(
        resources.files("rules.reign_and_ruin").joinpath("data/factions.json").read_text("utf-8")
    )
)
"""The six factions in the order of the rule text, each with its ability (the move type)."""

FACTION_IDS: frozenset[str] = frozenset(f["id"] for f in FACTIONS)
FACTION_ABILITY: dict[str, str] = {f["id"]: f["ability"] for f in FACTIONS}
"""Faction id -> the move type of its ability."""
ABILITY_FACTION: dict[str, str] = {f["ability"]: f["id"] for f in FACTIONS}
"""Ability move type -> the only faction whose cards may use it."""

MIN_VALUE = 1
MAX_VALUE = 99
"""Card values allowed in a custom deck (the default deck uses 1 to 9)."""
MAX_KURGOZ = 30
"""Service limit on Kurgoz tokens per fighter (rules doc, Kurgoz): keeps every worth and total
exact in JSON consumers with 53-bit numbers, and bounds the work a crafted state can ask for."""
CARDS_PER_PLAYER = 7
"""Seed §Setup: seven cards are dealt to each player."""
MAX_DECK = 1000
"""Service limit on the cards of a custom deck (rules doc, Deck): about 18 default decks. It
bounds the size of a state, so that every request with the largest deck is answered quickly."""
MAX_CARD_ID = 64
"""Service limit on the length of a custom card's id (rules doc, Deck), as the Council's: with
ids of any length, a deck could make the states of a game differ in size by megabytes according
to who holds which card, and a state's size must not tell hidden cards apart
(``api.session_store.PLAY_GROWTH``)."""

_CARD_KEYS = frozenset({"id", "faction", "value"})


CardSpec = tuple[str, str, int]
"""A card as ``(id, faction, value)``."""


@lru_cache(maxsize=1)
def default_cards() -> tuple[CardSpec, ...]:
    """The default deck read once from ``data/deck.json`` (rulings R&R 1: 54 cards, the six
    factions with values 1 to 9 each). Faction ids are interned, as the rules' own literals are:
    every listing asks each card's faction (``faction == "hexen"``), and equal strings that are
    one object compare at once."""
    text = resources.files("rules.reign_and_ruin").joinpath("data/deck.json").read_text("utf-8")
    return tuple((c["id"], sys.intern(c["faction"]), c["value"]) for c in json.loads(text))


@lru_cache(maxsize=1)
def default_catalog() -> dict[str, dict[str, Any]]:
    """The default deck as a state's ``cards`` map. Shared and cached: never modify it; it exists so
    that checks can recognise the common case with one comparison."""
    return {i: {"faction": f, "value": v} for i, f, v in default_cards()}


def default_deck() -> list[dict[str, Any]]:
    """The default deck as a fresh list of ``{"id", "faction", "value"}``."""
    return [{"id": i, "faction": f, "value": v} for i, f, v in default_cards()]


def build_deck(spec: Any, player_count: int) -> tuple[list[CardSpec], list[Violation]]:
    """Read ``options.deck``: a list of ``{"faction", "value"}`` with an optional ``"id"``.

    Explicit ids are kept: of 1 to :data:`MAX_CARD_ID` characters, from the safe set of
    :mod:`rules.shown_text`, and no two alike (equal, or differing only by case or confusable
    characters). A missing id becomes ``"<faction>-<value>"``, or ``"<faction>-<value>-2"``,
    ``-3``... when that id is already taken, or looked like, by an earlier card or by any
    explicit id. The deck must hold at least seven cards per
    player (seed §Setup deals seven to each). Returns the cards and the violations found.
    """
    found: list[Violation] = []
    if not isinstance(spec, list):
        return [], [Violation("bad_deck", "options.deck must be a list of cards.", rulebook.DECK)]
    if len(spec) > MAX_DECK:  # refused before looking at any card: bounded cost
        return [], [
            Violation(
                "deck_too_large",
                f"A custom deck holds at most {MAX_DECK} cards, not {len(spec)}.",
                rulebook.DECK,
            )
        ]
    given = LookAlikes()
    for i, entry in enumerate(spec):
        where = f"options.deck.{i}"
        if not isinstance(entry, dict):
            found.append(
                Violation(
                    "bad_card", f"{where} must be an object with faction and value.", rulebook.DECK
                )
            )
            continue
        unknown = sorted(str(k) for k in entry if k not in _CARD_KEYS)
        if unknown:
            found.append(
                Violation(
                    "bad_card",
                    f"{where} has unknown field(s): {', '.join(unknown)}.",
                    rulebook.DECK,
                )
            )
        if entry.get("faction") not in FACTION_IDS:
            found.append(
                Violation(
                    "unknown_faction",
                    f"{where}.faction must be one of {', '.join(f['id'] for f in FACTIONS)}.",
                    rulebook.DECK,
                )
            )
        value = entry.get("value")
        if not is_int(value) or not MIN_VALUE <= value <= MAX_VALUE:
            found.append(
                Violation(
                    "bad_value",
                    f"{where}.value must be a whole number from {MIN_VALUE} to {MAX_VALUE}.",
                    rulebook.DECK,
                )
            )
        if "id" in entry:
            codes = ("bad_card_id", "duplicate_card_id")
            found_id = id_violation(
                f"{where}.id", entry["id"], "card", given, codes, rulebook.DECK, MAX_CARD_ID
            )
            if found_id is not None:
                found.append(found_id)
    needed = CARDS_PER_PLAYER * player_count
    if len(spec) < needed:
        found.append(
            Violation(
                "deck_too_small",
                f"A deck for {player_count} players needs at least {needed} cards "
                f"({CARDS_PER_PLAYER} per player), not {len(spec)}.",
                rulebook.DECK,
            )
        )
    if found:
        return [], found
    last_suffix: dict[str, int] = {}  # base -> the last n tried: each base's search resumes there
    deck: list[CardSpec] = []
    for entry in spec:
        card_id = entry.get("id")
        if card_id is None:
            base = f"{entry['faction']}-{entry['value']}"
            n = last_suffix.get(base, 1)
            card_id = base if n == 1 else f"{base}-{n}"
            while given.like(card_id) is not None:
                n += 1
                card_id = f"{base}-{n}"
            last_suffix[base] = n
            given.add(card_id)
        deck.append((card_id, entry["faction"], entry["value"]))
    return deck, []


def catalogue(deck: Sequence[CardSpec]) -> dict[str, dict[str, Any]]:
    """The state's ``cards`` map: card id -> ``{"faction", "value"}``, every entry a dict of its
    own. The default deck's is copied from :func:`default_catalog`, which is faster than
    building it: every random playout deals one."""
    if deck is default_cards():
        return {i: card.copy() for i, card in default_catalog().items()}
    return {i: {"faction": f, "value": v} for i, f, v in deck}
