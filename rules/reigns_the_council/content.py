"""Content as data: the four pillars and their tracks, the 72 proposal cards, the 24 secret goals.

Seed 004 §Components (State of the Realm board, 24 secret goals, 72 proposals) and §Anatomy
of a proposal card (public back with the affected pillars; white zone = change if accepted;
black zone = change if rejected); rulings RtC 2, 3, 4. A custom deck may replace the default
one through ``options.deck``.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

from rules.engine_types import Violation
from rules.integrity import is_int
from rules.reigns_the_council import rulebook
from rules.shown_text import LookAlikes, id_violation, text_problem

__all__ = [
    "PILLARS",
    "PILLAR_NAMES",
    "TRACK_MIN",
    "TRACK_MAX",
    "HAND_SIZE",
    "DECK_COUNT",
    "MAX_DECK",
    "MAX_CHANGE",
    "MAX_CARD_ID",
    "MAX_TITLE",
    "GOALS",
    "GOAL_SIDES",
    "default_deck",
    "default_catalog",
    "min_deck_size",
    "build_deck",
    "space_points",
    "goal_points",
]


def _data(name: str) -> Any:
    return json.loads(
        resources.files("rules.reigns_the_council").joinpath(f"data/{name}").read_text("utf-8")
    )


PILLAR_INFO: tuple[dict[str, str], ...] = tuple(_data("pillars.json"))
PILLARS: tuple[str, ...] = tuple(p["id"] for p in PILLAR_INFO)
"""The four pillars of society in board order: church, army, people, wealth."""
PILLAR_NAMES: dict[str, str] = {p["id"]: p["name"] for p in PILLAR_INFO}
TRACK_MIN, TRACK_MAX = -5, 5
"""Rulings RtC 2: each track runs from -5 to +5, starting at 0; ±5 are the end spaces."""
HAND_SIZE = 7
"""Seed §Game setup 7: each advisor draws 7 proposal cards."""
DECK_COUNT = 3
"""Seed §Game setup 6: the proposals form three decks of about the same size."""
MAX_DECK = 300
"""Service limit on the number of cards of a custom deck (bounds the size of a state)."""
MAX_CHANGE = 5
"""A zone moves a token by at most 5 spaces per pillar (a whole half-track)."""
MAX_CARD_ID = 64
"""Service limit on the length of a custom card's id: with ids of any length, the states of a
game could differ in size by megabytes according to who holds which card, and a state's size
must not tell hidden cards apart (``api.session_store.PLAY_GROWTH``)."""
MAX_TITLE = 80
"""Service limit on the length of a custom card's title."""
_CARD_KEYS = frozenset({"id", "title", "back", "accept", "reject"})

GOALS: dict[str, dict[str, int]] = {g["id"]: dict(g["sides"]) for g in _data("goals.json")}
"""Rulings RtC 4: the 24 secret goals, every pair of two different pillars with a direction
for each (+1: the pillar strong, -1: the pillar weak). Goal id -> {pillar: side}."""
GOAL_SIDES = (-1, 1)
"""A goal's direction for a pillar: weak (-1) or strong (+1)."""


@lru_cache(maxsize=1)
def default_catalog() -> dict[str, dict[str, Any]]:
    """The default 72 proposals as a state's ``cards`` map. Shared and cached: never modify it."""
    return {
        c["id"]: {
            "title": c["title"],
            "back": c["back"],
            "accept": c["accept"],
            "reject": c["reject"],
        }
        for c in _data("deck.json")
    }


def default_deck() -> list[dict[str, Any]]:
    """The default deck as a fresh list of ``{"id", "title", "back", "accept", "reject"}``."""
    return [
        {
            "id": cid,
            "title": c["title"],
            "back": list(c["back"]),
            "accept": dict(c["accept"]),
            "reject": dict(c["reject"]),
        }
        for cid, c in default_catalog().items()
    ]


def min_deck_size(player_count: int) -> int:
    """The fewest cards a deck needs so that no draw ever finds the decks and the discard pile
    empty: 7 per advisor in hand plus up to 11 cards in the Monarch's pile, plus one to draw
    for each advisor at the end of a round (rules doc §Proposals)."""
    advisors = player_count - 1
    return HAND_SIZE * advisors + 11


