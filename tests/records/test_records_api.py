"""Records, replay, fork and takebacks through the HTTP API (the Flask test client, the embedded
Redis): records redacted per caller, a finished game's record verifies and a tampered one is
refused at the right version, forks of running games never hold the true hidden cards, and
takebacks past the information horizon are refused."""

from __future__ import annotations

import copy
import random

import pytest

import api.records
from api.session_store import Conflict
from api.store import OutcomeUnknown, StoreFull, StoreUnavailable
from rules.records.replay import DIGEST_WITHHELD, SEEN_BY_A_READER
from rules.registry import get_game

PROBLEM = "application/problem+json"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client, game: str, players: list[str]) -> dict:
    resp = client.post("/v1/sessions", json={"game": game, "players": players})
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()


def path(session: dict, tail: str = "") -> str:
    return f"/v1/sessions/{session['session_id']}{tail}"


def move_once(client, session: dict, chooser: random.Random, avoid=("concede",)) -> dict:
    """One random legal move of some seat the game waits on; the answer."""
    for _, token in sorted(session["seats"].items()):
        moves = client.get(path(session, "/legal-moves"), headers=bearer(token)).get_json()
        moves = moves["moves"]
        if moves:
            choices = [m for m in moves if m["type"] not in avoid] or moves
            resp = client.post(
                path(session, "/moves"),
                json={"move": chooser.choice(choices)},
                headers=bearer(token),
            )
            assert resp.status_code == 200, resp.get_json()
            return resp.get_json()
    raise AssertionError("nobody may move")


def record(client, session: dict, player: str | None = None) -> dict:
    headers = bearer(session["seats"][player]) if player else {}
    resp = client.get(path(session, "/record"), headers=headers)
    assert resp.status_code == 200, resp.get_json()
    return resp.get_json()


@pytest.fixture
def finished(client):
    """A finished Reign & Ruin session of two seats (random moves), and its whole record."""
    session = create(client, "reign-and-ruin", ["ann", "bob"])
    chooser = random.Random(3)
    for _ in range(200):
        if move_once(client, session, chooser)["outcome"] is not None:
            break
    return session, record(client, session)


# -- the record ------------------------------------------------------------------------------
def test_a_running_game_record_is_redacted_for_each_caller(client):
    session = create(client, "reign-and-ruin", ["ann", "bob"])
    chooser = random.Random(1)
    for _ in range(2):  # both draft picks of round 1
        move_once(client, session, chooser)
    ann, bob, public = (record(client, session, p) for p in ("ann", "bob", None))
    for rec in (ann, bob, public):
        assert rec["format"] == "reign-referee-record" and rec["format_version"] == 1
        assert rec["game"] == "reign-and-ruin" and rec["players"] == ["ann", "bob"]
        assert rec["fairness"]["seed"] is None and rec["fairness"]["salt"] is None
        assert len(rec["entries"]) == 2 and "start" not in rec
        assert [e["version"] for e in rec["entries"]] == [1, 2]
        assert rec["entries"][0]["state_digest"] == ann["entries"][0]["state_digest"]
    picks = {e["player"]: e for e in ann["entries"]}
    assert "cards" in picks["ann"]["move"] and "cards" not in picks["bob"]["move"]
    picks = {e["player"]: e for e in public["entries"]}
    assert all("cards" not in e["move"] for e in picks.values())
    assert all("cards" not in ev for e in public["entries"] for ev in e["events"])
    # not replayable while running: the seed is not revealed
    resp = client.post("/v1/games/reign-and-ruin/replay", json={"record": ann})
    assert resp.status_code == 200
    assert resp.get_json()["valid"] is False and resp.get_json()["first_difference"] == 0


def test_a_running_open_games_record_and_its_forks_say_what_they_withhold(client):
    # an open session shows its seed from the start, so its running record gets past version 0
    resp = client.post(
        "/v1/sessions",
        json={"game": "reign-and-ruin", "players": ["ann", "bob"], "open": True, "seed": 5},
    )
    session = resp.get_json()
    chooser = random.Random(1)
    for _ in range(2):  # both draft picks of round 1, each hidden from the other seat
        move_once(client, session, chooser)
    seen_by_ann = record(client, session, "ann")
    # no state digest: with the public seed bob's could be tried against it until his pick showed
    assert [e["state_digest"] for e in seen_by_ann["entries"]] == [None, None]
    answer = client.post("/v1/games/reign-and-ruin/replay", json={"record": seen_by_ann}).get_json()
    assert answer["valid"] is False and answer["first_difference"] == 1
    assert answer["detail"] in (SEEN_BY_A_READER, DIGEST_WITHHELD)
    resp = client.post(
        path(session, "/fork"), json={"version": 2}, headers=bearer(session["seats"]["ann"])
    )
    assert resp.status_code == 201, resp.get_json()
    answer = client.post(
        "/v1/games/reign-and-ruin/replay", json={"record": record(client, resp.get_json())}
    ).get_json()
    assert answer["valid"] is False and answer["first_difference"] == 0
    assert answer["detail"].startswith("A fork's record holds its start (version 0) only once")


def test_a_finished_record_is_whole_and_verifies(client, finished):
    session, whole = finished
    assert whole["fairness"]["seed"] is not None
    assert record(client, session, "bob") == whole  # everyone gets the whole record
    resp = client.post("/v1/games/reign-and-ruin/replay", json={"record": whole})
    assert resp.status_code == 200 and resp.get_json() == {"valid": True}


