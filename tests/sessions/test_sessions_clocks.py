"""Session clocks through HTTP (issue 25): each clock type and timeout policy, the clock in every
answer, history entry and event, the admin's ``/clock``, bounds, and the compare-and-set that
keeps a timeout from landing twice or after the move it would have replaced.

Nothing here waits on a real clock but the last test: timeouts are fired by a
:class:`~api.clock_keeper.ClockKeeper` whose time the test sets (``at``), looking at one session.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

import pytest

from api import clock as clocks
from api import create_app
from api.clock_downtime import move_session_past
from api.clock_keeper import ClockKeeper
from api.clock_store import DEADLINES, HEARTBEAT, LEASE_MS, OUTAGE_MS
from api.session_clocks import now_ms, parse
from api.session_store import KEY_PREFIX
from rules.registry import get_game

GAME = "reign-and-ruin"
PER_MOVE = {"type": "per_move", "seconds": 60}
MINUTE = 60_000


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client, game=GAME, players=("ann", "bob"), **clock):
    body = {"game": game, "players": list(players), "open": True, "seed": 11, **clock}
    resp = client.post("/v1/sessions", json=body)
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()


class Keeper:
    """A timekeeper over the app's store whose time is ``now`` (ms) as the test sets it."""

    def __init__(self, app) -> None:
        self.now = now_ms()
        self.keeper = ClockKeeper(app.extensions["referee_sessions"], 50, now=lambda: self.now)

    def look(self, session_id: str, ahead_ms: int):
        self.now = now_ms() + ahead_ms
        return self.keeper.look(session_id)


def history(client, sid, token=None):
    headers = bearer(token) if token else {}
    return client.get(f"/v1/sessions/{sid}/history", headers=headers).get_json()


def instant(text: str) -> int:
    return int(datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp() * 1000)


# -- creation and what every answer shows ------------------------------------------------------
@pytest.mark.parametrize(
    "control,full",
    [
        (PER_MOVE, MINUTE),
        ({"type": "fischer", "initial_seconds": 300, "increment_seconds": 5}, 300_000),
        ({"type": "correspondence", "days": 2}, 2 * 86_400_000),
    ],
)
def test_each_clock_type_runs_for_the_seats_the_game_waits_on(client, control, full):
    before = now_ms()
    created = create(client, clock=control)
    clock = created["clock"]
    # Reign & Ruin's draft is simultaneous: both seats' clocks run from version 0.
    assert clock["running"] == ["ann", "bob"] and clock["paused"] is False
    assert all(full - 5_000 < clock["remaining_ms"][p] <= full for p in ("ann", "bob"))
    for seat in ("ann", "bob"):
        assert before + full <= instant(clock["deadlines"][seat]) <= now_ms() + full
    sid = created["session_id"]
    snapshot = client.get(f"/v1/sessions/{sid}").get_json()
    legal = client.get(
        f"/v1/sessions/{sid}/legal-moves", headers=bearer(created["seats"]["ann"])
    ).get_json()
    for answer in (snapshot, legal, history(client, sid)):
        assert answer["clock"]["running"] == ["ann", "bob"]
        assert answer["clock"]["deadlines"] == clock["deadlines"]


def test_a_session_without_a_clock_says_null_everywhere(client):
    created = create(client)
    sid, ann = created["session_id"], created["seats"]["ann"]
    move = client.get(f"/v1/sessions/{sid}/legal-moves", headers=bearer(ann)).get_json()
    assert created["clock"] is None and move["clock"] is None
    moved = client.post(
        f"/v1/sessions/{sid}/moves", json={"move": move["moves"][0]}, headers=bearer(ann)
    ).get_json()
    assert moved["clock"] is None
    assert history(client, sid)["entries"][0]["clock"] is None


def test_a_move_charges_the_mover_and_history_and_events_carry_the_clock(client):
    created = create(
        client, clock={"type": "fischer", "initial_seconds": 300, "increment_seconds": 5}
    )
    sid, ann = created["session_id"], created["seats"]["ann"]
    stream = client.get(f"/v1/sessions/{sid}/events?after=0")
    move = client.get(f"/v1/sessions/{sid}/legal-moves", headers=bearer(ann)).get_json()
    moved = client.post(
        f"/v1/sessions/{sid}/moves", json={"move": move["moves"][0]}, headers=bearer(ann)
    ).get_json()
    clock = moved["clock"]
    assert clock["running"] == ["bob"]  # ann has picked; the draft waits on bob
    assert 300_000 < clock["remaining_ms"]["ann"] <= 305_000  # the increment after her move
    (entry,) = history(client, sid, ann)["entries"]
    assert entry["clock"] == clock and "by" not in entry
    for chunk in stream.response:
        if chunk.startswith(b"id: "):
            data = json.loads(chunk.decode().split("data: ", 1)[1])
            assert data["clock"] == clock
            break
    stream.close()


