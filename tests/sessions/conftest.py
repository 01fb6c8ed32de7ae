"""The served service shared by the session tests that need real HTTP (gunicorn, 2 workers)."""
from __future__ import annotations

import pytest
from sessions_served import Served


@pytest.fixture(scope="session")
def served(tmp_path_factory):
    """``reign-referee serve`` with the embedded Redis; heartbeats every second."""
    server = Served(tmp_path_factory.mktemp("served-data"), tmp_path_factory.mktemp("served-log") / "serve.log",
                    env={"HEARTBEAT_SECONDS": "1"}).start()
    yield server
    server.stop()
