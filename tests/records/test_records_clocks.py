"""Takebacks in a session with a clock (docs/records.md, "Takebacks and clocks"; lichess is the
model): the takeback lands with the clock in the same compare-and-set; the proposer gets none of
the time it spent since the version it returns to (no increment for the moves taken back), every
other seat gets its time at that version back, and the clocks of the seats the game then waits
on run. The history and the record show the clock of the takeback's version. A timeout is a
barrier: time that ran out stays run out.

The service's time is the test's (``at``): every clock and time stamp reads it, so the figures
are exact."""

from __future__ import annotations

import random

import pytest

import api.records
import api.sessions
from api import clock as clocks
from api import session_clocks, session_store
from api.clock_keeper import ClockKeeper
from tests.records.test_records_api import bearer, move_once, path, propose, record

SECOND = 1_000
FISCHER = {"type": "fischer", "initial_seconds": 300, "increment_seconds": 5}
PER_MOVE = {"type": "per_move", "seconds": 60}


class Time:
    """The service's time in ms since the epoch; starts at the real time (so that the app's own
    timekeeper never finds a deadline passed) and moves only when the test says."""

    def __init__(self) -> None:
        self.now = session_clocks.now_ms()

    def tick(self, seconds: float) -> None:
        self.now += round(seconds * SECOND)


@pytest.fixture
def at(monkeypatch) -> Time:
    time = Time()
    monkeypatch.setattr(session_clocks, "now_ms", lambda: time.now)
    for module in (session_store, api.sessions, api.records):
        monkeypatch.setattr(module, "now", lambda: clocks.rfc3339(time.now))
    return time


def create(client, control: dict, **more) -> dict:
    body = {
        "game": "reign-supreme",
        "players": ["ann", "bob"],
        "open": True,
        "seed": 1,  # ann places first, five times, then bob
        "clock": control,
        **more,
    }
    resp = client.post("/v1/sessions", json=body)
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()


def play(client, at: Time, session: dict, thinking: list[float]) -> list[dict]:
    """One Reign Supreme set-up placement (public, within the horizon) after each of
    ``thinking`` seconds; the answers."""
    chooser = random.Random(2)
    answers = []
    for seconds in thinking:
        at.tick(seconds)
        answers.append(move_once(client, session, chooser))
    return answers


def history(client, session: dict) -> list[dict]:
    return client.get(path(session, "/history")).get_json()["entries"]


def test_a_takeback_of_ones_own_move_gives_no_time_back_and_the_rest_theirs(client, at):
    session = create(client, FISCHER)
    assert session["clock"]["running"] == ["ann"]
    play(client, at, session, [10] * 5)  # ann places five times, 10 s each
    entries = history(client, session)
    assert [e["player"] for e in entries] == ["ann"] * 5
    assert entries[4]["clock"]["running"] == ["bob"]  # bob places next
    assert entries[3]["clock"]["remaining_ms"] == {"ann": 280 * SECOND, "bob": 300 * SECOND}
    at.tick(30)  # bob thinks for 30 s, then ann takes her fifth placement back (lands at once)
    resp = propose(client, session, "ann", 4)
    assert resp.status_code == 201 and resp.get_json()["status"] == "accepted"
    clock = resp.get_json()["clock"]
    # ann had 280 s at version 4 and has spent 10 s since: 270 s (lichess would keep the 5 s
    # increment of the move taken back, 275 s); bob gets back the 30 s he spent on a position
    # that no longer is: 300 s. The clock runs for ann, whose move it is again.
    assert clock["remaining_ms"] == {"ann": 270 * SECOND, "bob": 300 * SECOND}
    assert clock["running"] == ["ann"] and clock["paused"] is False
    assert clock["deadlines"] == {"ann": clocks.rfc3339(at.now + 270 * SECOND)}
    assert client.get(path(session)).get_json()["clock"] == clock
    entries = history(client, session)
    assert entries[-1]["by"] == "takeback" and entries[-1]["version"] == 6
    assert entries[-1]["clock"] == clock
    kept = record(client, session, "bob")["entries"][-1]
    assert kept["by"] == "takeback" and kept["clock"] == clock
    # time runs on from there: ann places again after 4 s and gains the increment
    (moved,) = play(client, at, session, [4])
    assert moved["clock"]["remaining_ms"] == {"ann": 271 * SECOND, "bob": 300 * SECOND}
    assert moved["clock"]["running"] == ["bob"]


def test_a_takeback_with_consent_charges_the_proposer_and_restores_the_accepter(client, at):
    session = create(client, PER_MOVE)
    play(client, at, session, [10] * 5)  # ann's five placements; bob to place
    at.tick(15)
    resp = propose(client, session, "bob", 4)  # bob asks to undo ann's fifth placement
    assert resp.status_code == 201 and resp.get_json()["waiting_on"] == ["ann"]
    assert resp.get_json()["clock"]["running"] == ["bob"]  # his clock runs while he waits
    at.tick(5)
    resp = client.post(
        path(session, f"/takebacks/{resp.get_json()['takeback_id']}"),
        json={"answer": "accept"},
        headers=bearer(session["seats"]["ann"]),
    )
    assert resp.status_code == 200 and resp.get_json()["status"] == "accepted"
    clock = resp.get_json()["clock"]
    # bob's clock ran 20 s on this turn since version 4; his next turn has 40 s of its 60 s
    # left (a per-move time does not start again in full for the proposer). ann gets her full
    # minute back for the placement she makes again, and her clock runs.
    assert clock["remaining_ms"] == {"ann": 60 * SECOND, "bob": 40 * SECOND}
    assert clock["running"] == ["ann"]
    assert history(client, session)[-1]["clock"] == clock


