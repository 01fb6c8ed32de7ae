"""Session clocks on the service as the README starts it (``reign-referee serve``, 2 workers):
the workers keep time by themselves, and a deadline outlives the instance that set it.

Generous polling for each outcome; nothing asserts how soon a timeout lands (``bench/clocks.py``
measures that)."""

from __future__ import annotations

import time

from sessions_served import Served, http

ONE_SECOND = {"type": "per_move", "seconds": 1}


def _wait_for_entries(base: str, sid: str, count: int, seconds: float = 60) -> list[dict]:
    ends = time.monotonic() + seconds
    while True:
        status, _, body = http(base, "GET", f"/v1/sessions/{sid}/history")
        assert status == 200, body
        if len(body["entries"]) >= count or time.monotonic() > ends:
            return body["entries"]
        time.sleep(0.25)


def test_a_served_clock_times_out_by_itself(served):
    status, _, created = http(
        served.base,
        "POST",
        "/v1/sessions",
        {"game": "reign-absolute", "players": ["ann", "bob"], "clock": ONE_SECOND},
    )
    assert status == 201, created
    entries = _wait_for_entries(served.base, created["session_id"], 1)
    assert entries and entries[0]["by"] == "clock" and entries[0]["clock"] is not None
    status, _, snapshot = http(served.base, "GET", f"/v1/sessions/{created['session_id']}")
    assert snapshot["status"] == "finished" and snapshot["clock"]["running"] == []


def test_a_deadline_outlives_the_instance_that_set_it(redis_server, tmp_path):
    """A session created on one instance, stopped before its deadline; a new instance on the same
    Redis, which never saw the session, fires the timeout."""
    env = {"REDIS_URL": redis_server.url}
    first = Served(tmp_path / "a", tmp_path / "a.log", env=env, workers=1).start()
    try:
        status, _, created = http(
            first.base,
            "POST",
            "/v1/sessions",
            {
                "game": "reign-and-ruin",
                "players": ["ann", "bob"],
                "clock": {"type": "per_move", "seconds": 3},
            },
        )
        assert status == 201, created
    finally:
        first.stop()
    time.sleep(3)  # the deadline passes while no instance runs
    second = Served(tmp_path / "b", tmp_path / "b.log", env=env, workers=1).start()
    try:
        entries = _wait_for_entries(second.base, created["session_id"], 1)
        assert [e["by"] for e in entries] == ["clock"]
    finally:
        second.stop()
