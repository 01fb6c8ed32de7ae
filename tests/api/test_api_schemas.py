"""The marshmallow shapes: they accept everything the rules produce, and name what is wrong."""

from __future__ import annotations

import random

import pytest
from marshmallow import ValidationError

import schemas
from api.errors import flatten_errors
from rules.playout import random_steps
from rules.registry import GAMES, get_game
from schemas.fields import (
    BOOL,
    INT,
    NUMBER,
    STR,
    known_or,
    list_of,
    map_of,
    nullable,
    one_of,
    record,
    string,
)

GAME = "reign-and-ruin"


def test_every_game_has_schemas():
    assert set(GAMES) <= set(schemas.SCHEMAS)
    assert schemas.for_game(GAME).game_id == GAME
    with pytest.raises(KeyError):
        schemas.for_game("nope")


def test_every_move_type_has_a_schema():
    assert set(schemas.for_game(GAME).move.types) == set(get_game(GAME).move_types)


@pytest.mark.parametrize("players", [["a", "b"], ["a", "b", "c"], ["a", "b", "c", "d"]])
def test_schemas_accept_every_state_and_move_of_random_games(players):
    game, shapes = get_game(GAME), schemas.for_game(GAME)
    seen_types = set()
    for seed in range(12):
        chooser = random.Random(seed)
        state = game.setup(players, seed, {})
        shapes.load_state(state)
        for step in random_steps(game, state, chooser):
            for move in step.legal:
                shapes.load_move(move)
                seen_types.add(move["type"])
            shapes.load_state(step.after)
    assert seen_types == set(game.move_types)


def test_custom_deck_states_pass():
    deck = [{"faction": "hexen", "value": 99, "id": "x"}] + [{"faction": "crou", "value": 3}] * 20
    state = get_game(GAME).setup(["a", "b"], 1, {"deck": deck})
    schemas.for_game(GAME).load_state(state)


def messages(fn, value):
    with pytest.raises(ValidationError) as err:
        fn(value)
    return flatten_errors(err.value.messages)


def test_state_errors_use_paths_from_the_body_root():
    shapes = schemas.for_game(GAME)
    state = get_game(GAME).setup(["a", "b"], 1, {})
    state["armies"]["a"] = [{"card": "hexen-1", "kurgoz": True, "cognitz": 0, "extra": 1}]
    state["draft"]["picks"] = {"a": [1]}
    state["outcome"] = {"winners": ["a"], "draw": False, "scores": {"a": "1"}}
    assert messages(shapes.load_state, state) == {
        "state.armies.a.0.kurgoz": ["Not a valid integer."],
        "state.armies.a.0.cognitz": ["Not a valid boolean."],
        "state.armies.a.0.extra": ["Unknown field."],
        "state.draft.picks.a.0": ["Not a valid string."],
        "state.outcome.scores.a": ["Not a valid number."],
        "state.outcome.reason": ["Missing data for required field."],
    }


def test_nullable_state_fields():
    shapes = schemas.for_game(GAME)
    state = get_game(GAME).setup(["a", "b"], 1, {})
    for name in ("outcome", "draft", "final_round", "starting_player"):
        shapes.load_state(dict(state, **{name: None}))
    assert messages(shapes.load_state, dict(state, players=None)) == {
        "state.players": ["Field may not be null."]
    }


@pytest.mark.parametrize(
    "move, errors",
    [
        ({"player": "a", "type": "jump"}, {"move.type": None}),
        ({"player": "a"}, {"move.type": ["Missing data for required field."]}),
        ({"player": "a", "type": None}, {"move.type": ["Not a valid string."]}),
        ({"player": "a", "type": "fighter"}, {"move.card": ["Missing data for required field."]}),
        (
            {"player": "", "type": "fighter", "card": "x"},
            {"move.player": ["Length must be between 1 and 64."]},
        ),
        (
            {"player": "a", "type": "fighter", "card": "x", "to": "army"},
            {"move.to": ["Unknown field."]},
        ),
        (
            {"player": "a", "type": "swap", "card": "x", "opponent": "b", "take": None},
            {"move.take": ["Field may not be null."]},
        ),
        (
            {"player": "a", "type": "revive", "card": "x", "target": "y", "to": "void"},
            {"move.to": ["Must be one of: army, hand."]},
        ),
        (
            {"player": "a", "type": "draft", "cards": [1, "b"]},
            {"move.cards.0": ["Not a valid string."]},
        ),
        ([], {"move": ["Not a valid mapping type."]}),
    ],
)
def test_move_errors(move, errors):
    found = messages(schemas.for_game(GAME).load_move, move)
    assert set(found) == set(errors)
    for path, expected in errors.items():
        if expected is not None:
            assert found[path] == expected


def test_unknown_move_type_message_is_bounded():
    found = messages(schemas.for_game(GAME).load_move, {"player": "a", "type": "x" * 10_000})
    assert len(found["move.type"][0]) < 300


def test_checkers_keep_booleans_and_integers_apart():
    assert INT(True) and INT(1.0) and not INT(3) and not INT(-(10**100))
    assert BOOL(1) and BOOL(0) and not BOOL(False)
    assert NUMBER(True) and not NUMBER(1.5) and not NUMBER(2)
    assert STR(b"x") and not STR("")


