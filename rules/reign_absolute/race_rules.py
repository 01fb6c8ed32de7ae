"""A race's own rules: its additional actions and its setup requirements, read from the race data.

Seed, Action Phase: "Some Races have *additional* Actions available to them"; Setup: "Certain
Races have specific Setup requirements", and "After all Units are placed and any Race specific
post-Setup tasks are resolved, then the 1st Player now takes a Turn"; rulings RA 6 ("a race's
own action"). The primitives are defined in :mod:`rules.reign_absolute.content`; this module
applies them. It sits below ``state``, ``flow`` and ``moves`` and imports none of them.
"""

from __future__ import annotations

from typing import Any

from rules.engine_types import Event, Move, PlayerId, State
from rules.reign_absolute.deck import draw_card
from rules.reign_absolute.grid import Cell, in_bounds, neighbours, occupancy
from rules.rng import Rng

__all__ = ["race_actions", "action_moves", "apply_race_action", "deck_order", "post_setup_tasks"]

_DIRECTIONS = ((0, -1), (1, 0), (0, 1), (-1, 0))


def race_actions(state: State, player: PlayerId) -> dict[str, dict[str, Any]]:
    """The actions of ``player``'s race, by id (empty before the race is chosen)."""
    race = state["race_of"][player]
    if race is None:
        return {}
    return {a["id"]: a for a in state["races"][race]["actions"]}


def _targets(
    state: State, occupied: dict[Cell, str], uid: str, effect: dict[str, Any]
) -> list[Cell]:
    """Cells the action ``effect`` may take ``uid`` to: for ``swap``, the cells of the owner's
    units orthogonally next to it; for ``leap``, the empty cells 2 to ``distance`` cells away
    in a straight line (the cells in between may hold any units)."""
    battlefield = state["battlefield"]
    entry = battlefield[uid]
    x, y = entry["x"], entry["y"]
    if effect["effect"] == "swap":
        return [
            c
            for c in neighbours((x, y))
            if c in occupied and battlefield[occupied[c]]["owner"] == entry["owner"]
        ]
    return sorted(
        (x + dx * d, y + dy * d)
        for dx, dy in _DIRECTIONS
        for d in range(2, effect["distance"] + 1)
        if (x + dx * d, y + dy * d) not in occupied and in_bounds((x + dx * d, y + dy * d))
    )


def action_moves(state: State, player: PlayerId) -> list[Move]:
    """Every ``race_action`` move ``player`` may make in their Action Phase."""
    actions = race_actions(state, player)
    if not actions:
        return []
    occupied = occupancy(state["battlefield"])
    own = sorted(u for u, e in state["battlefield"].items() if e["owner"] == player)
    return [
        {"player": player, "type": "race_action", "action": aid, "unit": uid, "x": x, "y": y}
        for aid, action in actions.items()
        for uid in own
        for x, y in _targets(state, occupied, uid, action["effect"])
    ]


def apply_race_action(state: State, move: Move, events: list[Event]) -> None:
    """Resolve a legal ``race_action`` (mutates the working copy ``state``). The units stay
    face down: like a Move, the event names them only for their owner."""
    player = move["player"]
    action = race_actions(state, player)[move["action"]]
    battlefield = state["battlefield"]
    entry = battlefield[move["unit"]]
    origin = {"x": entry["x"], "y": entry["y"]}
    target = {"x": move["x"], "y": move["y"]}
    event: Event = {
        "type": "race_action_taken",
        "player": player,
        "action": action["id"],
        "effect": action["effect"]["effect"],
        "unit": move["unit"],
        "from": origin,
        "to": target,
    }
    # Battlefield entries may be shared with the state before the move: replace, never edit.
    if action["effect"]["effect"] == "swap":
        other = occupancy(battlefield)[(move["x"], move["y"])]
        battlefield[other] = {**battlefield[other], **origin}
        event["other"] = other
    battlefield[move["unit"]] = {**entry, **target}
    events.append(event)


def deck_order(state: State, player: PlayerId, shuffled: list[str]) -> list[str]:
    """The race deck of ``player`` after its setup requirements: a ``place_first`` unit goes on
    top of the shuffled deck (it is the race's first unit placed)."""
    for requirement in state["races"][state["race_of"][player]]["setup"]:
        if requirement["effect"] == "place_first":
            uid = requirement["unit"]
            shuffled = [uid] + [u for u in shuffled if u != uid]
    return shuffled


def post_setup_tasks(state: State, rng: Rng, events: list[Event]) -> None:
    """Every unit is placed: resolve the races' post-Setup tasks, players in turn order from
    the first player, each race's requirements in their order (mutates ``state``).

    ``reinforced_unit``: draw ``count`` reinforcement cards; a combat card goes face down under
    that unit (``reinforcement_placed``, unit and card for its owner only), a turn card is
    discarded without effect (``turn_card_discarded``), as cards drawn into a combat are.
    """
    players = state["players"]
    first = players.index(state["first_player"])
    for player in players[first:] + players[:first]:
        for requirement in state["races"][state["race_of"][player]]["setup"]:
            if requirement["effect"] != "reinforced_unit":
                continue
            uid = requirement["unit"]
            events.append(
                {
                    "type": "setup_task",
                    "player": player,
                    "effect": "reinforced_unit",
                    "count": requirement["count"],
                }
            )
            # A new entry: the clone shares the battlefield's entries with the state ``apply``
            # was given, which must not change (moves.py replaces an entry the same way).
            entry = {**state["battlefield"][uid]}
            entry["reinforcements"] = list(entry["reinforcements"])
            state["battlefield"][uid] = entry
            for _ in range(requirement["count"]):
                card = draw_card(state, rng, events)
                if card is None:
                    events.append({"type": "deck_empty", "player": player})
                    break
                if state["cards"][card]["kind"] == "turn":
                    state["discard"].append(card)
                    events.append({"type": "turn_card_discarded", "player": player, "card": card})
                    continue
                entry["reinforcements"].append(card)
                events.append(
                    {
                        "type": "reinforcement_placed",
                        "player": player,
                        "unit": uid,
                        "card": card,
                        "x": entry["x"],
                        "y": entry["y"],
                        "count": len(entry["reinforcements"]),
                    }
                )
