"""Helpers for the Reign Absolute tests: build exact play-phase states directly, apply moves,
read events.

``battle`` puts named units on named cells with named reinforcements under them, the named
cards on top of the deck, and everything else where it cannot interfere (other units of each
race in its owner's unit discard pile, other cards at the bottom of the deck), then checks the
result with ``check_state`` so every test starts from a sound state.
"""

from __future__ import annotations

from typing import Any

from api.jsonio import dumps
from rules.engine_types import Event, Move, State
from rules.reign_absolute import GAME
from rules.reign_absolute.content import default_catalogs
from rules.reign_absolute.flow import new_turn
from rules.reign_absolute.state import SCHEMA_VERSION

CATALOGS = default_catalogs()
ALL_CARDS = list(CATALOGS["cards"])


def unit(uid: str, x: int, y: int, *cards: str) -> tuple[str, int, int, list[str]]:
    return uid, x, y, list(cards)


def battle(
    races: dict[str, str],
    field: dict[str, list[tuple[str, int, int, list[str]]]],
    *,
    deck: list[str] = (),
    discard: list[str] = (),
    leftover: str = "deck",
    unit_discards: dict[str, list[str]] | None = None,
    turn_player: str | None = None,
    number: int = 5,
    turn_limit: int = 200,
    eradicated: list[str] = (),
    move_count: int = 40,
    **turn: Any,
) -> State:
    """A play-phase state of the default content.

    ``races``: player -> race id, in seat order. ``field``: player -> units on the battlefield
    (``unit(id, x, y, *cards)``). ``deck``: the top of the deck, in order; cards not placed
    anywhere go to the bottom of the deck (``leftover="deck"``) or to the discard
    (``leftover="discard"``). Units of each race not on the battlefield go to the owner's unit
    discard pile, after those ``unit_discards`` names first. ``turn``: extra fields of
    ``state["turn"]`` (``stage``, ``drawn``, ``draws_left``...).
    """
    players = list(races)
    battlefield: dict[str, dict[str, Any]] = {}
    placed_cards = set(deck) | set(discard)
    for p, entries in field.items():
        for uid, x, y, cards in entries:
            battlefield[uid] = {"x": x, "y": y, "owner": p, "reinforcements": list(cards)}
            placed_cards |= set(cards)
    drawn = turn.get("drawn")
    if drawn:
        placed_cards.add(drawn)
    rest = [c for c in ALL_CARDS if c not in placed_cards]
    discards = {p: list((unit_discards or {}).get(p, [])) for p in players}
    for p in players:
        for uid in CATALOGS["races"][races[p]]["units"]:
            if uid not in battlefield and uid not in discards[p]:
                discards[p].append(uid)
    t = new_turn(turn_player or players[0], number)
    t.update(turn)
    state: State = {
        "game": "reign-absolute",
        "schema_version": SCHEMA_VERSION,
        "players": players,
        "status": "in_progress",
        "phase": "play",
        "active_players": [t["player"]],
        "to_move": [t["player"]],
        "move_count": move_count,
        "outcome": None,
        "seed": 1,
        "rng": "0123456789abcdef",
        "turn_limit": turn_limit,
        "races": CATALOGS["races"],
        "units": CATALOGS["units"],
        "cards": CATALOGS["cards"],
        "race_of": dict(races),
        "first_player": players[0],
        "first_player_draws": [],
        "unit_decks": {p: [] for p in players},
        "battlefield": battlefield,
        "unit_discards": discards,
        "deck": list(deck) + (rest if leftover == "deck" else []),
        "discard": (rest if leftover == "discard" else []) + list(discard),
        "eradicated": list(eradicated),
        "placer": None,
        "turn": t,
        "doom": None,
        "bonus_owed": [],
    }
    GAME.check_state(state)
    return state


def apply(state: State, move: Move) -> tuple[State, list[Event]]:
    """``GAME.apply``, also checking that the input is untouched and the output sound."""
    before = dumps(state)
    new, events = GAME.apply(state, move)
    assert dumps(state) == before, "apply mutated its input"
    GAME.check_state(new)
    return new, events


def play(state: State, *moves: Move) -> tuple[State, list[Event]]:
    """Apply several moves; return the final state and all events."""
    events: list[Event] = []
    for m in moves:
        state, more = apply(state, m)
        events.extend(more)
    return state, events


def codes(state: State, move: Move) -> list[str]:
    return [v.code for v in GAME.violations(state, move)]


def types(events: list[Event]) -> list[str]:
    return [e["type"] for e in events]


def first(events: list[Event], kind: str) -> Event:
    return next(e for e in events if e["type"] == kind)


def all_of(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e["type"] == kind]


def mv(player: str, kind: str, **fields: Any) -> Move:
    return {"player": player, "type": kind, **fields}
