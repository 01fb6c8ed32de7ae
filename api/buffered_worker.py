"""The worker ``serve`` runs: gthread whose main loop buffers each request whole before a thread
sees it, with a deadline (issue 23: slow and half-open clients cannot starve the service).

gunicorn's gthread hands a connection to a pool thread as soon as its first byte arrives, and the
thread then reads the head and body with blocking reads. A client that sends part of a request
and waits (or trickles a byte a second) holds that thread for as long as it likes: about 150
such connections held every thread of the service and ``/healthz`` timed out. gunicorn's docs
say the threaded and sync workers need a buffering proxy in front for this ("Behind a proxy",
slowloris); :class:`BufferedWorker` puts that buffering inside the worker, as nginx would do it:

- The main loop (one ``selectors`` poller, epoll on Linux) reads every waiting connection
  without blocking and gathers its bytes in an ``api.request_buffer.RequestBuffer``. A stalled
  connection costs a file descriptor and the bytes it sent; never a thread.
- Only a whole request (head and body, as framed by ``Content-Length`` or chunked) goes to the
  thread pool, with a parser that reads from those bytes, never from the socket: a thread never
  waits for a client's bytes. A head gunicorn refuses, or a body over ``MAX_BODY_BYTES``, goes
  at once and gunicorn or the app answers as before (problem+json, ``api.worker``); the
  connection is then closed, and the answer says ``Connection: close``.
- Each request must arrive whole within ``REQUEST_DEADLINE_SECONDS`` of the connection opening
  (a new connection) or of its first byte (a kept-alive connection, which otherwise waits
  ``keepalive`` seconds for one, as gthread does). Past it, a started request is answered 408
  ``request_timeout`` problem+json and the connection closed; a connection that sent nothing
  is closed without an answer. ``Expect: 100-continue`` is answered from the loop once the head
  is in, so such clients send their body.
- An answer is written without waiting for the client (``api.answer_writer``): what it does not
  take at once is sent by the main loop as it reads, within the same deadline.
- Each client address has a share of the worker (``api.client_shares``): of its threads (its
  requests beyond ``MAX_REQUESTS_PER_CLIENT`` wait their turn in the loop) and of the request
  bytes it holds (past its room a connection is not read until bytes are given back).
- Each request carries the time its first bytes were read (``environ[api.worker.ARRIVED]``), so
  that the app can count a deadline from the request's arrival rather than from when a thread
  took it (a bot's ``time_ms``: ``api.bots``).
- Closing after an answer lingers without blocking (RFC 9112 section 9.6: half-close, drain
  what the client still sends, up to 2 s), where gthread's ``close_graceful`` would block the
  main loop for up to 2 s per connection.

Plain HTTP/1.x only: with TLS or HTTP/2 configured (``serve`` configures neither), the worker
falls back to gthread's handling of each connection.
"""

from __future__ import annotations

import collections
import errno
import gc
import heapq
import itertools
import resource
import selectors
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

from gunicorn import http
from gunicorn.http.unreader import IterUnreader

# types-gunicorn describes an older gunicorn: 27's gthread has STOP_KEEPALIVE_LINGER and
# murder_keepalived(force), and get_parser may also give HTTP/2 or uWSGI parsers (never here).
from gunicorn.workers.gthread import STOP_KEEPALIVE_LINGER, TConn  # type: ignore[attr-defined]

from api.answer_writer import ANSWER_BUDGET_BYTES, AnswerBudget, AnswerWriter
from api.client_shares import (
    SMALL_REQUEST,
    ByteShares,
    ClientCounts,
    ClientShares,
    client_key,
)
from api.config import Settings
from api.request_buffer import MORE, REFUSED, WHOLE, RequestBuffer
from api.worker import ARRIVED, STREAMING, ProblemWorker, problem_message

__all__ = [
    "BufferedWorker",
    "BufferedConn",
    "gathered_unreader",
    "raise_open_files_limit",
    "LINGER_SECONDS",
    "GATHERED_PIECE",
    "largest_request",
    "freeze_startup_heap",
]

