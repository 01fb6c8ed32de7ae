"""Request bodies are read as they were sent: the service decodes no content coding, and no
transfer coding but ``chunked`` (README "Configuration", the table of what the server refuses).

A body labelled with a coding used to be read as if it had none: a gzip body was a puzzling 400
``malformed_json``, and plain JSON labelled gzip was accepted. Now:

- ``Content-Encoding`` naming any coding but ``identity`` (no coding, RFC 9110 section 8.4.1) is
  415 ``unsupported_media_type`` naming the header, with ``Accept-Encoding: identity`` (RFC 9110
  section 15.5.16: "If the problem was caused by an unsupported content coding, the
  Accept-Encoding response header field ought to be used to indicate which (if any) content
  codings would have been accepted in the request"). Checked where a body is read
  (``api.games``): a request without one may carry the header harmlessly.
- ``Transfer-Encoding`` naming a coding before ``chunked`` (gunicorn lets ``gzip``, ``deflate``
  and ``compress`` through and reads the chunks only) is 501 ``not_implemented``, on every path
  (RFC 9112 section 6.1: "A server that receives a request message with a transfer coding it
  does not understand SHOULD respond with 501 (Not Implemented)"), as gunicorn answers the
  codings it does not know at all. A list that does not end in ``chunked`` never gets here:
  gunicorn answers it 400 (RFC 9112 section 6.3). ``identity``, which changes no byte, passes.
"""

from __future__ import annotations

from flask import Flask, Response, request

from api.errors import ApiError, problem

__all__ = ["codings", "check_no_content_coding", "refuse_transfer_codings", "register"]

_NO_CODING = "identity"
_DECODED_TRANSFER = {"chunked", _NO_CODING}
_QUOTED = 100
"""The most characters of a client's header quoted in a detail."""


def _header(environ_key: str) -> str:
    """A request header as the server joined its fields (RFC 9110 section 5.3: one
    comma-separated list), read straight from the WSGI environ (``HTTP_CONTENT_ENCODING``): this
    runs before every request, and ``request.headers`` costs several times as much."""
    return request.environ.get(environ_key, "")


def codings(value: str) -> list[str]:
    """The codings a ``Content-Encoding`` or ``Transfer-Encoding`` value lists, in lower case
    (both are case-insensitive comma-separated lists, RFC 9110 sections 8.4 and 5.6.1)."""
    return [name for name in (part.strip(" \t").lower() for part in value.split(",")) if name]


def check_no_content_coding() -> None:
    """415 when the request's body is content-coded (any ``Content-Encoding`` but identity)."""
    value = _header("HTTP_CONTENT_ENCODING")
    if any(name != _NO_CODING for name in codings(value)):
        raise ApiError(
            415,
            "unsupported_media_type",
            f"The request body must not be content-coded (Content-Encoding: "
            f"{value[:_QUOTED]}): this server decodes no content coding. Send the JSON "
            "as it is, without Content-Encoding.",
            headers={"Accept-Encoding": _NO_CODING},
        )


def refuse_transfer_codings() -> Response | None:
    """501 for a request whose ``Transfer-Encoding`` names a coding but ``chunked``; None (go
    on) otherwise."""
    value = _header("HTTP_TRANSFER_ENCODING")
    if not value or all(name in _DECODED_TRANSFER for name in codings(value)):
        return None
    return problem(
        501,
        "not_implemented",
        f"Transfer-Encoding: {value[:_QUOTED]}: this server decodes no transfer coding "
        "but chunked (RFC 9112 section 6.1). Send the body chunked or with a Content-Length.",
    )


def register(app: Flask) -> None:
    """Refuse transfer codings before any view runs, on every path."""
    app.before_request(refuse_transfer_codings)
