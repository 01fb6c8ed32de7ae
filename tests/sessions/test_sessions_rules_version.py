"""Sessions of other rules (``api.rules_version``): a session is refereed only under the rules it
began with (README, "How sessions behave"; docs/records.md, "Sessions of other rules").

A session stored by a release of another rules version is made here as that release left it in
Redis: its stored state's ``schema_version`` one less than the game's, its ``origin`` without
the rules version this release keeps there. Everything that would advance or change it is a 409
``rules_version_changed`` naming both versions; reads and the admin's DELETE keep working; its
current version (only) forks into a session of these rules, whose record verifies; the clock
keeper and the bot seats pass it by, logging it once. Besides, a takeback or a fork never lands
a replayed state whose digest is not the one the history recorded for that version.
"""

from __future__ import annotations

import logging
import random
from typing import Any

import pytest

from api import jsonio
from api.bot_seats import BotSeats
from api.clock_keeper import OTHER_RULES_MS, ClockKeeper
from api.clock_store import DEADLINES
from api.session_clocks import now_ms
from api.session_store import KEY_PREFIX
from api.verify import VerifyError, verify_document
from rules.registry import get_game

PROBLEM = "application/problem+json"
GAMES = ["reign-supreme", "reign-absolute"]
"""Reign Supreme and another game: the upgrade hunted was of both (schema_version 5 to 6, and 3
to 4)."""
PER_MOVE = {"type": "per_move", "seconds": 60}
DAY_MS = 86_400_000


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client, game: str, **extra: Any) -> dict[str, Any]:
    body = {"game": game, "players": ["ann", "bob"], "open": True, "seed": 5, **extra}
    resp = client.post("/v1/sessions", json=body)
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()


def path(session: dict[str, Any], tail: str = "") -> str:
    return f"/v1/sessions/{session['session_id']}{tail}"


def play(client, session: dict[str, Any], moves: int, seed: int = 2) -> int:
    """``moves`` random legal moves (never ``concede``) of the seats the game waits on; the
    session's version after them."""
    chooser = random.Random(seed)
    for _ in range(moves):
        waiting = client.get(path(session)).get_json()["to_move"]
        headers = bearer(session["seats"][waiting[0]])
        legal = client.get(path(session, "/legal-moves"), headers=headers).get_json()["moves"]
        move = chooser.choice([m for m in legal if m["type"] != "concede"] or legal)
        resp = client.post(path(session, "/moves"), json={"move": move}, headers=headers)
        assert resp.status_code == 200, resp.get_json()
    return client.get(path(session)).get_json()["version"]


def finish(client, session: dict[str, Any]) -> None:
    """Play the game to its end: a seat concedes where its game lets it, else random moves."""
    chooser = random.Random(3)
    while waiting := client.get(path(session)).get_json()["to_move"]:
        headers = bearer(session["seats"][waiting[0]])
        legal = client.get(path(session, "/legal-moves"), headers=headers).get_json()["moves"]
        move = next((m for m in legal if m["type"] == "concede"), None) or chooser.choice(legal)
        resp = client.post(path(session, "/moves"), json={"move": move}, headers=headers)
        assert resp.status_code == 200, resp.get_json()


def session_key(session_id: str) -> str:
    return f"{KEY_PREFIX}{{{session_id}}}:session"


def stored(app, session_id: str) -> dict[str, bytes]:
    """The session hash as stored."""
    raw = app.extensions["referee_store"].client().hgetall(session_key(session_id))
    return {key.decode(): value for key, value in raw.items()}


def of_other_rules(app, session_id: str, change=None) -> int:
    """Make the stored session one the previous release of its game's rules stored: its state's
    ``schema_version`` one less (``change`` may alter the state further), its ``origin`` without
    the rules version (that release kept none). The version it now began under."""
    redis = app.extensions["referee_store"].client()
    key = session_key(session_id)
    state = jsonio.loads(redis.hget(key, "state"))
    state["schema_version"] -= 1
    if change is not None:
        change(state)
    origin = jsonio.loads(redis.hget(key, "origin"))
    origin.pop("schema_version", None)
    redis.hset(key, mapping={"state": jsonio.dumps(state), "origin": jsonio.dumps(origin)})
    return state["schema_version"]


def refusal(session_id: str, game_id: str) -> str:
    game = get_game(game_id)
    now = game.schema_version
    return (
        f"This game began under version {now - 1} of {game.title}'s rules; this referee plays "
        f"version {now}. Fork its current version to play on under version {now} (POST "
        f"/v1/sessions/{session_id}/fork), or finish it on a referee of version {now - 1}."
    )


