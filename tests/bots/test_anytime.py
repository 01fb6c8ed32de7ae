"""The anytime expert: the greedy move unless its search finds evidence against it (issue 28).

Not timed: budgets are playout counts and the clock is a stub, so every answer here is exact."""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from rules.bots import BOTS, suggest
from rules.bots.core import (
    MIN_ROUNDS,
    SEARCH_SHARE,
    WORK_SHARE,
    challenger,
    lower_bound,
    playouts_for,
    search_width,
    upper_bound,
)
from rules.engine_types import Move, PlayerId, State
from tests.bots.positions import GAME_IDS, positions


def _never() -> float:
    return 0.0


def _chosen(game_id: str) -> list[dict]:
    return positions(game_id, seed=6, every=15 if game_id == "reign-supreme" else 9)[:4]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_with_no_time_to_search_the_expert_plays_greedys_move(game_id):
    """A budget too small for a search leaves the expert with the greedy level's own choice:
    the same imagined states, the same generator, the same move."""
    bot = BOTS[game_id]
    game = bot.game
    for state in _chosen(game_id):
        player = state["active_players"][0]
        view = game.view(state, player)
        for seed in (1, 2):
            greedy = suggest(bot, view, player, "greedy", seed, 1, clock=_never)
            expert = suggest(bot, view, player, "expert", seed, 1, clock=_never)
            assert expert.move == greedy.move and expert.complete
            assert expert.playouts == 0 or expert.considered == 1


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_expert_is_reproducible_when_complete(game_id):
    bot = BOTS[game_id]
    game = bot.game
    state = _chosen(game_id)[1]
    player = state["active_players"][0]
    first = suggest(bot, game.view(state, player), player, "expert", 5, 300, clock=_never)
    again = suggest(bot, game.view(state, player), player, "expert", 5, 300, clock=_never)
    assert first.complete and again == first


def test_a_deadline_reached_during_the_search_says_incomplete_and_stays_legal():
    """The greedy pass finishes in time, the search does not: the answer is the best so far
    (here still greedy's move, as no challenger had its rounds) and ``complete`` is false."""
    bot = BOTS["reign-and-ruin"]
    game = bot.game
    state = positions("reign-and-ruin")[0]
    player = state["active_players"][0]
    view = game.view(state, player)
    moves = len([m for m in game.legal_moves(state, player) if m["type"] != "concede"])
    looks = itertools.count()
    # the clock passes the deadline once the greedy pass (one look per move) is over
    late = lambda: 0.0 if next(looks) < moves else 10.0  # noqa: E731
    cut = suggest(bot, view, player, "expert", 1, 1000, clock=late)
    greedy = suggest(bot, view, player, "greedy", 1, 1000, clock=_never)
    assert not cut.complete and cut.move == greedy.move and cut.playouts == 0
    assert game.violations(state, cut.move) == []
    full = suggest(bot, view, player, "expert", 1, 1000, clock=_never)
    assert full.complete and 0 < full.playouts <= playouts_for(bot, 1000)


def test_the_budget_pays_for_the_greedy_pass_first():
    bot = BOTS["reign-absolute"]
    assert playouts_for(bot, 1000) == int(SEARCH_SHARE * bot.playouts_per_second)
    assert playouts_for(bot, 1000, 10) < playouts_for(bot, 1000)
    assert playouts_for(bot, 50, 10**6) == 0


def test_the_search_is_only_as_wide_as_the_budget_can_test():
    bot = BOTS["reign-and-ruin"]
    assert search_width(bot, 2 * MIN_ROUNDS - 1, 20) == 0
    assert search_width(bot, 2 * MIN_ROUNDS, 20) == 2
    assert search_width(bot, 10**6, 20) == 8
    assert search_width(bot, 10**6, 3) == 3
    assert search_width(BOTS["reigns-the-council"], 10**6, 20) == 3


