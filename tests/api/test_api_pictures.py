"""``POST /v1/games/{game}/render`` and ``GET /table`` (issue 27): a picture of a view through
the same request pipeline as ``/view``, and the reference table served from the package."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from api.table import ASSETS, TABLE_DIR
from rules.pictures import render
from rules.registry import GAMES, get_game

SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_render_answers_the_picture_of_the_players_view(client, game_id):
    game = get_game(game_id)
    players = ["ann", "bob", "cat"][: max(game.min_players, 2)]
    state = game.setup(players, 3, {})
    for player in (players[1], None):
        body = {"state": state} if player is None else {"state": state, "player": player}
        resp = client.post(f"/v1/games/{game_id}/render", json=body)
        assert resp.status_code == 200, resp.get_data()[:300]
        assert resp.mimetype == "image/svg+xml"
        assert "script-src" not in resp.headers["Content-Security-Policy"]  # default-src 'none'
        assert resp.headers["X-Content-Type-Options"] == "nosniff"
        svg = resp.get_data(as_text=True)
        assert svg == render(game.view(state, player))
        title = ET.fromstring(svg).find(SVG + "title").text
        assert (f"{player}'s view" if player else "the spectator's view") in title


def test_render_refuses_what_view_refuses(client):
    game = get_game("reign-and-ruin")
    state = game.setup(["ann", "bob"], 3, {})
    unknown = client.post("/v1/games/reign-and-ruin/render", json={"state": state, "player": "zed"})
    assert unknown.status_code == 422 and unknown.get_json()["code"] == "unknown_player"
    bad = client.post("/v1/games/reign-and-ruin/render", json={"state": {"game": 1}})
    assert bad.status_code == 400 and bad.mimetype == "application/problem+json"
    other = client.post("/v1/games/reign-supreme/render", json={"state": state})
    assert other.status_code == 422 and "wrong_game" in other.get_data(as_text=True)
    nothing = client.post("/v1/games/no-such-game/render", json={"state": state})
    assert nothing.status_code == 404


def test_the_table_is_served_from_the_package_and_asks_nothing_of_other_hosts(client):
    page = client.get("/table")
    assert page.status_code == 200 and page.mimetype == "text/html"
    assert "default-src 'self'" in page.headers["Content-Security-Policy"]
    html = page.get_data(as_text=True)
    for asset in ASSETS:
        assert f'"/table/{asset}"' in html
        resp = client.get(f"/table/{asset}")
        assert resp.status_code == 200
        assert resp.get_data() == (TABLE_DIR / asset).read_bytes()
    assert client.get("/table/table.js").mimetype == "text/javascript"
    assert client.get("/table/table.css").mimetype == "text/css"
    for name in ("index.html", *ASSETS):
        text = (TABLE_DIR / name).read_text("utf-8")
        assert not re.search(r"(https?:)?//[a-z0-9]", text, re.I), f"{name} names another host"


def test_the_table_serves_only_its_own_files(client):
    for name in ("index.html", "../table.py", "nope.js", "table.js/x"):
        resp = client.get(f"/table/{name}")
        assert resp.status_code == 404 and resp.mimetype == "application/problem+json", name
