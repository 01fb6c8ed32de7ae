"""Benchmark: how long a picture takes, and how soon the table paints.

    .venv/bin/python bench/render.py [--games 3] [--per-game 200] [--no-browser]

1. **Render** (issue 27 goal: any view under 20 ms). For each game, random games (players from
   the fewest to the most, ``rules.playout``) give ``--per-game`` views spread over whole games,
   every seat's and the spectator's; each is pictured by ``rules.pictures.render`` in process
   and timed: wall time (``time.perf_counter``) and CPU time (``time.thread_time``, which a
   loaded machine's waiting does not inflate). Reports p50, p99 and max per game, and the
   largest picture.
2. **Paint** (goal: under 1 s on localhost). The app is served on a free local port (werkzeug,
   embedded Redis in a temporary directory); headless Chromium (``/usr/bin/chromium``, driven
   by Playwright) loads ``/table`` five times and, for a session of each game, a seat's table;
   the page's own Performance API gives first contentful paint and, for a table, the moment
   the board picture is in the page. Skipped without Chromium or Playwright.

Prints a table and writes ``bench/results/render.json``. Figures from a shared machine vary;
compare runs made on the same machine.
"""

from __future__ import annotations

import argparse
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


def views(game_id: str, games: int, per_game: int) -> list[dict[str, Any]]:
    """``per_game`` views of ``games`` random games, spread over each game, every viewer."""
    game = GAMES[game_id]
    out: list[dict[str, Any]] = []
    for seed in range(games):
        n = game.min_players + seed % (game.max_players - game.min_players + 1)
        players = PLAYERS[:n]
        state = game.setup(players, seed, {})
        chooser = random.Random(seed)
        states = [state]
        while state["status"] != "finished":
            state, _ = game.apply(state, choose_move(game.legal_moves(state), chooser, 0.02))
            states.append(state)
        want = max(1, per_game // games // (n + 1))
        step = max(1, len(states) // want)
        for s in states[::step][:want]:
            out.extend(game.view(s, viewer) for viewer in [*players, None])
    return out


def bench_render(games: int, per_game: int) -> dict[str, Any]:
    results = {}
    for game_id in sorted(GAMES):
        sample = views(game_id, games, per_game)
        for view in sample[:5]:  # warm up
            render(view)
        times, cpu, largest = [], [], 0
        for view in sample:
            start, start_cpu = time.perf_counter(), time.thread_time()
            svg = render(view)
            cpu.append((time.thread_time() - start_cpu) * 1000)
            times.append((time.perf_counter() - start) * 1000)
            largest = max(largest, len(svg.encode()))
        results[game_id] = {
            "views": len(sample),
            "p50_ms": round(_q(times, 0.5), 2),
            "p99_ms": round(_q(times, 0.99), 2),
            "max_ms": round(max(times), 2),
            "cpu_p50_ms": round(_q(cpu, 0.5), 2),
            "cpu_p99_ms": round(_q(cpu, 0.99), 2),
            "largest_bytes": largest,
        }
    return results


PAINT = """() => {
    const fcp = performance.getEntriesByName('first-contentful-paint')[0];
    return fcp ? fcp.startTime : null;
}"""


def bench_paint() -> dict[str, Any] | None:
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
        app = create_app({"REDIS_URL": None, "REFEREE_DATA_DIR": data, "SESSION_BOT_TIME_MS": 20})
        server = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_port}"
        out: dict[str, Any] = {}
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
                lobby = []
                for _ in range(5):
                    page = browser.new_page()
                    page.goto(base + "/table")
                    page.wait_for_selector("#game option", state="attached")
                    page.wait_for_function(PAINT)
                    lobby.append(page.evaluate(PAINT))
                    page.close()
                out["lobby_fcp_ms"] = {"p50": round(_q(lobby, 0.5), 1), "max": round(max(lobby), 1)}
                client = app.test_client()
                for game_id in sorted(GAMES):
                    players = PLAYERS[: GAMES[game_id].min_players]
                    created = client.post(
                        "/v1/sessions", json={"game": game_id, "players": players}
                    ).get_json()
                    token = created["seats"]["ann"]
                    page = browser.new_page(viewport={"width": 1500, "height": 1000})
                    page.goto(f"{base}/table#session={created['session_id']}&token={token}")
                    page.wait_for_selector("#board svg")
                    board = page.evaluate("performance.now()")
                    page.wait_for_function(PAINT)
                    out[game_id] = {
                        "fcp_ms": round(page.evaluate(PAINT), 1),
                        "board_in_page_ms": round(board, 1),
                    }
                    page.close()
                browser.close()
        finally:
            server.shutdown()
            app.extensions["referee_bot_seats"].stop()
        return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3, help="random games per game")
    parser.add_argument("--per-game", type=int, default=200, help="views pictured per game")
    parser.add_argument("--no-browser", action="store_true", help="skip the paint measure")
    args = parser.parse_args()
    results: dict[str, Any] = {"render": bench_render(args.games, args.per_game)}
    print(
        f"{'game':20} {'views':>6} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} "
        f"{'cpu p50':>8} {'cpu p99':>8} {'largest':>9}"
    )
    for game_id, r in results["render"].items():
        print(
            f"{game_id:20} {r['views']:6} {r['p50_ms']:8} {r['p99_ms']:8} {r['max_ms']:8} "
            f"{r['cpu_p50_ms']:8} {r['cpu_p99_ms']:8} {r['largest_bytes']:9}"
        )
    if not args.no_browser:
        paint = bench_paint()
        results["paint"] = paint
        if paint is None:
            print("paint: skipped (no Chromium at /usr/bin/chromium or no Playwright)")
        else:
            print("paint (ms since navigation):", json.dumps(paint))
    out = ROOT / "bench" / "results" / "render.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
