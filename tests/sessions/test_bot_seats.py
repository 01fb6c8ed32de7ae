"""Bot seats in sessions (issue 15 item 3): through the Flask test client on the real (embedded)
Redis, posting only the human seats' moves.

Waiting for a bot never asserts on time: :func:`settle` touches the session (a history read,
which queues a due bot) and waits for the bot seats to be idle, until the game waits on no bot;
its timeout only turns a hang into a failure. Every game's session is then checked against the
rules: the unredacted history, replayed from the setup, reproduces the stored state, and every
entry was made by a player the game waited on (a bot merely *listed*, Reign Supreme RS 10,
never moves for that).
"""

from __future__ import annotations

import itertools
import json
import random
import threading
import time
from itertools import pairwise
from typing import Any

import pytest
from sessions_served import bearer as served_bearer
from sessions_served import http

from api import create_app, jsonio
from api.bot_seats import RETRIES, BotSeats, due_bot, move_seed
from api.session_store import KEY_PREFIX
from api.store import OutcomeUnknown, StoreFull, StoreUnavailable
from rules.bots import Suggestion, suggest
from rules.registry import GAMES, get_game
from tests.council_decks import CUSTOM_COUNCIL_DECKS

PROBLEM = "application/problem+json"
SETTLE_TIMEOUT = 120.0
"""Seconds before a bot that never moves fails the test (a hang, not a slow machine)."""


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(
    client,
    game: str,
    players: list[str],
    bots: dict[str, str],
    seed: int = 7,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    body = {"game": game, "players": players, "open": True, "seed": seed, "bots": bots}
    if options:
        body["options"] = options
    resp = client.post("/v1/sessions", json=body)
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()


def settle(app, client, sid: str, timeout: float = SETTLE_TIMEOUT):
    """The stored session once the game waits on none of its bots (or is over). Polls the
    history (a touch, which queues a due bot) and waits for the bot seats to be idle between
    polls."""
    store, seats = app.extensions["referee_sessions"], app.extensions["referee_bot_seats"]
    deadline = time.monotonic() + timeout
    while True:
        session = store.load(sid)
        if due_bot(get_game(session.game), session.state, session.bots) is None:
            return session
        assert time.monotonic() < deadline, (
            f"no bot moved on version {session.version} in {timeout} s"
        )
        assert client.get(f"/v1/sessions/{sid}/history?after={session.version}").status_code == 200
        seats.wait_idle(1.0)


def play_humans(app, client, created: dict[str, Any], seed: int = 1) -> int:
    """Play the session to its end, posting only the human seats' moves (random, never
    ``concede``), each once the bots are done; the number of moves posted."""
    sid, game = created["session_id"], get_game(created["game"])
    chooser = random.Random(seed)
    posted = 0
    while True:
        session = settle(app, client, sid)
        if session.state["status"] == "finished":
            return posted
        human = next(p for p in game.waiting_on(session.state) if p in created["seats"])
        headers = bearer(created["seats"][human])
        legal = client.get(f"/v1/sessions/{sid}/legal-moves", headers=headers).get_json()["moves"]
        move = chooser.choice([m for m in legal if m["type"] != "concede"] or legal)
        resp = client.post(
            f"/v1/sessions/{sid}/moves",
            json={"move": move},
            headers={**headers, "If-Match": f'"{session.version}"'},
        )
        assert resp.status_code == 200, resp.get_json()
        assert (
            resp.get_json()["version"] == session.version + 1
        )  # answered once the human's move is in
        posted += 1


def raw_history(app, sid: str) -> list[dict[str, Any]]:
    return app.extensions["referee_sessions"].history(sid, 0, 100_000)[1]


def replay(
    app, sid: str, players: list[str], seed: int, options: dict[str, Any], bots: dict[str, str]
) -> int:
    """Check the session's history against its stored state. A bot may still be moving: history
    only grows, so the first ``version`` entries are the ones the loaded state is made of."""
    session = app.extensions["referee_sessions"].load(sid)
    return check_history(
        raw_history(app, sid)[: session.version], session.state, players, seed, options, bots
    )


def check_history(
    entries: list[dict[str, Any]],
    stored: dict[str, Any],
    players: list[str],
    seed: int,
    options: dict[str, Any],
    bots: dict[str, str],
) -> int:
    """Check a stored history against the rules (see the module docstring); the number of
    states in which a bot was listed as active without being waited on."""
    game = get_game(stored["game"])
    state = game.setup(players, seed, options)
    listed_only = 0
    for number, entry in enumerate(entries, start=1):
        assert entry["version"] == number
        waited = game.waiting_on(state)
        assert entry["player"] in waited and entry["move"]["player"] == entry["player"], (
            number,
            entry,
            waited,
        )
        listed_only += any(b in state["active_players"] and b not in waited for b in bots)
        state, events = game.apply(state, entry["move"])
        assert events == entry["events"]
    assert state == stored
    return listed_only


# -- every game to its end -------------------------------------------------------------------------
FULL_GAMES = [
    ("reign-and-ruin", ["ann", "bob"], {"bob": "greedy"}, {}),
    ("reign-absolute", ["ann", "bob"], {"bob": "random"}, {"turn_limit": 20}),
    (
        "reign-supreme",
        ["ann", "bob"],
        {"bob": "random"},
        {"scenario": "standard", "round_limit": 3, "setup": "auto"},
    ),  # cards: RS 10 lists the bot
    ("reigns-the-council", ["ann", "bob", "cat"], {"bob": "random", "cat": "random"}, {}),
]


def test_every_game_is_covered():
    assert {game for game, *_ in FULL_GAMES} == set(GAMES)


@pytest.mark.parametrize(
    "game_id, players, bots, options", FULL_GAMES, ids=[g for g, *_ in FULL_GAMES]
)
def test_a_session_with_bot_seats_plays_to_the_end_posting_only_human_moves(
    app, client, game_id, players, bots, options
):
    created = create(client, game_id, players, bots, options=options)
    assert set(created["seats"]) == set(players) - set(bots) and created["bots"] == bots
    posted = play_humans(app, client, created)
    sid = created["session_id"]
    snapshot = client.get(f"/v1/sessions/{sid}").get_json()
    assert snapshot["status"] == "finished" and snapshot["bots"] == bots
    assert snapshot["view"]["outcome"]["winners"]
    entries = raw_history(app, sid)
    by_bots = [e for e in entries if e["player"] in bots]
    assert len(entries) - len(by_bots) == posted and by_bots, "the bots never moved"
    assert {e["player"] for e in by_bots} == set(bots)
    listed_only = replay(app, sid, players, 7, options, bots)
    if game_id == "reign-supreme":
        assert listed_only > 0, "no state listed the bot outside its turn: RS 10 was not tested"


def test_several_bots_in_a_row_and_a_game_of_bots_only(app, client):
    """Every seat a bot (a game to watch): nobody posts, the service plays it to the end."""
    bots = {"ann": "random", "bob": "random"}
    created = create(client, "reign-and-ruin", ["ann", "bob"], bots)
    assert created["seats"] == {} and created["version"] == 0
    session = settle(app, client, created["session_id"])
    assert session.state["status"] == "finished"
    entries = raw_history(app, created["session_id"])
    assert any(a["player"] == b["player"] for a, b in pairwise(entries))  # one bot, twice in a row
    replay(app, created["session_id"], ["ann", "bob"], 7, {}, bots)


# -- tokens, history, stream -------------------------------------------------------------------
def test_a_bot_seat_has_no_token_and_nobody_moves_for_it(app, client):
    created = create(client, "reign-and-ruin", ["ann", "bob"], {"bob": "random"})
    sid, ann = created["session_id"], bearer(created["seats"]["ann"])
    assert list(created["seats"]) == ["ann"]
    settle(app, client, sid)
    ann_move = client.get(f"/v1/sessions/{sid}/legal-moves", headers=ann).get_json()["moves"][0]
    resp = client.post(
        f"/v1/sessions/{sid}/moves", json={"move": dict(ann_move, player="bob")}, headers=ann
    )
    assert resp.status_code == 403 and resp.mimetype == PROBLEM
    for token in (
        created["admin_token"],
        created["seats"]["ann"] + "x",
    ):  # no other token opens bob's seat
        assert client.get(f"/v1/sessions/{sid}/legal-moves", headers=bearer(token)).status_code in (
            401,
            403,
        )


def _stream_entries(stream, last_version: int) -> list[dict[str, Any]]:
    """The ``move`` events of an open ``/events`` response up to ``last_version``."""
    found: list[dict[str, Any]] = []
    for chunk in stream.response:
        if chunk.startswith(b"id: "):
            lines = dict(line.split(": ", 1) for line in chunk.decode().strip().split("\n"))
            assert lines["event"] == "move"
            found.append(json.loads(lines["data"]))
            if found[-1]["version"] == last_version:
                return found
    raise AssertionError("the stream ended early")


def _public(entry: dict[str, Any]) -> dict[str, Any]:
    """A stored history entry as a finished session shows it: its fields but the state digest
    (records read that), and its clock (``None``: a session without one)."""
    keys = ("version", "player", "move", "events", "at")
    return {**{key: entry[key] for key in keys}, "clock": entry.get("clock")}


def test_bot_moves_reach_history_and_stream_like_any_move(app, client):
    created = create(client, "reign-and-ruin", ["ann", "bob"], {"bob": "random"})
    sid, ann = created["session_id"], bearer(created["seats"]["ann"])
    spectator = client.get(f"/v1/sessions/{sid}/events?after=0")
    seat = client.get(f"/v1/sessions/{sid}/events?after=0", headers=ann)
    play_humans(app, client, created)
    final = settle(app, client, sid).version
    game = get_game("reign-and-ruin")
    raw = {e["version"]: e for e in raw_history(app, sid)}
    for stream, headers, viewer in ((spectator, {}, None), (seat, ann, "ann")):
        streamed = _stream_entries(stream, final)
        stream.close()
        assert all(
            set(e) == {"version", "player", "move", "events", "at", "clock"} for e in streamed
        )
        # Live, each entry was redacted for its viewer; bob's (the bot's) moves show their type.
        assert streamed == [
            {
                **_public(raw[e["version"]]),
                "move": game.view_move(raw[e["version"]]["move"], viewer),
                "events": [game.view_event(ev, viewer) for ev in raw[e["version"]]["events"]],
            }
            for e in streamed
        ]
        bot_entries = [e for e in streamed if e["player"] == "bob"]
        assert bot_entries and all(
            e["move"] == {"player": "bob", "type": e["move"]["type"]} for e in bot_entries
        )
        # Once the game is finished, the history is whole for everyone (fair sessions: verify).
        history = client.get(f"/v1/sessions/{sid}/history", headers=headers).get_json()["entries"]
        assert history == [_public(raw[v]) for v in sorted(raw)]


# -- determinism, conflicts, restarts -------------------------------------------------------------
def test_the_same_session_replays_the_same_bot_moves(app, client):
    """Bot seeds derive from the session's seed, the version and the seat (``move_seed``)."""
    bots = {"bob": "random", "cat": "random"}
    histories = []
    for _ in range(2):
        created = create(client, "reigns-the-council", ["ann", "bob", "cat"], bots, seed=11)
        play_humans(app, client, created, seed=5)
        histories.append(
            [(e["player"], e["move"]) for e in raw_history(app, created["session_id"])]
        )
    assert histories[0] == histories[1]
    view = {"phase": "draft"}
    assert move_seed(1, view, "bob") != move_seed(1, {"phase": "play"}, "bob")
    assert move_seed(1, view, "bob") != move_seed(1, view, "cat") != move_seed(2, view, "cat")


def _replies_after_takebacks(
    app, client, level: str, rounds: int = 2, seed: int = 3
) -> tuple[str, list[list[dict[str, Any]]]]:
    """ann places until the bot answers one of her placements with moves that can be taken back,
    then takes back her placement and the answer ``rounds`` times, placing the same way again
    each time: the session and the bot's answers, the first one and one after each takeback."""
    created = create(client, "reign-supreme", ["ann", "bob"], {"bob": level}, seed=seed)
    sid, ann = created["session_id"], bearer(created["seats"]["ann"])

    def place_and_answer() -> tuple[int, dict[str, Any], list[dict[str, Any]]]:
        """ann's first legal move, once she is waited on; the version before it and the bot's
        moves after it."""
        start = settle(app, client, sid).version
        move = client.get(f"/v1/sessions/{sid}/legal-moves", headers=ann).get_json()["moves"][0]
        resp = client.post(f"/v1/sessions/{sid}/moves", json={"move": move}, headers=ann)
        assert resp.status_code == 200
        end = settle(app, client, sid).version
        return start, move, [e["move"] for e in raw_history(app, sid)[start + 1 : end]]

    def take_back(to_version: int):
        return client.post(
            f"/v1/sessions/{sid}/takebacks", json={"to_version": to_version}, headers=ann
        )

    # (an answer that ends the set-up deals cards: chance, a barrier of the horizon)
    while True:
        start, move, answer = place_and_answer()
        if answer and take_back(start).status_code == 201:
            break
    replies = [answer]
    for _ in range(rounds):
        _, same, answer = place_and_answer()
        assert same == move
        replies.append(answer)
        assert answer == replies[0], "the bot answered otherwise after a takeback"
        resp = take_back(start)
        assert resp.status_code == 201, resp.get_json()
        assert resp.get_json()["status"] == "accepted"
    assert all(m["player"] == "bob" for m in replies[0])
    return sid, replies


def test_a_takeback_cannot_re_roll_a_bots_reply(app, client):
    """Back in the same position, a bot makes the move it made before: ann takes back a
    placement of hers and the bot's answer to it, places again the same way, and gets the same
    answer."""
    _, replies = _replies_after_takebacks(app, client, "random")
    assert replies[0] == replies[1] == replies[2]


def test_a_takeback_cannot_re_roll_a_reply_the_bot_would_choose_otherwise(app, client, monkeypatch):
    """The bot's reply after a takeback is the one it remembered, not chosen again: here the
    bot would choose another legal move each time it is asked (as a search cut by the time
    budget may), and its answers after the takebacks are still its first one."""
    asked: list[int] = []

    def another_move_each_time(bot, view, player, level, seed, time_ms):
        state = bot.determinize(view, random.Random(0))
        moves = [m for m in bot.game.legal_moves(state, player) if m["type"] != "concede"]
        asked.append(len(moves))
        return Suggestion(moves[len(asked) % len(moves)], level, 0, len(moves), False, "rotating")

    monkeypatch.setattr("api.bot_seats.suggest", another_move_each_time)
    _, replies = _replies_after_takebacks(app, client, "random")
    assert any(n > 1 for n in asked)  # the bot had a choice: asked again, it would differ
    assert replies[0] == replies[1] == replies[2]


@pytest.mark.parametrize("seed", [1, 2])
def test_a_takeback_cannot_re_roll_a_greedy_reply_cut_short_by_the_clock(
    app, client, monkeypatch, seed
):
    """A greedy bot whose pass the clock cuts short one time and not the next (a busy machine,
    ``SESSION_BOT_TIME_MS`` of 10) answers after each takeback as it did the first time. The
    clock is a stub, no timing: every other search sees its time run out at its first look, so
    it weighs only the first legal move; the others run in full. (These seeds reach a reply
    whose full pass prefers another move: without the remembered reply, the replies differ.)"""
    asked = itertools.count()
    would_differ: list[bool] = []  # per search: would the other kind have chosen otherwise?

    def cut_short(bot, view, player, level, seed, time_ms):
        hurried = next(asked) % 2 == 1

        def searched(cut: bool) -> Any:
            looks = itertools.count()

            def clock() -> float:
                return 1e9 if cut and next(looks) > 0 else 0.0

            return suggest(bot, view, player, level, seed, time_ms, clock=clock)

        chosen, other = searched(hurried), searched(not hurried)
        would_differ.append(chosen.move != other.move)
        return chosen

    monkeypatch.setattr("api.bot_seats.suggest", cut_short)
    _, replies = _replies_after_takebacks(app, client, "greedy", seed=seed)
    assert any(would_differ)  # a search cut short would have answered otherwise
    assert replies[0] == replies[1] == replies[2]


def _bot_store_calls(store, monkeypatch) -> dict[str, int]:
    """How often the bot seats' threads call the store's reads and its commit, by method name
    (counted as the calls are made)."""
    calls = dict.fromkeys(
        ("load", "reply", "history", "all_history", "record_entries", "commit"), 0
    )
    for name in calls:
        method = getattr(store, name)

        def watched(*args, _name=name, _method=method, **kwargs):
            if threading.current_thread().name.startswith("bot-seats"):
                calls[_name] += 1
            return _method(*args, **kwargs)

        monkeypatch.setattr(store, name, watched)
    return calls


def test_a_bot_move_after_a_takeback_reads_one_field_not_the_history(app, client, monkeypatch):
    """A bot's remembered reply costs one field read per bot move, in a session a takeback
    landed in as in any other: never the history (which grows with the game, and read on each
    bot move made a game quadratic)."""
    calls = _bot_store_calls(app.extensions["referee_sessions"], monkeypatch)
    _, replies = _replies_after_takebacks(app, client, "random")
    assert replies[0] == replies[1] == replies[2]
    assert calls["history"] == calls["all_history"] == calls["record_entries"] == 0
    assert calls["commit"] >= sum(map(len, replies))  # and the moves before the first takeback
    assert calls["reply"] == calls["commit"]  # one field read per bot move tried


def test_a_session_without_takebacks_reads_no_history_for_its_bots(app, client, monkeypatch):
    """A game without takebacks is played to its end without the bot seats reading its
    history: one field read (a remembered reply) per bot move."""
    calls = _bot_store_calls(app.extensions["referee_sessions"], monkeypatch)
    created = create(client, "reign-and-ruin", ["ann", "bob"], {"bob": "random"})
    play_humans(app, client, created)
    assert calls["history"] == calls["all_history"] == calls["record_entries"] == 0
    assert calls["reply"] == calls["commit"] > 0


def test_a_bots_remembered_replies_are_in_the_session_hash_and_go_with_it(app, client):
    """Each bot move is remembered as ``reply:<seat>:<digest of the state it answered>`` = the
    move, in the session hash; DELETE leaves only the tombstone's ``admin`` and ``seats``."""
    created = create(client, "reign-and-ruin", ["ann", "bob"], {"ann": "random", "bob": "random"})
    sid = created["session_id"]
    session = settle(app, client, sid)
    raw = app.extensions["referee_store"].client()
    key = f"{KEY_PREFIX}{{{sid}}}:session"
    stored = {k.decode(): v for k, v in raw.hgetall(key).items() if k.startswith(b"reply:")}
    history = raw_history(app, sid)
    answered = [session.origin["start_digest"], *(e["state_digest"] for e in history)]
    made = {f"reply:{e['player']}:{answered[e['version'] - 1]}": e["move"] for e in history}
    assert len(made) == len(history) > 0
    assert {k: jsonio.loads(v) for k, v in stored.items()} == made
    resp = client.delete(f"/v1/sessions/{sid}", headers=bearer(created["admin_token"]))
    assert resp.status_code == 204
    assert sorted(raw.hkeys(key)) == [b"admin", b"seats"]


def test_a_bot_beaten_to_its_version_chooses_again_on_the_new_one(app, client, monkeypatch):
    """A person's move lands between the bot's choice and its compare-and-set: the bot's commit
    conflicts, and it chooses again on the new version."""
    bot_seats: BotSeats = app.extensions["referee_bot_seats"]
    bot_seats.stop()  # nothing runs in the background: play() is called here
    created = create(client, "reign-and-ruin", ["ann", "bob"], {"bob": "random"})
    sid, ann = created["session_id"], bearer(created["seats"]["ann"])
    ann_move = client.get(f"/v1/sessions/{sid}/legal-moves", headers=ann).get_json()["moves"][0]
    store = app.extensions["referee_sessions"]
    commit, outcomes = store.commit, []

    def human_first(session_id, base_version, state, entry, *rest, **kwargs):
        if entry["player"] == "bob":
            if not outcomes:  # the bot's first commit: ann's move lands just before it
                assert (
                    client.post(
                        f"/v1/sessions/{sid}/moves", json={"move": ann_move}, headers=ann
                    ).status_code
                    == 200
                )
            outcomes.append(commit(session_id, base_version, state, entry, *rest, **kwargs))
            return outcomes[-1]
        return commit(session_id, base_version, state, entry, *rest, **kwargs)

    monkeypatch.setattr(store, "commit", human_first)
    assert bot_seats.play(sid, 8) is False  # done: the game waits on ann alone
    kinds = [type(o).__name__ for o in outcomes]
    assert kinds[0] == "Conflict" and len(kinds) >= 2 and set(kinds[1:]) == {"Committed"}
    players = [e["player"] for e in raw_history(app, sid)]
    assert players == ["ann"] + ["bob"] * (len(kinds) - 1)
    replay(app, sid, ["ann", "bob"], 7, {}, {"bob": "random"})


@pytest.mark.parametrize("fault", ["unreachable", "full", "answer_lost"])
def test_a_bot_run_the_store_failed_is_tried_again_with_nobody_touching_the_session(
    app, client, monkeypatch, fault
):
    """README "Faults" (sessions resume when Redis is back) and "A bot game": the store fails
    bob's run (a read while it is unreachable, a commit a full store refuses, a commit that
    landed but whose answer was lost) and then answers again. Bob moves, once, though nothing
    touches the session after its creation: the bot seats try again by themselves."""
    seats: BotSeats = app.extensions["referee_bot_seats"]
    seats.retry_seconds = (0.0,)  # no waiting in a test; the back-off's order is the same
    store = app.extensions["referee_sessions"]
    load, commit, failures = store.load, store.commit, []

    def unreachable(session_id):
        if fault == "unreachable" and len(failures) < 3:
            failures.append("load")
            raise StoreUnavailable("ConnectionError: Connection refused")
        return load(session_id)

    def refused_or_lost(session_id, *args, **kwargs):
        if fault == "full" and len(failures) < 2:
            failures.append("commit")
            raise StoreFull("OutOfMemoryError: OOM command not allowed")
        if fault == "answer_lost" and not failures:
            failures.append(commit(session_id, *args, **kwargs))  # it lands; its answer is lost
            raise OutcomeUnknown("TimeoutError: Timeout reading from socket")
        return commit(session_id, *args, **kwargs)

    monkeypatch.setattr(store, "load", unreachable)
    monkeypatch.setattr(store, "commit", refused_or_lost)
    created = create(client, "reign-and-ruin", ["ann", "bob"], {"bob": "random"})  # a nudge
    assert seats.wait_idle(SETTLE_TIMEOUT), "the bot seats never settled"
    assert failures, "the store never failed (the test did not test)"
    sid = created["session_id"]
    assert [e["player"] for e in raw_history(app, sid)] == ["bob"]  # once, with no touch
    assert load(sid).version == 1
    replay(app, sid, ["ann", "bob"], 7, {}, {"bob": "random"})


def test_a_bot_run_the_store_keeps_failing_stops_after_its_retries(app, client, monkeypatch):
    """A store that stays full: each try chooses the bot's move again (up to
    SESSION_BOT_TIME_MS of CPU), so after ``RETRIES`` tries in a row the session waits for its
    next touch instead of being tried every 8 s for as long as the outage lasts."""
    seats: BotSeats = app.extensions["referee_bot_seats"]
    seats.retry_seconds = (0.0,)
    store = app.extensions["referee_sessions"]
    refused = []

    def full(*args, **kwargs):
        refused.append(args[0])
        raise StoreFull("OutOfMemoryError: OOM command not allowed")

    monkeypatch.setattr(store, "commit", full)
    created = create(client, "reign-and-ruin", ["ann", "bob"], {"bob": "random"})
    assert seats.wait_idle(SETTLE_TIMEOUT), "the bot seats never settled"
    assert len(refused) == RETRIES + 1  # the first run, then its retries
    monkeypatch.undo()
    sid = created["session_id"]
    assert raw_history(app, sid) == []
    assert client.get(f"/v1/sessions/{sid}").status_code == 200  # its next touch
    assert seats.wait_idle(SETTLE_TIMEOUT)
    assert [e["player"] for e in raw_history(app, sid)] == ["bob"]


def test_a_touch_runs_a_bot_that_is_backing_off_at_once(app, client, monkeypatch):
    """A session whose bot run the store failed waits out its back-off, unless something
    touches it: a read nudges it, and the run is made then (the back-off's run is void)."""
    seats: BotSeats = app.extensions["referee_bot_seats"]
    seats.retry_seconds = (3600.0,)  # never within the test
    store = app.extensions["referee_sessions"]
    load, failed = store.load, threading.Event()

    def unreachable_once(session_id):
        if not failed.is_set():
            failed.set()
            raise StoreUnavailable("ConnectionError: Connection refused")
        return load(session_id)

    monkeypatch.setattr(store, "load", unreachable_once)
    created = create(client, "reign-and-ruin", ["ann", "bob"], {"bob": "random"})
    sid = created["session_id"]
    assert failed.wait(SETTLE_TIMEOUT), "the bot never ran"
    assert not seats.wait_idle(0)  # still running, or backing off
    assert raw_history(app, sid) == []
    assert client.get(f"/v1/sessions/{sid}").status_code == 200  # a touch
    assert seats.wait_idle(SETTLE_TIMEOUT)
    assert [e["player"] for e in raw_history(app, sid)] == ["bob"]


@pytest.mark.parametrize("touch", ["session", "legal-moves", "history", "events", "move"])
def test_a_bot_due_when_the_service_stopped_moves_when_next_touched(app, referee_data_dir, touch):
    """The first app stops (its bot seats with it) while bob's draft pick is due; a new app on
    the same Redis moves bob as soon as anything touches the session."""
    app.extensions["referee_bot_seats"].stop()
    created = create(app.test_client(), "reign-and-ruin", ["ann", "bob"], {"bob": "random"})
    sid, ann = created["session_id"], bearer(created["seats"]["ann"])
    assert (
        raw_history(app, sid) == []
        and due_bot(
            get_game("reign-and-ruin"),
            app.extensions["referee_sessions"].load(sid).state,
            {"bob": "random"},
        )
        == "bob"
    )

    restarted = create_app(
        {"TESTING": True, "REDIS_URL": None, "REFEREE_DATA_DIR": str(referee_data_dir)}
    )
    client = restarted.test_client()
    try:
        path = f"/v1/sessions/{sid}"
        if touch == "move":
            move = client.get(path + "/legal-moves", headers=ann).get_json()["moves"][0]
            assert client.post(path + "/moves", json={"move": move}, headers=ann).status_code == 200
        elif touch == "events":
            client.get(path + "/events", headers=ann).close()
        else:
            assert (
                client.get(
                    path + ("" if touch == "session" else f"/{touch}"), headers=ann
                ).status_code
                == 200
            )
        deadline = time.monotonic() + SETTLE_TIMEOUT
        while not any(
            e["player"] == "bob" for e in raw_history(restarted, sid)
        ):  # no further touch
            assert time.monotonic() < deadline, "bob never moved"
            restarted.extensions["referee_bot_seats"].wait_idle(1.0)
        replay(restarted, sid, ["ann", "bob"], 7, {}, {"bob": "random"})
    finally:
        restarted.extensions["referee_bot_seats"].stop()


def test_a_bot_whose_process_died_moves_for_a_table_that_only_watches(
    app, referee_data_dir, monkeypatch
):
    """ann watches her table's ``/events`` on one process; her move lands through another, which
    dies before its bot seats play bob's reply (their queue is that process's memory). Nobody
    reads the session again, but the stream touches it at each idle heartbeat: bob's reply
    reaches ann's stream (a hunt saw it wait for ``MAX_STREAM_SECONDS``, an hour). A touch the
    store fails is skipped; the stream goes on and the next heartbeat touches again."""
    app.extensions["referee_bot_seats"].stop()  # the process that takes ann's move: it dies
    mover = app.test_client()
    created = create(mover, "reign-absolute", ["ann", "bob"], {"bob": "random"})
    sid, ann = created["session_id"], bearer(created["seats"]["ann"])
    assert created["to_move"] == ["ann"]  # no bot due when the stream opens: it nudges nothing
    watching = create_app(
        {
            "TESTING": True,
            "REDIS_URL": None,
            "REFEREE_DATA_DIR": str(referee_data_dir),
            "HEARTBEAT_SECONDS": "1",
            "MAX_STREAM_SECONDS": "60",  # without its touches the stream ends here, bob unplayed
        }
    )
    try:
        stream = watching.test_client().get(f"/v1/sessions/{sid}/events?after=0", headers=ann)
        assert stream.status_code == 200
        sessions = watching.extensions["referee_sessions"]
        load, failed = sessions.load, []

        def unreachable_once(session_id):  # the stream's first touch
            if not failed:
                failed.append(session_id)
                raise StoreUnavailable("ConnectionError: Connection refused")
            return load(session_id)

        monkeypatch.setattr(sessions, "load", unreachable_once)
        move = mover.get(f"/v1/sessions/{sid}/legal-moves", headers=ann).get_json()["moves"][0]
        resp = mover.post(f"/v1/sessions/{sid}/moves", json={"move": move}, headers=ann)
        assert resp.status_code == 200 and resp.get_json()["to_move"] == ["bob"]
        streamed = _stream_entries(stream, 2)
        stream.close()
        assert [(e["version"], e["player"]) for e in streamed] == [(1, "ann"), (2, "bob")]
        assert failed == [sid]
        replay(watching, sid, ["ann", "bob"], 7, {}, {"bob": "random"})
    finally:
        watching.extensions["referee_bot_seats"].stop()
        watching.extensions["referee_clocks"].stop()


# -- RS 10: listed is not waited on ----------------------------------------------------------------
def test_a_bot_listed_outside_its_turn_is_not_due():
    """Reign Supreme, RS 10: in a Combat phase the other players holding a card are listed in
    ``active_players`` but never waited for; only ``active_players[0]`` is."""
    game = get_game("reign-supreme")
    state = game.setup(
        ["ann", "bob"], 3, {"scenario": "standard", "round_limit": 3, "setup": "auto"}
    )
    chooser = random.Random(3)
    while not (state["active_players"][0] == "ann" and "bob" in state["active_players"]):
        assert state["status"] != "finished", "no Combat phase listed bob outside his turn"
        legal = [
            m for m in game.legal_moves(state, state["active_players"][0]) if m["type"] != "concede"
        ]
        state, _ = game.apply(state, chooser.choice(legal))
    assert game.waiting_on(state) == ["ann"]
    assert due_bot(game, state, {"bob": "expert"}) is None
    assert due_bot(game, state, {"ann": "random", "bob": "expert"}) == "ann"
    assert game.legal_moves(state, "bob")  # bob could act, and is not made to
    for other in ("reign-and-ruin", "reign-absolute", "reigns-the-council"):
        other_state = get_game(other).setup(
            ["ann", "bob", "cat"][: max(2, get_game(other).min_players)], 3, {}
        )
        assert get_game(other).waiting_on(other_state) == other_state["active_players"]


# -- validation ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "bots, status, field",
    [
        ({"zed": "random"}, 422, "bots.zed"),
        ({"bob": "godlike"}, 400, "bots.bob"),
        ({"bob": 3}, 400, "bots.bob"),
        (["bob"], 400, "bots"),
        ({"": "random"}, 400, "bots."),
    ],
)
def test_bad_bot_seats_are_refused_naming_the_field(client, bots, status, field):
    resp = client.post(
        "/v1/sessions", json={"game": "reign-and-ruin", "players": ["ann", "bob"], "bots": bots}
    )
    assert resp.status_code == status and resp.mimetype == PROBLEM
    problem = resp.get_json()
    assert field in problem["errors"] and field in problem["detail"]
    if status == 422:
        assert problem["code"] == "invalid_bots"
        assert problem["violations"][0]["code"] == "unknown_seat"
        assert problem["violations"][0]["rule"] == "reign-and-ruin#bots"


