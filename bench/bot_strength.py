"""Benchmark: is the expert at least as strong as greedy at every budget? (issue 28, part 3)

    .venv/bin/python bench/bot_strength.py play [--games 100] [--budgets 50,100,300,1000]
        [--only reign-absolute,...] [--workers 2] [--first 0]
    .venv/bin/python bench/bot_strength.py report

``play`` plays, for each game and each ``time_ms`` budget, ``--games`` games of one expert seat
against greedy seats (two players; three for Reigns: The Council, its fewest), the expert's seat
rotated one seat per game (``rules.bots.match.seat_levels``), game ``i`` set up with seed
``1000 + i`` (Reign Supreme: the skirmish scenario, 8 rounds, so a game is minutes, not hours).
Every move is ``suggest`` from the mover's view with the wall clock, as the service asks: the
expert's answers are timed (their ``complete`` flag counted, their longest time kept). Games run
in ``--workers`` processes; a progress line goes to stderr. Each finished game is appended to
``bench/results/bot_strength.jsonl`` at once, so an interrupted run keeps what it played and
later runs add to it (``--first`` picks the game numbers; a game already recorded is replayed
and counted once, the last record kept).

``report`` reads that file and writes ``docs/bot_strength.json`` (every point: games, the
expert's win share, its Wilson 95% interval, the verdict, answers, incomplete answers, the
longest and 95th-percentile answer time, switches from the greedy move) and
``docs/bot_strength.svg`` (win share against budget, one panel per game, the intervals as
bars, the line a greedy seat's fair share). A win counts 1, a win shared by k counts 1/k.

"At least as strong as greedy": with k seats of which one is the expert, greedy's level of
play would win 1/k of the games; the expert passes a point when the upper bound of its Wilson
interval is at least 1/k (the games do not rule out that it is as strong), and is *clearly*
at least as strong when its point estimate is at least 1/k too.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from api.cli import wilson_interval  # noqa: E402
from rules.bots import BOTS, suggest  # noqa: E402
from rules.bots.match import seat_levels  # noqa: E402

RAW = ROOT / "bench" / "results" / "bot_strength.jsonl"
OUT_JSON = ROOT / "docs" / "bot_strength.json"
OUT_SVG = ROOT / "docs" / "bot_strength.svg"
GAMES = ("reign-absolute", "reign-and-ruin", "reign-supreme", "reigns-the-council")
SEATS = {"reigns-the-council": 3}
OPTIONS: dict[str, dict[str, Any]] = {"reign-supreme": {"scenario": "skirmish", "round_limit": 8}}
MAX_MOVES = 20_000


def play_one(task: tuple[str, int, int]) -> dict[str, Any]:
    """One game: ``(game id, time_ms, game number)`` -> its record (who won, the expert's
    answers' times and flags)."""
    game_id, time_ms, index = task
    bot = BOTS[game_id]
    game = bot.game
    players = [f"p{k}" for k in range(SEATS.get(game_id, 2))]
    levels = seat_levels(["expert"] + ["greedy"] * (len(players) - 1), index)
    level_of = dict(zip(players, levels, strict=True))
    seed = 1000 + index
    state = game.setup(players, seed, dict(OPTIONS.get(game_id, {})))
    times: list[float] = []
    incomplete = switches = 0
    for _ in range(MAX_MOVES):
        if state["status"] == "finished":
            break
        player = state["active_players"][0]
        started = time.monotonic()
        chosen = suggest(
            bot,
            game.view(state, player),
            player,
            level_of[player],
            seed * 100_003 + state["move_count"],
            time_ms,
        )
        if level_of[player] == "expert":
            times.append(time.monotonic() - started)
            incomplete += not chosen.complete
            switches += chosen.reason.startswith("beat the greedy")
        state, _ = game.apply(state, chosen.move)
    expert = players[levels.index("expert")]
    winners = game.score(state).winners
    return {
        "game": game_id,
        "time_ms": time_ms,
        "index": index,
        "seats": len(players),
        "finished": state["status"] == "finished",
        "share": 1 / len(winners) if expert in winners else 0.0,
        "answers": len(times),
        "incomplete": incomplete,
        "switches": switches,
        "max_ms": round(1000 * max(times, default=0.0), 1),
        "answer_ms": [round(1000 * t, 1) for t in times],
    }


def play(args: argparse.Namespace) -> None:
    games = args.only.split(",") if args.only else list(GAMES)
    budgets = [int(b) for b in args.budgets.split(",")]
    tasks = [
        (g, b, i)
        for b in budgets
        for g in games
        for i in range(args.first, args.first + args.games)
    ]
    RAW.parent.mkdir(exist_ok=True)
    started = time.monotonic()
    with multiprocessing.Pool(args.workers) as pool, RAW.open("a", encoding="utf-8") as raw:
        for done, record in enumerate(pool.imap_unordered(play_one, tasks, chunksize=1), 1):
            raw.write(json.dumps(record) + "\n")
            raw.flush()
            elapsed = time.monotonic() - started
            eta = elapsed / done * (len(tasks) - done)
            print(
                f"\r{done}/{len(tasks)} games  last: {record['game']} {record['time_ms']} ms "
                f"#{record['index']}  {elapsed:.0f} s, about {eta:.0f} s left   ",
                end="",
                file=sys.stderr,
                flush=True,
            )
    print(file=sys.stderr)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def point(records: list[dict[str, Any]]) -> dict[str, Any]:
    """One (game, budget) point from its game records."""
    n = len(records)
    share = sum(r["share"] for r in records)
    fair = 1 / records[0]["seats"]
    low, high = wilson_interval(share, n)  # type: ignore[arg-type]  # a shared win counts 1/k
    times = [t for r in records for t in r["answer_ms"]]
    return {
        "games": n,
        "seats": records[0]["seats"],
        "expert_share": round(share / n, 3),
        "wilson_95": [round(low, 3), round(high, 3)],
        "fair_share": round(fair, 3),
        "not_weaker": high >= fair,
        "clearly_not_weaker": high >= fair and share / n >= fair,
        "answers": len(times),
        "incomplete": sum(r["incomplete"] for r in records),
        "switches": sum(r["switches"] for r in records),
        "max_answer_ms": max(times, default=0.0),
        "p95_answer_ms": _percentile(times, 0.95),
        "unfinished_games": sum(not r["finished"] for r in records),
    }


def load() -> dict[tuple[str, int], list[dict[str, Any]]]:
    """The recorded games by (game, budget), each game number once (its last record)."""
    latest: dict[tuple[str, int, int], dict[str, Any]] = {}
    for line in RAW.read_text(encoding="utf-8").splitlines():
        if line.strip():
            r = json.loads(line)
            latest[(r["game"], r["time_ms"], r["index"])] = r
    points: dict[tuple[str, int], list[dict[str, Any]]] = defaultdict(list)
    for (g, b, _), r in sorted(latest.items()):
        points[(g, b)].append(r)
    return points


def svg(results: dict[str, dict[str, dict[str, Any]]]) -> str:
    """Win share against budget (log scale), a panel per game: points with Wilson bars, the
    fair share as a dashed line."""
    budgets = [50, 100, 300, 1000]
    w, h, pad = 300, 220, 40
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{2 * w}" height="{2 * h + 60}" '
        'font-family="sans-serif" font-size="11">',
        f'<text x="{w}" y="16" text-anchor="middle" font-size="13">Expert vs greedy: the '
        "expert's win share by time_ms (Wilson 95%)</text>",
    ]
    for k, game_id in enumerate(GAMES):
        ox, oy = (k % 2) * w, 30 + (k // 2) * h
        plot_w, plot_h = w - pad - 10, h - pad - 20

        def x(b: float, ox: int = ox, plot_w: int = plot_w) -> float:
            span = math.log(budgets[-1]) - math.log(budgets[0])
            return ox + pad + 20 + (plot_w - 40) * (math.log(b) - math.log(budgets[0])) / span

        def y(v: float, oy: int = oy, plot_h: int = plot_h) -> float:
            return oy + 20 + plot_h * (1 - v)

        parts.append(f'<text x="{ox + w / 2}" y="{oy + 12}" text-anchor="middle">{game_id}</text>')
        parts.append(
            f'<rect x="{ox + pad}" y="{y(1)}" width="{plot_w}" height="{plot_h}" '
            'fill="none" stroke="#999"/>'
        )
        for v in (0, 0.25, 0.5, 0.75, 1):
            parts.append(f'<text x="{ox + pad - 4}" y="{y(v) + 4}" text-anchor="end">{v}</text>')
        for b in budgets:
            parts.append(
                f'<text x="{x(b)}" y="{y(0) + 14}" text-anchor="middle">{b}</text>'
                f'<line x1="{x(b)}" x2="{x(b)}" y1="{y(0)}" y2="{y(0) + 3}" stroke="#999"/>'
            )
        pts = results.get(game_id, {})
        fair = next(iter(pts.values()))["fair_share"] if pts else 0.5
        parts.append(
            f'<line x1="{ox + pad}" x2="{ox + pad + plot_w}" y1="{y(fair)}" y2="{y(fair)}" '
            'stroke="#c33" stroke-dasharray="4 3"/>'
        )
        line = []
        for b in budgets:
            p = pts.get(str(b))
            if not p:
                continue
            lo, hi = p["wilson_95"]
            parts.append(
                f'<line x1="{x(b)}" x2="{x(b)}" y1="{y(lo)}" y2="{y(hi)}" stroke="#36c"/>'
                f'<circle cx="{x(b)}" cy="{y(p["expert_share"])}" r="3" fill="#36c"/>'
                f'<text x="{x(b)}" y="{y(hi) - 4}" fill="#666" text-anchor="middle">'
                f"n={p['games']}</text>"
            )
            line.append(f"{x(b):.1f},{y(p['expert_share']):.1f}")
        if len(line) > 1:
            parts.append(f'<polyline points="{" ".join(line)}" fill="none" stroke="#36c"/>')
        parts.append(f'<text x="{ox + w / 2}" y="{y(0) + 28}" text-anchor="middle">time_ms</text>')
    parts.append(
        f'<text x="{w}" y="{2 * h + 52}" text-anchor="middle" fill="#666">dashed: a greedy '
        "seat's fair share (1/seats); bars: Wilson 95% intervals; n: games</text>"
    )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def report() -> None:
    results: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
    for (game_id, budget), records in sorted(load().items()):
        results[game_id][str(budget)] = point(records)
    OUT_JSON.write_text(
        json.dumps(
            {"when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "results": results},
            indent=2,
        )
        + "\n",
        encoding="utf-8",
    )
    OUT_SVG.write_text(svg(results), encoding="utf-8")
    print(
        "| game | time_ms | games | expert's share | Wilson 95% | fair | not weaker | "
        "incomplete / answers | max ms | p95 ms | switches |"
    )
    print("|---|---:|---:|---:|---|---:|---|---:|---:|---:|---:|")
    for game_id, pts in results.items():
        for budget, p in pts.items():
            low, high = p["wilson_95"]
            verdict = "yes" if p["clearly_not_weaker"] else "yes (below fair)"
            print(
                f"| {game_id} | {budget} | {p['games']} | {p['expert_share']:.3f} | "
                f"[{low:.3f}, {high:.3f}] | {p['fair_share']:.3f} | "
                f"{verdict if p['not_weaker'] else 'NO'} | "
                f"{p['incomplete']} / {p['answers']} | {p['max_answer_ms']:.0f} | "
                f"{p['p95_answer_ms']:.0f} | {p['switches']} |"
            )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play")
    p.add_argument("--games", type=int, default=100, help="games per (game, budget) point")
    p.add_argument("--first", type=int, default=0, help="the first game number")
    p.add_argument("--budgets", default="50,100,300,1000")
    p.add_argument("--only", default="", help="comma-separated game ids (default: all four)")
    p.add_argument("--workers", type=int, default=2)
    sub.add_parser("report")
    args = ap.parse_args()
    if args.command == "play":
        play(args)
    else:
        report()
    return 0


if __name__ == "__main__":
    sys.exit(main())
