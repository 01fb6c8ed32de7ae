"""Shared fixtures: the Flask ``app`` (embedded Redis in a temporary data directory) and its
test ``client``; every timekeeper a test makes stops with it."""

from __future__ import annotations

from collections import Counter

import pytest

from api import create_app
from api.clock_keeper import ClockKeeper
from api.clock_store import HEARTBEAT
from api.session_clocks import now_ms


@pytest.fixture(scope="session")
def referee_data_dir(tmp_path_factory):
    """One data directory for the whole run, so the embedded Redis starts at most once."""
    return tmp_path_factory.mktemp("referee-data")


def timekeepers_polled_now(app) -> None:
    """The app's store heard a timekeeper's poll just now (its heartbeat, ``api.clock_store``),
    as a store of a service that keeps running does. The run's store is shared, and between two
    tests whose timekeepers poll, other tests may run longer than ``OUTAGE_MS``: the first poll
    of the next test's keeper would take that for downtime (README "Turn clocks", "Downtime")
    and move a clock its test had just written by the milliseconds in between."""
    app.extensions["referee_store"].client().hset(HEARTBEAT, "at", now_ms())


@pytest.fixture
def app(referee_data_dir):
    """The app as served, with REDIS_URL unset (embedded store) whatever the environment says;
    its store's timekeepers have just polled (:func:`timekeepers_polled_now`)."""
    app = create_app(
        {"TESTING": True, "REDIS_URL": None, "REFEREE_DATA_DIR": str(referee_data_dir)}
    )
    timekeepers_polled_now(app)
    yield app
    app.extensions["referee_bot_seats"].stop()  # bot seats of its sessions stop with the test
    app.extensions["referee_clocks"].stop()  # and so does its timekeeper


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture(autouse=True)
def timekeepers_stop_with_their_test(monkeypatch):
    """Each timekeeper made during a test is stopped when the test ends. An app's first request
    starts its keeper (``api.create_app``), and the many apps tests make for themselves would
    otherwise poll their store for the rest of the run: a server long stopped, or a data
    directory whose embedded Redis the keeper would start again. An app a module or session
    fixture made (before this runs) keeps its keeper for the tests that share it."""
    made: list[ClockKeeper] = []
    init = ClockKeeper.__init__

    def tracked(self, *args, **kwargs):
        init(self, *args, **kwargs)
        made.append(self)

    monkeypatch.setattr(ClockKeeper, "__init__", tracked)
    yield
    for keeper in made:
        keeper.stop()


BROWSER_MODULES = (
    "tests/contract/test_contract_browser.py",
    "tests/contract/test_table_browser.py",
)
"""They share one xdist group: one Chromium at a time on the 2-core machine CI runs on."""


def _set_nodeid(item: pytest.Item, nodeid: str) -> None:
    """Set an item's nodeid: pytest 9 keeps it as a structured ``_id`` (writing ``_nodeid``, as
    xdist's ``loadgroup`` and schemathesis still do, changes nothing there); pytest 8 as
    ``_nodeid``."""
    if hasattr(item, "_id"):
        item._id = type(item._id).parse(nodeid)
    else:
        item._nodeid = nodeid
    assert item.nodeid == nodeid


def _unique_nodeids(items: list[pytest.Item]) -> None:
    """Give each item a nodeid of its own: ``<module>::<item name>`` where two items share one.

    xdist keys its work by nodeid: the controller sends a worker the index of a nodeid's first
    occurrence in that worker's collection, so items sharing a nodeid run once between them. And
    schemathesis 4 on pytest 9 gives every operation of ``test_api_conforms`` one nodeid (58
    items, one id): without this, 57 of the 58 operations went unchecked with ``-n 2``. The item
    name carries the operation (``test_api_conforms[GET /v1/games]``). Each worker collects alone
    and computes the same ids (they depend only on the collection, which xdist checks is the same
    in every worker), so controller and workers agree on them.
    """
    counts = Counter(item.nodeid for item in items)
    for item in items:
        if counts[item.nodeid] > 1:
            _set_nodeid(item, f"{item.nodeid.split('::', 1)[0]}::{item.name}")
    still = [nodeid for nodeid, n in Counter(item.nodeid for item in items).items() if n > 1]
    if still:  # a silently dropped test is worse than a run that stops
        raise pytest.UsageError(f"tests sharing a nodeid (xdist would run one of each): {still}")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session, config, items):
    """Order and group the tests for the xdist workers (pyproject: ``-n 2 --dist loadgroup``).

    Each module is one unit of work (a group named by its path; the two browser modules share
    one): a module runs whole in one process, in its own order, as in a serial run. So its
    module fixtures (a served instance, a built wheel, a browser) are built once, and state a
    module keeps between its tests (``test_contract_schemathesis.STATUSES``) stays in one process.
    The group is the nodeid's ``@`` suffix, which is what ``loadgroup`` reads; it is set here, not
    by ``xdist_group`` marks, because xdist 3.8 sets it by writing ``_nodeid``, which pytest 9
    ignores (with marks alone, every test was its own unit).

    Units are handed out in this order (``--no-loadscope-reorder``): the modules with a ``slow``
    test first, so that no long module starts last while the other worker idles; the schemathesis
    contract module first of all, in a process no other test has touched yet. (After other tests
    in the same process, it once failed one loaded run in two: schemathesis stopped generating for
    the Council ``suggest`` operation with ``InvalidSchema``, "a collection of min_size=3 unique
    elements ... drawn from only 2 distinct elements". Its runs no longer learn from answers,
    ``test_contract_schemathesis.ADAPTIVE_OFF``, which is the likely cause; it still runs first.)
    """
    _unique_nodeids(items)
    modules: dict[str, list[pytest.Item]] = {}
    for item in items:
        modules.setdefault(item.nodeid.split("::", 1)[0], []).append(item)

    def rank(path: str) -> int:
        if path == "tests/contract/test_contract_schemathesis.py":
            return 0
        return 1 if any(item.get_closest_marker("slow") for item in modules[path]) else 2

    items[:] = [item for path in sorted(modules, key=rank) for item in modules[path]]
    if config.getoption("loadgroup", False):  # what xdist sets in a worker under loadgroup
        for path, members in modules.items():
            group = "browser" if path in BROWSER_MODULES else path
            for item in members:
                _set_nodeid(item, f"{item.nodeid}@{group}")
