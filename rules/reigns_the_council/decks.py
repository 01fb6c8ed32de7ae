"""The three proposal decks: building them, drawing with a deck choice, rebuilding them.

Seed 004 §Game setup 6 (three decks of about the same size, backs up) and §Game round 6 ("If
one of the decks runs out of cards, continue with the remaining decks, until all Proposal cards
have been drawn. Then shuffle the discard pile and set up three new decks"); rulings RtC 3, 6.
"""

from __future__ import annotations

from rules.engine_types import Event, PlayerId, State
from rules.reigns_the_council.content import DECK_COUNT
from rules.rng import Rng

__all__ = ["split", "draw_card", "rebuild_if_empty"]


def split(ids: list[str]) -> list[list[str]]:
    """Cut a shuffled pile into three decks of near-equal size (sizes differ by at most one; the
    first decks take the extra cards). ``deck[0]`` is each deck's top card."""
    n = len(ids)
    sizes = [n // DECK_COUNT + (1 if i < n % DECK_COUNT else 0) for i in range(DECK_COUNT)]
    decks, start = [], 0
    for size in sizes:
        decks.append(ids[start : start + size])
        start += size
    return decks


def rebuild_if_empty(new: State, rng: Rng, events: list[Event]) -> None:
    """When all three decks are empty and the discard pile is not, shuffle the discard pile and
    set up three new decks (seed §Game round 6)."""
    if any(new["decks"]) or not new["discard"]:
        return
    pile = list(new["discard"])
    rng.shuffle(pile)
    new["decks"] = split(pile)
    new["discard"] = []
    new["discard_revealed"] = []
    events.append({"type": "decks_rebuilt", "sizes": [len(d) for d in new["decks"]]})


def draw_card(new: State, player: PlayerId, index: int, rng: Rng, events: list[Event]) -> None:
    """``player`` draws the top card of deck ``index`` (which is not empty) into their hand.

    The event shows the card's back (it was public on top of the deck) and, to the drawer
    only, the card itself. The decks are rebuilt if this draw emptied the last one.
    """
    # Copy-on-write: only the deck drawn from and the drawer's hand change, so only they are
    # copied (the rest is shared with the state before the move; state.CHANGES).
    deck = new["decks"][index]
    card = deck[0]
    new["decks"] = [d[1:] if i == index else d for i, d in enumerate(new["decks"])]
    new["hands"] = {p: h + [card] if p == player else h for p, h in new["hands"].items()}
    events.append(
        {
            "type": "card_drawn",
            "player": player,
            "deck": index,
            "back": list(new["cards"][card]["back"]),
            "card": card,
        }
    )
    rebuild_if_empty(new, rng, events)
