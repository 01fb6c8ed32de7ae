"""The ``reign-referee`` command: simulate (in-process), its statistics, config and serve."""

from __future__ import annotations

import io
import json
import math
import sys

import pytest

from api import cli
from api.config import Settings


def result(players, moves, scores, winners, draw=False):
    return {"players": players, "moves": moves, "scores": scores, "winners": winners, "draw": draw}


def test_simulation_stats():
    results = [
        result(["p1", "p2"], 10, {"p1": 30, "p2": 20}, ["p1"]),
        result(["p1", "p2"], 20, {"p1": 10, "p2": 14}, ["p2"]),
        result(["p1", "p2"], 30, {"p1": 25, "p2": 25}, ["p1", "p2"], draw=True),
        result(["p1", "p2"], 40, {"p1": 40, "p2": 40}, ["p1"]),  # won on a tie-break: margin 0
    ]
    stats = cli.simulation_stats(results, seats=2, elapsed=2.0)
    assert stats["games"] == 4
    assert stats["moves"] == 100
    assert stats["length_mean"] == 25
    assert (stats["length_min"], stats["length_max"]) == (10, 40)
    assert stats["wins_by_seat"] == [2, 1]
    assert stats["win_rate_by_seat"] == [0.5, 0.25]
    assert stats["draws"] == 1 and stats["draw_rate"] == 0.25
    assert stats["winning_margin_mean"] == pytest.approx((10 + 4 + 0) / 3)
    scores = [30, 20, 10, 14, 25, 25, 40, 40]
    assert stats["score_mean"] == pytest.approx(sum(scores) / 8)
    mean = sum(scores) / 8
    assert stats["score_stdev"] == pytest.approx(
        math.sqrt(sum((s - mean) ** 2 for s in scores) / 8)
    )
    assert stats["moves_per_second"] == 50


def test_simulation_stats_of_nothing():
    stats = cli.simulation_stats([], seats=3, elapsed=0.0)
    assert stats["games"] == 0 and stats["win_rate_by_seat"] == [0.0, 0.0, 0.0]


def test_format_stats_mentions_everything():
    stats = cli.simulation_stats([result(["p1", "p2"], 12, {"p1": 3, "p2": 1}, ["p1"])], 2, 0.5)
    text = cli.format_stats("reign-and-ruin", stats)
    for needle in (
        "games played:     1",
        "mean 12.0, min 12, max 12 moves",
        "seat 1: 100.0% (1)",
        "seat 2: 0.0% (0)",
        "draws:            0",
        "winning margin:   mean 2.00",
        "moves/s",
    ):
        assert needle in text, text


def test_simulate_in_process():
    out, err = io.StringIO(), io.StringIO()
    stats = cli.simulate("reign-and-ruin", games=4, players=3, seed=5, out=out, err=err)
    assert stats["games"] == 4
    assert len(stats["win_rate_by_seat"]) == 3
    assert sum(stats["wins_by_seat"]) + stats["draws"] >= 4 - stats["draws"]
    assert stats["length_min"] > 0
    text = out.getvalue()
    assert "games played:     4" in text and "win rate by seat" in text
    progress = err.getvalue()
    assert "\r" in progress and "4/4" in progress and progress.endswith("\n")
    # Same seeds, same games.
    again = cli.simulate(
        "reign-and-ruin", games=4, players=3, seed=5, out=io.StringIO(), err=io.StringIO()
    )
    assert {k: v for k, v in again.items() if k not in ("seconds", "moves_per_second")} == {
        k: v for k, v in stats.items() if k not in ("seconds", "moves_per_second")
    }


def test_simulate_command(capsys):
    assert (
        cli.main(["simulate", "reign-and-ruin", "--games", "2", "--players", "2", "--seed", "9"])
        == 0
    )
    captured = capsys.readouterr()
    assert "games played:     2" in captured.out
    assert "2/2" in captured.err


def test_simulate_with_a_custom_deck(capsys, tmp_path):
    """Players tuning a custom deck pass it as --options, inline or @file."""
    deck = [{"faction": f, "value": 5} for f in ("hexen", "crou", "nomora", "kurgoz")] * 4
    deck_file = tmp_path / "deck.json"
    deck_file.write_text(json.dumps({"deck": deck}))
    for options in (json.dumps({"deck": deck}), f"@{deck_file}"):
        assert cli.main(["simulate", "reign-and-ruin", "--games", "3", "--options", options]) == 0
        out = capsys.readouterr().out
        assert "games played:     3" in out
        # 16 cards for 2 players: 14 dealt, so a game is 6 draft moves and about 14 plays.
        assert "mean 2" in out


