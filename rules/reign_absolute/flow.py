"""Whose move it is: turns, the automatic reinforcement draw, eradication and victory.

After every move :func:`advance` walks the game forward through everything the rules force
(drawing the reinforcement card, skipping eradicated players, ending turns) until a player has
a decision to make, and sets ``active_players`` to that player.

Seed, Turn / Reinforcement Phase / Victory; rulings RA 6 (turn), RA 9 (Doom: no reinforcement
for the caller), RA 10 (draw one), RA 11 (eradication, bonus unit, last Liege wins, last
Lieges falling together draw).
"""

from __future__ import annotations

from rules.engine_types import Event, Outcome, PlayerId, State
from rules.reign_absolute.deck import draw_card
from rules.reign_absolute.grid import cell_of, empty_cells_next_to, occupancy
from rules.rng import Rng

__all__ = [
    "END_REASONS",
    "BONUS_SKIP_REASONS",
    "new_turn",
    "advance",
    "eradicate",
    "check_victory",
    "bonus_cells",
    "alive",
    "finish",
    "scores",
    "turn_limit_winners",
    "next_alive",
]

END_REASONS = ("last_liege", "lieges_fell_together", "turn_limit")
"""How a game ends: one Liege left, the last Lieges falling together, or the turn limit."""
BONUS_SKIP_REASONS = ("no_unit_in_discard", "no_free_cell")
"""Why an owed eradication bonus unit cannot be placed."""


def alive(state: State) -> list[PlayerId]:
    """Players still in the game (not eradicated), in seat order."""
    gone = state["eradicated"]
    return [p for p in state["players"] if p not in gone]


def next_alive(state: State, player: PlayerId) -> PlayerId:
    """The next player clockwise from ``player`` who is still in the game."""
    players = state["players"]
    i = players.index(player)
    for k in range(1, len(players) + 1):
        p = players[(i + k) % len(players)]
        if p not in state["eradicated"]:
            return p
    return player


def new_turn(player: PlayerId, number: int, extra_turns: int = 0) -> dict:
    """A turn at its Action Phase."""
    return {
        "player": player,
        "number": number,
        "stage": "action",
        "draws_left": 0,
        "drawn": None,
        "marching": False,
        "extra_turns": extra_turns,
    }


def scores(state: State) -> dict[PlayerId, int]:
    """Each player's units in play (0 once eradicated): the provisional standing."""
    counts = {p: 0 for p in state["players"]}
    for entry in state["battlefield"].values():
        counts[entry["owner"]] += 1
    return counts


def strength_in_play(state: State) -> dict[PlayerId, int]:
    totals = {p: 0 for p in state["players"]}
    units = state["units"]
    for uid, entry in state["battlefield"].items():
        totals[entry["owner"]] += units[uid]["strength"]
    return totals


def finish(state: State, winners: list[PlayerId], reason: str, events: list[Event]) -> None:
    """End the game: ``outcome`` set, nobody active, no Doom or bonus pending any more."""
    draw = len(winners) != 1
    state["status"] = "finished"
    state["phase"] = "finished"
    state["active_players"] = []
    state["doom"] = None
    state["bonus_owed"] = []
    state["outcome"] = Outcome(tuple(winners), draw, scores(state), reason).to_dict()
    events.append({"type": "game_over", "winners": list(winners), "draw": draw, "reason": reason})


def turn_limit_winners(state: State) -> list[PlayerId]:
    """Turn limit tie-break: among players still in the game, the most units in play, then the
    highest total base strength in play; players still tied share a draw."""
    counts, strength = scores(state), strength_in_play(state)
    still = alive(state)
    best = max((counts[p], strength[p]) for p in still)
    return [p for p in still if (counts[p], strength[p]) == best]


