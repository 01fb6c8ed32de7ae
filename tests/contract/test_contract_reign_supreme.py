"""Reign Supreme played over HTTP, every request and response validated against openapi.yaml
(openapi-core through ``Contract.call``), plus what the schema cannot say: legal moves only for
the active player, views hiding hands, illegal moves and broken states answered 422, scores
explained."""

from __future__ import annotations

import copy
import random

import pytest

from .oapi import spec_dict

GAME = "reign-supreme"
P = f"/v1/games/{GAME}"
MOVE_TYPES = {
    "place",
    "deploy",
    "end_deployment",
    "move",
    "attack",
    "pack",
    "unpack",
    "cast",
    "construct",
    "play",
    "counterattack",
    "pass",
    "end_turn",
    "concede",
}


def _choose(moves: list[dict], rng: random.Random) -> dict:
    """Uniform, but conceding rarely, so games reach combat."""
    if rng.random() < 0.003:
        return rng.choice(moves)
    return rng.choice([m for m in moves if m["type"] != "concede"])


def play_game(
    contract,
    players: list[str],
    seed: int,
    options: dict | None,
    seen: dict,
    chooser_seed: int,
    full_every: int = 6,
) -> dict:
    rng = random.Random(chooser_seed)
    body = {
        "players": players,
        "seed": seed,
        **({"options": options} if options is not None else {}),
    }
    state = contract.post(GAME, "setup", body, expect=200).json["state"]
    assert state["players"] == players and state["seed"] == seed
    for step in range(4000):
        if state["status"] == "finished":
            break
        moves = contract.post(GAME, "legal-moves", {"state": state}, expect=200).json["moves"]
        assert moves and {m["player"] for m in moves} == set(state["active_players"])
        move = _choose(moves, rng)
        seen["moves"].add(move["type"])
        if step % full_every == 0:
            verdict = contract.post(
                GAME, "validate", {"state": state, "move": move}, expect=200
            ).json
            assert verdict == {"legal": True, "violations": []}
            if "unit" in move:
                bad = dict(move, unit="u999")
                problem = contract.post(
                    GAME, "apply", {"state": state, "move": bad}, expect=422
                ).json
                assert problem["code"] == "illegal_move"
                assert all(v["rule"].startswith("reign-supreme#") for v in problem["violations"])
            view = contract.post(
                GAME, "view", {"state": state, "player": players[0]}, expect=200
            ).json["view"]
            assert view["hand"] == state["hands"][players[0]] and "rng" not in view
            spectator = contract.post(GAME, "view", {"state": state}, expect=200).json["view"]
            assert "hand" not in spectator
            contract.post(GAME, "score", {"state": state}, expect=200)
        result = contract.post(GAME, "apply", {"state": state, "move": move}, expect=200).json
        assert result["events"]
        seen["events"].update(e["type"] for e in result["events"])
        state = result["state"]
    else:
        pytest.fail("not finished after 4000 moves")
    assert result["outcome"] == state["outcome"]
    score = contract.post(GAME, "score", {"state": state}, expect=200).json
    assert score["finished"] is True and score["scores"] == state["outcome"]["scores"]
    for p in players:
        assert score["breakdown"]["players"][p]["strength"] == score["scores"][p]
    assert contract.post(GAME, "legal-moves", {"state": state}, expect=200).json == {"moves": []}
    return state


def test_catalogue_lists_reign_supreme(contract):
    games = contract.call("GET", "/v1/games", expect=200).json["games"]
    info = next(g for g in games if g["id"] == GAME)
    assert (info["min_players"], info["max_players"]) == (2, 4)
    assert set(info["move_types"]) == MOVE_TYPES
    detail = contract.call("GET", P, expect=200).json
    assert set(detail["content"]["armies"]) == {"resistance", "greenskin", "undead", "demon"}
    assert set(detail["content"]["scenarios"]) == {"standard", "skirmish"}