def test_container_checkers():
    ids = list_of(STR)
    assert ids(["a", "b"]) is None
    assert ids("ab") == ["Not a valid list."]
    assert ids(["a", 1, None]) == {1: ["Not a valid string."], 2: ["Not a valid string."]}
    by_player = map_of(ids, key=string(1, 3))
    assert by_player({"ann": []}) is None
    assert by_player({"anne": []}) == {"anne": ["Invalid key: Length must be between 1 and 3."]}
    card = record({"faction": STR, "value": INT})
    assert card({"faction": "x", "value": 1}) is None
    assert card({"faction": "x", "value": True}) == {"value": ["Not a valid integer."]}
    assert card({"faction": "x", "colour": 1}) == {
        "value": ["Missing data for required field."],
        "colour": ["Unknown field."],
    }
    assert card({"faction": "x", "value": 1, "id": "y"}) == {"id": ["Unknown field."]}
    assert card([]) == ["Not a valid mapping type."]
    optional = record({"a": INT}, {"b": nullable(one_of(["x"]))})
    assert optional({"a": 1}) is None and optional({"a": 1, "b": None}) is None
    assert optional({"a": 1, "b": "y"}) == {"b": ["Must be one of: x."]}


def test_a_records_scalars_checked_at_once_refuse_as_one_by_one():
    """Issue 28: a record's scalar fields are checked together (their types as one tuple); a
    wrong one, a ``true`` for an integer, a missing one, is still refused, naming the field,
    whether the record has many scalars, one, or none beside nested fields."""
    many = record({"a": INT, "b": STR, "c": BOOL, "d": list_of(INT)})
    assert many({"a": 1, "b": "x", "c": False, "d": [2]}) is None
    assert many({"a": True, "b": "x", "c": False, "d": []}) == {"a": ["Not a valid integer."]}
    assert many({"a": 1, "b": "x", "c": 0, "d": [True]}) == {
        "c": ["Not a valid boolean."],
        "d": {0: ["Not a valid integer."]},
    }
    assert many({"a": 1, "b": "x", "d": [], "e": 1}) == {
        "c": ["Missing data for required field."],
        "e": ["Unknown field."],
    }
    one = record({"a": INT, "n": nullable(STR)})
    assert one({"a": 1, "n": None}) is None
    assert one({"a": 1.0, "n": None}) == {"a": ["Not a valid integer."]}
    none = record({"n": nullable(STR)})
    assert none({"n": "x"}) is None and none({"n": 1}) == {"n": ["Not a valid string."]}


def test_flatten_errors():
    assert flatten_errors({"state": {"hands": {"ann": {0: ["bad"]}}, "_schema": ["whole"]}}) == {
        "state.hands.ann.0": ["bad"],
        "state": ["whole"],
    }
    assert flatten_errors({"_schema": ["Invalid input type."]}) == {
        "_body": ["Invalid input type."]
    }
    assert flatten_errors(["x"]) == {"_body": ["x"]}


def _first_one(value, path=()):
    """The path of the first ``1`` in ``value`` (depth first)."""
    if type(value) is int and value == 1:
        return path
    items = (
        value.items() if type(value) is dict else enumerate(value) if type(value) is list else ()
    )
    for key, item in items:
        found = _first_one(item, (*path, key))
        if found is not None:
            return found
    return None


@pytest.mark.parametrize("game_id", ["reign-absolute", "reign-and-ruin", "reigns-the-council"])
def test_a_default_catalogue_with_true_for_1_is_refused_by_its_shape(game_id):
    """A game's default catalogue is recognised whole and not walked; ``true`` equals ``1`` in
    Python, and so passed unchecked, and the answer carried ``true`` in an integer field."""
    players = ["a", "b", "c"]
    state = get_game(game_id).setup(players, 3, {})
    path = _first_one(state["cards"], ("cards",))
    assert path is not None
    holder = state
    for key in path[:-1]:
        holder = holder[key]
    holder[path[-1]] = True
    errors = messages(schemas.for_game(game_id).load_state, state)
    field = "state." + ".".join(map(str, path))
    assert any(name.startswith(field) or field.startswith(name) for name in errors), errors
    holder[path[-1]] = 1
    schemas.for_game(game_id).load_state(state)  # the default itself still passes


def test_known_content_is_recognised_by_its_json_in_the_services_key_order():
    """``known_or`` skips its checker for the known value written with sorted keys (as the
    service writes states) or in its own order (as the rules build it), and for nothing else:
    not ``true`` for ``1``, not another order. The known value here is one the checker would
    refuse, to show when it is skipped."""
    checker = known_or({"c": 0, "b": "x", "a": 1}, map_of(INT))
    assert checker({"a": 1, "b": "x", "c": 0}) is None  # sorted: not checked
    assert checker({"c": 0, "b": "x", "a": 1}) is None  # the known value's own order: neither
    assert checker({"b": "x", "a": 1, "c": 0})  # another order: checked in full (and refused)
    assert checker({"a": True, "b": "x", "c": 0})  # equal in Python, but not the known JSON
    assert checker({"a": 1, "b": "x", "c": False})
    assert checker({"a": 1, "b": "x", "c": 0, "d": 2})
    assert known_or({"a": 1}, map_of(INT))({"a": True}) == {"a": [INT(True)[0]]}
