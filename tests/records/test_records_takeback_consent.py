"""A record's takeback entries replay only as a session makes them (docs/records.md, "Verify and
replay"; ``rules.records.replay._check_consent``): proposed by a player of the game, its move
``{"player": <proposer>, "type": "takeback"}``, accepted by the proposer first and then exactly
the other seats whose decisions it undoes, each once. A hunt found ``/replay`` and
``reign-referee verify`` answering ``valid: true`` for a takeback proposed by "zed", or accepted
by "zed", or by nobody it undid: "verified" vouched for consents nobody at the table gave. Each
impossible entry is refused at its version; a real session's record with takebacks still
replays."""

from __future__ import annotations

import copy
import importlib
from collections.abc import Callable
from typing import Any

import pytest

from api.verify import verify_document
from rules.records import horizon, replay, takeback_entry
from rules.registry import get_game
from tests.records.games import AT, PLAYERS, consent, play, record_from
from tests.records.test_records_api import (
    answer,
    bearer,
    path,
    propose,
    record,
    rs_session,
    turn_change,
)

horizon_module = importlib.import_module("rules.records.horizon")
SUPREME = "reign-supreme"


# -- records made here: a line of public moves, then takebacks with the consent they need ------
def _line() -> tuple[int, list[dict], list[dict], int]:
    """A Reign Supreme line of 20 moves whose last moves are no barrier: seed, states, entries
    and its horizon (below 19)."""
    game = get_game(SUPREME)
    for seed in range(1, 50):
        states, entries = play(SUPREME, seed, 20)
        earliest, _ = horizon(game, states, entries)
        if 0 < earliest < 19:
            return seed, states, entries, earliest
    raise AssertionError("no line with room for takebacks")  # pragma: no cover


@pytest.fixture(scope="module")
def taken_back() -> tuple[dict[str, Any], str, str, int]:
    """The line's record followed by four takebacks, each with the consent it needs: the last
    mover ``p`` takes its own move back (21: ``[p]``); the other seat ``q`` puts it back (22,
    passing only 21: ``[q, p]``); ``q`` goes back past 22 (23, passing only 22, which ``q``
    proposed and ``p`` accepted: ``[q, p]``); ``p`` goes back to the horizon (24: ``[p, q]``).
    The record, ``p``, ``q`` and the horizon."""
    seed, states, entries, earliest = _line()
    p = entries[-1]["player"]
    q = next(s for s in PLAYERS[SUPREME] if s != p)
    states, entries = list(states), list(entries)
    for proposer, to in ((p, 19), (q, 20), (q, 21), (p, earliest)):
        version = len(entries) + 1
        accepted = consent(SUPREME, proposer, entries[to:])
        entries.append(
            takeback_entry(version, proposer, to, f"t{version}", accepted, AT, states[to])
        )
        states.append(states[to])
    assert [e["takeback"]["accepted_by"] for e in entries[20:]] == [[p], [q, p], [q, p], [p, q]]
    whole = record_from(SUPREME, seed, states[0], entries)
    return whole, p, q, earliest


def test_takebacks_with_the_consent_they_need_replay(taken_back):
    whole, *_ = taken_back
    assert replay(get_game(SUPREME), whole) is None


Change = Callable[[dict[str, Any], str, str], None]
"""A change to one entry, given the entry and the seats ``p`` and ``q``."""


def _proposer(entry: dict[str, Any], p: str, q: str) -> None:
    entry["player"] = entry["move"]["player"] = "zed"


def _accepted(accepted_by: Callable[[str, str], list[str]]) -> Change:
    def change(entry: dict[str, Any], p: str, q: str) -> None:
        entry["takeback"]["accepted_by"] = accepted_by(p, q)

    return change


IMPOSSIBLE: list[tuple[str, int, Change, str]] = [
    ("a proposer who is no player", 21, _proposer, 'proposer "zed" is not a player'),
    (
        "an entry's player not its move's",
        21,
        lambda e, p, q: e["move"].update(player=q),
        "A takeback's move is",
    ),
    (
        "a proposer who is no player, its move a player's",
        21,
        lambda e, p, q: e.update(player="zed"),
        'proposer "zed" is not a player',
    ),
    ("a move with more in it", 21, lambda e, p, q: e["move"].update(to=3), "A takeback's move is"),
    (
        "a move of another type",
        21,
        lambda e, p, q: e["move"].update(type="pass"),
        "A takeback's move is",
    ),
    ("no one accepting", 21, _accepted(lambda p, q: []), "begins with its proposer"),
    ("the proposer not first", 22, _accepted(lambda p, q: [p, q]), "begins with its proposer"),
    ("a stranger accepting", 21, _accepted(lambda p, q: [p, "zed"]), '["zed"], not players'),
    ("a seat accepting twice", 24, _accepted(lambda p, q: [p, q, q]), "names a seat twice"),
    # 22 puts back p's move that p took back at 21: p proposed 21
    ("the proposer of a takeback passed missing", 22, _accepted(lambda p, q: [q]), "lacks them"),
    # 23 undoes 22, which p only accepted
    ("an acceptor of a takeback passed missing", 23, _accepted(lambda p, q: [q]), "lacks them"),
    ("the mover of a move undone missing", 24, _accepted(lambda p, q: [p]), "lacks them"),
    # 21 undoes p's own move only
    (
        "a seat with nothing undone accepting",
        21,
        _accepted(lambda p, q: [p, q]),
        "undoes no decision of",
    ),
]


