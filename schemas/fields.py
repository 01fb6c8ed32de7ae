"""Fast shape fields for marshmallow.

A game state is shape-checked on every request, and marshmallow's ``Nested``/``List``/``Dict``
fields cost several microseconds per element (a 54-card ``cards`` map alone would take most of
a millisecond). ``Shape`` is a marshmallow field that runs a *checker* compiled once from a small
vocabulary (``STR``, ``INT``, ``BOOL``, ``NUMBER``, ``list_of``, ``map_of``, ``record``,
``nullable``, ``one_of``...). A checker returns ``None`` when the value has the right shape, else
marshmallow-style error messages: a list of strings, or a dict from key/index to messages. The
happy path is a handful of ``type(x) is ...`` tests per element; error paths are only walked when
something is wrong.

These check *shape* only: JSON types, required and unknown keys, fixed vocabularies. Meaning
(ids known, counts, ranges) belongs to the rules' ``check_state``.

Each checker also carries its JSON Schema (``json_schema``), so one declaration both checks
requests and documents them in ``openapi.yaml`` (``schemas.openapi``). ``doc`` adds a description
and documentation-only keywords (``minimum``, ``enum`` of ids...) without changing what is
checked: what the shape check lets through and the JSON Schema forbids is the rules' 422.
``named`` gives a checker a component name, so the spec refers to it with ``$ref``.

Booleans are never integers here (JSON ``true`` is not ``1``), and integers are never booleans.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from types import FunctionType
from typing import Any

import orjson
from marshmallow import Schema, ValidationError, fields

__all__ = [
    "Checker",
    "Errors",
    "Shape",
    "STR",
    "INT",
    "BOOL",
    "NUMBER",
    "OBJECT",
    "ANY",
    "string",
    "integer",
    "list_of",
    "map_of",
    "record",
    "nullable",
    "known_or",
    "one_of",
    "either",
    "tagged",
    "custom",
    "at_most",
    "doc",
    "named",
    "shape_only",
    "json_schema",
    "MSG",
    "MAX_ERRORS",
    "load",
]

Errors = list[str] | dict[Any, Any]

MAX_ERRORS = 100
"""A container reports at most this many bad items (the first ones), so a huge malformed body
costs no more to describe than a small one."""
Checker = Callable[[Any], Errors | None]

MSG = {
    "str": "Not a valid string.",
    "int": "Not a valid integer.",
    "bool": "Not a valid boolean.",
    "number": "Not a valid number.",
    "list": "Not a valid list.",
    "object": "Not a valid mapping type.",
    "null": "Field may not be null.",
    "required": "Missing data for required field.",
    "unknown": "Unknown field.",
}


# -- scalars --------------------------------------------------------------------------------------
def _str(value: Any) -> Errors | None:
    return None if type(value) is str else [MSG["str"]]


def _int(value: Any) -> Errors | None:
    return None if type(value) is int else [MSG["int"]]


def _bool(value: Any) -> Errors | None:
    return None if value is True or value is False else [MSG["bool"]]


def _number(value: Any) -> Errors | None:
    t = type(value)
    return None if t is int or t is float else [MSG["number"]]


def _object(value: Any) -> Errors | None:
    return None if type(value) is dict else [MSG["object"]]


def _any(value: Any) -> Errors | None:
    return None


# -- JSON Schema ----------------------------------------------------------------------------------
def _spec(check: Checker, schema: dict[str, Any], scalar: type | None = None) -> Checker:
    """``check`` carrying ``schema``: its JSON Schema, where nested checkers stand for their own
    schemas (rendered by :func:`json_schema`). ``scalar``: the one Python type it accepts, for the
    containers' fast paths."""
    check.schema = schema  # type: ignore[attr-defined]
    check.scalar = scalar  # type: ignore[attr-defined]
    check.component = None  # type: ignore[attr-defined]
    return check


def _clone(check: Checker) -> Checker:
    """The same function (same code, same closure: no extra call when checking) as a new object,
    so it can carry other documentation."""
    copy = FunctionType(
        check.__code__, check.__globals__, check.__name__, check.__defaults__, check.__closure__
    )
    copy.__dict__.update(check.__dict__)
    return copy


def doc(check: Checker, description: str | None = None, **keywords: Any) -> Checker:
    """``check`` with a description and more JSON Schema keywords (``minimum=0``, ``enum=[...]``,
    ``examples=[...]``). Documentation only: what is checked does not change."""
    copy = _clone(check)
    extra = dict(keywords)
    if description is not None:
        extra["description"] = description
    if _component(check):
        copy.schema = {"$ref": check, **extra}  # type: ignore[attr-defined]
        copy.component = None  # type: ignore[attr-defined]
    else:
        copy.schema = {**_schema_of(check), **extra}  # type: ignore[attr-defined]
    return copy


