"""Benchmark: how long a picture takes, and how soon the table paints.

    .venv/bin/python bench/render.py [--games 3] [--per-game 200] [--loads 10] [--no-browser]

1. **Render** (issue 27 goal: any view under 20 ms). For each game, random games (players from
   the fewest to the most, ``rules.playout``) give ``--per-game`` mid-game states (the middle
   80% of each game), each pictured for every seat and for the spectator by
   ``rules.pictures.render`` in process and timed: wall time (``time.perf_counter``) and CPU
   time (``time.thread_time``, which a loaded machine's waiting does not inflate). Reports p50,
   p99 and max per game and per kind of view (``seat``, ``spectator``), and the largest picture.
2. **Paint** (goal: under 1 s on localhost). The app is served on a free local port (werkzeug,
   embedded Redis in a temporary directory); headless Chromium (``/usr/bin/chromium``, driven
   by Playwright) opens a seat's table (``/table#session=...&token=...``) of a new session of
   each game, ``--loads`` times: a *first load* in a fresh browser context (empty cache, new
   connections), then a *warm load* (a reload: the page, script and style cached). Measured in
   the page, from navigation start (``performance.now()``'s origin) to the first frame in which
   the board picture is visible and the seat's legal moves are listed (a ``MutationObserver``
   notes the moment, the next ``requestAnimationFrame`` the frame). Reports median, p95 and max.
   Skipped without Chromium or Playwright.

Prints tables and writes ``bench/results/render.json``. Figures from a shared machine vary
(the load average is printed with them); compare runs made on the same machine.
"""

from __future__ import annotations

import argparse
import gc
import json
import logging
import random
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rules.pictures import render  # noqa: E402
from rules.playout import choose_move  # noqa: E402
from rules.registry import GAMES  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
PLAYERS = ["ann", "bob", "cat", "dan", "eve", "fay"]


