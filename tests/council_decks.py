"""Custom decks of Reigns: The Council that its bots cannot play (they know only the default
deck): tests of bot seats, suggest and forks refuse them."""

from __future__ import annotations

from rules.reigns_the_council.content import default_deck

__all__ = ["CUSTOM_COUNCIL_DECKS"]


def _decks() -> dict[str, list[dict]]:
    """Decks the Council's bots cannot play: one of another size; the default cards without
    their ids (72 cards, as the default deck: they become ``card-1``...); the default ids with
    one card's effects swapped. A seat's view at version 0 shows no front: only the true state
    tells the last two from the default deck."""
    swapped = default_deck()
    swapped[0]["accept"], swapped[0]["reject"] = swapped[0]["reject"], swapped[0]["accept"]
    return {
        "forty": [
            {"back": ["army"], "accept": {"army": 1}, "reject": {"army": -1}} for _ in range(40)
        ],
        "renumbered": [{k: v for k, v in c.items() if k != "id"} for c in default_deck()],
        "swapped": swapped,
    }


CUSTOM_COUNCIL_DECKS = _decks()