def test_full_games_conform(contract):
    seen = {"moves": set(), "events": set()}
    play_game(contract, ["ann", "bob"], 11, {"round_limit": 2}, seen, chooser_seed=1)
    play_game(
        contract,
        ["ann", "bob", "cat"],
        12,
        {"scenario": "skirmish", "round_limit": 3, "setup": "auto"},
        seen,
        chooser_seed=2,
    )
    play_game(
        contract,
        ["n", "e", "s", "w"],
        13,
        {"setup": "auto", "round_limit": 1},
        seen,
        chooser_seed=3,
    )
    assert {"place", "move", "attack", "end_turn"} <= seen["moves"]
    documented = set(
        spec_dict()["components"]["schemas"]["ReignSupremeEvent"]["discriminator"]["mapping"]
    )
    assert seen["events"] <= documented
    assert {"unit_moved", "attacked", "cooldown", "game_over"} <= seen["events"]


@pytest.fixture(scope="module")
def combat(contract_app):
    from rules.registry import get_game

    game = get_game(GAME)
    return game.setup(["ann", "bob"], 3, {"setup": "auto", "first_player": "ann"})


def test_illegal_moves_are_422_with_violations(contract, combat):
    problem = contract.post(
        GAME, "apply", {"state": combat, "move": {"player": "bob", "type": "end_turn"}}, expect=422
    ).json
    assert problem["violations"][0]["code"] == "not_your_turn"
    problem = contract.post(
        GAME,
        "apply",
        {"state": combat, "move": {"player": "ann", "type": "move", "unit": "u1", "to": [0, 0]}},
        expect=422,
    ).json
    assert problem["violations"][0]["code"] in ("out_of_reach", "space_taken")
    assert problem["violations"][0]["rule"].startswith("reign-supreme#")


def test_malformed_moves_are_400(contract, combat):
    for move in (
        {"player": "ann", "type": "move", "unit": "u1"},
        {"player": "ann", "type": "move", "unit": "u1", "to": [1]},
        {"player": "ann", "type": "attack", "unit": "u1", "target": "u12", "mode": "magic"},
        {"player": "ann", "type": "end_turn", "unit": "u1"},
    ):
        problem = contract.post(
            GAME, "apply", {"state": combat, "move": move}, expect=400, valid_request=False
        ).json
        assert problem["errors"]


def test_broken_states_are_422(contract, combat):
    broken = copy.deepcopy(combat)
    broken["units"]["u2"]["at"] = list(broken["units"]["u1"]["at"])
    problem = contract.post(GAME, "legal-moves", {"state": broken}, expect=422).json
    assert problem["code"] == "invalid_state"
    assert problem["violations"][0]["code"] == "two_units_one_space"
    broken = copy.deepcopy(combat)
    broken["units"]["u1"]["pins"] = 99
    assert (
        contract.post(GAME, "score", {"state": broken}, expect=422).json["code"] == "invalid_state"
    )
    broken = copy.deepcopy(combat)
    broken["units"]["u1"]["at"] = "here"
    contract.post(GAME, "score", {"state": broken}, expect=400, valid_request=False)
    # "u²" is a digit to str.isdigit() but not to int(): refused as a bad unit id, never a 500
    broken = copy.deepcopy(combat)
    broken["units"] = {("u\u00b2" if k == "u1" else k): v for k, v in broken["units"].items()}
    problem = contract.post(
        GAME,
        "apply",
        {"state": broken, "move": {"player": "ann", "type": "concede"}},
        expect=422,
        valid_request=False,
    ).json
    assert problem["code"] == "invalid_state" and "bad_unit_id" in {
        v["code"] for v in problem["violations"]
    }


def test_bad_setup_is_422(contract):
    for options in (
        {"scenario": "huge"},
        {"round_limit": 0},
        {"army_lists": {"a": ["assault", "assault"]}},
        {"scenario": {"midfield": []}},
    ):
        problem = contract.post(
            GAME,
            "setup",
            {"players": ["a", "b"], "options": options},
            expect=422,
            valid_request=False,
        ).json
        assert problem["code"] == "invalid_setup"
    problem = contract.post(
        GAME, "setup", {"players": ["a"]}, expect={400, 422}, valid_request=False
    ).json
    assert problem["status"] in (400, 422)