def test_a_tampered_record_is_refused_at_the_version_tampered_with(client, finished):
    _, whole = finished
    game = get_game("reign-and-ruin")
    tampered = copy.deepcopy(whole)
    entry = tampered["entries"][-3]
    entry["events"] = entry["events"][:-1] + [{"type": "game_over"}]
    resp = client.post("/v1/games/reign-and-ruin/replay", json={"record": tampered})
    answer = resp.get_json()
    assert answer["valid"] is False and answer["first_difference"] == entry["version"]
    assert answer["detail"]
    tampered = copy.deepcopy(whole)
    tampered["entries"][4]["move"]["card"] = "no-such-card"  # a play of the 5th move
    answer = client.post("/v1/games/reign-and-ruin/replay", json={"record": tampered}).get_json()
    assert answer["valid"] is False and answer["first_difference"] == 5
    assert game.id == whole["game"]


@pytest.mark.parametrize(
    "mangle",
    [
        lambda r: r.pop("entries"),
        lambda r: r.update(format="pgn"),
        lambda r: r["entries"][0].update(version="1"),
        lambda r: r["fairness"].pop("seed_commitment"),
    ],
)
def test_a_malformed_record_is_a_400(client, finished, mangle):
    _, whole = finished
    broken = copy.deepcopy(whole)
    mangle(broken)
    resp = client.post("/v1/games/reign-and-ruin/replay", json={"record": broken})
    assert resp.status_code == 400 and resp.mimetype == PROBLEM
    assert resp.get_json()["errors"]


def test_replay_of_an_unknown_game_is_a_404(client, finished):
    resp = client.post("/v1/games/chess/replay", json={"record": finished[1]})
    assert resp.status_code == 404


# -- fork ------------------------------------------------------------------------------------
def test_a_fork_of_a_running_game_keeps_the_seat_view_and_draws_the_rest(client):
    session = create(client, "reign-and-ruin", ["ann", "bob", "cat"])
    truth_bob = client.get(path(session), headers=bearer(session["seats"]["bob"])).get_json()
    truth_ann = client.get(path(session), headers=bearer(session["seats"]["ann"])).get_json()
    resp = client.post(
        path(session, "/fork"),
        json={"version": 0, "as": "ann"},
        headers=bearer(session["seats"]["ann"]),
    )
    assert resp.status_code == 201, resp.get_json()
    fork = resp.get_json()
    assert fork["forked_from"] == {"session_id": session["session_id"], "version": 0}
    assert set(fork["seats"]) == {"ann", "bob", "cat"} and fork["admin_token"]
    assert fork["fairness"]["open"] is True and fork["version"] == 0
    assert resp.headers["Location"] == f"/v1/sessions/{fork['session_id']}"
    fork_ann = client.get(path(fork), headers=bearer(fork["seats"]["ann"])).get_json()
    fork_bob = client.get(path(fork), headers=bearer(fork["seats"]["bob"])).get_json()
    assert fork_ann["view"] == truth_ann["view"]
    assert fork_bob["view"]["draft"]["packet"] != truth_bob["view"]["draft"]["packet"]
    forked_record = record(client, fork)
    assert forked_record["forked_from"] == fork["forked_from"]


def test_a_running_game_forks_only_as_the_caller_seat(client):
    session = create(client, "reign-and-ruin", ["ann", "bob"])
    fork = path(session, "/fork")
    resp = client.post(
        fork, json={"version": 0, "as": "bob"}, headers=bearer(session["seats"]["ann"])
    )
    assert resp.status_code == 403
    resp = client.post(fork, json={"version": 0}, headers=bearer(session["admin_token"]))
    assert resp.status_code == 403
    resp = client.post(fork, json={"version": 0})
    assert resp.status_code == 401
    resp = client.post(fork, json={"version": 5}, headers=bearer(session["seats"]["ann"]))
    assert resp.status_code == 422 and resp.get_json()["code"] == "unknown_version"
    resp = client.post(fork, json={"version": -1}, headers=bearer(session["seats"]["ann"]))
    assert resp.status_code == 400


def test_a_fork_as_nobody_of_the_session_is_a_422_naming_as(client, finished):
    """``as`` naming no player of the session is a mistake, running or finished: 422
    ``unknown_player`` naming ``as`` (a finished game's fork ignored it and forked). Another
    seat's name stays a 403 while the game runs; a finished game forks from the true state
    whoever ``as`` names."""
    done, _ = finished
    running = create(client, "reign-and-ruin", ["ann", "bob"])
    cases = [
        (running, running["seats"]["ann"]),
        (running, running["admin_token"]),
        (done, done["seats"]["ann"]),
        (done, done["admin_token"]),
    ]
    for session, token in cases:
        resp = client.post(
            path(session, "/fork"), json={"version": 0, "as": "zed"}, headers=bearer(token)
        )
        assert resp.status_code == 422 and resp.mimetype == PROBLEM, resp.get_json()
        problem = resp.get_json()
        assert problem["code"] == "unknown_player" and list(problem["errors"]) == ["as"]
        assert "'zed' is not a player of this session" in problem["detail"]
    ann = bearer(running["seats"]["ann"])
    other = client.post(path(running, "/fork"), json={"version": 0, "as": "bob"}, headers=ann)
    assert other.status_code == 403
    ann = bearer(done["seats"]["ann"])
    other = client.post(path(done, "/fork"), json={"version": 0, "as": "bob"}, headers=ann)
    assert other.status_code == 201


def test_a_fork_of_a_finished_game_is_the_true_state(client, finished):
    session, whole = finished
    version = len(whole["entries"]) // 2
    resp = client.post(
        path(session, "/fork"), json={"version": version}, headers=bearer(session["admin_token"])
    )
    assert resp.status_code == 201, resp.get_json()
    fork = resp.get_json()
    assert record(client, fork)["start_digest"] == whole["entries"][version - 1]["state_digest"]


