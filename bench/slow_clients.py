"""Benchmark: do slow and half-open clients delay anyone else? (issue 23)

    .venv/bin/python bench/slow_clients.py [--stalled 1000] [--requests 300] [--deadline S]

Starts the service as the README does (``reign-referee serve``: gunicorn, 2 workers, embedded
Redis) on a free port, then measures the latency of ``GET /healthz`` and of a Reign & Ruin
``apply`` (a real state from ``setup`` and its first legal move), each request on a new
connection, two clients side by side:

1. baseline: nothing else going on;
2. the same while a third client asks for a 1 s bot search after another (``suggest``, expert,
   ``time_ms`` 1000): CPU-bound work in a worker;
3. and 4. the same two with ``--stalled`` connections held open by another process (so its
   work does not share this one's interpreter): a third each stalled mid-headers, mid-body
   (``Content-Length`` 1000, 10 bytes sent), and trickling its headers one byte a second. A
   connection the server closes is counted (408 answer or not, how long it was held) and opened
   again, so the count stays up for the whole measurement.

Finally the stalled connections stop being replaced, and after the deadline (plus slack) the
bench counts how many the server closed and how many are still open. Every request has a 5 s
timeout (a failure, counted) and every phase at most ``--phase-seconds``, so a service that
starves (the old gthread worker) ends too.

Prints a table. Loopback only; the client processes share the machine's cores with the server.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import multiprocessing
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.served import CHECKOUT, free_port, referee_env, start_serve, stop  # noqa: E402

GAME = "reign-and-ruin"
TIMEOUT = 5.0
HEAD = b"POST /v1/games/reign-and-ruin/apply HTTP/1.1\r\nHost: bench\r\n"
KINDS = ("mid-headers", "mid-body", "trickle")


def call(port: int, method: str, path: str, body: Any = None, timeout: float = TIMEOUT):
    """One request on a new connection: (status, answer)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"} if data else {}
        conn.request(method, path, body=data, headers=headers)
        resp = conn.getresponse()
        text = resp.read()
        return resp.status, (json.loads(text) if text else None)
    finally:
        conn.close()


def first_position(port: int) -> tuple[dict, dict]:
    """A Reign & Ruin state from the service's setup, and the ``apply`` body of its first legal
    move."""
    _, setup = call(port, "POST", f"/v1/games/{GAME}/setup", {"players": ["ann", "bob"], "seed": 7})
    state = setup["state"]
    _, legal = call(
        port, "POST", f"/v1/games/{GAME}/legal-moves", {"state": state, "player": "ann"}
    )
    return state, {"state": state, "move": legal["moves"][0]}


def start_server(data_dir: str, deadline: int | None) -> tuple[subprocess.Popen, int]:
    """``reign-referee serve`` (the README's command) with the code of this checkout."""
    port = free_port()
    env = referee_env(REFEREE_DATA_DIR=data_dir, LOG_LEVEL="warning", PYTHONPATH=str(ROOT))
    if deadline is not None:
        env["REQUEST_DEADLINE_SECONDS"] = str(deadline)
    return start_serve(port, env=env, command=CHECKOUT, ready="/readyz"), port


