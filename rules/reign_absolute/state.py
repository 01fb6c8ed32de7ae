"""A new game: options, race selection, the first-player draw and the race decks.

Seed, Setup; rulings RA 2 (races, each player a different one), RA 3 (the deck), RA 4 (first
player: highest random number, ties draw again, drawn cards discarded), RA 5 (race decks
shuffled for placement).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.engine import check_seed, unknown_options
from rules.engine_types import Event, PlayerId, State, Violation
from rules.errors import InvalidSetup
from rules.reign_absolute import rulebook
from rules.reign_absolute.content import (
    build_cards,
    build_races,
    card_catalog,
    default_cards,
    default_races,
    race_catalog,
    unit_catalog,
)
from rules.reign_absolute.deck import draw_card
from rules.reign_absolute.race_rules import deck_order
from rules.rng import Rng

__all__ = [
    "SCHEMA_VERSION",
    "MAX_MOVE_COUNT",
    "DEFAULT_OPTIONS",
    "DEFAULT_TURN_LIMIT",
    "MIN_TURN_LIMIT",
    "MAX_TURN_LIMIT",
    "MAX_DRAW_ROUNDS",
    "new_game",
    "clone",
    "start_battle",
]

SCHEMA_VERSION = 4
"""4: a seat that forfeits on time leaves the win to the players not eradicated
(``Game.in_the_game``; an eradicated player shared it); 2: races carry their own ``actions``
and ``setup`` requirements (``state.races``)."""
MAX_MOVE_COUNT = 2**53 - 1
DEFAULT_TURN_LIMIT = 200
MIN_TURN_LIMIT, MAX_TURN_LIMIT = 1, 2000
MAX_DRAW_ROUNDS = 50
"""First-player draw: after this many tied rounds (only possible with a custom deck of equal
numbers) the generator picks among the players still tied."""
DEFAULT_OPTIONS: dict[str, Any] = {
    "races": None,
    "reinforcements": None,
    "races_by_player": None,
    "turn_limit": DEFAULT_TURN_LIMIT,
}
"""``races``: custom races (None: Empire, Raiders, Elves, Orcs). ``reinforcements``: a custom
reinforcement deck (None: the default). ``races_by_player``: player -> race id, skipping the
race selection (None: players choose in seat order). ``turn_limit``: the game ends after this
many turns (all players' turns counted together) with the tie-break of the rules doc."""


def _check_options(
    players: Sequence[PlayerId], options: dict[str, Any]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], dict[str, str] | None, int]:
    found = unknown_options(rulebook.TITLE, options, DEFAULT_OPTIONS, rulebook.OPTIONS)
    spec = options.get("races")
    races, problems = build_races(default_races() if spec is None else spec, len(players))
    found.extend(problems)
    spec = options.get("reinforcements")
    cards, problems = build_cards(default_cards() if spec is None else spec)
    found.extend(problems)
    chosen = options.get("races_by_player")
    if chosen is not None:
        race_ids = {r["id"] for r in races}
        if (
            not isinstance(chosen, dict)
            or set(chosen) != set(players)
            or not all(isinstance(r, str) and r in race_ids for r in chosen.values())
            or len(set(chosen.values())) != len(chosen)
        ):
            found.append(
                Violation(
                    "bad_races_by_player",
                    "options.races_by_player must give every player a different race of the game.",
                    rulebook.RACE_SELECTION,
                )
            )
    limit = options.get("turn_limit")
    if limit is None:
        limit = DEFAULT_TURN_LIMIT
    if (
        not isinstance(limit, int)
        or isinstance(limit, bool)
        or not MIN_TURN_LIMIT <= limit <= MAX_TURN_LIMIT
    ):
        found.append(
            Violation(
                "bad_turn_limit",
                f"options.turn_limit must be a whole number from "
                f"{MIN_TURN_LIMIT} to {MAX_TURN_LIMIT}.",
                rulebook.TURN_LIMIT,
            )
        )
    if found:
        raise InvalidSetup(found)
    return races, cards, chosen, limit


