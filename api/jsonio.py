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

import re
from typing import Any

import orjson
from flask import Response
from flask.json.provider import JSONProvider

__all__ = ["loads", "loads_body", "dumps", "OrjsonProvider", "JSONDecodeError"]

JSONDecodeError = orjson.JSONDecodeError
_OPTIONS = orjson.OPT_SORT_KEYS


def loads(data: bytes | str) -> Any:
    return orjson.loads(data)


_MIN_INT = -(1 << 63)  # orjson's integers (schemas.fields.JSON_INT_MIN/MAX, which the spec states)
_MAX_INT = (1 << 64) - 1
_MAY_HAVE_FLOAT = re.compile(rb"[0-9][.eE]")
"""A digit followed by ``.``, ``e`` or ``E``: without one, orjson reads no float within 64 bits
(the bytes may still match inside a string; the walk then finds nothing)."""


def loads_body(data: bytes) -> Any:
    """A request body: ``loads``, with integral floats in the 64-bit range read as integers."""
    value = loads(data)
    if _MAY_HAVE_FLOAT.search(data) is not None:
        value = _integral_floats_as_ints(value)
    return value


def _integral_floats_as_ints(value: Any) -> Any:
    """``value`` with each float that is a whole number in the 64-bit range made an ``int``, in
    place (iteratively: nesting may be 1024 levels deep)."""
    if type(value) is float:
        return _as_int(value)
    stack = [value]
    while stack:
        node = stack.pop()
        items = node.items() if type(node) is dict else enumerate(node) if type(node) is list else ()
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


class OrjsonProvider(JSONProvider):
    """Flask's ``app.json`` backed by orjson: compact, sorted keys, UTF-8."""

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        return dumps(obj).decode()

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return loads(s)

    def response(self, *args: Any, **kwargs: Any) -> Response:
        obj = self._prepare_response_obj(args, kwargs)
        return self._app.response_class(dumps(obj), mimetype="application/json")