def test_custom_deck_changes_the_games():
    deck = [{"faction": "crou", "value": v} for v in range(1, 17)]
    stats = cli.simulate(
        "reign-and-ruin", 5, 2, 1, io.StringIO(), io.StringIO(), options={"deck": deck}
    )
    default = cli.simulate("reign-and-ruin", 5, 2, 1, io.StringIO(), io.StringIO())
    assert stats["score_mean"] != default["score_mean"]


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "no-such-game", "--games", "1"],
        ["simulate", "reign-and-ruin", "--players", "9"],
        ["simulate", "reign-and-ruin", "--games", "0"],
        ["simulate", "reign-and-ruin", "--options", "{not json"],
        ["simulate", "reign-and-ruin", "--options", "[1, 2]"],
        ["simulate", "reign-and-ruin", "--options", '{"deck": 5}'],
        ["simulate", "reign-and-ruin", "--options", '{"deck": [{"faction": "elves", "value": 1}]}'],
        ["simulate", "reign-and-ruin", "--options", "@/no/such/file.json"],
    ],
)
def test_simulate_bad_arguments(capsys, argv):
    assert cli.main(argv) == 2
    assert "reign-referee simulate:" in capsys.readouterr().err


def test_progress_bar():
    stream = io.StringIO()
    bar = cli.ProgressBar(200, stream, width=10)
    for i in range(1, 201):
        bar.update(i)
    bar.close()
    text = stream.getvalue()
    assert text.count("\r") <= 102  # redrawn about once a percent, not on every game
    assert "[##########] 200/200 100%" in text


def test_settings_defaults_and_environment():
    assert Settings.from_env({}) == Settings()
    s = Settings.from_env(
        {
            "HOST": "0.0.0.0",
            "PORT": "9000",
            "WEB_CONCURRENCY": "3",
            "THREADS": "4",
            "MAX_BODY_BYTES": "2048",
            "REDIS_URL": "redis://h:1/0",
            "REFEREE_DATA_DIR": "/data",
            "LOG_LEVEL": "DEBUG",
        }
    )
    assert s == Settings("0.0.0.0", 9000, 3, 4, 2048, "redis://h:1/0", "/data", "debug")
    s = Settings.from_env({"REQUEST_DEADLINE_SECONDS": "3", "WORKER_CONNECTIONS": "100"})
    assert (s.request_deadline, s.worker_connections) == (3, 100)
    assert (Settings().request_deadline, Settings().worker_connections) == (10, 4096)
    assert Settings().max_requests_per_client == 4
    assert Settings.from_env({"MAX_REQUESTS_PER_CLIENT": "0"}).max_requests_per_client == 0
    for bad in (
        {"MAX_REQUESTS_PER_CLIENT": "-1"},
        {"PORT": "x"},
        {"THREADS": "0"},
        {"LOG_LEVEL": "loud"},
        {"MAX_BODY_BYTES": "-1"},
        {"REQUEST_DEADLINE_SECONDS": "0"},
        {"WORKER_CONNECTIONS": "0"},
    ):
        with pytest.raises(ValueError):
            Settings.from_env(bad)


def test_gunicorn_options():
    opts = cli.gunicorn_options(settings=Settings())
    assert opts["bind"] == "127.0.0.1:8000"
    # THREADS request threads plus one per stream a worker may hold (MAX_STREAMS).
    assert opts["workers"] == 2 and opts["threads"] == 8 + 64
    # gthread gathering whole requests with a deadline, errors in problem+json
    assert opts["worker_class"] == "api.buffered_worker.BufferedWorker"
    assert opts["worker_connections"] == 4096
    assert (
        opts["limit_request_line"],
        opts["limit_request_fields"],
        opts["limit_request_field_size"],
    ) == (4094, 100, 8190)  # the README's table
    opts = cli.gunicorn_options("::1", 9001, 4, 16, settings=Settings(max_streams=10))
    assert opts["bind"] == "[::1]:9001" and opts["workers"] == 4 and opts["threads"] == 26


def test_gunicorn_application_takes_the_options():
    opts = cli.gunicorn_options("127.0.0.1", 0, 1, 2, settings=Settings(max_streams=0))
    server = cli.RefereeServer(opts, lambda: "app")
    from gunicorn.workers.gthread import ThreadWorker

    from api.buffered_worker import BufferedWorker
    from api.worker import ProblemWorker

    assert server.cfg.worker_class is BufferedWorker
    assert issubclass(BufferedWorker, ProblemWorker) and issubclass(ProblemWorker, ThreadWorker)
    assert server.cfg.threads == 2 and server.cfg.workers == 1
    assert server.load() == "app"