def named(name: str, check: Checker) -> Checker:
    """``check`` as the component schema ``name``: the spec refers to it with ``$ref``."""
    copy = _clone(check)
    copy.component = name  # type: ignore[attr-defined]
    return copy


def custom(check: Checker, schema: dict[str, Any]) -> Checker:
    """A hand-written checker and the JSON Schema it checks."""
    return _spec(check, schema)


def at_most(check: Checker, limit: int) -> Checker:
    """A list checker whose length bound is part of the shape: more than ``limit`` items is an
    error of the checker itself (a 400), for a body that is judged rather than set up, where no
    rule answers the bound with a 422 (``/replay``: a record is valid, invalid or malformed)."""

    def bounded(value: Any) -> Errors | None:
        errors = check(value)
        if errors is None and isinstance(value, list) and len(value) > limit:
            return [f"At most {limit} items."]
        return errors

    return custom(bounded, {**_schema_of(check), "maxItems": limit})


REF_PREFIX = "#/components/schemas/"


def json_schema(check: Checker, components: dict[str, Any], inline: bool = False) -> dict[str, Any]:
    """The JSON Schema of ``check``. Named checkers become ``$ref``s, their schemas added to
    ``components`` (name -> schema); ``inline`` renders a named checker itself."""
    name = _component(check)
    if name and not inline:
        declared = _DECLARED.setdefault(name, id(_schema_of(check)))
        if declared != id(_schema_of(check)):
            raise ValueError(
                f"two different declarations are named {name!r}: declare it once and import it"
            )
        if name not in components:
            components[name] = None  # placeholder: recursion guard
            components[name] = json_schema(check, components, inline=True)
        return {"$ref": REF_PREFIX + name}
    return _render(_schema_of(check), components)


_DECLARED: dict[str, int] = {}
"""Component name -> the identity of the one JSON Schema declared under it."""


def _component(check: Checker) -> str | None:
    return getattr(check, "component", None)


def _schema_of(check: Checker) -> dict[str, Any]:
    try:
        return check.schema  # type: ignore[attr-defined]
    except AttributeError:
        raise TypeError(
            f"{check.__qualname__} has no JSON Schema: declare it with fields.custom"
        ) from None


def _render(node: Any, components: dict[str, Any]) -> Any:
    if callable(node):
        return json_schema(node, components)
    if isinstance(node, dict):
        if "propertyName" in node:  # a discriminator: its mapping names schemas by reference
            return {
                **node,
                "mapping": {
                    k: json_schema(v, components)["$ref"] for k, v in node["mapping"].items()
                },
            }
        return {
            k: json_schema(v, components)["$ref"]
            if k == "$ref" and callable(v)
            else _render(v, components)
            for k, v in node.items()
        }
    if isinstance(node, list):
        return [_render(v, components) for v in node]
    return node


STR: Checker = _spec(_str, {"type": "string"}, str)
JSON_INT_MIN, JSON_INT_MAX = -(1 << 63), (1 << 64) - 1
"""The integers a request can carry: the service reads JSON with orjson, which reads integers in
this range as integers and any beyond it as floats (refused as "Not a valid integer."). The spec
says so (``minimum``/``maximum`` of every integer not bounded more narrowly)."""
INT: Checker = _spec(
    _int, {"type": "integer", "minimum": JSON_INT_MIN, "maximum": JSON_INT_MAX}, int
)
BOOL: Checker = _spec(_bool, {"type": "boolean"}, bool)
NUMBER: Checker = _spec(_number, {"type": "number"})
OBJECT: Checker = _spec(_object, {"type": "object"})
ANY: Checker = _spec(_any, {})


def string(min_len: int | None = None, max_len: int | None = None) -> Checker:
    """A string, optionally with a length range (in characters)."""
    lo = 0 if min_len is None else min_len
    hi = max_len

    def check(value: Any) -> Errors | None:
        if type(value) is not str:
            return [MSG["str"]]
        n = len(value)
        if n < lo or (hi is not None and n > hi):
            if hi is None:
                return [f"Shorter than minimum length {lo}."]
            return [f"Length must be between {lo} and {hi}."]
        return None

    return _spec(check, _bounded("string", minLength=min_len, maxLength=max_len))


