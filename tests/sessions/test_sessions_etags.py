"""The ``ETag`` of a session read and of its picture: it changes whenever the answer does (RFC
9110 §8.8.1), not only with the version, and is the caller's own.

``GET /v1/sessions/{id}`` also shows the clock and a pending takeback, which change without a new
version (the admin pauses or adds time; a seat proposes a takeback, another declines it), and a
seat's view is not another's. Its tag was the version alone, so a seat revalidating its copy got
a 304 for a paused clock it thought running and never saw the takeback waiting on it, and bob's
revalidation of ann's copy (hidden cards and all) was a 304 too. Its tag is now
``"<version>.<digest>"`` of the viewer, the clock as stored and the pending takeback; the time a
running clock spends is not in it, so a poll still gets its 304. ``If-Match`` on a move takes
that tag as the version it names (README, "How sessions behave").
"""

from __future__ import annotations

import random
import re

import pytest

GAME = "reign-and-ruin"
VIEW_TAG = re.compile(r'"[0-9]+\.[0-9a-f]{12}"')


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def create(client, game: str = GAME, **body) -> dict:
    resp = client.post("/v1/sessions", json={"game": game, "players": ["ann", "bob"], **body})
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()


def url(session: dict, tail: str = "") -> str:
    return f"/v1/sessions/{session['session_id']}{tail}"


def read(client, session: dict, token: str | None = None, tag: str | None = None, tail: str = ""):
    """A read of the session (or of ``tail``) with ``token``, revalidating ``tag`` if given."""
    headers = bearer(token) | ({"If-None-Match": tag} if tag else {})
    return client.get(url(session, tail), headers=headers)


def test_the_tag_is_the_version_and_a_digest(client):
    session = create(client)
    for token in (session["seats"]["ann"], None):
        for tail in ("", "/board.svg"):
            resp = read(client, session, token, tail=tail)
            assert VIEW_TAG.fullmatch(resp.headers["ETag"]), resp.headers["ETag"]
            assert resp.headers["ETag"].startswith('"0.')
            assert "Authorization" in resp.headers["Vary"]
    # what does not depend on the caller keeps the version tag (contract: If-Match: "<version>")
    moves = read(client, session, session["seats"]["ann"], tail="/legal-moves")
    assert moves.headers["ETag"] == '"0"'


# -- the clock -------------------------------------------------------------------------------------
@pytest.fixture
def clocked(client) -> dict:
    return create(client, clock={"type": "per_move", "seconds": 60}, on_timeout={"action": "pause"})


def admin_clock(client, session: dict, **body) -> None:
    resp = client.post(url(session, "/clock"), json=body, headers=bearer(session["admin_token"]))
    assert resp.status_code == 200, resp.get_json()


def test_a_running_clock_keeps_its_tag_until_the_clock_is_written(client, clocked):
    bob = clocked["seats"]["bob"]
    first = read(client, clocked, bob)
    assert first.get_json()["clock"]["running"] == ["ann", "bob"]
    again = read(client, clocked, bob)
    assert again.headers["ETag"] == first.headers["ETag"]  # the time spent is not in the tag
    assert read(client, clocked, bob, first.headers["ETag"]).status_code == 304


def test_a_pause_a_resume_and_added_time_each_change_the_tag(client, clocked):
    bob = clocked["seats"]["bob"]
    tag = read(client, clocked, bob).headers["ETag"]
    seen = {tag}
    for change in ({"action": "pause"}, {"action": "add_time", "player": "bob", "seconds": 90}):
        admin_clock(client, clocked, **change)
        resp = read(client, clocked, bob, tag)  # the copy from before the change
        assert resp.status_code == 200, change
        assert resp.get_json()["version"] == 0 and resp.get_json()["clock"]["paused"] is True
        tag = resp.headers["ETag"]
        assert tag not in seen and tag.startswith('"0.')
        seen.add(tag)
        assert read(client, clocked, bob, tag).status_code == 304
    admin_clock(client, clocked, action="resume")
    resp = read(client, clocked, bob, tag)
    assert resp.status_code == 200 and resp.get_json()["clock"]["paused"] is False
    assert resp.headers["ETag"] not in seen


# -- a pending takeback ----------------------------------------------------------------------------
def supreme_after_a_turn_change(client) -> tuple[dict, str, str, int]:
    """A Reign Supreme session played (public set-up placements) until both seats have moved and
    the last mover could take back the other's move: the session, the last mover, the other
    seat, and the version before the other's last move."""
    session = create(client, "reign-supreme", open=True, seed=5)
    chooser = random.Random(2)
    movers: list[str] = []
    while len(movers) < 2 or movers[-1] == movers[-2]:
        snapshot = read(client, session).get_json()
        seat = snapshot["to_move"][0]
        token = session["seats"][seat]
        moves = read(client, session, token, tail="/legal-moves").get_json()["moves"]
        move = chooser.choice([m for m in moves if m["type"] != "concede"])
        resp = client.post(url(session, "/moves"), json={"move": move}, headers=bearer(token))
        assert resp.status_code == 200, resp.get_json()
        movers.append(seat)
    return session, movers[-1], movers[-2], len(movers) - 2  # move n made version n


