"""Game records (issue 26): export, verify, fork and take back, never past what a player may know.

Thin, like every endpoint: parse, authenticate, call ``rules.records``, commit through
``api.session_store``, serialise.

- ``POST /v1/games/{game}/replay``: a whole record replayed from its start (``rules.records.
  replay``, the one replay ``reign-referee verify FILE`` runs too).
- ``GET /v1/sessions/{id}/record``: the session's record, redacted for the caller (a seat: what
  it saw at each point; no token: the public record); whole once the game is finished.
- ``POST /v1/sessions/{id}/fork``: a new, open session at an earlier version (the true state of a
  finished game; one seat's knowledge of a running one, the hidden parts drawn afresh).
- ``POST /v1/sessions/{id}/takebacks`` and ``.../takebacks/{takeback_id}``: going back with the
  consent of every seat whose moves (or earlier takebacks) it undoes, never past the information
  horizon. A proposal honours ``Idempotency-Key`` as a move does, and an answer sent again gets
  the same answer, so a retry after a 503 ``outcome_unknown`` never lands a takeback twice.

A session's earlier states are not stored: they are replayed from its start (the setup its
options and seed give, or a fork's stored start) through its history, with the same rules.

Every replay run for a client is bounded up front (:data:`MAX_REPLAY_STATE_BYTES`: entries times
the start state's bytes), so that none holds a worker for more than about a second.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from typing import Any

from flask import Blueprint, Response

import schemas
from api import jsonio, rules_version, session_clocks
from api import session_access as access
from api.bot_seats import session_bot_seed
from api.errors import ApiError
from api.fairness import Fairness
from api.games import read_body
from api.session_store import (
    DIGEST_CHARS,
    Conflict,
    Remembered,
    Replay,
    Session,
    SessionGone,
    StateTooLarge,
    Withdrawn,
    now,
)
from api.store import OutcomeUnknown
from rules.engine import Game
from rules.engine_types import State
from rules.errors import RulesError
from rules.records import (
    TAKEBACK,
    Checks,
    Difference,
    NotReplayable,
    fork_state,
    horizon,
    make_record,
    replay,
    replay_states,
    start_state,
    state_digest,
    takeback_entry,
    undone_seats,
)
from rules.records.digest import canonical
from rules.registry import get_game
from schemas import records as shapes

__all__ = [
    "bp",
    "MAX_REPLAY_STATE_BYTES",
    "first_difference",
    "most_entries",
    "record_checks",
    "verify",
]

bp = Blueprint("records", __name__, url_prefix="/v1")

_KIB = 1024

MAX_REPLAY_STATE_BYTES = 16 * 1024 * 1024
"""The most a replay this service runs for a client may step through: its entries times its start
state's size (canonical JSON bytes), 16 MiB. Each entry replayed costs an apply and a digest of
the whole state it makes, about 30 to 55 ns a byte of that state in every game
(``bench/replay_cost.py``), so a replay within it costs at most about a second of a worker's CPU;
a 1 MiB record of cheap moves on the largest Reign Supreme board cost 9 s. A default-content
record may hold about 1,300 entries (two-seat Reign Supreme or Reign Absolute; 776 for four-seat
Reign Supreme) to 4,900 (Reign & Ruin), one on the largest custom content 173 (Reign Absolute) to
409 (Reigns: The Council). Beyond, nothing is replayed: ``/replay`` answers 422
``record_too_long``, a session's fork or takeback 409 ``history_too_long``. ``reign-referee
verify FILE`` runs on the client's own machine, unbounded (``docs/records.md``, "Cost")."""


def most_entries(start_bytes: int) -> int:
    """The most entries a replay from a start state of ``start_bytes`` (canonical JSON) may step
    through: :data:`MAX_REPLAY_STATE_BYTES` over it."""
    return MAX_REPLAY_STATE_BYTES // max(start_bytes, 1)


# -- replay (stateless) -----------------------------------------------------------------------
def _why(load: Any, value: Any) -> str | None:
    """The shape check ``load`` as a ``rules.records.Checks`` function: why ``value`` is
    malformed (the first messages), or None."""
    try:
        load(value)
    except schemas.ValidationError as err:
        return str(err.messages)[:300]
    return None


def record_checks(game: Game) -> Checks:
    """The game's shape checks, for the replay of one of its records."""
    shapes_ = schemas.for_game(game.id)
    return Checks(
        move=lambda move: _why(shapes_.load_move, move),
        state=lambda state: _why(shapes_.load_state, state),
        options=lambda options: _why(shapes_.load_options, options),
    )


