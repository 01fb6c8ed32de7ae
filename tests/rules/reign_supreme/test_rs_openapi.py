"""The Reign Supreme schemas in openapi.yaml are what `reign-referee openapi` writes,
and every listed move and every event of real games validates against them."""

from __future__ import annotations

import random
from pathlib import Path

import jsonschema
import yaml
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from rules.reign_supreme import GAME

HERE = Path(__file__).resolve().parent
SPEC = yaml.safe_load((Path(__file__).resolve().parents[3] / "openapi.yaml").read_text("utf-8"))
URI = "urn:rs-spec"
REGISTRY = Registry().with_resource(URI, Resource(SPEC, specification=DRAFT202012))


def validator(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(
        {"$ref": f"{URI}#/components/schemas/{name}"}, registry=REGISTRY
    )


def test_moves_events_states_views_and_scores_of_real_games_match_the_schemas():
    state_v, move_v, event_v = (
        validator("ReignSupremeState"),
        validator("ReignSupremeMove"),
        validator("ReignSupremeEvent"),
    )
    view_v, score_v = validator("ReignSupremeView"), validator("ReignSupremeScoreBreakdown")
    seen = set()
    for seed, n, options in (
        (1, 2, {"round_limit": 3}),
        (2, 3, {"scenario": "skirmish", "round_limit": 3}),
        (3, 4, {"setup": "auto", "round_limit": 2}),
    ):
        state = GAME.setup(["ann", "bob", "cat", "dan"][:n], seed, options)
        chooser = random.Random(seed)
        step = 0
        while state["status"] != "finished":
            legal = GAME.legal_moves(state)
            for m in legal[:40]:
                move_v.validate(m)
            if step % 15 == 0:
                state_v.validate(state)
                view_v.validate(GAME.view(state, state["players"][0]))
                view_v.validate(GAME.view(state, None))
            move = chooser.choice(
                [m for m in legal if m["type"] != "concede"] if step < 150 else legal
            )
            state, events = GAME.apply(state, move)
            for e in events:
                event_v.validate(e)
                event_v.validate(GAME.view_event(e, None))
                seen.add(e["type"])
            step += 1
        state_v.validate(state)
        score_v.validate(GAME.score(state).breakdown)
    assert {"unit_moved", "attacked", "cooldown", "turn_started", "game_over"} <= seen