# -- bounds -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "body,field",
    [
        ({"clock": {"type": "per_move", "seconds": 0}}, "clock.seconds"),
        ({"clock": {"type": "per_move", "seconds": 86_401}}, "clock.seconds"),
        (
            {"clock": {"type": "fischer", "initial_seconds": 60, "increment_seconds": -1}},
            "clock.increment_seconds",
        ),
        (
            {"clock": {"type": "fischer", "initial_seconds": 0, "increment_seconds": 1}},
            "clock.initial_seconds",
        ),
        ({"clock": {"type": "correspondence", "days": 31}}, "clock.days"),
        ({"clock": {"type": "hourglass"}}, "clock.type"),
        ({"clock": PER_MOVE, "grace_seconds": 3_601}, "grace_seconds"),
        ({"clock": PER_MOVE, "on_timeout": {"action": "resign"}}, "on_timeout.action"),
        (
            {"clock": PER_MOVE, "on_timeout": {"action": "bot", "level": "grandmaster"}},
            "on_timeout.level",
        ),
        ({"clock": PER_MOVE, "on_timeout": {"action": "bot"}}, "on_timeout.level"),
    ],
)
def test_values_out_of_bounds_are_400_naming_the_field(client, body, field):
    resp = client.post("/v1/sessions", json={"game": GAME, "players": ["ann", "bob"], **body})
    assert resp.status_code == 400 and resp.content_type == "application/problem+json"
    assert field in resp.get_json()["errors"], resp.get_json()


@pytest.mark.parametrize(
    "body,field",
    [
        ({"on_timeout": {"action": "forfeit"}}, "on_timeout"),
        ({"grace_seconds": 10}, "grace_seconds"),
    ],
)
def test_a_timeout_policy_or_grace_without_a_clock_is_422_naming_the_field(client, body, field):
    resp = client.post("/v1/sessions", json={"game": GAME, "players": ["ann", "bob"], **body})
    assert resp.status_code == 422 and resp.get_json()["code"] == "invalid_clock"
    assert field in resp.get_json()["errors"], resp.get_json()


def test_per_move_takes_one_second_and_up(client):
    assert create(client, clock={"type": "per_move", "seconds": 1})["clock"] is not None


def test_a_clock_longer_than_the_session_lives_is_422_naming_the_field(client):
    resp = client.post(
        "/v1/sessions",
        json={
            "game": GAME,
            "players": ["ann", "bob"],
            "clock": {"type": "correspondence", "days": 8},
        },
    )
    assert resp.status_code == 422 and resp.get_json()["code"] == "invalid_clock"
    assert "clock.days" in resp.get_json()["errors"]


def test_a_bot_timeout_needs_bots_that_can_play_the_game(client):
    deck = [{"back": ["army"], "accept": {"army": 1}, "reject": {"army": -1}} for _ in range(40)]
    resp = client.post(
        "/v1/sessions",
        json={
            "game": "reigns-the-council",
            "players": ["ann", "bob", "cat"],
            "options": {"deck": deck},
            "clock": PER_MOVE,
            "on_timeout": {"action": "bot", "level": "random"},
        },
    )
    assert resp.status_code == 422, resp.get_json()
    assert resp.get_json()["code"] == "invalid_clock"
    assert "on_timeout.level" in resp.get_json()["errors"]


# -- the session outlives its clock -----------------------------------------------------------
TTL = 120


@pytest.fixture
def short_lived(app, monkeypatch):
    """Sessions of this app expire after ``TTL`` seconds idle (``SESSION_TTL_SECONDS``); its
    Redis client."""
    monkeypatch.setattr(app.extensions["referee_sessions"], "ttl", TTL)
    return app.extensions["referee_store"].client()


def assert_outlives(redis_client, sid: str, clock: dict) -> None:
    """Every key of the session lives for its idle time-to-live counted from its clock's next
    deadline, so the timeout is committed instead of the session vanishing (404), even when the
    timekeepers could not write for a while at the deadline (the store full: a hunt's session
    vanished a minute after a deadline that fell while the store was full)."""
    last = min(instant(at) for at in clock["deadlines"].values())
    keys = list(redis_client.scan_iter(match=f"{KEY_PREFIX}{{{sid}}}:*"))
    assert keys
    for key in keys:
        expires = now_ms() + redis_client.pttl(key)
        assert expires >= last + TTL * 1000 - 1_000, (key, expires - last)


def test_a_move_time_as_long_as_the_session_lives_keeps_the_session(client, short_lived):
    created = create(client, clock={"type": "per_move", "seconds": TTL})
    assert_outlives(short_lived, created["session_id"], created["clock"])


def test_add_time_past_the_sessions_life_keeps_the_session(client, short_lived):
    created = create(client, clock={"type": "per_move", "seconds": 30})
    sid, ann = created["session_id"], created["seats"]["ann"]
    move = client.get(f"/v1/sessions/{sid}/legal-moves", headers=bearer(ann)).get_json()
    resp = client.post(
        f"/v1/sessions/{sid}/moves", json={"move": move["moves"][0]}, headers=bearer(ann)
    )
    assert resp.status_code == 200 and resp.get_json()["clock"]["running"] == ["bob"]
    added = client.post(
        f"/v1/sessions/{sid}/clock",
        json={"action": "add_time", "player": "bob", "seconds": 300},
        headers=bearer(created["admin_token"]),
    )
    assert added.status_code == 200
    assert_outlives(short_lived, sid, added.get_json()["clock"])


def test_a_grace_past_the_sessions_life_keeps_the_session(app, client, short_lived):
    created = create(client, clock={"type": "per_move", "seconds": 30}, grace_seconds=30)
    sid = created["session_id"]
    assert Keeper(app).look(sid, 31_000).graces == ["ann", "bob"]  # both draft clocks ran out
    assert_outlives(short_lived, sid, client.get(f"/v1/sessions/{sid}").get_json()["clock"])


