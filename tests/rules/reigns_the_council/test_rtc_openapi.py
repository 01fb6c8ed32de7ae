"""The Reigns: The Council schemas in openapi.yaml are what `reign-referee openapi` writes from the
rules now, and every state, view (each role), listed move, event (whole and redacted) and score
breakdown of real games validates against them."""

from __future__ import annotations

import random
from pathlib import Path

import jsonschema
import yaml
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from rules.reigns_the_council import GAME

HERE = Path(__file__).resolve().parent
SPEC = yaml.safe_load((Path(__file__).resolve().parents[3] / "openapi.yaml").read_text("utf-8"))
URI = "urn:rtc-spec"
REGISTRY = Registry().with_resource(URI, Resource(SPEC, specification=DRAFT202012))


def validator(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(
        {"$ref": f"{URI}#/components/schemas/{name}"}, registry=REGISTRY
    )


def check(v: jsonschema.Draft202012Validator, instance, what: str) -> None:
    error = next(iter(v.iter_errors(instance)), None)
    assert error is None, (
        f"{what}: {'/'.join(map(str, error.absolute_path))}: {error.message[:300]}"
    )


def test_real_games_match_the_schemas():
    state_v, move_v, event_v = (
        validator("ReignsTheCouncilState"),
        validator("ReignsTheCouncilMove"),
        validator("ReignsTheCouncilEvent"),
    )
    view_v, score_v = validator("ReignsTheCouncilView"), validator("ReignsTheCouncilScoreBreakdown")
    options_v, content_v = (
        validator("ReignsTheCouncilOptions"),
        validator("ReignsTheCouncilContent"),
    )
    check(content_v, GAME.content(), "content")
    check(options_v, {**GAME.default_options(), "deck": GAME.content()["deck"][:40]}, "options")
    phases, moves, events = set(), set(), set()
    for seed, n, options in ((1, 3, {"story_point": "vote"}), (2, 4, {})):
        state = GAME.setup(["ann", "bob", "cat", "dan"][:n], seed, options)
        chooser = random.Random(seed)
        while state["status"] != "finished":
            legal = GAME.legal_moves(state)
            if state["phase"] not in phases:
                phases.add(state["phase"])
                check(state_v, state, f"state in {state['phase']}")
                for viewer in [*state["players"], None]:
                    check(view_v, GAME.view(state, viewer), f"view of {viewer} in {state['phase']}")
                check(score_v, GAME.score(state).breakdown, "provisional breakdown")
            for m in legal[:3]:
                if m["type"] not in moves:
                    moves.add(m["type"])
                    check(move_v, m, f"move {m['type']}")
            state, evs = GAME.apply(state, chooser.choice(legal))
            for e in evs:
                if e["type"] not in events:
                    events.add(e["type"])
                    check(event_v, e, f"event {e['type']}")
                    for viewer in state["players"]:
                        check(
                            event_v,
                            GAME.view_event(e, viewer),
                            f"event {e['type']} seen by {viewer}",
                        )
        check(state_v, state, "final state")
        check(score_v, GAME.score(state).breakdown, "final breakdown")
    assert moves == set(GAME.move_types)
    assert len(events) >= 24 and len(phases) == 11
