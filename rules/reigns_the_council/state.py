"""A new game: options, the first Monarch, and the first reign's setup.

Seed 004 §Game setup; rulings RtC 1 (3 to 4 players; the first Monarch is
``options.first_monarch`` or drawn by the generator), RtC 3 (custom deck), RtC 8
(``options.story_point``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rules.engine import check_seed, player_option_problems, unknown_options
from rules.engine_types import Event, PlayerId, State, Violation
from rules.errors import InvalidSetup
from rules.reigns_the_council import reign, rulebook
from rules.reigns_the_council.content import PILLARS, build_deck, default_catalog
from rules.rng import Rng

__all__ = [
    "DEFAULT_OPTIONS",
    "SCHEMA_VERSION",
    "MAX_MOVE_COUNT",
    "STORY_MODES",
    "new_game",
    "clone",
    "CHANGES",
]

SCHEMA_VERSION = 4
"""4: a reign's decks are shuffled from the cards in natural id order, not the state's key order
(``reign._natural``); 3: ``to_move``; 2: ``discard_revealed`` (rulings RtC 11: the rejected
cards revealed face up stay public)."""
MAX_MOVE_COUNT = 2**53 - 1
"""The largest move count a state may carry: an integer every JSON client reads exactly."""
STORY_MODES = ("auto", "vote")
DEFAULT_OPTIONS: dict[str, Any] = {"first_monarch": None, "story_point": "auto", "deck": None}
"""``first_monarch``: a player id, or None to draw one. ``story_point``: ``"auto"`` (the
storyteller always scores) or ``"vote"`` (the other players approve or refuse it).
``deck``: a custom list of proposal cards, or None for the default 72."""


def _check_options(
    players: Sequence[PlayerId], options: dict[str, Any]
) -> dict[str, dict[str, Any]]:
    """Validate ``options``; return the card catalogue to play with. Raises InvalidSetup."""
    found = unknown_options(rulebook.TITLE, options, DEFAULT_OPTIONS, rulebook.OPTIONS)
    found += player_option_problems(
        players, options, "first_monarch", "unknown_first_monarch", rulebook.FIRST_MONARCH
    )
    story = options.get("story_point")
    if story is not None and story not in STORY_MODES:
        found.append(
            Violation(
                "bad_story_point",
                'options.story_point must be "auto" or "vote".',
                rulebook.STORY_POINT,
            )
        )
    spec = options.get("deck")
    cards = default_catalog()
    if spec is not None:
        cards, problems = build_deck(spec, len(players))
        found.extend(problems)
    if found:
        raise InvalidSetup(found)
    return cards


def new_game(players: Sequence[PlayerId], seed: int, options: dict[str, Any]) -> State:
    """The state at the start of the first reign: the first Monarch chosen, goals dealt, the
    proposals shuffled into three decks, and the first advisor to draw active.

    The first Monarch is ``options.first_monarch`` or drawn with ``Rng.from_seed(seed)``; then
    the first reign is set up with the same generator (see :func:`reign.start_reign`).
    """
    check_seed(seed, rulebook.REIGN_SETUP)
    cards = _check_options(players, options)
    rng = Rng.from_seed(seed)
    players = list(players)
    first = options.get("first_monarch")
    if first is None:
        first = rng.choice(players)
    state: State = {
        "game": rulebook.GAME_ID,
        "schema_version": SCHEMA_VERSION,
        "players": players,
        "status": "in_progress",
        "phase": "deal",
        "active_players": [],
        "move_count": 0,
        "outcome": None,
        "seed": seed,
        "rng": str(rng),
        "story_point": options.get("story_point") or "auto",
        "cards": cards,
        "tracks": {p: 0 for p in PILLARS},
        "decks": [[], [], []],
        "discard": list(cards),
        "discard_revealed": [],
        "hands": {p: [] for p in players},
        "pile": [],
        "goals": {},
        "draw_queue": [],
        "exchange": None,
        "round": None,
        "votes": None,
        "story": None,
        "reigns": [],
    }
    events: list[Event] = []
    reign.start_reign(state, first, rng, events)
    state["rng"] = str(rng)
    return state


def _copy_round(rnd: dict) -> dict:
    # pitches and table are changed in place, revealed is appended to
    return dict(
        rnd,
        pitches=None if rnd["pitches"] is None else dict(rnd["pitches"]),
        table=dict(rnd["table"]),
        revealed=list(rnd["revealed"]),
    )


def _copy_reigns(reigns: list) -> list:
    # each player's points in the current (last) record are changed in place; the rest of a
    # record is replaced, and records of past reigns never change
    if not reigns:
        return []
    last = reigns[-1]
    return reigns[:-1] + [dict(last, points={p: dict(v) for p, v in last["points"].items()})]


_COPY: dict[str, Callable[[Any], Any]] = {
    "tracks": dict,
    "decks": lambda decks: [list(d) for d in decks],
    "discard": list,
    "discard_revealed": list,
    "hands": lambda hands: {p: list(h) for p, h in hands.items()},
    "pile": list,
    "exchange": lambda ex: {p: (None if v is None else list(v)) for p, v in ex.items()},
    "round": _copy_round,
    "votes": dict,
    "reigns": _copy_reigns,
}
"""How to copy each part of a state that some move changes in place. Every other part is only
ever replaced by a move, never changed in place (``players``, ``cards``, ``goals``,
``draw_queue``, ``active_players``, ``story``, ``outcome`` and the scalars), so it is shared."""

CHANGES: dict[str, tuple[str, ...]] = {
    "draw": (),  # decks.draw_card copies the one deck and hand it changes
    "exchange": ("exchange", "hands", "discard"),
    "pitch": ("round", "hands"),
    "decide": ("round", "reigns"),
    "reveal": ("round", "tracks", "pile", "discard", "discard_revealed", "reigns"),
    "change_mind": ("round", "tracks", "pile", "discard", "discard_revealed", "reigns"),
    "keep_decision": ("round", "tracks", "pile", "discard", "discard_revealed", "reigns"),
    "story_vote": ("votes", "reigns"),
    "end_vote": ("votes",),
    "name_monarch": ("reigns",),
}
"""The parts of the state each move type may change in place (:data:`_COPY`), through every
consequence it can have: a reveal may end the round, kill the Monarch and close the reign; a
draw may rebuild the decks (which replaces them) and start a round (which replaces it)."""


def clone(state: State, parts: tuple[str, ...] = tuple(_COPY)) -> State:
    """A copy of ``state`` in which a move may change ``parts`` (:data:`CHANGES`; all of them
    by default) in place; every other part is shared with ``state``, so it must only be
    replaced."""
    new = dict(state)
    for part in parts:
        value = state[part]
        if value is not None:
            new[part] = _COPY[part](value)
    return new