def test_a_fischer_bank_grown_past_the_sessions_life_keeps_the_session(client, short_lived):
    created = create(
        client,
        game="reign-supreme",
        clock={"type": "fischer", "initial_seconds": 50, "increment_seconds": 30},
    )
    sid, ann = created["session_id"], created["seats"]["ann"]
    for _ in range(3):  # ann places three times (seed 11): 30 s more each
        move = client.get(f"/v1/sessions/{sid}/legal-moves", headers=bearer(ann)).get_json()
        resp = client.post(
            f"/v1/sessions/{sid}/moves", json={"move": move["moves"][0]}, headers=bearer(ann)
        )
        assert resp.status_code == 200, resp.get_json()
    clock = resp.get_json()["clock"]
    assert clock["running"] == ["ann"] and clock["remaining_ms"]["ann"] > 130_000
    assert_outlives(short_lived, sid, clock)


# -- timeouts -----------------------------------------------------------------------------------
def test_forfeit_ends_the_game_for_the_seat_with_an_entry_by_the_clock(app, client):
    created = create(client, clock=PER_MOVE, on_timeout={"action": "forfeit"})
    sid = created["session_id"]
    keeper = Keeper(app)
    assert keeper.look(sid, MINUTE - 5_000).timeouts == []  # not yet
    # The draft is simultaneous: both seats are out of time together (README "Timeouts"); the
    # first in seat order times out, the forfeit ends the game, and bob shares the win.
    clock = parse(app.extensions["referee_sessions"].load(sid).clock)
    assert clocks.due(clock, keeper.now + 6_000) == ["ann", "bob"]
    assert keeper.look(sid, MINUTE + 1_000).timeouts == [(1, "ann")]
    (entry,) = history(client, sid)["entries"]
    assert entry["by"] == "clock" and entry["player"] == "ann"
    assert entry["move"] == {"player": "ann", "type": "forfeit"}
    assert entry["clock"]["remaining_ms"]["ann"] == 0 and entry["clock"]["running"] == []
    snapshot = client.get(f"/v1/sessions/{sid}").get_json()
    assert snapshot["status"] == "finished"
    assert snapshot["view"]["outcome"]["winners"] == ["bob"]
    assert snapshot["view"]["outcome"]["reason"] == "forfeit"
    assert keeper.look(sid, 10 * MINUTE).timeouts == []  # bob's clock stopped with the game


def test_forfeit_in_a_game_with_concede_is_the_concession(app, client):
    created = create(client, game="reign-supreme", clock=PER_MOVE)
    sid = created["session_id"]
    assert Keeper(app).look(sid, MINUTE + 1_000).timeouts == [(1, "ann")]
    (entry,) = history(client, sid)["entries"]
    assert entry["by"] == "clock" and entry["move"] == {"player": "ann", "type": "concede"}
    assert any(e["type"] == "player_defeated" for e in entry["events"])
    snapshot = client.get(f"/v1/sessions/{sid}").get_json()
    assert snapshot["status"] == "finished" and snapshot["view"]["outcome"]["winners"] == ["bob"]


def test_a_bot_plays_one_move_then_the_seats_clock_starts_again(app, client):
    created = create(client, clock=PER_MOVE, on_timeout={"action": "bot", "level": "random"})
    sid, ann = created["session_id"], created["seats"]["ann"]
    keeper = Keeper(app)
    fired = keeper.look(sid, MINUTE + 1_000)
    assert fired.timeouts == [(1, "ann"), (2, "bob")]  # both draft clocks ran out together
    entries = history(client, sid, ann)["entries"]
    assert [(e["by"], e["player"]) for e in entries] == [("clock", "ann"), ("clock", "bob")]
    assert entries[0]["move"]["type"] == "draft" and entries[0]["move"]["player"] == "ann"
    clock = client.get(f"/v1/sessions/{sid}").get_json()["clock"]
    assert clock["paused"] is False and set(clock["running"])  # the game goes on
    for seat in clock["running"]:  # started again from the timeout, in full
        assert instant(clock["deadlines"][seat]) == keeper.now + MINUTE
    # the seat stays human: its token still moves for it
    seat = clock["running"][0]
    token = created["seats"][seat]
    move = client.get(f"/v1/sessions/{sid}/legal-moves", headers=bearer(token)).get_json()
    resp = client.post(
        f"/v1/sessions/{sid}/moves", json={"move": move["moves"][0]}, headers=bearer(token)
    )
    assert resp.status_code == 200 and "by" not in history(client, sid)["entries"][-1]


def test_pause_pauses_every_clock_until_the_admin_resumes(app, client):
    created = create(client, clock=PER_MOVE, on_timeout={"action": "pause"})
    sid, admin = created["session_id"], bearer(created["admin_token"])
    keeper = Keeper(app)
    assert keeper.look(sid, MINUTE + 1_000).timeouts == [(1, "ann")]
    (entry,) = history(client, sid)["entries"]
    assert entry["by"] == "clock" and entry["move"] == {"player": "ann", "type": "timeout"}
    assert entry["events"] == []
    snapshot = client.get(f"/v1/sessions/{sid}").get_json()
    assert snapshot["clock"]["paused"] is True and snapshot["clock"]["running"] == []
    assert snapshot["clock"]["deadlines"] == {} and snapshot["status"] == "in_progress"
    assert keeper.look(sid, 100 * MINUTE).timeouts == []  # paused: nothing fires
    resumed = client.post(f"/v1/sessions/{sid}/clock", json={"action": "resume"}, headers=admin)
    assert resumed.status_code == 200
    assert resumed.get_json()["clock"]["running"] == ["ann", "bob"]
    assert resumed.get_json()["clock"]["paused"] is False