def eradicate(state: State, player: PlayerId, by: PlayerId | None, events: list[Event]) -> None:
    """Rulings RA 11: every unit of ``player`` leaves the battlefield (to their unit discard
    pile, face up), their reinforcements go to the reinforcement discard, and ``by`` (the
    player who eradicated them, attacking, defending or calling Doom) is owed the bonus unit."""
    battlefield = state["battlefield"]
    units = sorted(u for u, e in battlefield.items() if e["owner"] == player)
    cards: list[str] = []
    for uid in units:
        cards.extend(battlefield.pop(uid)["reinforcements"])
        state["unit_discards"][player].append(uid)
    state["discard"].extend(cards)
    state["eradicated"].append(player)
    if state["doom"] is not None and player in state["doom"]["to_discard"]:
        state["doom"]["to_discard"].remove(player)
    events.append(
        {"type": "player_eradicated", "player": player, "by": by, "units": units, "cards": cards}
    )
    if by is not None and by != player:
        state["bonus_owed"].append(by)


def check_victory(state: State, fallen: list[PlayerId], events: list[Event]) -> bool:
    """Finish the game if at most one player is left: the last Liege in play wins; if the
    last Lieges fell together (``fallen``), those players share a draw. True when finished."""
    left = alive(state)
    if len(left) == 1:
        finish(state, left, "last_liege", events)
        return True
    if not left:
        finish(state, [p for p in state["players"] if p in fallen], "lieges_fell_together", events)
        return True
    return False


def bonus_cells(state: State, player: PlayerId) -> list[tuple[int, int]]:
    """Empty cells next to one of ``player``'s units: where a bonus unit may go."""
    battlefield = state["battlefield"]
    mine = [cell_of(e) for e in battlefield.values() if e["owner"] == player]
    return empty_cells_next_to(mine, occupancy(battlefield))


def _end_turn(state: State, events: list[Event]) -> None:
    turn = state["turn"]
    player = turn["player"]
    events.append({"type": "turn_ended", "player": player, "number": turn["number"]})
    if turn["number"] >= state["turn_limit"]:
        finish(state, turn_limit_winners(state), "turn_limit", events)
        return
    if player not in state["eradicated"] and turn["extra_turns"] > 0:
        state["turn"] = new_turn(player, turn["number"] + 1, turn["extra_turns"] - 1)
        events.append(
            {
                "type": "turn_started",
                "player": player,
                "number": turn["number"] + 1,
                "another_turn": True,
            }
        )
        return
    nxt = next_alive(state, player)
    state["turn"] = new_turn(nxt, turn["number"] + 1)
    events.append(
        {"type": "turn_started", "player": nxt, "number": turn["number"] + 1, "another_turn": False}
    )


def advance(state: State, rng: Rng, events: list[Event]) -> None:
    """Walk forward through every forced step until someone must decide (mutates ``state``).

    In order: a bonus unit owed (skipped, with ``bonus_skipped``, when the player has no unit
    in their discard pile or no free cell next to their units); the Doom discards still due;
    the current turn's Action Phase; its Reinforcement Phase (Forced March to make, the drawn
    card to place or resolve, cards still to draw); else the turn ends.
    """
    while True:
        if state["status"] == "finished":
            state["active_players"] = []
            return
        owed = state["bonus_owed"]
        if owed:
            p = owed[0]
            if p in state["eradicated"]:
                owed.pop(0)
                continue
            if not state["unit_discards"][p] or not bonus_cells(state, p):
                owed.pop(0)
                reason = "no_unit_in_discard" if not state["unit_discards"][p] else "no_free_cell"
                events.append({"type": "bonus_skipped", "player": p, "reason": reason})
                continue
            state["active_players"] = [p]
            return
        doom = state["doom"]
        if doom is not None:
            if doom["to_discard"]:
                state["active_players"] = [doom["to_discard"][0]]
                return
            state["doom"] = None
            events.append({"type": "doom_ended", "caller": doom["caller"]})
            _end_turn(state, events)
            continue
        turn = state["turn"]
        player = turn["player"]
        if player in state["eradicated"]:
            _end_turn(state, events)
            continue
        if turn["stage"] == "action" or turn["marching"] or turn["drawn"] is not None:
            state["active_players"] = [player]
            return
        if turn["draws_left"] > 0:
            turn["draws_left"] -= 1
            card = draw_card(state, rng, events)
            if card is None:
                events.append({"type": "deck_empty", "player": player})
                continue
            turn["drawn"] = card
            kind = state["cards"][card]["kind"]
            events.append(
                {"type": "reinforcement_drawn", "player": player, "kind": kind, "card": card}
            )
            continue
        _end_turn(state, events)
