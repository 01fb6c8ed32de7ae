"""``api.buffered_worker.BufferedWorker`` driven in process, one turn of its loop at a time, over
socket pairs: no server, no clock (deadlines are moved into the past rather than waited for)."""

from __future__ import annotations

import gc
import heapq
import json
import logging
import re
import select
import selectors
import socket
import threading
import time
from types import SimpleNamespace
from typing import Any

import pytest
from gunicorn import http
from gunicorn.config import Config
from gunicorn.http.body import ChunkedReader
from gunicorn.workers.gthread import ThreadWorker

from api.answer_writer import AnswerBudget
from api.buffered_worker import (
    ACCEPT_PAUSE_SECONDS,
    ACCEPT_PAUSE_UP_TO,
    GATHERED_PIECE,
    BufferedConn,
    BufferedWorker,
    gathered_unreader,
    largest_request,
)
from api.client_shares import (
    SMALL_REQUEST,
    ByteShares,
    ClientCounts,
    ClientShares,
    client_key,
)
from api.worker import ARRIVED, STREAMING

GET = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"


class _Log:
    """gunicorn's logger interface, to Python logging."""

    def __init__(self) -> None:
        self.logger = logging.getLogger("test-buffered-worker")

    def __getattr__(self, name: str) -> Any:
        if name == "access":
            return lambda *args, **kwargs: None
        return getattr(self.logger, name)


_GATE = threading.Event()
"""What ``/hold`` and ``/stream`` requests wait for, in their thread."""


def _app(environ: dict, start_response: Any) -> list[bytes]:
    """Echoes the body (``/big?N``: answers N bytes; ``/hold``: first waits for ``_GATE``;
    ``/stream``: says it streams, then waits); says when the worker stamped the request's arrival
    (``ARRIVED``)."""
    body = environ["wsgi.input"].read()
    path = environ["PATH_INFO"]
    if path == "/big":
        body = bytes(range(256)) * (int(environ["QUERY_STRING"]) // 256)
    if path == "/stream":
        environ[STREAMING]()
    if path in ("/hold", "/stream"):
        assert _GATE.wait(10)
    headers = [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))]
    start_response("200 OK", headers + [("X-Arrived", repr(environ.get(ARRIVED)))])
    return [body]


@pytest.fixture
def worker():
    cfg = Config()
    cfg.set("threads", 2)
    w = BufferedWorker(0, 0, [], None, 30, cfg, _Log())
    w.tpool = w.get_thread_pool()
    w.poller = selectors.DefaultSelector()
    w.method_queue.init()
    w.poller.register(w.method_queue.fileno(), selectors.EVENT_READ, w.method_queue.run_callbacks)
    w.app = SimpleNamespace(wsgi=lambda: _app)
    w.load_wsgi()  # as in init_process: the app the worker runs is what it makes of this one
    yield w
    w.murder_keepalived(force=True)
    w.tpool.shutdown(wait=True)
    w.poller.close()
    w.method_queue.close()
    w.tmp.close()


def _connect(
    worker: BufferedWorker, address: str = "127.0.0.1"
) -> tuple[BufferedConn, socket.socket]:
    ours, theirs = socket.socketpair()
    theirs.settimeout(10)
    conn = BufferedConn(worker.cfg, ours, (address, 4000), ("127.0.0.1", 8000))
    worker.nr_conns += 1
    worker._gather(conn, b"", time.monotonic() + 3600, idle=False)
    return conn, theirs


def _turn(worker: BufferedWorker, until: Any, turns: int = 150) -> None:
    """Turn the loop until ``until()`` holds (at most ``turns`` turns of 0.2 s)."""
    for _ in range(turns):
        if until():
            return
        worker.wait_for_and_dispatch_events(0.2)
    assert until()


def _expire_now(worker: BufferedWorker, conn: BufferedConn) -> None:
    worker._unwait(conn)
    worker._wait(conn, time.monotonic() - 1, worker._on_readable)
    worker.murder_pending()


