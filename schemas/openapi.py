"""The OpenAPI document, generated: ``reign-referee openapi`` writes ``api/openapi.yaml`` (served
from the package; the top-level ``openapi.yaml`` is a symlink to it).

Two inputs, each fact in one of them:

* ``schemas/openapi_base.yaml``: the prose a person writes (the introduction, each operation's
  summary and description, the problem responses, the session and operations endpoints, the
  examples). Game operations appear there once, as templates under ``/v1/games/{game}/...``.
* the declarations in ``schemas/``: request envelopes (``schemas.requests``), each game's state,
  options and moves (``schemas.<game>``) and its events, view, score breakdown and content
  (``schemas.<game>_answers``). Their JSON Schemas come from the checkers themselves
  (``schemas.fields``), assembled with apispec's marshmallow plugin.

Each game operation template becomes one concrete path per game (``/v1/games/reign-supreme/apply``)
whose request and answer schemas are that game's (``ReignSupremeMoveRequest`` ...), so a generated
client gets typed moves, events and views per game; moves and events are ``oneOf`` with a
``type`` discriminator. The server needs no new route for that: it serves ``/v1/games/<game>/...``.
"""

from __future__ import annotations

import copy
import importlib
import json
from pathlib import Path
from typing import Any

import yaml
from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from marshmallow import Schema
from marshmallow import fields as ma_fields

from rules.bots import BOTS, suggest
from rules.registry import GAMES
from schemas import (
    SCHEMAS,
    bots,
    records,
    reign_absolute_answers,
    reign_and_ruin_answers,
    reign_supreme_answers,
    reigns_the_council_answers,
    requests,
)
from schemas.common import OUTCOME, SCORES
from schemas.fields import (
    REF_PREFIX,
    Checker,
    Shape,
    custom,
    json_schema,
    list_of,
    nullable,
    record,
)

__all__ = ["BASE_PATH", "build", "render", "game_prefix"]

BASE_PATH = Path(__file__).resolve().parent / "openapi_base.yaml"

ANSWERS = {
    "reign-and-ruin": reign_and_ruin_answers,
    "reign-absolute": reign_absolute_answers,
    "reign-supreme": reign_supreme_answers,
    "reigns-the-council": reigns_the_council_answers,
}
"""Game id -> the module declaring its answers (events, view, score breakdown, content)."""

GAME_PATH = "/v1/games/{game}/"
_PER_GAME = ("State", "Move", "Event", "View", "Options", "ScoreBreakdown", "Content")
"""The shapes every game has its own of; the generic schema of each is the union of all games'."""
_BY_GAME = ("State", "View")

ENVELOPES: dict[str, type[Schema]] = {
    "SetupRequest": requests.SetupRequest,
    "StateRequest": requests.StateRequest,
    "LegalMovesRequest": requests.StatePlayerRequest,
    "ViewRequest": requests.StatePlayerRequest,
    "RenderRequest": requests.StatePlayerRequest,
    "MoveRequest": requests.MoveRequest,
    "CreateSessionRequest": requests.CreateSessionRequest,
    "SessionMoveRequest": requests.SessionMoveRequest,
    "SessionClockRequest": requests.SessionClockRequest,
    "SuggestRequest": bots.SuggestRequest,
    "SuggestResponse": bots.SuggestAnswer,
    "ReplayRequest": records.ReplayRequest,
    "ForkRequest": records.ForkRequest,
    "TakebackRequest": records.TakebackRequest,
    "TakebackAnswerRequest": records.TakebackAnswerRequest,
}
"""Body schema name -> the envelope that checks it (the request envelopes, and the suggest answer,
which is declared as a marshmallow schema too)."""
_PER_GAME_ONLY = (
    "SetupRequest",
    "StateRequest",
    "LegalMovesRequest",
    "ViewRequest",
    "RenderRequest",
    "MoveRequest",
    "SuggestRequest",
    "SuggestResponse",
    "ReplayRequest",
)
"""Envelopes written only per game (``ReignSupremeMoveRequest``...), never as a generic schema."""
_ENVELOPE_SLOTS = {
    "state": "State",
    "move": "Move",
    "options": "Options",
}
"""Envelope fields whose content is a game's own shape (checked by the game's schemas)."""
_SESSION_ANSWERS = (
    "SessionCreated",
    "SessionSnapshot",
    "SessionLegalMoves",
    "SessionMoveResponse",
    "SessionHistoryEntry",
    "SessionHistory",
    "SessionRecordEntry",
    "SessionRecord",
    "SessionForked",
)
"""Session answers, written once in the base and made concrete per game
(``ReignSupremeSessionSnapshot`` holds ``ReignSupremeView``, ``ReignSupremeMove``,
``ReignSupremeEvent``). Each names its session's ``game``, so the generic one is a ``oneOf``
discriminated by ``game``: a generated client parses a session's answers into its game's own
classes (moves and events of two games may share a ``type``)."""
_SESSION_SLOTS = ("View", "Move", "Event", "Options", "SessionHistoryEntry", "SessionRecordEntry")
_CATALOGUE_ANSWERS = ("GameInfo", "GameDetail")
"""Catalogue answers (``GET /v1/games``, ``GET /v1/games/{game}``), written once in the base and
made concrete per game like the session answers (``ReignSupremeGameInfo`` holds
``ReignSupremeOptions``, ``ReignSupremeGameDetail`` its ``ReignSupremeContent``). Each names its
game in ``id``, so the generic one is a ``oneOf`` discriminated by ``id``: every option is
optional, so a client reading an ``anyOf`` of the games' options takes every game's for the
first game's and drops the rest."""
_CATALOGUE_SLOTS = ("Options", "Content", "GameInfo")
_SESSION_ENVELOPES = (
    "SessionMoveRequest",
    "ForkRequest",
    "TakebackRequest",
    "TakebackAnswerRequest",
)
"""Session request bodies: one schema for every game (a session's game is not in its path)."""


