"""The reinforcement deck: drawing, and reshuffling the discard when it runs out.

Seed, Reinforcement Phase: "If the Reinforcement Deck has been depleted, shuffle the
Reinforcement Discard pile facedown to form a new Reinforcement Deck" (rulings RA 10).
``state["deck"][0]`` is the top card; ``state["discard"]`` is in discard order.
"""

from __future__ import annotations

from rules.engine_types import Event, State
from rules.rng import Rng

__all__ = ["draw_card"]


def draw_card(state: State, rng: Rng, events: list[Event]) -> str | None:
    """Take the top card of the deck (mutates ``state``, a working copy).

    An empty deck is first refilled by shuffling the discard pile (event ``deck_reshuffled``).
    When both are empty (every card is under units or in play) nothing is drawn: ``None``.
    """
    if not state["deck"]:
        if not state["discard"]:
            return None
        pile = list(state["discard"])
        rng.shuffle(pile)
        state["deck"] = pile
        state["discard"] = []
        events.append({"type": "deck_reshuffled", "cards": len(pile)})
    return state["deck"].pop(0)
