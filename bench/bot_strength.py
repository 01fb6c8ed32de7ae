"""Benchmark: is the expert at least as strong as greedy at every budget? (issue 28, part 3)

    .venv/bin/python bench/bot_strength.py play [--games 100] [--budgets 50,100,300,1000]
        [--only reign-absolute,...] [--workers 2] [--first 0]
    .venv/bin/python bench/bot_strength.py report

``bench/bench.py`` runs both (its strength stage); this script alone runs one part of them.

``play`` plays, for each game and each ``time_ms`` budget, ``--games`` games of one expert seat
against greedy seats (two players; three for Reigns: The Council, its fewest), the expert's seat
rotated one seat per game (``rules.bots.match.seat_levels``), game ``i`` set up with seed
``1000 + i`` (Reign Supreme: the skirmish scenario, 8 rounds, so a game is minutes, not hours),
and the same games with greedy in that seat too (the *control*: greedy's own result in the
expert's seat, on the same seeds, under the same clock).
Every move is ``suggest`` from the mover's view with the wall clock counting from before the view,
as the service counts from a request's arrival (``rules.bots.match.bot_turns``, the loop of
``reign-referee simulate --bots`` with a real clock): the expert's answers are timed (their
``complete`` flag counted, their longest time kept). Games run
in ``--workers`` processes; a progress line goes to stderr (games done, the last one, the time
spent and an estimate of the time left, each game weighted by what its kind took before). Each
finished game is appended to ``bench/results/bot_strength.jsonl`` at once, with the *code key*
it was played with (:func:`code_key`: a digest of the game's code and this benchmark's protocol),
so an interrupted run keeps what it played: a later run plays only the games the current code
has no record of, and a record of other code is never counted (it only weighs the estimate of
the time left). ``--first`` picks the game numbers.

``report`` reads the current code's records and writes ``docs/bot_strength.json`` (every point:
games, the expert's win share, its Wilson 95% interval, the verdict, answers, incomplete
answers, the longest and 95th-percentile answer time, switches from the greedy move),
``docs/bot_strength.svg`` (win share against budget, one panel per game, the intervals as
bars, the line a greedy seat's fair share) and the table in ``docs/bots.md`` between its
``results`` markers; the SVG and the table are functions of the JSON only
(``tests/bots/test_strength_docs.py`` fails when they are stale). A win counts 1, a win shared
by k counts 1/k.

"At least as strong as greedy" is a paired comparison (:func:`point`): game ``i``'s share for
the expert minus the control's share in game ``i``, averaged over the games both were played;
the expert passes a point when the upper bound of that mean difference's 95% interval is at
least 0 (the games do not rule out that it is as strong), and is *clearly* at least as strong
when the mean is at least 0 too. Why not the fair share 1/k: a seat does not win 1/k of 100
given seeds at greedy's level of play (the Council's seat won 0.270 of them, greedy against
greedy), so 1/k measured the seeds' luck as much as the expert; and where the expert plays
greedy's move at nearly every decision the paired games are nearly all identical, so their
differences say exactly what its other decisions cost or won. Both shares are shown with their
Wilson intervals.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import math
import multiprocessing
import os
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from api.cli import wilson_interval  # noqa: E402
from rules.bots import BOTS  # noqa: E402
from rules.bots.match import bot_turns, seat_levels  # noqa: E402

RAW = ROOT / "bench" / "results" / "bot_strength.jsonl"
OUT_JSON = ROOT / "docs" / "bot_strength.json"
OUT_SVG = ROOT / "docs" / "bot_strength.svg"
OUT_MD = ROOT / "docs" / "bots.md"
MARKERS = ("<!-- results:start -->\n", "<!-- results:end -->\n")
BUDGETS = (50, 100, 300, 1000)
GAMES = ("reign-absolute", "reign-and-ruin", "reign-supreme", "reigns-the-council")
SEATS = {"reigns-the-council": 3}
OPTIONS: dict[str, dict[str, Any]] = {"reign-supreme": {"scenario": "skirmish", "round_limit": 8}}
PROTOCOL = (
    "seats rotated; seed 1000 + i; suggest seed seed * 100_003 + move_count; wall clock "
    "from before the view (rules.bots.match.bot_turns)"
)
"""What a game record depends on besides ``rules/``: change it with the way games are played."""
MEASURED_LEVELS = ("expert", "greedy")
"""The levels played in the measured seat: the expert, and greedy as its control."""
Z_95 = 1.96


def code_key(game_id: str) -> str:
    """A digest of the code a record of ``game_id`` was played with: every file of ``rules/``
    (path and bytes) but the other games' packages and bots, and :data:`PROTOCOL`, SEATS and
    OPTIONS. Any change to the shared code or to this game's rules or bot, however small,
    makes its old records stale, since it may change a move; a change to another game's does
    not."""
    others = {g.replace("-", "_") for g in GAMES if g != game_id}
    digest = hashlib.sha256(PROTOCOL.encode())
    digest.update(json.dumps([SEATS, OPTIONS], sort_keys=True).encode())
    for path in sorted((ROOT / "rules").rglob("*.py")):
        parts = path.relative_to(ROOT).parts
        if parts[1] in others or (parts[1] == "bots" and path.stem in others):
            continue
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def set_up_game(
    game_id: str, index: int, measured: str = "expert"
) -> tuple[Any, dict[str, str], str, int, dict[str, Any]]:
    """Game number ``index`` of ``game_id`` as this benchmark sets it up: the bot, each seat's
    level (one seat at level ``measured``, rotated one seat a game, the others greedy), that
    seat's player, the seed ``1000 + index`` and the dealt state. The measured seat is the same
    for either level, so the control's games are the expert's with greedy in its place."""
    bot = BOTS[game_id]
    players = [f"p{k}" for k in range(SEATS.get(game_id, 2))]
    seat = seat_levels(["measured"] + ["other"] * (len(players) - 1), index).index("measured")
    levels = ["greedy"] * len(players)
    levels[seat] = measured
    seed = 1000 + index
    state = bot.game.setup(players, seed, dict(OPTIONS.get(game_id, {})))
    return bot, dict(zip(players, levels, strict=True)), players[seat], seed, state


def play_one(task: tuple[str, int, int, str]) -> dict[str, Any]:
    """One game: ``(game id, time_ms, game number, measured level)`` -> its record (the
    measured seat's share of the win, its answers' times and flags)."""
    game_id, time_ms, index, measured = task
    bot, level_of, player, seed, state = set_up_game(game_id, index, measured)
    began = time.monotonic()
    times: list[float] = []
    incomplete = switches = 0
    for turn in bot_turns(bot, state, level_of, seed, time_ms, clock=time.monotonic):
        state = turn.state
        if turn.player == player:
            times.append(turn.seconds)
            incomplete += not turn.suggestion.complete
            switches += turn.suggestion.reason.startswith("beat the greedy")
    winners = bot.game.score(state).winners
    return {
        "code": code_key(game_id),
        "game": game_id,
        "time_ms": time_ms,
        "index": index,
        "level": measured,
        "seconds": round(time.monotonic() - began, 2),
        "seats": len(level_of),
        "finished": state["status"] == "finished",
        "share": 1 / len(winners) if player in winners else 0.0,
        "answers": len(times),
        "incomplete": incomplete,
        "switches": switches,
        "max_ms": round(1000 * max(times, default=0.0), 1),
        "answer_ms": [round(1000 * t, 1) for t in times],
    }


def _records() -> list[dict[str, Any]]:
    if not RAW.exists():
        return []
    return [json.loads(line) for line in RAW.read_text("utf-8").splitlines() if line.strip()]


def _task(record: dict[str, Any]) -> tuple[str, int, int, str]:
    """A record's game: (game, budget, number, measured level; records before the control were
    all the expert's)."""
    return record["game"], record["time_ms"], record["index"], record.get("level", "expert")