def integer(minimum: int | None = None, maximum: int | None = None) -> Checker:
    def check(value: Any) -> Errors | None:
        if type(value) is not int:
            return [MSG["int"]]
        if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
            return [
                f"Must be greater than or equal to {minimum} and less than or equal to {maximum}."
            ]
        return None

    return _spec(
        check,
        _bounded(
            "integer",
            minimum=JSON_INT_MIN if minimum is None else minimum,
            maximum=JSON_INT_MAX if maximum is None else maximum,
        ),
    )


def _bounded(json_type: str, **bounds: int | None) -> dict[str, Any]:
    """``{"type": json_type}`` with the bounds that are given."""
    return {"type": json_type, **{k: v for k, v in bounds.items() if v is not None}}


def one_of(choices: Iterable[str]) -> Checker:
    """One string out of a fixed vocabulary."""
    ordered = list(dict.fromkeys(choices))
    allowed = frozenset(ordered)
    listed = ", ".join(sorted(allowed))

    def check(value: Any) -> Errors | None:
        if type(value) is not str:
            return [MSG["str"]]
        if value not in allowed:
            return [f"Must be one of: {listed}."]
        return None

    if len(ordered) == 1:
        return _spec(check, {"type": "string", "const": ordered[0]})
    return _spec(check, {"type": "string", "enum": ordered})


def tagged(tag: str, variants: Mapping[str, Checker]) -> Checker:
    """A JSON object whose ``tag`` member (a string) picks which of ``variants`` it must pass:
    ``oneOf`` with a ``discriminator`` in the spec, so generated clients parse each variant as its
    own type."""
    known = dict(variants)
    listed = ", ".join(known)

    def check(value: Any) -> Errors | None:
        if type(value) is not dict:
            return [MSG["object"]]
        kind = value.get(tag)
        inner = known.get(kind) if type(kind) is str else None
        if inner is None:
            return {tag: [f"Must be one of: {listed}."]}
        return inner(value)

    return _spec(
        check,
        {
            "oneOf": list(known.values()),
            "discriminator": {"propertyName": tag, "mapping": dict(known)},
        },
    )


def either(*alternatives: Checker) -> Checker:
    """A value passing one of ``alternatives`` (the first one's messages otherwise)."""

    def check(value: Any) -> Errors | None:
        first = None
        for inner in alternatives:
            found = inner(value)
            if not found:
                return None
            first = first or found
        return first

    return _spec(check, {"oneOf": list(alternatives)})


def known_or(known: Any, inner: Checker) -> Checker:
    """``inner``, skipped when the value is ``known``: a value already known to have the right
    shape (a game's default content), recognised at C speed by its JSON.

    The value's JSON, its keys in the order they came, must be the known value's JSON with its
    keys sorted (the order the service writes states in, so a state it answered is recognised) or
    in the known value's own order (as the rules build it, so a state a client wrote from the
    rules' objects is too); a value in another order is merely checked in full. Equality alone is
    not enough: Python holds ``True == 1``, so a catalogue with ``true`` where the default has
    ``1`` used to pass unchecked, and the rules then answered with ``true`` in an integer field.
    Writing the JSON costs less than comparing the two values did."""
    known_json = {_json(known, orjson.OPT_SORT_KEYS), _json(known)} - {None}

    def check(value: Any) -> Errors | None:
        return None if _json(value) in known_json else inner(value)

    return _spec(check, {"$ref": inner} if _component(inner) else dict(_schema_of(inner)))


def _json(value: Any, option: int = 0) -> bytes | None:
    """``value`` as JSON (None: not a JSON value)."""
    try:
        return orjson.dumps(value, option=option)
    except TypeError:  # orjson's JSONEncodeError is one
        return None


def nullable(inner: Checker) -> Checker:
    def check(value: Any) -> Errors | None:
        return None if value is None else inner(value)

    return _spec(check, {"oneOf": [{"type": "null"}, inner]})


# -- containers -----------------------------------------------------------------------------------
def list_of(inner: Checker, max_items: int | None = None) -> Checker:
    """A JSON array whose every item passes ``inner``. ``max_items`` declares the documented limit
    on its length (the spec's ``maxItems``). The limit is a *meaning* of the content, not of its
    shape: the rules' setup validation enforces it with a 422 naming the limit, so the checker
    itself does not (a 400 would hide which limit was passed)."""
    schema: dict[str, Any] = {"type": "array", "items": inner}
    if max_items is not None:
        schema["maxItems"] = max_items
    item_type = getattr(inner, "scalar", None)
    if item_type is str or item_type is int:

        def check_simple(value: Any) -> Errors | None:
            if type(value) is not list:
                return [MSG["list"]]
            for item in value:
                if type(item) is not item_type:
                    break
            else:
                return None
            errors = {}
            for i, item in enumerate(value):
                if type(item) is not item_type:
                    errors[i] = inner(item)
                    if len(errors) >= MAX_ERRORS:
                        break
            return errors

        return _spec(check_simple, schema)

    def check(value: Any) -> Errors | None:
        if type(value) is not list:
            return [MSG["list"]]
        errors = None
        for i, item in enumerate(value):
            found = inner(item)
            if found:
                if errors is None:
                    errors = {}
                errors[i] = found
                if len(errors) >= MAX_ERRORS:
                    break
        return errors

    return _spec(check, schema)


