"""``reign-referee simulate --bots``: seats rotate, win rates per level and seat, and a small
deterministic win-rate check (the real measurement is a ``simulate`` run, see the note of
issue 15 and docs/rules/*.md "Bots")."""

from __future__ import annotations

import io
import re

import pytest

from api.cli import bot_stats, main, simulate_bots, wilson_interval
from rules.bots import BOTS, match
from rules.bots.core import MIN_ROUNDS
from rules.bots.match import play_bot_game, seat_levels
from rules.bots.reigns_the_council import _PITCH_SHARPNESS
from rules.engine import Game


def test_seats_rotate_every_game():
    assert [seat_levels(["expert", "random", "random"], i) for i in range(3)] == [
        ("expert", "random", "random"),
        ("random", "random", "expert"),
        ("random", "expert", "random"),
    ]


def test_bot_stats_per_level_and_seat():
    results = [
        {"levels": ["expert", "random"], "winners": [0], "draw": False},
        {"levels": ["random", "expert"], "winners": [1], "draw": False},
        {"levels": ["expert", "random"], "winners": [0, 1], "draw": True},
    ]
    stats = bot_stats(results, ["expert", "random"])
    expert, rand = stats["levels"]["expert"], stats["levels"]["random"]
    assert stats["draws"] == 1 and stats["games"] == 3
    assert (expert["played"], expert["wins"], expert["seat_played"], expert["seat_wins"]) == (
        3,
        3,
        [2, 1],
        [2, 1],
    )
    assert (rand["played"], rand["wins"], rand["seat_wins"]) == (3, 1, [0, 1])
    assert rand["seat_win_rate"] == [0.0, 0.5]
    assert expert["interval"] == wilson_interval(3, 3) and expert["interval"][1] == 1.0


def test_wilson_interval():
    """The 95% Wilson score interval (e.g. 50 of 100: 40.4% to 59.6%)."""
    low, high = wilson_interval(50, 100)
    assert round(low, 4) == 0.4038 and round(high, 4) == 0.5962
    low, high = wilson_interval(19, 20)
    assert round(low, 4) == 0.7639 and high < 1.0
    assert wilson_interval(0, 0) == (0.0, 1.0) and wilson_interval(0, 10)[0] == 0.0


def test_simulate_bots_prints_win_rates():
    out, err = io.StringIO(), io.StringIO()
    stats = simulate_bots("reign-and-ruin", ["greedy", "random"], 4, 1, 50, out=out, err=err)
    text = out.getvalue()
    assert re.search(r"^greedy\s+4\s+\d+\s+\d+\.\d%\s+\d+\.\d%-\d+\.\d%", text, re.M) and re.search(
        r"^random\s+4", text, re.M
    )
    assert "4/4" in err.getvalue()  # the progress bar
    assert stats["levels"]["greedy"]["played"] == 4


@pytest.mark.parametrize(
    "argv, message",
    [
        (["simulate", "reign-and-ruin", "--bots", "expert,wizard"], "unknown bot level 'wizard'"),
        (["simulate", "reigns-the-council", "--bots", "expert,random"], "3 to 4 players, not 2"),
        (
            ["simulate", "reign-and-ruin", "--bots", "expert,random", "--players", "3"],
            "--players must match",
        ),
        (["simulate", "reign-and-ruin", "--bots", "random,random", "--time-ms", "0"], "--time-ms"),
    ],
)
def test_simulate_bots_bad_arguments(capsys, argv, message):
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_bot_game_is_reproducible_and_finishes():
    bot = BOTS["reign-and-ruin"]
    first = play_bot_game(bot, ["ann", "bob"], ["expert", "greedy"], 3, 50)
    again = play_bot_game(bot, ["ann", "bob"], ["expert", "greedy"], 3, 50)
    assert first.moves == again.moves and first.score.finished


def test_a_bot_games_clock_starts_before_the_movers_view(monkeypatch):
    """``time_ms`` counts from before the mover's view is drawn, as the service counts it from a
    request's arrival: a slow view is spent from the bot's time, not added to it."""
    now = [0.0]
    bot = BOTS["reign-and-ruin"]
    real_view = bot.game.view

    def slow_view(state, player):
        now[0] += 1.0  # the view takes a second
        return real_view(state, player)

    seen = []

    class Stop(Exception):
        pass

    def suggest(*args, started: float, **kwargs):
        seen.append((started, now[0]))
        raise Stop

    monkeypatch.setattr(bot.game, "view", slow_view)
    monkeypatch.setattr(match, "suggest", suggest)
    state = bot.game.setup(["ann", "bob"], 3, {})
    with pytest.raises(Stop):
        next(match.bot_turns(bot, state, {"ann": "greedy", "bob": "greedy"}, 3, 50, lambda: now[0]))
    assert seen == [(0.0, 1.0)]  # the clock read at 0, the view drawn by 1


SKIRMISH = {"scenario": "skirmish", "round_limit": 8}


@pytest.mark.parametrize(
    "game_id, levels, games, time_ms, at_least, options",
    [
        ("reign-and-ruin", ["expert", "random"], 6, 100, 5, {}),
        ("reign-and-ruin", ["greedy", "random"], 6, 100, 5, {}),
        ("reign-supreme", ["greedy", "random"], 4, 100, 3, SKIRMISH),
    ],
)
def test_stronger_level_wins_most_small_fixed_matches(
    game_id, levels, games, time_ms, at_least, options
):
    """Deterministic (fixed seeds, playout budgets, no clock), so never flaky: a change that
    makes the bots much weaker fails here; a small change of strength may move one game."""
    bot = BOTS[game_id]
    wins = 0
    for i in range(games):
        seated = seat_levels(levels, i)
        names = [f"p{k}" for k in range(len(levels))]
        played = play_bot_game(bot, names, seated, 500 + i, time_ms, options)
        wins += any(
            p in played.score.winners
            for p, lv in zip(names, seated, strict=True)
            if lv == levels[0]
        )
    assert wins >= at_least, f"{levels[0]} won {wins} of {games}"


def test_docs_state_each_bot_budget():
    """The rules docs' "Bots" sections give each game's expert budget, rollout depth and greed."""
    for game_id, bot in BOTS.items():
        with open(f"docs/rules/{game_id}.md", encoding="utf-8") as f:
            text = f.read().split("\n## Bots\n", 1)[1]
        flat = " ".join(text.split())
        assert f"Budget: {bot.playouts_per_second} playouts per second" in flat, game_id
        assert f"{bot.trials_per_second} one-move-ahead trials per second" in flat, game_id
        assert f"at most {bot.rollout_depth} moves" in flat, game_id
        assert f"on {bot.greedy_samples} imagined state" in flat, game_id
        assert f"by the evaluation {bot.rollout_greed:.0%} of the time" in flat, game_id
        assert f"at least {MIN_ROUNDS} rounds" in flat, game_id
    council = " ".join(open("docs/rules/reigns-the-council.md", encoding="utf-8").read().split())
    assert f"with weight e^({_PITCH_SHARPNESS:g} × g)" in council
    assert isinstance(BOTS["reign-and-ruin"].game, Game)
