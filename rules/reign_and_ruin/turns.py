"""Whose turn it is after a play, the final round, and the end of the game.

Seed §4 Play cards ("After you have played your last card, your opponents have to play one last
card after which the game ends"); rulings R&R 4 (one card per turn, no passing) and R&R 10
(final round).
"""

from __future__ import annotations

from rules.engine import end_game, seats_after
from rules.engine_types import Event, PlayerId, State
from rules.reign_and_ruin.scoring import outcome

__all__ = ["end_turn", "finish"]


def end_turn(new: State, player: PlayerId, events: list[Event], emptied: bool) -> None:
    """Advance ``new`` (already a fresh top-level dict) after ``player``'s play has resolved.
    ``emptied``: the card played was the last card of ``player``'s hand.

    In the play phase, the next seat plays next, unless the card played was the last of the
    hand: then the final round starts, even when the card's own ability brought a card back
    into that hand (a Hexen draw, a Crou take or a Nomora revive to the hand): ruling R&R 10,
    "the card that empties the hand starts the final round ... that player has played their
    last card, and plays no more". Its ``to_play`` lists every other player, in seat order from
    the next seat, who still holds a card (players without cards are skipped); if nobody does,
    the game ends at once.

    In the final round, the player who just played leaves ``to_play``; cards gained meanwhile
    grant no further plays. When ``to_play`` is empty the game ends.
    """
    players = new["players"]
    if new["phase"] == "play":
        if not emptied:
            nxt = players[(players.index(player) + 1) % len(players)]  # engine.next_seat
            new["active_players"] = [nxt]
            events.append({"type": "turn_started", "player": nxt})
            return
        hands = new["hands"]
        to_play = [q for q in seats_after(players, player) if hands[q]]
        events.append({"type": "final_round_started", "ended_by": player, "to_play": list(to_play)})
        new["final_round"] = {"ended_by": player, "to_play": to_play}
        if to_play:
            new["phase"] = "final_round"
            new["active_players"] = [to_play[0]]
            events.append({"type": "turn_started", "player": to_play[0]})
        else:
            finish(new, events)
        return
    old = new["final_round"]
    rest = old["to_play"][1:]
    new["final_round"] = {"ended_by": old["ended_by"], "to_play": rest}
    if rest:
        new["active_players"] = [rest[0]]
        events.append({"type": "turn_started", "player": rest[0]})
    else:
        finish(new, events)


def finish(new: State, events: list[Event]) -> None:
    """End the game: status and phase ``finished``, nobody active, ``outcome`` set,
    ``game_over``."""
    events.append(end_game(new, outcome(new)))