def assert_refused(resp, version: int) -> dict[str, Any]:
    assert resp.status_code == 409, resp.get_json()
    assert resp.mimetype == PROBLEM and resp.headers["ETag"] == f'"{version}"'
    problem = resp.get_json()
    assert problem["code"] == "rules_version_changed"
    assert problem["current_version"] == version
    return problem


# -- refused: whatever would advance or change it ----------------------------------------------
@pytest.mark.parametrize("game_id", GAMES)
def test_a_session_of_other_rules_is_refused_every_move_takeback_and_clock_change(
    app, client, game_id
):
    session = create(client, game_id, clock=PER_MOVE)
    version = play(client, session, 4)
    waiting = client.get(path(session)).get_json()["to_move"][0]
    seat = bearer(session["seats"][waiting])
    move = client.get(path(session, "/legal-moves"), headers=seat).get_json()["moves"][0]
    of_other_rules(app, session["session_id"])
    before = stored(app, session["session_id"])
    expected = refusal(session["session_id"], game_id)

    answers = {
        "move": client.post(path(session, "/moves"), json={"move": move}, headers=seat),
        "move on a version": client.post(
            path(session, "/moves"),
            json={"move": move, "expected_version": version},
            headers={**seat, "If-Match": f'"{version}"', "Idempotency-Key": "k"},
        ),
        "legal moves": client.get(path(session, "/legal-moves"), headers=seat),
        "takeback": client.post(
            path(session, "/takebacks"), json={"to_version": version - 1}, headers=seat
        ),
        "takeback answer": client.post(
            path(session, "/takebacks/some-id"), json={"answer": "accept"}, headers=seat
        ),
        "clock": client.post(
            path(session, "/clock"),
            json={"action": "pause"},
            headers=bearer(session["admin_token"]),
        ),
    }
    for what, resp in answers.items():
        assert assert_refused(resp, version)["detail"] == expected, what
    assert stored(app, session["session_id"]) == before  # nothing written
    history = app.extensions["referee_sessions"].history(session["session_id"], 0, 1000)[1]
    assert len(history) == version


def _keyed_first(client, session) -> tuple[dict, dict]:
    """The seat to move's headers and a move it may make."""
    waiting = client.get(path(session)).get_json()["to_move"][0]
    seat = bearer(session["seats"][waiting])
    move = client.get(path(session, "/legal-moves"), headers=seat).get_json()["moves"][0]
    return seat, move


@pytest.mark.parametrize("game_id", GAMES)
def test_a_retry_of_a_move_made_before_the_rules_changed_gets_its_first_answer(
    app, client, game_id
):
    """A retried request with the same Idempotency-Key returns the first answer (the contract),
    an upgrade in between or not; a new key is refused as any other move."""
    session = create(client, game_id)
    play(client, session, 3)
    seat, move = _keyed_first(client, session)
    keyed = {**seat, "Idempotency-Key": "move-1"}
    first = client.post(path(session, "/moves"), json={"move": move}, headers=keyed)
    assert first.status_code == 200
    of_other_rules(app, session["session_id"])
    again = client.post(path(session, "/moves"), json={"move": move}, headers=keyed)
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    for field in ("version", "events"):  # the view is the session's now, as on every replay
        assert again.get_json()[field] == first.get_json()[field]
    fresh = {**seat, "Idempotency-Key": "move-2"}
    refused = client.post(path(session, "/moves"), json={"move": move}, headers=fresh)
    assert refused.status_code == 409
    assert refused.get_json()["code"] == "rules_version_changed"


def test_a_retry_of_a_takeback_proposed_before_the_rules_changed_gets_its_first_answer(app, client):
    """Reign Supreme's moves are public: a takeback of the last one is within the horizon."""
    session = create(client, "reign-supreme")
    version = play(client, session, 3)
    seat = bearer(session["seats"][client.get(path(session)).get_json()["to_move"][0]])
    proposal = {**seat, "Idempotency-Key": "takeback-1"}
    body = {"to_version": version - 1}
    asked = client.post(path(session, "/takebacks"), json=body, headers=proposal)
    assert asked.status_code == 201
    of_other_rules(app, session["session_id"])
    again = client.post(path(session, "/takebacks"), json=body, headers=proposal)
    assert again.status_code == 201
    assert again.get_json()["takeback_id"] == asked.get_json()["takeback_id"]
    fresh = {**seat, "Idempotency-Key": "takeback-2"}
    refused = client.post(path(session, "/takebacks"), json=body, headers=fresh)
    assert refused.status_code == 409
    assert refused.get_json()["code"] == "rules_version_changed"


