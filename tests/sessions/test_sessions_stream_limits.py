"""Live streams per client address (``MAX_STREAMS_PER_CLIENT``, ``api.stream_slots``): one client
used to be able to hold every stream of every worker (140 unread ``/events`` connections from
one address held 125 of 128; everyone else got 503 ``too_many_streams`` until it let go). Now an
address holds at most ``MAX_STREAMS_PER_CLIENT`` streams a worker (429
``too_many_client_streams`` beyond), counted per address, given back when a stream ends however
it ends. Through the Flask test client (addresses from ``REMOTE_ADDR``), and served by gunicorn
with real TCP peers (127.0.0.1 and 127.0.0.2) that never read."""

from __future__ import annotations

import socket
import time
from contextlib import suppress

import pytest
from sessions_served import Served, http

from api import create_app
from api.config import Settings
from api.errors import ApiError
from api.store import StoreUnavailable
from api.stream_slots import StreamSlots

GAME = "reign-and-ruin"
BODY = {"game": GAME, "players": ["ann", "bob"], "open": True, "seed": 3}
PROBLEM = "application/problem+json"


# -- the counts ------------------------------------------------------------------------------------
def test_slots_cap_each_address_and_the_worker():
    slots = StreamSlots(total=5, per_client=2)
    a = [slots.take("10.0.0.1") for _ in range(2)]
    with pytest.raises(ApiError) as refused:
        slots.take("10.0.0.1")
    assert refused.value.status == 429 and refused.value.code == "too_many_client_streams"
    assert refused.value.extra == {"limit": 2} and refused.value.headers["Retry-After"] == "5"
    b = [slots.take("10.0.0.2") for _ in range(2)]  # another address has its own count
    c = slots.take("10.0.0.3")
    assert slots.held() == 5
    with pytest.raises(ApiError) as full:  # the worker holds MAX_STREAMS: 503 for a newcomer
        slots.take("10.0.0.4")
    assert full.value.status == 503 and full.value.code == "too_many_streams"
    with pytest.raises(ApiError) as own:  # ... and still 429 for an address over its own share
        slots.take("10.0.0.1")
    assert own.value.status == 429
    a[0]()
    a[0]()  # given back once, however often it is called
    assert (slots.held(), slots.held("10.0.0.1"), slots.held("10.0.0.2")) == (4, 1, 2)
    a[0] = slots.take("10.0.0.1")
    for give_back in (*a, *b, c):
        give_back()
    assert slots.held() == 0 and len(slots._by_address) == 0  # no address left behind


def test_zero_means_no_cap_per_address():
    slots = StreamSlots(total=3, per_client=0)
    for _ in range(3):
        slots.take("10.0.0.1")
    with pytest.raises(ApiError) as full:
        slots.take("10.0.0.1")
    assert full.value.status == 503


def test_settings():
    assert (Settings().max_streams_per_client, Settings().max_stream_seconds) == (8, 3600)
    env = {"MAX_STREAMS_PER_CLIENT": "0", "MAX_STREAM_SECONDS": "0"}
    assert Settings.from_env(env).max_streams_per_client == 0
    assert Settings.from_env(env).max_stream_seconds == 0
    for bad in ("-1", "x"):
        with pytest.raises(ValueError, match="MAX_STREAMS_PER_CLIENT"):
            Settings.from_env({"MAX_STREAMS_PER_CLIENT": bad})


# -- through the app -------------------------------------------------------------------------------
@pytest.fixture
def limited(referee_data_dir):
    """The app with 3 streams per address and 5 in all, and one session's stream path."""
    app = create_app(
        {
            "TESTING": True,
            "REDIS_URL": None,
            "REFEREE_DATA_DIR": str(referee_data_dir),
            "MAX_STREAMS_PER_CLIENT": "3",
            "MAX_STREAMS": "5",
        }
    )
    client = app.test_client()
    created = client.post("/v1/sessions", json=BODY)
    assert created.status_code == 201, created.get_json()
    yield app, client, f"/v1/sessions/{created.get_json()['session_id']}/events"
    app.extensions["referee_bot_seats"].stop()
    app.extensions["referee_clocks"].stop()


def _open(client, path, address):
    return client.get(path, environ_base={"REMOTE_ADDR": address})


def test_an_address_over_its_share_gets_a_429_problem(limited):
    app, client, path = limited
    slots = app.extensions["referee_stream_slots"]
    streams = [_open(client, path, "10.1.0.1") for _ in range(3)]
    assert [s.status_code for s in streams] == [200, 200, 200]
    assert next(iter(streams[0].response)).startswith(b"retry:")  # a live stream, being read
    refused = _open(client, path, "10.1.0.1")
    assert refused.status_code == 429 and refused.mimetype == PROBLEM
    problem = refused.get_json()
    assert problem["code"] == "too_many_client_streams" and problem["status"] == 429
    assert problem["limit"] == 3 and problem["type"].endswith("/too-many-client-streams")
    assert problem["title"] == "Too many streams from this client"
    assert "3 live streams" in problem["detail"] and "MAX_STREAMS_PER_CLIENT" in problem["detail"]
    assert refused.headers["Retry-After"] == "5"
    other = _open(client, path, "10.1.0.2")  # another address still gets a stream
    assert other.status_code == 200 and other.mimetype == "text/event-stream"
    assert (slots.held("10.1.0.1"), slots.held("10.1.0.2"), slots.held()) == (3, 1, 4)
    # The worker's own cap (MAX_STREAMS=5) still holds for everyone: 503, not 429.
    fifth = _open(client, path, "10.1.0.3")
    assert fifth.status_code == 200
    full = _open(client, path, "10.1.0.4")
    assert full.status_code == 503 and full.get_json()["code"] == "too_many_streams"
    for stream in (*streams, other, fifth):
        stream.close()
    assert slots.held() == 0


