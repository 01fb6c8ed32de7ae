"""Benchmark: do bot seats hold up requests?

    .venv/bin/python bench/bot_seats.py [--moves 60] [--rounds 2] [--level expert]

Starts the service as the README does (``reign-referee serve``: gunicorn, 2 workers, embedded
Redis; ``SESSION_BOT_TIME_MS`` as in the environment, default 300) on a free port and plays
two-player Reign Supreme sessions (standard scenario, 3 rounds, automatic set-up, so both
seats have many decisions) in alternating rounds of two modes:

1. ``humans`` (the baseline): both seats post their moves (the first legal one);
2. ``bot``: ann posts, bob is a bot seat at ``--level``.

Meanwhile a probe thread keeps asking ``GET /v1/games`` (a request that touches no session). It
reports per mode the latency of ann's ``POST .../moves`` and of the probe (median, p95), and in
``bot`` mode the reply delay (ann's move answered -> the bot's move read on the session's event
stream). The bots must not hold up requests: the move and probe latencies of the two modes should
be close. Prints a table and writes ``bench/results/bot_seats.json``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time

from streams import Client, Stream, save_results, start_server, stop

GAME = "reign-supreme"
OPTIONS = {"scenario": "standard", "round_limit": 3, "setup": "auto"}


def _ms(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[max(0, int(q * len(ordered)) - 1)] * 1000, 2) if ordered else float("nan")


class Probe(threading.Thread):
    """Asks ``GET /v1/games`` back to back and keeps the latencies while ``recording`` is set."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.client = Client(port)
        self.recording = threading.Event()
        self.stopping = threading.Event()
        self.latencies: list[float] = []

    def run(self) -> None:
        while not self.stopping.is_set():
            started = time.perf_counter()
            status, _ = self.client.call("GET", "/v1/games")
            if self.recording.is_set():
                self.latencies.append(time.perf_counter() - started)
            assert status == 200
            time.sleep(0.005)

    def take(self) -> list[float]:
        taken, self.latencies = self.latencies, []
        return taken


def play(
    port: int, moves: int, bot_level: str | None, seed: int
) -> tuple[list[float], list[float]]:
    """``moves`` of ann's moves (new sessions as games end); her move latencies and, with a bot,
    the bot's reply delays."""
    client = Client(port)
    latencies: list[float] = []
    replies: list[float] = []
    while len(latencies) < moves:
        body = {
            "game": GAME,
            "players": ["ann", "bob"],
            "open": True,
            "seed": seed,
            "options": OPTIONS,
        }
        if bot_level:
            body["bots"] = {"bob": bot_level}
        seed += 1
        status, created = client.call("POST", "/v1/sessions", body)
        assert status == 201, created
        path = f"/v1/sessions/{created['session_id']}"
        stream = Stream(port, path + "/events?after=0")
        stream.start()
        stream.opened.wait(10)
        finished = False
        while not finished and len(latencies) < moves:
            mover = None
            deadline = time.time() + 60
            while mover is None:
                status, snap = client.call("GET", path)
                if snap["status"] == "finished":
                    finished = True
                    break
                turn = snap["view"]["to_move"][0]  # the player the game waits on
                if turn in created["seats"]:
                    token = created["seats"][turn]
                    status, listed = client.call(
                        "GET", path + "/legal-moves", headers={"Authorization": f"Bearer {token}"}
                    )
                    if listed["version"] == snap["version"]:
                        mover = (turn, token, listed)
                        break
                assert time.time() < deadline, "the bot never moved"
                time.sleep(0.01)
            if mover is None:
                break
            player, token, listed = mover
            # Never concede: it is listed last, and never a waited-on seat's only move.
            move = listed["moves"][0]
            started = time.perf_counter()
            status, answer = client.call(
                "POST",
                path + "/moves",
                {"move": move},
                headers={"Authorization": f"Bearer {token}", "If-Match": f'"{listed["version"]}"'},
            )
            answered = time.perf_counter()
            assert status == 200, answer
            if player == "ann":
                latencies.append(answered - started)
                if bot_level and "bob" in answer["view"]["to_move"]:
                    reply, deadline = answer["version"] + 1, time.time() + 60
                    while reply not in stream.arrived and time.time() < deadline:
                        time.sleep(0.002)
                    if reply in stream.arrived:
                        replies.append(max(0.0, stream.arrived[reply] - answered))
        stream.close()
    return latencies, replies


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=60, help="ann's moves per mode and round")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--level", default="expert")
    args = ap.parse_args()
    modes = {"humans": None, "bot": args.level}
    moves: dict[str, list[float]] = {m: [] for m in modes}
    probes: dict[str, list[float]] = {m: [] for m in modes}
    replies: list[float] = []
    with tempfile.TemporaryDirectory() as data_dir:
        proc, port = start_server(data_dir)
        probe = Probe(port)
        probe.start()
        try:
            play(port, 10, None, 1)  # warm up
            for r in range(args.rounds):
                for mode, level in modes.items():
                    probe.take()
                    probe.recording.set()
                    latencies, delays = play(port, args.moves, level, 100 * r + 1)
                    probe.recording.clear()
                    moves[mode] += latencies
                    probes[mode] += probe.take()
                    replies += delays
                    print(
                        f"round {r + 1} {mode}: {len(latencies)} moves", file=sys.stderr, flush=True
                    )
        finally:
            probe.stopping.set()
            stop(proc, 60)
    results = []
    for mode in modes:
        row = {
            "mode": mode,
            "moves": len(moves[mode]),
            "move_ms_median": _ms(moves[mode], 0.5),
            "move_ms_p95": _ms(moves[mode], 0.95),
            "probes": len(probes[mode]),
            "probe_ms_median": _ms(probes[mode], 0.5),
            "probe_ms_p95": _ms(probes[mode], 0.95),
        }
        if mode == "bot":
            row.update(
                level=args.level,
                bot_replies=len(replies),
                reply_ms_median=_ms(replies, 0.5),
                reply_ms_p95=_ms(replies, 0.95),
            )
        results.append(row)
        print("  ".join(f"{k}={v}" for k, v in row.items()))
    save_results("bot_seats", results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
