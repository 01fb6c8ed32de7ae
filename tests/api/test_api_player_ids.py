"""Player ids follow the same rules wherever players are given (issue 24, item 3): the stateless
setup and session creation refuse an unsafe id or a look-alike seat with one 422 naming the
index (``rules.player_ids``), and a safe id comes back byte for byte."""

from __future__ import annotations

import pytest
from helpers_api import BASE, assert_problem, post

CASES = [
    (["ann", "\u0430nn"], "duplicate_player", "players.1"),  # Cyrillic а
    (["ann", "Ann"], "duplicate_player", "players.1"),
    (["ann", "b\x00b"], "invalid_player_id", "players.1"),
    (["a\nb", "bob"], "invalid_player_id", "players.0"),
    (["ann", "bo\u202eb"], "invalid_player_id", "players.1"),
    (["ann", "e\u0301"], "invalid_player_id", "players.1"),
]


@pytest.mark.parametrize("players, code, where", CASES)
def test_stateless_setup_refuses(client, players, code, where):
    body = assert_problem(post(client, BASE + "/setup", {"players": players}), 422, "invalid_setup")
    assert [(v["code"], v["message"].split()[0]) for v in body["violations"]] == [(code, where)]
    assert body["violations"][0]["rule"] == "reign-and-ruin#players"


@pytest.mark.parametrize("players, code, where", CASES)
def test_session_creation_refuses_the_same(client, players, code, where):
    body = {"game": "reign-and-ruin", "players": players}
    problem = assert_problem(post(client, "/v1/sessions", body), 422, "invalid_setup")
    assert [(v["code"], v["message"].split()[0]) for v in problem["violations"]] == [(code, where)]


def test_safe_ids_round_trip_unchanged(client):
    players = ["J\u00fcrgen", "\u674e"]  # NFC ü; a Han character
    resp = post(client, BASE + "/setup", {"players": players, "seed": 1})
    assert resp.status_code == 200, resp.get_json()
    assert resp.get_json()["state"]["players"] == players