def map_of(inner: Checker, key: Checker | None = None, max_items: int | None = None) -> Checker:
    """A JSON object with arbitrary keys (checked by ``key`` if given), values passing ``inner``;
    ``max_items`` declares the documented limit on its size (the spec's ``maxProperties``; a 422
    of the rules, like :func:`list_of`'s)."""

    def check(value: Any) -> Errors | None:
        if type(value) is not dict:
            return [MSG["object"]]
        errors = None
        for k, item in value.items():
            found = inner(item)
            if key is not None:
                bad_key = key(k)
                if bad_key:
                    found = (
                        [f"Invalid key: {message}" for message in bad_key]
                        if isinstance(bad_key, list)
                        else ["Invalid key."]
                    )
            if found:
                if errors is None:
                    errors = {}
                errors[k] = found
                if len(errors) >= MAX_ERRORS:
                    break
        return errors

    schema: dict[str, Any] = {"type": "object", "additionalProperties": inner}
    if key is not None:
        schema["propertyNames"] = key
    if max_items is not None:
        schema["maxProperties"] = max_items
    return _spec(check, schema)


def record(
    required: Mapping[str, Checker], optional: Mapping[str, Checker] | None = None
) -> Checker:
    """A JSON object with exactly these keys: ``required`` ones present, ``optional`` ones may be,
    nothing else (unknown keys are an error, like marshmallow's ``RAISE``)."""
    req = tuple(required.items())
    opt = dict(optional or {})
    known = frozenset(required) | frozenset(opt)
    n_req = len(req)

    def check(value: Any) -> Errors | None:
        if type(value) is not dict:
            return [MSG["object"]]
        errors = None
        for name, inner in req:
            if name in value:
                found = inner(value[name])
            else:
                found = [MSG["required"]]
            if found:
                if errors is None:
                    errors = {}
                errors[name] = found
        if errors is not None or len(value) != n_req or opt:
            for name, item in value.items():
                if name in opt:
                    found = opt[name](item)
                elif name not in known:
                    found = [MSG["unknown"]]
                else:
                    continue
                if found:
                    if errors is None:
                        errors = {}
                    errors[name] = found
        return errors

    schema: dict[str, Any] = {"type": "object"}
    if req:
        schema["required"] = [name for name, _ in req]
    schema["additionalProperties"] = False
    schema["properties"] = {**dict(req), **opt}
    _spec(check, schema)
    # Fast path for a record with the right keys and every value of the right shape: one pass
    # over the required fields (a scalar field is one ``type(x) is t`` test, no call), then the
    # optional ones present. Anything wrong takes the full check above, which says what.
    plan = tuple((name, getattr(inner, "scalar", None), inner) for name, inner in req)
    required_names = frozenset(required)

    def check_fast(value: Any) -> Errors | None:
        if type(value) is dict and len(value) >= n_req:
            try:
                for name, t, inner in plan:
                    item = value[name]
                    if t is not None:
                        if type(item) is not t:
                            return check(value)
                    elif inner(item) is not None:
                        return check(value)
            except KeyError:
                return check(value)
            if len(value) == n_req:
                return None
            for name, item in value.items():
                extra = opt.get(name)
                if extra is None:
                    if name not in required_names:
                        return check(value)
                elif extra(item) is not None:
                    return check(value)
            return None
        return check(value)

    return _spec(check_fast, schema)


# -- shape only -----------------------------------------------------------------------------------
def shape_only(check: Checker, instead: Mapping[Checker, Checker] | None = None) -> Checker:
    """The shape of ``check``, documented as ``check``: the same JSON types, required and unknown
    keys, nesting and ``null``s, but every vocabulary, bound, length and pattern left to the
    rules (their 422 names the broken rule; a 400 would not). So one declaration (a record of a
    view, with its enums and descriptions) also checks the state that carries the same record.

    Strings, integers, booleans and numbers become ``STR``, ``INT``, ``BOOL``, ``NUMBER``;
    records, lists and maps keep their structure; anything else (``custom`` checkers, unions)
    is kept as it is. ``instead`` maps a checker met inside ``check`` to the check to run in its
    place (a state that keeps content the rules validate more loosely than the view shows it)."""
    loose = _clone(_loosen(check, instead or {}))
    loose.schema = {"$ref": check} if _component(check) else _schema_of(check)  # type: ignore[attr-defined]
    loose.component = None  # type: ignore[attr-defined]
    return loose