def _read_all(sock: socket.socket) -> bytes:
    data = b""
    while chunk := sock.recv(4096):
        data += chunk
    return data


def test_a_whole_request_is_served_and_the_connection_kept_alive(worker):
    conn, client = _connect(worker)
    client.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhel")
    _turn(worker, lambda: conn.request is not None and conn.request.waits_for_body)
    assert worker.nr_conns == 1 and conn.requests == 0  # held in the loop, not in a thread
    client.sendall(b"lo")
    _turn(worker, lambda: conn.requests == 1 and conn.request is not None)  # answered, back
    answer = client.recv(4096)
    assert answer.startswith(b"HTTP/1.1 200 OK") and answer.endswith(b"hello")
    assert conn.idle and worker._waiting[conn.sock.fileno()] is conn
    client.sendall(GET)  # the kept-alive connection serves its next request
    _turn(worker, lambda: conn.requests == 2 and conn.request is not None)
    assert client.recv(4096).startswith(b"HTTP/1.1 200 OK")


def test_at_the_deadline_a_started_request_gets_408_and_the_connection_closes(worker):
    conn, client = _connect(worker)
    client.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
    _turn(worker, lambda: conn.request is not None and conn.request.started)
    _expire_now(worker, conn)
    head, _, body = client.recv(4096).partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408 Request Timeout\r\n")
    assert b"Content-Type: application/problem+json" in head and b"Connection: close" in head
    assert json.loads(body)["code"] == "request_timeout"
    client.shutdown(socket.SHUT_WR)  # the lingering close ends when the client's side does
    _turn(worker, lambda: worker.nr_conns == 0)
    assert _read_all(client) == b"" and not worker._waiting


def test_at_the_deadline_a_silent_connection_is_closed_without_an_answer(worker):
    conn, client = _connect(worker)
    _expire_now(worker, conn)
    assert worker.nr_conns == 0 and not worker._waiting
    assert _read_all(client) == b""


def test_a_failing_connection_ends_alone_and_the_loop_goes_on(worker, monkeypatch):
    broken, broken_client = _connect(worker)
    fine, fine_client = _connect(worker)

    def fail(data: bytes) -> str:
        raise RuntimeError("a bug")

    monkeypatch.setattr(broken.request, "feed", fail)
    broken_client.sendall(GET)
    _turn(worker, lambda: worker.nr_conns == 1)
    assert _read_all(broken_client) == b""
    fine_client.sendall(GET)
    _turn(worker, lambda: fine.requests == 1 and fine.request is not None)
    assert fine_client.recv(4096).startswith(b"HTTP/1.1 200 OK")


def test_expect_100_continue_is_answered_once_the_head_is_in(worker):
    conn, client = _connect(worker)
    client.sendall(
        b"POST / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n"
    )
    _turn(worker, lambda: conn.continued)
    assert client.recv(4096) == b"HTTP/1.1 100 Continue\r\n\r\n"
    client.sendall(b"ok")
    _turn(worker, lambda: conn.requests == 1 and conn.request is not None)
    answer = client.recv(4096)
    assert answer.startswith(b"HTTP/1.1 200 OK") and b"100 Continue" not in answer


def test_expired_connections_are_answered_in_batches_between_turns(worker):
    pairs = [_connect(worker) for _ in range(70)]
    for conn, _ in pairs:
        worker._unwait(conn)
        worker._wait(conn, time.monotonic() - 1, worker._on_readable)
    worker.murder_pending()
    assert worker.nr_conns == 70 - 64  # one batch; the loop serves other events, then the rest
    worker.murder_pending()
    assert worker.nr_conns == 0
    for _, client in pairs:
        assert _read_all(client) == b""
        client.close()


def _arrived(answer: bytes) -> float:
    match = re.search(rb"X-Arrived: (\S+)", answer)
    assert match, answer
    return float(match.group(1))