def freeze_inherited() -> None:
    """A worker's start: what it inherited from this process, every past record read above
    (24,000 and growing), is frozen out of the garbage collector (``gc.freeze``), as the
    service's workers freeze what they start with (``api.buffered_worker``). A full collection
    in a worker walked them all, 70 to 120 ms, and that pause landed in the answer being timed:
    Reign Absolute answers of 98 ms at a 50 ms budget, each otherwise 2 ms (issue 28)."""
    gc.collect()
    gc.freeze()


def run(
    games: list[str],
    budgets: list[int],
    count: int,
    first: int = 0,
    workers: int = 2,
    say: Callable[[str], None] | None = None,
) -> int:
    """Play the games of every (game, budget) point that the current code has no record of,
    in ``workers`` processes, appending each record as it comes; returns the games played.

    The progress line (stderr, rewritten in place) estimates the time left by weighing each
    game left by the mean time of its (game, budget) in the records, any code's, and in this
    run's games as they finish (a 1000 ms Council game takes a hundred times a 50 ms Reign
    Absolute one), else by its budget."""
    keys = {g: code_key(g) for g in games}
    past = _records()
    done = {_task(r) for r in past if r.get("code") == keys.get(r["game"])}
    # game number first: every point gets games from the start, so the estimate knows every
    # kind of game early, and an interrupted run leaves every point some games
    tasks = [
        (g, b, i, level)
        for i in range(first, first + count)
        for b in sorted(budgets, reverse=True)
        for g in games
        for level in MEASURED_LEVELS
        if (g, b, i, level) not in done
    ]
    took: dict[tuple[str, int, str], list[float]] = defaultdict(list)
    for r in past:
        # older records have no wall time: their seats' answers, guessed as long as the expert's
        seconds = r.get("seconds") or r["seats"] * sum(r["answer_ms"]) / 1000
        game, budget, _, level = _task(r)
        took[(game, budget, level)].append(seconds)

    def weight(task: tuple[str, int, int, str]) -> float:
        seen = took.get((task[0], task[1], task[3]))
        return sum(seen) / len(seen) if seen else task[1] / 20

    message = say or (lambda text: None)
    message(
        f"strength: {len(tasks)} games to play, {len(done)} already recorded; estimated "
        f"{sum(map(weight, tasks)) / max(1, workers) / 60:.0f} min on {workers} workers"
    )
    if not tasks:
        return 0
    RAW.parent.mkdir(exist_ok=True)
    started = time.monotonic()
    waiting = set(tasks)
    spent = 0.0
    with (
        multiprocessing.Pool(workers, initializer=freeze_inherited) as pool,
        RAW.open("a", encoding="utf-8") as raw,
    ):
        for n, record in enumerate(pool.imap_unordered(play_one, tasks, chunksize=1), 1):
            raw.write(json.dumps(record) + "\n")
            raw.flush()
            waiting.discard(_task(record))
            took[(record["game"], record["time_ms"], record["level"])].append(record["seconds"])
            spent += record["seconds"]
            elapsed = time.monotonic() - started
            # the games left, each as long as its kind so far, at the pace so far (game seconds
            # per wall second: about the number of workers on an idle machine)
            eta = sum(map(weight, waiting)) * elapsed / spent if spent else 0.0
            print(
                f"\r  strength {n}/{len(tasks)} games  last: {record['game']} "
                f"{record['time_ms']} ms #{record['index']} {record['level']}  "
                f"{elapsed / 60:.1f} min, "
                f"about {eta / 60:.0f} min left   ",
                end="",
                file=sys.stderr,
                flush=True,
            )
    print(file=sys.stderr)
    return len(tasks)


