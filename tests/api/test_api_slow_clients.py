"""``reign-referee serve`` against slow and half-open clients (issue 23): a request that has not
arrived whole by ``REQUEST_DEADLINE_SECONDS`` gets 408 problem+json and its connection is
closed, a silent connection is closed without an answer, and stalled connections hold no
thread: ``/healthz`` answers while more of them are held than the worker has threads.

No timing is asserted beyond generous timeouts: the deadline is 2 s, each wait allows 30."""

from __future__ import annotations

import http.client
import json
import socket
import time

import pytest

from rules.bots import BOTS
from tests.bots.positions import positions
from tests.served import CHECKOUT, ROOT, free_port, referee_env, start_serve, stop

DEADLINE = 2
WAIT = 30.0
HEAD = b"POST /v1/games/reign-and-ruin/setup HTTP/1.1\r\nHost: x\r\n"
BODY = json.dumps({"players": ["a", "b"], "seed": 3}).encode()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One worker with 2 threads and no stream threads: 2 stalled connections would hold every
    thread of a worker that reads requests in its threads."""
    port = free_port()
    env = referee_env(
        REFEREE_DATA_DIR=str(tmp_path_factory.mktemp("slow-data")),
        REQUEST_DEADLINE_SECONDS=str(DEADLINE),
        MAX_STREAMS="0",
        LOG_LEVEL="warning",
        PYTHONPATH=str(ROOT),
    )
    log = tmp_path_factory.mktemp("slow-log") / "serve.log"
    args = ["--workers", "1", "--threads", "2"]
    proc = start_serve(port, args, env, log=log, command=CHECKOUT)
    yield {"port": port, "log": log}
    stop(proc, 20)


def _connect(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
    return sock


def _read_until_closed(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (a timeout fails the test)."""
    answer = b""
    while True:
        data = sock.recv(4096)
        if not data:
            return answer
        answer += data


def _assert_408(answer: bytes) -> None:
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408 "), answer
    assert b"Content-Type: application/problem+json" in head
    assert b"Connection: close" in head
    problem = json.loads(body)
    assert problem["status"] == 408 and problem["code"] == "request_timeout"
    assert "REQUEST_DEADLINE_SECONDS" in problem["detail"]


def _healthz(port: int) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT)
    try:
        conn.request("GET", "/healthz")
        return conn.getresponse().status
    finally:
        conn.close()


def test_a_connection_stalled_mid_headers_gets_408_and_is_closed(server):
    with _connect(server["port"]) as sock:
        sock.sendall(HEAD + b"Content-Type: appl")
        _assert_408(_read_until_closed(sock))


def test_a_connection_stalled_mid_body_gets_408_and_is_closed(server):
    with _connect(server["port"]) as sock:
        sock.sendall(HEAD + b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
        _assert_408(_read_until_closed(sock))


def test_a_trickling_connection_is_cut_off_at_the_deadline_though_it_sends(server):
    line = HEAD + b"X-Slow: " + b"a" * 4000
    with _connect(server["port"]) as sock:
        sock.settimeout(0.2)
        answer = b""
        for i in range(len(line)):
            try:
                sock.sendall(line[i : i + 1])
                data = sock.recv(4096)
            except TimeoutError:
                continue
            except OSError:  # reset while sending after the close: read what came
                break
            answer += data
            if not data or b"}" in answer:
                break
        sock.settimeout(WAIT)
        try:
            answer += _read_until_closed(sock)
        except OSError:
            pass
    _assert_408(answer)


def test_a_connection_that_sends_nothing_is_closed_without_an_answer(server):
    with _connect(server["port"]) as sock:
        assert _read_until_closed(sock) == b""


def test_stalled_connections_hold_no_thread(server):
    port = server["port"]
    held = [_connect(port) for _ in range(8)]  # 4x the worker's threads
    try:
        for i, sock in enumerate(held):
            sock.sendall(HEAD if i % 2 else HEAD + b"Content-Length: 50\r\n\r\n{")
        for _ in range(3):
            assert _healthz(port) == 200
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT)
        conn.request(
            "POST",
            "/v1/games/reign-and-ruin/setup",
            body=BODY,
            headers={"Content-Type": "application/json"},
        )
        assert conn.getresponse().status == 200
        conn.close()
        for sock in held:  # and each is closed at its deadline, with an answer
            _assert_408(_read_until_closed(sock))
    finally:
        for sock in held:
            sock.close()


