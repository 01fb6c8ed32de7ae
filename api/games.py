"""``/v1/games...``: the stateless endpoints. No storage is involved.

Every body goes through the same pipeline (docs/architecture.md):

1. content type ``application/json`` and no content coding (415), size within ``MAX_BODY_BYTES``
   (413), valid JSON (400);
2. the envelope schema (400 with ``errors`` keyed by field path);
3. the game's shape schemas for ``state``/``move``/``options`` (400, keyed from the body root);
4. ``game.check_state`` (422 ``invalid_state``);
5. the rules call (422 ``illegal_move`` / ``invalid_setup``).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any, NamedTuple

from flask import Blueprint, Response, current_app, request
from marshmallow import Schema
from werkzeug.exceptions import BadRequest, HTTPException, RequestEntityTooLarge

import schemas
from api import jsonio
from api.codings import check_no_content_coding
from api.errors import ApiError
from api.known_states import KnownStates, state_span
from api.request_buffer import MAX_CHUNKS
from rules.engine import Game
from rules.engine_types import Move, State, Violation
from rules.errors import InvalidState
from rules.pictures import MEDIA_TYPE, render
from rules.registry import GAMES, get_game
from schemas import requests as envelopes
from schemas.requests import MAX_SEED

__all__ = [
    "bp",
    "read_body",
    "StateBody",
    "read_state_body",
    "new_game",
    "checked_state",
    "picture",
]

bp = Blueprint("games", __name__, url_prefix="/v1/games")

_catalogue: dict[str, Any] = {}
_CHUNK = 64 * 1024
_NO_LIMIT = 1 << 62
_UNREADABLE = (
    "The request body could not be read in full (client gone, broken chunked encoding, or "
    f"more than {MAX_CHUNKS} chunks)."
)


def _is_json(mimetype: str) -> bool:
    return mimetype == "application/json" or (
        mimetype.startswith("application/") and mimetype.endswith("+json")
    )


def read_body(schema: Schema) -> dict[str, Any]:
    """The request's JSON body, checked by ``schema`` (the envelope). Raises the 4xx errors."""
    return schemas.load(schema, _parsed(_json_bytes(), jsonio.loads_body))


class StateBody(NamedTuple):
    """A request body that carries a ``state``: checked by its envelope, but for the state's own
    integral floats, which :func:`checked_state` reads as integers (or finds the state known)."""

    value: dict[str, Any]
    data: bytes
    """The body's bytes."""
    state_at: slice | None
    """Where the state's bytes are in ``data`` (``api.known_states.state_span``); None: not
    proven, and then the state's floats were read as integers here with the rest."""


def read_state_body(schema: Schema) -> StateBody:
    """``read_body`` for an envelope with a ``state``. The scan for float tokens (the costliest
    part of reading integral floats as integers, ``api.jsonio``) skips the state's bytes, which
    :func:`checked_state` scans only when it does not know them: a known state's bytes hold no
    float (``api.known_states``)."""
    data = _json_bytes()
    value = _parsed(data, jsonio.loads)
    # with known states off (KNOWN_STATES=0) no state is known: the whole body is scanned here
    at = (
        state_span(data, value)
        if type(value) is dict and "state" in value and _known_states().size
        else None
    )
    if at is None:
        outside_may_hold_float = jsonio.may_hold_float(data)
    else:
        outside_may_hold_float = jsonio.may_hold_float(data[: at.start]) or jsonio.may_hold_float(
            data[at.stop :]
        )
    if outside_may_hold_float:
        value = jsonio.with_integers(value)
    return StateBody(schemas.load(schema, value), data, at)


def _json_bytes() -> bytes:
    """The body's bytes, once its content type says JSON and no content coding is applied to it
    (415 else: ``api.codings``)."""
    if not _is_json(request.mimetype):
        given = request.mimetype or "no content type"
        raise ApiError(
            415,
            "unsupported_media_type",
            f"The request body must be application/json, not {given[:100]}.",
        )
    check_no_content_coding()
    return _read_data()


def _parsed(data: bytes, load: Callable[[bytes], Any]) -> Any:
    """``data`` parsed by ``load`` (400 when it is not JSON)."""
    try:
        return load(data)
    except jsonio.JSONDecodeError as err:  # also NaN, lone surrogates, nesting past 1024 levels
        raise ApiError(
            400, "malformed_json", f"The request body is not valid JSON: {err}"[:300]
        ) from None