def play(args: argparse.Namespace) -> None:
    run(
        args.only.split(",") if args.only else list(GAMES),
        [int(b) for b in args.budgets.split(",")],
        args.games,
        args.first,
        args.workers,
        lambda text: print(text, file=sys.stderr, flush=True),
    )


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def difference_interval(differences: list[float]) -> tuple[float, float, float]:
    """The mean of paired differences and its 95% interval (normal, sample variance); the
    interval is (-1, 1) when fewer than two pairs say nothing of the spread."""
    n = len(differences)
    if n < 2:
        return (differences[0] if differences else 0.0), -1.0, 1.0
    mean = sum(differences) / n
    variance = sum((d - mean) ** 2 for d in differences) / (n - 1)
    half = Z_95 * math.sqrt(variance / n)
    return mean, mean - half, mean + half


def point(expert: list[dict[str, Any]], control: list[dict[str, Any]]) -> dict[str, Any]:
    """One (game, budget) point: the expert's games against the control's (greedy in the
    expert's seat), paired by game number; only numbers played by both count."""
    greedy_of = {r["index"]: r["share"] for r in control}
    paired = [r for r in expert if r["index"] in greedy_of]
    n = len(paired)
    share = sum(r["share"] for r in paired)
    greedy = sum(greedy_of[r["index"]] for r in paired)
    differences = [r["share"] - greedy_of[r["index"]] for r in paired]
    mean, low_diff, high_diff = difference_interval(differences)
    low, high = wilson_interval(share, n)  # a shared win counts 1/k: a share, not a count
    greedy_low, greedy_high = wilson_interval(greedy, n)
    times = [t for r in paired for t in r["answer_ms"]]
    seats = expert[0]["seats"] if expert else 2
    return {
        "games": n,
        "seats": seats,
        "expert_share": round(share / n, 3) if n else 0.0,
        "wilson_95": [round(low, 3), round(high, 3)],
        "greedy_share": round(greedy / n, 3) if n else 0.0,
        "greedy_wilson_95": [round(greedy_low, 3), round(greedy_high, 3)],
        "difference": round(mean, 3),
        "difference_95": [round(low_diff, 3), round(high_diff, 3)],
        "differing_games": sum(d != 0 for d in differences),
        "fair_share": round(1 / seats, 3),
        "not_weaker": n > 0 and high_diff >= 0,
        "clearly_not_weaker": n > 0 and mean >= 0,
        "answers": len(times),
        "incomplete": sum(r["incomplete"] for r in paired),
        "switches": sum(r["switches"] for r in paired),
        "max_answer_ms": max(times, default=0.0),
        "p95_answer_ms": _percentile(times, 0.95),
        "unfinished_games": sum(not r["finished"] for r in paired),
    }


