"""A reign's setup: the outgoing Monarch naming the next one, gather and shuffle, goals, drawing
seven with a deck choice per draw, and the one-time simultaneous exchange.

Seed 004 §Game setup 3 to 7 and §A new Monarch! ("setup for a new Reign as per the normal
setup: shuffling the Secret Goals and dealing one to each Advisor and shuffling the Proposal
cards and each Advisor drawing 7 and the opportunity to change any number of them before the
first round"); rulings RtC 5.
"""

from __future__ import annotations

import re
from typing import Any

from rules.engine_types import Event, PlayerId, State
from rules.reigns_the_council import decks, rounds
from rules.reigns_the_council.content import GOALS, HAND_SIZE, PILLARS
from rules.reigns_the_council.seats import advisors, monarch
from rules.rng import Rng

__all__ = [
    "start_reign",
    "round_robin",
    "after_draws",
    "apply_exchange",
    "apply_draw",
    "apply_name",
]


def round_robin(counts: list[tuple[PlayerId, int]]) -> list[PlayerId]:
    """Draw order for several players owing cards: one card each in turn, in the given order,
    skipping players who have drawn all theirs."""
    queue: list[PlayerId] = []
    left = dict(counts)
    while any(left.values()):
        for p, _ in counts:
            if left[p]:
                queue.append(p)
                left[p] -= 1
    return queue


def start_reign(new: State, ruler: PlayerId, rng: Rng, events: list[Event]) -> None:
    """Set up a new reign with ``ruler`` as Monarch, changing ``new`` in place.

    Tokens return to the centre; every proposal card (decks, discard, hands, the old pile) is
    gathered in catalogue order, shuffled and cut into three decks; the 24 goals are shuffled
    and one is dealt to each advisor in seat order from the Monarch's left; then the advisors
    draw seven each, one card at a time in that order, each choosing the deck (phase ``deal``).
    """
    players = new["players"]
    number = len(new["reigns"]) + 1
    new["reigns"].append(
        {
            "number": number,
            "monarch": ruler,
            "end": None,
            "goals": None,
            "tracks": None,
            "points": {p: {"acceptance": 0, "story": 0, "pile": 0, "goal": {}} for p in players},
        }
    )
    new["tracks"] = {p: 0 for p in PILLARS}
    pile = sorted(new["cards"], key=_natural)  # never the state's key order: see _natural
    rng.shuffle(pile)
    new["decks"] = decks.split(pile)
    new["discard"] = []
    new["discard_revealed"] = []
    new["pile"] = []
    new["hands"] = {p: [] for p in players}
    new["round"] = new["exchange"] = new["votes"] = new["story"] = None
    order = advisors(new)
    goal_ids = list(GOALS)
    rng.shuffle(goal_ids)
    new["goals"] = {p: goal_ids[i] for i, p in enumerate(order)}
    events.append(
        {
            "type": "reign_started",
            "reign": number,
            "monarch": ruler,
            "decks": [len(d) for d in new["decks"]],
        }
    )
    for p in order:
        events.append({"type": "goal_dealt", "player": p, "goal": new["goals"][p]})
    new["draw_queue"] = round_robin([(p, HAND_SIZE) for p in order])
    new["phase"] = "deal"
    new["active_players"] = [new["draw_queue"][0]]


def after_draws(new: State, events: list[Event]) -> None:
    """The draw queue is empty: the deal leads to the exchange, the exchange's draws to the
    first round, and the end-of-round draws to the next round."""
    phase = new["phase"]
    if phase == "deal":
        order = advisors(new)
        new["phase"] = "exchange"
        new["exchange"] = {p: None for p in order}
        new["active_players"] = order
        events.append({"type": "exchange_started"})
    elif phase == "redraw":
        rounds.start_round(new, 1, events)
    else:  # refill
        rounds.start_round(new, new["round"]["number"] + 1, events)


def apply_exchange(
    new: State, player: PlayerId, cards: list[str], rng: Rng, events: list[Event]
) -> None:
    """``player`` secretly chooses the cards to exchange (possibly none). The cards stay in the
    hand until every advisor has chosen; then, in seat order from the Monarch's left, each
    advisor discards the chosen cards, and they draw as many, one card at a time in turn, each
    choosing the deck (phase ``redraw``). With nothing to draw, the first round begins."""
    hand = new["hands"][player]
    chosen = [c for c in hand if c in cards]
    new["exchange"][player] = chosen
    new["active_players"] = [p for p in new["active_players"] if p != player]
    events.append({"type": "exchange_chosen", "player": player, "cards": list(chosen)})
    if new["active_players"]:
        return
    counts = []
    for p in advisors(new):
        gone = new["exchange"][p]
        new["hands"][p] = [c for c in new["hands"][p] if c not in gone]
        new["discard"].extend(gone)
        counts.append((p, len(gone)))
        events.append(
            {"type": "cards_exchanged", "player": p, "count": len(gone), "cards": list(gone)}
        )
    new["exchange"] = None
    decks.rebuild_if_empty(new, rng, events)
    queue = round_robin(counts)
    if not queue:
        rounds.start_round(new, 1, events)
        return
    new["draw_queue"] = queue
    new["phase"] = "redraw"
    new["active_players"] = [queue[0]]


def apply_draw(new: State, player: PlayerId, index: int, rng: Rng, events: list[Event]) -> None:
    """``player`` (first in the draw queue) draws from deck ``index``; the next in the queue
    draws next, or the phase moves on (:func:`after_draws`)."""
    decks.draw_card(new, player, index, rng, events)
    queue = new["draw_queue"][1:]
    new["draw_queue"] = queue
    if queue:
        new["active_players"] = [queue[0]]
    else:
        after_draws(new, events)


def apply_name(new: State, successor: PlayerId, rng: Rng, events: list[Event]) -> None:
    """The outgoing Monarch names ``successor`` (who has not reigned yet) and a new reign is set
    up "as per the normal setup" (seed §A new Monarch!; rulings RtC 10)."""
    events.append({"type": "monarch_named", "by": monarch(new), "monarch": successor})
    start_reign(new, successor, rng, events)


def _natural(card_id: str) -> tuple[Any, ...]:
    """``card_id`` in natural order (``card-2`` before ``card-10``): the order the shuffle starts
    from is the deck's as dealt, whatever the order of the state's keys (a client that sorts
    them, as the service stores them, sends the same state; dealing from the key order gave it
    other reigns). The default deck (``p01`` to ``p72``) and custom decks' default ids
    (``card-1`` to ``card-n``) are dealt as before. Ids the same in natural order (``x1`` and
    ``x01``) come in the order of the ids themselves, so the order is total: a stable sort would
    keep such ties in the state's key order."""
    parts = tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", card_id))
    return (parts, card_id)  # the parts first: ``king`` before ``king2``, then the id
