"""Helpers for the Reign & Ruin tests: build states by hand, apply moves, read events.

``play_state`` makes a play-phase state from the hands, armies and piles a test names and puts
every other card of the default deck in the draw pile (or the discard pile), so that the state
passes integrity and each test states its situation plainly.
"""

from __future__ import annotations

from typing import Any

from api.jsonio import dumps
from rules.engine_types import Event, Move, State
from rules.reign_and_ruin import GAME
from rules.reign_and_ruin.cards import default_cards
from rules.reign_and_ruin.state import SCHEMA_VERSION

ALL_IDS = [c[0] for c in default_cards()]


def fighter(card: str, kurgoz: int = 0, cognitz: bool = False) -> dict[str, Any]:
    return {"card": card, "kurgoz": kurgoz, "cognitz": cognitz}


def _army(entries: list[Any]) -> list[dict[str, Any]]:
    return [fighter(e) if isinstance(e, str) else dict(e) for e in entries]


def play_state(
    hands: dict[str, list[str]],
    armies: dict[str, list[Any]] | None = None,
    *,
    discard: list[str] = (),
    draw: list[str] = (),
    leftover: str = "draw",
    active: str | None = None,
    starting: str | None = None,
    final_round: dict[str, Any] | None = None,
    move_count: int = 20,
) -> State:
    """A play-phase (or, with ``final_round``, final-round) state of the default deck.

    ``hands``: player -> cards, in seat order. ``armies``: player -> ids or fighter dicts.
    ``draw``: the top of the draw pile, in order. Every card not placed anywhere goes to the
    bottom of the draw pile (``leftover="draw"``) or to the bottom of the discard pile
    (``leftover="discard"``, leaving the draw pile as ``draw``). ``active``: whose turn (default
    the first player). The result is checked with ``check_state``.
    """
    players = list(hands)
    armies = {p: _army((armies or {}).get(p, [])) for p in players}
    placed = set(discard) | set(draw)
    for p in players:
        placed |= set(hands[p])
        placed |= {f["card"] for f in armies[p]}
    rest = [c for c in ALL_IDS if c not in placed]
    draw_pile = list(draw) + (rest if leftover == "draw" else [])
    discard_pile = (rest if leftover == "discard" else []) + list(discard)
    phase = "play" if final_round is None else "final_round"
    active = (
        active if active is not None else (final_round["to_play"][0] if final_round else players[0])
    )
    state = {
        "game": "reign-and-ruin",
        "schema_version": SCHEMA_VERSION,
        "players": players,
        "status": "in_progress",
        "phase": phase,
        "active_players": [active],
        "to_move": [active],
        "move_count": move_count,
        "outcome": None,
        "seed": 1,
        "rng": "0123456789abcdef",
        "cards": {cid: {"faction": f, "value": v} for cid, f, v in default_cards()},
        "starting_player": starting or players[0],
        "draw_pile": draw_pile,
        "discard_pile": discard_pile,
        "draft": None,
        "hands": {p: list(hands[p]) for p in players},
        "armies": armies,
        "final_round": final_round,
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


def codes(state: State, move: Move) -> list[str]:
    """The violation codes of ``move`` (and, when there are some, that apply refuses it)."""
    found = GAME.violations(state, move)
    return [v.code for v in found]


def event_types(events: list[Event]) -> list[str]:
    return [e["type"] for e in events]


def first(events: list[Event], kind: str) -> Event:
    return next(e for e in events if e["type"] == kind)


def move(player: str, kind: str, **fields: Any) -> Move:
    return {"player": player, "type": kind, **fields}