def load() -> dict[tuple[str, int, str], list[dict[str, Any]]]:
    """The current code's recorded games by (game, budget, measured level), each game number
    once (its last record)."""
    keys = {g: code_key(g) for g in GAMES}
    latest: dict[tuple[str, int, int, str], dict[str, Any]] = {}
    for r in _records():
        if r.get("code") == keys.get(r["game"]):
            latest[_task(r)] = r
    points: dict[tuple[str, int, str], list[dict[str, Any]]] = defaultdict(list)
    for (g, b, _, level), r in sorted(latest.items()):
        points[(g, b, level)].append(r)
    return points


def svg(results: dict[str, dict[str, dict[str, Any]]]) -> str:
    """Win share against budget (log scale), a panel per game: the expert's and, beside it,
    the control's (greedy in the same seat and games), with Wilson bars; 1/seats dashed."""
    budgets = list(BUDGETS)
    w, h, pad = 300, 220, 40
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{2 * w}" height="{2 * h + 60}" '
        'font-family="sans-serif" font-size="11">',
        f'<text x="{w}" y="16" text-anchor="middle" font-size="13">Expert vs greedy: the '
        "expert's win share by time_ms, and greedy's in its seat (Wilson 95%)</text>",
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
            greedy_lo, greedy_hi = p["greedy_wilson_95"]
            beside = x(b) + 6
            parts.append(
                f'<line x1="{beside}" x2="{beside}" y1="{y(greedy_lo)}" y2="{y(greedy_hi)}" '
                'stroke="#e80"/>'
                f'<rect x="{beside - 2.5}" y="{y(p["greedy_share"]) - 2.5}" width="5" height="5" '
                'fill="#e80"/>'
                f'<line x1="{x(b)}" x2="{x(b)}" y1="{y(lo)}" y2="{y(hi)}" stroke="#36c"/>'
                f'<circle cx="{x(b)}" cy="{y(p["expert_share"])}" r="3" fill="#36c"/>'
                f'<text x="{x(b)}" y="{y(max(hi, greedy_hi)) - 4}" fill="#666" '
                f'text-anchor="middle">n={p["games"]}</text>'
            )
            line.append(f"{x(b):.1f},{y(p['expert_share']):.1f}")
        if len(line) > 1:
            parts.append(f'<polyline points="{" ".join(line)}" fill="none" stroke="#36c"/>')
        parts.append(f'<text x="{ox + w / 2}" y="{y(0) + 28}" text-anchor="middle">time_ms</text>')
    parts.append(
        f'<text x="{w}" y="{2 * h + 52}" text-anchor="middle" fill="#666">blue: the expert; '
        "orange: greedy in its seat, same games; dashed: 1/seats; bars: Wilson 95%; n: games"
        "</text>"
    )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def table(results: dict[str, dict[str, dict[str, Any]]]) -> str:
    """The Markdown table of every point (``docs/bots.md``)."""
    lines = [
        "| game | time_ms | games | expert's share | Wilson 95% | greedy's share | Wilson 95% | "
        "difference [95%] | games differing | not weaker | incomplete / answers | p95 ms | "
        "max ms | switches |",
        "|---|---:|---:|---:|---|---:|---|---|---:|---|---:|---:|---:|---:|",
    ]
    for game_id, pts in results.items():
        for budget, p in pts.items():
            low, high = p["wilson_95"]
            greedy_low, greedy_high = p["greedy_wilson_95"]
            diff_low, diff_high = p["difference_95"]
            verdict = "yes" if p["clearly_not_weaker"] else "yes (below greedy)"
            lines.append(
                f"| {game_id} | {budget} | {p['games']} | {p['expert_share']:.3f} | "
                f"[{low:.3f}, {high:.3f}] | {p['greedy_share']:.3f} | "
                f"[{greedy_low:.3f}, {greedy_high:.3f}] | "
                f"{p['difference']:+.3f} [{diff_low:+.3f}, {diff_high:+.3f}] | "
                f"{p['differing_games']} | {verdict if p['not_weaker'] else 'NO'} | "
                f"{p['incomplete']} / {p['answers']} | {p['p95_answer_ms']:.0f} | "
                f"{p['max_answer_ms']:.0f} | {p['switches']} |"
            )
    return "\n".join(lines) + "\n"


