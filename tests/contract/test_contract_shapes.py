"""One declaration per shape (``schemas.fields``): ``shape_only`` derives a state's shape check
from the documented declaration a view uses, and a component name has one declaration.

Cheap: no app, no spec file.
"""

from __future__ import annotations

import pytest

from schemas import SCHEMAS, reign_and_ruin, reign_supreme
from schemas.fields import (
    INT,
    STR,
    doc,
    integer,
    json_schema,
    list_of,
    named,
    one_of,
    record,
    shape_only,
)

FACTION = doc(one_of(["hexen", "crou"]), "A faction.")
CARD = named(
    "TestCard",
    record({"faction": FACTION, "value": integer(1, 9)}, {"tags": list_of(one_of(["x"]))}),
)


def test_shape_only_checks_json_types_and_keys_but_no_vocabulary_or_bound():
    loose = shape_only(CARD)
    assert (
        CARD({"faction": "nomora", "value": 42}) is not None
    )  # the view's declaration refuses both
    assert loose({"faction": "nomora", "value": 42}) is None  # the rules' 422, not a 400
    assert loose({"faction": "hexen", "value": 3, "tags": ["y"]}) is None
    assert loose({"faction": 3, "value": 3}) == {"faction": ["Not a valid string."]}
    assert loose({"faction": "hexen", "value": "3"}) == {"value": ["Not a valid integer."]}
    assert loose({"faction": "hexen"}) == {"value": ["Missing data for required field."]}
    assert loose({"faction": "hexen", "value": 3, "extra": 1}) == {"extra": ["Unknown field."]}
    assert loose({"faction": "hexen", "value": 3, "tags": "x"}) == {"tags": ["Not a valid list."]}


def test_shape_only_is_documented_as_the_declaration():
    components: dict = {}
    assert json_schema(shape_only(CARD), components) == {"$ref": "#/components/schemas/TestCard"}
    assert components["TestCard"]["properties"]["faction"] == {
        "type": "string",
        "enum": ["hexen", "crou"],
        "description": "A faction.",
    }
    assert json_schema(shape_only(FACTION), {}) == json_schema(FACTION, {})


def test_shape_only_runs_the_given_check_in_place_of_a_declaration():
    loose = shape_only(list_of(CARD), {CARD: INT})
    assert loose([1, 2]) is None
    assert loose([{"faction": "hexen", "value": 1}]) == {0: ["Not a valid integer."]}


def test_a_component_name_has_one_declaration():
    first = named("TestTwice", doc(STR, "One."))
    json_schema(first, {})
    json_schema(named("TestTwice", first), {})  # the same declaration, named again: fine
    with pytest.raises(ValueError, match="TestTwice"):
        json_schema(named("TestTwice", doc(STR, "Two.")), {})


@pytest.mark.parametrize(
    "state_field,declaration",
    [
        (reign_and_ruin.StateSchema().fields["final_round"], reign_and_ruin.FINAL_ROUND),
        (reign_supreme.StateSchema().fields["scenario"], reign_supreme.RSScenarioInPlay),
    ],
)
def test_states_refer_to_the_declarations_their_views_use(state_field, declaration):
    components: dict = {}
    rendered = json_schema(state_field.checker, components)
    assert rendered == json_schema(declaration, components)


def test_every_game_phase_is_the_rules_list():
    from rules.reign_absolute.integrity import PHASES as RA
    from rules.reign_and_ruin.integrity import PHASES as RR
    from rules.reign_supreme.integrity import PHASES as RS
    from rules.reigns_the_council.integrity import PHASES as RTC

    for game_id, phases in (
        ("reign-and-ruin", RR),
        ("reign-absolute", RA),
        ("reign-supreme", RS),
        ("reigns-the-council", RTC),
    ):
        rendered = json_schema(SCHEMAS[game_id].state.fields["phase"].checker, {})
        assert rendered["enum"] == list(phases), game_id


@pytest.mark.parametrize("game_id", sorted(SCHEMAS))
def test_move_schemas_are_the_rules_move_types(game_id):
    """The rules list a game's move types; ``schemas/`` declares one schema for each, no other."""
    from rules.registry import GAMES

    assert set(SCHEMAS[game_id].move.types) == set(GAMES[game_id].move_types)
