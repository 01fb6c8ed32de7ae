"""``openapi.yaml`` is generated (``reign-referee openapi``): it must be exactly what the generator
writes from ``schemas/`` now, and every shape it documents must come from one declaration."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from api.cli import main
from api.ops import OPENAPI_PATH
from schemas import SCHEMAS
from schemas.openapi import game_prefix, render

ROOT = Path(__file__).resolve().parents[2]
SPEC_FILE = ROOT / "openapi.yaml"


def test_openapi_yaml_is_what_the_generator_writes():
    assert SPEC_FILE.read_text("utf-8") == render(), (
        "openapi.yaml is stale: run `.venv/bin/reign-referee openapi` and review the diff"
    )


def test_the_top_level_spec_is_the_one_the_package_serves():
    """One generated file: ``api/openapi.yaml`` ships in the wheel and is served; the top-level
    ``openapi.yaml`` (what people and tools open) is a symlink to it, never a second copy."""
    assert SPEC_FILE.is_symlink()
    assert SPEC_FILE.resolve() == OPENAPI_PATH.resolve()
    assert OPENAPI_PATH.parent.name == "api" and OPENAPI_PATH.is_file()


def test_the_default_output_is_the_served_spec(capsys):
    assert main(["openapi", "--check"]) == 0  # checks api/openapi.yaml


@pytest.mark.slow  # generates the spec twice
def test_the_check_command_tells_stale_from_fresh(tmp_path, capsys):
    stale = tmp_path / "openapi.yaml"
    stale.write_text("openapi: 3.1.0\n", "utf-8")
    assert main(["openapi", "--output", str(stale), "--check"]) == 1
    assert main(["openapi", "--output", str(stale)]) == 0
    assert main(["openapi", "--output", str(stale), "--check"]) == 0


def test_each_game_operation_is_typed_per_game():
    spec = yaml.safe_load(SPEC_FILE.read_text("utf-8"))
    for game_id in SCHEMAS:
        p = game_prefix(game_id)
        apply = spec["paths"][f"/v1/games/{game_id}/apply"]["post"]
        assert apply["requestBody"]["content"]["application/json"]["schema"] == {
            "$ref": f"#/components/schemas/{p}MoveRequest"
        }
        moves = spec["components"]["schemas"][p + "Move"]
        assert set(moves["discriminator"]["mapping"]) == set(SCHEMAS[game_id].move.types)
        events = spec["components"]["schemas"][p + "Event"]
        assert events["discriminator"]["propertyName"] == "type"
    assert not [path for path in spec["paths"] if path.startswith("/v1/games/{game}/")]


def test_a_field_added_to_a_declaration_appears_in_the_spec():
    """The spec's state schema lists exactly the fields the request checker knows."""
    spec = yaml.safe_load(SPEC_FILE.read_text("utf-8"))
    for game_id, shapes in SCHEMAS.items():
        documented = spec["components"]["schemas"][game_prefix(game_id) + "State"]
        assert set(documented["properties"]) == set(shapes.state.fields)
        assert set(documented["required"]) == {
            n for n, f in shapes.state.fields.items() if f.required
        }


def test_the_catalogue_answers_are_told_apart_by_id():
    """``GameInfo`` and ``GameDetail`` are one schema per game, ``id`` a ``const``, holding the
    game's own options and content: every option is optional, so an ``anyOf`` of the games'
    options could not be told apart."""
    schemas = yaml.safe_load(SPEC_FILE.read_text("utf-8"))["components"]["schemas"]
    for name in ("GameInfo", "GameDetail"):
        assert schemas[name]["discriminator"] == {
            "propertyName": "id",
            "mapping": {g: f"#/components/schemas/{game_prefix(g)}{name}" for g in SCHEMAS},
        }
    for game_id in SCHEMAS:
        p = game_prefix(game_id)
        info = schemas[p + "GameInfo"]["properties"]
        assert info["id"] == {"type": "string", "const": game_id}
        assert info["options"]["$ref"] == f"#/components/schemas/{p}Options"
        base, content = schemas[p + "GameDetail"]["allOf"]
        assert base == {"$ref": f"#/components/schemas/{p}GameInfo"}
        assert content["properties"]["content"]["$ref"] == f"#/components/schemas/{p}Content"