# -- takebacks --------------------------------------------------------------------------------
def rs_session(client, moves: int) -> tuple[dict, list[dict]]:
    """A Reign Supreme session after ``moves`` set-up placements (public, deterministic moves),
    and each seat's view at every version."""
    session = create(client, "reign-supreme", ["ann", "bob"])
    chooser = random.Random(2)
    views = [snapshot(client, session)]
    for _ in range(moves):
        move_once(client, session, chooser)
        views.append(snapshot(client, session))
    return session, views


def snapshot(client, session: dict) -> dict:
    return {
        p: client.get(path(session), headers=bearer(t)).get_json()["view"]
        for p, t in session["seats"].items()
    }


def turn_change(entries: list[dict]) -> tuple[str, str, int]:
    """The seat that moved last, the other seat, and the version of the other's last move."""
    last = entries[-1]["player"]
    other = next(e for e in reversed(entries) if e["player"] != last)
    return last, other["player"], other["version"]


def propose(client, session, seat, to_version):
    return client.post(
        path(session, "/takebacks"),
        json={"to_version": to_version},
        headers=bearer(session["seats"][seat]),
    )


def proposed_back(client, session) -> tuple[str, str, int, str]:
    """The seat that moved last proposes to take back to before the other seat's last move, so
    the takeback waits on that other seat: the proposer, the other seat, the version of the
    other's last move and the takeback's id."""
    proposer, other, version = turn_change(record(client, session)["entries"])
    tid = propose(client, session, proposer, version - 1).get_json()["takeback_id"]
    return proposer, other, version, tid


def answer(client, session, seat, tid, said):
    return client.post(
        path(session, f"/takebacks/{tid}"),
        json={"answer": said},
        headers=bearer(session["seats"][seat]),
    )


def test_a_takeback_waits_on_the_seats_it_undoes_then_lands(client):
    session, views = rs_session(client, 7)  # five placements of one seat, two of the other
    entries = record(client, session)["entries"]
    assert {e["move"]["type"] for e in entries} == {"place"}
    proposer, other, version = turn_change(entries)
    to_version = version - 1
    resp = propose(client, session, proposer, to_version)
    assert resp.status_code == 201, resp.get_json()
    proposal = resp.get_json()
    assert proposal["waiting_on"] == [other] and proposal["status"] == "pending"
    assert proposal["version"] == 7 and proposal["to_version"] == to_version
    tid = proposal["takeback_id"]
    assert answer(client, session, proposer, tid, "accept").status_code == 403  # not waited on
    assert snapshot(client, session) == views[7]  # nothing happens before the consent
    resp = answer(client, session, other, tid, "accept")
    assert resp.status_code == 200, resp.get_json()
    assert resp.get_json()["status"] == "accepted" and resp.get_json()["version"] == 8
    assert snapshot(client, session) == views[to_version]  # at version 8
    history = client.get(path(session, "/history")).get_json()["entries"]
    assert len(history) == 8 and history[-1]["by"] == "takeback"
    assert history[-1]["takeback"]["to_version"] == to_version
    assert history[-1]["takeback"]["accepted_by"] == [proposer, other]
    last = record(client, session)["entries"][-1]
    assert last["by"] == "takeback"
    assert last["state_digest"] == entries[to_version - 1]["state_digest"]


def test_a_declined_takeback_changes_nothing(client):
    session, views = rs_session(client, 7)
    proposer, other, version, tid = proposed_back(client, session)
    resp = answer(client, session, other, tid, "decline")
    assert resp.status_code == 200 and resp.get_json()["status"] == "declined"
    assert snapshot(client, session) == views[7]
    resp = answer(client, session, other, tid, "accept")
    assert resp.get_json()["status"] == "declined"  # the first answer stands
    assert snapshot(client, session) == views[7]


def _news(store, pubsub) -> dict:
    """The next message on a session's channel. (None is a quiet interval, or the subscription's
    own confirmation, which redis-py reads as None: a few are allowed.)"""
    for tries, message in enumerate(store.messages(pubsub, 2)):
        if message is not None:
            return message
        assert tries < 5, "nothing was announced"
    raise AssertionError("the channel closed")


def test_the_seats_a_takeback_waits_on_learn_of_it(app, client):
    """A pending takeback is in the session answer (to anyone: takebacks are public) and is
    announced on the session's channel, which ``/events`` sends as ``event: takeback``; once
    declined it is announced again and gone from the answer."""
    session, _ = rs_session(client, 7)
    proposer, other, version = turn_change(record(client, session)["entries"])
    store = app.extensions["referee_sessions"]
    pubsub = store.subscribe(session["session_id"])
    try:
        assert client.get(path(session)).get_json()["takeback"] is None
        tid = propose(client, session, proposer, version - 1).get_json()["takeback_id"]
        assert _news(store, pubsub) == {"takeback_news": {"takeback_id": tid, "status": "pending"}}
        pending = {
            "takeback_id": tid,
            "to_version": version - 1,
            "proposed_by": proposer,
            "waiting_on": [other],
        }
        for token in (session["seats"][other], session["seats"][proposer], None):
            seen = client.get(path(session), headers=bearer(token) if token else {})
            assert seen.get_json()["takeback"] == pending
        answer(client, session, other, tid, "decline")
        assert _news(store, pubsub)["takeback_news"] == {"takeback_id": tid, "status": "declined"}
        assert client.get(path(session)).get_json()["takeback"] is None
    finally:
        pubsub.close()


