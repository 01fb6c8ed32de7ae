"""What each player (or a spectator) may see.

Rulings RtC 11: hidden are the fronts of cards in hands, the goals, the fronts of pitched
cards and of the decks; revealed cards are public. Seed §Game setup 6 and §Pitching a proposal:
the backs (the pillars a card affects) of the cards in hands, of the pitched cards and of
each deck's top card are public. A view is built from the public parts only (never "copy and
delete"), so a field added to the state later stays hidden until a view chooses to show it.

So an advisor sees their own hand's fronts, their own goal, their own pitch and their own
pending choices; everyone sees hand backs and sizes, the top back of each deck, the backs of
the pitched cards once every advisor has pitched, the revealed cards, the tracks and the
scores, and the rejected cards revealed face up that still lie in the discard pile (rulings
RtC 11: revealed cards stay public; the rest of the pile, exchanged cards and cards discarded
unrevealed at a death, stays face down). The Monarch never sees a pitched front before it is
revealed. Card ids are only shown with their fronts, to those who may see the front (an id
names the front in the catalogue).
Secret simultaneous choices (exchange, pitch, votes) show only whether a player has chosen.
"""

from __future__ import annotations

from typing import Any

from rules.engine_types import Event, Move, PlayerId, State, View
from rules.reigns_the_council.content import GOALS
from rules.reigns_the_council.ending import totals
from rules.reigns_the_council.seats import advisors
from rules.views import copy_json, shared_fields, viewer_of

__all__ = ["view", "view_event", "view_move", "card_face", "ROLES"]

ROLES = ("monarch", "advisor")
"""A player's role in the current reign, as their view names it."""

_PRIVATE_EVENT_FIELDS = {
    "card_drawn": "card",
    "goal_dealt": "goal",
    "exchange_chosen": "cards",
    "cards_exchanged": "cards",
    "proposal_pitched": "card",
    "story_vote_cast": "approve",
    "end_vote_cast": "end",
}
"""Event type -> the field only the event's own ``player`` may see."""


def card_face(state: State, card: str) -> dict[str, Any]:
    """A card with its front: ``{id, title, back, accept, reject}`` (for those who may see it)."""
    info = state["cards"][card]
    return {
        "id": card,
        "title": info["title"],
        "back": list(info["back"]),
        "accept": dict(info["accept"]),
        "reject": dict(info["reject"]),
    }


def _back(state: State, card: str) -> list[str]:
    return list(state["cards"][card]["back"])


def _round(state: State, viewer: PlayerId | None) -> dict[str, Any] | None:
    rnd = state["round"]
    if rnd is None:
        return None
    pitches = rnd["pitches"]
    table = rnd["table"]
    pending = rnd["pending"]
    shown: dict[str, Any] = {
        "number": rnd["number"],
        "pitched": None if pitches is None else {p: c is not None for p, c in pitches.items()},
        "table": {p: _back(state, c) for p, c in table.items()},
        "accepted": None if rnd["accepted"] is None else list(rnd["accepted"]),
        "revealed": [
            {
                "advisor": r["advisor"],
                "card": card_face(state, r["card"]),
                "decision": r["decision"],
                "changed": r["changed"],
            }
            for r in rnd["revealed"]
        ],
        "pending": None
        if pending is None
        else {
            "advisor": pending["advisor"],
            "card": card_face(state, pending["card"]),
            "decision": pending["decision"],
        },
        "mind_changed": rnd["mind_changed"],
        "discarded": list(rnd["discarded"]),
    }
    if viewer is not None:
        mine = (pitches or {}).get(viewer) or table.get(viewer)
        shown["mine"] = None if mine is None else card_face(state, mine)
    return shown


