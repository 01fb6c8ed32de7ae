"""A session keeps each version's record views at commit time (``api.session_store``,
``record_views``); the record it answers from them is byte for byte the record redacted afresh
from the history, for every seat and the public, running or finished, in every game. So keeping
them changes only the cost of an export (docs/records.md, "Cost"), never what anyone sees."""

from __future__ import annotations

import random

import pytest

from api import jsonio
from api.records import _record, _redacted_source
from api.session_store import AS_PUBLIC, AS_WHOLE, KEY_PREFIX, record_views
from rules.records import make_entry
from rules.registry import get_game
from tests.records.games import AT, GAME_IDS, PLAYERS
from tests.records.test_records_api import bearer, create, move_once, path


def _fresh(app, session: dict, viewer: str | None) -> bytes:
    """The record as redacted from the history, as the server answered it before views were
    kept."""
    store = app.extensions["referee_sessions"]
    stored = store.load(session["session_id"])
    game = get_game(stored.game)
    whole = stored.state["status"] == "finished"
    with app.app_context():
        entries = _redacted_source(game, stored)
        return jsonio.dumps(_record(game, stored, entries, viewer, whole))


def _answered(client, session: dict, viewer: str | None) -> bytes:
    headers = bearer(session["seats"][viewer]) if viewer else {}
    resp = client.get(path(session, "/record"), headers=headers)
    assert resp.status_code == 200 and resp.mimetype == "application/json"
    return resp.get_data()


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_kept_record_is_the_redacted_record(app, client, game_id):
    session = create(client, game_id, PLAYERS[game_id])
    chooser = random.Random(7)
    for moves in range(400):
        if moves % 9 == 0 or moves < 4:
            for viewer in [*PLAYERS[game_id], None]:
                assert _answered(client, session, viewer) == _fresh(app, session, viewer)
        if move_once(client, session, chooser)["outcome"] is not None:
            break
    for viewer in [*PLAYERS[game_id], None]:
        assert _answered(client, session, viewer) == _fresh(app, session, viewer)


def test_a_session_without_its_views_is_redacted_from_its_history(app, client):
    """A session whose views were not kept from version 0 (created before they were) answers the
    same record, redacted on each export."""
    session = create(client, "reign-and-ruin", ["ann", "bob"])
    chooser = random.Random(2)
    move_once(client, session, chooser)
    raw = app.extensions["referee_sessions"].store.client()
    sid = session["session_id"]
    raw.delete(f"{KEY_PREFIX}{{{sid}}}:record:public", f"{KEY_PREFIX}{{{sid}}}:record:0")
    move_once(client, session, chooser)  # the lists stay short: never kept again
    assert raw.llen(f"{KEY_PREFIX}{{{sid}}}:record:public") == 0
    for viewer in ("ann", "bob", None):
        answered = jsonio.loads(_answered(client, session, viewer))
        assert len(answered["entries"]) == 2
        assert jsonio.dumps(answered) == _fresh(app, session, viewer)


def test_views_the_same_as_another_are_not_stored_twice():
    """Reign Supreme's moves are public: a march is stored once, in the history."""
    game = get_game("reign-supreme")
    state = game.setup(["ann", "bob"], 3, {})
    move = game.legal_moves(state)[0]
    after, events = game.apply(state, move)
    entry = make_entry(1, move["player"], move, events, AT, after)
    views = record_views(after, entry)
    assert len(views) == 3
    if all(game.view_event(e, None) == e for e in events):
        assert views == [AS_PUBLIC, AS_PUBLIC, AS_PUBLIC]
    council = get_game("reigns-the-council")
    state = council.setup(["ann", "bob", "cat"], 3, {})
    move = council.legal_moves(state)[0]
    after, events = council.apply(state, move)
    entry = make_entry(1, move["player"], move, events, AT, after)
    public, *seats = record_views(after, entry)
    mover = after["players"].index(move["player"])
    if public != AS_PUBLIC:  # a private move or event: the mover sees it whole
        assert seats[mover] in (AS_WHOLE, AS_PUBLIC) or seats[mover].startswith(b"{")
        assert jsonio.loads(public)["move"] == council.view_move(move, None)


def test_a_history_entry_the_record_does_not_know_is_refused():
    game = get_game("reign-and-ruin")
    state = game.setup(["ann", "bob"], 1, {})
    entry = dict(make_entry(1, "ann", {"player": "ann", "type": "x"}, [], AT, state), extra=1)
    with pytest.raises(ValueError):
        record_views(state, entry)
