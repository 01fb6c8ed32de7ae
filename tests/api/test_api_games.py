"""Happy paths of every stateless endpoint, with Reign & Ruin."""

from __future__ import annotations

import json
import random

import pytest
from helpers_api import BASE, GAME, PLAYERS, post, setup_state

from rules.playout import random_steps
from rules.registry import GAMES, get_game


def mid_game(players=PLAYERS, seed=7, steps=None):
    """A state from the middle of a random game (in-process, fast) and its legal moves."""
    game = get_game(GAME)
    chooser = random.Random(seed)
    state = game.setup(list(players), seed, {})
    history = list(random_steps(game, state, chooser))
    step = history[len(history) // 2 if steps is None else steps]
    return step.before, step.legal


def finished(players=PLAYERS, seed=7):
    game = get_game(GAME)
    chooser = random.Random(seed)
    state = game.setup(list(players), seed, {})
    for step in random_steps(game, state, chooser):
        state = step.after
    return state


def test_list_games(client):
    resp = client.get("/v1/games")
    assert resp.status_code == 200
    assert resp.mimetype == "application/json"
    games = resp.get_json()["games"]
    assert [g["id"] for g in games] == list(GAMES)
    info = next(g for g in games if g["id"] == GAME)
    assert info == json.loads(json.dumps(get_game(GAME).info()))
    for key in ("id", "title", "min_players", "max_players", "options", "move_types"):
        assert key in info


def test_game_info_has_content(client):
    resp = client.get(f"/v1/games/{GAME}")
    assert resp.status_code == 200
    body = resp.get_json()
    assert body["id"] == GAME
    assert body["content"] == json.loads(json.dumps(get_game(GAME).content()))


def test_responses_are_compact_with_sorted_keys(client):
    text = client.get(f"/v1/games/{GAME}").get_data(as_text=True)
    body = json.loads(text)
    assert text.strip() == json.dumps(body, sort_keys=True, separators=(",", ":"))


def test_setup(client):
    resp = post(client, BASE + "/setup", {"players": PLAYERS, "seed": 42})
    assert resp.status_code == 200
    state = resp.get_json()["state"]
    assert state["players"] == PLAYERS
    assert state["seed"] == 42
    assert state["status"] == "in_progress"
    # Same input, same state.
    again = post(client, BASE + "/setup", {"players": PLAYERS, "seed": 42}).get_json()["state"]
    assert again == state
    assert state == get_game(GAME).setup(PLAYERS, 42, {})


def test_setup_without_seed_draws_one(client):
    seeds = set()
    for _ in range(3):
        state = post(client, BASE + "/setup", {"players": PLAYERS}).get_json()["state"]
        assert 0 <= state["seed"] <= 2**63 - 1
        seeds.add(state["seed"])
    assert len(seeds) > 1


@pytest.mark.parametrize(
    "body",
    [
        {"players": ["a", "b"], "seed": None, "options": None},
        {"players": ["a", "b"], "seed": 0, "options": {}},
        {"players": ["a", "b"], "seed": 2**63 - 1, "options": {"starting_player": "b"}},
        {"players": ["x" * 64, "y"], "seed": 3, "options": {"starting_player": None, "deck": None}},
    ],
)
def test_setup_accepts_optional_fields(client, body):
    resp = post(client, BASE + "/setup", body)
    assert resp.status_code == 200, resp.get_json()
    if (body.get("options") or {}).get("starting_player"):
        assert resp.get_json()["state"]["starting_player"] == body["options"]["starting_player"]


def test_setup_with_custom_deck(client):
    deck = [{"faction": f, "value": v} for f in ("hexen", "crou") for v in range(1, 8)]
    deck.append({"faction": "kurgoz", "value": 99, "id": "big-one"})
    state = setup_state(client, ["a", "b"], options={"deck": deck})
    assert "big-one" in state["cards"]
    assert len(state["cards"]) == len(deck)


def test_setup_accepts_json_with_charset(client):
    resp = client.post(
        BASE + "/setup",
        data=json.dumps({"players": ["a", "b"], "seed": 1}),
        content_type="application/json; charset=utf-8",
    )
    assert resp.status_code == 200


def test_legal_moves_all_active_and_one_player(client):
    state = setup_state(client)
    moves = post(client, BASE + "/legal-moves", {"state": state}).get_json()["moves"]
    assert {m["player"] for m in moves} == set(state["active_players"])
    assert moves == get_game(GAME).legal_moves(state)
    only = post(client, BASE + "/legal-moves", {"state": state, "player": "bob"}).get_json()[
        "moves"
    ]
    assert only and all(m["player"] == "bob" for m in only)
    assert only == [m for m in moves if m["player"] == "bob"]
    spectator = post(client, BASE + "/legal-moves", {"state": state, "player": None}).get_json()[
        "moves"
    ]
    assert spectator == moves


def test_legal_moves_empty_once_finished(client):
    state = finished()
    resp = post(client, BASE + "/legal-moves", {"state": state})
    assert resp.status_code == 200
    assert resp.get_json() == {"moves": []}


def test_validate_legal_and_illegal(client):
    state, legal = mid_game()
    move = legal[0]
    resp = post(client, BASE + "/validate", {"state": state, "move": move})
    assert resp.status_code == 200
    assert resp.get_json() == {"legal": True, "violations": []}
    other = next(p for p in state["players"] if p not in state["active_players"])
    resp = post(client, BASE + "/validate", {"state": state, "move": dict(move, player=other)})
    assert resp.status_code == 200
    body = resp.get_json()
    assert body["legal"] is False
    assert body["violations"]
    for v in body["violations"]:
        assert set(v) == {"code", "message", "rule"}
        assert v["rule"].startswith(GAME + "#")


def test_apply(client):
    state, legal = mid_game()
    move = legal[-1]
    resp = post(client, BASE + "/apply", {"state": state, "move": move})
    assert resp.status_code == 200
    body = resp.get_json()
    assert set(body) == {"state", "events", "outcome"}
    expected_state, expected_events = get_game(GAME).apply(state, move)
    assert body["state"] == json.loads(json.dumps(expected_state))
    assert body["events"] == json.loads(json.dumps(expected_events))
    assert body["outcome"] is None
    assert body["state"]["move_count"] == state["move_count"] + 1
    assert all(isinstance(e, dict) and isinstance(e.get("type"), str) for e in body["events"])


def test_apply_last_move_gives_outcome(client):
    game = get_game(GAME)
    chooser = random.Random(3)
    state = game.setup(PLAYERS, 3, {})
    last = None
    for step in random_steps(game, state, chooser):
        last = step
    resp = post(client, BASE + "/apply", {"state": last.before, "move": last.move})
    body = resp.get_json()
    assert body["state"]["status"] == "finished"
    assert body["outcome"] == body["state"]["outcome"]
    assert body["outcome"]["winners"]


def test_score_mid_game_and_final(client):
    state, _ = mid_game()
    resp = post(client, BASE + "/score", {"state": state})
    assert resp.status_code == 200
    body = resp.get_json()
    assert body["finished"] is False and body["provisional"] is True
    assert set(body) == {
        "finished",
        "provisional",
        "scores",
        "winners",
        "draw",
        "leaders",
        "breakdown",
    }
    assert set(body["scores"]) == set(state["players"])
    final = post(client, BASE + "/score", {"state": finished()}).get_json()
    assert final["finished"] is True and final["provisional"] is False
    assert final["winners"] or final["draw"]
    assert final["leaders"] == final["winners"] == finished()["outcome"]["winners"]
    assert final == json.loads(json.dumps(get_game(GAME).score(finished()).to_dict()))


@pytest.mark.parametrize("game_id", list(GAMES))
def test_score_of_an_unfinished_game_is_provisional_and_names_no_winner(client, game_id):
    """Contract, Fairness: "`/score` of an unfinished game: ... 200 with `"provisional": true`".
    Issue 24: a game just set up used to answer every player a winner with `draw: true`. Now
    nobody has won before the end (`winners: []`, `draw: false`); `leaders` says who is ahead
    (here everyone is level, or nobody leads yet) by the game's own ranking."""
    game = get_game(game_id)
    state = game.setup([f"p{i}" for i in range(game.min_players + 1)], 5, {})
    body = post(client, f"/v1/games/{game_id}/score", {"state": state}).get_json()
    assert body["finished"] is False and body["provisional"] is True
    assert body["winners"] == [] and body["draw"] is False
    assert set(body["leaders"]) <= set(state["players"])
    assert body["leaders"] == list(game.score(state).winners)


def test_view_player_and_spectator(client):
    state, _ = mid_game()
    resp = post(client, BASE + "/view", {"state": state, "player": "ann"})
    assert resp.status_code == 200
    view = resp.get_json()["view"]
    assert view["viewer"] == "ann"
    text = json.dumps(view)
    assert "rng" not in view and "seed" not in view and "draw_pile" not in view
    assert state["rng"] not in text
    spectator = post(client, BASE + "/view", {"state": state}).get_json()["view"]
    assert spectator["viewer"] is None
    assert "hand" not in spectator
    assert (
        spectator
        == post(client, BASE + "/view", {"state": state, "player": None}).get_json()["view"]
    )
