"""JSON in and out of the API, with orjson.

Parsing and encoding are most of an ``apply`` request's own cost; orjson does both several times
faster than the standard library. Responses keep sorted keys, as the contract's canonical form
does. orjson refuses what is not JSON (NaN, Infinity, lone surrogates, nesting past 1024 levels),
and reads integers beyond 64 bits as floats, which the schemas then reject as non-integers.

A request body is read with ``loads_body``: JSON Schema (and so ``openapi.yaml``) counts a number
with a zero fractional part as an integer (``12400387691.0``, ``1e3``), so those arrive as ``int``
and every checker and rule sees one kind of integer (a seed of ``5.0`` deals the game ``5`` deals).
Only numbers within orjson's integer range (64 bits) are turned into integers; beyond it they stay
floats and are refused like the integer literals orjson reads as floats.
"""

from __future__ import annotations

from typing import Any

import orjson
from flask import Response
from flask.json.provider import JSONProvider

__all__ = [
    "loads",
    "loads_body",
    "may_hold_float",
    "with_integers",
    "dumps",
    "answer",
    "OrjsonProvider",
    "JSONDecodeError",
]

JSONDecodeError = orjson.JSONDecodeError
_OPTIONS = orjson.OPT_SORT_KEYS


def loads(data: bytes | str) -> Any:
    return orjson.loads(data)


_MIN_INT = -(1 << 63)  # orjson's integers (schemas.fields.JSON_INT_MIN/MAX, which the spec states)
_MAX_INT = (1 << 64) - 1
_DIGIT_THEN_MARK = bytes(
    0x30 if c in b"0123456789" else 0x2E if c in b".eE" else 0x20 for c in range(256)
)
"""A byte table for the scan below: each digit becomes ``0``, each ``.``/``e``/``E`` becomes ``.``,
anything else a space, so one two-byte search (``0.``) finds every digit followed by a mark."""
_BEFORE_VALUE = frozenset(b":,[ \t\n\r")
"""What may precede a JSON value (RFC 8259 section 2): a number token starts after one of these."""


def may_hold_float(data: bytes) -> bool:
    """Whether ``data`` may hold a float token: a digit run followed by ``.``/``e``/``E`` that
    starts where a JSON value may start (without one, orjson reads no float within 64 bits).

    Every state's ``rng`` is a hex string, so "a digit then ``e``" alone matches inside a string
    in nearly every body; checking what precedes the digits (in ``data`` itself) keeps the walk
    below for bodies that may really hold a float (a string may still pass: the walk then finds
    nothing). The scan uses ``bytes.translate``/``find`` (C speed) over a three-symbol alphabet: a
    regular expression over a 14 KB body costs as much as the walk it would save, and searching
    for ``0.``, ``0e`` and ``0E`` in a body whose digits all read ``0`` was three times slower
    (45 µs for a 10 KB Council state, as much as parsing it)."""
    flat = data.translate(_DIGIT_THEN_MARK)
    at = flat.find(b"0.")
    while at != -1:
        start = at
        while start > 0 and flat[start - 1] == 0x30:
            start -= 1
        if start > 0 and data[start - 1] == 0x2D:  # a minus sign
            start -= 1
        if start == 0 or data[start - 1] in _BEFORE_VALUE:
            return True
        at = flat.find(b"0.", at + 1)
    return False


def loads_body(data: bytes) -> Any:
    """A request body: ``loads``, with integral floats in the 64-bit range read as integers."""
    value = loads(data)
    return with_integers(value) if may_hold_float(data) else value


def with_integers(value: Any) -> Any:
    """``value`` with each float that is a whole number in the 64-bit range made an ``int``, in
    place (iteratively: nesting may be 1024 levels deep)."""
    if type(value) is float:
        return _as_int(value)
    stack = [value]
    while stack:
        node = stack.pop()
        items = (
            node.items() if type(node) is dict else enumerate(node) if type(node) is list else ()
        )
        for key, item in items:
            kind = type(item)
            if kind is float:
                node[key] = _as_int(item)
            elif kind is dict or kind is list:
                stack.append(item)
    return value


def _as_int(number: float) -> float | int:
    return int(number) if number.is_integer() and _MIN_INT <= number <= _MAX_INT else number


def dumps(obj: Any) -> bytes:
    return orjson.dumps(obj, option=_OPTIONS)


def answer(members: dict[str, bytes]) -> Response:
    """A JSON object answer built from its members' values, each already written by ``dumps``:
    the very bytes ``dumps`` writes for the whole object (compact, keys sorted), without writing
    a member twice when its bytes serve another purpose too (``api.known_states``)."""
    parts = [dumps(key) + b":" + members[key] for key in sorted(members)]
    return Response(b"{" + b",".join(parts) + b"}", mimetype="application/json")


class OrjsonProvider(JSONProvider):
    """Flask's ``app.json`` backed by orjson: compact, sorted keys, UTF-8."""

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        return dumps(obj).decode()

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return loads(s)

    def response(self, *args: Any, **kwargs: Any) -> Response:
        obj = self._prepare_response_obj(args, kwargs)
        return Response(dumps(obj), mimetype="application/json")  # the app keeps Flask's class