def test_an_ipv6_client_is_its_whole_64(limited):
    """Every limit per client counts an IPv6 client by its /64 (``client_key``): a host given a
    /64 cannot take a new share with each new address of it."""
    app, client, path = limited
    slots = app.extensions["referee_stream_slots"]
    streams = [_open(client, path, f"2001:db8:1:2::{n}") for n in range(1, 4)]
    assert [s.status_code for s in streams] == [200, 200, 200]
    refused = _open(client, path, "2001:db8:1:2:ffff::9")  # the same /64
    assert refused.status_code == 429 and refused.get_json()["code"] == "too_many_client_streams"
    other = _open(client, path, "2001:db8:1:3::1")  # the next /64: another client
    assert other.status_code == 200
    assert slots.held("2001:db8:1:2::/64") == 3
    for stream in (*streams, other):
        stream.close()
    assert slots.held() == 0


def test_closed_streams_give_their_slots_back(limited):
    """Open the address's share, close it, open it again: nothing leaks, round after round."""
    app, client, path = limited
    slots = app.extensions["referee_stream_slots"]
    for _ in range(3):
        streams = [_open(client, path, "10.2.0.1") for _ in range(3)]
        assert [s.status_code for s in streams] == [200, 200, 200]
        assert _open(client, path, "10.2.0.1").status_code == 429
        for stream in streams:
            stream.close()
        assert slots.held("10.2.0.1") == 0
    # A stream read to its end (its session deleted) gives its slot back too.
    stream = _open(client, path, "10.2.0.1")
    assert slots.held("10.2.0.1") == 1
    session_id = path.split("/")[3]
    app.extensions["referee_sessions"].delete(session_id)
    assert stream.get_data().endswith(b"event: deleted\ndata: {}\n\n")
    stream.close()
    assert slots.held() == 0


def test_a_stream_that_fails_to_start_holds_no_slot(limited, monkeypatch):
    app, client, path = limited
    slots = app.extensions["referee_stream_slots"]
    sessions = app.extensions["referee_sessions"]

    def down(session_id):
        raise StoreUnavailable("the store went away")

    monkeypatch.setattr(sessions, "subscribe", down)
    for _ in range(4):  # more than the address's share
        resp = _open(client, path, "10.3.0.1")
        assert resp.status_code == 503 and resp.get_json()["code"] == "store_unavailable"
    assert slots.held() == 0
    monkeypatch.undo()
    assert _open(client, path, "10.3.0.1").status_code == 200


# -- a session that expires under its streams ------------------------------------------------------
@pytest.fixture
def heartbeats(referee_data_dir):
    """The app with a heartbeat every second and 3 streams per address; a stream that never
    learns of its session's end stops after 8 s (``MAX_STREAM_SECONDS``), so a test of it fails
    instead of hanging."""
    app = create_app(
        {
            "TESTING": True,
            "REDIS_URL": None,
            "REFEREE_DATA_DIR": str(referee_data_dir),
            "MAX_STREAMS_PER_CLIENT": "3",
            "HEARTBEAT_SECONDS": "1",
            "MAX_STREAM_SECONDS": "8",
        }
    )
    yield app
    app.extensions["referee_bot_seats"].stop()
    app.extensions["referee_clocks"].stop()


DELETED = b"event: deleted\ndata: {}\n\n"


def _expire(app, session_id: str) -> None:
    """The session's keys go as its idle time-to-live takes them: all at once, nothing
    published on its channel (a DELETE publishes ``deleted``; an expiry says nothing)."""
    sessions = app.extensions["referee_sessions"]
    sessions.store.client().delete(*sessions.keys(session_id))


@pytest.mark.parametrize("bots", [{}, {"bob": "random"}])
def test_a_stream_whose_session_expires_says_deleted_and_gives_its_slot_back(heartbeats, bots):
    """README, "Streams per client": a slot comes back when its session expires, not an hour
    later. The heartbeat's touch looks for the session (one field; a session with bot seats is
    loaded for its bots): gone, the stream says ``deleted`` and ends, as for a DELETE."""
    app = heartbeats
    client = app.test_client()
    slots = app.extensions["referee_stream_slots"]
    body = {"game": "reign-absolute", "players": ["ann", "bob"], "bots": bots}
    created = client.post("/v1/sessions", json=body).get_json()
    assert created["to_move"] == ["ann"]  # no bot due: nothing moves meanwhile
    stream = _open(client, f"/v1/sessions/{created['session_id']}/events", "10.4.0.1")
    chunks = iter(stream.response)
    assert next(chunks).startswith(b"retry:")
    assert next(chunks) == b": heartbeat\n\n"  # idle; its touch follows, on the next read
    _expire(app, created["session_id"])
    assert b"".join(chunks) == DELETED  # the touch found it gone: the stream's end
    stream.close()  # as the server does with a stream that ended
    assert slots.held() == 0


