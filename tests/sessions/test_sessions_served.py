"""Sessions against the service as the README starts it (``reign-referee serve``: gunicorn with 2
workers, the embedded Redis in the master): racing clients in several processes, live event
streams, 60 open streams while moves go on, and a restart."""

from __future__ import annotations

import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor
from itertools import chain, pairwise

from sessions_served import EventReader, Served, bearer, http, racer

from api import jsonio
from api.session_store import KEY_PREFIX
from rules.registry import get_game

GAME = "reign-and-ruin"


def create(base, players=("ann", "bob"), seed=5, game=GAME):
    status, headers, body = http(
        base,
        "POST",
        "/v1/sessions",
        {"game": game, "players": list(players), "open": True, "seed": seed},
    )
    assert status == 201, body
    return body


def legal(base, session, player):
    status, _, body = http(
        base,
        "GET",
        f"/v1/sessions/{session['session_id']}/legal-moves",
        headers=bearer(session["seats"][player]),
    )
    assert status == 200, body
    return body["moves"]


def move_once(base, session, player, index=0):
    moves = legal(base, session, player)
    status, _, body = http(
        base,
        "POST",
        f"/v1/sessions/{session['session_id']}/moves",
        {"move": moves[index]},
        headers=bearer(session["seats"][player]),
    )
    assert status == 200, body
    return body


def some_active_move(base, session, rng=None):
    """One legal move of some seat that has one (the first such seat, or a random one)."""
    seats = sorted(session["seats"])
    if rng is not None:
        rng.shuffle(seats)
    for player in seats:
        moves = legal(base, session, player)
        if moves:
            return player, (rng.choice(moves) if rng else moves[0])
    return None, None


# -- racing ----------------------------------------------------------------------------------------
def test_racing_processes_apply_each_move_exactly_once(served):
    """Four client processes race on two three-seat sessions (the draft lets every seat move at
    once). A barrier between reading and sending makes them race every round, so the test does
    not depend on how the machine schedules them (issue 13: it used to pass only without load)."""
    game = get_game(GAME)
    seeds = (21, 22)
    racers, rounds = 4, 12
    sessions = [create(served.base, ("ann", "bob", "cat"), seed=s) for s in seeds]
    context = multiprocessing.get_context("spawn")
    with context.Manager() as manager, ProcessPoolExecutor(racers, mp_context=context) as pool:
        barrier = manager.Barrier(racers)
        runs = list(
            pool.map(
                racer,
                [served.base] * racers,
                [sessions] * racers,
                range(racers),
                [rounds] * racers,
                [barrier] * racers,
            )
        )
    results = list(chain.from_iterable(runs))
    allowed = {
        "if-match": {200, 412},
        "expected": {200, 409},
        "none": {200, 422},
        "idempotent": {200, 422},
    }
    for r in results:
        assert r["status"] in allowed[r["mode"]], r
    # Every round applies a move: all racers read the round's session after every request of its
    # last round was answered (the barrier), so the first request to land is on the current
    # version, and every seat has a racer. How many more land depends on how the processes are
    # scheduled (20 of 60 in one CI run at load 9, where this asked for more than 20).
    assert sum(r["status"] == 200 for r in results) >= rounds
    # Racers with a precondition that read the same version: at most one of them wins...
    contested = 0
    for key in {(r["session"], r["based_on"]) for r in results}:
        guarded = [
            r
            for r in results
            if (r["session"], r["based_on"]) == key and r["mode"] in ("if-match", "expected")
        ]
        assert sum(r["status"] == 200 for r in guarded) <= 1, guarded
        contested += len(guarded) >= 2
    # ... and the draft rounds always put two of them on one version, so someone lost a race.
    assert contested >= 1 and any(r["status"] in (409, 412) for r in results), "no race was lost"
    # a retried Idempotency-Key gives the first answer
    for first, again in pairwise(results):
        if (
            first["mode"] == "idempotent"
            and first["try"] == 0
            and again["try"] == 1
            and first["status"] == 200
        ):
            assert (
                again["status"] == 200
                and again["replayed"]
                and again["version"] == first["version"]
            )
    client = served.redis()
    for session, seed in zip(sessions, seeds, strict=True):
        sid = session["session_id"]
        applied = sorted(
            r["version"]
            for r in results
            if r["session"] == sid and r["status"] == 200 and not r["replayed"]
        )
        stored = client.hmget(f"{KEY_PREFIX}{{{sid}}}:session", ["version", "state"])
        final_version, final_state = int(stored[0]), jsonio.loads(stored[1])
        assert applied == list(range(1, final_version + 1)), "a move was lost or applied twice"
        history = [jsonio.loads(e) for e in client.lrange(f"{KEY_PREFIX}{{{sid}}}:history", 0, -1)]
        assert [e["version"] for e in history] == list(range(1, final_version + 1))
        state = game.setup(["ann", "bob", "cat"], seed, {})
        for entry in history:
            state, events = game.apply(state, entry["move"])
            assert events == entry["events"]
        assert state == final_state


