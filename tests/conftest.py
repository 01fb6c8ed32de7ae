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


BROWSER_MODULES = (
    "tests/contract/test_contract_browser.py",
    "tests/contract/test_table_browser.py",
)
"""They share one xdist group: one Chromium at a time on the 2-core machine CI runs on."""


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the groups
def pytest_collection_modifyitems(session, config, items):
    """Order and group the tests for the xdist workers (pyproject: ``-n 2 --dist loadgroup``).

    Each module is one unit of work (an ``xdist_group`` named by its path; the two browser modules
    share one): a module runs whole in one process, in its own order, as in a serial run. So its
    module fixtures (a served instance, a built wheel, a browser) are built once, and state a
    module keeps between its tests (``test_contract_schemathesis.STATUSES``) stays in one process.

    Units are handed out in this order (``--no-loadscope-reorder``): the modules with a ``slow``
    test first, so that no long module starts last while the other worker idles; the schemathesis
    contract module first of all, in a process no other test has touched yet. (After other tests
    in the same process, it once failed one loaded run in two: schemathesis stopped generating for
    the Council ``suggest`` operation with ``InvalidSchema``, "a collection of min_size=3 unique
    elements ... drawn from only 2 distinct elements". Its runs no longer learn from answers,
    ``test_contract_schemathesis.ADAPTIVE_OFF``, which is the likely cause; it still runs first.)
    """
    modules: dict[str, list[pytest.Item]] = {}
    for item in items:
        path = item.nodeid.split("::", 1)[0]
        modules.setdefault(path, []).append(item)
        group = "browser" if path in BROWSER_MODULES else path
        item.add_marker(pytest.mark.xdist_group(group))

    def rank(path: str) -> int:
        if path == "tests/contract/test_contract_schemathesis.py":
            return 0
        return 1 if any(item.get_closest_marker("slow") for item in modules[path]) else 2

    items[:] = [item for path in sorted(modules, key=rank) for item in modules[path]]