LINGER_SECONDS = 2.0
"""How long a connection closed after an answer drains what the client still sends, so that
the kernel does not reset the connection before the client reads the answer."""
_READ_SIZE = 65536
_MAX_READ_PER_EVENT = 4 * _READ_SIZE  # fairness: one busy client cannot hold the loop
_ACCEPTS_PER_EVENT = 64
ACCEPT_PAUSE_SECONDS = 0.0005
ACCEPT_PAUSE_UP_TO = 8
"""After taking a connection that leaves it holding 2 to ``ACCEPT_PAUSE_UP_TO`` connections, a
worker stops accepting for ``ACCEPT_PAUSE_SECONDS``, so that a few connections opened together
(a client's keep-alive pool, a proxy's upstream connections) spread over the workers, which
share one listening socket: the others, idle, take the next ones. Without it the worker awake
first took a whole pool of four in about one round in five, and served it alone on one core at
less than half the service's rate. Holding more, it takes a burst whole (up to 64 a turn of its
loop): paused at every connection, a worker busy with a burst of 100 took one a turn, and a
request behind the burst waited 300 ms."""
_EXPIRE_PER_TURN = 64
_CONTINUE = b"HTTP/1.1 100 Continue\r\n\r\n"
REQUEST_BYTES_PER_WORKER = 64
"""Request bytes a worker holds for everyone, in largest requests (:func:`largest_request`;
``api.client_shares.ByteShares``)."""
REQUEST_BYTES_PER_CLIENT = 8
"""Request bytes a worker holds for one client address, in largest requests: at least one, so a
client's first request always fits."""
CONNECTIONS_PER_CLIENT_SHARE = 8
"""One client address holds at most ``WORKER_CONNECTIONS`` over this many connections of a worker
(512 by default; ``api.client_shares.ClientCounts``)."""
GATHERED_PIECE = 8192
"""The most bytes of a gathered request gunicorn's parser is handed at once, as a socket read of
its own would give it (``gunicorn.http.unreader.SocketUnreader``'s 8 KiB). Its chunked-body reader
copies everything it holds past each chunk's header: handed a whole 1 MB body of one-byte chunks
at once, it copied the rest of the body a million times (a request of 200 KB so took 455 s of a
thread; :func:`gathered_unreader`)."""
GIL_SWITCH_INTERVAL = 0.001
"""Seconds a CPU-bound thread (a bot search, a long rules call) keeps the GIL while another
thread of the worker waits for it (``sys.setswitchinterval``; Python's default is 0.005). Every
request crosses the GIL a dozen times (accept, recv, send, Redis...), so with a search running
each crossing waited up to 5 ms: a 1 s ``suggest`` added 30-50 ms to the p99 of ``/healthz`` in
the same worker. 1 ms cuts that fivefold for a few hundred more switches a second."""


def freeze_startup_heap() -> None:
    """Leave what the worker built before serving out of every garbage collection from now on.

    The modules, the app, its spec and the rules' tables are some 64,000 objects that live as long
    as the worker. Each of Python's full collections walked them all again: 25 to 40 ms on the
    bench's machine, a pause of every request the worker held. A few came every 10,000 requests,
    and they made Reign Supreme's and the Council's p99 16 to 29 ms where the echo's was 3 to 11 ms
    (issue 28). Frozen (``gc.freeze``, once what is already garbage is collected), they are never
    walked again: a full collection walks only what the requests built since, in under 1 ms."""
    gc.collect()
    gc.freeze()


def largest_request(cfg: Any, max_body: int) -> int:
    """The most bytes a request with a body of known length may take: the longest head gunicorn
    accepts (request line, then every header at its longest) and ``max_body``."""
    line = cfg.limit_request_line or 8190  # 0 is "no limit" to gunicorn: its default then
    fields = (cfg.limit_request_fields or 100) * ((cfg.limit_request_field_size or 8190) + 2)
    return line + 2 + fields + 2 + max_body