def test_after_a_takeback_the_clock_runs_for_the_seats_the_game_waits_on(client):
    """Bob moves and ends his turn (ann's clock runs); ann takes both back with his consent: the
    game waits on bob again, and so does the clock, charged but with no increment for anyone."""
    body = {
        "game": "reign-supreme",
        "players": ["ann", "bob"],
        "options": {"setup": "auto", "round_limit": 1, "first_player": "bob"},
        "clock": {"type": "fischer", "initial_seconds": 300, "increment_seconds": 5},
    }
    session = client.post("/v1/sessions", json=body).get_json()
    bob = bearer(session["seats"]["bob"])
    for wanted in ("move", "end_turn"):
        moves = client.get(path(session, "/legal-moves"), headers=bob).get_json()["moves"]
        move = next(m for m in moves if m["type"] == wanted)
        assert (
            client.post(path(session, "/moves"), json={"move": move}, headers=bob).status_code
            == 200
        )
    assert client.get(path(session)).get_json()["clock"]["running"] == ["ann"]
    tid = propose(client, session, "ann", 1).get_json()["takeback_id"]
    assert answer(client, session, "bob", tid, "accept").get_json()["status"] == "accepted"
    after = client.get(path(session)).get_json()
    assert after["to_move"] == ["bob"] and after["clock"]["running"] == ["bob"]
    assert after["clock"]["remaining_ms"]["ann"] <= 300_000  # no increment for a takeback
    entry = client.get(path(session, "/history?after=2")).get_json()["entries"][0]
    assert entry["by"] == "takeback" and entry["clock"]["running"] == ["bob"]


def test_a_takeback_of_ones_own_moves_lands_at_once(client):
    session, views = rs_session(client, 7)
    proposer, _, version = turn_change(record(client, session)["entries"])
    resp = propose(client, session, proposer, version)
    assert resp.status_code == 201
    assert resp.get_json()["status"] == "accepted" and resp.get_json()["waiting_on"] == []
    assert snapshot(client, session) == views[version]


def test_a_takeback_past_a_takeback_waits_on_the_seat_that_took_its_move_back(client):
    """The last mover takes its own move back (no consent needed); the other seat may not put
    that move back alone: going back past the takeback waits on the seat that made it."""
    session, views = rs_session(client, 7)
    mover, other, _ = turn_change(record(client, session)["entries"])
    resp = propose(client, session, mover, 6)
    assert resp.get_json()["status"] == "accepted" and resp.get_json()["version"] == 8
    resp = propose(client, session, other, 7)  # version 7: the move taken back
    assert resp.status_code == 201, resp.get_json()
    assert resp.get_json()["status"] == "pending" and resp.get_json()["waiting_on"] == [mover]
    assert snapshot(client, session) == views[6]  # the move stays taken back
    resp = answer(client, session, mover, resp.get_json()["takeback_id"], "accept")
    assert resp.get_json()["status"] == "accepted" and snapshot(client, session) == views[7]


def test_cancelling_an_accepted_takeback_waits_on_the_seats_that_accepted_it(client):
    """A takeback both seats agreed on is undone (back to the version before it) only with the
    other seat's consent, whichever seat proposes it."""
    session, views = rs_session(client, 7)
    proposer, other, version, tid = proposed_back(client, session)
    assert answer(client, session, other, tid, "accept").get_json()["version"] == 8
    for seat, waited_on in ((proposer, other), (other, proposer)):
        resp = propose(client, session, seat, 7)
        assert resp.status_code == 201, resp.get_json()
        assert resp.get_json()["status"] == "pending"
        assert resp.get_json()["waiting_on"] == [waited_on]
        assert snapshot(client, session) == views[version - 1]  # still taken back


def test_a_takeback_past_the_horizon_is_refused(client):
    session = create(client, "reign-and-ruin", ["ann", "bob"])
    move_once(client, session, random.Random(1))  # a draft pick: a simultaneous decision
    resp = client.post(
        path(session, "/takebacks"), json={"to_version": 0}, headers=bearer(session["seats"]["ann"])
    )
    assert resp.status_code == 409 and resp.mimetype == PROBLEM
    assert resp.get_json()["code"] == "past_information_horizon"
    assert resp.get_json()["horizon"] == 1


def test_a_takeback_goes_stale_when_a_move_lands(client):
    session, _ = rs_session(client, 7)
    proposer, other, version, tid = proposed_back(client, session)
    move_once(client, session, random.Random(5))
    resp = answer(client, session, other, tid, "accept")
    assert resp.status_code == 409 and resp.get_json()["code"] == "takeback_stale"
    assert resp.get_json()["detail"].endswith("Propose it again.")


def test_a_takeback_stale_because_the_game_ended_says_the_game_is_over(client):
    session, _ = rs_session(client, 7)
    proposer, other, version, tid = proposed_back(client, session)
    (placing,) = client.get(path(session)).get_json()["to_move"]
    concede = {"move": {"player": placing, "type": "concede"}}  # of two seats: the game ends
    token = bearer(session["seats"][placing])
    assert client.post(path(session, "/moves"), json=concede, headers=token).status_code == 200
    resp = answer(client, session, other, tid, "accept")
    assert resp.status_code == 409 and resp.get_json()["code"] == "takeback_stale"
    assert resp.get_json()["current_version"] == 8
    assert resp.get_json()["detail"].endswith("The game is over: nothing can be taken back.")


@pytest.mark.parametrize(
    "body, status",
    [({"to_version": 2}, 422), ({"to_version": 9}, 422), ({"to_version": "1"}, 400), ({}, 400)],
)
def test_takeback_requests_are_checked(client, body, status):
    session, _ = rs_session(client, 2)
    resp = client.post(
        path(session, "/takebacks"), json=body, headers=bearer(session["seats"]["ann"])
    )
    assert resp.status_code == status and resp.mimetype == PROBLEM
    assert client.post(path(session, "/takebacks"), json={"to_version": 0}).status_code == 401
    resp = client.post(
        path(session, "/takebacks/nope"),
        json={"answer": "accept"},
        headers=bearer(session["seats"]["ann"]),
    )
    assert resp.status_code == 404