# -- live events -----------------------------------------------------------------------------------
def test_a_stream_hears_each_new_version(served):
    session = create(served.base)
    path = f"/v1/sessions/{session['session_id']}/events"
    reader = EventReader(served.base, path).start()
    assert reader.status == 200 and reader.content_type.startswith("text/event-stream")
    move_once(served.base, session, "ann")
    move_once(served.base, session, "bob")
    assert reader.wait_for(lambda r: len(r.events()) == 2)
    events = reader.events()
    assert [e["id"] for e in events] == ["1", "2"] and {e["event"] for e in events} == {"move"}
    assert [e["data"]["player"] for e in events] == ["ann", "bob"]
    reader.close()


def test_last_event_id_resumes_from_history(served):
    session = create(served.base)
    for player in ("ann", "bob", "ann"):
        move_once(served.base, session, player)
    path = f"/v1/sessions/{session['session_id']}/events"
    reader = EventReader(served.base, path, {"Last-Event-ID": "1"}).start()
    assert reader.wait_for(lambda r: len(r.events()) == 2)
    move_once(served.base, session, "bob")
    assert reader.wait_for(lambda r: len(r.events()) == 3)
    assert [e["id"] for e in reader.events()] == ["2", "3", "4"]
    reader.close()
    again = EventReader(served.base, path + "?after=3").start()
    assert again.wait_for(lambda r: len(r.events()) == 1)
    assert again.events()[0]["id"] == "4"
    again.close()


def test_idle_streams_get_heartbeats(served):
    session = create(served.base)
    reader = EventReader(served.base, f"/v1/sessions/{session['session_id']}/events").start()
    # one a second; 30 s only bounds the wait on a loaded machine (two test workers and more)
    assert reader.wait_for(lambda r: ": heartbeat" in r.lines, timeout=30)
    reader.close()


def test_a_deleted_session_ends_its_streams(served):
    session = create(served.base)
    reader = EventReader(served.base, f"/v1/sessions/{session['session_id']}/events").start()
    time.sleep(0.3)
    status, _, _ = http(
        served.base,
        "DELETE",
        f"/v1/sessions/{session['session_id']}",
        headers=bearer(session["admin_token"]),
    )
    assert status == 204
    assert reader.closed.wait(30)
    assert "event: deleted" in reader.lines