def test_gunicorn_run_by_hand_with_the_config_module_has_serves_settings(monkeypatch):
    """``gunicorn -c python:api.gunicorn_conf wsgi:app`` (README, "Installing without the source
    tree"), loaded by gunicorn's own command line, holds every setting of ``gunicorn_options()``
    as gunicorn stores it: the buffering worker, the stream threads, the timeouts, the limits
    and the worker hook; its own options still override them."""
    from gunicorn.app.wsgiapp import WSGIApplication
    from gunicorn.config import Config

    def loaded(*args: str) -> Config:
        monkeypatch.delitem(sys.modules, "api.gunicorn_conf", raising=False)  # read env anew
        monkeypatch.setattr("sys.argv", ["gunicorn", "-c", "python:api.gunicorn_conf", *args])
        return WSGIApplication("%(prog)s [OPTIONS] [APP_MODULE]").cfg

    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:1/0")  # several workers need one store
    options = cli.gunicorn_options()
    expected = Config()
    for name, value in options.items():
        expected.set(name, value)
    cfg = loaded("wsgi:app")
    assert {name: cfg.settings[name].get() for name in options} == {
        name: expected.settings[name].get() for name in options
    }
    assert cfg.post_worker_init is cli._end_streams_on_exit
    assert cfg.threads == Settings.from_env().threads + Settings.from_env().max_streams
    assert loaded("-w", "1", "wsgi:app").workers == 1
    # without REDIS_URL each worker would start its own embedded Redis on one data directory:
    # one worker (a second reached no store, and answered its sessions 503)
    monkeypatch.delenv("REDIS_URL")
    assert cli.gunicorn_options()["workers"] > 1 and loaded("wsgi:app").workers == 1


def test_session_settings_from_environment():
    s = Settings.from_env(
        {"SESSION_TTL_SECONDS": "60", "MAX_STREAMS": "5", "HEARTBEAT_SECONDS": "2"}
    )
    assert (s.session_ttl, s.max_streams, s.heartbeat) == (60, 5, 2)
    for bad in ({"SESSION_TTL_SECONDS": "0"}, {"MAX_STREAMS": "-1"}, {"HEARTBEAT_SECONDS": "x"}):
        with pytest.raises(ValueError):
            Settings.from_env(bad)


def test_store_settings_from_environment():
    """The embedded store's memory limit (Redis's size syntax) and fsync policy (issue 23)."""
    defaults = Settings()
    assert (defaults.store_max_memory, defaults.store_appendfsync) == (256 * 1024**2, "always")
    for raw, size in (("0", 0), ("4096", 4096), ("64kb", 65_536), ("256MB", 256 * 1024**2)):
        assert Settings.from_env({"STORE_MAX_MEMORY": raw}).store_max_memory == size
    assert Settings.from_env({"STORE_APPENDFSYNC": "EverySec"}).store_appendfsync == "everysec"
    for bad in (
        {"STORE_MAX_MEMORY": "lots"},
        {"STORE_MAX_MEMORY": "1tb"},
        {"STORE_MAX_MEMORY": "-1"},
        {"STORE_APPENDFSYNC": "sometimes"},
    ):
        with pytest.raises(ValueError, match=next(iter(bad))):
            Settings.from_env(bad)


def test_simulate_concede_rate_zero_never_concedes_and_is_checked():
    """Issue 16 item 7: ``--concede 0`` keeps random players from conceding (a skirmish of 2
    rounds then ends by the round limit or by a last player standing, never by concession)."""
    import random

    from rules.playout import choose_move, play_random_game
    from rules.registry import get_game

    legal = [{"player": "a", "type": "concede"}, {"player": "a", "type": "end_turn"}]
    chooser = random.Random(1)
    assert {choose_move(legal, chooser, 0.0)["type"] for _ in range(50)} == {"end_turn"}
    assert choose_move(legal[:1], chooser, 0.0)["type"] == "concede"  # nothing else is legal
    game = get_game("reign-supreme")
    playout = play_random_game(
        game, ["a", "b"], 3, {"scenario": "skirmish", "round_limit": 2}, concede=0.0
    )
    assert "concede" not in {m["type"] for m in playout.moves}
    stats = cli.simulate(
        "reign-supreme",
        1,
        2,
        3,
        io.StringIO(),
        io.StringIO(),
        options={"scenario": "skirmish", "round_limit": 2},
        concede=0.0,
    )
    assert stats["games"] == 1 and stats["moves"] == len(playout.moves)
    with pytest.raises(ValueError, match="--concede"):
        cli.simulate("reign-supreme", 1, 2, 3, io.StringIO(), io.StringIO(), concede=1.5)
