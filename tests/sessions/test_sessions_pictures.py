"""``GET /v1/sessions/{id}/board.svg`` (issue 27): the picture of the caller's view, a seat's with
its token, the spectator's without; refused like a read of the session otherwise."""

from __future__ import annotations

from rules.pictures import render


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_board_svg_is_the_picture_of_the_callers_view(client):
    created = client.post(
        "/v1/sessions", json={"game": "reign-and-ruin", "players": ["ann", "bob"]}
    ).get_json()
    base = f"/v1/sessions/{created['session_id']}"
    for seat, token in created["seats"].items():
        snapshot = client.get(base, headers=bearer(token)).get_json()
        resp = client.get(base + "/board.svg", headers=bearer(token))
        assert resp.status_code == 200 and resp.mimetype == "image/svg+xml"
        assert resp.headers["ETag"].startswith('"0.') and "Authorization" in resp.headers["Vary"]
        assert resp.get_data(as_text=True) == render(snapshot["view"]), seat
        assert f"{seat}'s view" in resp.get_data(as_text=True)
    spectator = client.get(base + "/board.svg")
    assert spectator.status_code == 200
    assert spectator.get_data(as_text=True) == render(client.get(base).get_json()["view"])
    assert "the spectator's view" in spectator.get_data(as_text=True)


def test_board_svg_refuses_strangers_and_the_admin(client):
    created = client.post(
        "/v1/sessions", json={"game": "reigns-the-council", "players": ["ann", "bob", "cat"]}
    ).get_json()
    base = f"/v1/sessions/{created['session_id']}"
    assert client.get(base + "/board.svg", headers=bearer("x" * 43)).status_code == 401
    admin = client.get(base + "/board.svg", headers=bearer(created["admin_token"]))
    assert admin.status_code == 403 and admin.mimetype == "application/problem+json"
    assert client.get("/v1/sessions/no-such-session/board.svg").status_code == 404


def test_board_svg_is_not_sent_again_to_a_caller_whose_copy_is_current(client):
    # before, its ETag was ignored: a front end polling the picture got the whole SVG each time
    created = client.post(
        "/v1/sessions", json={"game": "reign-and-ruin", "players": ["ann", "bob"]}
    ).get_json()
    url = f"/v1/sessions/{created['session_id']}/board.svg"
    ann = bearer(created["seats"]["ann"])
    tag = client.get(url, headers=ann).headers["ETag"]
    current = client.get(url, headers={**ann, "If-None-Match": tag})
    assert current.status_code == 304 and current.get_data() == b""
    assert current.headers["ETag"] == tag and "Authorization" in current.headers["Vary"]
    assert client.get(url, headers={**ann, "If-None-Match": "*"}).status_code == 304
    stale = client.get(url, headers={**ann, "If-None-Match": '"7", W/"3"'})
    assert stale.status_code == 200 and stale.mimetype == "image/svg+xml"
