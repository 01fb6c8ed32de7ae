"""``reign-referee serve`` for real: gunicorn, the embedded Redis in the master, body limits
over a socket (Content-Length and chunked), and a clean stop; and gunicorn run by hand with
serve's settings (``api.gunicorn_conf``)."""

from __future__ import annotations

import http.client
import json
import re
import select
import signal
import socket
import time

import pytest
import redis

from tests.served import (
    CHECKOUT,
    GUNICORN,
    ROOT,
    free_port,
    referee_env,
    start_serve,
    start_server,
    stop,
)

LIMIT = 64 * 1024
"""The served MAX_BODY_BYTES: a multiple of the app's 64 KiB reads, as the default 1 MiB is, so
that its last read of a body over the limit asks for the one byte past it (``api.games``)."""
SETUP = (
    b"POST /v1/games/reign-and-ruin/setup HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
)
CHUNKED = SETUP + b"Transfer-Encoding: chunked\r\n\r\n"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    port = free_port()
    data = tmp_path_factory.mktemp("serve-data")
    env = referee_env(
        REFEREE_DATA_DIR=str(data),
        MAX_BODY_BYTES=str(LIMIT),
        LOG_LEVEL="warning",
        PYTHONPATH=str(ROOT),
    )
    log = tmp_path_factory.mktemp("serve-log") / "serve.log"
    args = ["--workers", "2", "--threads", "2"]
    proc = start_serve(port, args, env, log=log, command=CHECKOUT)
    yield {"port": port, "proc": proc, "log": log, "data": data}
    stop(proc)


