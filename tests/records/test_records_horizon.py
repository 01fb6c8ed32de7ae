"""The information horizon's barriers (``rules.records.horizon.barrier``) for what a move makes
public without chance, a secret choice or the end of the game."""

from __future__ import annotations

import random

from rules.records import barrier
from rules.registry import get_game


def test_a_reign_supreme_defeat_with_three_seats_is_a_barrier():
    """With three seats a defeat does not end the game, and the loser's hand goes face up to the
    discard piles (or to the Throne's taker): a takeback past it would put the cards back in a
    hand every other seat has now seen (a hunt took back a shot that knocked a player out)."""
    game = get_game("reign-supreme")
    chooser = random.Random(4)
    state = game.setup(["ann", "bob", "cat"], 4, {})
    while not (state["phase"] == "combat" and state["hands"]["bob"]):
        moves = [m for m in game.legal_moves(state) if m["type"] != "concede"]
        state, _ = game.apply(state, chooser.choice(moves))
    concede = {"player": "bob", "type": "concede"}
    after, events = game.apply(state, concede)
    assert after["status"] == "in_progress" and "bob" in after["defeated"]
    assert any(e["type"] == "player_defeated" for e in events)
    entry = {"version": 1, "player": "bob", "move": concede, "events": events}
    assert barrier(game, state, after, entry) == "reveal"