def test_a_takeback_pending_when_the_rules_changed_never_lands(app, client):
    """The hunt's case: a Reign Supreme takeback proposed under the old rules, accepted after
    the upgrade, used to land a state replayed under the new rules (stamped with their version,
    mid-game)."""
    session = create(client, "reign-supreme")
    version = play(client, session, 7)
    entries = client.get(path(session, "/history")).get_json()["entries"]
    last = entries[-1]["player"]
    other = next(e for e in reversed(entries) if e["player"] != last)
    resp = client.post(
        path(session, "/takebacks"),
        json={"to_version": other["version"] - 1},
        headers=bearer(session["seats"][last]),
    )
    assert resp.status_code == 201 and resp.get_json()["status"] == "pending"
    takeback = resp.get_json()
    of_other_rules(app, session["session_id"])
    before = stored(app, session["session_id"])
    resp = client.post(
        path(session, f"/takebacks/{takeback['takeback_id']}"),
        json={"answer": "accept"},
        headers=bearer(session["seats"][other["player"]]),
    )
    assert_refused(resp, version)
    assert stored(app, session["session_id"]) == before
    read = client.get(path(session)).get_json()
    assert read["version"] == version and read["takeback"]["takeback_id"] == takeback["takeback_id"]


# -- reads keep working -------------------------------------------------------------------------
@pytest.mark.parametrize("game_id", GAMES)
def test_a_session_of_other_rules_is_read_as_stored_and_deleted(app, client, game_id):
    session = create(client, game_id)
    version = play(client, session, 3)
    began = of_other_rules(app, session["session_id"])
    ann = bearer(session["seats"]["ann"])

    read = client.get(path(session), headers=ann)
    assert read.status_code == 200
    assert read.get_json()["version"] == version
    assert read.get_json()["view"]["schema_version"] == began  # as stored
    history = client.get(path(session, "/history"))
    assert history.status_code == 200 and len(history.get_json()["entries"]) == version
    record = client.get(path(session, "/record"), headers=ann)
    assert record.status_code == 200 and record.get_json()["schema_version"] == began
    picture = client.get(path(session, "/board.svg"), headers=ann)
    assert picture.status_code == 200 and picture.mimetype == "image/svg+xml"
    stream = client.get(path(session, "/events?after=0"), headers=ann)
    assert stream.status_code == 200
    streamed = []
    for chunk in stream.response:
        if chunk.startswith(b"id: "):
            streamed.append(int(chunk.split(b"\n", 1)[0][4:]))
            if streamed[-1] == version:
                break
    stream.close()
    assert streamed == list(range(1, version + 1))

    assert client.delete(path(session), headers=ann).status_code == 403  # the admin's only
    assert client.delete(path(session), headers=bearer(session["admin_token"])).status_code == 204
    assert client.get(path(session)).status_code == 404


# -- the record's rules version --------------------------------------------------------------------
@pytest.mark.parametrize("game_id", GAMES)
def test_a_record_names_the_rules_its_game_began_under(app, client, game_id):
    """The record's ``schema_version`` is version 0's, never the current state's: a session of
    other rules is recorded under its own (and ``verify`` says it cannot check it here, exit 2),
    and a session whose current state carried another number would still be recorded under the
    one it began with (kept in ``origin`` at creation)."""
    current = get_game(game_id).schema_version
    old = create(client, game_id)
    play(client, old, 2)
    of_other_rules(app, old["session_id"])
    record = client.get(path(old, "/record")).get_json()
    assert record["schema_version"] == current - 1
    with pytest.raises(VerifyError, match=f"version {current - 1} of .* version {current}"):
        verify_document(record)

    new = create(client, game_id)
    play(client, new, 2)
    redis = app.extensions["referee_store"].client()
    state = jsonio.loads(redis.hget(session_key(new["session_id"]), "state"))
    redis.hset(session_key(new["session_id"]), "state", jsonio.dumps(dict(state, schema_version=1)))
    assert client.get(path(new, "/record")).get_json()["schema_version"] == current


