"""The cost of a replay the service runs for a client is bounded: ``api.records.
MAX_REPLAY_STATE_BYTES``.

Each entry replayed costs an apply and a digest of the whole state it makes (30 to 55 ns a byte
of the start state, ``bench/replay_cost.py``): a 1 MiB record of cheap moves on the largest
Reign Supreme board held a worker for 9 s, and a fork or takeback of a session of as many moves
3 s. A replay (``/replay``, a session's fork or takeback) may step through at most its entries
times its start state's bytes; beyond, it is refused before any entry is replayed. Counted
(applies, digests, replays), never timed.
"""

from __future__ import annotations

import importlib
import json
import random
import threading
from pathlib import Path
from typing import Any

import pytest

import api.records
from api.records import MAX_REPLAY_STATE_BYTES, most_entries
from api.session_store import SessionStore
from api.verify import verify_document
from rules.records import start_state
from rules.records.digest import canonical
from rules.registry import get_game
from tests.records.games import PLAYERS
from tests.records.test_records_api import (
    PROBLEM,
    answer,
    bearer,
    create,
    move_once,
    path,
    propose,
    record,
)

replay_module = importlib.import_module("rules.records.replay")
CORPUS = Path(__file__).parent / "corpus"


@pytest.fixture
def supreme() -> tuple[Any, dict[str, Any], int]:
    """A finished two-seat Reign Supreme game's record (198 entries) and its start's bytes."""
    record = json.loads((CORPUS / "reign-supreme-17.json").read_text())
    game = get_game(record["game"])
    return game, record, len(canonical(start_state(game, record)))


@pytest.fixture
def work(monkeypatch) -> dict[str, int]:
    """Counts the replay's work: ``apply`` calls of every game and state digests, made on this
    thread (the test client's requests run on it). Another test's app in this process may still
    have a bot seat or a clock at work on its own threads, whose moves are not this replay's (CI
    once counted 199 applies for a record of 198 entries)."""
    counts = {"apply": 0, "digest": 0}
    mine = threading.get_ident()
    for game_id in PLAYERS:
        game = get_game(game_id)
        apply = game.apply

        def counted(state: Any, move: Any, _apply: Any = apply) -> Any:
            counts["apply"] += threading.get_ident() == mine
            return _apply(state, move)

        monkeypatch.setattr(game, "apply", counted)
    digest = replay_module.state_digest

    def digested(state: Any) -> str:
        counts["digest"] += threading.get_ident() == mine
        return digest(state)

    monkeypatch.setattr(replay_module, "state_digest", digested)
    return counts


def test_real_games_fit_the_bound():
    """Every seeded game replays within the bound, and a game of any default content has room
    for at least 1,250 entries at the fewest seats, 750 at four (the longest random games hold
    200; the records bench plays a 564-move Reign Supreme game)."""
    for path_ in sorted(CORPUS.glob("*.json")):
        record = json.loads(path_.read_text())
        start = start_state(get_game(record["game"]), record)
        assert len(record["entries"]) <= most_entries(len(canonical(start))), path_.name
    for game_id, players in PLAYERS.items():
        state = get_game(game_id).setup(players, 1, {})
        assert most_entries(len(canonical(state))) >= 1250, game_id
        state = get_game(game_id).setup(["ann", "bob", "cat", "dan"], 1, {})
        assert most_entries(len(canonical(state))) >= 750, game_id


# -- POST /v1/games/{game}/replay ------------------------------------------------------------
def _stuffed(record: dict[str, Any], start_bytes: int) -> dict[str, Any]:
    """``record`` with entries enough to go one past the bound: copies of its last entry,
    numbered on (they need not apply: nothing is replayed)."""
    entries = list(record["entries"])
    last = entries[-1]
    while len(entries) <= most_entries(start_bytes):
        entries.append(dict(last, version=len(entries) + 1))
    return dict(record, entries=entries)


def test_replay_of_a_record_over_the_bound_is_a_422_naming_its_entries(client, supreme, work):
    game, record, start_bytes = supreme
    stuffed = _stuffed(record, start_bytes)
    most = MAX_REPLAY_STATE_BYTES // start_bytes
    assert len(stuffed["entries"]) == most + 1
    resp = client.post(f"/v1/games/{game.id}/replay", json={"record": stuffed})
    assert resp.status_code == 422 and resp.mimetype == PROBLEM
    problem = resp.get_json()
    assert problem["code"] == "record_too_long" and problem["limit"] == most
    assert list(problem["errors"]) == ["record.entries"]
    assert f"at most {most}" in problem["detail"] and "MAX_REPLAY_STATE_BYTES" in problem["detail"]
    assert work == {"apply": 0, "digest": 0}  # nothing replayed


