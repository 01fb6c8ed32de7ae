"""What each player (or a spectator) may see.

Rulings RA 12 and the seed ("You can look at your own Units, and their [reinforcements], at
any time. You cannot look at enemy Units or their [reinforcements]; however, you can count the
number of [reinforcements] under an enemy Unit"). A view is built from the public parts only
(never "copy and delete"):

- everyone: players, races chosen, status, phase, whose move, the catalogues (every race's
  composition and the reinforcement deck's composition are printed on the cards), the
  first-player draws, each unit deck's size, every unit on the battlefield as owner, cell and
  number of reinforcements under it, the unit discard piles, the reinforcement discard, the
  deck's size, eradicated players, the Doom order, the bonus owed, the turn, and a drawn turn
  card (turn cards are revealed when drawn);
- the viewer only: the identity of their own units and the cards under them, the combat card
  they have just drawn, and during placement the unit they are about to place;
- nobody: ``rng``, ``seed``, the deck's order, the order of the unit decks.
"""

from __future__ import annotations

from typing import Any

from rules.engine_types import Event, PlayerId, State, View
from rules.views import copy_json, shared_fields, viewer_of

__all__ = ["view", "view_event", "PRIVATE_EVENT_FIELDS"]

PRIVATE_EVENT_FIELDS: dict[str, tuple[str, ...]] = {
    "unit_placed": ("unit",),
    "unit_moved": ("unit",),
    "reinforcement_placed": ("unit", "card"),
    "race_action_taken": ("unit", "other"),
}
"""Event type -> the fields only the event's own ``player`` may see. ``reinforcement_drawn``
hides its ``card`` too when the card is a combat card (turn cards are revealed)."""


def view(state: State, player: PlayerId | None) -> View:
    """The state as ``player`` sees it; ``None`` is a spectator."""
    players = state["players"]
    viewer = viewer_of(state, player)
    battlefield = []
    for uid, e in state["battlefield"].items():
        shown: dict[str, Any] = {
            "x": e["x"],
            "y": e["y"],
            "owner": e["owner"],
            "reinforcement_count": len(e["reinforcements"]),
        }
        if viewer is not None and e["owner"] == viewer:
            shown["unit"] = uid
            shown["reinforcements"] = list(e["reinforcements"])
        battlefield.append(shown)
    battlefield.sort(key=lambda s: (s["y"], s["x"]))
    turn = state["turn"]
    shown_turn = None
    if turn is not None:
        shown_turn = {
            "player": turn["player"],
            "number": turn["number"],
            "stage": turn["stage"],
            "extra_turns": turn["extra_turns"],
            "marching": turn["marching"],
            "drawn": None,
        }
        card = turn["drawn"]
        if card is not None:
            kind = state["cards"][card]["kind"]
            shown_turn["drawn"] = {"kind": kind}
            if kind == "turn" or viewer == turn["player"]:
                shown_turn["drawn"]["card"] = card
    doom = state["doom"]
    result: View = {
        "game": state["game"],
        "schema_version": state["schema_version"],
        "viewer": viewer,
        **shared_fields(state),
        "outcome": copy_json(state["outcome"]),
        "turn_limit": state["turn_limit"],
        "races": copy_json(state["races"]),
        "units": copy_json(state["units"]),
        "cards": copy_json(state["cards"]),
        "race_of": dict(state["race_of"]),
        "first_player": state["first_player"],
        "first_player_draws": copy_json(state["first_player_draws"]),
        "unit_deck_counts": {p: len(state["unit_decks"][p]) for p in players},
        "battlefield": battlefield,
        "unit_discards": copy_json(state["unit_discards"]),
        "deck_count": len(state["deck"]),
        "discard": list(state["discard"]),
        "eradicated": list(state["eradicated"]),
        "placer": state["placer"],
        "turn": shown_turn,
        "doom": None
        if doom is None
        else {"caller": doom["caller"], "to_discard": list(doom["to_discard"])},
        "bonus_owed": list(state["bonus_owed"]),
    }
    if viewer is not None:
        deck = state["unit_decks"][viewer]
        result["next_unit"] = deck[0] if state["placer"] == viewer and deck else None
    return result


def view_event(event: Event, player: PlayerId | None) -> Event:
    """``event`` as ``player`` may see it: the private fields of another player's event removed."""
    shown = copy_json(event)
    kind = event.get("type")
    if player is not None and player == event.get("player"):
        return shown
    for field in PRIVATE_EVENT_FIELDS.get(kind, ()):  # type: ignore[arg-type]
        shown.pop(field, None)
    if kind == "reinforcement_drawn" and event.get("kind") == "combat":
        shown.pop("card", None)
    return shown
