"""A fork of a running game starts from one seat's knowledge: it depends on that seat's view
only, never on the true hidden cards; a fork of a finished game is the true state."""

from __future__ import annotations

import random

import pytest

from rules.bots import BOTS
from rules.records import fork_state
from rules.registry import get_game
from tests.council_decks import CUSTOM_COUNCIL_DECKS
from tests.records.games import GAME_IDS, PLAYERS, play


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_fork_as_a_seat_depends_on_its_view_only(game_id):
    game = get_game(game_id)
    states, _ = play(game_id, 8, 40)
    for version in (0, len(states) // 2, len(states) - 1):
        truth = states[version]
        if truth["status"] == "finished":
            continue
        for seat in PLAYERS[game_id]:
            view = game.view(truth, seat)
            other_truth = BOTS[game_id].determinize(view, random.Random(99))  # same view
            forked = fork_state(game, truth, seat, random.Random(1))
            assert forked == fork_state(game, other_truth, seat, random.Random(1))
            assert game.view(forked, seat) == view
            game.check_state(forked)
            assert forked["rng"] != truth["rng"] and forked["seed"] != truth["seed"]


def test_a_fork_does_not_hold_the_true_hidden_cards():
    """Reign & Ruin at setup: bob's and cat's packets are drawn afresh for ann's fork."""
    game = get_game("reign-and-ruin")
    truth = game.setup(PLAYERS["reign-and-ruin"], 11, {})
    forked = fork_state(game, truth, "ann", random.Random(2))
    assert forked["draft"]["packets"]["ann"] == truth["draft"]["packets"]["ann"]
    for other in ("bob", "cat"):
        assert forked["draft"]["packets"][other] != truth["draft"]["packets"][other]
    assert forked["draw_pile"] != truth["draw_pile"]


def test_a_fork_of_a_finished_game_is_the_true_state():
    game = get_game("reign-and-ruin")
    states, _ = play("reign-and-ruin", 8)
    assert states[-1]["status"] == "finished"
    forked = fork_state(game, states[-1], None, random.Random(1))
    assert forked == states[-1] and forked is not states[-1]


@pytest.mark.parametrize("deck", CUSTOM_COUNCIL_DECKS.values(), ids=list(CUSTOM_COUNCIL_DECKS))
def test_a_council_game_of_a_custom_deck_is_not_forked_as_a_seat(deck):
    """The determinizer knows only the default deck: a running custom-deck game forked from a
    seat's view would be played with the default cards of its ids (``POST /fork``: 422
    ``fork_unavailable``). The deck is public (the session's options), so refusing says nothing
    hidden; a finished game's fork is its true state, deck and all."""
    game = get_game("reigns-the-council")
    truth = game.setup(PLAYERS["reigns-the-council"], 5, {"deck": deck})
    with pytest.raises(ValueError, match="default deck only"):
        fork_state(game, truth, PLAYERS["reigns-the-council"][0], random.Random(1))
    assert fork_state(game, truth, None, random.Random(1)) == truth