def game_prefix(game_id: str) -> str:
    """``reign-and-ruin`` -> ``ReignAndRuin``: the prefix of a game's schema names."""
    return "".join(part.capitalize() for part in game_id.split("-"))


def _ref(name: str) -> Checker:
    return custom(lambda value: None, {"$ref": REF_PREFIX + name})


def _answers(p: str) -> dict[str, Checker]:
    """The answer envelopes of one game (``p`` its schema prefix), in the checker vocabulary."""
    state, move, event, view = (
        _ref(p + "State"),
        _ref(p + "Move"),
        _ref(p + "Event"),
        _ref(p + "View"),
    )
    return {
        "SetupResponse": record({"state": state}),
        "LegalMovesResponse": record({"moves": list_of(move)}),
        "ApplyResponse": record(
            {"state": state, "events": list_of(event), "outcome": nullable(OUTCOME)}
        ),
        "ScoreResponse": record(
            {
                "finished": _doc_bool("False for provisional, mid-game standings."),
                "provisional": _doc_bool(
                    "True exactly when the game is not finished: the standings may still "
                    "change, nobody has won (`winners` is `[]`, `draw` false); `leaders` says "
                    "who is ahead now."
                ),
                "scores": SCORES,
                "winners": _doc_list(
                    "The winners of a finished game (several when they share a draw); `[]` "
                    "while it is provisional."
                ),
                "draw": _doc_bool("Several players share the win (false while provisional)."),
                "leaders": _doc_list(
                    "Who is ahead now by the game's ranking (several when tied; `[]` before "
                    "anyone can lead, e.g. during a set-up); the winners once finished."
                ),
                "breakdown": _ref(p + "ScoreBreakdown"),
            }
        ),
        "ViewResponse": record({"view": view}),
    }


def _doc_bool(text: str) -> Checker:
    from schemas.fields import BOOL, doc

    return doc(BOOL, text)


def _doc_list(text: str) -> Checker:
    """A documented list of player ids."""
    from schemas.fields import doc

    return doc(list_of(_ref("PlayerId")), text)


