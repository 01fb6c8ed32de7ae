"""Shared fixtures: the Flask ``app`` (embedded Redis in a temporary data directory) and its
test ``client``."""
from __future__ import annotations

import pytest

from api import create_app


@pytest.fixture(scope="session")
def referee_data_dir(tmp_path_factory):
    """One data directory for the whole run, so the embedded Redis starts at most once."""
    return tmp_path_factory.mktemp("referee-data")


@pytest.fixture
def app(referee_data_dir):
    """The app as served, with REDIS_URL unset (embedded store) whatever the environment says."""
    app = create_app({"TESTING": True, "REDIS_URL": None, "REFEREE_DATA_DIR": str(referee_data_dir)})
    yield app
    app.extensions["referee_bot_seats"].stop()  # bot seats of its sessions stop with the test


@pytest.fixture
def client(app):
    return app.test_client()