@pytest.mark.parametrize(
    "version, change, said", [c[1:] for c in IMPOSSIBLE], ids=[c[0] for c in IMPOSSIBLE]
)
def test_a_takeback_no_session_could_make_is_refused_at_its_version(
    taken_back, version, change, said
):
    whole, p, q, _ = taken_back
    tampered = copy.deepcopy(whole)
    change(tampered["entries"][version - 1], p, q)
    difference = replay(get_game(SUPREME), tampered)
    assert difference is not None and difference.version == version, difference
    assert said in difference.detail and not difference.withheld


def test_a_missing_consent_names_the_seats_missing(taken_back):
    whole, p, q, earliest = taken_back
    tampered = copy.deepcopy(whole)
    tampered["entries"][23]["takeback"]["accepted_by"] = [p]
    assert replay(get_game(SUPREME), tampered).detail == (
        f'The takeback to version {earliest} undoes decisions of ["{q}"] (their moves, or '
        f'takebacks they proposed or accepted), and its accepted_by ["{p}"] lacks them: a '
        "takeback lands only with the consent of every seat whose decisions it undoes."
    )


def test_only_a_takeback_entry_carries_a_takeback(taken_back):
    whole, *_ = taken_back
    tampered = copy.deepcopy(whole)
    tampered["entries"][4]["takeback"] = dict(tampered["entries"][20]["takeback"])
    difference = replay(get_game(SUPREME), tampered)
    assert difference is not None and difference.version == 5
    assert difference.detail == 'Only a takeback entry ("by": "takeback") carries a "takeback".'


# -- the work: each entry read once for the consent checks -----------------------------------
def test_takebacks_to_version_0_read_each_entry_once(monkeypatch):
    """400 takebacks back to version 0, each passing every one before it: the seats they undo
    are looked up, not walked back over (80,000 entries read)."""
    seed, states, entries, _ = _line()
    game = get_game(SUPREME)
    first = next(
        v for v in range(1, 21) if horizon(game, states[: v + 1], entries[:v])[0] > 0
    )  # versions 1 .. first - 1 hold no barrier
    moves = entries[: first - 1]
    accepted = consent(SUPREME, moves[-1]["player"] if moves else "ann", moves)
    takebacks = [
        takeback_entry(v, accepted[0], 0, f"t{v}", accepted, AT, states[0])
        for v in range(len(moves) + 1, len(moves) + 401)
    ]
    whole = record_from(SUPREME, seed, states[0], moves + takebacks)
    calls: list[int] = []
    decided_by = horizon_module.decided_by

    def counted(entry: dict[str, Any]) -> list[str]:
        calls.append(1)
        return decided_by(entry)

    monkeypatch.setattr(horizon_module, "decided_by", counted)
    assert replay(game, whole) is None
    assert 0 < len(calls) <= len(whole["entries"])


# -- a real session's record ------------------------------------------------------------------
@pytest.fixture
def session_taken_back(client) -> tuple[dict, dict, str, str]:
    """A Reign Supreme session with the takebacks of :func:`taken_back` made through the API
    (each waiting on the seats it undoes, who accept), then conceded: its whole record, the
    session, and the seats ``p`` (the last mover at version 7) and ``q``."""
    session, _ = rs_session(client, 7)
    p, q, version = turn_change(record(client, session)["entries"])
    landed = propose(client, session, p, 6).get_json()  # 8: p's own move, at once
    assert landed["status"] == "accepted" and landed["version"] == 8
    for proposer, accepter, to in ((q, p, 7), (q, p, 8), (p, q, version - 1)):  # 9, 10, 11
        pending = propose(client, session, proposer, to).get_json()
        assert pending["status"] == "pending" and pending["waiting_on"] == [accepter], pending
        said = answer(client, session, accepter, pending["takeback_id"], "accept").get_json()
        assert said["status"] == "accepted", said
    (placing,) = client.get(path(session)).get_json()["to_move"]
    concede = {"move": {"player": placing, "type": "concede"}}
    token = bearer(session["seats"][placing])
    assert client.post(path(session, "/moves"), json=concede, headers=token).status_code == 200
    whole = record(client, session)
    assert [e["takeback"]["accepted_by"] for e in whole["entries"][7:11]] == [
        [p],
        [q, p],
        [q, p],
        [p, q],
    ]
    return whole, session, p, q


def _replayed(client, whole: dict) -> dict:
    resp = client.post(f"/v1/games/{SUPREME}/replay", json={"record": whole})
    assert resp.status_code == 200, resp.get_json()
    return resp.get_json()


def test_a_sessions_record_with_takebacks_replays_and_verifies(client, session_taken_back):
    whole, *_ = session_taken_back
    assert _replayed(client, whole) == {"valid": True}
    assert verify_document(copy.deepcopy(whole)).ok


@pytest.mark.parametrize(
    "version, change",
    [
        (8, _proposer),
        (8, _accepted(lambda p, q: [p, "zed"])),
        (8, _accepted(lambda p, q: [p, q])),  # q's consent to p's taking back p's own move
        (9, _accepted(lambda p, q: [q])),  # putting back p's move without p
        (10, _accepted(lambda p, q: [p, q])),
        (11, _accepted(lambda p, q: [p])),
    ],
    ids=["zed proposes", "zed accepts", "q not undone", "p missing", "reversed", "q missing"],
)
def test_a_sessions_record_with_an_impossible_takeback_is_refused_there(
    client, session_taken_back, version, change
):
    whole, _, p, q = session_taken_back
    tampered = copy.deepcopy(whole)
    change(tampered["entries"][version - 1], p, q)
    said = _replayed(client, tampered)
    assert said["valid"] is False and said["first_difference"] == version, said
    verdict = verify_document(copy.deepcopy(tampered))
    assert not verdict.ok and verdict.first_bad_version == version
