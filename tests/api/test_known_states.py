"""A state is checked once per process, not on every request (``api.known_states``, issue 14):
the states the rules dealt or produced and the states that passed the checks are remembered by
digest; anything else, a changed copy included, is checked in full."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from api import create_app, jsonio
from api.known_states import KnownStates, state_span
from rules.registry import get_game

GAME = "reign-supreme"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def counted(monkeypatch):
    """The game, with a count of its ``check_state`` calls."""
    game = get_game(GAME)
    calls = []
    real = game.check_state
    monkeypatch.setattr(game, "check_state", lambda state: calls.append(1) or real(state))
    return game, calls


def _app(referee_data_dir, **config):
    return create_app(
        {"TESTING": True, "REDIS_URL": None, "REFEREE_DATA_DIR": str(referee_data_dir), **config}
    )


def test_a_state_the_service_answered_is_not_checked_again(referee_data_dir, counted):
    game, calls = counted
    client = _app(referee_data_dir).test_client()
    state = client.post(
        f"/v1/games/{GAME}/setup",
        json={"players": ["ann", "bob"], "seed": 4, "options": {"setup": "auto"}},
    ).get_json()["state"]
    for _ in range(5):  # the play loop: legal moves of a state, apply one, go on with the answer
        moves = client.post(f"/v1/games/{GAME}/legal-moves", json={"state": state}).get_json()[
            "moves"
        ]
        move = random.Random(1).choice([m for m in moves if m["type"] != "concede"])
        state = client.post(
            f"/v1/games/{GAME}/apply", json={"state": state, "move": move}
        ).get_json()["state"]
    assert calls == []


def test_a_state_never_seen_is_checked_once_and_a_changed_copy_again(referee_data_dir, counted):
    game, calls = counted
    client = _app(referee_data_dir).test_client()
    state = game.setup(
        ["ann", "bob"], 9, {"setup": "auto"}
    )  # dealt in process: the app never saw it
    for _ in range(3):
        assert (
            client.post(f"/v1/games/{GAME}/legal-moves", json={"state": state}).status_code == 200
        )
    assert len(calls) == 1
    changed = dict(state, move_count=state["move_count"] + 1)
    assert client.post(f"/v1/games/{GAME}/score", json={"state": changed}).status_code in (200, 422)
    assert len(calls) == 2
    broken = dict(state, rng=5)  # a shape error: never remembered, refused every time
    assert [
        client.post(f"/v1/games/{GAME}/score", json={"state": broken}).status_code for _ in range(2)
    ] == [400, 400]
    unsound = dict(state, players=["ann", "zed"])  # an integrity error, likewise
    statuses = [
        client.post(f"/v1/games/{GAME}/score", json={"state": unsound}).status_code
        for _ in range(2)
    ]
    assert statuses == [422, 422] and len(calls) == 4


def test_with_known_states_off_every_request_checks_its_state(referee_data_dir, counted):
    game, calls = counted
    client = _app(referee_data_dir, KNOWN_STATES=0).test_client()
    state = client.post(
        f"/v1/games/{GAME}/setup", json={"players": ["ann", "bob"], "seed": 4}
    ).get_json()["state"]
    for _ in range(3):
        client.post(f"/v1/games/{GAME}/legal-moves", json={"state": state})
    assert len(calls) == 3


def test_known_states_are_bounded_oldest_first_and_told_apart_by_game():
    known = KnownStates(2)
    a, b, c = (b'{"n":%d}' % i for i in range(3))
    for text in (a, b, c):
        known.add(known.digest(GAME, text))
    assert known.digest(GAME, a) not in known
    assert known.digest(GAME, b) in known and known.digest(GAME, c) in known
    assert known.digest("reign-and-ruin", c) not in known
    assert known.digest(GAME, b'{"n": 2}') not in known  # by its bytes: spaced out is another
    assert KnownStates(0).digest(GAME, c) is None


def _dealt(client):
    return client.post(
        f"/v1/games/{GAME}/setup",
        json={"players": ["ann", "bob"], "seed": 4, "options": {"setup": "auto"}},
    ).get_json()["state"]


def _post(client, endpoint, data: bytes):
    return client.post(f"/v1/games/{GAME}/{endpoint}", data=data, content_type="application/json")


def test_a_known_state_in_another_layout_is_known_by_its_canonical_form(
    referee_data_dir, counted, monkeypatch
):
    """The service wrote the state compact with sorted keys; sent back spaced out (Python's
    ``json.dumps``) or with its keys in another order, the same state is other bytes, and its
    canonical form (written once, on that miss) finds it: it is not checked again, and from then
    on it is known by those bytes too."""
    game, calls = counted
    client = _app(referee_data_dir).test_client()
    state = _dealt(client)
    written = []
    real = KnownStates.canonical_digest
    monkeypatch.setattr(
        KnownStates,
        "canonical_digest",
        lambda self, game_id, value: written.append(1) or real(self, game_id, value),
    )
    spaced = json.dumps({"state": state, "player": "ann"}).encode()
    reordered = json.dumps({"state": dict(reversed(state.items()))}, indent=1).encode()
    for data in (spaced, spaced, reordered, reordered, jsonio.dumps({"state": state})):
        assert _post(client, "legal-moves", data).status_code == 200
    assert len(calls) == 0
    assert len(written) == 2  # once a layout: then its bytes are known


def test_a_state_never_seen_in_another_layout_is_checked_once(referee_data_dir, counted):
    """A state the service never wrote, spaced out: checked in full once, then known by its
    bytes and by its canonical form alike."""
    game, calls = counted
    client = _app(referee_data_dir).test_client()
    state = game.setup(["ann", "bob"], 99, {})
    spaced = json.dumps({"state": state, "player": "ann"}).encode()
    reordered = json.dumps({"state": dict(reversed(state.items()))}, indent=1).encode()
    for data in (spaced, spaced, reordered, jsonio.dumps({"state": state})):
        assert _post(client, "legal-moves", data).status_code == 200
    assert len(calls) == 1


def test_a_tampered_state_never_rides_on_a_known_digest(referee_data_dir, counted):
    """Each body holds the known state's bytes whole, and a tampered state (an integrity error:
    a player renamed) where orjson will read it: each is checked, and refused, every time."""
    game, calls = counted
    client = _app(referee_data_dir).test_client()
    state = _dealt(client)
    known = jsonio.dumps(state)
    tampered = jsonio.dumps(dict(state, players=["ann", "zed"]))
    move = b'{"type":"concede","player":"ann"}'
    bodies = [
        b'{"state":' + tampered + b"}",
        b'{"state":' + known + b',"state":' + tampered + b"}",  # duplicates: the last counts
        b'{"state":' + known + b',"move":' + move + b',"state":' + tampered + b"}",
        b'{"move":' + move + b',"state":' + known + b',"st\\u0061te":' + tampered + b"}",
        b'{"st\\u0061te":' + tampered + b',"move":{"x":{"state":' + known + b"}}}",
        b'{"state":' + known[:-1] + b',"players":["ann","zed"]}}',
    ]
    for data in bodies:
        endpoint = "apply" if b'"move"' in data else "legal-moves"
        statuses = [_post(client, endpoint, data).status_code for _ in range(2)]
        assert statuses in ([422, 422], [400, 400]), data[-80:]
    assert len(calls) >= 2 * (len(bodies) - 1)  # the last but one fails the move's shape first


def test_apply_answers_the_bytes_the_whole_answer_serialised_would_be(referee_data_dir):
    client = _app(referee_data_dir).test_client()
    state = _dealt(client)
    moves = _post(client, "legal-moves", jsonio.dumps({"state": state})).get_json()["moves"]
    answer = _post(client, "apply", jsonio.dumps({"state": state, "move": moves[0]}))
    assert answer.status_code == 200 and answer.mimetype == "application/json"
    assert answer.get_data() == jsonio.dumps(answer.get_json())  # compact, keys sorted
    assert sorted(answer.get_json()) == ["events", "outcome", "state"]


def _spaces(chooser: random.Random) -> str:
    return chooser.choice(["", "", " ", "\n  ", "\t"])


def _text(value, chooser: random.Random, keys: str = "") -> str:
    """``value`` as JSON, with random whitespace, key order and escapes."""
    if type(value) is dict:
        items = list(value.items())
        chooser.shuffle(items)
        members = [
            f"{_spaces(chooser)}{_key(k, chooser)}{_spaces(chooser)}:{_spaces(chooser)}"
            f"{_text(v, chooser)}{_spaces(chooser)}"
            for k, v in items
        ]
        return "{" + ",".join(members) + "}"
    if type(value) is list:
        return "[" + ",".join(_spaces(chooser) + _text(v, chooser) for v in value) + "]"
    return json.dumps(value, ensure_ascii=chooser.random() < 0.5)


def _key(key: str, chooser: random.Random) -> str:
    if chooser.random() < 0.1:  # the same key, escaped
        return '"' + "".join(f"\\u{ord(c):04x}" for c in key) + '"'
    return json.dumps(key)


_ENVELOPE_WORDS = ("state", "move", "player", ",", '","move":', "}", "\\", "é")


def _tricky(chooser: random.Random, depth: int = 0, words: tuple[str, ...] = _ENVELOPE_WORDS):
    """A small JSON value whose strings and keys are ``words``: by default the envelope's own
    names, and commas."""
    roll = chooser.random()
    if depth < 3 and roll < 0.3:
        return {
            chooser.choice(words): _tricky(chooser, depth + 1, words)
            for _ in range(chooser.randint(0, 3))
        }
    if depth < 3 and roll < 0.45:
        return [_tricky(chooser, depth + 1, words) for _ in range(chooser.randint(0, 3))]
    return chooser.choice([*words, 0, 1.5, -2, True, None])


def _body(members: list[tuple[str, object]], chooser: random.Random, escape: bool) -> bytes:
    """A JSON object of ``members`` (duplicates kept), top-level keys escaped now and then."""
    written = [
        f"{_spaces(chooser)}{_key(k, chooser) if escape else json.dumps(k)}{_spaces(chooser)}:"
        f"{_spaces(chooser)}{_text(v, chooser)}{_spaces(chooser)}"
        for k, v in members
    ]
    return ("{" + ",".join(written) + "}").encode()


def test_state_span_is_only_ever_bytes_that_hold_the_body_s_state():
    """Bodies of every layout: members in any order, spaced out, keys escaped, duplicate keys,
    values that spell the envelope's keys. Whenever ``state_span`` finds the state's bytes, they
    hold the very state the body holds (so equal bytes mean equal states)."""
    chooser = random.Random(28)
    found = 0
    for _ in range(3000):
        members = [("state", {"n": _tricky(chooser), "m": _tricky(chooser)})]
        for name in chooser.sample(["move", "player", "state"], chooser.randint(0, 3)):
            members.append((name, _tricky(chooser) if name != "state" else {"n": 1}))
        chooser.shuffle(members)
        data = _body(members, chooser, escape=True)
        body = jsonio.loads(data)
        span = state_span(data, body)
        if span is not None:
            found += 1
            assert jsonio.loads(b'{"state":' + data[span] + b"}")["state"] == body["state"]
    assert found > 1000


def test_state_span_finds_the_state_of_a_plain_body_whatever_its_order_and_spacing():
    """A body as clients write it: the state first or last, beside a move or a player, spaced
    out or not, keys in any order; the state itself may hold a key or two named like the
    envelope's, and strings of commas and braces."""
    chooser = random.Random(29)
    for _ in range(1000):
        state = {
            "n": _tricky(chooser, words=(",", "}", '"', "{", "é", "\\\\")),
            "log": [{"move": {"type": "move"}, "state": "ok"}],
        }
        other = chooser.choice(
            [[], [("player", "ann")], [("move", {"type": "move", "player": "ann"})]]
        )
        members = (
            [("state", state), *other] if chooser.random() < 0.5 else [*other, ("state", state)]
        )
        data = _body(members, chooser, escape=False)
        span = state_span(data, jsonio.loads(data))
        assert span is not None and jsonio.loads(data[span]) == state, data


_DIGEST_OF_X = (
    "import hashlib, sys; from api.known_states import KnownStates; "
    "digest = KnownStates(1).digest('g', b'{\"x\":1}'); "
    "print(digest == ('g', hash(b'{\"x\":1}')), "
    "digest == ('g', int.from_bytes(hashlib.sha256(b'{\"x\":1}').digest())))"
)


@pytest.mark.parametrize(
    ("hash_seed", "expected"),
    [("random", "True False"), ("0", "False True"), ("12345", "False True")],
)
def test_states_are_known_by_a_keyed_hash_only_while_its_key_is_secret(hash_seed, expected):
    """A digest two states share lets the second skip its checks. The interpreter's ``hash()`` of
    bytes is SipHash under a key drawn at random when it starts, which nobody outside can search
    collisions for; a set ``PYTHONHASHSEED`` makes that key known (or the hash unkeyed), so such
    a process knows states by SHA-256 instead (``api.known_states._KEYED_HASH``)."""
    out = subprocess.run(
        [sys.executable, "-c", _DIGEST_OF_X],
        cwd=ROOT,
        env=dict(os.environ, PYTHONHASHSEED=hash_seed),
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.split() == expected.split()