class _Spec:
    """An apispec document whose ``Shape`` fields render their checkers' JSON Schemas."""

    def __init__(self, base: dict[str, Any]) -> None:
        info = dict(base["info"])
        self.plugin = MarshmallowPlugin()
        self.spec = APISpec(
            title=info.pop("title"),
            version=info.pop("version"),
            openapi_version="3.1.0",
            plugins=[self.plugin],
            info=info,
        )
        self.spec.components.schemas  # noqa: B018  (created on first use)
        self.checked: dict[str, Any] = {}
        checked = self.checked

        def shape(
            converter: Any, field: ma_fields.Field, ret: dict[str, Any], **kwargs: Any
        ) -> dict[str, Any]:
            """A ``Shape`` field's JSON Schema: its checker's."""
            if not isinstance(field, Shape):
                return {}
            schema = json_schema(field.checker, checked)
            return {"oneOf": [{"type": "null"}, schema]} if field.allow_none else schema

        assert self.plugin.converter is not None  # set when the spec registers the plugin
        self.plugin.converter.add_attribute_function(shape)

    def schema(
        self,
        name: str,
        cls: type[Schema] | Schema,
        slots: dict[str, str] | None = None,
        description: str | None = None,
    ) -> None:
        """Register the marshmallow schema ``cls`` as ``name``; ``slots``: field -> component to
        refer to."""
        assert self.plugin.converter is not None
        resolved = self.plugin.converter.schema2jsonschema(cls)
        for field, target in (slots or {}).items():
            if field in resolved["properties"]:
                old = resolved["properties"][field]
                ref: dict[str, Any] = {"$ref": REF_PREFIX + target}
                if "oneOf" in old:
                    ref = {"oneOf": [{"type": "null"}, ref]}
                if "description" in old:
                    ref["description"] = old["description"]
                resolved["properties"][field] = ref
        if description:
            resolved = {"description": description, **resolved}
        self.spec.components.schema(name, resolved)

    def checker(self, name: str, check: Checker) -> None:
        self.checked[name] = json_schema(check, self.checked, inline=True)


def _pin_state(schema: dict[str, Any], game_id: str) -> None:
    """A game's state schema names its game, its schema version and its player count: facts of
    the rules (registry, ``rules.<game>.state.SCHEMA_VERSION``), not of the shared shape."""
    version = importlib.import_module(f"rules.{game_id.replace('-', '_')}.state").SCHEMA_VERSION
    props = schema["properties"]
    props["game"] = {"type": "string", "const": game_id}
    props["schema_version"] = {"type": "integer", "const": version}
    props["players"].update(
        minItems=GAMES[game_id].min_players, maxItems=GAMES[game_id].max_players, uniqueItems=True
    )


def _rewrite(node: Any, names: dict[str, str]) -> Any:
    """``node`` with every ``$ref`` to a schema in ``names`` pointing at its new name."""
    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            if (
                key == "$ref"
                and isinstance(value, str)
                and value.startswith(REF_PREFIX)
                and value[len(REF_PREFIX) :] in names
            ):
                out[key] = REF_PREFIX + names[value[len(REF_PREFIX) :]]
            else:
                out[key] = _rewrite(value, names)
        return out
    if isinstance(node, list):
        return [_rewrite(v, names) for v in node]
    return node


def _drop_examples(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: _drop_examples(v) for k, v in node.items() if k != "examples"}
    if isinstance(node, list):
        return [_drop_examples(v) for v in node]
    return node


def _inline_parameters(paths: dict[str, Any], parameters: dict[str, Any]) -> None:
    """Path-level ``$ref`` parameters copied into each operation: Swagger UI's "Try it out" shows a
    named input for those (it renders a path-level ``$ref`` as one unnamed box)."""
    for item in paths.values():
        shared = item.pop("parameters", [])
        resolved = [parameters[p["$ref"].rsplit("/", 1)[1]] if "$ref" in p else p for p in shared]
        for method, op in item.items():
            if isinstance(op, dict) and method in ("get", "post", "put", "delete", "patch"):
                op["parameters"] = copy.deepcopy(resolved) + op.get("parameters", [])


