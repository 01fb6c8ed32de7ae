"""Whole Reign Absolute games played over HTTP, every request and response validated against
openapi.yaml (and every event, redacted for each player, against ``ReignAbsoluteEvent``)."""

from __future__ import annotations

import random

import pytest

from rules.reign_absolute import GAME as RULES

from .oapi import check_component

GAME = "reign-absolute"


def play_game(
    contract,
    players: list[str],
    seed: int,
    options: dict | None = None,
    chooser_seed: int = 0,
    seen: set[str] | None = None,
    every: int = 5,
) -> dict:
    """Play one game to the end; every ``every``-th step goes through the API (legal-moves,
    validate, an illegal apply, apply, now and then view and score), validated against the spec."""
    rng = random.Random(chooser_seed)
    body: dict = {"players": players, "seed": seed}
    if options is not None:
        body["options"] = options
    state = contract.post(GAME, "setup", body, expect=200).json["state"]
    assert contract.post(GAME, "setup", body, expect=200).json["state"] == state
    for step in range(3000):
        if state["status"] == "finished":
            break
        if (
            step % every
        ):  # between checked steps, play on with the rules directly (openapi-core is slow)
            state, _ = RULES.apply(state, rng.choice(RULES.legal_moves(state)))
            continue
        moves = contract.post(GAME, "legal-moves", {"state": state}, expect=200).json["moves"]
        assert moves and {m["player"] for m in moves} == set(state["active_players"])
        move = rng.choice(moves)
        verdict = contract.post(GAME, "validate", {"state": state, "move": move}, expect=200).json
        assert verdict == {"legal": True, "violations": []}
        other = next(p for p in players if p not in state["active_players"])
        bad = dict(move, player="nobody" if step % 2 else other)
        problem = contract.post(GAME, "apply", {"state": state, "move": bad}, expect=422).json
        assert problem["code"] == "illegal_move"
        result = contract.post(GAME, "apply", {"state": state, "move": move}, expect=200).json
        assert result["events"]
        for event in result["events"]:
            if seen is not None and event["type"] not in seen:
                seen.add(
                    event["type"]
                )  # each event type checked, as each player sees it, once per run
                for viewer in players + [None]:
                    check_component("ReignAbsoluteEvent", RULES.view_event(event, viewer))
        if step % (every * 4) == 0:
            view = contract.post(
                GAME, "view", {"state": state, "player": players[0]}, expect=200
            ).json["view"]
            assert view["viewer"] == players[0]
            contract.post(GAME, "view", {"state": state}, expect=200)
            score = contract.post(GAME, "score", {"state": state}, expect=200).json
            assert score["finished"] is False
        state = result["state"]
    else:
        pytest.fail("not finished")
    score = contract.post(GAME, "score", {"state": state}, expect=200).json
    assert score["finished"] is True and score["winners"] == state["outcome"]["winners"]
    assert contract.post(GAME, "legal-moves", {"state": state}, expect=200).json == {"moves": []}
    return state


def test_full_games_conform(contract):
    seen: set[str] = set()
    for i, players in enumerate((["ann", "bob"], ["ann", "bob", "cat", "dan"])):
        final = play_game(contract, players, seed=300 + i, chooser_seed=i, seen=seen)
        assert final["status"] == "finished"
    for kind in ("reinforcement_placed", "unit_moved", "turn_started"):
        assert kind in seen


def test_custom_content_game_conforms(contract):
    races = [
        {
            "id": "gnomes",
            "name": "Gnomes",
            "units": [
                {
                    "id": "g-king",
                    "name": "Gnome King",
                    "strength": 4,
                    "liege": True,
                    "abilities": [{"effect": "draw", "count": 1, "when": "defending"}],
                },
                {"id": "g-1", "name": "Tinker", "strength": 2, "liege": False},
            ],
        },
        {
            "id": "trolls",
            "name": "Trolls",
            "units": [
                {"id": "t-king", "name": "Troll King", "strength": 6, "liege": True},
                {
                    "id": "t-1",
                    "name": "Troll",
                    "strength": 5,
                    "liege": False,
                    "abilities": [
                        {"effect": "strength_per_adjacent_friend", "amount": 1, "when": "always"}
                    ],
                },
            ],
        },
    ]
    play_game(contract, ["ann", "bob"], seed=5, options={"races": races, "turn_limit": 30})