def test_a_request_carries_the_time_its_first_bytes_were_read(worker):
    """The app sees when the request began to arrive (``environ[ARRIVED]``, on the clock of
    ``time.monotonic``): its first bytes, not its last nor the moment a thread took it, so that
    a bot's ``time_ms`` counts the time the request waited in the worker. A kept-alive
    connection's next request has a stamp of its own."""
    conn, client = _connect(worker)
    before = time.monotonic()
    client.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhel")
    _turn(worker, lambda: conn.request is not None and conn.request.waits_for_body)
    between = time.monotonic()
    client.sendall(b"lo")
    _turn(worker, lambda: conn.requests == 1 and conn.request is not None)
    first = _arrived(client.recv(4096))
    assert before <= first <= between
    again = time.monotonic()
    client.sendall(GET)
    _turn(worker, lambda: conn.requests == 2 and conn.request is not None)
    assert again <= _arrived(client.recv(4096)) <= time.monotonic()


def test_a_body_of_one_byte_chunks_is_read_a_piece_at_a_time(worker, monkeypatch):
    """gunicorn's chunked reader copies all it holds past each chunk's header: handed the whole
    gathered request at once, a body of n one-byte chunks cost n copies of the rest of the body
    (a 200 KB body took 455 s). It is handed pieces the size of a socket read, so what it holds
    at a chunk's header, and so each copy, is at most a piece; and the body arrives whole."""
    body = b"x" * 30_000
    chunks = b"".join(b"1\r\n" + body[i : i + 1] + b"\r\n" for i in range(len(body)))
    wire = (
        b"POST /v1/games/reign-and-ruin/setup HTTP/1.1\r\nHost: x\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n" + chunks + b"0\r\n\r\n"
    )
    held: list[int] = []
    parse_chunk_size = ChunkedReader.parse_chunk_size

    def spy(self: ChunkedReader, unreader: Any, data: bytes | None = None) -> Any:
        held.append(len(data or b""))
        return parse_chunk_size(self, unreader, data)

    monkeypatch.setattr(ChunkedReader, "parse_chunk_size", spy)
    parser = http.get_parser(worker.cfg, iter(()), ("127.0.0.1", 4000))
    parser.unreader = gathered_unreader(wire)
    assert next(parser).body.read() == body
    assert len(held) == len(body) + 1 and max(held) <= GATHERED_PIECE


BIG = 4 * 1024 * 1024
"""An answer far larger than a socket pair's buffers (a few hundred KB)."""


def _big(n: int = BIG) -> bytes:
    return f"GET /big?{n} HTTP/1.1\r\nHost: x\r\n\r\n".encode()


def _take_answer(
    worker: BufferedWorker, client: socket.socket, data: bytes = b""
) -> tuple[bytes, bytes, bytes]:
    """Read one whole answer (head, body by its ``Content-Length``, and what came after it),
    turning the worker's loop meanwhile so that it sends what it holds as the client reads."""
    head = b""
    length = -1
    client.setblocking(False)
    try:
        for _ in range(10_000):
            try:
                data += client.recv(1 << 20)
            except BlockingIOError:
                worker.wait_for_and_dispatch_events(0.01)
            if length < 0 and b"\r\n\r\n" in data:
                head, _, data = data.partition(b"\r\n\r\n")
                length = int(re.search(rb"Content-Length: (\d+)", head).group(1))
            if 0 <= length <= len(data):
                return head, data[:length], data[length:]
    finally:
        client.settimeout(10)
    raise AssertionError(f"no whole answer: {len(data)} bytes of {length}")


