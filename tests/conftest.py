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
    app = create_app(
        {"TESTING": True, "REDIS_URL": None, "REFEREE_DATA_DIR": str(referee_data_dir)}
    )
    yield app
    app.extensions["referee_bot_seats"].stop()  # bot seats of its sessions stop with the test
    app.extensions["referee_clocks"].stop()  # and so does its timekeeper


@pytest.fixture
def client(app):
    return app.test_client()


def pytest_collection_modifyitems(session, config, items):
    """Run the schemathesis contract module first, in a process no other test has touched yet.

    Alone, it passes every time. After other tests in the same process, one run in two failed on
    a loaded machine: schemathesis stopped generating for the Council ``suggest`` operation with
    ``InvalidSchema`` ("a collection of min_size=3 unique elements ... drawn from only 2 distinct
    elements": Council ``players``). Its generation is derandomised and does not learn from
    answers here (``test_contract_schemathesis.ADAPTIVE_OFF``), yet some state left in the process
    (I did not find which, in schemathesis or hypothesis) changes what it draws. Until that is
    found, the module runs before anything can leave such state; nothing else depends on order.
    """
    first = [
        item
        for item in items
        if item.nodeid.startswith("tests/contract/test_contract_schemathesis.py")
    ]
    if first:
        rest = [item for item in items if item not in first]
        items[:] = first + rest