def test_replay_at_the_bound_replays_whole_and_one_past_it_nothing(
    client, supreme, work, monkeypatch
):
    game, record, start_bytes = supreme
    entries = len(record["entries"])
    monkeypatch.setattr(api.records, "MAX_REPLAY_STATE_BYTES", entries * start_bytes)
    resp = client.post(f"/v1/games/{game.id}/replay", json={"record": record})
    assert resp.status_code == 200 and resp.get_json() == {"valid": True}
    assert work["apply"] == entries
    work.update(apply=0, digest=0)
    monkeypatch.setattr(api.records, "MAX_REPLAY_STATE_BYTES", entries * start_bytes - 1)
    resp = client.post(f"/v1/games/{game.id}/replay", json={"record": record})
    assert resp.status_code == 422 and resp.get_json()["limit"] == entries - 1
    assert work == {"apply": 0, "digest": 0}


def test_a_record_whose_start_differs_is_still_answered_by_the_replay(client, supreme):
    game, record, start_bytes = supreme
    stuffed = _stuffed(record, start_bytes)
    stuffed["fairness"] = dict(stuffed["fairness"], seed=None, salt=None)  # no start to size
    resp = client.post(f"/v1/games/{game.id}/replay", json={"record": stuffed})
    assert resp.status_code == 200
    assert resp.get_json()["valid"] is False and resp.get_json()["first_difference"] == 0


@pytest.mark.parametrize(
    "spoil",
    [
        lambda start: start.update(hands=5),  # malformed: not the state's shape
        lambda start: start["hands"]["ann"].append("kurgoz-1"),  # fails its integrity checks
    ],
)
def test_a_fork_record_whose_start_is_broken_is_answered_at_version_0(client, spoil):
    """A fork's record may carry its start state (once the game is over), which the bound sizes
    before the replay: within the bound, a start that is not a sound state is the replay's
    answer (``valid: false`` at 0), never a 500 or a 422."""
    session = create(client, "reign-and-ruin", ["ann", "bob"])
    resp = client.post(
        path(session, "/fork"), json={"version": 0}, headers=bearer(session["seats"]["ann"])
    )
    assert resp.status_code == 201, resp.get_json()
    forked = record(client, resp.get_json())
    start = get_game("reign-and-ruin").setup(["ann", "bob"], 1, {})
    spoil(start)
    resp = client.post(
        "/v1/games/reign-and-ruin/replay", json={"record": dict(forked, start=start)}
    )
    assert resp.status_code == 200, resp.get_json()
    answer = resp.get_json()
    assert answer["valid"] is False and answer["first_difference"] == 0
    assert "The start state" in answer["detail"], answer


@pytest.fixture
def checked_starts(supreme, monkeypatch) -> list[int]:
    """Counts the integrity checks of Reign Supreme states (``Game.check_state``): one for each
    time a fork record's start is checked."""
    game, _, _ = supreme
    calls: list[int] = []
    check_state = game.check_state

    def counted(state: Any) -> Any:
        calls.append(1)
        return check_state(state)

    monkeypatch.setattr(game, "check_state", counted)
    return calls


def _as_fork(game: Any, record: dict[str, Any], **start: Any) -> dict[str, Any]:
    """``record`` as a finished fork's: its start (with ``start`` changed) is in it."""
    fork = {"session_id": "s" * 22, "version": 0}
    return dict(record, forked_from=fork, start=dict(start_state(game, record), **start))


def test_replay_checks_a_fork_records_start_once(client, supreme, checked_starts):
    """The bound sizes a fork's start as it is: only the replay checks it (its shapes and
    ``Game.check_state``, up to a second for the largest custom content), once."""
    game, record, _ = supreme
    resp = client.post(f"/v1/games/{game.id}/replay", json={"record": _as_fork(game, record)})
    assert resp.status_code == 200 and resp.get_json() == {"valid": True}
    assert len(checked_starts) == 1


def test_a_fork_record_over_the_bound_is_refused_unchecked(client, supreme, checked_starts):
    """Over the bound, a fork's start is never checked: the record is refused for its entries
    times its start's bytes, whether or not its start is sound."""
    game, record, start_bytes = supreme
    broken = _as_fork(game, _stuffed(record, start_bytes), round="one")
    resp = client.post(f"/v1/games/{game.id}/replay", json={"record": broken})
    assert resp.status_code == 422 and resp.get_json()["code"] == "record_too_long"
    assert checked_starts == []


def test_verify_on_ones_own_machine_has_no_bound(supreme, monkeypatch):
    _, record, _ = supreme
    monkeypatch.setattr(api.records, "MAX_REPLAY_STATE_BYTES", 1)
    assert verify_document(record).ok