# -- the stalled connections (their own process) -----------------------------------------------
async def _hold(kind: str, port: int, stats: dict, stop: asyncio.Event) -> None:
    """Open one connection of ``kind``, stall, and record how the server ends it."""
    opened = time.monotonic()
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        stats["connect_failed"] += 1
        await asyncio.sleep(0.5)
        return
    stats["open"] += 1
    stats["opened"] += 1
    answer = b""
    try:
        if kind == "mid-headers":
            writer.write(HEAD + b"Content-Type: appl")
        elif kind == "mid-body":
            writer.write(HEAD + b"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n")
            writer.write(b'{"state": ')
        read = asyncio.ensure_future(reader.read(4096))
        sent = 0
        line = HEAD + b"Content-Type: application/json\r\n" * 100
        while not read.done() and not stop.is_set():
            if kind == "trickle" and sent < len(line):
                writer.write(line[sent : sent + 1])
                sent += 1
            await asyncio.wait([read], timeout=1.0)
        if read.done():
            answer = read.result()
            while answer and b"\r\n\r\n" not in answer:  # the rest of a split answer
                more = await asyncio.wait_for(reader.read(4096), 2)
                if not more:
                    break
                answer += more
            stats["closed_by_server"] += 1
            stats["held"].append(time.monotonic() - opened)
            status = answer[9:12].decode("latin1", "replace") if answer else "none"
            stats["answers"][status] = stats["answers"].get(status, 0) + 1
            if b"application/problem+json" in answer and b"request_timeout" in answer:
                stats["problem_408"] += 1
        else:
            read.cancel()
    except (TimeoutError, OSError):
        stats["closed_by_server"] += 1
        stats["held"].append(time.monotonic() - opened)
        stats["answers"]["reset"] = stats["answers"].get("reset", 0) + 1
    finally:
        stats["open"] -= 1
        writer.close()


async def _stall(port: int, count: int, conn: Any) -> None:
    stats: dict[str, Any] = {
        "opened": 0,
        "open": 0,
        "closed_by_server": 0,
        "problem_408": 0,
        "connect_failed": 0,
        "answers": {},
        "held": [],
    }
    stop, final = asyncio.Event(), asyncio.Event()

    async def keep(i: int) -> None:
        kind = KINDS[i % len(KINDS)]
        # once final is set, the connection held then is the last one: it is not replaced,
        # to see the deadline close it
        while not stop.is_set() and not final.is_set():
            await _hold(kind, port, stats, stop)

    tasks = [asyncio.ensure_future(keep(i)) for i in range(count)]
    loop = asyncio.get_running_loop()
    while stats["open"] < count and stats["opened"] < 3 * count:
        await asyncio.sleep(0.1)
    conn.send(("ready", stats["open"]))
    command = await loop.run_in_executor(None, conn.recv)  # "final" after the measurements
    before = dict(stats, held=list(stats["held"]), answers=dict(stats["answers"]))
    final.set()
    wait_for = await loop.run_in_executor(None, conn.recv)  # seconds to wait for the closes
    assert command == "final"
    until = time.monotonic() + wait_for
    while stats["open"] and time.monotonic() < until:
        await asyncio.sleep(0.2)
    still_open = stats["open"]
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    conn.send(("done", before, dict(stats), still_open))


def stall_process(port: int, count: int, conn: Any) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 4 * count + 256)), hard))
    asyncio.run(_stall(port, count, conn))


# -- the measuring clients ------------------------------------------------------------------
def measure(port: int, requests: int, phase_seconds: float, apply_body: dict, suggest: dict | None):
    """healthz and apply latencies, measured side by side (and a suggest loop if given)."""
    results: dict[str, dict[str, Any]] = {}
    stop = threading.Event()

    def loop(name: str, method: str, path: str, body: Any, expect: int) -> None:
        times, failures = [], 0
        until = time.monotonic() + phase_seconds
        while len(times) + failures < requests and time.monotonic() < until:
            started = time.perf_counter()
            try:
                status, _ = call(port, method, path, body)
                ok = status == expect
            except (OSError, http.client.HTTPException):
                ok = False
            if ok:
                times.append((time.perf_counter() - started) * 1000)
            else:
                failures += 1
        results[name] = {"times": times, "failures": failures}

    suggests: list[float] = []

    def think() -> None:
        while not stop.is_set():
            started = time.perf_counter()
            try:
                call(port, "POST", f"/v1/games/{GAME}/suggest", suggest, timeout=30)
                suggests.append(time.perf_counter() - started)
            except (OSError, http.client.HTTPException):
                time.sleep(0.1)

    threads = [
        threading.Thread(target=loop, args=("healthz", "GET", "/healthz", None, 200)),
        threading.Thread(
            target=loop, args=("apply", "POST", f"/v1/games/{GAME}/apply", apply_body, 200)
        ),
    ]
    thinker = threading.Thread(target=think, daemon=True) if suggest else None
    if thinker:
        thinker.start()
        time.sleep(0.3)  # the first search is under way
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    stop.set()
    if thinker:
        thinker.join(timeout=35)
    results["suggests"] = {"count": len(suggests)}
    return results


