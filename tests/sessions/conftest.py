"""The served service shared by the session tests that need real HTTP (gunicorn, 2 workers)."""

from __future__ import annotations

import os
import signal

import pytest
from sessions_served import RedisServer, Served


@pytest.fixture(scope="session")
def served(tmp_path_factory):
    """``reign-referee serve`` with the embedded Redis; heartbeats every second; no cap on the
    streams of one client address (every client of the tests is 127.0.0.1, and one test holds
    60 streams)."""
    server = Served(
        tmp_path_factory.mktemp("served-data"),
        tmp_path_factory.mktemp("served-log") / "serve.log",
        env={"HEARTBEAT_SECONDS": "1", "MAX_STREAMS_PER_CLIENT": "0"},
    ).start()
    yield server
    server.stop()


@pytest.fixture
def redis_server(tmp_path):
    """A standalone redis-server of our own (``REDIS_URL``), stopped (resumed first, if a test
    froze it with SIGSTOP) at the end."""
    server = RedisServer(tmp_path).start()
    yield server
    if server.proc is not None and server.proc.poll() is None:
        os.kill(server.proc.pid, signal.SIGCONT)
    server.stop()