def test_bad_custom_content_is_422_naming_the_problem(contract):
    races = [
        {
            "id": "a",
            "name": "A",
            "units": [{"id": "a1", "name": "x", "strength": 3, "liege": False}],
        },
        {
            "id": "b",
            "name": "B",
            "units": [{"id": "b1", "name": "y", "strength": 3, "liege": True}],
        },
    ]
    problem = contract.post(
        GAME, "setup", {"players": ["ann", "bob"], "options": {"races": races}}, expect=422
    ).json
    assert problem["code"] == "invalid_setup"
    assert [v["code"] for v in problem["violations"]] == ["liege_count"]
    contract.post(
        GAME,
        "setup",
        {"players": ["ann", "bob"], "options": {"turn_limit": "soon"}},
        expect=400,
        valid_request=False,
    )


def test_catalogue_lists_the_game_with_its_content(contract):
    info = contract.call("GET", f"/v1/games/{GAME}", expect=200).json
    assert info["min_players"] == 2 and info["max_players"] == 4
    assert [r["id"] for r in info["content"]["races"]] == [
        "empire",
        "raiders",
        "elves",
        "orcs",
        "dwarves",
    ]


def test_views_over_http_hide_enemy_units(contract):
    state = RULES.setup(["ann", "bob"], 8, {"races_by_player": {"ann": "empire", "bob": "raiders"}})
    rng = random.Random(1)
    while state["phase"] != "play":
        state, _ = RULES.apply(state, rng.choice(RULES.legal_moves(state)))
    view = contract.post(GAME, "view", {"state": state, "player": "ann"}, expect=200).json["view"]
    for unit in view["battlefield"]:
        assert ("unit" in unit) == (unit["owner"] == "ann")
    problem = contract.post(GAME, "view", {"state": state, "player": "zed"}, expect=422).json
    assert problem["code"] == "unknown_player"


def _corruptions(state: dict) -> list[dict]:
    """Shape-valid states that fail integrity: a card in two places, a unit in two places, the
    wrong active player, two units on one cell, an unknown card, a player without a Liege."""
    import copy

    units = sorted(state["battlefield"])
    out = []
    s = copy.deepcopy(state)
    s["deck"].append(s["discard"][0] if s["discard"] else s["deck"][0])
    out.append(s)
    s = copy.deepcopy(state)
    s["unit_discards"][s["players"][0]].append(units[0])
    out.append(s)
    s = copy.deepcopy(state)
    s["active_players"] = [p for p in s["players"] if p not in s["active_players"]][:1]
    out.append(s)
    s = copy.deepcopy(state)
    s["battlefield"][units[1]].update(
        x=s["battlefield"][units[0]]["x"], y=s["battlefield"][units[0]]["y"]
    )
    out.append(s)
    s = copy.deepcopy(state)
    s["deck"][0] = "ace-of-spades"
    out.append(s)
    s = copy.deepcopy(state)
    liege = next(u for u in units if s["units"][u]["liege"])
    s["unit_discards"][s["battlefield"][liege]["owner"]].append(liege)
    s["discard"].extend(s["battlefield"].pop(liege)["reinforcements"])
    out.append(s)
    return out


def test_corrupted_states_are_422_over_http(contract):
    state = RULES.setup(["ann", "bob"], 12, {"races_by_player": {"ann": "empire", "bob": "orcs"}})
    rng = random.Random(4)
    while state["phase"] != "play" or state["turn"]["number"] < 6:
        state, _ = RULES.apply(state, rng.choice(RULES.legal_moves(state)))
    move = RULES.legal_moves(state)[0]
    endpoints = (
        ("legal-moves", {}),
        ("validate", {"move": move}),
        ("apply", {"move": move}),
        ("score", {}),
        ("view", {"player": "ann"}),
    )
    for i, broken in enumerate(_corruptions(state)):
        for endpoint, extra in (
            endpoints[i % 5],
            endpoints[(i + 2) % 5],
        ):  # each endpoint, twice or more
            problem = contract.post(GAME, endpoint, {"state": broken, **extra}, expect=422).json
            assert problem["code"] == "invalid_state" and problem["violations"], (endpoint, problem)