# -- the "Done when", in every game ----------------------------------------------------
GAMES = {
    "reign-and-ruin": ["ann", "bob", "cat"],
    "reign-absolute": ["ann", "bob"],
    "reign-supreme": ["ann", "bob"],
    "reigns-the-council": ["ann", "bob", "cat"],
}


def _as_history(entry: dict) -> dict:
    """A record entry as ``/history`` shows it (no digest; ``clock`` always, ``null`` without)."""
    shown = {k: v for k, v in entry.items() if k != "state_digest"}
    shown.setdefault("clock", None)
    return shown


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_each_caller_record_is_what_that_caller_was_shown(client, game_id):
    """While the game runs, each seat's record, entry for entry, is what ``/history`` showed that
    seat (and the public record what it showed a spectator): two paths, the record's kept views
    and the history's own redaction, that must agree at every point."""
    session = create(client, game_id, GAMES[game_id])
    chooser = random.Random(4)
    for _ in range(12):
        move_once(client, session, chooser)
        for viewer in [*GAMES[game_id], None]:
            headers = bearer(session["seats"][viewer]) if viewer else {}
            shown = client.get(path(session, "/history"), headers=headers).get_json()
            kept = record(client, session, viewer)
            if kept["fairness"]["seed"] is not None:  # finished: whole for everyone
                return
            assert [_as_history(e) for e in kept["entries"]] == shown["entries"], viewer


@pytest.mark.parametrize(
    "game_id, moves", [("reign-and-ruin", 3), ("reign-absolute", 3), ("reigns-the-council", 9)]
)
def test_a_fork_of_a_running_game_never_holds_the_other_seats_true_cards(client, game_id, moves):
    """Forked as ann once every seat holds hidden cards (a seeded game: the Council deals a
    seat its goal and hand on its turn of the deal): ann sees exactly what she saw; the other
    seats' hidden cards are drawn afresh, so their views are not the truth. A small hand may
    be drawn the same by chance: of five forks, not all are."""
    resp = client.post(
        "/v1/sessions",
        json={"game": game_id, "players": GAMES[game_id], "open": True, "seed": 5},
    )
    assert resp.status_code == 201
    session = resp.get_json()
    chooser = random.Random(6)
    for _ in range(moves):
        move_once(client, session, chooser)
    version = client.get(path(session)).get_json()["version"]
    truth = {
        p: client.get(path(session), headers=bearer(t)).get_json()["view"]
        for p, t in session["seats"].items()
    }
    forks = []
    for _ in range(5):
        resp = client.post(
            path(session, "/fork"),
            json={"version": version},
            headers=bearer(session["seats"]["ann"]),
        )
        assert resp.status_code == 201, resp.get_json()
        fork = resp.get_json()
        assert fork["clock"] is None and fork["forked_from"]["version"] == version
        forks.append(
            {
                p: client.get(path(fork), headers=bearer(t)).get_json()["view"]
                for p, t in fork["seats"].items()
            }
        )
    assert all(forked["ann"] == truth["ann"] for forked in forks)
    for other in GAMES[game_id][1:]:
        assert any(forked[other] != truth[other] for forked in forks), other