def raise_open_files_limit(wanted: int) -> int:
    """Raise this process's soft limit of open files to ``wanted`` (at most the hard limit), so
    a worker can hold ``worker_connections`` sockets; return the soft limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if target > soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            return target
        except (ValueError, OSError):
            return soft
    return soft


_handling = threading.local()
"""The arrival of the request a pool thread is handling, and the function that stops it counting
toward its client's share (``BufferedWorker.handle_request``), for the app wrapper that puts them
in the environ gunicorn builds in that thread."""


def _with_arrival(app: Callable[..., Iterable[bytes]]) -> Callable[..., Iterable[bytes]]:
    def stamped(environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        arrived = getattr(_handling, "arrived", None)
        if arrived is not None:
            environ[ARRIVED] = arrived
        streaming = getattr(_handling, "streaming", None)
        if streaming is not None:
            environ[STREAMING] = streaming
        return app(environ, start_response)

    return stamped


def gathered_unreader(data: bytes) -> IterUnreader:
    """gunicorn's reader of a request gathered whole: ``data`` in pieces of at most
    :data:`GATHERED_PIECE` bytes, so that parsing a chunked body costs time in proportion to its
    length, not to its length times its number of chunks."""
    return IterUnreader(
        data[at : at + GATHERED_PIECE] for at in range(0, len(data), GATHERED_PIECE)
    )


def _address(conn: Any) -> Any:
    """The client's address, for the log."""
    return conn.client[0] if isinstance(conn.client, tuple) else conn.client


class BufferedConn(TConn):
    """A gthread connection, with the request being gathered, its deadline, and when its first
    bytes were read (``arrived``; None until then)."""

    def __init__(self, cfg: Any, sock: Any, client: Any, server: Any) -> None:
        super().__init__(cfg, sock, client, server)
        self.request: RequestBuffer | None = None
        self.arrived: float | None = None
        self.deadline = 0.0
        self.idle = False  # kept alive, waiting for the first byte of its next request
        self.continued = False  # "100 Continue" sent for the request being gathered
        self.close_after = False  # the request was handed on refused: close after the answer
        self.requests = 0
        self.client_key = client_key(_address(self))  # the client it counts for (shares)
        self.writer: AnswerWriter | None = None  # the answer being written, and what it holds
        self.counted = False  # its request counts toward its client's share (api.client_shares)
        self.holding = 0  # the bytes of its request the worker holds (ByteShares)
        self.reserved = False  # its request's bytes are held whole (a body of known length)
        self.paused = False  # not read until the worker holds fewer bytes (ByteShares)
        self.keep_alive = False  # whether to keep the connection once its answer is out