def test_grace_is_given_once_before_the_timeout(app, client):
    created = create(client, clock=PER_MOVE, grace_seconds=30)
    sid = created["session_id"]
    keeper = Keeper(app)
    deadline = instant(created["clock"]["deadlines"]["ann"])
    fired = keeper.look(sid, MINUTE + 1_000)
    assert fired.graces == ["ann", "bob"] and fired.timeouts == []
    clock = client.get(f"/v1/sessions/{sid}").get_json()["clock"]
    assert instant(clock["deadlines"]["ann"]) == deadline + 30_000
    assert history(client, sid)["entries"] == []
    assert keeper.look(sid, MINUTE + 31_000).timeouts == [(1, "ann")]


def test_a_grace_is_announced_to_the_sessions_streams(app, client):
    """README "Turn clocks": a grace makes no version, so the session's channel carries the
    clock it gave (``/events`` sends it as ``event: clock``), as an answer then shows it."""
    created = create(client, clock=PER_MOVE, grace_seconds=30)
    sid = created["session_id"]
    store = app.extensions["referee_sessions"]
    pubsub = store.subscribe(sid)
    try:
        assert Keeper(app).look(sid, MINUTE + 1_000).graces == ["ann", "bob"]
        news = [_news(store, pubsub)["clock_news"] for _ in range(2)]  # one a seat
        deadlines = client.get(f"/v1/sessions/{sid}").get_json()["clock"]["deadlines"]
        assert news[-1]["deadlines"] == deadlines and news[-1]["paused"] is False
    finally:
        pubsub.close()


def _news(store, pubsub) -> dict:
    """The next message on a session's channel (None is a quiet interval, or the subscription's
    own confirmation, which redis-py reads as None: a few are allowed)."""
    for tries, message in enumerate(store.messages(pubsub, 2)):
        if message is not None:
            return message
        assert tries < 5, "nothing was announced"
    raise AssertionError("the channel closed")


def test_a_move_just_before_the_deadline_is_never_followed_by_the_old_timeout(app, client):
    created = create(client, clock=PER_MOVE)
    sid, ann = created["session_id"], created["seats"]["ann"]
    keeper = Keeper(app)
    store = app.extensions["referee_sessions"]
    stale = store.load(sid)  # what a timekeeper read just before the move landed
    move = client.get(f"/v1/sessions/{sid}/legal-moves", headers=bearer(ann)).get_json()
    assert (
        client.post(
            f"/v1/sessions/{sid}/moves", json={"move": move["moves"][0]}, headers=bearer(ann)
        ).status_code
        == 200
    )
    from api import clock as clocks
    from api.clock_keeper import Fired
    from api.session_clocks import parse

    fired = Fired()
    late = instant(created["clock"]["deadlines"]["ann"]) + 1
    assert keeper.keeper.fire(stale, parse(stale.clock), "ann", late, fired) is False
    assert fired.timeouts == []
    assert [e.get("by") for e in history(client, sid)["entries"]] == [None]
    keeper.now = late
    assert "ann" not in clocks.due(parse(store.load(sid).clock), late)
    assert "ann" not in [seat for _, seat in keeper.keeper.look(sid).timeouts]


