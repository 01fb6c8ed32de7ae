"""A new game: options, shuffling, the deal and the starting player.

Seed §1 Setup (shuffle, deal seven face down to each player, the rest is the draw pile),
§3 Determine starting player; rulings R&R 1 (custom deck), R&R 3 (starting player).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.engine import check_seed, player_option_problems, unknown_options
from rules.engine_types import PlayerId, State
from rules.errors import InvalidSetup
from rules.reign_and_ruin import rulebook
from rules.reign_and_ruin.cards import (
    CARDS_PER_PLAYER,
    CardSpec,
    build_deck,
    catalogue,
    default_cards,
)
from rules.rng import Rng

__all__ = ["DEFAULT_OPTIONS", "SCHEMA_VERSION", "MAX_MOVE_COUNT", "new_game"]

SCHEMA_VERSION = 2
MAX_MOVE_COUNT = 2**53 - 1
"""The largest move count a state may carry: an integer every JSON client reads exactly."""
DEFAULT_OPTIONS: dict[str, Any] = {"starting_player": None, "deck": None}
"""``starting_player``: the previous game's winner, or None to draw one at random when the
draft ends. ``deck``: a custom deck, or None for the default 54 cards."""


def _check_options(players: Sequence[PlayerId], options: dict[str, Any]) -> Sequence[CardSpec]:
    """Validate ``options`` and return the deck to play with. Raises InvalidSetup."""
    found = unknown_options(rulebook.TITLE, options, DEFAULT_OPTIONS, rulebook.OPTIONS)
    found += player_option_problems(
        players, options, "starting_player", "unknown_starting_player", rulebook.STARTING_PLAYER
    )
    spec = options.get("deck")
    deck: Sequence[CardSpec] = ()
    if spec is None:
        deck = default_cards()
    else:
        deck, problems = build_deck(spec, len(players))
        found.extend(problems)
    if found:
        raise InvalidSetup(found)
    return deck


def new_game(players: Sequence[PlayerId], seed: int, options: dict[str, Any]) -> State:
    """The state at the start of the draft.

    The deck is shuffled with ``Rng.from_seed(seed)``; seven cards are dealt to each player in
    seat order (the first seven to the first seat, and so on) as their first draft packet; the
    rest, in shuffled order, is the draw pile (``draw_pile[0]`` is the top). The starting player
    is ``options.starting_player``; when absent it stays ``None`` until the draft ends, and is
    drawn then (seed §3 comes after §2; :func:`rules.reign_and_ruin.draft.apply_draft`), so no
    drafter can know it. Players have already passed ``check_players``
    (:meth:`rules.engine.Game.setup`).
    """
    check_seed(seed, rulebook.SETUP)
    deck = _check_options(players, options)
    rng = Rng.from_seed(seed)
    cards = catalogue(deck)
    order = list(cards)  # the deck's ids in deck order: no two cards share an id
    rng.shuffle(order)
    players = list(players)
    starting = options.get("starting_player")
    packets: dict[PlayerId, list[str]] = {}
    picks: dict[PlayerId, list[str]] = {}
    kept: dict[PlayerId, list[str]] = {}
    hands: dict[PlayerId, list[str]] = {}
    armies: dict[PlayerId, list[dict[str, Any]]] = {}
    dealt = 0
    for p in players:  # one loop for every per-player map, each in seat order
        packets[p] = order[dealt : dealt + CARDS_PER_PLAYER]
        dealt += CARDS_PER_PLAYER
        picks[p] = []
        kept[p] = []
        hands[p] = []
        armies[p] = []
    return {
        "game": rulebook.GAME_ID,
        "schema_version": SCHEMA_VERSION,
        "players": players,
        "status": "in_progress",
        "phase": "draft",
        "active_players": list(players),
        "move_count": 0,
        "outcome": None,
        "seed": seed,
        "rng": str(rng),
        "cards": cards,
        "starting_player": starting,
        "draw_pile": order[dealt:],
        "discard_pile": [],
        "draft": {"round": 1, "packets": packets, "picks": picks, "kept": kept},
        "hands": hands,
        "armies": armies,
        "final_round": None,
    }