def test_a_challenger_needs_enough_rounds_and_a_lower_bound_above_zero():
    sure = [0.5] * MIN_ROUNDS
    assert lower_bound(sure) > 0 and upper_bound([-0.5] * MIN_ROUNDS) < 0
    assert challenger([sure[:-1]]) is None  # too few rounds
    assert challenger([[0.0] * MIN_ROUNDS]) is None  # no gain
    noisy = [1.0, -1.0] * (MIN_ROUNDS // 2) + [1.0]  # mean 1/9, far inside its noise
    assert challenger([noisy]) is None
    assert challenger([[0.0] * MIN_ROUNDS, sure, [0.3] * MIN_ROUNDS]) == 1


def _rr_decision():
    bot = BOTS["reign-and-ruin"]
    state = positions("reign-and-ruin")[0]
    player = state["active_players"][0]
    return bot, bot.game.view(state, player), player


def test_a_challenger_that_wins_every_paired_playout_replaces_the_greedy_move(monkeypatch):
    from rules.bots import core

    bot, view, player = _rr_decision()
    greedy = suggest(bot, view, player, "greedy", 3, 1000, clock=_never)
    monkeypatch.setattr(
        core,
        "_playout",
        lambda b, s, move, p, seed, pace=None: 0.0 if move == greedy.move else 1.0,
    )
    expert = suggest(bot, view, player, "expert", 3, 1000, clock=_never)
    assert expert.move != greedy.move and expert.reason.startswith("beat the greedy move")


def test_noise_without_a_gain_keeps_the_greedy_move(monkeypatch):
    """Challengers that win and lose their paired playouts by turns (a small mean gain, far
    inside the noise) do not move the expert off greedy's choice."""
    from rules.bots import core

    bot, view, player = _rr_decision()
    greedy = suggest(bot, view, player, "greedy", 3, 1000, clock=_never)
    flips = itertools.count()
    monkeypatch.setattr(
        core,
        "_playout",
        lambda b, s, move, p, seed, pace=None: (
            0.5 if move == greedy.move else float(next(flips) % 2)
        ),
    )
    expert = suggest(bot, view, player, "expert", 3, 1000, clock=_never)
    assert expert.move == greedy.move and expert.playouts > 0


@pytest.mark.parametrize("tick_ms", [2, 4, 7])  # none divides 45: no tie at the limit
def test_the_greedy_pass_stops_before_a_move_that_would_end_late(tick_ms):
    """A clock that moves ``tick_ms`` per look (every step costs that much): the pass values
    moves while one more step ends within ``WORK_SHARE`` of ``time_ms``, and not one more."""
    bot = BOTS["reign-supreme"]
    game = bot.game
    state = positions("reign-supreme", seed=6, every=15)[1]
    player = state["active_players"][0]
    moves = [m for m in game.legal_moves(state, player) if m["type"] != "concede"]
    time_ms = 50
    assert len(moves) * tick_ms > WORK_SHARE * time_ms  # too many moves to value them all
    looks = itertools.count()
    ticking = lambda: next(looks) * tick_ms / 1000  # noqa: E731
    cut = suggest(bot, game.view(state, player), player, "greedy", 1, time_ms, clock=ticking)
    valued = cut.playouts // bot.greedy_samples
    limit = WORK_SHARE * time_ms
    assert not cut.complete and game.violations(state, cut.move) == []
    # the look before the last valued move left room for it; the next look would not have
    assert (valued - 1) * tick_ms + tick_ms <= limit + 1e-9 < valued * tick_ms + tick_ms


def test_the_deadline_counts_from_started_when_given():
    """``started`` (the request's arrival) moves the deadline back: the same ticking clock and
    ``time_ms`` value fewer moves by the time already spent before ``suggest`` was called."""
    bot = BOTS["reign-supreme"]
    game = bot.game
    state = positions("reign-supreme", seed=6, every=15)[1]
    player = state["active_players"][0]
    view = game.view(state, player)
    tick_ms, time_ms, spent_ms = 2, 50, 20

    def valued(started: float | None) -> int:
        looks = itertools.count(spent_ms // tick_ms)  # the clock reads spent_ms at the call
        ticking = lambda: next(looks) * tick_ms / 1000  # noqa: E731
        cut = suggest(bot, view, player, "greedy", 1, time_ms, clock=ticking, started=started)
        assert not cut.complete and game.violations(state, cut.move) == []
        return cut.playouts // bot.greedy_samples

    from_call, from_arrival = valued(None), valued(0.0)
    assert from_call - from_arrival == spent_ms // tick_ms


class _WorkClock:
    """A fake clock on which time is work: it moves ``tick`` seconds per unit of a bot's work, a
    state valued or a listing of the legal moves, so a deadline is a number of units and the
    test is exact on any machine (a rollout that picks its moves at random, as the Council's
    mostly does, values almost nothing: its listings are its work). ``evaluate`` and
    ``legal_moves`` wrap the bot's own; past ``cap`` units they stop the bot at once (a bot with
    no deadline in its rollouts would otherwise run for seconds)."""

    def __init__(self, evaluate: Callable[[State, PlayerId], float], tick: float, cap: int):
        self._evaluate, self.tick, self.cap, self.evaluations = evaluate, tick, cap, 0

    def __call__(self) -> float:
        return self.evaluations * self.tick

    def evaluate(self, state: State, player: PlayerId) -> float:
        self._work()
        return self._evaluate(state, player)

    def listing(self, legal_moves: Callable[..., list[Move]]) -> Callable[..., list[Move]]:
        def listed(*args: Any) -> list[Move]:
            self._work()
            return legal_moves(*args)

        return listed

    def _work(self) -> None:
        self.evaluations += 1
        assert self.evaluations <= self.cap, "the bot worked far past its deadline"


def _worked(monkeypatch, game_id, view, player, level, seed, time_ms, tick):
    """The suggestion with the work clock, and the evaluations it took."""
    bot = BOTS[game_id]
    work = _WorkClock(bot.evaluate, tick, cap=10 * int(WORK_SHARE * time_ms / 1000 / tick))
    with monkeypatch.context() as patch:
        patch.setattr(bot, "evaluate", work.evaluate)
        patch.setattr(bot.game, "legal_moves", work.listing(bot.game.legal_moves))
        chosen = suggest(bot, view, player, level, seed, time_ms, clock=work)
    return chosen, work.evaluations


def _few_against_thousands() -> tuple[State, PlayerId]:
    """The hunt's Reign & Ruin state in small: a custom deck of 60 Nomora cards, the draft
    played, the draw pile emptied into the discard pile and the hand on turn made Hexen. The
    seat on turn can only play its 7 cards as fighters; the next player revives any of 32
    discarded cards into any of 4 armies or their hand with any of their 7 cards."""
    game = BOTS["reign-and-ruin"].game
    deck = [{"faction": "nomora", "value": 1 + i % 9} for i in range(60)]
    state = game.setup(["p1", "p2", "p3", "p4"], 1, {"deck": deck})
    chooser = random.Random(1)
    while state["phase"] == "draft":
        state, _ = game.apply(state, chooser.choice(game.legal_moves(state)))
    state = json.loads(json.dumps(state))
    state["discard_pile"] += state["draw_pile"]
    state["draw_pile"] = []
    player = state["active_players"][0]
    for card in state["hands"][player]:
        state["cards"][card]["faction"] = "hexen"
    game.check_state(state)
    return state, player


def test_a_search_among_thousands_of_opponent_moves_stops_at_the_deadline(monkeypatch):
    """Few moves of its own unlock the search; a rollout step values every move of the next
    player, over a thousand. Before, the first playout ran to its end unwatched (13 s at
    ``time_ms`` 1000 in the hunt's state): now it is abandoned once the deadline passes, at most
    one evaluation late, and the answer is the greedy move, incomplete."""
    state, player = _few_against_thousands()
    bot = BOTS["reign-and-ruin"]
    game = bot.game
    own = [m for m in game.legal_moves(state, player) if m["type"] != "concede"]
    after, _ = game.apply(state, own[0])
    assert len(own) == 7 and len(game.legal_moves(after)) > 1000
    view, time_ms, tick = game.view(state, player), 1000, 0.001  # 900 evaluations in time
    budget = playouts_for(bot, time_ms, len(own) * bot.greedy_samples)
    assert search_width(bot, budget, len(own)) >= 2  # the search has a budget
    cut, evaluations = _worked(monkeypatch, bot.game.id, view, player, "expert", 1, time_ms, tick)
    greedy = suggest(bot, view, player, "greedy", 1, time_ms, clock=_never)
    assert evaluations <= WORK_SHARE * time_ms / 1000 / tick + 1
    assert not cut.complete and cut.playouts == 0 and cut.move == greedy.move


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_first_playout_of_a_search_stops_at_the_deadline(game_id, monkeypatch):
    """Nothing predicts the first playout's length, so with the deadline just after the greedy
    pass (room for one more move of it) the search starts it: it must stop at the deadline,
    at most one evaluation late, and leave the greedy move."""
    bot = BOTS[game_id]
    game = bot.game
    state = _chosen(game_id)[1]
    player = state["active_players"][0]
    view, time_ms = game.view(state, player), 10_000
    _, greedy_pass = _worked(monkeypatch, game_id, view, player, "greedy", 1, time_ms, 1e-9)
    # the deadline after the greedy pass and one more move of it, plus half an evaluation
    tick = WORK_SHARE * time_ms / 1000 / (greedy_pass + bot.greedy_samples + 0.5)
    cut, evaluations = _worked(monkeypatch, game_id, view, player, "expert", 1, time_ms, tick)
    greedy = suggest(bot, view, player, "greedy", 1, time_ms, clock=_never)
    assert greedy_pass < evaluations <= greedy_pass + bot.greedy_samples + 1  # the search began
    assert cut.move == greedy.move and cut.playouts == 0 and not cut.complete
