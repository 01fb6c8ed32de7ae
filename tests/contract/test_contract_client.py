"""A client generated from ``openapi.yaml`` by openapi-python-client, as a third party would: the
generation prints no warning, and through that typed client only every game is played to its end
(each answer parsed into the game's own models and written back without losing a field), an
illegal move arrives as a typed 422 with its violations, sessions of two games whose events
share types are played, every answer parsed into that game's own classes, and the catalogue
gives each game's options and content as that game's own classes.

The client talks to the app in process (httpx's WSGI transport): no server, no network.
"""

from __future__ import annotations

import importlib
import json
import random
import shutil
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest
import yaml

from rules.registry import GAMES
from schemas.openapi import game_prefix

from .oapi import SPEC_PATH

PACKAGE = "reign_referee_client"
STEPS = 400
OPTIONS = {"reign-supreme": {"round_limit": 2}, "reign-absolute": {"turn_limit": 6}}
"""Short games, so that each is played to its end quickly."""


pytestmark = pytest.mark.slow  # generates and installs a client, then plays whole games


@pytest.fixture(scope="module")
def client_package(tmp_path_factory):
    exe = shutil.which("openapi-python-client", path=str(Path(sys.executable).parent))
    if exe is None:
        pytest.skip("openapi-python-client is not installed (pip install -e '.[test]')")
    out = tmp_path_factory.mktemp("client")
    config = out / "config.json"
    # No formatter run (none is installed); a picture (image/svg+xml) is bytes to the client, as
    # the README's client command says.
    config.write_text(
        json.dumps(
            {
                "post_hooks": [],
                "content_type_overrides": {"image/svg+xml": "application/octet-stream"},
            }
        ),
        "utf-8",
    )
    done = subprocess.run(
        [
            exe,
            "generate",
            "--path",
            str(SPEC_PATH),
            "--meta",
            "none",
            "--config",
            str(config),
            "--output-path",
            str(out / PACKAGE),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    printed = done.stdout + done.stderr
    assert done.returncode == 0, printed
    assert "warning" not in printed.lower(), printed
    sys.path.insert(0, str(out))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(out))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


@pytest.fixture(scope="module")
def client(client_package, contract_app):
    import httpx

    return client_package.Client(
        base_url="http://referee.test",
        raise_on_unexpected_status=True,
        httpx_args={"transport": httpx.WSGITransport(app=contract_app)},
    )


def _module(game_id: str, operation: str):
    snake = game_id.replace("-", "_")
    return importlib.import_module(f"{PACKAGE}.api.{snake}.{snake}_{operation}")


def _model(name: str):
    snake = "".join("_" + c.lower() if c.isupper() else c for c in name).lstrip("_")
    return getattr(importlib.import_module(f"{PACKAGE}.models.{snake}"), name)


def _typed(game_id: str, operation: str, client, body):
    """Call ``operation``; the parsed answer, after checking it loses nothing of the JSON body."""
    answer = _module(game_id, operation).sync_detailed(client=client, body=body)
    assert answer.parsed is not None, (operation, answer.status_code, answer.content[:300])
    if answer.status_code == 200:
        assert answer.parsed.to_dict() == json.loads(answer.content), (
            f"{operation}: a field was dropped"
        )
    return answer.parsed


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_each_game_is_played_to_its_end_through_the_typed_client(client, game_id):
    p = game_prefix(game_id)
    game = GAMES[game_id]
    players = ["ann", "bob", "cat", "dan"][: game.min_players]
    setup = _typed(
        game_id,
        "setup_game",
        client,
        _model(p + "SetupRequest").from_dict(
            {"players": players, "seed": 5, "options": OPTIONS.get(game_id, {})}
        ),
    )
    state = setup.state
    assert type(state).__name__ == p + "State"
    chooser = random.Random(5)
    moves_of = _model(p + "LegalMovesRequest")
    move_request = _model(p + "MoveRequest")
    spec = yaml.safe_load(SPEC_PATH.read_text("utf-8"))["components"]["schemas"]
    event_types = {
        ref.rsplit("/", 1)[1] for ref in spec[p + "Event"]["discriminator"]["mapping"].values()
    }
    for _ in range(STEPS):
        listed = _typed(game_id, "legal_moves", client, moves_of(state=state)).moves
        if not listed:
            break
        move = chooser.choice([m for m in listed if m.type_ != "concede"] or listed)
        assert type(move).__name__.startswith(p) and type(move).__name__.endswith("Move")
        applied = _typed(game_id, "apply_move", client, move_request(state=state, move=move))
        for event in applied.events:
            assert type(event).__name__ in event_types, type(event).__name__
        state = applied.state
    assert state.status == "finished", f"{game_id} not finished in {STEPS} moves"
    score = _typed(game_id, "score_game", client, _model(p + "StateRequest")(state=state))
    assert score.finished and type(score.breakdown).__name__ == p + "ScoreBreakdown"
    view = _typed(game_id, "view_game", client, _model(p + "ViewRequest")(state=state))
    assert type(view.view).__name__ == p + "View"
    illegal = _typed(game_id, "apply_move", client, move_request(state=state, move=move))
    assert type(illegal).__name__ == "UnprocessableMoveProblem" and illegal.status == 422
    assert illegal.violations and illegal.violations[0].rule.startswith(game_id + "#")


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_catalogue_comes_out_as_each_games_own_classes(client_package, client, game_id):
    """``GET /v1/games`` and ``GET /v1/games/{game}`` name the game in ``id``: each entry parses
    into that game's ``GameInfo`` (``GameDetail``), every option and its default and the content
    kept. (Every option is optional: had the entries no discriminator, a client would read every
    game's options as the first game's and drop the rest.)"""
    p = game_prefix(game_id)
    games = importlib.import_module(f"{PACKAGE}.api.games")
    listing = importlib.import_module(games.__name__ + ".list_games")
    describe = importlib.import_module(games.__name__ + ".get_game")
    listed = _lossless(listing.sync_detailed(client=client))
    (info,) = [entry for entry in listed.games if entry.id == game_id]
    assert type(info).__name__ == p + "GameInfo", type(info).__name__
    assert type(info.options).__name__ == p + "Options", type(info.options).__name__
    assert info.options.to_dict() == json.loads(json.dumps(GAMES[game_id].default_options()))
    detail = _lossless(describe.sync_detailed(_model("GameId")(game_id), client=client))
    assert type(detail).__name__ == p + "GameDetail", type(detail).__name__
    assert type(detail.options).__name__ == p + "Options"
    assert type(detail.content).__name__ == p + "Content", type(detail.content).__name__
    assert detail.content.to_dict() == json.loads(json.dumps(GAMES[game_id].content()))


def _instant(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def _lossless(answer) -> object:
    """The parsed answer of a ``sync_detailed`` call, after checking it loses nothing of the body
    (history times and clock deadlines compared as instants: the client writes ``+00:00`` for the
    server's ``Z``)."""
    assert answer.status_code in (200, 201) and answer.parsed is not None, (
        answer.status_code,
        answer.content[:300],
    )
    body, parsed = json.loads(answer.content), answer.parsed.to_dict()
    for whole in (body, parsed):
        for entry in whole.get("entries", []):
            entry["at"] = _instant(entry["at"])
        for clock in [whole.get("clock"), *(e.get("clock") for e in whole.get("entries", []))]:
            if clock:
                clock["deadlines"] = {p: _instant(t) for p, t in clock["deadlines"].items()}
    assert parsed == body, "a field was dropped"
    return answer.parsed


@pytest.mark.parametrize("game_id", ["reign-and-ruin", "reigns-the-council"])
def test_a_session_is_played_through_the_typed_client(client_package, client, game_id):
    """Session answers are typed per game: Reigns: The Council's ``card_drawn`` and ``game_over``
    events share their ``type`` with Reign & Ruin's, and still arrive as the Council's classes."""
    p = game_prefix(game_id)
    sessions = importlib.import_module(f"{PACKAGE}.api.sessions")
    create = importlib.import_module(sessions.__name__ + ".create_session")
    legal = importlib.import_module(sessions.__name__ + ".session_legal_moves")
    submit = importlib.import_module(sessions.__name__ + ".submit_session_move")
    read = importlib.import_module(sessions.__name__ + ".read_session")
    history = importlib.import_module(sessions.__name__ + ".session_history")
    players = ["ann", "bob", "cat", "dan"][: GAMES[game_id].min_players]
    created = _lossless(
        create.sync_detailed(
            client=client,
            body=_model(p + "CreateSessionRequest").from_dict(
                {"game": game_id, "players": players, "open": True, "seed": 3}
            ),
        )
    )
    assert type(created).__name__ == p + "SessionCreated", created
    seats = created.seats.to_dict()
    spec = yaml.safe_load(SPEC_PATH.read_text("utf-8"))["components"]["schemas"]
    event_types = {
        ref.rsplit("/", 1)[1] for ref in spec[p + "Event"]["discriminator"]["mapping"].values()
    }
    chooser = random.Random(3)
    for _ in range(STEPS):
        movers = {}
        for player, token in seats.items():
            seat = client_package.AuthenticatedClient(
                base_url=client._base_url, token=token, httpx_args=client._httpx_args
            )
            listed = _lossless(legal.sync_detailed(created.session_id, client=seat))
            assert type(listed).__name__ == p + "SessionLegalMoves"
            if listed.moves:
                movers[player] = (seat, listed)
        if not movers:
            break
        seat, listed = movers[chooser.choice(sorted(movers))]
        moved = _lossless(
            submit.sync_detailed(
                created.session_id,
                client=seat,
                if_match=f'"{listed.version}"',
                body=_model("SessionMoveRequest")(move=chooser.choice(listed.moves)),
            )
        )
        assert type(moved).__name__ == p + "SessionMoveResponse", moved
        assert {type(e).__name__ for e in moved.events} <= event_types
    final = _lossless(read.sync_detailed(created.session_id, client=client))
    assert type(final).__name__ == p + "SessionSnapshot" and type(final.view).__name__ == p + "View"
    assert final.status == "finished" and final.view.outcome is not None
    told = _lossless(history.sync_detailed(created.session_id, client=client))
    assert type(told).__name__ == p + "SessionHistory" and told.entries
    assert {type(e).__name__ for entry in told.entries for e in entry.events} <= event_types
    records = importlib.import_module(f"{PACKAGE}.api.records")
    record_of = importlib.import_module(records.__name__ + ".session_record")
    fork = importlib.import_module(records.__name__ + ".fork_session")
    whole = _lossless(record_of.sync_detailed(created.session_id, client=client))
    assert type(whole).__name__ == p + "SessionRecord"
    assert whole.fairness.seed is not None and len(whole.entries) == len(told.entries)
    replay = _typed(
        game_id,
        "replay_record",
        client,
        _model(p + "ReplayRequest").from_dict(
            {"record": json.loads(json.dumps(whole.to_dict(), default=str))}
        ),
    )
    assert replay.valid is True
    admin = client_package.AuthenticatedClient(
        base_url=client._base_url, token=created.admin_token, httpx_args=client._httpx_args
    )
    forked = _lossless(
        fork.sync_detailed(created.session_id, client=admin, body=_model("ForkRequest")(version=2))
    )
    assert type(forked).__name__ == p + "SessionForked" and forked.forked_from.version == 2


def test_a_takeback_through_the_typed_client(client_package, client):
    """Reign Supreme set-up placements (public moves): the last seat to move takes back the
    other's last placement with its consent, through the typed client."""
    sessions = importlib.import_module(f"{PACKAGE}.api.sessions")
    records = importlib.import_module(f"{PACKAGE}.api.records")
    create = importlib.import_module(sessions.__name__ + ".create_session")
    legal = importlib.import_module(sessions.__name__ + ".session_legal_moves")
    submit = importlib.import_module(sessions.__name__ + ".submit_session_move")
    propose = importlib.import_module(records.__name__ + ".propose_takeback")
    answer = importlib.import_module(records.__name__ + ".answer_takeback")
    created = _lossless(
        create.sync_detailed(
            client=client,
            body=_model("ReignSupremeCreateSessionRequest").from_dict(
                {"game": "reign-supreme", "players": ["ann", "bob"]}
            ),
        )
    )
    seats = {
        player: client_package.AuthenticatedClient(
            base_url=client._base_url, token=token, httpx_args=client._httpx_args
        )
        for player, token in created.seats.to_dict().items()
    }
    movers = []
    while len(movers) < 6:
        for player, seat in sorted(seats.items()):
            listed = _lossless(legal.sync_detailed(created.session_id, client=seat))
            if listed.moves:
                body = _model("SessionMoveRequest")(move=listed.moves[0])
                _lossless(submit.sync_detailed(created.session_id, client=seat, body=body))
                movers.append(player)
                break
    last = movers[-1]
    other = next(p for p in reversed(movers) if p != last)
    to_version = len(movers) - movers[::-1].index(other) - 1
    proposed = _lossless(
        propose.sync_detailed(
            created.session_id,
            client=seats[last],
            body=_model("TakebackRequest")(to_version=to_version),
        )
    )
    assert type(proposed).__name__ == "SessionTakeback" and proposed.waiting_on == [other]
    accepted = _lossless(
        answer.sync_detailed(
            created.session_id,
            proposed.takeback_id,
            client=seats[other],
            body=_model("TakebackAnswerRequest").from_dict({"answer": "accept"}),
        )
    )
    assert accepted.status == "accepted" and accepted.version == 7


def test_a_clocked_session_through_the_typed_client(client_package, client, contract_app):
    """A clocked session's answers are typed (``SessionClock`` at the top level of each, and in
    every history entry), the admin's ``/clock`` answers ``SessionClockAnswer``, and a timeout
    arrives as a history entry ``by: clock`` (fired here by a timekeeper whose time is an hour
    ahead, so nothing waits on a real clock)."""
    from api.clock_keeper import ClockKeeper
    from api.session_clocks import now_ms

    sessions = importlib.import_module(f"{PACKAGE}.api.sessions")
    create = importlib.import_module(sessions.__name__ + ".create_session")
    set_clock = importlib.import_module(sessions.__name__ + ".set_session_clock")
    read = importlib.import_module(sessions.__name__ + ".read_session")
    history = importlib.import_module(sessions.__name__ + ".session_history")
    created = _lossless(
        create.sync_detailed(
            client=client,
            body=_model("ReignAndRuinCreateSessionRequest").from_dict(
                {
                    "game": "reign-and-ruin",
                    "players": ["ann", "bob"],
                    "clock": {"type": "per_move", "seconds": 60},
                    "on_timeout": {"action": "forfeit"},
                }
            ),
        )
    )
    assert type(created.clock).__name__ == "SessionClock"
    assert created.clock.running == ["ann", "bob"] and created.clock.paused is False
    admin = client_package.AuthenticatedClient(
        base_url=client._base_url, token=created.admin_token, httpx_args=client._httpx_args
    )
    body = _model("SessionClockRequest").from_dict(
        {"action": "add_time", "player": "bob", "seconds": 30}
    )
    added = _lossless(set_clock.sync_detailed(created.session_id, client=admin, body=body))
    assert type(added).__name__ == "SessionClockAnswer"
    assert added.clock.remaining_ms["bob"] > 60_000 >= added.clock.remaining_ms["ann"]
    keeper = ClockKeeper(
        contract_app.extensions["referee_sessions"], 1, now=lambda: now_ms() + 3_600_000
    )
    assert keeper.look(created.session_id).timeouts == [(1, "ann")]
    told = _lossless(history.sync_detailed(created.session_id, client=client))
    (entry,) = told.entries
    assert entry.by == "clock" and type(entry.clock).__name__ == "SessionClock"
    assert entry.move.type_ == "forfeit" and entry.clock.remaining_ms["ann"] == 0
    final = _lossless(read.sync_detailed(created.session_id, client=client))
    assert final.status == "finished" and final.view.outcome.winners == ["bob"]
    assert type(final.clock).__name__ == "SessionClock" and final.clock.running == []