# -- a session's forks and takebacks ---------------------------------------------------------
@pytest.fixture
def placed(client, monkeypatch) -> tuple[dict[str, Any], dict[str, int]]:
    """An open two-seat Reign Supreme session after seven set-up placements, whose replays are
    bounded to five versions, and a count of the replays the session's requests start."""
    body = {"game": "reign-supreme", "players": ["ann", "bob"], "open": True, "seed": 7}
    resp = client.post("/v1/sessions", json=body)
    assert resp.status_code == 201, resp.get_json()
    session = resp.get_json()
    chooser = random.Random(2)
    for _ in range(7):
        move_once(client, session, chooser)
    start = get_game("reign-supreme").setup(["ann", "bob"], 7, {})
    kib = -(-len(canonical(start)) // 1024) * 1024  # the bound counts whole KiB of it
    monkeypatch.setattr(api.records, "MAX_REPLAY_STATE_BYTES", 5 * kib + 1)
    replays = {"count": 0}
    replay_states = api.records.replay_states

    def counted(*args: Any, **kwargs: Any) -> Any:
        replays["count"] += 1
        return replay_states(*args, **kwargs)

    monkeypatch.setattr(api.records, "replay_states", counted)
    return session, replays


def test_a_takeback_of_a_history_over_the_bound_is_a_409(client, placed):
    session, replays = placed
    resp = propose(client, session, "ann", 6)
    assert resp.status_code == 409 and resp.mimetype == PROBLEM
    problem = resp.get_json()
    assert problem["code"] == "history_too_long"
    assert problem["limit"] == 5 and problem["current_version"] == 7
    assert replays["count"] == 0
    assert client.get(path(session)).get_json()["version"] == 7  # nothing changed


def test_a_takeback_answered_once_the_bound_is_lower_is_a_409_and_lands_nothing(
    client, placed, monkeypatch
):
    """The bound is checked where the takeback lands, not only where it is proposed: proposed
    under it (a bound raised), then accepted after a restart with a lower one, it replays
    nothing and changes nothing."""
    session, replays = placed
    lowered = api.records.MAX_REPLAY_STATE_BYTES
    monkeypatch.setattr(api.records, "MAX_REPLAY_STATE_BYTES", MAX_REPLAY_STATE_BYTES)
    proposed = propose(client, session, "ann", 0)
    assert proposed.status_code == 201, proposed.get_json()
    takeback = proposed.get_json()
    assert takeback["status"] == "pending" and takeback["waiting_on"] == ["bob"]
    before = replays["count"]
    monkeypatch.setattr(api.records, "MAX_REPLAY_STATE_BYTES", lowered)
    resp = answer(client, session, "bob", takeback["takeback_id"], "accept")
    assert resp.status_code == 409 and resp.mimetype == PROBLEM
    problem = resp.get_json()
    assert problem["code"] == "history_too_long" and problem["limit"] == 5
    assert replays["count"] == before
    assert client.get(path(session)).get_json()["version"] == 7  # nothing changed


def test_a_fork_past_the_bound_is_a_409_naming_version(client, placed):
    session, replays = placed
    token = bearer(session["seats"]["ann"])
    resp = client.post(path(session, "/fork"), json={"version": 6}, headers=token)
    assert resp.status_code == 409 and resp.mimetype == PROBLEM
    problem = resp.get_json()
    assert problem["code"] == "history_too_long" and problem["limit"] == 5
    assert list(problem["errors"]) == ["version"]
    assert replays["count"] == 0
    resp = client.post(path(session, "/fork"), json={"version": 5}, headers=token)
    assert resp.status_code == 201, resp.get_json()
    assert replays["count"] == 1


def test_an_export_that_must_replay_past_the_bound_says_it_cannot_be_exported(
    client, placed, monkeypatch
):
    """A session created before records were kept with sessions is exported by replaying its
    history; past the bound that export is the same 409, saying the record cannot be exported,
    where a session that keeps its record is pointed to it."""
    session, replays = placed
    kept = propose(client, session, "ann", 6).get_json()
    assert "is whole for `reign-referee verify`" in kept["detail"]
    history = api.records._history
    monkeypatch.setattr(SessionStore, "record_entries", lambda self, *args: None)
    monkeypatch.setattr(
        api.records,
        "_history",
        lambda s: [{k: v for k, v in e.items() if k != "state_digest"} for e in history(s)],
    )
    resp = client.get(f"{path(session)}/record")
    assert resp.status_code == 409 and resp.mimetype == PROBLEM
    problem = resp.get_json()
    assert problem["code"] == "history_too_long" and problem["limit"] == 5
    assert "cannot be exported" in problem["detail"] and "is whole" not in problem["detail"]
    assert replays["count"] == 0