class BufferedWorker(ProblemWorker):
    """gthread, problem+json errors (``api.worker.ProblemWorker``), whole requests only."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        settings = Settings.from_env()
        self.request_deadline = float(settings.request_deadline)
        self.max_body = settings.max_body_bytes
        self.buffering = not self.cfg.is_ssl and "h2" not in getattr(
            self.cfg, "http_protocols", ["h1"]
        )
        self._deadlines: list[tuple[float, int, BufferedConn]] = []
        self._order = itertools.count()
        self._waiting: dict[int, BufferedConn] = {}  # fd -> gathering, writing or lingering
        self._answers = AnswerBudget(ANSWER_BUDGET_BYTES)
        self._shares: ClientShares[BufferedConn] = ClientShares(settings.max_requests_per_client)
        largest = largest_request(self.cfg, self.max_body)
        self._bytes = ByteShares(
            REQUEST_BYTES_PER_WORKER * largest,
            REQUEST_BYTES_PER_CLIENT * largest if settings.max_requests_per_client else 0,
        )
        self._paused: dict[str, collections.deque[BufferedConn]] = {}  # by client address
        self._connections = ClientCounts(
            self.worker_connections // CONNECTIONS_PER_CLIENT_SHARE
            if settings.max_requests_per_client
            else 0
        )
        self._capped = False
        self._accepts_resume = 0.0  # accepting paused until then (ACCEPT_PAUSE_SECONDS)

    def load_wsgi(self) -> None:
        super().load_wsgi()
        self.wsgi = _with_arrival(self.wsgi)

    def init_process(self) -> None:
        # one descriptor per connection, plus the listeners, Redis, logs and the poller
        raise_open_files_limit(self.worker_connections + 256)
        sys.setswitchinterval(GIL_SWITCH_INTERVAL)
        super().init_process()

    def run(self) -> None:
        freeze_startup_heap()  # the app is loaded and the hooks have run: the worker is built
        super().run()

    # -- connections arrive -------------------------------------------------------------------
    def accept(self, listener: Any) -> None:
        if not self.buffering:
            super().accept(listener)
            return
        # Several at a time: a burst of connections (1,000 slow clients, say) is taken in a few
        # turns of the loop; but holding 2 to ACCEPT_PAUSE_UP_TO, a worker pauses after each, so
        # that a few connections opened together spread over the workers.
        for _ in range(_ACCEPTS_PER_EVENT):
            if self.nr_conns >= self.worker_connections:
                return
            try:
                client_sock, client_addr = listener.accept()
            except OSError as e:
                if e.errno not in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                    raise
                return
            conn = BufferedConn(self.cfg, client_sock, client_addr, listener.getsockname())
            if not self._connections.admit(conn.client_key):
                self._refuse_connection(conn)
                continue
            self.nr_conns += 1
            now = time.monotonic()
            self._gather(conn, b"", now + self.request_deadline, idle=False)
            if 1 < self.nr_conns <= ACCEPT_PAUSE_UP_TO:
                self._accepts_resume = now + ACCEPT_PAUSE_SECONDS
                self.set_accept_enabled(False)
                return

    def set_accept_enabled(self, enabled: bool | None) -> None:
        """gthread's, but accepting stays off while paused (``ACCEPT_PAUSE_SECONDS``): gthread's
        loop enables it again at its next turn, which is then the first turn after the pause."""
        if enabled and time.monotonic() < self._accepts_resume:
            return
        super().set_accept_enabled(enabled)

    def _refuse_connection(self, conn: BufferedConn) -> None:
        """A connection past its client's share: a 429 if the socket takes it now, then closed
        at once (it holds no place: lingering would let the client fill the worker again)."""
        detail = (
            f"This client address holds {self._connections.per_client} connections to this "
            "server process, the most one address may. Reuse them (keep-alive) or close some, "
            "then retry."
        )
        self._send_quietly(
            conn,
            problem_message(429, "Too Many Requests", detail, code="too_many_connections"),
        )
        try:
            conn.sock.close()
        except OSError:
            pass

    def _gather(self, conn: BufferedConn, held: bytes, deadline: float, idle: bool) -> None:
        """Start gathering the connection's next request from ``held`` (bytes already read)."""
        conn.request = RequestBuffer(self.cfg, conn.client, self.max_body, conn.requests + 1)
        # Bytes already held (read with the previous request) arrived no later than now.
        conn.arrived = time.monotonic() if held else None
        conn.continued = False
        conn.idle = idle and not held
        conn.reserved = False
        self._hold(conn, len(held))
        if held and conn.request.feed(held) != MORE:
            self._hand_on(conn)
            return
        conn.sock.setblocking(False)
        self._wait(conn, deadline, self._on_readable)

    def _wait(
        self,
        conn: BufferedConn,
        deadline: float,
        callback: Any,
        events: int = selectors.EVENT_READ,
    ) -> None:
        conn.deadline = deadline
        heapq.heappush(self._deadlines, (deadline, next(self._order), conn))
        self._waiting[conn.sock.fileno()] = conn
        self.poller.register(conn.sock, events, partial(self._guard, callback, conn))

    def _guard(self, callback: Any, conn: BufferedConn, sock: Any) -> None:
        """Run a connection's callback; whatever it raises ends that connection, never the
        loop (gthread lets a callback's exception end the worker)."""
        try:
            callback(conn, sock)
        except Exception:
            self.log.exception("Error on a connection from %s", conn.client)
            self._drop(conn)

    def _unwait(self, conn: BufferedConn) -> None:
        self._waiting.pop(conn.sock.fileno(), None)
        conn.deadline = 0.0  # its heap entries are stale now
        conn.paused = False  # its entry in _paused too
        try:
            self.poller.unregister(conn.sock)
        except (KeyError, ValueError, OSError):
            pass

    def _on_readable(self, conn: BufferedConn, _sock: Any) -> None:
        """Read what the client sent, without blocking; hand the request on once whole."""
        request = conn.request
        assert request is not None
        got = 0
        address = conn.client_key
        try:
            while got < _MAX_READ_PER_EVENT:
                size = self._readable(conn, request, address)
                if size <= 0:
                    self._pause(conn, address)
                    return
                data = conn.sock.recv(size)
                if not data:
                    # The client sent all it will (it may still read: a half-close). What
                    # came goes on as it is, and gunicorn or the app answers as if the bytes
                    # had been read in the thread (a truncated body: 400); nothing: close.
                    self._unwait(conn)
                    if request.started:
                        request.verdict = REFUSED
                        self._hand_on(conn)
                    else:
                        self._close(conn)
                    return
                got += len(data)
                if conn.arrived is None:  # the request's first bytes: it has arrived
                    conn.arrived = time.monotonic()
                if conn.idle:  # the first byte of a kept-alive connection's next request
                    conn.idle = False
                    self._unwait(conn)
                    self._wait(conn, time.monotonic() + self.request_deadline, self._on_readable)
                verdict = request.feed(data)
                self._hold(conn, len(request.data) - conn.holding)  # beyond what it reserved
                if verdict != MORE:
                    self._unwait(conn)
                    self._hand_on(conn)
                    return
        except (BlockingIOError, InterruptedError):
            pass
        except OSError:
            self._drop(conn)
            return
        if request.waits_for_body and request.expects_continue and not conn.continued:
            conn.continued = True
            self._send_quietly(conn, _CONTINUE)

    def _hand_on(self, conn: BufferedConn) -> None:
        """Give a whole (or refused) request to the thread pool, with a parser that reads the
        gathered bytes only."""
        request = conn.request
        assert request is not None
        conn.close_after = request.verdict != WHOLE
        if conn.parser is None:
            conn.parser = http.get_parser(self.cfg, iter(()), conn.client)
        conn.parser.unreader = gathered_unreader(request.gathered())  # type: ignore[union-attr]
        conn.requests += 1
        conn.request = None
        conn.data_ready = True  # gthread's handle() must not wait for data again
        conn.sock.setblocking(True)
        if self._shares.admit(conn.client_key, conn):
            self._answer(conn)
        # else it waits, whole, for one of its client's requests to be done (_done_counting)

    def _answer(self, conn: BufferedConn) -> None:
        conn.counted = True
        self.enqueue_req(conn)

    def _done_counting(self, conn: BufferedConn) -> None:
        """The connection's request no longer counts toward its client's share (answered, or
        streaming): the client's next waiting request, if any, goes to a thread."""
        if not conn.counted:
            return
        conn.counted = False
        waiting = self._shares.done(conn.client_key)
        if waiting is not None:
            self._answer(waiting)

    # -- the request bytes held (api.client_shares.ByteShares) --------------------------------
    def _readable(self, conn: BufferedConn, request: RequestBuffer, address: str) -> int:
        """How many bytes to read from ``conn`` now; 0 or less: none until there is room.

        A body of known length is taken whole or not at all: once the head is in, the whole
        request's bytes are reserved if there is room for them (a request of at most
        ``SMALL_REQUEST`` bytes always), so that connections that have each read part of their
        bodies never wait for each other; otherwise (the head, a chunked body) as far as there
        is room."""
        if not conn.reserved and request.head_end is not None and request.length is not None:
            size = request.head_end + request.length
            need = size - conn.holding
            if need > 0 and size > SMALL_REQUEST and self._bytes.free(address) < need:
                return 0
            self._hold(conn, need)
            conn.reserved = True
        if conn.reserved:
            return _READ_SIZE
        return min(_READ_SIZE, self._bytes.room(address, conn.holding))

    def _hold(self, conn: BufferedConn, size: int) -> None:
        if size > 0:
            conn.holding += size
            self._bytes.take(conn.client_key, size)

    def _let_go(self, conn: Any) -> None:
        """The connection's request is answered (or gone): its bytes are given back, and the
        connections that waited for room are read again, as far as there is room."""
        holding = getattr(conn, "holding", 0)
        if not holding:
            return
        conn.holding = 0
        self._bytes.give_back(conn.client_key, holding)
        self._resume()

    def _pause(self, conn: BufferedConn, address: str) -> None:
        """Stop reading ``conn`` until there is room (its deadline still runs)."""
        try:
            self.poller.unregister(conn.sock)
        except (KeyError, ValueError, OSError):
            pass
        conn.paused = True
        self._paused.setdefault(address, collections.deque()).append(conn)

    def _resume(self) -> None:
        """Read again, in the order they stopped, the paused connections there is room for."""
        for address in list(self._paused):
            waiting = self._paused[address]
            while waiting:
                conn = waiting[0]
                if not conn.paused or self._waiting.get(conn.sock.fileno()) is not conn:
                    waiting.popleft()  # it has moved on (expired, closed)
                    continue
                assert conn.request is not None
                if self._readable(conn, conn.request, address) <= 0:
                    break  # the first in line waits, and those after it
                waiting.popleft()
                conn.paused = False
                self.poller.register(
                    conn.sock, selectors.EVENT_READ, partial(self._guard, self._on_readable, conn)
                )
            if not waiting:
                del self._paused[address]

    # -- in the thread --------------------------------------------------------------------
    def handle_request(self, req: Any, conn: Any) -> bool:
        if getattr(conn, "continued", False) or getattr(conn, "close_after", False):
            # "100 Continue" was sent from the loop already, or the answer is a refusal the
            # client should not send a body for (gunicorn would send it from wsgi.create).
            req._expected_100_continue = False
        if getattr(conn, "close_after", False):
            # A refusal (a body over the limit, a broken one) is answered, then the connection
            # closes with the rest of the request unread: the answer says so (Connection: close,
            # RFC 9112 section 9.6), or a client would send its next request on it and lose it.
            req.force_close()
        # gunicorn builds the environ in here: the app wrapper (load_wsgi) puts the arrival in
        _handling.arrived = getattr(conn, "arrived", None)
        if not isinstance(conn, BufferedConn):
            try:
                return bool(super().handle_request(req, conn))
            finally:
                _handling.arrived = None
        _handling.streaming = partial(self.method_queue.defer, self._done_counting, conn)
        # The answer goes through a writer that never waits for the client (api.answer_writer)
        sock = conn.sock
        conn.writer = AnswerWriter(sock, self._answers, self.request_deadline)
        conn.sock = conn.writer  # type: ignore[assignment]  # gunicorn writes through it
        try:
            keepalive = bool(super().handle_request(req, conn))
        except TimeoutError:
            self.log.info(
                "Answer to %s not taken within %g s: closed", _address(conn), self.request_deadline
            )
            conn.writer.release()
            sock.close()  # nothing to linger for: the client is not reading
            return False
        finally:
            conn.sock = sock
            _handling.arrived = _handling.streaming = None
        return keepalive and not conn.close_after

    # -- after the answer: keep alive, or close ---------------------------------------------
    def finish_request(self, conn: Any, fs: Any) -> None:
        if not isinstance(conn, BufferedConn):
            super().finish_request(conn, fs)
            return
        self._done_counting(conn)
        self._let_go(conn)
        try:
            keepalive = bool(fs.result()) if not fs.cancelled() else False
        except Exception:
            keepalive = False
        conn.keep_alive = keepalive
        writer = conn.writer
        if writer is not None and writer.held:
            try:
                conn.sock.setblocking(False)
                if not writer.send_held():
                    self._wait(
                        conn,
                        time.monotonic() + self.request_deadline,
                        self._on_writable,
                        selectors.EVENT_WRITE,
                    )
                    return
            except OSError:
                self._close(conn)
                return
        self._after_answer(conn)

    def _on_writable(self, conn: BufferedConn, _sock: Any) -> None:
        """Send more of a held answer; once it is out, go on with the connection."""
        assert conn.writer is not None
        try:
            done = conn.writer.send_held()
        except OSError:
            self._drop(conn)
            return
        if done:
            self._unwait(conn)
            self._after_answer(conn)

    def _after_answer(self, conn: BufferedConn) -> None:
        """The answer is out: gather the connection's next request, or close it."""
        conn.writer = None
        keepalive = conn.keep_alive
        if not keepalive or conn.parser is None:
            self._linger(conn)
            return
        try:
            held = conn.parser.unreader.take_buffered()  # type: ignore[union-attr]
            now = time.monotonic()
            if not self.alive:  # a stopping worker keeps it briefly (gthread does the same)
                deadline = now + min(self.cfg.keepalive, STOP_KEEPALIVE_LINGER)
            elif held:
                deadline = now + self.request_deadline
            else:
                deadline = now + self.cfg.keepalive
            self._gather(conn, held, deadline, idle=True)
        except Exception:
            self._close(conn)

    def _linger(self, conn: BufferedConn) -> None:
        """Close after an answer: half-close, drain for up to ``LINGER_SECONDS``, close
        (RFC 9112 section 9.6), without blocking the loop."""
        try:
            conn.sock.setblocking(False)
            conn.sock.shutdown(socket.SHUT_WR)
        except OSError:
            self._close(conn)
            return
        conn.request = None
        self._let_go(conn)  # an abandoned request's bytes too
        self._wait(conn, time.monotonic() + LINGER_SECONDS, self._on_lingering)

    def _on_lingering(self, conn: BufferedConn, _sock: Any) -> None:
        try:
            for _ in range(16):
                if not conn.sock.recv(_READ_SIZE):
                    break
            else:
                return
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            pass
        self._drop(conn)

    def _drop(self, conn: BufferedConn) -> None:
        self._unwait(conn)
        self._close(conn)

    def _close(self, conn: Any) -> None:
        self._let_go(conn)
        if isinstance(conn, BufferedConn):
            self._connections.done(conn.client_key)
        writer = getattr(conn, "writer", None)
        if writer is not None:
            writer.release()
            conn.writer = None
        self.nr_conns -= 1
        try:
            conn.close()
        except OSError:
            pass

    def _send_quietly(self, conn: BufferedConn, data: bytes) -> None:
        """Send a short message without blocking; what the socket cannot take is dropped (the
        send buffer of a connection that has read nothing yet takes a few hundred bytes)."""
        try:
            conn.sock.send(data)
        except OSError:
            pass

    # -- deadlines (gthread's run() calls these after every turn of its loop) ---------------
    def wait_for_and_dispatch_events(self, timeout: float | None) -> None:
        """One turn of the loop; it waits no longer than until the next deadline (gthread waits
        up to a second) nor past the end of a pause in accepting (ACCEPT_PAUSE_SECONDS), and not at
        all while expired connections remain to be answered."""
        now = time.monotonic()
        if self._deadlines:
            until_next = self._deadlines[0][0] - now
            timeout = max(0.0, until_next if timeout is None else min(timeout, until_next))
        if not self._accepting and self._accepts_resume > now:  # type: ignore[attr-defined]
            until_resumed = self._accepts_resume - now
            timeout = until_resumed if timeout is None else min(timeout, until_resumed)
        super().wait_for_and_dispatch_events(timeout)

    def murder_pending(self) -> None:
        """Answer or close the connections whose deadline passed, ``_EXPIRE_PER_TURN`` at most:
        when a thousand connections opened together expire together, the requests that arrive
        meanwhile are served between the batches rather than after all of them."""
        now = time.monotonic()
        if not self.alive and not self._capped:
            self._capped = True
            self._cap(now + STOP_KEEPALIVE_LINGER)
        expired = 0
        while self._deadlines and self._deadlines[0][0] <= now and expired < _EXPIRE_PER_TURN:
            deadline, _, conn = heapq.heappop(self._deadlines)
            if conn.deadline != deadline or self._waiting.get(conn.sock.fileno()) is not conn:
                continue  # a stale entry: the connection moved on
            expired += 1
            self._expire(conn)
        super().murder_pending()

    def _cap(self, deadline: float) -> None:
        """A stopping worker gives the requests still arriving ``deadline`` at the latest (a
        kept-alive connection is then closed, a started request answered 408), so stalled
        connections cannot hold the stop for the whole deadline."""
        for conn in list(self._waiting.values()):
            if conn.request is not None and conn.deadline > deadline:
                self._unwait(conn)
                self._wait(conn, deadline, self._on_readable)

    def _expire(self, conn: BufferedConn) -> None:
        """The deadline passed: 408 for a started request, silence for an idle connection."""
        request = conn.request
        paused = conn.paused
        self._unwait(conn)
        if conn.writer is not None:  # its answer was not taken in time
            self.log.info(
                "Answer to %s not taken within %g s: closed", _address(conn), self.request_deadline
            )
            self._close(conn)
            return
        if request is None:  # lingering after an answer
            self._close(conn)
            return
        if not request.started:
            self._close(conn)
            return
        self.log.info(
            "Request from %s not whole within %g s: 408", _address(conn), self.request_deadline
        )
        detail = (
            f"The request did not arrive whole within {self.request_deadline:g} s "
            "(REQUEST_DEADLINE_SECONDS); the connection is closed."
        )
        if paused:
            detail += (
                " This server stopped reading it for a while: it held as many request bytes as "
                "it may, from this client address or from everyone. Retry later."
            )
        self._send_quietly(conn, problem_message(408, "Request Timeout", detail))
        self._linger(conn)

    def murder_keepalived(self, force: bool = False) -> None:
        if force:
            for conn in list(self._waiting.values()):
                self._drop(conn)
        super().murder_keepalived(force)  # type: ignore[call-arg]
