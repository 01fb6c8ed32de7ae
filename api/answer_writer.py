"""Answers a thread hands to the worker's main loop instead of waiting for the client to read
them (issue 23's rule, now for the way out: a thread never waits for a client).

gunicorn's threads write an answer with a blocking ``sendall``. A client that does not read
holds the thread until it does: 100 connections each with four pipelined ``GET /openapi.yaml``
(928 KB) never read froze every thread of a worker, and ``/healthz`` timed out after 30 s.

A thread writes through an :class:`AnswerWriter` instead. It sends what the kernel takes at
once and keeps the rest (a view of the same bytes, not a copy) for the worker's main loop, which
sends it as the client reads (``api.buffered_worker``), within the request deadline; a client
that has not taken its answer by then is disconnected. The thread is free as soon as the app has
answered. Its connection reads no further request until the answer is out, so a client holds at
most one unsent answer a connection.

The bytes held this way, over all the connections of a worker, are bounded by an
:class:`AnswerBudget`. Past it (or when a second piece of one answer comes while the first is
still held: a stream's next event) the thread sends what it holds itself, blocking, and gives
up at the deadline: the old behaviour, but never for longer than the deadline.
"""

from __future__ import annotations

import collections
import socket
import threading
from typing import Any

__all__ = ["AnswerBudget", "AnswerWriter", "ANSWER_BUDGET_BYTES"]

ANSWER_BUDGET_BYTES = 64 * 1024 * 1024
"""The most answer bytes one worker holds for clients that have not read them yet."""


class AnswerBudget:
    """Bytes held for slow readers, shared by a worker's threads and its main loop."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.held = 0
        self._lock = threading.Lock()

    def take(self, size: int) -> bool:
        """Reserve ``size`` bytes; False when that would go past the limit."""
        with self._lock:
            if self.held + size > self.limit:
                return False
            self.held += size
            return True

    def give_back(self, size: int) -> None:
        with self._lock:
            self.held -= size


class AnswerWriter:
    """The socket a thread writes its answer through (gunicorn's ``Response`` calls ``sendall``,
    ``send`` and ``sendfile``; everything else goes to the real socket).

    ``held`` is what the client has not taken yet, in order; the main loop sends it after the
    thread is done (:meth:`send_held`), and gives its bytes back to the budget.
    """

    def __init__(self, sock: socket.socket, budget: AnswerBudget, deadline: float) -> None:
        self.sock = sock
        self.held: collections.deque[memoryview] = collections.deque()
        self.held_bytes = 0
        self._budget = budget
        self._deadline = deadline  # seconds a blocking send may take, in the thread

    def __getattr__(self, name: str) -> Any:
        return getattr(self.sock, name)

    def sendall(self, data: bytes | bytearray | memoryview) -> None:
        view = memoryview(bytes(data) if not isinstance(data, bytes) else data)
        if self.held:
            self._send_held_blocking()
        view = view[self._send_now(view) :]
        if not view:
            return
        if self._budget.take(len(view)):
            self.held.append(view)
            self.held_bytes += len(view)
            return
        self._send_blocking(view)

    def send(self, data: bytes, flags: int = 0) -> int:
        self.sendall(data)
        return len(data)

    def sendfile(self, file: Any, offset: int = 0, count: int | None = None) -> int:
        self._send_held_blocking()
        self.sock.settimeout(self._deadline)
        try:
            return self.sock.sendfile(file, offset, count)
        finally:
            self.sock.settimeout(None)

    def send_held(self) -> bool:
        """Send what the client takes now, without blocking (the main loop, socket not blocking):
        True once nothing is held. Raises ``OSError`` when the connection is gone."""
        while self.held:
            view = self.held[0]
            try:
                sent = self.sock.send(view)
            except (BlockingIOError, InterruptedError):
                return False
            self._taken(sent)
        return True

    def release(self) -> None:
        """Forget what is held (the connection is closing) and give its bytes back."""
        self._budget.give_back(self.held_bytes)
        self.held.clear()
        self.held_bytes = 0

    def _send_now(self, view: memoryview) -> int:
        try:
            return self.sock.send(view, socket.MSG_DONTWAIT)
        except (BlockingIOError, InterruptedError):
            return 0

    def _send_blocking(self, view: memoryview) -> None:
        """Send ``view`` whole from the thread, giving up (``TimeoutError``) at the deadline."""
        self.sock.settimeout(self._deadline)
        try:
            self.sock.sendall(view)
        finally:
            self.sock.settimeout(None)

    def _send_held_blocking(self) -> None:
        while self.held:
            view = self.held[0]
            self._send_blocking(view)
            self._taken(len(view))

    def _taken(self, sent: int) -> None:
        view = self.held.popleft()
        if sent < len(view):
            self.held.appendleft(view[sent:])
        self.held_bytes -= sent
        self._budget.give_back(sent)