def _read_data() -> bytes:
    """The raw body, at most ``MAX_CONTENT_LENGTH`` bytes; 413 beyond that.

    With a ``Content-Length`` werkzeug enforces the limit (413 before reading anything). Without
    one (chunked transfer), werkzeug's limited stream would silently *truncate* the body at the
    limit, so the raw stream is read here, one byte past the limit at most.
    """
    if request.content_length is not None:
        try:
            return request.get_data(cache=False)
        except HTTPException:  # 413, or werkzeug's ClientDisconnected (400)
            raise
        except Exception:  # the server's reader choking on a broken body
            raise BadRequest(_UNREADABLE) from None
    environ = request.environ
    if not environ.get("wsgi.input_terminated"):
        return b""  # no length and a server that does not terminate the stream: no body
    limit = current_app.config.get("MAX_CONTENT_LENGTH") or _NO_LIMIT
    stream = environ["wsgi.input"]
    chunks: list[bytes] = []
    total = 0
    while True:
        try:
            chunk = stream.read(min(_CHUNK, limit + 1 - total))
        except Exception:  # the client went away, or broke the chunked encoding (the server's
            raise BadRequest(_UNREADABLE) from None  # own exception types, e.g. gunicorn's)
        if not chunk:
            break
        total += len(chunk)
        if total > limit:
            raise RequestEntityTooLarge()
        chunks.append(chunk)
    return b"".join(chunks)


def _game(game_id: str) -> tuple[Game, schemas.GameSchemas]:
    game = get_game(game_id)  # UnknownGame -> 404
    return game, schemas.for_game(game.id)


def checked_state(game: Game, body: StateBody) -> State:
    """``body``'s state checked for ``game``: its shape (400, keyed ``state.<path>``), then its
    integrity (422 ``invalid_state``). A state that names another game is one 422 ``wrong_game``
    naming both games, before (and instead of) the field errors of this game's shape. A state
    whose bytes, or whose canonical JSON, this process has checked or written before is not
    checked again (``api.known_states``); otherwise its integral floats are read as integers
    first (:func:`read_state_body` left them)."""
    state = body.value["state"]
    named = state.get("game") if type(state) is dict else None
    if type(named) is str and named != game.id and named in GAMES:
        raise InvalidState(
            [
                Violation(
                    "wrong_game",
                    f"This is a {named} state; this endpoint is {game.id}'s "
                    f"(send it to /v1/games/{named}/...).",
                    f"{game.id}#integrity",
                )
            ]
        )
    known = _known_states()
    at = body.state_at
    text = None if at is None else body.data[at]
    digest = known.digest(game.id, text) if known.size else None
    if digest in known:
        return state  # remembered bytes hold no float token (below)
    if text is not None and jsonio.may_hold_float(text):
        state = body.value["state"] = jsonio.with_integers(state)
        digest = None  # bytes that may hold a float are read anew every time
    # Other bytes may still be a known state: a client that writes JSON its own way (Python's
    # spaced separators, its own key order) sends back the states the service wrote. Their
    # canonical form, written only on this miss, finds them, as before issue 28.
    canonical = known.canonical_digest(game.id, state) if known.size else None
    if canonical not in known:
        schemas.for_game(game.id).load_state(state)
        game.check_state(state)
        known.add(canonical)
    known.add(digest)
    return state


def _known_states() -> KnownStates:
    return current_app.extensions["referee_known_states"]


def _check_player(game: Game, state: State, player: str | None) -> None:
    if player is not None and player not in state["players"]:
        violation = Violation(
            "unknown_player",
            f"There is no player {player[:64]!r} in this game; the players are "
            f"{', '.join(state['players'])}.",
            f"{game.id}#players",
        )
        raise ApiError(422, "unknown_player", violation.message, violations=[violation.to_dict()])


# -- catalogue -----------------------------------------------------------------------------------
@bp.get("")
def list_games():
    games = _catalogue.get("__all__")
    if games is None:
        games = _catalogue["__all__"] = {"games": [game.info() for game in GAMES.values()]}
    return games