def card_problems(where: str, card: Any, with_id: bool) -> list[str]:
    """What is wrong with one card ``{title?, back, accept, reject}`` (and ``id`` when
    ``with_id``); ``[]`` for a sound card. The back lists distinct pillars in board order; each
    zone maps pillars of the back to non-zero whole numbers from -5 to 5; every pillar of the
    back is changed by at least one zone (the back tells the truth)."""
    if not isinstance(card, dict):
        return [f"{where} must be an object with back, accept and reject."]
    allowed = _CARD_KEYS if with_id else _CARD_KEYS - {"id"}
    problems = [
        f"{where} has unknown field {k!r}." for k in sorted(map(str, card)) if k not in allowed
    ]
    title = card.get("title", "")
    if not isinstance(title, str) or len(title) > MAX_TITLE:
        problems.append(f"{where}.title must be a string of at most {MAX_TITLE} characters.")
    elif (problem := text_problem(title)) is not None:
        problems.append(f"{where}.title {problem}.")
    back = card.get("back")
    if (
        not isinstance(back, list)
        or not back
        or any(p not in PILLARS for p in back)
        or len(set(back)) != len(back)
        or back != sorted(back, key=PILLARS.index)
    ):
        problems.append(
            f"{where}.back must list one to four different pillars ({', '.join(PILLARS)}) "
            f"in that order."
        )
        return problems
    touched: set[str] = set()
    for zone in ("accept", "reject"):
        changes = card.get(zone)
        if not isinstance(changes, dict):
            problems.append(f"{where}.{zone} must map pillars to changes.")
            continue
        for pillar, change in changes.items():
            if pillar not in back:
                problems.append(
                    f"{where}.{zone} changes {pillar!r}, which is not on the card's back."
                )
            elif not is_int(change) or change == 0 or abs(change) > MAX_CHANGE:
                problems.append(
                    f"{where}.{zone}.{pillar} must be a non-zero whole number from "
                    f"-{MAX_CHANGE} to {MAX_CHANGE}."
                )
            else:
                touched.add(pillar)
    missing = [p for p in back if p not in touched]
    if missing and not problems:
        problems.append(f"{where}.back shows {', '.join(missing)}, which neither zone changes.")
    return problems


def build_deck(spec: Any, player_count: int) -> tuple[dict[str, dict[str, Any]], list[Violation]]:
    """Read ``options.deck``: a list of ``{"back", "accept", "reject"}`` with optional ``"id"``
    and ``"title"``. Explicit ids are of 1 to :data:`MAX_CARD_ID` characters, from the safe set of
    :mod:`rules.shown_text`, no two alike (equal, or differing only by case or confusable
    characters); a missing id becomes ``"card-<n>"`` (n = position from 1, skipping ids taken
    or looked like). The deck needs at least :func:`min_deck_size` cards and at most ``MAX_DECK``.
    Returns the ``cards`` catalogue and the violations found."""
    if not isinstance(spec, list):
        return {}, [
            Violation(
                "bad_deck", "options.deck must be a list of proposal cards.", rulebook.PROPOSALS
            )
        ]
    found: list[Violation] = []
    needed = min_deck_size(player_count)
    if not needed <= len(spec) <= MAX_DECK:
        found.append(
            Violation(
                "deck_size",
                f"A deck for {player_count} players needs {needed} to "
                f"{MAX_DECK} cards, not {len(spec)}.",
                rulebook.PROPOSALS,
            )
        )
    given = LookAlikes()
    for i, entry in enumerate(spec[: MAX_DECK + 1]):
        where = f"options.deck.{i}"
        found.extend(
            Violation("bad_card", problem, rulebook.PROPOSALS)
            for problem in card_problems(where, entry, with_id=True)[:5]
        )
        if isinstance(entry, dict) and "id" in entry:
            codes = ("bad_card_id", "duplicate_card_id")
            found_id = id_violation(
                f"{where}.id", entry["id"], "card", given, codes, rulebook.PROPOSALS, MAX_CARD_ID
            )
            if found_id is not None:
                found.append(found_id)
        if len(found) >= 50:
            break
    if found:
        return {}, found
    catalog: dict[str, dict[str, Any]] = {}
    for n, entry in enumerate(spec, start=1):
        cid = entry.get("id")
        if cid is None:
            cid, k = f"card-{n}", n
            while given.like(cid) is not None:
                k += len(spec)
                cid = f"card-{k}"
            given.add(cid)
        catalog[cid] = {
            "title": entry.get("title", ""),
            "back": list(entry["back"]),
            "accept": dict(entry["accept"]),
            "reject": dict(entry["reject"]),
        }
    return catalog, []


def space_points(value: int) -> int:
    """Rulings RtC 2: a space scores its distance from the centre (1 to 4); an end space 5."""
    return abs(value)


def goal_points(goal: dict[str, int], tracks: dict[str, int]) -> dict[str, int]:
    """Seed §End of a reign scoring: for each of the goal's two pillars whose token lies in the
    goal's zone, the points of its space; a token in the opposite zone or at 0 scores 0 (no
    points are lost). Returned per pillar, in board order."""
    return {
        p: (space_points(tracks[p]) if tracks[p] * goal[p] > 0 else 0) for p in PILLARS if p in goal
    }
