"""A round: secret pitching, the Monarch's decision, acceptance points, the reveal in an order
the Monarch chooses, the first round's change of mind, and the draws that end the round.

Seed 004 §Game round 1 to 6 and the note on the 1st round; rulings RtC 6 (round), RtC 7
(change of mind). Death and abdication are in :mod:`ending`.
"""

from __future__ import annotations

from rules.engine_types import Event, PlayerId, State
from rules.reigns_the_council import decks, ending
from rules.reigns_the_council.content import TRACK_MAX, TRACK_MIN
from rules.reigns_the_council.seats import advisors, monarch
from rules.rng import Rng

__all__ = [
    "DECISIONS",
    "ZONES",
    "ABDICATION_PILE",
    "start_round",
    "apply_pitch",
    "apply_decide",
    "apply_reveal",
    "apply_mind",
    "revealable",
]

DECISIONS = ("accepted", "rejected")
"""The Monarch's decision on a proposal (seed §Game round 2)."""
ZONES = ("white", "black")
"""The zone of a proposal that applies: white if accepted, black if rejected."""
ABDICATION_PILE = 12
"""Seed §End of a reign: the Monarch abdicates at the end of a round with 12 or more accepted
proposals in their pile."""


def start_round(new: State, number: int, events: list[Event]) -> None:
    """Round ``number`` begins: every advisor is active to pitch, simultaneously."""
    order = advisors(new)
    new["round"] = {
        "number": number,
        "pitches": {p: None for p in order},
        "table": {},
        "accepted": None,
        "revealed": [],
        "pending": None,
        "mind_changed": False,
        "discarded": [],
    }
    new["phase"] = "pitch"
    new["active_players"] = order
    events.append({"type": "round_started", "reign": len(new["reigns"]), "round": number})


def apply_pitch(new: State, player: PlayerId, card: str, events: list[Event]) -> None:
    """``player`` secretly pitches ``card`` (it stays in their hand, marked, until everyone has
    pitched). When the last advisor has pitched, every pitched card goes face down onto the
    table, backs public, and the Monarch decides."""
    rnd = new["round"]
    rnd["pitches"][player] = card
    new["active_players"] = [p for p in new["active_players"] if p != player]
    events.append({"type": "proposal_pitched", "player": player, "card": card})
    if new["active_players"]:
        return
    cards = new["cards"]
    table = {}
    for p, c in rnd["pitches"].items():
        new["hands"][p].remove(c)
        table[p] = c
    rnd["table"] = table
    rnd["pitches"] = None
    new["phase"] = "decide"
    new["active_players"] = [monarch(new)]
    events.append(
        {
            "type": "proposals_on_table",
            "backs": {p: list(cards[c]["back"]) for p, c in table.items()},
        }
    )


def apply_decide(new: State, accepted: list[PlayerId], events: list[Event]) -> None:
    """The Monarch accepts the proposals of ``accepted`` (at least one) and rejects the others;
    each advisor whose proposal is accepted scores 1 point at once (seed §Game round 3)."""
    rnd = new["round"]
    order = [p for p in advisors(new) if p in rnd["table"]]
    chosen = [p for p in order if p in accepted]
    rnd["accepted"] = chosen
    events.append(
        {
            "type": "proposals_decided",
            "accepted": list(chosen),
            "rejected": [p for p in order if p not in chosen],
        }
    )
    points = new["reigns"][-1]["points"]
    for p in chosen:
        points[p]["acceptance"] += 1
        events.append({"type": "points_scored", "player": p, "points": 1, "reason": "acceptance"})
    new["phase"] = "reveal"


def revealable(state: State) -> list[PlayerId]:
    """Advisors whose face-down card the Monarch may reveal next: the rejected ones first, and
    the accepted ones once every rejected card is resolved (seed §Game round 4, 5)."""
    rnd = state["round"]
    table = rnd["table"]
    order = [p for p in advisors(state) if p in table]
    rejected = [p for p in order if p not in rnd["accepted"]]
    return rejected or order


