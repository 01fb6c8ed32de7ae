"""Contract-test helpers: the spec, openapi-core validation of Flask test-client exchanges.

``Contract`` wraps a Flask test client. Every call it makes is checked against
``openapi.yaml`` with openapi-core: the response always (status documented, content type,
body schema), the request too when the caller says it is a valid one. Exchanges on paths or
methods the spec does not document (unknown paths, 405s) have their body checked against the
``Problem`` schema instead.
"""

from __future__ import annotations

import json
import re
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import jsonschema
import yaml
from openapi_core import Config, OpenAPI
from openapi_core.contrib.werkzeug import WerkzeugOpenAPIResponse
from openapi_core.deserializing.media_types.util import json_loads
from openapi_core.testing import MockRequest
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

ROOT = Path(__file__).resolve().parents[2]
SPEC_PATH = ROOT / "openapi.yaml"
HOST = "http://localhost"
SPEC_URI = "urn:reign-referee:openapi"


def _yaml_loads(value: bytes, **_: str) -> Any:
    return yaml.safe_load(value)


def _text_loads(value: bytes, **params: str) -> str:
    return value.decode(params.get("charset", "utf-8"))


@lru_cache(maxsize=1)
def spec_dict() -> dict[str, Any]:
    return yaml.safe_load(SPEC_PATH.read_text("utf-8"))


@lru_cache(maxsize=1)
def openapi() -> OpenAPI:
    config = Config(
        extra_media_type_deserializers={
            "application/problem+json": json_loads,
            "application/yaml": _yaml_loads,
            "text/html": _text_loads,
            "image/svg+xml": _text_loads,
        }
    )
    return OpenAPI.from_file_path(str(SPEC_PATH), config=config)


@cache
def component_validator(name: str) -> jsonschema.Draft202012Validator:
    """A JSON Schema validator for ``#/components/schemas/<name>`` (refs resolved in the spec)."""
    registry = Registry().with_resource(SPEC_URI, Resource(spec_dict(), specification=DRAFT202012))
    return jsonschema.Draft202012Validator(
        {"$ref": f"{SPEC_URI}#/components/schemas/{name}"}, registry=registry
    )


def check_component(name: str, instance: Any) -> None:
    errors = sorted(component_validator(name).iter_errors(instance), key=lambda e: list(e.path))
    if errors:
        raise AssertionError(
            f"not a valid {name}: "
            + "; ".join(
                f"{'/'.join(map(str, e.absolute_path))}: {e.message[:300]}" for e in errors[:5]
            )
        )


def find_template(path: str) -> str | None:
    """The documented path template that ``path`` matches, if any."""
    for template in spec_dict()["paths"]:
        pattern = "^" + re.sub(r"\\\{[^{}]+\\\}", "[^/]+", re.escape(template)) + "$"
        if re.match(pattern, path):
            return template
    return None


def documented(method: str, path: str) -> bool:
    template = find_template(path)
    return template is not None and method.lower() in spec_dict()["paths"][template]


class Exchange:
    """One request and its response."""

    def __init__(
        self, method: str, path: str, body: bytes, content_type: str | None, response: Any
    ):
        self.method = method
        self.path = path
        self.body = body
        self.content_type = content_type
        self.response = response
        self.status = response.status_code

    @property
    def json(self) -> Any:
        return json.loads(self.response.get_data())

    def __repr__(self) -> str:
        return (
            f"{self.method} {self.path} {self.body[:300]!r} -> {self.status} "
            f"{self.response.mimetype} {self.response.get_data()[:500]!r}"
        )


class Contract:
    """A Flask test client whose every exchange is validated against the spec."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.exchanges = 0

    def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        raw: bytes | None = None,
        content_type: str | None = "application/json",
        valid_request: bool = True,
        expect: int | set[int] | None = None,
        headers: dict[str, str] | None = None,
    ) -> Exchange:
        """Send a request and validate it (when ``valid_request``) and its response.

        An exchange on an undocumented path or method (unknown path, 405) can only be checked
        for being a ``Problem``.
        """
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        headers = dict(headers or {})
        if data is not None and content_type is not None:
            headers["Content-Type"] = content_type
        response = self.client.open(path, method=method, data=data, headers=headers)
        ex = Exchange(method, path, data or b"", content_type, response)
        self.exchanges += 1
        if expect is not None:
            allowed = {expect} if isinstance(expect, int) else set(expect)
            assert ex.status in allowed, f"expected {sorted(allowed)}: {ex!r}"
        request = MockRequest(
            HOST,
            method,
            path,
            data=data or b"",
            content_type=content_type or "application/octet-stream",
            headers=headers,
        )
        on_record = documented(method, path)
        if valid_request and on_record:
            errors = list(openapi().iter_request_errors(request))
            assert not errors, f"request does not match the spec: {_explain(errors)}\n{ex!r}"
        if ex.status >= 400:
            assert response.mimetype == "application/problem+json", (
                f"error is not problem+json: {ex!r}"
            )
            problem = ex.json
            check_component("Problem", problem)
            assert problem["status"] == ex.status, (
                f"problem status differs from HTTP status: {ex!r}"
            )
        if on_record:
            errors = list(
                openapi().iter_response_errors(request, WerkzeugOpenAPIResponse(response))
            )
            assert not errors, f"response does not match the spec: {_explain(errors)}\n{ex!r}"
        return ex

    # -- shorthands for the game endpoints ---------------------------------------------------
    def post(self, game: str, action: str, body: Any, **kwargs: Any) -> Exchange:
        return self.call("POST", f"/v1/games/{game}/{action}", body, **kwargs)


def _explain(errors: list[Exception]) -> str:
    parts = []
    for err in errors:
        text = f"{type(err).__name__}: {err}"
        for sub in getattr(err, "schema_errors", None) or []:
            text += f"\n    at {'/'.join(map(str, sub.absolute_path))}: {str(sub.message)[:400]}"
        cause = err.__cause__
        if cause is not None:
            text += f"\n  cause {type(cause).__name__}: {str(cause)[:800]}"
            for sub in getattr(cause, "schema_errors", None) or []:
                text += (
                    f"\n    at {'/'.join(map(str, sub.absolute_path))}: {str(sub.message)[:400]}"
                )
        parts.append(text)
    return "\n".join(parts)
