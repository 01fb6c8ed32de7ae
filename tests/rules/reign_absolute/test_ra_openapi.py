"""The Reign Absolute block of openapi.yaml is what `reign-referee openapi` writes,
and real play (moves, events as each player sees them, states, views, breakdowns) validates
against it."""

from __future__ import annotations

import random
from pathlib import Path

import jsonschema
import yaml
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from rules.reign_absolute import GAME

SPEC = yaml.safe_load((Path(__file__).resolve().parents[3] / "openapi.yaml").read_text("utf-8"))
REGISTRY = Registry().with_resource("urn:spec", Resource(SPEC, specification=DRAFT202012))


def validator(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(
        {"$ref": f"urn:spec#/components/schemas/{name}"}, registry=REGISTRY
    )


def test_the_game_is_registered_in_the_generic_lists():
    schemas = SPEC["components"]["schemas"]
    assert "reign-absolute" in schemas["GameId"]["enum"]
    assert schemas["State"]["discriminator"]["mapping"]["reign-absolute"].endswith(
        "ReignAbsoluteState"
    )
    assert schemas["View"]["discriminator"]["mapping"]["reign-absolute"].endswith(
        "ReignAbsoluteView"
    )
    for generic, mine in (
        ("Move", "ReignAbsoluteMove"),
        ("Event", "ReignAbsoluteEvent"),
        ("Options", "ReignAbsoluteOptions"),
        ("ScoreBreakdown", "ReignAbsoluteScoreBreakdown"),
    ):
        assert {"$ref": f"#/components/schemas/{mine}"} in schemas[generic]["anyOf"]


def test_real_play_validates_against_the_schemas():
    checks = {
        n: validator(n)
        for n in (
            "ReignAbsoluteMove",
            "ReignAbsoluteEvent",
            "ReignAbsoluteState",
            "ReignAbsoluteView",
            "ReignAbsoluteScoreBreakdown",
        )
    }
    seen = set()
    for seed in range(4):
        players = ["ann", "bob", "cat", "dan"][: 2 + seed % 3]
        state = GAME.setup(players, seed, {})
        chooser = random.Random(seed)
        step = 0
        while state["status"] != "finished":
            move = chooser.choice(GAME.legal_moves(state))
            checks["ReignAbsoluteMove"].validate(move)
            state, events = GAME.apply(state, move)
            for e in events:
                if e["type"] not in seen:
                    seen.add(e["type"])
                    for viewer in players + [None]:
                        checks["ReignAbsoluteEvent"].validate(GAME.view_event(e, viewer))
            if step % 40 == 0:
                checks["ReignAbsoluteState"].validate(state)
                checks["ReignAbsoluteView"].validate(GAME.view(state, players[step % len(players)]))
                checks["ReignAbsoluteView"].validate(GAME.view(state, None))
                checks["ReignAbsoluteScoreBreakdown"].validate(GAME.score(state).breakdown)
            step += 1
        checks["ReignAbsoluteState"].validate(state)
        checks["ReignAbsoluteScoreBreakdown"].validate(GAME.score(state).breakdown)
    assert len(seen) > 25