def apply_reveal(new: State, advisor: PlayerId, rng: Rng, events: list[Event]) -> None:
    """The Monarch flips ``advisor``'s card. In the first round, while the Monarch has not yet
    changed their mind, they may do so now (phase ``mind``); otherwise the card resolves."""
    rnd = new["round"]
    card = rnd["table"].pop(advisor)
    decision = "accepted" if advisor in rnd["accepted"] else "rejected"
    info = new["cards"][card]
    events.append(
        {
            "type": "proposal_revealed",
            "advisor": advisor,
            "card": card,
            "decision": decision,
            "title": info["title"],
            "back": list(info["back"]),
            "accept": dict(info["accept"]),
            "reject": dict(info["reject"]),
        }
    )
    if rnd["number"] == 1 and not rnd["mind_changed"]:
        rnd["pending"] = {"advisor": advisor, "card": card, "decision": decision}
        new["phase"] = "mind"
        return
    _resolve(new, advisor, card, decision, False, rng, events)


def apply_mind(new: State, change: bool, rng: Rng, events: list[Event]) -> None:
    """First round only: the Monarch keeps their decision on the revealed card, or changes it
    (rejected → accepted: white zone, into the pile; accepted → rejected: black zone,
    discarded). They may change their mind once per reign; acceptance points already scored
    stand, and a late acceptance scores none (rulings RtC 7)."""
    rnd = new["round"]
    pending = rnd["pending"]
    rnd["pending"] = None
    decision = pending["decision"]
    if change:
        decision = "rejected" if decision == "accepted" else "accepted"
        rnd["mind_changed"] = True
        events.append(
            {
                "type": "mind_changed",
                "advisor": pending["advisor"],
                "card": pending["card"],
                "decision": decision,
            }
        )
    _resolve(new, pending["advisor"], pending["card"], decision, change, rng, events)


def _resolve(
    new: State,
    advisor: PlayerId,
    card: str,
    decision: str,
    changed: bool,
    rng: Rng,
    events: list[Event],
) -> None:
    """Apply the card's white zone (accepted) or black zone (rejected), tokens stopping at the
    end spaces; accepted cards join the Monarch's pile, rejected ones the discard pile, face up
    (``discard_revealed``: they stay public, rulings RtC 11). Then a
    token on an end space kills the Monarch (seed §End of a reign); otherwise the next reveal,
    or the end of the round."""
    info = new["cards"][card]
    zone = info["accept"] if decision == "accepted" else info["reject"]
    tracks = new["tracks"]
    for pillar, change in zone.items():
        tracks[pillar] = max(TRACK_MIN, min(TRACK_MAX, tracks[pillar] + change))
    if decision == "accepted":
        new["pile"].append(card)
    else:
        new["discard"].append(card)
        new["discard_revealed"].append(card)
    rnd = new["round"]
    rnd["revealed"].append(
        {"advisor": advisor, "card": card, "decision": decision, "changed": changed}
    )
    events.append(
        {
            "type": "proposal_resolved",
            "advisor": advisor,
            "card": card,
            "decision": decision,
            "zone": ZONES[0] if decision == "accepted" else ZONES[1],
            "changes": dict(zone),
            "tracks": dict(tracks),
        }
    )
    if any(v in (TRACK_MIN, TRACK_MAX) for v in tracks.values()):
        ending.death(new, advisor, card, events)
    elif rnd["table"]:
        new["phase"] = "reveal"
    else:
        _end_of_round(new, rng, events)


def _end_of_round(new: State, rng: Rng, events: list[Event]) -> None:
    """Every card is resolved: with 12 or more cards in the pile the Monarch abdicates;
    otherwise each advisor draws one card, in seat order from the Monarch's left (the decks are
    rebuilt first if they are all empty and the discard pile is not)."""
    if len(new["pile"]) >= ABDICATION_PILE:
        ending.abdicate(new, events)
        return
    decks.rebuild_if_empty(new, rng, events)
    queue = advisors(new)
    new["draw_queue"] = queue
    new["phase"] = "refill"
    new["active_players"] = [queue[0]]
