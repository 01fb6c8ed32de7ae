"""Helpers for the Reigns: The Council tests: reach a phase by playing, put chosen cards in
hands, set the tracks, apply moves with checks, read events.

States are always reached by real moves from a real setup; a helper that rearranges cards
(``give``) or tokens (``set_tracks``) keeps the state sound and checks it with ``check_state``.
"""

from __future__ import annotations

from typing import Any

from api.jsonio import dumps
from rules.engine_types import Event, Move, State
from rules.reigns_the_council import GAME

NAMES = ["ann", "bob", "cat", "dan"]


def move(player: str, kind: str, **fields: Any) -> Move:
    return {"player": player, "type": kind, **fields}


def apply(state: State, m: Move) -> tuple[State, list[Event]]:
    """``GAME.apply``, also checking that the input is untouched and the output sound."""
    before = dumps(state)
    new, events = GAME.apply(state, m)
    assert dumps(state) == before, "apply mutated its input"
    GAME.check_state(new)
    return new, events


def codes(state: State, m: Move) -> list[str]:
    return [v.code for v in GAME.violations(state, m)]


def types(events: list[Event]) -> list[str]:
    return [e["type"] for e in events]


def first(events: list[Event], kind: str) -> Event:
    return next(e for e in events if e["type"] == kind)


def fresh(n: int = 3, seed: int = 1, **options: Any) -> State:
    """A new game of ``n`` players; ``ann`` is the first Monarch unless options say otherwise."""
    options.setdefault("first_monarch", "ann")
    state = GAME.setup(NAMES[:n], seed, options)
    GAME.check_state(state)
    return state


def monarch(state: State) -> str:
    return state["reigns"][-1]["monarch"]


def advisors(state: State) -> list[str]:
    players = state["players"]
    i = players.index(monarch(state))
    return [players[(i + k) % len(players)] for k in range(1, len(players))]


def draw_all(state: State, deck: int | None = None) -> State:
    """Every pending draw, from ``deck`` (or the first non-empty deck)."""
    while state["phase"] in ("deal", "redraw", "refill"):
        p = state["active_players"][0]
        d = (
            deck
            if deck is not None and state["decks"][deck]
            else next(i for i, x in enumerate(state["decks"]) if x)
        )
        state, _ = apply(state, move(p, "draw", deck=d))
    return state


def to_pitch(state: State) -> State:
    """From the deal: draw everything, exchange nothing, reach the pitch of round 1."""
    state = draw_all(state)
    if state["phase"] == "exchange":
        for p in list(state["active_players"]):
            state, _ = apply(state, move(p, "exchange", cards=[]))
    assert state["phase"] == "pitch", state["phase"]
    return state


def locate(state: State, card: str) -> tuple[list[str], int]:
    """The list holding ``card`` (a deck, the discard pile, a hand or the pile) and its index."""
    places = (
        list(state["decks"]) + [state["discard"], state["pile"]] + list(state["hands"].values())
    )
    for place in places:
        if card in place:
            return place, place.index(card)
    raise KeyError(card)


def give(state: State, player: str, cards: list[str]) -> State:
    """A copy of ``state`` where ``player`` holds ``cards`` (first in the hand): each card is
    swapped with a card of the hand that is not wanted, so every card stays in one place."""
    import copy

    state = copy.deepcopy(state)
    hand = state["hands"][player]
    spare = [c for c in hand if c not in cards]
    for card in cards:
        if card in hand:
            continue
        place, i = locate(state, card)
        out = spare.pop()
        place[i] = out
        hand[hand.index(out)] = card
    rest = [c for c in hand if c not in cards]
    hand[:] = [c for c in cards] + rest
    GAME.check_state(state)
    return state


def set_tracks(state: State, **values: int) -> State:
    import copy

    state = copy.deepcopy(state)
    state["tracks"].update(values)
    GAME.check_state(state)
    return state


def pitch(state: State, cards: dict[str, str]) -> State:
    """Each advisor pitches their card of ``cards`` (after ``give`` puts it in the hand)."""
    for p, c in cards.items():
        state = give(state, p, [c])
    for p, c in cards.items():
        state, _ = apply(state, move(p, "pitch", card=c))
    assert state["phase"] == "decide"
    return state