# -- fork: the current version only ---------------------------------------------------------------
@pytest.mark.parametrize("game_id", GAMES)
def test_the_current_version_forks_into_a_session_of_these_rules(app, client, game_id):
    game = get_game(game_id)
    session = create(client, game_id, clock=PER_MOVE)
    version = play(client, session, 4)
    of_other_rules(app, session["session_id"])
    resp = client.post(
        path(session, "/fork"), json={"version": version}, headers=bearer(session["seats"]["ann"])
    )
    assert resp.status_code == 201, resp.get_json()
    fork = resp.get_json()
    assert fork["forked_from"] == {"session_id": session["session_id"], "version": version}
    assert fork["view"]["schema_version"] == game.schema_version
    started = stored(app, fork["session_id"])
    assert jsonio.loads(started["state"])["schema_version"] == game.schema_version
    assert play(client, fork, 3) == 3  # an ordinary session of these rules

    finish(client, fork)  # its whole record replays from its start under these rules
    record = client.get(path(fork, "/record")).get_json()
    assert client.get(path(fork)).get_json()["status"] == "finished"
    assert record["schema_version"] == game.schema_version
    assert record["start"]["schema_version"] == game.schema_version
    verdict = verify_document(record)
    assert verdict.ok, verdict.report()
    assert client.get(path(session)).get_json()["version"] == version  # the parent: untouched


@pytest.mark.parametrize("game_id", GAMES)
def test_a_finished_game_of_other_rules_forks_from_its_state_as_stored(app, client, game_id):
    """The fork's start is the stored state, stamped with this referee's version, never a
    replay of the history under these rules: here the stored generator is one no replay
    gives (any 16 hex digits pass the checks), and the fork of the finished game (the true
    state, for the admin) starts from it."""
    session = create(client, game_id)
    finish(client, session)
    sid, version = session["session_id"], client.get(path(session)).get_json()["version"]
    of_other_rules(app, sid, change=lambda state: state.update(rng="0123456789abcdef"))
    as_stored = jsonio.loads(stored(app, sid)["state"])
    resp = client.post(
        path(session, "/fork"), json={"version": version}, headers=bearer(session["admin_token"])
    )
    assert resp.status_code == 201, resp.get_json()
    start = jsonio.loads(stored(app, resp.get_json()["session_id"])["state"])
    assert start == dict(as_stored, schema_version=get_game(game_id).schema_version)


@pytest.mark.parametrize("game_id", GAMES)
def test_an_earlier_version_of_a_session_of_other_rules_does_not_fork(app, client, game_id):
    session = create(client, game_id)
    version = play(client, session, 4)
    of_other_rules(app, session["session_id"])
    for earlier in (0, version - 1):
        resp = client.post(
            path(session, "/fork"),
            json={"version": earlier},
            headers=bearer(session["seats"]["ann"]),
        )
        detail = assert_refused(resp, version)["detail"]
        assert f"Only its current version ({version}) can be forked here" in detail


def test_a_position_that_does_not_fit_these_rules_does_not_fork(app, client):
    """The fork's start must pass the game's state shape and ``Game.check_state`` as this
    referee's version: a stored state whose ``to_move`` is not whom its game waits on fails."""
    session = create(client, "reign-supreme")
    version = play(client, session, 2)
    of_other_rules(app, session["session_id"], change=lambda state: state.update(to_move=[]))
    resp = client.post(
        path(session, "/fork"), json={"version": version}, headers=bearer(session["seats"]["ann"])
    )
    detail = assert_refused(resp, version)["detail"]
    assert f"does not fit version {get_game('reign-supreme').schema_version}'s" in detail
    assert "to_move" in detail


# -- the clock keeper and the bot seats pass it by --------------------------------------------
def _passed_by(caplog, session_id: str) -> int:
    return sum(session_id in r.getMessage() for r in caplog.records if "passed by" in r.msg)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_clock_keeper_passes_a_session_of_other_rules_by(
    app, client, caplog, monkeypatch, game_id
):
    session = create(client, game_id, clock=PER_MOVE)
    sid = session["session_id"]
    version = play(client, session, 1)
    began = of_other_rules(app, sid)
    before = stored(app, sid)
    store = app.extensions["referee_sessions"]
    later = now_ms() + DAY_MS  # every seat's time is long out
    keeper = ClockKeeper(store, 50, now=lambda: later)
    redis = app.extensions["referee_store"].client()
    caplog.set_level(logging.WARNING, logger="api.rules_version")
    for _ in range(2):
        lease = str(later + 5_000)  # as the keeper's claim leaves the deadline (api.clock_store)
        redis.zadd(DEADLINES, {sid: lease})
        fired = keeper.look(sid, lease)
        assert fired.timeouts == [] and fired.graces == []
        # handed back with its deadline put off, not dropped: a referee of its own rules on
        # this store still times it out; here it is not looked at again for minutes
        assert store.deadlines.score(sid) == later + OTHER_RULES_MS
    assert stored(app, sid) == before and store.load(sid).version == version
    assert _passed_by(caplog, sid) == 1
    # a referee of the rules it began under, on the same store, times it out once it is due
    monkeypatch.setattr(type(get_game(game_id)), "schema_version", began)
    due = later + OTHER_RULES_MS
    lease = str(due + 5_000)
    redis.zadd(DEADLINES, {sid: lease})
    assert ClockKeeper(store, 50, now=lambda: due).look(sid, lease).timeouts
    assert store.load(sid).version == version + 1