def build(base: dict[str, Any] | None = None) -> dict[str, Any]:
    """The whole OpenAPI document."""
    base = copy.deepcopy(base if base is not None else yaml.safe_load(BASE_PATH.read_text("utf-8")))
    out = _Spec(base)
    for name, cls in ENVELOPES.items():
        out.schema(name, cls, {field: slot for field, slot in _ENVELOPE_SLOTS.items()})
    games = [g for g in GAMES if g in SCHEMAS]
    for game_id in games:
        p, shapes, answers = game_prefix(game_id), SCHEMAS[game_id], ANSWERS[game_id]
        out.schema(p + "State", shapes.state)
        _pin_state(out.spec.components.schemas[p + "State"], game_id)
        out.schema(p + "Options", shapes.options)
        variants = {}
        for move_type, schema in shapes.move.schemas.items():
            name = p + "".join(part.capitalize() for part in move_type.split("_")) + "Move"
            out.schema(name, schema)
            variants[move_type] = name
        out.checked[p + "Move"] = {
            "description": f"A move of {GAMES[game_id].title}; `type` says which.",
            "oneOf": [{"$ref": REF_PREFIX + n} for n in variants.values()],
            "discriminator": {
                "propertyName": "type",
                "mapping": {t: REF_PREFIX + n for t, n in variants.items()},
            },
        }
        for slot, check in (
            ("Event", answers.EVENT),
            ("View", answers.VIEW),
            ("ScoreBreakdown", answers.SCORE_BREAKDOWN),
            ("Content", answers.CONTENT),
        ):
            json_schema(check, out.checked)
            if p + slot not in out.checked:
                raise ValueError(f"{answers.__name__}: {slot} must be named {p + slot}")
        names = {slot: p + slot for slot in _PER_GAME}
        for name in ENVELOPES:
            if name in _SESSION_ENVELOPES:
                continue
            schema = _rewrite(out.spec.components.schemas[name], names)
            if name == "CreateSessionRequest":  # the game's own options and player counts
                schema.update(copy.deepcopy(requests.CreateSessionRequest.JSON_SCHEMA_EXTRA))
                schema["properties"]["game"] = {
                    "description": schema["properties"]["game"]["description"],
                    "type": "string",
                    "const": game_id,
                }
            if name in ("SetupRequest", "CreateSessionRequest"):
                players = schema["properties"]["players"]
                players.update(
                    minItems=GAMES[game_id].min_players,
                    maxItems=GAMES[game_id].max_players,
                    uniqueItems=True,
                )
            if name in ("SuggestRequest", "SuggestResponse"):  # the levels this game's bots play
                schema["properties"]["level"]["enum"] = list(GAMES[game_id].bot_levels)
            out.spec.components.schema(p + name, schema)
        for name, check in _answers(p).items():
            out.checker(p + name, check)
    for slot in _PER_GAME:
        refs = {g: REF_PREFIX + game_prefix(g) + slot for g in games}
        generic: dict[str, Any] = {
            "description": f"Any game's {slot}; each game's operations name its own "
            f"(`ReignAndRuin{slot}`...)."
        }
        if slot in _BY_GAME:  # states and views name their game: a client can tell them apart
            generic.update(
                oneOf=[{"$ref": r} for r in refs.values()],
                discriminator={"propertyName": "game", "mapping": refs},
            )
        else:  # moves and events of different games may look alike (`pass`)
            generic["anyOf"] = [{"$ref": r} for r in refs.values()]
        out.checked[slot] = generic
    for name in _PER_GAME_ONLY:
        del out.spec.components.schemas[name]
    sessions = {g: REF_PREFIX + game_prefix(g) + "CreateSessionRequest" for g in games}
    out.spec.components.schemas["CreateSessionRequest"] = {
        "description": "A new session of one game: its `game`, then that game's setup body.",
        "oneOf": [{"$ref": r} for r in sessions.values()],
        "discriminator": {"propertyName": "game", "mapping": sessions},
    }
    out.checked["EntityTags"] = {
        "type": "string",
        "pattern": requests.ENTITY_TAGS,
        "description": '`*` or a list of entity tags (RFC 9110 §13.1.1-2): `"3"`, `W/"3"`, '
        '`"2", "3"`.',
    }
    doc = out.spec.to_dict()
    schemas_ = {
        **base["components"].get("schemas", {}),
        **doc["components"]["schemas"],
        **dict(sorted(out.checked.items())),
    }
    templates = base["components"]["schemas"]
    schemas_.update(_per_game_answers(templates, games, _SESSION_ANSWERS, _SESSION_SLOTS, "game"))
    schemas_.update(_per_game_answers(templates, games, _CATALOGUE_ANSWERS, _CATALOGUE_SLOTS, "id"))
    for game_id in games:  # the base's example title is Reign & Ruin's
        title = schemas_[game_prefix(game_id) + "GameInfo"]["properties"]["title"]
        title["examples"] = [GAMES[game_id].title]
    components = {**base["components"], "schemas": schemas_}
    components["examples"] = {**components.get("examples", {}), **_game_examples(games)}
    paths = _paths(base["paths"], games)
    _inline_parameters(paths, components["parameters"])
    tags = base.get("tags", []) + [
        {
            "name": g,
            "description": f"{GAMES[g].title}: the stateless rules calls, typed "
            f"with this game's shapes.",
        }
        for g in games
    ]
    return {
        "openapi": "3.1.0",
        **{k: v for k, v in base.items() if k not in ("openapi", "paths", "components")},
        "tags": tags,
        "paths": paths,
        "components": components,
    }