def new_game(players: Sequence[PlayerId], seed: int, options: dict[str, Any]) -> State:
    """The state at the start: the reinforcement deck shuffled with ``Rng.from_seed(seed)``,
    then either race selection (players choose in seat order) or, with
    ``options.races_by_player``, straight to the first-player draw and placement."""
    check_seed(seed, rulebook.SETUP)
    races, cards, chosen, limit = _check_options(players, options)
    rng = Rng.from_seed(seed)
    deck = [c["id"] for c in cards]
    rng.shuffle(deck)
    players = list(players)
    state: State = {
        "game": rulebook.GAME_ID,
        "schema_version": SCHEMA_VERSION,
        "players": players,
        "status": "in_progress",
        "phase": "race_selection",
        "active_players": [players[0]],
        "move_count": 0,
        "outcome": None,
        "seed": seed,
        "rng": "",
        "turn_limit": limit,
        "races": race_catalog(races),
        "units": unit_catalog(races),
        "cards": card_catalog(cards),
        "race_of": {p: None for p in players},
        "first_player": None,
        "first_player_draws": [],
        "unit_decks": {p: [] for p in players},
        "battlefield": {},
        "unit_discards": {p: [] for p in players},
        "deck": deck,
        "discard": [],
        "eradicated": [],
        "placer": None,
        "turn": None,
        "doom": None,
        "bonus_owed": [],
    }
    if chosen is not None:
        state["race_of"] = {p: chosen[p] for p in players}
        start_battle(state, rng, [])
    state["rng"] = str(rng)
    return state


def clone(state: State) -> State:
    """A working copy of ``state`` for ``apply``: every part a move can change is copied; the
    catalogues (``races``, ``units``, ``cards``), which never change, are shared, and so are the
    battlefield's entries: a move that changes an entry replaces it with a new one."""
    new = dict(state)
    new["active_players"] = list(state["active_players"])
    new["race_of"] = dict(state["race_of"])
    new["first_player_draws"] = list(state["first_player_draws"])
    new["unit_decks"] = {p: list(d) for p, d in state["unit_decks"].items()}
    new["battlefield"] = dict(state["battlefield"])
    new["unit_discards"] = {p: list(d) for p, d in state["unit_discards"].items()}
    new["deck"] = list(state["deck"])
    new["discard"] = list(state["discard"])
    new["eradicated"] = list(state["eradicated"])
    new["turn"] = None if state["turn"] is None else dict(state["turn"])
    doom = state["doom"]
    new["doom"] = (
        None if doom is None else {"caller": doom["caller"], "to_discard": list(doom["to_discard"])}
    )
    new["bonus_owed"] = list(state["bonus_owed"])
    return new


def _first_player(state: State, rng: Rng, events: list[Event]) -> PlayerId:
    """Rulings RA 4: every player draws a card; the highest number starts; players tied for
    highest draw again; all drawn cards go to the discard."""
    contenders = list(state["players"])
    for round_no in range(1, MAX_DRAW_ROUNDS + 1):
        draws: dict[str, str] = {}
        for p in contenders:
            card = draw_card(state, rng, events)
            if card is not None:
                draws[p] = card
        state["discard"].extend(draws[p] for p in contenders if p in draws)
        state["first_player_draws"].append(draws)
        events.append(
            {
                "type": "first_player_draw",
                "round": round_no,
                "draws": {
                    p: {"card": c, "number": state["cards"][c]["number"]} for p, c in draws.items()
                },
            }
        )
        if not draws:
            break
        best = max(state["cards"][c]["number"] for c in draws.values())
        contenders = [
            p for p in contenders if p in draws and state["cards"][draws[p]]["number"] == best
        ]
        if len(contenders) == 1:
            return contenders[0]
    return rng.choice(contenders)


def start_battle(state: State, rng: Rng, events: list[Event]) -> None:
    """Races chosen: draw for the first player, shuffle every race deck (then apply its
    ``place_first`` setup requirement), begin placement (mutates the working copy ``state``)."""
    first = _first_player(state, rng, events)
    state["first_player"] = first
    events.append({"type": "first_player_chosen", "player": first})
    for p in state["players"]:
        units = list(state["races"][state["race_of"][p]]["units"])
        rng.shuffle(units)
        state["unit_decks"][p] = deck_order(state, p, units)
    state["phase"] = "placement"
    state["placer"] = first
    state["active_players"] = [first]
    events.append({"type": "placement_started", "player": first})