def test_a_heartbeat_the_store_failed_does_not_end_the_stream(heartbeats, monkeypatch):
    """A touch that meets a store fault says nothing of the session: the stream goes on, and the
    next heartbeat's touch is the one that finds the expired session gone."""
    app = heartbeats
    client = app.test_client()
    created = client.post("/v1/sessions", json=BODY).get_json()
    sessions = app.extensions["referee_sessions"]
    exists, faults = sessions.exists, []

    def unreachable_once(session_id):
        if not faults:
            faults.append(session_id)
            raise StoreUnavailable("ConnectionError: Connection refused")
        return exists(session_id)

    monkeypatch.setattr(sessions, "exists", unreachable_once)
    stream = _open(client, f"/v1/sessions/{created['session_id']}/events", "10.4.0.2")
    chunks = iter(stream.response)
    assert next(chunks).startswith(b"retry:") and next(chunks) == b": heartbeat\n\n"
    _expire(app, created["session_id"])
    assert b"".join(chunks) == b": heartbeat\n\n" + DELETED  # one heartbeat more: the fault's
    assert faults == [created["session_id"]]
    stream.close()


# -- served: TCP peers that never read -------------------------------------------------------------
def _raw_stream(port: int, path: str, source: str) -> tuple[socket.socket, int]:
    """A ``GET`` of the stream from ``source`` that reads the status line and nothing after it
    (the client of the denial of service: it holds the connection and never reads)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(source, 0))
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    head = b""
    while b"\r\n" not in head:
        chunk = sock.recv(1)
        if not chunk:
            break
        head += chunk
    return sock, int(head.split()[1])


def _served_session(tmp_path, env: dict[str, str]) -> tuple[Served, str]:
    """One worker served with ``env``, and the path of a session created on it."""
    server = Served(tmp_path / "data", tmp_path / "serve.log", env=env, workers=1).start()
    status, _, session = http(server.base, "POST", "/v1/sessions", BODY)
    if status != 201:
        server.stop()
        raise AssertionError(session)
    return server, f"/v1/sessions/{session['session_id']}"


def test_served_one_address_cannot_take_every_stream(tmp_path):
    server, session = _served_session(tmp_path, {"MAX_STREAMS": "6", "MAX_STREAMS_PER_CLIENT": "2"})
    held: list[socket.socket] = []
    try:
        path = f"{session}/events"
        answers = []
        for _ in range(10):  # the attack, scaled down: more streams than the worker holds
            sock, code = _raw_stream(server.port, path, "127.0.0.1")
            held.append(sock)
            answers.append(code)
        assert answers == [200, 200] + [429] * 8
        status, headers, problem = http(server.base, "GET", path)
        assert status == 429 and headers["content-type"].startswith(PROBLEM)
        assert problem["code"] == "too_many_client_streams" and problem["limit"] == 2
        other, code = _raw_stream(server.port, path, "127.0.0.2")  # another client: served
        held.append(other)
        assert code == 200
        for sock in held:  # the clients hang up: their slots come back
            sock.close()
        held.clear()
        # within about a second (the stream notices its client hung up); the loop only bounds
        # the wait on a loaded machine
        deadline = time.time() + 30
        while True:
            again = [_raw_stream(server.port, path, "127.0.0.1") for _ in range(2)]
            held.extend(sock for sock, _ in again)
            if [code for _, code in again] == [200, 200] or time.time() > deadline:
                break
            for sock in held:
                sock.close()
            held.clear()
            time.sleep(0.2)
        assert [code for _, code in again] == [200, 200]
    finally:
        for sock in held:
            with suppress(OSError):
                sock.close()
        server.stop()


def test_served_a_clients_streams_leave_its_requests_their_share(tmp_path):
    """``MAX_REQUESTS_PER_CLIENT`` counts requests being answered; an ``/events`` stream stops
    counting once it streams (``api.worker.STREAMING``), so a client whose share is one request
    can hold a stream and still play."""
    server, path = _served_session(tmp_path, {"MAX_REQUESTS_PER_CLIENT": "1"})
    held: list[socket.socket] = []
    try:
        for _ in range(2):
            sock, code = _raw_stream(server.port, f"{path}/events", "127.0.0.1")
            held.append(sock)
            assert code == 200
        status, _, view = http(server.base, "GET", path)  # same address, while both stream
        assert status == 200 and path.endswith(view["session_id"])
    finally:
        for sock in held:
            with suppress(OSError):
                sock.close()
        server.stop()