@pytest.mark.parametrize("game_id", ["reign-supreme", "reign-and-ruin"])
def test_the_bot_seats_pass_a_session_of_other_rules_by(app, client, caplog, monkeypatch, game_id):
    """A game of bots only, due at version 0: the app's own bot seats are stopped before it is
    created, so nothing moves before it is made a session of other rules."""
    app.extensions["referee_bot_seats"].stop()
    session = create(client, game_id, bots={"ann": "random", "bob": "random"})
    sid = session["session_id"]
    store = app.extensions["referee_sessions"]
    of_other_rules(app, sid)
    seats = BotSeats(store, 50, retry_seconds=(0.0,))
    monkeypatch.setitem(app.extensions, "referee_bot_seats", seats)
    caplog.set_level(logging.WARNING, logger="api.rules_version")
    try:
        for tail in ("", "/history", ""):  # every read nudges the bot seats
            assert client.get(path(session, tail)).status_code == 200
            assert seats.wait_idle(60.0)
        assert seats.play(sid, 16) is False  # a run of it, had one been queued
        assert store.load(sid).version == 0 and store.history(sid, 0, 10)[1] == []
        assert _passed_by(caplog, sid) == 1
    finally:
        seats.stop()


# -- a state the game never had is never landed ----------------------------------------------
def _tamper(app, session_id: str, version: int) -> None:
    """Change the ``state_digest`` the history recorded for ``version``."""
    redis = app.extensions["referee_store"].client()
    key = f"{KEY_PREFIX}{{{session_id}}}:history"
    entry = jsonio.loads(redis.lindex(key, version - 1))
    redis.lset(key, version - 1, jsonio.dumps(dict(entry, state_digest="0" * 64)))


def test_a_takeback_or_fork_to_a_version_that_replays_to_another_state_is_refused(app, client):
    session = create(client, "reign-supreme")
    version = play(client, session, 7)
    entries = client.get(path(session, "/history")).get_json()["entries"]
    last = entries[-1]["player"]
    other = next(e for e in reversed(entries) if e["player"] != last)
    own, theirs = other["version"], other["version"] - 1  # lands at once; waits on the other
    pending = client.post(
        path(session, "/takebacks"),
        json={"to_version": theirs},
        headers=bearer(session["seats"][last]),
    ).get_json()
    assert pending["status"] == "pending"
    for tampered in (own, theirs):
        _tamper(app, session["session_id"], tampered)
    before = {k: stored(app, session["session_id"])[k] for k in ("version", "state")}

    answers = {
        "takeback landing at once": client.post(
            path(session, "/takebacks"),
            json={"to_version": own},
            headers=bearer(session["seats"][last]),
        ),
        "takeback accepted": client.post(
            path(session, f"/takebacks/{pending['takeback_id']}"),
            json={"answer": "accept"},
            headers=bearer(session["seats"][other["player"]]),
        ),
        "fork": client.post(
            path(session, "/fork"), json={"version": own}, headers=bearer(session["seats"]["ann"])
        ),
    }
    for what, resp in answers.items():
        assert resp.status_code == 409, (what, resp.get_json())
        problem = resp.get_json()
        assert problem["code"] == "history_not_replayable", what
        assert "replays to another state than the one its history recorded" in problem["detail"]
    after = stored(app, session["session_id"])  # the accept is kept, as an answer is
    assert {k: after[k] for k in before} == before
    assert client.get(path(session)).get_json()["version"] == version
    # a version whose digest holds still forks
    resp = client.post(
        path(session, "/fork"), json={"version": 0}, headers=bearer(session["seats"]["ann"])
    )
    assert resp.status_code == 201, resp.get_json()
