"""Provably fair sessions (issue 24, item 1; contract "Fairness"): a secret seed drawn by the
service, committed to from version 0, revealed with the whole history at the end, and
``reign-referee verify`` replaying a finished session (``api.fairness``, ``api.verify``)."""

from __future__ import annotations

import copy
import hashlib
import json
import random
import re
from typing import Any

import pytest
from sessions_served import bearer, http

from api.cli import main
from api.fairness import check_commitment, commitment
from api.session_store import KEY_PREFIX
from api.verify import verify_document
from rules.registry import get_game

GAME = "reign-and-ruin"
PLAYERS = ["ann", "bob"]


def _create(client, **more: Any) -> dict[str, Any]:
    resp = client.post("/v1/sessions", json={"game": GAME, "players": PLAYERS, **more})
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()


def _stored_seed(app, session_id: str) -> int:
    raw = (
        app.extensions["referee_store"]
        .client()
        .hget(f"{KEY_PREFIX}{{{session_id}}}:session", "state")
    )
    return json.loads(raw)["seed"]


def _answers(client, created: dict[str, Any], seat: str | None) -> list[dict[str, Any]]:
    """Every kind of session answer ``seat`` (None: a spectator) can read now."""
    base = f"/v1/sessions/{created['session_id']}"
    headers = bearer(created["seats"][seat]) if seat else {}
    found = [client.get(base, headers=headers).get_json()]
    found.append(client.get(base + "/history", headers=headers).get_json())
    if seat:
        found.append(client.get(base + "/legal-moves", headers=headers).get_json())
    return found


def _play_to_the_end(client, created: dict[str, Any], seed: int = 1) -> list[dict[str, Any]]:
    """Random legal moves of the players in ``to_move`` until the game is finished; the move
    answers."""
    chooser, base = random.Random(seed), f"/v1/sessions/{created['session_id']}"
    answers: list[dict[str, Any]] = []
    to_move = created["to_move"]
    while to_move:
        headers = bearer(created["seats"][to_move[0]])
        moves = client.get(base + "/legal-moves", headers=headers).get_json()["moves"]
        resp = client.post(base + "/moves", json={"move": chooser.choice(moves)}, headers=headers)
        assert resp.status_code == 200, resp.get_json()
        answers.append(resp.get_json())
        to_move = answers[-1]["to_move"]
    return answers


def _document(client, created: dict[str, Any]) -> dict[str, Any]:
    """The session's game record, as ``reign-referee verify URL`` reads it (``docs/records.md``)."""
    return client.get(f"/v1/sessions/{created['session_id']}/record").get_json()


# -- the commitment, and nothing before the end --------------------------------------------------
def test_a_session_commits_to_a_secret_seed_from_version_0(app, client):
    created = _create(client)
    fairness = created["fairness"]
    assert fairness["open"] is False and fairness["seed"] is None and fairness["salt"] is None
    assert re.fullmatch(r"[0-9a-f]{64}", fairness["seed_commitment"])
    assert created["to_move"] == get_game(GAME).waiting_on(get_game(GAME).setup(PLAYERS, 1, {}))
    seed = _stored_seed(app, created["session_id"])
    answers = [created]
    for _ in range(3):  # a few moves in: still committed, still secret
        answers += _answers(client, created, None) + _answers(client, created, "ann")
        answers += _answers(client, created, "bob")
        answers += _play_one(client, created)
    for answer in answers:
        assert answer["fairness"] == fairness, answer
        assert "to_move" in answer
        assert str(seed) not in json.dumps(answer)  # the seed is in no answer before the end


def _play_one(client, created: dict[str, Any]) -> list[dict[str, Any]]:
    base = f"/v1/sessions/{created['session_id']}"
    seat = client.get(base).get_json()["to_move"][0]
    headers = bearer(created["seats"][seat])
    move = client.get(base + "/legal-moves", headers=headers).get_json()["moves"][0]
    resp = client.post(base + "/moves", json={"move": move}, headers=headers)
    assert resp.status_code == 200, resp.get_json()
    return [resp.get_json()]


def test_the_stateless_setup_no_longer_deals_a_sessions_hidden_cards(app, client):
    """The issue's attack: bob created the session with a seed and dealt the same game through
    the stateless /setup. A session's seed is the service's now, so bob's packet from a setup
    with any seed he can name is not the session's (the draw is 63 bits: a guess is hopeless)."""
    created = _create(client)
    assert _create_status(client, seed=7) == 400
    session_state = get_game(GAME).setup(PLAYERS, _stored_seed(app, created["session_id"]), {})
    guessed = client.post(
        f"/v1/games/{GAME}/setup", json={"players": PLAYERS, "seed": 7}
    ).get_json()["state"]
    assert guessed["draft"] != session_state["draft"]


def _create_status(client, **more: Any) -> int:
    return client.post("/v1/sessions", json={"game": GAME, "players": PLAYERS, **more}).status_code


def test_a_seed_needs_an_open_session(client):
    for body in ({"seed": 7}, {"seed": 7, "open": False}, {"seed": 7, "open": None}):
        resp = client.post("/v1/sessions", json={"game": GAME, "players": PLAYERS, **body})
        assert resp.status_code == 400, body
        assert resp.get_json()["code"] == "invalid_body" and list(resp.get_json()["errors"]) == [
            "seed"
        ]
    assert _create_status(client, seed=None) == 201  # null: the service draws one
    assert _create_status(client, open=False) == 201