def _at_once(call: Callable[[ClockKeeper], Any], keepers: list[ClockKeeper]) -> list[Any]:
    """``call`` of each keeper, each in a thread of its own, released together; the results."""
    barrier = threading.Barrier(len(keepers))
    results: list[Any] = []

    def run(keeper: ClockKeeper) -> None:
        barrier.wait()
        results.append(call(keeper))

    threads = [threading.Thread(target=run, args=(k,)) for k in keepers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


def test_a_timeout_fires_once_when_two_timekeepers_claim_it_together(app, client):
    created = create(client, clock=PER_MOVE, on_timeout={"action": "bot", "level": "random"})
    sid = created["session_id"]
    later = now_ms() + MINUTE + 1_000
    keepers = [
        ClockKeeper(app.extensions["referee_sessions"], 50, now=lambda: later) for _ in range(2)
    ]
    results = _at_once(lambda keeper: keeper.look(sid), keepers)
    fired = sorted(t for r in results for t in r.timeouts)
    assert fired == [(1, "ann"), (2, "bob")]  # each seat once, whichever keeper fired it
    assert [e["version"] for e in history(client, sid)["entries"]] == [1, 2]


# -- downtime: nobody's time (README "Turn clocks", "Downtime") ----------------------------------
@pytest.fixture
def alone(redis_server, tmp_path):
    """An app on a Redis of its own, whose timekeepers are the test's only: the heartbeat is the
    test's to set (the run's shared store hears every other test's keeper). The app's own keeper
    never starts."""
    app = create_app(
        {"TESTING": True, "REDIS_URL": redis_server.url, "REFEREE_DATA_DIR": str(tmp_path)}
    )
    app.extensions["referee_clocks"].stop()
    yield app
    app.extensions["referee_bot_seats"].stop()


class Polls:
    """Timekeepers over the app's store that poll (``tick``: heartbeat, walk, claims, looks) at
    the test's time ``now`` (ms)."""

    def __init__(self, app, now: int) -> None:
        self.app = app
        self.now = now

    def keeper(self) -> ClockKeeper:
        return ClockKeeper(self.app.extensions["referee_sessions"], 50, now=lambda: self.now)

    def tick(self, keeper: ClockKeeper | None = None) -> list:
        """The timeouts one poll of ``keeper`` (a new one by default) fired."""
        return [t for fired in (keeper or self.keeper()).tick() for t in fired.timeouts]

    def last_poll(self, at: int | None) -> None:
        """The heartbeat: the last poll of any timekeeper was at ``at`` (None: never)."""
        redis = self.app.extensions["referee_store"].client()
        if at is None:
            redis.delete(HEARTBEAT)
        else:
            redis.hset(HEARTBEAT, "at", at)

    def run_on(self, to: int) -> None:
        """The service ran on until ``to``, its timekeepers polling (the last one just now)."""
        self.now = to
        self.last_poll(to - 100)

    def clock(self, sid: str) -> dict:
        return parse(self.app.extensions["referee_sessions"].load(sid).clock)


def created_clock(app, **clock) -> tuple[str, dict]:
    """A new session's id and its stored clock (Reign & Ruin's draft: both seats' clocks run)."""
    sid = create(app.test_client(), **clock)["session_id"]
    return sid, parse(app.extensions["referee_sessions"].load(sid).clock)


def test_a_downtime_is_nobodys_time_and_no_timeout_fires_for_it(alone):
    """A redeploy (or a store outage) of ten minutes: the draft's per-move minute ran out for
    both seats while nobody could move; the poll that finds it moves both deadlines on by the
    downtime before it claims anything, and the seats have the 55 s they had left."""
    sid, before = created_clock(alone, clock=PER_MOVE)
    polls = Polls(alone, before["since"] + 5_000)
    polls.last_poll(polls.now)  # the timekeepers polled until 5 s in; then the service stopped
    gap = 10 * MINUTE
    polls.now += gap
    assert polls.tick() == []
    after = polls.clock(sid)
    assert clocks.deadlines(after) == {s: at + gap for s, at in clocks.deadlines(before).items()}
    assert clocks.remaining_at(after, polls.now) == {"ann": 55_000, "bob": 55_000}
    assert after["version"] == 0  # no version made, no entry written
    assert history(alone.test_client(), sid)["entries"] == []
    snapshot = alone.test_client().get(f"/v1/sessions/{sid}").get_json()
    assert snapshot["status"] == "in_progress" and snapshot["clock"]["running"] == ["ann", "bob"]
    polls.run_on(polls.now + 55_000)  # the seats' time runs again from the service's return
    assert polls.tick() == [(1, "ann")]


def test_a_clock_moved_past_a_downtime_is_announced_to_the_sessions_streams(alone):
    """The walk makes no version, so the session's channel carries the moved clock (``/events``
    sends it as ``event: clock``): an open table counts down again from the time given back
    (it went on showing the old deadlines)."""
    sid, before = created_clock(alone, clock=PER_MOVE)
    store = alone.extensions["referee_sessions"]
    pubsub = store.subscribe(sid)
    try:
        polls = Polls(alone, before["since"] + 5_000)
        polls.last_poll(polls.now)
        polls.now += 10 * MINUTE
        assert polls.tick() == []
        news = _news(store, pubsub)["clock_news"]
        assert news["remaining_ms"] == {"ann": 55_000, "bob": 55_000}
        assert news["deadlines"] == {
            seat: clocks.rfc3339(at) for seat, at in clocks.deadlines(polls.clock(sid)).items()
        }
    finally:
        pubsub.close()


def test_a_grace_after_a_downtime_counts_from_the_moved_deadline(alone):
    sid, before = created_clock(alone, clock=PER_MOVE, grace_seconds=30)
    polls = Polls(alone, before["since"] + 5_000)
    polls.last_poll(polls.now)
    polls.now += 10 * MINUTE
    assert polls.tick() == []
    moved = clocks.deadlines(polls.clock(sid))["ann"]
    assert moved == clocks.deadlines(before)["ann"] + 10 * MINUTE
    assert polls.clock(sid)["graced"] == []  # the grace is still the seat's
    polls.run_on(moved + 1)
    assert polls.tick() == []
    assert polls.clock(sid)["graced"] == ["ann", "bob"]
    assert clocks.deadlines(polls.clock(sid))["ann"] == moved + 30_000


def test_two_timekeepers_that_find_one_downtime_add_it_once(alone):
    sid, before = created_clock(alone, clock=PER_MOVE)
    polls = Polls(alone, before["since"] + 5_000)
    polls.last_poll(polls.now)
    polls.now += 10 * MINUTE
    keepers = [polls.keeper(), polls.keeper()]
    fired = [t for ticked in _at_once(polls.tick, keepers) for t in ticked]
    assert fired == []
    assert polls.tick(keepers[0]) == [] and polls.tick(keepers[1]) == []  # later polls
    expected = {s: at + 10 * MINUTE for s, at in clocks.deadlines(before).items()}
    assert clocks.deadlines(polls.clock(sid)) == expected


def test_a_walk_cut_short_is_taken_over_and_moves_no_clock_twice(alone):
    one, before_one = created_clock(alone, clock=PER_MOVE)
    two, before_two = created_clock(alone, clock=PER_MOVE)
    polls = Polls(alone, before_two["since"] + 5_000)
    polls.last_poll(polls.now)
    gap = 10 * MINUTE
    polls.now += gap
    store = alone.extensions["referee_sessions"]
    claim = store.deadlines.claim(polls.now, 64)  # this poll takes the walk...
    assert claim.walker is not None and claim.sessions == []
    assert move_session_past(store, one, claim.downtimes)  # ...moves one clock, and dies
    polls.now += 1_000
    assert polls.tick() == []  # its lease holds: no other keeper walks, or claims
    assert polls.clock(two) == before_two
    polls.now += LEASE_MS
    assert polls.tick() == []  # the lease has ended: another keeper walks, then claims
    for sid, before in ((one, before_one), (two, before_two)):
        moved = {seat: at + gap for seat, at in clocks.deadlines(before).items()}
        assert clocks.deadlines(polls.clock(sid)) == moved


def test_a_first_start_is_no_downtime(alone):
    sid, before = created_clock(alone, clock=PER_MOVE)
    polls = Polls(alone, clocks.deadlines(before)["ann"] + 10 * MINUTE)
    polls.last_poll(None)  # no timekeeper ever polled this store
    assert polls.tick() == [(1, "ann")]
    assert int(alone.extensions["referee_store"].client().hget(HEARTBEAT, "at")) == polls.now


def test_a_downtime_leaves_a_paused_clock_be(alone):
    client = alone.test_client()
    created = create(client, clock=PER_MOVE)
    sid = created["session_id"]
    url, admin = f"/v1/sessions/{sid}/clock", bearer(created["admin_token"])
    assert client.post(url, json={"action": "pause"}, headers=admin).status_code == 200
    stored = alone.extensions["referee_sessions"].load(sid).clock
    polls = Polls(alone, parse(stored)["since"] + 5_000)
    polls.last_poll(polls.now)
    polls.now += 10 * MINUTE
    assert polls.tick() == []
    assert alone.extensions["referee_sessions"].load(sid).clock == stored


def test_a_timeout_due_while_the_timekeepers_poll_fires_as_before(alone):
    sid, before = created_clock(alone, clock=PER_MOVE)
    polls = Polls(alone, clocks.deadlines(before)["ann"] + 1)
    polls.last_poll(polls.now - 1_000)  # a keeper polled a second ago
    assert polls.tick() == [(1, "ann")]


def test_a_look_claimed_before_a_stall_as_long_as_a_downtime_judges_nothing(alone):
    """A process stopped (SIGSTOP, a long pause) between a claim and its look: a downtime may
    have been found since, so the look hands the session back for a poll to judge afresh."""
    sid, before = created_clock(alone, clock=PER_MOVE)
    polls = Polls(alone, clocks.deadlines(before)["ann"] + 1)
    polls.last_poll(polls.now - 1_000)
    store = alone.extensions["referee_sessions"]
    ((claimed, lease),) = store.deadlines.claim(polls.now, 64).sessions
    assert claimed == sid
    polls.now += OUTAGE_MS + 1
    assert polls.keeper().look(sid, lease).timeouts == []
    assert store.deadlines.score(sid) == polls.now  # handed back, to be claimed at once
    assert history(alone.test_client(), sid)["entries"] == []


def test_the_heartbeat_lives_on_the_deadlines_cluster_slot():
    """The claim script touches both keys: on a Redis Cluster they must share a slot."""
    from redis.crc import key_slot

    assert key_slot(HEARTBEAT.encode()) == key_slot(DEADLINES.encode())


# -- the admin -----------------------------------------------------------------------------------
def test_the_admin_pauses_resumes_and_adds_time(client):
    created = create(client, clock=PER_MOVE)
    sid, admin = created["session_id"], bearer(created["admin_token"])
    url = f"/v1/sessions/{sid}/clock"
    paused = client.post(url, json={"action": "pause"}, headers=admin)
    assert paused.status_code == 200
    clock = paused.get_json()["clock"]
    assert clock["paused"] is True and clock["running"] == [] and clock["deadlines"] == {}
    assert paused.get_json()["version"] == 0  # only the clock changed
    # contract: fairness and to_move sit at the top level of every session answer, this one too
    assert paused.get_json()["to_move"] == ["ann", "bob"]
    assert paused.get_json()["fairness"] == created["fairness"]
    assert client.get(f"/v1/sessions/{sid}").get_json()["clock"]["paused"] is True
    added = client.post(
        url, json={"action": "add_time", "player": "bob", "seconds": 90}, headers=admin
    ).get_json()["clock"]
    assert added["remaining_ms"]["bob"] == clock["remaining_ms"]["bob"] + 90_000
    resumed = client.post(url, json={"action": "resume"}, headers=admin).get_json()["clock"]
    assert resumed["paused"] is False and resumed["running"] == ["ann", "bob"]
    assert instant(resumed["deadlines"]["bob"]) - instant(resumed["deadlines"]["ann"]) == 90_000


def _next_event(chunks) -> tuple[bytes, dict]:
    """The next event of a stream read chunk by chunk: its name and data. A heartbeat or two
    (a slow machine) are passed over; a third in a row fails the test instead of waiting for an
    event that will not come."""
    for quiet, chunk in enumerate(chunks):
        if not chunk.startswith(b":"):
            fields = dict(line.split(b": ", 1) for line in chunk.strip().split(b"\n"))
            return fields[b"event"], json.loads(fields[b"data"])
        assert quiet < 2, "no event: only heartbeats"
    raise AssertionError("the stream ended")


def test_the_admins_clock_changes_reach_the_sessions_streams(client):
    """README "Turn clocks": a pause, a resume or added time makes no version, so ``/events``
    sends it as ``event: clock`` with the clock of the admin's answer: an open table stops or
    starts its countdown (before, it went on counting during a pause, and after a resume showed
    the clocks paused while the seat's time ran out)."""
    created = create(client, clock=PER_MOVE)
    sid, admin = created["session_id"], bearer(created["admin_token"])
    stream = client.get(f"/v1/sessions/{sid}/events")
    chunks = iter(stream.response)  # subscribed before the first chunk: nothing falls between
    try:
        assert next(chunks).startswith(b"retry:")
        changes = [
            {"action": "pause"},
            {"action": "add_time", "player": "bob", "seconds": 90},
            {"action": "resume"},
        ]
        for change in changes:
            answer = client.post(f"/v1/sessions/{sid}/clock", json=change, headers=admin)
            assert answer.status_code == 200
            assert _next_event(chunks) == (b"clock", answer.get_json()["clock"])
        assert client.delete(f"/v1/sessions/{sid}", headers=admin).status_code == 204
        assert _next_event(chunks) == (b"deleted", {})
    finally:
        stream.close()


def test_moves_while_the_clocks_are_paused_earn_no_increment(client):
    """A paused clock charges nothing, so a Fischer move then earns nothing either (else a seat
    banks an increment a move, without limit)."""
    created = create(
        client, clock={"type": "fischer", "initial_seconds": 300, "increment_seconds": 5}
    )
    sid, admin = created["session_id"], bearer(created["admin_token"])
    paused = client.post(f"/v1/sessions/{sid}/clock", json={"action": "pause"}, headers=admin)
    before = paused.get_json()["clock"]["remaining_ms"]
    for _ in range(4):
        for token in created["seats"].values():
            moves = client.get(f"/v1/sessions/{sid}/legal-moves", headers=bearer(token))
            if moves.get_json()["moves"]:
                move = moves.get_json()["moves"][0]
                resp = client.post(
                    f"/v1/sessions/{sid}/moves", json={"move": move}, headers=bearer(token)
                )
                assert resp.status_code == 200, resp.get_json()
                assert resp.get_json()["clock"]["remaining_ms"] == before
                break
    assert history(client, sid)["entries"][-1]["version"] == 4


def test_the_clock_needs_the_admin_token_and_a_clock(client):
    created = create(client, clock=PER_MOVE)
    url = f"/v1/sessions/{created['session_id']}/clock"
    assert client.post(url, json={"action": "pause"}).status_code == 401
    seat = bearer(created["seats"]["ann"])
    assert client.post(url, json={"action": "pause"}, headers=seat).status_code == 403
    # a token of no seat of this session: 401, as for every operation (it was 403 here)
    stranger = bearer(create(client, clock=PER_MOVE)["admin_token"])
    for token in (stranger, bearer("not-a-token")):
        assert client.post(url, json={"action": "pause"}, headers=token).status_code == 401
    admin = bearer(created["admin_token"])
    resp = client.post(url, json={"action": "add_time", "player": "bob"}, headers=admin)
    assert resp.status_code == 400 and "seconds" in resp.get_json()["errors"]
    resp = client.post(url, json={"action": "pause", "seconds": 5}, headers=admin)
    assert resp.status_code == 400 and "seconds" in resp.get_json()["errors"]
    resp = client.post(url, json={"action": "stop"}, headers=admin)
    assert resp.status_code == 400 and "action" in resp.get_json()["errors"]
    resp = client.post(
        url, json={"action": "add_time", "player": "zed", "seconds": 5}, headers=admin
    )
    assert resp.status_code == 422 and "player" in resp.get_json()["errors"]
    plain = create(client)
    resp = client.post(
        f"/v1/sessions/{plain['session_id']}/clock",
        json={"action": "pause"},
        headers=bearer(plain["admin_token"]),
    )
    assert resp.status_code == 409 and resp.get_json()["code"] == "no_clock"


def test_a_finished_games_clock_can_no_longer_be_changed(client):
    """Its clocks stopped with the game: add_time used to give a seat of a finished game a day
    more (shown ever after in its answers), and pause showed it paused."""
    created = create(client, game="reign-supreme", clock=PER_MOVE)
    sid, ann = created["session_id"], bearer(created["seats"]["ann"])
    concede = {"move": {"player": "ann", "type": "concede"}}
    assert client.post(f"/v1/sessions/{sid}/moves", json=concede, headers=ann).status_code == 200
    admin = bearer(created["admin_token"])
    before = client.get(f"/v1/sessions/{sid}").get_json()["clock"]
    for body in ({"action": "pause"}, {"action": "add_time", "player": "bob", "seconds": 86400}):
        resp = client.post(f"/v1/sessions/{sid}/clock", json=body, headers=admin)
        assert resp.status_code == 409 and resp.get_json()["code"] == "game_finished"
    assert (
        client.get(f"/v1/sessions/{sid}").get_json()["clock"]["remaining_ms"]
        == before["remaining_ms"]
    )


# -- in real time -----------------------------------------------------------------------------
def test_a_one_second_clock_times_out_by_itself(client):
    """The app's own timekeeper (started by the clocked session) fires a 1 s per-move clock;
    generous polling, no assertion on how soon."""
    created = create(client, clock={"type": "per_move", "seconds": 1})
    sid = created["session_id"]
    ends = time.monotonic() + 60
    while time.monotonic() < ends:
        entries = history(client, sid)["entries"]
        if entries:
            break
        time.sleep(0.2)
    assert entries and entries[0]["by"] == "clock"
    assert client.get(f"/v1/sessions/{sid}").get_json()["status"] == "finished"


def test_a_restarted_process_keeps_time_from_its_first_request_of_any_kind(app, referee_data_dir):
    """Under a server without ``serve``'s worker hook (plain ``gunicorn wsgi:app``), a process
    that restarted kept no time until someone read a clocked session. The first app (its
    timekeeper stopped: the process before the restart) sets a 1 s deadline; the restarted app
    is asked only ``/healthz``, as an orchestrator asks, and nothing touches the session (the
    test reads the store): its timekeeper fires the timeout. Generous polling, no assertion on
    how soon."""
    app.extensions["referee_clocks"].stop()
    created = create(app.test_client(), clock={"type": "per_move", "seconds": 1})
    sid = created["session_id"]
    restarted = create_app(
        {"TESTING": True, "REDIS_URL": None, "REFEREE_DATA_DIR": str(referee_data_dir)}
    )
    try:
        assert restarted.test_client().get("/healthz").status_code == 200
        sessions = restarted.extensions["referee_sessions"]
        ends = time.monotonic() + 60
        while sessions.load(sid).version == 0 and time.monotonic() < ends:
            time.sleep(0.2)
        entries = sessions.history(sid, 0, 10)[1]
        assert [(e["version"], e.get("by")) for e in entries[:1]] == [(1, "clock")]
    finally:
        restarted.extensions["referee_clocks"].stop()
        restarted.extensions["referee_bot_seats"].stop()


def test_a_commit_without_the_clock_never_times_out_a_seat_for_a_gone_version(app, client):
    """Every commit path carries the clock; should one not (a path added later without it), the
    timekeeper brings the clock to the session's version before judging any timeout."""
    from api.session_store import history_entry

    created = create(client, clock=PER_MOVE)
    sid = created["session_id"]
    store = app.extensions["referee_sessions"]
    session = store.load(sid)
    game = get_game(GAME)
    move = game.legal_moves(session.state, "ann")[0]
    state, events = game.apply(session.state, move)
    entry = history_entry(1, "ann", move, events, state)
    store.commit(sid, 0, state, entry, entry["at"], None, None)  # no clock given
    # Both draft clocks ran out, but ann moved at version 1: only bob's timeout is due (the stale
    # clock, still at version 0, would have timed ann out first).
    assert Keeper(app).look(sid, MINUTE + 1_000).timeouts == [(2, "bob")]
    entries = history(client, sid)["entries"]
    assert [(e["player"], e.get("by")) for e in entries] == [("ann", None), ("bob", "clock")]


@pytest.mark.parametrize("action", ["forfeit", "pause"])
def test_a_bot_seat_out_of_time_plays_its_own_move_whatever_on_timeout_says(app, client, action):
    # a bot seat answers within SESSION_BOT_TIME_MS: its time runs out only while the store
    # could not take its move (a Redis outage), which is not the seat's to lose the game by, nor
    # to pause it for; its clock starts again as after any bot timeout
    app.extensions["referee_bot_seats"].stop()  # bob's move never lands, as in an outage
    created = create(client, clock=PER_MOVE, on_timeout={"action": action}, bots={"bob": "greedy"})
    sid, ann = created["session_id"], created["seats"]["ann"]
    legal = client.get(f"/v1/sessions/{sid}/legal-moves", headers=bearer(ann)).get_json()
    moved = client.post(
        f"/v1/sessions/{sid}/moves", json={"move": legal["moves"][0]}, headers=bearer(ann)
    )
    assert moved.status_code == 200, moved.get_json()
    keeper = Keeper(app)
    assert keeper.look(sid, MINUTE + 1_000).timeouts == [(2, "bob")]
    (_, entry) = history(client, sid)["entries"]
    assert entry["by"] == "clock" and entry["move"]["type"] == "draft"  # bob's bot's own pick
    snapshot = client.get(f"/v1/sessions/{sid}").get_json()
    assert snapshot["status"] == "in_progress" and snapshot["clock"]["paused"] is False
    assert snapshot["clock"]["remaining_ms"]["bob"] == MINUTE  # started again, not left at 0


def test_a_keeper_whose_store_fails_waits_longer_each_time():
    """A store that is down (or, under plain gunicorn without REDIS_URL, a worker that reaches
    none) is tried again after a wait that doubles up to 10 s, not every CLOCK_POLL_MS (a bench
    run found such a worker logging ten failures a second); a success polls at once again."""
    from api.clock_store import Claim
    from api.store import StoreUnavailable

    answers = [StoreUnavailable("down")] * 8 + [Claim()] + [StoreUnavailable("down")]

    class Deadlines:
        def claim(self, now, batch, outage_ms):
            answer = answers.pop(0)
            if isinstance(answer, Exception):
                raise answer
            return answer

    class Store:
        deadlines = Deadlines()

    class Stop:
        waits: list[float] = []

        def is_set(self) -> bool:
            return not answers

        def wait(self, seconds: float) -> None:
            self.waits.append(seconds)

        def set(self) -> None:  # the keeper's stop() at the test's end
            answers.clear()

    keeper = ClockKeeper(Store(), 50, poll_ms=100)  # type: ignore[arg-type]
    keeper._stop = Stop()  # type: ignore[assignment]
    keeper._poll()
    assert Stop.waits == [0.2, 0.4, 0.8, 1.6, 3.2, 6.4, 10.0, 10.0, 0.1, 0.2]