def _q(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def views(game_id: str, games: int, per_game: int) -> list[tuple[str, dict[str, Any]]]:
    """``(kind, view)`` of ``per_game`` mid-game states of ``games`` random games, each seen by
    every seat (``seat``) and by the spectator (``spectator``)."""
    game = GAMES[game_id]
    out: list[tuple[str, dict[str, Any]]] = []
    for seed in range(games):
        n = game.min_players + seed % (game.max_players - game.min_players + 1)
        players = PLAYERS[:n]
        state = game.setup(players, seed, {})
        chooser = random.Random(seed)
        states = [state]
        while state["status"] != "finished":
            state, _ = game.apply(state, choose_move(game.legal_moves(state), chooser, 0.02))
            states.append(state)
        middle = states[len(states) // 10 : len(states) - len(states) // 10] or states
        want = max(1, per_game // games)
        for s in middle[:: max(1, len(middle) // want)][:want]:
            out.extend(("seat", game.view(s, viewer)) for viewer in players)
            out.append(("spectator", game.view(s, None)))
    return out


def _figures(times: list[float], cpu: list[float]) -> dict[str, float]:
    return {
        "views": len(times),
        "p50_ms": round(_q(times, 0.5), 2),
        "p99_ms": round(_q(times, 0.99), 2),
        "max_ms": round(max(times), 2),
        "cpu_p50_ms": round(_q(cpu, 0.5), 2),
        "cpu_p99_ms": round(_q(cpu, 0.99), 2),
        "cpu_max_ms": round(max(cpu), 2),
    }


def bench_render(games: int, per_game: int) -> dict[str, Any]:
    """Per game, then per kind of view: ``{game: {kind: figures}}``."""
    results: dict[str, Any] = {}
    for game_id in sorted(GAMES):
        sample = views(game_id, games, per_game)
        # The sample's hundreds of views are the bench's, not a render's (a server holds one):
        # without this a full collection of them lands inside one render (160 ms once).
        gc.collect()
        gc.freeze()
        for _, view in sample[:5]:  # warm up
            render(view)
        times: dict[str, list[float]] = {"seat": [], "spectator": []}
        cpu: dict[str, list[float]] = {"seat": [], "spectator": []}
        largest = 0
        for kind, view in sample:
            start, start_cpu = time.perf_counter(), time.thread_time()
            svg = render(view)
            cpu[kind].append((time.thread_time() - start_cpu) * 1000)
            times[kind].append((time.perf_counter() - start) * 1000)
            largest = max(largest, len(svg.encode()))
        results[game_id] = {kind: _figures(times[kind], cpu[kind]) for kind in times}
        results[game_id]["largest_bytes"] = largest
    return results


READY = """new MutationObserver((_, watch) => {
    const board = document.querySelector('#board svg');
    if (!board || !board.getBoundingClientRect().height) return;
    if (!document.querySelector('#move-groups button')) return;
    watch.disconnect();
    requestAnimationFrame(() => { window.tableReady = performance.now(); });
}).observe(document, { childList: true, subtree: true });"""
"""Run in each page before its own scripts: notes the first frame with the board visible and
the legal moves listed, in ms since navigation start."""


def _seat_session(client: Any, game_id: str) -> tuple[str, str]:
    """A new session of ``game_id`` (fewest players, no bots) in which ann moves at version 0:
    her table lists moves without waiting on anyone. Its id and ann's token."""
    players = PLAYERS[: GAMES[game_id].min_players]
    for _ in range(50):  # who starts is drawn; ann starts about every other time
        created = client.post("/v1/sessions", json={"game": game_id, "players": players})
        answer = created.get_json()
        if created.status_code != 201:
            raise RuntimeError(f"{game_id}: session not created: {answer}")
        if "ann" in answer["to_move"]:
            return answer["session_id"], answer["seats"]["ann"]
    raise RuntimeError(f"{game_id}: ann never moved first")


def _ready_ms(page: Any) -> float:
    page.wait_for_function("() => window.tableReady !== undefined")  # a function: CSP bars eval
    return float(page.evaluate("() => window.tableReady"))


def _paint_figures(values: list[float]) -> dict[str, float]:
    return {
        "loads": len(values),
        "median_ms": round(_q(values, 0.5), 1),
        "p95_ms": round(_q(values, 0.95), 1),
        "max_ms": round(max(values), 1),
    }


def bench_paint(loads: int) -> dict[str, Any] | None:
    try:
        from playwright.sync_api import sync_playwright
        from werkzeug.serving import make_server
    except ImportError:
        return None
    if not CHROMIUM.exists():
        return None
    from api import create_app

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request
    with tempfile.TemporaryDirectory() as data:
        # No limit on creating sessions: a paint measure creates one per load and per redraw.
        app = create_app({"REDIS_URL": None, "REFEREE_DATA_DIR": data, "SESSION_CREATE_LIMIT": ""})
        server = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_port}"
        client = app.test_client()
        out: dict[str, Any] = {}
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
                for game_id in sorted(GAMES):
                    first, warm = [], []
                    for _ in range(loads):
                        session_id, token = _seat_session(client, game_id)
                        context = browser.new_context(viewport={"width": 1500, "height": 1000})
                        context.add_init_script(READY)
                        page = context.new_page()
                        page.goto(f"{base}/table#session={session_id}&token={token}")
                        first.append(_ready_ms(page))
                        page.reload()
                        warm.append(_ready_ms(page))
                        context.close()
                    out[game_id] = {"first": _paint_figures(first), "warm": _paint_figures(warm)}
                browser.close()
        finally:
            server.shutdown()
            app.extensions["referee_bot_seats"].stop()
        return out


def _load_average() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:  # not Linux
        return "unknown"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3, help="random games per game")
    parser.add_argument("--per-game", type=int, default=200, help="mid-game states per game")
    parser.add_argument("--loads", type=int, default=10, help="table loads per game (paint)")
    parser.add_argument("--no-browser", action="store_true", help="skip the paint measure")
    args = parser.parse_args()
    results: dict[str, Any] = {"load_average_before": _load_average()}
    results["render"] = bench_render(args.games, args.per_game)
    print(f"render (load average before: {results['load_average_before']})")
    print(
        f"{'game':20} {'kind':10} {'views':>6} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} "
        f"{'cpu p50':>8} {'cpu p99':>8} {'cpu max':>8}"
    )
    for game_id, kinds in results["render"].items():
        for kind in ("seat", "spectator"):
            r = kinds[kind]
            print(
                f"{game_id:20} {kind:10} {r['views']:6} {r['p50_ms']:7} {r['p99_ms']:7} "
                f"{r['max_ms']:7} {r['cpu_p50_ms']:8} {r['cpu_p99_ms']:8} {r['cpu_max_ms']:8}"
            )
        print(f"{'':20} largest picture: {kinds['largest_bytes']} bytes")
    if not args.no_browser:
        results["load_average_before_paint"] = _load_average()
        paint = bench_paint(args.loads)
        results["paint"] = paint
        if paint is None:
            print("paint: skipped (no Chromium at /usr/bin/chromium or no Playwright)")
        else:
            print(
                f"paint: navigation start -> board visible and moves listed "
                f"(load average before: {results['load_average_before_paint']})"
            )
            print(f"{'game':20} {'load':6} {'n':>3} {'median ms':>10} {'p95 ms':>8} {'max ms':>8}")
            for game_id, loads in paint.items():
                for kind, r in loads.items():
                    print(
                        f"{game_id:20} {kind:6} {r['loads']:3} {r['median_ms']:10} "
                        f"{r['p95_ms']:8} {r['max_ms']:8}"
                    )
    results["load_average_after"] = _load_average()
    print(f"load average after: {results['load_average_after']}")
    out = ROOT / "bench" / "results" / "render.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