def test_an_open_session_shows_its_seed_and_says_so_everywhere(client):
    created = _create(client, open=True, seed=7)
    fairness = created["fairness"]
    assert fairness["open"] is True and fairness["seed"] == 7
    assert (
        hashlib.sha256(f"{fairness['salt']}:7".encode()).hexdigest() == fairness["seed_commitment"]
    )
    for answer in _answers(client, created, None) + _answers(client, created, "ann"):
        assert answer["fairness"] == fairness
    assert _play_one(client, created)[0]["fairness"] == fairness
    drawn = _create(client, open=True)["fairness"]  # open without a seed: the service draws one
    assert drawn["open"] is True and isinstance(drawn["seed"], int)


# -- the end: revealed, whole, verifiable --------------------------------------------------------
@pytest.fixture
def finished(app, client) -> dict[str, Any]:
    created = _create(client)
    answers = _play_to_the_end(client, created)
    created["last_answer"] = answers[-1]
    created["seed"] = _stored_seed(app, created["session_id"])
    return created


def test_the_end_reveals_seed_salt_and_the_whole_history(app, client, finished):
    fairness = finished["last_answer"]["fairness"]  # the finishing move's own answer reveals
    assert fairness["seed"] == finished["seed"] and fairness["open"] is False
    assert (
        hashlib.sha256(f"{fairness['salt']}:{fairness['seed']}".encode()).hexdigest()
        == (fairness["seed_commitment"])
    )
    assert fairness["seed_commitment"] == finished["fairness"]["seed_commitment"]
    assert finished["last_answer"]["to_move"] == []
    store = app.extensions["referee_store"].client()
    raw = [  # the stored entries; their state digests are in the record, not the history
        {"clock": None, **{k: v for k, v in json.loads(e).items() if k != "state_digest"}}
        for e in store.lrange(f"{KEY_PREFIX}{{{finished['session_id']}}}:history", 0, -1)
    ]
    for seat in (None, "ann", "bob"):
        session, history = _answers(client, finished, seat)[:2]
        assert session["fairness"] == fairness and session["options"] == {}
        assert history["entries"] == raw  # every move and event whole, for everyone


def test_verify_accepts_a_finished_session(client, finished):
    verdict = verify_document(_document(client, finished))
    assert verdict.ok, verdict.report()
    assert verdict.versions == finished["last_answer"]["version"]
    assert finished["last_answer"]["fairness"]["seed_commitment"] in verdict.report()


def _tampered(document: dict[str, Any], change) -> dict[str, Any]:
    changed = copy.deepcopy(document)
    change(changed)
    return changed


def test_verify_names_the_first_tampered_version(client, finished):
    document = _document(client, finished)
    other = "bob" if document["entries"][3]["player"] == "ann" else "ann"
    cases = {
        0: lambda d: d["fairness"].update(seed=d["fairness"]["seed"] ^ 1),
        3: lambda d: d["entries"][2]["events"].pop(),
        4: lambda d: d["entries"][3].update(
            at="x", move={**d["entries"][3]["move"], "player": other}
        ),
        5: lambda d: d["entries"].pop(4),
    }
    for version, change in cases.items():
        verdict = verify_document(_tampered(document, change))
        assert not verdict.ok and verdict.first_bad_version == version, (version, verdict.report())
    last = len(document["entries"])
    verdict = verify_document(
        _tampered(document, lambda d: d["entries"][-1].update(state_digest="0" * 64))
    )
    assert not verdict.ok and verdict.first_bad_version == last


def test_a_commitment_holds_only_for_a_whole_number_seed():
    """``true`` hashes as ``True``, not ``1``, and a seed is a JSON integer (``rules.integrity.
    is_seed``): a revealed seed of ``true`` is refused by name, whatever its hash."""
    salt = "0" * 32
    kept = {"salt": salt, "seed": 1, "seed_commitment": commitment(salt, 1)}
    assert check_commitment(kept) is None
    for seed in (True, 1.0, -1, 2**63):
        promised = commitment(salt, seed)
        problem = check_commitment({**kept, "seed": seed, "seed_commitment": promised})
        assert problem is not None and "is not an integer" in problem, seed


def test_verify_refuses_an_unfinished_session(client):
    created = _create(client)
    assert main(["verify", "/nonexistent/session.json"]) == 2
    with pytest.raises(Exception, match="not finished"):
        verify_document(_document(client, created))


def test_the_verify_command_over_http(served, tmp_path, capsys):
    """``reign-referee verify URL --save FILE`` against a served instance, then the saved file,
    then the file tampered with."""
    status, _, created = http(
        served.base, "POST", "/v1/sessions", {"game": GAME, "players": PLAYERS}
    )
    assert status == 201, created
    path, chooser = f"/v1/sessions/{created['session_id']}", random.Random(3)
    to_move = created["to_move"]
    while to_move:
        headers = bearer(created["seats"][to_move[0]])
        moves = http(served.base, "GET", path + "/legal-moves", headers=headers)[2]["moves"]
        status, _, answer = http(
            served.base, "POST", path + "/moves", {"move": chooser.choice(moves)}, headers=headers
        )
        assert status == 200, answer
        to_move = answer["to_move"]
    saved = tmp_path / "record.json"
    assert main(["verify", served.base + path, "--save", str(saved)]) == 0
    assert capsys.readouterr().out.startswith("verified: reign-and-ruin: seed_commitment ")
    assert main(["verify", str(saved)]) == 0
    assert main(["verify", served.base + path + "/record"]) == 0  # the record's own URL too
    document = json.loads(saved.read_text("utf-8"))
    document["entries"][1]["events"][0]["player"] = "nobody"
    saved.write_text(json.dumps(document), "utf-8")
    capsys.readouterr()
    assert main(["verify", str(saved)]) == 1
    assert capsys.readouterr().out.startswith("NOT VERIFIED at version 2: ")
