"""gthread answering in problem+json even where gunicorn answers by itself, before the app sees
the request (issue 13); ``serve`` runs its subclass ``api.buffered_worker.BufferedWorker``.

gunicorn refuses some requests while parsing them and writes a small HTML page: a request line
over ``limit_request_line`` bytes (414), more than ``limit_request_fields`` headers or one over
``limit_request_field_size`` bytes (431), a malformed request line, method, version, header,
``Content-Length`` (``-1``, both it and ``Transfer-Encoding``) or chunk (400), an unknown
transfer coding (501). :class:`ProblemWorker` keeps gunicorn's own judgement (status, reason,
message, logging) and only changes how it is written: ``application/problem+json`` in the
service's one format (``api.errors.problem_body``), ``code`` after the status.
"""

from __future__ import annotations

import html
import re
from typing import Any

from gunicorn import util
from gunicorn.workers.gthread import ThreadWorker

from api.errors import HTTP_CODES, PROBLEM_JSON, problem_body

__all__ = ["ARRIVED", "STREAMING", "ProblemWorker", "problem_response", "problem_message"]

ARRIVED = "referee.arrived"
"""The WSGI environ key under which ``serve``'s worker (``api.buffered_worker``) gives the app the
request's arrival: the ``time.monotonic()`` reading taken when its first bytes were read. Absent
under a server that does not stamp it (the app then counts from when it sees the request)."""

STREAMING = "referee.streaming"
"""The WSGI environ key under which ``serve``'s worker gives the app a function to call when the
answer becomes a long-lived stream (``/events``): the request then stops counting toward its
client's ``MAX_REQUESTS_PER_CLIENT`` (``api.client_shares``). Absent under another server."""

_STATUS = re.compile(rb"HTTP/1\.[01] (\d{3}) ([^\r\n]*)\r\n")
_MESSAGE = re.compile(rb"</h1>\s*(.*?)\s*</body>", re.S)
_MAX_DETAIL = 300


class _Captured:
    """Stands in for the client socket while gunicorn writes its error page: keeps the bytes,
    passes everything else (addresses for the access log...) to the real socket."""

    def __init__(self, sock: Any) -> None:
        self._sock = sock
        self.data = b""

    def gettimeout(self) -> float:
        return 0.0  # gunicorn's write_nonblock then writes at once, without setblocking

    def sendall(self, data: bytes) -> None:
        self.data += data

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)


def problem_message(status: int, reason: str, detail: str, code: str | None = None) -> bytes:
    """A whole HTTP/1.1 answer: the problem+json of ``status`` (``code``, by default from
    ``HTTP_CODES``), then the connection closes (the worker answers so only when it will not
    read on)."""
    code = code or HTTP_CODES.get(status, f"http_{status}")
    body = problem_body(status, code, detail)
    head = (
        f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\nContent-Type: {PROBLEM_JSON}\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode("latin1")
    return head + body


def problem_response(page: bytes) -> bytes:
    """gunicorn's HTML error response ``page`` as the same error in problem+json."""
    status_line = _STATUS.match(page)
    status, reason = (
        (int(status_line.group(1)), status_line.group(2).decode("latin1"))
        if status_line
        else (400, "Bad Request")
    )
    message = _MESSAGE.search(page)
    detail = html.unescape(message.group(1).decode("latin1")).strip() if message else ""
    detail = (detail or reason)[:_MAX_DETAIL]
    return problem_message(status, reason, f"{reason}: {detail}" if detail != reason else reason)


class ProblemWorker(ThreadWorker):
    """gunicorn's gthread worker whose own error answers are problem+json."""

    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        captured = _Captured(client)
        # a stand-in socket that keeps what gunicorn writes, so it can be rewritten
        super().handle_error(req, captured, addr, exc)  # type: ignore[arg-type]
        if not captured.data:
            return
        try:
            util.write_nonblock(client, problem_response(captured.data))
        except Exception:
            self.log.debug("Failed to send error message.")
