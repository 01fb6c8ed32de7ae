"""What each player (or a spectator) may see (ruling RS 9: hands and deck order are hidden; the
board is public).

A view is built from the public parts only (never "copy and delete"). Shown to everyone: the
scenario, kingdoms, armies, custom rosters, every unit with its position and pins, whose turn
and phase, round, the pending declarations, walls, who is engaged in melee, the card set in
play, every Action Board, control of Mines and Ruins, kills, defeated players,
captured deployment zones, the number of cards in each deck, the discard piles and each hand's
size. Shown only to the viewer: their own hand. Never shown: ``rng``, ``seed``, deck order,
other players' hands.
"""

from __future__ import annotations

from rules.engine_types import Event, PlayerId, State, View, Violation
from rules.errors import InvalidState
from rules.reign_supreme import rulebook
from rules.views import copy_json

__all__ = ["view", "view_event"]


def view(state: State, player: PlayerId | None) -> View:
    """The state as ``player`` sees it; ``None`` is a spectator. Unknown players are refused."""
    players = state["players"]
    if player is not None and player not in players:
        raise InvalidState(
            [
                Violation(
                    "unknown_player",
                    f"There is no player {player!r} in this game; "
                    f"the players are {', '.join(players)}.",
                    rulebook.PLAYERS,
                )
            ]
        )
    result: View = {
        "game": state["game"],
        "schema_version": state["schema_version"],
        "viewer": player,
        "players": list(players),
        "status": state["status"],
        "active_players": list(state["active_players"]),
        "to_move": list(state["to_move"]),
        "move_count": state["move_count"],
        "outcome": copy_json(state["outcome"]),
        "scenario": copy_json(state["scenario"]),
        "kingdoms": copy_json(state["kingdoms"]),
        "armies": dict(state["armies"]),
        "rosters": copy_json(state["rosters"]),
        "units": copy_json(state["units"]),
        "first_player": state["first_player"],
        "round": state["round"],
        "phase": state["phase"],
        "turn": state["turn"],
        "pending": copy_json(state["pending"]),
        "walls": copy_json(state["walls"]),
        "wall_serial": state["wall_serial"],
        "engaged": copy_json(state["engaged"]),
        "cards": copy_json(state["cards"]),
        "boards": copy_json(state["boards"]),
        "control": copy_json(state["control"]),
        "kills": dict(state["kills"]),
        "defeated": list(state["defeated"]),
        "zones": copy_json(state["zones"]),
        "deck_counts": {k: len(v) for k, v in state["decks"].items()},
        "discards": copy_json(state["discards"]),
        "hand_counts": {p: len(h) for p, h in state["hands"].items()},
    }
    if player is not None:
        result["hand"] = list(state["hands"][player])
    return result


def view_event(event: Event, player: PlayerId | None) -> Event:
    """A drawn card is seen only by the player who drew it."""
    if event.get("type") == "card_drawn" and event.get("player") != player:
        return {k: v for k, v in event.items() if k != "card"}
    return dict(event)