def _per_game_answers(
    templates: dict[str, Any],
    games: list[str],
    answers: tuple[str, ...],
    slots: tuple[str, ...],
    key: str,
) -> dict[str, Any]:
    """Each answer of the base named in ``answers``, per game (its ``slots`` the game's own, its
    ``key`` the game's id), and the generic one as the union of those: a ``oneOf`` discriminated
    by ``key`` when the answer names its game, an ``anyOf`` otherwise."""
    out: dict[str, Any] = {}
    for name in answers:
        template = templates[name]
        variants = {}
        for game_id in games:
            p = game_prefix(game_id)
            concrete = _rewrite(copy.deepcopy(template), {slot: p + slot for slot in slots})
            if key in concrete.get("properties", {}):
                concrete["properties"][key] = {"type": "string", "const": game_id}
            out[p + name] = concrete
            variants[game_id] = REF_PREFIX + p + name
        told = _names_game(template, templates, key)
        generic: dict[str, Any] = {
            "description": f"{template.get('description', '')} One schema per game "
            f"(`ReignAndRuin{name}`...){f', told apart by `{key}`' if told else ''}.".lstrip()
        }
        if told:
            generic.update(
                oneOf=[{"$ref": r} for r in variants.values()],
                discriminator={"propertyName": key, "mapping": variants},
            )
        else:  # an entry of a history whose game is known
            generic["anyOf"] = [{"$ref": r} for r in variants.values()]
        out[name] = generic
    return out


def _names_game(schema: dict[str, Any], templates: dict[str, Any], key: str) -> bool:
    """Whether ``schema`` has the property ``key``, itself or through the base schemas it extends
    (``allOf``: ``GameDetail`` is a ``GameInfo`` plus content)."""
    extended = [
        templates.get(part["$ref"][len(REF_PREFIX) :], {})
        for part in schema.get("allOf", [])
        if part.get("$ref", "").startswith(REF_PREFIX)
    ]
    return key in schema.get("properties", {}) or any(
        _names_game(base, templates, key) for base in extended
    )


def _paths(templates: dict[str, Any], games: list[str]) -> dict[str, Any]:
    """The base's paths, each game operation template made concrete for every game."""
    out: dict[str, Any] = {}
    for path, item in templates.items():
        if not path.startswith(GAME_PATH):
            out[path] = item
            continue
        for game_id in games:
            p = game_prefix(game_id)
            concrete = _rewrite(
                copy.deepcopy(item),
                {
                    n: p + n
                    for n in (
                        *ENVELOPES,
                        "SetupResponse",
                        "LegalMovesResponse",
                        "ApplyResponse",
                        "ScoreResponse",
                        "ViewResponse",
                    )
                },
            )
            concrete.pop("parameters", None)
            if game_id != "reign-and-ruin":  # the hand-picked examples are Reign & Ruin games
                concrete = _drop_examples(concrete)
                for op in concrete.values():  # the game's examples (schemas.examples), by one name
                    body = op["requestBody"]["content"]["application/json"]
                    kind = body["schema"]["$ref"].rsplit("/", 1)[1][len(p) :]
                    example = {
                        "SetupRequest": "Setup",
                        "MoveRequest": "Move",
                        "StateRequest": "State",
                        "SuggestRequest": "Suggest",
                        "ReplayRequest": "Replay",
                    }.get(kind, "StatePlayer")
                    body["examples"] = {
                        "started": {"$ref": f"#/components/examples/{p}{example}Request"}
                    }
                    answer = op["responses"]["200"]["content"].get("application/json")
                    if answer is None:  # a picture (image/svg+xml): no example
                        continue
                    answer["examples"] = {
                        "started": {
                            "$ref": "#/components/examples/"
                            + p
                            + answer["schema"]["$ref"].rsplit("/", 1)[1].removeprefix(p)
                        }
                    }
            for op in concrete.values():
                body = op["requestBody"]["content"]["application/json"]
                if body["schema"]["$ref"].endswith("SuggestRequest"):  # generated for every game
                    body["examples"] = {
                        "started": {"$ref": f"#/components/examples/{p}SuggestRequest"}
                    }
                    op["responses"]["200"]["content"]["application/json"]["examples"] = {
                        "started": {"$ref": f"#/components/examples/{p}SuggestResponse"}
                    }
            for op in concrete.values():
                op["operationId"] = (
                    p[0].lower() + p[1:] + op["operationId"][0].upper() + op["operationId"][1:]
                )
                op["tags"] = [game_id]
                op["summary"] = (
                    f"{GAMES[game_id].title}: {op['summary'][0].lower()}{op['summary'][1:]}"
                )
            out[GAME_PATH.replace("{game}", game_id) + path[len(GAME_PATH) :]] = concrete
    return out