def view(state: State, player: PlayerId | None) -> View:
    """The state as ``player`` sees it; ``None`` is a spectator (unknown ids are refused by the
    game before this is called)."""
    viewer = viewer_of(state, player)
    record = state["reigns"][-1]
    ruler = record["monarch"]
    order = advisors(state)
    hands = state["hands"]
    votes = state["votes"]
    exchange = state["exchange"]
    result: View = {
        "game": state["game"],
        "schema_version": state["schema_version"],
        "viewer": viewer,
        "role": None if viewer is None else ("monarch" if viewer == ruler else "advisor"),
        **shared_fields(state),
        "outcome": None
        if state["outcome"] is None
        else {
            "winners": list(state["outcome"]["winners"]),
            "draw": state["outcome"]["draw"],
            "scores": dict(state["outcome"]["scores"]),
            "reason": state["outcome"]["reason"],
        },
        "story_point": state["story_point"],
        "reign": record["number"],
        "monarch": ruler,
        "tracks": dict(state["tracks"]),
        "decks": [
            {"count": len(d), "top": _back(state, d[0]) if d else None} for d in state["decks"]
        ],
        "discard_count": len(state["discard"]),
        "discard_revealed": [card_face(state, c) for c in state["discard_revealed"]],
        "pile": [card_face(state, c) for c in state["pile"]],
        "hands": {
            p: {"count": len(hands[p]), "backs": [_back(state, c) for c in hands[p]]} for p in order
        },
        "draw_queue": list(state["draw_queue"]),
        "exchange": None
        if exchange is None
        else {"chosen": {p: v is not None for p, v in exchange.items()}},
        "round": _round(state, viewer),
        "votes": None if votes is None else {"voted": {p: v is not None for p, v in votes.items()}},
        "story": None if state["story"] is None else {"advisor": state["story"]["advisor"]},
        "reigns": [
            {
                "number": r["number"],
                "monarch": r["monarch"],
                "end": r["end"],
                "goals": None if r["goals"] is None else dict(r["goals"]),
                "tracks": None if r["tracks"] is None else dict(r["tracks"]),
                "points": {
                    p: {
                        "acceptance": v["acceptance"],
                        "story": v["story"],
                        "pile": v["pile"],
                        "goal": dict(v["goal"]),
                    }
                    for p, v in r["points"].items()
                },
            }
            for r in state["reigns"]
        ],
        "scores": totals(state),
    }
    if viewer is not None and viewer != ruler:
        result["hand"] = [card_face(state, c) for c in hands[viewer]]
        goal = state["goals"].get(viewer)
        result["goal"] = None if goal is None else {"id": goal, "sides": dict(GOALS[goal])}
        if exchange is not None and exchange.get(viewer) is not None:
            result["exchange"]["mine"] = list(exchange[viewer])
    if viewer is not None and votes is not None and votes.get(viewer) is not None:
        result["votes"]["mine"] = votes[viewer]
    return result


def view_event(event: Event, player: PlayerId | None) -> Event:
    """``event`` as ``player`` may see it: the private field of a drawn card, a dealt goal, an
    exchange, a pitch or a vote is removed for everyone but the event's own player."""
    private = _PRIVATE_EVENT_FIELDS.get(event.get("type"))  # type: ignore[arg-type]
    shown = {k: copy_json(v) for k, v in event.items()}
    if private is not None and (player is None or player != event.get("player")):
        shown.pop(private, None)
    return shown


_PUBLIC_MOVES = frozenset(
    {"draw", "decide", "reveal", "change_mind", "keep_decision", "name_monarch"}
)
"""Moves made in the open at the table: the deck drawn from, the Monarch's decisions, the
successor named. Exchanges, pitches and votes are secret choices."""


def view_move(move: Move, player: PlayerId | None) -> Move:
    """``move`` as ``player`` may see it in a session's history: a public move whole; a secret
    one (exchange, pitch, vote) whole only to its own player, otherwise just who moved and the
    move's type (what becomes public later is told by the events)."""
    if move.get("type") in _PUBLIC_MOVES or (player is not None and move.get("player") == player):
        return dict(move)
    return {"player": move.get("player"), "type": move.get("type")}
