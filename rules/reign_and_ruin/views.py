"""What each player (or a spectator) may see.

Rulings R&R 12: hands, the draft picks of the current round, and the draw pile are private;
armies, tokens, the discard pile and hand sizes are public. A view is built from the public
parts only (never "copy and delete"), so a field added to the state later stays hidden until a
view chooses to show it. The card catalogue (``cards``) is public: it is the deck's
composition, which every player knows; where each card lies is what stays hidden.
"""

from __future__ import annotations

from typing import Any

from rules.engine_types import Event, PlayerId, State, View
from rules.views import copy_json, shared_fields, viewer_of

__all__ = ["view", "view_event"]

_PRIVATE_EVENT_FIELDS = {
    "card_drawn": "card",
    "last_card_kept": "card",
    "draft_pick": "cards",
}
"""Event type -> the field only the event's own ``player`` may see."""


def _copy_final_round(final: dict[str, Any] | None) -> dict[str, Any] | None:
    if final is None:
        return None
    return {"ended_by": final["ended_by"], "to_play": list(final["to_play"])}


def _copy_outcome(outcome: dict[str, Any] | None) -> dict[str, Any] | None:
    if outcome is None:
        return None
    return {
        "winners": list(outcome["winners"]),
        "draw": outcome["draw"],
        "scores": dict(outcome["scores"]),
        "reason": outcome["reason"],
    }


def view(state: State, player: PlayerId | None) -> View:
    """The state as ``player`` sees it; ``None`` (or an id not in the game) is a spectator.

    Shown to everyone: players, status, phase, whose turn, move count, outcome, the card
    catalogue, the starting player (null during the draft unless ``options.starting_player``
    named it: a drawn one does not exist before the draft ends), the number of cards in the draw
    pile, the discard pile,
    the armies with their tokens, the final round, each hand's size and, in the draft, each
    packet's size, who has chosen this round and how many cards each has kept. Shown only to
    the viewer: their own hand, and in the draft their packet, picks and kept cards. Never
    shown: ``rng``, ``seed``, the draw pile's order, anybody else's hidden cards.
    """
    players = state["players"]
    viewer = viewer_of(state, player)
    hands = state["hands"]
    armies = state["armies"]
    result: View = {
        "game": state["game"],
        "schema_version": state["schema_version"],
        "viewer": viewer,
        **shared_fields(state),
        "outcome": _copy_outcome(state["outcome"]),
        "cards": {
            cid: {"faction": c["faction"], "value": c["value"]} for cid, c in state["cards"].items()
        },
        "starting_player": state["starting_player"],
        "draw_pile_count": len(state["draw_pile"]),
        "discard_pile": list(state["discard_pile"]),
        "armies": {
            p: [
                {"card": f["card"], "kurgoz": f["kurgoz"], "cognitz": f["cognitz"]}
                for f in armies[p]
            ]
            for p in players
        },
        "final_round": _copy_final_round(state["final_round"]),
        "hand_counts": {p: len(hands[p]) for p in players},
        "draft": None,
    }
    if viewer is not None:
        result["hand"] = list(hands[viewer])
    draft = state["draft"]
    if draft is not None:
        shown: dict[str, Any] = {
            "round": draft["round"],
            "packet_counts": {p: len(draft["packets"][p]) for p in players},
            "picked": {p: bool(draft["picks"][p]) for p in players},
            "kept_counts": {p: len(draft["kept"][p]) for p in players},
        }
        if viewer is not None:
            shown["packet"] = list(draft["packets"][viewer])
            shown["picks"] = list(draft["picks"][viewer])
            shown["kept"] = list(draft["kept"][viewer])
        result["draft"] = shown
    return result


def view_event(event: Event, player: PlayerId | None) -> Event:
    """``event`` as ``player`` may see it: the card of ``card_drawn`` and ``last_card_kept`` and
    the cards of ``draft_pick`` are removed for everyone but the event's own player."""
    private = _PRIVATE_EVENT_FIELDS.get(event.get("type"))  # type: ignore[arg-type]
    shown = {k: copy_json(v) for k, v in event.items()}
    if private is not None and (player is None or player != event.get("player")):
        shown.pop(private, None)
    return shown