def with_table(markdown: str, results: dict[str, dict[str, dict[str, Any]]]) -> str:
    """``markdown`` with the text between the results markers replaced by :func:`table`."""
    head, rest = markdown.split(MARKERS[0], 1)
    _, tail = rest.split(MARKERS[1], 1)
    return head + MARKERS[0] + table(results) + MARKERS[1] + tail


def report(say: Callable[[str], None] = print) -> dict[str, Any]:
    """Write the JSON, the SVG and the table of ``docs/bots.md`` from the current code's records;
    returns the JSON written."""
    records = load()
    results: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
    for game_id, budget in sorted({(g, b) for g, b, _ in records}):
        results[game_id][str(budget)] = point(
            records.get((game_id, budget, "expert"), []),
            records.get((game_id, budget, "greedy"), []),
        )
    out: dict[str, Any] = {
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "code": {g: code_key(g) for g in GAMES},
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "results": results,
    }
    before = json.loads(OUT_JSON.read_text("utf-8")) if OUT_JSON.exists() else {}
    if {k: before.get(k) for k in ("code", "results")} == {k: out[k] for k in ("code", "results")}:
        out = before  # nothing new was played: the docs keep when and on what load it was
    OUT_JSON.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    OUT_SVG.write_text(svg(out["results"]), encoding="utf-8")
    OUT_MD.write_text(with_table(OUT_MD.read_text("utf-8"), out["results"]), encoding="utf-8")
    say(table(out["results"]))
    return out


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
