"""Helpers for the Reign Supreme tests: build positions by hand, apply moves, read events.

``position`` sets up a game with ``setup: "auto"`` and the army lists a test names, then puts
the units where the test says (unit ids are ``u1``, ``u2``... in seat order then list order),
so each test states its situation plainly and the state still passes integrity.
"""

from __future__ import annotations

from typing import Any

from rules.engine_types import Event, Move, State
from rules.reign_supreme import GAME
from rules.reign_supreme.actors import refresh_actors
from rules.reign_supreme.auras import engaged_pairs
from rules.reign_supreme.board import geometry, occupancy
from rules.reign_supreme.state import clone

PLAYERS = ["ann", "bob"]


def position(
    lists: dict[str, list[str]],
    at: dict[str, Any] | None = None,
    *,
    scenario: Any = "skirmish",
    players: list[str] | None = None,
    first: str = "ann",
    armies: dict[str, str] | None = None,
    seed: int = 1,
    **options: Any,
) -> State:
    """A game in ``first``'s Combat phase (round 1) with each player's ``lists`` and the units of
    ``at`` (id -> [q, r] or None) moved there; the others keep their auto set-up spaces."""
    players = players or list(lists)
    opts = {
        "scenario": scenario,
        "setup": "auto",
        "first_player": first,
        "army_lists": lists,
        **options,
    }
    if armies is not None:
        opts["armies"] = armies
    state = GAME.setup(players, seed, opts)
    state = clone(state)
    for uid, h in (at or {}).items():
        state["units"][uid]["at"] = None if h is None else list(h)
    state["engaged"] = engaged_pairs(
        state, occupancy(state)
    )  # as if the turn started with them there
    refresh(state)
    GAME.check_state(state)
    return state


def refresh(state: State) -> None:
    """After a test edits a position by hand: who may act outside their turn follows from it
    (rules doc §Outside your own turn)."""
    refresh_actors(state, geometry(state))


def edit(state: State, **changes: Any) -> State:
    """A copy of ``state`` with top-level fields replaced."""
    new = clone(state)
    new.update(changes)
    return new


def move(player: str, kind: str, **params: Any) -> Move:
    return {"player": player, "type": kind, **params}


def play(state: State, *moves: Move) -> tuple[State, list[Event]]:
    """Apply the moves in order (each must be legal and listed); all events."""
    events: list[Event] = []
    for m in moves:
        assert GAME.violations(state, m) == [], (m, GAME.violations(state, m))
        assert m in GAME.legal_moves(state), m
        state, evs = GAME.apply(state, m)
        GAME.check_state(state)
        events.extend(evs)
    return state, events


def codes(state: State, m: Move) -> list[str]:
    return [v.code for v in GAME.violations(state, m)]


def of_type(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e["type"] == kind]


def destinations(state: State, uid: str) -> set[tuple[int, int]]:
    return {
        tuple(m["to"]) for m in GAME.legal_moves(state) if m["type"] == "move" and m["unit"] == uid
    }


def attacks(state: State, uid: str) -> set[tuple[str, str]]:
    """(target, mode) of every attack ``uid`` may make, whatever it declares with it."""
    return {
        (m["target"], m["mode"])
        for m in GAME.legal_moves(state)
        if m["type"] == "attack" and m["unit"] == uid
    }