def test_a_takeback_proposal_and_its_decline_change_the_tag(client):
    session, proposer, other, to_version = supreme_after_a_turn_change(client)
    waited_on = session["seats"][other]
    before = read(client, session, waited_on)
    assert before.get_json()["takeback"] is None
    proposal = client.post(
        url(session, "/takebacks"),
        json={"to_version": to_version},
        headers=bearer(session["seats"][proposer]),
    )
    assert proposal.status_code == 201 and proposal.get_json()["waiting_on"] == [other]
    pending = read(client, session, waited_on, before.headers["ETag"])
    assert pending.status_code == 200  # was a 304: the copy said takeback null
    assert pending.get_json()["takeback"]["waiting_on"] == [other]
    assert pending.get_json()["version"] == before.get_json()["version"]
    assert read(client, session, waited_on, pending.headers["ETag"]).status_code == 304
    declined = client.post(
        url(session, f"/takebacks/{proposal.get_json()['takeback_id']}"),
        json={"answer": "decline"},
        headers=bearer(waited_on),
    )
    assert declined.status_code == 200, declined.get_json()
    after = read(client, session, waited_on, pending.headers["ETag"])
    assert after.status_code == 200 and after.get_json()["takeback"] is None
    # the answer is the one before the proposal again, and so is its tag
    assert after.headers["ETag"] == before.headers["ETag"]


# -- each caller's own -----------------------------------------------------------------------------
@pytest.mark.parametrize("tail", ["", "/board.svg"])
def test_a_seats_tag_is_not_another_callers(client, tail):
    session = create(client)
    ann, bob = session["seats"]["ann"], session["seats"]["bob"]
    anns = read(client, session, ann, tail=tail)
    assert read(client, session, ann, anns.headers["ETag"], tail).status_code == 304
    for token in (bob, None):  # ann's copy shows her hand: never a 304 for bob or a spectator
        resp = read(client, session, token, anns.headers["ETag"], tail)
        assert resp.status_code == 200 and resp.get_data() != anns.get_data()
        assert resp.headers["ETag"] != anns.headers["ETag"]
    # the version alone is nobody's tag now
    assert read(client, session, ann, '"0"', tail).status_code == 200


# -- If-Match on a move ----------------------------------------------------------------------------
def test_if_match_takes_the_tag_of_a_read_as_its_version(client):
    session = create(client)
    ann, bob = session["seats"]["ann"], session["seats"]["bob"]
    tag = read(client, session, ann).headers["ETag"]
    move = read(client, session, ann, tail="/legal-moves").get_json()["moves"][0]
    moved = client.post(
        url(session, "/moves"), json={"move": move}, headers=bearer(ann) | {"If-Match": tag}
    )
    assert moved.status_code == 200, moved.get_json()
    assert moved.headers["ETag"] == '"1"'
    move = read(client, session, bob, tail="/legal-moves").get_json()["moves"][0]
    stale = client.post(
        url(session, "/moves"),
        json={"move": move},
        headers=bearer(bob)
        | {
            "If-Match": tag  # version 0's
        },
    )
    assert stale.status_code == 412 and stale.get_json()["current_version"] == 1
    assert stale.headers["ETag"] == '"1"'
    current = read(client, session, bob).headers["ETag"]
    moved = client.post(
        url(session, "/moves"), json={"move": move}, headers=bearer(bob) | {"If-Match": current}
    )
    assert moved.status_code == 200, moved.get_json()


# -- If-Match on every other write ---------------------------------------------------------------
def test_every_write_to_a_session_evaluates_if_match(client):
    """RFC 9110 §13.1.1: a server that receives If-Match MUST evaluate it. A delete, a clock
    change, a fork and a takeback proposal with a stale tag are 412 and change nothing; with the
    current tag (or a read's) they go ahead."""
    session = create(
        client, clock={"type": "per_move", "seconds": 60}, on_timeout={"action": "pause"}
    )
    ann, admin = session["seats"]["ann"], session["admin_token"]
    move = read(client, session, ann, tail="/legal-moves").get_json()["moves"][0]
    assert (
        client.post(url(session, "/moves"), json={"move": move}, headers=bearer(ann)).status_code
        == 200
    )
    stale = {"If-Match": '"0"'}
    writes = [
        ("/clock", {"action": "pause"}, admin),
        ("/fork", {"version": 1}, ann),
        ("/takebacks", {"to_version": 0}, ann),
    ]
    for tail, body, token in writes:
        resp = client.post(url(session, tail), json=body, headers=bearer(token) | stale)
        assert resp.status_code == 412, (tail, resp.get_json())
        assert resp.get_json()["current_version"] == 1
    weak = {"If-Match": 'W/"1"'}
    resp = client.post(
        url(session, "/clock"), json={"action": "pause"}, headers=bearer(admin) | weak
    )
    assert resp.status_code == 412 and "compares strongly" in resp.get_json()["detail"]
    assert client.delete(url(session), headers=bearer(admin) | stale).status_code == 412
    now = read(client, session, ann).get_json()
    assert now["clock"]["paused"] is False and now["takeback"] is None
    tag = read(client, session, ann).headers["ETag"]
    resp = client.post(
        url(session, "/clock"), json={"action": "pause"}, headers=bearer(admin) | {"If-Match": tag}
    )
    assert resp.status_code == 200, resp.get_json()
    assert (
        client.delete(url(session), headers=bearer(admin) | {"If-Match": '"1"'}).status_code == 204
    )
