"""Reign Supreme, ruling RS 10 (acting outside your own turn) through the HTTP API and sessions:
several players are active in a Combat phase, each sees and makes only their own moves, and the
turn player is never held up (rules doc docs/rules/reign-supreme.md §Outside your own turn)."""

from __future__ import annotations

from helpers_api import assert_problem, post

from rules.reign_supreme import GAME

BASE = "/v1/games/reign-supreme"
OPTIONS = {
    "scenario": "skirmish",
    "setup": "auto",
    "first_player": "ann",
    "army_lists": {"ann": ["knight"], "bob": ["priest", "infantry"]},
}


def wounded_position() -> dict:
    """ann's Combat phase; bob's Priest [-3, 1] stands next to his wounded Infantry [-3, 2]."""
    state = GAME.setup(["ann", "bob"], 3, OPTIONS)
    state["units"]["u1"]["at"], state["units"]["u2"]["at"], state["units"]["u3"]["at"] = (
        [0, 0],
        [-3, 1],
        [-3, 2],
    )
    state["units"]["u3"]["pins"] = 2
    state["active_players"] = ["ann", "bob"]
    state["to_move"] = ["ann"]  # RS 10: bob may act, ann's turn goes on
    GAME.check_state(state)
    return state


def test_the_stateless_api_lists_and_applies_a_move_outside_your_turn(client):
    state = wounded_position()
    resp = post(client, f"{BASE}/legal-moves", {"state": state, "player": "bob"})
    assert resp.status_code == 200
    heal = {"player": "bob", "type": "cast", "unit": "u2", "spell": "healing", "target": "u3"}
    assert resp.get_json()["moves"] == [heal, {"player": "bob", "type": "concede"}]
    resp = post(client, f"{BASE}/legal-moves", {"state": state})
    assert {m["player"] for m in resp.get_json()["moves"]} == {"ann", "bob"}
    bad = post(
        client, f"{BASE}/apply", {"state": state, "move": {"player": "bob", "type": "end_turn"}}
    )
    assert_problem(bad, 422)
    assert "not_your_turn" in bad.get_data(as_text=True)
    resp = post(client, f"{BASE}/apply", {"state": state, "move": heal})
    assert resp.status_code == 200, resp.get_json()
    after = resp.get_json()["state"]
    assert (
        after["units"]["u3"]["pins"] == 0
        and after["active_players"] == ["ann"]
        and after["turn"] == "ann"
    )


def test_in_a_session_the_other_player_may_act_and_the_turn_player_is_not_held_up(client):
    """Standard scenario, auto set-up: in ann's first Combat phase bob holds cards he may play."""
    resp = client.post(
        "/v1/sessions",
        json={
            "game": "reign-supreme",
            "players": ["ann", "bob"],
            "open": True,
            "seed": 5,
            "options": {"setup": "auto", "first_player": "ann"},
        },
    )
    assert resp.status_code == 201, resp.get_json()
    created = resp.get_json()
    path = f"/v1/sessions/{created['session_id']}"
    seat = {p: {"Authorization": f"Bearer {t}"} for p, t in created["seats"].items()}
    bobs = client.get(path + "/legal-moves", headers=seat["bob"]).get_json()["moves"]
    assert (
        bobs
        and {m["type"] for m in bobs} <= {"cast", "play", "concede"}
        and "play" in {m["type"] for m in bobs}
    )
    anns = client.get(path + "/legal-moves", headers=seat["ann"]).get_json()["moves"]
    ann_move = next(m for m in anns if m["type"] == "move")
    # ann goes on without waiting for bob
    resp = client.post(path + "/moves", json={"move": ann_move}, headers=seat["ann"])
    assert resp.status_code == 200 and resp.get_json()["version"] == 1
    # bob plays a card in ann's turn; his end_turn is refused
    bobs = client.get(path + "/legal-moves", headers=seat["bob"]).get_json()["moves"]
    card = next(m for m in bobs if m["type"] == "play")
    refused = client.post(
        path + "/moves", json={"move": {"player": "bob", "type": "end_turn"}}, headers=seat["bob"]
    )
    assert refused.status_code in (403, 422)
    resp = client.post(path + "/moves", json={"move": card}, headers=seat["bob"])
    assert resp.status_code == 200 and resp.get_json()["version"] == 2
    assert (
        card["card"] == "weakness-1"
    )  # a Tactics card: nothing to answer, bob may still play more
    assert client.get(path + "/legal-moves", headers=seat["bob"]).get_json()["moves"] != [
        {"player": "bob", "type": "concede"}
    ]
    # ann ends her turn whatever bob still holds: his chance is over, and now it is his turn
    resp = client.post(
        path + "/moves", json={"move": {"player": "ann", "type": "end_turn"}}, headers=seat["ann"]
    )
    assert resp.status_code == 200 and resp.get_json()["version"] == 3
    assert any(
        m["type"] == "end_turn"
        for m in client.get(path + "/legal-moves", headers=seat["bob"]).get_json()["moves"]
    )


def test_a_move_outside_your_turn_earns_no_fischer_increment(client):
    """bob's clock does not run in ann's turn: a card he plays then costs him no time and earns
    no increment (README "Turn clocks")."""
    resp = client.post(
        "/v1/sessions",
        json={
            "game": "reign-supreme",
            "players": ["ann", "bob"],
            "open": True,
            "seed": 5,
            "options": {"setup": "auto", "first_player": "ann"},
            "clock": {"type": "fischer", "initial_seconds": 300, "increment_seconds": 10},
        },
    )
    assert resp.status_code == 201, resp.get_json()
    created = resp.get_json()
    path = f"/v1/sessions/{created['session_id']}"
    seat = {p: {"Authorization": f"Bearer {t}"} for p, t in created["seats"].items()}
    assert created["clock"]["running"] == ["ann"]
    bobs = client.get(path + "/legal-moves", headers=seat["bob"]).get_json()["moves"]
    card = next(m for m in bobs if m["type"] == "play")
    resp = client.post(path + "/moves", json={"move": card}, headers=seat["bob"])
    assert resp.status_code == 200, resp.get_json()
    clock = resp.get_json()["clock"]
    assert clock["running"] == ["ann"] and clock["remaining_ms"]["bob"] == 300_000