def verify(game: Game, record: dict[str, Any], bounded: bool = False) -> dict[str, Any]:
    """The answer of ``/replay`` (and ``reign-referee verify``) for a record whose shape passed:
    ``{"valid": true}`` or ``{"valid": false, "first_difference", "detail"}``. ``bounded``
    (``/replay``): 422 ``record_too_long``, before any entry is replayed, when the record's
    entries times its start state's bytes go over ``MAX_REPLAY_STATE_BYTES``; ``reign-referee
    verify`` runs on the caller's own machine, unbounded."""
    difference = first_difference(game, record, bounded)
    if difference is None:
        return {"valid": True}
    return {
        "valid": False,
        "first_difference": difference.version,
        "detail": difference.detail,
    }


def first_difference(
    game: Game, record: dict[str, Any], bounded: bool = False
) -> Difference | None:
    """:func:`verify`'s replay, answered as ``rules.records.replay`` answers it: None, or the
    first :class:`Difference` (with whether the record withholds what it needs)."""
    checks = record_checks(game)
    if bounded:
        _check_record_length(game, record, checks)
    return replay(game, record, checks)


def _check_record_length(game: Game, record: dict[str, Any], checks: Checks) -> None:
    """422 ``record_too_long`` when ``record`` is over the bound (:func:`_start_bytes`); a start
    with no size to take is the replay's to answer (``valid: false`` at 0)."""
    start_bytes = _start_bytes(game, record, checks)
    if start_bytes is None:
        return
    entries = len(record["entries"])
    most = most_entries(start_bytes)
    if entries <= most:
        return
    raise ApiError(
        422,
        "record_too_long",
        f"This record has {entries} entries; from its start state of {start_bytes} bytes "
        f"(canonical JSON) this service replays at most {most}: a record's entries times its "
        f"start state's bytes may be at most {MAX_REPLAY_STATE_BYTES} (MAX_REPLAY_STATE_BYTES, "
        "about a second of replay). Nothing was replayed. Check it on your own machine with "
        "`reign-referee verify FILE`, which has no such limit.",
        errors={"record.entries": [f"At most {most} entries for a start state of this size."]},
        limit=most,
    )


def _start_bytes(game: Game, record: dict[str, Any], checks: Checks) -> int | None:
    """The bytes (canonical JSON) of the start ``record`` replays from, for the bound; None when
    it has none (withheld: a running fork's, a seed not revealed; or setup refuses its options).
    A fork's ``start`` is measured as it is, unchecked: the replay checks it, once (its shapes
    and ``Game.check_state``: 0.9 s for a crafted 210 KB Council state, which checking it here
    too doubled), and one over the bound is refused whether it would pass or not. A setup is
    made for its size: a few milliseconds (5 ms at the largest custom content), which the replay
    spends again."""
    start = record.get("start")
    if start is not None:
        return len(canonical(start))
    try:
        return len(canonical(start_state(game, record, checks)))
    except NotReplayable:
        return None


@bp.post("/games/<game_id>/replay")
def replay_record(game_id: str):
    game = get_game(game_id)  # 404 unknown_game
    body = read_body(shapes.REPLAY)  # 400: a malformed record
    return verify(game, body["record"], bounded=True)


# -- a session's earlier states ----------------------------------------------------------------
def _public_fairness(session: Session) -> dict[str, Any]:
    """The session's ``fairness`` (``api.fairness``): the seed commitment always; seed and salt
    once the game is finished, or from the start for an open session (a fork)."""
    return access.fairness(session).public(session.state["status"] == "finished")


def _start(game: Game, session: Session) -> State:
    """The session's version 0: a fork's stored start, else the setup its players, options and
    seed give."""
    start = session.origin.get("start")
    if start is not None:
        return start
    seed = access.fairness(session).seed
    return game.setup(list(session.players), seed, dict(session.options))


def _history(session: Session) -> list[dict[str, Any]]:
    """Every history entry of ``session`` as loaded (``session.version`` of them): the session
    deleted or expired since it was loaded is a 404 ``unknown_session`` (``SessionGone``), never
    a replay of a history cut short."""
    return access.store().all_history(session.id, session.version)