def add_time(client, session: dict, seat: str, seconds: int) -> dict:
    resp = client.post(
        path(session, "/clock"),
        json={"action": "add_time", "player": seat, "seconds": seconds},
        headers=bearer(session["admin_token"]),
    )
    assert resp.status_code == 200, resp.get_json()
    return resp.get_json()["clock"]


def test_a_takeback_keeps_the_admins_add_time_for_every_seat(client, at):
    """The history's clocks do not show the admin's add-time: a takeback of one's own move (no
    consent asked) used to wipe it, so one seat could cut another's clock alone."""
    session = create(client, FISCHER)
    play(client, at, session, [10] * 5)  # ann places five times, 10 s each; bob to place
    at.tick(30)  # bob thinks for 30 s: 270 s; ann has 275 s
    assert add_time(client, session, "bob", 100)["remaining_ms"]["bob"] == 370 * SECOND
    assert add_time(client, session, "ann", 100)["remaining_ms"]["ann"] == 375 * SECOND
    resp = propose(client, session, "ann", 4)  # ann takes her fifth placement back
    assert resp.status_code == 201 and resp.get_json()["status"] == "accepted"
    clock = resp.get_json()["clock"]
    # ann: 280 s at version 4, less the 10 s she spent since, plus the admin's 100 s; bob: his
    # 300 s at version 4 (the 30 s he spent are given back) plus the admin's 100 s.
    assert clock["remaining_ms"] == {"ann": 370 * SECOND, "bob": 400 * SECOND}
    assert history(client, session)[-1]["clock"] == clock
    # back to the takeback's own version, the add-time is in that version's clock: not twice
    play(client, at, session, [20])
    resp = propose(client, session, "ann", 6)
    assert resp.status_code == 201 and resp.get_json()["status"] == "accepted"
    assert resp.get_json()["clock"]["remaining_ms"] == {"ann": 350 * SECOND, "bob": 400 * SECOND}


def test_a_takeback_never_leaves_another_seat_with_less_time_than_it_has_now(client, at):
    session = create(client, FISCHER)
    play(client, at, session, [10] * 5 + [1])  # ann's five placements, then bob's first: 304 s
    resp = propose(client, session, "ann", 4)  # undoes bob's placement too: he is asked
    assert resp.get_json()["waiting_on"] == ["bob"]
    resp = client.post(
        path(session, f"/takebacks/{resp.get_json()['takeback_id']}"),
        json={"answer": "accept"},
        headers=bearer(session["seats"]["bob"]),
    )
    assert resp.status_code == 200 and resp.get_json()["status"] == "accepted"
    # bob had 300 s at version 4 and has 304 s now (his increment): he keeps 304 s
    assert resp.get_json()["clock"]["remaining_ms"] == {"ann": 270 * SECOND, "bob": 304 * SECOND}


def test_a_proposer_out_of_time_stays_out_of_time(client, at):
    session = create(client, PER_MOVE)
    play(client, at, session, [50, 50])  # ann spends 50 s on each placement
    resp = propose(client, session, "ann", 1)
    clock = resp.get_json()["clock"]
    # at version 1 ann had a full minute for her second placement and spent 50 s on it
    assert clock["remaining_ms"]["ann"] == 10 * SECOND and clock["running"] == ["ann"]
    at.tick(5)
    resp = propose(client, session, "ann", 0)  # version 0: the minute of her first placement
    clock = resp.get_json()["clock"]
    assert resp.status_code == 201, resp.get_json()
    assert clock["remaining_ms"]["ann"] == 0 and clock["deadlines"]["ann"] == clocks.rfc3339(at.now)


def test_a_takeback_never_goes_back_past_a_timeout(app, client):
    """A ``pause`` timeout changes no state, yet the clock made it: it is a barrier (``clock``)."""
    session = create(client, PER_MOVE, on_timeout={"action": "pause"})
    move_once(client, session, random.Random(2))
    keeper = ClockKeeper(
        app.extensions["referee_sessions"], 50, now=lambda: session_clocks.now_ms() + 61 * SECOND
    )
    assert keeper.look(session["session_id"]).timeouts == [(2, "ann")]
    assert history(client, session)[-1]["by"] == "clock"
    resp = propose(client, session, "ann", 1)
    assert resp.status_code == 409 and resp.get_json()["code"] == "past_information_horizon"
    assert resp.get_json()["horizon"] == 2


def test_a_session_without_a_clock_takes_back_without_one(client):
    body = {"game": "reign-supreme", "players": ["ann", "bob"], "open": True, "seed": 1}
    session = client.post("/v1/sessions", json=body).get_json()
    move_once(client, session, random.Random(2))
    resp = propose(client, session, "ann", 0)
    assert resp.status_code == 201 and resp.get_json()["clock"] is None
    assert history(client, session)[-1].get("clock") is None