def test_streams_are_redacted_for_their_seat(served):
    game = get_game(GAME)
    session = create(served.base)
    path = f"/v1/sessions/{session['session_id']}/events"
    readers = {
        "ann": EventReader(served.base, path, bearer(session["seats"]["ann"])).start(),
        "bob": EventReader(served.base, path + f"?token={session['seats']['bob']}").start(),
        None: EventReader(served.base, path).start(),
    }
    sent = legal(served.base, session, "ann")[0]
    move_once(served.base, session, "ann")
    for reader in readers.values():
        assert reader.wait_for(lambda r: len(r.events()) == 1)
    assert readers["ann"].events()[0]["data"]["move"] == sent
    for viewer in ("bob", None):
        data = readers[viewer].events()[0]["data"]
        assert data["move"] == {"player": "ann", "type": sent["type"]}
        assert not set(sent["cards"]) & set(str(data).split("'"))
    _, events = game.apply(game.setup(["ann", "bob"], 5, {}), sent)
    assert readers["bob"].events()[0]["data"]["events"] == [
        game.view_event(e, "bob") for e in events
    ]
    for reader in readers.values():
        reader.close()
    bad = EventReader(served.base, path + "?token=wrong").start()
    assert bad.status == 401


def test_sixty_open_streams_do_not_stop_moves(served):
    """More streams than a worker has request threads (THREADS=8): moves are still served, and
    every stream hears every move."""
    session = create(served.base)
    path = f"/v1/sessions/{session['session_id']}/events"
    readers = [EventReader(served.base, path).start() for _ in range(60)]
    assert all(r.status == 200 for r in readers)
    moves = 0
    started = time.perf_counter()
    while moves < 10:
        player, move = some_active_move(served.base, session)
        status, _, body = http(
            served.base,
            "POST",
            f"/v1/sessions/{session['session_id']}/moves",
            {"move": move},
            headers=bearer(session["seats"][player]),
            timeout=60,  # an upper bound only: a loaded machine (two test workers and more)
        )
        assert status == 200, body
        moves += 1
    elapsed = time.perf_counter() - started
    for reader in readers:
        assert reader.wait_for(lambda r: len(r.events()) == 10, timeout=60), len(reader.events())
        reader.close()
    print(f"10 moves with 60 open streams: {elapsed:.2f} s")


# -- restart ---------------------------------------------------------------------------------------
def test_sessions_survive_a_restart(tmp_path):
    server = Served(tmp_path / "data", tmp_path / "serve.log").start()
    try:
        session = create(server.base)
        for player in ("ann", "bob", "ann"):
            move_once(server.base, session, player)
        _, _, before = http(
            server.base,
            "GET",
            f"/v1/sessions/{session['session_id']}",
            headers=bearer(session["seats"]["bob"]),
        )
    finally:
        server.stop()
    server = Served(tmp_path / "data", tmp_path / "serve.log").start()
    try:
        status, _, after = http(
            server.base,
            "GET",
            f"/v1/sessions/{session['session_id']}",
            headers=bearer(session["seats"]["bob"]),
        )
        assert status == 200 and after == before and after["version"] == 3
        assert move_once(server.base, session, "bob")["version"] == 4
        status, _, hist = http(server.base, "GET", f"/v1/sessions/{session['session_id']}/history")
        assert [e["version"] for e in hist["entries"]] == [1, 2, 3, 4]
    finally:
        server.stop()


def test_too_many_streams_is_a_503(tmp_path):
    server = Served(
        tmp_path / "data", tmp_path / "serve.log", env={"MAX_STREAMS": "1"}, workers=1
    ).start()
    try:
        session = create(server.base)
        path = f"/v1/sessions/{session['session_id']}/events"
        first = EventReader(server.base, path).start()
        status, headers, body = http(server.base, "GET", path)
        assert status == 503 and body["code"] == "too_many_streams" and "retry-after" in headers
        assert move_once(server.base, session, "ann")["version"] == 1
        first.close()
        # A client that hangs up frees its stream slot within about a second (no need to wait
        # for a heartbeat write to fail).
        deadline = time.time() + 10
        second = EventReader(server.base, path).start()
        while second.status == 503 and time.time() < deadline:
            time.sleep(0.2)
            second = EventReader(server.base, path).start()
        assert second.status == 200
        second.close()
    finally:
        server.stop()