def _game_examples(games: list[str]) -> dict[str, Any]:
    """The suggest examples of each game: the random bot (seed 1) in the state setup deals. The
    other examples are generated into the base by ``schemas.examples``."""
    out: dict[str, Any] = {}
    for game_id in games:
        game = GAMES[game_id]
        if game.bot_levels:
            state = game.setup(
                ["ann", "bob", "cat", "dan", "eve", "fay"][: game.min_players], 1, {}
            )
            out.update(_suggest_examples(game_id, state, game.legal_moves(state)[0]["player"]))
    return out


def _suggest_examples(game_id: str, state: Any, player: str) -> dict[str, Any]:
    """A suggest request (the random bot, seed 1: cheap and reproducible) and its real answer:
    the bot sees the state with its keys sorted, as the service hands it over (``api.bots``)."""
    level, seed, time_ms = "random", 1, 100
    as_served = json.loads(json.dumps(state, sort_keys=True))
    chosen = suggest(
        BOTS[game_id], GAMES[game_id].view(as_served, player), player, level, seed, time_ms
    )
    p = game_prefix(game_id)
    return {
        p + "SuggestRequest": {
            "summary": f"The random bot's move for {player} in the state that setup deals",
            "value": {
                "state": state,
                "player": player,
                "level": level,
                "seed": seed,
                "time_ms": time_ms,
            },
        },
        p + "SuggestResponse": {
            "summary": "Its answer",
            "value": {
                "move": chosen.move,
                "level": chosen.level,
                "seed": seed,
                "time_ms": time_ms,
                "playouts": chosen.playouts,
                "considered": chosen.considered,
                "complete": chosen.complete,
                "reason": chosen.reason,
            },
        },
    }


class _Dumper(yaml.SafeDumper):
    def ignore_aliases(self, data: Any) -> bool:  # every schema written out, no &anchors
        return True


class _Flow(list):
    """A list written in YAML flow style (examples: one compact block each)."""


class _FlowMap(dict):
    """A mapping written in YAML flow style (an example's value: one compact JSON-like block)."""


_Dumper.add_representer(
    _Flow, lambda d, v: d.represent_sequence("tag:yaml.org,2002:seq", v, flow_style=True)
)
_Dumper.add_representer(
    _FlowMap, lambda d, v: d.represent_mapping("tag:yaml.org,2002:map", v, flow_style=True)
)


def _flow_examples(node: Any, key: str = "") -> Any:
    if isinstance(node, dict):
        return {k: _flow_examples(v, k) for k, v in node.items()}
    if isinstance(node, list):
        items = [_flow_examples(v) for v in node]
        return (
            _Flow(json.loads(json.dumps(items)))
            if key in ("examples", "enum", "required")
            else items
        )
    return node


def _flow_values(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` with each named example's value in flow style: states are long."""
    examples = document.get("components", {}).get("examples", {})
    for example in examples.values():
        value = example.get("value")
        if isinstance(value, dict):
            example["value"] = _FlowMap(json.loads(json.dumps(value)))
        elif isinstance(value, list):
            example["value"] = _Flow(json.loads(json.dumps(value)))
    return document


def render(document: dict[str, Any] | None = None) -> str:
    """``openapi.yaml``'s text."""
    text = yaml.dump(
        _flow_values(_flow_examples(document if document is not None else build())),
        Dumper=_Dumper,
        sort_keys=False,
        allow_unicode=True,
        width=110,
    )
    return (
        "# Generated by `reign-referee openapi` from schemas/openapi_base.yaml and the schemas/\n"
        "# declarations. Do not edit: edit those and run the command again.\n" + text
    )
