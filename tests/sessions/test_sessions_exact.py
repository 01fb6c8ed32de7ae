"""Exact answers of the session reads (issue 24, item 3): numbers in queries and headers are
ASCII digits, a cursor past the session's version is a 400 naming it (a stream resumed there
used to be accepted and then never deliver the moves that follow), and DELETE with a stranger's
token is 401 like every other operation."""

from __future__ import annotations

import pytest

GAME = "reign-and-ruin"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def session(client):
    resp = client.post("/v1/sessions", json={"game": GAME, "players": ["ann", "bob"]})
    assert resp.status_code == 201, resp.get_json()
    created = resp.get_json()
    for seat in ("ann", "bob"):  # version 2
        headers = bearer(created["seats"][seat])
        move = client.get(f"/v1/sessions/{created['session_id']}/legal-moves", headers=headers)
        resp = client.post(
            f"/v1/sessions/{created['session_id']}/moves",
            json={"move": move.get_json()["moves"][0]},
            headers=headers,
        )
        assert resp.status_code == 200, resp.get_json()
    return created


def _problem(resp, name: str, code: str) -> dict:
    assert resp.status_code == 400, resp.get_data(as_text=True)
    body = resp.get_json()
    assert body["code"] == code and list(body["errors"]) == [name], body
    return body


@pytest.mark.parametrize("value", ["\u0663", "\uff13", "3.0", "+3", "0x3", "1_0", "-1", "1" * 17])
def test_numbers_are_ascii_digits(client, session, value):
    base = f"/v1/sessions/{session['session_id']}"
    _problem(client.get(base + "/history", query_string={"after": value}), "after", "invalid_query")
    _problem(client.get(base + "/history", query_string={"limit": value}), "limit", "invalid_query")
    _problem(client.get(base + "/events", query_string={"after": value}), "after", "invalid_query")
    _problem(
        client.get(base + "/events", headers={"Last-Event-ID": value}),
        "Last-Event-ID",
        "invalid_header",
    )


def test_a_cursor_past_the_version_is_a_400_naming_it(client, session):
    base = f"/v1/sessions/{session['session_id']}"
    body = _problem(client.get(base + "/history?after=3"), "after", "invalid_query")
    assert body["current_version"] == 2
    _problem(client.get(base + "/events?after=3"), "after", "invalid_query")
    _problem(
        client.get(base + "/events", headers={"Last-Event-ID": "3"}),
        "Last-Event-ID",
        "invalid_header",
    )
    # Last-Event-ID wins over after (a reconnecting EventSource keeps its URL): a good header
    # with a bad after is fine, a bad header with a good after is not.
    _problem(
        client.get(base + "/events?after=0", headers={"Last-Event-ID": "9"}),
        "Last-Event-ID",
        "invalid_header",
    )


def test_cursors_up_to_the_version_are_served(client, session):
    base = f"/v1/sessions/{session['session_id']}"
    assert [e["version"] for e in client.get(base + "/history?after=1").get_json()["entries"]] == [
        2
    ]
    assert client.get(base + "/history?after=2").get_json()["entries"] == []
    assert client.get(base + "/history?after=002").get_json()["entries"] == []  # still digits
    stream = client.get(base + "/events", headers={"Last-Event-ID": "1"})
    assert stream.status_code == 200
    chunks = iter(stream.response)
    assert next(chunks).startswith(b"retry:")
    assert next(chunks).startswith(b"id: 2\n")  # the backlog after version 1
    stream.close()


def test_delete_with_a_stranger_token_is_401_like_every_operation(client, session):
    base = f"/v1/sessions/{session['session_id']}"
    stranger = bearer("not-a-token-of-this-session")
    for resp in (
        client.delete(base, headers=stranger),
        client.get(base, headers=stranger),
        client.get(base + "/legal-moves", headers=stranger),
        client.post(base + "/moves", json={"move": {}}, headers=stranger),
    ):
        assert resp.status_code == 401 and resp.get_json()["code"] == "unauthorized"
        assert resp.headers["WWW-Authenticate"].startswith("Bearer")
    other = client.post("/v1/sessions", json={"game": GAME, "players": ["cat", "dan"]}).get_json()
    for token in [other["admin_token"], *other["seats"].values()]:
        assert client.delete(base, headers=bearer(token)).status_code == 401
    seat = client.delete(base, headers=bearer(session["seats"]["ann"]))
    assert seat.status_code == 403 and seat.get_json()["code"] == "forbidden"
    assert client.delete(base, headers=bearer(session["admin_token"])).status_code == 204