@pytest.mark.parametrize("deck", CUSTOM_COUNCIL_DECKS.values(), ids=list(CUSTOM_COUNCIL_DECKS))
def test_a_game_the_bots_cannot_play_is_refused(client, deck):
    resp = client.post(
        "/v1/sessions",
        json={
            "game": "reigns-the-council",
            "players": ["ann", "bob", "cat"],
            "options": {"deck": deck},
            "bots": {"cat": "random"},
        },
    )
    assert resp.status_code == 422 and resp.get_json()["code"] == "invalid_bots"
    assert resp.get_json()["violations"][0]["code"] == "bot_unavailable"
    assert "bots.cat" in resp.get_json()["errors"]


def test_no_bots_is_a_session_as_before(client):
    for bots in (None, {}):
        created = create(client, "reign-and-ruin", ["ann", "bob"], bots)
        assert set(created["seats"]) == {"ann", "bob"} and created["bots"] == {}


def test_session_bot_time_is_configured_within_the_suggest_limits():
    from api.config import Settings
    from rules.bots import MAX_TIME_MS

    assert Settings.from_env({}).session_bot_time_ms == 300
    assert Settings.from_env({"SESSION_BOT_TIME_MS": "50"}).session_bot_time_ms == 50
    for bad in ("0", str(MAX_TIME_MS + 1), "soon"):
        with pytest.raises(ValueError, match="SESSION_BOT_TIME_MS"):
            Settings.from_env({"SESSION_BOT_TIME_MS": bad})
    app = create_app({"TESTING": True, "SESSION_BOT_TIME_MS": "40"})
    assert app.extensions["referee_bot_seats"].time_ms == 40


