"""The OpenAPI document: valid OpenAPI 3.1, and exactly the routes the app serves."""

from __future__ import annotations

import re

import pytest
from openapi_spec_validator import validate

from .oapi import SPEC_PATH, spec_dict

HTTP_METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}
IGNORED_METHODS = {"HEAD", "OPTIONS"}  # added to every route by Flask


def _template(rule: str) -> str:
    """A werkzeug rule as an OpenAPI path template with anonymous parameters."""
    return re.sub(r"<(?:[^:<>]+:)?[^<>]+>", "{}", rule)


def _spec_template(path: str) -> str:
    """A spec path with anonymous parameters; a game's concrete operations
    (``/v1/games/reign-supreme/apply``) are the app's ``/v1/games/<game>/apply``."""
    from rules.registry import GAMES

    parts = path.split("/")
    if len(parts) == 5 and parts[1:3] == ["v1", "games"] and parts[3] in GAMES:
        path = "/".join([*parts[:3], "{game}", parts[4]])
    return re.sub(r"\{[^{}]+\}", "{}", path)


def _app_routes(app) -> set[tuple[str, str]]:
    routes = set()
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static" or rule.rule.startswith("/static"):
            continue
        if rule.rule.startswith("/docs/") and rule.rule != "/docs/":
            continue  # Swagger UI assets (JS, CSS) served under /docs/
        for method in sorted((rule.methods or set()) - IGNORED_METHODS):
            routes.add((method.lower(), _template(rule.rule)))
            if rule.rule.endswith("/") and rule.strict_slashes and len(rule.rule) > 1:
                # werkzeug answers the path without the slash with a 308 redirect to it
                routes.add((method.lower(), _template(rule.rule.rstrip("/"))))
    return routes


def _spec_routes() -> set[tuple[str, str]]:
    return {
        (method, _spec_template(path))
        for path, item in spec_dict()["paths"].items()
        for method in item
        if method in HTTP_METHODS
    }


def test_spec_is_valid_openapi_3_1():
    spec = spec_dict()
    assert spec["openapi"].startswith("3.1.")
    validate(spec)


def test_spec_has_servers_tags_and_description():
    spec = spec_dict()
    assert spec["servers"] == [{"url": "/", "description": "This server"}]
    assert len(spec["info"]["description"]) > 500
    declared = {tag["name"] for tag in spec["tags"]}
    for path, item in spec["paths"].items():
        for method, op in item.items():
            if method in HTTP_METHODS:
                assert op.get("operationId"), f"{method} {path} has no operationId"
                assert set(op.get("tags", [])) <= declared and op.get("tags"), (
                    f"{method} {path} tags"
                )
                assert op.get("summary"), f"{method} {path} has no summary"


def test_every_route_is_documented(contract_app):
    missing = _app_routes(contract_app) - _spec_routes()
    assert not missing, f"routes served but not in openapi.yaml: {sorted(missing)}"


def test_every_documented_path_is_served(contract_app):
    extra = _spec_routes() - _app_routes(contract_app)
    assert not extra, f"operations in openapi.yaml the app does not serve: {sorted(extra)}"


def test_game_enum_is_the_registry():
    from rules.registry import GAMES

    enum = spec_dict()["components"]["schemas"]["GameId"]["enum"]
    assert sorted(enum) == sorted(GAMES)


def test_move_types_match_the_rules():
    """Every move type a game declares has exactly one schema in its move ``oneOf``."""
    from rules.registry import GAMES

    schemas = spec_dict()["components"]["schemas"]
    game = GAMES["reign-and-ruin"]
    mapping = schemas["ReignAndRuinMove"]["discriminator"]["mapping"]
    assert sorted(mapping) == sorted(game.move_types)
    assert len(schemas["ReignAndRuinMove"]["oneOf"]) == len(game.move_types)
    for move_type, ref in mapping.items():
        schema = schemas[ref.rsplit("/", 1)[1]]
        assert schema["properties"]["type"]["const"] == move_type
        assert schema["additionalProperties"] is False
        assert {"player", "type"} <= set(schema["required"])


NEVER_422 = ("ReplayRecord", "answerTakeback")
"""POST operations with no 422: a record that does not replay is a 200 ``valid: false`` (the
contract), and an answer to a takeback is either well-formed or a 400."""


def test_post_operations_document_every_error_status():
    for path, item in spec_dict()["paths"].items():
        for method, op in item.items():
            if method not in HTTP_METHODS:
                continue
            codes = set(op["responses"])
            assert "500" in codes, f"{method} {path} lacks 500"
            if method == "post":
                assert codes & {"200", "201"}, f"{method} {path}: {codes}"
                expected = {"400", "404", "413", "415", "422"}
                if op["operationId"].endswith(NEVER_422):
                    expected.discard("422")
                assert expected <= codes, f"{method} {path}: {codes}"
            if path.startswith("/v1/sessions"):
                assert "503" in codes, f"{method} {path}: the store may be down"
                if path != "/v1/sessions":
                    assert "404" in codes, f"{method} {path}: unknown session"


def test_session_operations_document_auth_and_concurrency():
    paths = spec_dict()["paths"]
    for path, method in [
        ("/v1/sessions/{session_id}", "get"),
        ("/v1/sessions/{session_id}", "delete"),
        ("/v1/sessions/{session_id}/legal-moves", "get"),
        ("/v1/sessions/{session_id}/moves", "post"),
    ]:
        assert {"401", "403"} <= set(paths[path][method]["responses"]), (method, path)
    moves = paths["/v1/sessions/{session_id}/moves"]["post"]
    assert {"409", "412"} <= set(moves["responses"])
    assert {p["name"] for p in moves["parameters"] if p["in"] == "header"} == {
        "If-Match",
        "Idempotency-Key",
    }
    assert "304" in paths["/v1/sessions/{session_id}"]["get"]["responses"]
    assert (
        "text/event-stream"
        in paths["/v1/sessions/{session_id}/events"]["get"]["responses"]["200"]["content"]
    )


@pytest.mark.parametrize(
    "name", ["SetupRequest", "StateRequest", "MoveRequest", "LegalMovesRequest", "ViewRequest"]
)
@pytest.mark.parametrize(
    "game", ["ReignAndRuin", "ReignAbsolute", "ReignSupreme", "ReignsTheCouncil"]
)
def test_request_envelopes_forbid_unknown_fields(game, name):
    assert spec_dict()["components"]["schemas"][game + name]["additionalProperties"] is False


def test_spec_file_is_the_top_level_document():
    assert SPEC_PATH.name == "openapi.yaml" and SPEC_PATH.parent.joinpath("pyproject.toml").exists()