@bp.get("/<game_id>")
def game_info(game_id: str):
    game = get_game(game_id)
    info = _catalogue.get(game.id)
    if info is None:
        info = _catalogue[game.id] = dict(game.info(), content=game.content())
    return info


# -- the game ------------------------------------------------------------------------------------
def new_game(game: Game, body: dict[str, Any]) -> State:
    """The state a setup body ``{"players", "seed"?, "options"?}`` asks for: options shape-checked
    (400), a random seed when none is given, then the game's own setup (422 ``invalid_setup``).
    Shared by ``POST /v1/games/{game}/setup`` and ``POST /v1/sessions``."""
    options = body.get("options") or {}
    schemas.for_game(game.id).load_options(options)
    seed = body.get("seed")
    if seed is None:
        seed = secrets.randbelow(MAX_SEED + 1)
    return game.setup(list(body["players"]), seed, options)


@bp.post("/<game_id>/setup")
def setup(game_id: str):
    game = get_game(game_id)
    return _answer_with_state(game, new_game(game, read_body(envelopes.SETUP)))


def _answer_with_state(game: Game, state: State, **others: Any) -> Response:
    """The answer ``{"state": state, **others}``. The rules dealt or produced ``state``, so it is
    sound: it is remembered as known (``api.known_states``) by the very bytes of the answer, which
    a client sends back. The state is written once, for both."""
    text = jsonio.dumps(state)
    known = _known_states()
    known.add(known.digest(game.id, text))
    return jsonio.answer({"state": text, **{key: jsonio.dumps(v) for key, v in others.items()}})


def _state_and_player(game_id: str) -> tuple[Game, State, str | None]:
    """Body ``{"state", "player"?}``: the game, the checked state and the player (None: all)."""
    game = get_game(game_id)
    body = read_state_body(envelopes.STATE_PLAYER)
    state = checked_state(game, body)
    player = body.value.get("player")
    _check_player(game, state, player)
    return game, state, player


def _state_and_move(game_id: str) -> tuple[Game, State, Move]:
    """Body ``{"state", "move"}``: the game, the checked state and the shape-checked move."""
    game, shapes = _game(game_id)
    body = read_state_body(envelopes.MOVE)
    state = checked_state(game, body)
    shapes.load_move(body.value["move"])
    return game, state, body.value["move"]


@bp.post("/<game_id>/legal-moves")
def legal_moves(game_id: str):
    game, state, player = _state_and_player(game_id)
    return {"moves": game.legal_moves(state, player)}


@bp.post("/<game_id>/validate")
def validate(game_id: str):
    game, state, move = _state_and_move(game_id)
    # A player not in the game is a 422 unknown_player, as for legal-moves, view and suggest
    # (issue 24); any other illegal move is a 200 verdict.
    _check_player(game, state, move["player"])
    found = game.violations(state, move)
    return {"legal": not found, "violations": [v.to_dict() for v in found]}


@bp.post("/<game_id>/apply")
def apply(game_id: str):
    game, state, move = _state_and_move(game_id)
    new_state, events = game.apply(state, move)  # IllegalMove -> 422
    return _answer_with_state(game, new_state, events=events, outcome=new_state.get("outcome"))


@bp.post("/<game_id>/score")
def score(game_id: str):
    game = get_game(game_id)
    state = checked_state(game, read_state_body(envelopes.STATE))
    return game.score(state).to_dict()


@bp.post("/<game_id>/view")
def view(game_id: str):
    game, state, player = _state_and_player(game_id)
    return {"view": game.view(state, player)}


def picture(game: Game, state: State, player: str | None) -> Response:
    """``image/svg+xml`` of ``player``'s view of ``state`` (None: the spectator's). The picture is
    drawn from the view only (``rules.pictures``), so it hides what the view hides. It carries no
    script, and ``Content-Security-Policy`` forbids any anyway, should the SVG be opened directly.
    Shared with ``GET /v1/sessions/{id}/board.svg``."""
    return Response(
        render(game.view(state, player)),
        mimetype=MEDIA_TYPE,
        headers={
            "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
            "X-Content-Type-Options": "nosniff",
        },
    )


@bp.post("/<game_id>/render")
def render_view(game_id: str):
    game, state, player = _state_and_player(game_id)
    return picture(game, state, player)