def test_a_bot_game_through_the_served_service(served):
    """As the README starts it (gunicorn, 2 workers, each with its bot seats): ann plays Reign &
    Ruin against a random bot to the end over HTTP, and the stored history obeys the rules."""
    status, _, created = http(
        served.base,
        "POST",
        "/v1/sessions",
        {
            "game": "reign-and-ruin",
            "players": ["ann", "bob"],
            "open": True,
            "seed": 9,
            "bots": {"bob": "random"},
        },
    )
    assert status == 201 and list(created["seats"]) == ["ann"], created
    path, ann = f"/v1/sessions/{created['session_id']}", served_bearer(created["seats"]["ann"])
    deadline = time.monotonic() + SETTLE_TIMEOUT
    while True:
        snapshot = http(served.base, "GET", path, headers=ann)[2]
        if snapshot["status"] == "finished":
            break
        moves = http(served.base, "GET", path + "/legal-moves", headers=ann)[2]["moves"]
        if moves and moves[0]["player"] == "ann":
            status, _, answer = http(
                served.base, "POST", path + "/moves", {"move": moves[0]}, headers=ann
            )
            assert status == 200, answer  # a bot's move never makes ann's legal move illegal here
            continue
        assert time.monotonic() < deadline, "the bot never moved"
        time.sleep(0.02)  # bob is thinking: poll again
    redis = served.redis()
    sid = created["session_id"]
    entries = [jsonio.loads(e) for e in redis.lrange(f"{KEY_PREFIX}{{{sid}}}:history", 0, -1)]
    stored = jsonio.loads(redis.hget(f"{KEY_PREFIX}{{{sid}}}:session", "state"))
    check_history(entries, stored, ["ann", "bob"], 9, {}, {"bob": "random"})
    assert {e["player"] for e in entries} == {"ann", "bob"}


def test_a_bot_seat_concedes_only_when_conceding_is_its_only_legal_move():
    """A bot never chooses to concede; a waited-on seat with no other legal move would stall its
    session, so there, and only there, it concedes, as a player at the table would have to.
    Reign Supreme lists players outside their own turn (RS 10) who may have nothing but
    ``concede``: such a seat stands in for that case."""
    from api.bot_seats import _forced_concession
    from rules.playout import choose_move

    game = get_game("reign-supreme")
    chooser = random.Random(5)
    state = game.setup(["ann", "bob"], 5, {"setup": "auto"})
    seen_only = seen_other = False
    for _ in range(400):
        for player in state["players"]:
            types = [m["type"] for m in game.legal_moves(state, player)]
            if types == ["concede"]:
                seen_only = True
                assert _forced_concession(game, state, player) == {
                    "player": player,
                    "type": "concede",
                }
            elif types:
                seen_other = True
                assert _forced_concession(game, state, player) is None
        if seen_only and seen_other:
            break
        state, _ = game.apply(state, choose_move(game.legal_moves(state), chooser, 0.0))
    assert seen_only and seen_other