def test_a_tampered_digest_or_seed_is_refused_where_it_was_changed(client, finished):
    _, whole = finished
    for version in (1, len(whole["entries"]) // 2, len(whole["entries"])):
        tampered = copy.deepcopy(whole)
        tampered["entries"][version - 1]["state_digest"] = "0" * 64
        answer = client.post("/v1/games/reign-and-ruin/replay", json={"record": tampered})
        assert answer.get_json()["first_difference"] == version
    tampered = copy.deepcopy(whole)
    tampered["fairness"]["seed"] += 1
    answer = client.post("/v1/games/reign-and-ruin/replay", json={"record": tampered}).get_json()
    assert answer["valid"] is False and answer["first_difference"] == 0


def test_a_finished_game_is_never_taken_back(client, finished):
    """The last move ended the game and revealed the seed: a barrier (``finished``)."""
    session, whole = finished
    last = len(whole["entries"])
    resp = propose(client, session, whole["entries"][-1]["player"], last - 1)
    assert resp.status_code == 409 and resp.get_json()["code"] == "past_information_horizon"
    assert resp.get_json()["horizon"] == last
    assert resp.get_json()["detail"].startswith(f"The game is over (at version {last})")


# -- takebacks whose answer was lost (503 outcome_unknown), sent again ----------------------------
def _lost_after(monkeypatch, store, name):
    """The store's ``name`` write lands once, and its answer is lost (503 ``outcome_unknown``):
    Redis stopped answering after it was sent (``api.store.guarded_write``)."""
    real, lost = getattr(store, name), []

    def lands_then_lost(*args, **kwargs):
        if not lost:
            lost.append(real(*args, **kwargs))
            raise OutcomeUnknown("TimeoutError: Timeout reading from socket")
        return real(*args, **kwargs)

    monkeypatch.setattr(store, name, lands_then_lost)
    return lost


def _takebacks(client, session) -> list[dict]:
    entries = client.get(path(session, "/history")).get_json()["entries"]
    return [e for e in entries if e.get("by") == "takeback"]


def test_a_takeback_proposal_sent_again_with_its_key_lands_once(app, client, monkeypatch):
    """api-contract: a retry with the same Idempotency-Key is safe, no move applied twice. A
    takeback of one's own moves lands at once; its answer is lost; the retry gets that answer
    (``Idempotent-Replayed``), and the history holds one takeback."""
    session, views = rs_session(client, 7)
    proposer, _, version = turn_change(record(client, session)["entries"])
    lost = _lost_after(monkeypatch, app.extensions["referee_sessions"], "commit")
    headers = {**bearer(session["seats"][proposer]), "Idempotency-Key": "back-1"}
    resp = client.post(path(session, "/takebacks"), json={"to_version": version}, headers=headers)
    assert resp.status_code == 503 and resp.get_json()["code"] == "outcome_unknown"
    assert "takeback" in resp.get_json()["detail"] and lost, "it landed, its answer lost"
    again = client.post(path(session, "/takebacks"), json={"to_version": version}, headers=headers)
    assert again.status_code == 201, again.get_json()
    assert again.headers["Idempotent-Replayed"] == "true"
    answer = again.get_json()
    assert answer["status"] == "accepted" and answer["version"] == 8
    assert answer["to_version"] == version and answer["proposed_by"] == proposer
    assert len(_takebacks(client, session)) == 1, "the retried takeback landed twice"
    assert answer["takeback_id"] == _takebacks(client, session)[0]["takeback"]["takeback_id"]
    assert snapshot(client, session) == views[version]
    other = client.post(path(session, "/takebacks"), json={"to_version": 1}, headers=headers)
    assert other.status_code == 422 and other.get_json()["code"] == "idempotency_key_reused"


def test_a_pending_takeback_proposal_sent_again_with_its_key_is_the_same_one(
    app, client, monkeypatch
):
    session, _ = rs_session(client, 7)
    proposer, other, version = turn_change(record(client, session)["entries"])
    _lost_after(monkeypatch, app.extensions["referee_sessions"], "propose_takeback")
    headers = {**bearer(session["seats"][proposer]), "Idempotency-Key": "back-2"}
    body = {"to_version": version - 1}
    resp = client.post(path(session, "/takebacks"), json=body, headers=headers)
    assert resp.status_code == 503 and resp.get_json()["code"] == "outcome_unknown"
    pending = client.get(path(session)).get_json()["takeback"]
    again = client.post(path(session, "/takebacks"), json=body, headers=headers)
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json()["takeback_id"] == pending["takeback_id"]  # not proposed anew
    assert again.get_json()["status"] == "pending" and again.get_json()["waiting_on"] == [other]
    assert client.get(path(session)).get_json()["takeback"] == pending


def test_a_proposal_sent_twice_at_once_with_its_key_is_proposed_once(client, monkeypatch):
    """Two copies of a proposal race: both pass the check for a replay before either is stored.
    The store keeps the first and answers the second with it (before, each copy replaced the one
    before with a takeback id of its own, and the id the proposer was given could be gone)."""
    session, _ = rs_session(client, 7)
    proposer, other, version = turn_change(record(client, session)["entries"])
    headers = {**bearer(session["seats"][proposer]), "Idempotency-Key": "back-3"}
    body = {"to_version": version - 1}
    first = client.post(path(session, "/takebacks"), json=body, headers=headers)
    assert first.status_code == 201 and first.get_json()["status"] == "pending"
    replayed = api.records._replayed_proposal
    raced = []

    def not_yet_stored(*args):  # the second copy's check ran before the first was stored
        if not raced:
            raced.append(True)
            return None
        return replayed(*args)

    monkeypatch.setattr(api.records, "_replayed_proposal", not_yet_stored)
    again = client.post(path(session, "/takebacks"), json=body, headers=headers)
    assert raced and again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json()["takeback_id"] == first.get_json()["takeback_id"]
    assert (
        client.get(path(session)).get_json()["takeback"]["takeback_id"]
        == (first.get_json()["takeback_id"])
    )


def test_copies_of_a_proposal_that_lands_at_once_answer_the_later_as_replayed(client, monkeypatch):
    """Two copies of a proposal that undoes only the proposer's moves race: both pass the check
    for a replay, the first lands, and the second's commit finds its key. Its answer is the
    first's, marked ``Idempotent-Replayed`` as a move's racing copy is (it was not, in a hunt of
    two instances sharing one Redis)."""
    session, _ = rs_session(client, 7)
    proposer, _, version = turn_change(record(client, session)["entries"])
    headers = {**bearer(session["seats"][proposer]), "Idempotency-Key": "back-5"}
    first = client.post(path(session, "/takebacks"), json={"to_version": version}, headers=headers)
    assert first.status_code == 201 and first.get_json()["status"] == "accepted"
    monkeypatch.setattr(api.records, "_replayed_proposal", lambda *args: None)  # not yet stored
    again = client.post(path(session, "/takebacks"), json={"to_version": version}, headers=headers)
    assert again.status_code == 201 and again.headers.get("Idempotent-Replayed") == "true"
    assert again.get_json()["takeback_id"] == first.get_json()["takeback_id"]
    assert len(_takebacks(client, session)) == 1


def test_an_accept_racing_a_new_proposal_lands_one_of_the_two(app, client, monkeypatch):
    """docs/records.md: "a new proposal replaces it". The last accept of a takeback is recorded,
    then a new proposal replaces that takeback before it lands: the replaced one must not land
    (before, it did, while its proposer was told the new one was pending: both racing writes
    won). The accept is 404 ``unknown_takeback``, as an accept of a replaced takeback is, and
    the new proposal stays pending, and lands when accepted."""
    session, views = rs_session(client, 7)
    proposer, other, version = turn_change(record(client, session)["entries"])
    replaced = propose(client, session, proposer, version - 1).get_json()["takeback_id"]
    store = app.extensions["referee_sessions"]
    replacing = {
        "takeback_id": "replacing",
        "to_version": version,
        "at_version": 7,
        "proposed_by": proposer,
        "waiting_on": [other],
        "accepted_by": [proposer],
    }
    real_commit = store.commit

    def proposed_meanwhile(*args, **kwargs):
        if store.latest_takeback(session["session_id"])["takeback_id"] == replaced:
            assert store.propose_takeback(session["session_id"], 7, replacing) == "proposed"
        return real_commit(*args, **kwargs)

    monkeypatch.setattr(store, "commit", proposed_meanwhile)
    resp = answer(client, session, other, replaced, "accept")
    assert resp.status_code == 404 and resp.get_json()["code"] == "unknown_takeback"
    assert _takebacks(client, session) == [] and snapshot(client, session) == views[7]
    assert client.get(path(session)).get_json()["takeback"]["takeback_id"] == "replacing"
    landed = answer(client, session, other, "replacing", "accept")
    assert landed.status_code == 200 and landed.get_json()["status"] == "accepted"
    assert snapshot(client, session) == views[version]


def test_a_last_accept_refused_by_a_full_store_leaves_no_accept_behind(app, client, monkeypatch):
    """README "Memory": a takeback's answer refused with 507 wrote nothing. The last accept is
    recorded first and the takeback landed after; when the store refused the landing, the
    accept stayed: the takeback then waited on nobody, and the seat's later ``decline`` (it was
    told nothing was written) landed it instead (found by a full-store hunt)."""
    session, views = rs_session(client, 7)
    proposer, other, version, tid = proposed_back(client, session)
    store = app.extensions["referee_sessions"]

    def full(*args, **kwargs):
        raise StoreFull("OutOfMemoryError: command not allowed when used memory > 'maxmemory'")

    monkeypatch.setattr(store, "commit", full)
    resp = answer(client, session, other, tid, "accept")
    assert resp.status_code == 507 and resp.get_json()["code"] == "store_full"
    monkeypatch.undo()
    pending = client.get(path(session), headers=bearer(session["seats"][other])).get_json()
    assert pending["takeback"]["waiting_on"] == [other]  # nothing of the accept stayed
    declined = answer(client, session, other, tid, "decline")
    assert declined.status_code == 200 and declined.get_json()["status"] == "declined"
    assert _takebacks(client, session) == [] and snapshot(client, session) == views[7]


def test_a_last_accept_that_did_not_land_is_withdrawn_or_said_unknown(app, client, monkeypatch):
    """The accept is withdrawn whenever its landing failed (a clock-only change meanwhile is a
    409, after which the takeback waits on the seat again, not on nobody); when the store fails
    the withdrawal too, the answer is 503 ``outcome_unknown`` (the accept may stay), never a
    "nothing was written". Only the request that recorded the accept withdraws it (a seat's
    first answer stands: a copy sent again records nothing)."""
    session, _ = rs_session(client, 7)
    proposer, other, version, tid = proposed_back(client, session)
    store = app.extensions["referee_sessions"]
    sid = session["session_id"]
    monkeypatch.setattr(store, "commit", lambda *args, **kwargs: Conflict(7))  # the clock, always
    resp = answer(client, session, other, tid, "accept")
    assert resp.status_code == 409 and resp.get_json()["code"] == "version_conflict"
    assert "send it again" in resp.get_json()["detail"]  # it is pending: not "propose it again"
    assert store.pending_takeback(sid, 7)["waiting_on"] == [other]

    def unreachable(*args, **kwargs):
        raise StoreUnavailable("ConnectionError: Connection refused")

    monkeypatch.setattr(store, "commit", unreachable)
    monkeypatch.setattr(store, "withdraw_answer", lambda *args: False)
    resp = answer(client, session, other, tid, "accept")
    assert resp.status_code == 503 and resp.get_json()["code"] == "outcome_unknown"
    monkeypatch.undo()
    assert store.answer_takeback(sid, tid, other, "accept").recorded is False  # it stayed
    assert store.pending_takeback(sid, 7)["waiting_on"] == []


def test_a_last_accept_lands_though_the_clock_changed_meanwhile(app, client, monkeypatch):
    """Only the clock changed between the last accept and its landing (an admin's add-time, a
    grace): the commit is refused (its compare-and-set covers the clock) and the landing is
    tried again with the clock as it is now, instead of a 409 that says to propose it again."""
    session, views = rs_session(client, 7)
    proposer, other, version, tid = proposed_back(client, session)
    store = app.extensions["referee_sessions"]
    real_commit, refused = store.commit, []

    def clock_changed_once(*args, **kwargs):
        if not refused:
            refused.append(True)
            return Conflict(7)
        return real_commit(*args, **kwargs)

    monkeypatch.setattr(store, "commit", clock_changed_once)
    resp = answer(client, session, other, tid, "accept")
    assert refused and resp.status_code == 200 and resp.get_json()["status"] == "accepted"
    assert len(_takebacks(client, session)) == 1 and snapshot(client, session) == views[version - 1]


def test_a_move_that_refuses_the_last_landing_makes_the_takeback_stale(app, client, monkeypatch):
    """The clock refused the first four landings and a move the fifth: the answer says the
    takeback is stale (a move landed), not that the clock kept changing and to send the accept
    again (which would only be answered stale)."""
    session, _ = rs_session(client, 7)
    proposer, other, version, tid = proposed_back(client, session)
    store = app.extensions["referee_sessions"]
    real_commit, refused = store.commit, []

    def refused_five_times(*args, **kwargs):
        refused.append(True)
        if len(refused) == 5:  # the last try: a move lands meanwhile
            monkeypatch.setattr(store, "commit", real_commit)
            move_once(client, session, random.Random(1))
            return Conflict(8)
        return Conflict(7)  # the clock changed

    monkeypatch.setattr(store, "commit", refused_five_times)
    resp = answer(client, session, other, tid, "accept")
    assert len(refused) == 5 and resp.status_code == 409
    assert resp.get_json()["code"] == "takeback_stale", resp.get_json()


def test_a_pending_proposals_key_is_not_a_moves(client):
    """docs/records.md, "Retries": a key used for a proposal and then for a move is 422 (before,
    a proposal waiting on seats kept its key only with itself, and the move was applied)."""
    session, _ = rs_session(client, 7)
    proposer, other, version = turn_change(record(client, session)["entries"])
    headers = {**bearer(session["seats"][proposer]), "Idempotency-Key": "back-4"}
    proposed = client.post(
        path(session, "/takebacks"), json={"to_version": version - 1}, headers=headers
    )
    assert proposed.get_json()["status"] == "pending"
    moves = client.get(path(session, "/legal-moves"), headers=headers).get_json()["moves"]
    assert moves  # the proposer moves next (Reign Supreme's placements alternate)
    moved = client.post(path(session, "/moves"), json={"move": moves[0]}, headers=headers)
    assert moved.status_code == 422 and moved.get_json()["code"] == "idempotency_key_reused"


def test_an_accept_that_landed_sent_again_answers_accepted(app, client, monkeypatch):
    """The last accept lands the takeback and its answer is lost; the same accept sent again
    answers ``accepted`` as it landed, not ``takeback_stale`` (which says to propose it again)."""
    session, views = rs_session(client, 7)
    proposer, other, version, tid = proposed_back(client, session)
    _lost_after(monkeypatch, app.extensions["referee_sessions"], "commit")
    resp = answer(client, session, other, tid, "accept")
    assert resp.status_code == 503 and resp.get_json()["code"] == "outcome_unknown"
    again = answer(client, session, other, tid, "accept")
    assert again.status_code == 200, again.get_json()
    assert again.get_json()["status"] == "accepted" and again.get_json()["version"] == 8
    assert again.get_json()["takeback_id"] == tid and again.get_json()["waiting_on"] == []
    assert len(_takebacks(client, session)) == 1
    assert snapshot(client, session) == views[version - 1]
    assert answer(client, session, other, tid, "decline").status_code == 409  # too late


# -- a session deleted or expired while a request reads it ----------------------------------------
def _gone_after(monkeypatch, app, name, how, nth=1):
    """The session goes right after the store's ``name`` call (its ``nth``) returns: the admin's
    DELETE (``deleted``: the tombstone stays) or its time-to-live (``expired``: every key gone,
    nothing published) lands between that read and the request's next one. Deterministic: no
    thread, no timing."""
    store = app.extensions["referee_sessions"]
    real, calls = getattr(store, name), []

    def then_gone(session_id, *args, **kwargs):
        found = real(session_id, *args, **kwargs)
        calls.append(session_id)
        if len(calls) == nth:
            if how == "deleted":
                store.delete(session_id)
            else:
                store.store.client().delete(*store.keys(session_id))
        return found

    monkeypatch.setattr(store, name, then_gone)
    return calls


def _unknown_session(resp) -> bool:
    return (
        resp.status_code == 404
        and resp.mimetype == PROBLEM
        and resp.get_json()["code"] == "unknown_session"
    )


@pytest.mark.parametrize("how", ["deleted", "expired"])
@pytest.mark.parametrize("request_", ["fork", "record", "propose", "answer", "last answer"])
def test_a_session_gone_between_its_load_and_its_history_is_a_404(
    app, client, monkeypatch, request_, how
):
    """Contract: a deleted or expired session is 404, and no client input produces a 500. A
    request loads the session, then reads its history (or its takeback) apart; the session
    going in between (a DELETE racing a fork, say) left a short history: a fork replayed it
    into a 500 (``IndexError``), a record answered 200 with no entries, an answer 404
    ``unknown_takeback``. Each is 404 ``unknown_session``."""
    session, _ = rs_session(client, 7)
    proposer, other, version = turn_change(record(client, session)["entries"])
    tid = None
    if request_.endswith("answer"):
        tid = propose(client, session, proposer, version - 1).get_json()["takeback_id"]
    # An answer reads its takeback after its first load; the last one, which lands it, loads
    # the session again before it reads the history.
    nth = 2 if request_ == "last answer" else 1
    calls = _gone_after(monkeypatch, app, "load", how, nth=nth)
    if request_ == "fork":
        resp = client.post(
            path(session, "/fork"), json={"version": 5}, headers=bearer(session["seats"]["ann"])
        )
    elif request_ == "record":
        resp = client.get(path(session, "/record"))
    elif request_ == "propose":
        resp = propose(client, session, proposer, version - 1)
    else:
        resp = answer(client, session, other, tid, "accept")
    assert calls, "the session never went"
    assert _unknown_session(resp), (resp.status_code, resp.get_json())


@pytest.mark.parametrize("waits", [False, True])
def test_a_takeback_whose_session_goes_before_it_is_written_is_a_404(
    app, client, monkeypatch, waits
):
    """The session goes after the takeback's history was read, before it is written: a takeback
    that lands at once (the commit finds no session) or one that waits on a seat (the proposal's
    script finds none) is 404 ``unknown_session``, not 409 ``version_conflict``."""
    session, _ = rs_session(client, 7)
    proposer, _, version = turn_change(record(client, session)["entries"])
    calls = _gone_after(monkeypatch, app, "all_history", "deleted")
    resp = propose(client, session, proposer, version - 1 if waits else version)
    assert calls
    assert _unknown_session(resp), (resp.status_code, resp.get_json())