def _request(port, method, path, body=None, headers=None, chunks=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    if chunks is not None:
        conn.putrequest(method, path)
        for k, v in (headers or {}).items():
            conn.putheader(k, v)
        conn.putheader("Transfer-Encoding", "chunked")
        conn.endheaders()
        try:
            for chunk in chunks:
                conn.send(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            conn.send(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server may answer and stop reading early
    else:
        conn.request(method, path, body=body, headers=headers or {})
    resp = conn.getresponse()
    data = resp.read()
    conn.close()
    return resp.status, resp.getheader("Content-Type"), data


def test_ready_with_one_embedded_redis(server):
    status, ctype, data = _request(server["port"], "GET", "/readyz")
    assert status == 200, data
    assert json.loads(data) == {"status": "ready", "store": "ok"}
    assert (
        server["data"] / "redis.pid"
    ).exists()  # api.embedded: the server of this data directory


def test_stateless_over_http(server):
    body = json.dumps({"players": ["a", "b"], "seed": 3}).encode()
    status, ctype, data = _request(
        server["port"],
        "POST",
        "/v1/games/reign-and-ruin/setup",
        body,
        {"Content-Type": "application/json"},
    )
    assert status == 200 and ctype == "application/json"
    assert json.loads(data)["state"]["seed"] == 3


def test_body_over_limit_with_content_length_is_413(server):
    body = b'{"players": ["' + b"a" * (2 * LIMIT) + b'"]}'
    status, ctype, data = _request(
        server["port"],
        "POST",
        "/v1/games/reign-and-ruin/setup",
        body,
        {"Content-Type": "application/json"},
    )
    assert status == 413 and ctype == "application/problem+json"
    assert json.loads(data)["code"] == "payload_too_large"


def test_chunked_body_over_limit_is_413(server):
    chunks = [b'{"players": ["'] + [b"a" * 1000] * (LIMIT // 1000 + 30) + [b'"]}']
    status, ctype, data = _request(
        server["port"],
        "POST",
        "/v1/games/reign-and-ruin/setup",
        headers={"Content-Type": "application/json"},
        chunks=chunks,
    )
    assert status == 413 and ctype == "application/problem+json", data


def _assert_413_closing(status: int, headers: dict[str, str], body: bytes) -> None:
    """The contract's 413, naming the limit, on a connection the server then closes."""
    assert status == 413 and headers["content-type"] == "application/problem+json", body
    assert headers["connection"] == "close"
    problem = json.loads(body)
    assert problem["code"] == "payload_too_large" and str(LIMIT) in problem["detail"]


@pytest.mark.parametrize("size", [LIMIT + 1, 3 * LIMIT])
def test_one_chunk_over_limit_sent_at_once_is_413(server, size):
    """The worker once handed on such a chunk without its CRLF, and gunicorn's reader raised
    when the app read the byte past the limit: 400 "could not be read in full"."""
    body = b"%x\r\n" % size + b"a" * size + b"\r\n0\r\n\r\n"
    _assert_413_closing(*_raw(server["port"], CHUNKED + body))


def _readable(sock: socket.socket) -> bool:
    return bool(select.select([sock], [], [], 0)[0])


def test_one_chunk_over_limit_written_in_small_writes_is_413(server):
    """A client on a slow link: the worker refuses the body a few bytes past the limit, in the
    middle of its chunk (handed on as it came, that chunk cut short made gunicorn's reader raise:
    400). The short pauses only spread the writes out; any timing gets the same answer."""
    size = 3 * LIMIT
    with socket.create_connection(("127.0.0.1", server["port"]), timeout=60) as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sent = LIMIT - 4096
        sock.sendall(CHUNKED + b"%x\r\n" % size + b"a" * sent)
        try:
            while sent < size and not _readable(sock):
                sock.sendall(b"a" * 64)
                sent += 64
                time.sleep(0.001)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server answered and stopped reading
        answer = _answer(sock)
    _assert_413_closing(*answer)


@pytest.mark.parametrize(
    "rest", [b"\r\n" + b"{" * 1000, b"Expect: 100-continue\r\n\r\n"], ids=["body", "expect"]
)
def test_a_body_refused_for_its_size_is_answered_connection_close(server, rest):
    """The connection closes after the 413 with the body unread: the answer says so, or a client
    would send its next request on it and lose it (it said keep-alive)."""
    with socket.create_connection(("127.0.0.1", server["port"]), timeout=60) as sock:
        sock.sendall(SETUP + b"Content-Length: %d\r\n" % (2 * LIMIT) + rest)
        answer = _answer(sock)  # until the server closes the connection
    _assert_413_closing(*answer)


def test_a_transfer_coding_but_chunked_is_501(server):
    """gunicorn passes gzip, deflate and compress before chunked, and reads the chunks only: the
    app refuses the coding it would not decode (RFC 9112 section 6.1), not misreads the body."""
    body = json.dumps({"players": ["a", "b"], "seed": 4}).encode()
    coded = SETUP + b"Transfer-Encoding: gzip, chunked\r\n\r\n"
    status, headers, answer = _raw(
        server["port"], coded + b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
    )
    assert status == 501 and headers["content-type"] == "application/problem+json", answer
    problem = json.loads(answer)
    assert problem["code"] == "not_implemented" and "Transfer-Encoding" in problem["detail"]
    assert headers["connection"] == "close"


def test_chunked_body_within_limit_is_read_whole(server):
    text = json.dumps({"players": ["a", "b"], "seed": 4}).encode()
    chunks = [text[i : i + 5] for i in range(0, len(text), 5)]
    status, _, data = _request(
        server["port"],
        "POST",
        "/v1/games/reign-and-ruin/setup",
        headers={"Content-Type": "application/json"},
        chunks=chunks,
    )
    assert status == 200, data
    assert json.loads(data)["state"]["seed"] == 4


@pytest.mark.parametrize(
    "body", [b"zz\r\nabc\r\n0\r\n\r\n", b'5\r\n{"pla', b"3\r\nabcdef\r\n0\r\n\r\n"]
)
def test_broken_chunked_encoding_is_400_not_500(server, body):
    with socket.create_connection(("127.0.0.1", server["port"]), timeout=60) as sock:
        sock.sendall(
            b"POST /v1/games/reign-and-ruin/setup HTTP/1.1\r\nHost: x\r\n"
            b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n" + body
        )
        sock.shutdown(socket.SHUT_WR)
        answer = b""
        while b"\r\n\r\n" not in answer:
            data = sock.recv(4096)
            if not data:
                break
            answer += data
    head = answer.split(b"\r\n\r\n")[0].decode()
    assert head.startswith("HTTP/1.1 400"), head
    assert "application/problem+json" in head
    assert "\r\nConnection: close\r\n" in head  # the rest of the request is not read


def _answer(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """Read until the server closes the connection; the answer's status, headers (names in
    lower case) and body."""
    answer = b""
    while chunk := sock.recv(65536):
        answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers, body


def _raw(port: int, data: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send raw bytes; return the status, headers and body of the answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
        sock.sendall(data)
        return _answer(sock)


@pytest.mark.parametrize(
    "raw, status, code",
    [
        (b"GET /healthz?" + b"x" * 5000 + b" HTTP/1.1\r\nHost: a\r\n\r\n", 414, "uri_too_long"),
        (
            b"GET /healthz HTTP/1.1\r\nHost: a\r\nX-Big: " + b"x" * 20_000 + b"\r\n\r\n",
            431,
            "request_header_fields_too_large",
        ),
        (
            b"GET /healthz HTTP/1.1\r\n"
            + b"".join(b"X-%d: y\r\n" % i for i in range(150))
            + b"\r\n",
            431,
            "request_header_fields_too_large",
        ),
        (
            b"POST /v1/games/reign-and-ruin/setup HTTP/1.1\r\n"
            b"Host: a\r\n"
            b"Content-Length: -1\r\n"
            b"\r\n",
            400,
            "bad_request",
        ),
        (
            b"POST /v1/games/reign-and-ruin/setup HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            400,
            "bad_request",
        ),
        (b"\x16\x03garbage / HTTP/9\r\n\r\n", 400, "bad_request"),
    ],
)
def test_errors_gunicorn_answers_itself_are_problem_json(server, raw, status, code):
    got, headers, body = _raw(server["port"], raw)
    assert got == status and headers["content-type"] == "application/problem+json", body
    problem = json.loads(body)
    assert problem["status"] == status and problem["code"] == code and problem["detail"]
    assert problem["type"].endswith(code.replace("_", "-"))


def test_gunicorn_by_hand_with_the_config_module_serves_more_streams_than_workers(tmp_path):
    """README, "Installing without the source tree": ``gunicorn -c python:api.gunicorn_conf
    wsgi:app`` runs as serve does. One worker (no ``REDIS_URL``: its own embedded Redis) holds
    more ``/events`` streams than it has workers and still answers everything else (gunicorn's
    sync worker, plain ``gunicorn wsgi:app``, froze with one stream a worker)."""
    port = free_port()
    env = referee_env(
        REFEREE_DATA_DIR=str(tmp_path / "data"),
        PORT=str(port),  # the config module binds HOST:PORT, as serve does
        WEB_CONCURRENCY="1",
        HEARTBEAT_SECONDS="1",
        LOG_LEVEL="info",
        PYTHONPATH=str(ROOT),
    )
    log = tmp_path / "gunicorn.log"
    argv = [GUNICORN, "-c", "python:api.gunicorn_conf", "wsgi:app"]
    proc = start_server(argv, port, env, log=log)
    streams: list[tuple[http.client.HTTPConnection, http.client.HTTPResponse]] = []
    try:
        body = json.dumps({"game": "reign-and-ruin", "players": ["ann", "bob"]}).encode()
        status, _, created = _request(
            port, "POST", "/v1/sessions", body, {"Content-Type": "application/json"}
        )
        assert status == 201, created
        created = json.loads(created)
        path, ann = f"/v1/sessions/{created['session_id']}", created["seats"]["ann"]
        for _ in range(3):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            conn.request("GET", path + "/events")
            stream = conn.getresponse()
            assert stream.status == 200 and stream.readline() == b"retry: 2000\n"
            streams.append((conn, stream))
        assert _request(port, "GET", "/healthz")[0] == 200
        seat = {"Authorization": f"Bearer {ann}", "Content-Type": "application/json"}
        status, _, moves = _request(port, "GET", path + "/legal-moves", headers=seat)
        assert status == 200, moves
        move = json.dumps({"move": json.loads(moves)["moves"][0]}).encode()
        assert _request(port, "POST", path + "/moves", move, seat)[0] == 200
        # Every stream is live and gets the move (a sync worker stuck in a stream is killed
        # after its 30 s timeout and another boots: the service answers again, its stream cut).
        for _, stream in streams:
            assert any(line == b"id: 1\n" for line in iter(stream.readline, b""))
        assert "Using worker: api.buffered_worker.BufferedWorker" in log.read_text()
    finally:
        for conn, _ in streams:
            conn.close()
        stop(proc)


def test_stop_saves_and_stops_the_embedded_redis(server):
    """Last: SIGTERM stops gunicorn and the embedded Redis it started."""
    port, proc = server["port"], server["proc"]
    _request(port, "GET", "/readyz")
    socket_path = re.search(r"unix://(\S+)", server["log"].read_text()).group(1)
    client = redis.Redis(unix_socket_path=socket_path)
    assert client.ping()
    client.set("referee:serve-test", "kept")
    client.close()
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=30) == 0, server["log"].read_text()
    with pytest.raises(redis.ConnectionError):
        redis.Redis(unix_socket_path=socket_path, socket_connect_timeout=1).ping()
    assert (server["data"] / "referee.rdb").exists()
    assert not (server["data"] / "redis.pid").exists()  # Redis removes it when it stops cleanly
