"""The simultaneous secret draft.

Seed §2 Draft your hand of cards; rulings R&R 2: in every draft round each player,
simultaneously and secretly, keeps 2 cards of the packet in front of them, then the rest passes
to the next seat once everyone has chosen: 7 → 5 → 3 → 1, and the last single card is kept
automatically.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from itertools import combinations
from typing import Any

from rules.engine_types import Action, Event, Move, PlayerId, State, Violation
from rules.reign_and_ruin import rulebook
from rules.rng import Rng

__all__ = [
    "ROUNDS",
    "PICKS_PER_ROUND",
    "packet_size",
    "draft_actions",
    "draft_violations",
    "apply_draft",
]

ROUNDS = 3
"""Three rounds of choosing (packets of 7, 5, 3); the single card left is then kept."""
PICKS_PER_ROUND = 2


def packet_size(round_no: int) -> int:
    """Cards in each packet during draft round ``round_no`` (1, 2, 3 → 7, 5, 3)."""
    return 9 - 2 * round_no


def draft_actions(state: State, players: Sequence[PlayerId]) -> list[Action]:
    """Every pair of cards each of ``players`` may keep from their packet, player by player in
    the given order, pairs in packet order, as actions (``rules.reign_and_ruin.actions``)."""
    packets = state["draft"]["packets"]
    actions: list[Action] = []
    for p in players:
        actions += _pair_actions(p, tuple(packets[p]))
    return actions


@functools.lru_cache(maxsize=256)
def _pair_actions(player: PlayerId, packet: tuple[str, ...]) -> tuple[Action, ...]:
    """The draft actions of ``player`` holding ``packet``, kept for the 256 last asked about: a
    packet stays the same until everyone has chosen, and every listing meanwhile asks for it
    again (three players: 63 actions at a round's first listing, the same 42 at its second and
    21 at its third; issue 28). Keyed by the packet's cards, not its list object, so a state
    edited in place is never answered from another's."""
    return tuple([("draft", player, a, b) for a, b in combinations(packet, 2)])


def draft_violations(state: State, move: Move, player: PlayerId) -> list[Violation]:
    """Why ``player`` may not keep ``move["cards"]``; the phase and turn are checked by the caller.

    The move must name exactly two different cards of the player's own packet, and the player
    must not have chosen already this round.
    """
    draft = state["draft"]
    if draft["picks"][player]:
        return [
            Violation(
                "already_picked",
                "You have already chosen your two cards this round; wait for the others.",
                rulebook.DRAFT,
            )
        ]
    chosen = move.get("cards")
    if not isinstance(chosen, list) or len(chosen) != PICKS_PER_ROUND:
        return [
            Violation(
                "wrong_pick_count", "Choose exactly two cards from your packet.", rulebook.DRAFT
            )
        ]
    a, b = chosen
    if not isinstance(a, str) or not isinstance(b, str):
        return [Violation("card_not_in_packet", "Name the two cards by their ids.", rulebook.DRAFT)]
    if a == b:
        return [Violation("duplicate_pick", "Choose two different cards.", rulebook.DRAFT)]
    packet = draft["packets"][player]
    if a in packet and b in packet:
        return []
    return [
        Violation("card_not_in_packet", f"Card {c!r} is not in your packet.", rulebook.DRAFT)
        for c in chosen
        if c not in packet
    ]


def apply_draft(state: State, action: Action) -> tuple[State, list[Event]]:
    """Keep the two cards of a legal draft ``action``; when the last player has chosen, pass the
    packets on.

    Picks are stored in packet order, the order of the action's cards (whatever the order of
    ``cards`` in the client's move: ``actions.action_of``).
    When everyone has chosen, each packet loses its picks, picks join ``kept``, and what is left
    goes to the next seat (the player on the left). After the third round the single card each
    player is passed is kept automatically, ``kept`` becomes the hand, and play begins with the
    starting player (seed §4; rulings R&R 3), drawn now with the state's generator when
    ``options.starting_player`` did not name one (seed §3 "Determine starting player" comes
    after §2 "Draft your hand of cards").
    """
    old = state["draft"]
    _, player, first, second = action
    picks = [first, second]
    new = state.copy()
    new["move_count"] = state["move_count"] + 1
    events: list[Event] = [{"type": "draft_pick", "player": player, "cards": [first, second]}]
    all_picks = old["picks"].copy()
    all_picks[player] = picks
    waiting = state["active_players"].copy()
    waiting.remove(player)
    if waiting:
        draft = old.copy()  # the same round, packets and kept cards
        draft["picks"] = all_picks
        new["draft"] = draft
        new["active_players"] = waiting
        return new, events
    _pass_packets(new, old, all_picks, events)
    return new, events


def _pass_packets(
    new: State, old: dict[str, Any], all_picks: dict[str, list[str]], events: list[Event]
) -> None:
    """Everyone has chosen: picks join ``kept`` and the rest of each packet goes to the left,
    so each player receives what is left of the packet of the seat on their right. The new maps
    are made in seat order, as the old ones were."""
    players = new["players"]
    round_no = old["round"]
    old_kept = old["kept"]
    old_packets = old["packets"]
    kept: dict[str, list[str]] = {}
    packets: dict[str, list[str]] = {}
    picks: dict[str, list[str]] = {}
    for i, p in enumerate(players):
        kept[p] = old_kept[p] + all_picks[p]
        right = players[i - 1]  # p is the seat to the left of right (engine.next_seat)
        rest = old_packets[right].copy()
        for card in all_picks[right]:
            rest.remove(card)
        packets[p] = rest
        picks[p] = []
    events.append({"type": "packets_passed", "round": round_no})
    if round_no < ROUNDS:
        new["draft"] = {
            "round": round_no + 1,
            "packets": packets,
            "picks": picks,
            "kept": kept,
        }
        new["active_players"] = players.copy()
        return
    hands: dict[str, list[str]] = {}
    for p in players:
        (last,) = packets[p]
        hands[p] = [*kept[p], last]
        events.append({"type": "last_card_kept", "player": p, "card": last})
    starting = new["starting_player"]
    if starting is None:
        rng = Rng.parse(new["rng"])
        starting = rng.choice(players)
        new["rng"] = str(rng)
        new["starting_player"] = starting
    new["hands"] = hands
    new["draft"] = None
    new["phase"] = "play"
    new["active_players"] = [starting]
    events.append({"type": "draft_finished", "starting_player": starting})
    events.append({"type": "turn_started", "player": starting})