def test_answers_not_read_hold_no_thread_and_are_cut_off_at_the_deadline(server):
    """Clients that ask for a large answer and never read it (each asks for the 928 KB spec
    four times) hold no thread: ``/healthz`` answers while more of them wait than the worker has
    threads, and each is closed once its answer has waited the deadline (``api.answer_writer``);
    before, they held every thread for as long as they stayed."""
    port = server["port"]
    ask = b"GET /openapi.yaml HTTP/1.1\r\nHost: x\r\n\r\n" * 4
    held = []
    try:
        for _ in range(8):  # 4x the worker's threads
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.settimeout(WAIT)
            sock.connect(("127.0.0.1", port))
            sock.sendall(ask)
            held.append(sock)
        for _ in range(3):
            assert _healthz(port) == 200
        time.sleep(DEADLINE + 1)  # not a measurement: the answers wait past the deadline
        for sock in held:  # each closed, its answers not all sent
            got = _read_until_closed(sock)
            assert got.startswith(b"HTTP/1.1 200 ") and len(got) < 4 * 900_000
    finally:
        for sock in held:
            sock.close()


def test_a_body_sent_in_pieces_within_the_deadline_is_served(server):
    with _connect(server["port"]) as sock:
        sock.sendall(HEAD + b"Content-Type: application/json\r\n")
        sock.sendall(b"Content-Length: %d\r\n\r\n" % len(BODY) + BODY[:5])
        sock.sendall(BODY[5:])
        head = _read_until_closed_or_answer(sock)
    assert head.startswith(b"HTTP/1.1 200 "), head


def _read_until_closed_or_answer(sock: socket.socket) -> bytes:
    answer = b""
    while b"\r\n\r\n" not in answer:
        data = sock.recv(4096)
        if not data:
            break
        answer += data
    return answer


def test_expect_100_continue_is_answered_before_the_body(server):
    with _connect(server["port"]) as sock:
        sock.sendall(
            HEAD + b"Content-Type: application/json\r\nExpect: 100-continue\r\n"
            b"Content-Length: %d\r\n\r\n" % len(BODY)
        )
        interim = _read_until_closed_or_answer(sock)
        assert interim == b"HTTP/1.1 100 Continue\r\n\r\n"
        sock.sendall(BODY)
        answer = _read_until_closed_or_answer(sock)
    assert answer.startswith(b"HTTP/1.1 200 "), answer  # one 100, then the answer


def test_pipelined_requests_on_a_kept_alive_connection_are_all_answered(server):
    one = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
    with _connect(server["port"]) as sock:
        sock.sendall(one + one + b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        answer = _read_until_closed(sock)
    assert answer.count(b"HTTP/1.1 200 OK") == 3, answer


def test_a_suggestion_counts_time_ms_from_the_requests_first_bytes(server):
    """The worker stamps when a request's first bytes arrived (``api.buffered_worker``), and the
    bot counts ``time_ms`` from there: a body sent 0.3 s after its head leaves a 50 ms greedy
    pass no time for a second move (``complete`` false, one move valued), where counting from
    when the app sees the request would have left it every move."""
    state = positions("reign-supreme", seed=6, every=15)[1]
    body = json.dumps(
        {"state": state, "player": state["active_players"][0], "level": "greedy", "time_ms": 50}
    ).encode()
    sock = _connect(server["port"])
    sock.sendall(
        b"POST /v1/games/reign-supreme/suggest HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
        b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body)
    )
    time.sleep(0.3)  # not a measurement: it makes the arrival older than time_ms
    sock.sendall(body)
    answer = _read_until_closed(sock)
    sock.close()
    head, _, got = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200 "), answer
    suggestion = json.loads(got)
    assert not suggestion["complete"]
    assert suggestion["playouts"] == BOTS["reign-supreme"].greedy_samples
