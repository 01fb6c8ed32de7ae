"""The examples of openapi.yaml are real: valid against their schemas, and what the server says.

* every example (request, response, schema-level) validates against the schema it illustrates;
* every request example, sent to the app, gets the response the spec pairs with it (the
  response example of the same name for the same operation, compared exactly);
* the generated examples block is what ``reign-referee examples`` (``schemas.examples``) builds
  from the current rules and app (if this fails after a rules change, rerun the generator).
"""

from __future__ import annotations

import json

import jsonschema
import pytest
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from api import cli

from .oapi import SPEC_URI, spec_dict

HTTP_METHODS = ("get", "post", "put", "patch", "delete")


def _pointer(*parts: str) -> str:
    return "/" + "/".join(p.replace("~", "~0").replace("/", "~1") for p in parts)


def _validator(pointer: str) -> jsonschema.Draft202012Validator:
    registry = Registry().with_resource(SPEC_URI, Resource(spec_dict(), specification=DRAFT202012))
    return jsonschema.Draft202012Validator({"$ref": f"{SPEC_URI}#{pointer}"}, registry=registry)


def _resolve(obj: dict) -> dict:
    spec = spec_dict()
    while "$ref" in obj:
        parts = obj["$ref"].lstrip("#/").split("/")
        node = spec
        for part in parts:
            node = node[part.replace("~1", "/").replace("~0", "~")]
        obj = node
    return obj


def _examples_in_use():
    """(where, schema pointer, example name, value) for every example under paths."""
    spec = spec_dict()
    for path, item in spec["paths"].items():
        for method in HTTP_METHODS:
            op = item.get(method)
            if op is None:
                continue
            body = _resolve(op.get("requestBody", {}))
            for media, content in body.get("content", {}).items():
                for name, example in content.get("examples", {}).items():
                    yield (
                        f"{method} {path} request {name}",
                        (path, method, "request", media),
                        name,
                        _resolve(example)["value"],
                    )
            for status, response in op["responses"].items():
                response = _resolve(response)
                for media, content in response.get("content", {}).items():
                    for name, example in content.get("examples", {}).items():
                        yield (
                            f"{method} {path} {status} {name}",
                            (path, method, status, media),
                            name,
                            _resolve(example)["value"],
                        )


def _schema_pointer(path: str, method: str, where: str, media: str) -> str:
    op = spec_dict()["paths"][path][method]
    if where == "request":
        body = op["requestBody"]
        if "$ref" in body:
            raise AssertionError("request bodies are inline in this spec")
        return _pointer("paths", path, method, "requestBody", "content", media, "schema")
    response = op["responses"][where]
    if "$ref" in response:
        name = response["$ref"].rsplit("/", 1)[1]
        return _pointer("components", "responses", name, "content", media, "schema")
    return _pointer("paths", path, method, "responses", where, "content", media, "schema")


EXAMPLES = list(_examples_in_use())


def test_every_operation_has_examples():
    spec = spec_dict()
    for path, item in spec["paths"].items():
        op = item.get("post")
        if op is None:
            continue
        assert op["requestBody"]["content"]["application/json"].get("examples"), f"POST {path}"
        success = op["responses"].get("200") or op["responses"]["201"]
        if set(success["content"]) == {"image/svg+xml"}:
            continue  # a picture: the request examples are the view's; no image is inlined
        assert success["content"]["application/json"].get("examples"), f"POST {path}"


@pytest.mark.parametrize("where,location,name,value", EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_example_matches_its_schema(where, location, name, value):
    errors = list(_validator(_schema_pointer(*location)).iter_errors(value))
    assert not errors, f"{where}: " + "; ".join(
        f"{'/'.join(map(str, e.absolute_path))}: {e.message[:300]}" for e in errors[:5]
    )


def test_schema_level_examples_match():
    for name, schema in spec_dict()["components"]["schemas"].items():
        for i, value in enumerate(schema.get("examples", [])):
            if isinstance(value, (dict, list)):
                errors = list(
                    _validator(_pointer("components", "schemas", name)).iter_errors(value)
                )
                assert not errors, f"{name} example {i}: {errors[0].message[:300]}"


def test_request_examples_get_the_documented_responses(contract):
    """Each request example sent as is; a response example of the same name is what comes back."""
    spec = spec_dict()
    checked = 0
    for path, item in spec["paths"].items():
        op = item.get("post")
        if op is None or not path.startswith("/v1/games"):
            # session answers hold fresh random tokens: tests/contract/test_contract_sessions.py
            continue
        url = path.replace("{game}", "reign-and-ruin")
        for name, example in op["requestBody"]["content"]["application/json"]["examples"].items():
            body = _resolve(example)["value"]
            illegal = name == "illegal" and path.endswith("/apply")
            ex = contract.call("POST", url, body, expect=422 if illegal else 200)
            status = "422" if illegal else "200"
            response = _resolve(op["responses"][status])
            documented = response["content"][ex.response.mimetype].get("examples", {})
            if illegal:
                documented = {"illegal": documented["illegalMove"]}
            if name in documented:
                assert ex.json == _resolve(documented[name])["value"], f"POST {path} example {name}"
                checked += 1
    assert (
        checked >= 10 + 6 * 3
    )  # Reign & Ruin's hand-picked ones, six operations of each other game


def test_generated_examples_are_up_to_date():
    """``reign-referee examples --check``: the block is what the generator writes from the app
    now."""
    assert cli.main(["examples", "--check"]) == 0, (
        "the examples in schemas/openapi_base.yaml differ from what the rules and app give "
        "now; run `reign-referee examples`, then `reign-referee openapi`, and review the diff"
    )


def test_anchored_states_parse_as_plain_json():
    """The YAML anchors of the shared states resolve to plain JSON objects."""
    examples = spec_dict()["components"]["examples"]
    assert (
        examples["MoveRequestDestroy"]["value"]["state"]
        == examples["MidGameState"]["value"]["state"]
    )
    json.dumps(spec_dict())
