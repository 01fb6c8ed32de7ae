"""Benchmark: do open ``/events`` streams hold up moves?

    .venv/bin/python bench/streams.py [--streams 50 100] [--moves 200]

Starts the service exactly as the README does (``reign-referee serve``: gunicorn, 2 workers,
embedded Redis) on a free port, then plays Reign & Ruin sessions move by move (each move: the
seat's legal moves, then ``POST .../moves`` with ``If-Match``) and measures the move latency:

1. with no stream open;
2. with N streams open on the session being played (for each N given), every stream reading
   every event: it also measures the delivery delay (move answered → event read by a stream)
   and checks that every stream got every event.

Prints a table and writes ``bench/results/streams.json``. Loopback only: the client threads
share the machine's cores with the server.
"""

from __future__ import annotations

import argparse
import http.client
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.served import free_port, referee_env, start_serve, stop  # noqa: E402

GAME = "reign-and-ruin"


class Client:
    """A keep-alive connection, opened again when the server has closed an idle one."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def call(self, method: str, path: str, body=None, headers=None):
        data = None if body is None else json.dumps(body).encode()
        hdrs = {"Content-Type": "application/json"} if data else {}
        hdrs.update(headers or {})
        for attempt in (1, 2):
            try:
                self.conn.request(method, path, body=data, headers=hdrs)
                resp = self.conn.getresponse()
                text = resp.read()
                return resp.status, (json.loads(text) if text else None)
            except (BrokenPipeError, ConnectionResetError, http.client.RemoteDisconnected):
                if attempt == 2:
                    raise
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)


class Stream(threading.Thread):
    """Reads one event stream; records when each version arrived."""

    def __init__(self, port: int, path: str) -> None:
        super().__init__(daemon=True)
        self.port, self.path = port, path
        self.arrived: dict[int, float] = {}
        self.opened = threading.Event()
        self.status = 0
        self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)

    def run(self) -> None:
        try:
            self.conn.request("GET", self.path, headers={"Accept": "text/event-stream"})
            resp = self.conn.getresponse()
            self.status = resp.status
            self.opened.set()
            while True:
                line = resp.fp.readline()
                if not line:
                    return
                if line.startswith(b"id: "):
                    self.arrived[int(line[4:])] = time.perf_counter()
        except (OSError, ValueError, AttributeError):
            return  # closed by close()
        finally:
            self.opened.set()

    def close(self) -> None:
        try:
            self.conn.sock.shutdown(socket.SHUT_RDWR)
        except (OSError, AttributeError):
            pass


def start_server(data_dir: str) -> tuple[subprocess.Popen, int]:
    port = free_port()
    # Every stream of the bench comes from 127.0.0.1: no cap per client address.
    env = referee_env(REFEREE_DATA_DIR=data_dir, LOG_LEVEL="warning", MAX_STREAMS_PER_CLIENT="0")
    return start_serve(port, env=env, ready="/readyz"), port


def save_results(name: str, results: list[dict]) -> None:
    """Write ``bench/results/<name>.json``: when (UTC) and the rows measured."""
    out = ROOT / "bench" / "results" / f"{name}.json"
    out.parent.mkdir(exist_ok=True)
    when = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    out.write_text(json.dumps({"when": when, "results": results}, indent=2) + "\n")


def new_session(client: Client) -> dict:
    status, body = client.call(
        "POST", "/v1/sessions", {"game": GAME, "players": ["ann", "bob", "cat"]}
    )
    assert status == 201, body
    return body


def play(port: int, moves: int, streams: int) -> dict:
    """``moves`` moves, with ``streams`` streams open on each session being played."""
    client = Client(port)
    latencies: list[float] = []
    delays: list[float] = []
    missing = 0
    done = 0
    while done < moves:
        session = new_session(client)
        path = f"/v1/sessions/{session['session_id']}"
        readers = [Stream(port, path + "/events") for _ in range(streams)]
        for reader in readers:
            reader.start()
        for reader in readers:
            reader.opened.wait(10)
        answered: dict[int, float] = {}
        while done < moves:
            mover = None
            for token in session["seats"].values():
                status, listed = client.call(
                    "GET", path + "/legal-moves", headers={"Authorization": f"Bearer {token}"}
                )
                if listed["moves"]:
                    mover = (token, listed)
                    break
            if mover is None:
                break  # finished: next session
            token, listed = mover
            started = time.perf_counter()
            status, body = client.call(
                "POST",
                path + "/moves",
                {"move": listed["moves"][0]},
                headers={"Authorization": f"Bearer {token}", "If-Match": f'"{listed["version"]}"'},
            )
            latencies.append(time.perf_counter() - started)
            assert status == 200, body
            answered[body["version"]] = time.perf_counter()
            done += 1
        deadline = time.time() + 10
        while time.time() < deadline and any(len(r.arrived) < len(answered) for r in readers):
            time.sleep(0.05)
        for reader in readers:
            assert reader.status == 200, f"a stream was refused: {reader.status}"
            for version, at in answered.items():
                if version in reader.arrived:
                    delays.append(
                        max(0.0, reader.arrived[version] - at)
                    )  # often read before the answer
                else:
                    missing += 1
            reader.close()
        if streams:
            time.sleep(2)  # closed streams free their server threads within a second or so
    result = {
        "streams": streams,
        "moves": len(latencies),
        "move_ms_median": round(statistics.median(latencies) * 1000, 2),
        "move_ms_p95": round(sorted(latencies)[int(0.95 * len(latencies)) - 1] * 1000, 2),
    }
    if streams:
        result.update(
            delivery_ms_median=round(statistics.median(delays) * 1000, 2),
            delivery_ms_p95=round(sorted(delays)[int(0.95 * len(delays)) - 1] * 1000, 2),
            events_missing=missing,
        )
    return result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--streams", type=int, nargs="+", default=[50, 100])
    ap.add_argument("--moves", type=int, default=200)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as data_dir:
        proc, port = start_server(data_dir)
        try:
            play(port, 20, 0)  # warm up
            results = [play(port, args.moves, n) for n in [0, *args.streams]]
        finally:
            stop(proc, 60)
    for r in results:
        print("  ".join(f"{k}={v}" for k, v in r.items()))
    save_results("streams", results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