def test_an_answer_the_client_does_not_read_holds_no_thread(worker):
    """The thread hands what the client has not taken to the loop and is free: the connection
    waits in the loop with its answer held while the client has read nothing; once the client
    reads, every byte arrives in order and the connection serves its next request."""
    conn, client = _connect(worker)
    client.sendall(_big())
    _turn(worker, lambda: conn.writer is not None and worker._waiting.get(conn.sock.fileno()))
    assert conn.writer.held_bytes > BIG // 2  # most of it held, none of it read
    assert worker._answers.held == conn.writer.held_bytes
    assert worker.tpool._work_queue.empty() and not worker.tpool._shutdown
    head, body, rest = _take_answer(worker, client)
    assert (
        not rest
        and head.startswith(b"HTTP/1.1 200 OK")
        and body == bytes(range(256)) * (BIG // 256)
    )
    _turn(worker, lambda: conn.writer is None and conn.request is not None)
    assert worker._answers.held == 0 and conn.idle
    client.sendall(GET)
    _turn(worker, lambda: conn.requests == 2 and conn.request is not None)
    assert client.recv(4096).startswith(b"HTTP/1.1 200 OK")


def test_a_pipelined_request_waits_until_the_answer_before_it_is_taken(worker):
    """A client that sends requests and reads nothing holds one answer a connection, not one
    per request it sent."""
    conn, client = _connect(worker)
    client.sendall(_big() * 3)
    _turn(worker, lambda: conn.writer is not None and worker._waiting.get(conn.sock.fileno()))
    for _ in range(5):
        worker.wait_for_and_dispatch_events(0.05)
    assert conn.requests == 1 and worker._answers.held == conn.writer.held_bytes
    rest = b""
    for _ in range(3):
        _, body, rest = _take_answer(worker, client, rest)
        assert len(body) == BIG
    _turn(worker, lambda: conn.writer is None and conn.request is not None)
    assert conn.requests == 3 and worker._answers.held == 0


def test_an_answer_not_taken_by_the_deadline_closes_its_connection(worker):
    conn, client = _connect(worker)
    client.sendall(_big())
    _turn(worker, lambda: conn.writer is not None and worker._waiting.get(conn.sock.fileno()))
    worker._unwait(conn)
    worker._wait(conn, time.monotonic() - 1, worker._on_writable, selectors.EVENT_WRITE)
    worker.murder_pending()
    assert worker.nr_conns == 0 and not worker._waiting and worker._answers.held == 0
    assert len(_read_all(client)) < BIG  # what the kernel had taken, then the end


def test_past_the_budget_the_thread_sends_itself_and_gives_up_at_the_deadline(worker):
    """The answer bytes a worker holds are bounded: past the budget a thread sends the answer
    itself, as gthread did, but no longer than the deadline; then the connection closes."""
    worker._answers = AnswerBudget(1024)
    worker.request_deadline = 0.2
    conn, client = _connect(worker)
    client.sendall(_big())
    _turn(worker, lambda: worker.nr_conns == 0)
    assert conn.writer is None and worker._answers.held == 0 and not worker._waiting
    assert len(_read_all(client)) < BIG


def _answered(client: socket.socket) -> bool:
    """Whether an answer has begun to arrive (without waiting for one)."""
    readable, _, _ = select.select([client], [], [], 0)
    return bool(readable)


@pytest.fixture
def gate():
    _GATE.clear()
    yield _GATE
    _GATE.set()


def test_a_client_past_its_share_waits_its_turn_and_others_go_first(worker, gate):
    """``MAX_REQUESTS_PER_CLIENT``: a client's request beyond its share waits, whole, in the loop
    (no thread), while another client's request is answered at once; it goes to a thread as soon
    as one of its client's requests is done."""
    worker._shares = ClientShares(1)
    held, held_client = _connect(worker)
    held_client.sendall(b"GET /hold HTTP/1.1\r\nHost: x\r\n\r\n")
    _turn(worker, lambda: held.counted)
    queued, queued_client = _connect(worker)
    queued_client.sendall(GET)
    _turn(worker, lambda: worker._shares.waiting("127.0.0.1") == 1)
    assert queued.requests == 1 and not queued.counted
    other, other_client = _connect(worker, "127.0.0.9")
    other_client.sendall(GET)
    _turn(worker, lambda: other.requests == 1 and other.request is not None)
    assert other_client.recv(4096).startswith(b"HTTP/1.1 200 OK")
    assert not _answered(queued_client) and not _answered(held_client)
    gate.set()
    _turn(worker, lambda: queued.request is not None and held.request is not None)
    assert held_client.recv(4096).startswith(b"HTTP/1.1 200 OK")
    assert queued_client.recv(4096).startswith(b"HTTP/1.1 200 OK")
    assert worker._shares.answering("127.0.0.1") == 0 and worker._shares.waiting("127.0.0.1") == 0


def test_a_stream_stops_counting_toward_its_clients_share(worker, gate):
    """An ``/events`` stream holds its thread for as long as it lasts, under a cap of its own
    (``MAX_STREAMS_PER_CLIENT``): once it streams, its client's other requests go on."""
    worker._shares = ClientShares(1)
    stream, stream_client = _connect(worker)
    stream_client.sendall(b"GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
    _turn(worker, lambda: stream.requests == 1 and not stream.counted)
    conn, client = _connect(worker)
    client.sendall(GET)
    _turn(worker, lambda: conn.requests == 1 and conn.request is not None)
    assert client.recv(4096).startswith(b"HTTP/1.1 200 OK")
    assert not _answered(stream_client)
    gate.set()
    _turn(worker, lambda: stream.request is not None)
    assert worker._shares.answering("127.0.0.1") == 0


def test_client_shares_count_each_address_apart_and_keep_order():
    shares: ClientShares[str] = ClientShares(2)
    assert shares.admit("a", "a1") and shares.admit("a", "a2") and shares.admit("b", "b1")
    assert not shares.admit("a", "a3") and not shares.admit("a", "a4")
    assert (shares.answering("a"), shares.waiting("a")) == (2, 2)
    assert shares.done("a") == "a3" and shares.done("a") == "a4"  # in the order they came
    assert shares.done("a") is None and shares.done("a") is None and shares.done("b") is None
    assert shares.answering("a") == shares.answering("b") == 0
    unlimited: ClientShares[int] = ClientShares(0)
    assert all(unlimited.admit("a", n) for n in range(100))


def _post(path: str, size: int, sent: int | None = None) -> bytes:
    """A ``POST`` of a body of ``size`` bytes, the first ``sent`` of them (all by default)."""
    head = f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Length: {size}\r\n\r\n".encode()
    return head + b"b" * (size if sent is None else sent)


def _send_turning(worker: BufferedWorker, client: socket.socket, data: bytes) -> None:
    """Send ``data`` whole, turning the worker's loop whenever the socket's buffer is full."""
    view = memoryview(data)
    client.setblocking(False)
    try:
        for _ in range(10_000):
            if not view:
                return
            try:
                view = view[client.send(view) :]
            except BlockingIOError:
                worker.wait_for_and_dispatch_events(0.01)
    finally:
        client.settimeout(10)
    raise AssertionError(f"{len(view)} bytes not sent")


def test_past_its_share_of_bytes_a_clients_request_is_not_read_until_there_is_room(worker, gate):
    """The request bytes the worker holds for one address are bounded: past its share, its
    connection is not read (it waits, holding no more) while another client's requests are; once
    the address's earlier request is answered and its bytes given back, reading goes on."""
    worker._bytes = ByteShares(total=1_000_000, per_client=400_000)
    answering, answering_client = _connect(worker)
    answering_client.sendall(_post("/hold", 150_000))  # held while it is answered
    _turn(worker, lambda: answering.counted)
    big, big_client = _connect(worker)
    big_client.sendall(_post("/", 300_000, sent=200_000))  # 300,000 do not fit in 250,000
    _turn(worker, lambda: big.paused)
    assert big.holding < 200_000 and not big.reserved  # read no further than its head, or so
    assert worker._bytes.holding("127.0.0.1") <= 400_000
    other, other_client = _connect(worker, "127.0.0.9")  # another client is read and answered
    other_client.sendall(_post("/", 50_000))
    _turn(worker, lambda: other.requests == 1 and other.request is not None)
    assert _take_answer(worker, other_client)[1] == b"b" * 50_000
    assert big.paused and big.requests == 0
    gate.set()  # the earlier request is answered: its bytes come back, the big one is read on
    _turn(worker, lambda: not big.paused)
    assert big.reserved and big.holding > 300_000  # all of it, head and body, held at once
    _send_turning(worker, big_client, b"b" * 100_000)
    _, body, _ = _take_answer(worker, big_client)
    assert body == b"b" * 300_000
    _turn(worker, lambda: big.request is not None and answering.request is not None)
    assert worker._bytes.held == 0 and not worker._paused


def test_a_request_kept_waiting_for_room_gets_a_408_that_says_why(worker):
    worker._bytes = ByteShares(total=1_000_000, per_client=50_000)
    conn, client = _connect(worker)
    client.sendall(_post("/", 200_000, sent=150_000))  # more than the share could ever hold
    _turn(worker, lambda: conn.paused)
    past = time.monotonic() - 1
    conn.deadline = past
    heapq.heappush(worker._deadlines, (past, next(worker._order), conn))
    worker.murder_pending()
    head, _, body = client.recv(4096).partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408 ")
    detail = json.loads(body)["detail"]
    assert "REQUEST_DEADLINE_SECONDS" in detail and "as many request bytes as it may" in detail
    assert worker._bytes.held == 0 and not conn.paused


def test_byte_shares_count_each_address_and_always_allow_a_small_request():
    shares = ByteShares(total=100_000, per_client=40_000)
    assert shares.room("a", 0) == shares.free("a") == 40_000
    shares.take("a", 40_000)
    assert shares.room("a", 40_000) <= 0 and shares.room("a", 0) == SMALL_REQUEST
    assert shares.room("b", 0) == 40_000  # another address has its own share
    shares.take("b", 40_000)
    shares.take("c", 20_000)
    assert shares.room("d", 0) == SMALL_REQUEST and shares.room("d", SMALL_REQUEST) <= 0
    shares.give_back("a", 40_000)
    assert shares.room("d", SMALL_REQUEST) == 40_000 and shares.holding("a") == 0
    unlimited = ByteShares(total=100_000, per_client=0)
    unlimited.take("a", 90_000)
    assert unlimited.room("a", 90_000) == 10_000


def test_a_clients_share_of_bytes_holds_its_largest_request(worker):
    """A client's first request always fits its share: the longest head gunicorn accepts and the
    largest body, eight times over; the worker's share is 64 of them."""
    largest = largest_request(worker.cfg, worker.max_body)
    assert largest >= worker.max_body + worker.cfg.limit_request_line
    assert worker._bytes.per_client == 8 * largest and worker._bytes.total == 64 * largest


def test_past_its_share_of_connections_a_client_gets_a_429_and_is_closed(worker):
    """One address may hold ``WORKER_CONNECTIONS`` / 8 connections of a worker: one more is
    answered 429 ``too_many_connections`` and closed at once, holding no place; another address
    is accepted still, and a closed connection gives its place back."""
    worker._connections = ClientCounts(2)
    listener = socket.create_server(("127.0.0.1", 0))
    listener.setblocking(False)
    port = listener.getsockname()[1]
    try:
        clients = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(3)]
        other = socket.create_connection(
            ("127.0.0.1", port), timeout=10, source_address=("127.0.0.9", 0)
        )
        for _ in range(2):  # holding two, a worker takes one a call (ACCEPT_PAUSE_SECONDS)
            worker.accept(listener)
        assert worker.nr_conns == 3  # two from 127.0.0.1, one from 127.0.0.9
        assert worker._connections.held("127.0.0.1") == 2
        refused = _read_all(clients[2])
        head, _, body = refused.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 429 ") and b"Connection: close" in head
        problem = json.loads(body)
        assert problem["code"] == "too_many_connections" and problem["status"] == 429
        clients[0].close()  # the server notices at its next read, and closes its end
        _turn(worker, lambda: worker._connections.held("127.0.0.1") == 1)
        again = socket.create_connection(("127.0.0.1", port), timeout=10)
        _turn(worker, lambda: (worker.accept(listener), worker.nr_conns == 3)[1])
        assert worker._connections.held("127.0.0.1") == 2
        for sock in (*clients, other, again):
            sock.close()
    finally:
        listener.close()


def test_a_client_is_its_address_or_its_ipv6_64():
    assert client_key("203.0.113.7") == "203.0.113.7"
    assert (
        client_key("2001:db8:1:2:aaaa::1") == client_key("2001:db8:1:2::9") == "2001:db8:1:2::/64"
    )
    assert client_key("2001:db8:1:3::1") != client_key("2001:db8:1:2::1")
    assert client_key("::ffff:203.0.113.7") == "203.0.113.7"  # IPv4 seen through IPv6
    assert client_key("fe80::1%eth0") == "fe80::/64"
    assert client_key("") == client_key(None) == "unknown"
    assert client_key("not an address") == "not an address"


def test_connection_shares_count_each_client():
    shares = ClientCounts(2)
    assert shares.admit("a") and shares.admit("a") and not shares.admit("a")
    assert shares.admit("b") and shares.held("a") == 2
    shares.done("a")
    assert shares.admit("a") and not shares.admit("a")
    assert all(ClientCounts(0).admit("a") for _ in range(1000))


def test_holding_two_connections_a_worker_pauses_accepting_so_others_take_the_next(worker):
    """Connections opened together (a keep-alive pool) spread over the workers, which share one
    listening socket: once a worker holds two, it stops accepting for ACCEPT_PAUSE_SECONDS,
    leaving the next to an idle worker, and its loop waits no longer than the pause; then it
    takes them itself. Without the pause one worker took a whole pool of four in one round in
    five, and served it alone on one core. Holding more than ACCEPT_PAUSE_UP_TO, it takes a
    burst whole."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.setblocking(False)
    worker.sockets = [listener]
    port = listener.getsockname()[1]
    clients = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(4)]
    try:
        worker.set_accept_enabled(True)
        worker.accept(listener)
        assert worker.nr_conns == 2 and not worker._accepting
        worker.set_accept_enabled(True)  # gthread's loop asks at every turn: still paused
        assert not worker._accepting
        waited: list[float] = []
        select = worker.poller.select
        worker.poller.select = lambda timeout=None: (waited.append(timeout), select(timeout))[1]
        worker.wait_for_and_dispatch_events(1.0)
        assert 0 <= waited[0] <= ACCEPT_PAUSE_SECONDS
        worker.poller.select = select
        _turn(worker, lambda: (worker.set_accept_enabled(True), worker.nr_conns == 4)[1])
        worker.nr_conns += ACCEPT_PAUSE_UP_TO  # as if it held that many more: no pause
        clients += [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(3)]
        _turn(worker, lambda: (worker.set_accept_enabled(True), worker._accepting)[1])
        worker.accept(listener)
        assert worker.nr_conns == 4 + ACCEPT_PAUSE_UP_TO + 3 and worker._accepting
        worker.nr_conns -= ACCEPT_PAUSE_UP_TO
    finally:
        worker.set_accept_enabled(False)
        for sock in clients:
            sock.close()
        listener.close()


def test_a_worker_serves_with_what_it_built_at_its_start_frozen(worker, monkeypatch):
    """Its startup objects are left out of every garbage collection before its loop starts
    (``freeze_startup_heap``): a full collection that walked them paused the worker 25-40 ms."""
    frozen_at_loop: list[int] = []
    monkeypatch.setattr(
        ThreadWorker, "run", lambda self: frozen_at_loop.append(gc.get_freeze_count())
    )
    gc.unfreeze()  # this process is pytest's, not a worker's: nothing frozen before, or after
    try:
        worker.run()
        # the loop began with them frozen: everything this process held then
        assert frozen_at_loop and frozen_at_loop[0] > 10_000
    finally:
        gc.unfreeze()