_LOOSE = {"string": STR, "integer": INT, "boolean": BOOL, "number": NUMBER}


def _loosen(check: Checker, instead: Mapping[Checker, Checker]) -> Checker:
    if check in instead:
        return instead[check]
    schema = _schema_of(check)
    ref = schema.get("$ref")
    if callable(ref):
        return _loosen(ref, instead)
    union = schema.get("oneOf")
    if (
        union is not None
        and "discriminator" not in schema
        and len(union) == 2
        and {"type": "null"} in union
    ):
        inner = next(u for u in union if u != {"type": "null"})
        return nullable(_loosen(inner, instead)) if callable(inner) else check
    json_type = schema.get("type")
    if union is None and isinstance(json_type, str) and json_type in _LOOSE:
        return _LOOSE[json_type]
    if json_type == "array" and callable(schema.get("items")) and set(schema) <= _ARRAY_KEYS:
        return list_of(_loosen(schema["items"], instead))
    if (
        json_type == "object"
        and "properties" in schema
        and all(map(callable, schema["properties"].values()))
    ):
        required = set(schema.get("required", ()))
        props = schema["properties"]
        return record(
            {k: _loosen(v, instead) for k, v in props.items() if k in required},
            {k: _loosen(v, instead) for k, v in props.items() if k not in required},
        )
    if json_type == "object" and callable(schema.get("additionalProperties")):
        return map_of(_loosen(schema["additionalProperties"], instead))
    return check


_ARRAY_KEYS = frozenset(
    {"type", "items", "maxItems", "minItems", "uniqueItems", "description", "examples"}
)


# -- marshmallow fields ---------------------------------------------------------------------------
class Shape(fields.Field):
    """A marshmallow field checked by a compiled ``Checker``; loads the value unchanged. Its JSON
    Schema is the checker's (``description`` documents the field)."""

    def __init__(self, checker: Checker, description: str | None = None, **kwargs: Any) -> None:
        if description is not None:
            kwargs["metadata"] = {**kwargs.get("metadata", {}), "description": description}
        super().__init__(**kwargs)
        self.checker = checker

    def _deserialize(
        self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any
    ) -> Any:
        errors = self.checker(value)
        if errors:
            raise ValidationError(errors)
        return value


_Plan = tuple[frozenset[str], tuple[tuple[str, bool, bool, Checker], ...]]
_PLANS: dict[int, _Plan | None] = {}


def _plan(schema: Schema) -> _Plan | None:
    """What ``schema`` accepts, when every field is a ``Shape``: its field names and, per field,
    (name, required, allow_none, checker). None for a schema with other fields, or with checks
    across fields (``@validates_schema``, e.g. a session's ``seed`` needs ``open``)."""
    key = id(schema)
    if key not in _PLANS:
        declared = schema.fields
        shapes = {name: f for name, f in declared.items() if isinstance(f, Shape)}
        hooks = getattr(type(schema), "_hooks", {})
        if (
            not hooks.get("validates_schema")
            and len(shapes) == len(declared)
            and all(f.data_key is None for f in shapes.values())
        ):
            _PLANS[key] = (
                frozenset(declared),
                tuple((name, f.required, f.allow_none, f.checker) for name, f in shapes.items()),
            )
        else:
            _PLANS[key] = None
    return _PLANS[key]


def load(schema: Schema, data: Any) -> Any:
    """``schema.load(data)``, fast on the happy path.

    marshmallow's own machinery costs about a microsecond and a half per field; on states and moves
    checked on every request that is most of the validation time. When every field of ``schema``
    is a ``Shape``, the data is checked here directly and, if it conforms, returned as is (a Shape
    loads values unchanged, so marshmallow would return an equal dict). Anything else goes through
    ``schema.load``, which produces marshmallow's usual error messages.
    """
    plan = _plan(schema)
    if plan is not None and type(data) is dict:
        names, fields_ = plan
        if names.issuperset(data):
            for name, required, allow_none, checker in fields_:
                if name in data:
                    value = data[name]
                    if value is None:
                        if not allow_none:
                            break
                    elif checker(value) is not None:
                        break
                elif required:
                    break
            else:
                return data
    return schema.load(data)
