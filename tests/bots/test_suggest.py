"""Suggestions: legal, reproducible, blind to what the seat may not see, within the deadline."""

from __future__ import annotations

import itertools
import random

import pytest

from rules.bots import BOTS, LEVELS, NoMoveToSuggest, suggest
from rules.bots.core import outcome_value, playouts_for
from tests.bots.positions import GAME_IDS, positions

TIME_MS = 100
"""Small budgets keep these tests cheap; the budget is a playout count, so results are exact."""


def _never() -> float:
    return 0.0


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_suggests_a_legal_move_reproducibly(game_id, level):
    bot = BOTS[game_id]
    game = bot.game
    chosen = positions(game_id, seed=4, every=15 if game_id == "reign-supreme" else 9)[:6]
    assert chosen
    for state in chosen:
        player = state["active_players"][0]
        view = game.view(state, player)
        first = suggest(bot, view, player, level, 11, TIME_MS, clock=_never)
        assert game.violations(state, first.move) == [], (state["move_count"], first)
        assert first.move["player"] == player and first.level == level and first.complete
        again = suggest(bot, game.view(state, player), player, level, 11, TIME_MS, clock=_never)
        assert again == first


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_same_view_same_suggestion(game_id):
    """Two states that differ only in what the player cannot see (another imagined state with
    the same view: other hands, deck order, generator) give the same suggestion."""
    bot = BOTS[game_id]
    game = bot.game
    state = positions(game_id, seed=5)[2]
    player = state["active_players"][0]
    view = game.view(state, player)
    twin = bot.determinize(view, random.Random(99))
    assert game.view(twin, player) == view and twin["rng"] != state["rng"]
    for level in LEVELS:
        mine = suggest(bot, game.view(state, player), player, level, 3, TIME_MS, clock=_never)
        theirs = suggest(bot, game.view(twin, player), player, level, 3, TIME_MS, clock=_never)
        assert mine == theirs


def test_the_deadline_cuts_the_search_short_and_says_so():
    bot = BOTS["reign-and-ruin"]
    game = bot.game
    state = positions("reign-and-ruin")[0]
    player = state["active_players"][0]
    ticks = itertools.count()
    slow = lambda: float(next(ticks))  # noqa: E731  each look at the clock is one second later
    for level in ("greedy", "expert"):
        cut = suggest(bot, game.view(state, player), player, level, 1, 1000, clock=slow)
        assert not cut.complete and game.violations(state, cut.move) == []
    full = suggest(bot, game.view(state, player), player, "expert", 1, 1000, clock=_never)
    assert full.complete and 0 < full.playouts <= playouts_for(bot, 1000)


def test_no_move_for_a_player_who_is_not_active():
    bot = BOTS["reign-supreme"]
    game = bot.game
    state = positions("reign-supreme")[1]
    idle = next(p for p in state["players"] if p not in state["active_players"])
    with pytest.raises(NoMoveToSuggest):
        suggest(bot, game.view(state, idle), idle, "random", 1, TIME_MS)


def test_outcome_value():
    assert outcome_value({"status": "in_progress", "outcome": None}, "ann") is None
    done = {"status": "finished", "outcome": {"winners": ["ann", "bob"]}}
    assert outcome_value(done, "ann") == 0.5 and outcome_value(done, "cat") == 0.0


def _off_turn_positions(limit: int = 400):
    """Reign Supreme states in which some player is listed outside their own turn (ruling RS 10),
    from random games with cards (a card in hand is enough to be listed)."""
    from rules.playout import choose_move

    game = BOTS["reign-supreme"].game
    chooser = random.Random(5)
    state = game.setup(["ann", "bob"], 5, {"setup": "auto"})
    for _ in range(limit):
        if state["status"] == "finished":
            break
        for p in state["active_players"][1:]:
            yield state, p
        state, _ = game.apply(state, choose_move(game.legal_moves(state), chooser, 0.0))


def test_a_bot_never_suggests_conceding():
    """A player listed outside their own turn may have nothing to do but concede: no move is
    suggested then, and otherwise the suggestion is never a concession."""
    bot = BOTS["reign-supreme"]
    seen_only_concede = seen_other = False
    for state, player in _off_turn_positions():
        types = {m["type"] for m in bot.game.legal_moves(state, player)}
        view = bot.game.view(state, player)
        if types == {"concede"}:
            seen_only_concede = True
            with pytest.raises(NoMoveToSuggest):
                suggest(bot, view, player, "random", 1, TIME_MS, _never)
        elif not seen_other:
            seen_other = True
            assert (
                suggest(bot, view, player, "random", 1, TIME_MS, _never).move["type"] != "concede"
            )
        if seen_only_concede and seen_other:
            break
    assert seen_only_concede


def test_a_greedy_rollout_move_is_the_movers_best_one_move_ahead():
    """With ``rollout_greed`` 1 a playout's move is the mover's best by the evaluation (the
    greedy level's choice, the first of equals); with 0 it is a random legal move."""
    from rules.bots.core import _rollout_move

    bot = BOTS["reign-and-ruin"]
    game = bot.game
    state = next(s for s in positions("reign-and-ruin", seed=3, every=1) if s["phase"] == "play")
    mover = state["active_players"][0]
    moves = game.legal_moves(state)
    values = [bot.evaluate(game.apply(state, m)[0], mover) for m in moves]
    best = game.apply(state, moves[values.index(max(values))])[0]
    assert len(set(values)) > 1  # the position tells moves apart
    greedy, uniform = type(bot)(), type(bot)()
    greedy.rollout_greed, uniform.rollout_greed = 1.0, 0.0
    assert all(_rollout_move(greedy, state, moves, random.Random(s)) == best for s in range(3))
    after = [game.apply(state, m)[0] for m in moves]
    chosen = [_rollout_move(uniform, state, moves, random.Random(s)) for s in range(20)]
    assert all(c in after for c in chosen) and any(c != best for c in chosen)
