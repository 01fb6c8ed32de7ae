"""Determinism (api-contract): the same state and move give the same new state byte for byte;
a game replays from its seed and moves; chance comes only from the state's generator."""

from __future__ import annotations

import json
import random

from api.jsonio import dumps
from rules.reigns_the_council import GAME
from rules.reigns_the_council.content import PILLARS


def test_apply_is_deterministic_and_replays_from_seed_and_moves():
    state = GAME.setup(["ann", "bob", "cat", "dan"], 99, {"story_point": "vote"})
    chooser = random.Random(99)
    moves, states = [], []
    while state["status"] != "finished":
        move = chooser.choice(GAME.legal_moves(state))
        again, events_again = GAME.apply(state, move)
        state, events = GAME.apply(state, move)
        assert dumps(state) == dumps(again) and dumps(events) == dumps(events_again)
        moves.append(move)
        states.append(dumps(state))
    replay = GAME.setup(["ann", "bob", "cat", "dan"], 99, {"story_point": "vote"})
    for move, expected in zip(moves, states, strict=True):
        replay = json.loads(dumps(replay))  # as a client sends it back
        replay, _ = GAME.apply(replay, move)
        assert dumps(replay) == expected


def test_only_moves_with_chance_advance_the_generator():
    state = GAME.setup(["ann", "bob", "cat"], 3, {})
    chooser = random.Random(3)
    while state["status"] != "finished":
        move = chooser.choice(GAME.legal_moves(state))
        after, events = GAME.apply(state, move)
        if move["type"] in ("pitch", "decide", "story_vote", "end_vote"):
            assert after["rng"] == state["rng"]
        if any(e["type"] in ("decks_rebuilt", "reign_started") for e in events):
            assert after["rng"] != state["rng"]
        state = after


def test_score_is_provisional_mid_game_and_explains_itself():
    state = GAME.setup(["ann", "bob", "cat"], 4, {})
    chooser = random.Random(4)
    seen_mid = False
    while state["status"] != "finished":
        score = GAME.score(state)
        assert score.finished is False
        lines = score.breakdown["totals"]
        assert {p: lines[p]["total"] for p in state["players"]} == score.scores
        for p in state["players"]:  # totals sum the reigns, goal points pillar by pillar
            reigns = [r["players"][p] for r in score.breakdown["reigns"]]
            for key in ("acceptance", "story", "pile", "goal_total"):
                assert lines[p][key] == sum(line[key] for line in reigns)
            assert lines[p]["goal"] == {
                pillar: sum(line["goal"].get(pillar, 0) for line in reigns)
                for pillar in PILLARS
                if any(pillar in line["goal"] for line in reigns)
            }
            assert list(lines[p]["goal"]) == [x for x in PILLARS if x in lines[p]["goal"]]
        for record in score.breakdown["reigns"]:
            for line in record["players"].values():
                assert (
                    line["total"]
                    == line["acceptance"] + line["story"] + line["pile"] + line["goal_total"]
                )
                assert line["goal_total"] == sum(line["goal"].values())
        seen_mid = seen_mid or any(v > 0 for v in score.scores.values())
        state, _ = GAME.apply(state, chooser.choice(GAME.legal_moves(state)))
    final = GAME.score(state)
    assert final.finished and seen_mid
    assert list(final.winners) == state["outcome"]["winners"]
    assert sorted(final.breakdown["ranking"], key=state["players"].index) == state["players"]
