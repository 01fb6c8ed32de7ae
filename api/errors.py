"""Problem details (RFC 9457): every error the service answers, in one format.

``problem()`` builds the one response shape: ``{"type", "title", "status", "detail", "code",
...}`` served as ``application/problem+json``. The handlers registered by
``register_error_handlers`` turn every exception that can leave a view into one:

- werkzeug ``HTTPException`` (404 unknown path, 405 with ``Allow``, 413, 415, 400...);
- marshmallow ``ValidationError`` -> 400 ``invalid_body`` with ``errors`` {"dotted.path": [...]};
- ``rules.errors.RulesError`` -> 404 ``unknown_game`` / 422 with ``code`` and ``violations``;
- ``ApiError`` (raised by the API itself, e.g. broken JSON, unknown player);
- ``api.session_store.SessionGone`` -> 404 ``unknown_session`` (the session was deleted or
  expired while the request read it: as for any session that is not there);
- ``RecursionError`` -> 400 (only absurdly deep client JSON gets there);
- ``api.store.StoreUnavailable`` -> 503 ``store_unavailable`` (sessions only; Redis is down; nothing
  was written);
- ``api.store.OutcomeUnknown`` -> 503 ``outcome_unknown`` (Redis stopped answering after a write
  was sent: it may have been applied; the detail says how to retry that request safely: the same
  Idempotency-Key for a move or a takeback, the same answer to a takeback, a new create or fork);
- ``api.store.StoreFull`` -> 507 ``store_full`` with ``Retry-After`` (the store is at its
  memory limit and refused the write; nothing was written);
- anything else -> 500 ``internal_error``, traceback logged, no internals in the body.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from http import HTTPStatus
from typing import Any

from flask import Flask, Response, current_app, request
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from api import jsonio
from api.session_store import SessionGone
from api.store import OutcomeUnknown, StoreFull, StoreUnavailable
from rules.engine_types import MAX_MESSAGE
from rules.errors import RulesError, UnknownGame

__all__ = [
    "ApiError",
    "problem",
    "problem_body",
    "flatten_errors",
    "register_error_handlers",
    "outcome_unknown_detail",
    "PROBLEM_JSON",
    "TYPE_BASE",
    "ROOT_KEY",
    "MAX_LISTED",
]

PROBLEM_JSON = "application/problem+json"
TYPE_BASE = "https://reign-referee.dev/problems/"
ROOT_KEY = "_body"
STORE_FULL_RETRY_SECONDS = 60
"""``Retry-After`` of a 507 ``store_full``: space comes back as sessions end or expire."""
"""The ``errors`` key for a problem with the body as a whole (e.g. it is not an object)."""

#: Problem codes of the werkzeug HTTP errors, by status.
HTTP_CODES: dict[int, str] = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    408: "request_timeout",
    411: "length_required",
    413: "payload_too_large",
    414: "uri_too_long",
    415: "unsupported_media_type",
    416: "range_not_satisfiable",
    417: "expectation_failed",
    428: "precondition_required",
    429: "too_many_requests",
    431: "request_header_fields_too_large",
    500: "internal_error",
    501: "not_implemented",
    503: "service_unavailable",
}

#: Titles of the problem codes that are not a plain HTTP reason phrase.
TITLES: dict[str, str] = {
    "malformed_json": "Malformed JSON",
    "invalid_body": "Invalid request body",
    "too_deep": "JSON nested too deeply",
    "unknown_game": "Unknown game",
    "invalid_setup": "Invalid setup",
    "invalid_state": "Invalid state",
    "illegal_move": "Illegal move",
    "unknown_player": "Unknown player",
    "invalid_bots": "Invalid bot seats",
    "store_unavailable": "Store unavailable",
    "outcome_unknown": "Outcome unknown",
    "state_too_large": "State too large",
    "record_too_long": "Record too long to replay",
    "history_too_long": "History too long to replay",
    "rules_version_changed": "Rules version changed",
    "unknown_session": "Unknown session",
    "unauthorized": "Unauthorized",
    "forbidden": "Forbidden",
    "precondition_failed": "Precondition failed",
    "version_conflict": "Version conflict",
    "idempotency_key_reused": "Idempotency key reused",
    "invalid_header": "Invalid header",
    "invalid_query": "Invalid query parameter",
    "too_many_streams": "Too many streams",
    "too_many_client_streams": "Too many streams from this client",
    "too_many_connections": "Too many connections from this client",
    "internal_error": "Internal server error",
}

MAX_LISTED = 100
"""At most this many ``violations`` or ``errors`` entries in one problem (the detail says how
many there were), so that a 1 MiB body of mistakes cannot produce a 30 MB answer."""
_IN_DETAIL = 5


class ApiError(Exception):
    """An error the API raises itself; rendered by ``problem``."""

    def __init__(
        self,
        status: int,
        code: str,
        detail: str,
        *,
        title: str | None = None,
        headers: Mapping[str, str] | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.title = title
        self.headers = dict(headers or {})
        self.extra = extra

    def response(self) -> Response:
        return problem(
            self.status,
            self.code,
            self.detail,
            title=self.title,
            headers=self.headers,
            **self.extra,
        )


def _title(status: int, code: str) -> str:
    if code in TITLES:
        return TITLES[code]
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return code.replace("_", " ").capitalize()


def problem_body(
    status: int, code: str, detail: str, *, title: str | None = None, **extra: Any
) -> bytes:
    """The JSON of a problem: RFC 9457 problem details plus ``code`` (and any ``extra``). Also
    written by ``api.worker`` for the errors gunicorn answers before the app runs."""
    body: dict[str, Any] = {
        "type": TYPE_BASE + code.replace("_", "-"),
        "title": title or _title(status, code),
        "status": status,
        "detail": _cut(detail, MAX_DETAIL),
        "code": code,
    }
    body.update(extra)
    return jsonio.dumps(body) + b"\n"


def problem(
    status: int,
    code: str,
    detail: str,
    *,
    title: str | None = None,
    headers: Mapping[str, str] | Iterable[tuple[str, str]] | None = None,
    **extra: Any,
) -> Response:
    """The one error response: ``problem_body`` served as ``application/problem+json``."""
    response = Response(
        problem_body(status, code, detail, title=title, **extra),
        status=status,
        mimetype=PROBLEM_JSON,
    )
    if headers:
        items = headers.items() if isinstance(headers, Mapping) else headers
        for name, value in items:
            if name.lower() != "content-type":
                response.headers[name] = value
    return response


MAX_DETAIL = 4000
"""The most characters of a problem's ``detail`` (a few violations' messages, each cut at
``rules.engine_types.MAX_MESSAGE``)."""
MAX_KEY = 64
"""The most characters of one key of an error's path: keys are the client's (an unknown field's
name), and a huge malformed body must not give a huger answer."""


def _cut(text: str, most: int) -> str:
    return text if len(text) <= most else text[:most] + "..."


def flatten_errors(messages: Any, prefix: str = "") -> dict[str, list[str]]:
    """marshmallow's nested error messages as ``{"dotted.path": [messages]}``.

    ``{"state": {"hands": {"ann": {0: ["Not a valid string."]}}}}`` becomes
    ``{"state.hands.ann.0": ["Not a valid string."]}``; ``_schema`` (an error about the object
    itself) is keyed by the object's own path, or ``ROOT_KEY`` for the body.
    """
    out: dict[str, list[str]] = {}

    def walk(node: Any, path: str) -> None:
        if isinstance(node, Mapping):
            for key, value in node.items():
                key = _cut(str(key), MAX_KEY)
                if key == "_schema":
                    walk(value, path)
                else:
                    walk(value, f"{path}.{key}" if path else key)
        elif isinstance(node, (list, tuple)):
            for item in node:
                if isinstance(item, (Mapping, list, tuple)):
                    walk(item, path)
                else:
                    out.setdefault(path or ROOT_KEY, []).append(_cut(str(item), MAX_MESSAGE))
        else:
            out.setdefault(path or ROOT_KEY, []).append(_cut(str(node), MAX_MESSAGE))

    walk(messages, prefix)
    return out


def _summary(errors: Mapping[str, list[str]]) -> str:
    first_path = next(iter(sorted(errors)), ROOT_KEY)
    first = errors.get(first_path, ["invalid"])[0]
    more = len(errors) - 1
    where = "the body" if first_path == ROOT_KEY else first_path
    text = f"The request body does not match the schema: {where}: {first}"
    return text + (f" (and {more} more)" if more > 0 else "")


def validation_problem(err: ValidationError) -> Response:
    errors = flatten_errors(err.messages)
    detail = _summary(errors)
    if len(errors) > MAX_LISTED:  # a huge malformed body must not give a huger answer
        errors = dict(list(errors.items())[:MAX_LISTED])
    return problem(400, "invalid_body", detail, errors=errors)


def rules_problem(err: RulesError) -> Response:
    status = 404 if isinstance(err, UnknownGame) else 422
    found = err.violations
    detail = "; ".join(v.message for v in found[:_IN_DETAIL])
    if len(found) > _IN_DETAIL:
        detail += f" (and {len(found) - _IN_DETAIL} more)"
    violations = [v.to_dict() for v in found[:MAX_LISTED]]
    return problem(status, err.code, detail, violations=violations)


def http_problem(err: HTTPException) -> Response:
    status = err.code or 500
    code = HTTP_CODES.get(status, f"http_{status}")
    detail = err.description or _title(status, code)
    if isinstance(err, RequestEntityTooLarge):
        limit = current_app.config.get("MAX_CONTENT_LENGTH")
        detail = f"The request body is larger than the limit of {limit} bytes."
    # get_headers() carries e.g. Allow for 405; Content-Type is ours.
    headers = [(k, v) for k, v in err.get_headers() if k.lower() != "content-type"]
    return problem(status, code, detail, headers=headers)


_LOST_AFTER_SENT = "The session store stopped answering after {what} was sent to it, so "
_LOST_NEW = (
    _LOST_AFTER_SENT.format(what="the new {what}")
    + "it may or may not have been created. Its id and tokens were in this answer only, so a "
    "{what} created then can be used by nobody; it expires on its own (SESSION_TTL_SECONDS; "
    "with a clock, its clock runs out first). {again} again."
)
"""The advice when a new session or fork may have been created (formatted with ``what`` and
``again``)."""
_OUTCOME_ADVICE: dict[str, str] = {
    "sessions.submit_move": _LOST_AFTER_SENT.format(what="the move")
    + "it may or may not have been applied. Sending it again with the same Idempotency-Key is "
    "safe: if it was applied you get its first answer. Without an Idempotency-Key, read the "
    "session (its version and history) before sending the move again.",
    "sessions.create_session": _LOST_NEW.format(what="session", again="Create the session"),
    "records.fork": _LOST_NEW.format(what="fork", again="Fork"),
    "records.propose_takeback": _LOST_AFTER_SENT.format(what="the takeback")
    + "it may or may not have been proposed (or, if it waited on nobody, applied). Sending it "
    "again with the same Idempotency-Key is safe: if it was, you get its first answer. "
    "Without an Idempotency-Key, read the session (its version, history and `takeback`) "
    "before proposing it again.",
    "records.answer_takeback": _LOST_AFTER_SENT.format(what="the takeback")
    + "your answer may or may not have been applied. Sending the same answer again is safe: "
    "a seat's first answer stands, and a takeback that landed answers `accepted` again.",
    "sessions.set_clock": _LOST_AFTER_SENT.format(what="the clock")
    + "the change may or may not have been made. `pause` and `resume` are safe to send again; "
    "before sending `add_time` again, read the session's clock (`GET /v1/sessions/{id}`, "
    "`clock.remaining_ms`): the time may have been added already.",
}
"""The advice of a 503 ``outcome_unknown``, by the endpoint whose write was lost."""
_OUTCOME_FALLBACK = (
    _LOST_AFTER_SENT.format(what="the write")
    + "it may or may not have been applied. Read the session before sending the request again."
)


def outcome_unknown_detail(endpoint: str | None) -> str:
    """The detail of a 503 ``outcome_unknown`` answering ``endpoint`` (Flask's name for the
    view): what may have happened, and how to retry it safely (README "Faults")."""
    return _OUTCOME_ADVICE.get(endpoint or "", _OUTCOME_FALLBACK)


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(ApiError)
    def _api_error(err: ApiError):
        return err.response()

    @app.errorhandler(ValidationError)
    def _validation_error(err: ValidationError):
        return validation_problem(err)

    @app.errorhandler(RulesError)
    def _rules_error(err: RulesError):
        return rules_problem(err)

    @app.errorhandler(HTTPException)
    def _http_error(err: HTTPException):
        if err.code is None or err.code < 400:  # routing redirects and the like pass through
            return err
        return http_problem(err)

    @app.errorhandler(SessionGone)
    def _session_gone(err: SessionGone):
        return problem(404, "unknown_session", "The session was deleted or expired.")

    @app.errorhandler(StoreUnavailable)
    def _store_unavailable(err: StoreUnavailable):
        app.logger.warning("session store unreachable: %s", err)
        return problem(
            503,
            "store_unavailable",
            "The session store is unreachable; stateless endpoints keep working. Retry soon.",
            headers={"Retry-After": "5"},
        )

    @app.errorhandler(StoreFull)
    def _store_full(err: StoreFull):
        app.logger.error("session store full (maxmemory): %s", err)
        return problem(
            507,
            "store_full",
            "The session store is full (its memory limit is reached); nothing was written. "
            "Space comes back as sessions end or expire: retry later.",
            headers={"Retry-After": str(STORE_FULL_RETRY_SECONDS)},
        )

    @app.errorhandler(OutcomeUnknown)
    def _outcome_unknown(err: OutcomeUnknown):
        app.logger.warning("session store lost after a write was sent: %s", err)
        return problem(
            503,
            "outcome_unknown",
            outcome_unknown_detail(request.endpoint),
            headers={"Retry-After": "5"},
        )

    @app.errorhandler(RecursionError)
    def _too_deep(err: RecursionError):
        app.logger.warning("RecursionError on a request (deeply nested input?)")
        return problem(400, "too_deep", "The request body is nested too deeply to process.")

    @app.errorhandler(Exception)
    def _unexpected(err: Exception):
        # Last resort: a bug, never the client's fault. Log it, answer in the contract's format.
        app.logger.exception("Unhandled exception while serving a request")
        return problem(
            500, "internal_error", "The server failed to process the request; this is a bug."
        )