def summary(times: list[float]) -> tuple[str, str, str]:
    if not times:
        return "-", "-", "-"
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(round(0.99 * (len(ordered) - 1))))]
    return f"{statistics.median(ordered):.1f}", f"{p99:.1f}", f"{ordered[-1]:.1f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--stalled", type=int, default=1000)
    parser.add_argument("--requests", type=int, default=300, help="per endpoint and phase")
    parser.add_argument("--phase-seconds", type=float, default=60.0)
    parser.add_argument(
        "--deadline", type=int, default=None, help="REQUEST_DEADLINE_SECONDS (default: unset)"
    )
    args = parser.parse_args()
    deadline = args.deadline if args.deadline is not None else 10
    with tempfile.TemporaryDirectory(prefix="bench-slow-") as data_dir:
        proc, port = start_server(data_dir, args.deadline)
        try:
            state, apply_body = first_position(port)
            suggest = {
                "state": state,
                "player": "ann",
                "level": "expert",
                "time_ms": 1000,
                "seed": 1,
            }
            rows = []
            for label, sug in (("baseline", None), ("baseline + 1 s suggest", suggest)):
                rows.append(
                    (label, measure(port, args.requests, args.phase_seconds, apply_body, sug))
                )
            here, there = multiprocessing.Pipe()
            staller = multiprocessing.Process(
                target=stall_process, args=(port, args.stalled, there), daemon=True
            )
            staller.start()
            if not here.poll(120):
                raise RuntimeError("the stalled connections did not open")
            _, held = here.recv()
            print(f"{held} stalled connections open", file=sys.stderr, flush=True)
            for label, sug in ((f"{held} stalled", None), (f"{held} stalled + suggest", suggest)):
                rows.append(
                    (label, measure(port, args.requests, args.phase_seconds, apply_body, sug))
                )
            here.send("final")
            here.send(deadline + 1 + 5)
            _, during, after, still_open = here.recv()
            staller.join(10)
        finally:
            stop(proc, 20)
    print()
    print(
        f"{'phase':<28} {'endpoint':<8} {'n':>4} {'fail':>4} {'p50 ms':>8} {'p99 ms':>8} "
        f"{'max ms':>8} {'suggests':>8}"
    )
    for label, result in rows:
        for name in ("healthz", "apply"):
            r = result[name]
            p50, p99, top = summary(r["times"])
            print(
                f"{label:<28} {name:<8} {len(r['times']):>4} {r['failures']:>4} {p50:>8} "
                f"{p99:>8} {top:>8} {result['suggests']['count']:>8}"
            )
    held_times = during["held"]
    print()
    print(f"stalled connections during the measurements ({args.stalled} kept open):")
    print(
        f"  opened {during['opened']}, closed by the server {during['closed_by_server']} "
        f"(answers {during['answers']}, problem+json 408 {during['problem_408']}), "
        f"connect failures {during['connect_failed']}"
    )
    if held_times:
        print(
            f"  held before the server closed them: min {min(held_times):.1f} s, "
            f"median {statistics.median(held_times):.1f} s, max {max(held_times):.1f} s "
            f"(REQUEST_DEADLINE_SECONDS {deadline})"
        )
    print(
        f"after the last {args.stalled} were left alone for {deadline + 6} s: "
        f"{still_open} still open; in all closed by the server {after['closed_by_server']}, "
        f"408 problem+json {after['problem_408']}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