def _states(
    game: Game, session: Session, entries: list[dict[str, Any]], field: str | None = None
) -> list[State]:
    """Every state of the session, ``states[v]`` at version ``v``, replayed from its start.
    409 ``history_too_long`` (naming ``field`` of the request, when one chose how far) when the
    replay would go over :data:`MAX_REPLAY_STATE_BYTES`: nothing is replayed then."""
    states = [_start(game, session)]
    # the start's size rounded up to a KiB: the bound barely depends on the numbers of the deal
    most = most_entries(-(-len(canonical(states[0])) // _KIB) * _KIB)
    if len(entries) > most:
        exportable = all("state_digest" in e for e in entries)  # its record needs no replay
        raise _history_too_long(len(entries), most, session, field, exportable)
    try:
        states.extend(state for state, _ in replay_states(game, states[0], entries))
    except (NotReplayable, RulesError) as err:
        raise _not_replayable(str(err)) from None
    return states


def _history_too_long(
    version: int, most: int, session: Session, field: str | None, exportable: bool
) -> ApiError:
    """A fork, takeback or export whose replay from the session's start would go over the bound:
    the session's earlier states are replayed (never stored), at most ``most`` versions of them.
    ``exportable``: the session's record is kept with it (no replay to export it)."""
    extra: dict[str, Any] = {}
    if field is not None:
        extra["errors"] = {field: [f"At most {most}: this session's replays reach that far."]}
    return ApiError(
        409,
        "history_too_long",
        f"Reaching version {version} means replaying this session's history from its start, and "
        f"this service replays at most {most} versions of this game (the versions times the start "
        f"state's size may be at most {MAX_REPLAY_STATE_BYTES} bytes: MAX_REPLAY_STATE_BYTES, "
        "about a second of replay). Nothing changed; the game goes on"
        + (
            ", and its record (`GET /v1/sessions/{id}/record`) is whole for `reign-referee verify`."
            if exportable
            else ". This session was created before records were kept with sessions, so its "
            "record too would be rebuilt by that replay: it cannot be exported."
        ),
        limit=most,
        current_version=session.version,
        **extra,
    )


def _not_replayable(why: str) -> ApiError:
    return ApiError(
        409,
        "history_not_replayable",
        f"This session's history no longer replays with these rules ({why[:200]}); its earlier "
        "versions cannot be reached.",
    )


def _as_recorded(
    session: Session, entries: list[dict[str, Any]], state: State, version: int
) -> State:
    """``state``, version ``version`` as the replay rebuilt it (``_states``), when it is the state
    the session recorded there: its digest is the history entry's ``state_digest`` (version 0:
    ``start_digest``). Else 409 ``history_not_replayable``: a takeback never lands, and a fork
    never starts from, a state the game never had (docs/records.md, "Takeback with consent"). A
    version recorded without a digest (a session created before records) is taken as replayed.
    """
    if version == 0:
        recorded = session.origin.get("start_digest")
    else:
        recorded = entries[version - 1].get("state_digest")
    if recorded is not None and state_digest(state) != recorded:
        raise _not_replayable(
            f"version {version} replays to another state than the one its history recorded"
        )
    return state


# -- the record ------------------------------------------------------------------------------
@bp.get("/sessions/<session_id>/record")
def session_record(session_id: str):
    session = access.load_session(session_id)
    viewer = access.viewer(session)
    game = get_game(session.game)
    whole = session.state["status"] == "finished"
    seat = None if viewer is None or whole else session.players.index(viewer)
    kept = access.store().record_entries(session.id, session.version, whole, seat)
    headers = {"Vary": "Authorization", "Cache-Control": "no-store"}
    # an open game's running record shows no digests (rules.records.record), which the kept
    # entries hold: it is redacted from the history (open sessions are for tests and teaching)
    digests_shown = whole or not access.fairness(session).open
    if kept is not None and "start_digest" in session.origin and digests_shown:
        head = _record(game, session, [], viewer, whole)
        del head["entries"]  # the first key in sorted order: the kept entries go first
        body = b'{"entries":[' + kept + b"]," + jsonio.dumps(head)[1:]
        return Response(body, 200, headers, mimetype="application/json")
    return _record(game, session, _redacted_source(game, session), viewer, whole), 200, headers


def _redacted_source(game: Game, session: Session) -> list[dict[str, Any]]:
    """The history entries, each with its state digest, for a session that did not keep its
    record views (created before they were kept): redacted on each export."""
    entries = _history(session)
    if any("state_digest" not in e for e in entries):  # entries written before records
        states = _states(game, session, entries)
        entries = [dict(e, state_digest=state_digest(states[e["version"]])) for e in entries]
    return entries


def _record(
    game: Game,
    session: Session,
    entries: list[dict[str, Any]],
    viewer: str | None,
    whole: bool,
) -> dict[str, Any]:
    """The session's record for ``viewer`` (``rules.records.make_record``) over ``entries``
    (history entries, redacted here), with ``to_move`` as in every session answer."""
    start = session.origin.get("start")  # a fork's
    start_digest = session.origin.get("start_digest")
    if start is None and start_digest is None:  # a session created before records
        start = _start(game, session)
    record = make_record(
        game,
        players=session.players,
        options=session.options,
        fairness=_public_fairness(session),
        start=start,
        entries=entries,
        viewer=viewer,
        whole=whole,
        forked_from=session.origin.get("forked_from"),
        start_digest=start_digest,
        schema_version=_began_under(session),
    )
    record["to_move"] = game.waiting_on(session.state)  # as in every session answer
    return record


def _began_under(session: Session) -> int:
    """The rules version of the session's version 0, the record's ``schema_version``: a fork's
    start's, else the one kept at creation (``origin``), else, for a session created before it
    was kept, its state's (``rules_version.began_under``: a state of a session of other rules is
    never written here, and a takeback or fork never lands another version's state).
    Never the current state's as such: a game is recorded under the rules it began with."""
    start = session.origin.get("start")
    if start is not None:
        return start["schema_version"]
    return session.origin.get("schema_version", rules_version.began_under(session.state))


# -- fork ------------------------------------------------------------------------------------
@bp.post("/sessions/<session_id>/fork")
def fork(session_id: str):
    session = access.load_session(session_id, needs_token=True)
    token = access.bearer()
    if token is None:
        raise access.unauthorized(
            "Forking needs a seat or the admin token: 'Authorization: Bearer'."
        )
    seat = session.seat_of(token)
    if seat is None and not session.is_admin(token):
        raise access.unauthorized("The token does not open this session.")
    body = read_body(shapes.FORK)
    access.check_if_match(session.version)
    version = body["version"]
    if version > session.version:
        raise _unknown_version(version, session.version)
    wanted = body.get("as_")
    if wanted is not None and wanted not in session.players:
        raise _not_a_player(wanted)
    game = get_game(session.game)
    finished = session.state["status"] == "finished"
    knowledge = None if finished else _fork_seat(seat, wanted)
    if rules_version.of_other_rules(session.state):
        truth = _position_here(session, version)
    else:
        entries = _history(session)[:version]
        truth = _as_recorded(
            session, entries, _states(game, session, entries, "version")[version], version
        )
    try:
        start = fork_state(game, truth, knowledge, random.Random(secrets.randbits(128)))
    except ValueError as err:
        raise ApiError(
            422, "fork_unavailable", f"This game cannot be forked from a seat's view: {err}."
        ) from None
    forked_from = {"session_id": session.id, "version": version}
    origin = {"start_digest": state_digest(start), "start": start, "forked_from": forked_from}
    fairness = Fairness.new(start["seed"], open_=True)  # a fork is open: its seed is shown
    try:
        fork_id, seats, admin = access.store().create(
            start,
            now(),
            bots={},
            bot_seed=session_bot_seed(fairness.seed),
            fairness=fairness.to_stored(),
            options=session.options,
            origin=origin,
        )
    except StateTooLarge as err:
        raise access.too_large(err) from None
    payload = {
        "session_id": fork_id,
        "game": game.id,
        "version": 0,
        "seats": seats,
        "bots": {},
        "admin_token": admin,
        "view": game.view(start, None),
        "forked_from": forked_from,
        **access.table(game, start, fairness),
        "clock": None,  # a fork has no clock (and no bot seats)
    }
    headers = {
        "Location": f"/v1/sessions/{fork_id}",
        "ETag": access.etag(0),
        "Cache-Control": "no-store",
    }
    return payload, 201, headers


def _position_here(session: Session, version: int) -> State:
    """The true state a fork of a session of other rules (``api.rules_version``) starts from:
    its current state as stored, stamped with the version of the rules played here. 409
    ``rules_version_changed`` for an earlier ``version`` (reaching it would replay the history
    under rules it was not played by), or when that position does not pass these rules' checks
    (``rules_version.unfit``: the game's state shape and ``Game.check_state``)."""
    if version != session.version:
        detail = rules_version.only_current_forks(session.state, version, session.version)
        raise access.rules_version_changed(session, detail)
    position = rules_version.restamped(session.state)
    why = rules_version.unfit(position)
    if why is not None:
        detail = rules_version.unfit_detail(session.state, why)
        raise access.rules_version_changed(session, detail)
    return position


def _fork_seat(seat: str | None, wanted: str | None) -> str:
    """Whose knowledge a fork of a running game starts from: the caller's own seat. Forking as
    another seat would show the caller what that seat knows; the admin token sits at no seat."""
    if seat is None:
        raise ApiError(
            403,
            "forbidden",
            "A game still running forks only from one seat's knowledge: fork with that seat's "
            "token (the admin token forks finished games).",
        )
    if wanted is not None and wanted != seat:
        raise ApiError(
            403,
            "forbidden",
            f"This seat token is {seat!r}'s; a running game forks only as your own seat.",
        )
    return seat


def _not_a_player(wanted: str) -> ApiError:
    """422 ``unknown_player`` naming ``as``: a fork as nobody of the session, running or
    finished (a finished game's fork is the true state whoever asks, but a name that is no
    player's is a mistake to say, not to ignore)."""
    message = f"{wanted[:64]!r} is not a player of this session."
    return ApiError(422, "unknown_player", message, errors={"as": [message]})


def _unknown_version(version: int, current: int) -> ApiError:
    return ApiError(
        422,
        "unknown_version",
        f"The session has versions 0 to {current}, not {version}.",
        errors={"version": [f"Not a version from 0 to {current}."]},
        current_version=current,
    )


# -- takebacks -------------------------------------------------------------------------------
@bp.post("/sessions/<session_id>/takebacks")
def propose_takeback(session_id: str):
    session = access.load_session(session_id, needs_token=True)  # plays: after the key
    seat = access.seat(session)
    to_version = read_body(shapes.TAKEBACK)["to_version"]
    key = access.idempotency_key()
    idem = None if key is None else (seat, key)
    fingerprint = _proposal_fingerprint(to_version)
    if idem is not None:
        replayed = _replayed_proposal(session, idem, fingerprint)
        if replayed is not None:
            return replayed
    access.check_plays(session)
    access.check_if_match(session.version)
    if to_version >= session.version:
        raise ApiError(
            422,
            "invalid_takeback",
            f"A takeback goes back to an earlier version; the session is at {session.version}.",
            errors={"to_version": [f"Not a version before {session.version}."]},
            current_version=session.version,
        )
    if session.state["status"] == "finished":
        raise _game_over(session.version)
    game = get_game(session.game)
    entries = _history(session)
    states = _states(game, session, entries)
    earliest, _ = horizon(game, states, entries)
    if to_version < earliest:
        raise ApiError(
            409,
            "past_information_horizon",
            f"Going back to version {to_version} would undo a reveal of hidden information, a "
            f"chance event or a simultaneous decision; the earliest version a takeback may "
            f"return to is {earliest}.",
            horizon=earliest,
            current_version=session.version,
        )
    _as_recorded(session, entries, states[to_version], to_version)
    undone = undone_seats(entries[to_version:])
    waiting_on = [p for p in session.players if p in undone and p != seat and p not in session.bots]
    accepted_by = [seat] + [p for p in session.players if p in undone and p in session.bots]
    takeback = {
        "takeback_id": secrets.token_urlsafe(12),
        "to_version": to_version,
        "at_version": session.version,
        "proposed_by": seat,
        "waiting_on": waiting_on,
        "accepted_by": accepted_by,
    }
    if idem is not None:  # kept with it: a retry of a pending proposal finds it (not public)
        takeback["proposal"] = _proposal_mark(idem, fingerprint)
    if not waiting_on:  # it undoes only the proposer's moves (and bots', who accept)
        landed = _land(game, session, takeback, accepted_by, states, entries, idem, fingerprint)
        if isinstance(landed, Conflict):
            raise _moved_on()
        if isinstance(landed, Remembered):  # a retry with the key landed it meanwhile
            return _replayed_landing(session.id, landed, fingerprint), 201, _REPLAYED
        version, clock = landed
        table = access.table(game, states[to_version], access.fairness(session))
        return _takeback_answer(takeback, "accepted", [], version, dict(table, clock=clock)), 201
    key_field = "" if idem is None else access.store().answer_field(*idem)
    proposed = access.store().propose_takeback(session.id, session.version, takeback, key_field)
    if proposed == "same_key":  # the same proposal, sent again before the first was answered
        replayed = _replayed_proposal(session, idem, fingerprint) if idem else None
        if replayed is not None:
            return replayed
    if proposed != "proposed":
        raise _moved_on()
    access.store().announce_takeback(session.id, takeback["takeback_id"], "pending")
    table = _now_table(game, session)
    return _takeback_answer(takeback, "pending", waiting_on, session.version, table), 201


@bp.post("/sessions/<session_id>/takebacks/<takeback_id>")
def answer_takeback(session_id: str, takeback_id: str):
    session = access.load_session(session_id, needs_token=True, plays=True)
    seat = access.seat(session)
    answer = read_body(shapes.TAKEBACK_ANSWER)["answer"]
    store = access.store()
    found = store.answer_takeback(session.id, takeback_id)
    if found is None:
        raise _unknown_takeback()
    takeback, version = found.takeback, found.version
    if seat not in takeback["waiting_on"]:
        raise ApiError(403, "forbidden", "This takeback does not wait on your seat.")
    if version != takeback["at_version"]:
        return _landed_or_stale(takeback, answer, access.load_session(session.id))
    access.check_if_match(version)
    found = store.answer_takeback(session.id, takeback_id, seat, answer)
    if found is None:
        raise _unknown_takeback()
    takeback, version, answers, recorded = found
    game = get_game(session.game)
    table = _now_table(game, session)
    if "decline" in answers.values():
        store.announce_takeback(session.id, takeback_id, "declined")
        return _takeback_answer(takeback, "declined", [], version, table)
    waiting = [p for p in takeback["waiting_on"] if answers.get(p) != "accept"]
    if waiting:
        return _takeback_answer(takeback, "pending", waiting, version, table)
    try:
        return _land_accepted(game, session.id, takeback, version, answer)
    except Exception as err:
        # It did not land (a 503 or 507 says nothing was written; a 409 says to send it again):
        # this accept must not stay behind, or the takeback would wait on nobody and a later
        # decline would land it. When even that fails, whether the accept stays is unknown.
        if recorded and not isinstance(err, OutcomeUnknown):
            if not store.withdraw_answer(session.id, takeback_id, seat):
                raise OutcomeUnknown(f"the accept was not withdrawn after {err!r}"[:300]) from err
        raise


_LANDING_ATTEMPTS = 5
"""Tries to land an accepted takeback while only the session's clock changes under it (an
admin's add-time, a grace); a move makes it stale instead."""


def _land_accepted(
    game: Game, session_id: str, takeback: dict[str, Any], version: int, answer: str
) -> Any:
    """The answer to the last accept of ``takeback`` (recorded at ``version``): it lands
    (``accepted``), or the session moved on meanwhile (:func:`_landed_or_stale`). A commit
    refused because only the clock changed is tried again with the clock as it is now, up to
    ``_LANDING_ATTEMPTS`` times."""
    accepted_by = takeback["accepted_by"] + takeback["waiting_on"]
    to_version = takeback["to_version"]
    for _ in range(_LANDING_ATTEMPTS):
        session = access.load_session(session_id, plays=True)
        if version != takeback["at_version"] or session.version != takeback["at_version"]:
            return _landed_or_stale(takeback, answer, session)
        entries = _history(session)
        states = _states(game, session, entries)
        _as_recorded(session, entries, states[to_version], to_version)
        landed = _land(game, session, takeback, accepted_by, states, entries, pending=True)
        if isinstance(landed, Conflict):
            continue  # read again: a move makes it stale, a clock change is taken in
        assert not isinstance(landed, Remembered)  # no Idempotency-Key: never a replay
        new, clock = landed
        table = access.table(game, states[to_version], access.fairness(session))
        return _takeback_answer(takeback, "accepted", [], new, dict(table, clock=clock))
    session = access.load_session(session_id, plays=True)
    if session.version != takeback["at_version"]:  # a move, not the clock, refused the last try
        return _landed_or_stale(takeback, answer, session)
    raise _clock_kept_changing()


def _now_table(game: Game, session: Session) -> dict[str, Any]:
    """What every session answer carries (``fairness``, ``to_move``, ``clock``), as of now."""
    return dict(
        access.table(game, session.state, access.fairness(session)),
        clock=session_clocks.public(session),
    )


def _land(
    game: Game,
    session: Session,
    takeback: dict[str, Any],
    accepted_by: list[str],
    states: list[State],
    entries: list[dict[str, Any]],
    idem: tuple[str, str] | None = None,
    fingerprint: str | None = None,
    pending: bool = False,
) -> tuple[int, dict[str, Any] | None] | Remembered | Conflict:
    """Commit the accepted ``takeback``: a new version whose state is ``to_version``'s (the
    history only grows), with the clock in the same compare-and-set (``session_clocks.
    for_takeback``: time is not given back to the proposer, the others get theirs at
    ``to_version`` back (never less than they have), the admin's add-time since stays, the seats
    waited on run), and the proposal's Idempotency-Key ``idem`` remembered with it, as a move's
    is. Its version and clock as the takeback's entry shows it; what the session remembers of
    ``idem`` when a request with it landed first; the :class:`Conflict` when the session moved
    on meanwhile (or its clock changed: an admin paused it, say); 404 when the session was
    deleted or expired meanwhile, or when the takeback was ``pending`` (proposed, then
    accepted) and a new proposal replaced it after the last accept was recorded: one of the two
    racing writes wins, never both (the proposer told "pending" while the one replaced
    lands)."""
    to_version = takeback["to_version"]
    entry = takeback_entry(
        session.version + 1,
        takeback["proposed_by"],
        to_version,
        takeback["takeback_id"],
        accepted_by,
        now(),
        states[to_version],
    )
    clock = session_clocks.for_takeback(
        session, game, states, entries, entry, session_clocks.now_ms()
    )
    try:
        result = access.store().commit(
            session.id,
            session.version,
            states[to_version],
            entry,
            entry["at"],
            idem,
            fingerprint,
            clock,
            takeback["takeback_id"] if pending else "",
        )
    except StateTooLarge as err:  # pragma: no cover - the state was stored once already
        raise access.too_large(err) from None
    if isinstance(result, Replay):
        return result.remembered
    if isinstance(result, Withdrawn):
        raise _unknown_takeback()
    if isinstance(result, Conflict):
        if result.current is None:
            raise SessionGone(session.id)
        return result
    access.bot_seats().nudge(session.id, states[to_version], session.bots)
    return result.version, entry.get("clock")


def _unknown_takeback() -> ApiError:
    """404: the takeback named is not the pending one (another proposal replaced it, or it
    never existed)."""
    return ApiError(404, "unknown_takeback", "There is no such takeback pending here.")


def _takeback_answer(
    takeback: dict[str, Any],
    status: str,
    waiting_on: list[str],
    version: int,
    table: dict[str, Any],
) -> dict[str, Any]:
    """A takeback's answer, with what every session answer carries (``fairness``, ``to_move``,
    ``clock``)."""
    return {
        "takeback_id": takeback["takeback_id"],
        "status": status,
        "to_version": takeback["to_version"],
        "proposed_by": takeback["proposed_by"],
        "waiting_on": waiting_on,
        "version": version,
        **table,
    }


def _proposal_fingerprint(to_version: int) -> str:
    """What makes two requests with one Idempotency-Key the same takeback proposal: the digest
    of its ``to_version`` (never the digest of a move: a key reused across the two is caught)."""
    digest = hashlib.sha256(jsonio.dumps(["takeback", to_version])).hexdigest()
    return digest[:DIGEST_CHARS]


def _proposal_mark(idem: tuple[str, str], fingerprint: str) -> str:
    """What a pending proposal keeps of its Idempotency-Key: the seat's key field (a digest;
    ``SessionStore.answer_field``) and the request's digest."""
    return f"{access.store().answer_field(*idem)} {fingerprint}"


def _replayed_proposal(
    session: Session, idem: tuple[str, str], fingerprint: str
) -> tuple[dict[str, Any], int, dict[str, str]] | None:
    """The first answer to a proposal sent again with its Idempotency-Key (``Idempotent-
    Replayed``), or None when the key is new here. One that landed at once is remembered as a
    move's key is (for ``IDEMPOTENCY_WINDOW_SECONDS``) and answered as it landed; one that
    waited on seats is found while it is the session's latest proposal, and answered as it was
    proposed (``pending``; the session's table as of now). 422 ``idempotency_key_reused`` when
    the key was used for another request."""
    store = access.store()
    prior = store.remembered(session.id, *idem)
    if prior is not None:
        return _replayed_landing(session.id, prior, fingerprint), 201, _REPLAYED
    latest = store.latest_takeback(session.id)
    if latest is None or "proposal" not in latest:
        return None
    field, _, digest = latest["proposal"].partition(" ")
    if field != store.answer_field(*idem):
        return None
    if digest != fingerprint:
        raise access.key_reused()
    table = _now_table(get_game(session.game), session)
    answer = _takeback_answer(latest, "pending", latest["waiting_on"], latest["at_version"], table)
    return answer, 201, _REPLAYED


def _replayed_landing(session_id: str, prior: Remembered, fingerprint: str) -> dict[str, Any]:
    """The answer of a takeback that landed at once, rebuilt from its history entry (the
    version it made and its clock; the session's table as of now), for a retry of its
    proposal."""
    if prior.digest != fingerprint:
        raise access.key_reused()
    return _landed_answer(session_id, prior.version)


def _landed_answer(session_id: str, version: int) -> dict[str, Any]:
    """``accepted``, rebuilt from the takeback entry that made ``version``."""
    source = access.store().replay_source(session_id, version)
    if source is None:
        raise ApiError(404, "unknown_session", "The session was deleted or expired.")
    session, entry = source
    if entry.get("by") != TAKEBACK:  # the key's request was a move
        raise access.key_reused()
    taken = entry["takeback"]
    table = dict(_now_table(get_game(session.game), session), clock=entry.get("clock"))
    takeback = {**taken, "proposed_by": entry["player"]}
    return _takeback_answer(takeback, "accepted", [], version, table)


def _landed_or_stale(
    takeback: dict[str, Any], answer: str, session: Session
) -> tuple[dict[str, Any], int, dict[str, str]]:
    """The answer to an ``accept`` of a takeback that has already landed (this seat's accept
    sent again after its answer was lost, say): ``accepted`` again, as it landed, so no client
    proposes again what happened. A takeback lands only at the version after the one it was
    proposed at, so its entry there says. Else the session moved on without it: 409
    ``takeback_stale``."""
    landed_at = takeback["at_version"] + 1
    if answer == "accept" and session.version >= landed_at:
        _, found = access.store().history(session.id, takeback["at_version"], 1)
        taken = found[0].get("takeback") if found else None
        if taken is not None and taken["takeback_id"] == takeback["takeback_id"]:
            return _landed_answer(session.id, landed_at), 200, _REPLAYED
    raise _stale(takeback, session)


_REPLAYED = {"Idempotent-Replayed": "true"}
"""The header of an answer rebuilt for a request that had landed before (as for moves)."""


def _clock_kept_changing() -> ApiError:
    """409 for a last accept whose landing the session's clock refused ``_LANDING_ATTEMPTS``
    times (admins adding time over and over): nothing landed, and :func:`answer_takeback`
    withdraws the accept, so the takeback still waits on this seat (not "propose it again": the
    takeback is still pending)."""
    return ApiError(
        409,
        "version_conflict",
        "The session's clock kept changing while the takeback was landing, so it did not land "
        "and still waits on your accept: send it again.",
    )


def _moved_on() -> ApiError:
    return ApiError(
        409,
        "version_conflict",
        "The session moved on while the takeback was being made; propose it again.",
    )


def _game_over(version: int) -> ApiError:
    """A takeback proposed once the game is over: its last move ended it and revealed the seed
    and every hidden card, a barrier (``finished``, or the clock's), so the horizon is the last
    version and nothing can be taken back (docs/records.md, "The information horizon")."""
    return ApiError(
        409,
        "past_information_horizon",
        f"The game is over (at version {version}): its end revealed the seed and every hidden "
        "card, so nothing can be taken back. Fork it to play on from an earlier version.",
        horizon=version,
        current_version=version,
    )


def _stale(takeback: dict[str, Any], session: Session) -> ApiError:
    """A takeback answered after the session moved on (``session``, read again): it no longer
    applies. It may be proposed again, unless that move ended the game."""
    then = (
        "The game is over: nothing can be taken back."
        if session.state["status"] == "finished"
        else "Propose it again."
    )
    return ApiError(
        409,
        "takeback_stale",
        f"The takeback was proposed at version {takeback['at_version']}; the session is at "
        f"{session.version} now, so it no longer applies. {then}",
        current_version=session.version,
    )
